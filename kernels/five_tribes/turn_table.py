"""Tables of every complete turn of the player to move (``turn_walk``), merged by result
and filled a chunk at a time into a store of fixed size (``turn_store``), and the greedy
choice.

Callers add sowings a chunk at a time (``add_outcomes``, ``add_draws``), so that Python can
show progress and notice Ctrl-C between chunks. Each chunk walks the whole turn tree with
the sowing step restricted to its sowings; the combinations that end before the sowing (a
draw by a power used before it, or a board changed by one) belong to the first chunk
(``add_outcomes`` from group 0; with no group, ``o0 = o1 = 0``, they alone).

- Exact: ``sowing_outcomes`` groups the full sequences by the board they leave and what
  they take; ``add_outcomes`` adds groups, every choice around each, weighted by its
  sequences. With no legal sowing the one outcome is the turn without a sowing.
- Sampled: draw d is a uniform full sequence of stratum d mod H (``sowing_strata``:
  (start, final tile, colour)), so every stratum gets one draw per round; every choice
  around it is enumerated. ``counts`` then counts hits, and ``stats`` holds, per row, what
  a stratified estimate of its count and standard error needs (``turn_store``). Rows that
  end before the sowing are counted exactly (``add_outcomes`` with no group).
- Greedy (``greedy``), in two stages (docs/games/five-tribes.md §20.9): first the
  first turn in enumeration order with the largest change of the mover's final score (an
  expectation for a turn ending in a draw) among the turns that use no power before the
  sowing nor after the tile action; then, from the state that turn reaches after its tile
  action, the first best use of the window there (stopping included) and sale. Exact when
  the board has at most ``GREEDY_SOWINGS`` full sequences, else the best after
  ``GREEDY_DRAWS`` sampled sowings (complete rounds over the strata, seed
  ``GREEDY_SEED``). The best rest of a turn after a draw (its value, §20.6) is found over
  the same sowings, every power included.
- ``greedy`` also plays the greedy turn, a draw it makes drawn from ``rng``, then the
  greedy rest of the turn for what was drawn (``play_greedy_turn``), or plays that rest
  after a draw made outside (``greedy_rest``: a ``then best`` row played along,
  analyser/five_tribes/play.py).
"""

import numpy as np
from ..jit import njit

from ..arrays import copy_into
from ..rng import stream
from ..threads import call
from .board import N_COLOURS, N_TILES
from .borrow import borrowed
from .complete_turns import ACTION_SIZE, N_PARTS, S_PRE, clear_action
from .rounds import marker_to_bid_track
from .sowing import MAX_STACK, _no_rows, _run, list_sowings
from .sowing_count import draw_in_stratum, sowing_strata, stratum_weights, walk_tables_once
from .state import END_RULE, STATE_SIZE, T_MEEPLES, TO_MOVE, meeples
from .turn_store import (  # noqa: F401 (re-exported: the analyser's view of the store)
    EXACT_HOME, KEY_WORDS, M_FULL, M_ROWS, M_TOUCHED, N_STATS, S_EST, S_HOME, S_HOME2,
    S_OTHER, new_store, settle, sowing_outcomes, store_of,
)
from .turn_walk import (
    C_DEFER, C_DEPTH, C_EMIT_PRE, C_EMIT_SOWN, C_FIRST_STAGE, C_MOVER, C_SAMPLED, DEFER_NONE,
    GREEDY, MEMO_ROWS, N_COUNTERS, OP_NONE, OP_WINDOW, STACK_DEPTH, TABLE, call_walk, leaf_value,
    realise,
)

GREEDY_SOWINGS = 100_000  # the greedy choice is exact up to this many full sequences
GREEDY_DRAWS = 4_096  # beyond: the best after this many sampled sowings (rounded up to
# whole rounds over the strata, as ``advise --samples``)
GREEDY_SEED = 0


@njit(cache=True)
def workspace():
    """Scratch of the walks of one position and its sowings: (merge key bytes, the greedy
    choice's state, its draw (kind, target, step it resumes at), a zero draw, the best
    rests before the sowing found so far: their keys and values (``turn_walk.memo_slot``),
    the stacks of states, value rows and action rows of ``turn_walk._take``)."""
    return (np.zeros(8 * KEY_WORDS, dtype=np.uint8), np.zeros(STATE_SIZE, dtype=np.int64),
            np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64),
            np.empty((MEMO_ROWS, KEY_WORDS), dtype=np.uint64),
            np.zeros((MEMO_ROWS, N_PARTS + 1)),
            np.empty((STACK_DEPTH, STATE_SIZE), dtype=np.int64),
            np.empty((STACK_DEPTH, N_PARTS + 1)),
            np.empty((STACK_DEPTH, ACTION_SIZE), dtype=np.int64))


@njit(cache=True)
def _context(st, store, ws, table_sw, best_sw, o0, o1, emit_pre, emit_sown, sampled):
    """(state after the marker move, ``walk``'s context) for the player to move in ``st``."""
    mover = st[TO_MOVE]
    base = st.copy()
    marker_to_bid_track(base)
    before = leaf_value(base, mover, np.zeros(N_PARTS))
    counters = np.zeros(N_COUNTERS, dtype=np.int64)
    counters[C_MOVER], counters[C_EMIT_PRE], counters[C_EMIT_SOWN] = mover, emit_pre, emit_sown
    counters[C_SAMPLED] = sampled
    board = base[T_MEEPLES:T_MEEPLES + N_TILES * N_COLOURS].copy()
    return base, (store, before, table_sw, best_sw, np.array([o0, o1]), counters, board, ws)


@njit(cache=True)
def _walk_from(s, act, step, mode, ctx):
    """``walk`` in ``mode`` from ``step`` in state ``s``, the choices so far ``act``. The
    one kernel here that calls ``walk``, through its symbol (``call_walk``): the kernels
    around it hold a call to the one compiled walk, not a copy each. Not inlined: ``s``,
    ``act`` and ``ctx`` are passed to ``walk`` borrowed (``borrow``), which holds only while
    a caller keeps them alive; inlined, the caller's last use of ``ctx`` would be the
    borrow, and numba frees what only ``ctx`` holds before ``walk`` runs
    (tests/five_tribes/test_djinn_turns.py crashed). The walk's value row is slot 0 of the
    scratch stacks (``turn_walk._take``)."""
    unowned = borrowed(ctx)
    acc = unowned[7][7][0]
    acc[:] = 0.0
    unowned[5][C_DEPTH] = 1
    call_walk(borrowed(s), borrowed(act), step, np.int64(1), mode, acc, unowned, OP_NONE, 0)


@njit(cache=True, inline="always")
def _start(base, ctx, mode):
    act = np.zeros(ACTION_SIZE, dtype=np.int64)
    clear_action(act)
    _walk_from(base, act, S_PRE, mode, ctx)


@njit(cache=True, nogil=True)
def add_outcomes(st, sowings, first, mult, o0, o1, store, ws, defer):
    """Add outcome groups ``o0 .. o1 - 1`` of ``sowing_outcomes`` (``sowings``: the listed
    ``(starts, paths, colours, lengths)``; no groups: the turn without a sowing, o 0) with
    every choice around each (exact), for the player to move in ``st``; from group 0 also
    the turns that end before the sowing. ``defer``: how draws are valued (``DEFER_*``).
    Returns ``o1``; ``store[10][M_FULL]`` says if a turn found no room. With
    ``o0 = o1 = 0`` only the turns that end before the sowing, their draws' best rests
    sought over ``sowings`` (``board_sowings`` for a sampled table)."""
    sw = (sowings[0], sowings[1], sowings[2], sowings[3], first, mult)
    base, ctx = _context(st, store, ws, sw, sw, o0, o1, o0 == 0, True, False)
    ctx[5][C_DEFER] = defer
    _start(base, ctx, TABLE)
    return o1


@njit(cache=True, nogil=True)
def add_draws(st, strata, weights, walks, rng, d0, d1, store, ws, best_sw):
    """Add draws ``d0 .. d1 - 1``: draw d a uniform full sequence of stratum d mod H of
    ``sowing_strata`` (``weights[h, e]``: its sequences by earlier visits, floats), from
    the stream ``rng`` (advanced), with every choice around it, for the player to move in
    ``st``. ``walks``: ``walk_tables()[0]``; ``best_sw``: the sowings over which a draw's
    best rest is found (``board_sowings``)."""
    counts = meeples(st)
    starts = np.zeros(1, dtype=np.int64)
    paths = np.full((1, MAX_STACK), -1, dtype=np.int64)
    colours = np.full((1, MAX_STACK), -1, dtype=np.int64)
    lengths = np.zeros(1, dtype=np.int64)
    one = np.ones(1, dtype=np.int64)
    for d in range(d0, d1):
        h = d % len(strata)
        lengths[0] = draw_in_stratum(counts, walks, strata[h], weights[h], rng, paths[0],
                                     colours[0])
        starts[0] = strata[h, 0]
        sw = (starts, paths, colours, lengths, np.zeros(1, dtype=np.int64), one)
        base, ctx = _context(st, store, ws, sw, best_sw, 0, 1, False, True, True)
        _start(base, ctx, TABLE)
        settle(store, weights[h].sum(), h)


@njit(cache=True)
def board_sowings(st, walks, paths):
    """The sowings of ``st``'s board a greedy choice looks at, grouped as
    ``sowing_outcomes`` (starts, paths, colours, lengths, first, mult): every one when
    there are at most ``GREEDY_SOWINGS``, else ``GREEDY_DRAWS`` drawn in whole rounds over
    the strata from the stream (``GREEDY_SEED``, 0), each its own group."""
    counts = meeples(st)
    strata, terms = sowing_strata(counts, st[END_RULE], paths)
    weights = stratum_weights(terms)
    if weights.sum() <= GREEDY_SOWINGS:
        total = _run(counts, st[END_RULE], *_no_rows())[0]
        starts, ps, colours, lengths = list_sowings(counts, st[END_RULE], total)
        first, mult = sowing_outcomes(st, starts, ps, colours, lengths)
        return starts.copy(), ps.copy(), colours.copy(), lengths.copy(), first.copy(), mult.copy()
    n = (GREEDY_DRAWS + len(strata) - 1) // len(strata) * len(strata)
    rng = stream(np.uint64(GREEDY_SEED), np.int64(0))
    starts = np.zeros(n, dtype=np.int64)
    ps = np.full((n, MAX_STACK), -1, dtype=np.int64)
    colours = np.full((n, MAX_STACK), -1, dtype=np.int64)
    lengths = np.zeros(n, dtype=np.int64)
    for d in range(n):
        h = d % len(strata)
        lengths[d] = draw_in_stratum(counts, walks, strata[h], weights[h], rng, ps[d], colours[d])
        starts[d] = strata[h, 0]
    return starts, ps, colours, lengths, np.arange(n), np.ones(n, dtype=np.int64)


@njit(cache=True, inline="always")
def _resume(store, ws, ctx, s):
    """GREEDY on from the step the kept choice stopped at (``ws``), in state ``s``; the
    choice is kept anew."""
    store[10][M_ROWS] = 0
    _walk_from(s, store[0][0].copy(), ws[2][2], GREEDY, ctx)


@njit(cache=True, inline="always")
def _window_stage(store, ws, ctx):
    """The greedy choice's second stage: the window after the tile action (module doc)."""
    ctx[5][C_FIRST_STAGE] = 0
    _resume(store, ws, ctx, ws[1].copy())


G_ROW, G_PLAY, G_REST = range(3)  # what ``greedy`` does (its docstring)


@njit(cache=True, nogil=True)
def greedy(st, s, act, step, what, walks, paths, rng):
    """The greedy choice of the player to move in ``st`` (module doc); ``walks``,
    ``paths``: ``walk_tables()``. ``what``:

    - ``G_ROW``: the choice before any draw (``s``, ``act``, ``step``, ``rng`` unused);
    - ``G_PLAY``: the greedy turn played on ``st``, a draw it ends in drawn from ``rng``,
      then the greedy rest of the turn for what was drawn, and so on (``s``, ``act``,
      ``step`` unused);
    - ``G_REST``: the greedy rest after a draw, as ``G_PLAY`` plays it (``st`` the state
      before the turn, unchanged): the choices so far ``act``, the state the draw left
      ``s``, the step it resumes at ``step`` (``rng`` unused).

    Returns (the action row: ``G_PLAY`` as played, every step, every power; the value it
    was chosen for, by part; the state after it or before the draw that ends it; that draw
    (kind, target, step it resumes at), kind ``OP_NONE``: the turn is over). One kernel
    for the three: each kernel that calls the walk compiles all of it again
    (docs/benchmarks.md, "Where the compile time goes")."""
    sw = board_sowings(st, walks, paths)
    store, ws = store_of(np.int64(1)), workspace()
    base, ctx = _context(st, store, ws, sw, sw, 0, max(len(sw[4]), 1), True, True, False)
    ctx[5][C_FIRST_STAGE] = 1
    if what == G_REST:
        copy_into(store[0][0], act)
        ws[2][2] = step
        _resume(store, ws, ctx, s.copy())
    else:
        _start(base, ctx, GREEDY)
    if ws[2][0] == OP_WINDOW:
        _window_stage(store, ws, ctx)
    value = store[1][0].copy()
    if what == G_PLAY:
        while ws[2][0] != OP_NONE:
            if ws[2][0] == OP_WINDOW:
                _window_stage(store, ws, ctx)
            else:
                t = ws[1].copy()
                realise(t, ctx[5][C_MOVER], ws[2][0], ws[2][1], rng)
                _resume(store, ws, ctx, t)
        copy_into(st, ws[1])
    return store[0][0].copy(), value, ws[1].copy(), ws[2].copy()


def complete_turns(st, max_rows=None):
    """Every complete turn of the player to move (``complete_turns`` module doc), exact,
    however many (or None when there are more than ``max_rows``): ``actions[m,
    ACTION_SIZE]``, ``parts[m, N_PARTS]`` (change of the mover's final score by part; an
    expectation for a row ending in a draw) and ``counts[m]``, rows in enumeration order of
    their first combination. Memory grows with the table (a store 4 times larger when one
    fills): for tests and small positions; ``oddsbot advise`` keeps to a budget
    (analyser/five_tribes/turns.py)."""
    sowings = list_sowings(meeples(st), st[END_RULE],
                           np.int64(_run(meeples(st), st[END_RULE], *_no_rows())[0]))
    first, mult = sowing_outcomes(st, *sowings)
    groups = max(len(first), 1)
    cap = 1 << 16  # an opening (45,344 rows) is walked once; unused rows take no memory
    while True:
        if max_rows is not None:
            cap = min(cap, max_rows)
        store = new_store(cap)
        add_outcomes(st, sowings, first, mult, 0, groups, store, workspace(), DEFER_NONE)
        rows = store[10][M_ROWS]
        if not store[10][M_FULL]:
            return ordered(store, rows)
        if max_rows is not None and cap >= max_rows:
            return None
        cap *= 4


def ordered(store, rows):
    """(actions, parts, counts) of the store's first ``rows`` rows in the enumeration
    order of their first combinations (their ranks)."""
    order = np.lexsort((store[11][:rows, 1], store[11][:rows, 0]))
    if (order == np.arange(rows)).all():  # made in that order (one exact walk): no copy
        return store[0][:rows], store[1][:rows], store[2][:rows]
    return store[0][:rows][order], store[1][:rows][order], store[2][:rows][order]


def _not_read():
    """(``act``, ``rng``) for the ``greedy`` arguments its mode does not read."""
    return np.zeros(ACTION_SIZE, dtype=np.int64), np.zeros(4, dtype=np.uint64)


def greedy_turn(st):
    """The greedy choice (module doc): the same row as ``best_turn`` of
    ``complete_turns`` when the board has at most ``GREEDY_SOWINGS`` full sequences.
    Returns (action, parts); runs on a kernel thread (``threads.call``: Ctrl-C stops the
    caller at once)."""
    act, rng = _not_read()
    return call(greedy, st, st, act, S_PRE, G_ROW, *walk_tables_once(), rng)[:2]


def play_greedy_turn(st, rng):
    """``greedy`` playing (``G_PLAY``) on a kernel thread (Ctrl-C stops the caller at
    once): plays the greedy turn on ``st`` (draws from the stream ``rng``); returns
    (action, value)."""
    act, _ = _not_read()
    return call(greedy, st, st, act, S_PRE, G_PLAY, *walk_tables_once(), rng)[:2]


def greedy_rest(st, s, act, step):
    """``greedy``'s ``G_REST``: the greedy rest of a turn after a draw (``st`` the state
    before the turn, ``s`` the state the draw left, ``act`` the choices so far, ``step``
    the step it resumes at). Returns (the action row, the state after it or before the
    draw that ends it, that draw (kind, target, step it resumes at); kind ``OP_NONE``:
    the turn is over)."""
    row, _, after, draw = greedy(st, s, act, step, G_REST, *walk_tables_once(), _not_read()[1])
    return row, after, draw
