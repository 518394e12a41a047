"""Mumia carried forward one step at a time: the play-along face (``PlayFace`` of
``analyser/face.py``; docs/games/mumia.md §17).

The dice come before the decision, so an action is a step as ``advise`` (without
``--roll``) and ``moves`` print it, the roll first: ``4,PM pawn 2``. The roll is named in
the action, so no action has a chance outcome left (``outcomes`` is ``[]``). A step is
the record replay's own (``turns.step``, the kernel's choice); a record line is the seat
and the action (``simulate.GameLine``).
"""

from __future__ import annotations

from ...errors import OddsbotError, quote
from .encode import decode, encode
from .labels import read_roll, roll_text
from .notation import seat_letter
from .position import Position
from .simulate import GameLine, final, result_line
from .turns import step
from .validate import over, validate

__all__ = ["apply", "outcomes", "player_name", "record_moves", "record_text"]


def player_name(pos: Position, seat: int) -> str:
    """Seat ``seat`` as the notation and records name it: ``A`` .. ``F``."""
    return seat_letter(seat)


def _split(action: str) -> tuple[str, str]:
    roll, _, choice = action.strip().partition(" ")
    if not choice or not roll[:1].isdigit():
        raise OddsbotError(f"action: {quote(action)} is not '<roll> <choice>' as advise "
                           f"and moves print it (e.g. '4,PM pawn 2')")
    return roll, choice.strip()


def _action_roll(pos: Position, roll: str) -> str:
    """The roll of an action as labels write it (one line if unreadable)."""
    try:
        return roll_text(*read_roll(roll, bool(pos.mummy_tokens)))
    except ValueError as exc:
        raise OddsbotError(f"roll {quote(roll)}: {exc}") from None


def _after(pos: Position, action: str) -> Position:
    """The position after the mover's step ``action`` (one line if it cannot be taken)."""
    validate(pos)
    if over(pos):
        raise OddsbotError(f"action: the game is over, {quote(action)} cannot be taken")
    enc = encode(pos)
    if enc.hidden:
        raise OddsbotError("position: it hides action tokens ('?'); play along from a "
                           "position that shows every token, as a record's start line "
                           "does (§17)")
    roll, choice = _split(action)
    if pos.roll is not None and _action_roll(pos, roll) != pos.roll:
        raise OddsbotError(f"action: {quote(action)} is not of the roll drawn, "
                           f"{pos.roll} (§18)")
    S = enc.S.copy()
    try:
        taken = step(S, enc.R, roll, choice)
    except OddsbotError as exc:
        raise OddsbotError(f"action: {exc}") from None
    if taken.extra or taken.same_roll:
        raise OddsbotError(f"action: {quote(action)} carries the turn on, which a position "
                           f"cannot hold; play along takes whole turns (§17)")
    mummy = [tuple(t) for t in pos.mummy_taken]
    mummy[pos.to_move] += taken.mummy
    return decode(S, enc.R, pos.rules, pos.expansions, taken_by=tuple(mummy))


def outcomes(pos: Position, action: str) -> list[tuple[str, float]]:
    """None: the roll is part of the action (one line if the action cannot be taken)."""
    _after(pos, action)
    return []


def apply(pos: Position, action: str, outcome: str | None = None) -> Position:
    """The position after the mover's step ``action`` (``4,PM pawn 2``), every action
    token still shown; an outcome is refused (the roll is in the action)."""
    after = _after(pos, action)
    if outcome is not None:
        raise OddsbotError(f"outcome: {quote(action)} has no chance outcome, its roll is "
                           f"in the action (got {quote(outcome)})")
    return after


def record_text(start: Position, moves: list[tuple[str, str | None]]) -> str:
    """The record (§16.3) of the game played from ``start`` by ``moves``, with its result
    line once the game is over."""
    lines = [f"start {start.to_notation()}"]
    pos = start
    for action, outcome in moves:
        roll, choice = _split(action)
        lines.append(GameLine(pos, pos.to_move, roll, choice).text())
        pos = apply(pos, action, outcome)
    if over(pos):
        enc = encode(pos)
        lines.append(result_line(*final(enc.S, enc.R)))
    return "\n".join(lines) + "\n"


def record_moves(text: str) -> tuple[Position, list[tuple[str, str | None]]]:
    """The start and the steps of a record (checked by its replay)."""
    from .record import load_record

    record, _ = load_record(text)
    return record.start, [(f"{ln.roll} {ln.label}", None) for ln in record.lines]
