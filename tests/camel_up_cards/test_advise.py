"""The Camel Up Cards EV table against the naive reference (docs/games/camel-up-cards.md
§4, §7, §9, §14.1): on positions from real deals late in a leg, every exactly valued turn
equals the reference's expected leg payout to 1e-12; sampled values fall within 5 standard
errors of exact ones; hidden cards never change the answer."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import numpy as np
import pytest

import naive_cards as N
from cards_positions import board_of, deck_view, position_in_play
from oddsbot.analyser.camel_up_cards import face, outcomes
from oddsbot.analyser.camel_up_cards.position import Position
from oddsbot.analyser.camel_up_cards.simulate import decode
from oddsbot.kernels.camel_up_cards import game as K

WORDS = dict(zip(("white", "green", "orange", "blue", "yellow"), N.CAMELS))


def outcomes_after(board: dict, decks: dict, first_action_ends: bool) -> dict:
    """(ranking, race ended, fox on, palm on, first ended) -> probability: every order of
    every remaining deck played out on ``board``; ``first ended`` marks outcomes where the
    first card drawn ended the leg or the race (only meaningful for a reveal)."""
    out: dict = {}
    for deck, p in decks.items():
        orders = list(permutations(deck)) or [()]
        for order in orders:
            b, first = board, False
            for i, card in enumerate(order):
                b = N.move(b, card[0], int(card[1]))
                if b["finish"]:
                    first = i == 0
                    break
            else:
                first = len(order) == 1
            key = (tuple(N.ranking(b)), b["finish"] is not None, b["fox"] is not None,
                   b["palm"] is not None, first)
            out[key] = out.get(key, 0) + p * Fraction(1, len(orders))
    return out


def holdings(pos: Position, seat: int) -> tuple[list, list]:
    return list(pos.leader[seat]), list(pos.midfield[seat])


def naive_ev(pos: Position, label: str) -> Fraction | None:
    """The reference's expected leg payout of a turn without a winner or loser card;
    None for a turn with one (valued by sampled race odds)."""
    parts = label.split(" + ")
    if any(p.split()[0] in ("winner", "loser") for p in parts):
        return None
    me = pos.to_move
    board = board_of(pos)
    known, pool, k = deck_view(pos)
    decks = N.deck_posterior(known, pool, k, list(pos.revealed))
    leaders, mids = holdings(pos, me)
    fox = bool(pos.fox and pos.fox.holder == me)
    palm = bool(pos.palm and pos.palm.holder == me)
    race = next(p for p in parts if p.split()[0] in ("reveal", "hand", "fox", "palm"))
    bet = next((p for p in parts if p != race), None)
    bet_after = bet is not None and parts.index(bet) > parts.index(race)
    word = race.split()
    if word[0] == "hand":
        board = N.move(board, WORDS[word[1]], 1)
        if board["finish"]:
            decks = {(): Fraction(1)}
    elif word[0] in ("fox", "palm"):
        board = {**board, word[0]: int(word[1])}
        fox, palm = fox or word[0] == "fox", palm or word[0] == "palm"
    dist = outcomes_after(board, decks, False)
    extra_l, extra_m = [], []
    if bet is not None:
        kind, colour = bet.split()
        c = WORDS[colour]
        if kind == "leader":
            extra_l = [(c, pos.leader_stack(c)[0])]
        else:
            extra_m = [c]
    total = Fraction(0)
    money = pos.money[me]
    for (order, ended, fox_on, palm_on, first), p in dist.items():
        lost = bet_after and (first if word[0] == "reveal" else ended and word[0] == "hand")
        net = N.leg_net(list(order), leaders + ([] if lost else extra_l),
                        mids + ([] if lost else extra_m), fox and fox_on, palm and palm_on)
        total += p * (N.floor_money(money, net) - money)
    return total


@pytest.mark.parametrize("seed,players,left", [(1, 2, 2), (2, 3, 2), (3, 4, 3), (4, 5, 2),
                                               (5, 6, 2), (6, 4, 1)])
def test_exact_turn_values_match_the_reference(seed, players, left):
    pos, _ = position_in_play(seed, players, left)
    table = face.advise(pos, samples=2048, seed=1)
    exact = [(a, ev) for a, ev, m in zip(table["action"], table["ev"], table["method"])
             if m == "exact"]
    checked = 0
    for action, ev in exact:
        want = naive_ev(pos, action)
        if want is not None:
            assert abs(ev - float(want)) < 1e-12, (action, ev, float(want))
            checked += 1
    assert checked >= 5
    assert sorted(table["action"]) == sorted(face.legal_actions(pos))


def test_sampled_turn_values_fall_within_five_standard_errors(monkeypatch):
    """A 12-card deck (sampled by default) against the exact pass forced on."""
    pos, _ = position_in_play(7, 4, 9)
    sampled = face.advise(pos, samples=40_000, seed=3)
    assert "monte-carlo" in sampled["method"]
    monkeypatch.setattr(outcomes, "EXACT_CARDS", 12)
    exact = face.advise(pos, samples=40_000, seed=3)
    want = dict(zip(exact["action"], zip(exact["ev"], exact["method"])))
    compared = 0
    for action, ev, se, method in zip(sampled["action"], sampled["ev"], sampled["se"],
                                      sampled["method"]):
        if method == "monte-carlo" and want[action][1] == "exact":
            assert abs(ev - want[action][0]) <= 5 * se, action
            compared += 1
    assert compared >= 10


def test_hidden_cards_do_not_change_the_advice():
    """Two games that differ only in what the player to move cannot see (the order of
    the cards left in the race deck, the opponents' hand cards swapped) give the same
    position and the same table for the same seed."""
    pos, st = position_in_play(8, 4, 6)
    other = st.copy()
    lo, hi = K.DECK + other[K.DRAWN], K.DECK + other[K.DECK_SIZE]
    other[lo:hi] = other[lo:hi][::-1]
    me = int(st[K.TO_MOVE])
    a, b = [(me + i) % 4 for i in (1, 2)]
    ha, hb = K.PLAYER + a * K.PB + K.HAND, K.PLAYER + b * K.PB + K.HAND
    other[ha], other[hb] = st[hb], st[ha]
    assert not np.array_equal(other, st)
    twin = decode(other)
    assert twin == pos
    assert face.advise(twin, samples=4096, seed=2) == face.advise(pos, samples=4096, seed=2)
    assert face.odds(twin, samples=4096, seed=2) == face.odds(pos, samples=4096, seed=2)
