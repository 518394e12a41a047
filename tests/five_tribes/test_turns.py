"""The compiled complete-turn enumeration (``kernels.five_tribes.complete_turns``) against the naive
reference written from the spec (``naive_five_tribes_turns``): every distinct result, its
exact value by score part and its count agree on random legal positions (hypothesis),
under both end rules and both assassin rules; the greedy choice and the EV table agree
with the enumeration. The hand-worked positions of ``test_naive_turns`` run
on the kernel too (see there)."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import kernel_five_tribes_turns as kernel
from five_tribes_positions import random_midgame, random_opening
from five_tribes.test_naive_turns import position

from oddsbot.analyser.five_tribes import face as ft
from oddsbot.analyser.five_tribes.encode import encode
from oddsbot.analyser.five_tribes.turns import TABLE_ROWS
from oddsbot.kernels import five_tribes as FT


# powers used in a window before the sowing or after the tile action (§20.4): each
# multiplies the whole turn tree, so on these boards of up to 8 stacks the mover's go to
# the discard pile (test_djinn_turns plays them on smaller boards)
WINDOW_DJINNS = {"Anun-Nak", "Bouraq", "Enki", "Leta", "Sibittis", "Sloar", "Utug"}


def thinned(seed: int, players: int, stacks: int) -> ft.Position:
    """A random mid-game position in the turns phase with meeples left on ``stacks``
    tiles only (the rest go to the bag), so that the naive reference stays quick; the
    mover keeps their passive and action djinns, not the window ones."""
    pos = random_midgame(seed, players)
    assume(pos.phase == "turns")
    rng = random.Random(seed)
    keep = set(rng.sample(range(FT.N_TILES), stacks))
    board = tuple(tuple(cell if 6 * r + c in keep else replace(cell, meeples="")
                        for c, cell in enumerate(row)) for r, row in enumerate(pos.board))
    me = pos.players[pos.to_move]
    window = tuple(d for d in me.djinns if d in WINDOW_DJINNS)
    players_ = tuple(replace(p, djinns=tuple(d for d in p.djinns if d not in window))
                     if i == pos.to_move else p for i, p in enumerate(pos.players))
    names = [name for name, _, _ in FT.DJINNS]
    discard = tuple(sorted(pos.djinn_discard + window, key=names.index))
    return ft.validate(replace(pos, board=board, players=players_, djinn_discard=discard))


def same(pos: ft.Position) -> dict:
    kernel.complete_turns(pos)  # bookkeeping of every row played with ``apply_turn``
    return kernel.same(pos)


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]),
       stacks=st.integers(1, 8))
def test_kernel_equals_the_naive_reference_on_random_positions(seed, players, stacks):
    same(thinned(seed, players, stacks))


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rule=st.sampled_from(["live", "premove"]),
       optional=st.booleans())
def test_both_rules_on_positions_with_tall_stacks(seed, rule, optional):
    pos = thinned(seed, 3, 3)
    rng = random.Random(seed)
    board = [list(row) for row in pos.board]
    r, c = rng.randrange(5), rng.randrange(6)
    # docs/games/five-tribes.md §7.2 example 3's stack
    board[r][c] = replace(board[r][c], meeples="YBGGR")
    pos = replace(pos, board=tuple(map(tuple, board)), end_rule=rule, assassin_optional=optional)
    assume(max(pos.board_meeples()[i] + pos.held_meeples()[i] - t
               for i, t in enumerate(FT.MEEPLE_TOTALS)) <= 0)
    same(ft.validate(pos))


def test_a_loop_that_only_the_live_rule_allows():
    # docs/games/five-tribes.md §7.2 example 3: r1c1 = GGBRY alone gives 96 sowings under the live
    # rule and none under premove (then the turn is the marker move alone: no goods to sell)
    pos = position({"r1c1": "YBGGR"})
    live = same(pos)
    assert len(live) > 1 and ((0,) * 9, 1) not in live.values()
    premove = same(replace(pos, end_rule="premove"))
    assert list(premove.values()) == [((0,) * 9, 1)]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]))
def test_greedy_turn_is_the_best_row_and_advise_is_the_table(seed, players):
    pos = thinned(seed, players, 12)
    s = encode(pos)
    actions, parts, counts = FT.complete_turns(s)
    action, value = FT.greedy_turn(s)
    kernel.check_greedy(s, actions, parts, action, value)  # a djinn taken may be used
    assert parts[FT.best_turn(actions, parts), -1] == parts[:, -1].max()
    df = ft.advise(pos).frame()
    exact = len(actions) <= TABLE_ROWS  # else sampled: tests/five_tribes/test_tall_stacks.py
    draws = actions[:, FT.A_END] >= 0  # turns ending in a draw: exact expectations (§20.6)
    if not exact:
        assert set(df["method"]) <= {"sampled", "expectation"}
        return
    assert (df["method"] == "expectation").sum() == draws.sum()
    assert (df["method"] == "exact").sum() == len(actions) - draws.sum()
    assert len(df) == len(actions) and df["count"].sum() == counts.sum()
    assert df["ev"].iloc[0] == parts[:, -1].max() and df["ev"].is_monotonic_decreasing
    # parts add up to the total (to rounding: an expectation's parts are fractions)
    assert np.allclose(df[list(FT.SCORE_PARTS[:-1])].sum(axis=1), df["ev"], rtol=0, atol=1e-9)
    assert df["action"].is_unique


def test_a_full_opening_board_in_the_turns_phase():
    pos = random_opening(11, 4)
    pos = ft.validate(replace(pos, phase="turns", bid_track=(), to_move=pos.bid_track[0],
                              turn_track=(*pos.bid_track, None, None, None, None, None)))
    same(pos)
