"""The EV table against values recomputed from the naive reference enumeration."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_camel_up as naive
from oddsbot.analyser.camel_up import face as cu
from oddsbot.analyser.camel_up.odds import leg_distribution, race_odds
from oddsbot.analyser import montecarlo
from positions import random_position


def to_naive(pos: cu.Position, tiles=None):
    """(track, tiles, pyramid, letter of each colour) in the naive module's terms."""
    v = pos.rules
    letter = {c: naive.RACING[i] for i, c in enumerate(v.colours)}
    if v.crazy:
        letter.update(white="W", black="K")
    track = {s: [letter[c] for c in pos.stack(s)] for s in range(1, 17) if pos.stack(s)}
    tiles = pos.tiles if tiles is None else tiles
    naive_tiles = {t.space: (t.owner, t.side) for t in tiles}
    pyramid = ["grey" if d == "grey" else letter[d] for d in pos.pyramid]
    return track, naive_tiles, pyramid, letter


def naive_ev_table(pos: cu.Position) -> dict[str, float]:
    """EV of every leg action, straight from the definitions in the README: the change
    in E[max(0, money + own landings + leg result)] after this leg's scoring."""
    v = pos.rules
    p = pos.to_move
    track, tiles, pyramid, letter = to_naive(pos)

    def rewards(player, rank):
        out = [naive.ticket_reward(rank, letter[c], val) for c, val in pos.leg_tickets[player]]
        return out + [1] * pos.pyramid_tickets[player]

    partner = pos.partnership[p] if pos.partnership else None

    def value(dist, extra):
        total = 0.0
        for (_, rank, own), prob in dist.items():
            net = sum(rewards(p, rank)) + extra(rank)
            if partner is not None:
                net += max(0, max(rewards(partner, rank), default=0))
            total += float(prob) * max(0, pos.money[p] + own + net)
        return total

    base_dist = naive.leg_odds(track, tiles, pyramid, v.leg_left, owner=p)["dist"]
    base = value(base_dist, lambda rank: 0)
    table = {"pyramid": value(base_dist, lambda rank: 1) - base}
    for c, stack in zip(v.colours, pos.ticket_stacks):
        if stack:
            table[f"ticket {c}"] = value(
                base_dist, lambda rank, c=c, top=stack[0]: naive.ticket_reward(rank, letter[c], top)
            ) - base
    if pos.partnership and partner is None:
        for q, other in enumerate(pos.partnership):
            if q != p and other is None:
                table[f"partner {q}"] = value(
                    base_dist, lambda rank, q=q: max(0, max(rewards(q, rank), default=0))) - base
    return table, base, value


def naive_spectator(pos, space, side, value, base):
    kept = tuple(t for t in pos.tiles if t.owner != pos.to_move)
    tiles = kept + (cu.Tile(pos.to_move, space, side),)
    track, naive_tiles, pyramid, _ = to_naive(pos, tiles)
    dist = naive.leg_odds(track, naive_tiles, pyramid, pos.rules.leg_left, owner=pos.to_move)
    return value(dist["dist"], lambda rank: 0) - base, float(dist["land"][space])


GAMES = st.sampled_from([("camel-up", 4), ("camel-up", 6), ("camel-up", 8),
                         ("camel-up-2014", 3)])


@settings(max_examples=40)
@given(seed=st.integers(0, 10**6), game=GAMES, poor=st.booleans())
def test_leg_action_evs_match_naive_definitions(seed, game, poor):
    variant, players = game
    pos = random_position(seed, players, variant, max_pyramid=3)
    if poor:  # make the 0 EP floor bite
        pos = pos.with_(money=tuple(0 for _ in pos.money))
    df = cu.advise(pos, samples=4096, seed=seed).frame().set_index("action")
    expected, base, value = naive_ev_table(pos)
    for action, ev in expected.items():
        assert df.loc[action, "method"] == "exact"
        assert df.loc[action, "ev"] == pytest.approx(ev, abs=1e-12), action
    tiles = {a: naive.tile_label(a, variant) for a in df.index}
    spectators = [a for a, tile in tiles.items() if tile is not None]
    for action in spectators[:: max(1, len(spectators) // 4)]:
        ev, landings = naive_spectator(pos, *tiles[action], value, base)
        assert df.loc[action, "ev"] == pytest.approx(ev, abs=1e-12), action
        assert df.loc[action, "landings"] == pytest.approx(landings, abs=1e-12), action


def test_ticket_ev_formula_without_floor():
    pos = cu.parse("camel-up BG/Y/RP/10/K/1/W BGYRPX n=4 to=0 money=20,3,3,3")
    df = cu.advise(pos, samples=4096).frame().set_index("action")
    for colour in pos.rules.colours:
        row = df.loc[f"ticket {colour}"]
        assert row["ev"] == pytest.approx(5 * row["p_first"] + row["p_second"] - row["p_rest"],
                                          abs=1e-12)
    assert df.loc["pyramid", "ev"] == 1.0


def test_spectator_ev_is_its_landings_when_nothing_is_held():
    pos = cu.parse("camel-up BG/Y/RP/10/K/1/W BGYRPX n=4 to=0")
    df = cu.advise(pos, samples=4096).frame()
    tiles = df[df["action"].str.startswith("spectator")]
    assert len(tiles) > 10
    assert np.allclose(tiles["ev"], tiles["landings"], atol=1e-12, rtol=0)


def test_final_bets_on_an_empty_deck_pay_eight_p_minus_one_minus_p():
    pos = cu.parse("camel-up BG/Y/RP/10/K/1/W BGYRPX n=4 to=0")
    df = cu.advise(pos, samples=20000, seed=3).frame()
    final = df[df["method"] == "monte-carlo"]
    assert len(final) == 10
    for _, row in final.iterrows():
        assert row["ev"] == pytest.approx(8 * row["p_race"] - (1 - row["p_race"]), abs=1e-12)
        assert row["se"] == pytest.approx(9 * np.sqrt(row["p_race"] * (1 - row["p_race"]) / 20480))
        assert row["cards_ahead"] == 0


def test_deck_models_for_cards_already_placed():
    pos = cu.parse("camel-up BG/Y/RP/10/K/1/W BGYRPX n=4 to=3 win=0B,1?,2?,1? lose=2?")
    rows = {}
    for model in ("uniform", "race", "optimistic"):
        df = cu.advise(pos, samples=8192, seed=1, deck_model=model).frame().set_index("action")
        rows[model] = df
    blue, green = rows["uniform"].loc["winner blue"], rows["uniform"].loc["winner green"]
    p = blue["p_race"]
    # blue: player 0's blue card is ahead for sure (5 EP second place); players 1 and 2
    # hold no visible blue, so under "uniform" each shows blue with P = hidden cards / 5
    # (player 1: 2 hidden on this deck, player 2: 1 hidden here of 2 placed)
    q1, q2 = 2 / 5, 1 / 5
    ahead = np.array([(1 - q1) * (1 - q2), q1 * (1 - q2) + (1 - q1) * q2, q1 * q2])
    pay = ahead @ np.array([5, 3, 2])
    assert blue["ev"] == pytest.approx(p * pay - (1 - p), abs=1e-12)
    assert blue["cards_ahead"] == pytest.approx(1 + q1 + q2)
    pg = green["p_race"]
    ahead_g = np.array([(1 - q1) * (1 - q2), q1 * (1 - q2) + (1 - q1) * q2, q1 * q2])
    assert green["ev"] == pytest.approx(pg * (ahead_g @ np.array([8, 5, 3])) - (1 - pg),
                                        abs=1e-12)
    opt = rows["optimistic"].loc["winner green"]
    assert opt["ev"] == pytest.approx(8 * pg - (1 - pg), abs=1e-12)
    assert rows["optimistic"].loc["winner blue"]["ev"] == pytest.approx(5 * p - (1 - p), abs=1e-12)
    race = rows["race"].loc["winner green"]
    r1, r2 = 1 - (1 - pg) ** 2, pg
    ahead_r = np.array([(1 - r1) * (1 - r2), r1 * (1 - r2) + (1 - r1) * r2, r1 * r2])
    assert race["ev"] == pytest.approx(pg * (ahead_r @ np.array([8, 5, 3])) - (1 - pg), abs=1e-12)


@pytest.mark.parametrize("track", ["12/W/K/1/BGYRP", "12/K/W/1/PRYGB", "15/GWBKYRP",
                                   "15/KBWGYRP"])
def test_race_monte_carlo_within_four_se_of_exact_when_the_race_ends_this_leg(track):
    # every racing camel on 16 and three racing dice left: the first reveal ends the race,
    # so the exact leg enumeration gives the exact race odds
    pos = cu.parse(f"camel-up {track} BGY n=4 to=0")
    exact = leg_distribution(pos)
    assert exact.ends_game == pytest.approx(1.0, abs=1e-15)
    ranks = exact.rank_probabilities
    race = race_odds(pos, montecarlo.Plan(samples=50_000), seed=11)
    for c in range(5):
        for mc, se, p in ((race.win[c], race.win_se[c], ranks[c, 0]),
                          (race.lose[c], race.lose_se[c], ranks[c, 4])):
            assert abs(mc - p) <= 4 * max(se, 1e-9), (c, mc, p, se)


def test_same_seed_same_numbers_whatever_the_thread_count():
    pos = cu.parse("camel-up BG/Y/RP/10/K/1/W BGYRPX n=4 to=0")
    before = numba.get_num_threads()
    try:
        results = []
        for threads in (1, before):
            numba.set_num_threads(threads)
            race = race_odds(pos, montecarlo.Plan(samples=100_000), seed=5)
            leg = leg_distribution(pos)
            results.append((race.win, race.lose, leg.prob))
    finally:
        numba.set_num_threads(before)
    for a, b in zip(*results):
        assert np.array_equal(a, b)
