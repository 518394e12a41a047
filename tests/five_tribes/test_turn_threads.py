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
    store, rounds = one_thread_store(s, samples, seed)
    weights, meta = FT.stratum_weights(found.terms), store[10]
    rows = int(meta[FT.M_ROWS])
    count, se = turns._estimates(store, rows, weights.sum(axis=1), rounds)
    return turns.TurnRows(store[0][:rows], store[1][:rows], count, se, found.total,
                          sampled=True, rounds=rounds, strata=len(found.strata),
                          full=bool(meta[FT.M_FULL]))


def one_thread_store(s: np.ndarray, samples: int, seed: int) -> tuple[tuple, int]:
    """(the store of ``one_thread``, its rounds)."""
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
    return store, rounds


def exact_store(s: np.ndarray, cap: int) -> tuple:
    """Every row of the exact table of ``s`` (draws unvalued) in a store of ``cap``."""
    found = turns._census(s)
    sowings = FT.list_sowings(FT.meeples(s), s[FT.END_RULE], np.int64(found.total))
    first, mult = FT.sowing_outcomes(s, *sowings)
    store = FT.new_store(cap)
    FT.add_outcomes(s, sowings, first, mult, 0, max(len(first), 1), store, FT.workspace(),
                    FT.DEFER_COUNT)
    return store


def keys(store: tuple) -> set[bytes]:
    return {k.tobytes() for k in store[3][:int(store[10][FT.M_ROWS])]}


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


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]),
       stacks=st.integers(3, 6), sloar=st.booleans())
def test_every_row_of_a_sampled_table_is_a_row_of_the_exact_one(seed, players, stacks, sloar):
    """What lets the speculation give the exact attempt up (``turns._Speculation.prove``):
    the merge keys of a sampled table are keys of the exact table (random djinn positions,
    Sloar held in half of them: turns that end before the sowing)."""
    pos = djinn_position(seed, players, stacks, 2)
    if sloar:
        assume("Sloar" in pos.djinn_deck or "Sloar" in pos.players[pos.to_move].djinns)
        me = pos.players[pos.to_move]
        players_ = list(pos.players)
        players_[pos.to_move] = replace(me, djinns=tuple(sorted(
            {*me.djinns[-1:], "Sloar"}, key=NAMES.index)))
        pos = ft.validate(replace(pos, players=tuple(players_)))
    s = encode(pos)
    assume(0 < turns._census(s).total <= turns.EXACT_SOWINGS)
    exact = exact_store(s, 200_000)
    assume(not exact[10][FT.M_FULL])
    sampled, _ = one_thread_store(s, 256, seed)
    assert int(sampled[10][FT.M_ROWS]) and keys(sampled) <= keys(exact)


def test_the_exact_attempt_is_given_up_when_the_rows_known_pass_the_budget():
    """``turns._Speculation.prove``: the exact store marked full exactly when the distinct
    rows of the sampled table and of the exact rows published pass ``TABLE_ROWS``, never
    when the table would fit."""
    s = encode(djinn_position(3, 4, 8, 2))
    exact = exact_store(s, 400_000)
    assert not exact[10][FT.M_FULL]
    total = int(exact[10][FT.M_ROWS])
    sampled, _ = one_thread_store(s, 256, 3)
    rows = int(sampled[10][FT.M_ROWS])
    for part in (0, total // 8, total // 2):
        known = exact[4][:part]
        union = len(np.union1d(known, sampled[4][:rows]))
        assert max(part, rows) <= union <= total
        for budget in (union - 1, union, total):
            with patch.object(turns, "TABLE_ROWS", budget):
                spec = turns._Speculation()
                spec.known = known.copy()
                spec.prove(sampled, last=True)
                assert bool(spec.store[10][FT.M_FULL]) == (union > budget), (part, budget)
