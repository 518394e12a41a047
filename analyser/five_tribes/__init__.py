"""Five Tribes (base game, 2-4 players): positions so far — ``parse``, ``Position``
(``to_notation``, ``to_json``, ``from_json``) and ``validate``."""

from __future__ import annotations

from ..errors import load_json
from .notation import parse_notation
from .position import NAME, Position
from .validate import validate

__all__ = ["NAME", "Position", "parse", "validate"]


def parse(text: str) -> Position:
    """A position from its JSON text or one-line notation."""
    stripped = text.strip()
    if stripped.startswith("{"):
        return Position.from_json(load_json(stripped))
    return parse_notation(stripped)
