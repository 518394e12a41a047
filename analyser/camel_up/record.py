"""Game records: a whole Camel Up game as plain text, checked and annotated.

The format is a superset of what ``GameResult.text()`` writes (``oddsbot new camel-up
--play POLICY``)::

    # comments and blank lines are ignored (a '#' starts a comment anywhere)
    start <notation>                              the position before the first turn
    [<turn>] p<seat> <action>[ -> <die>] [| money <m0>,<m1>,...]
    ...
    winner <colour> loser <colour> [money <m0>,<m1>,...]

* ``<action>`` is an action label as ``oddsbot moves`` prints it (``encode.action_grammar``):
  ``ticket <colour>``, ``pyramid``, ``spectator <space> cheer|boo`` (2014:
  ``desert <space> oasis|mirage``, the 2nd edition's words also read), ``winner <colour>``,
  ``loser <colour>``, ``partner <seat>``.
* ``<die>`` is the die a pyramid action revealed, and only that: ``<colour> <1-3>`` for a
  racing die, ``grey white|black <1-3>`` for the grey die (as ``simulate.die_text``).
* ``<turn>`` (1, 2, 3, ... in record order), the ``| money`` part (everyone's EP after the
  turn) and the final ``winner ... loser ...`` line are optional; when given they are
  checked against the replay.

``parse_record`` reads the text (syntax, action labels, die results); ``replay`` plays it
through the kernel (``K.legal_actions``, ``K.apply_action``) — the only implementation of
the rules — and checks every line. Every problem is a ``RecordError`` (an
``OddsbotError``, ``records_common``) whose message starts ``line N:``; ``load_record``
reports the first bad line of the file, whichever of the two steps finds it. ``annotate``
values each turn with ``advise``.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...kernels import camel_up as K
from ...errors import OddsbotError, PositionError, quote
from ...strict import read_int
from ..records_common import (  # noqa: F401 (ev_lost_by_player: the RecordFace's)
    RecordError, RecordResult, annotation_table, body_lines, check_result,
    ev_lost_by_player, load, record_int, rollout_fields, rollout_se_fields, se_fields,
    start_position,
)
from ..table import Table
from .encode import action_code, action_grammar, action_label, decode, encode
from ..play_common import seat_number as player_name
from .notation import NOTATION_KEYS, parse_notation
from .position import MAX_MONEY, Card, Position
from .validate import validate
from .variants import GREY_DIE, Variant

_TURN = re.compile(r"^(?:(?P<number>[0-9]+)\s+)?p(?P<seat>[0-9]+)\s+(?P<action>.+)$")
_RESULT = re.compile(r"^winner\s+(?P<winner>\S+)\s+loser\s+(?P<loser>\S+)"
                     r"(?:\s+money\s+(?P<money>\S+))?$")
TURN_SYNTAX = "[<turn>] p<seat> <action>[ -> <die>] [| money <m0>,<m1>,...]"


@dataclass(frozen=True)
class RecordTurn:
    """One turn line: who acted, the action, the die a pyramid action revealed."""

    line: int  # line number in the record text (1-based)
    number: int | None  # the turn number written on the line, if any
    player: int
    action: str  # canonical action label
    code: int  # kernel action code
    roll: str | None  # canonical die text (pyramid only)
    die: int = -1  # kernel die index (pyramid only)
    face: int = -1  # kernel face (0..2 racing, 0..5 grey: white 0..2, black 3..5)
    money: tuple[int, ...] | None = None  # everyone's EP after the turn, if written


@dataclass(frozen=True)
class Record:
    start: Position
    start_line: int
    turns: tuple[RecordTurn, ...]
    result: RecordResult | None
    lines: int  # lines in the text


class Replay(list):
    """``replay``'s answer: a list of (position before the turn, turn), one per turn,
    plus how the record ends (``final``, the position after its last line; ``over``;
    ``winner``, ``loser`` and ``money`` at the end)."""

    final: Position | None = None
    over: bool = False
    winner: str | None = None
    loser: str | None = None
    money: tuple[int, ...] = ()
    to_move: int | None = None  # who is to move next if the game is not over


# --------------------------------------------------------------------------- parsing


def _ints(text: str, line: int, players: int, what: str) -> tuple[int, ...]:
    try:
        values = tuple(read_int(x, f"{what}[{i}]", 0, MAX_MONEY)
                       for i, x in enumerate(text.split(",")))
    except PositionError as exc:
        raise RecordError(line, f"{exc.field} in {quote(text)}: {exc.reason}") from None
    if len(values) != players:
        raise RecordError(line, f"{what}: {len(values)} entries for {players} players")
    return values


def _action(v: Variant, text: str, line: int) -> tuple[int, str]:
    try:
        code = action_code(v, text)
    except OddsbotError:
        code = None
    if code is None or not 0 <= code < K.N_ACTIONS:
        raise RecordError(line, f"unknown action {quote(text)} (expected "
                                f"{action_grammar(v)})")
    return code, action_label(v, code)


def parse_die(v: Variant, text: str, line: int) -> tuple[int, int, str]:
    """(kernel die, kernel face, canonical text) of a die result such as ``green 2``,
    ``G 2`` or ``grey black 1``."""
    words = text.split()
    if not words:
        raise RecordError(line, "'->' without a die result (e.g. '-> green 2')")
    try:
        name = v.die(words[0], "die")
    except OddsbotError:
        raise RecordError(line, f"unknown die {quote(words[0])} in {quote(text)} (dice: "
                                f"{', '.join(v.dice)})") from None
    grey = name == GREY_DIE
    shape = "grey white|black <1-3>" if grey else f"{name} <1-3>"
    if len(words) != (3 if grey else 2):
        raise RecordError(line, f"die result {quote(text)} is not '{shape}'")
    if grey and words[1].lower() not in ("white", "black"):
        raise RecordError(line, f"bad die face {quote(text)}: the grey die shows white or "
                                f"black 1-3")
    if words[-1] not in ("1", "2", "3"):
        raise RecordError(line, f"bad die face {quote(words[-1])} in {quote(text)}: a die "
                                f"shows 1, 2 or 3")
    value = int(words[-1])
    die = v.dice.index(name)
    if grey:
        colour = words[1].lower()
        face = (0 if colour == "white" else 3) + value - 1
        return die, face, f"grey {colour} {value}"
    return die, value - 1, f"{name} {value}"


def hidden_part(pos: Position) -> str | None:
    """What ``pos`` hides that a record must give, or None."""
    return ("every finish card's colour (no '?')"
            if any(c.colour is None for c in pos.winner_deck + pos.loser_deck)
            or any(h is None for h in pos.finish_hand) else None)


def _start(text: str, line: int) -> Position:
    return start_position(text, line, parse_notation, validate, hidden_part, NOTATION_KEYS)


def parse_record(text: str) -> Record:
    """Read a record (see the module doc). Raises ``RecordError`` at the first line that
    cannot be read; legality is ``replay``'s job."""
    start: Position | None = None
    start_line = 0
    turns: list[RecordTurn] = []
    result: RecordResult | None = None
    said, lines = body_lines(text)
    for n, body in said:
        if start is None:
            start, start_line = _start(body, n), n
            continue
        v = start.rules
        if result is not None:
            raise RecordError(n, f"nothing may follow the result line (line {result.line})")
        if body.startswith("start"):
            raise RecordError(n, f"a second start line (the first is line {start_line})")
        if body.startswith("winner") and _RESULT.match(body):
            m = _RESULT.match(body)
            try:
                winner = v.colour(m["winner"], "winner")
                loser = v.colour(m["loser"], "loser")
            except OddsbotError as exc:
                raise RecordError(n, f"result line: {exc}") from None
            money = None if m["money"] is None else _ints(m["money"], n, start.players,
                                                          "money")
            result = RecordResult(n, winner, loser, money)
            continue
        turns.append(_turn(v, body, n, start.players, len(turns) + 1))
    if start is None:
        raise RecordError(max(lines, 1), "no 'start <position notation>' line: the record "
                                         "is empty")
    return Record(start, start_line, tuple(turns), result, lines)


def _turn(v: Variant, body: str, n: int, players: int, expected: int) -> RecordTurn:
    left, bar, right = body.partition("|")
    money = None
    if bar:
        words = right.split()
        if len(words) != 2 or words[0] != "money":
            raise RecordError(n, f"cannot read {quote(body)}: after '|' expected 'money "
                                 f"<m0>,<m1>,...'")
        money = _ints(words[1], n, players, "money")
    act, arrow, die_text = left.partition("->")
    m = _TURN.match(act.strip())
    if not m:
        raise RecordError(n, f"cannot read {quote(body)} (expected '{TURN_SYNTAX}', "
                             f"'winner <colour> loser <colour>' or a '#' comment)")
    number = None if m["number"] is None else record_int(m["number"], n, "turn number")
    if number is not None and number != expected:
        raise RecordError(n, f"turn number {number} out of sequence: expected {expected}")
    return read_turn(v, m["action"], die_text.strip() if arrow else None, n,
                     record_int(m["seat"], n, "seat"), number, money)


def read_turn(v: Variant, action: str, die_text: str | None, n: int, player: int,
              number: int | None = None, money: tuple[int, ...] | None = None) -> RecordTurn:
    """The turn of line ``n``: ``player`` takes ``action`` (a label), revealing
    ``die_text`` (a pyramid action's die, and only its; None: no ``->``)."""
    code, label = _action(v, action, n)
    die = face = -1
    roll = None
    if code == K.A_PYRAMID and die_text is None:
        raise RecordError(n, "pyramid without its die result (write e.g. 'pyramid -> "
                             "green 2' or 'pyramid -> grey white 1')")
    if die_text is not None:
        if code != K.A_PYRAMID:
            raise RecordError(n, f"a die result on {quote(label)}: only a pyramid action "
                                 f"reveals a die")
        die, face, roll = parse_die(v, die_text, n)
    return RecordTurn(n, number, player, label, code, roll, die, face, money)


# --------------------------------------------------------------------------- replay


def _money(st: np.ndarray, players: int) -> tuple[int, ...]:
    return tuple(int(st[K.MONEY + p]) for p in range(players))


def _why_illegal(v: Variant, st: np.ndarray, turn: RecordTurn, legal: list[int],
                 players: int) -> str:
    """Why ``turn`` is refused, in words, from the kernel's own legal list."""
    label, p = turn.action, turn.player
    kind = label.split()[0]
    same = [action_label(v, a) for a in legal if action_label(v, a).split()[0] == kind]
    head = f"{label!r} is not legal for p{p} here"
    if kind == "ticket":
        left = ", ".join(a.split()[1] for a in same)
        return f"{head}: no {label.split()[1]} betting ticket left (left: {left or 'none'})"
    if K.A_SPECTATOR <= turn.code < K.A_WINNER:
        spaces = sorted({int(a.split()[1]) for a in same})
        return (f"{head}: {v.tile_word} tiles may go on spaces "
                f"{', '.join(map(str, spaces)) or 'none'} (empty, not space 1, not next to "
                f"another player's tile, not where p{p}'s tile already is)")
    if kind in ("winner", "loser"):
        left = sorted({a.split()[1] for a in legal_labels(v, legal)
                       if a.split()[0] in ("winner", "loser")}, key=v.colours.index)
        return (f"{head}: p{p} has already placed their {label.split()[1]} finish card "
                f"(in hand: {', '.join(left) or 'none'})")
    if kind == "partner":
        if not (v.partnerships and players >= 6):
            return (f"{head}: partnerships are played only by 6-8 players of the 2nd "
                    f"edition, this is {v.id} with {players} players")
        if st[K.PARTNER + p] >= 0:
            return f"{head}: p{p} is already the partner of p{int(st[K.PARTNER + p])} this leg"
        seats = [a.split()[1] for a in same]
        return (f"{head}: partners available to p{p}: {', '.join(seats) or 'none'} "
                f"(a player already in a partnership, or oneself, cannot be chosen)")
    return head


def legal_labels(v: Variant, legal: list[int]) -> list[str]:
    return [action_label(v, a) for a in legal]


def step(v: Variant, st: np.ndarray, turn: RecordTurn, players: int) -> None:
    """Play ``turn`` on the kernel state ``st`` (``K.apply_action``), once checked: made by
    the player to move, legal (``K.legal_actions``), a pyramid action's die still in the
    pyramid (``RecordError`` of the turn's line otherwise)."""
    n = turn.line
    to_move = int(st[K.TO_MOVE])
    if turn.player != to_move:
        raise RecordError(n, f"wrong seat: p{turn.player} is not to move, it is "
                             f"p{to_move}'s turn")
    legal = [int(a) for a in K.legal_actions(st)]
    if turn.code not in legal:
        raise RecordError(n, _why_illegal(v, st, turn, legal, players))
    if turn.code == K.A_PYRAMID and not st[K.PYR + turn.die]:
        inside = [d for i, d in enumerate(v.dice) if st[K.PYR + i]]
        raise RecordError(n, f"the {v.dice[turn.die]} die is not in the pyramid "
                             f"(inside: {', '.join(inside)})")
    K.apply_action(st, turn.code, turn.die, turn.face)


def replay(record: Record) -> Replay:
    """Play ``record`` through the kernel: a list of (position before the turn, turn).

    Every turn must be made by the player to move, be legal (``K.legal_actions``), and a
    pyramid action's die must still be in the pyramid; a written ``| money`` must equal
    the money after the turn; no turn may follow the end of the game; a result line must
    match the final ranking and money. The first failure raises ``RecordError``."""
    pos = record.start
    v = pos.rules
    players = pos.players
    st = encode(pos)
    out = Replay()
    ended_at = 0
    for turn in record.turns:
        n = turn.line
        if ended_at:
            raise RecordError(n, f"the game ended at line {ended_at}; only the result line "
                                 f"'winner <colour> loser <colour>' may follow")
        out.append((pos, turn))
        step(v, st, turn, players)
        money = _money(st, players)
        if turn.money is not None and turn.money != money:
            raise RecordError(n, f"money mismatch: the record says "
                                 f"{','.join(map(str, turn.money))}, the replay gives "
                                 f"{','.join(map(str, money))}")
        if st[K.STATUS]:
            ended_at = n
        else:
            pos = decode(st, v.id, players)
    out.money = _money(st, players)
    out.over = bool(st[K.STATUS])
    out.final = None if out.over else decode(st, v.id, players)
    if out.over:
        out.winner, out.loser = race_result(v, st)
    else:
        out.to_move = int(st[K.TO_MOVE])
    res = record.result
    if res is not None:
        check_result(res, out.over, f"the game is not over: p{out.to_move} is to move",
                     out.winner, out.loser, out.money)
    return out


def race_result(v: Variant, st: np.ndarray) -> tuple[str, str]:
    """The winner and the loser of the race of the kernel state ``st`` (``K.ranking``)."""
    order = np.empty(K.N_RACING, dtype=np.int64)
    K.ranking(st, order)
    return v.colours[order[0]], v.colours[order[-1]]


def load_record(text: str) -> tuple[Record, Replay]:
    """Parse and replay ``text``, reporting the first bad line of the file: a line the
    replay refuses is reported before a later line that cannot be read."""
    return load(text, parse_record, replay)


# --------------------------------------------------------------------------- records out


def policies() -> tuple[str, ...]:
    """The simulation policies known right now (``simulate.POLICIES``)."""
    module = importlib.import_module(f"{__package__}.simulate")
    return tuple(module.POLICIES)


def play(players: int, seed: int, variant_id: str, policy: str) -> str:
    """The record of a whole simulated game: a random start from ``seed`` played out
    with every seat following ``policy`` (``oddsbot new camel-up --play``)."""
    known = policies()
    if policy not in known:
        raise OddsbotError(f"--play: unknown policy {policy!r} (known: {', '.join(known)})")
    from .simulate import new_position, simulate

    return simulate(new_position(players, seed, variant_id), seed=seed, policy=policy).text()


# --------------------------------------------------------------------------- annotation


def viewpoint(pos: Position, seat: int | None = None) -> Position:
    """``pos`` as ``seat`` (default: the player to move) sees it: the colours of the other
    players' finish cards on the decks (and so the hands of those who placed any) are
    hidden."""
    me = pos.to_move if seat is None else seat

    def hide(deck: tuple[Card, ...]) -> tuple[Card, ...]:
        return tuple(c if c.owner == me else Card(c.owner, None) for c in deck)

    winner, loser = hide(pos.winner_deck), hide(pos.loser_deck)
    hands = tuple(h if p == me or not any(c.owner == p for c in winner + loser) else None
                  for p, h in enumerate(pos.finish_hand))
    return pos.with_(winner_deck=winner, loser_deck=loser, finish_hand=hands)


ANNOTATION_COLUMNS = ["turn", "player", "action", "roll", "ev", "best", "best_ev", "ev_lost"]


def annotate(steps: list[tuple[Position, RecordTurn]], *, samples: int = 20000, seed: int = 0,
             deck_model: str = "uniform", rollouts: int | None = None,
             policy: str | None = None, exact_budget: str | None = None,
             progress: Callable[[int, int], None] | None = None) -> Table:
    """One row per turn: the action taken and its one-turn EV, the best action by
    one-turn EV, and the EV lost (best - taken, 0 if the taken action is best); with
    ``rollouts``, also the taken action's rollout equity ``win_p``, the best action by
    rollout equity and the equity lost. Each turn is valued from the mover's point of
    view (``viewpoint``) with ``advise(samples=..., seed=...)``; a pyramid action is
    valued before its die is known (its row of the EV table). The SEs of the sampled
    values: ``SE_COLUMNS`` (``se_fields``; advise values every race bet on the same races,
    with no paired SE of ev, so ``ev_lost_se`` is the bound ``ev_se + best_ev_se``), and
    with rollouts ``ROLLOUT_SE_COLUMNS`` (equity_lost_se: advise's paired ``gap_se``)."""
    from .advise import advise

    rows = []
    extra = {} if exact_budget is None else {"exact_budget": exact_budget}
    if rollouts is not None:
        extra["rollouts"] = rollouts
        if policy is not None:
            extra["policy"] = policy
    for i, (pos, turn) in enumerate(steps, start=1):
        table = advise(viewpoint(pos), samples=samples, seed=seed, deck_model=deck_model,
                       **extra)
        actions = table.dicts()
        taken = next(a for a in actions if a["action"] == turn.action)
        best = max(actions, key=lambda a: a["ev"])  # the first of the best
        lost = max(0.0, float(best["ev"]) - float(taken["ev"]))
        row = {"turn": i, "player": turn.player, "action": turn.action,
               "roll": turn.roll or "", "ev": float(taken["ev"]), "best": best["action"],
               "best_ev": float(best["ev"]), "ev_lost": lost,
               **se_fields(lost, taken, best, taken is best)}
        if rollouts is not None:
            rolled = rollout_fields(float(taken["win_p"]),
                                    ((a["action"], a["win_p"]) for a in actions))
            row.update(rolled, **rollout_se_fields(
                rolled, turn.action, {a["action"]: a["win_se"] for a in actions},
                {a["action"]: a["gap_se"] for a in actions}))
        rows.append(row)
        if rollouts is not None:  # the policy advise used (its default if none was given)
            policy = table.provenance.get("policy", policy)
        if progress is not None:
            progress(i, len(steps))
    return annotation_table(
        "camel-up", ANNOTATION_COLUMNS, rows, steps, seed=seed, samples=samples,
        deck_model=deck_model, rollouts=rollouts, policy=policy,
        ev="one-turn EV in EP (oddsbot advise) from the mover's point of view: other "
           "players' finish-card colours hidden; a pyramid action valued before its die")


def table_view(table: Table, wide: bool = False) -> Table:
    """The replay table as people read it. Compact (fits 80 columns): turn, player, the
    action with its roll, then the best action by one-turn EV and the EV lost, or with
    rollouts the best action by rollout equity and the equity lost. ``wide``: every
    column."""
    if wide:
        return table
    action = [f"{a}: {r}" if r else a for a, r in zip(table["action"], table["roll"])]
    shown = ["best_rollout", "equity_lost"] if "best_rollout" in table else \
        ["ev", "best", "ev_lost"]
    return Table.from_columns({"turn": table["turn"], "player": table["player"],
                               "action": action} | {c: table[c] for c in shown})


def status(steps: Replay) -> str:
    """How the record ends, for the ``record OK`` line."""
    return (f"game over: winner {steps.winner}, loser {steps.loser}" if steps.over
            else f"game not over: p{player_name(steps.final, steps.to_move)} to move")


def result(steps: Replay) -> dict | None:
    """The race result and final money (EP) of a finished game, else None."""
    return ({"winner": steps.winner, "loser": steps.loser, "money": list(steps.money)}
            if steps.over else None)


def caption(steps: Replay, lost: list[float], *, samples: int, seed: int,
            rollouts: int | None) -> str:
    """The caption of the terminal replay table."""
    return (f"EV in EP, one turn, the mover's view · race exact where it fits the budget, "
            f"else MC {samples:,} samples, seed {seed}"
            + (f" · {rollouts:,} rollouts" if rollouts else "")
            + " · EV lost: " + ", ".join(f"p{player_name(steps.final, p)} {x:.2f}"
                                         for p, x in enumerate(lost))
            + (f" · winner {steps.winner}, loser {steps.loser}, money "
               f"{','.join(map(str, steps.money))}" if steps.over else ""))
