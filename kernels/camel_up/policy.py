"""Camel Up policies for whole-game play: ``random``, ``heuristic`` (the cheap default
for rollouts) and ``greedy`` (highest one-turn EV, exact for leg actions; slow, for
tournaments).

A policy sees only what its seat may see: opponents' finish-card colours are never read
(only their owners and order), even though a simulated state holds sampled colours.

Heuristic leg estimate
----------------------
Each racing die still in the pyramid is revealed this leg with probability
q = (dice to reveal) / (dice inside) and then moves its camel 1, 2 or 3 spaces, and a
spectator tile where it lands pushes it on (cheer, on top) or back (boo, underneath);
a camel also moves when a racing camel below it in its stack does (carried), so its
chance to move is 1 - (1 - q)^(1 + carriers). Camels are treated as moving
independently, crazy camels are ignored, and a camel that arrived lands on top of one
that stayed. Pairwise "c ends ahead of d" probabilities (4 x 4
outcomes each) give P(1st) ~ prod_d P(c > d) and P(2nd) ~ sum_d P(d > c) prod_e P(c > e),
normalised. ``bench/`` reports its mean absolute error against exact enumeration.

Heuristic decision (parameters in ``HEURISTIC_PARAMS``, a float array):
  ticket c: v P1 + P2 - (1 - P1 - P2) for the top ticket v; pyramid: +1;
  spectator tile: estimated landings (camels whose die is inside and that sit 1..3 spaces
  behind) times ``P_TILE_WEIGHT``, cheer side, only where no own tile lies yet;
  winner / loser c: only once the leader is on or past ``P_END_SPACE``: the leg estimate of
  being 1st (last) taken as the race probability, paid by the place among correct cards
  expected from the cards already on the deck (others' cards match with chance 1/5);
  partnerships are never proposed. The largest estimate wins; ties go to the lower code.

Greedy decision: the EV table's one-turn values, exact over the rest of the leg for
tickets, pyramid and partnerships (0 EP floor included); tiles and finish bets as the
heuristic values them, with exact leg odds in place of the estimate.
"""

import numpy as np
from ..jit import njit

from ..rng import high_below, next_u64
from .game import (
    A_LOSER, A_PARTNER, A_PYRAMID, A_SPECTATOR, A_TICKET, A_WINNER, HAND, LDECK, LLEN,
    LT_COUNT, LT_MAX, LT_VALUE, MONEY, N_PLAYERS, PARTNER, PTIX, R_LEG_LEFT, R_NTICKETS,
    R_PARTNERS, R_TICKETS, TILE, TO_MOVE, TOWNER, TSTACK, WDECK, WLEN, legal_actions,
    own_tile, pyramid_mask, spectator_legal,
)
from .leg import leg_distribution
from .track import HT, MAX_INCOME, N_PERMS, N_RACING, N_SPACES, SP, TRACK_SIZE, die_count

RANDOM = 0
HEURISTIC = 1
GREEDY = 2
POLICY_NAMES = ("random", "heuristic", "greedy")

P_END_SPACE = 0  # leader space from which finish bets are considered
P_TILE_WEIGHT = 1  # weight of a tile's estimated landings
P_MIN_BET = 2  # smallest estimated EV for a finish bet
N_PARAMS = 3
HEURISTIC_PARAMS = np.array([11.0, 1.0, 1.0])

PAYOUT = (8.0, 5.0, 3.0, 2.0, 1.0)


W_P1 = 0  # rows of a policy workspace: P(1st), P(2nd), P(last) per camel, the pairwise
W_P2 = 1  # "ahead" matrix, the pyramid mask and tile code the estimate is for, and
W_P5 = 2  # per-space counts of camels whose die is inside (tile search)
W_AHEAD = 3
W_MASK = 8
W_MOVERS = 9
W_LAND = 10  # 5 rows: per camel, the ordering key of each of its 4 outcomes (moves
W_WEIGHT = 15  # 0..3) and their probabilities
W_ROWS = 20
W_COLS = N_SPACES + 1


@njit(cache=True)
def workspace():
    """A fresh policy workspace for ``choose``; reset it with ``forget`` between games."""
    ws = np.zeros((W_ROWS, W_COLS))
    forget(ws)
    return ws


@njit(cache=True)
def forget(ws):
    """Mark the workspace's leg estimate stale (a new game or a changed state)."""
    ws[W_MASK, 0] = -1.0


@njit(cache=True, inline="always")
def _landing(s, f, tile):
    """(space, layer) of a camel on ``s`` after moving ``f`` spaces (0: it stays): a
    spectator tile pushes it one further on top (cheer) or one back underneath (boo).
    Layer on the final space: 2 on top, 1 stayed, 0 underneath."""
    if f == 0:
        return s, 1
    t = s + f
    if t <= N_SPACES and tile[t] != 0:
        return t + tile[t], 2 if tile[t] > 0 else 0
    return t, 2


@njit(cache=True, inline="always")
def _ahead(ws, c, d):
    """P(camel c ends the leg ahead of camel d), the two moving independently over the
    outcomes prepared by ``estimate_leg``: a larger outcome key is further ahead, equal
    keys (two arrivals on top, or two pushed underneath, on one space) tie at 1/2."""
    p = 0.0
    for fc in range(4):
        wc = ws[W_WEIGHT + c, fc]
        if wc == 0.0:
            continue
        a = ws[W_LAND + c, fc]
        for fd in range(4):
            wd = ws[W_WEIGHT + d, fd]
            if wd != 0.0:
                b = ws[W_LAND + d, fd]
                p += wc * wd * ((a > b) + 0.5 * (a == b))
    return p


@njit(cache=True, inline="always")
def _tile_code(st):
    """The spectator tiles as one exact number: sum of (side + 1) * 3^(space - 2)."""
    code = 0.0
    weight = 1.0
    for s in range(2, N_SPACES + 1):
        code += (st[TILE + s] + 1) * weight
        weight *= 3.0
    return code


@njit(cache=True)
def estimate_leg(st, ws):
    """Fill rows W_P1, W_P2, W_P5 of the workspace ``ws`` with the heuristic estimates of
    finishing this leg 1st, 2nd and last (see module doc). Between two reveals the track
    and pyramid do not change, so the estimate is reused while the pyramid mask is the
    one it was made for and no tile moved (consecutive decision points differ by a reveal
    or a tile whenever the track changed)."""
    mask = pyramid_mask(st)
    tiles = _tile_code(st)
    if ws[W_MASK, 0] == mask and ws[W_MASK, 1] == tiles:
        return
    ws[W_MASK, 0] = mask
    ws[W_MASK, 1] = tiles
    p1 = ws[W_P1]
    p2 = ws[W_P2]
    p5 = ws[W_P5]
    n = die_count(mask)
    q = (n - st[R_LEG_LEFT]) / n
    ahead = ws[W_AHEAD:W_AHEAD + N_RACING, :N_RACING]
    tile = st[TILE:TILE + N_SPACES + 1]
    moves = ws[W_MOVERS, :N_RACING]  # P(camel moves this leg), carried moves included
    for c in range(N_RACING):
        stay = 1.0 - q if (mask >> c) & 1 else 1.0
        for b in range(N_RACING):  # racing camels below c in its stack carry it
            if (mask >> b) & 1 and st[SP + b] == st[SP + c] and st[HT + b] < st[HT + c]:
                stay *= 1.0 - q
        moves[c] = 1.0 - stay
    for c in range(N_RACING):
        for f in range(4):
            weight = 1.0 - moves[c] if f == 0 else moves[c] / 3.0
            ws[W_WEIGHT + c, f] = weight
            if weight > 0.0:
                # key: space, then layer (on top > stayed > underneath), then for a camel
                # that stayed its height, so stayers never tie
                space, layer = _landing(st[SP + c], f, tile)
                ws[W_LAND + c, f] = space * 32 + layer * 8 + (st[HT + c] if layer == 1 else 0)
    for c in range(N_RACING):
        ahead[c, c] = 0.0
        for d in range(c + 1, N_RACING):
            p = _ahead(ws, c, d)
            ahead[c, d] = p
            ahead[d, c] = 1.0 - p
    s1 = 0.0
    s2 = 0.0
    s5 = 0.0
    for c in range(N_RACING):
        first = 1.0
        last = 1.0
        for d in range(N_RACING):
            if d != c:
                first *= ahead[c, d]
                last *= ahead[d, c]
        second = 0.0
        for d in range(N_RACING):
            if d == c:
                continue
            term = ahead[d, c]
            for e in range(N_RACING):
                if e != c and e != d:
                    term *= ahead[c, e]
            second += term
        p1[c] = first
        p2[c] = second
        p5[c] = last
        s1 += first
        s2 += second
        s5 += last
    for c in range(N_RACING):
        p1[c] /= s1
        p2[c] /= s2
        p5[c] /= s5


@njit(cache=True)
def _deck_payout(st, deck, length, seat):
    """Expected payout of a correct card put on top of a deck now, from the seat's view:
    its own cards are of other colours (it holds this one), others' cards match w.p. 1/5."""
    others = 0
    for i in range(st[length]):
        if st[deck + i] // 8 != seat:
            others += 1
    # expectation of PAYOUT[k] for k ~ Binomial(others, 1/5)
    total = 0.0
    prob = (4.0 / 5.0) ** others
    for k in range(others + 1):
        pay = PAYOUT[k] if k < len(PAYOUT) else 1.0
        total += prob * pay
        if k < others:
            prob *= (others - k) / (k + 1) * (1.0 / 4.0)
    return total


@njit(cache=True)
def _best_tile(st, seat, params, ws, best, best_ev):
    """Improve (best, best_ev) with a cheering tile where it is estimated to be landed on
    most (camels whose die is inside, 1..3 spaces behind), if the seat has none out. At
    most every racing camel whose die is inside lands there, so when even that cannot
    beat ``best_ev`` the spaces are not searched (same choice, less work)."""
    mask = pyramid_mask(st)
    n = die_count(mask)
    share = (n - st[R_LEG_LEFT]) / n / 3.0 * params[P_TILE_WEIGHT]
    if die_count(mask & ((1 << N_RACING) - 1)) * share <= best_ev or own_tile(st, seat) != 0:
        return best, best_ev
    movers = ws[W_MOVERS]
    movers[:] = 0.0
    for c in range(N_RACING):
        if (mask >> c) & 1:
            movers[st[SP + c]] += 1
    for s in range(2, N_SPACES + 1):
        near = movers[s - 1] + (movers[s - 2] if s >= 3 else 0) + \
            (movers[s - 3] if s >= 4 else 0)
        ev = near * share
        if ev > best_ev and spectator_legal(st, seat, s):
            best_ev = ev
            best = A_SPECTATOR + (s - 2) * 2
    return best, best_ev


@njit(cache=True)
def _best_bet(st, seat, params, p1, p5, best, best_ev):
    """Improve (best, best_ev) with a finish bet once the leader has reached
    ``P_END_SPACE``, taking leg P(1st) / P(last) as the race odds."""
    leader = 0
    for c in range(N_RACING):
        leader = max(leader, st[SP + c])
    if leader < params[P_END_SPACE]:
        return best, best_ev
    hand = st[HAND + seat]
    pay_w = _deck_payout(st, np.int64(WDECK), np.int64(WLEN), seat)  # kernels/__init__.py
    pay_l = _deck_payout(st, np.int64(LDECK), np.int64(LLEN), seat)
    for c in range(N_RACING):
        if (hand >> c) & 1:
            ev = p1[c] * pay_w - (1.0 - p1[c])
            if ev > best_ev and ev >= params[P_MIN_BET]:
                best_ev = ev
                best = A_WINNER + c
            ev = p5[c] * pay_l - (1.0 - p5[c])
            if ev > best_ev and ev >= params[P_MIN_BET]:
                best_ev = ev
                best = A_LOSER + c
    return best, best_ev


@njit(cache=True)
def heuristic_choice(st, params, ws):
    """The heuristic policy's action for the player to move (see module doc)."""
    seat = st[TO_MOVE]
    estimate_leg(st, ws)
    p1 = ws[W_P1]
    p2 = ws[W_P2]
    best = np.int64(A_PYRAMID)
    best_ev = 1.0
    n_tickets = st[R_NTICKETS]
    for c in range(N_RACING):
        k = st[TSTACK + c]
        if k > 0:
            value = st[R_TICKETS + n_tickets - k]
            ev = value * p1[c] + p2[c] - (1.0 - p1[c] - p2[c])
            if ev > best_ev:
                best_ev = ev
                best = A_TICKET + c
    best, best_ev = _best_tile(st, seat, params, ws, best, best_ev)
    best, best_ev = _best_bet(st, seat, params, p1, ws[W_P5], best, best_ev)
    return best


@njit(cache=True)
def _places(index, out):
    """Places 0..4 of the racing camels in the ranking with this index (the inverse of
    ``track._index_of_keys``): digit L_c is the rank of camel c's place among the places
    of camels c..4."""
    digits = (index // 24, index // 6 % 4, index // 2 % 3, index % 2, 0)
    free = np.arange(N_RACING)
    n_free = N_RACING
    for c in range(N_RACING):
        k = digits[c]
        out[c] = free[k]
        for i in range(k, n_free - 1):
            free[i] = free[i + 1]
        n_free -= 1


@njit(cache=True)
def _leg_rewards(st, p, places):
    """(net leg result of player p's tickets, best single reward) for every ranking:
    arrays over the 120 ranking indices."""
    net = np.full(N_PERMS, st[PTIX + p], dtype=np.int64)
    best = np.full(N_PERMS, 1 if st[PTIX + p] > 0 else -(1 << 30), dtype=np.int64)
    for r in range(N_PERMS):
        for c in range(N_RACING):
            k = st[LT_COUNT + p * N_RACING + c]
            if k == 0:
                continue
            place = places[r, c]
            if place == 0:
                reward = st[LT_MAX + p * N_RACING + c]
                net[r] += st[LT_VALUE + p * N_RACING + c]
            else:
                reward = 1 if place == 1 else -1
                net[r] += k * reward
            best[r] = max(best[r], reward)
    return net, best


@njit(cache=True)
def _value(prob, money, net, extra):
    """E[max(0, money + own landings + net + extra)] over ``prob[e, r, k]``."""
    total = 0.0
    for e in range(2):
        for r in range(N_PERMS):
            for k in range(MAX_INCOME):
                if prob[e, r, k] > 0.0:
                    total += prob[e, r, k] * max(0, money + k + net[r] + extra[r])
    return total


@njit(cache=True)
def greedy_choice(st, params, ws):
    """The action with the highest one-turn EV for the player to move: tickets, pyramid
    and partnerships valued exactly over the rest of the leg (the EV table's definition,
    0 EP floor included), spectator tiles and finish bets as the heuristic estimates
    them (with the exact leg odds). Enumerates the leg at every decision: slow, meant for
    tournaments rather than rollouts."""
    seat = st[TO_MOVE]
    mine = np.zeros(N_SPACES + 2, dtype=np.int64)
    tile = st[TILE:TILE + N_SPACES + 2]
    for s in range(2, N_SPACES + 1):
        if tile[s] != 0 and st[TOWNER + s] == seat:
            mine[s] = 1
    hist, _, total = leg_distribution(st[:TRACK_SIZE], tile, mine, pyramid_mask(st),
                                      st[R_LEG_LEFT])
    prob = hist / total
    places = np.empty((N_PERMS, N_RACING), dtype=np.int64)
    for r in range(N_PERMS):
        _places(r, places[r])
    p1 = ws[W_P1]
    p5 = ws[W_P5]
    p1[:] = 0.0
    p5[:] = 0.0
    for r in range(N_PERMS):
        weight = prob[:, r, :].sum()
        for c in range(N_RACING):
            if places[r, c] == 0:
                p1[c] += weight
            elif places[r, c] == N_RACING - 1:
                p5[c] += weight
    forget(ws)  # p1 / p5 now hold exact odds, not the heuristic estimate
    net, _ = _leg_rewards(st, seat, places)
    partner = st[PARTNER + seat]
    if partner >= 0:
        net = net + np.maximum(0, _leg_rewards(st, partner, places)[1])
    money = st[MONEY + seat]
    extra = np.zeros(N_PERMS, dtype=np.int64)
    base = _value(prob, money, net, extra)
    best = np.int64(A_PYRAMID)
    extra[:] = 1
    best_ev = _value(prob, money, net, extra) - base
    n_tickets = st[R_NTICKETS]
    for c in range(N_RACING):
        k = st[TSTACK + c]
        if k > 0:
            value = st[R_TICKETS + n_tickets - k]
            for r in range(N_PERMS):
                place = places[r, c]
                extra[r] = value if place == 0 else (1 if place == 1 else -1)
            ev = _value(prob, money, net, extra) - base
            if ev > best_ev:
                best_ev = ev
                best = A_TICKET + c
    if st[R_PARTNERS] and partner < 0:
        for q in range(st[N_PLAYERS]):
            if q != seat and st[PARTNER + q] < 0:
                extra = np.maximum(0, _leg_rewards(st, q, places)[1])
                ev = _value(prob, money, net, extra) - base
                if ev > best_ev:
                    best_ev = ev
                    best = A_PARTNER + q
    best, best_ev = _best_tile(st, seat, params, ws, best, best_ev)
    best, best_ev = _best_bet(st, seat, params, p1, p5, best, best_ev)
    return best


@njit(cache=True)
def random_choice(st, s):
    """A legal action uniformly at random, from stream ``s``."""
    acts = legal_actions(st)
    return acts[high_below(next_u64(s), len(acts))]


@njit(cache=True, inline="always")
def choose(st, policy, params, s, ws):
    """The action of ``policy`` for the player to move. ``s`` is the policy's own random
    stream (used by ``random`` only); ``ws`` an estimate workspace (``workspace()``)."""
    if policy == RANDOM:
        return random_choice(st, s)
    if policy == GREEDY:
        return greedy_choice(st, params, ws)
    return heuristic_choice(st, params, ws)

