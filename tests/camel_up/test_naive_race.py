"""Tests of the naive exact race-odds reference ``naive_race`` on hand-worked positions."""

from __future__ import annotations

import random
import time
from fractions import Fraction

import pytest

import naive_camel_up as naive
from naive_race import closure, has_cycle, race_odds, small_positions, solve

F = Fraction
ED1 = dict(leg_left=0, all_dice=list(naive.RACING))  # camel-up-2014
ED2 = dict(leg_left=1, all_dice=list(naive.DICE))    # camel-up


def odds(track, tiles, pyramid, ed, **kw):
    return race_odds(track, tiles, pyramid, ed["leg_left"], ed["all_dice"], **kw)


def nonzero(d):
    return {c: p for c, p in d.items() if p}


def test_a_2014_last_die_camel_on_16_surely_wins():
    # P alone on 16 and its die is the last one of the leg: any value crosses (17..19).
    # The ranking then has P first and B (alone on 10, the rearmost) last.
    track = {10: ["B"], 11: ["G"], 12: ["Y"], 13: ["R"], 16: ["P"]}
    win, lose = odds(track, {}, ["P"], ED1)
    assert nonzero(win) == {"P": 1}
    assert nonzero(lose) == {"B": 1}
    assert set(win) == set(naive.RACING)


def test_b_2014_two_dice_by_hand():
    # Pyramid {Y, R}, Y on 14, R on 16, B under G on 1, P on 5.
    # R first (1/2): R crosses, R wins.
    # Y first (1/2): 1 -> Y on 15, then R crosses: R wins;
    #                2 -> Y on top of R on 16, then R carries Y across: Y wins (higher);
    #                3 -> Y crosses: Y wins.
    # R: 1/2 + 1/2*1/3 = 2/3, Y: 1/2*2/3 = 1/3. Nothing moves B, the bottom of space 1: loser.
    track = {1: ["B", "G"], 5: ["P"], 14: ["Y"], 16: ["R"]}
    win, lose = odds(track, {}, ["Y", "R"], ED1)
    assert nonzero(win) == {"R": F(2, 3), "Y": F(1, 3)}
    assert nonzero(lose) == {"B": 1}
    # An oasis (cheer) tile on 15: Y showing 1 goes on to 16, on top of R, and wins too.
    # R 1/2, Y 1/2.
    win, lose = odds(track, {15: (0, "cheer")}, ["Y", "R"], ED1)
    assert nonzero(win) == {"R": F(1, 2), "Y": F(1, 2)}
    assert nonzero(lose) == {"B": 1}
    # A mirage (boo) tile on 15: Y showing 1 comes back to 14: same as no tile.
    win, _ = odds(track, {15: (0, "boo")}, ["Y", "R"], ED1)
    assert nonzero(win) == {"R": F(2, 3), "Y": F(1, 3)}


C_TRACK = {1: ["Y", "W", "B"], 5: ["R"], 8: ["K"], 15: ["G"], 16: ["P"]}
C_PYRAMID = ["grey", "P", "G"]


def test_c_2nd_edition_game_surely_ends_this_leg():
    # Three dice in the pyramid, two are revealed this leg. W carries B, K carries nothing,
    # so any grey face moves W (§5.1 rule 1) from 1 backwards: a ccw crossing, B last.
    # First die (1/3 each):
    #   P: P crosses: P wins; Y (bottom of space 1) last.
    #   grey: [W, B] cross ccw: B last; P (16) ahead of G (15): P wins.
    #   G: 2 or 3 (2/3): G crosses: G wins, Y last.
    #      1 (1/3): G on top of P on 16; second die (1/2 each):
    #         P: [P, G] crosses: G wins, Y last;   grey: B last, G (top of 16) wins.
    # win: P 1/3 + 1/3 = 2/3, G 1/3.   lose: B 1/3 + 1/3*1/3*1/2 = 7/18, Y 11/18.
    win, lose = odds(C_TRACK, {}, C_PYRAMID, ED2)
    assert nonzero(win) == {"P": F(2, 3), "G": F(1, 3)}
    assert nonzero(lose) == {"B": F(7, 18), "Y": F(11, 18)}
    _start, rows = closure(C_TRACK, {}, C_PYRAMID, ED2["leg_left"], ED2["all_dice"])
    assert len(rows) == 2  # the start and "G showed 1"; every other reveal crosses
    # The game surely ends this leg, so the leg odds (naive_camel_up) agree.
    leg = naive.leg_odds(C_TRACK, {}, C_PYRAMID, leg_left=1)
    assert leg["end"] == 1
    assert {c: q[0] for c, q in leg["place"].items()} == win
    assert {c: q[-1] for c, q in leg["place"].items()} == lose


# W carries G and K carries P, R/Y/B on 16; a boo tile on 13. The grey die can carry the
# leader-to-be backwards, leg after leg. (The closure, 535 states, turns out acyclic: no
# legal position tried gave a cycle; test_solve_on_a_cyclic_chain covers cycles in solve.)
D_TRACK = {14: ["W", "G"], 15: ["K", "P"], 16: ["R", "Y", "B"]}
D_TILES = {13: (1, "boo")}


def test_d_2nd_edition_camels_carried_back():
    win, lose = odds(D_TRACK, D_TILES, ["Y", "grey"], ED2)
    for d in (win, lose):
        assert all(type(p) is Fraction for p in d.values())
        assert all(0 <= p <= 1 for p in d.values())
        assert sum(d.values()) == 1
    with pytest.raises(ValueError):
        odds(D_TRACK, D_TILES, ["Y", "grey"], ED2, max_states=10)


def test_d_monte_carlo_agrees():
    # play_race is the Monte Carlo race of naive_camel_up: the same race model.
    win, lose = odds(D_TRACK, D_TILES, ["Y", "grey"], ED2)
    rng = random.Random(7)
    n = 4000
    won = dict.fromkeys(win, 0)
    for _ in range(n):
        won[naive.play_race(D_TRACK, D_TILES, ["Y", "grey"], 1, naive.DICE, rng)[0]] += 1
    for c, p in win.items():
        sd = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(won[c] / n - float(p)) <= 5 * sd + 1e-9, c


def test_solve_on_a_cyclic_chain():
    # Hand-made cyclic chain: a -> a 1/4, a -> b 1/4, a ends (B, G) 1/2;
    # b -> a 1/3, b ends (G, B) 2/3.
    # x_a = 1/4 x_a + 1/4 x_b + 1/2 e1, x_b = 1/3 x_a + 2/3 e2
    # => x_a (3/4 - 1/12) = 1/2 e1 + 1/6 e2 => x_a = 3/4 e1 + 1/4 e2.
    rows = {"a": ({"a": F(1, 4), "b": F(1, 4)}, {("B", "G"): F(1, 2)}),
            "b": ({"a": F(1, 3)}, {("G", "B"): F(2, 3)})}
    assert has_cycle(rows)
    assert solve("a", rows) == {("B", "G"): F(3, 4), ("G", "B"): F(1, 4)}
    assert solve("b", rows) == {("B", "G"): F(1, 4), ("G", "B"): F(3, 4)}
    # an acyclic one
    rows = {"a": ({"b": F(1, 2)}, {("B", "G"): F(1, 2)}), "b": ({}, {("G", "B"): F(1)})}
    assert not has_cycle(rows)
    assert solve("a", rows) == {("B", "G"): F(1, 2), ("G", "B"): F(1, 2)}


def legal(variant, track, tiles, pyramid):
    camels = [c for stack in track.values() for c in stack]
    want = naive.RACING + (naive.CRAZY if variant == "camel-up" else [])
    assert sorted(camels) == sorted(want)
    assert all(1 <= s <= 16 for s in track)
    for s in tiles:
        assert 2 <= s <= 16 and not track.get(s)
        assert s - 1 not in tiles and s + 1 not in tiles
    dice = naive.DICE if variant == "camel-up" else naive.RACING
    assert len(set(pyramid)) == len(pyramid) and set(pyramid) <= set(dice)


def test_e_small_positions_solve():
    positions = small_positions()
    assert len(positions) >= 12
    assert sum(v == "camel-up-2014" for v, *_ in positions) >= 4
    assert sum(v == "camel-up" and any(naive.carries(tr, c) for c in naive.CRAZY)
               for v, tr, *_ in positions) >= 4
    for variant, track, tiles, pyramid, leg_left, all_dice in positions:
        legal(variant, track, tiles, pyramid)
        t0 = time.perf_counter()
        win, lose = race_odds(track, tiles, pyramid, leg_left, all_dice, max_states=3000)
        assert time.perf_counter() - t0 < 20
        assert sum(win.values()) == 1 and sum(lose.values()) == 1
        assert all(type(p) is Fraction and p >= 0 for p in [*win.values(), *lose.values()])
