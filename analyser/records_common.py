"""What every game's records share (``oddsbot replay``): the ``line N:`` error, reading a
record's lines with their comments, reporting the first bad line of a file, and the
annotation's rollout and standard-error columns.

A record is plain text, one entry a line; a ``#`` starts a comment anywhere on a line,
and blank lines are ignored. A game's record module reads it in two stages, ``parse``
(syntax) and ``replay`` (the rules); ``load`` reports whichever bad line comes first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from ..errors import OddsbotError, PositionError, quote
from ..inputs import lines as text_lines
from ..strict import read_int
from .notation_errors import NotationKeys, in_notation_words
from .table import Table

COMMENT = "#"
# the annotation's rollout columns: the action taken's win probability, the action with the
# highest one and it, and the difference (>= 0)
ROLLOUT_COLUMNS = ["win_p", "best_rollout", "best_win_p", "equity_lost"]
# the standard errors of the annotation's estimates (None where a value is exact, or not
# valued): of the action taken's ev, the best's, and of ev_lost (``lost_se``); with
# rollouts, of win_p, best_win_p and equity_lost
SE_COLUMNS = ["ev_se", "best_ev_se", "ev_lost_se"]
ROLLOUT_SE_COLUMNS = ["win_se", "best_win_se", "equity_lost_se"]
# the caption's largest SEs: the name shown -> the columns it is the largest of
SE_SHOWN = {"ev": ("ev_se", "best_ev_se"), "ev_lost": ("ev_lost_se",),
            "win_p": ("win_se", "best_win_se"), "equity_lost": ("equity_lost_se",)}
MONTE_CARLO = "monte-carlo"  # an advise row's method when its ev is sampled

Parsed = TypeVar("Parsed")
Replayed = TypeVar("Replayed")


class RecordError(OddsbotError):
    """A bad line of a game record: the message is ``line N: <what>``."""

    def __init__(self, line: int, what: str) -> None:
        super().__init__(f"line {line}: {what}")
        self.line = line
        self.what = what


def start_position(text: str, line: int, parse: Callable[[str], Any],
                   validate: Callable[[Any], Any], hidden: Callable[[Any], str | None],
                   keys: NotationKeys) -> Any:
    """The position of the record's ``start <notation>`` line ``text`` (line ``line``):
    ``parse`` reads the notation and ``validate`` checks it, their complaints in the
    notation's words (``keys``, the game's ``NOTATION_KEYS``); ``hidden(pos)`` names what
    the position hides that a record must state (None: nothing)."""
    words = text.split(None, 1)
    if not words or words[0] != "start" or len(words) < 2:
        raise RecordError(line, f"expected 'start <position notation>' first, got "
                                f"{quote(text)}")
    try:
        with in_notation_words(keys):
            pos = parse(words[1])
        with in_notation_words(keys, validating=True):
            validate(pos)
    except OddsbotError as exc:
        raise RecordError(line, f"bad start position: {exc}") from None
    missing = hidden(pos)
    if missing is not None:
        raise RecordError(line, f"bad start position: a record must give {missing}")
    return pos


def body_lines(text: str) -> tuple[list[tuple[int, str]], int]:
    """(line number from 1, the line without its comment, stripped) of every line that
    says something, and how many lines ``text`` has."""
    said = []
    n = 0
    for n, raw in enumerate(text_lines(text), start=1):
        body = raw.split(COMMENT, 1)[0].strip()
        if body:
            said.append((n, body))
    return said, n


def record_int(text: str, line: int, what: str, low: int | None = None,
               high: int | None = None) -> int:
    """``strict.read_int`` of ``text`` (no more than 18 digits; within ``low..high`` when
    given), a failure a ``RecordError`` of ``line``."""
    bounds = {k: v for k, v in (("low", low), ("high", high)) if v is not None}
    try:
        return read_int(text, what, **bounds)
    except PositionError as exc:
        raise RecordError(line, str(exc)) from None


def load(text: str, parse: Callable[[str], Parsed], replay: Callable[[Parsed], Replayed],
         ending: Callable[[Replayed], None] | None = None) -> tuple[Parsed, Replayed]:
    """``parse`` then ``replay`` ``text``, reporting the first bad line of the file: when a
    line cannot be read, the lines before it are replayed first, and a line among them the
    replay refuses is reported instead. ``ending`` checks where the whole record stops
    (not the lines before an unreadable one, which stop where it is)."""
    try:
        record = parse(text)
    except RecordError as exc:
        try:  # the lines before the unreadable one read fine: do they replay?
            head = parse("\n".join(text.split("\n", exc.line - 1)[:exc.line - 1]))
        except RecordError:  # no start line before it
            raise exc from None
        try:
            replay(head)
        except RecordError as earlier:
            raise earlier from None
        raise
    steps = replay(record)
    if ending is not None:
        ending(steps)
    return record, steps


def load_with_rules(text: str, rules: Mapping[str, str] | None,
                    parse: Callable[[str], Parsed], replay: Callable[[Parsed], Replayed]
                    ) -> tuple[Parsed, Replayed]:
    """``load`` with ``--rule`` values ``rules`` set on the start position first (the
    record's ``start`` field, a position with ``rules.with_`` and ``with_``)."""
    if not rules:
        return load(text, parse, replay)

    def parse_with_rules(body: str) -> Parsed:
        record = parse(body)
        try:
            start = record.start.with_(rules=record.start.rules.with_(rules, "--rule"))
        except OddsbotError as exc:
            raise OddsbotError(str(exc)) from None
        return replace(record, start=start)

    return load(text, parse_with_rules, replay)


def rollout_fields(win_p: float | None, rolled: Iterable[tuple[Any, float]]) -> dict:
    """The ``ROLLOUT_COLUMNS`` of one annotated turn: ``win_p`` of the action taken (None
    if it was not rolled out) and ``rolled``, the (action, win probability) of every action
    rolled out, the first of the best winning ties."""
    best, best_win_p = max(rolled, key=lambda pair: pair[1])
    return {"win_p": win_p, "best_rollout": best, "best_win_p": float(best_win_p),
            "equity_lost": None if win_p is None else max(0.0, float(best_win_p) - win_p)}


def sampled_se(row: Mapping[str, Any] | None) -> float | None:
    """The SE of an advise row's ``ev``: its ``se`` where the ev is a Monte Carlo
    estimate (``method`` monte-carlo), None where it is exact (or a model's value) or
    there is no row."""
    if row is None or row.get("method") != MONTE_CARLO or row.get("se") is None:
        return None
    return float(row["se"])


def lost_se(lost: float | None, taken_se: float | None, best_se: float | None,
            same: bool, paired: float | None = None) -> float | None:
    """The SE of ``lost`` = best - taken (None: not valued, or both values exact). 0 when
    the best is the action taken (the same estimate); ``paired``, the SE of the paired
    difference on common random numbers, when the advise table gives it; else
    ``taken_se + best_se``, an upper bound whatever the correlation of the two estimates
    (|corr| <= 1). The two come from the same random numbers, which may correlate them
    either way (two camels' win bets valued on the same races: negatively), so
    sqrt(taken_se² + best_se²), right for independent estimates only, could understate."""
    if lost is None or (taken_se is None and best_se is None):
        return None
    if same:
        return 0.0
    if paired is not None:
        return float(paired)
    return (taken_se or 0.0) + (best_se or 0.0)


def se_fields(lost: float | None, taken: Mapping[str, Any] | None,
              best: Mapping[str, Any] | None, same: bool,
              gap_se: Mapping[Any, float | None] | None = None) -> dict[str, float | None]:
    """The ``SE_COLUMNS`` of one annotated turn: ``sampled_se`` of the advise rows of the
    action taken and of the best (None: not in the table), ``lost_se`` of ``lost`` (0
    when ``same``: the best is the action taken), ``gap_se`` the table's paired gaps of
    ev, if it has them (``paired_se``)."""
    taken_se, best_se = sampled_se(taken), sampled_se(best)
    paired = None if taken is None or best is None else \
        paired_se(gap_se, taken["action"], best["action"])
    return {"ev_se": taken_se, "best_ev_se": best_se,
            "ev_lost_se": lost_se(lost, taken_se, best_se, same, paired)}


def paired_se(gap_se: Mapping[Any, float | None] | None, taken: Any, best: Any
              ) -> float | None:
    """The SE of the paired gap of ``taken`` to ``best`` from an advise table's
    ``gap_se`` (action -> SE of its paired gap to the table's reference): known when
    ``best`` is that reference (its own gap_se 0) and ``taken`` has one, else None."""
    if gap_se is None or gap_se.get(best) != 0 or gap_se.get(taken) is None:
        return None
    return float(gap_se[taken])


def rollout_se_fields(fields: Mapping[str, Any], taken: Any, win_se: Mapping[Any, float],
                      gap_se: Mapping[Any, float | None] | None = None
                      ) -> dict[str, float | None]:
    """The ``ROLLOUT_SE_COLUMNS`` of one annotated turn: ``fields``, its
    ``ROLLOUT_COLUMNS`` (``rollout_fields``), ``taken`` the action taken, ``win_se`` the
    SE of the win probability of every action rolled out (``taken`` among them when it
    was), ``gap_se`` the advise table's paired gaps of win_p, if any (``paired_se``)."""
    best = fields["best_rollout"]
    taken_se = None if fields["win_p"] is None else float(win_se[taken])
    best_se = float(win_se[best])
    return {"win_se": taken_se, "best_win_se": best_se,
            "equity_lost_se": lost_se(fields["equity_lost"], taken_se, best_se,
                                      taken == best, paired_se(gap_se, taken, best))}


def se_caption(table: Table) -> str:
    """The caption's part on the annotation's standard errors: the largest SE of each
    estimate (``SE_SHOWN``) where any value is sampled, else nothing."""
    shown = []
    for name, columns in SE_SHOWN.items():
        values = [x for c in columns if c in table for x in table[c] if x is not None]
        if values:
            shown.append(f"{name} {max(values):.3f}")
    return f" · SE at most: {', '.join(shown)} (sampled values; each with --wide)" \
        if shown else ""


def turn_records(table: Table) -> list[dict[str, Any]]:
    """The annotated turns as JSON rows: ``Table.records`` (a cell that does not apply,
    None, left out) but for the SE columns, null where the value is exact or unvalued."""
    kept = set(SE_COLUMNS + ROLLOUT_SE_COLUMNS)
    return [{c: v for c, v in zip(table.columns, row) if v is not None or c in kept}
            for row in table.rows]


def annotation_table(game: str, columns: list[str], rows: list[dict], steps: list,
                     **provenance: Any) -> Table:
    """The annotated turns: ``columns``, the ``SE_COLUMNS`` and, with rollouts
    (``provenance["rollouts"]`` not None), the ``ROLLOUT_COLUMNS`` and
    ``ROLLOUT_SE_COLUMNS``; the provenance names the game, the rules variant
    of the first turn's position and the oddsbot version, then the game's own
    ``provenance`` (in the order given)."""
    from .. import __version__

    rolled = provenance.get("rollouts") is not None
    return Table.from_dicts(rows, columns + SE_COLUMNS
                            + (ROLLOUT_COLUMNS + ROLLOUT_SE_COLUMNS if rolled else []),
                            {"game": game, "variant": steps[0][0].variant if steps else None,
                             "oddsbot": __version__, **provenance})


@dataclass(frozen=True)
class RecordResult:
    """A record's result line: the race's winner and loser, and the final money if
    written (Camel Up, Camel Up Cards)."""

    line: int
    winner: str
    loser: str
    money: tuple[int, ...] | None


def check_result(res: RecordResult, over: bool, not_over: str, winner: str, loser: str,
                 money: tuple[int, ...]) -> None:
    """A result line against the replay: refused (``RecordError`` of its line) when the
    game is not over (``not_over`` says how it stands) or when its winner, loser or
    money differ from the replay's."""
    if not over:
        raise RecordError(res.line, f"a result line but {not_over}")
    if (res.winner, res.loser) != (winner, loser):
        raise RecordError(res.line, f"result mismatch: the record says winner {res.winner} "
                                    f"loser {res.loser}, the replay gives winner {winner} "
                                    f"loser {loser}")
    if res.money is not None and res.money != money:
        raise RecordError(res.line, f"money mismatch: the record says "
                                    f"{','.join(map(str, res.money))}, the replay gives "
                                    f"{','.join(map(str, money))}")


def ev_lost_by_player(table: Table, players: int) -> list[float]:
    """Total EV lost per seat over the annotated turns (the table's ``player`` and
    ``ev_lost`` columns; a turn without a value, ``None``, adds nothing)."""
    return [float(sum(lost for p, lost in zip(table["player"], table["ev_lost"])
                      if p == seat and lost is not None)) for seat in range(players)]


def result_of(steps: Any) -> dict | None:
    """A replay's final scores and winners (its ``over``, ``scores``, ``winners``), or
    None while the game is not over (``RecordFace.result``)."""
    if not steps.over:
        return None
    return {"scores": list(steps.scores), "winners": list(steps.winners)}
