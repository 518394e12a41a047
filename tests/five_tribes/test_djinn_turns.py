"""The compiled turn walk with djinn powers (kernels/five_tribes/turn_walk.py) against the
naive reference written from docs/games/five-tribes.md §20 (``naive_five_tribes_turns``
with ``Rules()``): on random positions where the mover holds djinns, can pay for them and
others are on display, every row agrees by label, value by part (1e-12: draws are exact
expectations, fractions in the reference) and count. Also: the greedy choice is what its
two stages pick in the table (docs/games/five-tribes.md §20.9), and a greedy turn played
with its draws leaves a consistent position."""

from __future__ import annotations

import random
from dataclasses import replace
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, currently_in_test_context, example, given, settings
from hypothesis import strategies as st

import kernel_five_tribes_turns as kernel
from five_tribes_positions import random_midgame

from oddsbot.analyser.five_tribes import face as ft
from oddsbot.analyser.five_tribes.encode import decode, encode
from oddsbot.analyser.five_tribes import turns
from oddsbot.analyser.five_tribes.turns import exact_rows, turn_rows
from oddsbot.kernels import five_tribes as FT
from oddsbot.kernels.five_tribes import turn_walk
from oddsbot.kernels.rng import stream

NAMES = [name for name, _, _ in FT.DJINNS]


def djinn_position(seed: int, players: int, stacks: int, held: int) -> ft.Position:
    """A random mid-game position in the turns phase, meeples on ``stacks`` tiles only,
    where the mover holds ``held`` more djinns (from the deck), 2 more Elders and a Fakir
    when the box allows, the display shows what the deck can fill and 4 djinns stay in
    the deck."""
    pos = random_midgame(seed, players)
    if currently_in_test_context():  # drawn by hypothesis: another draw
        assume(pos.phase == "turns")
    else:  # a fixed seed (``assume`` outside a property test is deprecated)
        assert pos.phase == "turns", f"seed {seed}: the game is past its turns"
    rng = random.Random(seed)
    keep = set(rng.sample(range(FT.N_TILES), stacks))
    board = tuple(tuple(cell if 6 * r + c in keep else replace(cell, meeples="")
                        for c, cell in enumerate(row)) for r, row in enumerate(pos.board))
    pos = replace(pos, board=board)
    deck = list(pos.djinn_deck)
    rng.shuffle(deck)
    mover = pos.to_move
    players_ = list(pos.players)
    me = players_[mover]
    extra = tuple(deck[:held])
    elders = me.elders + min(2, pos.bag[1])
    fakirs = me.fakirs + min(1, pos.resource_deck[9])
    players_[mover] = replace(me, djinns=tuple(sorted(me.djinns + extra, key=NAMES.index)),
                              elders=elders, fakirs=fakirs)
    display = tuple(pos.djinns + tuple(deck[held:held + 3 - len(pos.djinns)]))
    # a deck of 4 djinns (the rest discarded): Sibittis' draw has 4 outcomes, which the
    # naive reference follows one by one through whole turns
    rest = [d for d in deck[held:] if d not in display]
    discard = tuple(sorted(pos.djinn_discard + tuple(rest[4:]), key=NAMES.index))
    return ft.validate(replace(pos, players=tuple(players_), djinns=display,
                               djinn_discard=discard))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]),
       stacks=st.integers(1, 3), held=st.integers(1, 3))
def test_kernel_equals_the_naive_reference_with_djinns(seed, players, stacks, held):
    kernel.same(djinn_position(seed, players, stacks, held), limit=3000)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]))
@example(seed=259, players=2)  # no legal sowing: the greedy turn is the turn without one
@example(seed=24, players=3)  # the second stage uses a power: 28 where the first had 25
def test_greedy_is_the_best_row_and_its_play_is_consistent(seed, players):
    pos = djinn_position(seed, players, 3, 2)
    s = encode(pos)
    table = FT.complete_turns(s, max_rows=20_000)
    assume(table is not None)
    actions, parts, _ = table
    action, value = FT.greedy_turn(s)
    kernel.check_greedy(s, actions, parts, action, value)
    played = s.copy()
    FT.play_greedy_turn(played, stream(np.uint64(seed), np.int64(0)))
    after = decode(played)
    assert tuple(played[FT.BAG:FT.BAG + FT.N_COLOURS]) == after.bag
    assert tuple(played[FT.RES_DECK:FT.RES_DECK + FT.N_CARD_KINDS]) == after.resource_deck
    assert played[FT.P_USED + pos.to_move] == 0 and played[FT.DRAWN] == 0


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]),
       stacks=st.integers(2, 4), held=st.integers(1, 3))
@example(seed=37, players=4, stacks=3, held=2)  # 2,803 rows, 2,407 ending in a draw
def test_the_exact_budget_table_values_its_draws_after_counting(seed, players, stacks, held):
    """``turns.exact_rows`` (rows made and counted first, their draws valued in a second
    walk: FT.DEFER_*) holds the same rows, values (bit for bit) and counts as
    ``complete_turns`` (draws valued as they are made)."""
    s = encode(djinn_position(seed, players, stacks, held))
    table = FT.complete_turns(s, max_rows=20_000)
    assume(table is not None)
    rows = exact_rows(s)
    assert rows is not None
    want = {a.tobytes(): (p.tobytes(), n) for a, p, n in zip(*table)}
    got = {a.tobytes(): (p.tobytes(), n) for a, p, n in zip(rows.actions, rows.parts,
                                                            rows.count)}
    assert got == want


def test_the_exact_table_reports_progress_once_across_both_walks():
    """Progress of an exact table runs once from 0 to its end, though the table is walked
    twice (counted, then its draws valued): never backwards, one planned total, the last
    report at that total; with no draw to value, it jumps to the end after the first."""
    with_draws = encode(djinn_position(37, 4, 3, 2))  # 2,407 rows end in a draw
    without = encode(ft.new_position(4, 1))  # an opening: no row ends in a draw
    for s, drawn in ((with_draws, True), (without, False)):
        seen: list[tuple[int, int]] = []
        rows = turn_rows(s, progress=lambda done, planned: seen.append((done, planned)))
        assert not rows.sampled and (rows.actions[:, FT.A_END] >= 0).any() == drawn
        planned = {p for _, p in seen}
        assert len(planned) == 1 and seen[-1][0] == planned.pop()
        assert all(a[0] <= b[0] for a, b in zip(seen, seen[1:]))
        half = sum(done <= seen[-1][0] // 2 for done, _ in seen)
        assert len(seen) - half == (half if drawn else 1)  # the second walk's reports


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]),
       stacks=st.integers(3, 6))
def test_a_sampled_table_counts_the_turns_before_the_sowing_exactly(seed, players, stacks):
    """docs/games/five-tribes.md §19.1.1: a turn that ends before the sowing (here Sloar's
    draw, then best) is in a sampled table as in the exact one: the same row, parts and
    count, error 0."""
    pos = djinn_position(seed, players, stacks, 1)
    assume("Sloar" in pos.djinn_deck or "Sloar" in pos.players[pos.to_move].djinns)
    me = pos.players[pos.to_move]
    players_ = list(pos.players)
    players_[pos.to_move] = replace(me, djinns=("Sloar",))
    s = encode(ft.validate(replace(pos, players=tuple(players_))))
    exact = exact_rows(s)
    assume(exact is not None and exact.sowings > 0)  # a sampled table draws sowings
    with patch.object(turns, "EXACT_SOWINGS", -1):  # sample a position exact can handle
        sampled = turn_rows(s, samples=64, seed=seed)
    assert sampled.sampled
    rows = [{a.tobytes(): (p, c, e) for a, p, c, e in
             zip(t.actions, t.parts, t.count, t.count_se) if a[FT.A_END] == FT.S_PRE}
            for t in (exact, sampled)]
    assert rows[0] and rows[0].keys() == rows[1].keys()
    for key, (parts, count, _) in rows[0].items():
        got_parts, got_count, got_se = rows[1][key]
        assert (got_parts == parts).all() and got_count == count and got_se == 0


def test_a_walk_deeper_than_its_scratch_stacks_fails():
    """``turn_walk._take`` refuses the slot that would leave none free for a helper's
    scratch row (numba checks no index: the walk would write past its stacks)."""
    counters = np.zeros(turn_walk.N_COUNTERS, dtype=np.int64)
    counters[turn_walk.C_DEPTH] = turn_walk.STACK_DEPTH - 2
    assert turn_walk._take(counters) == turn_walk.STACK_DEPTH - 2
    with pytest.raises(IndexError):
        turn_walk._take(counters)
    assert counters[turn_walk.C_DEPTH] == turn_walk.STACK_DEPTH - 1
