"""Arena seats (``Capability.SEATS``, docs/games/camel-up.md §15.1): whole games through
``deal``/``choose``/``step`` agree with their own records' replay; a seat's view, choices,
candidates and playouts do not depend on the colours it cannot see; playouts share their
chance across actions, do not depend on threads and agree with games played in Python;
``choose`` is the kernel's whole-game policy; ``candidates`` rank as ``advise`` does where
it is exact; ``arena_results`` agrees with the per-game table."""

from __future__ import annotations

import random
from itertools import pairwise

import numba
import numpy as np
import pytest
from oddsbot.analyser.camel_up import face as cu
from oddsbot.analyser.camel_up import record as rec
from oddsbot.analyser.camel_up.position import Card
from oddsbot.errors import OddsbotError
from oddsbot.reports.camel_up import arena_results, raw_table, simulate_raw

VARIANTS = ("camel-up", "camel-up-2014")


def seats_game(players: int, seed: int, variant: str, policy: str):
    """(start, moves, final position) of a game through the seats, each seat choosing
    from its own view."""
    start = pos = cu.deal(players, seed, variant, {})
    moves = []
    while cu.game_result(pos) is None:
        view = cu.seat_view(pos, pos.to_move)
        action = cu.choose(view, policy, seed * 1000 + len(moves))
        assert action in cu.legal_actions(view)
        pos, outcome = cu.step(pos, action, seed * 2000 + len(moves))
        if pos.status == "running":
            cu.validate(pos)
        moves.append((action, outcome))
    return start, moves, pos


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("policy", cu.POLICIES)
def test_a_seats_game_is_its_records_game(variant, policy):
    start, moves, end = seats_game(3, 11, variant, policy)
    scores, wins = cu.game_result(end)
    _, steps = rec.load_record(cu.record_text(start, moves))
    assert steps.over and list(steps.money) == [int(s) for s in scores]
    richest = [p for p, m in enumerate(steps.money) if m == max(steps.money)]
    assert [p for p, w in enumerate(wins) if w > 0] == richest
    assert wins == tuple(1 / len(richest) if p in richest else 0.0 for p in range(3))


def test_deal_is_game_0_of_a_designer_run():
    for seed in (0, 5, 9):
        pos = cu.deal(4, seed, "camel-up", {})
        raw = simulate_raw("camel-up", 4, ("heuristic",), seed, 0, 1)
        leading_first = [c for stack in reversed(pos.track) for c in reversed(stack)
                         if c in pos.rules.colours]
        letters = "".join(pos.rules.letters[pos.rules.colours.index(c)]
                          for c in leading_first)
        assert raw_table(raw, "camel-up", 4, 0)["start_order"][0] == letters
        assert all(hand is not None for hand in pos.finish_hand)
    with pytest.raises(OddsbotError, match="camel-up has no rule parameters"):
        cu.deal(4, 0, "camel-up", {"x": "1"})


def test_step_draws_its_die_by_seed_and_refuses_illegal_actions():
    start = cu.deal(3, 2, "camel-up", {})
    assert cu.game_result(start) is None
    dice = {cu.step(start, "pyramid", seed)[1] for seed in range(60)}
    assert dice <= dict(cu.outcomes(start, "pyramid")).keys() and len(dice) > 10
    assert cu.step(start, "pyramid", 7) == cu.step(start, "pyramid", 7)
    after, outcome = cu.step(start, "ticket blue", 7)
    assert outcome is None and after == cu.apply(start, "ticket blue")
    with pytest.raises(OddsbotError, match=r"^action: 'jump' is not legal for player 0 "):
        cu.step(start, "jump", 0)


def bets_position():
    """A true position, player 0 to move, where players 1 and 2 have hidden bets."""
    pos = cu.deal(3, 4, "camel-up", {})
    for k, action in enumerate(["winner blue", "loser green", "winner yellow"]):
        pos, _ = cu.step(pos, action, k)
    return pos


def recoloured(pos, owner: int, old: str, new: str):
    """``pos`` with ``owner``'s finish card of colour ``old`` swapped for the one of
    colour ``new`` in their hand (what another seat cannot tell apart)."""
    def swap(deck):
        return tuple(Card(c.owner, new) if (c.owner, c.colour) == (owner, old) else c
                     for c in deck)

    hands = list(pos.finish_hand)
    hands[owner] = tuple(sorted({*hands[owner], old} - {new},
                                key=pos.rules.colours.index))
    return pos.with_(winner_deck=swap(pos.winner_deck), loser_deck=swap(pos.loser_deck),
                     finish_hand=tuple(hands))


def test_a_seat_knows_nothing_of_the_colours_it_cannot_see():
    pos = bets_position()
    other = recoloured(recoloured(pos, 1, "green", "purple"), 2, "yellow", "red")
    cu.validate(other)
    assert other != pos
    view = cu.seat_view(pos, 0)
    assert cu.seat_view(other, 0) == view
    assert [c.colour for c in view.winner_deck] == ["blue", None]
    assert view.finish_hand[1] is None and view.finish_hand[0] is not None
    assert cu.seat_view(pos, 1) != cu.seat_view(other, 1)  # player 1 sees their card
    for policy in cu.POLICIES:
        for seed in range(5):
            assert cu.choose(cu.seat_view(other, 0), policy, seed) == \
                cu.choose(view, policy, seed)
    assert cu.candidates(cu.seat_view(other, 0), 4, 3) == cu.candidates(view, 4, 3)
    acts = cu.candidates(view, 3, 1)
    a = cu.playouts(view, acts, n=64, seed=2, policy="heuristic")
    b = cu.playouts(cu.seat_view(other, 0), acts, n=64, seed=2, policy="heuristic")
    assert all((x == y).all() for x, y in zip(a, b))
    with pytest.raises(OddsbotError, match="hides the hand of player 0"):
        cu.choose(cu.seat_view(pos, 1), "heuristic", 0)


def test_playouts_common_numbers_seeds_and_threads():
    view = cu.seat_view(bets_position(), 0)
    acts = ["pyramid", "ticket blue", "pyramid"]
    scores, wins = cu.playouts(view, acts, n=40, seed=9, policy="heuristic")
    assert scores.shape == wins.shape == (3, 40, 3) and scores.dtype == np.float64
    assert (scores[0] == scores[2]).all() and (wins[0] == wins[2]).all()
    assert not (scores[0] == scores[1]).all()
    assert np.allclose(wins.sum(axis=2), 1)
    again = cu.playouts(view, acts, n=40, seed=9, policy="heuristic")
    assert all((x == y).all() for x, y in zip((scores, wins), again))
    first = cu.playouts(view, acts, n=24, seed=9, policy="heuristic")
    assert (first[0] == scores[:, :24]).all()  # rollout i depends on (seed, i) only
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = cu.playouts(view, acts, n=40, seed=9, policy="random")
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = cu.playouts(view, acts, n=40, seed=9, policy="random")
    finally:
        numba.set_num_threads(threads)
    assert all((x == y).all() for x, y in zip(one, two))
    with pytest.raises(OddsbotError, match="'jump' is not legal for player 0"):
        cu.playouts(view, ["jump"], n=4, seed=0, policy="heuristic")


def late_view():
    """Player 0's view late in a heuristic game, mid-leg (at most 4 dice inside), with
    other seats' bets hidden."""
    pos = cu.deal(3, 21, "camel-up", {})
    k = 0
    while not (pos.to_move == 0 and len(pos.pyramid) <= 4
               and max(pos.camel_space(c) for c in pos.rules.colours) >= 13
               and any(c.owner != 0 for c in pos.winner_deck + pos.loser_deck)):
        view = cu.seat_view(pos, pos.to_move)
        pos, _ = cu.step(pos, cu.choose(view, "heuristic", k), k)
        k += 1
        assert pos.status == "running", "the race ended before the wanted position"
    return cu.seat_view(pos, 0)


def python_game(view, action: str, rng: random.Random) -> tuple[tuple[float, ...], ...]:
    """One game played on in Python by ``step`` and ``choose`` (heuristic) from ``view``
    after ``action``: the hidden cards first take a uniformly random ordered choice of
    their owner's unseen colours (docs/games/camel-up.md §12, ``--hidden uniform``)."""
    colours = view.rules.colours
    decks = [list(view.winner_deck), list(view.loser_deck)]
    hands = list(view.finish_hand)
    for owner in range(view.players):
        spots = [(d, i) for d in (0, 1) for i, c in enumerate(decks[d])
                 if c.owner == owner and c.colour is None]
        if not spots:
            continue
        seen = {c.colour for d in decks for c in d if c.owner == owner and c.colour}
        free = rng.sample([c for c in colours if c not in seen], len(colours) - len(seen))
        for (d, i), colour in zip(spots, free):
            decks[d][i] = Card(owner, colour)
        hands[owner] = tuple(c for c in colours if c in free[len(spots):])
    pos = view.with_(winner_deck=tuple(decks[0]), loser_deck=tuple(decks[1]),
                     finish_hand=tuple(hands))
    pos, _ = cu.step(pos, action, rng.getrandbits(63))
    while (result := cu.game_result(pos)) is None:
        choice = cu.choose(cu.seat_view(pos, pos.to_move), "heuristic", 0)
        pos, _ = cu.step(pos, choice, rng.getrandbits(63))
    return result


def test_playouts_agree_with_games_played_in_python():
    view = late_view()
    scores, wins = cu.playouts(view, ["pyramid"], n=4000, seed=3, policy="heuristic")
    rng = random.Random(5)
    python = np.array([python_game(view, "pyramid", rng) for _ in range(300)])
    for k, kernel in enumerate((scores, wins)):  # final money, then win shares
        for seat in range(view.players):
            a, b = kernel[0, :, seat], python[:, k, seat]
            se = np.hypot(a.std() / np.sqrt(len(a)), b.std() / np.sqrt(len(b)))
            assert abs(a.mean() - b.mean()) <= 4 * se + 1e-9, (k, seat, a.mean(), b.mean())


@pytest.mark.parametrize("policy", ["heuristic", "greedy"])
def test_choose_is_the_whole_game_policy(policy):
    text = cu.play(4, 8, "camel-up", policy)
    _, steps = rec.load_record(text)
    for before, turn in steps:
        assert cu.choose(cu.seat_view(before, before.to_move), policy, 0) == turn.action


def test_candidates_rank_as_advise_where_it_is_exact():
    pos = late_view()
    legal = cu.legal_actions(pos)
    heuristic = cu.choose(pos, "heuristic", 0)
    for k in (1, 3, 8, len(legal)):
        cands = cu.candidates(pos, k, 0)
        assert len(cands) == len(set(cands)) and set(cands) <= set(legal)
        assert heuristic in cands and cu.choose(pos, "greedy", 0) in cands
        assert len(cands) <= k + 2
    every = cu.candidates(pos, len(legal), 0)
    assert sorted(every) == sorted(legal)
    assert len(pos.pyramid) <= 4  # the leg values are advise's exact ones here
    ev = {row[0]: row[1] for row in cu.advise(pos, samples=None, seed=0,
                                              target_se=0.002, progress=None).rows}
    leg = [ev[a] for a in every if a.startswith(("ticket", "pyramid"))]
    assert all(x >= y - 1e-12 for x, y in pairwise(leg)), leg


@pytest.mark.parametrize("variant", VARIANTS)
def test_arena_results_agree_with_the_per_game_table(variant):
    raw = simulate_raw(variant, 3, ("heuristic", "random", "greedy"), 4, 0, 12)
    scores, wins, decisions = arena_results(raw, variant, 3)
    table = raw_table(raw, variant, 3, 0)
    money = table[[f"money_{p}" for p in range(3)]].to_numpy()
    assert (scores == money).all() and scores.dtype == wins.dtype == np.float64
    for row, share in zip(money, wins):
        richest = row == row.max()
        assert np.allclose(share, richest / richest.sum())
    kinds = ("ticket", "pyramid", "spectator", "winner_bet", "loser_bet", "partner")
    for p in range(3):
        assert (decisions[:, p] == sum(table[f"{k}_{p}"] for k in kinds)).all()
    assert (decisions.sum(axis=1) == table["turns"]).all() and decisions.dtype == np.int64
