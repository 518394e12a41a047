"""A Camel Up Cards position as the kernel's arrays (docs/games/camel-up-cards.md §6, §9).

``track_of`` gives the board; ``deck_knowledge`` what the viewer knows of the race deck
(counts per card type, kernel order ``W1 W2 G1 G2 ...``); ``candidates`` the posterior of
§9 as weighted remaining decks. Decoding exists only in tests.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import PositionError
from ...kernels.camel_up_cards import posterior, track
from .position import CARD_TYPES, COLOURS, FULL_SET, Position


def colour_index(colour: str) -> int:
    return COLOURS.index(colour)


def type_counts(cards) -> np.ndarray:
    """Cards (None skipped) counted per kernel card type."""
    out = np.zeros(track.N_TYPES, dtype=np.int64)
    for card in cards:
        if card is not None:
            out[CARD_TYPES.index(card)] += 1
    return out


def track_of(pos: Position) -> np.ndarray:
    """The kernel track of ``pos``'s board: camels, figures and their holders, L, cards."""
    tr = np.zeros(track.TRACK_SIZE, dtype=np.int64)
    line = pos.start_line
    for i, camel in enumerate(line):
        c = colour_index(camel)
        tr[track.SP + c], tr[track.HT + c] = 0, len(line) - 1 - i
    tr[track.CNT] = len(line)
    for space, stack in enumerate(pos.stacks, start=1):
        for h, camel in enumerate(stack):
            c = colour_index(camel)
            tr[track.SP + c], tr[track.HT + c] = space, h
        tr[track.CNT + space] = len(stack)
    for fig, at, holder in ((pos.fox, track.FOX, track.FOX_HOLDER),
                            (pos.palm, track.PALM, track.PALM_HOLDER)):
        tr[at] = 0 if fig is None else fig.space
        tr[holder] = -1 if fig is None else fig.holder
    tr[track.LAST] = pos.last
    tr[track.N_CARDS] = len(pos.cards)
    tr[track.CARD:track.CARD + len(pos.cards)] = pos.cards
    return tr


@dataclass(frozen=True)
class DeckKnowledge:
    """What the viewer knows of this leg's race deck (§9), as counts per card type:
    ``known`` cards surely put in (own deck cards, every blue card), the unseen ``pool``
    the ``unknown`` other cards were taken from, and the cards ``revealed`` so far."""

    known: np.ndarray
    pool: np.ndarray
    unknown: int
    revealed: np.ndarray


def deck_knowledge(pos: Position) -> DeckKnowledge:
    """§9: the pool is the 30 cards less the viewer's dealt cards, every blue card and
    the hand cards the opponents played."""
    known = type_counts(pos.own_deck + pos.blue)
    others = [b for s, b in enumerate(pos.blue) if s != pos.viewer]
    others += [card for s, card in pos.played if s != pos.viewer]
    pool = type_counts(FULL_SET) - type_counts(pos.own_dealt) - type_counts(others)
    return DeckKnowledge(known, pool, pos.unknown_size, type_counts(pos.revealed))


def candidates(pos: Position) -> tuple[np.ndarray, np.ndarray]:
    """(m, w): the remaining race decks the viewer thinks possible and their
    probabilities (§9); PositionError if the revealed cards could not have been drawn."""
    deck = deck_of(pos)
    return deck.m, deck.w


@dataclass(frozen=True)
class Deck:
    """The race deck as the viewer knows it: the knowledge (counts per type) and the
    candidate remaining decks ``m`` with their weights ``w`` (§9)."""

    knowledge: DeckKnowledge
    m: np.ndarray
    w: np.ndarray

    @property
    def cum(self) -> np.ndarray:
        """The cumulative weights (for drawing a candidate)."""
        return np.cumsum(self.w)

    @property
    def left(self) -> int:
        """Cards left in the deck."""
        return int(self.m[0].sum())


def deck_of(pos: Position) -> Deck:
    """The race deck of ``pos`` as its viewer knows it; PositionError if the revealed cards
    could not have been drawn from it."""
    k = deck_knowledge(pos)
    if (k.pool < 0).any():
        raise PositionError("cards", "more cards of a type are seen than exist")
    m, w = posterior.deck_candidates(k.known, k.pool, k.unknown, k.revealed)
    if len(w) == 0:
        raise PositionError("revealed", "these cards cannot all have come from the race "
                                        "deck the viewer knows of")
    return Deck(k, m, w)
