"""The arena's seats: a policy's decision taken on a state, its turn named by the sequence
``turns.search`` lists for the position it reaches (docs/games/kingdom-run.md §13.2,
§14, §18).

``search`` lists every distinct end-of-turn position once, under the first sequence in
canonical order that reaches it. ``first_path`` finds that sequence for one end position
without listing the others: the same depth-first search in canonical order (the same
merging of states reached twice), pruned where the target is out of reach, stopped at
the first stop that is the target (or, past a budget of states, the policy's own
sequence, as legal a name of the same turn). Out of reach: runners only move towards FINISH
(§5), so every clan's runners, sorted by space (off the track counting as beyond it; a
runner crossed this turn at the space it left where ``surplus_finishers=stay`` may send
it back), must stand at or behind the target's; a Steal only gives the mover tokens.
"""

import numpy as np
from ..arrays import copy_into
from ..jit import njit

from ..merge import level
from ..rng import reseed
from .actions import A_COLS, WORK, apply_action, hand_out, legal_actions_into
from .layout import (
    BATH, CATCHUP, CLANS, COPY, MAX_DICE, MAX_PLACES, PENDING, R_LIMIT, R_MAND, R_NDICE,
    R_SURPLUS, R_TWOEND, S_CFROM, S_LOC, S_NPEND, S_NUSED, S_PLACE, S_PLAYERS, S_SIZE,
    S_SLEEP, S_TO_MOVE, S_TOK, S_UCOUNT, SCATTER, SLEEPWAKE, STEAL, position_keys, remaining,
    rolled,
)
from .policies import F_SIZE, I_SIZE, keep_mask, play_actions
from .turns import (
    MAX_ACTIONS, P_ACT, P_COLS, P_CROSSED, P_K, P_N, P_WIN, _visit, apply_path, handouts,
)

BEYOND = 1 << 20  # a runner off the track, for the reach test


@njit(cache=True)
def _clan_spaces(S, c, stay, out):
    """The spaces of clan ``c``'s runners, sorted (``BEYOND`` off the track)."""
    for i in range(4):
        r = 4 * c + i
        s = S[S_LOC + r]
        if s < 0:
            s = S[S_CFROM + r] if stay and S[S_PLACE + r] == PENDING else BEYOND
        j = i
        while j > 0 and out[j - 1] > s:
            out[j] = out[j - 1]
            j -= 1
        out[j] = s


@njit(cache=True)
def _uses(S, R, kind):
    """At most how many more times action ``kind`` can be taken this turn: its dice and
    the Copies (where the roll shows it), within the per-action limit."""
    n = remaining(S, R, kind)
    if rolled(S, R, kind) > 0:
        n += remaining(S, R, COPY)
    return min(n, R[R_LIMIT] - S[S_UCOUNT + kind])


@njit(cache=True)
def _asleep(S, c):
    n = 0
    for r in range(4 * c, 4 * c + 4):
        if S[S_LOC + r] >= 0 and S[S_SLEEP + r] == 1:
            n += 1
    return n


@njit(cache=True)
def can_reach(S, E, R, a, b):
    """False when no end of the turn from ``S`` can be ``E`` (module docstring);
    ``a``, ``b``: scratch of 4."""
    stay = R[R_SURPLUS] == 1 and not (S[S_PLAYERS] == 2 and R[R_TWOEND] == 1)
    moved = 0  # runners that must still move
    sleeps = 0  # sleep/wake steps still needed
    for c in range(CLANS):
        _clan_spaces(S, c, stay, a)
        _clan_spaces(E, c, False, b)
        same = 0
        j = 0
        for i in range(4):
            if a[i] > b[i]:
                return False
            while j < 4 and b[j] < a[i]:
                j += 1
            if j < 4 and b[j] == a[i]:
                same += 1
                j += 1
        moved += 4 - same
        sleeps += abs(_asleep(S, c) - _asleep(E, c))
    if sleeps > _uses(S, R, SLEEPWAKE):
        return False
    if not stay and moved > 4 * _uses(S, R, SCATTER) + _uses(S, R, CATCHUP) + \
            _uses(S, R, BATH):
        return False
    me = S[S_TO_MOVE]
    gain = E[S_TOK + me] - S[S_TOK + me]
    if gain < 0 or gain > _uses(S, R, STEAL):
        return False
    for p in range(S[S_PLAYERS]):
        if p != me and S[S_TOK + p] < E[S_TOK + p]:
            return False
    return True


@njit(cache=True)
def _path(acts, idx, depth, wins, h, k, crossed):
    path = np.full(P_COLS, -1, dtype=np.int64)
    path[P_N] = depth
    for d in range(depth):
        for c in range(A_COLS):
            path[P_ACT + d * A_COLS + c] = acts[d, idx[d] - 1, c]
    path[P_K] = k
    for j in range(k):
        path[P_WIN + j] = wins[h, j]
    path[P_CROSSED] = crossed
    return path


@njit(cache=True)
def first_path(S0, R, E, budget):
    """The path row (``turns.P_COLS``) of the first sequence in canonical order from
    ``S0`` whose turn ends in the position of ``E`` (``layout.position_keys``), as
    ``turns.search`` labels it; ``P_N`` = -1 if none does within ``budget`` states
    expanded."""
    ta, tb = position_keys(E)
    states = np.empty((MAX_DICE + 2, S_SIZE), dtype=np.int64)
    acts = np.empty((MAX_DICE + 2, MAX_ACTIONS, A_COLS), dtype=np.int64)
    cnt = np.zeros(MAX_DICE + 2, dtype=np.int64)
    idx = np.zeros(MAX_DICE + 2, dtype=np.int64)
    nk, nv, ni = level(64)
    nn = 0
    final = np.empty(S_SIZE, dtype=np.int64)
    none = np.full((1, MAX_PLACES), -1, dtype=np.int64)
    work = np.empty(WORK, dtype=np.int64)
    sa = np.empty(4, dtype=np.int64)
    sb = np.empty(4, dtype=np.int64)
    states[0] = S0
    nk, nv, ni, nn, _ = _visit(nk, nv, ni, nn, states[0])
    depth = 0
    cnt[0] = legal_actions_into(states[0], R, acts[0], work)
    leaf_pending = True
    while depth >= 0:
        if leaf_pending:
            leaf_pending = False
            here = states[depth]
            if cnt[depth] == 0 or R[R_MAND] == 0:
                wins, k = none, 0
                if here[S_NPEND] > 0:
                    wins, k = handouts(here, R)
                for h in range(wins.shape[0]):
                    copy_into(final, here)
                    if here[S_NPEND] > 0:
                        hand_out(final, R, wins[h], k)
                    a, b = position_keys(final)
                    if a == ta and b == tb:
                        return _path(acts, idx, depth, wins, h, k, here[S_NPEND])
        if idx[depth] >= min(cnt[depth], MAX_ACTIONS):
            depth -= 1
            continue
        if budget == 0:
            break
        budget -= 1
        a = acts[depth, idx[depth]]
        idx[depth] += 1
        states[depth + 1] = states[depth]
        apply_action(states[depth + 1], R, a)
        if not can_reach(states[depth + 1], E, R, sa, sb):
            continue
        if states[depth + 1][S_NUSED] == R[R_NDICE]:
            cnt[depth + 1] = 0
        else:
            nk, nv, ni, nn, new = _visit(nk, nv, ni, nn, states[depth + 1])
            if not new:
                continue
            cnt[depth + 1] = legal_actions_into(states[depth + 1], R, acts[depth + 1], work)
        depth += 1
        idx[depth] = 0
        leaf_pending = True
    path = np.full(P_COLS, -1, dtype=np.int64)
    return path


@njit(cache=True)
def policy_keep(S, R, policy, seed):
    """The dice ``policy`` keeps of the roll (bitmask), its draws from stream (seed, 0)."""
    rng = np.empty(4, dtype=np.uint64)
    reseed(rng, seed, 0)
    return keep_mask(S, R, policy, rng, np.empty(I_SIZE, dtype=np.int64))


@njit(cache=True)
def policy_path(S, R, policy, seed, budget):
    """The rest of the turn ``policy`` plays on the re-rolled ``S`` (its draws from
    stream (seed, 0)) as ``first_path`` names it, and True; where that search takes more
    than ``budget`` states, the policy's own sequence (an equally legal name of the same
    turn) and False."""
    rng = np.empty(4, dtype=np.uint64)
    reseed(rng, seed, 0)
    W = S.copy()
    rows = np.empty((MAX_ACTIONS, A_COLS), dtype=np.int64)
    log = np.empty((MAX_DICE, A_COLS), dtype=np.int64)
    hand = np.empty(1 + MAX_PLACES, dtype=np.int64)
    n = play_actions(W, R, policy, rng, rows, log, hand, np.empty(I_SIZE, dtype=np.int64),
                     np.empty(F_SIZE, dtype=np.float64))
    path = first_path(S, R, W, budget)
    if path[P_N] >= 0:
        return path, True
    path[P_N] = n
    for d in range(n):
        for c in range(A_COLS):
            path[P_ACT + d * A_COLS + c] = log[d, c]
    path[P_K] = hand[0]
    for j in range(hand[0]):
        path[P_WIN + j] = hand[1 + j]
    path[P_CROSSED] = apply_path(S.copy(), R, path)
    return path, False
