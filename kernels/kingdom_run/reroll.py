"""The re-roll table: for each keep-set, the expected value of the best sequence over
every outcome of the dice rolled again (docs/games/kingdom-run.md §4, §15).

A die shows each of its ``R_NFACES`` faces (``R_FACES``, action types, repeats allowed)
with equal chance; the k re-rolled dice give ``R_NFACES ** k`` equally likely outcomes,
all of them taken. A final roll's value depends only on its faces as a multiset, so each
multiset is valued once and shared by every keep-set. Its value is the best default
evaluation over every sequence (``bound.best_value``: a branch-and-bound search from the
greedy sequence's value, which equals ``turns.search``'s best) when that search ends
within the table's ``budget``; otherwise the greedy sequence's (``policies.greedy_value``,
a lower bound), and the keep-sets it enters are marked inexact.

The budget bounds the states the whole table's searches value (``best_value``'s count),
in two rounds: every final roll may value ``FIRST`` states, then each one not searched
to its end all that is left of the budget, in turn (the cheap final rolls end first; a
search stopped in the first round counts and starts again).
"""

import numpy as np
from ..arrays import copy_into
from ..jit import njit

from .layout import MAX_DICE, N_FACES, R_FACES, R_NDICE, R_NFACES, S_REROLLED, S_ROLL
from .bound import best_value
from .policies import greedy_value

N_CODES = (MAX_DICE + 1) ** N_FACES
FIRST = 400_000  # states each final roll's search may value in the first round


@njit(cache=True)
def _code(counts):
    """A multiset of faces (count per action type) as an index."""
    c = 0
    for f in range(N_FACES):
        c = c * (MAX_DICE + 1) + counts[f]
    return c


@njit(cache=True)
def _outcomes(R, keeps, i, counts, digits, k):
    """Step ``digits`` (the k re-rolled dice, base ``R_NFACES``) to the next outcome of
    keep-set i, its final roll into ``counts``; False once every outcome was taken."""
    d = 0
    while d < k:
        digits[d] += 1
        if digits[d] < R[R_NFACES]:
            break
        digits[d] = 0
        d += 1
    for f in range(N_FACES):
        counts[f] = keeps[i, f]
    for j in range(k):
        counts[R[R_FACES + digits[j]]] += 1
    return d < k


@njit(cache=True)
def _final_state(S, counts):
    """The position after the re-roll showing ``counts``."""
    W = S.copy()
    d = 0
    for f in range(N_FACES):
        for _ in range(counts[f]):
            W[S_ROLL + d] = f
            d += 1
    W[S_REROLLED] = 1
    return W


@njit(cache=True)
def _first_outcome(R, keeps, i, counts, digits):
    """The first outcome of keep-set i (every re-rolled die on face 0); returns k."""
    k = R[R_NDICE]
    for f in range(N_FACES):
        k -= keeps[i, f]
    digits[:k] = 0
    for f in range(N_FACES):
        counts[f] = keeps[i, f]
    for j in range(k):
        counts[R[R_FACES]] += 1
    return k


@njit(cache=True)
def keep_values(S, R, keeps, budget):
    """(values, exact, greedy rolls, final rolls): the value of each keep-set and whether
    it is exact (``keeps[i, f]`` dice showing action type f kept, the others rolled again;
    a row keeping every die: the roll as it is), means over every outcome (float64); the
    distinct final rolls valued by the greedy sequence, and in all. ``budget``: states the
    whole table's searches may value (0: no limit)."""
    slot = np.full(N_CODES, -1, dtype=np.int64)
    rolls = np.empty((N_CODES, N_FACES), dtype=np.int64)  # counts of each distinct roll
    m = 0
    counts = np.zeros(N_FACES, dtype=np.int64)
    digits = np.zeros(MAX_DICE, dtype=np.int64)
    for i in range(keeps.shape[0]):
        k = _first_outcome(R, keeps, i, counts, digits)
        while True:
            c = _code(counts)
            if slot[c] < 0:
                slot[c] = m
                copy_into(rolls[m], counts)
                m += 1
            if not _outcomes(R, keeps, i, counts, digits, k):
                break
    value = np.empty(m, dtype=np.int64)
    done = np.zeros(m, dtype=np.bool_)
    greedy = np.empty(m, dtype=np.int64)
    for j in range(m):
        greedy[j] = greedy_value(_final_state(S, rolls[j]), R)
        value[j] = greedy[j]
    spent = 0
    for first in (True, False):
        for j in range(m):
            allowed = budget - spent
            if first:
                allowed = min(allowed, FIRST)
            if done[j] or (budget > 0 and allowed <= 0):
                continue
            best, complete, valued = best_value(_final_state(S, rolls[j]), R,
                                                allowed if budget > 0 else 0, greedy[j])
            spent += valued
            if complete:
                value[j] = best
                done[j] = True
    out = np.zeros(keeps.shape[0], dtype=np.float64)
    exact = np.ones(keeps.shape[0], dtype=np.bool_)
    for i in range(keeps.shape[0]):
        k = _first_outcome(R, keeps, i, counts, digits)
        total = 0
        acc = 0
        while True:
            j = slot[_code(counts)]
            acc += value[j]
            if not done[j]:
                exact[i] = False
            total += 1
            if not _outcomes(R, keeps, i, counts, digits, k):
                break
        out[i] = acc / total
    return out, exact, m - done.sum(), m
