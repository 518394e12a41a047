"""Five Tribes strategy: rollouts from a position (docs/games/five-tribes.md §21).

* a finished game rolls out to its own result, with zero standard error;
* common random numbers make the paired gap's error smaller than independent samples';
* secret gold is drawn from its interval: the state's own gold of any seat is never read;
* a seed fixes rollouts whatever the thread count or how they are cut into pieces;
* ``advise --rollouts`` and ``odds``: their columns, candidates and refusals.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from oddsbot.analyser.five_tribes import face as ft
from oddsbot.analyser.five_tribes.advise import advise
from oddsbot.analyser.five_tribes.encode import decode, encode
from oddsbot.analyser.five_tribes.labels import turn_labels
from oddsbot.analyser.five_tribes.rollouts import gold_bounds, shares, standings, turn_equity
from oddsbot.analyser.five_tribes.simulate import simulate
from oddsbot.analyser.five_tribes.turns import turn_rows
from oddsbot.errors import OddsbotError
from oddsbot.kernels import five_tribes as K
from oddsbot.kernels.rng import stream

from five_tribes_positions import SCREENED, random_midgame

OPENING = ft.parse((Path(__file__).parents[2] / "examples" / "five-tribes-opening-4p.json")
                   .read_text())
HEURISTIC = K.POLICY_NAMES.index("heuristic")


def finished(players: int, seed: int) -> np.ndarray:
    """The state at the end of a whole heuristic game (after its last clean-up)."""
    st = encode(ft.new_position(players, seed, "five-tribes"))
    keys = np.zeros(3, dtype=np.int64)
    K.play_out(st, np.full(players, HEURISTIC), K.HEURISTIC_PARAMS,
               np.stack([stream(np.uint64(seed), i) for i in range(3)]), keys, np.uint64(0),
               K.walk_tables_once(), K.turn_workspace(), np.zeros(K.MAX_BIDS, dtype=np.int64),
               np.zeros(K.N_FIELDS, dtype=np.int64))
    assert K.game_over(st)
    return st


@pytest.mark.parametrize("players, seed", [(2, 3), (4, 5)])
def test_a_finished_game_rolls_out_to_its_result_with_zero_se(players, seed):
    pos = decode(finished(players, seed))
    totals = K.state_scores(encode(pos))[:, -1]
    got = standings(pos, rollouts=40, seed=1)
    winners = totals == totals.max()
    np.testing.assert_array_equal(got.win, winners / winners.sum())
    np.testing.assert_array_equal(got.score, totals)
    assert (got.win_se == 0).all() and (got.score_se == 0).all()
    # stopping at a target: the first batch already has zero error
    assert standings(pos, seed=1, target_se=0.01).rollouts == 256


def test_win_credit_is_shared_among_ties():
    scores = np.array([[10, 12, 12], [9, 3, 1]])
    np.testing.assert_array_equal(shares(scores), [[0, 0.5, 0.5], [1, 0, 0]])


def best_turns(pos, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The kinds and rows of the ``k`` best complete turns by exact value (no draws)."""
    actions, parts, _ = K.complete_turns(encode(pos))
    order = np.argsort(-parts[:, -1], kind="stable")[:k]
    return np.full(k, K.CAND_TURN), actions[order]


def same_sowing(pos, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The best complete turn and up to ``k - 1`` others of the same sowing (other tribe,
    tile or sale choices), best first."""
    actions, parts, _ = K.complete_turns(encode(pos))
    order = np.argsort(-parts[:, -1], kind="stable")
    best = actions[order[0]]
    n = best[K.A_LEN]
    sowing = np.r_[K.A_START, K.A_LEN, K.A_PATH:K.A_PATH + n, K.A_COLOURS:K.A_COLOURS + n]
    same = [i for i in order if (actions[i, sowing] == best[sowing]).all()][:k]
    assert len(same) == k
    return np.full(k, K.CAND_TURN), actions[same]


def test_common_random_numbers_shrink_the_gap_error():
    """Turns of one sowing leave the opponents the same board: on common random numbers
    their games start alike, so the paired gap's error is below the independent one
    (sqrt of the two variances; measured 0.91 of it here). Games after turns of
    different sowings part ways at once (docs/games/five-tribes.md §21.3). Checked for
    the turns that win at times (over 2 % of the rollouts; here the best and one other):
    a turn that (almost) never wins has a gap equal to the best turn's own wins, whose
    error no pairing shrinks (two of the four win 0.2 % of the rollouts here)."""
    kinds, cands = same_sowing(OPENING, 4)
    eq = turn_equity(OPENING, kinds, cands, rollouts=1024, seed=2)
    best = int(np.argmax(eq.win))
    independent = np.sqrt(eq.win_se ** 2 + eq.win_se[best] ** 2)
    others = (np.arange(4) != best) & (eq.win > 0.02)
    assert others.any(), eq.win
    assert (eq.gap_se[others] < 0.95 * independent[others]).all(), (eq.gap_se, independent)
    assert eq.gap_se[best] == 0


def test_identical_candidates_get_identical_rollouts():
    kinds, cands = best_turns(OPENING, 1)
    lo, hi = np.full(4, 50), np.full(4, 50)
    out = K.rollouts(encode(OPENING), np.repeat(kinds, 3), np.repeat(cands, 3, axis=0), lo, hi,
                     np.full(4, HEURISTIC), 7, 0, 16)
    assert (out[:, 0] == out[:, 1]).all() and (out[:, 0] == out[:, 2]).all()


def secret(pos, player: int, lo: int, hi: int):
    """``pos`` with ``player``'s gold secret in ``lo..hi``."""
    players = list(pos.players)
    players[player] = replace(players[player], gold=(lo + hi) // 2, gold_range=(lo, hi))
    return pos.with_(players=tuple(players))


def test_rollouts_never_read_the_gold_they_draw():
    """Changing only what the viewer cannot see (a secret seat's true gold in the state)
    leaves every rollout unchanged; changing the interval does change them."""
    pos = secret(OPENING, 2, 20, 60)
    kinds, cands = best_turns(pos, 2)
    lo, hi = np.array([38, 50, 20, 50]), np.array([38, 50, 60, 50])
    st = encode(pos)
    runs = []
    for true_gold in (0, 20, 44, 60, 999):
        st[K.P_GOLD + 2] = true_gold
        runs.append(K.rollouts(st, kinds, cands, lo, hi, np.full(4, HEURISTIC), 11, 0, 32))
    for out in runs[1:]:
        np.testing.assert_array_equal(out, runs[0])
    other = K.rollouts(st, kinds, cands, lo, np.array([38, 50, 21, 50]),
                       np.full(4, HEURISTIC), 11, 0, 32)
    assert (other != runs[0]).any()


def test_secret_gold_is_drawn_uniformly_from_its_interval():
    """A finished game: nothing more is played, so a seat's final gold is the gold drawn
    for it: every value of its interval, about equally often; known gold stays as is."""
    st = finished(3, 4)
    gold = st[K.P_GOLD:K.P_GOLD + 3].copy()
    lo, hi = gold.copy(), gold.copy()
    lo[1], hi[1] = 10, 13
    gold_part = K.SCORE_PARTS.index("gold")
    rest = K.state_scores(st)[:, -1] - K.state_scores(st)[:, gold_part]
    out = K.rollouts(st, [K.CAND_NONE], np.zeros((1, K.ACTION_SIZE)), lo, hi,
                     np.full(3, HEURISTIC), 5, 0, 4000)[:, 0]
    np.testing.assert_array_equal(out[:, [0, 2]] - rest[[0, 2]], np.tile(gold[[0, 2]], (4000, 1)))
    counts = np.bincount(out[:, 1] - rest[1] - 10)
    assert len(counts) == 4 and counts.sum() == 4000
    assert (np.abs(counts - 1000) < 4 * np.sqrt(1000 * 0.75)).all(), counts


def test_rollouts_do_not_depend_on_threads_or_pieces():
    kinds, cands = best_turns(OPENING, 3)
    args = (encode(OPENING), kinds, cands, np.full(4, 50), np.full(4, 50), np.full(4, HEURISTIC),
            3, 5, 24)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = K.rollouts(*args, piece=24)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = K.rollouts(*args, piece=5)
    finally:
        numba.set_num_threads(threads)
    np.testing.assert_array_equal(one, two)
    # rollouts 5..28 are rollouts 5..28 of a longer run
    np.testing.assert_array_equal(K.rollouts(*args[:-2], 0, 29)[5:], one)


def test_advise_rolls_out_the_best_turns_by_ev():
    table = advise(OPENING, rollouts=32, candidates=3, seed=1)
    frame = table.frame()
    rolled = frame[frame["win_p"].notna()]
    assert len(rolled) == 3
    assert list(frame.index[frame["win_p"].notna()]) == [0, 1, 2]  # first, by win_p
    assert rolled["win_p"].is_monotonic_decreasing
    best_ev = frame["ev"].sort_values(ascending=False).iloc[:3]
    assert sorted(rolled["ev"]) == sorted(best_ev)
    assert abs(rolled["p_best"].sum() - 1) < 1e-9
    for col in ("win_se", "margin", "margin_se", "gap_se"):
        assert rolled[col].notna().all() and frame.loc[3:, col].isna().all()
    prov = table.provenance
    assert prov["rollouts"] == 32 and prov["policy"] == "heuristic"
    assert prov["candidates"] == 3


def test_advise_rollouts_agree_with_turn_equity():
    """The turns ``advise`` rolled out (spread over a tie, ``equity.pick_candidates``),
    found back by their labels, give the same equity through ``turn_equity``."""
    table = advise(OPENING, rollouts=16, candidates=2, seed=9).frame()
    rolled = list(table.loc[table["win_p"].notna(), "action"])
    rows = turn_rows(encode(OPENING))
    labels = turn_labels(rows.actions, tuple(cell.tile for _, _, cell in OPENING.cells()))
    cands = rows.actions[[labels.index(label) for label in rolled]]
    eq = turn_equity(OPENING, np.full(2, K.CAND_TURN), cands, rollouts=16, seed=9)
    assert sorted(table["win_p"].dropna()) == sorted(eq.win)


def test_bids_are_all_rolled_out():
    pos = ft.new_position(3, 2, "five-tribes")
    frame = advise(pos, rollouts=16, seed=1).frame()
    assert frame["win_p"].notna().all() and len(frame) == len(ft.legal_actions(pos))


def test_odds_gives_win_probabilities_and_expected_scores():
    result = ft.odds(OPENING, samples=64, seed=1)
    rows = result["standings"]
    assert abs(sum(r["win_p"] for r in rows) - 1) < 1e-9
    assert all(r["final_se"] > 0 and 0 < r["win_se"] < 0.5 for r in rows)
    assert result["provenance"]["rollouts"] == 64


@pytest.mark.parametrize("kwargs, words", [
    ({"rollouts": 1}, "at least 2 rollouts"),
    ({"rollouts": 8, "policy": "greedy"}, "cannot drive rollouts"),
    ({"rollouts": 8, "policy": "clever"}, "cannot drive rollouts"),
])
def test_rollout_options_are_checked(kwargs, words):
    with pytest.raises(OddsbotError, match=words):
        advise(OPENING, **kwargs)


def test_heuristic_report_games_are_the_same_on_a_local_dask_cluster(tmp_path):
    """Report games with heuristic seats: the blocks computed on a Dask LocalCluster of 2
    workers are byte for byte those computed in-process."""
    from oddsbot.reports import batch, runner
    from oddsbot.reports.spec import RunSpec

    spec = RunSpec("five-tribes", ("five-tribes",), 3, ("heuristic", "heuristic", "random"),
                   300, 21, block=100)
    blocks = {}
    for where in ("local", "cluster"):
        out = tmp_path / where
        state = batch.start(spec, out, "parquet")
        if where == "local":
            batch.simulate(spec, out, state)
        else:
            with runner.dask_client(None, 2) as client:
                batch.simulate(spec, out, state, client=client)
        blocks[where] = {p.relative_to(out): p.read_bytes()
                         for p in sorted((out / "blocks").rglob("*.npy"))}
    assert len(blocks["local"]) == 3
    assert blocks["local"] == blocks["cluster"]


@settings(max_examples=25, deadline=None)
@given(seed=hs.integers(0, 10_000), players=hs.integers(2, 4))
def test_rollouts_from_random_positions(seed, players):
    """Any legal position (bids under way, turns half played, djinns held, secret gold):
    every rollout ends, win credit sums to 1 in each, and a final score is at least what
    a player holds in palms, palaces and tiles now (nothing takes those away)."""
    pos = random_midgame(seed, players)
    lo, hi = gold_bounds(pos)
    out = K.rollouts(encode(pos), [K.CAND_NONE], np.zeros((1, K.ACTION_SIZE)), lo, hi,
                     np.full(players, HEURISTIC), seed, 0, 8)[:, 0]
    np.testing.assert_allclose(shares(out).sum(axis=1), 1)
    now = K.state_scores(encode(pos))
    kept = [K.SCORE_PARTS.index(part) for part in ("palms", "palaces")]
    assert (out >= now[:, kept].sum(axis=1)).all()
    got = standings(pos, rollouts=8, seed=seed)
    np.testing.assert_array_equal(got.score, out.mean(axis=0))


def test_odds_with_secret_gold_says_how_it_counts_it():
    pos = secret(OPENING, 0, 20, 40)  # player 2 is to move: player 0's gold is secret
    result = ft.odds(pos, samples=32, seed=3)
    assert result["standings"][0]["gold"] == 30  # the midpoint
    assert "midpoint (p0 20-40)" in result["provenance"]["standings"]
    _, caption = ft.odds_view(result)
    assert "secret gold counted at its interval's midpoint (p0 20-40)" in caption



# The 2-player golden's dealt board (no stack of one colour, no lone meeple: no camel in
# reach) with the 15-VP sacred place r0c2 left holding one Vizier, p0 to move.
def test_heuristic_plays_the_target_its_screen_ranks_first():
    """docs/games/five-tribes.md §21.1, worked by hand: a sowing that ends on r0c2 with a
    Vizier takes 2 and places the camel: 15 VP for the tile, 2 for the Viziers and 10 for
    holding more than p1, screen value 27 (no Elder: no djinn). No other target comes
    near: the only other camel is r0c2 again, by an Assassins' kill (15); the best Vizier
    target, r3c0's 2 + 1, is 3 + 10; Builders earn at most 3 x 4 blue tiles. So the
    heuristic plays it whatever its seed, for exactly 27 VP. The old rule, 4 sowings drawn
    uniformly from the board's, rarely met it: such sowings are 17 of the board's 1,312
    (1.3 %), so 4 draws miss them all in 94.9 % of turns."""
    pos = ft.parse(SCREENED)
    st = encode(pos)
    strata, terms = K.sowing_strata(K.meeples(st), K.LIVE, K.walk_tables_once()[1])
    weights = K.stratum_weights(terms).sum(axis=1)
    there = (strata[:, 1] == 2) & (strata[:, 2] == K.COLOURS.index("Y"))
    share = weights[there].sum() / weights.sum()
    assert share == 17 / 1312 and (1 - share) ** 4 > 0.949
    for seed in range(3):
        first = simulate(pos, seed=seed, policy="heuristic", rounds=1).turns[0]
        assert first.player == 0 and "; take 2Y, camel r0c2" in first.action
        assert first.value == 27
