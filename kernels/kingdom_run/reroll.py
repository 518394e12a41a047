"""The re-roll table: for each keep-set, the expected value of the best sequence over
every outcome of the dice rolled again (docs/games/kingdom-run.md §4, §15).

A die shows each of its ``R_NFACES`` faces (``R_FACES``, action types, repeats allowed)
with equal chance; the k re-rolled dice give ``R_NFACES ** k`` equally likely outcomes,
all of them taken. A final roll's value depends only on its faces as a multiset, so each
multiset is valued once and shared by every keep-set. Its value is the best default
evaluation over every sequence (``bound.best_value``: a branch-and-bound search from the
greedy sequence's value, which equals ``turns.search``'s best) when that search ends
within ``budget`` states; otherwise the greedy sequence's (``policies.greedy_value``, a
lower bound), and the keep-sets it enters are marked inexact.
"""

import numpy as np
from ..jit import njit

from .layout import MAX_DICE, N_FACES, R_FACES, R_NDICE, R_NFACES, S_REROLLED, S_ROLL
from .bound import best_value
from .policies import greedy_value

N_CODES = (MAX_DICE + 1) ** N_FACES


@njit(cache=True)
def _code(counts):
    """A multiset of faces (count per action type) as an index."""
    c = 0
    for f in range(N_FACES):
        c = c * (MAX_DICE + 1) + counts[f]
    return c


@njit(cache=True)
def roll_value(S, R, counts, budget, memo, state):
    """(value, exact) of the final roll ``counts``; ``memo``/``state`` (0 not yet, 1
    exact, 2 greedy) cache it by multiset."""
    c = _code(counts)
    if state[c] == 0:
        W = S.copy()
        d = 0
        for f in range(N_FACES):
            for _ in range(counts[f]):
                W[S_ROLL + d] = f
                d += 1
        W[S_REROLLED] = 1
        greedy = greedy_value(W, R)
        best, complete, _ = best_value(W, R, budget, greedy)
        memo[c] = best if complete else greedy
        state[c] = 1 if complete else 2
    return memo[c], state[c] == 1


@njit(cache=True)
def keep_values(S, R, keeps, budget):
    """The value of each keep-set and whether it is exact: ``keeps[i, f]`` dice showing
    action type f kept, the others rolled again (a row keeping every die: the roll as it
    is). Means over every outcome, float64."""
    n_dice = R[R_NDICE]
    nf = R[R_NFACES]
    memo = np.zeros(N_CODES, dtype=np.int64)
    state = np.zeros(N_CODES, dtype=np.int64)
    out = np.zeros(keeps.shape[0], dtype=np.float64)
    exact = np.ones(keeps.shape[0], dtype=np.bool_)
    counts = np.zeros(N_FACES, dtype=np.int64)
    digits = np.zeros(MAX_DICE, dtype=np.int64)
    for i in range(keeps.shape[0]):
        kept = 0
        for f in range(N_FACES):
            kept += keeps[i, f]
        k = n_dice - kept
        total = 0
        acc = 0
        for d in range(k):
            digits[d] = 0
        while True:
            for f in range(N_FACES):
                counts[f] = keeps[i, f]
            for d in range(k):
                counts[R[R_FACES + digits[d]]] += 1
            v, ok = roll_value(S, R, counts, budget, memo, state)
            acc += v
            if not ok:
                exact[i] = False
            total += 1
            d = 0
            while d < k:
                digits[d] += 1
                if digits[d] < nf:
                    break
                digits[d] = 0
                d += 1
            if d >= k:
                break
        out[i] = acc / total
    return out, exact
