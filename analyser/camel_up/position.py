"""The Camel Up position (docs/games/camel-up.md §3) and its JSON form.

Conventions: spaces 1..16 in race direction; a stack is listed bottom -> top; players are
seats 0..n-1 in turn order; money in EP; ticket stacks are listed top first.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from .variants import CAMEL_UP, Variant, variant

N_SPACES = 16
START_MONEY = 3
MAX_MONEY = 999_999  # EP: more than any game can score (docs/games/camel-up.md §13.3)


@dataclass(frozen=True)
class Tile:
    owner: int
    space: int
    side: str  # "cheer" or "boo"


@dataclass(frozen=True)
class Card:
    """A finish card on the winner or loser deck; ``colour`` is None while hidden."""

    owner: int
    colour: str | None


@dataclass(frozen=True)
class Position:
    """A Camel Up position, seen by the player to move."""

    variant: str = CAMEL_UP.id
    track: tuple[tuple[str, ...], ...] = ((),) * N_SPACES  # index 0 is space 1
    pyramid: tuple[str, ...] = ()
    tiles: tuple[Tile, ...] = ()
    ticket_stacks: tuple[tuple[int, ...], ...] = ()  # per racing colour, top first
    leg_tickets: tuple[tuple[tuple[str, int], ...], ...] = ()  # per player
    pyramid_tickets: tuple[int, ...] = ()
    winner_deck: tuple[Card, ...] = ()  # placement order
    loser_deck: tuple[Card, ...] = ()
    finish_hand: tuple[tuple[str, ...] | None, ...] = ()  # None: colours hidden
    money: tuple[int, ...] = ()
    partnership: tuple[int | None, ...] | None = None  # partner seat, None available
    to_move: int = 0
    leg_start: int = 0
    players: int = 4
    status: str = "running"
    final_clamp: str = "card"  # AMB-8: "card" (card by card) or "net" (per player)

    @property
    def rules(self) -> Variant:
        return variant(self.variant)

    @property
    def revealed(self) -> int:
        """Dice revealed so far this leg."""
        return len(self.rules.dice) - len(self.pyramid)

    @property
    def tickets_taken(self) -> int:
        """Betting tickets the players hold (taken this leg)."""
        return sum(len(held) for held in self.leg_tickets)

    @property
    def pairs(self) -> int:
        """Partnerships formed this leg."""
        return sum(q is not None for q in self.partnership or ()) // 2

    @property
    def fewest_turns(self) -> int:
        """The fewest turns this leg can have had (docs/games/camel-up.md §13.4): one per
        die revealed, betting ticket held, tile on the track and partnership formed."""
        return self.revealed + self.tickets_taken + len(self.tiles) + self.pairs

    @property
    def most_turns(self) -> int | None:
        """The most turns this leg can have had, None if unbounded (a tile on the track
        may have been moved any number of times): the fewest plus every finish card
        placed, each of which may have been placed this leg (§13.4)."""
        if self.tiles:
            return None
        return self.fewest_turns + len(self.winner_deck) + len(self.loser_deck)

    def stack(self, space: int) -> tuple[str, ...]:
        return self.track[space - 1]

    def camel_space(self, camel: str) -> int:
        for s, stack in enumerate(self.track, start=1):
            if camel in stack:
                return s
        raise KeyError(camel)

    def tile_of(self, player: int) -> Tile | None:
        return next((t for t in self.tiles if t.owner == player), None)

    def with_(self, **changes: Any) -> Position:
        return replace(self, **changes)

    # ------------------------------------------------------------------ JSON form

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this position (every field, docs/games/camel-up.md §3 names)."""
        v = self.rules
        out: dict[str, Any] = {
            "game": "camel-up",
            "variant": self.variant,
            "players": self.players,
            "to_move": self.to_move,
            "leg_start": self.leg_start,
            "status": self.status,
            "track": {str(s): list(st) for s, st in enumerate(self.track, 1) if st},
            "pyramid": list(self.pyramid),
            "tiles": [{"owner": t.owner, "space": t.space, "side": t.side}
                      for t in self.tiles],
            "ticket_stacks": {c: list(vals) for c, vals in zip(v.colours, self.ticket_stacks)},
            "leg_tickets": [[[c, val] for c, val in held] for held in self.leg_tickets],
            "pyramid_tickets": list(self.pyramid_tickets),
            "winner_deck": [{"owner": c.owner, "colour": c.colour} for c in self.winner_deck],
            "loser_deck": [{"owner": c.owner, "colour": c.colour} for c in self.loser_deck],
            "finish_hand": [None if h is None else list(h) for h in self.finish_hand],
            "money": list(self.money),
            "rules": {"final_clamp": self.final_clamp},
        }
        if self.partnership is not None:
            out["partnership"] = list(self.partnership)
        return out

    def to_json_text(self) -> str:
        return json.dumps(self.to_json(), indent=2)

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Build a position from its JSON object. Only ``game``, ``track`` and ``pyramid``
        are required; the rest defaults to a fresh leg for 4 players with 3 EP each and
        nothing bet. Raises PositionError naming the field for malformed input; the
        invariants of §3 are checked by ``validate``."""
        from .json_form import position_from_json

        return position_from_json(data)

    def to_notation(self) -> str:
        from .notation import to_notation

        return to_notation(self)
