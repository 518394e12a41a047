"""Exact race winner / loser odds of Camel Up (docs/games/camel-up.md §9.1).

The race model is the Monte Carlo's (``race``): the rest of the current leg with the
spectator tiles now on the track, later legs with no tiles and dice only.

Method
------
1. ``current_leg``: the rest of the current leg is enumerated reveal by reveal, equal
   states merged (as ``leg`` does). Races that end in it are scored; the others leave a
   probability distribution over *leg-start* configurations (every die back inside).
2. ``closure``: from those configurations, every state (camel configuration, dice still
   inside) that dice alone can reach is found by breadth-first search, with each state's
   transitions: one per die inside and face. States are taken up to symmetry: the five
   racing camels are interchangeable (each keeps its own die), and so are the two crazy
   camels (the grey die's two colours are equally likely), so a state is stored once, with
   its racing camels labelled 0..4 from the front (``canonical``). At most ``max_states``
   states; beyond that the search stops and the caller falls back to Monte Carlo.
3. ``solve``: the chain is absorbing (every race ends). Values are each racing camel's
   chance to win and to lose, computed by Gauss-Seidel sweeps in decreasing order of
   progress. In the 1st edition camels only move forward, every transition raises the
   progress and one sweep is exact; in the 2nd edition crazy camels can carry racing camels
   back, the graph has cycles and sweeps repeat until no value moves by more than
   ``tolerance``.

Probabilities are float64 sums of exact transition weights (1 / (3 m) for a racing face,
1 / (6 m) for a grey face, m dice inside).

Canonical key (int64): 7 bits per camel, front to back by (space, height): the space
(1..16) times 4 plus its kind (0 racing camel whose die is inside, 1 racing camel whose
die is out, 2 crazy camel); bit 49 is set while the grey die is inside. Heights follow
from the order (camels on one space are listed top to bottom).
"""

import numpy as np
from ..jit import njit

from .. import merge
from .leg import _pack, _unpack
from .track import (
    ABSENT, CNT, CROSSED_CCW, CROSSED_CW, GREY, HT, N_CAMELS, N_DICE, N_RACING, SP,
    TRACK_SIZE, WHITE, die_count, ranking, roll,
)

GREY_BIT = 49
CRAZY_KIND = 2
N_OUT = 2 * N_RACING  # values per state: P(win) of labels 0..4, then P(lose)
TERMINAL = -1  # an edge's child below zero: -(1 + winner * 5 + loser)
PERM_BITS = 3  # an edge's label map: 3 bits per parent label, + grey flag at bit 15
EDGE_GREY = 1 << 15


@njit(cache=True, inline="always")
def _camels(tr):
    """How many camels are on the board: 7 with the crazy camels, else 5."""
    return N_CAMELS if tr[SP + WHITE] != ABSENT else N_RACING


@njit(cache=True)
def canonical(tr, mask, ncam, order, label):
    """The canonical key of the state (``tr``, dice ``mask``); fills ``label[c]`` with the
    canonical label (0 = front) of racing camel ``c``. ``order`` is scratch (``ncam``)."""
    for c in range(ncam):  # insertion sort, front (largest space * 8 + height) first
        k = tr[SP + c] * 8 + tr[HT + c]
        j = c
        while j > 0 and tr[SP + order[j - 1]] * 8 + tr[HT + order[j - 1]] < k:
            order[j] = order[j - 1]
            j -= 1
        order[j] = c
    key = 0
    r = 0
    for i in range(ncam):
        c = order[i]
        if c < N_RACING:
            kind = 0 if (mask >> c) & 1 else 1
            label[c] = r
            r += 1
        else:
            kind = CRAZY_KIND
        key = (key << 7) | (tr[SP + c] << 2) | kind
    if (mask >> GREY) & 1:
        key |= 1 << GREY_BIT
    return key


@njit(cache=True)
def decode(key, ncam, tr):
    """Fill ``tr`` with the canonical state ``key`` (racing camels labelled 0..4 from the
    front, crazy camels 5, 6 from the front); returns its dice mask in those labels."""
    for i in range(TRACK_SIZE):
        tr[i] = 0
    for c in range(N_CAMELS):
        tr[SP + c] = ABSENT
    mask = (1 << GREY) if (key >> GREY_BIT) & 1 else 0
    r = 0
    z = WHITE
    for i in range(ncam):
        code = (key >> (7 * (ncam - 1 - i))) & 127
        s = code >> 2
        if code & 3 == CRAZY_KIND:
            c = z
            z += 1
        else:
            c = r
            r += 1
            if code & 3 == 0:
                mask |= 1 << c
        tr[SP + c] = s
        tr[HT + c] = tr[CNT + s]  # provisional: counted from the top, fixed below
        tr[CNT + s] += 1
    for c in range(N_CAMELS):
        if tr[SP + c] != ABSENT:
            tr[HT + c] = tr[CNT + tr[SP + c]] - 1 - tr[HT + c]
    return mask


@njit(cache=True)
def _progress(key, ncam):
    """Sum of the racing camels' spaces * 8 + dice revealed this leg (sort key of
    ``solve``: every transition of the 1st edition raises it)."""
    total = 0
    inside = (key >> GREY_BIT) & 1
    for i in range(ncam):
        code = (key >> (7 * i)) & 127
        if code & 3 != CRAZY_KIND:
            total += (code >> 2) * 8
            inside += 1 - (code & 3)
    return total - inside


@njit(cache=True, inline="always")
def _reveal(tr, kid, tile, die, face, ranked):
    """``kid`` = ``tr`` after die ``die`` shows ``face``; True if that ended the race
    (then ``ranked`` holds the final ranking)."""
    for q in range(TRACK_SIZE):
        kid[q] = tr[q]
    mover, _ = roll(kid, tile, die, face)
    s = kid[SP + mover]
    if s == CROSSED_CW or s == CROSSED_CCW:
        ranking(kid, ranked)
        return True
    return False


@njit(cache=True)
def closure(roots, ncam, full, leg_left, max_states):
    """Every state dice alone reach from the canonical ``roots`` (no tiles), with its
    transitions. Returns (keys, n, root_rows, starts, child, perm): ``root_rows[k]`` the
    row of ``roots[k]``, ``starts[i]..starts[i+1]`` the
    edges of state ``i`` in die and face order; ``child[e]`` the child's row or
    ``-(1 + winner * 5 + loser)`` (parent labels) for a race that ends; ``perm[e]`` the
    child label of each parent label (3 bits each) and ``EDGE_GREY`` for a grey face.
    ``n = -1`` if more than ``max_states`` states are reachable: ``n = -2`` if that many
    are reachable from ``roots[0]`` alone (then so they are from any set holding it).
    The search runs from ``roots[0]`` first, then from the others."""
    keys, vals, index = merge.level(1 << 12)
    n = 0
    root_rows = np.empty(len(roots), dtype=np.int64)
    keys, vals, index, n, root_rows[0] = merge.add_row(keys, vals, index, n, roots[0], 0, 0.0)
    alone = True
    cap = 1 << 16
    starts = np.zeros(1 << 12, dtype=np.int64)
    child = np.empty(cap, dtype=np.int32)
    perm = np.empty(cap, dtype=np.int32)
    tr = np.zeros(TRACK_SIZE, dtype=np.int64)
    kid = np.zeros(TRACK_SIZE, dtype=np.int64)
    tile = np.zeros(CROSSED_CW + 1, dtype=np.int64)
    order = np.zeros(N_CAMELS, dtype=np.int64)
    label = np.zeros(N_RACING, dtype=np.int64)
    ranked = np.zeros(N_RACING, dtype=np.int64)
    e = 0
    i = 0
    while i < n or alone:
        if i == n:  # everything reached from roots[0] is listed: add the other roots
            alone = False
            for k in range(1, len(roots)):
                keys, vals, index, n, root_rows[k] = merge.add_row(keys, vals, index, n,
                                                                   roots[k], 0, 0.0)
            continue
        if n > max_states:
            return keys, -2 if alone else -1, root_rows, starts, child, perm
        if i + 2 > len(starts):
            starts = _grow(starts)
        if e + 21 > len(child):
            child = _grow(child)
            perm = _grow(perm)
        mask = decode(keys[i, 0], ncam, tr)
        starts[i] = e
        for die in range(N_DICE):
            if not (mask >> die) & 1:
                continue
            for face in range(6 if die == GREY else 3):
                if _reveal(tr, kid, tile, die, face, ranked):
                    child[e] = -(1 + ranked[0] * N_RACING + ranked[N_RACING - 1])
                    perm[e] = EDGE_GREY if die == GREY else 0
                    e += 1
                    continue
                m2 = mask & ~(1 << die)
                if die_count(m2) == leg_left:
                    m2 = full
                key = canonical(kid, m2, ncam, order, label)
                keys, vals, index, n, row = merge.add_row(keys, vals, index, n, key, 0, 0.0)
                child[e] = row
                p = EDGE_GREY if die == GREY else 0
                for c in range(N_RACING):
                    p |= label[c] << (PERM_BITS * c)
                perm[e] = p
                e += 1
        i += 1
    starts[n] = e
    return keys, n, root_rows, starts, child, perm


@njit(cache=True)
def _grow(a):
    out = np.empty(2 * len(a), dtype=a.dtype)
    for i in range(len(a)):
        out[i] = a[i]
    return out


@njit(cache=True)
def solve(keys, n, starts, child, perm, ncam, tolerance, max_sweeps):
    """Each state's chances (``values[i, c]`` racing label c wins, ``values[i, 5 + c]``
    loses) by Gauss-Seidel sweeps in decreasing progress. Returns (values, sweeps, the
    largest change in the last sweep)."""
    prog = np.empty(n, dtype=np.int64)
    inside = np.empty(n, dtype=np.int64)  # dice inside each state
    for i in range(n):
        prog[i] = _progress(keys[i, 0], ncam)
        inside[i] = die_count(decode_mask(keys[i, 0], ncam))
    order = np.argsort(-prog, kind="mergesort")
    values = np.zeros((n, N_OUT), dtype=np.float64)
    acc = np.zeros(N_OUT, dtype=np.float64)
    sweeps = 0
    change = 1.0
    while sweeps < max_sweeps:
        change = 0.0
        for k in range(n):
            i = order[k]
            for q in range(N_OUT):
                acc[q] = 0.0
            m = inside[i]
            for e in range(starts[i], starts[i + 1]):
                p = 1.0 / (6 * m) if perm[e] & EDGE_GREY else 1.0 / (3 * m)
                j = child[e]
                if j < 0:
                    code = -j - 1
                    acc[code // N_RACING] += p
                    acc[N_RACING + code % N_RACING] += p
                    continue
                for c in range(N_RACING):
                    to = (perm[e] >> (PERM_BITS * c)) & 7
                    acc[c] += p * values[j, to]
                    acc[N_RACING + c] += p * values[j, N_RACING + to]
            for q in range(N_OUT):
                change = max(change, abs(acc[q] - values[i, q]))
                values[i, q] = acc[q]
        sweeps += 1
        if change <= tolerance:
            break
    return values, sweeps, change


@njit(cache=True, inline="always")
def decode_mask(key, ncam):
    """The dice mask (canonical labels) of a canonical key."""
    mask = (1 << GREY) if (key >> GREY_BIT) & 1 else 0
    r = 0
    for i in range(ncam):
        code = (key >> (7 * (ncam - 1 - i))) & 127
        if code & 3 != CRAZY_KIND:
            if code & 3 == 0:
                mask |= 1 << r
            r += 1
    return mask


@njit(cache=True)
def current_leg(tr0, tile, mask, leg_left, full):
    """The rest of the current leg, with ``tile``. Returns (ended, starts, weights, n):
    ``ended[0, c]`` / ``ended[1, c]`` the chance that the race ends in this leg with
    racing camel ``c`` first / last; rows ``0..n-1`` of ``starts`` (labelled
    configurations, ``leg._pack``) and ``weights`` the chance of each configuration at
    the start of the next leg."""
    ended = np.zeros((2, N_RACING), dtype=np.float64)
    keys, vals, index = merge.level(1 << 10)
    n = 0
    if die_count(mask) <= leg_left:
        mask = full
    keys, vals, index, n = merge.add(keys, vals, index, n, _pack(tr0), mask, 1.0)
    out_keys, out_vals, out_index = merge.level(1 << 10)
    n_out = 0
    tr = np.zeros(TRACK_SIZE, dtype=np.int64)
    kid = np.zeros(TRACK_SIZE, dtype=np.int64)
    ranked = np.zeros(N_RACING, dtype=np.int64)
    while n > 0:
        nk, nv, ni = merge.level(1 << 10)
        nn = 0
        for i in range(n):
            _unpack(keys[i, 0], tr)
            m = keys[i, 1]
            inside = die_count(m)
            for die in range(N_DICE):
                if not (m >> die) & 1:
                    continue
                faces = 6 if die == GREY else 3
                p = vals[i] / (faces * inside)
                for face in range(faces):
                    if _reveal(tr, kid, tile, die, face, ranked):
                        ended[0, ranked[0]] += p
                        ended[1, ranked[N_RACING - 1]] += p
                    elif inside - 1 == leg_left:
                        out_keys, out_vals, out_index, n_out = merge.add(
                            out_keys, out_vals, out_index, n_out, _pack(kid), 0, p)
                    else:
                        nk, nv, ni, nn = merge.add(nk, nv, ni, nn, _pack(kid),
                                                   m & ~(1 << die), p)
        keys, vals, index, n = nk, nv, ni, nn
    return ended, out_keys, out_vals, n_out


@njit(cache=True, nogil=True)
def race_exact(tr0, tile, mask, leg_left, full, max_states, tolerance, max_sweeps,
               too_big):
    """Exact race odds (see the module doc). Returns (odds, states, sweeps, change,
    culprit): ``odds[0, c]`` / ``odds[1, c]`` racing camel ``c`` wins / loses; ``states``
    the number of states solved, -1 if more than ``max_states`` (``odds`` undefined).
    ``too_big`` (sorted canonical keys) are leg starts known to reach more than
    ``max_states`` states: a race that can reach one fails at once. ``culprit`` is a leg
    start found to reach that many on its own (to add to ``too_big``), else -1."""
    ended, starts, weights, n_starts = current_leg(tr0, tile, mask, leg_left, full)
    ncam = _camels(tr0)
    order = np.zeros(N_CAMELS, dtype=np.int64)
    label = np.zeros((max(n_starts, 1), N_RACING), dtype=np.int64)
    roots = np.empty(n_starts, dtype=np.int64)
    tr = np.zeros(TRACK_SIZE, dtype=np.int64)
    heaviest = 0
    for i in range(n_starts):
        _unpack(starts[i, 0], tr)
        roots[i] = canonical(tr, full, ncam, order, label[i])
        k = np.searchsorted(too_big, roots[i])
        if k < len(too_big) and too_big[k] == roots[i]:
            return ended, -1, 0, 0.0, -1
        if weights[i] > weights[heaviest]:
            heaviest = i
    if n_starts == 0:
        return ended, 0, 0, 0.0, -1
    first = np.empty(n_starts, dtype=np.int64)  # the likeliest leg start searched first
    first[0] = roots[heaviest]
    k = 1
    for i in range(n_starts):
        if i != heaviest:
            first[k] = roots[i]
            k += 1
    keys, n, rows_first, edge_starts, child, perm = closure(first, ncam, full, leg_left,
                                                            max_states)
    if n < 0:
        return ended, -1, 0, 0.0, first[0] if n == -2 else -1
    rows = np.empty(n_starts, dtype=np.int64)
    rows[heaviest] = rows_first[0]
    k = 1
    for i in range(n_starts):
        if i != heaviest:
            rows[i] = rows_first[k]
            k += 1
    values, sweeps, change = solve(keys, n, edge_starts, child, perm, ncam, tolerance,
                                   max_sweeps)
    odds = ended.copy()
    for i in range(n_starts):
        row = rows[i]
        for c in range(N_RACING):
            odds[0, c] += weights[i] * values[row, label[i, c]]
            odds[1, c] += weights[i] * values[row, N_RACING + label[i, c]]
    return odds, n, sweeps, change, -1
