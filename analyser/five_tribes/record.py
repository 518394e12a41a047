"""Game records: a whole Five Tribes game as plain text, checked and annotated
(docs/games/five-tribes.md §19.4, §19.6).

The format is what ``GameResult.text()`` writes (``oddsbot new five-tribes --play
POLICY``)::

    # comments and blank lines are ignored (a '#' starts a comment anywhere)
    start <notation>                          the position before the first line
    [round <R>] p<P> <action> [| value <V>] [| totals <t0>,<t1>,...]
    drew cards <codes> | drew meeples <letters> | drew djinns <names>
    refill res=<codes> dj=<names>             the clean-up after a round's last turn
    score p<P> <part> <VP> [<part> <VP> ...]  once the game is over
    winner p<P>[,p<Q>...]

* ``<action>`` is a bid or a complete turn worded as ``oddsbot advise`` words them
  (``labels``): ``bid 18``, ``bid 12 kumarbi 1``, ``bid 0``; a turn as played, e.g.
  ``r0c2>r0c3:W>r0c4:R>r0c5:Y; take 3Y; palace``. ``round`` (counted from the first line's,
  1 if it has none), ``value`` (what the player's policy valued the action at; read, not
  checked) and ``totals`` (everyone's final score if the game ended after the line) may be
  left out; a given round or totals must be right.
* ``drew`` lines follow the turn that drew, one per draw with more than one possible
  outcome, in the order made (§20.6: Sloar's and Kandicha's cards as card codes, Anun-Nak's
  meeples as colour letters, Sibittis' djinns by name); a draw with a single possible
  outcome is not written.
* ``refill`` gives the resource row (front first) and the djinn display after the
  clean-up (§4.3), as the notation writes them (``-``: empty); it follows every round's
  last turn, the last round's included.
* ``score`` lines (a part may be left out) and the ``winner`` line come after the last
  clean-up, the winner line last.

``parse_record`` reads the text (syntax); ``replay`` plays it through the kernel and checks
every line: the player to move, a bid among the legal bids, a turn among the legal turns
(``play_label``: every choice after the sowing one the kernel offers, the draws as
recorded), the totals, refills the decks allow, the final scores and the winners. Every
problem is a ``RecordError`` (``records_common``) whose message starts ``line N:``;
``load_record`` reports the first bad line of the file. ``annotate`` values each line with
``advise``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from ...kernels import five_tribes as FT
from ...errors import QUOTE_LIMIT, OddsbotError, PositionError, quote
from ..records_common import (  # noqa: F401 (ev_lost_by_player: the RecordFace's)
    RecordError, annotation_table, body_lines, ev_lost_by_player, load,
    record_int, rollout_fields, rollout_se_fields, se_fields, start_position,
)
from ..table import Table
from . import names
from .encode import decode, encode
from .labels import THEN_BEST, bid_label, turn_labels
from .notation import NOTATION_KEYS, parse_notation
from .position import Position
from .validate import validate

PARTS = FT.SCORE_PARTS  # a score line's parts, the total last
DRAW_KINDS = ("cards", "meeples", "djinns")  # a drew line's kinds (OP_CARDS ... order)
ANNOTATION_COLUMNS = ["turn", "round", "player", "action", "drew", "ev_taken", "best",
                      "best_ev", "ev_lost"]
LEGAL_SHOWN = 60  # characters of legal choices named in a refusal
TURN_SYNTAX = "[round <R>] p<P> <action> [| value <V>] [| totals <t0>,<t1>,...]"
SOWING_EXAMPLE = "'r0c2>r0c3:W>r1c3:Y' or 'no sowing'"
_SOWING = re.compile(r"r([0-4])c([0-5])((?:>r[0-4]c[0-5]:[YWBGR])+)")
_STEP = re.compile(r">r([0-4])c([0-5]):([YWBGR])")
# a line's value: ASCII digits, at most 18 before and after the point, a 2-digit exponent
# (``+g`` of a float), so it is always a finite float
_NUMBER = re.compile(r"[+-]?[0-9]{1,18}(?:\.[0-9]{1,18})?(?:e[+-]?[0-9]{1,2})?")


# --------------------------------------------------------------------------- the lines


@dataclass(frozen=True)
class Draw:
    """A ``drew`` line: what one draw of the turn above it gave, canonically worded
    (``cards fi,wh``, ``meeples YWR``, ``djinns Baal,Leta,Sloar``); or, for a line that
    cannot be read, None and why (reported when the replay reaches it: the turn above it
    comes first)."""

    line: int
    text: str | None
    unread: str | None = None

    @property
    def kind(self) -> str:
        return self.text.split()[0]

    def read(self) -> Draw:
        """This draw, a ``RecordError`` if its line cannot be read."""
        if self.unread is not None:
            raise RecordError(self.line, self.unread)
        return self


@dataclass(frozen=True)
class RecordTurn:
    """A bid or turn line as written (``action`` with its spacing made single)."""

    line: int
    round: int | None
    player: int
    action: str
    value: float | None  # the value the player's policy gave it (VP), not checked
    totals: tuple[int, ...] | None  # everyone's final score after it, if written
    draws: tuple[Draw, ...] = ()

    @property
    def is_bid(self) -> bool:
        return self.action.split()[0] == "bid"


@dataclass(frozen=True)
class Refill:
    """A ``refill`` line: the resource row (``names.CARDS``, front first) and the djinn
    display after the clean-up."""

    line: int
    resources: tuple[str, ...]
    djinns: tuple[str, ...]


@dataclass(frozen=True)
class Score:
    """A ``score`` line: parts (``PARTS`` names) -> VP."""

    line: int
    player: int
    parts: dict[str, int]


@dataclass(frozen=True)
class Winner:
    line: int
    seats: tuple[int, ...]


Entry = RecordTurn | Refill | Score | Winner


@dataclass(frozen=True)
class Record:
    start: Position
    start_line: int
    entries: tuple[Entry, ...]
    lines: int  # lines in the text


@dataclass(frozen=True)
class Played:
    """A bid or turn line as replayed: ``action`` the canonical label, ``drew`` the draws'
    canonical words, ``gain`` the exact change of the mover's final score it made (VP, as
    played), ``decision`` the label of the ``advise`` row it was chosen from (the action,
    or for a turn that drew, its words up to the first draw and ``; then best``), ``row``
    the kernel action row of a turn (None for a bid)."""

    line: int
    round: int
    player: int
    action: str
    drew: tuple[str, ...]
    gain: int
    decision: str
    row: np.ndarray | None = None


class Replay(list):
    """``replay``'s answer: a list of (position before the line's action, ``Played``), one
    per bid or turn, and how the record ends: ``final`` (the position after its last line),
    ``round``, ``to_move`` (None when the game is over or its clean-up is due), ``due``
    (the line after which the round's clean-up is due, 0 if none), ``over`` with the final
    ``scores`` (per player, ``PARTS``) and ``winners``."""

    final: Position | None = None
    round: int = 1
    to_move: int | None = None
    due: int = 0
    over: bool = False
    scores: tuple[tuple[int, ...], ...] = ()
    winners: tuple[int, ...] = ()


# --------------------------------------------------------------------------- parsing


def _ints(text: str, line: int, players: int, what: str) -> tuple[int, ...]:
    values = tuple(record_int(x, line, f"{what}[{i}]") for i, x in enumerate(text.split(",")))
    if len(values) != players:
        raise RecordError(line, f"{what}: {len(values)} entries for {players} players")
    return values


def _seat(text: str, line: int, what: str) -> int:
    """``p<seat>`` -> the seat."""
    if not re.fullmatch(r"p[0-9]+", text):
        raise RecordError(line, f"{what}: expected p<seat>, got {quote(text)}")
    return record_int(text[1:], line, what)


def _start(text: str, line: int) -> Position:
    return start_position(
        text, line, parse_notation, validate,
        lambda pos: "every player's gold (no secret gold)"
        if any(p.gold_range is not None for p in pos.players) else None, NOTATION_KEYS)


def _read_turn(body: str, n: int, players: int) -> RecordTurn:
    head, *tails = body.split("|")
    words = head.split()
    number = None
    if words[0] == "round":
        number = record_int(words[1], n, "round", 1) if len(words) > 1 else None
        words = words[2:]
    if len(words) < 2 or not re.fullmatch(r"p[0-9]+", words[0]):
        raise RecordError(n, f"cannot read {quote(body)} (expected '{TURN_SYNTAX}', 'drew "
                             f"...', 'refill ...', 'score ...', 'winner ...' or a '#' "
                             f"comment)")
    value = totals = None
    for tail in tails:
        key, *rest = tail.split() or [""]
        if key == "value" and value is None and len(rest) == 1 and _NUMBER.fullmatch(rest[0]):
            value = float(rest[0])
        elif key == "totals" and totals is None and len(rest) == 1:
            totals = _ints(rest[0], n, players, "totals")
        else:
            raise RecordError(n, f"cannot read {quote(tail.strip())}: after '|' expected "
                                 f"'value <V>' or 'totals <t0>,<t1>,...', once each")
    return RecordTurn(n, number, _seat(words[0], n, "player"), " ".join(words[1:]), value,
                      totals)


def _read_draw(body: str, n: int) -> Draw:
    words = body.split(None, 2)
    if len(words) != 3 or words[1] not in DRAW_KINDS:
        return Draw(n, None, f"cannot read {quote(body)} (expected 'drew cards <codes>', "
                             f"'drew meeples <letters>' or 'drew djinns <names>')")
    kind, items = words[1], words[2].replace(" ", "")
    try:
        if kind == "cards":
            cards = names.sorted_cards(names.card(x, "drew") for x in items.split(","))
            words_ = ",".join(names.CARD_CODES[names.CARDS.index(c)] for c in cards)
        elif kind == "meeples":
            words_ = names.meeples(items.replace(",", ""), "drew")
        else:
            words_ = ",".join(map(names.djinn_token, names.sorted_djinns(
                names.djinn(x, "drew") for x in items.split(","))))
    except PositionError as exc:
        return Draw(n, None, f"cannot read {quote(body)}: {exc.reason}")
    return Draw(n, f"{kind} {words_}")


def _read_refill(body: str, n: int) -> Refill:
    given: dict[str, str] = {}
    for token in body.split()[1:]:
        key, eq, value = token.partition("=")
        if not eq or key not in ("res", "dj") or key in given:
            raise RecordError(n, f"cannot read {quote(body)} (expected 'refill res=<codes> "
                                 f"dj=<names>', each once)")
        given[key] = value
    if len(given) != 2:
        raise RecordError(n, "a refill line gives both res=<codes> and dj=<names> ('-' for "
                             "none)")
    items = {k: [] if v == "-" else v.split(",") for k, v in given.items()}
    try:
        return Refill(n, tuple(names.card(x, "res") for x in items["res"]),
                      tuple(names.djinn(x, "dj") for x in items["dj"]))
    except PositionError as exc:
        raise RecordError(n, f"refill line: {exc}") from None


def _read_score(body: str, n: int) -> Score:
    words = body.split()
    if len(words) < 4 or len(words) % 2:
        raise RecordError(n, f"cannot read {quote(body)} (expected 'score p<P> <part> <VP> "
                             f"...', parts: {', '.join(PARTS)})")
    parts: dict[str, int] = {}
    for key, value in zip(words[2::2], words[3::2]):
        if key not in PARTS or key in parts:
            raise RecordError(n, f"score line: {quote(key)} is not a part or is given twice "
                                 f"(parts: {', '.join(PARTS)})")
        parts[key] = record_int(value, n, key)
    return Score(n, _seat(words[1], n, "score"), parts)


def _read_winner(body: str, n: int) -> Winner:
    words = body.split()
    if len(words) != 2:
        raise RecordError(n, f"cannot read {quote(body)} (expected 'winner p<P>[,p<Q>...]')")
    return Winner(n, tuple(_seat(x, n, "winner") for x in words[1].split(",")))


def parse_record(text: str) -> Record:
    """Read a record (module doc). Raises ``RecordError`` at the first line that cannot be
    read; legality is ``replay``'s job."""
    start: Position | None = None
    start_line = 0
    entries: list[Entry] = []
    said, lines = body_lines(text)
    for n, body in said:
        if start is None:
            start, start_line = _start(body, n), n
            continue
        word = body.split()[0]
        if word == "start":
            raise RecordError(n, f"a second start line (the first is line {start_line})")
        if word == "drew":
            if not entries or not isinstance(entries[-1], RecordTurn):
                raise RecordError(n, "a drew line must follow the turn line that drew")
            last = entries[-1]
            entries[-1] = RecordTurn(last.line, last.round, last.player, last.action,
                                     last.value, last.totals, (*last.draws, _read_draw(body, n)))
        elif word == "refill":
            entries.append(_read_refill(body, n))
        elif word == "score":
            entries.append(_read_score(body, n))
        elif word == "winner":
            entries.append(_read_winner(body, n))
        else:
            entries.append(_read_turn(body, n, start.n_players))
    if start is None:
        raise RecordError(max(lines, 1), "no 'start <position notation>' line: the record "
                                         "is empty")
    return Record(start, start_line, tuple(entries), lines)


# --------------------------------------------------------------------------- one turn


@dataclass(frozen=True)
class Outcome:
    """One possible outcome of a draw: the state after it, its words (``Draw.text``) and
    its probability."""

    state: np.ndarray
    text: str
    p: float


# how a draw falls: (state before it, mover, its kind and argument (``FT.OP_*``), the
# possible outcomes, how many draws the turn made before) -> the outcome
DrawSource = Callable[[np.ndarray, int, int, int, list[Outcome], int], Outcome]


@dataclass(frozen=True)
class PlayedTurn:
    """A complete turn played from its label (``play_label``)."""

    state: np.ndarray  # after the turn
    row: np.ndarray  # its kernel action row
    drew: tuple[str, ...]  # the draws with more than one outcome, in the order made
    decision: str  # the label of the advise row it was chosen from (``Played``)


class TurnRefused(OddsbotError):
    """A turn label that no legal play matches; the message says why."""


def _cards(st: np.ndarray, mover: int) -> np.ndarray:
    """The mover's cards per kind (``names.CARDS`` order)."""
    base = FT.P_GOODS + mover * FT.N_GOODS
    return np.append(st[base:base + FT.N_GOODS], st[FT.P_FAKIRS + mover])


def outcomes(s: np.ndarray, mover: int, op: int, arg: int) -> list[Outcome]:
    """Every distinct outcome of the draw ``op``/``arg`` (``FT.OP_*`` and its argument, as
    the kernel's turn walk makes it) from state ``s``, in the kernel's order: the cards the
    mover draws, the meeples drawn onto a tile (Anun-Nak), the djinns Sibittis draws."""
    if op == FT.OP_SIBITTIS:
        out = []
        draws = FT.sibittis_draws(s, arg)  # all equally likely
        for drawn, deck, discard in zip(*draws):
            t = s.copy()
            t[FT.DRAWN], t[FT.DJINN_DECK], t[FT.DJINN_DISCARD] = drawn, deck, discard
            text = ",".join(names.djinn_token(d) for i, d in enumerate(names.DJINN_NAMES)
                            if (int(drawn) >> i) & 1)
            out.append(Outcome(t, f"djinns {text}", 1 / len(draws[0])))
        return out
    n, tile = (arg, -1) if op == FT.OP_CARDS else (arg % 4, arg // 4)
    cap = (10 if op == FT.OP_CARDS else 5) ** n
    states = np.empty((cap, FT.STATE_SIZE), dtype=np.int64)
    probs = np.empty(cap)
    if op == FT.OP_CARDS:
        m = FT.draw_cards(s, mover, n, states, probs)
        gained = [_cards(t, mover) - _cards(s, mover) for t in states[:m]]
        return [Outcome(t, "cards " + ",".join(code for code, k in zip(names.CARD_CODES, g)
                                               for _ in range(k)), float(p))
                for t, g, p in zip(states[:m], gained, probs[:m])]
    m = FT.draw_meeples(s, tile, n, states, probs)
    cell = slice(FT.T_MEEPLES + tile * FT.N_COLOURS, FT.T_MEEPLES + (tile + 1) * FT.N_COLOURS)
    return [Outcome(t, "meeples " + "".join(c * int(k) for c, k in
                                            zip(FT.COLOURS, t[cell] - s[cell])), float(p))
            for t, p in zip(states[:m], probs[:m])]


def drawn_as(after: np.ndarray) -> DrawSource:
    """``DrawSource`` of the kernel's whole-game policies (``heuristic``, ``random``): their
    one draw, Kandicha's card (``FT.play_turn_drawing``), is read off the state the turn
    left, ``after``: nothing later in a turn changes the resource deck."""
    deck = slice(FT.RES_DECK, FT.RES_DECK + FT.N_CARD_KINDS)

    def draw(s: np.ndarray, mover: int, op: int, arg: int, outs: list[Outcome],
             k: int) -> Outcome:
        return next(o for o in outs if np.array_equal(o.state[deck], after[deck]))
    return draw


def realised(rng: np.ndarray) -> DrawSource:
    """``DrawSource`` of the greedy policy: each draw as ``FT.realise`` makes it from the
    stream ``rng`` (a copy of the stream as it was before the turn; advanced)."""
    def draw(s: np.ndarray, mover: int, op: int, arg: int, outs: list[Outcome],
             k: int) -> Outcome:
        t = s.copy()
        FT.realise(t, mover, op, arg, rng)
        return next(o for o in outs if np.array_equal(o.state, t))
    return draw


def sowing_fault(st: np.ndarray, start: int, path: list[int], colours: list[int]) -> str | None:
    """Why the sowing (start tile, tiles stepped on, colours dropped; tile and colour
    indices) is not legal on ``st``'s board (docs/games/five-tribes.md §7.1, §7.4), or None
    if it is."""
    counts = FT.meeples(st)
    name = FT.tile_name
    held = "".join(c * int(k) for c, k in zip(FT.COLOURS, counts[start]))
    dropped = "".join(sorted((FT.COLOURS[c] for c in colours), key=FT.COLOURS.index))
    if not held:
        return f"{name(start)} holds no meeple"
    if held != dropped:
        return f"{name(start)} holds {held}: its sowing drops exactly those, not {dropped}"
    previous, here = -1, start
    for t in path:
        if t not in FT.NEIGHBOURS[here]:
            return f"{name(t)} is not next to {name(here)}"
        if t == previous:
            return f"the step from {name(here)} to {name(t)} goes straight back"
        previous, here = here, t
    last, colour = path[-1], colours[-1]
    there = last != start and counts[last, colour] > 0
    earlier = any(t == last and c == colour for t, c in zip(path[:-1], colours[:-1]))
    if there or earlier and st[FT.END_RULE] == FT.LIVE:
        return None
    letter = FT.COLOURS[colour]
    return (f"its last meeple {letter} lands on {name(last)}, which held no {letter} before "
            f"the sowing" + (" (the pre-move end rule, §7.4)" if earlier else ""))


def _read_sowing(text: str) -> tuple[int, list[int], list[int]] | None:
    """(start tile, path, colours) of ``r2c2>r2c3:Y>r2c4:W``, or None."""
    m = _SOWING.fullmatch(text)
    if m is None:
        return None
    steps = _STEP.findall(m[3])
    return (int(m[1]) * FT.COLS + int(m[2]), [int(r) * FT.COLS + int(c) for r, c, _ in steps],
            [FT.COLOURS.index(k) for _, _, k in steps])


class _Search:
    """The choices of a turn whose label is ``label``, found by walking the kernel's own
    choices (``FT.window_options``, ``tribe_choices``, ``tile_choices``, the sales) in the
    order of docs/games/five-tribes.md §20.4 and keeping those whose words begin the label;
    the sowing is read from the label and checked (``sowing_fault``); a draw falls as
    ``draw`` says. With ``then_best``, a label ending ``; then best`` (an ``advise`` row
    ending in a draw, docs/games/five-tribes.md §20.5) is played up to its draw, which
    falls as ``draw`` says, and then the greedy rest for what was drawn (``best_rest``)."""

    def __init__(self, st: np.ndarray, label: str, draw: DrawSource,
                 then_best: bool = False) -> None:
        self.label, self.draw, self.start = label, draw, st
        self.rest_after = (label.removesuffix("; " + THEN_BEST)
                           if then_best and label.endswith("; " + THEN_BEST) else None)
        self.mover = int(st[FT.TO_MOVE])
        self.types = tuple(FT.TILE_TYPES[k] for k in st[FT.T_TYPE:FT.T_TYPE + FT.N_TILES])
        self.why = (-1, "no legal turn reads it")  # (words matched, why) of the deepest miss

    def _said(self, rows: list[np.ndarray], steps: list[int]) -> list[str]:
        """The words of partial action rows, each up to the step it goes on with."""
        stack = np.array(rows)
        stack[:, FT.A_END] = [-1 if step == FT.S_DONE else step for step in steps]
        return [w.removesuffix(THEN_BEST).removesuffix("; ")
                for w in turn_labels(stack, self.types)]

    def _fits(self, words: str) -> bool:
        return not words or self.label == words or self.label.startswith(words + "; ")

    @staticmethod
    def _next(words: str, prefix: str) -> str:
        """The part of ``words`` after ``prefix`` (words that begin them), up to the next
        ';'."""
        return words[len(prefix):].removeprefix("; ").split("; ", 1)[0]

    def _miss(self, words: str, why: str) -> None:
        """Keep ``why`` the label cannot go on after ``words`` if no miss went further."""
        if len(words) > self.why[0]:
            self.why = (len(words), why)

    def walk(self, s: np.ndarray, act: np.ndarray, step: int, drew: tuple[str, ...],
             decision: str | None) -> Iterator[PlayedTurn]:
        """Every way to finish the turn from ``step`` (``FT.S_*``) in state ``s`` with the
        choices so far in ``act``, the draws made so far ``drew`` and the label of the row
        it was chosen from once a draw is made (``decision``)."""
        if step == FT.S_SOW:
            yield from self._sow(s, act, drew, decision)
            return
        if step in (FT.S_TRIBE, FT.S_TILE) and act[FT.A_LEN] == 0:
            yield from self.walk(s, act, step + 1, drew, decision)
            return
        children = []
        if step == FT.S_SALE:
            for mask in range(1 << int(FT.suits(s, self.mover, np.zeros(64, dtype=np.int64)))):
                s2, a2 = s.copy(), act.copy()
                a2[FT.A_SALE], a2[FT.A_SALE_GOLD] = mask, FT.apply_sale(s2, self.mover, mask)
                children.append((s2, a2, FT.S_DONE, FT.OP_NONE, 0))
        else:
            if step == FT.S_TRIBE:
                options = FT.tribe_choices(s, act, self.mover)
            elif step == FT.S_TILE:
                options = FT.tile_choices(s, act, self.mover)
            else:
                options = FT.window_options(s, self.mover, step)
            for opt in options:
                s2, a2 = s.copy(), act.copy()
                if step == FT.S_TRIBE:
                    nxt, op, arg = FT.play_tribe_choice(s2, a2, self.mover, opt)
                elif step == FT.S_TILE:
                    nxt, op, arg = FT.play_tile_choice(s2, a2, self.mover, opt), FT.OP_NONE, 0
                else:
                    nxt, op, arg = FT.play_window(s2, a2, self.mover, step, opt)
                children.append((s2, a2, int(nxt), int(op), int(arg)))
        said = self._said([c[1] for c in children], [c[2] for c in children])
        for (s2, a2, nxt, op, arg), words in zip(children, said):
            if nxt == FT.S_DONE:
                if words == self.label:
                    if not s2[FT.DJINN_PER_ROUND]:
                        s2[FT.P_USED + self.mover] = 0
                    yield PlayedTurn(s2, a2, drew, decision or self.label)
                continue
            if not self._fits(words):
                continue
            if op == FT.OP_NONE:
                yield from self.walk(s2, a2, nxt, drew, decision)
                continue
            outs = outcomes(s2, self.mover, op, arg)
            if len(outs) == 1:  # a certain draw: as the kernel's walk, not written
                yield from self.walk(outs[0].state, a2, nxt, drew, decision)
                continue
            got = self.draw(s2, self.mover, op, arg, outs, len(drew))
            if words == self.rest_after and not drew:
                yield self.best_rest(got.state, a2, nxt, (got.text,))
                continue
            yield from self.walk(got.state, a2, nxt, (*drew, got.text),
                                 decision or f"{words}; {THEN_BEST}")
        before = self._said([act], [step])[0]
        what = ("the turn is not over" if self.label == before else
                f"no legal choice reads {quote(self._next(self.label, before))}")
        others = sorted({self._next(w, before) for w in said if w != before
                         and w.startswith(before)})
        shown = []  # the first few, within LEGAL_SHOWN characters: the message stays short
        for other in others:
            if len(", ".join(shown + [other])) > LEGAL_SHOWN:
                break
            shown.append(other)
        legal = f" (legal here: {', '.join(shown)}{', ...' * (len(shown) < len(others))})"
        self._miss(before, (f"after {quote(before)}, " if before else "") + what
                   + (legal if others else ""))

    def best_rest(self, s: np.ndarray, act: np.ndarray, step: int,
                  drew: tuple[str, ...]) -> PlayedTurn:
        """The rest of the turn after its first draw, as the greedy player plays it
        (``FT.greedy_rest``, docs/games/five-tribes.md §20.9), a later draw falling as
        ``draw`` says."""
        row, s, (op, arg, step) = FT.greedy_rest(self.start, s, act, step)
        while op != FT.OP_NONE:
            outs = outcomes(s, self.mover, int(op), int(arg))
            got = outs[0] if len(outs) == 1 else self.draw(s, self.mover, int(op), int(arg),
                                                           outs, len(drew))
            drew += () if len(outs) == 1 else (got.text,)
            row, s, (op, arg, step) = FT.greedy_rest(self.start, got.state, row, step)
        if not s[FT.DJINN_PER_ROUND]:
            s[FT.P_USED + self.mover] = 0
        return PlayedTurn(s, row, drew, self.label)

    def _sow(self, s: np.ndarray, act: np.ndarray, drew: tuple[str, ...],
             decision: str | None) -> Iterator[PlayedTurn]:
        """The sowing step: the sowing the label names, checked, or none."""
        before = self._said([act], [FT.S_SOW])[0]
        text = self._next(self.label, before)
        a2 = act.copy()
        if text == "no sowing":
            if FT.sowing_exists(FT.meeples(s), s[FT.END_RULE], FT.walk_tables_once()[1]):
                self._miss(before, f"'no sowing', but p{self.mover} has a legal sowing")
                return
            yield from self.walk(s, a2, FT.S_TRIBE, drew, decision)
            return
        read = _read_sowing(text)
        if read is None:
            self._miss(before, f"cannot read the sowing {quote(text)} (e.g. {SOWING_EXAMPLE})")
            return
        start, path, colours = read
        fault = sowing_fault(s, start, path, colours)
        if fault is not None:
            self._miss(before, f"illegal sowing {text}: {fault}")
            return
        s2 = s.copy()
        FT.play_sowing_of(s2, a2, self.mover, start, np.array(path, dtype=np.int64),
                          np.array(colours, dtype=np.int64), len(path))
        words = self._said([a2], [FT.S_TRIBE])[0]
        if not self._fits(words):
            self._miss(before, f"the sowing {text} gives {quote(words.split('; ')[-1])}")
            return
        yield from self.walk(s2, a2, FT.S_TRIBE, drew, decision)


def play_label(st: np.ndarray, label: str, draw: DrawSource,
               then_best: bool = False) -> PlayedTurn:
    """The complete turn of the player to move in ``st`` (turns phase) that ``label``
    words, played on a copy: its choices are found among the kernel's (``_Search``), a
    draw falls as ``draw`` says; with ``then_best`` a label ending ``; then best`` is
    played too (``_Search``). Raises ``TurnRefused`` (why) when no legal turn reads
    ``label``."""
    search = _Search(st, label, draw, then_best)
    s = st.copy()
    FT.marker_to_bid_track(s)
    act = np.zeros(FT.ACTION_SIZE, dtype=np.int64)
    FT.clear_action(act)
    for played in search.walk(s, act, FT.S_PRE, (), None):
        return played
    raise TurnRefused(search.why[1])


def turn_draws(before: np.ndarray, label: str, after: np.ndarray,
               draw: DrawSource) -> tuple[str, ...]:
    """The draws (``Draw.text``) of a turn a simulation played from ``before`` to
    ``after`` (labelled ``label``), made as ``draw`` says: what its record's ``drew``
    lines say. Raises RuntimeError when the turn would not replay to ``after``."""
    played = play_label(before, label, draw)
    if not np.array_equal(played.state, after):
        raise RuntimeError(f"the turn {label!r} does not replay as played")
    return played.drew


# --------------------------------------------------------------------------- replay


def _totals(st: np.ndarray) -> tuple[int, ...]:
    return tuple(int(x) for x in FT.state_scores(st)[:, -1])


def _recorded(turn: RecordTurn) -> DrawSource:
    """``DrawSource`` of a replay: each draw as the turn's ``drew`` lines say."""
    def draw(s: np.ndarray, mover: int, op: int, arg: int, outs: list[Outcome],
             k: int) -> Outcome:
        kind = DRAW_KINDS[op - FT.OP_CARDS]
        if k >= len(turn.draws):
            raise RecordError(turn.line, f"the turn draws {kind} here: a line 'drew {kind} "
                                         f"...' after it must say what")
        got = turn.draws[k].read()
        if got.kind != kind:
            raise RecordError(got.line, f"the turn's draw here is of {kind}, not {got.kind}")
        for o in outs:
            if o.text == got.text:
                return o
        items = sorted({x for o in outs for x in o.text.split()[1].split(",")})
        raise RecordError(got.line, f"'drew {got.text}' is impossible here (the {kind} it "
                                    f"could draw: {', '.join(items)})")
    return draw


def _no_more_draws(turn: RecordTurn, made: int) -> None:
    """Refuse the turn's drew lines beyond the ``made`` draws its replay made."""
    if len(turn.draws) > made:
        extra = turn.draws[made].read()
        raise RecordError(extra.line, f"a drew line, but the {'bid' if turn.is_bid else 'turn'}"
                                      f" made {made} draw(s) with more than one outcome (a "
                                      f"certain draw is not written)")


def _bid(st: np.ndarray, turn: RecordTurn) -> None:
    """Place the bid of ``turn`` if it is a legal bid (``legal_actions``' words)."""
    bids = np.zeros(FT.MAX_BIDS, dtype=np.int64)
    legal = {bid_label(b): int(b) for b in bids[:FT.legal_bids(st, bids)]}
    if turn.action not in legal:
        raise RecordError(turn.line, f"{quote(turn.action)} is not a legal bid for "
                                     f"p{turn.player} here (legal: {', '.join(legal)})")
    FT.place_bid(st, legal[turn.action])


def _turn_played(st: np.ndarray, turn: RecordTurn, draw: DrawSource,
                 then_best: bool = False) -> PlayedTurn:
    """Play the turn line ``turn`` on ``st`` (in place), its draws as ``draw`` says."""
    try:
        played = play_label(st, turn.action, draw, then_best)
    except TurnRefused as exc:
        what = (quote(turn.action) if len(turn.action) <= QUOTE_LIMIT else  # its parts
                f"the turn ({len(turn.action):,} characters)")  # are quoted in ``exc``
        raise RecordError(turn.line, f"{what} is not a legal turn for p{turn.player} here: "
                                     f"{exc}") from None
    st[:] = played.state
    return played


def play_line(st: np.ndarray, turn: RecordTurn, draw: DrawSource, round_no: int,
              then_best: bool = False) -> tuple[tuple[str, ...], str, np.ndarray | None]:
    """One step of a game (a record's replay, a game played along): the bid or turn
    ``turn`` of the player to move on ``st`` (in place) in round ``round_no``, its draws
    as ``draw`` says.
    Returns the draws' words, the label of the ``advise`` row it was chosen from and the
    kernel action row of a turn (``Played``); raises ``RecordError``."""
    bidding = st[FT.PHASE] == FT.BIDDING
    if turn.is_bid != bidding:
        raise RecordError(turn.line, f"p{turn.player} is to " + (
            "bid (e.g. 'bid 0'), not to play a turn" if bidding else
            f"play a turn: the bids of round {round_no} are over"))
    if bidding:
        _bid(st, turn)
        return (), turn.action, None
    played = _turn_played(st, turn, draw, then_best)
    return played.drew, played.decision, played.row


def _clean_up(st: np.ndarray, refill: Refill) -> None:
    """The clean-up (§4.3) with the row and display ``refill`` gives: every card and djinn
    added must be in its deck (the discards reshuffled into an empty deck first) and each
    row as full as the decks allow."""
    n = refill.line
    row = [int(c) for c in st[FT.ROW:FT.ROW + 9] if c >= 0]
    new = [names.CARDS.index(c) for c in refill.resources]
    if new[:len(row)] != row or len(new) > FT.RESOURCE_ROW:
        kept = ",".join(names.CARD_CODES[c] for c in row) or "-"
        raise RecordError(n, f"the row after clean-up keeps the cards left ({kept}) in front "
                             f"and holds at most {FT.RESOURCE_ROW}")
    deck, discard = slice(FT.RES_DECK, FT.RES_DISCARD), slice(FT.RES_DISCARD, FT.DJINN_DECK)
    for card in new[len(row):]:
        if st[deck].sum() == 0:
            st[deck], st[discard] = st[discard], 0
        if st[deck][card] == 0:
            held = ",".join(names.CARD_CODES[c] for c in range(FT.N_CARD_KINDS) if st[deck][c])
            raise RecordError(n, f"cannot refill the row with {names.CARD_CODES[card]}: the "
                                 f"resource deck holds {held or 'nothing'}")
        st[FT.RES_DECK + card] -= 1
    shown = {int(d) for d in st[FT.DJINN_ROW:FT.DJINN_ROW + 3] if d >= 0}
    display = {names.DJINN_NAMES.index(d) for d in refill.djinns}
    if not shown <= display or len(display) > FT.VISIBLE_DJINNS:
        raise RecordError(n, f"the djinn display after clean-up keeps the djinns left and "
                             f"shows at most {FT.VISIBLE_DJINNS}")
    for d in sorted(display - shown, key=lambda d: not (st[FT.DJINN_DECK] >> d) & 1):
        if st[FT.DJINN_DECK] == 0:
            st[FT.DJINN_DECK], st[FT.DJINN_DISCARD] = st[FT.DJINN_DISCARD], 0
        if not (st[FT.DJINN_DECK] >> d) & 1:
            raise RecordError(n, f"cannot show {names.DJINN_NAMES[d]}: it is not in the "
                                 f"djinn deck (nor its discards when the deck runs out)")
        st[FT.DJINN_DECK] &= ~(1 << d)
    st[FT.ROW:FT.ROW + len(new)] = new
    st[FT.DJINN_ROW:FT.DJINN_ROW + 3] = -1
    for i, d in enumerate(sorted(display)):
        st[FT.DJINN_ROW + i] = d
    before = st.copy()
    # the kernel's clean-up does the rest (powers used cleared, the next bidding); with the
    # row and display full or the decks empty it draws nothing, else the line left one out
    FT.cleanup(st, np.zeros(4, dtype=np.uint64))
    if not np.array_equal(st[FT.ROW:FT.DJINN_DISCARD + 1], before[FT.ROW:FT.DJINN_DISCARD + 1]):
        raise RecordError(n, f"the row must be refilled to {FT.RESOURCE_ROW} cards and the "
                             f"display to {FT.VISIBLE_DJINNS} djinns while the decks (and "
                             f"their discards) hold any")


def _check_end(out: Replay, entry: Score | Winner, scored: dict[int, int]) -> None:
    """A score or winner line against the end of the game (``scored``: the players whose
    score line was read, -> its line)."""
    n = entry.line
    if not out.over:
        raise RecordError(n, f"a {type(entry).__name__.lower()} line, but the game is not "
                             f"over")
    if isinstance(entry, Winner):
        if entry.seats != out.winners:
            raise RecordError(n, f"winner mismatch: the record says "
                                 f"{','.join(f'p{p}' for p in entry.seats)}, the replay "
                                 f"gives {','.join(f'p{p}' for p in out.winners)}")
        return
    p = entry.player
    if not 0 <= p < len(out.scores):
        raise RecordError(n, f"no player p{p} in a {len(out.scores)}-player game")
    if p in scored:
        raise RecordError(n, f"a second score line for p{p} (the first is line {scored[p]})")
    scored[p] = n
    wrong = [f"{k} {v} (the replay gives {out.scores[p][PARTS.index(k)]})"
             for k, v in entry.parts.items() if v != out.scores[p][PARTS.index(k)]]
    if wrong:
        raise RecordError(n, f"score mismatch for p{p}: " + ", ".join(wrong))


def replay(record: Record) -> Replay:
    """Play ``record`` through the kernel (module doc): a list of (position before the
    line's action, ``Played``). The first failure raises ``RecordError``."""
    st = encode(record.start)
    out = Replay()
    first = next((e for e in record.entries if isinstance(e, RecordTurn)), None)
    out.round = first.round if first is not None and first.round is not None else 1
    due = ended = 0  # the line after which the clean-up is due; the line the game ended at
    winner_line = 0
    scored: dict[int, int] = {}
    for entry in record.entries:
        n = entry.line
        if winner_line:
            raise RecordError(n, f"nothing may follow the winner line (line {winner_line})")
        if isinstance(entry, (Score, Winner)):
            _check_end(out, entry, scored)
            winner_line = n if isinstance(entry, Winner) else 0
            continue
        if ended:
            raise RecordError(n, f"the game ended at line {ended} (the last clean-up); only "
                                 f"score and winner lines may follow")
        if isinstance(entry, Refill):
            if not due:
                raise RecordError(n, f"a refill line, but round {out.round}'s turns are not "
                                     f"over: p{int(st[FT.TO_MOVE])} is to "
                                     + ("bid" if st[FT.PHASE] == FT.BIDDING else "play"))
            _clean_up(st, entry)
            due = 0
            if FT.game_over(st):
                ended, out.over = n, True
                out.scores = tuple(tuple(int(x) for x in row) for row in FT.state_scores(st))
                best = max(row[-1] for row in out.scores)
                out.winners = tuple(p for p, row in enumerate(out.scores) if row[-1] == best)
            else:
                out.round += 1
            continue
        if due:
            raise RecordError(n, f"round {out.round}'s turns are over: the clean-up's line "
                                 f"'refill res=<codes> dj=<names>' must follow line {due}")
        if entry.round is not None and entry.round != out.round:
            raise RecordError(n, f"round {entry.round}, but this is round {out.round}")
        to_move = int(st[FT.TO_MOVE])
        if entry.player != to_move:
            raise RecordError(n, f"wrong seat: p{entry.player} is not to move, it is "
                                 f"p{to_move}'s turn")
        pos = decode(st)
        before = _totals(st)[to_move]
        drew, decision, row = play_line(st, entry, _recorded(entry), out.round)
        _no_more_draws(entry, len(drew))
        totals = _totals(st)
        if entry.totals is not None and entry.totals != totals:
            raise RecordError(n, f"totals mismatch: the record says "
                                 f"{','.join(map(str, entry.totals))}, the replay gives "
                                 f"{','.join(map(str, totals))}")
        out.append((pos, Played(n, out.round, to_move, entry.action, drew,
                                totals[to_move] - before, decision, row)))
        if st[FT.PHASE] == FT.TURNS and st[FT.TO_MOVE] < 0:
            due = n
    out.final, out.due = decode(st), due
    out.to_move = None if due or out.over else int(st[FT.TO_MOVE])
    return out


def _ending(steps: Replay) -> None:
    """A whole record does not stop between a round's last turn and its refill line (the
    position there is no position: the round's clean-up is under way)."""
    if steps.due:
        raise RecordError(steps.due, f"round {steps.round}'s last turn, and the record ends: "
                                     f"its clean-up's line 'refill res=<codes> dj=<names>' "
                                     f"must follow")


def load_record(text: str) -> tuple[Record, Replay]:
    """Parse and replay ``text``, reporting the first bad line of the file; the record may
    stop anywhere but between a round's last turn and its refill line."""
    return load(text, parse_record, replay, _ending)


# --------------------------------------------------------------------------- annotation


EV_WORDS = ("VP (oddsbot advise): a turn's exact change of the mover's final score if the "
            "game ended after it; a turn that drew, the row it was chosen from (the exact "
            "expectation over the draw, docs/games/five-tribes.md §20.6; as played when the "
            "table does not list that row); a bid, the greedy bid model's value")


def annotate(steps: list[tuple[Position, Played]], *, samples: int = 20000, seed: int = 0,
             rollouts: int | None = None, policy: str | None = None,
             progress: Callable[[int, int], None] | None = None) -> Table:
    """One row per bid or turn: the action taken, what it drew, its value ``ev_taken`` (VP,
    ``EV_WORDS``), the best action of ``advise``'s table and its ``best_ev`` (the action
    taken when none is worth more: a sampled table may even miss it), ``ev_lost`` =
    best_ev - ev_taken (>= 0). With ``rollouts``: ``advise(rollouts=...)`` under ``policy``, adding
    ``ROLLOUT_COLUMNS`` (the action taken rolled out on its own, on the same random numbers,
    when the table did not; a turn that drew is not rolled out: None). ``samples`` and
    ``seed``: the sowings drawn for the sampled table of a tall stack (§19.1.1), and the
    rollouts' seed. ``SE_COLUMNS`` (``se_fields``): None, every value being exact or a
    model's (a sampled table's turns are valued exactly); with rollouts
    ``ROLLOUT_SE_COLUMNS`` (equity_lost_se: advise's paired ``gap_se`` where the action
    taken was among its rollouts, else the bound ``win_se + best_win_se``)."""
    from .advise import advise
    from .rollouts import turn_equity

    chosen = {} if policy is None else {"policy": policy}
    extra = {} if rollouts is None else {"rollouts": rollouts, **chosen}
    rows = []
    for i, (pos, turn) in enumerate(steps, start=1):
        table = advise(pos, samples=samples, seed=seed, **extra)
        actions = table.dicts()
        decided = next((a for a in actions if a["action"] == turn.decision), None)
        if turn.row is None or (turn.drew and decided is not None):
            ev = float(decided["ev"])
        else:
            ev = float(turn.gain)
        best = max(actions, key=lambda a: a["ev"])  # the first of the best
        worse = best["ev"] <= ev  # nothing is worth more than the action taken
        best_action, best_ev = (turn.action, ev) if worse else (best["action"],
                                                                float(best["ev"]))
        row = {"turn": i, "round": turn.round, "player": turn.player, "action": turn.action,
               "drew": "; ".join(turn.drew), "ev_taken": ev, "best": best_action,
               "best_ev": best_ev, "ev_lost": best_ev - ev,
               **se_fields(best_ev - ev, decided, decided if worse else best, worse)}
        if rollouts is not None:
            rolled = [(a["action"], a["win_p"]) for a in actions if a["win_p"] is not None]
            win_se = {a["action"]: a["win_se"] for a in actions if a["win_p"] is not None}
            gap_se = {a["action"]: a["gap_se"] for a in actions if a["win_p"] is not None}
            win_p = None if decided is None or turn.drew else decided["win_p"]
            taken = turn.decision  # its label in the table
            if win_p is None and not turn.drew:
                alone = turn_equity(pos, [FT.CAND_TURN], turn.row[None, :],
                                    rollouts=rollouts, seed=seed, **chosen)
                win_p, taken = float(alone.win[0]), turn.action
                rolled.append((taken, win_p))
                win_se[taken] = float(alone.win_se[0])
                gap_se.pop(taken, None)  # not paired with the table's rollouts
            fields = rollout_fields(win_p, rolled)
            row.update(fields, **rollout_se_fields(fields, taken, win_se, gap_se))
            policy = table.provenance.get("policy", policy)
        rows.append(row)
        if progress is not None:
            progress(i, len(steps))
    return annotation_table("five-tribes", ANNOTATION_COLUMNS, rows, steps,
                            seed=seed, samples=samples, rollouts=rollouts, policy=policy,
                            ev=EV_WORDS)


def table_view(table: Table, wide: bool = False) -> Table:
    """The replay table as people read it. Compact (labels are long): turn, player, the
    action (with what it drew, and on a line below the best action where it is worth
    more), its value and the value lost; with rollouts its win probability and the equity
    lost, the best action being the best by rollout equity. ``wide``: every column."""
    if wide:
        return table
    rolled = "best_rollout" in table
    best, lost = ("best_rollout", "equity_lost") if rolled else ("best", "ev_lost")
    action = [a + (f" (drew {d})" if d else "") + (f"\nbest: {b}" if x else "")
              for a, d, b, x in zip(table["action"], table["drew"], table[best], table[lost])]
    return Table.from_columns({"turn": table["turn"], "player": table["player"],
                               "action": action,
                               **{c: table[c] for c in (("win_p", lost) if rolled else
                                                        ("ev_taken", lost))}})


def warm_up() -> None:
    """Compile (or load from the cache) the kernels that records use beyond a greedy round
    of ``simulate``: a round of each kernel policy written and replayed (clean-up, refill),
    the outcomes of each kind of draw and greedy's way of drawing them, the check of a turn
    without a sowing."""
    from ...kernels.rng import stream
    from .setup import new_position
    from .simulate import simulate

    pos = new_position(4, 1)
    for policy in ("heuristic", "random"):
        load_record(simulate(pos, seed=1, policy=policy, rounds=1).text())
    st = encode(pos)
    st[FT.BAG:FT.BAG + FT.N_COLOURS] = 3  # something to draw (the opening's bag is empty)
    for op, arg in ((FT.OP_CARDS, 1), (FT.OP_MEEPLES, 3), (FT.OP_SIBITTIS, 3)):
        realised(stream(np.uint64(0), 2))(st, 0, op, arg, outcomes(st, 0, op, arg), 0)
    FT.sowing_exists(FT.meeples(st), st[FT.END_RULE], FT.walk_tables_once()[1])


def status(steps: Replay) -> str:
    """How the record ends, for the ``record OK`` line."""
    if steps.over:
        seats = ", ".join(f"p{names.player_name(steps.final, p)}" for p in steps.winners)
        return (f"game over after round {steps.round}: winner{'s' * (len(steps.winners) > 1)} "
                f"{seats} ({steps.scores[steps.winners[0]][-1]} VP)")
    doing = "bid" if steps.final.phase == "bidding" else "play"
    return (f"game not over: round {steps.round}, p{names.player_name(steps.final, steps.to_move)}"
            f" to {doing}")


def result(steps: Replay) -> dict | None:
    """The winners and every player's final score by part (VP) of a finished game, else
    None."""
    if not steps.over:
        return None
    return {"winners": list(steps.winners),
            "scores": [{"player": p, **dict(zip(PARTS, row))} for p, row in
                       enumerate(steps.scores)]}


def caption(steps: Replay, lost: list[float], *, samples: int, seed: int,
            rollouts: int | None) -> str:
    """The caption of the terminal replay table."""
    return ("values in VP: turns exact, a turn that drew as chosen (its expectation), bids "
            f"by the greedy bid model · a tall stack's turns sampled from {samples:,} "
            f"sowings, seed {seed}"
            + (f" · {rollouts:,} rollouts" if rollouts else "")
            + " · VP lost: " + ", ".join(f"p{names.player_name(steps.final, p)} {x:.2f}"
                                         for p, x in enumerate(lost))
            + (f" · {status(steps).removeprefix('game over ')}" if steps.over else ""))
