"""The mutable state of the naive complete-turn reference, for tests only: everything a turn
can change, on plain Python lists, copied freely at every branch; the geometry and the small
moves every step shares. Written from ``docs/games/five-tribes.md`` §1, §2, §8, §12 and §13,
*not* from the kernel.

Hidden parts are never stored: the bag is the box minus the board minus held meeples, the
resource deck the box minus the row, the hands and the discard, the djinn deck every djinn
neither face up, held nor discarded (§18). A reshuffle (§20.6) empties a discard pile, and
the derived deck then holds its cards.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import naive_five_tribes_scoring as NSC
from oddsbot.analyser.five_tribes import names
from oddsbot.analyser.five_tribes.position import Cell, Player, Position

ROWS, COLS, N_TILES = 5, 6, 30
COLOURS = "YWBGR"
Y, W, B, G, R = range(5)
TOTALS = (16, 20, 18, 18, 18)
GOODS = NSC.GOODS  # same order as the analyser's goods (checked below)
CARDS = names.CARDS  # the 9 goods then "fakir"
CARD_TOTALS = (*NSC.DECK, NSC.FAKIRS)
FAKIR = CARDS.index("fakir")
DJINNS = tuple(NSC.DJINN_VP)  # the 22 djinns, in the analyser's order (checked below)
SUIT_VALUE = NSC.SUIT_VALUE
PALMS, PALACES = 12, 10
BLUE = ("village", "sacred-place")
BID_COSTS = (18, 12, 8, 5, 3, 1, 0, 0, 0)  # the turn order track (§5)
FIRST_ZERO = 6  # turn order track: spaces 6, 7, 8 cost 0

assert tuple(CARDS[:9]) == GOODS
assert DJINNS == names.DJINN_NAMES


def letters(counts: tuple[int, ...]) -> str:
    """Meeple counts YWBGR as a string in canonical order (``(1, 0, 2, 0, 0)`` -> ``"YBB"``)."""
    if counts not in _LETTERS:
        _LETTERS[counts] = "".join(COLOURS[c] * counts[c] for c in range(5))
    return _LETTERS[counts]


_LETTERS: dict[tuple[int, ...], str] = {}
_CELLS: dict[tuple, Cell] = {}


class State:
    """A mutable copy of everything a turn can change (tile types and VP are kept aside),
    plus the turn's scratch: the djinn powers used so far, the sowing's result and the
    djinns Sibittis drew and has not sorted yet (none of it outlives the turn)."""

    def __init__(self) -> None:
        self.meeples: list[tuple[int, ...]] = []  # [30] counts YWBGR (tuples: cheap copies)
        self.owner: list[int | None] = []
        self.palms: list[int] = []
        self.palaces: list[int] = []
        self.players: list[dict] = []  # gold viziers elders camels fakirs goods djinns
        self.resources: list[str] = []
        self.djinns: list[str] = []
        self.discard: list[int] = []  # resource discard, counts per CARDS kind
        self.djinn_discard: tuple[str, ...] = ()  # in DJINNS order
        self.bid_track: list[int] = []
        self.turn_track: list[int | None] = []
        # scratch of the turn in progress
        self.used: frozenset[str] = frozenset()  # djinns whose power was used this turn
        self.sown: tuple[int, int, int] | None = None  # (final tile, colour, k) of the sowing
        self.drawn: tuple[str, ...] = ()  # Sibittis' draw, waiting for the keep

    @classmethod
    def of(cls, pos: Position) -> State:
        s = cls()
        for _, _, cell in pos.cells():
            s.meeples.append(tuple(cell.meeples.count(c) for c in COLOURS))
            s.owner.append(cell.owner)
            s.palms.append(cell.palms)
            s.palaces.append(cell.palaces)
        for p in pos.players:
            s.players.append({"gold": p.gold, "viziers": p.viziers, "elders": p.elders,
                              "camels": p.camels, "fakirs": p.fakirs, "goods": list(p.goods),
                              "djinns": list(p.djinns)})
        s.resources = list(pos.resources)
        s.djinns = list(pos.djinns)
        s.discard = [pos.resource_discard.count(k) for k in CARDS]
        s.djinn_discard = tuple(d for d in DJINNS if d in pos.djinn_discard)
        s.bid_track = list(pos.bid_track)
        s.turn_track = list(pos.turn_track)
        return s

    def copy(self) -> State:
        s = State()
        s.meeples = list(self.meeples)
        s.owner = list(self.owner)
        s.palms = list(self.palms)
        s.palaces = list(self.palaces)
        s.players = [{**p, "goods": list(p["goods"]), "djinns": list(p["djinns"])}
                     for p in self.players]
        s.resources = list(self.resources)
        s.djinns = list(self.djinns)
        s.discard = list(self.discard)
        s.djinn_discard = self.djinn_discard
        s.bid_track = list(self.bid_track)
        s.turn_track = list(self.turn_track)
        s.used, s.sown, s.drawn = self.used, self.sown, self.drawn
        return s

    def add(self, t: int, colour: int, n: int) -> None:
        """``n`` more (or fewer) meeples of ``colour`` on tile ``t``."""
        counts = list(self.meeples[t])
        counts[colour] += n
        assert counts[colour] >= 0
        self.meeples[t] = tuple(counts)

    def bag(self) -> tuple[int, ...]:
        on_board = [sum(col) for col in zip(*self.meeples)]
        out = []
        for c in range(5):
            n = TOTALS[c] - on_board[c]
            if c == Y:
                n -= sum(p["viziers"] for p in self.players)
            if c == W:
                n -= sum(p["elders"] for p in self.players)
            out.append(n)
        return tuple(out)

    def resource_deck(self) -> list[int]:
        """Cards per CARDS kind in the resource deck (order unknown)."""
        out = list(CARD_TOTALS)
        for card in self.resources:
            out[CARDS.index(card)] -= 1
        for p in self.players:
            for g, n in enumerate(p["goods"]):
                out[g] -= n
            out[FAKIR] -= p["fakirs"]
        return [n - d for n, d in zip(out, self.discard)]

    def djinn_deck(self) -> list[str]:
        """Djinns in the djinn deck (order unknown), in DJINNS order."""
        out = {*self.djinns, *self.djinn_discard, *self.drawn,
               *(d for p in self.players for d in p["djinns"])}
        return [d for d in DJINNS if d not in out]

    def has(self, player: int, djinn: str) -> bool:
        return djinn in self.players[player]["djinns"]

    def holder(self, djinn: str) -> int | None:
        """The seat holding ``djinn``, if anyone does."""
        return next((q for q in range(len(self.players)) if self.has(q, djinn)), None)

    def key(self) -> tuple:
        """:func:`position_key` (the bag is left out: the board and the players' viziers
        and elders fix it)."""
        tiles = tuple(zip(self.meeples, self.owner, self.palms, self.palaces))
        return (tiles, self.players_key(), tuple(self.resources), tuple(self.djinns),
                tuple(self.discard), tuple(self.bid_track), tuple(self.turn_track),
                self.djinn_discard)

    def turn_key(self) -> tuple:
        """:meth:`key` and the turn's scratch: states with equal turn keys have the same
        continuations."""
        return self.key(), tuple(sorted(self.used)), self.sown, self.drawn

    def players_key(self) -> tuple:
        return tuple((p["gold"], p["viziers"], p["elders"], p["camels"], p["fakirs"],
                      tuple(p["goods"]), tuple(sorted(p["djinns"]))) for p in self.players)

    def to_position(self, pos: Position) -> Position:
        """``pos`` with this state's contents (tile types and VP from ``pos``)."""
        assert not self.drawn
        board = []
        for r in range(ROWS):
            row = []
            for c in range(COLS):
                t = COLS * r + c
                cell = pos.board[r][c]
                fields = (cell.tile, cell.vp, letters(self.meeples[t]), self.owner[t],
                          self.palms[t], self.palaces[t])
                if fields not in _CELLS:  # frozen dataclasses are slow to build: share them
                    _CELLS[fields] = Cell(*fields)
                row.append(_CELLS[fields])
            board.append(tuple(row))
        players = tuple(Player(camels=p["camels"], gold=p["gold"], viziers=p["viziers"],
                               elders=p["elders"], djinns=names.sorted_djinns(p["djinns"]),
                               goods=tuple(p["goods"]), fakirs=p["fakirs"])
                        for p in self.players)
        discard = tuple(k for k, n in zip(CARDS, self.discard) for _ in range(n))
        nxt = next((p for p in self.turn_track if p is not None), None)
        return replace(pos, board=tuple(board), players=players,
                       resources=tuple(self.resources), djinns=tuple(self.djinns),
                       resource_discard=discard, djinn_discard=self.djinn_discard,
                       bid_track=tuple(self.bid_track), turn_track=tuple(self.turn_track),
                       to_move=pos.to_move if nxt is None else nxt)


def position_key(pos: Position) -> tuple:
    """Everything a turn can change, as a hashable tuple: per tile (meeple counts YWBGR,
    owner, palms, palaces); per player (gold, viziers, elders, camels, fakirs, goods, sorted
    djinn names); the resource row and the djinn row (row order); the resource discard as
    counts per ``names.CARDS`` kind; the bid order track; the turn order track; the djinn
    discard. Tile types and VP, the phase and ``to_move`` are left out, and so is the bag
    (the box minus the board minus held viziers/elders: fixed by the rest)."""
    return State.of(pos).key()


# ------------------------------------------------------------------------ geometry

def rc(t: int) -> tuple[int, int]:
    return divmod(t, COLS)


def tile_name(t: int) -> str:
    return "r{}c{}".format(*rc(t))


def distance(a: int, b: int) -> int:
    (ra, ca), (rb, cb) = rc(a), rc(b)
    return abs(ra - rb) + abs(ca - cb)


def block(t: int) -> list[int]:
    """The 3 x 3 block around ``t`` (itself included), clipped at the edges (§2)."""
    r0, c0 = rc(t)
    return [COLS * r + c for r in range(r0 - 1, r0 + 2) for c in range(c0 - 1, c0 + 2)
            if 0 <= r < ROWS and 0 <= c < COLS]


def around(t: int, n: int) -> list[int]:
    """The ``n`` = 8 surrounding tiles of ``t`` (diagonals included) or its ``n`` = 4 edge
    neighbours, clipped at the edges, in tile order (§14.4)."""
    assert n in (4, 8), n
    return [u for u in block(t) if u != t and (n == 8 or distance(t, u) == 1)]


def blue_around(pos: Position, t: int) -> int:
    """Blue tiles in the 3 x 3 block around ``t`` (itself included), clipped at edges."""
    return sum(tile_type(pos, u) in BLUE for u in block(t))


def tile_type(pos: Position, t: int) -> str:
    r, c = rc(t)
    return pos.board[r][c].tile


# ------------------------------------------------------------------------ small moves

def claim(s: State, mover: int, t: int) -> bool:
    """Tile control (§8): an empty, unowned tile takes the mover's camel if one is left;
    True if it did."""
    if sum(s.meeples[t]) == 0 and s.owner[t] is None and s.players[mover]["camels"] > 0:
        s.owner[t] = mover
        s.players[mover]["camels"] -= 1
        return True
    return False


def take_card(s: State, mover: int, i: int) -> None:
    """The card at row position ``i`` goes to the mover's hand; the rest move up."""
    gain_card(s, mover, s.resources.pop(i))


def gain_card(s: State, mover: int, card: str) -> None:
    if card == "fakir":
        s.players[mover]["fakirs"] += 1
    else:
        s.players[mover]["goods"][GOODS.index(card)] += 1


def discard_fakirs(s: State, mover: int, f: int) -> None:
    s.players[mover]["fakirs"] -= f
    s.discard[FAKIR] += f


def mover_score(tile_vp: list[int], s: State, mover: int) -> tuple[int, ...]:
    """The mover's final-score parts (PARTS order) if the game ended in state ``s``."""
    end = NSC.EndState(
        gold=[p["gold"] for p in s.players],
        viziers=[p["viziers"] for p in s.players],
        elders=[p["elders"] for p in s.players],
        djinns=[list(p["djinns"]) for p in s.players],
        owner=[-1 if o is None else o for o in s.owner],
        tile_vp=tile_vp,
        palms=list(s.palms),
        palaces=list(s.palaces),
        goods=[list(p["goods"]) for p in s.players],
        fakirs=[p["fakirs"] for p in s.players],
    )
    part = NSC.final_scores(end)[mover]
    return tuple(part[k] for k in NSC.PARTS)
