"""Games played to the end from a position, for the odds and for rollout equity
(docs/games/kingdom-run.md §15).

Rollout ``i`` of a run seeded ``seed`` rolls its dice from stream (seed, 3i + 1) and
takes policy choices from (seed, 3i + 2), whatever the candidate: every candidate of a
decision meets the same dice (common random numbers), and rows never depend on threads.
Nothing in Kingdom Run is hidden, so nothing is dealt.
"""

import numpy as np
from ..jit import njit

from ..rng import reseed
from ..threads import rows as thread_rows
from .game import LOG_FIELDS, N_FIELDS, play_game, reroll
from .layout import MAX_PLAYERS, S_PLAYERS, scores_and_wins

N_OUT = 2 * MAX_PLAYERS  # per candidate: every player's final score, then win credit


@njit(cache=True, nogil=True)
def playouts(states, keeps, R, policies, seed, first, n):
    """Rollouts ``first .. first + n - 1`` of every candidate ``states[c]``:
    ``out[i, c, :]`` = final scores, then win credit (1/k for each of k tied winners).
    ``keeps[c]`` >= 0: the candidate is a keep-set (bitmask) of ``states[c]``'s roll,
    the other dice rolled again from the rollout's dice first; -1: play on as it is."""
    C = states.shape[0]
    out = np.zeros((n, C, N_OUT), dtype=np.float64)
    streams = np.empty((3, 4), dtype=np.uint64)
    log = np.zeros((0, LOG_FIELDS), dtype=np.int64)
    stats = np.zeros(N_FIELDS, dtype=np.int64)
    scores = np.zeros(MAX_PLAYERS, dtype=np.int64)
    wins = np.zeros(MAX_PLAYERS, dtype=np.float64)
    for i in range(n):
        for c in range(C):
            for s in range(3):
                reseed(streams[s], seed, 3 * (first + i) + s)
            W = states[c].copy()
            if keeps[c] >= 0:
                reroll(W, R, keeps[c], streams[1])
            play_game(W, R, streams[1], streams[2], policies, log, stats)
            scores_and_wins(W, R, scores, wins)
            k = 0.0
            for p in range(W[S_PLAYERS]):
                k += wins[p]
            for p in range(W[S_PLAYERS]):
                out[i, c, p] = scores[p]
                out[i, c, MAX_PLAYERS + p] = wins[p] / k
    return out


def rollouts(states, keeps, R, policies, seed, first, n, chunk, progress=None):
    """``playouts`` over threads in chunks of ``chunk`` rollouts: ``out[n, C, N_OUT]``;
    ``progress(rollouts done)`` as chunks finish."""
    return thread_rows(lambda g, k: playouts(states, keeps, R, policies, np.uint64(seed),
                                             first + g, k), n, chunk, progress)
