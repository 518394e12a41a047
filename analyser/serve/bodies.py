"""Request bodies of the API: the fields each endpoint takes, their types, and the texts
of a position or record they carry (docs/serve.md).

A field takes the name of the CLI option it stands for (``_`` for ``-``); a body with an
unknown field, a field of the wrong type or without a required field is refused in one
line. The server reads no file: a ``position`` that looks like a file name (``-``,
``examples/NAME``, ``x.json``, ``/a/b``) is refused, never read.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from ...errors import OddsbotError, quote
from ...inputs import POSITION_LIMIT, RECORD_LIMIT, decode, size_text
from .. import answers

SLACK = 64 << 10  # bytes a body may hold beyond its position or record (fields, escapes)
STREAMED = ("advise", "odds", "replay", "chart")  # the long computations


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _text(value: Any) -> bool:
    return isinstance(value, str)


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _position(value: Any) -> bool:
    return isinstance(value, str | dict)


def _moves(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(m, list) and len(m) == 2 and isinstance(m[0], str)
        and (m[1] is None or isinstance(m[1], str)) for m in value)


def _flag(value: Any) -> bool:
    return isinstance(value, bool)


Check = tuple[Callable[[Any], bool], str]
WHOLE: Check = (_whole, "a whole number")
NUMBER: Check = (_number, "a number")
TEXT: Check = (_text, "a string")
TEXTS: Check = (_texts, "a list of strings")
POSITION: Check = (_position, "a string (notation or JSON) or a JSON object")
MOVES: Check = (_moves, "a list of [action, outcome or null] pairs")
FLAG: Check = (_flag, "true or false")

LOOKS = {"position": POSITION, "variant": TEXT, "rule": TEXTS}
SAMPLING = {"samples": WHOLE, "seed": WHOLE, "target_se": NUMBER}
FIELDS: dict[str, dict[str, Check]] = {
    "new": {"game": TEXT, "players": WHOLE, "seed": WHOLE, "variant": TEXT, "rule": TEXTS},
    "validate": {**LOOKS, "format": TEXT},
    "moves": LOOKS,
    "advise": {**LOOKS, **SAMPLING, "rollouts": WHOLE, "policy": TEXT, "candidates": WHOLE,
               "top": WHOLE},
    "odds": {**LOOKS, **SAMPLING},
    "chart": {**LOOKS, **SAMPLING},
    "rules": {"game": TEXT},
    "outcomes": {**LOOKS, "action": TEXT},
    "apply": {**LOOKS, "action": TEXT, "outcome": (lambda v: v is None or _text(v),
                                                   "a string or null")},
    "record": {"start": POSITION, "moves": MOVES, "variant": TEXT, "rule": TEXTS},
    "record/moves": {"record": TEXT},
    "replay": {"record": TEXT, "samples": WHOLE, "seed": WHOLE, "rollouts": WHOLE,
               "policy": TEXT, "rule": TEXTS},
}
REQUIRED = {"new": ("game",), "rules": ("game",), "outcomes": ("position", "action"),
            "apply": ("position", "action"), "record": ("start", "moves"),
            "record/moves": ("record",), "replay": ("record",)}
RECORDS = ("record", "record/moves", "replay")  # bodies that may hold a whole record


def limit(endpoint: str) -> int:
    """The most bytes a body of ``endpoint`` may hold: the CLI's limit of what it
    carries (a record, else a position) and some room for the other fields."""
    return (RECORD_LIMIT if endpoint in RECORDS else POSITION_LIMIT) + SLACK


def too_large(endpoint: str) -> str:
    return (f"request: the body is more than a {endpoint} request may be "
            f"({size_text(limit(endpoint))})")


def fields(endpoint: str) -> dict[str, Check]:
    """The fields ``endpoint`` takes: its own, the game options of the CLI command, and
    ``stream`` for the long computations."""
    own = dict(FIELDS[endpoint])
    for name in answers.declared_options(endpoint):
        own[name] = TEXT
    if endpoint in STREAMED:
        own["stream"] = FLAG
    return own


def parse(endpoint: str, raw: bytes) -> dict[str, Any]:
    """The body of a request to ``endpoint``, checked (module doc); one line if bad."""
    try:
        body = json.loads(raw.decode("utf-8")) if raw.strip() else {}
    except UnicodeDecodeError:
        raise OddsbotError("request: the body is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise OddsbotError(f"request: the body is not JSON ({exc.msg} at line {exc.lineno} "
                           f"column {exc.colno})") from None
    if not isinstance(body, dict):
        raise OddsbotError("request: the body must be a JSON object")
    known = fields(endpoint)
    for name, value in body.items():
        if name not in known:
            raise OddsbotError(f"{quote(name)}: unknown field (known: {', '.join(known)})")
        ok, what = known[name]
        if value is not None and not ok(value):
            raise OddsbotError(f"{name}: must be {what}, got {quote(value)}")
    for name in REQUIRED.get(endpoint, ("position",)):
        if body.get(name) is None:
            raise OddsbotError(f"{name}: required field missing")
    # a number field holds a float, as the CLI's option does (``--target-se 1`` is 1.0)
    return {name: float(value) if known[name] is NUMBER else value
            for name, value in body.items() if value is not None}


def _looks_like_path(text: str) -> bool:
    """Whether ``text`` names a file as the CLI's POSITION argument may (``-``, a shipped
    example, a ``.json`` or ``.record`` file, a path), rather than being notation."""
    word = text.strip()
    if not word or any(c.isspace() for c in word):
        return False
    return (word == "-" or word.endswith((".json", ".record"))
            or word.startswith(("/", "./", "../", "~", "examples/")))


def position_text(value: str | Mapping, field: str = "position") -> str:
    """The text of a ``position`` field: a string as given (notation, JSON text or a
    game record), a JSON object as its JSON text."""
    if not isinstance(value, str):
        return json.dumps(value)
    if _looks_like_path(value):
        raise OddsbotError(f"{field}: {quote(value)} looks like a file name; the server "
                           f"reads no files: send the position's notation or JSON")
    return decode(value.encode("utf-8", "surrogatepass"), field, "the request",
                  POSITION_LIMIT)


def record_text(value: str) -> str:
    """The text of a ``record`` field, within the CLI's limits of a record."""
    if _looks_like_path(value):
        raise OddsbotError(f"record: {quote(value)} looks like a file name; the server "
                           f"reads no files: send the record's text")
    return decode(value.encode("utf-8", "surrogatepass"), "record", "the request",
                  RECORD_LIMIT)
