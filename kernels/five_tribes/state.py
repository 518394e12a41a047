"""A whole Five Tribes position on one int64 state vector (the kernel's view).

Offsets below; per-tile blocks are indexed by tile ``6 * row + col``, per-player blocks by
seat (4 slots; unused seats zero), meeple colours in ``COLOURS`` order (YWBGR), resource
cards as codes 0..8 (``GOODS`` order) and 9 (fakir), djinns as ``DJINNS`` indices (sets of
djinns as bit masks). Tracks hold marker owners, -1 where empty: the bid order track front
first; the turn order track aligned with ``BID_COSTS`` (18, 12, 8, 5, 3, 1, 0, 0, 0) with
the zero spaces filled from the first, so left to right is the play order. Hidden parts are
kept as what they hold, not in what order: card counts of the resource deck and discard
pile, djinn masks of the djinn deck and discards, meeple counts of the bag.
"""

import numpy as np
from ..jit import njit

from .board import N_COLOURS, N_TILES
from .scoring import N_GOODS

MAX_PLAYERS = 4
MAX_MARKERS = 4
N_CARD_KINDS = N_GOODS + 1
FAKIR_CARD = N_GOODS
TRACK_SPACES = 9

T_TYPE = 0  # 30: index into TILE_TYPES
T_VP = T_TYPE + N_TILES  # 30
T_OWNER = T_VP + N_TILES  # 30: seat of the camel, -1 none
T_PALMS = T_OWNER + N_TILES  # 30
T_PALACES = T_PALMS + N_TILES  # 30
T_MEEPLES = T_PALACES + N_TILES  # 30 x 5, tile-major: the sowing kernel's counts[30, 5]
P_GOLD = T_MEEPLES + N_TILES * N_COLOURS  # 4
P_VIZIERS = P_GOLD + MAX_PLAYERS  # 4
P_ELDERS = P_VIZIERS + MAX_PLAYERS  # 4
P_CAMELS = P_ELDERS + MAX_PLAYERS  # 4: camels not yet placed
P_FAKIRS = P_CAMELS + MAX_PLAYERS  # 4
P_GOODS = P_FAKIRS + MAX_PLAYERS  # 4 x 9, seat-major
P_DJINNS = P_GOODS + MAX_PLAYERS * N_GOODS  # 4 masks
ROW = P_DJINNS + MAX_PLAYERS  # 9 face-up resource cards, front first, -1 none
DJINN_ROW = ROW + 9  # 3 face-up djinns, -1 none
RES_DECK = DJINN_ROW + 3  # 10 card counts
RES_DISCARD = RES_DECK + N_CARD_KINDS  # 10 card counts
DJINN_DECK = RES_DISCARD + N_CARD_KINDS  # mask
DJINN_DISCARD = DJINN_DECK + 1  # mask
BAG = DJINN_DISCARD + 1  # 5 meeple counts
BID_ORDER = BAG + N_COLOURS  # 4 marker owners, front first
TURN_TRACK = BID_ORDER + MAX_MARKERS  # 9 marker owners
PHASE = TURN_TRACK + TRACK_SPACES  # 0 bidding, 1 turns
TO_MOVE = PHASE + 1
N_PLAYERS = TO_MOVE + 1
END_RULE = N_PLAYERS + 1  # sowing.LIVE or sowing.PREMOVE
# 1: the Assassins may kill no one (docs/games/five-tribes.md §14.3)
ASSASSIN_OPTIONAL = END_RULE + 1
# djinn powers (docs/games/five-tribes.md §20): per player, the djinns whose power was used
# in this turn (a mask; kept for the round with DJINN_PER_ROUND); the djinns Sibittis drew
# and the mover has not sorted yet (a mask, only inside a turn)
P_USED = ASSASSIN_OPTIONAL + 1  # 4 masks
DRAWN = P_USED + MAX_PLAYERS
DJINN_NEIGHBOUR = DRAWN + 1  # 8 or 4: the tiles "around" for Hagis and Lamia (§20.3)
NEKIR_PER_MEEPLE = DJINN_NEIGHBOUR + 1  # 1: Nekir pays per victim, not per kill action
DJINN_PER_ROUND = NEKIR_PER_MEEPLE + 1  # 1: 2 players use each power once per round
STATE_SIZE = DJINN_PER_ROUND + 1

BIDDING = 0
TURNS = 1


@njit(cache=True)
def meeples(st):
    """The board's meeples as ``counts[30, 5]`` (a view into ``st``)."""
    return st[T_MEEPLES:T_MEEPLES + N_TILES * N_COLOURS].reshape((N_TILES, N_COLOURS))


def empty_state() -> np.ndarray:
    """A zero state with every 'none' slot set to -1."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    for start, length in ((T_OWNER, N_TILES), (ROW, 9), (DJINN_ROW, 3),
                          (BID_ORDER, MAX_MARKERS), (TURN_TRACK, TRACK_SPACES)):
        st[start:start + length] = -1
    st[DJINN_NEIGHBOUR] = 8
    return st
