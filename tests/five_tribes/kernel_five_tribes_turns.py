"""The compiled complete-turn enumeration seen through the naive reference's interface
(``naive_five_tribes_turns``): ``complete_turns(pos)`` -> {position_key: (delta, count)}
and ``result_positions(pos)``, each row's result obtained by playing its action with
``apply_turn``. Checks the kernel's own bookkeeping on the way (the bag it keeps equals
the bag derived from the position; no two rows leave the same state)."""

from __future__ import annotations

import numpy as np
from naive_five_tribes_turns import position_key

from oddsbot.analyser.five_tribes.encode import decode, encode
from oddsbot.analyser.five_tribes.position import Position
from oddsbot.kernels import five_tribes as FT


def rows(pos: Position) -> list[tuple[Position, tuple[int, ...], int, np.ndarray]]:
    """(result position, delta, count, action) of every kernel row."""
    st = encode(pos)
    actions, parts, counts = FT.complete_turns(st)
    out = []
    for a, p, n in zip(actions, parts, counts):
        s = st.copy()
        FT.apply_turn(s, a)
        q = decode(s)
        assert tuple(s[FT.BAG:FT.BAG + FT.N_COLOURS]) == q.bag
        assert tuple(s[FT.RES_DECK:FT.RES_DECK + FT.N_CARD_KINDS]) == q.resource_deck
        assert (FT.state_scores(s)[pos.to_move] - FT.state_scores(st)[pos.to_move]
                == p).all()
        out.append((q, tuple(int(x) for x in p), int(n), a))
    return out


def complete_turns(pos: Position) -> dict[tuple, tuple[tuple[int, ...], int]]:
    out = {}
    for q, delta, n, _ in rows(pos):
        key = position_key(q)
        assert key not in out, "two kernel rows leave the same state"
        out[key] = (delta, n)
    return out


def result_positions(pos: Position) -> list[Position]:
    return [q for q, _, _, _ in rows(pos)]
