"""Kingdom Run carried forward one decision at a time: the play-along face (``PlayFace``
of ``analyser/face.py``; docs/games/kingdom-run.md §17).

A turn is three steps, each the record replay's own (``turns``): ``roll`` (a position
with no roll yet; its outcomes are the dice, ``SCBY``), the keep-set (``keep
scatter,bath``; its outcomes are the final roll, the kept dice included) and the action
sequence (no chance). A record line is the turn (``simulate.turn_text``); a turn still
under way is the last line, cut after its roll or its final roll (§15).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement
from math import factorial, prod

from ...errors import OddsbotError, quote
from .advise import game_over, read_roll
from .position import Position
from .rules import Rules
from .encode import rules_vector, state_vector
from .simulate import final, result_line, roll_text, turn_text
from .turns import ROLL, keep_choices, over, phase, take_keep, take_sequence, with_roll
from .validate import validate

__all__ = ["apply", "outcomes", "player_name", "record_moves", "record_text"]


def player_name(pos: Position, seat: int) -> str:
    """Seat ``seat`` as the notation names it (``to=1``): ``1`` .. ``4``."""
    return str(seat + 1)


def rolls(rules: Rules, dice: int) -> list[tuple[tuple[int, ...], float]]:
    """Every roll of ``dice`` dice (faces sorted) with its chance: each die shows each
    entry of ``die_faces`` alike (§1, §4)."""
    chance = {f: n / len(rules.die_faces) for f, n in Counter(rules.die_faces).items()}
    out = []
    for roll in combinations_with_replacement(sorted(chance), dice):
        counts = Counter(roll).values()
        ways = factorial(dice) // prod(factorial(c) for c in counts)
        out.append((roll, ways * prod(chance[f] for f in roll)))
    return out


def _kept(pos: Position, action: str) -> tuple[int, ...]:
    for label, kept in keep_choices(pos):
        if label == action:
            return kept
    shown = ", ".join(label for label, _ in keep_choices(pos)[:6])
    raise OddsbotError(f"action: {quote(action)} is not a keep-set of roll "
                       f"{roll_text(pos.roll)} (e.g. {shown} …; 'oddsbot moves' lists them)")


def outcomes(pos: Position, action: str) -> list[tuple[str, float]]:
    """The chance outcomes of ``action``: the dice of ``roll``, the final roll of a
    keep-set that re-rolls any die, none for a sequence (one line if it is illegal)."""
    validate(pos)
    if over(pos):
        raise game_over(pos)
    step = phase(pos)
    if step == "roll":
        if action.strip() != ROLL:
            raise OddsbotError(f"action: the position has no roll yet, its one action is "
                               f"{ROLL!r} (its outcomes are the dice), not {quote(action)}")
        return [(roll_text(r), p) for r, p in rolls(pos.rules, pos.rules.dice)]
    if step == "keep":
        kept = _kept(pos, action)
        left = pos.rules.dice - len(kept)
        return [] if not left else [(roll_text(kept + r), p) for r, p in
                                    rolls(pos.rules, left)]
    take_sequence(pos, action, "action")
    return []


def apply(pos: Position, action: str, outcome: str | None = None) -> Position:
    """The position after the mover's ``action`` and the chance ``outcome`` it needs
    (the roll ``SCBY`` of ``roll`` or a keep-set; names or letters as ``--roll`` reads)."""
    chances = outcomes(pos, action)
    if not chances:
        if outcome is not None:
            raise OddsbotError(f"outcome: {quote(action)} has no chance outcome (got "
                               f"{quote(outcome)})")
        return take_sequence(pos, action, "action") if phase(pos) == "act" else \
            take_keep(pos, action, pos.roll, "action")
    if outcome is None:
        raise OddsbotError(f"outcome: {quote(action)} rolls dice: give the roll they show "
                           f"(e.g. {chances[0][0]})")
    try:
        dice = read_roll(outcome, pos.rules.dice)
    except OddsbotError:
        dice = ()
    if roll_text(dice) not in dict(chances):
        raise OddsbotError(f"outcome: {quote(outcome)} is not a roll {quote(action)} can "
                           f"give (e.g. {', '.join(n for n, _ in chances[:4])} …)")
    return with_roll(pos, dice) if phase(pos) == "roll" else \
        take_keep(pos, action, dice, "action")


def record_text(start: Position, moves: list[tuple[str, str | None]]) -> str:
    """The record (§15) of the game played from ``start`` by ``moves``: a line a turn,
    the last one cut where the moves stop within a turn, then the result once over."""
    lines = [f"start {start.to_notation()}"]
    pos, turn = start, []
    for action, outcome in moves:
        if not turn:
            turn = [pos.to_move, *_turn_head(pos)]
        after = apply(pos, action, outcome)
        step = phase(pos)
        if step == "roll":
            turn.append(roll_text(after.roll))
        elif step == "keep":
            turn += [action, roll_text(after.roll)]
        else:
            lines.append(turn_text(*turn, action))
            turn = []
        pos = after
    if turn:
        lines.append(turn_text(*turn))
    if over(pos):
        lines.append(result_line(*final(state_vector(pos), rules_vector(pos.rules))))
    return "\n".join(lines) + "\n"


def _turn_head(pos: Position) -> list[str]:
    """What a turn's line says before its first move: the roll the position has, and
    ``-`` for a keep-set taken before it."""
    if pos.roll is None:
        return []
    return [roll_text(pos.roll)] + (["-", roll_text(pos.roll)] if pos.rerolled else [])


def record_moves(text: str) -> tuple[Position, list[tuple[str, str | None]]]:
    """The start and the moves of a record (checked by its replay)."""
    from .record import load_record

    record, _ = load_record(text)
    pos, moves = record.start, []
    for ln in record.lines:
        said = [(ROLL, ln.roll)] if pos.roll is None else []
        if ln.keep not in (None, "-"):
            said.append((ln.keep, ln.final))
        if ln.label is not None:
            said.append((ln.label, None))
        for action, outcome in said:
            if not outcomes(pos, action):
                outcome = None
            pos = apply(pos, action, outcome)
            moves.append((action, outcome))
    return record.start, moves
