"""Whole games on the Camel Up Cards kernel (docs/games/camel-up-cards.md §2-§8): every
turn of random games checked against the rules (the reference's payouts, the 30 cards
accounted for, the 1 EP floor), and runs reproducible whatever the chunk size."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

import naive_cards as N
from kernel_boards import TYPES, from_track
from oddsbot.kernels.camel_up_cards import batch_games as B
from oddsbot.kernels.camel_up_cards import game as GM
from oddsbot.kernels.camel_up_cards import policy as P
from oddsbot.kernels.camel_up_cards import track as T
from oddsbot.kernels.rng import stream


def seat(p: int, field: int) -> int:
    return GM.PLAYER + p * GM.PB + field


def holdings(st: np.ndarray, p: int) -> tuple[list, list, bool, bool]:
    """Seat p's leg bets as the reference takes them: leader (colour, value) cards,
    midfield colours, and whether it pays for the fox / the palm."""
    leaders = []
    for c, camel in enumerate(N.CAMELS):
        k, total = st[seat(p, GM.LEAD_N + c)], st[seat(p, GM.LEAD_SUM + c)]
        # the kernel keeps a seat's count and sum per colour: one set of cards of 5 3 2 2
        taken = {tuple(v) for v in combinations((5, 3, 2, 2), k) if sum(v) == total}
        assert len(taken) == 1
        leaders += [(camel, v) for v in taken.pop()]
    mids = [N.CAMELS[c] for c in range(5) if st[GM.MID_HOLDER + c] == p]
    return (leaders, mids, bool(st[T.FOX] and st[T.FOX_HOLDER] == p),
            bool(st[T.PALM] and st[T.PALM_HOLDER] == p))


def check_cards(st: np.ndarray) -> None:
    """§6: the deck holds exactly the cards the players put in, and no seat holds more
    than it was dealt."""
    n = st[GM.N_PLAYERS]
    put = st[GM.INTO_DECK] + st[GM.BLUE]
    first = st[GM.DISCARDED]
    from_seats = sorted(st[seat(p, GM.CARDS + first + i)] for p in range(n)
                        for i in range(put))
    assert sorted(st[GM.DECK:GM.DECK + st[GM.DECK_SIZE]]) == from_seats
    dealt = [st[seat(p, GM.CARDS + i)] for p in range(n) for i in range(st[GM.DEALT])]
    assert all(np.bincount(dealt, minlength=10) <= T.CARDS_PER_TYPE)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("policy", P.POLICY_NAMES)
def test_random_games_follow_the_rules(players, policy):
    """30 games: after every turn money >= 1; at every leg end each seat's money moves by
    the reference's payout of the ranking (floored); the winner of the game has the most
    money."""
    code = P.POLICY_NAMES.index(policy)
    for g in range(30):
        deal, pol = stream(g, 0), stream(g, 2)
        st = GM.new_game(players, deal, np.arange(players), GM.SETUP[players],
                         GM.LAST_SPACE[players])
        check_cards(st)
        while st[GM.STATUS] == 0:
            before = st.copy()
            bet1, race, bet2 = P.choose(st, pol, code)
            p = st[GM.TO_MOVE]
            assert GM.race_ok(st, p, race)
            for b in (bet1, bet2):
                assert b == GM.NO_BET or GM.bet_ok(st, p, b)
            assert bet1 == GM.NO_BET or bet2 == GM.NO_BET
            probe = st.copy()
            if bet1 != GM.NO_BET:
                GM.apply_bet(probe, p, bet1)
            ended, _ = GM.apply_race(probe, p, race)
            if ended == 0 and bet2 != GM.NO_BET:
                GM.apply_bet(probe, p, bet2)
            GM.play_turn(st, deal, bet1, race, bet2)
            assert all(st[seat(q, GM.MONEY)] >= 1 for q in range(players))
            if ended:
                order = N.ranking(from_track(probe[:T.TRACK_SIZE]))
                for q in range(players):
                    leaders, mids, fox, palm = holdings(probe, q)
                    money = N.floor_money(before[seat(q, GM.MONEY)],
                                          N.leg_net(order, leaders, mids, fox, palm))
                    if ended == 2:
                        w, lo = probe[seat(q, GM.WINNER)], probe[seat(q, GM.LOSER)]
                        money = N.floor_money(money, N.final_net(
                            order, N.CAMELS[w] if w >= 0 else None,
                            N.CAMELS[lo] if lo >= 0 else None))
                    assert st[seat(q, GM.MONEY)] == money
                if ended == 1:
                    check_cards(st)
                    assert st[GM.LEG] == before[GM.LEG] + 1


def test_runs_do_not_depend_on_the_chunk_size():
    args = (4, np.arange(4), GM.SETUP[4], GM.LAST_SPACE[4], np.zeros(4, dtype=np.int64), 9, 0,
            300)
    whole = B.record_games(*args, 300)
    assert np.array_equal(whole, B.record_games(*args, 7))
    assert np.array_equal(whole[100:], B.record_games(*args[:6], 100, 200, 13))
    legs = whole[:, B.F_LEGS]
    assert legs.min() >= 1 and (whole[:, B.F_MONEY:B.F_MONEY + 4] >= 1).all()
    assert (whole[:, B.F_MONEY + 4:B.F_TURNS] == -1).all()


def test_a_logged_game_is_the_recorded_game():
    """``play_game`` with a turn log and the batch row of the same game agree."""
    deal, pol = stream(5, 0), stream(5, 2)
    st = GM.new_game(3, deal, np.arange(3), GM.SETUP[3], GM.LAST_SPACE[3])
    log = np.zeros((B.MAX_TURNS, B.LOG_FIELDS), dtype=np.int64)
    row = np.zeros(B.N_FIELDS, dtype=np.int64)
    turns = B.play_game(st, deal, pol, np.zeros(3, dtype=np.int64), log, row)
    assert row[B.F_TURNS] == turns and st[GM.STATUS] == 1
    assert log[turns - 1, 5] == 2 and (log[:turns - 1, 5] != 2).all()
    reveals = (log[:turns, 2] == GM.RACE_REVEAL).sum()
    assert reveals == row[B.F_KINDS:B.F_KINDS + 3 * B.N_KINDS:B.N_KINDS].sum()
    assert set(TYPES[c] for c in log[:turns, 4] if c >= 0) <= set(TYPES)
