"""Kingdom Run's arena seats (docs/games/kingdom-run.md §18): whole games through
``deal``/``choose``/``step`` agree with the record replay; ``choose`` plays as the kernel's
whole simulated games play; candidates rank as ``advise``; playouts share their chance,
do not depend on threads and agree with games played through ``step``; ``arena_results``
agrees with the per-game table and with ``play``'s records."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from oddsbot.analyser.kingdom_run import face
from oddsbot.analyser.kingdom_run.advise import read_roll
from oddsbot.analyser.kingdom_run import seats
from oddsbot.analyser.kingdom_run.encode import rules_vector, state_vector
from oddsbot.analyser.kingdom_run.record import load_record
from oddsbot.analyser.kingdom_run.simulate import new_position, simulate
from oddsbot.analyser.kingdom_run.turns import phase
from oddsbot.errors import OddsbotError
from oddsbot.kernels.kingdom_run import turns as T
from oddsbot.kernels.kingdom_run.layout import position_keys
from oddsbot.reports import kingdom_run as designer


def seats_game(players: int, seed: int, policy: str, variant: str = "kingdom-run"):
    """A whole game by ``policy`` in every seat: (start, [(action, outcome)], end)."""
    start = pos = face.deal(players, seed, variant, {})
    moves = []
    while face.game_result(pos) is None:
        action = face.choose(face.seat_view(pos, pos.to_move), policy, 100 * seed + len(moves))
        pos, outcome = face.step(pos, action, 7 * seed + len(moves))
        face.validate(pos)
        moves.append((action, outcome))
        assert len(moves) < 3000
    return start, moves, pos


@pytest.mark.parametrize("players, seed, policy, variant", [
    (2, 1, "heuristic", "kingdom-run"), (3, 2, "greedy", "kingdom-run-exact-zones"),
    (4, 3, "random", "kingdom-run-linear-podium")])
def test_a_seated_game_is_the_record_replay_s(players, seed, policy, variant):
    start, moves, end = seats_game(players, seed, policy, variant)
    assert start == new_position(players, seed, variant)
    kinds = [phase(p) for p in _positions(start, moves)]
    assert set(kinds) == {"roll", "keep", "act"} and kinds[0] == "keep"
    _, steps = load_record(face.record_text(start, moves))
    assert steps.over
    scores, shares = face.game_result(end)
    assert scores == tuple(float(s) for s in steps.scores)
    winners = steps.winners
    assert shares == tuple(1 / len(winners) if p in winners else 0.0 for p in range(players))
    assert seats_game(players, seed, policy, variant)[1] == moves  # seeded


def _positions(start, moves):
    out, pos = [start], start
    for action, outcome in moves[:-1]:
        pos = face.apply(pos, action, outcome)
        out.append(pos)
    return out


def test_nothing_is_hidden():
    pos = face.deal(4, 5, "kingdom-run", {})
    assert all(face.seat_view(pos, s) is pos for s in range(4))


def test_step_draws_the_dice_and_refuses_an_illegal_action_in_one_line():
    pos = face.deal(2, 5, "kingdom-run", {})
    kept = face.legal_actions(pos)[0]  # every die kept: no chance
    acting, outcome = face.step(pos, kept, 1)
    assert outcome is None and acting.rerolled
    rolled, outcome = face.step(pos, "reroll all", 1)
    assert rolled.roll == read_roll(outcome, 4) and rolled.rerolled
    assert face.step(pos, "reroll all", 1) == (rolled, outcome)
    after = face.step(acting, face.choose(acting, "heuristic", 0), 0)[0]
    assert after.roll is None and face.legal_actions(after) == ["roll"]
    outs = {face.step(after, "roll", s)[1] for s in range(40)}
    assert len(outs) > 20 and all(len(o) == 4 for o in outs)
    for where, action in ((pos, "keep copy,copy"), (after, "keep scatter"),
                          (acting, "steal p3")):
        with pytest.raises(OddsbotError) as caught:
            face.step(where, action, 0)
        assert "\n" not in str(caught.value) and repr(action) in str(caught.value)


@pytest.mark.parametrize("policy", ["heuristic", "greedy"])
def test_choose_plays_as_the_kernel_s_whole_games(policy):
    game = simulate(new_position(3, 4, "kingdom-run"), seed=4, policy=policy)
    for line in game.turns:
        rolled = line.before if line.before.roll else \
            line.before.with_(roll=read_roll(line.roll, 4), rerolled=False, used=())
        assert face.choose(rolled, policy, 99) == line.keep
        acting = rolled.with_(roll=read_roll(line.final, 4), rerolled=True)
        label = face.choose(acting, policy, 99)
        assert same_position(face.apply(acting, label), line.after)
        if T.search(state_vector(acting), rules_vector(acting.rules), 1, 5_000)[5]:
            assert label in face.legal_actions(acting)  # advise's name of the turn


def same_position(a, b) -> bool:
    """The same position, runners of one clan interchangeable (§13.2, KR-38)."""
    return a.to_move == b.to_move and \
        position_keys(state_vector(a)) == position_keys(state_vector(b))


def test_random_choices_follow_the_seed():
    pos = face.deal(4, 8, "kingdom-run", {})
    picks = {face.choose(pos, "random", s) for s in range(30)}
    assert len(picks) > 3 and picks <= set(face.legal_actions(pos))
    assert face.choose(pos, "random", 3) == face.choose(pos, "random", 3)


def _mid_act(seed: int = 2):
    """A position after a re-roll from the middle of a simulated 2-player game."""
    game = simulate(new_position(2, seed, "kingdom-run"), seed=seed, policy="heuristic")
    line = game.turns[len(game.turns) // 2]
    return line.before.with_(roll=read_roll(line.final, 4), rerolled=True, used=())


def _searched_act():
    """A mid-game position after a re-roll whose turns the candidates search all."""
    game = simulate(new_position(2, 2, "kingdom-run"), seed=2, policy="heuristic")
    for line in game.turns[len(game.turns) // 2:]:
        acting = line.before.with_(roll=read_roll(line.final, 4), rerolled=True, used=())
        S, R = state_vector(acting), rules_vector(acting.rules)
        searched = T.search(S, R, 5, seats.SEQUENCE_BUDGET)
        if searched[5] and searched[3] > 6:
            return acting
    raise AssertionError("no position searched within the budget")


def test_candidates_rank_as_advise():
    acting = _searched_act()
    table = face.advise(acting, seed=0).records()
    assert len(table) > 6
    cands = face.candidates(acting, 5, 1)
    assert cands[:5] == [r["action"] for r in table[:5]]
    assert face.choose(acting, "heuristic", 1) in cands
    assert face.choose(acting, "greedy", 1) in cands
    assert len(cands) == len(set(cands)) and set(cands) <= {r["action"] for r in table}
    keep = face.deal(2, 3, "kingdom-run", {})
    every = face.candidates(keep, 100, 1)
    assert sorted(every) == sorted(face.legal_actions(keep))
    assert face.candidates(keep, 2, 1)[:2] == every[:2]
    assert face.candidates(face.step(face.step(keep, every[0], 1)[0], face.choose(
        face.step(keep, every[0], 1)[0], "heuristic", 1), 1)[0], 3, 1) == ["roll"]


def test_playouts_share_their_chance_and_ignore_threads():
    acting = _mid_act()
    cands = face.candidates(acting, 3, 1)
    actions = [cands[0], cands[1], cands[0]]
    scores, wins = face.playouts(acting, actions, n=64, seed=9, policy="heuristic")
    assert scores.shape == wins.shape == (3, 64, 2)
    assert (scores[0] == scores[2]).all() and (wins[0] == wins[2]).all()
    assert not (scores[0] == scores[1]).all()
    assert np.allclose(wins.sum(axis=2), 1)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        alone = face.playouts(acting, actions, n=64, seed=9, policy="heuristic")
    finally:
        numba.set_num_threads(threads)
    assert (alone[0] == scores).all() and (alone[1] == wins).all()
    other = face.playouts(acting, actions, n=64, seed=10, policy="heuristic")
    assert not (other[0] == scores).all()
    for view in (face.deal(2, 3, "kingdom-run", {}),
                 face.step(acting, cands[0], 0)[0]):  # a keep-set; 'roll'
        action = face.choose(view, "greedy", 0)
        got = face.playouts(view, [action], n=8, seed=1, policy="random")
        assert got[0].shape == (1, 8, 2)


def test_playouts_agree_with_games_played_through_step():
    game = simulate(new_position(2, 6, "kingdom-run"), seed=6, policy="heuristic")
    line = game.turns[-4]
    view = line.before.with_(roll=read_roll(line.roll, 4), rerolled=False, used=()) \
        if line.before.roll is None else line.before
    action = face.choose(view, "heuristic", 0)
    n = 400
    _, wins = face.playouts(view, [action], n=n, seed=3, policy="heuristic")
    me = view.to_move
    by_step = []
    for i in range(n):
        pos, k = face.step(view, action, 10_000 + i)[0], 0
        while (result := face.game_result(pos)) is None:
            pos = face.step(pos, face.choose(pos, "heuristic", k), 1_000 * i + k)[0]
            k += 1
        by_step.append(result[1][me])
    ours, theirs = wins[0, :, me], np.array(by_step)
    se = np.hypot(ours.std(ddof=1), theirs.std(ddof=1)) / np.sqrt(n)
    assert 0 < ours.mean() < 1 and abs(ours.mean() - theirs.mean()) <= 4 * se


def test_playouts_refuse_an_illegal_action():
    acting = _mid_act()
    with pytest.raises(OddsbotError) as caught:
        face.playouts(acting, ["keep scatter"], n=4, seed=1, policy="heuristic")
    assert "'keep scatter'" in str(caught.value)
    with pytest.raises(OddsbotError, match="no policy"):
        face.playouts(acting, face.candidates(acting, 1, 1), n=4, seed=1, policy="best")


@pytest.mark.parametrize("players", [2, 4])
def test_arena_results_agree_with_the_table_and_the_records(players):
    raw = designer.simulate_raw("kingdom-run", players, ("heuristic", "random"), 11, 0, 30)
    scores, wins, decisions = designer.arena_results(raw, "kingdom-run", players)
    table = designer.raw_table(raw, "kingdom-run", players, 0)
    for p in range(players):
        assert (scores[:, p] == table[f"score_{p}"]).all()
        assert ((wins[:, p] > 0) == (table[f"won_{p}"] == 1)).all()
    assert np.allclose(wins.sum(axis=1), 1)
    assert (decisions.sum(axis=1) == 2 * table["turns"]).all() and (decisions > 0).all()
    for seed in (21, 22, 23):
        raw = designer.simulate_raw("kingdom-run", players, ("heuristic",), seed, 0, 1)
        scores, wins, decisions = designer.arena_results(raw, "kingdom-run", players)
        text = face.play(players, seed, "kingdom-run", "heuristic").splitlines()
        turns = [ln.split(" | ")[0] for ln in text[1:-1]]
        assert list(decisions[0]) == [2 * turns.count(f"p{p + 1}") for p in range(players)]
        result = dict(w.split(":") for w in text[-1].split()[1:1 + players])
        assert list(scores[0]) == [float(result[f"p{p + 1}"]) for p in range(players)]
        winners = text[-1].split("winner ")[1].split(",")
        assert list(wins[0]) == [1 / len(winners) if f"p{p + 1}" in winners else 0.0
                                 for p in range(players)]
