"""Exact enumeration of Five Tribes sowings (docs/games/five-tribes.md §7) on ``counts[30, 5]``
boards.

A sowing picks up the n meeples of a start tile and walks n orthogonal steps, never
straight back to the tile it just left, dropping one meeple per step; the last drop must
land on a tile already holding its colour. ``end_rule``: ``LIVE`` (the tile's content at
the last drop, meeples dropped earlier in this sowing included; the start tile counts as
emptied) or ``PREMOVE`` (only the content before the sowing; the start tile empty).

The walk enumerates tile paths only (depth-first, one step added and undone at a time,
with exact reachability pruning), and counts each path's colour orders in closed form:
the drops are a permutation of the start stack's multiset, and only the last colour is
constrained, so orders ending in colour c number (n-1)! / prod(m!) for the rest m, less,
under the live rule when c is not on the final tile already, the orders in which none of
the path's earlier visits to the final tile gets a c. ``distinct_outcomes`` groups paths by
(start, final tile, visits per tile): such paths give the same outcomes, counted as the
ways to split the stack over the visited tiles with a legal final colour.
"""

from math import factorial

import numpy as np
from ..jit import njit

from ..threads import call
from .board import COLS, N_COLOURS, N_TILES, NEIGHBOURS

LIVE = 0
PREMOVE = 1
END_RULES = ("live", "premove")
COUNT_NAMES = ("full_sequences", "distinct_outcomes", "distinct_paths",
               "distinct_path_endcolour", "distinct_start_end_colour",
               "start_tiles_with_a_move")
PRUNE_FROM = 5  # stacks this tall are pruned by reachability (smaller walks are short)
MAX_STACK = 20  # largest stack whose orders fit the int64 factorial table
FACT = np.array([factorial(i) for i in range(MAX_STACK + 1)], dtype=np.int64)
HALF = N_TILES // 2
PLACE = np.array([16 ** (HALF - 1 - t % HALF) for t in range(N_TILES)], dtype=np.int64)


@njit(cache=True, inline="always")
def _orders(m, n):
    """Distinct orders of the colour multiset ``m`` (its size is ``n``)."""
    r = FACT[n]
    for c in range(N_COLOURS):
        r //= FACT[m[c]]
    return r


@njit(cache=True, inline="always")
def _distance(a, b):
    return abs(a // COLS - b // COLS) + abs(a % COLS - b % COLS)


@njit(cache=True)
def _order_table(hand, n, end_rule, tab):
    """``tab[c, 0]``: orders of the stack ending in colour c (all legal when c is on the
    final tile already); ``tab[c, k]``, k >= 1: under the live rule, those among them in
    which one of the path's k earlier visits to the final tile gets a c too (0 under
    premove)."""
    m = hand.copy()
    for c in range(N_COLOURS):
        tab[c, :n] = 0
        if hand[c] == 0:
            continue
        m[c] -= 1
        base = _orders(m, n - 1)
        tab[c, 0] = base
        rest = m[c]
        m[c] = 0
        for earlier in range(1, n):
            free = n - 1 - earlier  # positions that are not earlier visits to the final tile
            none = 0
            if free >= rest:
                none = FACT[free] // (FACT[rest] * FACT[free - rest]) * _orders(m, n - 1 - rest)
            tab[c, earlier] = base - none if end_rule == LIVE else 0
        m[c] = rest + 1


@njit(cache=True, inline="always")
def _path_orders(tn, earlier, hand, orig, tab, per_colour):
    """Fill ``per_colour[c]`` with the legal colour orders of a path ending on ``tn``
    after ``earlier`` visits to it whose last drop is colour c (see ``_order_table``)."""
    for c in range(N_COLOURS):
        if hand[c] == 0:
            per_colour[c] = 0
        elif orig[tn, c] >= 1:
            per_colour[c] = tab[c, 0]
        else:
            per_colour[c] = tab[c, earlier] if earlier >= 1 else 0


@njit(cache=True, inline="always")
def _visit(visits, key, t, delta):
    """Add ``delta`` (+1 or -1) visits to tile ``t``, keeping ``key`` = (visits packed 4
    bits a tile: tiles 0-14, tiles 15-29; tiles visited more than once) up to date."""
    if delta < 0 and visits[t] == 2:
        key[2] -= 1
    visits[t] += delta
    if delta > 0 and visits[t] == 2:
        key[2] += 1
    key[t // HALF] += delta * PLACE[t]


@njit(cache=True)
def _index(vec, radix):
    i = 0
    for c in range(N_COLOURS):
        i = i * radix[c] + vec[c]
    return i


@njit(cache=True)
def _splits(rem, sizes, k, ways, new, vec):
    """Ways to put the colour multiset ``rem`` on ``k`` tiles taking ``sizes[:k]``
    meeples each (dynamic programme over what is left; ``ways`` and ``new`` are scratch
    of at least prod(rem + 1) entries, ``vec`` of 5)."""
    if k == 0:
        return 1
    radix = rem + 1
    states = 1
    for c in range(N_COLOURS):
        states *= radix[c]
    ways[:states] = 0
    ways[_index(rem, radix)] = 1
    for i in range(k):
        v = sizes[i]
        new[:states] = 0
        for state in range(states):
            w = ways[state]
            if w == 0:
                continue
            x = state
            for c in range(N_COLOURS - 1, -1, -1):
                vec[c] = x % radix[c]
                x //= radix[c]
            for a in range(min(vec[0], v) + 1):
                for b in range(min(vec[1], v - a) + 1):
                    for d in range(min(vec[2], v - a - b) + 1):
                        for e in range(min(vec[3], v - a - b - d) + 1):
                            f = v - a - b - d - e
                            if f <= vec[4]:
                                vec[0] -= a
                                vec[1] -= b
                                vec[2] -= d
                                vec[3] -= e
                                vec[4] -= f
                                new[_index(vec, radix)] += w
                                vec[0] += a
                                vec[1] += b
                                vec[2] += d
                                vec[3] += e
                                vec[4] += f
        ways, new = new, ways
    return ways[0]


@njit(cache=True)
def _group_outcomes(path, n, hand, orig, visits, end_rule, scratch):
    """Distinct outcomes of every path with this start, final tile and visits per tile:
    splits of the stack over the visited tiles whose final tile's share holds a colour
    that may be dropped last (on the tile before, or dropped there earlier under live)."""
    tn = path[n]
    sizes = np.empty(n, dtype=np.int64)
    k = np.int64(0)
    for t in range(N_TILES):
        if visits[t] > 0 and t != tn:
            sizes[k] = visits[t]
            k += 1
    v = visits[tn]
    total = 0
    r = np.empty(N_COLOURS, dtype=np.int64)
    for a in range(min(hand[0], v) + 1):
        for b in range(min(hand[1], v - a) + 1):
            for d in range(min(hand[2], v - a - b) + 1):
                for e in range(min(hand[3], v - a - b - d) + 1):
                    f = v - a - b - d - e
                    if f > hand[4]:
                        continue
                    r[0], r[1], r[2], r[3], r[4] = a, b, d, e, f
                    legal = 0
                    for c in range(N_COLOURS):
                        if r[c] >= 1 and (orig[tn, c] >= 1 or (end_rule == LIVE and r[c] >= 2)):
                            legal += 1
                    if legal:
                        total += legal * _splits(hand - r, sizes, k, scratch[0], scratch[1],
                                                 scratch[2, :N_COLOURS])
    return total


@njit(cache=True)
def _insert(table, k0, k1, k2):
    """Add the key (k0, k1, k2) to the open-addressing set ``table`` (rows: key, used
    flag); True if it was not there. The caller keeps the table at most half full."""
    mask = table.shape[0] - 1
    h = (np.uint64(k0) * np.uint64(0x9E3779B97F4A7C15)) ^ \
        (np.uint64(k1) * np.uint64(0xC2B2AE3D27D4EB4F)) ^ \
        (np.uint64(k2) * np.uint64(0x165667B19E3779F9))
    i = np.int64((h >> np.uint64(20)) & np.uint64(mask))
    while table[i, 3]:
        if table[i, 0] == k0 and table[i, 1] == k1 and table[i, 2] == k2:
            return False
        i = (i + 1) & mask
    table[i, 0] = k0
    table[i, 1] = k1
    table[i, 2] = k2
    table[i, 3] = 1
    return True


@njit(cache=True)
def _grown(table):
    """The set ``table`` rehashed into one twice its size."""
    out = np.zeros((2 * table.shape[0], 4), dtype=np.int64)
    for i in range(table.shape[0]):
        if table[i, 3]:
            _insert(out, table[i, 0], table[i, 1], table[i, 2])
    return out


@njit(cache=True)
def _may_end(orig, hand, end_rule, t, r, visits):
    """Exact pruning: can a walk of ``r`` more steps from tile ``t`` end legally? The
    final tile lies within ``r`` steps and of the right colour on the chequerboard, and
    either holds a colour of the stack already or (live) is given one earlier in the walk:
    a tile already visited, or one the walk can reach and come back to (a loop of >= 4)."""
    for x in range(N_TILES):
        dist = _distance(t, x)
        if dist > r or (r - dist) % 2:
            continue
        for c in range(N_COLOURS):
            if hand[c] and orig[x, c]:
                return True
        if end_rule == LIVE and (visits[x] > 0 or dist + 4 <= r):
            return True
    return False


@njit(cache=True)
def _walk(counts, s, end_rule, listing, res, marks, groups, out_start, out_path, out_colour,
          out_len, buf, scratch):
    """Every path from start ``s``: with ``listing`` False add to the counts ``res``,
    ``marks`` and the outcome-group set ``groups`` (returned, grown if it had to); with it
    True append every full sequence to the out arrays at row ``res[0]`` (advanced as rows
    are written). ``buf`` and ``scratch`` are work space (see ``_run``)."""
    hand = counts[s].copy()
    n = hand.sum()
    orig = counts.copy()
    orig[s, :] = 0
    path = buf[0]
    path[0] = s
    nxt = buf[1]
    nxt[:n + 1] = 0
    visits = buf[2]
    visits[:] = 0
    per_colour = buf[3, :N_COLOURS]
    colours = buf[4]
    key = buf[3, N_COLOURS:N_COLOURS + 3]
    key[:] = 0
    tab = scratch[:N_COLOURS]
    _order_table(hand, n, end_rule, tab)
    prune = n >= PRUNE_FROM
    found = False
    depth = 1
    while depth >= 1 and not (listing and res[0] == len(out_start)):
        cur = path[depth - 1]
        k = nxt[depth]
        if k == 4 or NEIGHBOURS[cur, k] < 0:
            depth -= 1
            if depth >= 1:
                _visit(visits, key, path[depth], -1)
            continue
        nxt[depth] = k + 1
        t = NEIGHBOURS[cur, k]
        if depth >= 2 and t == path[depth - 2]:
            continue
        path[depth] = t
        _visit(visits, key, t, 1)
        if depth < n:
            if not prune or _may_end(orig, hand, end_rule, t, n - depth, visits):
                depth += 1
                nxt[depth] = 0
            else:
                _visit(visits, key, t, -1)
            continue
        _path_orders(t, visits[t] - 1, hand, orig, tab, per_colour)
        total = per_colour.sum()
        if total > 0:
            found = True
            if listing:
                _list_orders(path, n, hand, per_colour, tab, res, out_start, out_path,
                             out_colour, out_len, colours)
            else:
                res[0] += total
                res[2] += 1
                for c in range(N_COLOURS):
                    if per_colour[c] > 0:
                        res[3] += 1
                        marks[s, t, c] = True
                if _insert(groups, s * N_TILES + t, key[0], key[1]):
                    res[6] += 1
                    if 4 * res[6] > groups.shape[0]:
                        groups = _grown(groups)
                    # every tile visited once: each legal order is its own outcome
                    res[1] += total if key[2] == 0 else \
                        _group_outcomes(path, n, hand, orig, visits, end_rule,
                                        scratch[N_COLOURS:])
        _visit(visits, key, t, -1)
    if found and not listing:
        res[5] += 1
    return groups


@njit(cache=True)
def _list_orders(path, n, hand, per_colour, tab, res, out_start, out_path, out_colour,
                 out_len, colours):
    """Append every legal colour order of ``path`` (distinct permutations of the stack in
    lexicographic order, kept when its last colour is one ``per_colour`` allows and, for a
    colour allowed only through an earlier drop, such a drop happened), until the out
    arrays are full."""
    k = 0
    for c in range(N_COLOURS):
        for _ in range(hand[c]):
            colours[k] = c
            k += 1
    tn = path[n]
    while True:
        last = colours[n - 1]
        ok = per_colour[last] > 0
        if ok and per_colour[last] != tab[last, 0]:
            ok = False
            for j in range(1, n):
                if path[j] == tn and colours[j - 1] == last:
                    ok = True
                    break
        if ok:
            row = res[0]
            if row == len(out_start):
                return
            out_start[row] = path[0]
            out_len[row] = n
            for j in range(n):
                out_path[row, j] = path[j + 1]
                out_colour[row, j] = colours[j]
            res[0] = row + 1
        # next distinct permutation
        i = n - 2
        while i >= 0 and colours[i] >= colours[i + 1]:
            i -= 1
        if i < 0:
            return
        j = n - 1
        while colours[j] <= colours[i]:
            j -= 1
        colours[i], colours[j] = colours[j], colours[i]
        lo, hi = i + 1, n - 1
        while lo < hi:  # reverse colours[i + 1:n] in place
            colours[lo], colours[hi] = colours[hi], colours[lo]
            lo += 1
            hi -= 1


@njit(cache=True)
def _tallest(counts):
    """The most meeples on one tile (at least 1)."""
    tallest = 1
    for s in range(N_TILES):
        tallest = max(tallest, counts[s].sum())
    return tallest


@njit(cache=True, nogil=True)
def _run(counts, end_rule, out_start, out_path, out_colour, out_len):
    """The counts of every start tile (``COUNT_NAMES``), or, when the out arrays have
    rows, the full sequences in enumeration order written there until they are full
    (``res[0]``: how many). ``_no_rows`` makes out arrays without rows."""
    listing = len(out_start) > 0
    res = np.zeros(len(COUNT_NAMES) + 1, dtype=np.int64)
    marks = np.zeros((N_TILES, N_TILES, N_COLOURS), dtype=np.bool_)
    groups = np.zeros((512, 4), dtype=np.int64)
    tallest = _tallest(counts)
    buf = np.zeros((5, max(tallest + 1, N_TILES)), dtype=np.int64)
    scratch = np.empty((N_COLOURS + 3, max((tallest // N_COLOURS + 2) ** N_COLOURS,
                                           tallest + 1)), dtype=np.int64)
    for s in range(N_TILES):
        if counts[s].sum() > 0 and not (listing and res[0] == len(out_start)):
            groups = _walk(counts, s, end_rule, listing, res, marks, groups, out_start,
                           out_path, out_colour, out_len, buf, scratch)
    res[4] = marks.sum()
    return res[:len(COUNT_NAMES)]


def _check(counts: np.ndarray) -> np.ndarray:
    counts = np.ascontiguousarray(counts, dtype=np.int64)
    if counts.shape != (N_TILES, N_COLOURS) or (counts < 0).any():
        raise ValueError("counts must be a non-negative int array of shape (30, 5)")
    if counts.sum(axis=1).max() > MAX_STACK:
        raise ValueError(f"a stack of more than {MAX_STACK} meeples")
    return counts


@njit(cache=True)
def _no_rows():
    """Out arrays of ``_run`` without room: it counts."""
    rows = np.zeros(0, dtype=np.int64)
    table = np.zeros((0, 1), dtype=np.int64)
    return rows, table, table, rows


INLINE_STACK = 8  # up to this tall a count takes milliseconds: no thread hand-off


def sowing_counts(counts: np.ndarray, end_rule: int = LIVE) -> np.ndarray:
    """The six counts of ``COUNT_NAMES`` (docs/games/five-tribes.md §7.3) for every legal sowing of
    the board. Every walk is enumerated: the caller bounds the board
    (analyser/five_tribes/sowings.py). Boards with taller stacks than ``INLINE_STACK`` are
    counted on a kernel thread (``threads.call``: Ctrl-C stops the wait at once); on
    smaller ones the hand-off would cost more than the count (0.1 ms against 0.06 ms)."""
    counts = _check(counts)
    if counts.sum(axis=1).max() <= INLINE_STACK:
        return _run(counts, end_rule, *_no_rows())
    return call(_run, counts, end_rule, *_no_rows())


@njit(cache=True)
def list_sowings(counts, end_rule, limit):
    """The first ``limit`` full sequences in enumeration order (all of them if there are
    no more), as ``sowings`` gives them; for compiled callers, unchecked. Memory is
    ``limit`` rows: callers bound it (``sowing_count`` counts without listing)."""
    width = _tallest(counts)
    starts = np.full(limit, -1, dtype=np.int64)
    paths = np.full((limit, width), -1, dtype=np.int64)
    colours = np.full((limit, width), -1, dtype=np.int64)
    lengths = np.zeros(limit, dtype=np.int64)
    m = _run(counts, end_rule, starts, paths, colours, lengths)[0] if limit > 0 else 0
    return starts[:m], paths[:m], colours[:m], lengths[:m]


def sowings(counts: np.ndarray, end_rule: int = LIVE, limit: int | None = None):
    """The full sequences: ``(starts[m], paths[m, L], colours[m, L], lengths[m])``, the
    tiles stepped on and the colours dropped in order, padded with -1 beyond each
    sowing's length (L = the largest stack); every one, or the first ``limit`` in
    enumeration order."""
    counts = _check(counts)
    if limit is None:
        limit = int(_run(counts, end_rule, *_no_rows())[0])
    return list_sowings(counts, end_rule, np.int64(limit))
