"""Exact values of small Mumia endgames: expectimax over both dice
(docs/games/mumia.md §16.2).

At the turns of the seat ``root`` the choice with the highest expected final score of
``root`` is taken (ties: the first in canonical order); every other seat plays the
deterministic ``policy`` (greedy or heuristic); ``root = -1`` lets every seat play the
policy (a plain chance tree: ``odds``). A position's value is every seat's expected final
score and its probability to win or share the win.

Positions met along different paths are solved once: a table (``kernels.merge``) keyed
by two independent 64-bit hashes of the whole state vector, so two positions share an
entry only if both hashes collide (about 2**-128 a pair). The search stops, and says so,
once it has solved ``budget`` positions: the caller then samples instead.
"""

import numpy as np
from ..arrays import copy_into
from ..jit import njit

from ..merge import add, find, level
from .choices import MAX_CHOICES, N_COLS, apply_choice, choose, move_choices
from .layout import (
    MAX_SEATS, R_FACES, S_MUMMY, S_OVER, S_SIZE, S_TO_MOVE, SYM_NONE, scores_and_wins,
)
from .moves import end_turn

N_VALUES = 2 * MAX_SEATS  # expected scores of seats 0..5, then their win chances
_H1 = np.uint64(0x9E3779B97F4A7C15)
_H2 = np.uint64(0xD6E8FEB86659FD93)
_MIX = np.uint64(0xBF58476D1CE4E5B9)


@njit(cache=True)
def state_hash(S):
    """Two independent 64-bit hashes of the state vector (as int64 keys)."""
    a = np.uint64(0x243F6A8885A308D3)
    b = np.uint64(0x13198A2E03707344)
    for i in range(S.shape[0]):
        x = np.uint64(S[i] + 1_000_003 * i)
        a = (a ^ x) * _H1
        a ^= a >> np.uint64(31)
        b = (b + x * _MIX) * _H2
        b ^= b >> np.uint64(29)
    return np.int64(a), np.int64(b)


def new_memo(budget):
    """An empty table for ``budget`` solved positions: (keys, index, values, counter)."""
    cap = 1
    while cap < budget + 1:
        cap *= 2
    keys, _, index = level(cap)
    return keys, index, np.zeros((cap, N_VALUES)), np.zeros(1, dtype=np.int64)


@njit(cache=True)
def outcomes(S, R, ns, syms, weights):
    """The roll outcomes of the seat to move: (number, symbol, probability) rows; the
    count. Both dice while the mummy is in play, the number die alone after (§3)."""
    m = 0
    if S[S_MUMMY] < 0:
        for n in range(1, 7):
            ns[m] = n
            syms[m] = SYM_NONE
            weights[m] = 1.0 / 6.0
            m += 1
        return m
    total = R[R_FACES] + R[R_FACES + 1] + R[R_FACES + 2]
    for n in range(1, 7):
        for sym in range(3):
            if R[R_FACES + sym] > 0:
                ns[m] = n
                syms[m] = sym
                weights[m] = R[R_FACES + sym] / (6.0 * total)
                m += 1
    return m


@njit(cache=True)
def value(S, R, root, policy, keys, index, vals, counter, budget, out):
    """The value of ``S`` (a turn boundary) into ``out[N_VALUES]``; returns 0, or 1 if
    the budget ran out (``out`` is then meaningless)."""
    if S[S_OVER] != 0:
        scores = np.zeros(MAX_SEATS, dtype=np.int64)
        wins = np.zeros(MAX_SEATS)
        scores_and_wins(S, R, scores, wins)
        for p in range(MAX_SEATS):
            out[p] = scores[p]
            out[MAX_SEATS + p] = wins[p]
        return 0
    a, b = state_hash(S)
    r = find(keys, index, a, b)
    if r >= 0:
        copy_into(out, vals[r])
        return 0
    if counter[0] >= budget:
        return 1
    ns = np.empty(18, dtype=np.int64)
    syms = np.empty(18, dtype=np.int64)
    weights = np.empty(18)
    k = outcomes(S, R, ns, syms, weights)
    rows = np.empty((MAX_CHOICES, N_COLS), dtype=np.int64)
    child = np.empty(S_SIZE, dtype=np.int64)
    work = np.empty(S_SIZE, dtype=np.int64)
    cur = np.empty(N_VALUES)
    best = np.empty(N_VALUES)
    acc = np.zeros(N_VALUES)
    dummy = np.ones(4, dtype=np.uint64)
    p = S[S_TO_MOVE]
    for j in range(k):
        n = ns[j]
        m = move_choices(S, R, n, syms[j], rows, False)  # at least one row (pass)
        if p == root:
            best_v = -1e300
            for i in range(m):
                copy_into(child, S)
                apply_choice(child, R, rows[i], n)
                end_turn(child, R)
                if value(child, R, root, policy, keys, index, vals, counter, budget, cur):
                    return 1
                if cur[p] > best_v + 1e-12:
                    best_v = cur[p]
                    copy_into(best, cur)
        else:
            i = choose(S, R, n, rows, m, policy, dummy, work)
            copy_into(child, S)
            apply_choice(child, R, rows[i], n)
            end_turn(child, R)
            if value(child, R, root, policy, keys, index, vals, counter, budget, best):
                return 1
        for v in range(N_VALUES):
            acc[v] += weights[j] * best[v]
    _, _, _, n_rows = add(keys, vals[:, 0], index, counter[0], a, b, 0.0)
    copy_into(vals[counter[0]], acc)
    counter[0] = n_rows
    copy_into(out, acc)
    return 0


def row_values(S, R, n, rows, m, root, policy, keys, index, vals, counter, budget, out):
    """The value of each of the ``m`` choices ``rows`` of roll number ``n`` for the seat
    to move (its move made, the dice passed): ``out[i, N_VALUES]``. Returns 0, or 1 if the
    budget ran out. Python over ``value`` (no kernel of its own: it would optimise the
    whole search's code once more)."""
    cur = np.empty(N_VALUES)
    for i in range(m):
        child = S.copy()
        apply_choice(child, R, rows[i], n)
        end_turn(child, R)
        if value(child, R, root, policy, keys, index, vals, counter, budget, cur):
            return 1
        copy_into(out[i], cur)
    return 0
