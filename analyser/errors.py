"""Errors that carry a one-line, user-facing message (the CLI prints them and exits 2)."""


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
