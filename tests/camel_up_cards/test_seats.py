"""Arena seats (``Capability.SEATS``, docs/games/camel-up-cards.md §16): whole seeded games
through ``deal``/``choose``/``step`` agree with the omniscient record of the same turns
replayed (§14.5); a seat's view and every decision made from it ignore what the seat
cannot see; playouts share their chance across actions, repeat, do not depend on the
threads and agree with games played out one turn at a time; ``choose`` is the kernel's
whole-game policy; ``candidates`` rank as ``advise``; the designer's ``arena_results``
agree with the per-game table and with a whole game's record."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from oddsbot.analyser.camel_up_cards import face as cc
from oddsbot.analyser.camel_up_cards import record as rec
from oddsbot.analyser.camel_up_cards import seats
from oddsbot.analyser.camel_up_cards.encode import deck_of
from oddsbot.analyser.camel_up_cards.play import _canonical
from oddsbot.analyser.camel_up_cards.seats import TruePosition
from oddsbot.analyser.camel_up_cards.simulate import complete, deal_of
from oddsbot.analyser.camel_up_cards.state import seat_field
from oddsbot.errors import OddsbotError
from oddsbot.kernels.camel_up_cards import game as K
from oddsbot.kernels.camel_up_cards.leg import orders
from oddsbot.kernels.rng import stream
from oddsbot.reports import camel_up_cards as designer

GAME = cc.NAME


def play_seats(players: int, seed: int, policy: str
               ) -> tuple[list[TruePosition], list[tuple[str, str | None]]]:
    """A whole game, every seat by ``policy`` from its own view: the true positions (the
    last one over) and the (turn, outcome) of each step."""
    pos = cc.deal(players, seed, GAME, {})
    seen, moves = [pos], []
    for k in range(2000):
        if cc.game_result(pos) is not None:
            return seen, moves
        view = cc.seat_view(pos, pos.to_move)
        action = cc.choose(view, policy, seed * 1000 + k)
        assert action in cc.legal_actions(view)
        pos, outcome = cc.step(pos, action, seed * 7919 + k)
        cc.validate(pos)
        seen.append(pos)
        moves.append((action, outcome))
    raise AssertionError("no end after 2000 turns")


def omniscient_record(seen: list[TruePosition], moves: list[tuple[str, str | None]]
                      ) -> str:
    """The record of §14.5 of the game: its start, every leg's deal (every seat's cards),
    one line per turn with the card revealed or played; no money and no result, which
    the replay works out itself."""
    lines = [f"start {cc.seat_view(seen[0], seen[0].to_move).to_notation()}",
             deal_of(seen[0].state).text()]
    for i, (action, outcome) in enumerate(moves):
        before, after = seen[i], seen[i + 1]
        lines.append(f"{i + 1} p{before.to_move} {action}"
                     + (f" -> {outcome}" if outcome else ""))
        if not after.over and after.state[K.LEG] != before.state[K.LEG]:
            lines.append(deal_of(after.state).text())
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("players,seed,policy", [(2, 3, "heuristic"), (4, 1, "random"),
                                                 (5, 2, "heuristic"), (3, 4, "random")])
def test_whole_game_agrees_with_its_record(players, seed, policy):
    seen, moves = play_seats(players, seed, policy)
    _, steps = rec.load_record(omniscient_record(seen, moves))
    assert steps.over and len(steps) == len(moves)
    for i, (before, _) in enumerate(steps):  # the replay's mover's view is the seat's view
        assert before == cc.seat_view(seen[i], seen[i].to_move)
    scores, wins = cc.game_result(seen[-1])
    assert scores == tuple(float(m) for m in steps.money)
    best = max(steps.money)
    assert wins == tuple((m == best) / steps.money.count(best) for m in steps.money)
    assert any(outcome for _, outcome in moves)


def test_deal_is_the_designer_start_and_refuses_bad_input():
    assert cc.seat_view(cc.deal(4, 7, GAME, {}), 0) == cc.new_position(4, 7)
    assert cc.deal(3, 5, GAME, {}) == cc.deal(3, 5, GAME, {})
    for args, words in [((4, 1, "camel-up", {}), "variant"), ((4, 1, GAME, {"x": "1"}),
                                                              "no rule parameters"),
                        ((7, 1, GAME, {}), "2-6 players")]:
        with pytest.raises(OddsbotError, match=words) as exc:
            cc.deal(*args)
        assert "\n" not in str(exc.value)


def test_illegal_step_is_refused_in_one_line():
    pos = cc.deal(4, 1, GAME, {})
    with pytest.raises(OddsbotError, match=r"'fox 99' is not legal.*legal: ") as exc:
        cc.step(pos, "fox 99", 1)
    assert "\n" not in str(exc.value)
    after, card = cc.step(pos, "reveal", 1)
    assert card in rec.CARD_TYPES and after.to_move == (pos.to_move + 1) % 4


def test_step_reads_every_listed_turn_as_play_along_does():
    """``step``'s short cut (a label exactly as listed, legal by the kernel) gives the
    codes of play-along's reading for every legal turn, and nothing else."""
    seen, _ = play_seats(4, 8, "random")
    for pos in seen[:-1:5]:
        view = cc.seat_view(pos, pos.to_move)
        legal = cc.legal_actions(view)
        for label in legal:
            assert seats._listed_codes(pos.state, label) == _canonical(view, label)[1]
        for label in ("reveal + " + legal[-1], "fox 99", "hand white", "winner red + reveal"):
            if label not in legal:
                assert seats._listed_codes(pos.state, label) is None


# --------------------------------------------------------------------------- information


def _mid_game(players: int = 4) -> TruePosition:
    """A true position of a heuristic game in its second leg, two cards revealed, where
    at least two opponents of the seat to move still hold (different) hand cards."""
    seen, _ = play_seats(players, 11, "heuristic")
    for pos in seen[:-1]:
        st, me = pos.state, pos.to_move
        holders = {int(st[seat_field(p, K.HAND)]) for p in range(players)
                   if p != me and st[seat_field(p, K.HAND)] >= 0}
        if st[K.LEG] >= 2 and st[K.DRAWN] >= 2 and len(holders) >= 2 \
                and st[K.DECK_SIZE] - st[K.DRAWN] >= 3:
            return pos
    raise AssertionError("no such position")


def _hidden_variants(pos: TruePosition) -> list[TruePosition]:
    """True positions that differ from ``pos`` only in what its seat to move cannot see:
    the rest of the race deck reordered; two opponents' hand cards swapped; two
    opponents' discards swapped."""
    st, me, n = pos.state, pos.to_move, pos.players
    out = []
    reordered = st.copy()
    top, end = K.DECK + int(st[K.DRAWN]), K.DECK + int(st[K.DECK_SIZE])
    reordered[top:end] = st[top:end][::-1]
    out.append(reordered)
    holders = [p for p in range(n) if p != me and st[seat_field(p, K.HAND)] >= 0]
    a, b = next((a, b) for a in holders for b in holders
                if st[seat_field(a, K.HAND)] != st[seat_field(b, K.HAND)])
    hands = st.copy()
    last = K.CARDS + int(st[K.DEALT]) - 1
    for field in (K.HAND, last):
        hands[seat_field(a, field)], hands[seat_field(b, field)] = \
            st[seat_field(b, field)], st[seat_field(a, field)]
    out.append(hands)
    others = [p for p in range(n) if p != me]
    a, b = next((a, b) for a in others for b in others
                if st[seat_field(a, K.CARDS)] != st[seat_field(b, K.CARDS)])
    discards = st.copy()
    discards[seat_field(a, K.CARDS)], discards[seat_field(b, K.CARDS)] = \
        st[seat_field(b, K.CARDS)], st[seat_field(a, K.CARDS)]
    out.append(discards)
    variants = [TruePosition(v) for v in out]
    assert all(v != pos for v in variants)
    return [cc.validate(v) for v in variants]


def test_decisions_ignore_what_the_seat_cannot_see():
    pos = _mid_game()
    me = pos.to_move
    view = cc.seat_view(pos, me)
    actions = cc.candidates(view, 4, 3)
    scores, wins = cc.playouts(view, actions, n=32, seed=9, policy="heuristic")
    for other in _hidden_variants(pos):
        seen = cc.seat_view(other, me)
        assert seen == view
        for policy in cc.POLICIES:
            for seed in range(5):
                assert cc.choose(seen, policy, seed) == cc.choose(view, policy, seed)
        assert cc.candidates(seen, 4, 3) == actions
        again = cc.playouts(seen, actions, n=32, seed=9, policy="heuristic")
        assert (again[0] == scores).all() and (again[1] == wins).all()


def test_the_seat_sees_its_own_cards():
    """The control of the test above: a change to the seat's own hand card shows."""
    pos = _mid_game()
    me = pos.to_move
    st = pos.state.copy()
    hand = seat_field(me, K.HAND)
    st[hand] = (st[hand] + 2) % 10 if st[hand] >= 0 else 0
    assert cc.seat_view(TruePosition(st), me) != cc.seat_view(pos, me)


# --------------------------------------------------------------------------- playouts


def test_playouts_common_random_numbers_seeds_and_threads():
    view = cc.seat_view(_mid_game(), _mid_game().to_move)
    legal = cc.legal_actions(view)
    actions = [legal[0], legal[1], legal[0]]
    scores, wins = cc.playouts(view, actions, n=48, seed=4, policy="random")
    assert scores.shape == wins.shape == (3, 48, 4) and scores.dtype == np.float64
    assert (scores[0] == scores[2]).all() and (wins[0] == wins[2]).all()
    assert not (scores[0] == scores[1]).all()
    assert np.allclose(wins.sum(axis=2), 1)
    again = cc.playouts(view, actions, n=48, seed=4, policy="random")
    assert (again[0] == scores).all() and (again[1] == wins).all()
    other = cc.playouts(view, actions, n=48, seed=5, policy="random")
    assert not (other[0] == scores).all()
    before = numba.get_num_threads()
    try:
        runs = []
        for threads in (1, min(2, numba.config.NUMBA_NUM_THREADS)):
            numba.set_num_threads(threads)
            runs.append(cc.playouts(view, actions, n=48, seed=4, policy="random"))
    finally:
        numba.set_num_threads(before)
    assert all((a == b).all() for a, b in zip(runs[0], runs[1]))
    assert (runs[0][0] == scores).all()


def _late(players: int = 3) -> TruePosition:
    """A true position of a heuristic game whose race ends within a few turns."""
    seen, _ = play_seats(players, 6, "heuristic")
    return seen[-4]


def test_playouts_agree_with_games_played_turn_by_turn():
    """The mean win share and money of the seat to move after one action: the kernel's
    playouts against games completed from the view by the model of §9
    (``simulate.complete``, other streams) and played on by ``step`` and ``choose``."""
    pos = _late()
    me = pos.to_move
    view = cc.seat_view(pos, me)
    action = cc.choose(view, "heuristic", 0)
    n = 400
    scores, wins = cc.playouts(view, [action], n=n, seed=2, policy="heuristic")
    by_python = []
    for i in range(n):
        game = TruePosition(complete(view, stream(np.uint64(77), i)))
        game, _ = cc.step(game, action, 10_000 + i)
        k = 0
        while (result := cc.game_result(game)) is None:
            seat_view = cc.seat_view(game, game.to_move)
            game, _ = cc.step(game, cc.choose(seat_view, "heuristic", k), 20_000 * i + k)
            k += 1
        by_python.append((result[0][me], result[1][me]))
    python = np.array(by_python)
    for ours, theirs in ((wins[0, :, me], python[:, 1]), (scores[0, :, me], python[:, 0])):
        se = np.sqrt(ours.var() / n + theirs.var() / n)
        assert abs(ours.mean() - theirs.mean()) <= 4 * se + 1e-9


# --------------------------------------------------------------------------- the policy


@pytest.mark.parametrize("players,seed", [(4, 2), (2, 5), (6, 1)])
def test_choose_is_the_kernels_whole_game_policy(players, seed):
    _, steps = rec.load_record(cc.play(players, seed, GAME, "heuristic"))
    for before, turn in steps:
        assert cc.choose(before, "heuristic", 3) == turn.action
        assert cc.choose(before, "random", len(turn.action)) in cc.legal_actions(before)


def test_candidates_rank_as_advise():
    """Where both are exact (the rest of the leg, a deck of few orders left), the
    candidates keep ``advise``'s order."""
    seen, _ = play_seats(3, 6, "heuristic")
    pos = next(p for p in seen[:-1] if p.state[K.LEG] >= 2
               and p.state[K.DECK_SIZE] - p.state[K.DRAWN] >= 2
               and orders(deck_of(cc.seat_view(p, p.to_move)).m)
               <= seats.CANDIDATE_EXACT_ORDERS)
    view = cc.seat_view(pos, pos.to_move)
    legal = cc.legal_actions(view)
    table = cc.advise(view, seed=1)
    every = cc.candidates(view, len(legal), 1)
    assert sorted(every) == sorted(legal)
    exact = [a for a, m in zip(table["action"], table["method"]) if m == "exact"]
    assert len(exact) > 3
    assert [a for a in every if a in exact] == exact
    few = cc.candidates(view, 3, 1)
    assert few[:3] == every[:3] and len(few) == len(set(few)) <= 4
    assert cc.choose(view, "heuristic", 1) in few


# --------------------------------------------------------------------------- the designer


def test_arena_results_agree_with_the_table_and_a_record():
    players, seed = 4, 12
    raw = designer.simulate_raw(GAME, players, ("heuristic", "random"), seed, 0, 40)
    scores, wins, decisions = designer.arena_results(raw, GAME, players)
    table = designer.raw_table(raw, GAME, players, 0)
    money = table[[f"money_{p}" for p in range(players)]].to_numpy()
    assert (scores == money).all() and scores.dtype == np.float64
    assert np.allclose(wins.sum(axis=1), 1)
    assert ((wins > 0) == (money == money.max(axis=1, keepdims=True))).all()
    assert decisions.dtype == np.int64 and (decisions.sum(axis=1) == table["turns"]).all()
    # game 0 of the run is the game ``play`` records (the same streams): its replay
    raw = designer.simulate_raw(GAME, players, ("heuristic",), seed, 0, 1)
    scores, wins, decisions = designer.arena_results(raw, GAME, players)
    _, steps = rec.load_record(cc.play(players, seed, GAME, "heuristic"))
    assert steps[0][0] == cc.seat_view(cc.deal(players, seed, GAME, {}), steps[0][1].player)
    assert tuple(scores[0]) == tuple(float(m) for m in steps.money)
    assert [sum(t.player == p for _, t in steps) for p in range(players)] == \
        list(decisions[0])
