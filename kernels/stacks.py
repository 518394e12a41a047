"""Stacks of camels: the lifting and dropping that Camel Up and Camel Up Cards share.

A *track* array holds, for ``n`` camels, their spaces at ``tr[0:n]``, their heights at
``tr[n:2n]`` (0 = the bottom of a stack) and the number of camels on each space ``s`` at
``tr[2n + s]``. A *unit* is a camel with every camel above it (docs/games/camel-up.md §0,
docs/games/camel-up-cards.md §0). Moving a unit is a ``lift`` then a ``drop``: on top of
the stack at the destination, or underneath it (a boo tile, a fox). Reaching or crossing a
finish line is a drop onto the finish's own space, so a finished unit keeps its order and
rankings by (space, height) stay uniform: ``rank`` orders camels so.
"""

import numpy as np
from .jit import njit

LIFTED = -1000  # the space of a lifted camel, between ``lift`` and ``drop``


@njit(cache=True, inline="always")
def lift(tr, n, s, h):
    """Lift the unit standing on space ``s`` from height ``h`` up; its camels get heights
    0.. within the unit. Returns the unit's size."""
    size = 0
    for c in range(n):
        if tr[c] == s and tr[n + c] >= h:
            tr[c] = LIFTED
            tr[n + c] -= h
            size += 1
    tr[2 * n + s] -= size
    return size


@njit(cache=True, inline="always")
def lift_one(tr, n, c):
    """Lift camel ``c`` alone from its space (camels that stand side by side, not
    stacked: those above it in the line move down one place)."""
    s = tr[c]
    h = tr[n + c]
    for o in range(n):
        if tr[o] == s and tr[n + o] > h:
            tr[n + o] -= 1
    tr[c] = LIFTED
    tr[n + c] = 0
    tr[2 * n + s] -= 1
    return 1


@njit(cache=True, inline="always")
def drop(tr, n, t, size, under):
    """Put the lifted unit of ``size`` camels on space ``t``: on top of its stack, or
    ``under`` it (the unit keeps its order and becomes the bottom part)."""
    base = tr[2 * n + t]
    for c in range(n):
        if tr[c] == t and under:
            tr[n + c] += size
    for c in range(n):
        if tr[c] == LIFTED:
            tr[c] = t
            if not under:
                tr[n + c] += base
    tr[2 * n + t] += size


@njit(cache=True, inline="always")
def rank(tr, n, k, order):
    """Fill ``order[0..k-1]`` with camels 0..k-1 from first to last: the higher space
    ahead, then the higher in a stack (heights are below 8)."""
    for c in range(k):
        order[c] = c
    for i in range(1, k):
        j = i
        c = order[j]
        key = tr[c] * 8 + tr[n + c]
        while j > 0 and key > tr[order[j - 1]] * 8 + tr[n + order[j - 1]]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = c


def perm_orders():
    """All 120 rankings of five camels: ``out[index, place]`` is the camel at that place.
    ``index`` is the Lehmer code of the places, camel 0's digit first (24 L0 + 6 L1 +
    2 L2 + L3, L_c the camels after c that are ahead of it): Camel Up's
    ``_index_of_keys`` and Camel Up Cards' ``rank_index``. Plain numpy, for the analyser
    and tests."""
    out = np.empty((120, 5), dtype=np.int64)
    for idx in range(120):
        digits = [idx // 24, idx // 6 % 4, idx // 2 % 3, idx % 2, 0]
        free = list(range(5))
        places = [free.pop(k) for k in digits]
        for camel, place in enumerate(places):
            out[idx, place] = camel
    return out
