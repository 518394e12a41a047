"""Naive pure-Python Camel Up baseline for the benchmark (not part of the package).

Written from the rules specification ``shared/rules/camel-up.md`` (§5 movement, §6 ranking,
§9 chance model), not from the numba kernel: a plain list-of-lists track, plain floats, and
brute-force recursion over every die and every face with no merging of equal states. It is
the "obvious" implementation the kernel is measured against, and it doubles as an
independent check of the kernel's probabilities.

Numbering (same as the kernel so results can be compared directly, nothing else shared):
camels 0..4 are the racing camels, 5 the white and 6 the black crazy camel; dice 0..4 are the
racing dice (die i moves camel i), 5 the grey die. A racing face is its value 1..3; a grey
face is ``(colour, value)`` with colour 5 (white) or 6 (black).
"""

from __future__ import annotations

import random

N_SPACES = 16
N_RACING = 5
WHITE, BLACK = 5, 6
GREY = 5

# ---------------------------------------------------------------------------------------------
# state


def from_position(pos):
    """``(track, tiles, pyramid, leg_left)`` of an analyser ``Position``.

    ``track[s]`` (s = 1..16; index 0 unused) is the stack on space s, bottom -> top;
    ``tiles`` maps a space to ``(owner, +1 cheer | -1 boo)``; ``pyramid`` lists dice inside."""
    rules = pos.rules
    track = [[] for _ in range(N_SPACES + 1)]
    for s, stack in enumerate(pos.track, start=1):
        track[s] = [rules.camels.index(name) for name in stack]
    tiles = {t.space: (t.owner, 1 if t.side == "cheer" else -1) for t in pos.tiles}
    pyramid = [rules.dice.index(name) for name in pos.pyramid]
    return track, tiles, pyramid, rules.leg_left


def find(track, camel):
    for s in range(1, N_SPACES + 1):
        stack = track[s]
        if camel in stack:
            return s, stack.index(camel)
    return None


def carries(track, crazy):
    """§5.1: a racing camel anywhere above ``crazy`` in its stack."""
    where = find(track, crazy)
    if where is None:
        return False
    s, h = where
    return any(c < N_RACING for c in track[s][h + 1:])


def choose_crazy(track, colour):
    """§5.1 crazy camel selection for a grey die of printed ``colour``."""
    w, k = carries(track, WHITE), carries(track, BLACK)
    if w and not k:
        return WHITE
    if k and not w:
        return BLACK
    pw, pk = find(track, WHITE), find(track, BLACK)
    if pw is not None and pk is not None and pw[0] == pk[0]:
        if pw[1] == pk[1] + 1:
            return WHITE
        if pk[1] == pw[1] + 1:
            return BLACK
    return colour


def move(track, tiles, die, face):
    """§5.2-§5.4 on a copy of ``track``. Returns ``(track, landed, crossing)``: ``landed``
    is the space of the tile the unit landed on (or None); ``crossing`` is None or
    ``(+1 | -1, unit)`` for a clockwise / counterclockwise finish-line crossing."""
    track = [list(stack) for stack in track]
    if die == GREY:
        colour, value = face
        mover, d = choose_crazy(track, colour), -1
    else:
        value = face
        mover, d = die, 1
    s, h = find(track, mover)
    unit = track[s][h:]
    track[s] = track[s][:h]
    t = s + d * value
    if t > N_SPACES or t < 1:
        return track, None, (1 if t > N_SPACES else -1, unit)
    if t not in tiles:
        track[t] = track[t] + unit
        return track, None, None
    side = tiles[t][1]
    landed = t
    if side > 0:  # cheer: one more space in the unit's direction, on top
        t2 = t + d
        if t2 > N_SPACES or t2 < 1:
            return track, landed, (1 if t2 > N_SPACES else -1, unit)
        track[t2] = track[t2] + unit
    else:  # boo: one space back, underneath
        t2 = t - d
        track[t2] = unit + track[t2]
    return track, landed, None


def ranking(track, crossing=None):
    """§6: the racing camels from 1st to 5th as a tuple."""
    keys = {}
    for s in range(1, N_SPACES + 1):
        for h, c in enumerate(track[s]):
            if c < N_RACING:
                keys[c] = (1, s, h)
    if crossing is not None:
        d, unit = crossing
        for h, c in enumerate(unit):
            if c < N_RACING:
                keys[c] = (2 if d > 0 else 0, 0, h)
    return tuple(sorted(keys, key=lambda c: keys[c], reverse=True))


def faces(die):
    """(face, probability) of a die (§9)."""
    if die == GREY:
        return [((colour, v), 1.0 / 6.0) for colour in (WHITE, BLACK) for v in (1, 2, 3)]
    return [(v, 1.0 / 3.0) for v in (1, 2, 3)]


# ---------------------------------------------------------------------------------------------
# exact leg odds by brute force


def leg_odds(track, tiles, pyramid, leg_left=1, owner=None):
    """Enumerate the rest of the leg: every die order and every face, no merging.

    Returns ``(dist, land, leaves)``: ``dist[(ended, ranking, k)]`` = probability of ending
    the leg with that ranking (``ended`` 1 if the game ended), ``k`` landings on ``owner``'s
    tiles; ``land[s]`` = expected number of landings on the tile on space ``s``; ``leaves``
    = number of leaves visited (320,760 from a fresh 2nd-edition leg, §9)."""
    dist = {}
    land = {s: 0.0 for s in tiles}
    leaves = [0]

    def leaf(tr, crossing, p, k):
        leaves[0] += 1
        key = (0 if crossing is None else 1, ranking(tr, crossing), k)
        dist[key] = dist.get(key, 0.0) + p

    def recurse(tr, inside, p, k):
        if len(inside) <= leg_left:
            leaf(tr, None, p, k)
            return
        p_die = p / len(inside)
        for die in inside:
            rest = [x for x in inside if x != die]
            for face, pf in faces(die):
                q = p_die * pf
                new, landed, crossing = move(tr, tiles, die, face)
                kk = k
                if landed is not None:
                    land[landed] += q
                    if owner is not None and tiles[landed][0] == owner:
                        kk += 1
                if crossing is not None:
                    leaf(new, crossing, q, kk)
                else:
                    recurse(new, rest, q, kk)

    recurse(track, list(pyramid), 1.0, 0)
    return dist, land, leaves[0]


# ---------------------------------------------------------------------------------------------
# Monte Carlo races


def play_race(track, tiles, pyramid, leg_left, all_dice, rng):
    """One race to its end: the rest of this leg with ``tiles``, later legs with no tiles
    (the default odds policy of §9). Returns the final ranking."""
    inside = list(pyramid)
    current_tiles = tiles
    while True:
        if len(inside) <= leg_left:
            inside = list(all_dice)
            current_tiles = {}
        die = rng.choice(inside)
        inside.remove(die)
        face = rng.choice(faces(die))[0]
        track, _, crossing = move(track, current_tiles, die, face)
        if crossing is not None:
            return ranking(track, crossing)


def race_counts(track, tiles, pyramid, leg_left, all_dice, n, seed=0):
    """``counts[camel][place]`` over ``n`` races."""
    rng = random.Random(seed)
    counts = [[0] * N_RACING for _ in range(N_RACING)]
    for _ in range(n):
        order = play_race(track, tiles, pyramid, leg_left, all_dice, rng)
        for place, camel in enumerate(order):
            counts[camel][place] += 1
    return counts
