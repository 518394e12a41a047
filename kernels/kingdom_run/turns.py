"""Every way to spend a turn's dice: a depth-first search over the legal actions, states
reached twice searched once, every distinct end-of-turn position found once (with the
first sequence in canonical order that reaches it), or only the best one by the default
evaluation (docs/games/kingdom-run.md §4, §7, §13, §14).

A sequence is stored as a row of ``P_COLS`` int16: ``P_N`` actions (``actions`` rows of
``A_COLS``), then ``P_K`` runners who take this turn's podium places (in place order) and
the runners themselves (``P_WIN``). Two positions are the same when their merge keys
(``layout.state_key``, two independent 64-bit hashes) are.
"""

import numpy as np
from ..arrays import copy_into, grown
from ..jit import njit

from ..merge import add, level
from .actions import (
    A_COLS, WORK, action_legal, apply_action, hand_out, legal_actions_into, podium_slots,
    pending_runners,
)
from .layout import (
    MAX_DICE, MAX_PLACES, PENDING, R_MAND, R_NDICE, R_ORDER, R_SURPLUS, RUNNERS, S_CACT,
    S_CORD, S_NPEND, S_NUSED, S_PLACE, S_SIZE, S_TO_MOVE, evaluation, keys, position_keys,
)

MAX_ACTIONS = 2048  # legal actions of one state, far above what 16 runners allow
P_N = 0
P_ACT = 1
P_K = P_ACT + MAX_DICE * A_COLS
P_WIN = P_K + 1
P_CROSSED = P_WIN + MAX_PLACES  # runners that crossed this turn
P_COLS = P_CROSSED + 1


@njit(cache=True)
def handouts(S, R):
    """Every distinct way to hand out this turn's podium places (§7): rows of
    ``MAX_PLACES`` runners (in place order) and how many of each row take a place.
    ``free`` order: any of this turn's crossers in any order (one row per sequence of
    clans: the earliest crosser of a clan stands for it); ``chronological``: the crossers
    of earlier actions in crossing order, then any of the last action's."""
    pend = np.empty(RUNNERS, dtype=np.int64)
    n = pending_runners(S, pend)
    free, fixed = podium_slots(S, R)
    rows = np.zeros((1, MAX_PLACES), dtype=np.int64)
    if n == 0:
        return rows, 0
    if R[R_ORDER] == 1:
        last = S[S_CACT + pend[n - 1]]
        m = 0
        early = 0
        for i in range(n):
            if S[S_CACT + pend[i]] != last:
                rows[0, m] = pend[i]
                m += 1
                early += 1
        late = n - early
        k = min(free - fixed, late)
        if k < 0:
            k = 0
        count = 0
        pick = np.empty(RUNNERS, dtype=np.int64)
        out = np.zeros((64, MAX_PLACES), dtype=np.int64)
        # combinations of k of the late crossers, in crossing order
        for i in range(k):
            pick[i] = i
        while True:
            if count == out.shape[0]:
                out = grown(out, 2 * count)
            for j in range(early):
                out[count, j] = rows[0, j]
            for j in range(k):
                out[count, early + j] = pend[early + pick[j]]
            count += 1
            i = k - 1
            while i >= 0 and pick[i] == late - k + i:
                i -= 1
            if i < 0:
                break
            pick[i] += 1
            for j in range(i + 1, k):
                pick[j] = pick[j - 1] + 1
        return out[:count], min(early + k, free)
    k = min(free, n)
    by_runner = R[R_SURPLUS] == 1 and k < n
    out = np.zeros((64, MAX_PLACES), dtype=np.int64)
    count = 0
    taken = np.zeros(RUNNERS, dtype=np.int64)
    pick = np.full(MAX_PLACES, -1, dtype=np.int64)
    if k == 0:
        return rows, 0
    depth = 0
    while depth >= 0:
        if pick[depth] >= 0:
            taken[pick[depth]] = 0
        i = pick[depth] + 1
        while i < n:
            if taken[i] == 0:
                # the earliest untaken crosser of its clan stands for it, unless surplus
                # runners stay where they left (then which one stays matters)
                first = True
                for j in range(i if not by_runner else 0):
                    if taken[j] == 0 and pend[j] // 4 == pend[i] // 4:
                        first = False
                        break
                if first:
                    break
            i += 1
        if i >= n:
            pick[depth] = -1
            depth -= 1
            continue
        pick[depth] = i
        taken[i] = 1
        if depth == k - 1:
            if count == out.shape[0]:
                out = grown(out, 2 * count)
            for j in range(k):
                out[count, j] = pend[pick[j]]
            count += 1
        else:
            depth += 1
            pick[depth] = -1
    return out[:count], k


@njit(cache=True)
def _visit(kk, vals, index, n, S):
    """Add S to the visited set: (arrays, new count, whether it was new)."""
    a, b = keys(S)
    before = n
    kk, vals, index, n = add(kk, vals, index, n, a, b, 0.0)
    return kk, vals, index, n, n > before


@njit(cache=True)
def _store(paths, values, order, row, depth, acts, idx, k, wins, h, v, seq, crossed):
    """Write a stop's path into row ``row`` (grown if needed); ``order`` keeps the order
    stops were found in."""
    if row == paths.shape[0]:
        paths = grown(paths, 2 * row)
        values = grown(values, 2 * row)
        order = grown(order, 2 * row)
    paths[row, P_N] = depth
    for d in range(depth):
        for c in range(A_COLS):
            paths[row, P_ACT + d * A_COLS + c] = acts[d, idx[d] - 1, c]
    paths[row, P_K] = k
    for j in range(MAX_PLACES):
        paths[row, P_WIN + j] = wins[h, j] if j < k else -1
    paths[row, P_CROSSED] = crossed
    values[row] = v
    order[row] = seq
    return paths, values, order


@njit(cache=True)
def _best(paths, values, order, rows, keep):
    """Keep the best ``keep`` of the ``rows`` stops held (by value, then the order found),
    in the order found; returns how many are kept and the lowest value kept."""
    ranked = np.argsort(-values[:rows] * (1 << 32) + order[:rows], kind="mergesort")
    chosen = np.sort(ranked[:keep])
    for i in range(keep):
        j = chosen[i]
        copy_into(paths[i], paths[j])
        values[i] = values[j]
        order[i] = order[j]
    low = values[0]
    for i in range(keep):
        low = min(low, values[i])
    return keep, low


@njit(cache=True)
def search(S0, R, keep, budget):
    """Search every sequence of the state's remaining dice (the roll re-rolled or kept).

    ``keep`` > 0: one path row (``P_COLS``) and the mover's default evaluation per
    distinct end-of-turn position, in the order first found (canonical order), at most
    ``keep`` of them, the best by value (ties: found first) when there are more;
    ``keep`` = 0: only the best (row 0; ties: the first found). ``budget`` > 0: stop after
    expanding that many states.

    Returns (paths, values, rows, stops, best, complete): ``stops`` distinct end-of-turn
    positions (counted with ``keep`` > 0), ``best`` the best value, ``complete`` False if
    the budget ran out."""
    me = S0[S_TO_MOVE]
    states = np.empty((MAX_DICE + 2, S_SIZE), dtype=np.int64)
    acts = np.empty((MAX_DICE + 2, MAX_ACTIONS, A_COLS), dtype=np.int64)
    cnt = np.zeros(MAX_DICE + 2, dtype=np.int64)
    idx = np.zeros(MAX_DICE + 2, dtype=np.int64)
    nk, nv, ni = level(1024)
    nn = 0
    fk, fv, fi = level(1024 if keep > 0 else 1)
    fn = 0
    paths = np.zeros((64 if keep > 0 else 1, P_COLS), dtype=np.int16)
    values = np.zeros(paths.shape[0], dtype=np.int64)
    order = np.zeros(paths.shape[0], dtype=np.int64)
    rows = 0
    low = -(1 << 40)  # stops below this value are no longer kept (``keep`` reached)
    best = -(1 << 40)
    expanded = 0
    complete = True
    final = np.empty(S_SIZE, dtype=np.int64)
    none = np.full((1, MAX_PLACES), -1, dtype=np.int64)
    work = np.empty(WORK, dtype=np.int64)
    copy_into(states[0], S0)
    nk, nv, ni, nn, _ = _visit(nk, nv, ni, nn, states[0])
    depth = 0
    cnt[0] = legal_actions_into(states[0], R, acts[0], work)
    idx[0] = 0
    leaf_pending = True  # the state at ``depth`` has not been scored as a stop yet
    while depth >= 0:
        if leaf_pending:
            leaf_pending = False
            if cnt[depth] == 0 or R[R_MAND] == 0:
                here = states[depth]
                if here[S_NPEND] == 0:
                    wins = none
                    k = 0
                    n_ways = 1
                else:
                    wins, k = handouts(here, R)
                    n_ways = wins.shape[0]
                for h in range(n_ways):
                    if here[S_NPEND] == 0:
                        end = here
                    else:
                        copy_into(final, here)
                        hand_out(final, R, wins[h], k)
                        end = final
                    if keep > 0:  # the best alone needs no merging
                        a, b = position_keys(end)
                        before = fn
                        fk, fv, fi, fn = add(fk, fv, fi, fn, a, b, 0.0)
                        if fn == before:
                            continue
                    v = evaluation(end, R, me)
                    if keep > 0 and v >= low:
                        if rows == 2 * keep:  # the best half goes on
                            rows, low = _best(paths, values, order, rows, keep)
                        if v >= low:
                            paths, values, order = _store(paths, values, order, rows, depth,
                                                          acts, idx, k, wins, h, v, fn,
                                                          here[S_NPEND])
                            rows += 1
                    elif keep == 0 and v > best:
                        paths, values, order = _store(paths, values, order, 0, depth, acts,
                                                      idx, k, wins, h, v, 0, here[S_NPEND])
                        rows = 1
                    if v > best:
                        best = v
        if idx[depth] >= min(cnt[depth], MAX_ACTIONS):
            depth -= 1
            continue
        if budget > 0 and expanded >= budget:
            complete = False
            break
        a = acts[depth, idx[depth]]
        idx[depth] += 1
        expanded += 1
        copy_into(states[depth + 1], states[depth])
        apply_action(states[depth + 1], R, a)
        if states[depth + 1][S_NUSED] == R[R_NDICE]:
            cnt[depth + 1] = 0  # every die spent: a stop, found again only by another order
        else:
            nk, nv, ni, nn, new = _visit(nk, nv, ni, nn, states[depth + 1])
            if not new:
                continue
            cnt[depth + 1] = legal_actions_into(states[depth + 1], R, acts[depth + 1], work)
        depth += 1
        idx[depth] = 0
        leaf_pending = True
    if keep > 0 and rows > keep:
        rows, low = _best(paths, values, order, rows, keep)
    if keep > 0 and rows > 1:
        ranked = np.argsort(order[:rows], kind="mergesort")
        paths = paths[ranked]
        values = values[ranked]
    return paths[:rows], values[:rows], rows, fn, best, complete


@njit(cache=True)
def apply_path(S, R, path):
    """Play a path row (``search``) on S in place, ending the turn. Returns the number of
    runners that crossed during the turn, or -1 if a step or the podium hand-out is
    illegal (S is then part-played)."""
    for d in range(path[P_N]):
        a = np.empty(A_COLS, dtype=np.int64)
        for c in range(A_COLS):
            a[c] = path[P_ACT + d * A_COLS + c]
        if not action_legal(S, R, a):
            return -1
        apply_action(S, R, a)
    if R[R_MAND] == 1 and legal_actions_into(S, R, np.empty((1, A_COLS), dtype=np.int64),
                                             np.empty(WORK, dtype=np.int64)) > 0:
        return -1  # a die that can still be used must be (§4)
    wins = np.empty(MAX_PLACES, dtype=np.int64)
    k = path[P_K]
    if k < 0 or k > MAX_PLACES:
        return -1
    for j in range(MAX_PLACES):
        wins[j] = path[P_WIN + j]
    if not handout_legal(S, R, wins, k):
        return -1
    crossed = S[S_NPEND]
    hand_out(S, R, wins, k)
    return crossed


@njit(cache=True)
def handout_legal(S, R, wins, k):
    """``wins[:k]`` may take this turn's podium places (§7): as many as the rules hand
    out, distinct crossers of this turn, and with ``chronological`` order the earlier
    actions' crossers first in crossing order, then the last action's in crossing order."""
    if k != handout_size(S, R):
        return False
    last_order = -1
    last = -1
    for r in range(RUNNERS):
        if S[S_PLACE + r] == PENDING and S[S_CACT + r] > last:
            last = S[S_CACT + r]
    for j in range(k):
        r = wins[j]
        if r < 0 or r >= RUNNERS or S[S_PLACE + r] != PENDING:
            return False
        for i in range(j):
            if wins[i] == r:
                return False
        if R[R_ORDER] == 1:
            if S[S_CORD + r] < last_order:
                return False
            last_order = S[S_CORD + r]
    if R[R_ORDER] == 1:
        early = 0
        for r in range(RUNNERS):
            if S[S_PLACE + r] == PENDING and S[S_CACT + r] != last:
                early += 1
        for j in range(min(early, k)):
            if S[S_CACT + wins[j]] == last:
                return False
    return True


@njit(cache=True)
def handout_size(S, R):
    """How many of this turn's crossers take a place (§7)."""
    _, k = handouts(S, R)
    return k
