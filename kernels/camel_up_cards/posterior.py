"""What the viewer knows of the race deck, as weighted candidates
(docs/games/camel-up-cards.md §9).

The race deck is the known part ``known`` (the viewer's own cards put in, every revealed
blue card) and an unknown part U of ``k`` cards, a uniformly random subset of the unseen
pool ``pool`` (counts per type). The cards revealed so far, ``revealed``, are conditioned
on: a composition u of U (u_t cards of type t) has prior weight prod_t C(pool_t, u_t) and
likelihood prod_t n_t! / (n_t - r_t)! with n = known + u (the chance of drawing the
revealed cards first, up to a factor common to every u). The candidates are the remaining
decks m = n - revealed with their normalised weights.
"""

import numpy as np
from ..arrays import copy_into
from ..jit import njit

from .track import N_TYPES


@njit(cache=True)
def _choose(n, k):
    out = 1.0
    for i in range(k):
        out = out * (n - i) / (i + 1)
    return out


@njit(cache=True)
def deck_candidates(known, pool, k, revealed):
    """(m, w): every remaining deck the viewer thinks possible, and its probability
    (module doc). ``w`` is empty if the revealed cards are impossible."""
    # count the compositions first (an odometer over u_0..u_9 with sum k)
    cap = 1
    for t in range(N_TYPES):
        cap *= min(pool[t], k) + 1
    cap = min(cap, 1 << 22)
    ms = np.zeros((0, N_TYPES), dtype=np.int64)
    ws = np.zeros(0, dtype=np.float64)
    out_m = np.empty((16, N_TYPES), dtype=np.int64)
    out_w = np.empty(16, dtype=np.float64)
    n_out = 0
    u = np.zeros(N_TYPES, dtype=np.int64)
    while True:
        total = 0
        for t in range(N_TYPES):
            total += u[t]
        if total == k:
            weight = 1.0
            for t in range(N_TYPES):
                n = known[t] + u[t]
                if revealed[t] > n:
                    weight = 0.0
                    break
                weight *= _choose(pool[t], u[t])
                for i in range(revealed[t]):
                    weight *= n - i
            if weight > 0.0:
                if n_out == out_m.shape[0]:
                    grown_m = np.empty((2 * n_out, N_TYPES), dtype=np.int64)
                    for i in range(n_out):
                        copy_into(grown_m[i], out_m[i])
                    out_m = grown_m
                    grown_w = np.empty(2 * n_out, dtype=np.float64)
                    copy_into(grown_w[:n_out], out_w)
                    out_w = grown_w
                for t in range(N_TYPES):
                    out_m[n_out, t] = known[t] + u[t] - revealed[t]
                out_w[n_out] = weight
                n_out += 1
        # next u (odometer), skipping digits that would exceed k
        t = 0
        while t < N_TYPES:
            if u[t] < pool[t] and total < k:
                u[t] += 1
                break
            total -= u[t]
            u[t] = 0
            t += 1
        if t == N_TYPES:
            break
    if n_out == 0:
        return ms, ws
    w = out_w[:n_out] / out_w[:n_out].sum()
    return out_m[:n_out].copy(), w
