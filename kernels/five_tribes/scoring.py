"""Five Tribes final scoring (spec §12-13), on plain arrays.

Per player: gold; viziers (1 VP each, 3 with Jafaar, plus 10 VP per opponent holding
strictly fewer); elders (2 each, 4 with Shamhat); the tiles carrying the player's camel
(their VP, 3 per palm on them or 5 with Haurvatat, 5 per palace); the printed VP of the
player's djinns; unsold merchandise as suits (layer i holds every type the player has at
least i cards of; Al-Amin makes every pair of fakirs a wild card, each added to the
largest suit still below 9 cards, or starting a new one).
"""

import numpy as np
from numba import njit

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
def final_scores(gold, viziers, elders, djinn_vp, djinn_flags, owner, tile_vp, palms, palaces,
                 goods, fakirs):
    """``out[player, part]`` in the order of ``SCORE_PARTS`` (module doc for the rules).
    ``owner[30]`` is each tile's camel owner (-1 none); ``goods[P, 9]`` in ``GOODS`` order."""
    n = len(gold)
    out = np.zeros((n, len(SCORE_PARTS)), dtype=np.int64)
    for p in range(n):
        flags = djinn_flags[p]
        out[p, 0] = gold[p]
        out[p, 1] = viziers[p] * (3 if flags & JAFAAR else 1)
        for q in range(n):
            if q != p and viziers[q] < viziers[p]:
                out[p, 1] += 10
        out[p, 2] = elders[p] * (4 if flags & SHAMHAT else 2)
        palm_vp = 5 if flags & HAURVATAT else 3
        for t in range(len(owner)):
            if owner[t] == p:
                out[p, 3] += tile_vp[t]
                out[p, 4] += palms[t] * palm_vp
                out[p, 5] += palaces[t] * 5
        out[p, 6] = djinn_vp[p]
        out[p, 7] = suit_value(goods[p], fakirs[p], (flags & AL_AMIN) != 0)
        out[p, 8] = out[p, :8].sum()
    return out
