"""New Five Tribes games (docs/games/five-tribes.md §3): the variants and a dealt opening
position."""

from __future__ import annotations

import numpy as np

from ...kernels import five_tribes as FT
from ...kernels.rng import stream
from ...errors import OddsbotError
from . import GAME
from .encode import END_RULES, decode
from .position import Position

VARIANTS = GAME.variants
END_RULE_OF = {"five-tribes": "live", "five-tribes-premove": "premove"}


def new_position(players: int = 4, seed: int = 0, variant_id: str = "five-tribes") -> Position:
    """A random opening for ``players`` (tiles, meeples, cards, djinns and the bid order all
    shuffled), from chance stream (seed, 0); no bids yet."""
    if variant_id not in VARIANTS:
        raise OddsbotError(f"variant: unknown Five Tribes variant {variant_id!r} (known: "
                           f"{', '.join(VARIANTS)})")
    if not 2 <= players <= FT.MAX_PLAYERS:
        raise OddsbotError(f"players: five-tribes is for 2-4 players, got {players}")
    st = FT.empty_state()
    chance = stream(np.uint64(seed), 0)  # see kernels.rng.MAX_SEED
    FT.deal(st, players, END_RULES.index(END_RULE_OF[variant_id]), False, chance)
    return decode(st)
