"""Play-along (``Capability.PLAY``, docs/games/camel-up.md §15): a game carried forward
one action at a time, each step the record replay's own (``record.read_turn`` reads the
action and its die, ``record.step`` plays it through the kernel), and the records of
such games (``simulate.GameResult.text`` writes them, ``record.load_record`` reads
them)."""

from __future__ import annotations

import numpy as np

from ...errors import OddsbotError
from ...kernels import camel_up as K
from ..play_common import choose_outcome, refuse_action
from ..play_common import seat_number as player_name
from ..records_common import RecordError
from . import record
from .encode import action_code, action_label, decode, encode
from .position import Position
from .simulate import GameResult, Turn, die_text
from .validate import validate


def legal_code(pos: Position, action: str) -> int:
    """The kernel code of ``action`` for the player to move; an illegal one is refused in
    one line naming the legal ones."""
    validate(pos)
    v = pos.rules
    legal = [int(a) for a in K.legal_actions(encode(pos))]
    try:
        code = action_code(v, action)
    except OddsbotError:
        code = None
    if code not in legal:
        raise refuse_action(action, player_name(pos, pos.to_move),
                            [action_label(v, a) for a in legal])
    return code


def _pyramid(pos: Position) -> list[tuple[str, float]]:
    """A pyramid action's outcomes: a die uniformly from the pyramid, then one of its faces
    (a racing die's 3, the grey die's 6: white or black 1-3), as ``kernels.camel_up.race``
    draws them (§4 action 3)."""
    v = pos.rules
    inside = [d for d, name in enumerate(v.dice) if name in pos.pyramid]
    out = []
    for die in inside:
        faces = 6 if die == K.GREY else 3
        out += [(die_text(v, die, face), 1 / (len(inside) * faces)) for face in range(faces)]
    return out


def outcomes(pos: Position, action: str) -> list[tuple[str, float]]:
    """The chance outcomes of ``action`` for the player to move, with their probabilities:
    a pyramid action's die (``blue 2``, ``grey black 1``), ``[]`` for any other action."""
    return _pyramid(pos) if legal_code(pos, action) == K.A_PYRAMID else []


def _turn(pos: Position, action: str, outcome: str | None) -> record.RecordTurn:
    """The record's turn of ``action`` (and its die ``outcome``) by the player to move."""
    listed = outcomes(pos, action)
    v = pos.rules
    die = choose_outcome(action, listed, outcome,
                         lambda text: record.parse_die(v, text.strip(), 0)[2])
    try:
        return record.read_turn(v, action, die, 0, pos.to_move)
    except RecordError as exc:
        raise OddsbotError(exc.what) from None


def _play(pos: Position, action: str, outcome: str | None
          ) -> tuple[record.RecordTurn, np.ndarray]:
    """The turn, and the kernel state after it (``record.step``)."""
    turn = _turn(pos, action, outcome)
    st = encode(pos)
    try:
        record.step(pos.rules, st, turn, pos.players)
    except RecordError as exc:
        raise OddsbotError(exc.what) from None
    return turn, st


def _after(pos: Position, st: np.ndarray) -> Position:
    """The position of the kernel state ``st`` reached from ``pos``, knowing what ``pos``
    knew: a seat whose finish cards ``pos`` hid keeps them hidden (cards on the decks that
    were hidden stay hidden in the kernel); ``status`` ``over`` once the race is."""
    new = decode(st, pos.variant, pos.players)
    hands = tuple(None if old is None else hand
                  for old, hand in zip(pos.finish_hand, new.finish_hand))
    return new.with_(finish_hand=hands, status="over" if st[K.STATUS] else "running")


def apply(pos: Position, action: str, outcome: str | None = None) -> Position:
    """The position after the player to move takes ``action`` (a label as ``moves``
    prints it), with the die the table saw when it is a pyramid action."""
    return _after(pos, _play(pos, action, outcome)[1])


def record_text(start: Position, moves: list[tuple[str, str | None]]) -> str:
    """The record (``oddsbot replay``) of the game played from ``start`` by ``moves``,
    ``(action, die or None)`` pairs; the result line once the race is over."""
    missing = record.hidden_part(start)
    if missing is not None:
        raise OddsbotError(f"start: a record must give {missing}")
    pos, st = start, encode(start)
    turns = []
    for i, (action, outcome) in enumerate(moves, start=1):
        if pos.status != "running":
            raise OddsbotError(f"move {i}: the race is over; no action may follow")
        try:
            turn, st = _play(pos, action, outcome)
        except OddsbotError as exc:
            raise OddsbotError(f"move {i}: {exc}") from None
        money = tuple(int(st[K.MONEY + p]) for p in range(pos.players))
        turns.append(Turn(turn.player, turn.action, turn.roll, money))
        pos = _after(pos, st)
    winner, loser = record.race_result(start.rules, st) if pos.status == "over" else (None,
                                                                                     None)
    money = tuple(int(st[K.MONEY + p]) for p in range(start.players))
    return GameResult(start, tuple(turns), winner, loser, money).text()


def record_moves(text: str) -> tuple[Position, list[tuple[str, str | None]]]:
    """The start and the ``(action, die or None)`` pairs of a record (``record_text``'s
    inverse; the record is checked by its replay)."""
    rec, _ = record.load_record(text)
    return rec.start, [(turn.action, turn.roll) for turn in rec.turns]
