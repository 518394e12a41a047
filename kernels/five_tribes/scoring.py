"""Five Tribes final scoring (docs/games/five-tribes.md §12-13), on plain arrays.

Per player: gold; viziers (1 VP each, 3 with Jafaar, plus 10 VP per opponent holding
strictly fewer); elders (2 each, 4 with Shamhat); the tiles carrying the player's camel
(their VP, 3 per palm on them or 5 with Haurvatat, 5 per palace); the printed VP of the
player's djinns; unsold merchandise as suits (layer i holds every type the player has at
least i cards of; Al-Amin makes every pair of fakirs a wild card, each added to the
largest suit still below 9 cards, or starting a new one).
"""

import numpy as np
from ..jit import njit

N_GOODS = 9
GOODS = ("ivory", "jewels", "gold", "papyrus", "silk", "spice", "fish", "wheat", "pottery")
SUIT_VALUES = np.array([0, 1, 3, 7, 13, 21, 30, 40, 50, 60], dtype=np.int64)
SCORE_PARTS = ("gold", "viziers", "elders", "tiles", "palms", "palaces", "djinns", "goods",
               "total")
# end-game djinns a player holds, as bits of ``djinn_flags``
JAFAAR = 1
SHAMHAT = 2
HAURVATAT = 4
AL_AMIN = 8
MAX_SUITS = 18 + 54  # more suits than cards can ever exist


@njit(cache=True)
def suit_value(goods, fakirs, al_amin):
    """Value of one player's merchandise ``goods[9]`` as suits (and Al-Amin's wilds:
    ``fakirs // 2`` of them when ``al_amin``)."""
    sizes = np.zeros(MAX_SUITS, dtype=np.int64)
    n_suits = 0
    for layer in range(1, MAX_SUITS):
        size = 0
        for g in range(N_GOODS):
            if goods[g] >= layer:
                size += 1
        if size == 0:
            break
        sizes[n_suits] = size
        n_suits += 1
    if al_amin:
        for _ in range(fakirs // 2):
            best = -1
            for i in range(n_suits):
                if sizes[i] < N_GOODS and (best < 0 or sizes[i] > sizes[best]):
                    best = i
            if best < 0:
                best = n_suits
                n_suits += 1
            sizes[best] += 1
    total = 0
    for i in range(n_suits):
        total += SUIT_VALUES[sizes[i]]
    return total


@njit(cache=True)
def player_score(p, gold, viziers, elders, djinn_vp, flags, owner, tile_vp, palms, palaces,
                 goods, fakirs, out):
    """Player ``p``'s final score by part into ``out`` (``SCORE_PARTS`` order): ``viziers``
    holds every player's count (the 10-VP comparisons), ``djinn_vp``, ``flags`` (end-game
    djinn bits), ``goods[9]`` and ``fakirs`` are p's own."""
    out[0] = gold
    out[1] = viziers[p] * (3 if flags & JAFAAR else 1)
    for q in range(len(viziers)):
        if q != p and viziers[q] < viziers[p]:
            out[1] += 10
    out[2] = elders * (4 if flags & SHAMHAT else 2)
    palm_vp = 5 if flags & HAURVATAT else 3
    out[3] = out[4] = out[5] = 0
    for t in range(len(owner)):
        if owner[t] == p:
            out[3] += tile_vp[t]
            out[4] += palms[t] * palm_vp
            out[5] += palaces[t] * 5
    out[6] = djinn_vp
    out[7] = suit_value(goods, fakirs, (flags & AL_AMIN) != 0)
    out[8] = out[:8].sum()


@njit(cache=True)
def final_scores(gold, viziers, elders, djinn_vp, djinn_flags, owner, tile_vp, palms, palaces,
                 goods, fakirs):
    """``out[player, part]`` in the order of ``SCORE_PARTS`` (module doc for the rules).
    ``owner[30]`` is each tile's camel owner (-1 none); ``goods[P, 9]`` in ``GOODS`` order."""
    n = len(gold)
    out = np.zeros((n, len(SCORE_PARTS)), dtype=np.int64)
    for p in range(n):
        player_score(p, gold[p], viziers, elders[p], djinn_vp[p], djinn_flags[p], owner,
                     tile_vp, palms, palaces, goods[p], fakirs[p], out[p])
    return out
