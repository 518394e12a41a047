"""The one-line notation of a Mumia position (docs/games/mumia.md §14.2).

``mumia 4p A e1,e4 | S:AAABBBCCCDDDM -1 -2 c:g +8:gB F | A:+3,-7,c B:- C:- D:- |
mummy 4,3,2,1 taken - | hats luck A@3 bad B@0 | tokens A:swap,? B:- C:? D:- pile ?,? |
rules sudden_end=true``

Sections are separated by `` | ``: the header (game, players, the seat to move, the
expansions), the track (START to FINISH; a field's tile, then ``:`` and its pieces: a
seat letter per pawn, ``g`` per guardian, ``M`` the mummy), the collected stacks (bottom
first, ``-`` empty), the mummy tokens left (top first, ``-`` none) and those taken, then
with E2 the hats, with E4 the action tokens, and the rule parameters changed.
"""

from __future__ import annotations

from ...errors import PositionError, quote
from ...strict import read_int
from ..notation_errors import Key, NotationKeys
from .position import (
    EXPANSIONS, FINISH, GAME, START, Field, Hat, Position, Turn, UNSEEN, MAX_PLAYERS,
    read_pawn_word,
)
from .rules import TOKEN_KINDS, Rules
from .tiles import parse_tile, tile_name

SEATS = "ABCDEF"
# the JSON path each part of the notation holds (analyser/notation_errors.py); seats are
# letters, START and FINISH the track's S: and F: fields, a field counted from S: (0)
NOTATION_KEYS = NotationKeys({  # the sections say how they are written themselves
    "track[*]": Key("track field * (S: = 0)", whole=True, positional=True),
    "collected[*]": Key("collected @", whole=True, positional=True),
    "to_move": Key("seat to move", positional=True),
    "mummy_tokens": Key("mummy", positional=True),
    "mummy_taken": Key("mummy ... taken", positional=True),
    "hats.luck": Key("hats luck", positional=True),
    "hats.bad": Key("hats bad", positional=True),
    "hats.split": Key("hats split", positional=True),
    "action_tokens": Key("tokens", positional=True),
    "action_tokens.hands": Key("tokens", whole=True, positional=True),
    "action_tokens.pile": Key("tokens pile", positional=True),
    "roll": Key("roll", positional=True),
    "turn": Key("turn", positional=True),
    "turn.fresh": Key("turn fresh:", positional=True),
    "turn.swapped": Key("turn swapped:", positional=True),
    "turn.moved": Key("turn moved:", positional=True),
}, seats=SEATS, words={"START": "S:", "FINISH": "F:"})
_SHORT = {START: "S", FINISH: "F", "camel": "c", "exchange": "x"}
_LONG = {v: k for k, v in _SHORT.items()}


def seat_letter(seat: int) -> str:
    return SEATS[seat]


def _tile_short(name: str) -> str:
    if name in _SHORT:
        return _SHORT[name]
    return name.replace("risk", "r")


def _tile_long(text: str, where: str, fields_too: bool = False) -> str:
    if text in _LONG and (fields_too or text not in ("S", "F")):
        return _LONG[text]
    name = "risk" + text[1:] if text.startswith("r") else text
    try:
        return tile_name(parse_tile(name))
    except ValueError:
        raise PositionError(where, f"{quote(text)} is not a tile (S, F, -1..-10, +1..+8, "
                            f"c, r3..r7, x)") from None


def _seat(text: str, where: str, players: int) -> int:
    if len(text) != 1 or text not in SEATS[:players]:
        raise PositionError(where, f"{quote(text)} is not a seat (A..{SEATS[players - 1]})")
    return SEATS.index(text)


def _list(items: list[str]) -> str:
    return ",".join(items) if items else "-"


def format_notation(pos: Position) -> str:
    head = f"{GAME} {pos.players}p {seat_letter(pos.to_move)}"
    if pos.expansions:
        head += " " + ",".join(pos.expansions)
    fields = []
    for f in pos.track:
        pieces = ("".join(seat_letter(s) for s in f.pawns) + "g" * f.guardians
                  + ("M" if f.mummy else ""))
        fields.append(_tile_short(f.tile) + (":" + pieces if pieces else ""))
    collected = " ".join(f"{seat_letter(p)}:{_list([_tile_short(t) for t in c])}"
                         for p, c in enumerate(pos.collected))
    taken = [f"{seat_letter(p)}:{v}" for p, vs in enumerate(pos.mummy_taken) for v in vs]
    sections = [head, " ".join(fields), collected,
                f"mummy {_list([str(v) for v in pos.mummy_tokens])} taken {_list(taken)}"]
    if pos.has("e2"):
        hats = [f"{name} {seat_letter(h.seat)}@{h.field}"
                for name, h in (("luck", pos.luck), ("bad", pos.bad)) if h is not None]
        sections.append(" ".join(["hats", *hats] + (["split"] if pos.hats_split else [])))
    if pos.has("e4"):
        hands = " ".join(f"{seat_letter(p)}:{_list(list(h))}" for p, h in enumerate(pos.hands))
        sections.append(f"tokens {hands} pile {_list(list(pos.pile))}")
    if pos.roll is not None:
        sections.append(f"roll {pos.roll}")
    if pos.turn is not None:
        t = pos.turn
        sections.append(f"turn fresh:{_list(list(t.fresh))} swapped:{_list(list(t.swapped))}"
                        f" moved:{_list(list(t.moved))}")
    changed = pos.rules.changed()
    if changed:
        sections.append("rules " + " ".join(f"{k}={v}" for k, v in changed.items()))
    return " | ".join(sections)


def parse_notation(text: str) -> Position:
    sections = [s.strip() for s in text.strip().split("|")]
    if len(sections) < 4:
        raise PositionError("notation", "expected at least 4 sections separated by '|': "
                            "header | track | collected | mummy")
    head = sections[0].split()
    if len(head) not in (3, 4) or head[0] not in (GAME, "thats-life"):
        raise PositionError("notation", f"header must be 'mumia <N>p <seat> [expansions]', "
                            f"got {quote(sections[0])}")
    if not head[1].endswith("p"):
        raise PositionError("players", f"must be like 4p, got {quote(head[1])}")
    players = read_int(head[1][:-1], "players", 2, MAX_PLAYERS)
    to_move = _seat(head[2], "to_move", players)
    expansions: tuple[str, ...] = ()
    if len(head) == 4:
        expansions = tuple(head[3].split(","))
        for e in expansions:
            if e not in EXPANSIONS:
                raise PositionError("expansions", f"unknown expansion {quote(e)} (known: "
                                    f"{', '.join(EXPANSIONS)})")
        if len(set(expansions)) != len(expansions):
            raise PositionError("expansions", "an expansion is named twice")
        expansions = tuple(sorted(expansions))
    track = tuple(_field(word, f"track[{i}]", players)
                  for i, word in enumerate(sections[1].split()))
    collected = _collected(sections[2], players)
    mummy_tokens, mummy_taken = _mummy(sections[3], players)
    luck = bad = None
    split = False
    hands: tuple[tuple[str, ...], ...] = ()
    pile: tuple[str, ...] = ()
    rules = Rules()
    roll: str | None = None
    turn: Turn | None = None
    seen: list[str] = []
    order = ("hats", "tokens", "roll", "turn", "rules")
    for section in sections[4:]:
        words = section.split()
        key = words[0] if words else ""
        if key not in order or any(order.index(k) >= order.index(key) for k in seen):
            raise PositionError("notation", f"unexpected section {quote(section)} (hats, "
                                f"tokens, roll, turn and rules, each once, in that order)")
        seen.append(key)
        if key == "hats":
            luck, bad, split = _hats(words[1:], players)
        elif key == "tokens":
            hands, pile = _tokens(words[1:], players)
        elif key == "roll":
            if len(words) != 2:
                raise PositionError("roll", f"expected 'roll <N,SYMBOL>', got {quote(section)}")
            roll = words[1]
        elif key == "turn":
            turn = _turn(words[1:])
        else:
            given = {}
            for w in words[1:]:
                name, eq, value = w.partition("=")
                if not eq:
                    raise PositionError("rules", f"expected NAME=VALUE, got {quote(w)}")
                given[name] = value
            rules = Rules().with_(given, "rules")
    return Position(players=players, to_move=to_move, expansions=expansions, track=track,
                    collected=collected, mummy_tokens=mummy_tokens, mummy_taken=mummy_taken,
                    luck=luck, bad=bad, hats_split=split, hands=hands, pile=pile,
                    rules=rules, roll=roll, turn=turn)


def _turn(words: list[str]) -> Turn:
    """``fresh:<kinds> swapped:<pawns> moved:<pawns>`` (``-`` for none)."""
    keys = ("fresh", "swapped", "moved")
    got = [w.partition(":") for w in words]
    if [k for k, _, _ in got] != list(keys) or not all(colon for _, colon, _ in got):
        raise PositionError("turn", "expected 'turn fresh:<kinds> swapped:<pawns> "
                            "moved:<pawns>' (- for none)")
    fresh = _kinds(got[0][2], "turn.fresh")
    marks = []
    for key, _, text in got[1:]:
        pawns = () if text == "-" else tuple(text.split(","))
        for w in pawns:
            read_pawn_word(w, f"turn.{key}")
        marks.append(pawns)
    return Turn(fresh, marks[0], marks[1])


def _field(word: str, where: str, players: int) -> Field:
    tile, _, pieces = word.partition(":")
    pawns, guardians, mummy = [], 0, False
    for ch in pieces:
        if ch == "g":
            guardians += 1
        elif ch == "M" and not mummy:
            mummy = True
        elif ch in SEATS[:players]:
            pawns.append(SEATS.index(ch))
        else:
            raise PositionError(where, f"{quote(ch)} is not a piece (A..{SEATS[players - 1]} "
                                f"a pawn, g a guardian, M the mummy once)")
    return Field(_tile_long(tile, where, True), tuple(sorted(pawns)), guardians, mummy)


def _collected(section: str, players: int) -> tuple[tuple[str, ...], ...]:
    words = section.split()
    if len(words) != players:
        raise PositionError("collected", f"must list {players} seats as A:<tiles>, got "
                            f"{quote(section)}")
    out = []
    for p, word in enumerate(words):
        letter, colon, tiles = word.partition(":")
        if not colon or letter != SEATS[p]:
            raise PositionError("collected", f"expected {SEATS[p]}:<tiles>, got {quote(word)}")
        out.append(() if tiles == "-" else tuple(_tile_long(t, f"collected[{p}]")
                                                 for t in tiles.split(",")))
    return tuple(out)


def _mummy(section: str, players: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    words = section.split()
    if len(words) != 4 or words[0] != "mummy" or words[2] != "taken":
        raise PositionError("mummy_tokens", f"expected 'mummy <left> taken <seat:value,...>', "
                            f"got {quote(section)}")
    left = () if words[1] == "-" else tuple(read_int(v, "mummy_tokens", 0, 20)
                                             for v in words[1].split(","))
    taken: list[list[int]] = [[] for _ in range(players)]
    if words[3] != "-":
        for item in words[3].split(","):
            letter, colon, value = item.partition(":")
            if not colon:
                raise PositionError("mummy_taken", f"expected <seat>:<value>, got {quote(item)}")
            taken[_seat(letter, "mummy_taken", players)].append(
                read_int(value, "mummy_taken", 0, 20))
    return left, tuple(tuple(t) for t in taken)


def _hats(words: list[str], players: int) -> tuple[Hat | None, Hat | None, bool]:
    """(luck, bad, split) of ``luck A@3 bad B@0``, with ``split`` last when two pawns
    of one seat on one field wear one hat each."""
    hats: dict[str, Hat] = {}
    split = bool(words) and words[-1] == "split"
    if split:
        words = words[:-1]
    usage = "expected 'luck <seat>@<field> bad <seat>@<field>', then 'split' if two pawns"
    if len(words) % 2:
        raise PositionError("hats", usage)
    for name, spot in zip(words[::2], words[1::2]):
        letter, at, where = spot.partition("@")
        if name not in ("luck", "bad") or name in hats or not at:
            raise PositionError("hats", f"{usage}, got {quote(name + ' ' + spot)}")
        hats[name] = Hat(_seat(letter, f"hats.{name}", players),
                         read_int(where, f"hats.{name}.field", 0, 60))
    return hats.get("luck"), hats.get("bad"), split


def _kinds(text: str, where: str) -> tuple[str, ...]:
    if text == "-":
        return ()
    kinds = tuple(text.split(","))
    for k in kinds:
        if k != UNSEEN and k not in TOKEN_KINDS:
            raise PositionError(where, f"unknown token {quote(k)} (known: "
                                f"{', '.join(TOKEN_KINDS)}, or ?)")
    return kinds


def _tokens(words: list[str], players: int
            ) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    if len(words) != players + 2 or words[players] != "pile":
        raise PositionError("action_tokens", "expected 'tokens A:<kinds> ... pile <kinds>'")
    hands = []
    for p, word in enumerate(words[:players]):
        letter, colon, kinds = word.partition(":")
        if not colon or letter != SEATS[p]:
            raise PositionError("action_tokens.hands", f"expected {SEATS[p]}:<kinds>, got "
                                f"{quote(word)}")
        hands.append(_kinds(kinds, f"action_tokens.hands[{p}]"))
    return tuple(hands), _kinds(words[-1], "action_tokens.pile")
