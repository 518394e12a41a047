"""Errors that carry a one-line, user-facing message (the CLI prints them and exits 2)."""

import json
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


def load_json(text: str) -> Any:
    """``json.loads`` with every failure as a one-line PositionError."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise PositionError("position", f"malformed JSON at line {exc.lineno} column "
                                        f"{exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise PositionError("position", "JSON nested too deeply") from None
