"""The per-game facts of ``record_games`` (the designer report's raw data) against a
turn-by-turn replay of the same game, and the statistics helpers of the reports."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oddsbot.analyser.camel_up.encode import rules_state
from oddsbot.analyser.camel_up.variants import variant
from oddsbot.kernels import camel_up as K
from oddsbot.kernels.rng import stream
from oddsbot.reports import stats
from oddsbot.reports.camel_up.games import COLOURS, seat_policies, simulate_block

POLICY_SETS = {"heuristic": (K.HEURISTIC,), "random": (K.RANDOM,),
               "mixed": (K.HEURISTIC, K.RANDOM)}


def replayed_facts(variant_id: str, players: int, policies: np.ndarray, seed: int,
                   r: int) -> dict:
    """Game ``r`` played by ``play_out`` (which logs every turn), then replayed turn by
    turn through ``apply_action`` with the facts derived from the state as it goes: a
    leg was scored when every player's pyramid tickets went back to 0."""
    v = variant(variant_id)
    st0 = rules_state(v, players)
    K.setup_camels(st0, stream(seed, 3 * r))
    log = np.zeros((K.MAX_TURNS, 3), dtype=np.int64)
    turns = K.play_out(st0.copy(), policies, K.HEURISTIC_PARAMS, stream(seed, 3 * r + 1),
                       stream(seed, 3 * r + 2), K.workspace(), log)
    order = np.empty(K.N_RACING, dtype=np.int64)

    def ranking(s: np.ndarray) -> list[int]:
        K.ranking(s, order)
        return [int(c) for c in order]

    start = ranking(st0)
    s = st0.copy()
    leaders, kinds = [], np.zeros((players, len(K.KIND_NAMES)), dtype=int)
    changes, last_by_grey = 0, False
    kind_of = {**{K.A_TICKET + c: "ticket" for c in range(5)}, K.A_PYRAMID: "pyramid",
               **{K.A_SPECTATOR + i: "spectator" for i in range(30)},
               **{K.A_WINNER + c: "winner_bet" for c in range(5)},
               **{K.A_LOSER + c: "loser_bet" for c in range(5)},
               **{K.A_PARTNER + p: "partner" for p in range(8)}}
    for action, die, face in log[:turns]:
        seat = int(s[K.TO_MOVE])
        kinds[seat, K.KIND_NAMES.index(kind_of[int(action)])] += 1
        before = ranking(s)[0]
        K.apply_action(s, action, die, face)
        if action == K.A_PYRAMID:
            after = ranking(s)[0]
            if after != before:
                last_by_grey = bool(die == K.GREY)
                changes += last_by_grey
            if not s[K.STATUS] and all(s[K.PTIX + p] == 0 for p in range(players)):
                leaders.append(after)
    final = ranking(s)
    assert s[K.STATUS] == 1
    return {"start": start, "turns": turns, "legs": len(leaders) + 1, "leaders": leaders,
            "winner": final[0], "loser": final[-1], "money": [int(x) for x in
                                                              s[K.MONEY:K.MONEY + players]],
            "changes": changes, "decided": last_by_grey, "kinds": kinds}


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32), r=st.integers(0, 10**6),
       variant_id=st.sampled_from(["camel-up", "camel-up-2014"]),
       players=st.integers(3, 8), policy=st.sampled_from(sorted(POLICY_SETS)))
def test_recorded_facts_match_a_turn_by_turn_replay(seed, r, variant_id, players, policy):
    v = variant(variant_id)
    players = min(players, v.max_players)
    codes = np.array([POLICY_SETS[policy][i % len(POLICY_SETS[policy])]
                      for i in range(players)], dtype=np.int64)
    row = K.record_games(rules_state(v, players), codes, K.HEURISTIC_PARAMS, seed, r, 1, 1)[0]
    want = replayed_facts(variant_id, players, codes, seed, r)
    assert [int(row[K.F_START + c]) for c in range(K.N_RACING)] == \
        [want["start"].index(c) for c in range(K.N_RACING)]
    assert row[K.F_TURNS] == want["turns"]
    assert row[K.F_LEGS] == want["legs"]
    logged = want["leaders"][:K.MAX_LEGS_LOGGED]
    assert list(row[K.F_LEADER:K.F_LEADER + K.MAX_LEGS_LOGGED]) == \
        logged + [-1] * (K.MAX_LEGS_LOGGED - len(logged))
    assert (row[K.F_WINNER], row[K.F_LOSER]) == (want["winner"], want["loser"])
    assert list(row[K.F_MONEY:K.F_MONEY + K.MAX_PLAYERS]) == \
        want["money"] + [-1] * (K.MAX_PLAYERS - players)
    assert row[K.F_CRAZY_CHANGES] == want["changes"]
    assert row[K.F_CRAZY_DECIDED] == want["decided"]
    kinds = row[K.F_ACTIONS:].reshape(K.MAX_PLAYERS, K.N_KINDS)
    assert (kinds[:players] == want["kinds"]).all()
    assert (kinds[players:] == 0).all()
    if not v.crazy:
        assert row[K.F_CRAZY_CHANGES] == 0 and row[K.F_CRAZY_DECIDED] == 0


def test_rows_depend_on_the_game_number_only():
    rules = rules_state(variant("camel-up"), 5)
    codes = np.full(5, K.HEURISTIC, dtype=np.int64)
    whole = K.record_games(rules, codes, K.HEURISTIC_PARAMS, 11, 0, 700, 64)
    for game0, n, chunk in ((0, 700, 1), (0, 700, 1000), (123, 200, 7), (650, 50, 3)):
        part = K.record_games(rules, codes, K.HEURISTIC_PARAMS, 11, game0, n, chunk)
        assert (part == whole[game0:game0 + n]).all()
    other_seed = K.record_games(rules, codes, K.HEURISTIC_PARAMS, 12, 0, 700, 64)
    assert (other_seed != whole).any()


def test_block_table_columns_and_meaning():
    df = simulate_block("camel-up", 4, seat_policies(("heuristic", "random"), 4), 5, 40, 300)
    assert list(df["game"]) == list(range(40, 340))
    assert set(df["variant"]) == {"camel-up"}
    assert {f"money_{p}" for p in range(4)} <= set(df.columns)
    assert "money_4" not in df.columns
    assert set(df["winner"].astype(str)) <= set(variant("camel-up").colours)
    assert (df["winner"] != df["loser"]).all()
    for order in df["start_order"]:
        assert sorted(order) == sorted(variant("camel-up").letters)
    acted = sum(df[f"{k}_{p}"] for k in K.KIND_NAMES for p in range(4))
    assert (acted == df["turns"]).all()
    scored = df[[f"leader_leg_{k}" for k in range(1, K.MAX_LEGS_LOGGED + 1)]].notna()
    assert (scored.sum(axis=1) == np.minimum(df["legs"] - 1, K.MAX_LEGS_LOGGED)).all()
    assert list(df["winner"].cat.categories) == list(COLOURS)


def test_seat_policies_repeat_over_the_seats():
    assert seat_policies((), 3) == ("heuristic",) * 3
    assert seat_policies(("random", "heuristic"), 5) == ("random", "heuristic", "random",
                                                         "heuristic", "random")


@pytest.mark.parametrize("x, df, p", [(3.841458820694124, 1, 0.05), (5.991464547107979, 2, 0.05),
                                      (7.814727903251178, 3, 0.05), (9.487729036781154, 4, 0.05),
                                      (11.070497693516351, 5, 0.05), (1.0, 1, 0.3173105078629141),
                                      (2.0, 2, math.exp(-1.0)), (0.0, 3, 1.0)])
def test_chi2_survival_function(x, df, p):
    assert stats.chi2_sf(x, df) == pytest.approx(p, abs=1e-12)


def test_uniformity_test_and_intervals():
    stat, dof, p = stats.uniformity_test(np.array([25.0, 25.0, 25.0, 25.0]))
    assert (stat, dof, p) == (0.0, 3, 1.0)
    stat, dof, p = stats.uniformity_test(np.array([60.0, 40.0]))
    assert stat == pytest.approx(4.0) and p == pytest.approx(0.04550026389635842, abs=1e-12)
    lo, hi = stats.wilson(5, 10)
    assert (float(lo), float(hi)) == pytest.approx((0.2365930905, 0.7634069095), abs=1e-9)
    lo, hi = stats.wilson(0, 20)
    assert float(lo) == 0.0 and 0 < float(hi) < 0.2
    m, lo, hi = stats.mean_ci(np.array([1.0, 2.0, 3.0, 4.0]))
    assert m == 2.5 and hi - m == pytest.approx(stats.Z * math.sqrt(5 / 3) / 2)
    q, lo, hi = stats.quantile_ci(np.arange(1, 101), 0.5)
    assert q == 50 and lo < 50 < hi
    r, lo, hi = stats.ratio_ci(np.array([1.0, 2.0, 3.0]), np.array([2.0, 4.0, 6.0]))
    assert (r, lo, hi) == (0.5, 0.5, 0.5)  # the same share in every unit: no spread
    r, lo, hi = stats.ratio_ci(np.array([3.0]), np.array([4.0]))
    assert r == 0.75 and math.isnan(lo) and math.isnan(hi)  # one game: no interval
