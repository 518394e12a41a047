"""One die's action: the legal ones of a state in canonical order, their effect, and the
end of a turn (docs/games/kingdom-run.md §4-§8).

An action is a row of ``A_COLS`` int64: the die face spent (``COPY`` for a Copy), the
action type, its target (source space for Scatter, runner for Catch-up, Bath and
Sleep/Wake, player for Steal), and for Scatter the number of runners and the runners in
drop order (0 runners for the others); runner columns past that number hold -1. Runners of a clan are identical pieces (§13): ``legal_actions`` lists one
action per distinct effect (the lowest-numbered of interchangeable runners, same-clan
runners of a Scatter in number order); ``action_legal`` accepts any runner.
"""

import numpy as np
from ..jit import njit

from .layout import (
    BATH, CATCHUP, COPY, MAX_SPACES, N_FACES, NO_PLACE, OFF, OUT, PENDING, R_CAP, R_LAKE,
    R_LIMIT, R_NDICE, R_NEXTLAKE, R_NPLACES, R_NSP, R_ORDER, R_SURPLUS, R_TWOEND, RUNNERS, S_CACT,
    S_CFROM, S_CORD, S_HAS_ROLL, S_LOC, S_NPEND, S_NPOD, S_NUSED, S_OCC, S_OVER,
    S_PLACE, S_PLAYERS, S_REROLLED, S_ROLL, S_SLEEP, S_TO_MOVE, S_TOK, S_UCOUNT, S_USED,
    SCATTER, SLEEPWAKE, STEAL, anyone_off, awake_on_track, ended, finished, insert_by_space,
    remaining, rolled,
)

A_FACE, A_TYPE, A_TARGET, A_K, A_R = 0, 1, 2, 3, 4
A_COLS = 8
MAX_SCATTER = 4  # runners one Scatter picks up (§6.1)
# scratch of legal_actions_into: Scatter's, the remaining dice, then ``_prepare``'s
W_REM = 3 * RUNNERS
W_ORDER = W_REM + N_FACES
W_NORDER = W_ORDER + RUNNERS
W_OFF = W_NORDER + 1
W_AWAKE = W_OFF + 1
W_NEXT = W_AWAKE + 4
WORK = W_NEXT + MAX_SPACES


# ------------------------------------------------------------------ movement (§5)
@njit(cache=True, inline="always")
def _lift(S, r):
    s = S[S_LOC + r]
    S[S_OCC + s] -= 1
    S[S_LOC + r] = OFF
    return s


@njit(cache=True)
def _cross(S, r, src):
    """Runner r (lifted from ``src``) crosses the line: pending until the turn ends (§7)."""
    S[S_PLACE + r] = PENDING
    S[S_CACT + r] = S[S_NUSED] - 1
    S[S_CFROM + r] = src
    S[S_CORD + r] = S[S_NPEND]
    S[S_NPEND] += 1


@njit(cache=True)
def _put(S, R, r, dest, src):
    """Put the lifted runner r on ``dest`` or, if full, the next space with room (§5
    overflow); past the last space it crosses. Returns the space, or -1 if it crossed."""
    s = dest
    n = R[R_NSP]
    cap = R[R_CAP]
    while s < n and S[S_OCC + s] >= cap:
        s += 1
    crossed = s >= n
    if crossed:
        _cross(S, r, src)
    else:
        S[S_LOC + r] = s
        S[S_OCC + s] += 1
    return -1 if crossed else s


@njit(cache=True)
def _ahead(S, R, s):
    """The nearest occupied space ahead of s, or -1."""
    n = R[R_NSP]
    for j in range(s + 1, n):
        if S[S_OCC + j] > 0:
            return j
    return -1


# ------------------------------------------------------------------ legality
@njit(cache=True)
def can_catchup(S, R, r):
    s = S[S_LOC + r]
    return (s >= 0 and S[S_SLEEP + r] == 0 and R[R_LAKE + s] == 0
            and (_ahead(S, R, s) >= 0 or anyone_off(S)))


@njit(cache=True)
def can_bath(S, R, r):
    s = S[S_LOC + r]
    return s >= 0 and S[S_SLEEP + r] == 0 and (R[R_LAKE + s] == 1 or R[R_NEXTLAKE + s] >= 0)


@njit(cache=True)
def can_sleepwake(S, r):
    s = S[S_LOC + r]
    asleep = S[S_SLEEP + r]
    awake = awake_on_track(S, r // 4)
    return s >= 0 and (asleep == 1 or awake >= 2)


@njit(cache=True)
def can_steal(S, p):
    """Player p (< ``MAX_PLAYERS``) may be stolen from."""
    mover = S[S_TO_MOVE]
    players = S[S_PLAYERS]
    tokens = S[S_TOK + p]
    done = finished(S, p)
    return p != mover and p < players and tokens > 0 and not done


@njit(cache=True)
def face_allows(S, R, face, kind):
    """An unused die showing ``face`` may be spent as action ``kind`` now (§4, §6.6): the
    limit, and a Copy only as an action shown by another die of the roll none of whose
    dice is left unused (a Copy never displaces a real die)."""
    if S[S_HAS_ROLL] == 0 or S[S_OVER] == 1 or ended(S, R) or remaining(S, R, face) == 0:
        return False
    if kind == COPY or S[S_UCOUNT + kind] >= R[R_LIMIT]:
        return False
    if face == COPY:
        return rolled(S, R, kind) > 0 and remaining(S, R, kind) == 0
    return face == kind


@njit(cache=True)
def _row(out, n, face, kind, target):
    if n < out.shape[0]:
        out[n, A_FACE] = face
        out[n, A_TYPE] = kind
        out[n, A_TARGET] = target
        out[n, A_K] = 0
        for t in range(MAX_SCATTER):
            out[n, A_R + t] = -1
    return n + 1


@njit(cache=True)
def _scatter_rows(S, R, face, s, out, n, work):
    """Every distinct Scatter from space s: 1..4 awake runners in every drop order, one
    row per sequence of clans (§6.1, §13). ``work``: scratch of 3 * RUNNERS."""
    m = 0
    for r in range(RUNNERS):
        if S[S_LOC + r] == s and S[S_SLEEP + r] == 0:
            work[m] = r
            m += 1
    if m == 0:
        return n
    U = RUNNERS       # work[U + i]: aw[i] picked
    P = 2 * RUNNERS   # work[P + depth]: the index picked at that depth
    for j in range(m):
        work[U + j] = 0
    for k in range(1, min(MAX_SCATTER, m) + 1):
        # ordered k-permutations by index, lexicographic; a runner may follow only if
        # every lower-numbered awake runner of its clan here is already picked
        depth = 0
        work[P] = -1
        while depth >= 0:
            if work[P + depth] >= 0:
                work[U + work[P + depth]] = 0
            i = work[P + depth] + 1
            while i < m:
                if work[U + i] == 0:
                    ok = True
                    for j in range(i):
                        if work[U + j] == 0 and work[j] // 4 == work[i] // 4:
                            ok = False
                            break
                    if ok:
                        break
                i += 1
            if i >= m:
                depth -= 1
                continue
            work[P + depth] = i
            work[U + i] = 1
            if depth == k - 1:
                if n < out.shape[0]:
                    out[n, A_FACE] = face
                    out[n, A_TYPE] = SCATTER
                    out[n, A_TARGET] = s
                    out[n, A_K] = k
                    for t in range(MAX_SCATTER):
                        out[n, A_R + t] = work[work[P + t]] if t < k else -1
                n += 1
            else:
                depth += 1
                work[P + depth] = -1
    return n


@njit(cache=True)
def _targets(S, R, face, kind, out, n, work):
    """The rows of action ``kind`` spent from a die showing ``face`` (``work`` as set by
    ``legal_actions_into``)."""
    if kind == SCATTER:
        for s in range(R[R_NSP]):
            if R[R_LAKE + s] == 0 and S[S_OCC + s] > 0:
                n = _scatter_rows(S, R, face, s, out, n, work)
    elif kind == STEAL:
        for p in range(S[S_PLAYERS]):
            if can_steal(S, p):
                n = _row(out, n, face, kind, p)
    else:
        order = work[W_ORDER:]
        off = work[W_OFF]
        for i in range(work[W_NORDER]):
            r = order[i]
            s = S[S_LOC + r]
            # a lower-numbered runner of the clan here in the same state acts the same
            if i > 0 and order[i - 1] // 4 == r // 4 and S[S_LOC + order[i - 1]] == s:
                twin = False
                j = i - 1
                while j >= 0 and order[j] // 4 == r // 4 and S[S_LOC + order[j]] == s:
                    if S[S_SLEEP + order[j]] == S[S_SLEEP + r]:
                        twin = True
                        break
                    j -= 1
                if twin:
                    continue
            asleep = S[S_SLEEP + r]
            if kind == CATCHUP:
                ok = asleep == 0 and R[R_LAKE + s] == 0 and (work[W_NEXT + s] >= 0 or off)
            elif kind == BATH:
                ok = asleep == 0 and (R[R_LAKE + s] == 1 or R[R_NEXTLAKE + s] >= 0)
            else:
                ok = asleep == 1 or work[W_AWAKE + r // 4] >= 2
            if ok:
                n = _row(out, n, face, kind, r)
    return n


@njit(cache=True)
def legal_actions(S, R, out):
    """The legal actions of the state's remaining dice into ``out`` (rows), in canonical
    order: faces in face order, a Copy's actions in face order, targets by space then
    runner (§13). Returns how many there are (rows past ``out``'s end are counted, not
    written)."""
    return legal_actions_into(S, R, out, np.empty(WORK, dtype=np.int64))


@njit(cache=True)
def _prepare(S, R, work):
    """What the runner actions' legality reads, once per state: the runners on the track
    by space then number, the nearest occupied space ahead of each space, whether a
    runner is off the track, and the awake runners of each clan."""
    m = 0
    off = 0
    for c in range(4):
        work[W_AWAKE + c] = 0
    for r in range(RUNNERS):
        s = S[S_LOC + r]
        if s < 0:
            off = 1
            continue
        if S[S_SLEEP + r] == 0:
            work[W_AWAKE + r // 4] += 1
        m = insert_by_space(S, work, W_ORDER, m, r)
    work[W_NORDER] = m
    work[W_OFF] = off
    nearest = -1
    for s in range(R[R_NSP] - 1, -1, -1):
        work[W_NEXT + s] = nearest
        if S[S_OCC + s] > 0:
            nearest = s


@njit(cache=True)
def legal_actions_into(S, R, out, work):
    """``legal_actions`` with scratch ``work`` (``WORK`` int64)."""
    n = 0
    if S[S_HAS_ROLL] == 0 or S[S_OVER] == 1 or ended(S, R):
        return 0
    rem = work[W_REM:]
    for f in range(N_FACES):
        rem[f] = 0
    _prepare(S, R, work)
    for d in range(R[R_NDICE]):
        if not (S[S_USED] >> d) & 1:
            rem[S[S_ROLL + d]] += 1
    for face in range(N_FACES):
        if rem[face] == 0:
            continue
        if face == COPY:
            for kind in range(COPY):
                if rem[kind] == 0 and S[S_UCOUNT + kind] < R[R_LIMIT] and \
                        rolled(S, R, kind) > 0:
                    n = _targets(S, R, COPY, kind, out, n, work)
        elif S[S_UCOUNT + face] < R[R_LIMIT]:
            n = _targets(S, R, face, face, out, n, work)
    return n


@njit(cache=True)
def action_legal(S, R, a):
    """Action row ``a`` may be taken now (any runners, not only the canonical ones)."""
    face, kind, t = a[A_FACE], a[A_TYPE], a[A_TARGET]
    if face < 0 or face >= N_FACES or kind < 0 or kind >= COPY:
        return False
    if not face_allows(S, R, face, kind):
        return False
    if kind == STEAL:
        return 0 <= t < S[S_PLAYERS] and can_steal(S, t)
    if kind == SCATTER:
        k = a[A_K]
        if t < 0 or t >= R[R_NSP] or R[R_LAKE + t] == 1 or k < 1 or k > MAX_SCATTER:
            return False
        for i in range(k):
            r = a[A_R + i]
            if r < 0 or r >= RUNNERS or S[S_LOC + r] != t or S[S_SLEEP + r] == 1:
                return False
            for j in range(i):
                if a[A_R + j] == r:
                    return False
        return True
    if t < 0 or t >= RUNNERS:
        return False
    if kind == CATCHUP:
        return can_catchup(S, R, t)
    if kind == BATH:
        return can_bath(S, R, t)
    return can_sleepwake(S, t)


# ------------------------------------------------------------------ effects
@njit(cache=True)
def apply_action(S, R, a):
    """Resolve one die (a legal action row) in place (§6); crossers wait as pending.
    Every path ends in the same loop (the die marked used, last) where each array is used
    for the last time: numba's reference counts on them are pruned (they are only when
    the arrays die together)."""
    kind, t = a[A_TYPE], a[A_TARGET]
    S[S_UCOUNT + kind] += 1
    S[S_NUSED] += 1
    k = a[A_K] if kind == SCATTER else 0
    for i in range(k):
        _lift(S, a[A_R + i])
    prev = t
    for i in range(k):
        r = a[A_R + i]
        if prev < 0:  # an earlier runner crossed: the later ones cross too
            _cross(S, r, t)
        else:
            prev = _put(S, R, r, prev + 1, t)
    if kind == CATCHUP:
        s = _lift(S, t)
        j = _ahead(S, R, s)
        if j >= 0:
            _put(S, R, t, j, s)
        else:
            _cross(S, t, s)
    elif kind == BATH:
        s = _lift(S, t)
        if R[R_LAKE + s] == 1:
            _put(S, R, t, s + 1, s)
        else:
            _put(S, R, t, R[R_NEXTLAKE + s], s)
    elif kind == STEAL:
        S[S_TOK + t] -= 1
        S[S_TOK + S[S_TO_MOVE]] += 1
    elif kind == SLEEPWAKE:
        S[S_SLEEP + t] = 1 - S[S_SLEEP + t]
    die = -1  # the first unused die showing the face spent
    for d in range(R[R_NDICE]):
        if die < 0 and S[S_ROLL + d] == a[A_FACE] and not (S[S_USED] >> d) & 1:
            die = d
    S[S_USED] |= (1 << die) if die >= 0 else 0


# ------------------------------------------------------------------ end of a turn (§7, §8)
@njit(cache=True)
def pending_runners(S, out):
    """This turn's crossers in crossing order into ``out``; returns how many."""
    n = S[S_NPEND]
    for r in range(RUNNERS):
        if S[S_PLACE + r] == PENDING:
            out[S[S_CORD + r]] = r
    return n


@njit(cache=True)
def podium_slots(S, R):
    """(places free, fixed): with ``chronological`` order the crossers of every action but
    the last take places in crossing order (``fixed`` of them); the free places left
    go to crossers the player picks (``free`` order: among all of this turn's)."""
    free = R[R_NPLACES] - S[S_NPOD]
    if free < 0:
        free = 0
    if R[R_ORDER] == 0 or S[S_NPEND] == 0:
        return free, 0
    last = -1
    for r in range(RUNNERS):
        if S[S_PLACE + r] == PENDING and S[S_CACT + r] > last:
            last = S[S_CACT + r]
    fixed = 0
    for r in range(RUNNERS):
        if S[S_PLACE + r] == PENDING and S[S_CACT + r] != last:
            fixed += 1
    return free, fixed


@njit(cache=True)
def hand_out(S, R, winners, k):
    """End the turn: runners ``winners[:k]`` take the next podium places in that order,
    this turn's other crossers are surplus (§7: off with 0, or back where they left
    with ``stay``); then the end test (§8) and the next player (§4)."""
    for i in range(k):
        r = winners[i]
        S[S_PLACE + r] = S[S_NPOD]
        S[S_NPOD] += 1
    stay = R[R_SURPLUS] == 1 and not (S[S_PLAYERS] == 2 and R[R_TWOEND] == 1)
    for r in range(RUNNERS):
        if S[S_PLACE + r] == PENDING:
            if stay:
                s = S[S_CFROM + r]
                S[S_PLACE + r] = NO_PLACE
                S[S_LOC + r] = s
                S[S_SLEEP + r] = 0
                S[S_OCC + s] += 1
            else:
                S[S_PLACE + r] = OUT
    S[S_NPEND] = 0
    next_turn(S, R)


@njit(cache=True, inline="always")
def next_turn(S, R):
    """The dice pass: the game over, or the next player in turn order who has a runner on
    the track (in 3-4 player games, §4), dice not rolled yet."""
    if ended(S, R):
        S[S_OVER] = 1
    else:
        n = S[S_PLAYERS]
        p = S[S_TO_MOVE]
        for _ in range(n):
            p = p + 1 if p + 1 < n else 0
            if n == 2 or not finished(S, p):
                break
        S[S_TO_MOVE] = p
    S[S_HAS_ROLL] = 0
    S[S_REROLLED] = 0
    S[S_USED] = 0
    S[S_NUSED] = 0
    for a in range(N_FACES):
        S[S_UCOUNT + a] = 0
    for d in range(R[R_NDICE]):
        S[S_ROLL + d] = -1


