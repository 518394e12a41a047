"""Camel Up policies for whole-game play: ``random`` and ``heuristic`` (the cheap default
for rollouts).

A policy sees only what its seat may see: opponents' finish-card colours are never read
(only their owners and order), even though a simulated state holds sampled colours.

Heuristic leg estimate
----------------------
Each racing die still in the pyramid is revealed this leg with probability
q = (dice to reveal) / (dice inside) and then moves its camel 1, 2 or 3 spaces; camels are
treated as moving independently (carrying and crazy camels ignored), a camel that moved
lands on top of one that did not. Pairwise "c ends ahead of d" probabilities (4 x 4
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
"""

import numpy as np
from numba import njit

from ..rng import high_below, next_u64
from .game import (
    A_LOSER, A_PYRAMID, A_SPECTATOR, A_TICKET, A_WINNER, HAND, LDECK, LLEN, R_LEG_LEFT,
    R_NTICKETS, R_TICKETS, TO_MOVE, TSTACK, WDECK, WLEN, legal_actions,
    own_tile, pyramid_mask, spectator_legal,
)
from .track import HT, N_RACING, N_SPACES, SP, die_count

RANDOM = 0
HEURISTIC = 1
POLICY_NAMES = ("random", "heuristic")

P_END_SPACE = 0  # leader space from which finish bets are considered
P_TILE_WEIGHT = 1  # weight of a tile's estimated landings
P_MIN_BET = 2  # smallest estimated EV for a finish bet
N_PARAMS = 3
HEURISTIC_PARAMS = np.array([11.0, 1.0, 1.0])

PAYOUT = (8.0, 5.0, 3.0, 2.0, 1.0)


W_P1 = 0  # rows of a policy workspace: P(1st), P(2nd), P(last) per camel,
W_P2 = 1  # the pairwise "ahead" matrix, the pyramid mask the estimate is for, and
W_P5 = 2  # per-space counts of camels whose die is inside (tile search)
W_AHEAD = 3
W_MASK = 8
W_MOVERS = 9
W_ROWS = 10
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
def _ahead(sc, hc, mc, sd, hd, md, q):
    """P(camel c ends the leg ahead of camel d) when each moves 1..3 spaces with
    probability q/3 each if its die is inside (``mc``, ``md``), independently; a camel
    that moved lands on top of one that did not, two movers tie at 1/2."""
    p = 0.0
    for fc in range(4 if mc else 1):
        wc = (1.0 - q if mc else 1.0) if fc == 0 else q / 3.0
        for fd in range(4 if md else 1):
            wd = (1.0 - q if md else 1.0) if fd == 0 else q / 3.0
            a = sc + fc
            b = sd + fd
            if a != b:
                win = 1.0 if a > b else 0.0
            elif fc > 0 and fd > 0:
                win = 0.5
            elif fc > 0 or fd > 0:
                win = 1.0 if fc > 0 else 0.0
            else:
                win = 1.0 if hc > hd else 0.0
            p += wc * wd * win
    return p


@njit(cache=True)
def estimate_leg(st, ws):
    """Fill rows W_P1, W_P2, W_P5 of the workspace ``ws`` with the heuristic estimates of
    finishing this leg 1st, 2nd and last (see module doc). Between two reveals the track
    and pyramid do not change, so the estimate is reused while the pyramid mask is the
    one it was made for (consecutive decision points always differ by a reveal)."""
    mask = pyramid_mask(st)
    if ws[W_MASK, 0] == mask:
        return
    ws[W_MASK, 0] = mask
    p1 = ws[W_P1]
    p2 = ws[W_P2]
    p5 = ws[W_P5]
    n = die_count(mask)
    q = (n - st[R_LEG_LEFT]) / n
    ahead = ws[W_AHEAD:W_AHEAD + N_RACING, :N_RACING]
    for c in range(N_RACING):
        ahead[c, c] = 0.0
        for d in range(c + 1, N_RACING):
            p = _ahead(st[SP + c], st[HT + c], (mask >> c) & 1, st[SP + d], st[HT + d],
                       (mask >> d) & 1, q)
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
def heuristic_choice(st, params, ws):
    """The heuristic policy's action for the player to move (see module doc)."""
    seat = st[TO_MOVE]
    estimate_leg(st, ws)
    p1 = ws[W_P1]
    p2 = ws[W_P2]
    p5 = ws[W_P5]
    best = A_PYRAMID
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
    if own_tile(st, seat) == 0:
        mask = pyramid_mask(st)
        n = die_count(mask)
        share = (n - st[R_LEG_LEFT]) / n / 3.0 * params[P_TILE_WEIGHT]
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
    leader = 0
    for c in range(N_RACING):
        leader = max(leader, st[SP + c])
    if leader >= params[P_END_SPACE]:
        hand = st[HAND + seat]
        pay_w = _deck_payout(st, WDECK, WLEN, seat)
        pay_l = _deck_payout(st, LDECK, LLEN, seat)
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
    return best


@njit(cache=True)
def random_choice(st, s):
    """A legal action uniformly at random, from stream ``s``."""
    acts = legal_actions(st)
    return acts[high_below(next_u64(s), len(acts))]


@njit(cache=True)
def choose(st, policy, params, s, ws):
    """The action of ``policy`` for the player to move. ``s`` is the policy's own random
    stream (used by ``random`` only); ``ws`` an estimate workspace (``workspace()``)."""
    if policy == RANDOM:
        return random_choice(st, s)
    return heuristic_choice(st, params, ws)

