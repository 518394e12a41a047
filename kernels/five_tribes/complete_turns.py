"""The steps and choices of a complete Five Tribes turn of the player to move
(docs/games/five-tribes.md §6-§12), its value, and playing one; ``turn_table`` tables them all.

A complete turn is one sowing (§7) with the choices that follow it: tile control (§8), the
tribe action's choice (§9: Builders' and Assassins' fakirs, the Assassins' victim), the
tile action's choice (§10: market cards, djinn and payment, or skipping an optional
action) and a sale (§12). A turn is valued exactly as the change in the mover's final
score (``SCORE_PARTS``) if the game ended after it.

An action is one int64 row (``A_*`` offsets): the sowing (start, length, tiles stepped on
and colours dropped in order; length 0 when the player has no legal sowing), the final
tile, the colour and number of meeples taken, the tiles claimed, the tribe choice, the
tile action and the sale. ``A_POWERS`` onwards holds the djinn part: Iblis' second victim,
the step whose draw ends the row, and the powers used (docs/games/five-tribes.md §20).

Sales: a sale is a set of whole suits of the end-scoring split (suit i holds every type
the mover has at least i cards of). Selling such suits costs no final VP; any other sale
is a different split of the same cards into worth-less suits, never better under this
value, and is not listed.
"""

import numpy as np
from ..jit import njit

from .board import N_COLOURS, N_TILES
from .data import DJINN_VP, DJINNS, FAKIRS, LARGE_MARKET, OASIS, SACRED_PLACE, SMALL_MARKET, VILLAGE
from .scoring import AL_AMIN, HAURVATAT, JAFAAR, N_GOODS, SCORE_PARTS, SHAMHAT, SUIT_VALUES
from .scoring import player_score
from .sowing import MAX_STACK
from .state import (
    ASSASSIN_OPTIONAL, BAG, DJINN_ROW, FAKIR_CARD, MAX_PLAYERS, N_PLAYERS, P_DJINNS, P_ELDERS,
    P_FAKIRS, P_GOLD, P_GOODS, P_VIZIERS, RES_DISCARD, ROW, T_MEEPLES, T_OWNER, T_PALACES,
    T_PALMS, T_TYPE, T_VP,
)
from .turn_steps import (
    claim, merchants_take, place_palace, place_palm, row_length, sow, take_card, take_djinn,
    in_reach, blue_around,
)

_Y, _W, _B, _G, _R = range(N_COLOURS)  # meeple colours
_DJINN_INDEX = {name: i for i, (name, _, _) in enumerate(DJINNS)}
_BOAZ = _DJINN_INDEX["Boaz"]
_END_DJINNS = ((_DJINN_INDEX["Jafaar"], JAFAAR), (_DJINN_INDEX["Shamhat"], SHAMHAT),
               (_DJINN_INDEX["Haurvatat"], HAURVATAT), (_DJINN_INDEX["Al-Amin"], AL_AMIN))

# victims of the Assassins
V_NONE, V_BOARD, V_VIZIER, V_ELDER = range(4)
# tile actions
TA_NONE, TA_PALM, TA_PALACE, TA_SKIP, TA_BUY, TA_DJINN = range(6)

A_START = 0
A_LEN = 1
A_PATH = 2
A_COLOURS = A_PATH + MAX_STACK
A_TILE = A_COLOURS + MAX_STACK  # final tile
A_COLOUR = A_TILE + 1  # colour taken
A_TAKEN = A_COLOUR + 1  # meeples taken
A_CLAIM = A_TAKEN + 1  # 1 if the final tile was claimed
A_FAKIRS = A_CLAIM + 1  # fakirs discarded for the tribe action
A_VICTIM = A_FAKIRS + 1  # V_*
A_VICTIM_AT = A_VICTIM + 1  # tile (V_BOARD) or seat (V_VIZIER, V_ELDER)
A_VICTIM_COLOUR = A_VICTIM_AT + 1
A_CLAIM2 = A_VICTIM_COLOUR + 1  # 1 if the emptied victim tile was claimed
A_TILE_ACTION = A_CLAIM2 + 1  # TA_*
A_CARD1 = A_TILE_ACTION + 1  # row place of the (first) card bought, -1 none
A_CARD2 = A_CARD1 + 1  # row place of the second card (large market), -1 none
A_KIND1 = A_CARD2 + 1  # their card kinds (scoring.GOODS order, 9 = fakir)
A_KIND2 = A_KIND1 + 1
A_DJINN = A_KIND2 + 1  # place in the djinn row, -1 none
A_DJINN_ID = A_DJINN + 1  # which djinn (data.DJINNS index)
A_DJINN_FAKIR = A_DJINN_ID + 1  # 1: paid with an Elder and a Fakir, 0: two Elders
A_SALE = A_DJINN_FAKIR + 1  # bit i-1 set: suit i of the end-scoring split sold
A_SALE_GOLD = A_SALE + 1
A_VICTIM2 = A_SALE_GOLD + 1  # Iblis' second victim: V_*, tile or seat, colour
A_VICTIM2_AT = A_VICTIM2 + 1
A_VICTIM2_COLOUR = A_VICTIM2_AT + 1
A_END = A_VICTIM2_COLOUR + 1  # -1, or the step (S_*) whose draw ends the row ("then best")
A_NUSES = A_END + 1  # djinn power uses recorded at A_USES
A_USES = A_NUSES + 1  # MAX_USES x (U_STEP, U_DJINN, U_PAY, U_TARGET), in the order played
MAX_USES = 16
U_STEP, U_DJINN, U_PAY, U_TARGET = range(4)  # U_PAY: djinn_powers payment code
U_SIZE = 4
ACTION_SIZE = A_USES + MAX_USES * U_SIZE
A_POWERS = A_VICTIM2  # the djinn part of a row, from here to the end

# the steps of a turn (docs/games/five-tribes.md §20.4), in order
S_PRE, S_SOW, S_TRIBE, S_TILE, S_POST, S_SALE, S_DONE = range(7)

N_PARTS = len(SCORE_PARTS)
# rows of ``tribe_options`` (a victim on any tile in any colour, or a held vizier or elder,
# with each number of fakirs; or no kill) and of ``tile_options`` (a large market: skip
# and 15 pairs)
TRIBE_ROWS = (N_TILES * N_COLOURS + 2 * MAX_PLAYERS) * (FAKIRS + 1) + 1
TILE_ROWS = 16


# --------------------------------------------------------------------------- scores


@njit(cache=True)
def _djinns_of(st, p):
    """(printed VP of ``p``'s djinns, their end-game bits for ``scoring``)."""
    mask = st[P_DJINNS + p]
    vp = 0
    flags = 0
    for d in range(len(DJINN_VP)):
        if (mask >> d) & 1:
            vp += DJINN_VP[d]
    for d, bit in _END_DJINNS:
        if (mask >> d) & 1:
            flags |= bit
    return vp, flags


@njit(cache=True)
def player_parts(st, p, out):
    """Player ``p``'s final score by part if the game ended now, into ``out``."""
    n = st[N_PLAYERS]
    vp, flags = _djinns_of(st, p)
    player_score(p, st[P_GOLD + p], st[P_VIZIERS:P_VIZIERS + n], st[P_ELDERS + p], vp, flags,
                 st[T_OWNER:T_OWNER + N_TILES], st[T_VP:T_VP + N_TILES],
                 st[T_PALMS:T_PALMS + N_TILES], st[T_PALACES:T_PALACES + N_TILES],
                 st[P_GOODS + p * N_GOODS:P_GOODS + (p + 1) * N_GOODS], st[P_FAKIRS + p], out)


@njit(cache=True)
def state_scores(st):
    """``out[player, part]``: every player's final score if the game ended now
    (``SCORE_PARTS`` order)."""
    out = np.zeros((st[N_PLAYERS], N_PARTS), dtype=np.int64)
    for p in range(st[N_PLAYERS]):
        player_parts(st, p, out[p])
    return out


# --------------------------------------------------------------------------- choices


@njit(cache=True)
def tribe_options(st, mover, tile, colour, k, out):
    """Fill ``out[i] = (fakirs, victim kind, victim tile or seat, victim colour)`` with the
    tribe action's choices (§9, §14.3, §14.10) on the state after tile control; returns
    how many. One choice (0, V_NONE, -1, -1) for Viziers, Elders and Merchants."""
    n = 0
    fakirs = st[P_FAKIRS + mover]
    if colour == _B:
        for f in range(fakirs + 1):
            out[n, 0], out[n, 1], out[n, 2], out[n, 3] = f, V_NONE, -1, -1
            n += 1
        return n
    if colour != _R:
        out[0, 0], out[0, 1], out[0, 2], out[0, 3] = 0, V_NONE, -1, -1
        return 1
    close = False  # a victim within the Assassins' own reach
    for t in range(N_TILES):
        for c in range(N_COLOURS):
            if st[T_MEEPLES + t * N_COLOURS + c] == 0:
                continue
            for f in range(fakirs + 1):
                if in_reach(tile, t, k + f):
                    if f == 0:
                        close = True
                    out[n, 0], out[n, 1], out[n, 2], out[n, 3] = f, V_BOARD, t, c
                    n += 1
    for q in range(st[N_PLAYERS]):
        if q == mover or (st[P_DJINNS + q] >> _BOAZ) & 1:
            continue
        for kind, field in ((V_VIZIER, P_VIZIERS), (V_ELDER, P_ELDERS)):
            if st[field + q] > 0:
                close = True
                for f in range(fakirs + 1):
                    out[n, 0], out[n, 1], out[n, 2], out[n, 3] = f, kind, q, -1
                    n += 1
    if not close or st[ASSASSIN_OPTIONAL]:
        out[n, 0], out[n, 1], out[n, 2], out[n, 3] = 0, V_NONE, -1, -1
        n += 1
    return n


@njit(cache=True)
def _discard_fakirs(st, player, f):
    st[P_FAKIRS + player] -= f
    st[RES_DISCARD + FAKIR_CARD] += f


@njit(cache=True)
def apply_tribe(st, mover, tile, colour, k, f, victim, at, vcolour):
    """The tribe action (§9) with one choice of ``tribe_options``; returns 1 if an
    assassinated tile was claimed (§8), else 0."""
    if colour == _Y:
        st[P_VIZIERS + mover] += k
        return 0
    if colour == _W:
        st[P_ELDERS + mover] += k
        return 0
    st[BAG + colour] += k
    if colour == _G:
        merchants_take(st, mover, k)
        return 0
    _discard_fakirs(st, mover, f)
    if colour == _B:
        st[P_GOLD + mover] += (k + f) * blue_around(st, tile)
        return 0
    if victim == V_BOARD:
        st[T_MEEPLES + at * N_COLOURS + vcolour] -= 1
        st[BAG + vcolour] += 1
        return 1 if claim(st, mover, at) else 0
    if victim == V_VIZIER:
        st[P_VIZIERS + at] -= 1
        st[BAG + _Y] += 1
    elif victim == V_ELDER:
        st[P_ELDERS + at] -= 1
        st[BAG + _W] += 1
    return 0


@njit(cache=True)
def tile_options(st, mover, tile, out):
    """Fill ``out[i] = (TA_*, card place, second card place, djinn place, pay with a
    fakir)`` with the final tile's action choices (§10, §14.8); returns how many."""
    kind = st[T_TYPE + tile]
    out[:, 1:] = -1
    if kind == OASIS or kind == VILLAGE:
        out[0, 0] = TA_PALM if kind == OASIS else TA_PALACE
        return 1
    out[0, 0] = TA_SKIP
    n = 1
    gold = st[P_GOLD + mover]
    cards = row_length(st)
    if kind == SMALL_MARKET and gold >= 3:
        for i in range(min(3, cards)):
            out[n, 0], out[n, 1] = TA_BUY, i
            n += 1
    elif kind == LARGE_MARKET and gold >= 6:
        if cards == 1:
            out[n, 0], out[n, 1] = TA_BUY, 0
            n += 1
        for i in range(min(6, cards)):
            for j in range(i + 1, min(6, cards)):
                out[n, 0], out[n, 1], out[n, 2] = TA_BUY, i, j
                n += 1
    elif kind == SACRED_PLACE:
        elders = st[P_ELDERS + mover]
        for d in range(3):
            if st[DJINN_ROW + d] < 0:
                break
            if elders >= 2:
                out[n, 0], out[n, 3], out[n, 4] = TA_DJINN, d, 0
                n += 1
            if elders >= 1 and st[P_FAKIRS + mover] >= 1:
                out[n, 0], out[n, 3], out[n, 4] = TA_DJINN, d, 1
                n += 1
    return n


@njit(cache=True)
def apply_tile(st, mover, tile, action, card1, card2, djinn, with_fakir):
    """The tile action (§10) with one choice of ``tile_options``; returns the action as
    done (TA_NONE when a palm or palace is out of stock)."""
    if action == TA_PALM:
        return TA_PALM if place_palm(st, tile) else TA_NONE
    if action == TA_PALACE:
        return TA_PALACE if place_palace(st, tile) else TA_NONE
    if action == TA_BUY:
        st[P_GOLD + mover] -= 3 if st[T_TYPE + tile] == SMALL_MARKET else 6
        if card2 >= 0:
            take_card(st, mover, card2)  # the later place first: the earlier one stays put
        take_card(st, mover, card1)
    elif action == TA_DJINN:
        take_djinn(st, mover, djinn, with_fakir)
    return action


@njit(cache=True)
def suits(st, player, sizes):
    """Fill ``sizes[i - 1]`` with the size of suit i of ``player``'s end-scoring split
    (every type held at least i times); returns the number of suits."""
    goods = st[P_GOODS + player * N_GOODS:P_GOODS + (player + 1) * N_GOODS]
    n = 0
    while True:
        size = 0
        for g in range(N_GOODS):
            if goods[g] > n:
                size += 1
        if size == 0:
            return n
        sizes[n] = size
        n += 1


@njit(cache=True)
def suit_count(st, player):
    """The number of suits of ``suits``: the most cards ``player`` holds of one type."""
    most = 0
    for g in range(N_GOODS):
        most = max(most, st[P_GOODS + player * N_GOODS + g])
    return most


@njit(cache=True)
def apply_sale(st, player, mask):
    """Sell the suits in ``mask`` (bit i-1: suit i of ``suits``): their cards to the
    discard pile, their value in gold. Returns the gold."""
    base = P_GOODS + player * N_GOODS
    held = st[base:base + N_GOODS].copy()
    gold = 0
    for i in range(1, 64):
        if not (mask >> (i - 1)) & 1:
            continue
        size = 0
        for g in range(N_GOODS):
            if held[g] >= i:
                size += 1
                st[base + g] -= 1
                st[RES_DISCARD + g] += 1
        gold += SUIT_VALUES[size]
    st[P_GOLD + player] += gold
    return gold


@njit(cache=True)
def clear_action(act):
    """Make ``act`` the empty action: no sowing, no choice, nothing sold, no power."""
    act[:] = -1
    act[A_LEN] = 0
    act[A_SALE] = 0
    act[A_SALE_GOLD] = 0
    act[A_NUSES] = 0


@njit(cache=True)
def play_sowing(st, act, mover):
    """Apply the sowing written in ``act`` (start, length, path, colours) and tile
    control, recording the final tile, the meeples taken and the claim in ``act``."""
    n = act[A_LEN]
    tile, colour, k = sow(st, act[A_START], act[A_PATH:A_PATH + n],
                          act[A_COLOURS:A_COLOURS + n], n)
    act[A_TILE], act[A_COLOUR], act[A_TAKEN] = tile, colour, k
    act[A_CLAIM] = 1 if claim(st, mover, tile) else 0


@njit(cache=True)
def play_tribe(st, act, mover, option):
    """Apply the tribe action with ``option`` (a ``tribe_options`` row) after the sowing
    recorded in ``act``, and record the choice in ``act``."""
    f, victim, at, vcolour = option[0], option[1], option[2], option[3]
    act[A_FAKIRS], act[A_VICTIM], act[A_VICTIM_AT], act[A_VICTIM_COLOUR] = f, victim, at, vcolour
    act[A_CLAIM2] = apply_tribe(st, mover, act[A_TILE], act[A_COLOUR], act[A_TAKEN], f,
                                victim, at, vcolour)


@njit(cache=True)
def play_tile(st, act, mover, option):
    """Apply the tile action with ``option`` (a ``tile_options`` row) on the final tile
    recorded in ``act``, and record the choice (and the cards' and djinn's identities)."""
    c1, c2, d, pay = option[1], option[2], option[3], option[4]
    act[A_CARD1], act[A_CARD2] = c1, c2
    act[A_KIND1] = st[ROW + c1] if c1 >= 0 else -1
    act[A_KIND2] = st[ROW + c2] if c2 >= 0 else -1
    act[A_DJINN], act[A_DJINN_FAKIR] = d, pay
    act[A_DJINN_ID] = st[DJINN_ROW + d] if d >= 0 else -1
    act[A_TILE_ACTION] = apply_tile(st, mover, act[A_TILE], option[0], c1, c2, d, pay)


@njit(cache=True)
def best_turn(actions, parts):
    """The greedy exact-value choice: the first row with the largest total change."""
    best = 0
    for i in range(1, len(parts)):
        if parts[i, N_PARTS - 1] > parts[best, N_PARTS - 1]:
            best = i
    return best
