"""The best rest of a turn after Anun-Nak's draw in the window after the tile action is
walked once (kernels/five_tribes/turn_walk.py, ``_same_rest``): on random mid-game
positions where the mover holds Anun-Nak and another window power (and an Elder or
Fakir to pay for each), every outcome of each Anun-Nak use there has exactly the same
best rest, by part, as its own walk finds; and the table's value of such a row, walked
once, equals the expectation over the outcomes walked one by one, bit for bit."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from five_tribes_positions import random_midgame

from oddsbot.analyser.five_tribes import face as ft
from oddsbot.analyser.five_tribes.encode import encode
from oddsbot.kernels import five_tribes as FT
from oddsbot.kernels.five_tribes import turn_table as TT
from oddsbot.kernels.five_tribes import turn_walk as TW
from oddsbot.kernels.jit import njit

NAMES = [name for name, _, _ in FT.DJINNS]
OTHERS = ("Bouraq", "Enki", "Leta", "Sibittis", "Sloar", "Utug")


@njit(cache=True)
def best_rest(st, s, step):
    """The best rest of the turn of ``st``'s mover from state ``s`` at ``step`` (BEST
    walk; no sowing is left to walk after the tile action)."""
    none = np.zeros(0, dtype=np.int64)
    sw = (none, np.zeros((0, FT.MAX_STACK), dtype=np.int64),
          np.zeros((0, FT.MAX_STACK), dtype=np.int64), none, none, none)
    store, ws = FT.store_of(np.int64(1)), TT.workspace()
    _, ctx = TT._context(st, store, ws, sw, sw, 0, 1, True, True, False)
    act = np.zeros(FT.ACTION_SIZE, dtype=np.int64)
    FT.clear_action(act)
    acc = np.zeros(FT.N_PARTS + 1)
    TW.walk(s, act, step, np.int64(1), np.int64(TW.BEST), acc, ctx, TW.OP_NONE, 0)
    return acc


def anun_nak_position(seed: int, other: str) -> ft.Position:
    """A random mid-game position in the turns phase, the mover holding Anun-Nak and
    ``other`` (none used), 2 more Elders and 2 more Fakirs when the box allows."""
    pos = random_midgame(seed, 4)
    assume(pos.phase == "turns")
    held = {d for p in pos.players for d in p.djinns} | set(pos.djinns)
    assume(not held & {"Anun-Nak", other})  # else in the deck or discarded: taken
    me = pos.players[pos.to_move]
    mover = replace(me, djinns=tuple(sorted(("Anun-Nak", other), key=NAMES.index)),
                    elders=me.elders + min(2, pos.bag[1]),
                    fakirs=me.fakirs + min(2, pos.resource_deck[9]))
    players = tuple(mover if i == pos.to_move else p for i, p in enumerate(pos.players))
    discard = tuple(sorted((d for d in pos.djinn_discard + me.djinns
                            if d not in ("Anun-Nak", other)), key=NAMES.index))
    return ft.validate(replace(pos, players=players, djinn_discard=discard))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), other=st.sampled_from(OTHERS))
def test_every_outcome_of_anun_nak_after_the_tile_action_has_the_same_best_rest(seed, other):
    s = encode(anun_nak_position(seed, other))
    mover = int(s[FT.TO_MOVE])
    rng = random.Random(seed)
    options = FT.window_options(s, mover, FT.S_POST)
    draws = 0
    for i in range(len(options)):
        if options[i, 0] != FT.O_USE or NAMES[options[i, 1]] != "Anun-Nak":
            continue
        n = s.copy()
        act = np.zeros(FT.ACTION_SIZE, dtype=np.int64)
        FT.clear_action(act)
        step, op, arg = FT.play_window(n, act, mover, FT.S_POST, options[i])
        states, probs, _, _ = FT.outcomes(n, mover, op, arg)
        assume(len(probs) > 1 or draws)
        rests = [best_rest(s, states[j], step) for j in range(len(probs))]
        for rest in rests[1:]:
            assert np.array_equal(rest, rests[0])  # every part, bit for bit
        one_by_one = np.zeros(FT.N_PARTS)
        once = np.zeros(FT.N_PARTS)
        for j in range(len(probs)):
            one_by_one += probs[j] * rests[j][:FT.N_PARTS]
            once += probs[j] * rests[0][:FT.N_PARTS]
        assert np.array_equal(once, one_by_one)
        draws += 1
        if draws >= 2 and rng.random() < 0.5:
            break
    assume(draws)
