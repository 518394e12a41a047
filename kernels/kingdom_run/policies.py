"""How a seat plays a turn: which dice to roll again, then which action each die takes
(docs/games/kingdom-run.md §14).

- ``heuristic`` (the default): re-roll the dice that have no use (no legal target for
  their action, a Copy with nothing to copy, or beyond the per-action limit); then, one
  die at a time, the action that most raises the *progress value* ``V`` of §14 (ties: the
  first in canonical order), and the podium places to the best of ``V``.
- ``greedy``: the same re-roll, then one die at a time the action after which the
  default evaluation is best (the podium places too; ties: canonical order). The best
  whole sequence (``turns.search``) can take seconds in a crowded position; ``advise``
  lists it.
- ``random``: each die rolled again with chance 1/2; then each step a uniformly random
  legal action (``actions.legal_actions``: one per distinct effect), and a uniformly
  random way to hand out the podium places.

``V`` = sum over runners of ``weight(clan) * value(runner)`` + ``weight * token points``,
weight +1 for the mover's clan, -1/(players-1) for another player's, 0 for a neutral
clan; value on space s: its score there + ``H_PROG`` * s - ``H_LAKE`` in a lake -
``H_SLEEP`` asleep; a runner crossing: the place it would take (0 if none is free) +
``H_PROG`` * spaces.

Speed (whole games, docs/benchmarks.md): numba counts the references to each array a
function takes (atomic operations, at its entry and where the array dies) unless its
pruning pass removes them, which it does only when every array dies in one place (a
block that every path reaches) and nothing is called that is not inlined (a call's
error return is another way out). ``heuristic_step`` (with all it inlines) and
``actions.apply_action`` run for every die and are written so: arrays read before the
branches on what was read, one return, no division checks, scratch indexed rather than
sliced into views. ``keep_mask`` and ``actions.hand_out`` (once a turn) are pruned too;
``play_actions`` is not (it calls functions LLVM does not inline) and pays its arrays'
counts once a turn. A function can grow past what the pruning pass walks: check the
disassembly for ``NRT_incref`` after growing one (docs/benchmarks.md, fifth session).
"""

import numpy as np
from ..arrays import copy_into
from ..jit import njit

from ..rng import below
from .actions import (
    A_COLS, A_FACE, A_K, A_R, A_TARGET, A_TYPE, apply_action, can_sleepwake, can_steal,
    hand_out, legal_actions,
)
from .layout import (
    BATH, CATCHUP, COPY, MAX_PLACES, MAX_PLAYERS, MAX_SPACES, N_FACES, R_CAP, R_LAKE,
    R_LIMIT, R_NDICE, R_NEXTLAKE, R_NPLACES, R_NSP, R_PODV, R_SCOREV, R_TOKV, RUNNERS,
    S_CLAN, S_HAS_ROLL, S_LOC, S_NPEND, S_NPOD, S_OCC, S_PLAYERS, S_ROLL, S_SLEEP,
    S_TO_MOVE, S_UCOUNT, S_USED, SCATTER, SLEEPWAKE, STEAL, ended, evaluation, score,
)
from .turns import MAX_ACTIONS, handouts

HEURISTIC, GREEDY, RANDOM = 0, 1, 2
POLICY_NAMES = ("heuristic", "greedy", "random")
H_PROG = 0.25
H_LAKE = 1.5
H_SLEEP = 1.5
W_SIZE = 64  # the work array: weights of the clans, then scratch


# ------------------------------------------------------------------ the progress value
@njit(cache=True)
def set_weights(S, fw):
    """fw[F_W + c]: +1 the mover's clan, -1/(players-1) another player's, 0 neutral."""
    n = S[S_PLAYERS]
    other = -1.0 / max(n - 1, 1)  # n >= 2; max: no division-by-zero check to unwind
    for c in range(4):
        fw[F_W + c] = 0.0
    for p in range(n):
        fw[F_W + S[S_CLAN + p]] = other
    fw[F_W + S[S_CLAN + S[S_TO_MOVE]]] = 1.0


@njit(cache=True, inline="always")
def _space_value(R, s, asleep):
    return R[R_SCOREV + s] + H_PROG * s - H_LAKE * R[R_LAKE + s] - H_SLEEP * asleep


@njit(cache=True, inline="always")
def _cross_value(S, R, extra):
    """A runner crossing now, ``extra`` others having crossed before it in this action."""
    place = S[S_NPOD] + S[S_NPEND] + extra
    podium = R[R_PODV + min(place, MAX_PLACES - 1)]  # read before the test (speed)
    return H_PROG * R[R_NSP] + (podium if place < R[R_NPLACES] else 0)


@njit(cache=True)
def _landing(S, R, dest):
    """Where a runner put on ``dest`` ends (overflow, §5); -1 beyond the track."""
    s = dest
    while s < R[R_NSP] and S[S_OCC + s] >= R[R_CAP]:
        s += 1
    return s if s < R[R_NSP] else -1


@njit(cache=True)
def _to_value(S, R, dest, asleep):
    s = _landing(S, R, dest)
    cross = _cross_value(S, R, 0)
    here = _space_value(R, max(s, 0), asleep)
    return cross if s < 0 else here


@njit(cache=True)
def _ahead(S, R, s):
    for j in range(s + 1, R[R_NSP]):
        if S[S_OCC + j] > 0:
            return j
    return R[R_NSP]


# ------------------------------------------------------------------ best single action
# the heuristic's scratch (int64): runners of a space, drop order, the nearest occupied
# space ahead of each space, whether a runner is off the track, the dice left
I_AW = 0
I_ORD = I_AW + RUNNERS
I_NEXT = I_ORD + 4
I_OFF = I_NEXT + MAX_SPACES
I_REM = I_OFF + 1
I_ALL = I_REM + N_FACES
I_SORT = I_ALL + N_FACES      # awake runners off lakes, by space (stable)
I_NSORT = I_SORT + RUNNERS
I_KEY = I_NSORT + 1           # the counting sort: each runner's space (or none), each
I_AT = I_KEY + RUNNERS        # space's runners, then where its next one goes
I_ROW = I_AT + MAX_SPACES + 1  # the chosen action
I_KEPT = I_ROW + A_COLS       # re-roll: dice kept of each action, whether it has a use
I_USEFUL = I_KEPT + N_FACES
I_SIZE = I_USEFUL + N_FACES
F_W = 0                       # float scratch: the clans' weights, the drop values
F_DV = 4
F_SIZE = 8


@njit(cache=True, inline="always")
def _sort_awake(S, R, iw):
    """What a Scatter reads: the awake runners off lakes by space, then number
    (``I_SORT``). A counting sort without branches: the other runners go to a last
    bucket (``n``), after them."""
    n = R[R_NSP]
    for s in range(n + 1):
        iw[I_AT + s] = 0
    m = 0
    for r in range(RUNNERS):
        s = S[S_LOC + r]
        up = (s >= 0) & (S[S_SLEEP + r] == 0) & (R[R_LAKE + max(s, 0)] == 0)
        key = s if up else n
        iw[I_KEY + r] = key
        iw[I_AT + key] += 1
        m += up
    at = 0
    for s in range(n + 1):
        count = iw[I_AT + s]
        iw[I_AT + s] = at
        at += count
    for r in range(RUNNERS):
        key = iw[I_KEY + r]
        iw[I_SORT + iw[I_AT + key]] = r
        iw[I_AT + key] += 1
    iw[I_NSORT] = m


@njit(cache=True, inline="always")
def _set_ahead(S, R, iw):
    """What a Catch-up reads: the nearest occupied space ahead of each space
    (``I_NEXT``, -1 none) and whether a runner is off the track (``I_OFF``)."""
    nearest = -1
    for s in range(R[R_NSP] - 1, -1, -1):
        iw[I_NEXT + s] = nearest
        if S[S_OCC + s] > 0:
            nearest = s
    off = 0
    for r in range(RUNNERS):
        off |= S[S_LOC + r] < 0
    iw[I_OFF] = off


@njit(cache=True, inline="always")
def _best_scatter(S, R, face, best, iw, fw):
    """The best Scatter (by V) into the chosen action (``I_ROW``) if it beats ``best``;
    returns the best."""
    at = 0
    total = iw[I_NSORT]
    while at < total:
        s = S[S_LOC + iw[I_SORT + at]]
        m = 0
        while at < total and S[S_LOC + iw[I_SORT + at]] == s:
            r = iw[I_SORT + at]
            at += 1
            # insertion by weight, highest first (stable: lower ids first)
            j = m
            while j > 0 and fw[F_W + iw[I_AW + j - 1] // 4] < fw[F_W + r // 4]:
                iw[I_AW + j] = iw[I_AW + j - 1]
                j -= 1
            iw[I_AW + j] = r
            m += 1
        here = _space_value(R, s, 0)
        # the drop spaces of a Scatter of 4, in order
        prev = s
        crossed = 0
        for i in range(min(4, m)):
            d = -1 if prev < 0 else _landing(S, R, prev + 1)
            if d < 0:
                fw[F_DV + i] = _cross_value(S, R, crossed)
                crossed += 1
            else:
                fw[F_DV + i] = _space_value(R, d, 0)
            prev = d
        for k in range(1, min(4, m) + 1):
            # the k heaviest runners; the heaviest to the best of the k drop spaces: drop
            # index k - 1 inserted among the first k - 1 by value, best first (stable)
            j = k - 1
            while j > 0 and fw[F_DV + iw[I_ORD + j - 1]] < fw[F_DV + k - 1]:
                iw[I_ORD + j] = iw[I_ORD + j - 1]
                j -= 1
            iw[I_ORD + j] = k - 1
            v = 0.0
            for i in range(k):
                v += fw[F_W + iw[I_AW + i] // 4] * (fw[F_DV + iw[I_ORD + i]] - here)
            if v > best + 1e-9:
                best = v
                iw[I_ROW + A_FACE] = face
                iw[I_ROW + A_TYPE] = SCATTER
                iw[I_ROW + A_TARGET] = s
                iw[I_ROW + A_K] = k
                for i in range(k):
                    iw[I_ROW + A_R + iw[I_ORD + i]] = iw[I_AW + i]
    return best


@njit(cache=True, inline="always")
def _best_runner_action(S, R, face, kind, best, iw, fw):
    """The best Catch-up, Bath or Sleep/Wake (by V) into the chosen action if it beats
    ``best``."""
    for r in range(RUNNERS):
        s = S[S_LOC + r]
        if s < 0:
            continue
        asleep = S[S_SLEEP + r]
        if kind == CATCHUP:
            ahead = iw[I_NEXT + s]
            if asleep == 1 or R[R_LAKE + s] == 1 or (ahead < 0 and iw[I_OFF] == 0):
                continue
            v = _to_value(S, R, ahead if ahead >= 0 else R[R_NSP], 0) - _space_value(R, s, 0)
        elif kind == BATH:
            if asleep == 1 or (R[R_LAKE + s] == 0 and R[R_NEXTLAKE + s] < 0):
                continue
            dest = s + 1 if R[R_LAKE + s] == 1 else R[R_NEXTLAKE + s]
            v = _to_value(S, R, dest, 0) - _space_value(R, s, 0)
        else:
            if not can_sleepwake(S, r):
                continue
            v = _space_value(R, s, 1 - asleep) - _space_value(R, s, asleep)
        v *= fw[F_W + r // 4]
        if v > best + 1e-9:
            best = v
            iw[I_ROW + A_FACE] = face
            iw[I_ROW + A_TYPE] = kind
            iw[I_ROW + A_TARGET] = r
            iw[I_ROW + A_K] = 0
    return best


@njit(cache=True)
def heuristic_step(S, R, iw, fw):
    """The heuristic's next action into ``iw[I_ROW:]`` (the clans' weights set in
    ``fw``) in a game not ended, the dice rolled; False when no die has a legal use.
    One return, nothing called that is not inlined: its arrays' reference counts are
    pruned (module docstring, speed)."""
    for f in range(N_FACES):
        iw[I_REM + f] = 0
        iw[I_ALL + f] = 0
    for d in range(R[R_NDICE]):
        f = S[S_ROLL + d]
        iw[I_ALL + f] += 1
        if not (S[S_USED] >> d) & 1:
            iw[I_REM + f] += 1
    best = -1e18
    for kind in range(COPY):
        if S[S_UCOUNT + kind] >= R[R_LIMIT]:
            continue
        if iw[I_REM + kind] > 0:
            face = kind
        elif iw[I_REM + COPY] > 0 and iw[I_ALL + kind] > 0:
            face = COPY
        else:
            continue
        if kind == SCATTER:
            _sort_awake(S, R, iw)
            best = _best_scatter(S, R, face, best, iw, fw)
        elif kind == STEAL:
            top = -1
            top_score = 0
            for p in range(S[S_PLAYERS]):
                if can_steal(S, p):
                    sc = score(S, R, p)
                    if top < 0 or sc > top_score:
                        top = p
                        top_score = sc
            if top >= 0:
                v = R[R_TOKV] * (1.0 - fw[F_W + S[S_CLAN + top]])
                if v > best + 1e-9:
                    best = v
                    iw[I_ROW + A_FACE] = face
                    iw[I_ROW + A_TYPE] = STEAL
                    iw[I_ROW + A_TARGET] = top
                    iw[I_ROW + A_K] = 0
        else:
            if kind == CATCHUP:
                _set_ahead(S, R, iw)
            best = _best_runner_action(S, R, face, kind, best, iw, fw)
    return best > -1e18


@njit(cache=True)
def heuristic_handout(S, R, fw, wins, k):
    """The way to hand out the podium places (a row of ``wins``) best by V (the clans'
    weights in ``fw``)."""
    best = 0
    top = -1e18
    for h in range(wins.shape[0]):
        v = 0.0
        for j in range(k):
            v += fw[F_W + wins[h, j] // 4] * R[R_PODV + S[S_NPOD] + j]
        if v > top + 1e-9:
            top = v
            best = h
    return best


# ------------------------------------------------------------------ greedy
@njit(cache=True)
def best_handout(S, R, wins, k):
    """The way to hand out the podium places (a row of ``wins``) with the best default
    evaluation for the mover (ties: the first)."""
    me = S[S_TO_MOVE]
    best = 0
    top = -(1 << 40)
    W = np.empty_like(S)
    for h in range(wins.shape[0]):
        copy_into(W, S)
        hand_out(W, R, wins[h], k)
        v = evaluation(W, R, me)
        if v > top:
            top = v
            best = h
    return best


@njit(cache=True)
def settled_evaluation(S, R, me):
    """The default evaluation of a state mid-turn, this turn's crossers given their
    places as best for the mover."""
    if S[S_NPEND] == 0:
        return evaluation(S, R, me)
    wins, k = handouts(S, R)
    W = S.copy()
    hand_out(W, R, wins[best_handout(S, R, wins, k)], k)
    return evaluation(W, R, me)


@njit(cache=True)
def greedy_step(S, R, rows, row):
    """Greedy's next action into ``row``: the legal action after which the default
    evaluation is best (ties: canonical order); False when no die has a legal use."""
    m = min(legal_actions(S, R, rows), rows.shape[0])
    if m == 0:
        return False
    me = S[S_TO_MOVE]
    W = np.empty_like(S)
    best = -(1 << 40)
    for i in range(m):
        copy_into(W, S)
        apply_action(W, R, rows[i])
        v = settled_evaluation(W, R, me)
        if v > best:
            best = v
            for c in range(A_COLS):
                row[c] = rows[i, c]
    return True


@njit(cache=True, inline="always")
def greedy_value(S, R):
    """The default evaluation after greedy spends the state's dice and ends the turn."""
    W = S.copy()
    rows = np.empty((MAX_ACTIONS, A_COLS), dtype=np.int64)
    row = np.zeros(A_COLS, dtype=np.int64)
    me = W[S_TO_MOVE]
    while greedy_step(W, R, rows, row):
        apply_action(W, R, row)
    return settled_evaluation(W, R, me)


# ------------------------------------------------------------------ re-rolls
@njit(cache=True, inline="always")
def set_useful(S, R, iw):
    """iw[I_USEFUL + kind]: 1 where action ``kind`` has a legal target now (dice and limits
    aside; ``actions.can_catchup``, ``can_bath``, ``can_sleepwake``, ``can_steal`` over
    every target in one pass), 0 for Copy."""
    last = -1  # the farthest space with a runner: a Catch-up from behind it has a target
    off = 0  # a runner is off the track
    awake = 0  # awake runners on the track, 4 bits a clan
    for r in range(RUNNERS):
        s = S[S_LOC + r]
        if s < 0:
            off = 1
        elif S[S_SLEEP + r] == 0:
            awake += 1 << (4 * (r // 4))
        last = max(last, s)
    scatter = catchup = bath = sleepwake = steal = False
    for r in range(RUNNERS):
        s = S[S_LOC + r]
        if s < 0:
            continue
        lake = R[R_LAKE + s] == 1
        if S[S_SLEEP + r] == 1:
            sleepwake = True
            continue
        scatter |= not lake
        catchup |= not lake and (s < last or off == 1)
        bath |= lake or R[R_NEXTLAKE + s] >= 0
        sleepwake |= ((awake >> (4 * (r // 4))) & 15) >= 2
    players = S[S_PLAYERS]
    for p in range(MAX_PLAYERS):
        if p < players:
            steal |= can_steal(S, p)
    iw[I_USEFUL + SCATTER] = scatter
    iw[I_USEFUL + CATCHUP] = catchup
    iw[I_USEFUL + BATH] = bath
    iw[I_USEFUL + STEAL] = steal
    iw[I_USEFUL + SLEEPWAKE] = sleepwake
    iw[I_USEFUL + COPY] = 0


@njit(cache=True, inline="always")
def heuristic_keep(S, R, iw):
    """The dice the heuristic keeps (bitmask): a die is rolled again if its action has no
    target (``set_useful`` first), it is a Copy with nothing worth copying, or the roll
    already holds ``per_action_limit`` dice of its action."""
    for kind in range(N_FACES):
        iw[I_KEPT + kind] = 0
    mask = 0
    for d in range(R[R_NDICE]):
        f = S[S_ROLL + d]
        if f != COPY and iw[I_USEFUL + f] and iw[I_KEPT + f] < R[R_LIMIT]:
            iw[I_KEPT + f] += 1
            mask |= 1 << d
    for d in range(R[R_NDICE]):
        if S[S_ROLL + d] == COPY:
            for kind in range(COPY):
                if iw[I_USEFUL + kind] and 0 < iw[I_KEPT + kind] < R[R_LIMIT]:
                    iw[I_KEPT + kind] += 1
                    mask |= 1 << d
                    break
    return mask


@njit(cache=True)
def keep_mask(S, R, policy, rng, iw):
    """The dice ``policy`` keeps (bitmask over the roll's dice); ``iw``: scratch
    (``I_SIZE``). The heuristic's mask is found for every policy and the random draws
    made in a loop of no turns for the others: no branch on the policy where an array is
    last used (speed, module docstring)."""
    dice = R[R_NDICE]
    set_useful(S, R, iw)
    mask = heuristic_keep(S, R, iw)
    drawn = 0
    for d in range(dice if policy == RANDOM else 0):
        if below(rng, 2) == 0:
            drawn |= 1 << d
    return drawn if policy == RANDOM else mask


@njit(cache=True)
def play_actions(S, R, policy, rng, rows, log, hand, iw, fw):
    """Resolve the (re-rolled) dice by ``policy`` and end the turn; each action's row goes
    to ``log`` (as far as it has room), how many runners take this turn's podium places
    to ``hand[0]`` and who, in place order, to ``hand[1:]``; ``iw``, ``fw``: scratch
    (``I_SIZE`` int64, ``F_SIZE`` float64). Returns the number of actions."""
    n = 0
    row = iw[I_ROW:I_ROW + A_COLS]
    set_weights(S, fw)  # the mover's: the same all turn
    while True:
        if policy == RANDOM:
            m = legal_actions(S, R, rows)
            if m == 0:
                break
            i = below(rng, min(m, rows.shape[0]))
            for c in range(A_COLS):
                row[c] = rows[i, c]
        elif policy == GREEDY:
            if not greedy_step(S, R, rows, row):
                break
        else:
            if S[S_HAS_ROLL] == 0 or ended(S, R) or not heuristic_step(S, R, iw, fw):
                break
        if n < log.shape[0]:  # the runner columns a Scatter leaves unused: -1
            for c in range(A_COLS):
                log[n, c] = row[c] if c < A_R + row[A_K] else -1
        apply_action(S, R, row)
        n += 1
    if S[S_NPEND] == 0:
        hand[0] = 0
        hand_out(S, R, hand, 0)  # no winners: ``hand`` is not read
        return n
    wins, k = handouts(S, R)
    h = 0
    if policy == RANDOM:
        h = below(rng, wins.shape[0])
    elif policy == GREEDY:
        h = best_handout(S, R, wins, k)
    elif wins.shape[0] > 1:
        h = heuristic_handout(S, R, fw, wins, k)
    hand[0] = k
    for j in range(k):
        hand[1 + j] = wins[h, j]
    hand_out(S, R, wins[h], k)
    return n
