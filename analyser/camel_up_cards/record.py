"""Game records: a whole Camel Up Cards game as plain text, checked and annotated
(docs/games/camel-up-cards.md §14.5).

The format is what ``GameResult.text()`` writes (``oddsbot new camel-up-cards --play
POLICY``); a record is omniscient: it gives every seat's cards, so that a replay rebuilds
what each player knew at each turn::

    # comments and blank lines are ignored (a '#' starts a comment anywhere)
    start <notation>                    the position before the first turn
    deal leg=<K> p0=<discarded>/<deck>/<blue>/<hand> p1=...     every seat's cards of leg K
    [<turn>] p<seat> <turn>[ -> <card>] [| leg ends|race ends] [| money <m0>,<m1>,...]
    ...
    winner <colour> loser <colour> [money <m0>,<m1>,...]

* The deal line of the start position's leg follows the start line, and the deal line of
  every later leg follows the turn that ended the leg before. A seat's cards are
  ``'.'``-joined racing cards (``W1`` .. ``Y2``), ``-`` for none: the cards it discarded,
  put into the race deck, revealed (its blue card; ``-`` with 2 players) and kept (its
  hand card, one). The first deal must agree with the start position: the viewer's own
  cards, every blue card, the hand cards played, the cards revealed so far.
* ``<turn>`` is a turn as the EV table labels it (``oddsbot moves``): one race action
  (``reveal``, ``hand <colour>``, ``fox <space>``, ``palm <space>``) with at most one bet
  (``leader|midfield|winner|loser <colour>``) before or after it, joined by `` + ``, e.g.
  ``leader orange + reveal``. Colours are named (``orange``) or lettered (``O``).
* ``-> <card>`` is the card the turn revealed (required on a reveal) or played from the
  hand (optional: the deal says which), and only those.
* The turn number (1, 2, 3 ... in record order), ``| leg ends`` or ``| race ends``, ``|
  money`` (everyone's EP after the turn, payouts included) and the result line are
  optional; when given they are checked against the replay.

``parse_record`` reads the text (syntax, labels, cards); ``replay`` plays it through the
kernel (``game.race_ok``, ``game.bet_ok``, ``game.play_turn``: the only implementation of
the rules) and checks every line: before a reveal the recorded card is put next in the race
deck, once checked to be among the cards left in it; after a leg the kernel's own random
deal is replaced by the record's deal line, the sandstorm and start player it worked out
kept. Every problem is a ``RecordError`` (``records_common``) whose message starts ``line
N:``; ``load_record`` reports the first bad line of the file, and a record that stops
where a deal line is due is refused at the line that made it due. ``annotate`` values each
turn with ``advise`` from the mover's view, and with ``--rollouts`` by its rollouts.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from ...errors import OddsbotError, PositionError, quote
from ...kernels.camel_up_cards import game as K
from ...kernels.camel_up_cards import track as T
from ...kernels.rng import stream
from ..records_common import (  # noqa: F401 (ev_lost_by_player: the RecordFace's)
    RecordError, RecordResult, annotation_table, body_lines, check_result,
    ev_lost_by_player, load, record_int, rollout_fields, rollout_se_fields, se_fields,
    start_position,
)
from ..table import Table
from .labels import BET_KINDS, COLOUR_NAMES, colour_code, parse_turn, turn_label
from ..play_common import seat_number as player_name
from .notation import NOTATION_KEYS, parse_notation
from .position import (CARD_TYPES, COLOURS, MAX_LEG, MAX_MONEY, Position,
                       blue_count, copies)
from .simulate import NONE, Deal, SeatDeal, cards_text, decode, play, put_deal, state_of
from .state import seat_field
from .validate import validate

TURN_SYNTAX = ("[<turn>] p<seat> <turn>[ -> <card>] [| leg ends|race ends] "
               "[| money <m0>,<m1>,...]")
DEAL_SYNTAX = "deal leg=<leg> p0=<discarded>/<deck>/<blue>/<hand> p1=..."
RESULT_SYNTAX = "winner <colour> loser <colour> [money <m0>,<m1>,...]"
ENDS = (None, "leg", "race")  # by game.play_turn's ``ended``
_TURN = re.compile(r"^(?:(?P<number>[0-9]+)\s+)?p(?P<seat>[0-9]+)\s+(?P<action>\S.*)$")
_RESULT = re.compile(r"^winner\s+(?P<winner>\S+)\s+loser\s+(?P<loser>\S+)"
                     r"(?:\s+money\s+(?P<money>\S+))?$")


# --------------------------------------------------------------------------- the lines


@dataclass(frozen=True)
class RecordTurn:
    """One turn line: who, the turn (its canonical label and kernel codes), the card it
    revealed or played, and what the line says of its end and the money after it."""

    line: int  # line number in the record text (1-based)
    number: int | None  # the turn number written on the line, if any
    player: int
    action: str  # canonical label (``labels.turn_label``)
    bet1: int  # kernel bet before the race action (game.NO_BET: none)
    race: int  # kernel race action
    bet2: int  # kernel bet after it
    colour: int  # the colour a ``hand`` action names (-1 otherwise)
    card: str | None  # the card revealed or played, if written (always, in the steps)
    end: str | None  # "leg" or "race" if the line says the turn ended one
    money: tuple[int, ...] | None  # everyone's EP after the turn, if written

    @property
    def bets(self) -> list[int]:
        return [b for b in (self.bet1, self.bet2) if b != K.NO_BET]


@dataclass(frozen=True)
class RecordDeal:
    """A deal line: every seat's cards of one leg."""

    line: int
    deal: Deal


@dataclass(frozen=True)
class Record:
    start: Position
    start_line: int
    entries: tuple[RecordTurn | RecordDeal, ...]  # in record order
    result: RecordResult | None
    lines: int  # lines in the text


class Replay(list):
    """``replay``'s answer: a list of (the position before the turn as its mover sees it,
    turn), one per turn; ``states`` the kernel states before each turn (everything known);
    how the record ends (``over``; the race's ``winner`` and ``loser``, everyone's
    ``money``; ``leg``; ``to_move`` if not over); ``due``, the line after which a deal line
    is missing (None if none is)."""

    final: Position | None = None  # the position after the last line, as its mover sees it
    over: bool = False
    winner: str | None = None
    loser: str | None = None
    money: tuple[int, ...] = ()
    leg: int = 1
    to_move: int | None = None
    due: int | None = None

    def __init__(self) -> None:
        super().__init__()
        self.states: list[np.ndarray] = []


# --------------------------------------------------------------------------- parsing


def _colour(word: str, line: int, what: str) -> int:
    """A colour index from its name (``orange``) or letter (``O``), any case."""
    try:
        return colour_code(word, what)
    except OddsbotError as exc:
        raise RecordError(line, str(exc)) from None


def _card(text: str, line: int, what: str) -> str:
    """A racing card, ``W1`` .. ``Y2`` (any case)."""
    card = text.upper()
    if card not in CARD_TYPES:
        raise RecordError(line, f"{what}: {quote(text)} is not a racing card (a colour "
                                f"letter W G O B Y and its value 1 or 2, e.g. G1)")
    return card


def _cards(text: str, line: int, what: str) -> tuple[str, ...]:
    """``'.'``-joined cards, ``-`` for none."""
    if text == NONE:
        return ()
    if not text:
        raise RecordError(line, f"{what}: empty (write {NONE!r} for none)")
    return tuple(_card(c, line, what) for c in text.split("."))


def _money(text: str, line: int, players: int) -> tuple[int, ...]:
    values = tuple(record_int(x, line, f"money[{i}]", 1, MAX_MONEY)
                   for i, x in enumerate(text.split(",")))
    if len(values) != players:
        raise RecordError(line, f"money: {len(values)} entries for {players} players")
    return values


def _label(text: str, line: int) -> tuple[int, int, int, int]:
    """(bet before, race action, bet after, hand colour) of a turn label
    (``labels.parse_turn``)."""
    try:
        return parse_turn(text)
    except OddsbotError as exc:
        raise RecordError(line, str(exc)) from None


def _turn(body: str, n: int, players: int, expected: int) -> RecordTurn:
    head, *tails = body.split("|")
    end = money = None
    for tail in tails:
        words = tail.split()
        if end is None and len(words) == 2 and words[1] == "ends" and words[0] in ENDS:
            end = words[0]
        elif money is None and len(words) == 2 and words[0] == "money":
            money = _money(words[1], n, players)
        else:
            raise RecordError(n, f"cannot read {quote(body)}: after '|' expected 'leg ends', "
                                 f"'race ends' or 'money <m0>,<m1>,...', once each")
    act, arrow, card_text = head.partition("->")
    m = _TURN.match(act.strip())
    if not m:
        raise RecordError(n, f"cannot read {quote(body)} (expected '{TURN_SYNTAX}', "
                             f"'{DEAL_SYNTAX}', '{RESULT_SYNTAX}' or a '#' comment)")
    number = None if m["number"] is None else record_int(m["number"], n, "turn number")
    if number is not None and number != expected:
        raise RecordError(n, f"turn number {number} out of sequence: expected {expected}")
    player = record_int(m["seat"], n, "seat")
    bet1, race, bet2, colour = _label(m["action"], n)
    label = turn_label(bet1, race, bet2, colour)
    card = None
    if arrow:
        if race not in (K.RACE_REVEAL, K.RACE_HAND):
            raise RecordError(n, f"a card on {quote(label)}: only a reveal or a hand card "
                                 f"shows one")
        card = _card(card_text.strip(), n, "card")
        if race == K.RACE_HAND and COLOURS.index(card[0]) != colour:
            raise RecordError(n, f"{quote(label)} plays {card}, a card of another colour")
    elif race == K.RACE_REVEAL:
        raise RecordError(n, f"{quote(label)} without the card it revealed (write e.g. "
                             f"'{label} -> G1')")
    return RecordTurn(n, number, player, label, bet1, race, bet2, colour, card, end, money)


def _seat_deal(value: str, n: int, p: int) -> SeatDeal:
    parts = value.split("/")
    if len(parts) != 4:
        raise RecordError(n, f"deal: p{p}={quote(value)} is not <discarded>/<deck>/<blue>/"
                             f"<hand>, each '.'-joined cards or '-' (e.g. W1.G2.O1/B1.Y1/G1/"
                             f"W2)")
    discarded, deck = (_cards(parts[i], n, f"deal: p{p}'s {what}")
                       for i, what in ((0, "discarded cards"), (1, "deck cards")))
    blue = None if parts[2] == NONE else _card(parts[2], n, f"deal: p{p}'s blue card")
    return SeatDeal(discarded, deck, blue, _card(parts[3], n, f"deal: p{p}'s hand card"))


def _deal(body: str, n: int, players: int) -> RecordDeal:
    leg = None
    seats: dict[int, SeatDeal] = {}
    for word in body.split()[1:]:
        key, eq, value = word.partition("=")
        if not eq or not (key == "leg" or key.startswith("p")):
            raise RecordError(n, f"deal: cannot read {quote(word)} (expected "
                                 f"'{DEAL_SYNTAX}')")
        if key == "leg":
            if leg is not None:
                raise RecordError(n, "deal: leg= is given twice")
            leg = record_int(value, n, "deal leg", 1, MAX_LEG)
            continue
        p = record_int(key[1:], n, "deal seat", 0, players - 1)
        if p in seats:
            raise RecordError(n, f"deal: p{p} is given twice")
        seats[p] = _seat_deal(value, n, p)
    if leg is None:
        raise RecordError(n, f"deal: no leg=<leg> (expected '{DEAL_SYNTAX}')")
    missing = [p for p in range(players) if p not in seats]
    if missing:
        raise RecordError(n, f"deal: no cards for p{missing[0]} (every seat's are given: "
                             f"'{DEAL_SYNTAX}')")
    return RecordDeal(n, Deal(leg, tuple(seats[p] for p in range(players))))


def _result(body: str, n: int, players: int) -> RecordResult:
    m = _RESULT.match(body)
    if not m:
        raise RecordError(n, f"cannot read {quote(body)} (expected '{RESULT_SYNTAX}')")
    winner = COLOUR_NAMES[_colour(m["winner"], n, "winner")]
    loser = COLOUR_NAMES[_colour(m["loser"], n, "loser")]
    money = None if m["money"] is None else _money(m["money"], n, players)
    return RecordResult(n, winner, loser, money)


def _start(text: str, line: int) -> Position:
    return start_position(text, line, parse_notation, validate,
                          lambda pos: None,  # what the position hides, the deal line gives
                          NOTATION_KEYS)


def parse_record(text: str) -> Record:
    """Read a record (see the module doc). Raises ``RecordError`` at the first line that
    cannot be read; legality is ``replay``'s job."""
    start: Position | None = None
    start_line = 0
    entries: list[RecordTurn | RecordDeal] = []
    result: RecordResult | None = None
    turns = 0
    said, lines = body_lines(text)
    for n, body in said:
        if start is None:
            start, start_line = _start(body, n), n
            continue
        if result is not None:
            raise RecordError(n, f"nothing may follow the result line (line {result.line})")
        first = body.split()[0]
        if first == "start":
            raise RecordError(n, f"a second start line (the first is line {start_line})")
        if first == "deal":
            entries.append(_deal(body, n, start.players))
        elif first == "winner":
            result = _result(body, n, start.players)
        else:
            turns += 1
            entries.append(_turn(body, n, start.players, turns))
    if start is None:
        raise RecordError(max(lines, 1), "no 'start <position notation>' line: the record "
                                         "is empty")
    return Record(start, start_line, tuple(entries), result, lines)


# --------------------------------------------------------------------------- replay


def _money_of(st: np.ndarray) -> tuple[int, ...]:
    return tuple(int(st[seat_field(p, K.MONEY)]) for p in range(int(st[K.N_PLAYERS])))


def _check_deal(entry: RecordDeal, start: Position, leg: int) -> None:
    """A deal line fits the leg setup numbers (§2) and the 30 racing cards."""
    deal, n = entry.deal, entry.line
    if deal.leg != leg:
        raise RecordError(n, f"deal leg={deal.leg}, but this is leg {leg}'s deal")
    dealt, discarded, into = start.setup
    setup = f"setup={dealt}/{discarded}/{into}"
    for p, cards in enumerate(deal.seats):
        for what, got, wanted in (("discards", cards.discarded, discarded),
                                  ("puts into the race deck", cards.deck, into)):
            if len(got) != wanted:
                raise RecordError(n, f"deal: p{p} {what} {len(got)} cards, the leg setup "
                                     f"says {wanted} ({setup})")
        if (cards.blue is not None) != bool(blue_count(start.players)):
            raise RecordError(n, f"deal: p{p}'s blue card: " + (
                "with 3 or more players every seat reveals one" if cards.blue is None else
                f"with 2 players nobody reveals one (write {NONE!r})"))
    counts = Counter(c for cards in deal.seats for c in cards.cards())
    for card in CARD_TYPES:
        if counts[card] > copies(card):
            raise RecordError(n, f"deal: {counts[card]} {card} cards are dealt, but the 30 "
                                 f"racing cards hold only {copies(card)}")


def _first_state(record: Record, entry: RecordDeal) -> np.ndarray:
    """The kernel state of the start position with its leg dealt as the first deal line
    says, once checked to agree with it."""
    start = record.start
    _check_deal(entry, start, start.leg)
    deal, v = entry.deal, start.viewer
    mine = deal.seats[v]
    held = start.own_hand if start.hands[v] else start.played_card(v)
    # discards the start position leaves out are unknown to it (§9): the rest must agree
    left_out = not Counter(start.own_discarded) - Counter(mine.discarded)
    remembered = start.own_discarded if left_out else mine.discarded
    facts = [(f"p{v}'s discarded cards", cards_text(start.own_discarded),
              cards_text(remembered)),
             (f"p{v}'s deck cards", cards_text(start.own_deck), cards_text(mine.deck)),
             (f"p{v}'s hand card", held, mine.hand)]
    facts += [(f"p{p}'s blue card", start.blue[p] or NONE, cards.blue or NONE)
              for p, cards in enumerate(deal.seats)]
    facts += [(f"p{p}'s hand card (played)", card, deal.seats[p].hand)
              for p, card in start.played]
    for what, there, here in facts:
        if there != here:
            raise RecordError(entry.line, f"the deal disagrees with the start position "
                                          f"(line {record.start_line}): {what} is {there} "
                                          f"there, {here} here")
    rest = list(deal.race_deck())
    for card in start.revealed:
        if card not in rest:
            raise RecordError(entry.line, f"the start position's revealed cards "
                                          f"{cards_text(start.revealed)} are not all in this "
                                          f"deal's race deck {cards_text(deal.race_deck())}")
        rest.remove(card)
    try:
        st = state_of(start, deal, start.revealed + tuple(rest))
    except PositionError as exc:  # the viewer's candidate decks (validate checks them too)
        raise RecordError(record.start_line, f"bad start position: {exc}") from None
    if start.phase == "race":  # the race action is taken and no bet follows: the next seat
        st[K.TO_MOVE] = (start.to_move + 1) % start.players
    return st


def _race_refusal(st: np.ndarray, p: int, r: int) -> str:
    """Why the kernel refuses race action ``r`` of seat ``p``, in words."""
    if r == K.RACE_REVEAL:
        return "the race deck is empty"
    if r == K.RACE_HAND:
        played = int(st[seat_field(p, K.PLAYED)])
        return f"p{p} has no hand card left" + (f" (played {CARD_TYPES[played]} this leg)"
                                                if played >= 0 else "")
    fox = r < K.PALM_BASE
    name, other, at, holder = (("fox", "palm", T.FOX, T.FOX_HOLDER) if fox else
                               ("palm", "fox", T.PALM, T.PALM_HOLDER))
    s = r - (K.FOX_BASE if fox else K.PALM_BASE)
    last = int(st[T.LAST])
    lowest = min(int(st[T.SP + c]) for c in range(T.N_CAMELS))
    if st[at]:
        return f"the {name} is already on space {st[at]} (p{st[holder]} holds its card)"
    if s > last:
        return f"space {s} is beyond the last space (L = {last})"
    if st[T.CNT + s]:
        return f"space {s} holds camels"
    if st[T.PALM if fox else T.FOX] == s:
        return f"space {s} holds the {other}"
    return f"space {s} is not ahead of the last camel (on space {lowest})"


def _bet_refusal(st: np.ndarray, b: int) -> str:
    """Why the kernel refuses bet ``b``, in words."""
    c = b % T.N_CAMELS
    kind, name = BET_KINDS[b // T.N_CAMELS], COLOUR_NAMES[c]
    if kind == "leader":
        return f"no {name} leader card is left"
    if kind == "midfield":
        return f"the {name} midfield card is taken (by p{st[K.MID_HOLDER + c]})"
    field = K.WINNER if kind == "winner" else K.LOSER
    holder = next(o for o in range(int(st[K.N_PLAYERS])) if st[seat_field(o, field)] == c)
    return f"the {name} {kind} card is held by p{holder}"


def _check_turn(turn: RecordTurn, st: np.ndarray, phase: str) -> None:
    """``turn`` is legal in ``st`` (the kernel's verdicts), its card the right one."""
    n, p = turn.line, int(st[K.TO_MOVE])
    if turn.player != p:
        raise RecordError(n, f"wrong seat: p{turn.player} is not to move, it is p{p}'s turn")
    head = f"{turn.action!r} is not legal for p{p} here"
    if turn.bets and phase == "bet":
        raise RecordError(n, f"{head}: the start position's phase is 'bet', p{p} has bet "
                             f"this turn already (only a race action is left)")
    if not K.race_ok(st, p, turn.race):
        raise RecordError(n, f"{head}: {_race_refusal(st, p, turn.race)}")
    for b in turn.bets:
        if not K.bet_ok(st, p, b):
            raise RecordError(n, f"{head}: {_bet_refusal(st, b)}")
    if turn.race == K.RACE_HAND:
        held = CARD_TYPES[st[seat_field(p, K.HAND)]]
        if COLOURS.index(held[0]) != turn.colour or turn.card not in (None, held):
            raise RecordError(n, f"{head}: p{p}'s hand card is {held}")


def _stack_card(turn: RecordTurn, st: np.ndarray) -> None:
    """Put the card ``turn`` reveals next in the race deck, if the deck still holds it."""
    drawn, size = int(st[K.DRAWN]), int(st[K.DECK_SIZE])
    left = [int(t) for t in st[K.DECK + drawn:K.DECK + size]]
    t = CARD_TYPES.index(turn.card)
    if t not in left:
        raise RecordError(turn.line, f"{turn.card} is not in the race deck: the "
                                     f"{len(left)} cards left are "
                                     f"{cards_text([CARD_TYPES[x] for x in left])}")
    i = K.DECK + drawn + left.index(t)
    st[i], st[K.DECK + drawn] = st[K.DECK + drawn], st[i]


def _check_after(turn: RecordTurn, st: np.ndarray, ended: int) -> None:
    """What the line says of the turn's end and of the money after it."""
    n, happened = turn.line, ENDS[ended]
    if turn.end is not None and turn.end != happened:
        left = int(st[K.DECK_SIZE] - st[K.DRAWN])
        raise RecordError(n, f"the record says the {turn.end} ends here, but " + (
            f"the leg goes on ({left} cards left in the race deck)" if happened is None
            else f"the replay ends the {happened}"))
    money = _money_of(st)
    if turn.money is not None and turn.money != money:
        raise RecordError(n, f"money mismatch: the record says "
                             f"{','.join(map(str, turn.money))}, the replay gives "
                             f"{','.join(map(str, money))}")


def replay(record: Record) -> Replay:
    """Play ``record`` through the kernel: a list of (position before the turn as its
    mover sees it, turn), checking every line (module doc). The first failure raises
    ``RecordError``."""
    out = Replay()
    start = record.start
    out.leg, out.money, out.to_move = start.leg, start.money, start.to_move
    if not record.entries:
        out.final, out.due = start, record.start_line
        _check_result(record, out)
        return out
    first, *entries = record.entries
    if not isinstance(first, RecordDeal):
        raise RecordError(first.line, f"leg {start.leg}'s deal line must come first, after "
                                      f"the start line: '{DEAL_SYNTAX}'")
    st = _first_state(record, first)
    settle = stream(np.uint64(0), 0)  # the kernel's deals, each replaced by the record's
    phase = start.phase
    ended_at = 0
    for entry in entries:
        n = entry.line
        if ended_at:
            raise RecordError(n, f"the race ended at line {ended_at}; only the result line "
                                 f"'{RESULT_SYNTAX}' may follow")
        leg = int(st[K.LEG])
        if isinstance(entry, RecordDeal):
            if out.due is None:
                raise RecordError(n, f"a deal line, but leg {leg} has not ended "
                                     f"({int(st[K.DECK_SIZE] - st[K.DRAWN])} cards left in "
                                     f"the race deck)")
            _check_deal(entry, start, leg)
            put_deal(st, entry.deal, entry.deal.race_deck())
            out.due = None
            continue
        if out.due is not None:
            raise RecordError(n, f"leg {leg - 1} ended at line {out.due}: leg {leg}'s deal "
                                 f"line must come before its first turn: 'deal leg={leg} "
                                 f"p0=<discarded>/<deck>/<blue>/<hand> p1=...'")
        _check_turn(entry, st, phase)
        if entry.race == K.RACE_REVEAL:
            _stack_card(entry, st)
        pos = decode(st)
        if entry.race == K.RACE_HAND and entry.card is None:  # the card the deal says
            entry = replace(entry, card=CARD_TYPES[st[seat_field(entry.player, K.HAND)]])
        out.append((pos.with_(phase=phase) if phase == "bet" else pos, entry))
        out.states.append(st.copy())
        ended, _ = K.play_turn(st, settle, entry.bet1, entry.race, entry.bet2)
        phase = "start"
        _check_after(entry, st, int(ended))
        if ended == 1:
            out.due = n
        elif ended == 2:
            ended_at = n
    out.over, out.money, out.leg = bool(st[K.STATUS]), _money_of(st), int(st[K.LEG])
    out.to_move = None if out.over else int(st[K.TO_MOVE])
    out.final = None if out.over or out.due is not None else decode(st)
    if out.over:
        order = np.empty(T.N_CAMELS, dtype=np.int64)
        T.ranking(st, order)
        out.winner, out.loser = COLOUR_NAMES[order[0]], COLOUR_NAMES[order[-1]]
    _check_result(record, out)
    return out


def _check_result(record: Record, out: Replay) -> None:
    res = record.result
    if res is None:
        return
    check_result(res, out.over, f"the race is not over: leg {out.leg}, p{out.to_move} is to "
                                f"move", out.winner, out.loser, out.money)


def _ending(steps: Replay) -> None:
    """A whole record does not stop where a deal line is due: after its start line, or
    after the turn that ended a leg."""
    if steps.due is None:
        return
    where = ("the record stops after its start line" if not steps else
             f"leg {steps.leg - 1} ended here and the record stops")
    raise RecordError(steps.due, f"{where}: leg {steps.leg}'s deal line 'deal "
                                 f"leg={steps.leg} p0=<discarded>/<deck>/<blue>/<hand> "
                                 f"p1=...' must follow")


def load_record(text: str) -> tuple[Record, Replay]:
    """Parse and replay ``text``, reporting the first bad line of the file (module doc);
    the record may stop anywhere but where a deal line is due."""
    return load(text, parse_record, replay, _ending)


# --------------------------------------------------------------------------- annotation


ANNOTATION_COLUMNS = ["turn", "leg", "player", "action", "card", "ev_taken", "best",
                      "best_ev", "ev_lost"]
EV_WORDS = ("EV in EP of this leg's payout, winner and loser cards by the race odds "
            "(oddsbot advise), from the mover's view: what they knew at the turn's start")


def _table_label(turn: RecordTurn, evs: dict[str, float]) -> str:
    """The EV table's label of ``turn``: the table lists a bet after a race action only
    where it can differ from the bet before (§14.1), else the same turn bet first."""
    if turn.action in evs or turn.bet2 == K.NO_BET:
        return turn.action
    return turn_label(turn.bet2, turn.race, K.NO_BET, turn.colour)


def annotate(steps: list[tuple[Position, RecordTurn]], *, samples: int = 20000, seed: int = 0,
             rollouts: int | None = None, policy: str | None = None,
             progress: Callable[[int, int], None] | None = None) -> Table:
    """One row per turn: the turn taken, the card it revealed or played, its EV
    ``ev_taken`` (``EV_WORDS``; a reveal valued before its card is known), the best turn
    of ``advise``'s table and its ``best_ev``, and ``ev_lost`` = best_ev - ev_taken (>= 0).
    ``samples`` and ``seed``: ``advise``'s, the same at every turn. With ``rollouts``:
    ``advise(rollouts=..., policy=...)``, whose best turns by EV are rolled out, adding
    ``ROLLOUT_COLUMNS``; the turn taken, if not among them, is rolled out on its own on
    the same random numbers (``rollouts.rollout_equity``). The SEs of the sampled values:
    ``SE_COLUMNS`` (``se_fields``; advise values a race action's bets on the same legs and
    races, with no paired SE of ev, so ``ev_lost_se`` is the bound ``ev_se + best_ev_se``)
    and with rollouts ``ROLLOUT_SE_COLUMNS`` (equity_lost_se: advise's paired ``gap_se``
    where the turn taken was among its rollouts, else the bound ``win_se +
    best_win_se``)."""
    from .face import advise  # (face imports this module)
    from .rollouts import rollout_equity

    extra = {} if rollouts is None else {"rollouts": rollouts, "policy": policy}
    rows = []
    for i, (pos, turn) in enumerate(steps, start=1):
        table = advise(pos, samples=samples, seed=seed, **extra)
        evs = dict(zip(table["action"], table["ev"]))
        taken = _table_label(turn, evs)
        best = max(table["action"], key=evs.__getitem__)  # the first of the best
        ev, best_ev = float(evs[taken]), float(evs[best])
        rows_of = {r["action"]: r for r in table.dicts()}
        row = {"turn": i, "leg": pos.leg, "player": turn.player, "action": turn.action,
               "card": turn.card or "", "ev_taken": ev, "best": best, "best_ev": best_ev,
               "ev_lost": best_ev - ev,
               **se_fields(best_ev - ev, rows_of[taken], rows_of[best], taken == best)}
        if rollouts is not None:
            policy = table.provenance["policy"]
            rolled = {a: w for a, w in zip(table["action"], table["win_p"]) if w is not None}
            win_se = dict(zip(table["action"], table["win_se"]))
            gap_se = dict(zip(table["action"], table["gap_se"]))
            if taken not in rolled:
                alone = rollout_equity(pos, [taken], rollouts=rollouts, policy=policy,
                                       seed=seed)
                rolled[taken], win_se[taken] = float(alone.win[0]), float(alone.win_se[0])
                gap_se.pop(taken, None)  # not paired with the table's rollouts
            fields = rollout_fields(rolled[taken], rolled.items())
            row.update(fields, **rollout_se_fields(fields, taken, win_se, gap_se))
        rows.append(row)
        if progress is not None:
            progress(i, len(steps))
    return annotation_table("camel-up-cards", ANNOTATION_COLUMNS, rows, steps,
                            seed=seed, samples=samples, rollouts=rollouts, policy=policy,
                            ev=EV_WORDS)


def table_view(table: Table, wide: bool = False) -> Table:
    """The replay table as people read it (80 columns): turn, player, the turn taken with
    its card (and on a line below the best turn where that is worth more), its EV and the
    EV lost; with rollouts its win probability and the equity lost, the best turn being
    the best by rollout equity. ``wide``: every column."""
    if wide:
        return table
    rolled = "best_rollout" in table
    best, lost = ("best_rollout", "equity_lost") if rolled else ("best", "ev_lost")
    action = [a + (f" -> {c}" if c else "") + (f"\nbest: {b}" if x else "")
              for a, c, b, x in zip(table["action"], table["card"], table[best],
                                    table[lost])]
    return Table.from_columns({"turn": table["turn"], "player": table["player"],
                               "action": action,
                               **{c: table[c] for c in (("win_p", lost) if rolled else
                                                        ("ev_taken", lost))}})


def status(steps: Replay) -> str:
    """How the record ends, for the ``record OK`` line."""
    return (f"game over after leg {steps.leg}: winner {steps.winner}, loser {steps.loser}"
            if steps.over else
            f"game not over: leg {steps.leg}, p{player_name(steps.final, steps.to_move)} to move")


def result(steps: Replay) -> dict | None:
    """The race's winner and loser camels and the final money (EP) of a finished game,
    else None."""
    return ({"winner": steps.winner, "loser": steps.loser, "money": list(steps.money),
             "legs": steps.leg} if steps.over else None)


def caption(steps: Replay, lost: list[float], *, samples: int, seed: int,
            rollouts: int | None) -> str:
    """The caption of the terminal replay table."""
    return (f"EV in EP, one turn, the mover's view · {samples:,} samples per race action "
            f"where sampled, seed {seed}" + (f" · {rollouts:,} rollouts" if rollouts else "")
            + " · EV lost: "
            + ", ".join(f"p{player_name(steps.final, p)} {x:.2f}" for p, x in enumerate(lost))
            + (f" · winner {steps.winner}, loser {steps.loser}, money "
               f"{','.join(map(str, steps.money))}" if steps.over else ""))


def warm_up() -> None:
    """Compile (or load from the cache) what records use beyond a whole game: a random
    game's record replayed (every kind of turn) and its first turns annotated."""
    _, steps = load_record(play(3, 1, "camel-up-cards", "random"))
    annotate(steps[:2], samples=256, seed=1)
