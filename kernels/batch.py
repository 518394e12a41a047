"""Whole games in ranges, every game seeded from its own streams.

Game ``r`` of a run seeded ``seed`` draws its chance from the streams (seed, 3r),
(seed, 3r + 1) and (seed, 3r + 2) (``rng.reseed``) and from nothing else, so a game's row
depends on (seed, r) only: never on the chunk size, the threads or where a block starts.
"""

import numpy as np
from .jit import njit

from .rng import reseed

N_STREAMS = 3  # chance streams of one game


@njit(cache=True, inline="always")
def record_chunk(play, scratch, context, n_fields, seed, game0, n_games):
    """Games ``game0 .. game0 + n_games - 1`` as ``out[game, n_fields]`` (int16), the row
    of game ``r`` filled by ``play(context, ws, streams, row)``: ``streams``
    (``uint64[N_STREAMS, 4]``) set to game ``r``'s streams, ``row`` (int64, ``n_fields``)
    zeroed, ``ws = scratch(context)`` made once and reused by every game of the range.
    A thread's share of a run: ``threads.rows`` spreads the ranges (chunks).

    ``play`` and ``scratch`` are jitted functions and ``context`` a tuple of the run's
    arrays and parameters. Inlined into the caller (numba IR inlining): the loop compiles,
    and is cached, together with the game it plays, so a game's calls are direct and the
    cache guard's per-game units stay whole (``cache_guard``)."""
    out = np.zeros((n_games, n_fields), dtype=np.int16)
    ws = scratch(context)
    streams = np.empty((N_STREAMS, 4), dtype=np.uint64)
    row = np.zeros(n_fields, dtype=np.int64)
    for g in range(n_games):
        r = game0 + g
        for i in range(N_STREAMS):
            reseed(streams[i], seed, N_STREAMS * r + i)
        row[:] = 0
        play(context, ws, streams, row)
        for f in range(n_fields):
            out[g, f] = row[f]
    return out
