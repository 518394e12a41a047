"""Monte Carlo of Camel Up legs and races on chunked, counter-seeded random streams."""

import numpy as np
from ..jit import njit

from ..arrays import copy_into
from ..rng import high_below, low_below, next_u64, stream
from ..threads import rows
from .track import (
    CROSSED_CCW, CROSSED_CW, GREY, N_DICE, N_RACING, SP, TRACK_SIZE, die_count, ranking,
    roll,
)

@njit(cache=True, inline="always")
def _draw(s, mask, n):
    """Draw a die uniformly from ``mask`` (holding ``n`` dice, ascending order) and a face
    (see ``roll``), both from one random word."""
    r = next_u64(s)
    k = high_below(r, n)
    die = 0
    for i in range(N_DICE):
        if (mask >> i) & 1:
            if k == 0:
                die = i
                break
            k -= 1
    face = low_below(r, 6 if die == GREY else 3)
    return die, face


@njit(cache=True)
def _draw_die(s, mask):
    """``_draw`` for a pyramid whose size is not known yet."""
    return _draw(s, mask, die_count(mask))


@njit(cache=True)
def finish_race(tr, tile, no_tiles, mask, leg_left, full_mask, s):
    """Play dice only until a unit crosses: the current leg with ``tile``, later legs
    with ``no_tiles`` (all zero: the default odds policy of §9). ``tr`` changes in place."""
    n = die_count(mask)
    n_full = die_count(full_mask)
    tiles_on = True
    while True:
        if n == leg_left:
            mask = full_mask
            n = n_full
            tiles_on = False
        die, face = _draw(s, mask, n)
        mask &= ~(1 << die)
        n -= 1
        mover, landed = roll(tr, tile if tiles_on else no_tiles, die, face)
        sp = tr[SP + mover]
        if sp == CROSSED_CW or sp == CROSSED_CCW:
            return


@njit(cache=True, nogil=True)
def race_chunks(tr0, tile, mask, leg_left, full_mask, seed, chunk0, n_chunks, chunk_size):
    """``race_counts`` for chunks ``chunk0 .. chunk0 + n_chunks - 1`` on this thread."""
    counts = np.zeros((n_chunks, N_RACING, N_RACING), dtype=np.int64)
    tr = np.empty(TRACK_SIZE, dtype=tr0.dtype)
    order = np.empty(N_RACING, dtype=np.int64)
    no_tiles = np.zeros_like(tile)
    for k in range(n_chunks):
        s = stream(seed, chunk0 + k)
        for _ in range(chunk_size):
            copy_into(tr, tr0)
            finish_race(tr, tile, no_tiles, mask, leg_left, full_mask, s)
            ranking(tr, order)
            for p in range(N_RACING):
                counts[k, order[p], p] += 1
    return counts


def race_counts(tr0, tile, mask, leg_left, full_mask, seed, chunk0, n_chunks, chunk_size):
    """Monte Carlo of whole races: ``counts[chunk, camel, place]`` over ``n_chunks`` chunks
    of ``chunk_size`` races, chunk ``k`` using the stream (seed, chunk0 + k); chunks
    spread over the threads (``threads.rows``)."""
    return rows(lambda k, n: race_chunks(tr0, tile, mask, leg_left, full_mask, np.uint64(seed),
                                         chunk0 + k, n, chunk_size), n_chunks)


@njit(cache=True, nogil=True)
def leg_chunks(tr0, tile, mask, leg_left, seed, chunk0, n_chunks, chunk_size):
    """``leg_counts`` for chunks ``chunk0 .. chunk0 + n_chunks - 1`` on this thread."""
    counts = np.zeros((n_chunks, N_RACING, N_RACING), dtype=np.int64)
    ends = np.zeros(n_chunks, dtype=np.int64)
    tr = np.empty(TRACK_SIZE, dtype=tr0.dtype)
    order = np.empty(N_RACING, dtype=np.int64)
    for k in range(n_chunks):
        s = stream(seed, chunk0 + k)
        for _ in range(chunk_size):
            copy_into(tr, tr0)
            m = mask
            while die_count(m) > leg_left:
                die, face = _draw_die(s, m)
                m &= ~(1 << die)
                mover, landed = roll(tr, tile, die, face)
                sp = tr[SP + mover]
                if sp == CROSSED_CW or sp == CROSSED_CCW:
                    ends[k] += 1
                    break
            ranking(tr, order)
            for p in range(N_RACING):
                counts[k, order[p], p] += 1
    return counts, ends


def leg_counts(tr0, tile, mask, leg_left, seed, chunk0, n_chunks, chunk_size):
    """Monte Carlo of the rest of the current leg: ``counts[chunk, camel, place]`` and
    ``ends[chunk]`` (legs in which the game ended), chunks spread over the threads. Used
    to cross-check the exact enumeration and for positions where enumeration is not
    wanted."""
    return rows(lambda k, n: leg_chunks(tr0, tile, mask, leg_left, np.uint64(seed),
                                        chunk0 + k, n, chunk_size), n_chunks)
