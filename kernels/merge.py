"""Weighted states merged by key: an open-addressing hash table on plain arrays.

A forward pass over a chance tree holds one *level* of states at a time; states reached
along different paths are merged by summing their weights. A level is ``(keys, vals,
index, n)``: rows ``0 .. n - 1`` of ``keys`` (two int64 per state) and ``vals`` (float64),
in the order they were first added (so sums are taken in a fixed order and results are
reproducible), and ``index``, a hash table of row numbers (-1 free) at most half full.
numba's typed dict does the same several times slower.
"""

import numpy as np
from .jit import njit

_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xC2B2AE3D27D4EB4F)
_M3 = np.uint64(0xFF51AFD7ED558CCD)


@njit(cache=True)
def level(cap):
    """An empty level with room for ``cap`` states (a power of two)."""
    return (np.empty((cap, 2), dtype=np.int64), np.empty(cap, dtype=np.float64),
            np.full(2 * cap, -1, dtype=np.int64))


@njit(cache=True, inline="always")
def _slot(index, a, b):
    """The home slot of (a, b): both keys' bits mixed down to the low bits."""
    h = (np.uint64(a) * _M1) ^ (np.uint64(b) + _M2)
    h ^= h >> np.uint64(33)
    h *= _M3
    h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(index.shape[0] - 1))


@njit(cache=True)
def find(keys, index, a, b):
    """The row of state (a, b), or -1."""
    mask = index.shape[0] - 1
    s = _slot(index, a, b)
    while True:
        i = index[s]
        if i < 0:
            return -1
        if keys[i, 0] == a and keys[i, 1] == b:
            return i
        s = (s + 1) & mask


@njit(cache=True)
def doubled(keys, vals, n):
    """The level of rows ``0 .. n - 1`` in arrays of twice the room: (keys, vals, index)."""
    cap = 2 * keys.shape[0]
    k2, v2, index = level(cap)
    for i in range(n):
        k2[i, 0] = keys[i, 0]
        k2[i, 1] = keys[i, 1]
        v2[i] = vals[i]
        s = _slot(index, keys[i, 0], keys[i, 1])
        while index[s] >= 0:
            s = (s + 1) & (index.shape[0] - 1)
        index[s] = i
    return k2, v2, index


@njit(cache=True)
def add(keys, vals, index, n, a, b, v):
    """Add weight ``v`` to state (a, b), a new row if it is new. Returns the arrays (new
    ones when they had to grow) and the number of rows."""
    keys, vals, index, n, _ = add_row(keys, vals, index, n, a, b, v)
    return keys, vals, index, n


@njit(cache=True)
def add_row(keys, vals, index, n, a, b, v):
    """``add``, also returning the row of state (a, b)."""
    if n == keys.shape[0]:
        keys, vals, index = doubled(keys, vals, n)
    n, row = put(keys, vals, index, n, a, b, v)
    return keys, vals, index, n, row


@njit(cache=True)
def put(keys, vals, index, n, a, b, v):
    """``add`` into a level with room for a new row (``n < len(keys)``; the caller grows
    it with ``doubled``): returns (number of rows, row of (a, b)). In a loop, far cheaper
    than ``add``: arrays returned from a call cost reference counting on every call
    (about 1 microsecond a call on the 2-core machine of docs/benchmarks.md, against 0.1)."""
    mask = index.shape[0] - 1
    s = _slot(index, a, b)
    while True:
        i = index[s]
        if i < 0:
            break
        if keys[i, 0] == a and keys[i, 1] == b:
            vals[i] += v
            return n, i
        s = (s + 1) & mask
    index[s] = n
    keys[n, 0] = a
    keys[n, 1] = b
    vals[n] = v
    return n + 1, n
