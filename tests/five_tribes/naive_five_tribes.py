"""Deliberately naive reference for Five Tribes sowing (meeple movement), for tests only.

Written from ``docs/games/five-tribes.md`` §2, §7 and §8 (first paragraph), *not* from the
compiled kernel, so that the two can be compared. Exhaustive and boring on purpose: every start
tile, every path of exactly n steps without immediate backtracking, every distinct ordering of
the start stack's colours, then the last-meeple rule checked on the finished sequence.

Board encoding (shared with the kernel): ``counts[30, 5]`` int64, tile ``6*row + col`` on the
5 x 6 grid (r0c0 top-left), colours ``Y W B G R`` = 0..4. ``end_rule``: 0 = live (the final
tile's content at the moment of the last drop, earlier drops of this sowing included),
1 = premove (the content before the sowing began). The start tile is emptied at pickup in both.
"""

from __future__ import annotations

import random
import re
from itertools import permutations

import numpy as np

ROWS, COLS = 5, 6
N_TILES = ROWS * COLS
COLOURS = "YWBGR"
TOTALS = (16, 20, 18, 18, 18)  # Y W B G R meeples in the game (§1)
LIVE, PREMOVE = 0, 1
COUNT_NAMES = (
    "full_sequences",
    "distinct_outcomes",
    "distinct_paths",
    "distinct_path_endcolour",
    "distinct_start_end_colour",
    "start_tiles_with_a_move",
)

Sowing = tuple[int, tuple[int, ...], tuple[int, ...]]


def tile(name: str) -> int:
    """Tile index of ``'r{row}c{col}'``."""
    m = re.fullmatch(r"r(\d)c(\d)", name)
    assert m, name
    row, col = int(m[1]), int(m[2])
    assert row < ROWS and col < COLS, name
    return COLS * row + col


def tile_name(t: int) -> str:
    """``'r{row}c{col}'`` of a tile index."""
    return f"r{t // COLS}c{t % COLS}"


def neighbours(t: int) -> list[int]:
    """Edge-adjacent tiles of ``t`` (§2), never diagonal."""
    row, col = divmod(t, COLS)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < ROWS and 0 <= c < COLS:
            out.append(COLS * r + c)
    return out


def board(stacks: dict[str, str]) -> np.ndarray:
    """``counts[30, 5]`` from e.g. ``{"r2c2": "YW", "r2c4": "W"}``; other tiles empty."""
    counts = np.zeros((N_TILES, len(COLOURS)), dtype=np.int64)
    for name, letters in stacks.items():
        for letter in letters:
            counts[tile(name), COLOURS.index(letter)] += 1
    return counts


def board_dict(counts: np.ndarray) -> dict[str, str]:
    """Inverse of :func:`board` (non-empty tiles only), for readable failure messages."""
    return {
        tile_name(t): "".join(COLOURS[c] * int(counts[t, c]) for c in range(len(COLOURS)))
        for t in range(N_TILES)
        if counts[t].sum() > 0
    }


def paths(start: int, n: int) -> list[tuple[int, ...]]:
    """Every path of exactly ``n`` orthogonal steps from ``start`` with no immediate return."""
    out: list[tuple[int, ...]] = []

    def walk(path: tuple[int, ...], prev: int, here: int) -> None:
        if len(path) == n:
            out.append(path)
            return
        for nxt in neighbours(here):
            if nxt != prev:
                walk(path + (nxt,), here, nxt)

    walk((), -1, start)
    return out


def colour_orders(stack: list[int]) -> list[tuple[int, ...]]:
    """Distinct orderings of a multiset of colours (identical meeples are interchangeable)."""
    return sorted(set(permutations(stack)))


def final_drop_ok(counts: np.ndarray, start: int, path: tuple[int, ...],
                  colours: tuple[int, ...], end_rule: int) -> bool:
    """Last-meeple rule (§7.1 step 4, §7.4) for one complete sequence."""
    end, colour = path[-1], colours[-1]
    before = 0 if end == start else int(counts[end, colour])
    if end_rule == LIVE:
        before += sum(1 for t, c in zip(path[:-1], colours[:-1]) if t == end and c == colour)
    return before >= 1


def sowings(counts: np.ndarray, end_rule: int = LIVE) -> list[Sowing]:
    """Every legal sowing ``(start, path, colours)`` of the board (§7.1)."""
    out: list[Sowing] = []
    for start in range(N_TILES):
        stack = [c for c in range(len(COLOURS)) for _ in range(int(counts[start, c]))]
        if not stack:
            continue
        orders = colour_orders(stack)
        for path in paths(start, len(stack)):
            for colours in orders:
                if final_drop_ok(counts, start, path, colours, end_rule):
                    out.append((start, path, colours))
    return out


def apply_sowing(counts: np.ndarray, sowing: Sowing) -> np.ndarray:
    """Board after the pickup and the drops (before the §8 collection on the final tile)."""
    start, path, colours = sowing
    after = counts.copy()
    after[start] = 0
    for t, c in zip(path, colours):
        after[t, c] += 1
    return after


def sowing_counts(counts: np.ndarray, end_rule: int = LIVE) -> dict[str, int]:
    """The six counts of §7.3 (keys :data:`COUNT_NAMES`)."""
    found = sowings(counts, end_rule)
    return {
        "full_sequences": len(set(found)),
        "distinct_outcomes": len({(s, p[-1], c[-1], tuple(sorted(zip(p, c))))
                                  for s, p, c in found}),
        "distinct_paths": len({(s, p) for s, p, _ in found}),
        "distinct_path_endcolour": len({(s, p, c[-1]) for s, p, c in found}),
        "distinct_start_end_colour": len({(s, p[-1], c[-1]) for s, p, c in found}),
        "start_tiles_with_a_move": len({s for s, _, _ in found}),
    }


def _bag(rng: random.Random) -> list[int]:
    bag = [c for c, n in enumerate(TOTALS) for _ in range(n)]
    rng.shuffle(bag)
    return bag


def opening_board(rng: random.Random) -> np.ndarray:
    """Setup-like board (§3): 3 meeples per tile drawn from the shuffled 90-meeple bag."""
    bag = _bag(rng)
    counts = np.zeros((N_TILES, len(COLOURS)), dtype=np.int64)
    for t in range(N_TILES):
        for _ in range(3):
            counts[t, bag.pop()] += 1
    return counts


def sparse_board(rng: random.Random, max_stacks: int = 8, max_height: int = 5) -> np.ndarray:
    """1..``max_stacks`` stacks of 1..``max_height`` meeples on random tiles, from the bag."""
    bag = _bag(rng)
    counts = np.zeros((N_TILES, len(COLOURS)), dtype=np.int64)
    for t in rng.sample(range(N_TILES), rng.randint(1, max_stacks)):
        for _ in range(rng.randint(1, max_height)):
            counts[t, bag.pop()] += 1
    return counts
