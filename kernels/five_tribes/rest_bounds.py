"""Upper bounds on what the rest of a turn can add to the mover's total, for the ``BEST``
walks of ``turn_walk`` (the best rest after a draw, docs/games/five-tribes.md §20.6): a
sowing, or a use of the window after the tile action, whose bound is strictly below the
best found so far is not walked. The best value is the largest under
``turn_walk.better`` (a total order: the same whatever order the values come in), so what
cannot reach its total changes nothing; ties are still walked.

Every bound holds only when no sale changes the total (``sale_neutral``); what a payment
costs is left out (it only loses: Elders score, Fakirs only with Al-Amin), and so is
whether it can be paid. Values in VP.
"""

import numpy as np
from ..jit import njit

from .board import N_TILES
from .complete_turns import A_COLOUR, A_TAKEN, A_TILE, _djinns_of
from .data import DJINN_VP, DJINNS, LARGE_MARKET, OASIS, SACRED_PLACE, SMALL_MARKET, VILLAGE
from .djinn_powers import (
    AL_AMIN_D, ANUN_NAK, BAAL, BOAZ, BOURAQ, ECHIDNA, ENKI, HAGIS, IBLIS, KANDICHA, LAMIA,
    LETA, MONKIR, N_DJINNS, NEKIR, SIBITTIS, SLOAR, UTUG, WINDOW_MASK, supply_left,
)
from .scoring import HAURVATAT, JAFAAR, N_GOODS, SHAMHAT, suit_value
from .state import (
    DJINN_ROW, FAKIR_CARD, N_PLAYERS, P_DJINNS, P_ELDERS, P_FAKIRS, P_GOODS, P_USED,
    P_VIZIERS, ROW, T_MEEPLES, T_OWNER, T_PALACES, T_PALMS, T_TYPE, T_VP,
)
from .turn_steps import blue_around, in_reach, merchants_take, row_length

_Y, _W, _B, _G, _R = range(5)
_NAMES = [name for name, _, _ in DJINNS]
_JAFAAR, _SHAMHAT, _HAURVATAT = (_NAMES.index(n) for n in ("Jafaar", "Shamhat", "Haurvatat"))
PALACE_GAIN = 5  # a palace on an owned tile
MAJORITY = 10  # the Viziers comparison won against one opponent
NEKIR_GAIN = 2  # Nekir's income for one kill action (per meeple: 2 victims at most)


@njit(cache=True)
def sale_neutral(s, mover):
    """True when no sale changes the mover's total: without Al-Amin the goods score as the
    suits of ``scoring.suit_value``, and selling suits pays what they scored (the suits
    left keep their sizes); a suit past what the goods score only adds its gold. Then
    selling every suit is the best sale (``turn_walk.better``): the most total, and of
    equal totals the most gold (each suit sold pays at least 1)."""
    return not (s[P_DJINNS + mover] >> AL_AMIN_D) & 1


@njit(cache=True)
def _usable(s, mover, d):
    """True if the mover holds ``d`` and has not used it this turn."""
    return (s[P_DJINNS + mover] >> d) & 1 and not (s[P_USED + mover] >> d) & 1


@njit(cache=True)
def _tile_gain(s, t):
    """What owning tile ``t`` adds at most: its VP, its palms (at 5 VP) and palaces."""
    return s[T_VP + t] + 5 * s[T_PALMS + t] + PALACE_GAIN * s[T_PALACES + t]


@njit(cache=True)
def power_bound(s, d, t):
    """What one use of the window power ``d`` on tile ``t`` (-1: any) adds at most: a
    camel (Leta, Utug: a tile nobody owns, with no palm or palace) the tile's VP; a palm
    5 VP (Haurvatat); a palace ``PALACE_GAIN`` and Monkir's 1 GC; Anun-Nak's meeples
    nothing (they score nothing); a draw (Sibittis, Sloar) no bound."""
    if d == LETA or d == UTUG:
        if t >= 0:
            return float(s[T_VP + t])
        most = 0
        for u in range(N_TILES):
            if s[T_OWNER + u] < 0 and s[T_PALMS + u] == 0 and s[T_PALACES + u] == 0:
                most = max(most, s[T_VP + u])
        return float(most)
    if d == ENKI:
        return 5.0
    if d == BOURAQ:
        return float(PALACE_GAIN + 1)
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


@njit(cache=True)
def _goods_gain(s, mover, i, j):
    """What the row's cards at places ``i`` and ``j`` (-1: none) add to the mover's
    suits."""
    goods = s[P_GOODS + mover * N_GOODS:P_GOODS + (mover + 1) * N_GOODS].copy()
    before = suit_value(goods, 0, False)
    for c in (s[ROW + i], s[ROW + j] if j >= 0 else FAKIR_CARD):
        if c != FAKIR_CARD:
            goods[c] += 1
    return suit_value(goods, 0, False) - before


@njit(cache=True)
def _piece_bound(s, mover, tile, palm, claimable):
    """What the palm (``palm``) or palace of the tile action on ``tile`` adds at most, if
    one is left: its VP if it may land on a tile of the mover's (``tile`` theirs or
    ``claimable``, or redirected by Lamia or Hagis); a palace Monkir's 1 GC wherever."""
    if not supply_left(s, palm):
        return 0.0
    owned = claimable or _usable(s, mover, LAMIA if palm else HAGIS) \
        or s[T_OWNER + tile] == mover
    _, flags = _djinns_of(s, mover)
    if palm:
        return (5.0 if flags & HAURVATAT else 3.0) if owned else 0.0
    return float(PALACE_GAIN * owned + ((s[P_DJINNS + mover] >> MONKIR) & 1))


@njit(cache=True)
def _djinn_bound(s, mover, d, viziers, elders):
    """What taking the djinn ``d`` adds at most, the mover then holding ``viziers`` and
    ``elders``: its VP, Ba'al's 1 GC, and what its power can still add this turn (Jafaar
    2 VP a Vizier, Shamhat 2 VP an Elder, Haurvatat 2 VP a palm on the mover's tiles (a
    tile claimed later is bounded with 5 VP a palm), a window power its ``power_bound``;
    Al-Amin no bound: sales then change the total)."""
    if d == AL_AMIN_D or d == SIBITTIS or d == SLOAR:
        return np.inf
    bound = float(DJINN_VP[d] + (d != BAAL and (s[P_DJINNS + mover] >> BAAL) & 1))
    if d == _JAFAAR:
        bound += 2 * viziers
    elif d == _SHAMHAT:
        bound += 2 * elders
    elif d == _HAURVATAT:
        for t in range(N_TILES):
            if s[T_OWNER + t] == mover:
                bound += 2 * s[T_PALMS + t]
    elif (WINDOW_MASK >> d) & 1:
        bound += power_bound(s, d, -1)
    return bound


@njit(cache=True)
def _tile_action_bound(s, mover, tile, claimable, viziers, elders):
    """What the action of the final tile ``tile`` adds at most: its palm or palace
    (``_piece_bound``); the best card or pair of cards bought, less its price (gold not
    checked); the best djinn of the row (``_djinn_bound``; the payment not checked)."""
    kind = s[T_TYPE + tile]
    if kind == OASIS or kind == VILLAGE:
        return _piece_bound(s, mover, tile, kind == OASIS, claimable)
    best = 0
    cards = row_length(s)
    if kind == SMALL_MARKET:
        for i in range(min(3, cards)):
            best = max(best, _goods_gain(s, mover, i, -1) - 3)
    elif kind == LARGE_MARKET:
        if cards == 1:
            best = max(best, _goods_gain(s, mover, 0, -1) - 6)
        for i in range(min(6, cards)):
            for j in range(i + 1, min(6, cards)):
                best = max(best, _goods_gain(s, mover, i, j) - 6)
    elif kind == SACRED_PLACE:
        most = 0.0
        for i in range(3):
            if s[DJINN_ROW + i] >= 0:
                most = max(most, _djinn_bound(s, mover, s[DJINN_ROW + i], viziers, elders))
        return most
    return float(best)


@njit(cache=True)
def _assassins_bound(s, mover, tile, k):
    """What the Assassins add at most: a tile claimed (one within reach, nobody's, with as
    many meeples as can die) or a Viziers comparison won (an opponent with as many as the
    mover, or one more for Iblis), and Nekir's income; Kandicha no bound (it may draw)."""
    if (s[P_DJINNS + mover] >> KANDICHA) & 1:
        return np.inf
    iblis = _usable(s, mover, IBLIS)
    most = 0
    for t in range(N_TILES):
        if s[T_OWNER + t] >= 0 or not in_reach(tile, t, k + s[P_FAKIRS + mover]):
            continue
        on = s[T_MEEPLES + t * 5:T_MEEPLES + t * 5 + 5].sum()
        if 1 <= on <= 1 + iblis:
            most = max(most, _tile_gain(s, t))
    mine = s[P_VIZIERS + mover]
    for q in range(s[N_PLAYERS]):
        if q != mover and not (s[P_DJINNS + q] >> BOAZ) & 1 \
                and (s[P_VIZIERS + q] == mine or iblis and s[P_VIZIERS + q] == mine + 1):
            most = max(most, MAJORITY)
    return float(most + NEKIR_GAIN * ((s[P_DJINNS + mover] >> NEKIR) & 1))


@njit(cache=True)
def rest_bound(s, act, mover):
    """What the rest of the turn sown as ``act`` adds at most to the total of ``s`` (the
    state after the sowing): the tribe action (Viziers, Elders and Merchants exactly,
    Builders with every Fakir and Echidna), the tile action, the window after it and the
    sale (nothing: ``sale_neutral``)."""
    colour, k, tile = act[A_COLOUR], act[A_TAKEN], act[A_TILE]
    _, flags = _djinns_of(s, mover)
    bound = window_bound(s, mover, -1)
    viziers = s[P_VIZIERS + mover] + (k if colour == _Y else 0)
    elders = s[P_ELDERS + mover] + (k if colour == _W else 0)
    if colour == _Y:
        mine = s[P_VIZIERS + mover]
        for q in range(s[N_PLAYERS]):
            if q != mover and mine <= s[P_VIZIERS + q] < mine + k:
                bound += MAJORITY
        bound += k * (3 if flags & JAFAAR else 1)
    elif colour == _W:
        bound += k * (4 if flags & SHAMHAT else 2)
    elif colour == _G:
        t = s.copy()
        merchants_take(t, mover, k)
        goods = P_GOODS + mover * N_GOODS
        bound += suit_value(t[goods:goods + N_GOODS], 0, False) \
            - suit_value(s[goods:goods + N_GOODS], 0, False)
        return bound + _tile_action_bound(t, mover, tile, False, viziers, elders)
    elif colour == _B:
        bound += (2 if _usable(s, mover, ECHIDNA) else 1) * (k + s[P_FAKIRS + mover]) \
            * blue_around(s, tile)
    else:
        bound += _assassins_bound(s, mover, tile, k)
    return bound + _tile_action_bound(s, mover, tile, colour == _R, viziers, elders)
