"""Mumia's tiles by name: ``-3`` (danger), ``+5`` (treasure), ``camel``, ``risk5`` (E3),
``exchange`` (E1), and the fields ``start`` and ``finish`` (docs/games/mumia.md §1, §14)."""

from __future__ import annotations

from functools import cache

from ...kernels.mumia.layout import (
    CAMEL, DANGER, EXCHANGE, RISK, TREASURE, kind_of, magnitude_of, tile_code,
)

DANGER_RANGE = (1, 10)
TREASURE_RANGE = (1, 8)
RISK_RANGE = (3, 7)


@cache  # a few dozen names; the kernel helpers cost a call into numba
def parse_tile(text: str) -> int:
    """The tile code of a path tile's name (ValueError naming the bad name)."""
    if text == "camel":
        return tile_code(CAMEL, 0)
    if text == "exchange":
        return tile_code(EXCHANGE, 0)
    for prefix, kind, (low, high) in (("-", DANGER, DANGER_RANGE),
                                      ("+", TREASURE, TREASURE_RANGE),
                                      ("risk", RISK, RISK_RANGE)):
        number = text[len(prefix):]
        if text.startswith(prefix) and number.isdigit() and low <= int(number) <= high \
                and str(int(number)) == number:
            return tile_code(kind, int(number))
    raise ValueError(f"{text[:20]!r} is not a tile (-1..-10, +1..+8, camel, risk3..risk7, "
                     f"exchange)")


@cache
def tile_name(code: int) -> str:
    """The name of tile ``code``."""
    kind, m = kind_of(code), magnitude_of(code)
    return {DANGER: f"-{m}", TREASURE: f"+{m}", CAMEL: "camel", RISK: f"risk{m}",
            EXCHANGE: "exchange"}[kind]


def tile_value(code: int) -> int:
    """What the tile is worth face up: danger -m, treasure +m, 0 otherwise."""
    kind, m = kind_of(code), magnitude_of(code)
    return -m if kind == DANGER else (m if kind == TREASURE else 0)


# §2: the first game's layout, START to FINISH
STANDARD_LAYOUT: tuple[int, ...] = tuple(parse_tile(t) for t in (
    *(f"-{m}" for m in range(1, 9)), *["camel"] * 6, *(f"+{m}" for m in range(8, 0, -1)),
    *(f"-{m}" for m in range(1, 11))))
