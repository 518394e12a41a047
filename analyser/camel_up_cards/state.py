"""A position as the kernel's whole-game state, with what its viewer cannot see left to
be drawn (docs/games/camel-up-cards.md §9): ``public_state`` holds every public fact and
the viewer's own cards (all the policies read); ``known_state`` adds the ``HiddenModel``,
what ``kernels.camel_up_cards.rollouts.sample_hidden`` needs to draw the rest of the race
deck and the opponents' hand cards."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...kernels.camel_up_cards import game as K
from ...kernels.camel_up_cards import rollouts as R
from ...kernels.camel_up_cards import track as T
from .encode import colour_index, deck_of, track_of
from .position import CARD_TYPES, COLOURS, Position

PHASE_CODES = {"start": R.PHASE_START, "bet": R.PHASE_BET, "race": R.PHASE_RACE}


def seat_field(p: int, field: int) -> int:
    """The state index of seat ``p``'s ``field`` (``kernels.camel_up_cards.game``)."""
    return K.PLAYER + p * K.PB + field


@dataclass(frozen=True)
class HiddenModel:
    """The viewer's candidate decks (m, cumulative weights) and the counts per card type
    of the unseen pool, the known deck cards and the revealed ones; ``hidden_hands[p]``
    is 1 for an opponent who still holds a hand card."""

    m: np.ndarray
    cum: np.ndarray
    pool: np.ndarray
    known: np.ndarray
    revealed: np.ndarray
    hidden_hands: np.ndarray


def known_state(pos: Position) -> tuple[np.ndarray, HiddenModel]:
    """The state of ``pos`` with the rest of the deck and the opponents' hand cards not
    yet drawn, and the model to draw them from."""
    hidden = np.array([p != pos.viewer and pos.hands[p] for p in range(pos.players)],
                      dtype=np.int64)
    deck = deck_of(pos)
    k = deck.knowledge
    return public_state(pos), HiddenModel(deck.m, deck.cum, k.pool, k.known, k.revealed,
                                          hidden)


def public_state(pos: Position) -> np.ndarray:
    """The state of ``pos`` as its viewer knows it: every public fact and the viewer's own
    cards; the rest of the race deck and the opponents' hand cards (-1) not drawn (what
    the policies read: ``kernels.camel_up_cards.policy``)."""
    n = pos.players
    st = np.zeros(K.STATE_SIZE, dtype=np.int64)
    st[:T.TRACK_SIZE] = track_of(pos)
    st[K.N_PLAYERS] = n
    st[K.TO_MOVE] = pos.to_move
    st[K.LEG] = pos.leg
    st[K.DEALT], st[K.DISCARDED], st[K.INTO_DECK] = pos.setup
    st[K.BLUE] = pos.blue_per_player
    st[K.DECK_SIZE] = pos.deck_size
    st[K.DRAWN] = len(pos.revealed)
    for i, card in enumerate(pos.revealed):
        st[K.DECK + i] = CARD_TYPES.index(card)
    for c, colour in enumerate(COLOURS):
        st[K.LEADER_LEFT + c] = len(pos.leader_stack(colour))
        holder = [p for p in range(n) if colour in pos.midfield[p]]
        st[K.MID_HOLDER + c] = holder[0] if holder else -1
    for p in range(n):
        st[seat_field(p, K.MONEY)] = pos.money[p]
        st[seat_field(p, K.AGE)] = pos.ages.index(p)
        st[seat_field(p, K.WINNER)] = colour_index(pos.winner[p]) if pos.winner[p] else -1
        st[seat_field(p, K.LOSER)] = colour_index(pos.loser[p]) if pos.loser[p] else -1
        for colour, value in pos.leader[p]:
            st[seat_field(p, K.LEAD_N + colour_index(colour))] += 1
            st[seat_field(p, K.LEAD_SUM + colour_index(colour))] += value
        played = pos.played_card(p)
        st[seat_field(p, K.PLAYED)] = CARD_TYPES.index(played) if played else -1
        st[seat_field(p, K.CARDS):seat_field(p, K.CARDS) + K.MAX_DEALT] = -1
        hand = -1
        if p == pos.viewer and pos.own_hand:
            hand = CARD_TYPES.index(pos.own_hand)
        st[seat_field(p, K.HAND)] = hand
    return st
