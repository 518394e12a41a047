"""The Camel Up Cards position (docs/games/camel-up-cards.md §6), as one player knows it.

Conventions (§0): camels ``W G O B Y`` (this order is the colour index); the start card is
position 0 and its line-up is listed first = ranked ahead (C-AMB-2); track spaces 1..L, a
stack listed bottom -> top; seats 0..n-1 in turn order; a racing card is its colour and
value, ``'W1'`` or ``'W2'`` (§1: five "+1" and one "+2" per colour); money in EP.

The position is what the **viewer** knows (§9): the public facts plus the viewer's own cards
of this leg. Fields left out (``None``) get the documented defaults when the position is
built (``__post_init__``), so every field of a built position is concrete; the sets among
them (the viewer's discarded and deck cards, each seat's leg bets) are kept in one canonical
order, so equal knowledge gives equal, equally hashed positions. Shapes are checked by the
readers (``json_form``, ``notation``), game invariants by ``validate``.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from ...errors import PositionError, quote

GAME = "camel-up-cards"
COLOURS = ("W", "G", "O", "B", "Y")
VALUES = (1, 2)  # a racing card's value: "+1" or "+2"
CARD_COPIES = {1: 5, 2: 1}  # copies of each colour's card of that value (§1)
CARD_TYPES = tuple(f"{c}{v}" for c in COLOURS for v in VALUES)  # the 10 types, canonical
FULL_SET = tuple(t for t in CARD_TYPES for _ in range(CARD_COPIES[int(t[1])]))  # the 30
LEADER_VALUES = (5, 3, 2, 2)  # each colour's leader stack, top first (§3.1)
MIN_PLAYERS, MAX_PLAYERS = 2, 6
DEFAULT_SETUP = {2: (12, 5, 6), 3: (10, 5, 3), 4: (7, 3, 2), 5: (6, 3, 1), 6: (5, 2, 1)}
DEFAULT_LAST = {2: 15, 3: 16, 4: 17, 5: 18, 6: 19}
MAX_LAST = 60  # the last space is capped (§5.5, C-AMB-12)
MAX_SETUP = 30  # no setup number exceeds the 30 racing cards
START_MONEY = 3
MAX_MONEY = 999_999  # EP: more than any game can score
MAX_LEG = 999_999
PHASES = ("start", "bet", "race")  # nothing done / bet done / race action done (§4)

_RANK = {c: i for i, c in enumerate(COLOURS)}


@dataclass(frozen=True)
class Figure:
    """The fox or the palm on the track: its space and the seat holding its card."""

    space: int
    holder: int


def blue_count(players: int) -> int:
    """Cards each player reveals into the race deck at leg setup (§2): 1 with 3+ players."""
    return 1 if players >= 3 else 0


def is_card(value: Any) -> bool:
    """``value`` names a racing card: a colour letter and 1 or 2."""
    return isinstance(value, str) and value in CARD_TYPES


def card_colour(card: str) -> str:
    return card[0]


def card_value(card: str) -> int:
    return int(card[1])


def copies(card: str) -> int:
    """How many of the 30 racing cards are of ``card``'s type (5 for a +1, 1 for a +2)."""
    return CARD_COPIES[card_value(card)]


def card_key(card: Any) -> tuple:
    """Canonical order of cards: by colour index, then value (anything else last)."""
    if is_card(card):
        return (0, _RANK[card[0]], card[1])
    return (1, 0, repr(card))


def _leader_key(item: Any) -> tuple:
    """Leader cards by colour index, then value high first (anything else last)."""
    if isinstance(item, tuple) and len(item) == 2 and item[0] in _RANK \
            and isinstance(item[1], int):
        return (0, _RANK[item[0]], -item[1])
    return (1, 0, repr(item))


def _colour_key(colour: Any) -> tuple:
    return (0, _RANK[colour]) if colour in _RANK else (1, repr(colour))


def _tuple(value: Any) -> Any:
    """Lists given by hand become tuples (so the position stays hashable)."""
    return tuple(value) if isinstance(value, list) else value


@dataclass(frozen=True, kw_only=True)
class Position:
    """A Camel Up Cards position during a leg, seen by seat ``viewer`` (module doc).

    ``None`` means "the default" (filled in when built): ``ages`` seat 0 youngest first;
    ``setup`` and ``last`` per player count (§2); ``cards`` all two-space cards up to L;
    ``stacks`` empty; ``viewer`` the player to move; ``blue`` none (2 players only);
    ``hands`` held by every seat that has not played; no bets; 3 EP each.
    """

    variant: str = GAME
    players: int
    ages: tuple[int, ...] | None = None  # seats, youngest first (C-AMB-13)
    setup: tuple[int, int, int] | None = None  # dealt, discarded, into the deck (§2)
    last: int | None = None  # L, the last track space
    cards: tuple[int, ...] | None = None  # track-card sizes (2, or 1 sandstorm), first on
    start_line: tuple[str, ...] = ()  # camels on the start card, first = ahead
    stacks: tuple[tuple[str, ...], ...] | None = None  # index i is space i + 1, bottom -> top
    fox: Figure | None = None  # None: beside the track
    palm: Figure | None = None
    viewer: int | None = None  # the seat whose knowledge this is
    revealed: tuple[str, ...] = ()  # cards revealed from the race deck this leg, in order
    played: tuple[tuple[int, str], ...] = ()  # hand cards played this leg: (seat, card)
    blue: tuple[str | None, ...] | None = None  # each seat's revealed (blue) card this leg
    own_discarded: tuple[str, ...] = ()  # the viewer's discards this leg
    own_deck: tuple[str, ...] = ()  # the cards the viewer put into the race deck
    own_hand: str | None = None  # the viewer's hand card; None once played
    hands: tuple[bool, ...] | None = None  # per seat: still holds a hand card
    leader: tuple[tuple[tuple[str, int], ...], ...] | None = None  # per seat: (colour, value)
    midfield: tuple[tuple[str, ...], ...] | None = None  # per seat: colours
    winner: tuple[str | None, ...] | None = None  # per seat: colour of the winner card held
    loser: tuple[str | None, ...] | None = None
    money: tuple[int, ...] | None = None
    to_move: int = 0
    phase: str = "start"  # PHASES
    leg: int = 1  # informational

    def __post_init__(self) -> None:
        n = self.players
        if isinstance(n, bool) or not isinstance(n, int) \
                or not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise PositionError("players", f"{GAME} is for {MIN_PLAYERS}-{MAX_PLAYERS} "
                                           f"players, got {quote(n)}")
        put = object.__setattr__
        for name in ("ages", "setup", "cards", "start_line", "revealed", "blue",
                     "own_discarded", "own_deck", "hands", "winner", "loser", "money"):
            put(self, name, _tuple(getattr(self, name)))
        for name in ("stacks", "played", "midfield"):
            value = _tuple(getattr(self, name))
            put(self, name, value if value is None else tuple(_tuple(x) for x in value))
        if self.leader is not None:
            put(self, "leader", tuple(tuple(_tuple(card) for card in _tuple(held))
                                      for held in _tuple(self.leader)))
        if self.ages is None:
            put(self, "ages", tuple(range(n)))
        if self.setup is None:
            put(self, "setup", DEFAULT_SETUP[n])
        if self.last is None:
            put(self, "last", DEFAULT_LAST[n])
        length = self.last if isinstance(self.last, int) and 0 <= self.last <= MAX_LAST \
            else 0
        if self.cards is None:
            put(self, "cards", (2,) * ((length + 1) // 2))
        if self.stacks is None:
            put(self, "stacks", ((),) * length)
        if self.viewer is None:
            put(self, "viewer", self.to_move)
        if self.blue is None:
            put(self, "blue", (None,) * n)
        if self.hands is None:
            gone = {entry[0] for entry in self.played if isinstance(entry, tuple) and entry}
            put(self, "hands", tuple(s not in gone for s in range(n)))
        for name in ("leader", "midfield"):
            if getattr(self, name) is None:
                put(self, name, ((),) * n)
        for name in ("winner", "loser"):
            if getattr(self, name) is None:
                put(self, name, (None,) * n)
        if self.money is None:
            put(self, "money", (START_MONEY,) * n)
        # canonical order of what is a set, not a sequence
        put(self, "own_discarded", tuple(sorted(self.own_discarded, key=card_key)))
        put(self, "own_deck", tuple(sorted(self.own_deck, key=card_key)))
        put(self, "leader", tuple(tuple(sorted(held, key=_leader_key))
                                  if isinstance(held, tuple) else held
                                  for held in self.leader))
        put(self, "midfield", tuple(tuple(sorted(held, key=_colour_key))
                                    if isinstance(held, tuple) else held
                                    for held in self.midfield))

    # ------------------------------------------------------------------ leg setup numbers

    @property
    def dealt(self) -> int:
        return self.setup[0]

    @property
    def discarded(self) -> int:
        return self.setup[1]

    @property
    def into_deck(self) -> int:
        return self.setup[2]

    @property
    def blue_per_player(self) -> int:
        """Cards each player reveals into the deck at leg setup: 1 with 3+ players."""
        return blue_count(self.players)

    @property
    def deck_size(self) -> int:
        """Cards in the race deck at the start of the leg (§2)."""
        return self.players * self.into_deck + self.blue_per_player * self.players

    @property
    def unknown_size(self) -> int:
        """The race deck's unknown part: the opponents' green cards (§9)."""
        return (self.players - 1) * self.into_deck

    @property
    def deck_count(self) -> int:
        """Cards still in the race deck."""
        return self.deck_size - len(self.revealed)

    # ------------------------------------------------------------------ the board

    def stack(self, space: int) -> tuple[str, ...]:
        """The stack on track space ``space`` (1..L), bottom -> top."""
        return self.stacks[space - 1]

    def camel_position(self, camel: str) -> int:
        """0 if ``camel`` is on the start card, else its space (KeyError if absent)."""
        if camel in self.start_line:
            return 0
        for s, stack in enumerate(self.stacks, start=1):
            if camel in stack:
                return s
        raise KeyError(camel)

    @property
    def last_camel(self) -> int:
        """Position of the last camel: 0 while any camel is on the start card."""
        if self.start_line:
            return 0
        return min((s for s, stack in enumerate(self.stacks, start=1) if stack), default=0)

    @property
    def finish_half_covers(self) -> bool:
        """The finish card covers the second half of the last track card (L odd, §2)."""
        return sum(self.cards) > self.last

    # ------------------------------------------------------------------ cards and bets

    def played_card(self, seat: int) -> str | None:
        """The hand card ``seat`` played this leg, or None."""
        return next((card for s, card in self.played if s == seat), None)

    @property
    def own_dealt(self) -> tuple[str, ...]:
        """The viewer's dealt cards this leg: discarded, into the deck, blue (3+ players),
        and the hand card (held or played)."""
        out = self.own_discarded + self.own_deck
        if self.players >= 3 and self.blue[self.viewer] is not None:
            out += (self.blue[self.viewer],)
        hand = self.own_hand if self.own_hand is not None else self.played_card(self.viewer)
        if hand is not None:
            out += (hand,)
        return out

    def leader_stack(self, colour: str) -> tuple[int, ...]:
        """Leader cards of ``colour`` still in its stack, top first: 5, 3, 2, 2 less the
        values held by the players."""
        left = list(LEADER_VALUES)
        for held in self.leader:
            for c, value in held:
                if c == colour and value in left:
                    left.remove(value)
        return tuple(left)

    def midfield_available(self, colour: str) -> bool:
        """The midfield card of ``colour`` is not held by anybody."""
        return not any(colour in held for held in self.midfield)

    def with_(self, **changes: Any) -> Position:
        return replace(self, **changes)

    # ------------------------------------------------------------------ forms

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this position (every field; docs/games/camel-up-cards.md)."""
        from .json_form import position_to_json

        return position_to_json(self)

    def to_json_text(self) -> str:
        return json.dumps(self.to_json(), indent=2)

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """A position from its JSON object; PositionError naming the field if malformed.
        The invariants are checked by ``validate``."""
        from .json_form import position_from_json

        return position_from_json(data)

    def to_notation(self) -> str:
        from .notation import to_notation

        return to_notation(self)


def card_counts(cards: Any) -> Counter:
    """The cards of ``cards`` (None entries skipped) counted per type."""
    return Counter(c for c in cards if c is not None)
