"""Kingdom Run's rule parameters (docs/games/kingdom-run.md §11): their values read from
text, and what the track and the set-up derive from them (§2, §3).

A position keeps only the parameters that differ from their defaults (JSON ``rules``,
notation ``rules=``); ``--rule NAME=VALUE`` sets one on any command. The declaration
(names, defaults, meaning) is ``GAME.rules`` in ``__init__.py``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields

from ...errors import OddsbotError, quote

FACE_NAMES = ("scatter", "catchup", "bath", "steal", "sleepwake", "copy")  # index 0..5
SCATTER, CATCHUP, BATH, STEAL, SLEEPWAKE, COPY = range(6)
D0 = ((4, ()), (6, (3,)), (6, (3,)), (6, (3,)), (4, ()))  # §2: the default layout
START_SPACES = 4  # §3: one runner of each clan on each of spaces 0..3
MAX_SPACES = 60

_DIGITS = re.compile(r"[0-9]{1,6}")  # ASCII digits only (``int`` takes any script's)


@dataclass(frozen=True)
class Rules:
    """Every parameter's value (§11), defaults as the design says."""

    die_faces: tuple[int, ...] = (0, 1, 2, 3, 4, 5)  # face indices, FACE_NAMES order
    dice: int = 4
    per_action_limit: int = 2
    mandatory_dice: bool = True
    capacity: int = 4
    layout: tuple[tuple[int, tuple[int, ...]], ...] = D0  # (size, lake offsets) per board
    lakes: int = 3
    zone_values: tuple[int, ...] = (1, 2, 3, 4, 5)
    zone_mode: str = "zone"
    podium_values: tuple[int, ...] = (13, 10, 8, 6, 5, 4, 3, 2)
    victory_tokens: tuple[int, int, int] = (6, 4, 3)  # each, for 2/3/4 players
    victory_token_value: int = 2
    two_player_end: str = "first_of"
    same_turn_order: str = "free"
    surplus_finishers: str = "score_zero"
    tie_rule: str = "best_podium"

    def changed(self) -> dict[str, str]:
        """The parameters that differ from the defaults, as text (JSON ``rules``)."""
        default = Rules()
        return {f.name: show(f.name, getattr(self, f.name)) for f in fields(self)
                if getattr(self, f.name) != getattr(default, f.name)}

    def with_(self, given: Mapping[str, str], where: str = "rules") -> Rules:
        """These rules with ``given`` (name -> text) set, the parameters checked against
        each other; one line for a bad one."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        for name, text in given.items():
            if name not in values:
                raise OddsbotError(f"{where}: unknown rule parameter {quote(name)} ('oddsbot "
                                   f"rules kingdom-run' lists them)")
            values[name] = read(name, str(text), where)
        rules = Rules(**values)
        rules.check(where)
        return rules

    def check(self, where: str = "rules") -> None:
        """Refuse parameters that do not fit together (§11), in one line."""
        layout = show("layout", self.layout)
        held = sum(len(lakes) for _size, lakes in self.layout)
        if held != self.lakes:
            raise OddsbotError(f"{where}: lakes={self.lakes} but layout={quote(layout)} holds "
                               f"{held} lakes (the two must agree)")
        if len(self.zone_values) != len(self.layout):
            zones = quote(show("zone_values", self.zone_values))
            raise OddsbotError(f"{where}: zone_values={zones} has {len(self.zone_values)} "
                               f"values but the layout has {len(self.layout)} boards (one "
                               f"value per board)")

    def spaces(self) -> int:
        """N: the spaces of the track, 0..N-1 (§2)."""
        return sum(size for size, _lakes in self.layout)

    def board_starts(self) -> tuple[int, ...]:
        """The first space of each board."""
        starts, at = [], 0
        for size, _lakes in self.layout:
            starts.append(at)
            at += size
        return tuple(starts)

    def lake_spaces(self) -> tuple[int, ...]:
        """The lake spaces, ascending (§2)."""
        return tuple(start + lake for start, (_size, lakes) in zip(self.board_starts(),
                                                                    self.layout)
                     for lake in lakes)

    def board_of_space(self) -> tuple[int, ...]:
        """The board each space lies on (0 = START)."""
        return tuple(b for b, (size, _lakes) in enumerate(self.layout) for _ in range(size))

    def token_spaces(self) -> tuple[int, ...]:
        """Where the score tokens lie: each board's first space (§2, §9 ``exact``)."""
        return self.board_starts()

    def zone_of_space(self) -> tuple[int, ...]:
        """The zone value a runner on each space scores (its board's token, §9)."""
        return tuple(self.zone_values[b] for b in self.board_of_space())

    def places(self) -> int:
        """The podium's places (§7)."""
        return len(self.podium_values)

    def tokens_per_player(self, players: int) -> int:
        """Victory tokens dealt to each player (§3)."""
        return self.victory_tokens[players - 2]

    @staticmethod
    def show(name: str, value: object) -> str:
        """``value`` of parameter ``name`` as text (module function ``show``)."""
        return show(name, value)


def _bool(text: str) -> bool:
    if text in ("true", "false"):
        return text == "true"
    raise ValueError("must be true or false")


def _int(text: str, low: int, high: int, what: str = "must be") -> int:
    if not _DIGITS.fullmatch(text) or not low <= int(text) <= high:
        raise ValueError(f"{what} a whole number from {low} to {high}")
    return int(text)


def _ints(text: str, sep: str, low: int, high: int, count: tuple[int, int]) -> tuple[int, ...]:
    parts = text.split(sep)
    if not count[0] <= len(parts) <= count[1] or not all(
            _DIGITS.fullmatch(p) and low <= int(p) <= high for p in parts):
        many = (f"{count[0]}" if count[0] == count[1] else f"{count[0]} to {count[1]}")
        raise ValueError(f"must be {many} whole numbers from {low} to {high} separated by "
                         f"{sep!r}")
    return tuple(int(p) for p in parts)


def _choice(text: str, allowed: tuple[str, ...]) -> str:
    if text not in allowed:
        raise ValueError(f"must be {' or '.join(allowed)}")
    return text


def _faces(text: str) -> tuple[int, ...]:
    names = text.split(",")
    if not 2 <= len(names) <= 12 or any(n not in FACE_NAMES for n in names):
        raise ValueError(f"must be 2 to 12 faces separated by commas, repeats allowed, "
                         f"each one of {', '.join(FACE_NAMES)}")
    faces = tuple(FACE_NAMES.index(n) for n in names)
    if all(f == COPY for f in faces):
        raise ValueError("at least one face must not be copy (a Copy copies another die)")
    return faces


def _layout(text: str) -> tuple[tuple[int, tuple[int, ...]], ...]:
    parts = text.split("/")
    if not 2 <= len(parts) <= 8:
        raise ValueError("must be 2 to 8 boards separated by '/', START first, each SIZE "
                         "or SIZE:LAKE,LAKE (e.g. 4/6:3/6:3/6:3/4)")
    boards = []
    for b, part in enumerate(parts):
        size_text, colon, lakes_text = part.partition(":")
        size = _int(size_text, 1, 12, f"board {b + 1}: its size must be")
        lakes: tuple[int, ...] = ()
        if colon:
            offsets = lakes_text.split(",")
            if not all(_DIGITS.fullmatch(o) and int(o) < size for o in offsets) \
                    or len(set(map(int, offsets))) != len(offsets):
                raise ValueError(f"board {b + 1}: lake offsets must be distinct whole numbers "
                                 f"from 0 to {size - 1} separated by commas")
            lakes = tuple(int(o) for o in offsets)
        boards.append((size, tuple(sorted(lakes))))
    if boards[0][0] < START_SPACES:
        raise ValueError(f"the START board needs at least {START_SPACES} spaces (the set-up "
                         f"puts a runner of each clan on each of spaces 0..3)")
    if boards[0][1] or boards[-1][1]:
        raise ValueError("the START and FINISH boards (first and last) hold no lake")
    if sum(size for size, _ in boards) > MAX_SPACES:
        raise ValueError(f"at most {MAX_SPACES} spaces in all")
    return tuple(boards)


READERS = {
    "die_faces": _faces,
    "dice": lambda t: _int(t, 1, 5),
    "per_action_limit": lambda t: _int(t, 1, 5),
    "mandatory_dice": _bool,
    "capacity": lambda t: _int(t, 4, 8),
    "layout": _layout,
    "lakes": lambda t: _int(t, 0, 12),
    "zone_values": lambda t: _ints(t, ",", 0, 99, (2, 8)),
    "zone_mode": lambda t: _choice(t, ("zone", "exact")),
    "podium_values": lambda t: _ints(t, ",", 0, 99, (1, 12)),
    "victory_tokens": lambda t: _ints(t, "/", 0, 20, (3, 3)),
    "victory_token_value": lambda t: _int(t, 0, 99),
    "two_player_end": lambda t: _choice(t, ("first_of", "own_runners_only")),
    "same_turn_order": lambda t: _choice(t, ("free", "chronological")),
    "surplus_finishers": lambda t: _choice(t, ("score_zero", "stay")),
    "tie_rule": lambda t: _choice(t, ("best_podium", "shared")),
}


def read(name: str, text: str, where: str = "rules") -> object:
    """The value of parameter ``name`` written as ``text``; one line if it is not one."""
    try:
        return READERS[name](text)
    except ValueError as exc:
        raise OddsbotError(f"{where}: {name}={quote(text)}: {exc}") from None


def show(name: str, value: object) -> str:
    """``value`` of parameter ``name`` as text ``read`` reads back."""
    if name == "die_faces":
        return ",".join(FACE_NAMES[f] for f in value)  # type: ignore[attr-defined]
    if name == "layout":
        return "/".join(f"{size}:{','.join(map(str, lakes))}" if lakes else f"{size}"
                        for size, lakes in value)  # type: ignore[attr-defined]
    if name == "victory_tokens":
        return "/".join(str(v) for v in value)  # type: ignore[attr-defined]
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def declared_names() -> tuple[str, ...]:
    """The parameters ``GAME.rules`` declares (a test checks they are ``Rules``' fields)."""
    from . import GAME
    return tuple(p.name for p in GAME.rules)
