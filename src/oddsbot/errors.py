"""Errors that carry a one-line, user-facing message (the CLI prints them and exits 2), and
:func:`quote`, the one way a message echoes what the user gave."""

from __future__ import annotations

import reprlib

QUOTE_LIMIT = 80  # characters of the user's text a message shows at most

_SHORT = reprlib.Repr()  # a list or object: its first few items, a few levels deep
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict = 2, 4, 4
_SHORT.maxstring = _SHORT.maxother = QUOTE_LIMIT
_SHORT.maxlong = QUOTE_LIMIT // 2


def quote(value: object, tail: bool = False) -> str:
    """``value`` as an error message shows it: its ``repr`` (one line: newlines and other
    control characters escaped); a longer text cut to its first ``QUOTE_LIMIT``
    characters (its last with ``tail``, for a file name) with its length named; a list or
    object to its first few items."""
    if not isinstance(value, str):
        return _SHORT.repr(value)
    if len(value) <= QUOTE_LIMIT:
        return repr(value)
    if tail:
        return f"…{value[-QUOTE_LIMIT:]!r} ({len(value):,} characters)"
    return f"{value[:QUOTE_LIMIT]!r}… ({len(value):,} characters)"


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


class Interrupted(Exception):
    """Ctrl-C, caught by a command that has something to say about it (what it kept, how
    to go on): the CLI prints the message as its one line and exits with code 130."""
