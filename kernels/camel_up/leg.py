"""Exact enumeration of the rest of a Camel Up leg (docs/games/camel-up.md §9), with integer
weights."""

import numpy as np
from ..jit import njit

from ..arrays import copy_into, grown
from ..threads import rows
from .track import (
    BLACK, CNT, CROSSED_CCW, CROSSED_CW, GREY, HT, MAX_INCOME, N_CAMELS, N_DICE, N_PERMS,
    N_RACING, N_SPACES, SP, TRACK_SIZE, WHITE, ABSENT, _index_of_keys, crazy_mover, destination,
    die_count, roll,
)

@njit(cache=True)
def _lift(tr, mover, keys, rel, inunit, row):
    """Cache what every face of one die shares: the racing camels' current keys
    (space * 8 + height), whether each is in ``mover``'s unit, and its height inside
    the unit, in row ``row`` of the three 2-D scratch arrays (rows, not views: views
    cost reference counting on the hot path). Returns (space, unit size) of the mover."""
    s = tr[SP + mover]
    h = tr[HT + mover]
    for c in range(N_RACING):
        sc = tr[SP + c]
        hc = tr[HT + c]
        keys[row, c] = sc * 8 + hc
        inunit[row, c] = 1 if (sc == s and hc >= h) else 0
        rel[row, c] = hc - h
    return s, tr[CNT + s] - h


@njit(cache=True)
def _outcome(tr, tile, s, size, d, dist, keys, rel, inunit, r):
    """Ranking after the lifted unit (see ``_lift``) moves ``dist`` in direction ``d``,
    without moving anything: returns (ended, ranking index, landed tile space).
    Same rules as ``move_unit``; ``r`` is the scratch row filled by ``_lift``."""
    t, landed, under = destination(tile, s, d, dist)
    ended = t > N_SPACES or t < 1
    if ended:
        base = (CROSSED_CW if t > N_SPACES else CROSSED_CCW) * 8
    elif under:
        base = t * 8
    else:
        base = t * 8 + tr[CNT + t]
    k0 = keys[r, 0] + inunit[r, 0] * (base + rel[r, 0] - keys[r, 0])
    k1 = keys[r, 1] + inunit[r, 1] * (base + rel[r, 1] - keys[r, 1])
    k2 = keys[r, 2] + inunit[r, 2] * (base + rel[r, 2] - keys[r, 2])
    k3 = keys[r, 3] + inunit[r, 3] * (base + rel[r, 3] - keys[r, 3])
    k4 = keys[r, 4] + inunit[r, 4] * (base + rel[r, 4] - keys[r, 4])
    if under:  # the unit slides underneath: the camels already on t rise by its size
        k0 += size * (1 - inunit[r, 0]) * (keys[r, 0] >> 3 == t)
        k1 += size * (1 - inunit[r, 1]) * (keys[r, 1] >> 3 == t)
        k2 += size * (1 - inunit[r, 2]) * (keys[r, 2] >> 3 == t)
        k3 += size * (1 - inunit[r, 3]) * (keys[r, 3] >> 3 == t)
        k4 += size * (1 - inunit[r, 4]) * (keys[r, 4] >> 3 == t)
    return ended, _index_of_keys(k0, k1, k2, k3, k4), landed


MAX_CHILDREN = 21  # 5 racing dice x 3 faces + 6 grey faces


@njit(cache=True)
def _pack(tr):
    """The camels' spaces and heights as one 56-bit integer (a node's identity)."""
    key = 0
    for c in range(N_CAMELS):
        key |= ((tr[SP + c] - ABSENT) * 8 + tr[HT + c]) << (8 * c)
    return key


@njit(cache=True)
def _expand(tr, tile, mine, mask, w, inc, leg_left, hist, land, kids, kid_info, scratch):
    """All outcomes of the next reveal from one node of weight ``w`` (see
    ``leg_distribution``). Finished outcomes (the game ended, or the last reveal of the
    leg: ``leg_left`` dice are left after it) go into ``hist``; the others are written to
    ``kids`` / ``kid_info`` (mask, weight, own-tile landings) and their number is
    returned. ``scratch`` is a (3, 5) work array for ``_lift``."""
    m = die_count(mask)
    last = m - 1 <= leg_left
    grey_w = w // (6 * m)
    n = 0
    keys = scratch[0:1]
    rel = scratch[1:2]
    inunit = scratch[2:3]
    for die in range(N_DICE):
        if not (mask >> die) & 1:
            continue
        for face in range(6 if die == GREY else 3):
            if die < GREY:
                fw = 2 * grey_w
                direction = 1
                if face == 0:
                    s, size = _lift(tr, die, keys, rel, inunit, 0)
            else:
                fw = grey_w
                direction = -1
                if face == 0 or face == 3:
                    mover = crazy_mover(tr, WHITE if face == 0 else BLACK)
                    s, size = _lift(tr, mover, keys, rel, inunit, 0)
            ended, idx, landed = _outcome(tr, tile, s, size, direction, face % 3 + 1,
                                          keys, rel, inunit, 0)
            k = inc
            if landed:
                land[landed] += fw
                k += mine[landed]
            if ended or last:
                hist[1 if ended else 0, idx, k] += fw
                continue
            for i in range(TRACK_SIZE):
                kids[n, i] = tr[i]
            roll(kids[n], tile, die, face)
            kid_info[n, 0] = mask & ~(1 << die)
            kid_info[n, 1] = fw
            kid_info[n, 2] = k
            n += 1
    return n


@njit(cache=True)
def _merge(tracks, info, n, table, kids, kid_info, n_kids):
    """Add the children to the next level, merging equal nodes (same camels, dice and
    own-tile landings) by summing their weights. ``table`` is an open-addressing hash
    index into the level (-1 = free). Returns the new level size; the caller grows the
    arrays beforehand so that ``n + n_kids`` fit and the table stays at most half full."""
    cap = table.shape[0]
    for j in range(n_kids):
        key = _pack(kids[j])
        tag = kid_info[j, 0] | (kid_info[j, 2] << 8)
        slot = ((key * 0x2545F4914F6CDD1D) ^ (tag * 0x632BE59BD9B4E019)) & (cap - 1)
        while True:
            i = table[slot]
            if i < 0:
                table[slot] = n
                for q in range(TRACK_SIZE):
                    tracks[n, q] = kids[j, q]
                info[n, 0] = kid_info[j, 0]
                info[n, 1] = kid_info[j, 1]
                info[n, 2] = kid_info[j, 2]
                info[n, 3] = key
                n += 1
                break
            if info[i, 3] == key and info[i, 0] == kid_info[j, 0] and \
                    info[i, 2] == kid_info[j, 2]:
                info[i, 1] += kid_info[j, 1]
                break
            slot = (slot + 1) & (cap - 1)
    return n


@njit(cache=True)
def _rehash(info, n, cap):
    table = np.full(cap, -1, dtype=np.int64)
    for i in range(n):
        tag = info[i, 0] | (info[i, 2] << 8)
        slot = ((info[i, 3] * 0x2545F4914F6CDD1D) ^ (tag * 0x632BE59BD9B4E019)) & (cap - 1)
        while table[slot] >= 0:
            slot = (slot + 1) & (cap - 1)
        table[slot] = i
    return table


@njit(cache=True)
def leg_denominator(mask, leg_left):
    """Common denominator of every leaf weight: prod of 6m over the reveals left."""
    m = die_count(mask)
    total = 1
    while m > leg_left:
        total *= 6 * m
        m -= 1
    return total


@njit(cache=True)
def _levels(tr0, tile, mine, mask, leg_left, total, depth):
    """Expand the first ``depth`` reveals level by level (``leg_left``: dice left at the
    end of the leg, fewer than are left after those reveals), merging equal nodes. Returns
    (hist, land, tracks, info, n): finished leaves so far and the ``n`` open nodes of the
    last level (``info`` rows: mask, weight, own-tile landings, packed key)."""
    hist = np.zeros((2, N_PERMS, MAX_INCOME), dtype=np.int64)
    land = np.zeros(N_SPACES + 2, dtype=np.int64)
    kids = np.empty((MAX_CHILDREN, TRACK_SIZE), dtype=tr0.dtype)
    kid_info = np.empty((MAX_CHILDREN, 3), dtype=np.int64)
    scratch = np.empty((3, N_RACING), dtype=np.int64)
    tracks = np.empty((1, TRACK_SIZE), dtype=tr0.dtype)
    copy_into(tracks[0], tr0)
    info = np.zeros((1, 4), dtype=np.int64)
    info[0, 0] = mask
    info[0, 1] = total
    n = 1
    for _ in range(depth):
        cap_nodes = 64
        while cap_nodes < 4 * n:  # a power of two: the hash table masks with cap - 1
            cap_nodes *= 2
        nxt = np.empty((cap_nodes, TRACK_SIZE), dtype=tr0.dtype)
        nxt_info = np.empty((cap_nodes, 4), dtype=np.int64)
        table = np.full(4 * cap_nodes, -1, dtype=np.int64)
        n_next = np.int64(0)
        for i in range(n):
            n_kids = _expand(tracks[i], tile, mine, info[i, 0], info[i, 1], info[i, 2],
                             leg_left, hist, land, kids, kid_info, scratch)
            if n_next + n_kids > cap_nodes:
                cap_nodes *= 2
                nxt = grown(nxt, cap_nodes)
                nxt_info = grown(nxt_info, cap_nodes)
                table = _rehash(nxt_info, n_next, 4 * cap_nodes)
            n_next = _merge(nxt, nxt_info, n_next, table, kids, kid_info, n_kids)
        tracks = nxt
        info = nxt_info
        n = n_next
    return hist, land, tracks, info, n


@njit(cache=True)
def _fill(tr0, tile, mine, mask, leg_left, hist, land):
    """Exact distribution of the rest of the leg into ``hist`` / ``land`` (see
    ``leg_distribution``); returns the denominator."""
    total = leg_denominator(mask, leg_left)
    level_hist, level_land, tracks, info, n = _levels(tr0, tile, mine, mask, leg_left, total,
                                                      die_count(mask) - leg_left - 1)
    hist += level_hist
    land += level_land
    kids = np.empty((MAX_CHILDREN, TRACK_SIZE), dtype=tr0.dtype)
    kid_info = np.empty((MAX_CHILDREN, 3), dtype=np.int64)
    scratch = np.empty((3, N_RACING), dtype=np.int64)
    for i in range(n):
        _expand(tracks[i], tile, mine, info[i, 0], info[i, 1], info[i, 2], leg_left,
                hist, land, kids, kid_info, scratch)
    return total


@njit(cache=True, inline="always")
def leg_distribution(tr0, tile, mine, mask, leg_left):
    """Exact distribution of the rest of the current leg.

    Returns ``(hist, land, denominator)``: ``hist[e, p, k]`` is the integer weight of
    finishing the leg with ranking index ``p`` (see ``perm_orders``), ``e = 1`` if the
    game ended, and ``k`` landings on tiles flagged in ``mine``; ``land[s]`` is the
    weighted number of landings on space ``s``. Probabilities are weights / denominator.

    Integer weights: a node of weight w with m dice inside gives each racing face
    w // (6m) * 2 and each grey face w // (6m). The tree is walked level by level
    (one reveal per level) and equal nodes of a level are merged, which cuts a fresh
    leg's 320,760 leaves to about 44,000 outcome evaluations.
    """
    hist = np.zeros((2, N_PERMS, MAX_INCOME), dtype=np.int64)
    land = np.zeros(N_SPACES + 2, dtype=np.int64)
    total = _fill(tr0, tile, mine, mask, leg_left, hist, land)
    return hist, land, total


@njit(cache=True, nogil=True)
def layout_distributions(tr0, tiles, mines, mask, leg_left):
    """``leg_distributions``' (hists, lands) for the layouts in the rows of ``tiles`` and
    ``mines``, on this thread."""
    n = tiles.shape[0]
    hists = np.zeros((n, 2, N_PERMS, MAX_INCOME), dtype=np.int64)
    lands = np.zeros((n, N_SPACES + 2), dtype=np.int64)
    for i in range(n):
        _fill(tr0, tiles[i], mines[i], mask, leg_left, hists[i], lands[i])
    return hists, lands


def leg_distributions(tr0, tiles, mines, mask, leg_left):
    """``leg_distribution`` for several tile layouts at once: row ``i`` of ``tiles`` and
    ``mines`` is one layout. Layouts spread over the threads (``threads.rows``); each is
    enumerated on its own, so the result does not depend on the number of threads.
    Returns (hists, lands, total)."""
    hists, lands = rows(lambda i, n: layout_distributions(tr0, tiles[i:i + n], mines[i:i + n],
                                                          mask, leg_left), len(tiles))
    return hists, lands, leg_denominator(mask, leg_left)
