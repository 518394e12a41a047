"""Play-along (``Capability.PLAY``, docs/games/camel-up-cards.md §15): a game carried forward
one turn at a time from ONE seat's point of view, the viewer's. A position stays what the
viewer knows (§9): their own turn is a label as ``advise`` prints it; an opponent's turn is
what the viewer sees of it (its bets, its race action, the card it revealed or played).

Each step runs the kernel's own turn (``game.play_turn``) on a scratch state: the position
completed with what the viewer cannot see (``simulate.complete``, a fixed stream), the card
the table saw put where the kernel reads it (the top of the race deck, or the opponent's
hand), and at a leg's end the viewer's new cards and every blue card put in as the next
deal (the opponents' other cards filled in from the cards left: they never reach the
position). The position after the step is that state as the viewer knows it
(``simulate.decode``), so nothing hidden leaks. Probabilities are the viewer's posterior of
§9: the candidate decks and their weights (``encode.deck_of``), the model ``advise``
samples from.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from ...errors import OddsbotError, quote
from ...kernels.camel_up_cards import game as K
from ...kernels.rng import stream
from ..play_common import choose_outcome, refuse_action
from ..play_common import seat_number as player_name
from . import advise as _advise
from .encode import deck_of
from .labels import COLOUR_NAMES, bet_label, parse_bet_or_none, parse_turn, turn_label
from .position import CARD_TYPES, COLOURS, FULL_SET, Position, card_key
from .simulate import NONE, Deal, SeatDeal, cards_text, complete, decode, put_deal
from .state import seat_field
from .validate import validate

VIEW_SYNTAX = "view p<seat>"
DEAL_WORDS = "<card> deal own=<discarded>/<deck>/<hand> blue=<b0>,<b1>,..."


# --------------------------------------------------------------------------- the labels


def _hand_labels(pos: Position, colour: str) -> list[str]:
    """The turns of the seat to move that play a hand card of ``colour``."""
    held = pos.with_(own_hand=f"{colour}1")
    return [label for label in _advise.turn_labels(held)
            if f"hand {COLOUR_NAMES[COLOURS.index(colour)]}" in label]


def observed_actions(pos: Position) -> list[str]:
    """The turns the viewer can see an opponent take (the seat to move is not the
    viewer): ``advise``'s labels of that seat, a ``hand <colour>`` for every colour its
    hidden hand card may have (chance > 0 under §9)."""
    bare = _advise.turn_labels(pos.with_(own_hand=None))
    if not pos.hands[pos.to_move] or pos.phase == "race":
        return bare
    hand = [label for colour in COLOURS if _hand_card(pos, colour)
            for label in _hand_labels(pos, colour)]
    reveal = [label for label in bare if "reveal" in label]
    return reveal + hand + [label for label in bare if label not in reveal]


def legal_turns(pos: Position) -> list[str]:
    """The turns of the seat to move as the viewer sees them: ``advise``'s labels on the
    viewer's turn, ``observed_actions`` on an opponent's."""
    validate(pos)
    if pos.to_move == pos.viewer:
        return _advise.turn_labels(pos)
    return observed_actions(pos)


# --------------------------------------------------------------------------- chances


def _reveal_cards(pos: Position) -> list[tuple[str, float]]:
    """The top card of the race deck: each candidate deck (§9) by its weight, then a card
    of it uniformly (the deck is well shuffled)."""
    deck = deck_of(pos)
    p = (deck.w[:, None] * deck.m).sum(axis=0) / deck.left
    return [(CARD_TYPES[t], float(p[t])) for t in range(len(CARD_TYPES)) if p[t] > 0]


def _hand_card(pos: Position, colour: str) -> list[tuple[str, float]]:
    """An opponent's hand card, given its colour (it is played openly): under §9 their
    hand card is uniform among the unseen cards not in the race deck, so its chance of
    type t is the weighted mean over the candidate decks of those cards of type t."""
    deck = deck_of(pos)
    k = deck.knowledge
    rest = k.pool - (deck.m + k.revealed - k.known)  # per candidate: neither dealt nor seen
    types = [CARD_TYPES.index(f"{colour}{v}") for v in (1, 2)]
    mass = (deck.w[:, None] * rest[:, types]).sum(axis=0)
    if mass.sum() <= 0:
        return []
    return [(CARD_TYPES[t], float(x / mass.sum())) for t, x in zip(types, mass) if x > 0]


def _canonical(pos: Position, action: str) -> tuple[str, tuple[int, int, int, int]]:
    """The label of ``action`` as the legal list writes it, and its kernel codes;
    refused in one line if it is not legal for the seat to move."""
    legal = legal_turns(pos)
    try:
        if pos.phase == "race":  # the race action is done: a bet or none is left
            bet = parse_bet_or_none(action)
            codes = (bet, -1, K.NO_BET, -1)
            label = "no bet" if bet == K.NO_BET else bet_label(bet)
        else:
            codes = parse_turn(action)
            label = turn_label(*codes)
            first = turn_label(codes[2], codes[1], K.NO_BET, codes[3])
            if label not in legal and codes[2] != K.NO_BET and first in legal:
                # the table lists the bet first where the order cannot matter (§14.1)
                label, codes = first, (codes[2], codes[1], K.NO_BET, codes[3])
    except OddsbotError:
        label = None
    if label not in legal:
        raise refuse_action(action, player_name(pos, pos.to_move), legal)
    return label, codes


def _empties_deck(pos: Position, codes: tuple[int, int, int, int]) -> bool:
    return codes[1] == K.RACE_REVEAL and pos.phase != "race" and pos.deck_count == 1


def outcomes(pos: Position, action: str) -> list[tuple[str, float]]:
    """The chance outcomes the viewer sees of ``action`` by the seat to move: a reveal's
    card (``Y1``), an opponent's hand card (``Y2``); ``[]`` for anything else. A reveal
    that empties the deck is listed by its card; ``apply`` then also needs the new deal
    the viewer sees (``DEAL_WORDS``, §15)."""
    _, codes = _canonical(pos, action)
    if pos.phase == "race":
        return []
    if codes[1] == K.RACE_REVEAL:
        return _reveal_cards(pos)
    if codes[1] == K.RACE_HAND and pos.to_move != pos.viewer:
        return _hand_card(pos, COLOURS[codes[3]])
    return []


# --------------------------------------------------------------------------- the step


def _read_cards(text: str, what: str) -> tuple[str, ...]:
    if text == NONE:
        return ()
    cards = tuple(c.upper() for c in text.split("."))
    bad = [c for c in cards if c not in CARD_TYPES]
    if bad or not text:
        raise OddsbotError(f"outcome: {what}: {quote(text)} is not '.'-joined racing cards "
                           f"(e.g. W1.G2) or '-'")
    return cards


def _read_deal(pos: Position, words: list[str]) -> tuple[SeatDeal, tuple[str | None, ...]]:
    """The viewer's new cards and every seat's blue card from ``deal own=... blue=...``."""
    keys = dict(w.partition("=")[::2] for w in words[1:])
    n, v = pos.players, pos.viewer
    if words[0] != "deal" or "own" not in keys or (n >= 3) != ("blue" in keys) \
            or len(keys) != len(words) - 1:
        raise OddsbotError(f"outcome: the reveal ends the leg; write the new deal you see "
                           f"after the card: '{DEAL_WORDS}'" +
                           (" (no blue= with 2 players)" if n < 3 else ""))
    own = keys["own"].split("/")
    if len(own) != 3:
        raise OddsbotError(f"outcome: own={quote(keys['own'])} is not "
                           f"<discarded>/<deck>/<hand>")
    discarded, deck, hand = (_read_cards(x, f"own {what}")
                             for x, what in zip(own, ("discarded", "deck", "hand")))
    blue: tuple[str | None, ...] = (None,) * n
    if n >= 3:
        blue = _read_cards(keys["blue"].replace(",", "."), "blue")
        if len(blue) != n:
            raise OddsbotError(f"outcome: blue= gives {len(blue)} cards for {n} seats")
    _, gone, into = pos.setup
    if (len(discarded), len(deck), len(hand)) != (gone, into, 1):
        raise OddsbotError(f"outcome: own= gives {len(discarded)}/{len(deck)}/{len(hand)} "
                           f"cards; the leg setup says {gone}/{into}/1")
    return SeatDeal(discarded, deck, blue[v], hand[0]), blue


def _fill(pos: Position, mine: SeatDeal, blue: tuple[str | None, ...]) -> Deal:
    """A whole deal holding what the viewer sees (their cards, the blue cards), the other
    cards filled in from the 30 in canonical order (scratch: never shown, §15)."""
    seen = Counter(mine.cards()) + Counter(c for p, c in enumerate(blue)
                                           if c and p != pos.viewer)
    too_many = [c for c in CARD_TYPES if seen[c] > FULL_SET.count(c)]
    if too_many:
        raise OddsbotError(f"outcome: the deal shows {seen[too_many[0]]} {too_many[0]} "
                           f"cards; the 30 racing cards hold {FULL_SET.count(too_many[0])}")
    left = Counter(FULL_SET) - seen
    rest = sorted(left.elements(), key=card_key)
    _, gone, into = pos.setup
    seats = []
    for p in range(pos.players):
        if p == pos.viewer:
            seats.append(mine)
            continue
        take = [rest.pop() for _ in range(gone + into + 1)]
        seats.append(SeatDeal(tuple(take[:gone]), tuple(take[gone:gone + into]), blue[p],
                              take[-1]))
    return Deal(pos.leg + 1, tuple(seats))


def _scratch(pos: Position) -> np.ndarray:
    """A whole game state the viewer's knowledge allows (§15: never shown)."""
    st = complete(pos, stream(np.uint64(0), 1))
    if pos.phase == "race":
        st[K.TO_MOVE] = pos.to_move
    return st


def _put_seen(st: np.ndarray, pos: Position, race: int, card: str | None) -> None:
    """The card the table saw, where the kernel reads it."""
    if card is None:
        return
    t = CARD_TYPES.index(card)
    if race == K.RACE_HAND:
        st[seat_field(pos.to_move, K.HAND)] = t
        return
    top = K.DECK + int(st[K.DRAWN])
    rest = list(st[top:K.DECK + int(st[K.DECK_SIZE])])
    if t in rest:  # keep the scratch deck whole where it can be
        i = top + rest.index(t)
        st[i] = st[top]
    st[top] = t


def step(pos: Position, action: str, outcome: str | None
         ) -> tuple[str, str | None, np.ndarray, int]:
    """The turn ``action`` (with ``outcome``) played through the kernel: its canonical
    label and outcome, the scratch state after it and how it ended (0, leg 1, race 2)."""
    label, codes = _canonical(pos, action)
    listed = outcomes(pos, label)
    words = (outcome or "").split()
    deal_words = words[1:]
    seen = choose_outcome(label, listed, words[0] if words else outcome,
                          lambda text: text.upper())
    if deal_words and not _empties_deck(pos, codes):
        raise OddsbotError(f"outcome: {quote(outcome)}: only a reveal that empties the race "
                           f"deck is followed by a deal")
    st = _scratch(pos)
    bet1, race, bet2, _ = codes
    if pos.phase == "race":
        if bet1 != K.NO_BET:
            K.apply_bet(st, pos.to_move, bet1)
        st[K.TO_MOVE] = (pos.to_move + 1) % pos.players
        return label, None, st, 0
    _put_seen(st, pos, race, seen)
    ended, _ = K.play_turn(st, stream(np.uint64(0), 0), bet1, race, bet2)
    if ended == 2 and deal_words:
        raise OddsbotError(f"outcome: {seen} ends the race: no deal follows")
    if ended == 1:
        if not deal_words:
            raise OddsbotError(f"outcome: {seen} ends leg {pos.leg}: write the new deal you "
                               f"see after it: '{DEAL_WORDS}'")
        mine, blue = _read_deal(pos, deal_words)
        deal = _fill(pos, mine, blue)
        put_deal(st, deal, deal.race_deck())
        seen = f"{seen} deal own={cards_text(mine.discarded)}/{cards_text(mine.deck)}/" \
               f"{mine.hand}" + (f" blue={','.join(blue)}" if pos.players >= 3 else "")
    return label, seen, st, int(ended)


def _after(pos: Position, st: np.ndarray) -> Position:
    after = decode(st, pos.viewer)
    validate(after)
    return after


def apply(pos: Position, action: str, outcome: str | None = None) -> Position:
    """The position, as the viewer knows it, after the seat to move takes ``action`` (a
    label as ``moves`` lists it) with the ``outcome`` the table saw. A turn that ends the
    race is refused (a position is of a running leg, §6): ``record_text`` writes it."""
    label, _, st, ended = step(pos, action, outcome)
    if ended == 2:
        raise OddsbotError(f"action: {quote(label)} ends the race; a position cannot show a "
                           f"finished race (the record of the game can: §15)")
    return _after(pos, st)


# --------------------------------------------------------------------------- records


def record_text(start: Position, moves: list[tuple[str, str | None]]) -> str:
    """The viewer's record of the game played from ``start`` by ``moves`` (§15): the start
    line, ``view p<seat>``, a line per turn ``<n> p<seat> <action>[ -> <outcome>]``, and
    ``| race ends`` on the turn that ends the race."""
    validate(start)
    lines = [f"start {start.to_notation()}", f"view p{start.viewer}"]
    pos: Position | None = start
    for i, (action, outcome) in enumerate(moves, start=1):
        if pos is None:
            raise OddsbotError(f"move {i}: the race is over; no action may follow")
        try:
            label, seen, st, ended = step(pos, action, outcome)
        except OddsbotError as exc:
            raise OddsbotError(f"move {i}: {exc}") from None
        lines.append(f"{i:4d} p{pos.to_move} {label}" + (f" -> {seen}" if seen else "")
                     + (" | race ends" if ended == 2 else ""))
        pos = None if ended == 2 else _after(pos, st)
    return "\n".join(lines) + "\n"


def is_view_record(text: str) -> bool:
    """``text`` is a viewer's record (its second fact line is ``view p<seat>``)."""
    facts = [line.split("#")[0].strip() for line in text.splitlines()]
    facts = [f for f in facts if f]
    return len(facts) > 1 and facts[1].startswith("view ")


@dataclass(frozen=True)
class ViewTurn:
    """One turn line of a viewer's record: its line, the position before it (the
    viewer's), the move as written, its canonical label and outcome, and how it ended."""

    line: int
    pos: Position
    move: tuple[str, str | None]
    label: str
    seen: str | None
    ended: int


def view_turns(text: str) -> tuple[Position, int, list[ViewTurn], np.ndarray | None]:
    """The start of a viewer's record, its line, its turns checked by ``step`` (one line
    ``line N: ...`` for the first bad one), and the scratch state after the last."""
    from .face import parse

    facts = [(n, line.split("#")[0].strip()) for n, line in enumerate(text.splitlines(), 1)]
    facts = [(n, f) for n, f in facts if f]
    if len(facts) < 2 or not facts[0][1].startswith("start ") \
            or not facts[1][1].startswith("view "):
        raise OddsbotError(f"line 1: a viewer's record starts 'start <notation>' then "
                           f"'{VIEW_SYNTAX}' (docs/games/camel-up-cards.md §15)")
    try:
        start = parse(facts[0][1][len("start "):])
        validate(start)
    except OddsbotError as exc:
        raise OddsbotError(f"line {facts[0][0]}: bad start position: {exc}") from None
    if facts[1][1] != f"view p{start.viewer}":
        raise OddsbotError(f"line {facts[1][0]}: expected 'view p{start.viewer}' (the start "
                           f"position's viewer)")
    pos: Position | None = start
    turns, st = [], None
    for n, fact in facts[2:]:
        body, _, _ = fact.partition("|")
        head, _, seen = body.partition("->")
        words = head.split()
        if words and words[0].isdigit():
            words = words[1:]
        if pos is None or not words or words[0] != f"p{pos.to_move}":
            raise OddsbotError(f"line {n}: expected 'p{pos.to_move} <action>[ -> <outcome>]'"
                               if pos else f"line {n}: the race is over")
        move = (" ".join(words[1:]), seen.strip() or None)
        try:
            label, shown, st, ended = step(pos, *move)
        except OddsbotError as exc:
            raise OddsbotError(f"line {n}: {exc}") from None
        turns.append(ViewTurn(n, pos, move, label, shown, ended))
        pos = None if ended == 2 else _after(pos, st)
    return start, facts[0][0], turns, st


def record_moves(text: str) -> tuple[Position, list[tuple[str, str | None]]]:
    """The start and the ``(action, outcome or None)`` pairs of a viewer's record
    (``record_text``'s inverse), each turn checked by ``apply``."""
    start, _, turns, _ = view_turns(text)
    return start, [t.move for t in turns]
