"""The turn table built on two threads (analyser/five_tribes/turns.py, module doc) is the
one built on one: the exact attempt with the sampled table speculated beside it, and a
sampled table whose turns that end before the sowing are valued on a thread while the
drawn sowings are added, against the table made in turn in one store (the draws of the
turns before the sowing valued as they are made, ``FT.DEFER_NONE``): the same actions,
parts, counts and errors, every bit."""

from __future__ import annotations

import math
import threading
from dataclasses import replace
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from test_djinn_turns import NAMES, djinn_position

from oddsbot.analyser.five_tribes import face as ft
from oddsbot.analyser.five_tribes import turns
from oddsbot.analyser.five_tribes.encode import encode
from oddsbot.kernels import five_tribes as FT
from oddsbot.kernels.rng import stream

FIELDS = ("actions", "parts", "count", "count_se")


def one_thread(s: np.ndarray, samples: int, seed: int) -> turns.TurnRows:
    """The sampled table of §19.1.1 made in turn in one store: the turns that end before
    the sowing, their draws valued at once, then the drawn sowings in rounds."""
    found = turns._census(s)
    strata = len(found.strata)
    weights = FT.stratum_weights(found.terms)
    planned = max(1, math.ceil(samples / strata))
    rng = stream(np.uint64(seed), np.int64(0))
    store, ws = FT.new_store(turns.TABLE_ROWS), FT.workspace()
    meta, walks = store[10], FT.walk_tables_once()[0]
    best = FT.board_sowings(s, *FT.walk_tables_once())
    FT.add_outcomes(s, best[:4], best[4], best[5], 0, 0, store, ws, FT.DEFER_NONE)
    rounds = 0
    while rounds < planned:
        rows = int(meta[FT.M_ROWS])
        if rounds and (meta[FT.M_FULL] or rows + rows / rounds > turns.TABLE_ROWS):
            break
        FT.add_draws(s, found.strata, weights, walks, rng, rounds * strata,
                     (rounds + 1) * strata, store, ws, best)
        rounds += 1
    rows = int(meta[FT.M_ROWS])
    count, se = turns._estimates(store, rows, weights.sum(axis=1), rounds)
    return turns.TurnRows(store[0][:rows], store[1][:rows], count, se, found.total,
                          sampled=True, rounds=rounds, strata=strata,
                          full=bool(meta[FT.M_FULL]))


def assert_same(got: turns.TurnRows, want: turns.TurnRows) -> None:
    for field in FIELDS:
        assert np.array_equal(getattr(got, field), getattr(want, field)), field
    assert (got.sampled, got.rounds, got.strata, got.full) == \
        (want.sampled, want.rounds, want.strata, want.full)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]),
       stacks=st.integers(3, 6), held=st.integers(1, 2))
def test_a_sampled_table_on_two_threads_is_the_one_made_in_turn(seed, players, stacks, held):
    """Random djinn positions, the mover holding ``held`` djinns, in half of them Sloar
    (a draw before the sowing) and one more (more djinns make the turns before the
    sowing a matter of minutes)."""
    pos = djinn_position(seed, players, stacks, held)
    me = pos.players[pos.to_move]
    djinns = me.djinns[-held:]
    if seed % 2:
        assume("Sloar" in pos.djinn_deck or "Sloar" in djinns)
        djinns = tuple(sorted({*djinns[-1:], "Sloar"}, key=NAMES.index))
    players_ = list(pos.players)
    players_[pos.to_move] = replace(me, djinns=djinns)
    pos = ft.validate(replace(pos, players=tuple(players_)))
    s = encode(pos)
    assume(turns._census(s).total > 0)
    with patch.object(turns, "EXACT_SOWINGS", -1):  # sample a position exact can handle
        got = turns.turn_rows(s, samples=256, seed=seed)
    assert_same(got, one_thread(s, 256, seed))


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(seed=st.integers(0, 2**32 - 1), stacks=st.integers(4, 6))
def test_the_speculated_table_is_the_exact_one_or_the_sampled_one(seed, stacks):
    """Within the budget of sowings: the exact table when it fits (the speculated sampled
    one dropped), else the sampled one (here a budget of 2,000 rows)."""
    s = encode(djinn_position(seed, 4, stacks, 2))
    assume(turns._census(s).total > 0)
    exact = turns.exact_rows(s)
    assume(exact is not None)
    assert_same(turns.turn_rows(s, samples=256, seed=seed), exact)
    with patch.object(turns, "TABLE_ROWS", min(2_000, len(exact.count) - 1)):
        assert turns.exact_rows(s) is None
        got = turns.turn_rows(s, samples=256, seed=seed)
        assert_same(got, one_thread(s, 256, seed))


def test_a_speculated_table_shows_progress_and_stops_from_the_calling_thread():
    """The exact attempt dropped (a budget of 2,000 rows): every progress report comes
    from the calling thread, the sampled table's last; Ctrl-C there (here raised by the
    progress callback while the sampled table is awaited) stops the table, its thread
    ending at its next chunk."""
    s = encode(djinn_position(3, 4, 8, 2))
    seen: list[tuple[threading.Thread, int, int]] = []
    with patch.object(turns, "TABLE_ROWS", 2_000):
        rows = turns.turn_rows(s, samples=4_096, progress=lambda done, planned: seen.append(
            (threading.current_thread(), done, planned)))
        assert rows.sampled and {t for t, _, _ in seen} == {threading.current_thread()}
        assert seen[-1][1:] == (rows.drawn, math.ceil(4_096 / rows.strata) * rows.strata)

        def interrupt(done: int, planned: int) -> None:
            if planned == seen[-1][2]:  # the sampled table's progress
                raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            turns.turn_rows(s, samples=4_096, progress=interrupt)
    for thread in threading.enumerate():
        if thread.name == "turn-table":
            thread.join(timeout=30)
            assert not thread.is_alive()
