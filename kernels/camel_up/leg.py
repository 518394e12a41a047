"""Exact enumeration of the rest of a Camel Up leg (docs/games/camel-up.md §9), with integer
weights."""

import numpy as np
from ..jit import njit

from ..threads import rows
from .track import (
    BLACK, CNT, CROSSED_CCW, CROSSED_CW, GREY, HT, MAX_INCOME, N_CAMELS, N_DICE, N_PERMS,
    N_SPACES, SP, TRACK_SIZE, WHITE, ABSENT, _index_of_keys, crazy_mover, die_count,
    pushed,
)


@njit(cache=True)
def _pack(tr):
    """The camels' spaces and heights as one 56-bit integer (a node's identity): byte
    ``c`` is ``(space - ABSENT) * 8 + height`` of camel ``c``, so bytes order racing
    camels as (space, height) do."""
    key = 0
    for c in range(N_CAMELS):
        key |= ((tr[SP + c] - ABSENT) * 8 + tr[HT + c]) << (8 * c)
    return key


@njit(cache=True, inline="always")
def _unpack(key, tr):
    """Inverse of ``_pack`` into a track."""
    for i in range(TRACK_SIZE):
        tr[i] = 0
    for c in range(N_CAMELS):
        code = (key >> (8 * c)) & 255
        s = (code >> 3) + ABSENT
        tr[SP + c] = s
        tr[HT + c] = code & 7
        if s != ABSENT:
            tr[CNT + s] += 1


@njit(cache=True, inline="always")
def _moved(key, s, h, t, base, size, under):
    """The packed key (``_pack``) after the unit of the camel at space ``s``, height ``h``
    (``size`` camels) moves to space ``t``: on top of the ``base`` camels left there, or
    ``under`` them, who rise by ``size`` (``move_unit``'s lift and drop)."""
    out = 0
    for c in range(N_CAMELS):
        code = (key >> (8 * c)) & 255
        sc = (code >> 3) + ABSENT
        hc = code & 7
        if sc == s and hc >= h:
            code = (t - ABSENT) * 8 + hc - h + base
        elif under and sc == t:
            code += size
        out |= code << (8 * c)
    return out


@njit(cache=True, inline="always")
def _ranking_index(key):
    """``_index_of_keys`` of the racing camels of a packed key."""
    return _index_of_keys(key & 255, (key >> 8) & 255, (key >> 16) & 255, (key >> 24) & 255,
                          (key >> 32) & 255)


_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xC2B2AE3D27D4EB4F)


@njit(cache=True, inline="always")
def _home(key, tag, mask):
    """The home slot of node (``key``, ``tag``) in a hash table of ``mask + 1`` slots:
    the products' high bits folded down (their low bits alone would see only the keys'
    low bits: long probe runs)."""
    h = np.uint64(key) * _M1 ^ np.uint64(tag) * _M2
    h ^= h >> np.uint64(32)
    return np.int64(h & np.uint64(mask))


@njit(cache=True)
def _level(keys, weights, n, m, last, tile, mine, hist, land, tr, nxt_keys, nxt_weights,
           table):
    """All outcomes of the next reveal from the ``n`` nodes of a level (rows of packed
    camels ``keys[:, 0]``, tag ``keys[:, 1]``: dice | own-tile landings << 8, ``m`` dice
    each, and ``weights``). Finished outcomes (the game ended, or the ``last`` reveal of
    the leg) go into ``hist`` / ``land``; the others into the next level, equal nodes
    merged by summing their weights (``table``: an open-addressing index into its rows,
    -1 free, sized by the caller to stay at most half full). Returns the next level's
    size. A move is ``move_unit`` without moving anything: ``pushed``, then ``_moved``
    (helpers without arrays: an array a helper takes costs reference counting per move)."""
    n_next = 0
    slots = table.shape[0] - 1
    for i in range(n):
        key0 = keys[i, 0]
        dice = keys[i, 1] & 255
        inc = keys[i, 1] >> 8
        grey_w = weights[i] // (6 * m)
        _unpack(key0, tr)
        white = crazy_mover(tr, WHITE)
        black = crazy_mover(tr, BLACK)
        for die in range(N_DICE):
            if not (dice >> die) & 1:
                continue
            for face in range(6 if die == GREY else 3):
                if die < GREY:
                    fw, mover, d = 2 * grey_w, die, 1
                else:
                    fw, mover, d = grey_w, white if face < 3 else black, -1
                s = tr[SP + mover]
                h = tr[HT + mover]
                t = s + d * (face % 3 + 1)
                t, landed, under = pushed(t, tile[t] if 1 <= t <= N_SPACES else 0, d)
                ended = t > N_SPACES or t < 1
                if ended:
                    t = CROSSED_CW if t > N_SPACES else CROSSED_CCW
                size = tr[CNT + s] - h
                key = _moved(key0, s, h, t, 0 if under else tr[CNT + t] - size * (t == s),
                             size, under)
                k = inc
                if landed:
                    land[landed] += fw
                    k += mine[landed]
                if ended or last:
                    hist[1 if ended else 0, _ranking_index(key), k] += fw
                    continue
                tag = (dice & ~(1 << die)) | (k << 8)
                slot = _home(key, tag, slots)
                while True:
                    j = table[slot]
                    if j < 0:
                        table[slot] = n_next
                        nxt_keys[n_next, 0] = key
                        nxt_keys[n_next, 1] = tag
                        nxt_weights[n_next] = fw
                        n_next += 1
                        break
                    if nxt_keys[j, 0] == key and nxt_keys[j, 1] == tag:
                        nxt_weights[j] += fw
                        break
                    slot = (slot + 1) & slots
    return n_next


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
def _fill(tr0, tile, mine, mask, leg_left, hist, land):
    """Exact distribution of the rest of the leg into ``hist`` / ``land`` (see
    ``leg_distribution``); returns the denominator. The tree is walked level by level
    (one reveal per level: every node of a level has the same number of dice); a level
    is rows of packed camels (``_pack``) and tag (dice | own-tile landings << 8), with
    their weights, and equal nodes are merged as they are added."""
    total = leg_denominator(mask, leg_left)
    tr = np.empty(TRACK_SIZE, dtype=tr0.dtype)
    keys = np.empty((1, 2), dtype=np.int64)
    weights = np.empty(1, dtype=np.int64)
    keys[0, 0] = _pack(tr0)
    keys[0, 1] = mask
    weights[0] = total
    n = 1
    m = die_count(mask)
    while m > leg_left:
        last = m - 1 <= leg_left
        cap = 1  # room for every child: a power of two, the table twice as large
        while not last and cap < n * (3 * m + 3):
            cap *= 2
        nxt_keys = np.empty((cap, 2), dtype=np.int64)
        nxt_weights = np.empty(cap, dtype=np.int64)
        table = np.full(2 * cap, -1, dtype=np.int64)
        n = _level(keys, weights, n, m, last, tile, mine, hist, land, tr, nxt_keys,
                   nxt_weights, table)
        keys = nxt_keys
        weights = nxt_weights
        m -= 1
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
