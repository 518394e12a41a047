"""Rollouts of Camel Up Cards turns (docs/games/camel-up-cards.md §9, §14.1): the hidden
cards are drawn from the viewer's model (the deck's rest by the posterior, the opponents'
hand cards from what is left unseen, checked against the reference within 5 SE); turn
labels map onto legal kernel turns; candidates share their random numbers."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

import naive_cards as N
from kernel_boards import TYPES
from oddsbot.analyser.camel_up_cards import face, rollouts
from oddsbot.analyser.camel_up_cards.labels import turn_codes
from oddsbot.analyser.camel_up_cards.position import Position
from oddsbot.analyser.camel_up_cards.state import known_state
from oddsbot.kernels.camel_up_cards import game as K
from oddsbot.kernels.camel_up_cards import rollouts as R
from oddsbot.kernels.rng import stream
from cards_positions import deck_view, position_in_play


def hand_seat(pos: Position) -> int | None:
    """An opponent still holding a hand card, if any."""
    return next((p for p in range(pos.players) if p != pos.viewer and pos.hands[p]), None)


def test_hidden_cards_follow_the_model():
    """20,000 draws: each remaining deck's frequency is its posterior probability, and
    the first opponent's hand card is of type t with the chance the reference gives:
    E[unseen cards of type t left out of the deck] / (unseen cards left out)."""
    pos = next(pos for seed in range(21, 60) for pos, _ in [position_in_play(seed, 3, 3)]
               if hand_seat(pos) is not None)
    known, pool, k = deck_view(pos)
    posterior = N.deck_posterior(known, pool, k, list(pos.revealed))
    want_hand: dict[str, Fraction] = {}
    for deck, p in posterior.items():
        unknown = Counter(deck) + Counter(pos.revealed) - Counter(known)
        left = Counter(pool) - unknown
        total = sum(left.values())
        for card, count in left.items():
            want_hand[card] = want_hand.get(card, 0) + p * Fraction(count, total)
    st0, h = known_state(pos)
    seat = hand_seat(pos)
    n = 20_000
    decks: Counter = Counter()
    hands: Counter = Counter()
    st = st0.copy()
    for i in range(n):
        st[:] = st0
        R.sample_hidden(st, h.m, h.cum, h.pool, h.known, h.revealed, h.hidden_hands,
                        stream(np.uint64(5), i))
        rest = st[K.DECK + st[K.DRAWN]:K.DECK + st[K.DECK_SIZE]]
        decks[tuple(sorted(TYPES[t] for t in rest))] += 1
        hands[TYPES[st[K.PLAYER + seat * K.PB + K.HAND]]] += 1
    for table, want in ((decks, posterior), (hands, want_hand)):
        assert set(table) <= set(want)
        for key, p in want.items():
            p = float(p)
            assert abs(table[key] / n - p) <= 5 * np.sqrt(p * (1 - p) / n) + 1e-9, key


@pytest.mark.parametrize("seed,players,left", [(22, 4, 12), (23, 2, 5), (24, 6, 3)])
def test_every_label_is_a_legal_kernel_turn(seed, players, left):
    pos, _ = position_in_play(seed, players, left)
    st, h = known_state(pos)
    me = pos.to_move
    for label in face.legal_actions(pos):
        bet1, race, bet2 = turn_codes(label, pos.phase)
        assert K.race_ok(st, me, race), label
        for bet in (bet1, bet2):
            assert bet == K.NO_BET or K.bet_ok(st, me, bet), label
        assert bet1 == K.NO_BET or bet2 == K.NO_BET


def test_candidates_share_their_random_numbers():
    """The same turn twice: every rollout gives both the same result (a gap of exactly
    0); the answer depends on the seed only."""
    pos, _ = position_in_play(25, 4, 7)
    labels = face.legal_actions(pos)[:3]
    eq = rollouts.rollout_equity(pos, [labels[0], labels[0], labels[2]], rollouts=64,
                                 policy="heuristic", seed=3)
    assert eq.win[0] == eq.win[1] and eq.margin[0] == eq.margin[1]
    again = rollouts.rollout_equity(pos, [labels[0], labels[0], labels[2]], rollouts=64,
                                    policy="heuristic", seed=3)
    assert np.array_equal(eq.win, again.win) and np.array_equal(eq.margin, again.margin)


def test_advise_with_rollouts_puts_the_rolled_turns_first():
    pos, _ = position_in_play(26, 3, 6)
    table = face.advise(pos, samples=1024, seed=1, rollouts=32, candidates=4)
    win = table["win_p"]
    assert [w is not None for w in win] == [True] * 4 + [False] * (len(win) - 4)
    assert win[:4] == sorted(win[:4], reverse=True)
    assert table.provenance["rollouts"] == 32 and table.provenance["candidates"] == 4
