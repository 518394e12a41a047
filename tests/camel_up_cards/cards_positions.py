"""Positions of Camel Up Cards for tests: real deals stopped in a leg, and what the naive
reference needs of a position (its board; §9 from the rules: the known deck cards, the
unseen pool, the unknown count)."""

from __future__ import annotations

from collections import Counter

import numpy as np

import naive_cards as N
from oddsbot.analyser.camel_up_cards.position import Position
from oddsbot.analyser.camel_up_cards.simulate import decode
from oddsbot.kernels.camel_up_cards import game as K
from oddsbot.kernels.camel_up_cards import policy as P
from oddsbot.kernels.rng import stream


def position_in_play(seed: int, players: int, left: int) -> tuple[Position, np.ndarray]:
    """A real game (random policy) stopped at the first turn with ``left`` cards in the
    deck: the position its player to move sees, and the game state."""
    deal, pol = stream(np.uint64(seed), 0), stream(np.uint64(seed), 2)
    st = K.new_game(players, deal, np.arange(players), K.SETUP[players],
                    K.LAST_SPACE[players])
    while st[K.DECK_SIZE] - st[K.DRAWN] != left:
        if st[K.STATUS]:
            return position_in_play(seed + 1000, players, left)
        K.play_turn(st, deal, *P.choose(st, pol, P.RANDOM))
    return decode(st), st


def board_of(pos: Position) -> dict:
    """The reference's board of a position."""
    return {"L": pos.last, "cards": list(pos.cards), "start": list(pos.start_line),
            "stacks": {s: list(x) for s, x in enumerate(pos.stacks, start=1) if x},
            "fox": pos.fox.space if pos.fox else None,
            "palm": pos.palm.space if pos.palm else None, "finish": None}


def deck_view(pos: Position) -> tuple[list, list, int]:
    """§9 from the rules: known deck cards (own deck cards and every blue card), the
    unseen pool (the 30 less own dealt cards, the others' blue and played cards), and the
    number of unknown deck cards (the opponents' cards put in)."""
    known = list(pos.own_deck) + [b for b in pos.blue if b]
    seen = Counter(pos.own_discarded) + Counter(pos.own_deck)
    seen += Counter(b for b in pos.blue if b)
    seen += Counter(card for _, card in pos.played)
    if pos.own_hand:
        seen[pos.own_hand] += 1
    pool = list((Counter(N.FULL_SET) - seen).elements())
    return known, pool, (pos.players - 1) * pos.setup[2]
