"""Strict reading of what the user typed: whole numbers and JSON, for every game.

Whole numbers, in notations, records and JSON alike: ASCII digits only (``int()`` would
also take ``'٣'`` and fail on ``'²'``), an optional ``-``, at most ``MAX_DIGITS`` digits,
then the field's own range (``read_int``, ``whole_number``). JSON (``load_json``): the
standard grammar only (``NaN`` and ``Infinity`` refused, and numbers beyond a float's
range), no key twice in one object, at most ``MAX_DEPTH`` levels, a leading byte-order
mark skipped; ``json_object`` refuses keys a field does not have. Every refusal is a
one-line ``PositionError`` naming the path of the value, e.g. ``tiles[2].bogus``.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from .errors import PositionError, quote

MAX_DIGITS = 18  # digits of a whole number: every one fits in 64 bits
BOUND = 10**MAX_DIGITS - 1  # the widest range, for a field checked later (a seat, by validate)
MAX_DEPTH = 16  # levels of JSON nesting (a position needs 4)
BOM = "\ufeff"

_INT = re.compile(r"-?[0-9]+")  # not \d, which matches the digits of every script
_NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")  # a key shown as is in a path


def in_range(value: int, field: str, low: int = -BOUND, high: int = BOUND) -> int:
    """``value`` if ``low <= value <= high``."""
    if value < low:
        raise PositionError(field, f"must be at least {low}, got {value}")
    if value > high:
        raise PositionError(field, f"must be at most {high}, got {value}")
    return value


def read_int(text: str, field: str, low: int = -BOUND, high: int = BOUND) -> int:
    """The whole number written as ``text`` (module doc), within ``low..high``."""
    if not _INT.fullmatch(text):
        raise PositionError(field, f"expected a whole number, got {quote(text)}")
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        raise PositionError(field, f"a whole number of {digits:,} digits (at most "
                                   f"{MAX_DIGITS})")
    return in_range(int(text), field, low, high)


def whole_number(value: Any, field: str, low: int = -BOUND, high: int = BOUND) -> int:
    """``value`` if it is a JSON whole number (booleans refused) within ``low..high``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(field, f"must be a whole number, got {quote(value)}")
    return in_range(value, field, low, high)


def kind(value: Any) -> str:
    """The JSON name of ``value``'s type, for messages."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    return {dict: "object", list: "list", str: "string"}.get(type(value), "number")


def json_list(value: Any, field: str) -> list:
    """``value`` if it is a JSON list."""
    if not isinstance(value, list):
        raise PositionError(field, f"must be a list, got {kind(value)}")
    return value


def json_object(value: Any, field: str, keys: tuple[str, ...] | None = None
                ) -> dict[str, Any]:
    """``value`` if it is a JSON object whose keys are all in ``keys`` (any if None)."""
    if not isinstance(value, dict):
        raise PositionError(field or "position", f"must be an object, got {kind(value)}")
    for key in value:
        if keys is not None and key not in keys:
            raise PositionError(path(field, key), f"unknown key (known: {', '.join(keys)})")
    return value


def path(parent: str, key: str | int) -> str:
    """The path of item ``key`` of ``parent``: ``tiles[2]``, ``tiles[2].owner``; a key
    that is not a short plain name is quoted, ``track['x y']``."""
    if isinstance(key, int):
        return f"{parent}[{key}]"
    if _NAME.fullmatch(key):
        return f"{parent}.{key}" if parent else key
    return f"{parent}[{quote(key)}]"


class _Refused:
    """A JSON value refused while parsing; reported with its path once parsed."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        out[key] = _Refused("duplicate key") if key in out else value
    return out


def _int(text: str) -> int | _Refused:
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        return _Refused(f"a whole number of {digits:,} digits (at most {MAX_DIGITS})")
    return int(text)


def _float(text: str) -> float | _Refused:
    value = float(text)
    return value if math.isfinite(value) else _Refused(f"{quote(text)} is beyond the "
                                                       f"range of a number")


def _constant(name: str) -> _Refused:
    return _Refused(f"{name} is not a number (JSON has no NaN or Infinity)")


def _check(value: Any, where: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise PositionError("position", f"JSON nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, _Refused):
        raise PositionError(where or "position", value.reason)
    items = (value.items() if isinstance(value, dict)
             else enumerate(value) if isinstance(value, list) else ())
    for key, item in items:
        _check(item, path(where, key), depth + 1)


def load_json(text: str) -> Any:
    """The JSON value of ``text`` (module doc), every failure a one-line PositionError."""
    try:
        data = json.loads(text.removeprefix(BOM), object_pairs_hook=_pairs,
                          parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise PositionError("position", f"malformed JSON at line {exc.lineno} column "
                                        f"{exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise PositionError("position", f"JSON nested deeper than {MAX_DEPTH} levels") \
            from None
    _check(data, "", 0)
    return data
