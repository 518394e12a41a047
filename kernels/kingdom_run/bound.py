"""The best default evaluation of the rest of a turn, by branch and bound
(docs/games/kingdom-run.md §15.2).

``best_value`` searches the sequences of the state's remaining dice depth first, as
``turns.search`` does (states reached twice, or differing only by same-clan runners,
searched once), but cuts every state whose ``upper_bound`` cannot beat the best value
found so far; the greedy sequence's value (a real sequence) is the first incumbent.

``upper_bound(S)`` >= the default evaluation (§14) of every end-of-turn position reachable
from the mid-turn state ``S``. The proof, part by part (§15.2 states it for players):

1. *Dice.* The unused dice can be resolved as at most ``n_k`` actions of each kind k:
   the real dice of k, within the per-action limit left, plus Copies given to k (k shown
   on the roll); a Copy is counted for whichever kind the quantity at hand profits from
   most. So the turn has at most ``T`` Steals, ``J`` moving actions (Scatter, Catch-up,
   Bath) and ``P`` runner placements (4 per Scatter, 1 per Catch-up or Bath).
2. *Room.* An action puts at most one runner on a space, and lifting only adds room, so
   q placements in a actions fill at most ``kills(q, a)`` of the spaces with room now
   (the fewest free places first, only spaces with at most a free). A runner put on d
   (overflow, §5) ends at or before the (1 + kills)-th space >= d with room now (none:
   it may cross); the i-th runner of a Scatter from x at or before the (i + kills)-th
   after x; a Scatter from x after t actions carries at most occ(x) + t runners.
3. *Reach.* Runners move only forward, once per action at most. The front (the furthest
   runner) after t actions grows one action at a time (``_front``): a Scatter from a
   space up to it, a Bath, a Catch-up at most onto it. A runner caught up runs to the
   nearest runner ahead, at or before the reach of every runner ahead now (they stay
   ahead), the front before the last action and the first space ahead occupied now
   that the actions before cannot empty (``_kept``); with nobody ahead it crosses, which
   needs a runner off the track: one now, or one that may cross this turn (a first pass
   without such Catch-ups finds whether any may). No runner in a lake is scattered or
   caught up. A runner's reach after its j actions (at most so many of each kind as 1
   allows, ``_runner_reach``, from the front runners back) is capped by the front after
   every action.
4. *Values.* A runner reaching at most h scores at the end some zone value of [x, h],
   or, if h passes the track, a free podium place, 0 (out) or the value of a space it
   left (``stay``, within [x, h]); one that crossed this turn one of those too; others
   keep their value. Sleep changes no score.
5. *The mover's runners* gain, with j actions, at most g_r(j) = best value within reach
   j minus the value now. A Scatter moves of the mover's runners only those on its
   space (not a lake): those there now plus at most one per moving action before it (a
   Scatter drops one runner per space, a Catch-up or Bath moves one), none on a space
   full now until an earlier action has lifted one from it (no action puts a runner on
   the space it lifts it from). With n1 Catch-ups and Baths (best taken first), the i-th
   of s Scatters has p = n1 + i - 1 actions before it, so the mover's runners take at
   most ``K`` = n1 + sum over i of min(4, max(c + p, f + max(p - 1, 0))) moves, c and f
   the most of them now on one space with room and on one full space. The gain is the
   best split of K moves over the mover's runners (at most J each).
6. *Bound.* The mover scores at most its value now + the gain + T tokens; every other
   player at least its runners' lowest reachable values + its tokens, less the tokens
   T Steals can take (the Steals go where they lower the best other most: the highest
   first). The evaluation, the mover's score minus the best other's, is at most the
   first minus the highest of the others' lower bounds.
"""

import numpy as np
from ..arrays import copy_into
from ..jit import njit

from ..merge import add, find, level
from .actions import A_COLS, WORK, apply_action, hand_out, legal_actions_into
from .layout import (
    BATH, CATCHUP, COPY, MAX_DICE, MAX_SPACES, N_FACES, PENDING, R_CAP, R_LAKE, R_LIMIT,
    R_MAND, R_NDICE, R_NEXTLAKE, R_NPLACES, R_NSP, R_PODV, R_SCOREV, R_SURPLUS, R_TOKV, S_CFROM,
    S_CLAN, S_HAS_ROLL, S_LOC, S_NPEND, S_NPOD, S_NUSED, S_OCC, S_OVER, S_PLACE,
    S_PLAYERS, S_ROLL, S_SIZE, S_TO_MOVE, S_TOK, S_UCOUNT, S_USED, SCATTER, STEAL,
    anyone_off, ended, evaluation, keys,
)
from .turns import MAX_ACTIONS, handouts

NONE = -1
# scratch of ``upper_bound`` (int64): spaces with room ascending, the first of them at or
# after each space, the moves' bounds (below), each space's reach per action count
B_ROOM = 0
B_FIRST = B_ROOM + MAX_SPACES
B_NS = B_FIRST + MAX_SPACES + 1  # the furthest a runner gets from each space by a Scatter
B_NC = B_NS + MAX_SPACES  # ... by a Catch-up
B_NB = B_NC + MAX_SPACES  # ... by a Bath
B_PREB = B_NB + MAX_SPACES  # the furthest a Bath from any space up to each gets
B_PRES = B_PREB + MAX_SPACES  # ... a Scatter after t actions (t = 0..MAX_DICE - 1)
B_REACH = B_PRES + MAX_DICE * MAX_SPACES
MAX_MOVES = 12  # moving actions of one turn (5 dice at most)
B_TOP = B_REACH + MAX_SPACES * (MAX_MOVES + 1)  # ``_kept``'s largest occupancies
B_HIST = B_TOP + 4  # ``_kills``'s spaces by free places
B_SIZE = B_HIST + 9


@njit(cache=True)
def _dice(S, R):
    """(T, J, P, n1 and s for the K of the proof, the free Copies) of the unused dice."""
    rem = np.zeros(N_FACES, dtype=np.int64)
    shown = np.zeros(N_FACES, dtype=np.int64)
    if S[S_HAS_ROLL] == 1 and S[S_OVER] == 0 and not ended(S, R):
        for d in range(R[R_NDICE]):
            shown[S[S_ROLL + d]] += 1
            if not (S[S_USED] >> d) & 1:
                rem[S[S_ROLL + d]] += 1
    base = np.zeros(COPY, dtype=np.int64)
    spare = np.zeros(COPY, dtype=np.int64)  # Copies kind k may still take
    for k in range(COPY):
        room = max(R[R_LIMIT] - S[S_UCOUNT + k], 0)
        base[k] = min(room, rem[k])
        if shown[k] > 0:
            spare[k] = room - base[k]
    return base, spare, rem[COPY]


@njit(cache=True)
def _kills(S, R, q, a, work):
    """The most spaces with room now that ``q`` placements in ``a`` actions can fill
    (proof, 2): an action puts at most one runner on a space."""
    if q <= 0:
        return 0
    work[B_HIST:B_HIST + 9] = 0
    for x in range(R[R_NSP]):
        free = R[R_CAP] - S[S_OCC + x]
        if 0 < free <= a:
            work[B_HIST + min(free, 8)] += 1
    k = 0
    for free in range(1, 9):
        while work[B_HIST + free] > 0 and q >= free:
            q -= free
            work[B_HIST + free] -= 1
            k += 1
        if work[B_HIST + free] > 0:
            break
    return k


@njit(cache=True, inline="always")
def _room(R, work, d, i):
    """The i-th space >= d with room now (i >= 1), or the track's end (it may cross)."""
    n = R[R_NSP]
    if d >= n:
        return n
    j = work[B_FIRST + d] + i - 1
    if j >= work[B_FIRST + n]:
        return n
    return work[B_ROOM + j]


@njit(cache=True, inline="always")
def _copies(a, b, c, real):
    """Copies needed for a Scatters, b Catch-ups and c Baths (``real``: the real dice
    of each that may be used, then the Copies)."""
    return max(a - real[0], 0) + max(b - real[1], 0) + max(c - real[2], 0)


@njit(cache=True)
def _front(R, work, f, ns, nc, nb, J, k1, cross, F, real):
    """(far, front): the furthest any runner can stand after the actions before a
    Catch-up (at most ``ns`` Scatters, ``nc`` - 1 Catch-ups, ``nb`` Baths, J - 1 in all:
    the nearest runner ahead of one caught up stands there or nearer), and after every
    action; from the front ``f`` now (proof, 3); the track's end when one may cross."""
    n = R[R_NSP]
    far = f
    front = f
    F[:ns + 1, :nc + 1, :nb + 1] = -1
    F[0, 0, 0] = f
    for total in range(J + 1):
        for a in range(min(ns, total) + 1):
            for b in range(min(nc, total - a) + 1):
                c = total - a - b
                if c > nb or _copies(a, b, c, real) > real[3]:
                    continue
                v = F[a, b, c]
                if v < 0:  # not reached: its predecessors crossed, or none on the track
                    continue
                front = max(front, v)
                if b < nc and total < J:
                    far = max(far, v)
                if v >= n or total == J:
                    continue
                if a < ns:
                    F[a + 1, b, c] = max(F[a + 1, b, c], v,
                                         work[B_PRES + total * MAX_SPACES + v])
                if b < nc:
                    F[a, b + 1, c] = max(F[a, b + 1, c], v, n if cross else
                                         _room(R, work, v, k1))
                if c < nb:
                    F[a, b, c + 1] = max(F[a, b, c + 1], v, work[B_PREB + v])
    return min(far, n), min(front, n)


@njit(cache=True)
def _kept(S, R, x, ns, singles, actions, work):
    """The first space ahead of x occupied now that the actions before a Catch-up (at
    most ``ns`` Scatters of 4 runners, ``singles`` of one, ``actions`` in all) cannot
    empty: the nearest runner ahead of x stands there or nearer (proof, 3)."""
    n = R[R_NSP]
    top = B_TOP  # work[top + i]: the largest occupancies so far (4 runners each)
    work[top:top + 4] = 0
    k = min(ns, actions, 4)
    rest = 0
    for y in range(x + 1, n):
        o = S[S_OCC + y]
        if o == 0:
            continue
        # y kept if the spaces so far and y cannot all be emptied
        o4 = min(o, 4)
        rest += o - o4
        for i in range(k):
            if o4 > work[top + i]:
                o4, work[top + i] = work[top + i], o4
        rest += o4
        used = 0
        for i in range(k):
            if work[top + i] > 0:
                used += 1
        if rest > min(singles, actions - used):
            return y
    return n


@njit(cache=True)
def _reach(S, R, ns, nc, nb, J, k1, cross, work, F, real):
    """Fill each space's reach after 0..J actions (proof, 3); returns whether a runner
    may cross the line."""
    n = R[R_NSP]
    front = -1
    for x in range(n):
        if S[S_OCC + x] > 0:
            front = x
    far, front = _front(R, work, front, ns, nc, nb, J, k1, cross, F, real)
    ahead = NONE  # the least reach of the runners now ahead of the space being done
    crosses = False
    for x in range(n - 1, -1, -1):
        nx = x
        if nc > 0 and R[R_LAKE + x] == 0:
            if ahead != NONE:
                nx = _room(R, work, min(ahead, far, _kept(S, R, x, ns, nc - 1 + nb, J - 1, work)),
                           k1)
            elif cross:
                nx = n  # nobody ahead now: a runner moved ahead, or none and it crosses
            elif far > x:
                nx = _room(R, work, far, k1)
        work[B_NC + x] = nx
        if S[S_OCC + x] == 0:
            continue
        h = _runner_reach(R, work, x, ns, nc, nb, J, F, real, front)
        if h >= n:
            crosses = True
        if ahead == NONE or h < ahead:
            ahead = h
    return crosses


@njit(cache=True)
def _runner_reach(R, work, x, ns, nc, nb, J, F, real, front):
    """A runner on x: its reach after 0..J actions into ``work`` (``_hi``), each of at
    most ``ns`` Scatters, ``nc`` Catch-ups and ``nb`` Baths, and never past ``front``;
    returns the last."""
    n = R[R_NSP]
    base = B_REACH + x * (MAX_MOVES + 1)
    ms, mc, mb = x, x, x  # the best next of each kind over [x, top]
    top = x
    ms = max(ms, work[B_NS + x])
    mc = max(mc, work[B_NC + x])
    mb = max(mb, work[B_NB + x])
    for j in range(J + 1):
        work[base + j] = x
    F[:ns + 1, :nc + 1, :nb + 1] = -1
    F[0, 0, 0] = x
    for total in range(J + 1):
        for a in range(min(ns, total) + 1):
            for b in range(min(nc, total - a) + 1):
                c = total - a - b
                if c > nb or _copies(a, b, c, real) > real[3]:
                    continue
                v = F[a, b, c]
                if v < 0:
                    continue
                work[base + total] = max(work[base + total], v)
                if total == J:
                    continue
                if v >= n:
                    s_, c_, b_ = n, n, n
                else:
                    while top < v:
                        top += 1
                        ms = max(ms, work[B_NS + top])
                        mc = max(mc, work[B_NC + top])
                        mb = max(mb, work[B_NB + top])
                    s_, c_, b_ = ms, mc, mb
                if a < ns:
                    F[a + 1, b, c] = max(F[a + 1, b, c], v, s_)
                if b < nc:
                    F[a, b + 1, c] = max(F[a, b + 1, c], v, c_)
                if c < nb:
                    F[a, b, c + 1] = max(F[a, b, c + 1], v, b_)
    for j in range(1, J + 1):
        work[base + j] = min(max(work[base + j], work[base + j - 1]), front)
    return work[base + J]


@njit(cache=True, inline="always")
def _hi(work, x, j):
    return work[B_REACH + x * (MAX_MOVES + 1) + j]


@njit(cache=True)
def _best_zone(R, lo, hi, cross_top):
    """The best a runner can score ending in [lo, hi] (beyond the track: ``cross_top``)."""
    n = R[R_NSP]
    v = -(1 << 40)
    for x in range(lo, min(hi, n - 1) + 1):
        v = max(v, R[R_SCOREV + x])
    if hi >= n:
        v = max(v, cross_top)
    return v


@njit(cache=True)
def _worst_zone(R, lo, hi, cross_low):
    n = R[R_NSP]
    v = 1 << 40
    for x in range(lo, min(hi, n - 1) + 1):
        v = min(v, R[R_SCOREV + x])
    if hi >= n:
        v = min(v, cross_low)
    return v


@njit(cache=True)
def upper_bound(S, R, me, work):
    """An upper bound of the mover's default evaluation at the end of the turn, over
    every way to spend the unused dice (module docstring); ``work``: ``B_SIZE`` int64."""
    n = R[R_NSP]
    base, spare, copies = _dice(S, R)
    T = base[STEAL] + min(copies, spare[STEAL])
    J = base[SCATTER] + base[CATCHUP] + base[BATH] + min(
        copies, spare[SCATTER] + spare[CATCHUP] + spare[BATH])
    J = min(J, MAX_MOVES)
    ys = min(copies, spare[SCATTER])
    ns = base[SCATTER] + ys
    n1 = base[CATCHUP] + base[BATH] + min(copies - ys, spare[CATCHUP] + spare[BATH])
    P = 4 * ns + n1
    nc = base[CATCHUP] + min(copies, spare[CATCHUP])
    nb = base[BATH] + min(copies, spare[BATH])
    # proof, 2: the spaces with room now
    i = 0
    for x in range(n):
        work[B_FIRST + x] = i
        if R[R_CAP] - S[S_OCC + x] > 0:
            work[B_ROOM + i] = x
            i += 1
    work[B_FIRST + n] = i
    k1 = 1 + _kills(S, R, P - 1, J - 1, work)
    kmax = np.zeros(5, dtype=np.int64)  # the room index of the i-th drop, at most
    for i in range(1, 5):
        kmax[i] = max(kmax[i - 1], i + _kills(S, R, P - i, J - 1, work) if i <= P else 0)
    preb = -1
    for x in range(n):
        lake = R[R_LAKE + x] == 1
        work[B_NS + x] = x
        if ns > 0 and not lake:  # at most occ + J - 1 runners to scatter from x
            k = kmax[min(4, S[S_OCC + x] + J - 1)]
            work[B_NS + x] = _room(R, work, x + 1, k) if k > 0 else x
        work[B_NB + x] = x
        if nb > 0:
            if lake:
                work[B_NB + x] = _room(R, work, x + 1, k1)
            elif R[R_NEXTLAKE + x] >= 0:
                work[B_NB + x] = _room(R, work, R[R_NEXTLAKE + x], k1)
        preb = max(preb, work[B_NB + x])
        work[B_PREB + x] = preb
    for t in range(min(J, MAX_DICE)):  # a Scatter after t actions: occ + t runners
        pres = -1
        for x in range(n):
            if ns > 0 and R[R_LAKE + x] == 0:
                k = kmax[min(4, S[S_OCC + x] + t)]
                if k > 0:
                    pres = max(pres, _room(R, work, x + 1, k))
            work[B_PRES + t * MAX_SPACES + x] = max(pres, x)
    F = np.empty((ns + 1, nc + 1, nb + 1), dtype=np.int64)
    real = np.array([base[SCATTER], base[CATCHUP], base[BATH], copies])
    off = anyone_off(S)
    if _reach(S, R, ns, nc, nb, J, k1, off, work, F, real) and not off:
        _reach(S, R, ns, nc, nb, J, k1, True, work, F, real)  # a Catch-up may then cross
    # the free places, and what a crosser may end with
    npl = R[R_NPLACES]
    top = 0
    low = 0
    for p in range(S[S_NPOD], npl):
        top = max(top, R[R_PODV + p])
        low = min(low, R[R_PODV + p])
    mine = S[S_CLAN + me]
    # proof, 5: the mover's runners
    gains = np.zeros((4, MAX_MOVES + 1), dtype=np.int64)
    fixed = R[R_TOKV] * S[S_TOK + me]
    crowd = 0  # the most of the mover's runners on a space a Scatter may start from...
    packed = 0  # ... and on such a space, full now
    for r in range(4 * mine, 4 * mine + 4):
        x = S[S_LOC + r]
        place = S[S_PLACE + r]
        if x >= 0:
            now = R[R_SCOREV + x]
            fixed += now
            for j in range(J + 1):
                gains[r - 4 * mine, j] = _best_zone(R, x, _hi(work, x, j), top) - now
            if R[R_LAKE + x] == 0:
                c = 0
                for r2 in range(4 * mine, 4 * mine + 4):
                    if S[S_LOC + r2] == x:
                        c += 1
                if S[S_OCC + x] >= R[R_CAP]:
                    packed = max(packed, c)
                else:
                    crowd = max(crowd, c)
        elif place >= 0:
            fixed += R[R_PODV + place]
        elif place == PENDING:
            v = top
            if R[R_SURPLUS] == 1:
                v = max(v, R[R_SCOREV + S[S_CFROM + r]])
            fixed += v
    # the best split of k moves over the mover's runners (at most J each): gain[k]
    gain = np.full(4 * MAX_MOVES + 1, -(1 << 40), dtype=np.int64)
    gain[0] = 0
    for i in range(4):
        if S[S_LOC + 4 * mine + i] < 0:
            continue
        for used in range(4 * J, -1, -1):
            for j in range(1, min(J, used) + 1):
                if gain[used - j] > -(1 << 40):
                    gain[used] = max(gain[used], gain[used - j] + gains[i, j])
    for used in range(1, 4 * J + 1):
        gain[used] = max(gain[used], gain[used - 1])
    # proof, 6: the others' lowest scores, then the highest of them after t Steals
    others = np.full(4, -(1 << 40), dtype=np.int64)
    toks = np.zeros(4, dtype=np.int64)
    for q in range(S[S_PLAYERS]):
        if q == me:
            continue
        c = S[S_CLAN + q]
        v = 0
        for r in range(4 * c, 4 * c + 4):
            x = S[S_LOC + r]
            place = S[S_PLACE + r]
            if x >= 0:
                v += _worst_zone(R, x, _hi(work, x, J), low)
            elif place >= 0:
                v += R[R_PODV + place]
            elif place == PENDING:
                v += min(low, R[R_SCOREV + S[S_CFROM + r]])
        others[q] = v + R[R_TOKV] * S[S_TOK + q]
        toks[q] = S[S_TOK + q]
    worst = np.empty(T + 1, dtype=np.int64)
    for t in range(T + 1):
        if t > 0 and R[R_TOKV] > 0:  # rob the highest that has a token
            pick = -1
            for q in range(S[S_PLAYERS]):
                if q != me and toks[q] > 0 and (pick < 0 or others[q] > others[pick]):
                    pick = q
            if pick >= 0:
                others[pick] -= R[R_TOKV]
                toks[pick] -= 1
        worst[t] = -(1 << 40)
        for q in range(S[S_PLAYERS]):
            if q != me:
                worst[t] = max(worst[t], others[q])
    # every way to give the Copies: to Steal, to Scatter, the rest to Catch-up or Bath
    ub = -(1 << 40)
    for yt in range(min(copies, spare[STEAL]) + 1):
        t = base[STEAL] + yt
        for y in range(min(copies - yt, spare[SCATTER]) + 1):
            a = base[CATCHUP] + base[BATH] + min(copies - yt - y,
                                                 spare[CATCHUP] + spare[BATH])
            k = a
            for i in range(1, base[SCATTER] + y + 1):
                p = a + i - 1  # moving actions before this Scatter, one arrival each
                k += min(4, max(crowd + p, packed + max(p - 1, 0)))
            ub = max(ub, fixed + R[R_TOKV] * t + gain[min(k, 4 * J)] - worst[t])
    return ub


@njit(cache=True)
def settled_best(S, R, me, final):
    """The best default evaluation of ending the turn at ``S`` (over the ways to hand out
    this turn's podium places)."""
    if S[S_NPEND] == 0:
        return evaluation(S, R, me)
    wins, k = handouts(S, R)
    best = -(1 << 40)
    for h in range(wins.shape[0]):
        copy_into(final, S)
        hand_out(final, R, wins[h], k)
        best = max(best, evaluation(final, R, me))
    return best


@njit(cache=True, inline="always")
def _children(states, depth, R, me, acts, m, ubs, order, final, bwork, nk, ni):
    """Value the ``m`` children of ``states[depth]``: a child with every die spent by
    its evaluation, one searched already (in ``nk``/``ni``) not at all, any other by its
    ``upper_bound`` into ``ubs``; ``order`` gets them by bound, highest first (canonical
    order on ties). Returns (the best evaluation, the children valued)."""
    best = -(1 << 40)
    valued = 0
    child = states[depth + 1]
    for i in range(m):
        copy_into(child, states[depth])
        apply_action(child, R, acts[depth, i])
        ubs[depth, i] = -(1 << 40)
        if child[S_NUSED] == R[R_NDICE]:
            best = max(best, settled_best(child, R, me, final))
            valued += 1
            continue
        a, b = keys(child)
        if find(nk, ni, a, b) < 0:
            ubs[depth, i] = upper_bound(child, R, me, bwork)
            valued += 1
    copy_into(order[depth, :m], np.argsort(-ubs[depth, :m], kind="mergesort"))
    return best, valued


@njit(cache=True, inline="always")
def best_value(S0, R, budget, incumbent):
    """(best, complete, valued): the best default evaluation over every sequence of the
    state's remaining dice (``turns.search``'s ``best``), at least ``incumbent`` (the
    value of some sequence); ``complete`` False once the states valued (by a bound or an
    evaluation; a state reached twice once) pass ``budget`` (> 0; 0: no limit). Children
    are tried by their ``upper_bound``, highest first, and cut once it is at most the
    best value so far; a state reached twice is searched once."""
    me = S0[S_TO_MOVE]
    mand = R[R_MAND]
    levels = R[R_NDICE] + 2
    states = np.empty((levels, S_SIZE), dtype=np.int64)
    acts = np.empty((levels, MAX_ACTIONS, A_COLS), dtype=np.int64)
    ubs = np.empty((levels, MAX_ACTIONS), dtype=np.int64)
    order = np.empty((levels, MAX_ACTIONS), dtype=np.int64)
    cnt = np.zeros(levels, dtype=np.int64)
    idx = np.zeros(levels, dtype=np.int64)
    nk, nv, ni = level(1024)
    nn = 0
    work = np.empty(WORK, dtype=np.int64)
    bwork = np.empty(B_SIZE, dtype=np.int64)
    final = np.empty(S_SIZE, dtype=np.int64)
    best = incumbent
    expanded = 0
    copy_into(states[0], S0)
    if upper_bound(S0, R, me, bwork) <= best:
        return best, True, 0
    depth = 0
    cnt[0] = min(legal_actions_into(S0, R, acts[0], work), MAX_ACTIONS)
    idx[0] = 0
    fresh = True
    while depth >= 0:
        if fresh:
            fresh = False
            if cnt[depth] == 0 or mand == 0:
                best = max(best, settled_best(states[depth], R, me, final))
            value, valued = _children(states, depth, R, me, acts, cnt[depth], ubs, order,
                                      final, bwork, nk, ni)
            best = max(best, value)
            expanded += valued
            if budget > 0 and expanded > budget:
                return best, False, expanded
        if idx[depth] >= cnt[depth]:
            depth -= 1
            continue
        i = order[depth, idx[depth]]
        if ubs[depth, i] <= best:  # and so is every child after it
            depth -= 1
            continue
        idx[depth] += 1
        child = states[depth + 1]
        copy_into(child, states[depth])
        apply_action(child, R, acts[depth, i])
        a, b = keys(child)
        before = nn
        nk, nv, ni, nn = add(nk, nv, ni, nn, a, b, 0.0)
        if nn == before:
            continue
        cnt[depth + 1] = min(legal_actions_into(child, R, acts[depth + 1], work), MAX_ACTIONS)
        depth += 1
        idx[depth] = 0
        fresh = True
    return best, True, expanded
