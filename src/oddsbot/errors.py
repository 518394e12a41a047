"""Errors that carry a one-line, user-facing message (the CLI prints them and exits 2),
and the JSON input helpers every layer may use."""

import json
from collections.abc import Callable
from typing import Any


class OddsbotError(ValueError):
    """Bad input of any kind: the message names what is wrong and where."""


class PositionError(OddsbotError):
    """A position that is malformed or impossible: ``field`` names where, ``reason`` why."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class ActionError(OddsbotError):
    """An action that is unknown or illegal in the position."""


def whole_number(value: Any, field: str, low: int | None = None,
                 high: int | None = None) -> int:
    """``value`` as a JSON whole number (booleans refused) within ``low..high`` when given."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(field, f"must be a whole number, got {value!r}")
    if low is not None and value < low:
        raise PositionError(field, f"must be at least {low}, got {value}")
    if high is not None and value > high:
        raise PositionError(field, f"must be at most {high}, got {value}")
    return value


def json_list(value: Any, field: str) -> list:
    """``value`` if it is a JSON list."""
    if not isinstance(value, list):
        raise PositionError(field, f"must be a list, got {type(value).__name__}")
    return value


def load_json(text: str) -> Any:
    """``json.loads`` with every failure as a one-line PositionError."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise PositionError("position", f"malformed JSON at line {exc.lineno} column "
                                        f"{exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise PositionError("position", "JSON nested too deeply") from None


def read_position(text: str, from_json: Callable[[Any], Any],
                  from_notation: Callable[[str], Any]) -> Any:
    """A position from its JSON text (``from_json`` of the loaded object) or its one-line
    notation (``from_notation``)."""
    stripped = text.strip()
    if stripped.startswith("{"):
        return from_json(load_json(stripped))
    return from_notation(stripped)
