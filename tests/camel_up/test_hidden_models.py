"""The informed model of hidden finish cards: constraints and weights."""

from __future__ import annotations

import numpy as np
import pytest

from oddsbot.analyser.camel_up import face as cu
from oddsbot.analyser.camel_up.encode import encode
from oddsbot.errors import OddsbotError
from oddsbot.kernels import camel_up as K
from oddsbot.kernels.rng import stream

POS = cu.parse("camel-up BG/Y/RP/10/K/1/W BGYRPX n=4 to=3 win=0?,1B,1?,2? lose=1?,0G")


def owners_cards(st):
    cards = {}
    for deck, length in ((K.WDECK, K.WLEN), (K.LDECK, K.LLEN)):
        for i in range(st[length]):
            cards.setdefault(st[deck + i] // 8, []).append(st[deck + i] % 8)
    return cards


def test_informed_sampling_respects_every_constraint():
    weights = np.array([[5.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 5.0]])
    for r in range(300):
        st = encode(POS)
        K.sample_hidden_informed(st, stream(9, r), weights)
        for owner, colours in owners_cards(st).items():
            assert all(0 <= c < 5 for c in colours)
            assert len(set(colours)) == len(colours)
            hand = {c for c in range(5) if (st[K.HAND + owner] >> c) & 1}
            assert hand == set(range(5)) - set(colours)
        assert st[K.WDECK + 1] % 8 == 0 and st[K.LDECK + 1] % 8 == 1  # visible cards kept


def test_informed_sampling_follows_the_weights():
    weights = np.array([[0.0, 0.0, 1.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0]])
    counts = np.zeros(5)
    for r in range(400):
        st = encode(POS)
        K.sample_hidden_informed(st, stream(4, r), weights)
        counts[st[K.WDECK] % 8] += 1  # player 0's hidden winner card
    assert counts[2] == 400  # all the weight on yellow, which player 0 has free


def test_informed_rollouts_need_race_odds_and_report_the_model():
    from oddsbot.analyser.camel_up.rollouts import rollout_equity

    with pytest.raises(OddsbotError, match="race odds"):
        rollout_equity(POS, [K.A_PYRAMID], rollouts=32, policy="heuristic", hidden="informed")
    with pytest.raises(OddsbotError, match="unknown model"):
        rollout_equity(POS, [K.A_PYRAMID], rollouts=32, policy="heuristic", hidden="psychic")
    df = cu.advise(POS, samples=4096, seed=2, rollouts=32, hidden="informed").frame()
    assert df.attrs["provenance"]["hidden_cards"] == "informed"
    assert df["win_p"].between(0, 1).all() and df["win_p"].is_monotonic_decreasing
