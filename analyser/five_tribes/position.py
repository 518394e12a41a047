"""The Five Tribes position (docs/games/five-tribes.md §1-§5) as frozen dataclasses.

Conventions: ``board[row][col]``, 5 rows x 6 cells, r0c0 top left (tile index
``6 * row + col`` as in the kernel). Meeples are a string of colour letters in canonical
``YWBGR`` order. Players are seats 0..n-1. Goods are counts in ``FT.GOODS`` order; djinns
held, face up or discarded are in ``FT.DJINNS`` order, the resource discard pile in
``names.CARDS`` order (their order has no effect); the face-up resource row is front first.
The turn order track (the priced one) is a 9-tuple aligned with ``FT.BID_COSTS``
(18, 12, 8, 5, 3, 1, 0, 0, 0), None where free, the zero spaces filled from the first, so
reading it left to right gives the play order. The bid order track lists marker owners
front first. Hidden parts (bag, decks) are never stored: see ``bag``, ``resource_deck``,
``djinn_deck``. ``Player.djinns_used``: the held djinns whose power that player has
already used (in the turn under way; with ``two_player_djinn == "per_round"``, in this round),
in ``FT.DJINNS`` order (docs/games/five-tribes.md §20.8). ``Player.gold_range``: None when
the viewer knows the player's gold; else ``(lo, hi)``, whole GC, the interval a secret gold
lies in, and ``gold`` is its midpoint ``(lo + hi) // 2``, the number exact analyses use
(docs/games/five-tribes.md §14.13); ``SECRET_GOLD`` is the interval of a secret gold stated
without one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from ...kernels import five_tribes as FT
from .names import CARD_COUNTS, CARDS, DJINN_NAMES

NAME = "five-tribes"
FREE_TRACK: tuple[int | None, ...] = (None,) * len(FT.BID_COSTS)
SECRET_GOLD = (0, 100)  # GC: "no idea", twice the start gold (docs/games/five-tribes.md §14.13)


@dataclass(frozen=True)
class Cell:
    """One tile of the Sultanate and what lies on it; ``owner`` is the camel's seat."""

    tile: str
    vp: int
    meeples: str = ""
    owner: int | None = None
    palms: int = 0
    palaces: int = 0


@dataclass(frozen=True, kw_only=True)
class Player:
    """What one player holds; ``camels`` are those not yet placed on tiles; ``gold_range``
    is a secret gold's interval, ``gold`` then its midpoint (§14.13)."""

    camels: int
    gold: int = FT.START_GOLD
    gold_range: tuple[int, int] | None = None  # (lo, hi) of a secret gold, None if known
    viziers: int = 0
    elders: int = 0
    djinns: tuple[str, ...] = ()
    djinns_used: tuple[str, ...] = ()  # powers already used (§20.8)
    goods: tuple[int, ...] = (0,) * len(FT.GOODS)
    fakirs: int = 0


@dataclass(frozen=True)
class Position:
    """A Five Tribes position between turns (or between bids), seen by the player to move."""

    board: tuple[tuple[Cell, ...], ...]
    players: tuple[Player, ...]
    resources: tuple[str, ...] = ()  # face-up row, front first
    djinns: tuple[str, ...] = ()  # face up
    bid_track: tuple[int, ...] = ()
    turn_track: tuple[int | None, ...] = FREE_TRACK
    phase: str = "bidding"  # or "turns"
    to_move: int = 0
    resource_discard: tuple[str, ...] = ()
    djinn_discard: tuple[str, ...] = ()
    end_rule: str = "live"  # docs/games/five-tribes.md §7.4: "live" or "premove"
    # docs/games/five-tribes.md §14.3: may the Assassins kill no one?
    assassin_optional: bool = False
    # docs/games/five-tribes.md §20.3: the djinn switches
    djinn_neighbour: int = 8  # the tiles around a tile for Hagis and Lamia: 8 or 4
    nekir_per_meeple: bool = False  # Nekir pays per victim, not per kill action
    two_player_djinn: str = "per_turn"  # or "per_round": the 2-player use limit

    @property
    def variant(self) -> str:
        """The rules variant: ``five-tribes`` (live end rule) or ``five-tribes-premove``."""
        return NAME if self.end_rule == "live" else f"{NAME}-premove"

    @property
    def n_players(self) -> int:
        return len(self.players)

    def cells(self) -> Iterator[tuple[int, int, Cell]]:
        """``(row, col, cell)`` in tile-index order."""
        for r, row in enumerate(self.board):
            for c, cell in enumerate(row):
                yield r, c, cell

    def owned(self, player: int) -> int:
        """Tiles carrying ``player``'s camel."""
        return sum(cell.owner == player for _, _, cell in self.cells())

    @property
    def next_marker(self) -> int | None:
        """Owner of the marker that acts next: the bid order track's front while bidding,
        else the first marker on the turn order track; None if there is none."""
        if self.phase == "bidding":
            return self.bid_track[0] if self.bid_track else None
        return next((p for p in self.turn_track if p is not None), None)

    def board_meeples(self) -> tuple[int, ...]:
        """Meeples per colour (``YWBGR``) on the board."""
        on_board = Counter("".join(cell.meeples for _, _, cell in self.cells()))
        return tuple(on_board[c] for c in FT.COLOURS)

    def held_meeples(self) -> tuple[int, ...]:
        """Meeples per colour held by the players (their viziers and elders)."""
        return (sum(p.viziers for p in self.players), sum(p.elders for p in self.players),
                0, 0, 0)

    @property
    def bag(self) -> tuple[int, ...]:
        """Meeples per colour in the bag: neither on the board nor held."""
        return tuple(int(total) - b - h for total, b, h in
                     zip(FT.MEEPLE_TOTALS, self.board_meeples(), self.held_meeples()))

    def held_cards(self) -> tuple[int, ...]:
        """Resource cards per kind (``CARDS`` order) in the players' hands."""
        return (*(sum(k) for k in zip(*(p.goods for p in self.players))),
                sum(p.fakirs for p in self.players))

    @property
    def resource_deck(self) -> tuple[int, ...]:
        """Cards per kind in the deck, order unknown: the box minus the face-up row, the
        players' hands and the discard pile."""
        row, discard = Counter(self.resources), Counter(self.resource_discard)
        return tuple(total - held - row[kind] - discard[kind] for kind, total, held in
                     zip(CARDS, CARD_COUNTS, self.held_cards()))

    @property
    def djinn_deck(self) -> tuple[str, ...]:
        """Djinns in the deck, order unknown: neither face up, owned nor discarded."""
        out = {*self.djinns, *self.djinn_discard, *(d for p in self.players for d in p.djinns)}
        return tuple(d for d in DJINN_NAMES if d not in out)

    def with_(self, **changes: Any) -> Position:
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this position, every field written out."""
        from .json_form import position_to_json

        return position_to_json(self)

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Build a position from its JSON object (defaults: ``json_form``'s docstring).
        Raises PositionError naming the field for malformed input; the game's invariants
        are checked by ``validate``."""
        from .json_form import position_from_json

        return position_from_json(data)

    def to_notation(self) -> str:
        """The canonical one-line notation (see ``notation``)."""
        from .notation import to_notation

        return to_notation(self)
