"""The store of a turn table: one row per distinct result of a complete turn, merged as
they come (open addressing over a merge key), of fixed size; and the sowings of a board
grouped by outcome the same way.

A row holds the turn (an action row, ``complete_turns``), the change of the mover's final
score by part (floats: a row ending in a draw holds an expectation), ``counts`` (the
combinations reaching it), its rank in the enumeration order of §20.4 (the row's action is
its first combination's: a lower rank arriving later replaces it) and, when sampled, what
a stratified estimate of its count needs (``S_*``). The store never grows: a new result
once it is full sets ``meta[M_FULL]`` and is not kept.

The merge key of a result: every state field a turn can change, one byte each (value + 1:
-1 is "none"), gold in two bytes and djinn masks in three; for a row ending in a draw also
the draw (kind, target, the step it resumes at) and the sowing's final tile, colour and
meeples taken. Padded to whole 64-bit words.
"""

import numpy as np
from ..jit import njit

from ..arrays import copy_into
from .board import N_COLOURS, N_TILES
from .complete_turns import A_COLOUR, A_TAKEN, A_TILE, ACTION_SIZE, N_PARTS
from .scoring import N_GOODS
from .state import (
    BAG, BID_ORDER, DJINN_DISCARD, DJINN_ROW, DRAWN, MAX_PLAYERS, P_DJINNS, P_GOLD, P_GOODS,
    P_USED, P_VIZIERS, RES_DISCARD, ROW, T_MEEPLES, T_OWNER, T_PALACES, T_PALMS, TURN_TRACK,
)
from .turn_steps import sow

_SMALL_FIELDS = ((T_OWNER, N_TILES), (T_PALMS, N_TILES), (T_PALACES, N_TILES),
                 (T_MEEPLES, N_TILES * N_COLOURS), (P_VIZIERS, 4 * MAX_PLAYERS),
                 (P_GOODS, MAX_PLAYERS * N_GOODS), (ROW, 9), (DJINN_ROW, 3), (RES_DISCARD, 10),
                 (BAG, N_COLOURS), (BID_ORDER, MAX_PLAYERS), (TURN_TRACK, 9))
_MASKS = (DJINN_DISCARD, DRAWN, P_USED, P_USED + 1, P_USED + 2, P_USED + 3)
KEY_BYTES = (sum(n for _, n in _SMALL_FIELDS) + 5 * MAX_PLAYERS + 3 * len(_MASKS) + 6)
KEY_WORDS = (KEY_BYTES + 7) // 8

# stats columns: S_EST sum over draws of T_h y; S_HOME, S_HOME2 sums of y and y**2 over
# the draws of the row's home stratum (the first that reached it); S_OTHER sum of
# (T_h y)**2 over the draws of any other stratum. ``home`` -2: counted exactly.
S_EST, S_HOME, S_HOME2, S_OTHER = range(4)
N_STATS = 4
EXACT_HOME = -2
# meta: rows kept; rows touched by the sowing being added; 1 once a new row found no room
M_ROWS, M_TOUCHED, M_FULL = range(3)


def new_store(cap):
    """An empty store of ``cap`` rows: (actions, parts, counts, keys, hashes, slots,
    stats, home, hits, touched, meta, ranks). Row arrays are set when a row is made, so
    pages of unused rows are never touched. Called from Python, numpy makes the arrays
    (in huge pages where the system allows: a table of 45,000 rows touches 70 MB, a
    page fault every 4 kB otherwise); ``store_of`` is the same for kernels."""
    size = 16
    while size < 2 * cap:
        size *= 2
    return (np.empty((cap, ACTION_SIZE), dtype=np.int64),
            np.empty((cap, N_PARTS), dtype=np.float64),
            np.empty(cap, dtype=np.int64), np.empty((cap, KEY_WORDS), dtype=np.uint64),
            np.empty(cap, dtype=np.uint64), np.full(size, -1, dtype=np.int64),
            np.empty((cap, N_STATS), dtype=np.float64), np.empty(cap, dtype=np.int64),
            np.empty(cap, dtype=np.int64), np.empty(cap, dtype=np.int64),
            np.zeros(3, dtype=np.int64), np.empty((cap, 2), dtype=np.int64))


store_of = njit(cache=True)(new_store)


@njit(cache=True)
def key_of(st, act, draw, out):
    """Write the merge key of the result ``st`` into the bytes ``out``; ``draw`` (kind,
    target, step it resumes at) is zero for a combination that reaches the end."""
    out[:] = 0
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
    for field in _MASKS:
        mask = st[field]
        out[i], out[i + 1], out[i + 2] = mask & 0xFF, (mask >> 8) & 0xFF, mask >> 16
        i += 3
    if draw[0]:
        out[i], out[i + 1], out[i + 2] = draw[0], draw[1] + 1, draw[2] + 1
        out[i + 3], out[i + 4], out[i + 5] = act[A_TILE] + 1, act[A_COLOUR] + 1, act[A_TAKEN] + 1


@njit(cache=True)
def key_hash(words):
    """A 64-bit hash of the key ``words`` (FNV-1a over words, then a final mix: table
    slots use the low bits)."""
    h = np.uint64(14695981039346656037)
    for w in words:
        h = (h ^ w) * np.uint64(1099511628211)
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xFF51AFD7ED558CCD)
    return h ^ (h >> np.uint64(33))


@njit(cache=True, inline="always")
def same_key(a, b):
    """Whether the keys ``a`` and ``b`` (words of equal length) are equal."""
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
        if row < 0 or (hashes[row] == h and same_key(keys[row], key)):
            return slot
        slot = (slot + np.uint64(1)) & mask


@njit(cache=True)
def row_of(store, key):
    """(row of the merge ``key`` (words), True if made now); row -1 when new and the
    store is full (``M_FULL`` set). A new row's action and parts are the caller's."""
    keys, hashes, slots, meta = store[3], store[4], store[5], store[10]
    h = key_hash(key)
    slot = _find(slots, hashes, keys, key, h)
    row = slots[slot]
    if row >= 0:
        return row, False
    row = meta[M_ROWS]
    if row == len(store[2]):
        meta[M_FULL] = 1
        return -1, False
    slots[slot] = row
    copy_into(keys[row], key)
    hashes[row] = h
    store[2][row], store[7][row], store[8][row] = 0, -1, 0
    store[6][row, :] = 0.0
    store[11][row, 0], store[11][row, 1] = -1, -1
    meta[M_ROWS] = row + 1
    return row, True


@njit(cache=True)
def hit(store, row, act, weight, sampled, rank0, rank1):
    """One more combination (``weight`` of them) reaching ``row``; its action becomes the
    row's when its rank (``rank0``, ``rank1``) comes earlier. Sampled: counted as a hit of
    the sowing being added (``settle``)."""
    ranks = store[11]
    if ranks[row, 0] < 0 or (rank0, rank1) < (ranks[row, 0], ranks[row, 1]):
        copy_into(store[0][row], act)
        ranks[row, 0], ranks[row, 1] = rank0, rank1
    if not sampled:
        store[2][row] += weight
        store[7][row] = EXACT_HOME
        return
    hits, touched, meta = store[8], store[9], store[10]
    if hits[row] == 0:
        touched[meta[M_TOUCHED]] = row
        meta[M_TOUCHED] += 1
    hits[row] += 1


@njit(cache=True)
def settle(store, total, h):
    """End of one sampled sowing (stratum ``h``, ``total`` = T_h): every row it reached
    adds its hits to ``counts`` and ``stats``."""
    counts, stats, home, hits, touched, meta = store[2], store[6], store[7], store[8], \
        store[9], store[10]
    for i in range(meta[M_TOUCHED]):
        r = touched[i]
        y = hits[r]
        hits[r] = 0
        counts[r] += y
        stats[r, S_EST] += total * y
        if home[r] < 0:
            home[r] = h
        if home[r] == h:
            stats[r, S_HOME] += y
            stats[r, S_HOME2] += y * y
        else:
            stats[r, S_OTHER] += (total * y) ** 2
    meta[M_TOUCHED] = 0


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
        h = key_hash(key)
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
