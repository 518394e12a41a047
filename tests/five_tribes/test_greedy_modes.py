"""``turn_table.greedy``'s three modes are one greedy player (docs/games/five-tribes.md
§20.9): the rest from the start of the turn (``G_REST`` at ``S_PRE``, no choice made yet)
is the choice itself (``G_ROW``); playing it (``G_PLAY``) plays that choice, valued as
chosen, and a turn that ends in no draw leaves the state the choice reached; ``play_turn``
from Python (a greedy seat of ``play_round``) plays as ``play_greedy_turn``."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from five_tribes_positions import random_midgame

from oddsbot.analyser.five_tribes.encode import encode
from oddsbot.kernels import five_tribes as FT
from oddsbot.kernels.rng import stream

eq = np.testing.assert_array_equal


def _cleared() -> np.ndarray:
    act = np.zeros(FT.ACTION_SIZE, dtype=np.int64)
    FT.clear_action(act)
    return act


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]))
@example(seed=11, players=3)
def test_the_greedy_modes_are_one_player(seed, players):
    pos = random_midgame(seed, players)
    assume(pos.phase == "turns")
    s0 = encode(pos)
    tables = FT.walk_tables_once()
    row, parts, after, draw = FT.greedy(s0, s0, _cleared(), FT.S_PRE, FT.G_ROW, *tables,
                                        np.zeros(4, dtype=np.uint64))
    action, value = FT.greedy_turn(s0)
    eq(action, row)
    eq(value, parts)

    start = s0.copy()
    FT.marker_to_bid_track(start)
    rest, rest_after, rest_draw = FT.greedy_rest(s0, start, _cleared(), FT.S_PRE)
    eq(rest, row)
    eq(rest_after, after)
    eq(rest_draw, draw)

    played = s0.copy()
    action, value = FT.play_greedy_turn(played, stream(np.uint64(seed), np.int64(0)))
    eq(value, parts)
    if draw[0] == FT.OP_NONE:
        eq(action, row)
        eq(played, after)

    again, ws = s0.copy(), FT.turn_workspace()
    act = FT.play_turn(again, FT.P_GREEDY, stream(np.uint64(seed), np.int64(0)), tables, ws,
                       FT.HEURISTIC_PARAMS)
    eq(act, action)
    eq(again, played)
