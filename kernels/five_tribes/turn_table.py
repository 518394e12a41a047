"""Tables of every complete turn of the player to move (``complete_turns``), merged by
result and filled a chunk at a time into a store of fixed size, and the greedy choice.

The store (``store_of``) holds one row per distinct result state: the turn (an action
row), the change of the mover's final score by part (``parts``) and ``counts``, the
(full sowing sequence, choices) that reach it. Rows merge as they come (open addressing
over the state's merge key). The store never grows: a turn with a new result once it is
full sets ``meta[M_FULL]`` and is not kept, so memory is the store's, whatever the board.
Callers add sowings a chunk at a time (``add_outcomes``, ``add_draws``), so that Python
can show progress and notice Ctrl-C between chunks.

- Exact: ``sowing_outcomes`` groups the full sequences by the board they leave and what
  they take; ``add_outcomes`` adds each group, with every choice after it, weighted by
  its sequences. With no legal sowing the one outcome is the marker move alone.
- Sampled: draw d is a uniform full sequence of stratum d mod H (``sowing_strata``:
  (start, final tile, colour)), so every stratum gets one draw per round; every choice
  after it is enumerated. ``counts`` then counts hits, and ``stats`` holds, per row, what
  a stratified estimate of its count and standard error needs (``S_*``, below; T_h: the
  sequences of stratum h; y: hits of the row from one draw).
- Greedy (``greedy_row``): the first turn in enumeration order with the largest change
  of the mover's final score, exact when the board has at most ``GREEDY_SOWINGS`` full
  sequences, else the best turn after ``GREEDY_DRAWS`` sampled sowings (complete rounds
  over the strata, seed ``GREEDY_SEED``: a function of the state).
"""

import numpy as np
from numba import njit

from ..arrays import copy_into
from ..rng import stream
from ..threads import call
from .board import N_COLOURS, N_TILES
from .complete_turns import (
    A_COLOUR, A_COLOURS, A_LEN, A_PATH, A_SALE, A_SALE_GOLD, A_START, A_TAKEN, A_TILE,
    A_TILE_ACTION, ACTION_SIZE, N_PARTS, TA_NONE, TILE_ROWS, TRIBE_ROWS, apply_sale,
    clear_action, play_sowing, play_tile, play_tribe, player_parts, suits, tile_options,
    tribe_options,
)
from .rounds import marker_to_bid_track
from .scoring import N_GOODS
from .sowing import _no_rows, _run, list_sowings
from .sowing_count import draw_in_stratum, sowing_strata, stratum_weights, walk_tables_once
from .state import (
    BAG, BID_ORDER, DJINN_ROW, END_RULE, MAX_PLAYERS, P_DJINNS, P_GOLD, P_GOODS, P_VIZIERS,
    RES_DISCARD, ROW, T_MEEPLES, T_OWNER, T_PALACES, T_PALMS, TO_MOVE, TURN_TRACK, meeples,
)
from .turn_steps import sow

GREEDY_SOWINGS = 100_000  # the greedy choice is exact up to this many full sequences
GREEDY_DRAWS = 4_096  # beyond: the best after this many sampled sowings (rounded up to
# whole rounds over the strata, as ``advise --samples``)
GREEDY_SEED = 0

# the merge key: every state field a turn can change, one byte each (value + 1: -1 is
# "none"), gold in two bytes and djinn masks in three; padded to whole 64-bit words
_SMALL_FIELDS = ((T_OWNER, N_TILES), (T_PALMS, N_TILES), (T_PALACES, N_TILES),
                 (T_MEEPLES, N_TILES * N_COLOURS), (P_VIZIERS, 4 * MAX_PLAYERS),
                 (P_GOODS, MAX_PLAYERS * N_GOODS), (ROW, 9), (DJINN_ROW, 3), (RES_DISCARD, 10),
                 (BAG, N_COLOURS), (BID_ORDER, MAX_PLAYERS), (TURN_TRACK, 9))
KEY_BYTES = sum(n for _, n in _SMALL_FIELDS) + 2 * MAX_PLAYERS + 3 * MAX_PLAYERS
KEY_WORDS = (KEY_BYTES + 7) // 8

# stats columns: S_EST sum over draws of T_h y; S_HOME, S_HOME2 sums of y and y**2 over
# the draws of the row's home stratum (the first that reached it); S_OTHER sum of
# (T_h y)**2 over the draws of any other stratum
S_EST, S_HOME, S_HOME2, S_OTHER = range(4)
N_STATS = 4
# meta: rows kept; rows touched by the sowing being added; 1 once a new row found no room
M_ROWS, M_TOUCHED, M_FULL = range(3)


# --------------------------------------------------------------------------- the store


@njit(cache=True)
def store_of(cap):
    """An empty store of ``cap`` rows: (actions, parts, counts, keys, hashes, slots,
    stats, home, hits, touched, meta). Row arrays are set when a row is made, so pages
    of unused rows are never touched."""
    size = 16
    while size < 2 * cap:
        size *= 2
    return (np.empty((cap, ACTION_SIZE), dtype=np.int64), np.empty((cap, N_PARTS), dtype=np.int64),
            np.empty(cap, dtype=np.int64), np.empty((cap, KEY_WORDS), dtype=np.uint64),
            np.empty(cap, dtype=np.uint64), np.full(size, -1, dtype=np.int64),
            np.empty((cap, N_STATS), dtype=np.float64), np.empty(cap, dtype=np.int64),
            np.empty(cap, dtype=np.int64), np.empty(cap, dtype=np.int64),
            np.zeros(3, dtype=np.int64))


@njit(cache=True)
def workspace():
    """Scratch of the ``add_*`` kernels: (action, tribe options, tile options, suit
    sizes, merge key bytes, parts before the turn, parts after it)."""
    return (np.zeros(ACTION_SIZE, dtype=np.int64), np.zeros((TRIBE_ROWS, 4), dtype=np.int64),
            np.zeros((TILE_ROWS, 5), dtype=np.int64), np.zeros(64, dtype=np.int64),
            np.zeros(8 * KEY_WORDS, dtype=np.uint8), np.zeros(N_PARTS, dtype=np.int64),
            np.zeros(N_PARTS, dtype=np.int64))


@njit(cache=True)
def _key(st, out):
    """Write the merge key of ``st`` into the bytes ``out`` (``KEY_BYTES``, zero padded)."""
    i = 0
    for start, length in _SMALL_FIELDS:
        for j in range(length):
            out[i] = st[start + j] + 1
            i += 1
    for p in range(MAX_PLAYERS):
        gold = st[P_GOLD + p]
        out[i], out[i + 1] = gold & 0xFF, gold >> 8
        mask = st[P_DJINNS + p]
        out[i + 2], out[i + 3], out[i + 4] = mask & 0xFF, (mask >> 8) & 0xFF, mask >> 16
        i += 5


@njit(cache=True)
def _hash(words):
    """A 64-bit hash of the key ``words`` (FNV-1a over words, then a final mix: table
    slots use the low bits)."""
    h = np.uint64(14695981039346656037)
    for w in words:
        h = (h ^ w) * np.uint64(1099511628211)
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xFF51AFD7ED558CCD)
    return h ^ (h >> np.uint64(33))


@njit(cache=True, inline="always")
def _same(a, b):
    for i in range(len(a)):
        if a[i] != b[i]:
            return False
    return True


@njit(cache=True)
def _find(table, hashes, keys, key, h):
    """Slot of ``key`` in the open-addressing ``table`` (row indices, -1 empty)."""
    mask = np.uint64(len(table) - 1)
    slot = h & mask
    while True:
        row = table[slot]
        if row < 0 or (hashes[row] == h and _same(keys[row], key)):
            return slot
        slot = (slot + np.uint64(1)) & mask


@njit(cache=True)
def _keep(store, st, act, mover, before, raw, key):
    """Count one more way to reach the result ``st`` of the turn ``act`` in the sowing
    being added: its row (made if new and there is room, else ``M_FULL`` set)."""
    actions, parts, counts, keys, hashes, slots, stats, home, hits, touched, meta = store
    _key(st, raw)
    h = _hash(key)
    slot = _find(slots, hashes, keys, key, h)
    row = slots[slot]
    if row < 0:
        row = meta[M_ROWS]
        if row == len(counts):
            meta[M_FULL] = 1
            return
        slots[slot] = row
        copy_into(keys[row], key)
        hashes[row] = h
        copy_into(actions[row], act)
        player_parts(st, mover, parts[row])
        parts[row] -= before
        counts[row], home[row], hits[row] = 0, -1, 0
        for i in range(N_STATS):
            stats[row, i] = 0.0
        meta[M_ROWS] = row + 1
    if hits[row] == 0:
        touched[meta[M_TOUCHED]] = row
        meta[M_TOUCHED] += 1
    hits[row] += 1


@njit(cache=True)
def _best(store, st, act, mover, before, after):
    """Keep the turn ``act`` (result ``st``) in row 0 if it is the first or changes the
    mover's final score more than row 0 (the greedy choice)."""
    actions, parts, meta = store[0], store[1], store[10]
    player_parts(st, mover, after)
    after -= before
    if meta[M_ROWS] == 0 or after[N_PARTS - 1] > parts[0, N_PARTS - 1]:
        copy_into(actions[0], act)
        copy_into(parts[0], after)
        meta[M_ROWS] = 1


@njit(cache=True)
def _settle(store, weight, total, h):
    """End of one sowing (``weight`` sequences; ``h`` its stratum and ``total`` = T_h
    when sampled, h < 0 when exact): every row it reached adds ``weight`` x hits to
    ``counts`` and, sampled, its hits to ``stats``."""
    counts, stats, home, hits, touched, meta = store[2], store[6], store[7], store[8], \
        store[9], store[10]
    for i in range(meta[M_TOUCHED]):
        r = touched[i]
        y = hits[r]
        hits[r] = 0
        counts[r] += weight * y
        if h < 0:
            continue
        stats[r, S_EST] += total * y
        if home[r] < 0:
            home[r] = h
        if home[r] == h:
            stats[r, S_HOME] += y
            stats[r, S_HOME2] += y * y
        else:
            stats[r, S_OTHER] += (total * y) ** 2
    meta[M_TOUCHED] = 0


# --------------------------------------------------------------------------- one sowing


@njit(cache=True)
def _choices(s1, act, mover, before, store, ws, greedy):
    """Every choice after the sowing recorded in ``act`` (``s1``: the state after it and
    tile control; no sowing when ``act[A_LEN]`` is 0): tribe action, tile action, sale;
    each complete turn kept in ``store`` (``_keep``) or, ``greedy``, compared (``_best``)."""
    tribe, tiles, sizes, raw, after = ws[1], ws[2], ws[3], ws[4], ws[6]
    key = raw.view(np.uint64)
    sown = act[A_LEN] > 0
    n_tribe = 1
    if sown:
        n_tribe = tribe_options(s1, mover, act[A_TILE], act[A_COLOUR], act[A_TAKEN], tribe)
    for a in range(n_tribe):
        s2 = s1.copy()
        n_tile = 1
        if sown:
            play_tribe(s2, act, mover, tribe[a])
            n_tile = tile_options(s2, mover, act[A_TILE], tiles)
        for b in range(n_tile):
            s3 = s2.copy()
            act[A_TILE_ACTION] = TA_NONE
            if sown:
                play_tile(s3, act, mover, tiles[b])
            for mask in range(1 << suits(s3, mover, sizes)):
                s4 = s3.copy()
                act[A_SALE] = mask
                act[A_SALE_GOLD] = apply_sale(s4, mover, mask)
                if greedy:
                    _best(store, s4, act, mover, before, after)
                else:
                    _keep(store, s4, act, mover, before, raw, key)


@njit(cache=True)
def sowing_outcomes(base, starts, paths, colours, lengths):
    """Group the sowings of the board of ``base`` by the board they leave and what they
    take: returns each group's first sequence and its number of sequences."""
    m = len(starts)
    words = (N_TILES * N_COLOURS + 2 + 7) // 8
    keys = np.zeros((max(m, 1), words), dtype=np.uint64)
    hashes = np.zeros(max(m, 1), dtype=np.uint64)
    table = np.full(1 << max(4, int(np.ceil(np.log2(2 * m + 2)))), -1, dtype=np.int64)
    first = np.zeros(m, dtype=np.int64)
    mult = np.zeros(m, dtype=np.int64)
    raw = np.zeros(8 * words, dtype=np.uint8)
    key = raw.view(np.uint64)
    n = 0
    for i in range(m):
        s1 = base.copy()
        tile, colour, _ = sow(s1, starts[i], paths[i], colours[i], lengths[i])
        for j in range(N_TILES * N_COLOURS):
            raw[j] = s1[T_MEEPLES + j]
        raw[N_TILES * N_COLOURS], raw[N_TILES * N_COLOURS + 1] = tile, colour
        h = _hash(key)
        slot = _find(table, hashes, keys, key, h)
        row = table[slot]
        if row < 0:
            row = n
            table[slot] = row
            copy_into(keys[row], key)
            hashes[row] = h
            first[row] = i
            n += 1
        mult[row] += 1
    return first[:n], mult[:n]


@njit(cache=True)
def _moved(st, before):
    """(``st`` with the mover's marker moved, the mover); ``before``: the mover's final
    score by part now."""
    mover = st[TO_MOVE]
    base = st.copy()
    marker_to_bid_track(base)
    player_parts(base, mover, before)
    return base, mover


@njit(cache=True)
def add_outcomes(st, sowings, first, mult, o0, o1, store, ws, greedy):
    """Add outcome groups ``o0 .. o1 - 1`` of ``sowing_outcomes`` (``sowings``: the
    listed ``(starts, paths, colours, lengths)``; no groups: the no-sowing turn, o 0) with
    every choice after each (exact), for the player to move in ``st``. Returns the next
    group to add: sooner than ``o1`` once the store is full."""
    starts, paths, colours, lengths = sowings
    act, before = ws[0], ws[5]
    base, mover = _moved(st, before)
    for o in range(o0, o1):
        s1 = base.copy()
        clear_action(act)
        weight = 1
        if len(first):
            i = first[o]
            weight = mult[o]
            n = lengths[i]
            act[A_START], act[A_LEN] = starts[i], n
            copy_into(act[A_PATH:A_PATH + n], paths[i, :n])
            copy_into(act[A_COLOURS:A_COLOURS + n], colours[i, :n])
            play_sowing(s1, act, mover)
        _choices(s1, act, mover, before, store, ws, greedy)
        _settle(store, weight, 0.0, np.int64(-1))
        if store[10][M_FULL]:
            return o + 1
    return o1


@njit(cache=True)
def add_draws(st, strata, weights, walks, rng, d0, d1, store, ws, greedy):
    """Add draws ``d0 .. d1 - 1``: draw d a uniform full sequence of stratum d mod H of
    ``sowing_strata`` (``weights[h, e]``: its sequences by earlier visits, floats), from
    the stream ``rng`` (advanced), with every choice after it, for the player to move in
    ``st``. ``walks``: ``walk_tables()[0]``."""
    act, before = ws[0], ws[5]
    base, mover = _moved(st, before)
    counts = meeples(base)
    for d in range(d0, d1):
        h = d % len(strata)
        clear_action(act)
        n = draw_in_stratum(counts, walks, strata[h], weights[h], rng,
                            act[A_PATH:A_COLOURS], act[A_COLOURS:A_TILE])
        act[A_START], act[A_LEN] = strata[h, 0], n
        s1 = base.copy()
        play_sowing(s1, act, mover)
        _choices(s1, act, mover, before, store, ws, greedy)
        _settle(store, np.int64(1), weights[h].sum(), h)


@njit(cache=True, nogil=True)
def greedy_row(st, walks, paths):
    """The greedy choice of the player to move (module doc) without a table: (action,
    parts). ``walks``, ``paths``: ``walk_tables()``."""
    counts = meeples(st)
    store = store_of(np.int64(1))
    ws = workspace()
    strata, terms = sowing_strata(counts, st[END_RULE], paths)
    weights = stratum_weights(terms)
    if weights.sum() <= GREEDY_SOWINGS:
        sowings = list_sowings(counts, st[END_RULE], np.int64(weights.sum() + 0.5))
        first, mult = sowing_outcomes(st, *sowings)
        add_outcomes(st, sowings, first, mult, np.int64(0), max(len(first), 1), store, ws,
                     np.bool_(True))
    else:
        draws = (GREEDY_DRAWS + len(strata) - 1) // len(strata) * len(strata)
        add_draws(st, strata, weights, walks, stream(np.uint64(GREEDY_SEED), np.int64(0)),
                  np.int64(0), draws, store, ws, np.bool_(True))
    return store[0][0].copy(), store[1][0].copy()


def complete_turns(st):
    """Every complete turn of the player to move (``complete_turns`` module doc), exact,
    however many: ``actions[m, ACTION_SIZE]``, ``parts[m, N_PARTS]`` (change of the
    mover's final score by part) and ``counts[m]``, rows in order of first appearance.
    Memory grows with the table (a store 4 times larger when one fills): for tests and
    small positions; ``oddsbot advise`` keeps to a budget (analyser/five_tribes/turns.py)."""
    sowings = list_sowings(meeples(st), st[END_RULE],
                           np.int64(_run(meeples(st), st[END_RULE], *_no_rows())[0]))
    first, mult = sowing_outcomes(st, *sowings)
    groups = max(len(first), 1)
    cap = 1 << 12
    while True:
        store = store_of(cap)
        add_outcomes(st, sowings, first, mult, 0, groups, store, workspace(), False)
        rows = store[10][M_ROWS]
        if not store[10][M_FULL]:
            return store[0][:rows].copy(), store[1][:rows].copy(), store[2][:rows].copy()
        cap *= 4


def greedy_turn(st):
    """The greedy choice (module doc): the same row as ``best_turn`` of
    ``complete_turns`` when the board has at most ``GREEDY_SOWINGS`` full sequences.
    Returns (action, parts); runs on a kernel thread (``threads.call``: Ctrl-C stops the
    caller at once)."""
    return call(greedy_row, st, *walk_tables_once())
