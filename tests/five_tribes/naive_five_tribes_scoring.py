"""Deliberately naive reference for Five Tribes final scoring, for tests only.

Written from ``docs/games/five-tribes.md`` §11 (end-game djinns), §12 (suits), §13 (the score
formula) and §14.11 (vizier bonus), *not* from the kernel. Merchandise is scored by brute force:
every way of splitting the goods into suits of pairwise-distinct types is tried (memoised on the
multiset of counts), and with Al-Amin every assignment of types to the wilds is tried, so
the spec's layering / "largest suit below 9" claims are checked rather than assumed.

Goods rows list cards per type in the order of :data:`GOODS`. Djinns are given by name (§11).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement, product

GOODS = ("ivory", "jewels", "gold", "papyrus", "silk", "spice", "fish", "wheat", "pottery")
DECK = (2, 2, 2, 4, 4, 4, 6, 6, 6)  # merchandise cards per type (§1)
FAKIRS = 18
PALMS, PALACES = 12, 10
VIZIERS, ELDERS = 16, 20
N_TILES = 30
SUIT_VALUE = (0, 1, 3, 7, 13, 21, 30, 40, 50, 60)  # by suit size 0..9 (§12)
TILE_VPS = (8,) * 6 + (6,) * 8 + (4,) * 4 + (5,) * 5 + (6, 6, 6, 6, 10, 12, 15)  # §1, sum 198
DJINN_VP = {  # §11
    "Al-Amin": 5, "Anun-Nak": 8, "Ba'al": 6, "Boaz": 6, "Bouraq": 6, "Echidna": 4, "Enki": 8,
    "Hagis": 10, "Haurvatat": 8, "Iblis": 8, "Jafaar": 6, "Kandicha": 6, "Kumarbi": 6,
    "Lamia": 10, "Leta": 4, "Marid": 6, "Monkir": 6, "Nekir": 6, "Shamhat": 6, "Sibittis": 4,
    "Sloar": 8, "Utug": 4,
}
PARTS = ("gold", "viziers", "elders", "tiles", "palms", "palaces", "djinns", "goods", "total")


@dataclass
class EndState:
    """A finished game: per-player lists (length P) and per-tile lists (length 30)."""

    gold: list[int]
    viziers: list[int]
    elders: list[int]
    djinns: list[list[str]]  # names of the djinns each player holds
    owner: list[int]  # camel owner per tile, -1 = none
    tile_vp: list[int]
    palms: list[int]
    palaces: list[int]
    goods: list[list[int]]  # [P][9] cards per type, order GOODS
    fakirs: list[int]

    @property
    def players(self) -> int:
        return len(self.gold)


@cache
def _best_split(types_with: tuple[int, ...]) -> int:
    """Best value of a split of goods into suits of pairwise-distinct types, by brute force.

    The goods are given as a multiset (types are interchangeable for suit values):
    ``types_with[c - 1]`` = number of types held exactly ``c`` times, no trailing zeros. Every
    card lies in some suit, so every suit holding a card of a most-held type is tried, then the
    rest is split recursively; a suit is enumerated by how many types it takes from each group
    of equal counts.
    """
    if not types_with:
        return 0
    top = len(types_with) - 1
    best = 0
    for take in product(*(range(n + 1) for n in types_with)):
        if take[top] == 0:
            continue
        left = list(types_with)
        for c, k in enumerate(take):
            left[c] -= k
            if c:
                left[c - 1] += k
        while left and not left[-1]:
            left.pop()
        best = max(best, SUIT_VALUE[sum(take)] + _best_split(tuple(left)))
    return best


def _multiset(counts: list[int]) -> tuple[int, ...]:
    """``counts`` per type as the number of types held 1, 2, ... times."""
    return tuple(counts.count(c) for c in range(1, max(counts, default=0) + 1))


def suit_value(goods: list[int], fakirs: int, al_amin: bool) -> int:
    """VP of one player's unsold goods (§12), trying every type for each Al-Amin wild."""
    wilds = fakirs // 2 if al_amin else 0
    splits = set()
    for types in combinations_with_replacement(range(len(GOODS)), wilds):
        counts = list(goods)
        for t in types:
            counts[t] += 1
        splits.add(_multiset(counts))
    return max(_best_split(c) for c in splits)


def final_scores(s: EndState) -> list[dict[str, int]]:
    """Score parts of every player (§13); ``viziers`` includes the 10-VP comparisons."""
    out = []
    for p in range(s.players):
        held = set(s.djinns[p])
        beaten = sum(1 for q in range(s.players) if q != p and s.viziers[q] < s.viziers[p])
        mine = [t for t in range(N_TILES) if s.owner[t] == p]
        part = {
            "gold": s.gold[p],
            "viziers": s.viziers[p] * (3 if "Jafaar" in held else 1) + 10 * beaten,
            "elders": s.elders[p] * (4 if "Shamhat" in held else 2),
            "tiles": sum(s.tile_vp[t] for t in mine),
            "palms": sum(s.palms[t] for t in mine) * (5 if "Haurvatat" in held else 3),
            "palaces": sum(s.palaces[t] for t in mine) * 5,
            "djinns": sum(DJINN_VP[d] for d in held),
            "goods": suit_value(s.goods[p], s.fakirs[p], "Al-Amin" in held),
        }
        part["total"] = sum(part.values())
        out.append(part)
    return out


def _deal(rng: random.Random, n_cards: int, players: int) -> list[int]:
    """Cards each player ends with when each of ``n_cards`` goes to a player or elsewhere."""
    got = [0] * players
    keep = rng.random()  # share of the cards that end in players' hands
    for _ in range(n_cards):
        if rng.random() < keep:
            got[rng.randrange(players)] += 1
    return got


def random_end_state(rng: random.Random, players: int) -> EndState:
    """A random end state within the component limits of §1."""
    goods = [[0] * len(GOODS) for _ in range(players)]
    for t, n in enumerate(DECK):
        for p, k in enumerate(_deal(rng, n, players)):
            goods[p][t] = k
    djinns: list[list[str]] = [[] for _ in range(players)]
    for name in DJINN_VP:
        if rng.random() < 0.4:
            djinns[rng.randrange(players)].append(name)
    owned = rng.random()
    owner = [rng.randrange(players) if rng.random() < owned else -1 for _ in range(N_TILES)]
    palms, palaces = [0] * N_TILES, [0] * N_TILES
    for stock, n in ((palms, PALMS), (palaces, PALACES)):
        for _ in range(rng.randint(0, n)):
            stock[rng.randrange(N_TILES)] += 1
    tile_vp = list(TILE_VPS)
    rng.shuffle(tile_vp)
    return EndState(
        gold=[rng.randint(0, 150) for _ in range(players)],
        viziers=_deal(rng, VIZIERS, players),
        elders=_deal(rng, ELDERS, players),
        djinns=djinns,
        owner=owner,
        tile_vp=tile_vp,
        palms=palms,
        palaces=palaces,
        goods=goods,
        fakirs=_deal(rng, FAKIRS, players),
    )
