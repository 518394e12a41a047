"""Names as people write them -> canonical names: tile types, meeple colours, resource cards
and djinns. Matching ignores case; tile types also accept spaces or underscores for hyphens;
djinn names ignore apostrophes, hyphens and spaces (``baal`` = ``Ba'al``). Every failure is
a PositionError naming the field."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...kernels import five_tribes as FT
from ...errors import PositionError, quote

CARDS = (*FT.GOODS, "fakir")  # the ten kinds of resource card, merchandise first
CARD_COUNTS = (*(int(k) for k in FT.GOODS_COUNTS), FT.FAKIRS)
CARD_CODES = ("iv", "je", "go", "pa", "si", "sp", "fi", "wh", "po", "fa")  # notation, CARDS order
DJINN_NAMES = tuple(name for name, _, _ in FT.DJINNS)
TILE_LETTERS = "OSLVD"  # notation, FT.TILE_TYPES order; D = sacred place (djinns)

_CARD_KEYS = {**dict(zip(CARDS, CARDS)), **dict(zip(CARD_CODES, CARDS)), "slave": "fakir"}


def _key(name: str) -> str:
    return re.sub(r"['\s-]", "", name).lower()


_DJINN_KEYS = {_key(name): name for name in DJINN_NAMES}


def _string(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise PositionError(field, f"must be a string, got {quote(value)}")
    return value


def tile_type(value: Any, field: str) -> str:
    """One of ``FT.TILE_TYPES``."""
    name = re.sub(r"[\s_]+", "-", _string(value, field).strip().lower())
    if name not in FT.TILE_TYPES:
        raise PositionError(field, f"unknown tile type {quote(value)} (known: "
                                   f"{', '.join(FT.TILE_TYPES)})")
    return name


def meeples(value: Any, field: str) -> str:
    """A string of colour letters in canonical ``YWBGR`` order."""
    letters = _string(value, field).upper()
    for ch in letters:
        if ch not in FT.COLOURS:
            raise PositionError(field, f"unknown colour {quote(ch)} (colours: {FT.COLOURS})")
    return "".join(c * letters.count(c) for c in FT.COLOURS)


def card(value: Any, field: str) -> str:
    """A resource card kind (``CARDS``) by name or notation code; ``slave`` = fakir."""
    name = _string(value, field).strip().lower()
    if name not in _CARD_KEYS:
        raise PositionError(field, f"unknown resource card {quote(value)} (known: "
                                   f"{', '.join(CARDS)})")
    return _CARD_KEYS[name]


def good(value: Any, field: str) -> str:
    """A merchandise type (``FT.GOODS``) by name or notation code."""
    name = card(value, field)
    if name == "fakir":
        raise PositionError(field, "fakirs are not merchandise: count them in 'fakirs'")
    return name


def djinn(value: Any, field: str) -> str:
    """A djinn's name as in ``FT.DJINNS``."""
    name = _string(value, field)
    if _key(name) not in _DJINN_KEYS:
        raise PositionError(field, f"unknown djinn {quote(value)}")
    return _DJINN_KEYS[_key(name)]


def player_name(pos: Any, seat: int) -> str:
    """A seat as the notation names it (``to=2``, ``p2=...``): ``2``; records and
    captions write ``p2``, ``player 2`` (``PlayFace.player_name``)."""
    return str(seat)


def djinn_token(name: str) -> str:
    """A djinn's name as the notation writes it: without the apostrophe (shell-safe)."""
    return name.replace("'", "")


def sorted_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """Cards in canonical ``CARDS`` order (for piles whose order is unknown)."""
    return tuple(sorted(cards, key=CARDS.index))


def sorted_djinns(names: Iterable[str]) -> tuple[str, ...]:
    """Djinns in canonical ``FT.DJINNS`` order (held and face-up djinns are unordered)."""
    return tuple(sorted(names, key=DJINN_NAMES.index))
