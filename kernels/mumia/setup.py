"""A new game of Mumia: the tiles laid, guardians, pawns, the mummy, hats and the token
pile (docs/games/mumia.md §2, §8–§11)."""

import numpy as np
from ..arrays import copy_into
from ..jit import njit

from ..rng import below
from .layout import (
    CAMEL, DANGER, EXCHANGE, MAX_GUARDS, MAX_PAWNS, MAX_SEATS, MAX_TILES, N_TOKEN_KINDS,
    R_E1, R_E2, R_E3, R_E3OUT, R_EXCH_POS, R_HAT_REROLL, R_KEEP_E1_REMOVAL, R_MIX,
    R_N_E3OUT, R_N_POOL, R_PAWNS, R_PLAYERS, R_POOL, R_RANDOM_LAYOUT, RISK, S_BAD, S_GUARD,
    S_LUCK, S_MUMMY, S_PAWN, S_PILE, S_PILE_N, S_PRESENT, S_SIZE, S_T, S_TILE, START,
    TREASURE, kind_of, magnitude_of, tile_code,
)

RISK_TILES = (3, 4, 4, 5, 5, 6, 6, 7)  # §1: the eight risk tiles' magnitudes
E1_REMOVED = (1, 1, 2, 2)               # §8: danger tiles E1 returns to the box


@njit(cache=True)
def _remove(tiles, n, code):
    """Remove one tile ``code`` from ``tiles[:n]`` (if there); the new count."""
    for i in range(n):
        if tiles[i] == code:
            for j in range(i, n - 1):
                tiles[j] = tiles[j + 1]
            return n - 1
    return n


@njit(cache=True)
def _remove_random(tiles, n, kind, count, rng):
    for _ in range(count):
        which = np.empty(n, dtype=np.int64)
        found = 0
        for i in range(n):
            if kind_of(tiles[i]) == kind:
                which[found] = i
                found += 1
        if found == 0:
            return n
        n = _remove(tiles, n, tiles[which[below(rng, found)]])
    return n


@njit(cache=True)
def _shuffle(a, n, rng):
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        a[i], a[j] = a[j], a[i]


@njit(cache=True)
def lay_tiles(R, rng, out):
    """The path tiles in track order (§2, §8, §10) into ``out``; returns their number."""
    tiles = np.empty(2 * MAX_TILES, dtype=np.int64)
    n = R[R_N_POOL]
    for i in range(n):
        tiles[i] = R[R_POOL + i]
    e1 = R[R_E1] != 0
    e3 = R[R_E3] != 0
    if e1 and (not e3 or R[R_KEEP_E1_REMOVAL] != 0):
        for m in E1_REMOVED:
            n = _remove(tiles, n, tile_code(DANGER, m))
    if e3:
        for i in range(R[R_N_E3OUT]):
            n = _remove(tiles, n, R[R_E3OUT + i])
        if e1:
            n = _remove_random(tiles, n, DANGER, 2, rng)
            n = _remove_random(tiles, n, TREASURE, 2, rng)
        for m in RISK_TILES:
            tiles[n] = tile_code(RISK, m)
            n += 1
    if e1 or e3 or R[R_RANDOM_LAYOUT] != 0:
        _shuffle(tiles, n, rng)
    if not e1:
        copy_into(out[:n], tiles[:n])
        return n
    k = 0
    j = 0
    total = n + 4
    for pos in range(1, total + 1):
        exchange = False
        for e in range(4):
            if R[R_EXCH_POS + e] == pos:
                exchange = True
        if exchange:
            out[k] = tile_code(EXCHANGE, 0)
        else:
            out[k] = tiles[j]
            j += 1
        k += 1
    return total


@njit(cache=True)
def _tie_break(R, rng, alive, highest):
    """The one seat of ``alive`` (tied for the highest or the lowest roll) that gets the
    hat (§9): the tied re-roll until one is alone (``hat_tie = first_seat``: the first
    in play order)."""
    n = R[R_PLAYERS]
    while True:
        tied = 0
        first = -1
        for p in range(n):
            if alive[p]:
                tied += 1
                if first < 0:
                    first = p
        if tied == 1 or R[R_HAT_REROLL] == 0:
            return first
        rolls = np.zeros(n, dtype=np.int64)
        best = -1
        for p in range(n):
            if alive[p]:
                rolls[p] = 1 + below(rng, 6)
                best = max(best, rolls[p] if highest else 7 - rolls[p])
        for p in range(n):
            if alive[p] and (rolls[p] if highest else 7 - rolls[p]) != best:
                alive[p] = False


@njit(cache=True)
def deal_hats(R, rng):
    """(lucky seat, unlucky seat) (§9): everyone rolls; the highest takes the hat of luck,
    the lowest the hat of bad luck, ties re-rolled among the tied; a roll where everyone
    ties is rolled again. With two players each takes one."""
    n = R[R_PLAYERS]
    while True:
        rolls = np.empty(n, dtype=np.int64)
        for p in range(n):
            rolls[p] = 1 + below(rng, 6)
        high = rolls.max()
        low = rolls.min()
        if high != low or R[R_HAT_REROLL] == 0:
            break
    lucky = _tie_break(R, rng, rolls == high, True)
    if n == 2:
        return lucky, 1 - lucky
    unlucky_mask = rolls == low
    unlucky_mask[lucky] = False
    return lucky, _tie_break(R, rng, unlucky_mask, False)


@njit(cache=True)
def new_game(R, rng):
    """A new game's state (``layout``): seat 0 to move, every pawn and the mummy on
    START; chance from ``rng`` (layout, hats, token pile)."""
    S = np.zeros(S_SIZE, dtype=np.int64)
    t = lay_tiles(R, rng, S[S_TILE:S_TILE + MAX_TILES])
    S[S_T] = t
    for i in range(t):
        S[S_PRESENT + i] = 1
    for slot in range(MAX_SEATS * MAX_PAWNS):
        used = slot // MAX_PAWNS < R[R_PLAYERS] and slot % MAX_PAWNS < R[R_PAWNS]
        S[S_PAWN + slot] = START if used else -2
    # §2: a guardian on every camel and on the two highest treasure tiles in play
    for g in range(MAX_GUARDS):
        S[S_GUARD + g] = -1
    g = 0
    for i in range(t):
        if kind_of(S[S_TILE + i]) == CAMEL and g < MAX_GUARDS:
            S[S_GUARD + g] = i + 1
            g += 1
    for _ in range(2):
        best = -1
        for i in range(t):
            code = S[S_TILE + i]
            if kind_of(code) == TREASURE and (best < 0 or magnitude_of(code)
                                               > magnitude_of(S[S_TILE + best])):
                taken = False
                for h in range(g):
                    if S[S_GUARD + h] == i + 1:
                        taken = True
                if not taken:
                    best = i
        if best >= 0 and g < MAX_GUARDS:
            S[S_GUARD + g] = best + 1
            g += 1
    S[S_MUMMY] = START
    S[S_LUCK] = -1
    S[S_BAD] = -1
    if R[R_E2] != 0:
        lucky, unlucky = deal_hats(R, rng)
        S[S_LUCK] = lucky * MAX_PAWNS
        S[S_BAD] = unlucky * MAX_PAWNS
    n = 0
    for kind in range(N_TOKEN_KINDS):
        for _ in range(R[R_MIX + kind]):
            S[S_PILE + n] = kind
            n += 1
    S[S_PILE_N] = n
    _shuffle(S[S_PILE:S_PILE + n], n, rng)
    return S
