"""The one-line notation of a Kingdom Run position (docs/games/kingdom-run.md §12.2).

``kingdom-run p3 K,W,F to=1 t=0:K4,W4,F4,G4/5:K1,W1,F1/7:g1 pod=K2,W2 tok=4,4,4
roll=SCBY rr=1 used=S,Y:B cross=F2@0:24 rules=zone_mode:exact``

Words separated by blanks, in this order: the game (``kingdom-run`` or
``krolewski-wyscig``), ``p<players>``, the clans of the players in turn order, then
``to=`` the player to move (1-based), ``t=`` the track (``space:runner,runner`` groups
joined by ``/``, a sleeping runner in lower case), ``pod=`` the podium (1st place first),
``tok=`` the victory tokens per player, ``roll=`` the faces as letters (``-`` before
rolling; S scatter, C catch-up, B bath, T steal, Z sleep/wake, Y copy), ``rr=`` 1 once the
re-roll is taken, ``used=`` the dice resolved this turn (a letter, or ``Y:<letter>`` for a
Copy used as that action), ``cross=`` this turn's finishers without a place
(``runner@action:from``), ``out=`` the surplus finishers, ``rules=`` the changed
parameters (``name:value;name:value``). ``pod=``, ``used=``, ``cross=``, ``out=`` and
``rules=`` may be left out when empty (and are, when written); the others are required.
"""

from __future__ import annotations

from typing import Any

from ...errors import PositionError, quote
from ...strict import read_int
from ..notation_errors import Key, NotationKeys
from .position import (
    ALIASES, GAME, MAX_PLAYERS, MAX_TOKENS, OFF, RUNNER_NAMES, RUNNERS, Position,
    clan_letter, place, runner_id, space_number,
)
from .rules import COPY, Rules

FACE_LETTERS = "SCBTZY"  # FACE_NAMES order
KEYS = ("to", "t", "pod", "tok", "roll", "rr", "used", "cross", "out", "rules")
REQUIRED = ("to", "t", "tok", "roll", "rr")
ROLL = "the faces as letters, e.g. roll=SCBY (roll=- before rolling)"
# the JSON path each word holds, and how to write it (analyser/notation_errors.py)
NOTATION_KEYS = NotationKeys({
    "players": Key("p<players>", positional=True),
    "clans": Key("clans", "the players' clans in turn order, e.g. K,W,F", positional=True),
    "to_move": Key("to", "the player to move, from 1, e.g. to=1"),
    "track": Key("t", "space:runner,runner groups joined by '/', a sleeping runner in "
                      "lower case, e.g. t=0:K4,W4/5:K1,W1/7:g1"),
    "track.*": Key("t (space *)", whole=True),
    "asleep": Key("t (a sleeping runner)", whole=True),
    "podium": Key("pod", "the runners on the podium, 1st place first, e.g. pod=K2,W2"),
    "tokens": Key("tok", "the victory tokens per player, comma-separated, e.g. tok=4,4,4"),
    "roll": Key("roll", ROLL),
    "rerolled": Key("rr", "rr=1 once the re-roll is taken, else rr=0"),
    "used": Key("used", "the dice resolved this turn, a letter or Y:<letter> for a Copy, "
                        "e.g. used=S,Y:B"),
    "crossed": Key("cross", "this turn's finishers as runner@action:from, e.g. "
                            "cross=F2@0:24"),
    "out": Key("out", "the surplus finishers, e.g. out=G3"),
})


def _runner_list(runners: Any) -> str:
    return ",".join(RUNNER_NAMES[r] for r in runners)


def used_text(face: int, action: int) -> str:
    """A resolved die: its letter, or ``Y:<letter>`` for a Copy (any other pair as
    ``<letter>:<letter>``, which validate refuses)."""
    if face == action and face != COPY:
        return FACE_LETTERS[face]
    return f"{FACE_LETTERS[face]}:{FACE_LETTERS[action]}"


def format_notation(pos: Position) -> str:
    asleep = set(pos.asleep)
    track = "/".join(f"{s}:" + ",".join(RUNNER_NAMES[r].lower() if r in asleep
                                        else RUNNER_NAMES[r] for r in rs)
                     for s, rs in pos.track().items())
    words = [GAME, f"p{pos.players}", ",".join(pos.clans), f"to={pos.to_move + 1}",
             f"t={track}"]
    if pos.podium:
        words.append(f"pod={_runner_list(pos.podium)}")
    words.append("tok=" + ",".join(map(str, pos.tokens)))
    words.append("roll=" + ("-" if pos.roll is None
                            else "".join(FACE_LETTERS[f] for f in pos.roll)))
    words.append(f"rr={int(pos.rerolled)}")
    if pos.used:
        words.append("used=" + ",".join(used_text(f, a) for f, a in pos.used))
    if pos.crossed:
        words.append("cross=" + ",".join(f"{RUNNER_NAMES[r]}@{a}:{s}"
                                         for r, a, s in pos.crossed))
    if pos.out:
        words.append(f"out={_runner_list(pos.out)}")
    changed = pos.rules.changed()
    if changed:
        words.append("rules=" + ";".join(f"{k}:{v}" for k, v in changed.items()))
    return " ".join(words)


def parse_notation(text: str) -> Position:
    words = text.split()
    if len(words) < 3 or words[0] not in (GAME, *ALIASES):
        raise PositionError("notation", f"must begin 'kingdom-run p<players> <clans>', got "
                            f"{quote(text.strip())}")
    if not words[1].startswith("p"):
        raise PositionError("players", f"must be like p3, got {quote(words[1])}")
    players = read_int(words[1][1:], "players", 2, MAX_PLAYERS)
    clans = tuple(clan_letter(c, f"clans[{i}]") for i, c in enumerate(words[2].split(",")))
    given: dict[str, str] = {}
    for word in words[3:]:
        key, eq, value = word.partition("=")
        if not eq or key not in KEYS:
            raise PositionError("notation", f"unexpected word {quote(word)} (expected "
                                f"{'=, '.join(KEYS)}=)")
        if key in given or any(KEYS.index(k) > KEYS.index(key) for k in given):
            raise PositionError(key, f"{key}= is out of place or repeated (the "
                                f"order is "
                                f"{'=, '.join(KEYS)}=)")
        given[key] = value
    for key in REQUIRED:
        if key not in given:
            raise PositionError(key, f"required word {key}= missing")
    rules = _rules(given.get("rules", ""))
    where, asleep = _track(given["t"])
    roll = None if given["roll"] == "-" else tuple(
        _face(ch, "roll") for ch in given["roll"])
    if roll == ():
        raise PositionError("roll", "no faces (write roll=- before rolling)")
    return Position(
        players=players, clans=clans,
        to_move=read_int(given["to"], "to_move", 1, players) - 1,
        where=where, asleep=asleep,
        podium=_runners(given.get("pod", ""), "podium"),
        crossed=_crossed(given.get("cross", "")),
        out=_runners(given.get("out", ""), "out"),
        tokens=tuple(read_int(t, f"tokens[{i}]", 0, MAX_TOKENS)
                     for i, t in enumerate(given["tok"].split(","))),
        roll=roll, rerolled=read_int(given["rr"], "rerolled", 0, 1) == 1,
        used=_used(given.get("used", "")), rules=rules)


def _face(letter: str, where: str) -> int:
    if len(letter) != 1 or letter not in FACE_LETTERS:
        raise PositionError(where, f"{quote(letter)} is not a face letter (S scatter, C "
                            f"catch-up, B bath, T steal, Z sleep/wake, Y copy)")
    return FACE_LETTERS.index(letter)


def _items(text: str) -> list[str]:
    return text.split(",") if text else []


def _runners(text: str, where: str) -> tuple[int, ...]:
    return tuple(runner_id(name, f"{where}[{i}]") for i, name in enumerate(_items(text)))


def _track(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    where = [OFF] * RUNNERS
    asleep = []
    seen: set[int] = set()
    for group in text.split("/") if text else []:
        space_text, colon, names = group.partition(":")
        space = space_number(space_text, "track")
        at = f"track.{space}"
        if not colon or not names:
            raise PositionError(at, f"expected <space>:<runner>,<runner>, got {quote(group)}")
        if space in seen:
            raise PositionError(at, f"space {space} is written twice")
        seen.add(space)
        for i, name in enumerate(names.split(",")):
            sleeps = name.isascii() and name.islower()
            r = runner_id(name.upper() if sleeps else name, f"{at}[{i}]")
            place(where, r, space, f"{at}[{i}]")
            if sleeps:
                asleep.append(r)
    return tuple(where), tuple(asleep)


def _crossed(text: str) -> tuple[tuple[int, int, int], ...]:
    out = []
    for i, item in enumerate(_items(text)):
        at = f"crossed[{i}]"
        name, _, rest = item.partition("@")
        action, colon, space = rest.partition(":")
        if not colon:
            raise PositionError(at, f"expected <runner>@<action>:<from>, got {quote(item)}")
        out.append((runner_id(name, f"{at}.runner"), read_int(action, f"{at}.action", 0, 99),
                    read_int(space, f"{at}.from", 0, 999)))
    return tuple(out)


def _used(text: str) -> tuple[tuple[int, int], ...]:
    out = []
    for i, item in enumerate(_items(text)):
        face, colon, action = item.partition(":")
        f = _face(face, f"used[{i}]")
        out.append((f, _face(action, f"used[{i}]") if colon else f))
    return tuple(out)


def _rules(text: str) -> Rules:
    given = {}
    for item in text.split(";") if text else []:
        name, colon, value = item.partition(":")
        if not colon:
            raise PositionError("rules", f"expected name:value, got {quote(item)}")
        if name in given:
            raise PositionError("rules", f"{quote(name)} is set twice")
        given[name] = value
    return Rules().with_(given, "rules")
