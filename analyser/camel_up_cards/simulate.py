"""Whole games of Camel Up Cards: new deals and seeded playthroughs under a policy
(docs/games/camel-up-cards.md §2, §3, §14.4), and their records (§14.5).

``new_position`` deals a new game (stream (seed, 0)) and shows it to the player to move.
``simulate`` completes a position with what its viewer cannot see, drawn from the model of
§9 (stream (seed, 1)): the rest of the race deck from the viewer's candidate decks, each
opponent's hand card uniformly from the cards left unseen, then which opponent put which
of the deck's unknown cards in and what each opponent discarded. It then plays to the end,
deals from stream (seed, 0) and choices from stream (seed, 2).

A game's record (``GameResult.text``, read back by ``record.py``) is omniscient: besides the
turns it gives every leg's ``Deal``, every seat's cards, so that a replay can rebuild what
each player knew at each turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from ...errors import OddsbotError
from ...kernels.camel_up_cards import batch_games as B
from ...kernels.camel_up_cards import game as K
from ...kernels.camel_up_cards import policy as P
from ...kernels.camel_up_cards import rollouts as R
from ...kernels.camel_up_cards import track as T
from ...kernels.rng import below, stream
from .encode import type_counts
from .labels import COLOUR_NAMES, turn_label
from .position import (CARD_TYPES, COLOURS, DEFAULT_LAST, DEFAULT_SETUP, GAME,
                       LEADER_VALUES, MAX_PLAYERS, MIN_PLAYERS, Figure, Position, card_key)
from .state import known_state, seat_field
from .validate import validate

POLICIES = P.POLICY_NAMES
NONE = "-"  # no card, in a deal line


def decode(st: np.ndarray, viewer: int | None = None) -> Position:
    """The position of game state ``st`` as seat ``viewer`` (default: the seat to move)
    knows it, at the start of a turn."""
    n = int(st[K.N_PLAYERS])

    def of(p: int, field: int) -> int:
        return int(st[seat_field(p, field)])

    me = int(st[K.TO_MOVE]) if viewer is None else viewer
    last = int(st[T.LAST])
    stacks: list[list[str]] = [[] for _ in range(last)]
    line: list[tuple[int, str]] = []
    for c, colour in enumerate(COLOURS):
        s, h = int(st[T.SP + c]), int(st[T.HT + c])
        if s == 0:
            line.append((h, colour))
        elif s <= last:
            stacks[s - 1].append((h, colour))
    figs = []
    for at, holder in ((T.FOX, T.FOX_HOLDER), (T.PALM, T.PALM_HOLDER)):
        figs.append(Figure(int(st[at]), int(st[holder])) if st[at] else None)
    put = int(st[K.INTO_DECK]) + int(st[K.BLUE])
    first = int(st[K.DISCARDED])
    cards = [of(me, K.CARDS + i) for i in range(int(st[K.DEALT]))]
    blue = tuple(CARD_TYPES[of(p, K.CARDS + first + put - 1)] if st[K.BLUE] else None
                 for p in range(n))
    hand = of(me, K.HAND)
    played = tuple((p, CARD_TYPES[of(p, K.PLAYED)]) for p in range(n)
                   if of(p, K.PLAYED) >= 0)
    leader = []
    for p in range(n):
        held = []
        for c, colour in enumerate(COLOURS):
            k, total = of(p, K.LEAD_N + c), of(p, K.LEAD_SUM + c)
            held += [(colour, v) for v in _leader_values(k, total)]
        leader.append(tuple(held))
    ages = tuple(sorted(range(n), key=lambda p: of(p, K.AGE)))
    return Position(
        players=n, ages=ages, setup=(int(st[K.DEALT]), int(st[K.DISCARDED]),
                                     int(st[K.INTO_DECK])),
        last=last, cards=tuple(int(x) for x in st[T.CARD:T.CARD + st[T.N_CARDS]]),
        start_line=tuple(c for _, c in sorted(line, reverse=True)),
        stacks=tuple(tuple(c for _, c in sorted(s)) for s in stacks),
        fox=figs[0], palm=figs[1], viewer=me,
        revealed=tuple(CARD_TYPES[t] for t in st[K.DECK:K.DECK + st[K.DRAWN]]),
        played=played, blue=blue,
        own_discarded=tuple(CARD_TYPES[t] for t in cards[:first]),
        own_deck=tuple(CARD_TYPES[t] for t in cards[first:first + int(st[K.INTO_DECK])]),
        own_hand=CARD_TYPES[hand] if hand >= 0 else None,
        hands=tuple(of(p, K.HAND) >= 0 for p in range(n)),
        leader=tuple(leader),
        midfield=tuple(tuple(colour for c, colour in enumerate(COLOURS)
                             if st[K.MID_HOLDER + c] == p) for p in range(n)),
        winner=tuple(COLOURS[of(p, K.WINNER)] if of(p, K.WINNER) >= 0 else None
                     for p in range(n)),
        loser=tuple(COLOURS[of(p, K.LOSER)] if of(p, K.LOSER) >= 0 else None
                    for p in range(n)),
        money=tuple(of(p, K.MONEY) for p in range(n)),
        to_move=int(st[K.TO_MOVE]), leg=int(st[K.LEG]))


def _leader_values(k: int, total: int) -> tuple[int, ...]:
    """The leader cards of one colour a seat holds, from their count and sum (the kernel
    keeps only those): one subset of 5 3 2 2 fits each pair."""
    return next(v for v in combinations(LEADER_VALUES, k) if sum(v) == total)


def new_position(players: int = 4, seed: int = 0, variant_id: str = GAME) -> Position:
    """A new game for ``players`` (§2) dealt from stream (seed, 0), at the first turn of
    leg 1, as the player to move sees it. Seat 0 is the youngest."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OddsbotError(f"players: {GAME} is for {MIN_PLAYERS}-{MAX_PLAYERS} players, "
                           f"got {players}")
    st = K.new_game(players, stream(np.uint64(seed), 0), np.arange(players),
                    np.array(DEFAULT_SETUP[players]), DEFAULT_LAST[players])
    return decode(st)


# --------------------------------------------------------------------------- deals


def cards_text(cards: Sequence[str]) -> str:
    """Cards as a deal line writes them: '.'-joined in canonical order, '-' for none."""
    return ".".join(sorted(cards, key=card_key)) or NONE


@dataclass(frozen=True)
class SeatDeal:
    """One seat's cards of a leg (§3), as card names (``'G1'``): the cards it discarded,
    put into the race deck and revealed (blue; None with 2 players), and the one it kept
    (its hand card, held or played)."""

    discarded: tuple[str, ...]
    deck: tuple[str, ...]
    blue: str | None
    hand: str

    def cards(self) -> tuple[str, ...]:
        """Every card dealt to the seat, in the kernel's order (``game.CARDS``)."""
        return self.discarded + self.deck + ((self.blue,) if self.blue else ()) + (self.hand,)

    def text(self) -> str:
        return "/".join((cards_text(self.discarded), cards_text(self.deck),
                         self.blue or NONE, self.hand))


@dataclass(frozen=True)
class Deal:
    """Every seat's cards of leg ``leg`` (seat order)."""

    leg: int
    seats: tuple[SeatDeal, ...]

    def race_deck(self) -> tuple[str, ...]:
        """The cards of the race deck (every seat's deck and blue cards), canonical order."""
        return tuple(sorted((c for s in self.seats for c in s.deck + ((s.blue,) if s.blue
                                                                      else ())),
                            key=card_key))

    def text(self) -> str:
        """The record's deal line: ``deal leg=1 p0=<discarded>/<deck>/<blue>/<hand> ...``."""
        return " ".join([f"deal leg={self.leg}"] + [f"p{p}={s.text()}"
                                                    for p, s in enumerate(self.seats)])


def deal_of(st: np.ndarray) -> Deal:
    """The deal of the current leg of game state ``st`` (every seat's cards)."""
    first, put, blue = int(st[K.DISCARDED]), int(st[K.INTO_DECK]), int(st[K.BLUE])
    seats = []
    for p in range(int(st[K.N_PLAYERS])):
        base = seat_field(p, K.CARDS)
        cards = [CARD_TYPES[t] for t in st[base:base + int(st[K.DEALT])]]
        seats.append(SeatDeal(tuple(cards[:first]), tuple(cards[first:first + put]),
                              cards[first + put] if blue else None, cards[-1]))
    return Deal(int(st[K.LEG]), tuple(seats))


def put_deal(st: np.ndarray, deal: Deal, deck: Sequence[str]) -> None:
    """Write ``deal`` into game state ``st``: every seat's cards (each holds its hand card)
    and the race deck in drawing order ``deck``."""
    for p, cards in enumerate(deal.seats):
        base = seat_field(p, K.CARDS)
        st[base:base + K.MAX_DEALT] = -1
        st[base:base + len(cards.cards())] = [CARD_TYPES.index(c) for c in cards.cards()]
        st[seat_field(p, K.HAND)] = CARD_TYPES.index(cards.hand)
    st[K.DECK:K.DECK + len(deck)] = [CARD_TYPES.index(c) for c in deck]


def state_of(pos: Position, deal: Deal, deck: Sequence[str]) -> np.ndarray:
    """The game state of ``pos`` (between turns) whose leg was dealt ``deal``, the race
    deck in drawing order ``deck`` (``pos.revealed`` first). ``deal`` is trusted to agree
    with ``pos`` (``record`` checks a record's)."""
    st, _ = known_state(pos)
    put_deal(st, deal, deck)
    for p in range(pos.players):
        if not pos.hands[p]:
            st[seat_field(p, K.HAND)] = -1
    return st


def complete(pos: Position, s: np.ndarray) -> np.ndarray:
    """A full game state consistent with what ``pos``'s viewer knows, the hidden cards
    drawn from stream ``s``: the rest of the race deck and the opponents' hand cards by
    the kernel's ``sample_hidden`` (the model rollouts use, §9), then the opponents' deck
    cards (the unknown part, dealt among them) and their discards, with any discards the
    viewer left out (from what is left unseen), uniformly, so that the game's record can
    be written whole."""
    validate(pos)
    st, h = known_state(pos)
    R.sample_hidden(st, h.m, h.cum, h.pool, h.known, h.revealed, h.hidden_hands, s)
    rest = tuple(CARD_TYPES[t] for t in st[K.DECK + len(pos.revealed):K.DECK + pos.deck_size])
    me = pos.viewer
    hands = [(pos.own_hand or pos.played_card(p)) if p == me else
             CARD_TYPES[st[seat_field(p, K.HAND)]] if pos.hands[p] else pos.played_card(p)
             for p in range(pos.players)]
    unknown = type_counts(pos.revealed + rest) - h.known  # the opponents' deck cards
    drawn_hands = type_counts(hands[p] for p in range(pos.players)
                              if p != me and pos.hands[p])
    left = _cards_of(h.pool - unknown - drawn_hands)  # neither in the deck nor seen

    def take(cards: list[str]) -> str:
        return cards.pop(below(s, len(cards)))

    others = _cards_of(unknown)
    seats = []
    for p in range(pos.players):
        if p == me:  # discards the viewer left out are unknown: drawn like the others'
            missing = pos.discarded - len(pos.own_discarded)
            forgotten = tuple(take(left) for _ in range(missing))
            seats.append(SeatDeal(pos.own_discarded + forgotten, pos.own_deck, pos.blue[p],
                                  hands[p]))
        else:
            deck = tuple(take(others) for _ in range(pos.into_deck))
            seats.append(SeatDeal(tuple(take(left) for _ in range(pos.discarded)), deck,
                                  pos.blue[p], hands[p]))
    return state_of(pos, Deal(pos.leg, tuple(seats)), pos.revealed + rest)


def _cards_of(counts: np.ndarray) -> list[str]:
    """The cards of per-type ``counts``, canonical order."""
    return [CARD_TYPES[t] for t in range(T.N_TYPES) for _ in range(int(counts[t]))]


# --------------------------------------------------------------------------- games


@dataclass(frozen=True)
class Turn:
    """One turn of a simulated game: who, its label (§14.1), the card revealed or played,
    whether it ended the leg or the race, everyone's money after it (payouts included),
    and when it ended a leg, the next leg's deal."""

    player: int
    action: str
    card: str | None  # the card revealed or played
    leg_end: str | None  # "leg" or "race" when the turn ended one
    money: tuple[int, ...]  # everyone's money after the turn (and payouts)
    deal: Deal | None = None  # the next leg's deal, after a turn that ended a leg

    def text(self, number: int) -> str:
        """The record's line of this turn, numbered ``number``."""
        card = f" -> {self.card}" if self.card else ""
        end = f" | {self.leg_end} ends" if self.leg_end else ""
        return (f"{number:4d} p{self.player} {self.action}{card}{end} | money "
                f"{','.join(map(str, self.money))}")


@dataclass(frozen=True)
class GameResult:
    """A simulated game: its start, the deal of the start's leg, the turns, and the race's
    winner and loser (colour names) and final money if ``over`` (else where it stopped)."""

    start: Position
    deal: Deal
    turns: tuple[Turn, ...]
    winner: str
    loser: str
    money: tuple[int, ...]
    over: bool = True

    def text(self) -> str:
        """The game's record (docs/games/camel-up-cards.md §14.5): the start, the deal, one
        line per turn and each later leg's deal after the turn that ended the leg before,
        then the result."""
        lines = [f"start {self.start.to_notation()}", self.deal.text()]
        for i, t in enumerate(self.turns, start=1):
            lines.append(t.text(i))
            if t.deal is not None:
                lines.append(t.deal.text())
        if self.over:
            lines.append(f"winner {self.winner} loser {self.loser} money "
                         f"{','.join(map(str, self.money))}")
        return "\n".join(lines) + "\n"


def simulate(pos: Position, *, seed: int = 0, policy: str = "heuristic") -> GameResult:
    """Play ``pos`` to the end, every seat following ``policy`` (module doc). A position
    in the middle of a turn is first brought to the turn's end: the race action the
    policy picks (phase ``bet``) or no bet (phase ``race``)."""
    if policy not in POLICIES:
        raise OddsbotError(f"policy: unknown policy {policy!r} (known: {', '.join(POLICIES)})")
    st = complete(pos, stream(np.uint64(seed), 1))
    first = deal_of(st)
    deal, pol = stream(np.uint64(seed), 0), stream(np.uint64(seed), 2)
    code = POLICIES.index(policy)
    turns: list[Turn] = []
    if pos.phase == "race":
        st[K.TO_MOVE] = (pos.to_move + 1) % pos.players
    elif pos.phase == "bet":
        _, race, _ = P.choose(st, pol, code)
        turns.append(_turn(st, deal, K.NO_BET, race, K.NO_BET))
    return _play_out(st, pos, first, turns, deal, pol, code)


def play(players: int, seed: int, variant: str = GAME, policy: str = "heuristic") -> str:
    """A whole new game (deal and race deck from stream (seed, 0), as dealt: nothing is
    resampled), every seat following ``policy``, as its record text."""
    if policy not in POLICIES:
        raise OddsbotError(f"policy: unknown policy {policy!r} (known: {', '.join(POLICIES)})")
    start = new_position(players, seed, variant)
    deal = stream(np.uint64(seed), 0)
    st = K.new_game(players, deal, np.arange(players), np.array(DEFAULT_SETUP[players]),
                    DEFAULT_LAST[players])
    return _play_out(st, start, deal_of(st), [], deal, stream(np.uint64(seed), 2),
                     POLICIES.index(policy)).text()


def _play_out(st: np.ndarray, start: Position, first: Deal, turns: list[Turn],
              deal: np.ndarray, pol: np.ndarray, code: int) -> GameResult:
    """Turns from ``st`` to the end of the game (after ``turns`` already played)."""
    while st[K.STATUS] == 0 and len(turns) < B.MAX_TURNS:
        bet1, race, bet2 = P.choose(st, pol, code)
        turns.append(_turn(st, deal, bet1, race, bet2))
    return result_of(st, start, first, turns)


def result_of(st: np.ndarray, start: Position, first: Deal, turns: list[Turn]
              ) -> GameResult:
    """The game from ``start`` (its leg dealt ``first``) through ``turns``, which left the
    game state ``st``: its winner, loser and money once over."""
    n = start.players
    order = np.empty(T.N_CAMELS, dtype=np.int64)
    T.ranking(st, order)
    money = tuple(int(st[seat_field(p, K.MONEY)]) for p in range(n))
    return GameResult(start, first, tuple(turns), COLOUR_NAMES[order[0]],
                      COLOUR_NAMES[order[-1]], money, bool(st[K.STATUS]))


def _turn(st: np.ndarray, deal: np.ndarray, bet1: int, race: int, bet2: int) -> Turn:
    p = int(st[K.TO_MOVE])
    hand = int(st[seat_field(p, K.HAND)])
    ended, card = K.play_turn(st, deal, bet1, race, bet2)
    n = int(st[K.N_PLAYERS])
    return Turn(p, turn_label(bet1, race, bet2, T.card_colour(hand) if hand >= 0 else -1),
                CARD_TYPES[card] if card >= 0 else None, (None, "leg", "race")[ended],
                tuple(int(st[seat_field(q, K.MONEY)]) for q in range(n)),
                deal_of(st) if ended == 1 else None)
