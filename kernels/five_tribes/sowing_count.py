"""Sowings counted and drawn in closed form, without listing them (docs/games/five-tribes.md
§7.3): the board's full sequences split into strata by (start s, final tile t, last colour
c), each stratum's count a sum over e, the visits to t before the last step, of (walks of
that s, t and e: pure board geometry, ``walk_tables``) x (legal colour orders of such a
walk: ``sowing._order_table``). Stacks of any height up to ``MAX_STACK``; a 20-stack has
about 10**17 sequences, so totals are summed in floats or by the caller in Python
integers, never in int64.

Uniform draws follow the same split: a stratum term, then a uniform walk among its walks
(descent through ``walks``, each step weighted by the walks that can still finish), then
a uniform order of the rest of the stack before the last c.
"""

from functools import lru_cache

import numpy as np
from ..jit import njit

from ..arrays import copy_into
from ..rng import below, next_u64
from .board import COLS, N_COLOURS, N_TILES, NEIGHBOURS
from .sowing import LIVE, MAX_STACK, _order_table, _tallest


def _back() -> np.ndarray:
    """``[tile, k]``: the slot of ``tile`` among the neighbours of its k-th neighbour."""
    out = np.full((N_TILES, 4), -1, dtype=np.int64)
    for t in range(N_TILES):
        for k in range(4):
            nb = NEIGHBOURS[t, k]
            if nb >= 0:
                out[t, k] = list(NEIGHBOURS[nb]).index(t)
    return out


BACK_SLOT = _back()
NO_PREVIOUS = 4  # the "entered from" slot of a walk's start tile: no previous tile
MAX_EARLIER = (MAX_STACK - 1) // 4  # a walk revisits a tile after >= 4 steps (grid girth)
N_EARLIER = MAX_EARLIER + 1
# int64 counts hold every board whose stacks are at most this tall: a stack of n has at
# most 4 x 3**(n - 1) walks times n! colour orders, and 90 meeples make 6 stacks of 14
INT_STACK = 14


@njit(cache=True)
def walk_tables():
    """(``walks``, ``paths``), pure board geometry. ``walks[t, cur, came, k, e]``: the
    non-backtracking walks of exactly ``k`` more steps from tile ``cur`` (entered from its
    neighbour slot ``came``; ``NO_PREVIOUS``: no previous tile) that end on tile ``t`` and step
    on ``t`` exactly ``e`` times before their last step; k <= ``MAX_STACK``.
    ``paths[s, n, t, e] = walks[t, s, NO_PREVIOUS, n, e]``: the sowing paths of a stack of n on
    ``s`` that end on ``t`` after ``e`` earlier visits (laid out for ``count_sowings``)."""
    walks = np.zeros((N_TILES, N_TILES, 5, MAX_STACK + 1, N_EARLIER), dtype=np.int64)
    for t in range(N_TILES):
        walks[t, t, :, 0, 0] = 1
        for k in range(1, MAX_STACK + 1):
            for cur in range(N_TILES):
                for came in range(5):
                    if came < 4 and NEIGHBOURS[cur, came] < 0:
                        continue
                    for j in range(4):
                        nb = NEIGHBOURS[cur, j]
                        if nb < 0 or j == came:
                            continue
                        visit = 1 if nb == t and k > 1 else 0
                        for e in range(visit, N_EARLIER):
                            walks[t, cur, came, k, e] += walks[t, nb, BACK_SLOT[cur, j], k - 1,
                                                               e - visit]
    paths = np.zeros((N_TILES, MAX_STACK + 1, N_TILES, N_EARLIER), dtype=np.int64)
    for s in range(N_TILES):
        for n in range(MAX_STACK + 1):
            for t in range(N_TILES):
                copy_into(paths[s, n, t], walks[t, s, NO_PREVIOUS, n])
    return walks, paths


@lru_cache(maxsize=1)
def walk_tables_once() -> tuple[np.ndarray, np.ndarray]:
    """``walk_tables()``, computed once per process (read-only by every kernel)."""
    return walk_tables()


@njit(cache=True)
def _uniform(rng, n):
    """An integer uniform on [0, n): ``below`` for n < 2**32, else 64 random bits modulo
    n (a bias below n / 2**64)."""
    if n < 4294967296:
        return below(rng, n)
    return np.int64(next_u64(rng) % np.uint64(n))


@njit(cache=True, inline="always")
def _legal(counts, s, t, c):
    """The final tile ``t`` holds colour ``c`` before a sowing from ``s`` (emptied)."""
    return t != s and counts[t, c] > 0


@njit(cache=True, inline="always")
def _term_orders(counts, s, t, e, c, end_rule, tab):
    """Legal colour orders of one walk from ``s`` ending on ``t`` after ``e`` earlier
    visits with last colour ``c`` (``tab``: the stack's ``_order_table``): every order
    ending in c when c is on t already; under the live rule with e >= 1, those in which an
    earlier visit to t gets a c too; else none."""
    if counts[s, c] == 0:
        return 0
    if _legal(counts, s, t, c):
        return tab[c, 0]
    if e >= 1 and end_rule == LIVE:
        return tab[c, e]
    return 0


@njit(cache=True)
def _start_weight(counts, s, n, end_rule, paths, tab, pick, out_tec):
    """The full sowing sequences from start tile ``s`` (a stack of ``n``; ``tab``: its
    ``sowing._order_table``): the sum over final tile t, earlier visits e to t and last
    colour c of (paths of that t and e, ``walk_tables``) x ``_term_orders``. With ``pick``
    >= 0, stop at the (t, e, c) term holding sequence ``pick`` of ``s``: ``out_tec`` =
    (t, e, c, ``pick`` within the term); returns the sequences before it."""
    w = 0
    for t in range(N_TILES):
        d = abs(s // COLS - t // COLS) + abs(s % COLS - t % COLS)
        if d > n or (n - d) % 2:
            continue
        for e in range(N_EARLIER):
            ways = paths[s, n, t, e]
            if ways == 0:
                continue
            for c in range(N_COLOURS):
                orders = _term_orders(counts, s, t, e, c, end_rule, tab)
                if orders == 0:
                    continue
                if 0 <= pick < w + ways * orders:
                    out_tec[0], out_tec[1], out_tec[2], out_tec[3] = t, e, c, pick - w
                    return w
                w += ways * orders
    return w


@njit(cache=True)
def count_sowings(counts, end_rule, tables, per_start, tab):
    """The number of full sowing sequences of ``counts[30, 5]`` (``list_sowings``' rows)
    in closed form (``_start_weight``; int64: boards of stacks up to ``INT_STACK``):
    ``per_start[30]`` gets each start tile's share; ``tab``: scratch of
    (5, ``MAX_STACK``); ``tables``: ``walk_tables()``."""
    total = 0
    none = np.zeros(4, dtype=np.int64)
    hand = np.zeros(N_COLOURS, dtype=np.int64)
    for s in range(N_TILES):
        n = counts[s].sum()
        per_start[s] = 0
        if n == 0:
            continue
        copy_into(hand, counts[s])
        _order_table(hand, n, end_rule, tab)
        per_start[s] = _start_weight(counts, s, n, end_rule, tables[1], tab, np.int64(-1),
                                      none)
        total += per_start[s]
    return total


@njit(cache=True, inline="always")
def _stack_orders(counts, s, end_rule, hand, tab):
    """The height n of ``s``'s stack, with its colour orders in ``tab``
    (``sowing._order_table``; ``hand``: scratch) when n > 0."""
    n = counts[s].sum()
    if n > 0:
        copy_into(hand, counts[s])
        _order_table(hand, n, end_rule, tab)
    return n


@njit(cache=True)
def sowing_strata(counts, end_rule, paths):
    """The strata of the board's sowings: ``strata[h] = (s, t, c)`` for every start,
    final tile and last colour with a legal sowing (in that order), and ``terms[h, e] =
    (walks, colour orders per walk)`` by earlier visits e to t; stratum h holds sum_e
    walks x orders full sequences. ``paths``: ``walk_tables()[1]``."""
    strata = np.zeros((N_TILES * N_TILES * N_COLOURS, 3), dtype=np.int64)
    terms = np.zeros((N_TILES * N_TILES * N_COLOURS, N_EARLIER, 2), dtype=np.int64)
    tab = np.zeros((N_COLOURS, MAX_STACK), dtype=np.int64)
    hand = np.zeros(N_COLOURS, dtype=np.int64)
    h = 0
    for s in range(N_TILES):
        n = _stack_orders(counts, s, end_rule, hand, tab)
        if n == 0:
            continue
        for t in range(N_TILES):
            for c in range(N_COLOURS):
                found = False
                for e in range(N_EARLIER):
                    ways = paths[s, n, t, e]
                    orders = _term_orders(counts, s, t, e, c, end_rule, tab)
                    if ways > 0 and orders > 0:
                        terms[h, e, 0], terms[h, e, 1] = ways, orders
                        found = True
                if found:
                    strata[h, 0], strata[h, 1], strata[h, 2] = s, t, c
                    h += 1
    return strata[:h], terms[:h]


@njit(cache=True)
def stratum_weights(terms):
    """``weights[h, e]``: the full sequences of each stratum of ``sowing_strata`` by
    earlier visits, as floats (walks x orders of its terms; a product may pass 2**63)."""
    weights = np.zeros((len(terms), N_EARLIER), dtype=np.float64)
    for h in range(len(terms)):
        for e in range(N_EARLIER):
            weights[h, e] = float(terms[h, e, 0]) * float(terms[h, e, 1])
    return weights


@njit(cache=True)
def sowing_exists(counts, end_rule, paths):
    """True if the board has a legal sowing (``paths``: ``walk_tables()[1]``): the first
    stratum of ``sowing_strata`` found ends the search."""
    tab = np.zeros((N_COLOURS, MAX_STACK), dtype=np.int64)
    hand = np.zeros(N_COLOURS, dtype=np.int64)
    for s in range(N_TILES):
        n = _stack_orders(counts, s, end_rule, hand, tab)
        if n == 0:
            continue
        for t in range(N_TILES):
            for e in range(N_EARLIER):
                if paths[s, n, t, e] == 0:
                    continue
                for c in range(N_COLOURS):
                    if _term_orders(counts, s, t, e, c, end_rule, tab) > 0:
                        return True
    return False


@njit(cache=True)
def draw_walk(walks, s, t, e, n, rng, path):
    """A uniform walk of ``n`` steps from ``s`` ending on ``t`` after exactly ``e``
    earlier visits to it, into ``path[:n]`` (the tiles stepped on). ``walks``:
    ``walk_tables()[0]``; there must be such a walk."""
    cur, came, left, earlier = s, NO_PREVIOUS, n, e
    weights = np.zeros(4, dtype=np.int64)
    for i in range(n):
        total = np.int64(0)
        for j in range(4):
            nb = NEIGHBOURS[cur, j]
            weights[j] = 0
            if nb < 0 or j == came:
                continue
            visit = 1 if nb == t and left > 1 else 0
            if earlier >= visit:
                weights[j] = walks[t, nb, BACK_SLOT[cur, j], left - 1, earlier - visit]
            total += weights[j]
        r = _uniform(rng, total)
        j = 0
        while r >= weights[j]:
            r -= weights[j]
            j += 1
        nb = NEIGHBOURS[cur, j]
        if nb == t and left > 1:
            earlier -= 1
        path[i] = nb
        came = BACK_SLOT[cur, j]
        cur = nb
        left -= 1


@njit(cache=True)
def draw_order(counts, s, t, c, n, rng, path, colours):
    """A uniform legal colour order of ``s``'s stack ending in ``c`` along ``path[:n]``
    (ending on ``t``), into ``colours[:n]``: a shuffle of the rest of the stack, redrawn
    while c is legal only through an earlier drop on t and no earlier visit got one."""
    m = 0
    for x in range(N_COLOURS):
        for _ in range(counts[s, x] - (1 if x == c else 0)):
            colours[m] = x
            m += 1
    colours[n - 1] = c
    while True:
        for i in range(n - 2, 0, -1):
            j = below(rng, i + 1)
            colours[i], colours[j] = colours[j], colours[i]
        if _legal(counts, s, t, c):
            return
        for i in range(n - 1):
            if path[i] == t and colours[i] == c:
                return


@njit(cache=True)
def _pick(weights, rng):
    """An index drawn with probability ``weights[i] / weights.sum()`` (floats, at least
    one positive)."""
    u = (next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * weights.sum()
    i = 0
    while i < len(weights) - 1 and u >= weights[i]:
        u -= weights[i]
        i += 1
    while weights[i] == 0:  # rounding at the top end: the last index with a weight
        i -= 1
    return i


@njit(cache=True)
def draw_in_stratum(counts, walks, stratum, weights, rng, path, colours):
    """A uniform full sequence of one stratum (``sowing_strata``): ``stratum`` = (s, t,
    c), ``weights[e]`` its sequences by earlier visits as floats (they may pass 2**63);
    writes ``path[:n]``, ``colours[:n]`` and returns n."""
    s, t, c = stratum[0], stratum[1], stratum[2]
    e = _pick(weights, rng)
    n = counts[s].sum()
    draw_walk(walks, s, t, e, n, rng, path)
    draw_order(counts, s, t, c, n, rng, path, colours)
    return n


@njit(cache=True)
def random_sowing(counts, end_rule, tables, rng, per_start, tab, path, colours):
    """A uniformly random full sowing sequence of ``counts[30, 5]`` (every row of
    ``list_sowings`` equally likely), drawn without listing them: a uniform sequence
    number picks the start tile and the (t, e, c) term of the closed-form count, then
    ``draw_walk`` and ``draw_order``; with a stack taller than ``INT_STACK`` (the count may
    pass 2**63), a stratum picked by its share in floats, then ``draw_in_stratum``.
    ``tables``: ``walk_tables()``; ``per_start``, ``tab``: scratch of ``count_sowings``.
    Writes the tiles stepped on and the colours dropped into ``path[:n]``,
    ``colours[:n]`` and returns (start, n); (-1, 0) if there is no legal sowing."""
    if _tallest(counts) > INT_STACK:
        strata, terms = sowing_strata(counts, end_rule, tables[1])
        if len(strata) == 0:
            return -1, 0
        weights = stratum_weights(terms)
        sizes = np.zeros(len(strata), dtype=np.float64)
        for h in range(len(strata)):
            sizes[h] = weights[h].sum()
        h = _pick(sizes, rng)
        return strata[h, 0], draw_in_stratum(counts, tables[0], strata[h], weights[h], rng,
                                             path, colours)
    total = count_sowings(counts, end_rule, tables, per_start, tab)
    if total == 0:
        return -1, 0
    return draw_counted(counts, end_rule, tables, rng, per_start, total, tab, path, colours)


@njit(cache=True)
def draw_counted(counts, end_rule, tables, rng, per_start, total, tab, path, colours):
    """``random_sowing`` once the board is counted: ``per_start`` and ``total`` (> 0) from
    ``count_sowings`` (stacks up to ``INT_STACK``), so that several sequences can be drawn
    for one count. Same arguments and result as ``random_sowing``."""
    k = _uniform(rng, total)
    s = 0
    while k >= per_start[s]:
        k -= per_start[s]
        s += 1
    n = counts[s].sum()
    _order_table(counts[s].copy(), n, end_rule, tab)
    tec = np.zeros(4, dtype=np.int64)
    _start_weight(counts, s, n, end_rule, tables[1], tab, k, tec)
    t, e, c = tec[0], tec[1], tec[2]
    draw_walk(tables[0], s, t, e, n, rng, path)
    draw_order(counts, s, t, c, n, rng, path, colours)
    return s, n
