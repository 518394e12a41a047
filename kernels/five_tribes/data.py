"""Five Tribes components (docs/games/five-tribes.md §1, §5, §11, §12;
``five-tribes-data.json``) as constants: tile types and values, meeples, merchandise, djinns, the
turn order track, supplies."""

import numpy as np

TILE_TYPES = ("oasis", "small-market", "large-market", "village", "sacred-place")
OASIS, SMALL_MARKET, LARGE_MARKET, VILLAGE, SACRED_PLACE = range(5)
TILE_COUNTS = (6, 8, 4, 5, 7)
TILE_VP = (8, 6, 4, 5, 6)  # printed VP; sacred places vary: SACRED_VPS
SACRED_VPS = (6, 6, 6, 6, 10, 12, 15)
BLUE_TILE = np.array([False, False, False, True, True])  # VP printed in blue (builders)

MEEPLE_TOTALS = np.array([16, 20, 18, 18, 18], dtype=np.int64)  # Y W B G R
GOODS_COUNTS = np.array([2, 2, 2, 4, 4, 4, 6, 6, 6], dtype=np.int64)  # scoring.GOODS order
FAKIRS = 18
RESOURCE_ROW = 9
VISIBLE_DJINNS = 3

BID_COSTS = np.array([18, 12, 8, 5, 3, 1, 0, 0, 0], dtype=np.int64)  # dearest space first
ZERO_SPACES = 3

PALMS = 12
PALACES = 10
START_GOLD = 50
CAMELS = {2: 11, 3: 8, 4: 8}
MARKERS = {2: 2, 3: 1, 4: 1}

# djinn costs: what a paid power takes (docs/games/five-tribes.md §11)
COST_NONE, COST_E_OR_F, COST_E_AND_E_OR_F, COST_F, COST_FAKIRS = range(5)
DJINNS = (  # (name, VP, cost)
    ("Al-Amin", 5, COST_NONE), ("Anun-Nak", 8, COST_E_OR_F), ("Ba'al", 6, COST_NONE),
    ("Boaz", 6, COST_NONE), ("Bouraq", 6, COST_E_OR_F), ("Echidna", 4, COST_E_AND_E_OR_F),
    ("Enki", 8, COST_E_OR_F), ("Hagis", 10, COST_E_OR_F), ("Haurvatat", 8, COST_NONE),
    ("Iblis", 8, COST_E_OR_F), ("Jafaar", 6, COST_NONE), ("Kandicha", 6, COST_NONE),
    ("Kumarbi", 6, COST_FAKIRS), ("Lamia", 10, COST_E_OR_F), ("Leta", 4, COST_E_AND_E_OR_F),
    ("Marid", 6, COST_NONE), ("Monkir", 6, COST_NONE), ("Nekir", 6, COST_NONE),
    ("Shamhat", 6, COST_NONE), ("Sibittis", 4, COST_E_AND_E_OR_F), ("Sloar", 8, COST_F),
    ("Utug", 4, COST_E_AND_E_OR_F),
)
DJINN_VP = np.array([vp for _, vp, _ in DJINNS], dtype=np.int64)
