"""Whole games of Camel Up Cards, one at a time with their turns, or many in ranges with
the per-game facts a designer report reads (docs/games/camel-up-cards.md §14).

Game ``r`` of a run seeded ``seed`` deals from stream (seed, 3r) (the camels' start, every
leg's deal and race deck) and takes policy choices from (seed, 3r + 2), so its row
depends on (seed, r) only (``kernels.batch``).

One row (int16) per game: money of seats 0..5 (-1 for seats not in the game); turns;
legs; the race's winner and loser (camel); the first leg's start player; every seat's
turns by kind of race action and of bet (``KIND_NAMES``, seat-major).
"""

import numpy as np
from numba import njit

from ..batch import record_chunk
from ..threads import rows
from .game import (
    BET_LOSER, BET_MIDFIELD, BET_WINNER, FOX_BASE, LEG, MAX_PLAYERS, MONEY, NO_BET,
    N_PLAYERS, PALM_BASE, RACE_HAND, STATUS, TO_MOVE, new_game, play_turn, seat,
)
from .policy import choose
from .track import N_CAMELS, ranking

MAX_TURNS = 2000  # far more than a game takes (a leg ends when its deck of <= 12 is empty)
LOG_FIELDS = 7  # seat, bet before, race action, bet after, card, ended, leg
KIND_NAMES = ("reveal", "hand", "fox", "palm", "leader", "midfield", "winner", "loser")
N_KINDS = len(KIND_NAMES)

F_MONEY = 0
F_TURNS = F_MONEY + MAX_PLAYERS
F_LEGS = F_TURNS + 1
F_WINNER = F_LEGS + 1
F_LOSER = F_WINNER + 1
F_FIRST = F_LOSER + 1
F_KINDS = F_FIRST + 1
N_FIELDS = F_KINDS + MAX_PLAYERS * N_KINDS


@njit(cache=True, inline="always")
def race_kind(r):
    if r < FOX_BASE:
        return r  # reveal 0, hand 1
    return 2 if r < PALM_BASE else 3


@njit(cache=True, inline="always")
def bet_kind(b):
    if b < BET_MIDFIELD:
        return 4
    if b < BET_WINNER:
        return 5
    return 6 if b < BET_LOSER else 7


@njit(cache=True)
def play_game(st, deal, pol, policies, log, row):
    """Play ``st`` to the end, seat i following ``policies[i]``: deals from stream
    ``deal``, choices from ``pol``. Writes each turn to ``log`` (``LOG_FIELDS``; when it
    has rows) and the per-game facts to ``row`` (``N_FIELDS``; when it has any). Returns
    the number of turns."""
    turns = 0
    while st[STATUS] == 0 and turns < MAX_TURNS:
        p = st[TO_MOVE]
        leg = st[LEG]
        bet1, race, bet2 = choose(st, pol, policies[p])
        ended, card = play_turn(st, deal, bet1, race, bet2)
        if turns < log.shape[0]:
            log[turns, 0] = p
            log[turns, 1] = bet1
            log[turns, 2] = race
            log[turns, 3] = bet2 if ended == 0 else NO_BET
            log[turns, 4] = card
            log[turns, 5] = ended
            log[turns, 6] = leg
        if row.shape[0] > 0:
            row[F_KINDS + p * N_KINDS + race_kind(race)] += 1
            bet = bet1 if bet1 != NO_BET else (bet2 if ended == 0 else NO_BET)
            if bet != NO_BET:
                row[F_KINDS + p * N_KINDS + bet_kind(bet)] += 1
        turns += 1
    if row.shape[0] > 0:
        for p in range(MAX_PLAYERS):
            row[F_MONEY + p] = st[seat(p, MONEY)] if p < st[N_PLAYERS] else -1
        row[F_TURNS] = turns
        row[F_LEGS] = st[LEG]
        order = np.empty(N_CAMELS, dtype=np.int64)
        ranking(st, order)
        row[F_WINNER] = order[0]
        row[F_LOSER] = order[N_CAMELS - 1]
    return turns


@njit(cache=True)
def record_game(context, scratch, streams, row):
    """``record_chunk``'s game: a new game of ``context`` = (players, ages, setup, last,
    policies) dealt from stream 0, played with choices from stream 2."""
    n, ages, setup, last, policies = context
    st = new_game(n, streams[0], ages, setup, last)
    row[F_FIRST] = st[TO_MOVE]
    play_game(st, streams[0], streams[2], policies, scratch, row)


@njit(cache=True)
def _scratch(context):
    return np.zeros((0, LOG_FIELDS), dtype=np.int64)  # no turn log in batches


@njit(cache=True, nogil=True)
def record_range(n, ages, setup, last, policies, seed, game0, n_games):
    """``record_games`` for games ``game0 .. game0 + n_games - 1`` on this thread."""
    return record_chunk(record_game, _scratch, (n, ages, setup, last, policies), N_FIELDS,
                        seed, game0, n_games)


def record_games(n, ages, setup, last, policies, seed, game0, n_games, chunk_size,
                 progress=None):
    """Games ``game0 .. game0 + n_games - 1`` of ``n`` players (``ages``, ``setup``,
    ``last`` as ``game.new_game``), seat i following ``policies[i]``:
    ``out[game, N_FIELDS]`` (int16, layout in the module docstring), the same for any
    ``chunk_size`` and number of threads."""
    return rows(lambda g, k: record_range(n, ages, setup, last, policies, np.uint64(seed),
                                          game0 + g, k), n_games, chunk_size, progress)
