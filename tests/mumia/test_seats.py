"""Mumia's arena seats (docs/games/mumia.md §18): whole games through deal/choose/step
agree with the record replay; a seat's view, choice, candidates and playouts do not
depend on what it cannot see; playouts share their chance across actions, do not depend
on the threads and agree with games played step by step; choose takes the kernel's own
whole-game steps; positions hold the roll drawn and the turn under way."""

from __future__ import annotations

import json

import numba
import numpy as np
import pytest

from checks import assert_bad_input, ok
from oddsbot.analyser.mumia import face, seats
from oddsbot.analyser.mumia.advise import advise
from oddsbot.analyser.mumia.encode import decode, encode
from oddsbot.analyser.mumia.labels import roll_text
from oddsbot.analyser.mumia.notation import seat_letter
from oddsbot.analyser.mumia.record import load_record
from oddsbot.analyser.mumia.simulate import rules_of
from oddsbot.analyser.mumia.rules import rules_vector
from oddsbot.analyser.mumia.position import VARIANT_SETS
from oddsbot.errors import OddsbotError
from oddsbot.kernels.mumia import game as G
from oddsbot.kernels.mumia import choices as C
from oddsbot.reports.mumia import arena_results, raw_table, simulate_raw


def seats_game(players: int, seed: int, variant: str, policy: str):
    """A whole game, every seat by ``policy`` from its view: (start, [(true position
    before, action)], end)."""
    pos = start = face.deal(players, seed, variant, {})
    taken = []
    for k in range(5_000):
        if face.game_result(pos) is not None:
            return start, taken, pos
        view = face.seat_view(pos, pos.to_move)
        action = face.choose(view, policy, 31 * seed + k)
        assert action in face.legal_actions(view)
        taken.append((pos, action))
        pos, outcome = face.step(pos, action, 17 * seed + k)
        if face.game_result(pos) is None or not pos.rules.sudden_end:
            face.validate(pos)  # (a sudden end's taken tiles take their pawns along)
        assert face.parse(pos.to_notation()) == pos == face.parse(json.dumps(pos.to_json()))
        assert outcome is None or outcome == pos.roll
    raise AssertionError("no end")


@pytest.mark.parametrize("variant,players,policy", [
    ("mumia", 4, "heuristic"), ("mumia-all", 3, "random"), ("mumia-all", 2, "heuristic"),
    ("mumia-e4", 5, "greedy"), ("mumia-sudden", 3, "random")])
def test_a_seats_game_is_the_record_replays(variant, players, policy):
    """Every step legal and valid; the game ends; the record of its moves replays to the
    same scores and winners as ``game_result`` gives."""
    start, taken, end = seats_game(players, 3, variant, policy)
    lines = [f"start {start.with_(roll=None).to_notation()}"]
    lines += [f"{seat_letter(pos.to_move)} {action}" for pos, action in taken]
    _, steps = load_record("\n".join(lines) + "\n")
    assert steps.over
    scores, shares = face.game_result(end)
    assert scores == tuple(float(s) for s in steps.scores)
    assert shares == tuple(1 / len(steps.winners) if p in steps.winners else 0.0
                           for p in range(players))
    if variant == "mumia-all" and policy == "random":  # the turn under way was held
        assert any(pos.turn is not None for pos, _ in taken)


def test_a_base_game_record_is_play_alongs():
    """Without E4 every step is a whole turn: ``record_text`` writes the game."""
    start, taken, end = seats_game(3, 5, "mumia", "greedy")
    text = face.record_text(start.with_(roll=None), [(a, None) for _, a in taken])
    _, steps = load_record(text)
    winners = [p for p, w in enumerate(face.game_result(end)[1]) if w]
    assert tuple(winners) == steps.winners


def mid_e4(seed: int = 4):
    """A true position of a 3-player game with every expansion, some tokens held."""
    _, taken, _ = seats_game(3, seed, "mumia-all", "heuristic")
    for pos, _ in taken[len(taken) // 3:]:
        if sum(len(h) for h in pos.hands) >= 3 and len(pos.pile) >= 3 and pos.turn is None:
            return pos
    raise AssertionError("no position with tokens held")


def hidden_twin(pos):
    """``pos`` with what its mover cannot see changed: the pile reversed, the other seats'
    tokens rotated through the pile."""
    others = [p for p in range(pos.players) if p != pos.to_move]
    bag = [k for p in others for k in pos.hands[p]] + list(pos.pile)
    bag = bag[::-1]
    hands = list(pos.hands)
    for p in others:
        hands[p], bag = tuple(bag[:len(pos.hands[p])]), bag[len(pos.hands[p]):]
    return pos.with_(hands=tuple(hands), pile=tuple(bag))


def test_what_a_seat_cannot_see_changes_nothing():
    pos = mid_e4()
    twin = hidden_twin(pos)
    assert twin != pos
    face.validate(twin)
    seat = pos.to_move
    view = face.seat_view(pos, seat)
    assert face.seat_view(twin, seat) == view
    assert view.hands[seat] == pos.hands[seat] and "?" in view.pile
    for policy in face.POLICIES:
        for seed in range(5):
            assert face.choose(view, policy, seed) == face.choose(
                face.seat_view(twin, seat), policy, seed)
    assert face.candidates(view, 3, 2) == face.candidates(face.seat_view(twin, seat), 3, 2)
    legal = face.legal_actions(view)
    a = face.playouts(view, legal, n=20, seed=3, policy="heuristic")
    b = face.playouts(face.seat_view(twin, seat), legal, n=20, seed=3, policy="heuristic")
    assert all((x == y).all() for x, y in zip(a, b))


def test_choose_ignores_the_sample_of_the_unseen_tokens():
    """The policies read only the mover's own tokens: any sample gives the same step."""
    view = face.seat_view(mid_e4(7), mid_e4(7).to_move)
    for policy in ("heuristic", "greedy"):
        assert len({face.choose(view, policy, seed) for seed in range(12)}) == 1


def test_a_step_refuses_hidden_or_illegal_input():
    pos = mid_e4()
    view = face.seat_view(pos, pos.to_move)
    with pytest.raises(OddsbotError, match="hides action tokens"):
        face.step(view, face.legal_actions(view)[0], 1)
    with pytest.raises(OddsbotError, match="not of the roll drawn"):
        face.step(pos, "9,P pawn 1", 1)
    with pytest.raises(OddsbotError, match=r"'flying carpet' is not a legal choice"):
        face.step(pos, f"{pos.roll} flying carpet", 1)
    with pytest.raises(OddsbotError, match="no roll drawn"):
        face.choose(view.with_(roll=None), "heuristic", 1)


def late_base():
    """A true base-game position a few turns from the end, 2 players."""
    _, taken, _ = seats_game(2, 11, "mumia", "heuristic")
    return taken[-12][0]


def test_playouts_share_their_chance_and_do_not_depend_on_threads():
    pos = mid_e4()
    view = face.seat_view(pos, pos.to_move)
    legal = face.legal_actions(view)
    twice = [legal[0], legal[-1], legal[0]]
    scores, wins = face.playouts(view, twice, n=40, seed=9, policy="greedy")
    assert scores.shape == wins.shape == (3, 40, 3)
    assert (scores[0] == scores[2]).all() and (wins[0] == wins[2]).all()
    assert np.allclose(wins.sum(axis=2), 1)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = face.playouts(view, twice, n=100, seed=4, policy="random")
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = face.playouts(view, twice, n=100, seed=4, policy="random")
    finally:
        numba.set_num_threads(threads)
    assert all((x == y).all() for x, y in zip(one, two))
    again = face.playouts(view, twice, n=100, seed=4, policy="random")
    assert all((x == y).all() for x, y in zip(one, again))


def test_playouts_agree_with_games_played_step_by_step():
    """The mean win share and score of one action from a late position, by the kernel's
    playouts and by deal/choose/step games in Python: within 4 standard errors."""
    pos = late_base()
    action = face.choose(pos, "heuristic", 0)
    scores, wins = face.playouts(pos, [action], n=2_000, seed=1, policy="heuristic")
    me = pos.to_move
    python = []
    for g in range(300):
        p, _ = face.step(pos, action, 10_000 + g)
        k = 0
        while (res := face.game_result(p)) is None:
            p, _ = face.step(p, face.choose(p, "heuristic", k), 7 * g + 1_000_003 * k)
            k += 1
        python.append((res[0][me], res[1][me]))
    py = np.array(python)
    for kernel, other in ((scores[0, :, me], py[:, 0]), (wins[0, :, me], py[:, 1])):
        se = np.hypot(kernel.std() / np.sqrt(len(kernel)), other.std() / np.sqrt(len(other)))
        assert abs(kernel.mean() - other.mean()) <= 4 * se + 1e-9


@pytest.mark.parametrize("variant,players,policy", [
    ("mumia", 3, "heuristic"), ("mumia-all", 4, "greedy"), ("mumia-all", 2, "heuristic"),
    ("mumia-e4", 3, "heuristic")])
def test_choose_takes_the_kernel_whole_games_steps(variant, players, policy):
    """On the positions of a game the kernel played (game 0 of a designer run), with the
    roll it rolled, ``choose`` takes the step it took; ``deal`` is that game's start and
    first roll."""
    seed = 21
    R = rules_vector(rules_of(variant, {}), players, frozenset(VARIANT_SETS[variant]))
    policies = np.full(6, C.POLICY_NAMES.index(policy), dtype=np.int64)
    start, _, log, _ = G.one_game(R, policies, np.uint64(seed), 0, 20_000)
    pos = face.deal(players, seed, variant, {})
    assert decode(start, R, pos.rules, pos.expansions, taken_by=pos.mummy_taken) == \
        pos.with_(roll=None)
    for k, entry in enumerate(log):
        roll = roll_text(int(entry[1]), int(entry[2]))
        assert pos.to_move == entry[0]
        if k == 0:
            assert pos.roll == roll
        pos = pos.with_(roll=roll)
        action = face.choose(face.seat_view(pos, pos.to_move), policy, k)
        pos, _ = face.step(pos, action, k)
    assert face.game_result(pos) is not None


def small_exact():
    """A late true base-game position with at least 2 steps whose rest advise solves
    exactly in few positions (as candidates ranks it), and its EV table."""
    _, taken, _ = seats_game(3, 11, "mumia", "heuristic")
    for pos, _ in reversed(taken):
        if len(face.legal_actions(pos)) >= 2 and \
                seats._off_finish(encode(pos)) <= seats.RANK_EXACT_PAWNS:
            table = advise(pos)
            if table.provenance["method"] == "exact" and \
                    table.provenance["states"] <= seats.RANK_EXACT_BUDGET:
                return pos, table
    raise AssertionError("no small exact position")


def test_candidates_rank_as_advise_where_it_is_exact():
    view, table = small_exact()
    legal = face.legal_actions(view)
    cands = face.candidates(view, len(legal), 1)
    assert sorted(cands) == sorted(legal)
    assert [f"{view.roll} {a}" for a in table["action"]] == cands
    assert cands != legal or table["ev"][0] == table["ev"][-1]  # not canonical by chance
    two = face.candidates(view, 1, 1)
    assert two[0] == cands[0] and face.choose(view, "heuristic", 1) in two
    assert face.choose(view, "greedy", 1) in two and len(set(two)) == len(two)


def test_candidates_are_legal_and_hold_the_policies_choices():
    pos = mid_e4()
    view = face.seat_view(pos, pos.to_move)
    for k in (1, 2, 4):
        cands = face.candidates(view, k, 5)
        assert len(cands) == len(set(cands)) <= k + 2
        assert set(cands) <= set(face.legal_actions(view))
        assert face.choose(view, "heuristic", 5) in cands


def test_arena_results_agree_with_the_per_game_table_and_the_move_logs():
    players, seed = 3, 8
    for variant, policies in (("mumia-all", ("random", "heuristic", "greedy")),
                              ("mumia", ("heuristic",))):
        raw = simulate_raw(variant, players, policies, seed, 0, 6)
        scores, wins, decisions = arena_results(raw, variant, players)
        table = raw_table(raw, variant, players, 0)
        for p in range(players):
            assert (scores[:, p] == table[f"score_{p}"]).all()
            won = table[[f"won_{q}" for q in range(players)]].to_numpy()
            assert np.allclose(wins[:, p], won[:, p] / won.sum(axis=1))
        R = rules_vector(rules_of(variant, {}), players, frozenset(VARIANT_SETS[variant]))
        codes = np.zeros(6, dtype=np.int64)
        codes[:players] = [C.POLICY_NAMES.index(policies[p % len(policies)])
                           for p in range(players)]
        for g in range(6):
            _, _, log, _ = G.one_game(R, codes, np.uint64(seed), g, 20_000)
            assert list(decisions[g]) == [int((log[:, 0] == p).sum()) for p in range(players)]


# ------------------------------------------------------------- the roll in a position

LINE = ("mumia 2p A | S:AAABBBM -1 -2 -3 -4 -5 -6 -7 -8 c:g c:g c:g c:g c:g c:g +8:g +7:g "
        "+6 +5 +4 +3 +2 +1 -1 -2 -3 -4 -5 -6 -7 -8 -9 -10 F | A:- B:- | mummy 4,3,2,1 "
        "taken -")


def test_a_position_with_a_roll_moves_and_advises_that_roll_only(oddsbot_cli):
    rolled = LINE + " | roll 3,M"
    out = ok(oddsbot_cli("validate", rolled)).out
    assert out.strip() == rolled
    moves = json.loads(ok(oddsbot_cli("moves", rolled, "-f", "json")).out)
    assert moves["moves"] == ["3,M mummy"] and moves["counts"] == {"rolls": 1, "choices": 1}
    assert ok(oddsbot_cli("moves", rolled)).out.startswith("3,M mummy\n")
    assert "roll 3,M" in ok(oddsbot_cli("advise", rolled, "--samples", "10")).out
    assert_bad_input(oddsbot_cli("advise", rolled, "--roll", "4,P"), "--roll",
                     "has rolled 3,M")
    assert_bad_input(oddsbot_cli("odds", rolled), "position", "holds the roll drawn")
    assert_bad_input(oddsbot_cli("validate", LINE + " | roll 3,both"), "roll",
                     "write it as '3,PM'")
    assert_bad_input(oddsbot_cli("validate", LINE + " | roll 3"), "roll", "picture die")
    assert_bad_input(oddsbot_cli("validate", LINE + " | turn fresh:- swapped:- moved:1"),
                     "turn", "needs expansion e4")


def test_apply_keeps_to_the_roll_drawn():
    pos = face.parse(LINE + " | roll 3,M")
    assert face.apply(pos, "3,M mummy").roll is None
    with pytest.raises(OddsbotError, match="not of the roll drawn"):
        face.apply(pos, "3,P pawn 1")
