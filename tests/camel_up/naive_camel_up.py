"""Deliberately naive reference implementation of the Camel Up rules, for tests only.

Written from the rules as ``docs/games/camel-up.md`` (2nd edition, and the 2014
1st edition of Appendix A), *not* from the numba kernel, so that the two can be compared.
Slow, readable and boring on purpose: plain dicts and lists, exact ``Fraction`` arithmetic.

Representation
--------------
* ``track``: ``dict[int, list[str]]`` mapping a space 1..16 to its stack, bottom -> top.
  Racing camels are ``'B' 'G' 'Y' 'R' 'P'`` and the crazy camels ``'W'`` (white) and ``'K'``
  (black). For the 1st edition the same five racing letters are reused for the five racing
  camels (only the number of camels matters) and there are no crazy camels.
* ``tiles``: ``dict[int, tuple[int, str]]`` mapping a space to ``(owner, side)`` with side
  ``'cheer'`` or ``'boo'`` (1st edition: oasis = cheer, mirage = boo).
* ``pyramid``: list of dice still inside, among ``'B' 'G' 'Y' 'R' 'P' 'grey'``.
* A racing die face is its value 1..3; a grey die face is ``('white' | 'black', value)``.
* ``crossing``: ``None`` or ``('cw' | 'ccw', unit)`` with the unit bottom -> top (§5.3).

The racing letters are given to a position's racing camels in kernel order (``RACING[i]`` is
kernel camel ``i``, whatever its colour), so results compare with the kernel's directly
(``from_position``). The same module is the pure-Python baseline of
``bench/bench_camel_up.py``: ``leg_odds(..., exact=False)`` (plain floats) and
``race_counts`` (Monte Carlo races).
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import permutations

RACING = ["B", "G", "Y", "R", "P"]
CRAZY = ["W", "K"]
DICE = RACING + ["grey"]
N_SPACES = 16
FINAL_PAYOUT = [8, 5, 3, 2, 1]  # then 1 for every further correct card (§8)
# Each edition's printed tile action ``<word> <space> <side>`` (§4 action 2, Appendix A):
# the word, and its side words as the sides of ``tiles``.
TILE_LABEL = {"camel-up": ("spectator", {"cheer": "cheer", "boo": "boo"}),
              "camel-up-2014": ("desert", {"oasis": "cheer", "mirage": "boo"})}


# ---------------------------------------------------------------------------------------------
# helpers


def tile_label(label, variant):
    """(space, side) of ``variant``'s printed tile action ``label``; None for another label."""
    word, sides = TILE_LABEL[variant]
    words = label.split()
    if words[0] != word:
        return None
    return int(words[1]), sides[words[2]]


def copy_track(track):
    return {s: list(stack) for s, stack in track.items()}


def where(track, camel):
    """(space, height) of a camel on the track, or None if it is not on the track."""
    for space, stack in track.items():
        if camel in stack:
            return space, stack.index(camel)
    return None


def carries(track, crazy):
    """§5.1: at least one racing camel anywhere above the crazy camel in its stack."""
    pos = where(track, crazy)
    if pos is None:
        return False
    space, height = pos
    return any(c in RACING for c in track[space][height + 1:])


def directly_on(track, upper, lower):
    """§5.1: ``upper`` sits immediately on ``lower`` on the same space."""
    pu = where(track, upper)
    pl = where(track, lower)
    if pu is None or pl is None:
        return False
    return pu[0] == pl[0] and pu[1] == pl[1] + 1


def crazy_mover(track, colour):
    """§5.1 crazy camel selection for a grey die whose printed colour is ``colour``."""
    w_carries = carries(track, "W")
    k_carries = carries(track, "K")
    # rule 1: exactly one of them carries racing camels
    if w_carries and not k_carries:
        return "W"
    if k_carries and not w_carries:
        return "K"
    # rule 2: one crazy camel directly on the other -> the upper one
    if directly_on(track, "W", "K"):
        return "W"
    if directly_on(track, "K", "W"):
        return "K"
    # rule 3: the die colour
    return "W" if colour == "white" else "K"


def place_on_top(track, space, unit):
    track.setdefault(space, [])
    track[space] = track[space] + list(unit)


def place_underneath(track, space, unit):
    track.setdefault(space, [])
    track[space] = list(unit) + track[space]


# ---------------------------------------------------------------------------------------------
# §5 movement


def move(track, tiles, die, face):
    """Resolve one die. Returns ``(new_track, landed_tile_space_or_None, crossing)``.

    The input track is not modified. ``landed_tile_space`` is the space of the spectator tile
    the unit landed on (its owner earns 1 EP), or None.
    """
    track = copy_track(track)
    if die == "grey":
        colour, value = face
        mover = crazy_mover(track, colour)
        direction = -1
    else:
        value = face
        mover = die
        direction = +1
    assert value in (1, 2, 3)

    space, height = where(track, mover)
    unit = track[space][height:]          # mover and everything above it, order kept
    track[space] = track[space][:height]  # camels below the mover stay

    target = space + direction * value
    if target > N_SPACES:
        return track, None, ("cw", unit)
    if target < 1:
        return track, None, ("ccw", unit)

    if target not in tiles:
        place_on_top(track, target, unit)
        return track, None, None

    # §5.4: landed on a spectator tile -> the owner is paid; the unit moves on.
    _owner, side = tiles[target]
    if side == "cheer":
        t2 = target + direction
        if t2 > N_SPACES:
            return track, target, ("cw", unit)
        if t2 < 1:
            return track, target, ("ccw", unit)
        place_on_top(track, t2, unit)
    else:
        t2 = target - direction
        if t2 > N_SPACES:  # cannot happen for legal positions, kept for completeness
            return track, target, ("cw", unit)
        if t2 < 1:
            return track, target, ("ccw", unit)
        place_underneath(track, t2, unit)
    return track, target, None


# ---------------------------------------------------------------------------------------------
# §6 ranking


def ranking(track, crossing=None):
    """Racing camels on the track or in the crossing unit, 1st .. last (§6)."""
    keys = {}
    for space, stack in track.items():
        for height, camel in enumerate(stack):
            if camel in RACING:
                keys[camel] = (1, space, height)
    if crossing is not None:
        direction, unit = crossing
        group = 2 if direction == "cw" else 0
        for height, camel in enumerate(unit):
            if camel in RACING:
                keys[camel] = (group, 0, height)
    return sorted(keys, key=lambda c: keys[c], reverse=True)


# ---------------------------------------------------------------------------------------------
# §9 exact leg odds


def faces_of(die):
    """All (face, probability) pairs of a die (§9)."""
    if die == "grey":
        return [((colour, v), Fraction(1, 6)) for colour in ("white", "black") for v in (1, 2, 3)]
    return [(v, Fraction(1, 3)) for v in (1, 2, 3)]


def leg_odds(track, tiles, pyramid, leg_left=1, owner=None, exact=True):
    """Exact distribution of the rest of the current leg by brute-force recursion.

    The leg ends when ``leg_left`` dice remain in the pyramid (1 in the 2nd edition, 0 in the
    2014 edition) or when the game ends (a crossing). Every die order and every face, no
    merging of equal states. Probabilities are ``Fraction``s, or plain floats when ``exact``
    is False (the benchmark's baseline). Returns a dict with

    * ``place[camel][q]``: probability that racing camel ``camel`` ends the leg in place q+1;
    * ``end``: probability that the game ends during this leg;
    * ``land[space]``: expected number of landings on the tile on ``space``;
    * ``dist[(ended, ranking_tuple, j)]``: probability of ending the leg with that ranking,
      ended = 1 if the game ended, j = landings on tiles of ``owner`` (0 when owner is None);
    * ``leaves``: number of leaves visited (320,760 from a fresh 2nd-edition leg, §9).
    """
    one = Fraction(1) if exact else 1.0
    zero = one * 0
    faces = {die: [(face, p if exact else float(p)) for face, p in faces_of(die)]
             for die in pyramid}
    racers = [c for c in RACING if where(track, c) is not None]
    result = {
        "place": {c: [zero] * len(racers) for c in racers},
        "end": zero,
        "land": {s: zero for s in tiles},
        "dist": {},
        "leaves": 0,
    }

    def leaf(tr, crossing, prob, own_landings):
        result["leaves"] += 1
        order = tuple(ranking(tr, crossing))
        for q, camel in enumerate(order):
            result["place"][camel][q] += prob
        ended = 1 if crossing is not None else 0
        if ended:
            result["end"] += prob
        key = (ended, order, own_landings)
        result["dist"][key] = result["dist"].get(key, zero) + prob

    def recurse(tr, inside, prob, own_landings):
        if len(inside) <= leg_left:
            leaf(tr, None, prob, own_landings)
            return
        p_die = one / len(inside)
        for die in inside:
            rest = [d for d in inside if d != die]
            for face, p_face in faces[die]:
                p = prob * p_die * p_face
                new_tr, landed, crossing = move(tr, tiles, die, face)
                own = own_landings
                if landed is not None:
                    result["land"][landed] += p
                    if owner is not None and tiles[landed][0] == owner:
                        own += 1
                if crossing is not None:
                    leaf(new_tr, crossing, p, own)
                else:
                    recurse(new_tr, rest, p, own)

    recurse(copy_track(track), list(pyramid), one, 0)
    return result


# ---------------------------------------------------------------------------------------------
# §9 Monte Carlo races (the benchmark's baseline)


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
        face = rng.choice(faces_of(die))[0]
        track, _, crossing = move(track, current_tiles, die, face)
        if crossing is not None:
            return ranking(track, crossing)


def race_counts(track, tiles, pyramid, leg_left, all_dice, n, seed=0):
    """``counts[i][place]`` of racing camel ``RACING[i]`` over ``n`` races; ``all_dice``:
    the dice of a new leg (``DICE``, or ``RACING`` in the 2014 edition)."""
    rng = random.Random(seed)
    counts = [[0] * len(RACING) for _ in RACING]
    for _ in range(n):
        for place, camel in enumerate(play_race(track, tiles, pyramid, leg_left, all_dice, rng)):
            counts[RACING.index(camel)][place] += 1
    return counts


# ---------------------------------------------------------------------------------------------
# analyser positions


def from_position(pos):
    """``(track, tiles, pyramid, leg_left)`` of an analyser ``Position`` in this module's
    terms: racing camels lettered in kernel order, crazy camels ``W`` and ``K``."""
    rules = pos.rules
    letter = dict(zip(rules.colours, RACING))
    letter.update(white="W", black="K", grey="grey")
    track = {s: [letter[c] for c in stack] for s, stack in enumerate(pos.track, start=1)
             if stack}
    tiles = {t.space: (t.owner, t.side) for t in pos.tiles}
    return track, tiles, [letter[d] for d in pos.pyramid], rules.leg_left


# ---------------------------------------------------------------------------------------------
# §7 leg scoring and §8 final scoring


def ticket_reward(rank, colour, value):
    """§7.2 step 3: leader pays the printed value, 2nd place +1, everything else -1."""
    if colour == rank[0]:
        return value
    if colour == rank[1]:
        return 1
    return -1


def leg_scoring(rank, tickets, pyramid_tickets, money, partner=None):
    """§7.2 / §7.3. Returns the new money list.

    ``tickets[p]``: list of ``(colour, value)`` betting tickets of player p;
    ``pyramid_tickets[p]``: count; ``money[p]``: EP before scoring;
    ``partner[p]``: partner's seat or None (6-8 players).
    """
    n = len(money)
    partner = partner or [None] * n
    rewards = []
    for p in range(n):
        r = [ticket_reward(rank, c, v) for (c, v) in tickets[p]]
        r += [1] * pyramid_tickets[p]
        rewards.append(r)
    new = []
    for p in range(n):
        net = sum(rewards[p])
        if partner[p] is not None:
            best = max(rewards[partner[p]], default=0)
            net += max(0, best)
        new.append(max(0, money[p] + net))
    return new


def final_scoring(rank, winner_deck, loser_deck, money, clamp="card"):
    """§8 steps 3-5. Decks are lists of ``(owner, colour)`` in placement order (first placed
    first). ``clamp='card'``: every payment clamped at 0 as it happens, winner deck before loser
    deck (AMB-8); ``clamp='net'``: net per player over both decks, clamped once."""
    money = list(money)
    deltas = []  # (owner, amount) in payment order
    for deck, target in ((winner_deck, rank[0]), (loser_deck, rank[-1])):
        correct = 0
        for owner, colour in deck:
            if colour == target:
                pay = FINAL_PAYOUT[correct] if correct < len(FINAL_PAYOUT) else 1
                correct += 1
                deltas.append((owner, pay))
            else:
                deltas.append((owner, -1))
    if clamp == "card":
        for owner, amount in deltas:
            money[owner] = max(0, money[owner] + amount)
    else:
        net = [0] * len(money)
        for owner, amount in deltas:
            net[owner] += amount
        money = [max(0, m + d) for m, d in zip(money, net)]
    return money


def all_rankings():
    """All 120 orders of the racing camels (handy for tests)."""
    return list(permutations(RACING))
