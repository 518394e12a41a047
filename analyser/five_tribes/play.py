"""Five Tribes played along one action at a time (``PlayFace`` of ``analyser/face.py``;
docs/games/five-tribes.md §22).

An action is a label as ``advise`` prints it: a bid, a complete turn, or a row ending
``; then best`` (its draw, then the greedy rest for what was drawn, §20.9). Its outcome
names, in the words of a record's lines (§19.4), joined by ``; ``, what chance gave: each
draw with more than one possible outcome (``cards fi``, ``meeples YWR``, ``djinns
Baal,Leta,Sloar``), then, after the round's last turn, the clean-up's ``refill res=<codes>
dj=<names>``. Every step is the record replay's (``record.play_line``, ``record._clean_up``):
the kernel's bids, turns, draws and clean-up.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ...kernels import five_tribes as FT
from ...errors import OddsbotError, quote
from ..records_common import RecordError
from . import names, record
from .encode import decode, encode
from .labels import turn_label
from .names import player_name  # noqa: F401 (the PlayFace's)
from .position import Position
from .simulate import GameResult, Refill, Turn
from .validate import validate

OUTCOMES_LIMIT = 20_000  # outcomes listed at most (a clean-up refilling many cards has more)
OUTCOME_WORDS = ("'cards <codes>', 'meeples <letters>', 'djinns <names>' or 'refill "
                 "res=<codes> dj=<names>', joined by '; '")


# --------------------------------------------------------------------------- outcomes


def _read_outcome(outcome: str | None) -> tuple[tuple[record.Draw, ...], record.Refill | None]:
    """The draws and the clean-up's refill an outcome names (module doc)."""
    draws: list[record.Draw] = []
    refill = None
    for part in [] if outcome is None else [p.strip() for p in outcome.split(";")]:
        if part.split()[:1] == ["refill"] and refill is None:
            try:
                refill = record._read_refill(part, 0)
            except RecordError as exc:
                raise OddsbotError(f"outcome: {exc.what}") from None
        elif refill is None and part:
            draws.append(_read_draw(part))
        else:
            raise OddsbotError(f"outcome: cannot read {quote(outcome)} (expected "
                               f"{OUTCOME_WORDS}, the refill last)")
    return tuple(draws), refill


def _read_draw(part: str) -> record.Draw:
    """One draw an outcome names (``cards fi``), read as a record's drew line."""
    draw = record._read_draw(f"drew {part}", 0)
    if draw.unread is not None:
        why = draw.unread.partition(quote(f"drew {part}"))[2]
        raise OddsbotError(f"outcome: cannot read {quote(part)}" + (
            why if why.startswith(":") else f" (expected {OUTCOME_WORDS})"))
    return draw


def _given(action: str, draws: tuple[record.Draw, ...]) -> record.DrawSource:
    """``DrawSource`` of a game played along: each draw as the outcome names it."""
    def draw(s: np.ndarray, mover: int, op: int, arg: int, outs: list[record.Outcome],
             k: int) -> record.Outcome:
        kind = record.DRAW_KINDS[op - FT.OP_CARDS]
        if k >= len(draws):
            raise OddsbotError(f"outcome: {quote(action)} draws {kind} here: name them (e.g. "
                               f"{quote(outs[0].text)}; the outcomes list them)")
        if draws[k].kind != kind:
            raise OddsbotError(f"outcome: {quote(action)} draws {kind} here, not "
                               f"{draws[k].kind} (e.g. {quote(outs[0].text)})")
        got = next((o for o in outs if o.text == draws[k].text), None)
        if got is None:
            items = sorted({x for o in outs for x in o.text.split()[1].split(",")})
            raise OddsbotError(f"outcome: {quote(draws[k].text)} is impossible here (the "
                               f"{kind} it could draw: {', '.join(items)})")
        return got
    return draw


class _Branch(Exception):
    """A draw reached beyond the outcomes followed so far: its possible outcomes."""

    def __init__(self, outs: list[record.Outcome]) -> None:
        self.outs = outs


def _following(prefix: tuple[str, ...]) -> record.DrawSource:
    """``DrawSource`` that makes the draws ``prefix`` names, then stops at the next."""
    def draw(s: np.ndarray, mover: int, op: int, arg: int, outs: list[record.Outcome],
             k: int) -> record.Outcome:
        if k < len(prefix):
            got = next((o for o in outs if o.text == prefix[k]), None)
            if got is not None:
                return got
            raise record.TurnRefused("another draw")
        raise _Branch(outs)
    return draw


def _draw_paths(st: np.ndarray, action: str, prefix: tuple[str, ...] = (),
                p: float = 1.0) -> Iterator[tuple[tuple[str, ...], float, np.ndarray]]:
    """Every way the turn ``action`` can fall from ``st``: (its draws' words, probability,
    the state after it), in the kernel's order; a way after which the label's later
    choices are not legal is left out (module doc of ``outcomes``)."""
    try:
        played = record.play_label(st, action, _following(prefix), then_best=True)
    except _Branch as branch:
        for o in branch.outs:
            yield from _draw_paths(st, action, (*prefix, o.text), p * o.p)
        return
    except record.TurnRefused:
        if prefix:
            return
        raise
    yield played.drew, p, played.state


def _card_draws(s: np.ndarray, need: int) -> Iterator[tuple[tuple[str, ...], float, np.ndarray]]:
    """The refill of ``need`` cards, one at a time as the kernel draws them (its draw of a
    card into a hand, ``FT.draw_cards``, on a scratch copy): (codes in order,
    probability, state)."""
    if need == 0:
        yield (), 1.0, s
        return
    for o in record.outcomes(s, 0, FT.OP_CARDS, 1):
        code = o.text.split()[1] if len(o.text.split()) > 1 else None
        if code is None:  # deck and discard both empty: the row stays short
            yield (), 1.0, s
            return
        for rest, q, t in _card_draws(o.state, need - 1):
            yield (code, *rest), o.p * q, t


def _refills(st: np.ndarray) -> list[tuple[str, float]]:
    """The clean-up's possible refills after the round's last turn (§4.3): the row's
    cards drawn in order and the djinn display's set, as ``refill`` words, with their
    probabilities."""
    row = [names.CARD_CODES[c] for c in st[FT.ROW:FT.ROW + FT.RESOURCE_ROW] if c >= 0]
    shown = [int(d) for d in st[FT.DJINN_ROW:FT.DJINN_ROW + FT.VISIBLE_DJINNS] if d >= 0]
    left = int(st[FT.DJINN_DECK]).bit_count() + int(st[FT.DJINN_DISCARD]).bit_count()
    need = min(FT.VISIBLE_DJINNS - len(shown), left)
    sets = [[]] if need == 0 else [
        [d for d in range(len(names.DJINN_NAMES)) if (int(m) >> d) & 1]
        for m in FT.sibittis_draws(st, need)[0]]  # the same draw: all equally likely
    out = []
    for cards, p, _ in _card_draws(st.copy(), FT.RESOURCE_ROW - len(row)):
        for new in sets:
            if len(out) == OUTCOMES_LIMIT:
                raise OddsbotError(f"outcomes: the clean-up can refill the row and display "
                                   f"in over {OUTCOMES_LIMIT:,} ways: name the one seen "
                                   f"as 'refill res=<codes> dj=<names>'")
            display = [names.djinn_token(names.DJINN_NAMES[d]) for d in sorted(shown + new)]
            out.append((Refill(0, (*row, *cards), tuple(display)).text(), p / len(sets)))
    return out


def _round_over(st: np.ndarray) -> bool:
    """Every marker has played: the round's clean-up is due."""
    return bool(st[FT.PHASE] == FT.TURNS and st[FT.TO_MOVE] < 0)


def _state(pos: Position) -> np.ndarray:
    """``pos`` encoded, for an action to be played on it."""
    validate(pos)
    if any(p.gold_range is not None for p in pos.players):
        raise OddsbotError("position: playing along needs every player's gold (a secret gold "
                           "would be guessed, docs/games/five-tribes.md §14.13)")
    st = encode(pos)
    if pos.phase == "bidding" and FT.game_over(st):
        raise OddsbotError("the game is over (docs/games/five-tribes.md §13): no action")
    return st


def outcomes(pos: Position, action: str) -> list[tuple[str, float]]:
    """The chance outcomes of ``action`` (module doc) and their exact probabilities, in
    the kernel's order; ``[]`` for a bid or a turn that draws nothing and ends no round.
    A complete turn whose later choices are legal only after some draws lists those
    draws, their probabilities given that the turn can be played as labelled."""
    st = _state(pos)
    if action.split()[0] == "bid":
        _step(st.copy(), action, None, 1)  # refused if illegal
        return []
    found = []
    for drew, p, after in _draw_paths(st, action):
        refills = _refills(after) if _round_over(after) else [(None, 1.0)]
        for refill, q in refills:
            words = "; ".join((*drew, *([refill] if refill else [])))
            found.append((words, p * q))
            if len(found) > OUTCOMES_LIMIT:
                raise OddsbotError(f"outcomes: {quote(action)} has over {OUTCOMES_LIMIT:,} "
                                   f"outcomes: name the one seen ({OUTCOME_WORDS})")
    if found == [("", 1.0)]:
        return []
    total = sum(p for _, p in found)
    return [(words, p / total) for words, p in found]


# --------------------------------------------------------------------------- one step


def _step(st: np.ndarray, action: str, outcome: str | None, round_no: int
          ) -> tuple[str, tuple[str, ...], tuple[int, ...], record.Refill | None]:
    """Play ``action`` with ``outcome`` on ``st`` (in place), the record replay's step
    (``record.play_line``, then the clean-up ``record._clean_up`` after the round's last
    turn): (the line's label, its draws' words, everyone's final score after it (before
    the clean-up), the clean-up's refill)."""
    if not action.split():
        raise OddsbotError("action: empty (e.g. 'bid 0', or a turn as advise words it)")
    draws, refill = _read_outcome(outcome)
    turn = record.RecordTurn(0, round_no, int(st[FT.TO_MOVE]), action, None, None, draws)
    try:
        drew, _, row = record.play_line(st, turn, _given(action, draws), round_no,
                                        then_best=True)
    except RecordError as exc:
        where = "action" if quote(action) in exc.what else f"action {quote(action)}"
        raise OddsbotError(f"{where}: {exc.what}") from None
    if draws and not drew and not _round_over(st):
        raise OddsbotError(f"outcome: {quote(action)} involves no chance here (got "
                           f"{quote(outcome)})")
    if len(draws) > len(drew):
        raise OddsbotError(f"outcome: {quote(action)} makes {len(drew)} draw(s) with more "
                           f"than one outcome, not {len(draws)}")
    if _round_over(st) != (refill is not None):
        raise OddsbotError(
            f"outcome: {quote(action)} ends the round: name its clean-up last, 'refill "
            f"res=<codes> dj=<names>' (the outcomes list them)" if refill is None else
            f"outcome: {quote(action)} does not end the round: no refill")
    totals = record._totals(st)
    if refill is not None:
        try:
            record._clean_up(st, refill)
        except RecordError as exc:
            raise OddsbotError(f"outcome: {exc.what}") from None
    label = action if row is None or not action.endswith(record.THEN_BEST) else turn_label(
        row, tuple(FT.TILE_TYPES[k] for k in st[FT.T_TYPE:FT.T_TYPE + FT.N_TILES]))
    return label, drew, totals, refill


def apply(pos: Position, action: str, outcome: str | None = None) -> Position:
    """The position after the player to move takes ``action`` (a label as ``advise``
    prints it) and chance gives ``outcome`` (module doc; None when the action involves
    no chance). Refuses, in one line, an illegal action and a missing, unknown or
    unneeded outcome."""
    st = _state(pos)
    _step(st, action, outcome, 1)
    return decode(st)


# --------------------------------------------------------------------------- records


def record_text(start: Position, moves: list[tuple[str, str | None]]) -> str:
    """The record (docs/games/five-tribes.md §19.4, as ``new --play`` writes it) of the
    game played from ``start`` by the (action, outcome) pairs: a turn as played (a ``then
    best`` row in full), its ``value`` the exact change of the mover's final score it
    made (what the heuristic and random policies write)."""
    st = _state(start)
    turns: list[Turn] = []
    refills: list[Refill] = []
    round_no, over = 1, False
    for action, outcome in moves:
        if over:
            raise OddsbotError("the game is over (docs/games/five-tribes.md §13): no action")
        player, before = int(st[FT.TO_MOVE]), record._totals(st)
        label, drew, totals, refill = _step(st, action, outcome, round_no)
        turns.append(Turn(round_no, player, label, totals[player] - before[player], totals,
                          drew))
        if refill is not None:
            refills.append(_refill_words(refill, round_no))
            over = bool(FT.game_over(st))
            round_no += not over
    scores = FT.state_scores(st)
    best = scores[:, -1].max()
    return GameResult(start, tuple(turns), tuple(tuple(int(x) for x in row) for row in scores),
                      tuple(int(p) for p in np.flatnonzero(scores[:, -1] == best)),
                      tuple(refills), over).text()


def _refill_words(refill: record.Refill, round_no: int) -> Refill:
    """A record's ``refill`` line read (``record.Refill``) as ``simulate`` writes it."""
    return Refill(round_no, tuple(names.CARD_CODES[names.CARDS.index(c)]
                                  for c in refill.resources),
                  tuple(names.djinn_token(d) for d in names.sorted_djinns(refill.djinns)))


def record_moves(text: str) -> tuple[Position, list[tuple[str, str | None]]]:
    """The start and the (action, outcome) pairs of a record (``record_text``'s
    inverse): each line's draws and the clean-up after it as its outcome."""
    rec, _ = record.load_record(text)
    moves: list[tuple[str, list[str]]] = []
    for entry in rec.entries:
        if isinstance(entry, record.RecordTurn):
            moves.append((entry.action, [d.text for d in entry.draws]))
        elif isinstance(entry, record.Refill):
            moves[-1][1].append(_refill_words(entry, 0).text())
    return rec.start, [(action, "; ".join(words) or None) for action, words in moves]


def warm_up(pos: Position) -> None:
    """Compile (or load from the cache) the kernel a ``then best`` row's rest needs
    (``FT.greedy_rest``), from the start of the turn of ``pos`` (turns phase)."""
    st = encode(pos)
    s = st.copy()
    FT.marker_to_bid_track(s)
    act = np.zeros(FT.ACTION_SIZE, dtype=np.int64)
    FT.clear_action(act)
    FT.greedy_rest(st, s, act, FT.S_PRE)
