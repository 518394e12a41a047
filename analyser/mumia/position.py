"""A Mumia position between turns (dice not yet rolled), and its JSON form
(docs/games/mumia.md §14.1).

Seats are 0..players-1 (A..F in notation). Fields are counted on the track as it lies:
0 START, 1..k the path tiles, k+1 FINISH. What the player to move cannot see (the action
token pile's order, the opponents' tokens) is ``"?"`` (§15).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ...errors import PositionError, quote
from ...strict import json_list, json_object, path, whole_number
from .rules import TOKEN_KINDS, Rules
from .tiles import parse_tile, tile_name

GAME = "mumia"
EXPANSIONS = ("e1", "e2", "e3", "e4")
UNSEEN = "?"
START, FINISH = "start", "finish"
MAX_PLAYERS = 6
# variant id -> (expansions, sudden_end): the variants a position can be read under
VARIANT_SETS = {"mumia": (), "mumia-e1": ("e1",), "mumia-e2": ("e2",), "mumia-e3": ("e3",),
                "mumia-e4": ("e4",), "mumia-all": EXPANSIONS, "mumia-sudden": ()}


@dataclass(frozen=True)
class Field:
    """One field of the track: its tile (``start``, ``finish`` or a path tile's name)
    and what stands on it."""

    tile: str
    pawns: tuple[int, ...] = ()  # one seat per pawn, sorted
    guardians: int = 0
    mummy: bool = False


@dataclass(frozen=True)
class Hat:
    seat: int
    field: int


HAT_SETS = ("none", "luck", "bad", "both")  # what a pawn wears


@dataclass(frozen=True)
class Turn:
    """A turn under way (E4, §11.2-§11.4, §18): the mover's tokens gained in it (still
    fresh, also in its hand), and its pawns swapped and moved in it, each written
    ``F`` or ``F/HATS`` (its field and, when it wears any, its hats: luck, bad or both)."""

    fresh: tuple[str, ...] = ()
    swapped: tuple[str, ...] = ()
    moved: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"fresh": list(self.fresh), "swapped": list(self.swapped),
                "moved": list(self.moved)}


def pawn_word(field: int, hats: str) -> str:
    """A pawn of the mover as ``Turn`` names it: ``5`` or ``5/luck``."""
    return str(field) if hats == "none" else f"{field}/{hats}"


def read_pawn_word(word: str, where: str) -> tuple[int, str]:
    """(field, hats) of ``5`` or ``5/luck``; one line if unreadable."""
    number, slash, hats = word.partition("/")
    if not number.isdigit() or (slash and hats not in HAT_SETS[1:]):
        raise PositionError(where, f"expected a field, or field/hats (hats: luck, bad or "
                            f"both), got {quote(word)}")
    return int(number), hats if slash else "none"


@dataclass(frozen=True)
class Position:
    players: int
    to_move: int
    expansions: tuple[str, ...]
    track: tuple[Field, ...]
    collected: tuple[tuple[str, ...], ...]            # per seat, bottom of the stack first
    mummy_tokens: tuple[int, ...] = (4, 3, 2, 1)        # left in the stack, top first
    mummy_taken: tuple[tuple[int, ...], ...] = ()      # per seat
    luck: Hat | None = None                            # E2
    bad: Hat | None = None
    hats_split: bool = False  # both hats on one seat's field, worn by two pawns (§14.1)
    hands: tuple[tuple[str, ...], ...] = ()            # E4: per seat, kinds or "?"
    pile: tuple[str, ...] = ()                         # E4: top first, kinds or "?"
    rules: Rules = field(default_factory=Rules)
    roll: str | None = None   # the mover's roll once drawn (``4,PM``; §18), else None
    turn: Turn | None = None  # a turn under way (E4; §18), else None

    @property
    def variant(self) -> str:
        """The declared variant these expansions and rules are (``mumia`` otherwise)."""
        for name, sets in VARIANT_SETS.items():
            if sets == self.expansions and (name == "mumia-sudden") == self.rules.sudden_end \
                    and (name != "mumia" or not self.rules.sudden_end):
                return name
        return GAME

    @property
    def viewer(self) -> int:
        """Whose knowledge the position holds: the player to move (§15)."""
        return self.to_move

    def pawn_hats(self, seat: int, index: int) -> list[str]:
        """What each of ``seat``'s pawns on field ``index`` wears (``HAT_SETS``), the
        hats first (§14.1: one pawn wears both unless ``hats_split``)."""
        count = self.track[index].pawns.count(seat)
        worn = [name for name, hat in (("luck", self.luck), ("bad", self.bad))
                if hat == Hat(seat, index)]
        if len(worn) == 2 and not self.hats_split:
            worn = ["both"]
        return (worn + ["none"] * count)[:count]

    def has(self, expansion: str) -> bool:
        return expansion in self.expansions

    def with_(self, **changes: Any) -> Position:
        return replace(self, **changes)

    def to_notation(self) -> str:
        from .notation import format_notation
        return format_notation(self)

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict:
        track = []
        for f in self.track:
            entry: dict[str, Any] = {"tile": f.tile}
            if f.pawns:
                entry["pawns"] = list(f.pawns)
            if f.guardians:
                entry["guardians"] = f.guardians
            if f.mummy:
                entry["mummy"] = True
            track.append(entry)
        obj: dict[str, Any] = {
            "game": GAME, "players": self.players, "to_move": self.to_move,
            "expansions": list(self.expansions), "track": track,
            "collected": [list(c) for c in self.collected],
            "mummy_tokens": list(self.mummy_tokens),
            "mummy_taken": [list(t) for t in self.mummy_taken],
        }
        if self.has("e2"):
            obj["hats"] = {name: {"seat": hat.seat, "field": hat.field}
                           for name, hat in (("luck", self.luck), ("bad", self.bad))
                           if hat is not None}
            if self.hats_split:
                obj["hats"]["split"] = True
        if self.has("e4"):
            obj["action_tokens"] = {"hands": [list(h) for h in self.hands],
                                    "pile": list(self.pile)}
        if self.roll is not None:
            obj["roll"] = self.roll
        if self.turn is not None:
            obj["turn"] = self.turn.to_json()
        changed = self.rules.changed()
        if changed:
            obj["rules"] = changed
        return obj

    @classmethod
    def from_json(cls, obj: Any) -> Position:
        obj = json_object(obj, "", ("game", "players", "to_move", "expansions", "track",
                                    "collected", "mummy_tokens", "mummy_taken", "hats",
                                    "action_tokens", "rules", "roll", "turn"))
        for key in ("players", "to_move", "track", "collected"):
            if key not in obj:
                raise PositionError(key, "required field missing")
        players = whole_number(obj["players"], "players", 2, MAX_PLAYERS)
        to_move = whole_number(obj["to_move"], "to_move", 0, players - 1)
        expansions = _expansions(obj.get("expansions", []))
        rules = _rules(obj.get("rules", {}))
        track = tuple(_field(x, path("track", i), players)
                      for i, x in enumerate(json_list(obj["track"], "track")))
        collected = _per_seat(obj["collected"], "collected", players, _tile_list)
        tokens = obj.get("mummy_tokens", list(rules.mummy_tokens))
        mummy_tokens = tuple(whole_number(v, path("mummy_tokens", i), 0, 20)
                             for i, v in enumerate(json_list(tokens, "mummy_tokens")))
        taken = obj.get("mummy_taken", [[] for _ in range(players)])
        mummy_taken = _per_seat(taken, "mummy_taken", players, lambda v, where: tuple(
            whole_number(x, path(where, i), 0, 20) for i, x in enumerate(json_list(v, where))))
        luck = bad = None
        split = False
        if "hats" in obj:
            hats = json_object(obj["hats"], "hats", ("luck", "bad", "split"))
            luck = _hat(hats.get("luck"), "hats.luck", players)
            bad = _hat(hats.get("bad"), "hats.bad", players)
            split = hats.get("split", False)
            if not isinstance(split, bool):
                raise PositionError("hats.split", f"expected true or false, got "
                                    f"{quote(str(split))}")
        hands: tuple[tuple[str, ...], ...] = ()
        pile: tuple[str, ...] = ()
        if "action_tokens" in obj:
            tok = json_object(obj["action_tokens"], "action_tokens", ("hands", "pile"))
            hands = _per_seat(tok.get("hands", [[] for _ in range(players)]),
                              "action_tokens.hands", players, _kinds)
            pile = _kinds(tok.get("pile", []), "action_tokens.pile")
        roll = obj.get("roll")
        if roll is not None and not isinstance(roll, str):
            raise PositionError("roll", f"must be a roll like \"4,PM\", got {quote(roll)}")
        return cls(players=players, to_move=to_move, expansions=expansions, track=track,
                   collected=collected, mummy_tokens=mummy_tokens, mummy_taken=mummy_taken,
                   luck=luck, bad=bad, hats_split=split, hands=hands, pile=pile,
                   rules=rules, roll=roll, turn=_turn(obj.get("turn")))


def _expansions(value: Any) -> tuple[str, ...]:
    items = json_list(value, "expansions")
    for i, e in enumerate(items):
        if e not in EXPANSIONS:
            raise PositionError(path("expansions", i), f"unknown expansion {quote(e)} "
                                f"(known: {', '.join(EXPANSIONS)})")
    if len(set(items)) != len(items):
        raise PositionError("expansions", "an expansion is named twice")
    return tuple(sorted(items))


def _rules(value: Any) -> Rules:
    """The ``rules`` object: each value its text, or JSON true/false or a whole number."""
    given = {}
    for name, text in json_object(value, "rules").items():
        if isinstance(text, bool):
            text = "true" if text else "false"
        elif isinstance(text, int):
            text = str(whole_number(text, path("rules", name)))
        elif not isinstance(text, str):
            raise PositionError(path("rules", name), f"must be a string, true/false or a "
                                f"whole number, got {quote(text)}")
        given[name] = text
    return Rules().with_(given, "rules")


def _tile(value: Any, where: str, fields_too: bool = False) -> str:
    if not isinstance(value, str):
        raise PositionError(where, f"must be a tile name, got {quote(value)}")
    if fields_too and value in (START, FINISH):
        return value
    try:
        return tile_name(parse_tile(value))
    except ValueError as exc:
        raise PositionError(where, str(exc)) from None


def _field(value: Any, where: str, players: int) -> Field:
    obj = json_object(value, where, ("tile", "pawns", "guardians", "mummy"))
    if "tile" not in obj:
        raise PositionError(path(where, "tile"), "required field missing")
    pawns = tuple(sorted(whole_number(s, path(path(where, "pawns"), i), 0, players - 1)
                         for i, s in enumerate(json_list(obj.get("pawns", []),
                                                         path(where, "pawns")))))
    mummy = obj.get("mummy", False)
    if not isinstance(mummy, bool):
        raise PositionError(path(where, "mummy"), f"must be true or false, got {quote(mummy)}")
    return Field(_tile(obj["tile"], path(where, "tile"), True), pawns,
                 whole_number(obj.get("guardians", 0), path(where, "guardians"), 0, 8), mummy)


def _tile_list(value: Any, where: str) -> tuple[str, ...]:
    return tuple(_tile(v, path(where, i)) for i, v in enumerate(json_list(value, where)))


def _kinds(value: Any, where: str) -> tuple[str, ...]:
    out = []
    for i, v in enumerate(json_list(value, where)):
        if v != UNSEEN and v not in TOKEN_KINDS:
            raise PositionError(path(where, i), f"unknown token {quote(v)} (known: "
                                f"{', '.join(TOKEN_KINDS)}, or ? for one not seen)")
        out.append(v)
    return tuple(out)


def _per_seat(value: Any, where: str, players: int, item: Any) -> tuple:
    items = json_list(value, where)
    if len(items) != players:
        raise PositionError(where, f"must list {players} seats, got {len(items)}")
    return tuple(item(v, path(where, i)) for i, v in enumerate(items))


def _turn(value: Any) -> Turn | None:
    if value is None:
        return None
    obj = json_object(value, "turn", ("fresh", "swapped", "moved"))
    fresh = _kinds(obj.get("fresh", []), "turn.fresh")
    marks = {}
    for key in ("swapped", "moved"):
        words = json_list(obj.get(key, []), path("turn", key))
        for i, w in enumerate(words):
            if not isinstance(w, str):
                raise PositionError(path(path("turn", key), i), f"expected a field, or "
                                    f"field/hats, as text, got {quote(w)}")
            read_pawn_word(w, path(path("turn", key), i))
        marks[key] = tuple(words)
    return Turn(fresh, marks["swapped"], marks["moved"])


def _hat(value: Any, where: str, players: int) -> Hat | None:
    if value is None:
        return None
    obj = json_object(value, where, ("seat", "field"))
    for key in ("seat", "field"):
        if key not in obj:
            raise PositionError(path(where, key), "required field missing")
    return Hat(whole_number(obj["seat"], path(where, "seat"), 0, players - 1),
               whole_number(obj["field"], path(where, "field"), 0, 60))
