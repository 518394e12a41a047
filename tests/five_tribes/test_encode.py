"""Five Tribes positions through the kernel's state vector and back."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from oddsbot.analyser.five_tribes.validate import validate
from oddsbot.analyser.five_tribes.encode import decode, encode
from oddsbot.kernels import five_tribes as FT

from five_tribes_positions import random_midgame, random_opening


@settings(max_examples=120)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), midgame=st.booleans())
def test_encode_then_decode_gives_the_position_back(seed, players, midgame):
    pos = (random_midgame if midgame else random_opening)(seed, players)
    validate(pos)
    state = encode(pos)
    assert state.shape == (FT.STATE_SIZE,) and state.dtype == np.int64
    assert decode(state) == pos


def test_hidden_parts_and_board_in_the_state():
    pos = random_midgame(7, 3)
    state = encode(pos)
    assert tuple(state[FT.BAG:FT.BAG + FT.N_COLOURS]) == pos.bag
    assert tuple(state[FT.RES_DECK:FT.RES_DECK + FT.N_CARD_KINDS]) == pos.resource_deck
    counts = FT.meeples(state)
    assert counts.shape == (FT.N_TILES, FT.N_COLOURS)
    for t, (_, _, cell) in enumerate(pos.cells()):
        assert "".join(FT.COLOURS[c] * int(counts[t, c]) for c in range(5)) == cell.meeples
    held = [state[FT.P_VIZIERS:FT.P_VIZIERS + 4].sum(),
            state[FT.P_ELDERS:FT.P_ELDERS + 4].sum(), 0, 0, 0]
    total = counts.sum(axis=0) + state[FT.BAG:FT.BAG + 5] + np.array(held)
    assert list(total) == list(FT.MEEPLE_TOTALS)
