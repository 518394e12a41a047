"""Deliberately naive reference for complete Five Tribes turns, for tests only.

Written from ``docs/games/five-tribes.md`` §2, §6-§10 and §12-§14 and the project's turn
decisions, *not* from the compiled kernel, so that the two can be compared. Everything is
enumerated by brute force on plain Python lists, copied freely at every branch:

1. the mover's marker leaves the turn order track for the end of the bid order track;
2. every full sowing sequence of :func:`naive_five_tribes.sowings` (or none if there is none);
3. tile control of the final tile;
4. the tribe action (Builders: every fakir count; Assassins: every (fakir count, victim));
5. the final tile's action (market picks, djinn + payment, or skip; palm/palace compulsory);
6. every subset of the goods' layers sold.

``complete_turns(pos)`` maps :func:`position_key` of each distinct result to the mover's score
delta (naive final scoring, as if the game ended after this turn) and the number of
(sequence, choices) combinations that reach it. ``result_positions(pos)`` gives the same
results as Positions; their ``to_move`` is the next marker's owner (unchanged, with phase
"turns", after the round's last marker, so such results do not pass ``validate``).
Passive djinn powers other than Boaz (Ba'al, Marid, Monkir, Nekir, Kandicha, ...) and paid
djinn powers are not modelled.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from itertools import combinations

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import naive_five_tribes as NS
import naive_five_tribes_scoring as NSC
from oddsbot.analyser.five_tribes import names
from oddsbot.analyser.five_tribes.position import Cell, Player, Position

ROWS, COLS, N_TILES = 5, 6, 30
COLOURS = "YWBGR"
Y, W, B, G, R = range(5)
TOTALS = (16, 20, 18, 18, 18)
GOODS = NSC.GOODS  # same order as the analyser's goods (checked below)
CARDS = names.CARDS  # the 9 goods then "fakir"
FAKIR = CARDS.index("fakir")
SUIT_VALUE = NSC.SUIT_VALUE
PALMS, PALACES = 12, 10
BLUE = ("village", "sacred-place")
FIRST_ZERO = 6  # turn order track: spaces 6, 7, 8 cost 0

assert tuple(CARDS[:9]) == GOODS


def letters(counts: tuple[int, ...]) -> str:
    """Meeple counts YWBGR as a string in canonical order (``(1, 0, 2, 0, 0)`` -> ``"YBB"``)."""
    if counts not in _LETTERS:
        _LETTERS[counts] = "".join(COLOURS[c] * counts[c] for c in range(5))
    return _LETTERS[counts]


_LETTERS: dict[tuple[int, ...], str] = {}
_CELLS: dict[tuple, Cell] = {}


class State:
    """A mutable copy of everything a turn can change (tile types and VP are kept aside)."""

    def __init__(self) -> None:
        self.meeples: list[tuple[int, ...]] = []  # [30] counts YWBGR (tuples: cheap copies)
        self.owner: list[int | None] = []
        self.palms: list[int] = []
        self.palaces: list[int] = []
        self.players: list[dict] = []  # gold viziers elders camels fakirs goods djinns
        self.resources: list[str] = []
        self.djinns: list[str] = []
        self.discard: list[int] = []  # resource discard, counts per CARDS kind
        self.bid_track: list[int] = []
        self.turn_track: list[int | None] = []

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
        s.bid_track = list(self.bid_track)
        s.turn_track = list(self.turn_track)
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

    def key(self) -> tuple:
        tiles = tuple(zip(map(letters, self.meeples), self.owner, self.palms, self.palaces))
        return (tiles, self.players_key(), tuple(self.resources), tuple(self.djinns),
                tuple(self.discard), self.bag(), tuple(self.bid_track),
                tuple(self.turn_track))

    def players_key(self) -> tuple:
        return tuple((p["gold"], p["viziers"], p["elders"], p["camels"], p["fakirs"],
                      tuple(p["goods"]), tuple(sorted(p["djinns"]))) for p in self.players)

    def to_position(self, pos: Position) -> Position:
        """``pos`` with this state's contents (tile types and VP from ``pos``)."""
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
                       resource_discard=discard, bid_track=tuple(self.bid_track),
                       turn_track=tuple(self.turn_track),
                       to_move=pos.to_move if nxt is None else nxt)


def position_key(pos: Position) -> tuple:
    """Everything a turn can change, as a hashable tuple: per tile (meeples in YWBGR order,
    owner, palms, palaces); per player (gold, viziers, elders, camels, fakirs, goods, sorted
    djinn names); the resource row and the djinn row (row order); the resource discard as
    counts per ``names.CARDS`` kind; the bag per colour YWBGR (the box minus the board minus
    held viziers/elders); the bid order track; the turn order track. Tile types and VP, the
    phase and ``to_move`` are left out."""
    return State.of(pos).key()


# ------------------------------------------------------------------------ geometry

def rc(t: int) -> tuple[int, int]:
    return divmod(t, COLS)


def distance(a: int, b: int) -> int:
    (ra, ca), (rb, cb) = rc(a), rc(b)
    return abs(ra - rb) + abs(ca - cb)


def blue_around(pos: Position, t: int) -> int:
    """Blue tiles in the 3 x 3 block around ``t`` (itself included), clipped at edges."""
    r0, c0 = rc(t)
    n = 0
    for r in range(r0 - 1, r0 + 2):
        for c in range(c0 - 1, c0 + 2):
            if 0 <= r < ROWS and 0 <= c < COLS and pos.board[r][c].tile in BLUE:
                n += 1
    return n


def tile_type(pos: Position, t: int) -> str:
    r, c = rc(t)
    return pos.board[r][c].tile


# ------------------------------------------------------------------------ turn steps

def move_marker(s: State) -> int:
    """Step 1: the first marker on the turn order track goes to the bid order track's end."""
    i = next(i for i, p in enumerate(s.turn_track) if p is not None)
    mover = s.turn_track[i]
    s.turn_track[i] = None
    if i >= FIRST_ZERO:
        zeros = [p for p in s.turn_track[FIRST_ZERO:] if p is not None]
        s.turn_track[FIRST_ZERO:] = zeros + [None] * (len(s.turn_track) - FIRST_ZERO
                                                      - len(zeros))
    s.bid_track.append(mover)
    return mover


def claim(s: State, mover: int, t: int) -> None:
    """Tile control (§8): an empty, unowned tile takes the mover's camel if one is left."""
    if sum(s.meeples[t]) == 0 and s.owner[t] is None and s.players[mover]["camels"] > 0:
        s.owner[t] = mover
        s.players[mover]["camels"] -= 1


def take_card(s: State, mover: int, i: int) -> None:
    """The card at row position ``i`` goes to the mover's hand; the rest move up."""
    card = s.resources.pop(i)
    if card == "fakir":
        s.players[mover]["fakirs"] += 1
    else:
        s.players[mover]["goods"][GOODS.index(card)] += 1


def discard_fakirs(s: State, mover: int, f: int) -> None:
    s.players[mover]["fakirs"] -= f
    s.discard[FAKIR] += f


def tribe_action(pos: Position, s: State, mover: int, final: int, colour: int,
                 k: int) -> list[State]:
    """Step 4 (§9): every state after the tribe action, one per choice."""
    me = s.players[mover]
    if colour == Y:
        s.players[mover]["viziers"] += k
        return [s]
    if colour == W:
        s.players[mover]["elders"] += k
        return [s]
    if colour == G:
        for _ in range(min(k, len(s.resources))):
            take_card(s, mover, 0)
        return [s]
    if colour == B:
        b = blue_around(pos, final)
        out = []
        for f in range(me["fakirs"] + 1):
            n = s.copy()
            n.players[mover]["gold"] += (k + f) * b
            discard_fakirs(n, mover, f)
            out.append(n)
        return out
    # Assassins
    opponents = []
    for q, p in enumerate(s.players):
        if q == mover or "Boaz" in p["djinns"]:
            continue
        if p["viziers"] > 0:
            opponents.append((q, "viziers"))
        if p["elders"] > 0:
            opponents.append((q, "elders"))
    out = []

    def board_victims(reach: int) -> list[tuple[int, int]]:
        return [(t, c) for t in range(N_TILES) for c in range(5)
                if s.meeples[t][c] > 0 and distance(t, final) <= reach]

    for f in range(me["fakirs"] + 1):
        for t, c in board_victims(k + f):
            n = s.copy()
            discard_fakirs(n, mover, f)
            n.add(t, c, -1)
            claim(n, mover, t)
            out.append(n)
        for q, what in opponents:
            n = s.copy()
            discard_fakirs(n, mover, f)
            n.players[q][what] -= 1
            out.append(n)
    if pos.assassin_optional or (not board_victims(k) and not opponents):
        out.append(s.copy())
    return out


def tile_action(pos: Position, s: State, mover: int, final: int) -> list[State]:
    """Step 5 (§10): every state after the final tile's action, one per choice."""
    kind = tile_type(pos, final)
    me = s.players[mover]
    if kind == "oasis":
        if sum(s.palms) < PALMS:
            s.palms[final] += 1
        return [s]
    if kind == "village":
        if sum(s.palaces) < PALACES:
            s.palaces[final] += 1
        return [s]
    out = [s.copy()]  # skip
    if kind == "small-market":
        if me["gold"] >= 3 and s.resources:
            for i in range(min(3, len(s.resources))):
                n = s.copy()
                n.players[mover]["gold"] -= 3
                take_card(n, mover, i)
                out.append(n)
        return out
    if kind == "large-market":
        if me["gold"] >= 6 and s.resources:
            if len(s.resources) == 1:
                n = s.copy()
                n.players[mover]["gold"] -= 6
                take_card(n, mover, 0)
                out.append(n)
            for i, j in combinations(range(min(6, len(s.resources))), 2):
                n = s.copy()
                n.players[mover]["gold"] -= 6
                take_card(n, mover, j)  # the later one first: i's position is unchanged
                take_card(n, mover, i)
                out.append(n)
        return out
    assert kind == "sacred-place", kind
    for d in range(len(s.djinns)):
        payments = []
        if me["elders"] >= 2:
            payments.append((2, 0))
        if me["elders"] >= 1 and me["fakirs"] >= 1:
            payments.append((1, 1))
        for elders, fakirs in payments:
            n = s.copy()
            n.players[mover]["elders"] -= elders
            discard_fakirs(n, mover, fakirs)
            n.players[mover]["djinns"].append(n.djinns.pop(d))
            out.append(n)
    return out


def sales(s: State, mover: int) -> list[State]:
    """Step 6 (§12): one state per subset of the goods' layers (empty subset = no sale)."""
    goods = s.players[mover]["goods"]
    top = max(goods)
    layers = [[g for g in range(len(GOODS)) if goods[g] >= i] for i in range(1, top + 1)]
    out = []
    for size in range(len(layers) + 1):
        for chosen in combinations(range(len(layers)), size):
            n = s.copy()
            for i in chosen:
                for g in layers[i]:
                    n.players[mover]["goods"][g] -= 1
                    n.discard[g] += 1
                n.players[mover]["gold"] += SUIT_VALUE[len(layers[i])]
            out.append(n)
    return out


# ------------------------------------------------------------------------ whole turns

def counts_array(s: State) -> np.ndarray:
    return np.array(s.meeples, dtype=np.int64).reshape(N_TILES, 5)


def _results(pos: Position) -> Iterator[tuple[int, State]]:
    """``(mover, state)`` for every (sequence, choices) combination, duplicates kept
    (a generator: holding every state at once makes the garbage collector crawl)."""
    assert pos.phase == "turns", pos.phase
    base = State.of(pos)
    mover = move_marker(base)
    assert mover == pos.to_move, (mover, pos.to_move)
    end_rule = {"live": NS.LIVE, "premove": NS.PREMOVE}[pos.end_rule]
    found = NS.sowings(counts_array(base), end_rule)
    assert len(found) == len(set(found))
    if not found:
        for s in sales(base, mover):
            yield mover, s
        return
    for start, path, colours in found:
        s = base.copy()
        s.meeples[start] = (0,) * 5
        for t, c in zip(path, colours):
            s.add(t, c, 1)
        final, colour = path[-1], colours[-1]
        k = s.meeples[final][colour]
        assert k >= 2
        s.add(final, colour, -k)
        claim(s, mover, final)
        for s2 in tribe_action(pos, s, mover, final, colour, k):
            for s3 in tile_action(pos, s2, mover, final):
                for s4 in sales(s3, mover):
                    yield mover, s4


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


def complete_turns(pos: Position) -> dict[tuple, tuple[tuple[int, ...], int]]:
    """``position_key(result) -> (mover's score delta, count)`` over every complete turn."""
    mover = pos.to_move
    tile_vp = [cell.vp for _, _, cell in pos.cells()]
    before = mover_score(tile_vp, State.of(pos), mover)
    out: dict[tuple, tuple[tuple[int, ...], int]] = {}
    scores: dict[tuple, tuple[int, ...]] = {}  # memo: the score ignores meeples and cards
    with _no_gc():
        for who, s in _results(pos):
            _tally(out, scores, s, who, tile_vp, before)
    return out


def _tally(out: dict, scores: dict, s: State, who: int, tile_vp: list[int],
           before: tuple[int, ...]) -> None:
    key = s.key()
    if key in out:
        delta, n = out[key]
        out[key] = (delta, n + 1)
    else:
        scored = (key[1], tuple(s.owner), tuple(s.palms), tuple(s.palaces))
        if scored not in scores:
            after = mover_score(tile_vp, s, who)
            scores[scored] = tuple(a - b for a, b in zip(after, before))
        out[key] = (scores[scored], 1)


@contextmanager
def _no_gc() -> Iterator[None]:
    """Collection passes over tens of thousands of live keys cost more than the turn."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def result_positions(pos: Position) -> list[Position]:
    """Each distinct result of :func:`complete_turns` as a Position (first found first)."""
    seen: dict[tuple, Position] = {}
    with _no_gc():
        for _, s in _results(pos):
            key = s.key()
            if key not in seen:
                seen[key] = s.to_position(pos)
    return list(seen.values())
