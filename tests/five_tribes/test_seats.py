"""Five Tribes arena seats (``SeatsFace``, docs/games/five-tribes.md §22.1): whole seeded
games through deal/choose/step agree with the record replay of the same moves; what a seat
sees; playouts on common random numbers, reproducible on any number of threads, agreeing
with games played in Python; choose agrees with the kernel's policies; candidates legal
and ranked by exact value; arena_results agrees with the per-game table."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from oddsbot.analyser.five_tribes import face as ft
from oddsbot.analyser.five_tribes import seats
from oddsbot.analyser.five_tribes.labels import turn_labels
from oddsbot.analyser.five_tribes.encode import encode
from oddsbot.analyser.five_tribes.sowings import census
from oddsbot.analyser.five_tribes.turns import exact_rows
from oddsbot.errors import OddsbotError
from oddsbot.kernels import five_tribes as FT
from oddsbot.kernels.rng import stream
from oddsbot.reports import five_tribes as designer

from five_tribes_positions import SCREENED


def play_game(players: int, seed: int, policy: str):
    """A whole game, every seat by ``policy``: (start, [(action, outcome)], positions)."""
    start = pos = ft.deal(players, seed, "five-tribes", {})
    moves, seen = [], [pos]
    while ft.game_result(pos) is None:
        action = ft.choose(ft.seat_view(pos, pos.to_move), policy, seed * 1000 + len(moves))
        assert action in ft.legal_actions(pos)
        pos, outcome = ft.step(pos, action, seed * 2000 + len(moves))
        ft.validate(pos)
        moves.append((action, outcome))
        seen.append(pos)
    return start, moves, seen


@pytest.fixture(scope="module")
def heuristic_game():
    return play_game(2, 3, "heuristic")


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_a_whole_game_agrees_with_its_record(policy, heuristic_game):
    """The game's record (``record_text``) replays to the same scores and winners."""
    start, moves, seen = heuristic_game if policy == "heuristic" else play_game(3, 4, policy)
    _, steps = ft.record.load_record(ft.record_text(start, moves))
    scores, wins = ft.game_result(seen[-1])
    assert steps.over
    assert [row[-1] for row in steps.scores] == list(scores)
    assert [p for p, w in enumerate(wins) if w > 0] == list(steps.winners)
    assert all(w == 1 / len(steps.winners) for w in wins if w > 0)


def test_deal_is_the_designer_runs_game_zero():
    """deal = new_position: the first bidder is simulate_raw's game 0's; --rule refused."""
    raw = designer.simulate_raw("five-tribes", 3, ("random",), 11, 0, 1)
    assert encode(ft.deal(3, 11, "five-tribes", {}))[FT.BID_ORDER] == raw[0, FT.F_FIRST_BIDDER]
    with pytest.raises(OddsbotError, match="no rule parameters"):
        ft.deal(3, 11, "five-tribes", {"x": "1"})


def test_a_seat_sees_the_whole_position(heuristic_game):
    """Nothing a position holds is hidden: decks and bag are contents, never an order."""
    pos = heuristic_game[2][5]
    assert all(ft.seat_view(pos, s) is pos for s in range(pos.n_players))
    st = encode(pos)
    assert st[FT.RES_DECK:FT.RES_DECK + FT.N_CARD_KINDS].sum() > 0  # counts, no order


def test_step_refuses_an_illegal_action_in_one_line(heuristic_game):
    pos = heuristic_game[2][0]
    with pytest.raises(OddsbotError, match="bid 7"):
        ft.step(pos, "bid 7", 1)


def test_choose_is_the_kernels_bid_and_greedy_turn(heuristic_game):
    """Bids: the kernel's choose_bid (deterministic for heuristic and greedy: the cheapest
    price); greedy's first turn: a row of the table at its best exact value (no djinn
    held yet, so no window stage)."""
    for pos in heuristic_game[2][:12]:
        if pos.phase == "bidding":
            bid = FT.choose_bid(encode(pos), FT.P_HEURISTIC, stream(np.uint64(0), 0),
                                np.zeros(FT.MAX_BIDS, dtype=np.int64))
            assert ft.choose(pos, "heuristic", 5) == seats.bid_label(int(bid))
            assert ft.choose(pos, "greedy", 5) == seats.bid_label(int(bid))
    turn = next(p for p in heuristic_game[2] if p.phase == "turns")
    table = ft.advise(turn)
    chosen = ft.choose(turn, "greedy", 1)
    assert chosen in list(table["action"])
    assert table["ev"][list(table["action"]).index(chosen)] == table["ev"][0]


def test_choose_labels_a_turn_as_the_table_does(heuristic_game):
    """The heuristic's turns of the game's first rounds are listed in their positions'
    exact turn tables (the table's sowing of the outcome, not the one drawn)."""
    checked = 0
    for pos, (action, _) in zip(heuristic_game[2][:24], heuristic_game[1]):
        if pos.phase == "turns" and (rows := exact_rows(encode(pos))) is not None:
            types = tuple(c.tile for _, _, c in pos.cells())
            assert action in turn_labels(rows.actions, types)
            checked += 1
    assert checked >= 4


@pytest.fixture(scope="module")
def mid_position(heuristic_game):
    return mid(heuristic_game)


def mid(game):
    """A position of the game's second half whose turn table is exact (every turn listed:
    a sampled table misses turns, docs/games/five-tribes.md §19.1.1), among boards of at
    most ``MID_SOWINGS`` sowings: a larger table past the budgets (djinns in hand) can take
    minutes to give up."""
    return next(p for p in game[2][len(game[2]) // 2:]
                if p.phase == "turns" and _sowings(p) <= MID_SOWINGS
                and exact_rows(encode(p)) is not None)


MID_SOWINGS = 500


def _sowings(pos) -> int:
    st = encode(pos)
    return census(FT.meeples(st), int(st[FT.END_RULE])).total


def test_candidates_are_legal_distinct_and_ranked(heuristic_game, mid_position):
    pos = mid_position
    cands = ft.candidates(pos, 5, 2)
    assert len(cands) == len(set(cands)) and all(c in ft.legal_actions(pos) for c in cands)
    assert ft.choose(pos, "heuristic", 2) in cands
    table = ft.advise(pos)
    ev = dict(zip(table["action"], table["ev"]))
    ranked = [ev[c] for c in cands[:5]]
    assert ranked == sorted(ranked, reverse=True)
    bids = ft.candidates(heuristic_game[2][0], 3, 2)
    assert bids[0] == "bid 0" and ft.choose(heuristic_game[2][0], "heuristic", 2) in bids


def test_turn_candidates_complete_drawn_sowings():
    """docs/games/five-tribes.md §22.1 item 5: the turn candidates complete sowings drawn
    uniformly from the board's, not the heuristic's screened targets. On ``SCREENED`` the
    heuristic's turn is its screen's first target (r0c2 by a Vizier) whatever its seed;
    played out 48 times it would fill every candidate with walks to r0c2. The drawn
    sowings' five best end on several tiles, and the heuristic's turn is still offered."""
    pos = ft.parse(SCREENED)
    for seed in range(3):
        cands = ft.candidates(pos, 5, seed)
        ends = {c.split(";")[0].split(">")[-1].split(":")[0] for c in cands[:5]}
        assert len(ends) >= 3, cands
        assert ft.choose(pos, "heuristic", seed) in cands


def test_playouts_common_numbers_seeds_and_threads(mid_position):
    pos = mid_position
    a, b = ft.candidates(pos, 2, 0)[:2]
    scores, wins = ft.playouts(pos, [a, b, a], n=32, seed=9, policy="heuristic")
    assert scores.shape == (3, 32, 2) and (scores[0] == scores[2]).all()
    assert np.allclose(wins.sum(axis=2), 1)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = ft.playouts(pos, [a, b], n=32, seed=9, policy="heuristic")
    finally:
        numba.set_num_threads(threads)
    assert (one[0] == scores[:2]).all() and (one[1] == wins[:2]).all()
    again = ft.playouts(pos, [a, b], n=32, seed=9, policy="heuristic")
    assert (again[0] == scores[:2]).all()
    assert not (ft.playouts(pos, [a], n=32, seed=10, policy="heuristic")[0] == scores[0]).all()


def test_playouts_agree_with_games_played_by_step(heuristic_game):
    """Near the end: the mean final score after an action by playouts agrees with games
    played on by choose and step within 4 standard errors."""
    pos = heuristic_game[2][-8]
    action = ft.choose(pos, "heuristic", 1)
    scores, _ = ft.playouts(pos, [action], n=400, seed=3, policy="heuristic")
    mine = pos.to_move
    python = []
    for i in range(60):
        p, _ = ft.step(pos, action, 10_000 + i)
        k = 0
        while ft.game_result(p) is None:
            action_k = ft.choose(p, "heuristic", 20_000 + 100 * i + k)
            p, _ = ft.step(p, action_k, 30_000 + 100 * i + k)
            k += 1
        python.append(ft.game_result(p)[0][mine])
    a, b = scores[0, :, mine], np.array(python)
    se = np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    assert abs(a.mean() - b.mean()) <= 4 * se + 1e-9


def test_arena_results_agree_with_the_table():
    raw = designer.simulate_raw("five-tribes", 3, ("heuristic", "random"), 5, 0, 40)
    scores, wins, decisions = designer.arena_results(raw, "five-tribes", 3)
    table = designer.raw_table(raw, "five-tribes", 3, 0)
    cols = [f"score_{s}" for s in range(3)]
    assert (scores == table[cols].to_numpy()).all()
    best = table[cols].to_numpy().max(axis=1, keepdims=True)
    top = table[cols].to_numpy() == best
    assert np.allclose(wins, top / top.sum(axis=1, keepdims=True))
    assert np.allclose(wins.sum(axis=1), 1)
    turns = table[[f"turns_{s}" for s in range(3)]].to_numpy()
    assert (decisions == 2 * turns).all() and (turns.sum(axis=1) == 3 * table["rounds"]).all()
