"""The Camel Up Cards kernel against the naive reference (docs/games/camel-up-cards.md §5,
§9): movement, ranking, sandstorm and extension on random legal boards; the exact leg
distribution and the deck posterior to 1e-12; sampled legs within 5 standard errors."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_cards as N
from kernel_boards import TYPES, boards, counts, from_track, rank_of, to_track
from oddsbot.kernels.camel_up_cards import leg as G
from oddsbot.kernels.camel_up_cards import posterior as P
from oddsbot.kernels.camel_up_cards import track as T


def tidy(board: dict) -> dict:
    return {**board, "stacks": {s: st for s, st in board["stacks"].items() if st}}


@settings(max_examples=300, deadline=None)
@given(boards(), st.integers(0, 4), st.integers(1, 2))
def test_move_matches_the_reference(board, camel, steps):
    tr = to_track(board)
    assert tidy(from_track(tr)) == tidy(board)
    ended = T.move(tr, camel, steps)
    want = N.move(board, N.CAMELS[camel], steps)
    assert tidy(from_track(tr)) == tidy(want)
    assert ended == (want["finish"] is not None)
    order = np.zeros(5, dtype=np.int64)
    T.ranking(tr, order)
    assert [N.CAMELS[c] for c in order] == N.ranking(want)
    assert T.rank_index(tr) == rank_of(tuple(N.ranking(want)))


@settings(max_examples=200, deadline=None)
@given(boards())
def test_figure_spaces_match_the_reference(board):
    tr = to_track(board)
    want = N.figure_spaces(board)
    assert [s for s in range(1, board["L"] + 1) if T.figure_space_ok(tr, s)] == want
    out = np.zeros(T.MAX_L, dtype=np.int64)
    assert list(out[:T.figure_spaces(tr, out)]) == want


@settings(max_examples=200, deadline=None)
@given(boards(figures=False))
def test_sandstorm_and_extension_match_the_reference(board):
    tr = to_track(board)
    T.sandstorm(tr)
    want = N.sandstorm(board)
    assert tidy(from_track(tr)) == tidy(want)
    T.extend(tr)
    assert tidy(from_track(tr)) == tidy(N.extend(want))


def test_the_worked_sandstorm_example():
    """§5.4: 4 players, L = 17: O on 2, W on 3, G on 10, 11: [B, Y] -> G 8, 9: [B, Y],
    L = 15."""
    board = N.new_board(17)
    board["start"] = []
    board["stacks"] = {2: ["O"], 3: ["W"], 10: ["G"], 11: ["B", "Y"]}
    tr = to_track(board)
    T.sandstorm(tr)
    got = from_track(tr)
    assert got["stacks"] == {2: ["O"], 3: ["W"], 8: ["G"], 9: ["B", "Y"]}
    assert got["L"] == 15


def hist_of(dist: dict) -> np.ndarray:
    """A naive leg distribution as the kernel's histogram without its first axis."""
    out = np.zeros(G.HIST_SHAPE[1:])
    for (order, ended, fox, palm), p in dist.items():
        out[int(ended), rank_of(order), int(fox), int(palm)] += float(p)
    return out


def first_card_endings(board: dict, deck: list[str]) -> np.ndarray:
    """The reference's outcomes where the first card drawn ends the leg or the race."""
    out = np.zeros(G.HIST_SHAPE[1:])
    for card in set(deck):
        after = N.move(board, card[0], int(card[1]))
        if after["finish"] or len(deck) == 1:
            p = Fraction(deck.count(card), len(deck))
            out += hist_of({(tuple(N.ranking(after)), bool(after["finish"]),
                             after["fox"] is not None, after["palm"] is not None): p})
    return out


decks = st.lists(st.sampled_from(TYPES), min_size=0, max_size=5)
NONE = np.zeros(len(TYPES), dtype=np.int64)  # no unseen pool, nothing revealed


@settings(max_examples=80, deadline=None)
@given(boards(), decks)
def test_exact_leg_of_a_known_deck_matches_the_reference(board, deck):
    hist = np.zeros(G.HIST_SHAPE)
    assert G.leg_exact(to_track(board), counts(deck), NONE, 0, NONE, 10**6, hist)
    np.testing.assert_allclose(hist.sum(axis=0), hist_of(N.leg_distribution(board, deck)),
                               rtol=0, atol=1e-12)
    np.testing.assert_allclose(hist[1], first_card_endings(board, deck), rtol=0, atol=1e-12)


@st.composite
def hidden_decks(draw):
    """(known, pool, n_unknown, revealed): a small race deck partly unknown, with cards
    revealed from it (possible ones: drawn from an actual deck)."""
    cards = draw(st.permutations(N.FULL_SET))
    n_known = draw(st.integers(0, 3))
    n_unknown = draw(st.integers(0, 3))
    pool_size = draw(st.integers(n_unknown, n_unknown + 3))
    known = list(cards[:n_known])
    pool = list(cards[n_known:n_known + pool_size])
    actual = known + draw(st.permutations(pool))[:n_unknown]
    revealed = draw(st.permutations(actual))[:draw(st.integers(0, len(actual)))]
    return known, pool, n_unknown, list(revealed)


@settings(max_examples=120, deadline=None)
@given(hidden_decks())
def test_the_posterior_matches_the_reference(case):
    known, pool, k, revealed = case
    m, w = P.deck_candidates(counts(known), counts(pool), k, counts(revealed))
    got = {tuple(sorted(c for t, c in enumerate(TYPES) for _ in range(row[t]))): p
           for row, p in zip(m, w)}
    want = N.deck_posterior(known, pool, k, revealed)
    assert set(got) == set(want)
    for deck, p in want.items():
        assert abs(got[deck] - float(p)) < 1e-12


@settings(max_examples=40, deadline=None)
@given(boards(), hidden_decks())
def test_exact_leg_under_the_posterior_matches_the_reference(board, case):
    known, pool, k, revealed = case
    hist = np.zeros(G.HIST_SHAPE)
    assert G.leg_exact(to_track(board), counts(known), counts(pool), k, counts(revealed),
                       10**6, hist)
    want = N.leg_distribution_posterior(board, known, pool, k, revealed)
    np.testing.assert_allclose(hist.sum(axis=0), hist_of(want), rtol=0, atol=1e-12)


def test_impossible_reveals_leave_no_candidate():
    """W2 exists once: revealing it twice is impossible under every deck."""
    m, w = P.deck_candidates(counts(["W2"]), counts(["G1"]), 1, counts(["W2", "W2"]))
    assert len(w) == 0


@pytest.mark.parametrize("seed", [1, 2])
def test_sampled_legs_fall_within_five_standard_errors(seed):
    """A 4-player-like deck: 2 known cards and 4 unknown of a 20-card pool, 1 revealed."""
    rng = np.random.default_rng(seed)
    cards = list(rng.permutation(N.FULL_SET))
    known, pool = cards[:2], cards[2:22]
    revealed = [known[0]]
    board = N.new_board(17)
    board["start"], board["stacks"] = ["W", "G"], {1: ["B"], 3: ["Y", "O"]}
    board["fox"] = 2
    tr = to_track(board)
    m, w = P.deck_candidates(counts(known), counts(pool), 4, counts(revealed))
    exact = np.zeros(G.HIST_SHAPE)
    assert G.leg_exact(tr, counts(known), counts(pool), 4, counts(revealed), 10**6, exact)
    n = 200_000
    sampled = np.zeros(G.HIST_SHAPE)
    G.leg_samples(tr, m, np.cumsum(w), seed, 0, n, sampled)
    p = sampled / n
    se = np.sqrt(np.maximum(exact * (1 - exact), 1e-12) / n)
    assert np.all(np.abs(p - exact) <= 5 * se + 1e-9)
    assert exact.sum() == pytest.approx(1, abs=1e-12)


def test_a_race_that_must_end_this_leg_matches_the_exact_leg():
    """Every camel within reach of the finish and 6 cards to draw: the race ends this leg,
    so the sampled winners and losers fall within 5 SE of the exact leg's."""
    board = N.new_board(15)
    board["start"], board["stacks"] = [], {14: ["W", "G"], 15: ["O", "B", "Y"]}
    deck = ["W1", "G1", "O1", "B1", "Y1", "W2"]
    m = counts(deck)[None, :]
    exact = np.zeros(G.HIST_SHAPE)
    assert G.leg_exact(to_track(board), counts(deck), NONE, 0, NONE, 10**6, exact)
    exact = exact.sum(axis=0)
    assert exact[1].sum() == pytest.approx(1, abs=1e-12)
    perms = T.perm_orders()
    ranks = exact[1].sum(axis=(1, 2))
    win = np.array([ranks[perms[:, 0] == c].sum() for c in range(5)])
    lose = np.array([ranks[perms[:, 4] == c].sum() for c in range(5)])
    n = 100_000
    out = np.zeros((6, 5))
    G.race_samples(to_track(board), m, np.ones(1), 12, 5, 0, n, out)
    assert out[5, 0] == n and out[5, 1] == n
    for got, want in ((out[0] / n, win), (out[4] / n, lose)):
        se = np.sqrt(np.maximum(want * (1 - want), 1e-12) / n)
        assert np.all(np.abs(got - want) <= 5 * se + 1e-9)


def naive_race(board: dict, deck: list[str], deck_size: int, rng) -> tuple[str, str, int]:
    """One race by the reference: this leg's deck shuffled, then legs of ``deck_size``
    cards chosen uniformly from the 30, extension and sandstorm between legs (§5.5, §5.4).
    (winner, loser, legs played)."""
    legs = 1
    cards = list(deck)
    while True:
        rng.shuffle(cards)
        for card in cards:
            board = N.move(board, card[0], int(card[1]))
            if board["finish"]:
                order = N.ranking(board)
                return order[0], order[-1], legs
        board = N.sandstorm(N.extend({**board, "fox": None, "palm": None}))
        cards = rng.sample(N.FULL_SET, deck_size)
        legs += 1


def test_sampled_races_agree_with_the_reference():
    """Two Monte Carlo estimates of the same race (kernel and reference, different random
    numbers): each camel's win and loss chances and the mean number of legs agree within
    5 standard errors of their difference."""
    import random
    board = N.new_board(17)
    board["start"], board["stacks"] = ["W"], {2: ["G"], 5: ["O", "B"], 9: ["Y"]}
    deck = ["W1", "G2", "O1", "B1", "Y1", "Y1", "G1"]
    n_ref, n = 3_000, 100_000
    rng = random.Random(7)
    ref = [naive_race(board, deck, 12, rng) for _ in range(n_ref)]
    out = np.zeros((6, 5))
    G.race_samples(to_track(board), counts(deck)[None, :], np.ones(1), 12, 3, 0, n, out)
    for row, idx in ((0, 0), (4, 1)):
        for c, camel in enumerate(N.CAMELS):
            p_ref = sum(r[idx] == camel for r in ref) / n_ref
            p = out[row, c] / n
            se = np.sqrt(p * (1 - p) / n + p_ref * (1 - p_ref) / n_ref) + 1e-9
            assert abs(p - p_ref) <= 5 * se, (row, camel, p, p_ref)
    legs_ref = np.array([r[2] for r in ref], dtype=float)
    se = legs_ref.std() * np.sqrt(1 / n_ref + 1 / n)
    assert abs(out[5, 1] / n - legs_ref.mean()) <= 5 * se


@pytest.mark.parametrize("seed", [2, 5])
def test_hardest_exact_leg_is_the_mixture_of_its_candidate_decks(seed):
    """The bench's hardest exact leg (a new deal, the viewer's first 4 known cards
    revealed: 8 cards left, 6 unknown; levels of up to ~57,000 states held, so over a
    budget of 5,000, and ~200,000 reached by the last card, not merged; thousands of
    counts drawn) equals the mixture, by the posterior's weights, of the exact legs of
    each candidate deck known (``deck_candidates``; one pass per candidate, no unknown
    part) to 1e-12."""
    from oddsbot.analyser.camel_up_cards import encode
    from oddsbot.analyser.camel_up_cards.simulate import new_position

    pos = new_position(4, seed)
    known = list(pos.own_deck) + [b for b in pos.blue if b]
    pos = pos.with_(revealed=tuple(known[:4]))
    tr, k = encode.track_of(pos), encode.deck_of(pos).knowledge
    assert k.unknown == 6 and k.known.sum() - k.revealed.sum() + k.unknown == 8
    assert not G.leg_exact(tr, k.known, k.pool, k.unknown, k.revealed, 5_000,
                           np.zeros(G.HIST_SHAPE))
    hist = np.zeros(G.HIST_SHAPE)
    assert G.leg_exact(tr, k.known, k.pool, k.unknown, k.revealed, 10**6, hist)
    mix = np.zeros(G.HIST_SHAPE)
    m, w = P.deck_candidates(k.known, k.pool, k.unknown, k.revealed)
    assert len(w) > 100
    for row, p in zip(m, w):
        one = np.zeros(G.HIST_SHAPE)
        assert G.leg_exact(tr, row, NONE, 0, NONE, 10**6, one)
        mix += p * one
    np.testing.assert_allclose(hist, mix, rtol=0, atol=1e-12)
