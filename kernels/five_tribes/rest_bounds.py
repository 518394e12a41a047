"""Upper bounds on what the window after the tile action can add to the mover's total,
for the ``BEST`` walks of ``turn_walk`` (the best rest after a draw,
docs/games/five-tribes.md §20.6): a use whose bound is strictly below the best found so
far is not walked. The best value is the largest under ``turn_walk.better`` (a total
order: the same whatever order the values come in), so a use that cannot reach its total
changes nothing; ties are still walked.

Every bound holds only when no sale changes the total (``sale_neutral``); what a payment
costs is left out (it only loses: Elders score, Fakirs only with Al-Amin). Values in VP.
"""

import numpy as np
from ..jit import njit

from .board import N_TILES
from .djinn_powers import AL_AMIN_D, ANUN_NAK, BOURAQ, ENKI, LETA, N_DJINNS, UTUG, WINDOW_MASK
from .state import P_DJINNS, P_USED, T_PALACES, T_PALMS, T_VP

PALM_GAIN = 5  # a palm on an owned tile (Haurvatat)
PALACE_GAIN = 7  # a palace on an owned tile, and Monkir's 2 GC at most


@njit(cache=True)
def sale_neutral(s, mover):
    """True when no sale changes the mover's total: without Al-Amin the goods score as the
    suits of ``scoring.suit_value``, and selling suits pays what they scored (the suits
    left keep their sizes); a suit past what the goods score only adds its gold. Then
    selling every suit is the best sale (``turn_walk.better``): the most total, and of
    equal totals the most gold (each suit sold pays at least 1)."""
    return not (s[P_DJINNS + mover] >> AL_AMIN_D) & 1


@njit(cache=True)
def _tile_gain(s, t):
    """What owning tile ``t`` adds at most: its VP, its palms and palaces at 5 VP."""
    return s[T_VP + t] + PALM_GAIN * s[T_PALMS + t] + 5 * s[T_PALACES + t]


@njit(cache=True)
def _best_tile_gain(s):
    most = 0
    for t in range(N_TILES):
        most = max(most, _tile_gain(s, t))
    return most


@njit(cache=True)
def power_bound(s, d, t):
    """What one use of the window power ``d`` on tile ``t`` (-1: any) adds at most: a
    camel (Leta, Utug) the tile's ``_tile_gain``; a palm ``PALM_GAIN``; a palace
    ``PALACE_GAIN``; Anun-Nak's meeples nothing (they score nothing); a draw (Sibittis,
    Sloar) no bound."""
    if d == LETA or d == UTUG:
        return float(_tile_gain(s, t) if t >= 0 else _best_tile_gain(s))
    if d == ENKI:
        return float(PALM_GAIN)
    if d == BOURAQ:
        return float(PALACE_GAIN)
    if d == ANUN_NAK:
        return 0.0
    return np.inf


@njit(cache=True)
def window_bound(s, mover, skip):
    """What the window powers the mover holds and has not used, ``skip`` left out (-1:
    none), add at most, each used once (``power_bound`` over any tile: Anun-Nak may bare a
    tile for Utug)."""
    bound = 0.0
    left = s[P_DJINNS + mover] & WINDOW_MASK & ~s[P_USED + mover]
    for d in range(N_DJINNS):
        if (left >> d) & 1 and d != skip:
            bound += power_bound(s, d, -1)
    return bound
