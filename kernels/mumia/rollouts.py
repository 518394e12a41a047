"""Rollouts of Mumia choices and positions, on common random numbers
(docs/games/mumia.md §15, §16.2).

Rollout ``i`` of a run seeded ``seed`` draws from streams (seed, 3i) (the hidden action
tokens, §15), (seed, 3i + 1) (the dice) and (seed, 3i + 2) (the policies): every
candidate choice of one rollout meets the same hidden tokens and the same dice, so their
differences are paired, and a rollout's result never depends on threads.

**Hidden tokens**: the state given holds -1 for every token the viewer cannot see (in the
pile, and ``unseen[p]`` tokens of each opponent p, not counted in its hand); each rollout
deals the ``pool`` (tokens of each kind unseen by the viewer) at random into those places.
"""

import numpy as np
from ..arrays import copy_into
from ..jit import njit

from ..batch import N_STREAMS
from ..rng import below, reseed
from ..threads import rows as thread_rows
from .choices import C_BOTTOM, C_SWAP, MAX_CHOICES, N_COLS, apply_choice
from .game import LOG_FIELDS, finish_turn, play_game, play_move
from .layout import (
    MAX_SEATS, N_TOKEN_KINDS, R_PLAYERS, S_HAND, S_OVER, S_PILE, S_PILE_N,
    S_SIZE, S_TO_MOVE, score, scores_and_wins,
)


@njit(cache=True)
def deal_hidden(S, pool, unseen, rng):
    """Fill the unseen tokens of ``S`` (pile entries -1, ``unseen[p]`` of each seat) with
    a uniformly random arrangement of ``pool`` (counts by kind)."""
    total = 0
    for j in range(N_TOKEN_KINDS):
        total += pool[j]
    if total == 0:
        return
    bag = np.empty(total, dtype=np.int64)
    k = 0
    for j in range(N_TOKEN_KINDS):
        for _ in range(pool[j]):
            bag[k] = j
            k += 1
    for i in range(total - 1, 0, -1):
        r = below(rng, i + 1)
        bag[i], bag[r] = bag[r], bag[i]
    k = 0
    for i in range(S[S_PILE_N]):
        if S[S_PILE + i] < 0:
            S[S_PILE + i] = bag[k]
            k += 1
    for p in range(unseen.shape[0]):
        for _ in range(unseen[p]):
            S[S_HAND + p * N_TOKEN_KINDS + bag[k]] += 1
            k += 1


@njit(cache=True, inline="always")  # one caller, choice_games_range: not its own library
def play_choice(S, R, row, n, sym, policy, dice, pol_rng, rows, work, log):
    """The seat to move takes choice ``row`` of roll (``n``, ``sym``), and the rest of its
    turn: after a Swap or Bottom (before the move) its move by ``policy``; after a move
    marked ``+ token extra`` an Extra move; then Extra moves as the policy wants, but
    none after a move not so marked (§11, §16.1)."""
    apply_choice(S, R, row, n)
    if row[0] == C_SWAP or row[0] == C_BOTTOM:
        extra = False
        if S[S_OVER] == 0:
            _, extra = play_move(S, R, n, sym, policy, pol_rng, rows, work, log,
                                 log.shape[0])
        finish_turn(S, R, extra, policy, dice, pol_rng, rows, work, log, log.shape[0])
    else:
        finish_turn(S, R, row[5] != 0 and S[S_OVER] == 0, policy, dice, pol_rng, rows,
                    work, log, log.shape[0])


def choice_range(S0, R, n, sym, cand, policies, pool, unseen, seed, first, count):
    """Rollouts ``first .. first + count - 1`` of every candidate row of ``cand`` for the
    seat to move in ``S0`` with roll (``n``, ``sym``), then every seat by ``policies``:
    ``out[rollout, candidate, 2]`` = (the mover's final score less its score now, 1.0 if
    it wins or shares the win). Python over ``choice_games_range`` (no kernel of its own:
    it would optimise the whole game's code once more)."""
    games = choice_games_range(S0, R, n, sym, cand, policies, pool, unseen, seed, first,
                               count)
    p = S0[S_TO_MOVE]
    return np.stack((games[:, :, 0, p] - games[:, :, 2, p], games[:, :, 1, p]), axis=2)


@njit(cache=True, nogil=True)
def choice_games_range(S0, R, n, sym, cand, policies, pool, unseen, seed, first, count):
    """``choice_range``'s games in full: ``out[rollout, candidate, 3, MAX_SEATS]`` = every
    seat's final score, 1.0 for each seat that wins or shares the win, and every seat's
    score before the choice (the hidden tokens dealt)."""
    m = cand.shape[0]
    out = np.zeros((count, m, 3, MAX_SEATS))
    streams = np.empty((N_STREAMS, 4), dtype=np.uint64)
    base = np.empty(S_SIZE, dtype=np.int64)
    S = np.empty(S_SIZE, dtype=np.int64)
    rows = np.empty((MAX_CHOICES, N_COLS), dtype=np.int64)
    work = np.empty(S_SIZE, dtype=np.int64)
    log = np.zeros((0, 9), dtype=np.int64)
    scores = np.zeros(MAX_SEATS, dtype=np.int64)
    wins = np.zeros(MAX_SEATS)
    p = S0[S_TO_MOVE]
    players = R[R_PLAYERS]
    for g in range(count):
        r = first + g
        for c in range(m):
            for i in range(N_STREAMS):
                reseed(streams[i], seed, N_STREAMS * r + i)
            copy_into(base, S0)
            deal_hidden(base, pool, unseen, streams[0])
            for q in range(players):
                out[g, c, 2, q] = score(base, R, q)
            copy_into(S, base)
            play_choice(S, R, cand[c], n, sym, policies[p], streams[1], streams[2], rows,
                        work, log)
            play_game(S, R, streams[1], streams[2], policies, log)
            scores_and_wins(S, R, scores, wins)
            for q in range(players):
                out[g, c, 0, q] = scores[q]
                out[g, c, 1, q] = wins[q]
    return out


@njit(cache=True, nogil=True)
def position_range(S0, R, policies, pool, unseen, seed, first, count):
    """Rollouts ``first .. first + count - 1`` of the position ``S0`` before its roll,
    every seat by ``policies``: ``out[rollout, 2, MAX_SEATS]`` = every seat's final score
    and 1.0 for each seat that wins or shares the win."""
    out = np.zeros((count, 2, MAX_SEATS))
    streams = np.empty((N_STREAMS, 4), dtype=np.uint64)
    S = np.empty(S_SIZE, dtype=np.int64)
    log = np.zeros((0, 9), dtype=np.int64)
    scores = np.zeros(MAX_SEATS, dtype=np.int64)
    wins = np.zeros(MAX_SEATS)
    for g in range(count):
        r = first + g
        for i in range(N_STREAMS):
            reseed(streams[i], seed, N_STREAMS * r + i)
        copy_into(S, S0)
        deal_hidden(S, pool, unseen, streams[0])
        play_game(S, R, streams[1], streams[2], policies, log)
        scores_and_wins(S, R, scores, wins)
        for p in range(R[R_PLAYERS]):
            out[g, 0, p] = scores[p]
            out[g, 1, p] = wins[p]
    return out


def choice_rollouts(S0, R, n, sym, cand, policies, pool, unseen, seed, first, count,
                    chunk, progress=None):
    """``choice_range`` over threads in chunks (the same rows for any thread count)."""
    return thread_rows(lambda g, k: choice_range(S0, R, n, sym, cand, policies, pool, unseen,
                                                 np.uint64(seed), first + g, k),
                       count, chunk, progress)


def choice_games(S0, R, n, sym, cand, policies, pool, unseen, seed, count, chunk):
    """``choice_games_range`` of rollouts ``0 .. count - 1`` over threads in chunks (the
    same rows for any thread count)."""
    return thread_rows(lambda g, k: choice_games_range(S0, R, n, sym, cand, policies, pool,
                                                       unseen, np.uint64(seed), g, k),
                       count, chunk)


def position_rollouts(S0, R, policies, pool, unseen, seed, first, count, chunk,
                      progress=None):
    """``position_range`` over threads in chunks."""
    return thread_rows(lambda g, k: position_range(S0, R, policies, pool, unseen,
                                                   np.uint64(seed), first + g, k),
                       count, chunk, progress)


@njit(cache=True)
def play_from(S0, R, policies, pool, unseen, seed, log_rows):
    """The game from ``S0`` to its end, every seat by ``policies``, hidden tokens dealt
    from stream (seed, 0), dice from (seed, 1), policy choices from (seed, 2):
    (the state dealt, the final state, log[steps, LOG_FIELDS], turns)."""
    streams = np.empty((N_STREAMS, 4), dtype=np.uint64)
    for i in range(N_STREAMS):
        reseed(streams[i], seed, i)
    S = S0.copy()
    deal_hidden(S, pool, unseen, streams[0])
    start = S.copy()
    log = np.zeros((log_rows, LOG_FIELDS), dtype=np.int64)
    turns, steps, _ = play_game(S, R, streams[1], streams[2], policies, log)
    return start, S, log[:min(steps, log_rows)], turns
