"""Counter-seeded random streams for numba kernels.

Every chunk of simulation work gets its own xoshiro256** stream derived from
(seed, chunk index) with splitmix64, so results never depend on how chunks are
spread over threads or Dask workers. A stream is a ``uint64[4]`` array.
"""

import numpy as np
from .jit import njit

MAX_SEED = 2**64 - 1  # seeds are unsigned 64-bit integers: pass them as np.uint64 (a Python
# int first seen below 2**63 would give numba an int64 signature that later seeds overflow)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_MASK32 = np.uint64(0xFFFFFFFF)


@njit(cache=True, inline="always")
def _splitmix(x):
    """One splitmix64 output for the 64-bit input ``x`` (uint64)."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def stream(seed, chunk):
    """The xoshiro256** state for chunk ``chunk`` of the run seeded with ``seed``."""
    s = np.empty(4, dtype=np.uint64)
    reseed(s, seed, chunk)
    return s


@njit(cache=True)
def reseed(s, seed, chunk):
    """Set the existing stream ``s`` to the start of stream (seed, chunk), in place."""
    x = _splitmix(np.uint64(seed)) ^ _splitmix(np.uint64(chunk) + _M2)
    for i in range(4):
        x = _splitmix(x + np.uint64(i) * _GOLDEN)
        s[i] = x
    if s[0] == 0 and s[1] == 0 and s[2] == 0 and s[3] == 0:
        s[0] = _GOLDEN


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, inline="always")
def next_u64(s):
    """Advance the stream ``s`` in place and return 64 random bits (uint64)."""
    result = _rotl(s[1] * np.uint64(5), 7) * np.uint64(9)
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@njit(cache=True, inline="always")
def high_below(r, n):
    """Map the high 32 bits of ``r`` to an integer in [0, n) (multiply-shift)."""
    return np.int64(((r >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def low_below(r, n):
    """Map the low 32 bits of ``r`` to an integer in [0, n) (multiply-shift)."""
    return np.int64(((r & _MASK32) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def below(s, n):
    """One integer uniform on [0, n) from stream ``s`` (n < 2**32)."""
    return high_below(next_u64(s), n)
