"""Kingdom Run game records: read, replay against the rules, annotate
(docs/games/kingdom-run.md §15).

```
start kingdom-run p2 K,W to=1 t=0:K1,W1,F1,G1/1:K2,W2,F2,G2/... tok=6,6 roll=-
p1 | SCBY | keep scatter,bath | SBBT | scatter 3 [K4] > bath W3 > bath K2 > steal p2
p2 | TTZZ | reroll all | SCCY | ...
result p1:31 p2:32 winner p2
```

One line a turn: the player, the first roll (face letters S C B T Z Y), the keep-set
(``-`` when the start position was already re-rolled), the final roll and the sequence
(``oddsbot advise`` labels). The last line may be a turn under way, cut after its roll
(``p2 | TTZZ``) or its final roll (``p2 | TTZZ | reroll all | SCCY``). The ``result``
line, if any, must match the replay.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ...errors import OddsbotError, quote
from ..records_common import (  # ev_lost_by_player: the RecordFace's
    RecordError, annotation_table, body_lines, ev_lost_by_player, load_with_rules,
    result_of, rollout_fields, rollout_se_fields, se_fields, start_position,
)
from ..table import Table
from .advise import read_roll
from .labels import wrapped
from .notation import NOTATION_KEYS
from .play import player_name
from .position import Position
from .simulate import play, result_line, roll_text
from .turns import evaluation, over, take_keep, take_sequence, with_roll

ANNOTATION_COLUMNS = ["step", "player", "decision", "roll", "action", "ev_taken", "best",
                      "best_ev", "ev_lost", "method"]
EV_WORDS = ("EV: the mover's expected score minus the best other player's after the turn "
            "(oddsbot advise), the re-roll valued over every outcome")

__all__ = ["ev_lost_by_player", "load_record", "annotate", "table_view", "status",
           "result", "caption", "warm_up"]


@dataclass(frozen=True)
class Line:
    """A turn's line; a turn under way (the last line) lacks its sequence (``label``)
    and maybe its keep-set and final roll."""

    line: int
    player: int
    roll: str
    keep: str | None = None
    final: str | None = None
    label: str | None = None


@dataclass
class Record:
    start: Position
    lines: list[Line]
    result: tuple[int, str] | None  # line, its text after "result"


@dataclass(frozen=True)
class Turn:
    """A replayed turn: its line, the position at its re-roll decision (None if taken
    before the record starts) and at its action decision, and the position after it."""

    line: Line
    keep_at: Position | None
    act_at: Position
    after: Position

    @property
    def player(self) -> int:
        return self.line.player

    @property
    def label(self) -> str:
        return self.line.label


class Replay(list):
    """(position before, Turn) pairs, and how the game stands at the end."""

    def __init__(self) -> None:
        super().__init__()
        self.over = False
        self.to_move = 0
        self.final: Position | None = None  # the position after the last line
        self.scores: tuple[int, ...] = ()
        self.winners: tuple[int, ...] = ()


def _start(text: str, line: int) -> Position:
    from .face import parse
    from .validate import validate

    return start_position(text, line, parse, validate, lambda pos: None, NOTATION_KEYS)


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
        if body.split()[0] == "result":
            result = (n, body.split(None, 1)[1] if " " in body else "")
            continue
        parts = [p.strip() for p in body.split("|")]
        usage = (f"expected '<player> | <roll> | <keep-set> | <final roll> | <sequence>', "
                 f"got {quote(body)}")
        if len(parts) not in (2, 4, 5) or re.fullmatch(r"p[1-9]", parts[0]) is None:
            raise RecordError(n, usage)
        if lines and lines[-1].label is None:
            raise RecordError(lines[-1].line, "a turn under way (no sequence) must be the "
                                              "last line")
        player = int(parts[0][1:]) - 1
        if not 0 <= player < start.players:
            raise RecordError(n, f"no player {quote(parts[0])} (p1..p{start.players})")
        lines.append(Line(n, player, *parts[1:]))
    return Record(start, lines, result)


def _roll(text: str, n: int, pos: Position) -> tuple[int, ...]:
    try:
        return read_roll(text, pos.rules.dice)
    except OddsbotError as exc:
        raise RecordError(n, str(exc).replace("--roll", f"roll {quote(text)}")) from None


def replay(record: Record) -> Replay:
    pos = record.start
    out = Replay()
    for ln in record.lines:
        if over(pos):
            raise RecordError(ln.line, "the game is already over")
        if ln.player != pos.to_move:
            raise RecordError(ln.line, f"it is p{pos.to_move + 1}'s turn, not "
                                       f"p{ln.player + 1}'s")
        before = pos
        try:
            keep_at = None
            if pos.roll is None:
                pos = with_roll(pos, _roll(ln.roll, ln.line, pos))
            elif roll_text(pos.roll) != ln.roll:
                raise RecordError(ln.line, f"the position's roll is {roll_text(pos.roll)}, "
                                           f"the line says {quote(ln.roll)}")
            if ln.keep is None:  # a turn under way, cut after its roll
                break
            if not pos.rerolled:
                keep_at = pos
                pos = take_keep(pos, ln.keep, _roll(ln.final, ln.line, pos), "keep-set")
            elif ln.keep != "-" or ln.final != ln.roll:
                raise RecordError(ln.line, "the roll was already re-rolled: write '-' as the "
                                           "keep-set and the roll again as the final roll")
            if ln.label is None:  # ... or after its final roll
                break
            act_at = pos
            pos = take_sequence(pos, ln.label, "sequence")
        except RecordError:
            raise
        except OddsbotError as exc:
            raise RecordError(ln.line, str(exc)) from None
        out.append((before, Turn(ln, keep_at, act_at, pos)))
    out.over = over(pos)
    out.to_move = pos.to_move
    out.final = pos
    if out.over:
        from .face import final_result
        out.scores, out.winners = final_result(pos)
    if record.result is not None:
        n, text = record.result
        if not out.over:
            raise RecordError(n, f"a result line but the game is not over: "
                                 f"p{out.to_move + 1} to move")
        if "result " + text != result_line(out.scores, out.winners):
            raise RecordError(n, f"result mismatch: the replay gives "
                                 f"{result_line(out.scores, out.winners)[7:]}")
    return out


def load_record(text: str, rules: Mapping[str, str] | None = None
                ) -> tuple[Record, Replay]:
    """The record and its replay (a ``RecordError`` names the first bad line); ``rules``
    (``--rule``) set on its start position first."""
    return load_with_rules(text, rules, parse_record, replay)


def _decision_row(step: int, player: int, decision: str, roll: str, taken: str,
                  table: Table, rollouts: int | None, ev: float | None = None) -> dict:
    """``ev``: the taken choice's value when the table may list it under another label
    (a sequence merged with one reaching the same position, §13; an exact value). The
    SEs (``se_fields``): of the rollouts' ev (margin), with no paired SE of it, so
    ``ev_lost_se`` is the bound ``ev_se + best_ev_se``; of win_p, with advise's paired
    ``gap_se`` for ``equity_lost_se``."""
    evs = dict(zip(table["action"], table["ev"]))
    rows_of = {r["action"]: r for r in table.dicts()}
    best = table["action"][0]
    in_table = ev is None
    if ev is None:
        ev = evs.get(taken)
    lost = None if ev is None else float(evs[best]) - float(ev)
    row = {"step": step, "player": player, "decision": decision, "roll": roll,
           "action": taken, "ev_taken": ev, "best": best, "best_ev": float(evs[best]),
           "ev_lost": lost, "method": table["method"][0],
           **se_fields(lost, rows_of.get(taken) if in_table else None, rows_of[best],
                       taken == best)}
    if rollouts is not None:
        wins = dict(zip(table["action"], table["win_p"]))
        fields = rollout_fields(wins.get(taken), wins.items())
        row.update(fields, **rollout_se_fields(
            fields, taken, dict(zip(table["action"], table["win_se"])),
            dict(zip(table["action"], table["gap_se"]))))
    return row


def annotate(steps: Replay, *, samples: int = 20000, seed: int = 0,
             rollouts: int | None = None, policy: str | None = None,
             candidates: int | None = None,
             progress: Callable[[int, int], None] | None = None) -> Table:
    """Two rows a turn, one per decision: the re-roll (the keep-set taken, valued by the
    re-roll table, its searches within ``advise.REPLAY_BUDGET`` states) and the actions
    (the sequence taken, valued by the default evaluation; with ``rollouts`` only the
    candidates are rolled out, and a sequence outside them has no value). ``ev_lost`` =
    best_ev - ev_taken (>= 0)."""
    from .advise import REPLAY_BUDGET, advise

    rows = []
    for i, (_, turn) in enumerate(steps, start=1):
        ln = turn.line
        if turn.keep_at is not None:
            table = advise(turn.keep_at, samples=rollouts, seed=seed, policy=policy,
                           search_budget=REPLAY_BUDGET)
            rows.append(_decision_row(i, turn.player, "re-roll", ln.roll, ln.keep, table,
                                      rollouts))
        table = advise(turn.act_at, samples=rollouts, seed=seed, policy=policy,
                       candidates=candidates)
        reached = None if rollouts is not None else evaluation(turn.after, turn.player)
        rows.append(_decision_row(i, turn.player, "actions", ln.final, ln.label, table,
                                  rollouts, reached))
        if progress is not None:
            progress(i, len(steps))
    return annotation_table("kingdom-run", ANNOTATION_COLUMNS, rows, steps, seed=seed,
                            rollouts=rollouts, policy=policy, ev=EV_WORDS)


def table_view(table: Table, wide: bool = False) -> Table:
    """The replay table as people read it (80 columns): turn, player, the choice taken
    (and below it the best where that is worth more) and the EV lost."""
    if wide:
        return table
    action = [wrapped(a) + (f"\n{wrapped('best: ' + b)}" if lost and lost > 1e-9 else "")
              for a, b, lost in zip(table["action"], table["best"], table["ev_lost"])]
    return Table.from_columns({"turn": table["step"],
                               "player": [f"p{p + 1}" for p in table["player"]],
                               "action": action, "ev_lost": table["ev_lost"]})


def status(steps: Replay) -> str:
    """How the record ends, for the ``record OK`` line."""
    if steps.over:
        return f"game over: {result_line(steps.scores, steps.winners)[7:]}"
    return f"game not over: p{player_name(steps.final, steps.to_move)} to move"


result = result_of


def caption(steps: Replay, lost: list[float], *, samples: int, seed: int,
            rollouts: int | None) -> str:
    """The caption of the terminal replay table."""
    how = f"{rollouts:,} rollouts, seed {seed}" if rollouts else "exact or greedy values"
    return (f"EV: the mover's score minus the best other's after the turn · {how} · "
            f"EV lost: " + ", ".join(f"p{p + 1} {x:.2f}" for p, x in enumerate(lost))
            + (f" · {result_line(steps.scores, steps.winners)[7:]}" if steps.over else ""))


def warm_up() -> None:
    """Compile what records use beyond a whole game: a game replayed and its first turn
    annotated."""
    _, steps = load_record(play(2, 1, "kingdom-run", "random"))
    head = Replay()
    head.extend(steps[-1:])
    annotate(head, seed=1)
