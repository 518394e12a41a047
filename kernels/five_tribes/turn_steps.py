"""One Five Tribes turn on the state vector (layout: ``state``): the sowing applied, tile
control (docs/games/five-tribes.md §8), the tribe actions' arithmetic (§9), the face-up rows and
the tile actions (§10). Choices (fakirs, victims, cards, djinns) are the caller's; these functions
apply one."""

import numpy as np
from ..jit import njit

from .board import COLS, N_COLOURS, N_TILES, ROWS
from .data import BLUE_TILE, PALACES, PALMS
from .scoring import N_GOODS
from .state import (
    BAG, DJINN_ROW, FAKIR_CARD, P_CAMELS, P_DJINNS, P_ELDERS, P_FAKIRS, P_GOODS, RES_DISCARD,
    ROW, T_MEEPLES, T_OWNER, T_PALACES, T_PALMS, T_TYPE,
)

ELDER = 1  # the Elders' colour index (W)


@njit(cache=True)
def sow(st, start, path, colours, n):
    """Apply a legal sowing: pick up ``start``'s meeples, drop ``colours[i]`` on
    ``path[i]`` (i < n), then take into hand every meeple of the last colour on the final
    tile. Returns (final tile, colour, meeples taken)."""
    for c in range(N_COLOURS):
        st[T_MEEPLES + start * N_COLOURS + c] = 0
    for i in range(n):
        st[T_MEEPLES + path[i] * N_COLOURS + colours[i]] += 1
    tile = path[n - 1]
    colour = colours[n - 1]
    k = st[T_MEEPLES + tile * N_COLOURS + colour]
    st[T_MEEPLES + tile * N_COLOURS + colour] = 0
    return tile, colour, k


@njit(cache=True)
def tile_is_empty(st, tile):
    """True if no meeple stands on ``tile``."""
    for c in range(N_COLOURS):
        if st[T_MEEPLES + tile * N_COLOURS + c]:
            return False
    return True


@njit(cache=True)
def claim(st, player, tile):
    """Tile control (§8): a tile left without meeples and without a camel gets one of
    ``player``'s camels if any is left. Returns True if it did."""
    if st[T_OWNER + tile] >= 0 or st[P_CAMELS + player] == 0 or not tile_is_empty(st, tile):
        return False
    st[T_OWNER + tile] = player
    st[P_CAMELS + player] -= 1
    return True


@njit(cache=True)
def blue_around(st, tile):
    """Blue-valued tiles (villages, sacred places) in the 3 x 3 block centred on ``tile``,
    the tile itself included (§2)."""
    r0 = tile // COLS
    c0 = tile % COLS
    n = 0
    for r in range(max(0, r0 - 1), min(ROWS, r0 + 2)):
        for c in range(max(0, c0 - 1), min(COLS, c0 + 2)):
            if BLUE_TILE[st[T_TYPE + r * COLS + c]]:
                n += 1
    return n


@njit(cache=True)
def builder_gold(st, tile, k, fakirs):
    """Gold the Builders earn (§9): (builders taken + fakirs discarded) x blue tiles
    around the final tile."""
    return (k + fakirs) * blue_around(st, tile)


@njit(cache=True)
def in_reach(tile, other, reach):
    """True if ``other`` is within ``reach`` orthogonal steps of ``tile`` (Manhattan
    distance; the tile itself is at distance 0)."""
    return abs(tile // COLS - other // COLS) + abs(tile % COLS - other % COLS) <= reach


@njit(cache=True)
def victims_on_board(st, tile, reach, out):
    """Fill ``out`` with the (tile, colour) pairs of the meeples an assassination of
    ``reach`` from ``tile`` may kill (one pair per colour present on a tile); returns
    how many."""
    n = 0
    for t in range(N_TILES):
        if in_reach(tile, t, reach):
            for c in range(N_COLOURS):
                if st[T_MEEPLES + t * N_COLOURS + c]:
                    out[n, 0] = t
                    out[n, 1] = c
                    n += 1
    return n


# --------------------------------------------------------------------------- the rows


@njit(cache=True)
def row_length(st):
    """Cards in the face-up resource row (kept compact, front first)."""
    n = 0
    while n < 9 and st[ROW + n] >= 0:
        n += 1
    return n


@njit(cache=True)
def take_card(st, player, i):
    """``player`` takes the card at place ``i`` of the resource row; the cards behind it
    move up, so "the first k" always counts the cards still there (§14.15)."""
    card = st[ROW + i]
    for j in range(i, 8):
        st[ROW + j] = st[ROW + j + 1]
    st[ROW + 8] = -1
    if card == FAKIR_CARD:
        st[P_FAKIRS + player] += 1
    else:
        st[P_GOODS + player * N_GOODS + card] += 1
    return card


@njit(cache=True)
def merchants_take(st, player, k):
    """The Merchants' action (§9): the first ``k`` cards of the row (fewer if it is
    short). Returns how many were taken."""
    n = min(k, row_length(st))
    for _ in range(n):
        take_card(st, player, np.int64(0))  # not a literal: kernels/__init__.py
    return n


# --------------------------------------------------------------------------- tile actions


@njit(cache=True)
def _place(st, block, supply, tile):
    """One more piece of the per-tile ``block`` (palms or palaces) on ``tile``, unless
    all ``supply`` of them are out. True if placed."""
    if st[block:block + N_TILES].sum() >= supply:
        return False
    st[block + tile] += 1
    return True


@njit(cache=True)
def place_palm(st, tile):
    """Oasis (§10): a palm on ``tile`` unless the 12 are all out. True if placed."""
    return _place(st, np.int64(T_PALMS), np.int64(PALMS), tile)  # kernels/__init__.py


@njit(cache=True)
def place_palace(st, tile):
    """Village (§10): a palace on ``tile`` unless the 10 are all out. True if placed."""
    return _place(st, np.int64(T_PALACES), np.int64(PALACES), tile)


@njit(cache=True)
def take_djinn(st, player, i, with_fakir):
    """Sacred place (§10): ``player`` takes the djinn at place ``i`` of the face-up row,
    paying 2 Elders (to the bag) or, ``with_fakir``, 1 Elder and 1 Fakir (discarded). The
    caller checks the player can pay. Returns the djinn's index."""
    djinn = st[DJINN_ROW + i]
    for j in range(i, 2):
        st[DJINN_ROW + j] = st[DJINN_ROW + j + 1]
    st[DJINN_ROW + 2] = -1
    st[P_DJINNS + player] |= 1 << djinn
    st[P_ELDERS + player] -= 1
    st[BAG + ELDER] += 1
    if with_fakir:
        st[P_FAKIRS + player] -= 1
        st[RES_DISCARD + FAKIR_CARD] += 1
    else:
        st[P_ELDERS + player] -= 1
        st[BAG + ELDER] += 1
    return djinn
