"""Mumia game records: read, replay against the rules, annotate (docs/games/mumia.md
§16.3).

```
start <notation, every action token shown>
A 4,PM pawn 2
B 3,P guardian 5 + token extra
B 6,M mummy
result A:31 B:12 C:7 winner A
```

One line a step: the seat, its roll and the label of its choice (``oddsbot advise
--roll``). A move ends the turn unless it is marked ``+ token extra`` (the same seat
then rolls again: the next line); ``token swap`` and ``token bottom`` come before the
move, with the same roll. The ``result`` line, if any, must match the replay.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ...errors import OddsbotError, quote
from ...kernels.mumia import layout as L
from ..records_common import (
    RecordError, annotation_table, body_lines, ev_lost_by_player, load_with_rules,
    result_of, rollout_fields, rollout_se_fields, se_fields, start_position,
)
from ..table import Table
from .encode import decode, encode
from .notation import NOTATION_KEYS, SEATS, seat_letter
from .position import UNSEEN, Position
from .simulate import final, play
from .turns import step as take_step

ANNOTATION_COLUMNS = ["step", "player", "roll", "action", "ev_taken", "best", "best_ev",
                      "ev_lost", "method"]
EV_WORDS = ("EV: expected change of the mover's final score (oddsbot advise --roll), from "
            "the mover's view at the start of its turn")

__all__ = ["ev_lost_by_player", "load_record", "annotate", "table_view", "status",
           "result", "caption", "warm_up"]


@dataclass(frozen=True)
class Line:
    line: int
    seat: int
    roll: str
    label: str


@dataclass
class Record:
    start: Position
    lines: list[Line]
    result: tuple[int, tuple[int, ...], tuple[int, ...]] | None  # line, scores, winners


@dataclass(frozen=True)
class Turn:
    """A replayed step: its line, and whether it opens its seat's turn."""

    line: Line
    opening: bool

    @property
    def player(self) -> int:
        return self.line.seat


class Replay(list):
    """(position before, Turn) pairs, and how the game stands at the end."""

    def __init__(self) -> None:
        super().__init__()
        self.over = False
        self.to_move = 0
        self.final: Position | None = None  # after the last line, as its mover sees it
        self.scores: tuple[int, ...] = ()
        self.winners: tuple[int, ...] = ()


def _hidden(pos: Position) -> str | None:
    if UNSEEN in pos.pile or any(UNSEEN in h for h in pos.hands):
        return "every action token (no ?)"
    return None


def _start(text: str, line: int) -> Position:
    from .face import parse
    from .validate import validate

    return start_position(text, line, parse, validate, _hidden, NOTATION_KEYS)


def _seat(word: str, n: int, players: int) -> int:
    if len(word) != 1 or word not in SEATS[:players]:
        raise RecordError(n, f"expected a seat A..{SEATS[players - 1]} first, got "
                             f"{quote(word)}")
    return SEATS.index(word)


def parse_record(text: str) -> Record:
    said, total = body_lines(text)
    if not said:
        raise RecordError(max(total, 1), "no 'start <position notation>' line: the record "
                                         "is empty")
    first, body = said[0]
    start = _start(body, first)
    lines: list[Line] = []
    result = None
    for n, body in said[1:]:
        if result is not None:
            raise RecordError(n, "nothing may follow the result line")
        words = body.split()
        if words[0] == "result":
            result = _result(words[1:], n, start.players)
            continue
        if len(words) < 3:
            raise RecordError(n, f"expected '<seat> <roll> <choice>', got {quote(body)}")
        lines.append(Line(n, _seat(words[0], n, start.players), words[1],
                          " ".join(words[2:])))
    return Record(start, lines, result)


def _result(words: list[str], n: int, players: int
            ) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    usage = f"expected 'result A:<score> ... winner <seats>', got {quote(' '.join(words))}"
    if len(words) != players + 2 or words[players] != "winner":
        raise RecordError(n, usage)
    scores = []
    for p, word in enumerate(words[:players]):
        letter, colon, value = word.partition(":")
        if letter != SEATS[p] or not colon or not value.lstrip("-").isdigit() \
                or len(value) > 6:
            raise RecordError(n, usage)
        scores.append(int(value))
    winners = tuple(_seat(w, n, players) for w in words[-1].split(","))
    return n, tuple(scores), winners


def replay(record: Record) -> Replay:
    enc = encode(record.start)
    S, R = enc.S.copy(), enc.R
    rules, exp = record.start.rules, record.start.expansions
    taken = [list(t) for t in record.start.mummy_taken]
    out = Replay()
    pending: tuple[int, str | None] | None = None  # the seat whose turn goes on, its roll
    for ln in record.lines:
        if S[L.S_OVER]:
            raise RecordError(ln.line, "the game is already over")
        mover = int(S[L.S_TO_MOVE])
        if ln.seat != mover:
            raise RecordError(ln.line, f"it is {seat_letter(mover)}'s turn, not "
                                       f"{seat_letter(ln.seat)}'s")
        if pending is not None and pending[1] is not None and ln.roll != pending[1]:
            raise RecordError(ln.line, f"a token before the move keeps the roll "
                                       f"{pending[1]}, got {quote(ln.roll)}")
        before = decode(S, R, rules, exp, viewer=mover,
                        taken_by=tuple(tuple(t) for t in taken))
        try:
            step = take_step(S, R, ln.roll, ln.label)
        except OddsbotError as exc:
            raise RecordError(ln.line, str(exc)) from None
        out.append((before, Turn(ln, pending is None)))
        taken[mover].extend(step.mummy)
        pending = ((mover, ln.roll) if step.same_roll else (mover, None) if step.extra
                   else None)
    out.over = bool(S[L.S_OVER])
    out.to_move = int(S[L.S_TO_MOVE])
    out.final = None if out.over else decode(S, R, rules, exp, viewer=out.to_move,
                                             taken_by=tuple(tuple(t) for t in taken))
    if out.over:
        out.scores, out.winners = final(S, R)
    if record.result is not None:
        n, scores, winners = record.result
        if not out.over:
            raise RecordError(n, f"a result line but the game is not over: "
                                 f"{seat_letter(out.to_move)} to move")
        if (scores, winners) != (out.scores, out.winners):
            raise RecordError(n, f"result mismatch: the replay gives "
                                 f"{_result_text(out.scores, out.winners)}")
    return out


def _result_text(scores: tuple[int, ...], winners: tuple[int, ...]) -> str:
    return (" ".join(f"{seat_letter(p)}:{s}" for p, s in enumerate(scores)) + " winner "
            + ",".join(seat_letter(p) for p in winners))


def load_record(text: str, rules: Mapping[str, str] | None = None
                ) -> tuple[Record, Replay]:
    """The record and its replay (a ``RecordError`` names the first bad line); ``rules``
    (``--rule``) set on its start position first."""
    return load_with_rules(text, rules, parse_record, replay)


def annotate(steps: Replay, *, samples: int = 20000, seed: int = 0,
             rollouts: int | None = None, policy: str | None = None,
             progress: Callable[[int, int], None] | None = None) -> Table:
    """One row per step: the choice taken, its EV ``ev_taken`` (``EV_WORDS``), the best
    choice of the same roll and its ``best_ev``, ``ev_lost`` = best_ev - ev_taken (>= 0).
    Steps that open a turn are valued (exact where the rest of the game is small, else
    ``samples`` rollouts a choice, or ``rollouts`` with ``policy``); a step that carries
    a turn on (after a Swap, Bottom or Extra move) is listed unvalued. The SEs of sampled
    values: ``SE_COLUMNS`` (``se_fields``; ``ev_lost_se`` is advise's paired ``gap_se``,
    every choice being rolled out on the same dice and hidden tokens) and with rollouts
    ``ROLLOUT_SE_COLUMNS`` (no paired SE of win_p: equity_lost_se is the bound ``win_se +
    best_win_se``); None where exact or unvalued."""
    from .advise import advise

    rows = []
    for i, (pos, turn) in enumerate(steps, start=1):
        taken = turn.line.label
        row = {"step": i, "player": turn.player, "roll": turn.line.roll,
               "action": taken, "ev_taken": None, "best": None, "best_ev": None,
               "ev_lost": 0.0, "method": None}
        if turn.opening:
            table = advise(pos, samples=rollouts or (None if samples is None else samples),
                           seed=seed, roll=turn.line.roll, policy=policy)
            rows_of = {r["action"]: r for r in table.dicts()}
            best = table["action"][0]
            ev, best_ev = float(rows_of[taken]["ev"]), float(rows_of[best]["ev"])
            row.update(ev_taken=ev, best=best, best_ev=best_ev, ev_lost=best_ev - ev,
                       method=table["method"][0],
                       **se_fields(best_ev - ev, rows_of[taken], rows_of[best], taken == best,
                                   dict(zip(table["action"], table["gap_se"]))))
            if rollouts is not None:  # (gap_se pairs ev, not win_p)
                wins = dict(zip(table["action"], table["win_p"]))
                fields = rollout_fields(wins[taken], wins.items())
                row.update(fields, **rollout_se_fields(
                    fields, taken, dict(zip(table["action"], table["win_se"]))))
        elif rollouts is not None:
            row.update(win_p=None, best_rollout=None, best_win_p=None, equity_lost=None)
        rows.append(row)
        if progress is not None:
            progress(i, len(steps))
    return annotation_table("mumia", ANNOTATION_COLUMNS, rows, steps, seed=seed,
                            samples=samples, rollouts=rollouts, policy=policy, ev=EV_WORDS)


def table_view(table: Table, wide: bool = False) -> Table:
    """The replay table as people read it (80 columns): step, player, roll, the choice
    taken (and below it the best where that is worth more), its EV and the EV lost."""
    if wide:
        return table
    action = [a + (f"\nbest: {b}" if lost and lost > 1e-9 else "")
              for a, b, lost in zip(table["action"], table["best"], table["ev_lost"])]
    player = [seat_letter(p) for p in table["player"]]
    return Table.from_columns({"step": table["step"], "player": player,
                               "roll": table["roll"], "action": action,
                               "ev_taken": table["ev_taken"], "ev_lost": table["ev_lost"]})


def status(steps: Replay) -> str:
    """How the record ends, for the ``record OK`` line."""
    if steps.over:
        return f"game over: {_result_text(steps.scores, steps.winners)}"
    return f"game not over: {seat_letter(steps.to_move)} to move"


result = result_of


def caption(steps: Replay, lost: list[float], *, samples: int, seed: int,
            rollouts: int | None) -> str:
    """The caption of the terminal replay table."""
    how = (f"{rollouts:,} rollouts" if rollouts else f"{samples:,} rollouts a choice where "
           f"not exact")
    return (f"EV: change of the mover's final score, its roll known · {how}, seed {seed} · "
            f"EV lost: " + ", ".join(f"{seat_letter(p)} {x:.2f}" for p, x in enumerate(lost))
            + (f" · {_result_text(steps.scores, steps.winners)}" if steps.over else ""))


def warm_up() -> None:
    """Compile what records use beyond a whole game: a game replayed and its first
    steps annotated."""
    _, steps = load_record(play(3, 1, "mumia", "random"))
    annotate(_head(steps, 2), samples=8, seed=1)


def _head(steps: Replay, k: int) -> Replay:
    head = Replay()
    head.extend(steps[:k])
    return head
