"""A Kingdom Run position, between turns or in the middle of one, and its JSON form
(docs/games/kingdom-run.md §12.1).

Runners are ids 0..15, r = 4 × clan + n − 1 for runner ``<clan letter><n>`` (§1); each is
on a space of the track, on the podium, crossed this turn (place not yet handed out) or
out (a surplus finisher). Die faces and action types are indices into ``FACE_NAMES``.
The representation is canonical (asleep runners and the roll sorted), so that equal
positions compare equal and both written forms read back to the same value.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ...errors import PositionError, quote
from ...strict import BOUND, json_list, json_object, path, whole_number
from .rules import COPY, FACE_NAMES, Rules

GAME = "kingdom-run"
ALIASES = ("krolewski-wyscig",)
CLANS = "KWFG"
RUNNERS = 16
RUNNER_NAMES = tuple(f"{c}{n}" for c in CLANS for n in range(1, 5))
MAX_PLAYERS = 4
OFF = -1  # ``where`` of a runner not on the track
MAX_TOKENS = 99  # per player, as read (validate checks the game's total)
_RUNNER_INDEX = {name: r for r, name in enumerate(RUNNER_NAMES)}
_FACE_INDEX = {name: f for f, name in enumerate(FACE_NAMES)}


@dataclass(frozen=True)
class Position:
    players: int
    clans: tuple[str, ...]                  # clan letter of each player, turn order
    to_move: int
    where: tuple[int, ...]                  # per runner id: its space, or OFF
    asleep: tuple[int, ...] = ()            # runner ids, sorted
    podium: tuple[int, ...] = ()            # runner ids, 1st place first
    crossed: tuple[tuple[int, int, int], ...] = ()  # (runner, action index in used, from)
    out: tuple[int, ...] = ()               # surplus finishers
    tokens: tuple[int, ...] = ()            # victory tokens per player
    roll: tuple[int, ...] | None = None     # faces, sorted; None before rolling
    rerolled: bool = False
    used: tuple[tuple[int, int], ...] = ()  # (die face, action type), in resolution order
    rules: Rules = field(default_factory=Rules)

    def __post_init__(self) -> None:
        object.__setattr__(self, "asleep", tuple(sorted(set(self.asleep))))
        if self.roll is not None:
            object.__setattr__(self, "roll", tuple(sorted(self.roll)))

    @property
    def variant(self) -> str:
        """The declared variant whose preset the rules are (``variants.py``)."""
        from .variants import variant_of
        return variant_of(self.rules)

    @property
    def viewer(self) -> int:
        """Whose knowledge the position holds: the player to move (nothing is hidden)."""
        return self.to_move

    def with_(self, **changes: Any) -> Position:
        return replace(self, **changes)

    def to_notation(self) -> str:
        from .notation import format_notation
        return format_notation(self)

    def track(self) -> dict[int, list[int]]:
        """Space -> the runners on it (id order), spaces ascending; empty ones left out."""
        spaces: dict[int, list[int]] = {}
        for r, s in enumerate(self.where):
            if s != OFF:
                spaces.setdefault(s, []).append(r)
        return dict(sorted(spaces.items()))

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict:
        obj: dict[str, Any] = {
            "game": GAME, "players": self.players, "clans": list(self.clans),
            "to_move": self.to_move,
            "track": {str(s): [RUNNER_NAMES[r] for r in rs] for s, rs in self.track().items()},
            "asleep": [RUNNER_NAMES[r] for r in self.asleep],
            "podium": [RUNNER_NAMES[r] for r in self.podium],
            "crossed": [{"runner": RUNNER_NAMES[r], "action": a, "from": s}
                        for r, a, s in self.crossed],
            "out": [RUNNER_NAMES[r] for r in self.out],
            "tokens": list(self.tokens),
            "roll": None if self.roll is None else [FACE_NAMES[f] for f in self.roll],
            "rerolled": self.rerolled,
            "used": [used_name(f, a) for f, a in self.used],
        }
        changed = self.rules.changed()
        if changed:
            obj["rules"] = changed
        return obj

    @classmethod
    def from_json(cls, obj: Any) -> Position:
        obj = json_object(obj, "", ("game", "players", "clans", "to_move", "track", "asleep",
                                    "podium", "crossed", "out", "tokens", "roll", "rerolled",
                                    "used", "rules"))
        for key in ("players", "clans", "to_move", "track", "tokens"):
            if key not in obj:
                raise PositionError(key, "required field missing")
        if "game" in obj and obj["game"] not in (GAME, *ALIASES):
            raise PositionError("game", f"must be {GAME!r}, got {quote(obj['game'])}")
        players = whole_number(obj["players"], "players", 2, MAX_PLAYERS)
        clans = tuple(clan_letter(c, path("clans", i))
                      for i, c in enumerate(json_list(obj["clans"], "clans")))
        to_move = whole_number(obj["to_move"], "to_move", 0, players - 1)
        where = [OFF] * RUNNERS
        for key, runners in json_object(obj["track"], "track").items():
            at = path("track", key)
            space = space_number(key, at)
            for i, name in enumerate(json_list(runners, at)):
                place(where, runner_id(name, path(at, i)), space, path(at, i))
        roll = obj.get("roll")
        if roll is not None:
            roll = tuple(face_index(f, path("roll", i))
                         for i, f in enumerate(json_list(roll, "roll")))
            if not roll:
                raise PositionError("roll", "an empty list (null before rolling)")
        rerolled = obj.get("rerolled", False)
        if not isinstance(rerolled, bool):
            raise PositionError("rerolled", f"must be true or false, got {quote(rerolled)}")
        return cls(
            players=players, clans=clans, to_move=to_move, where=tuple(where),
            asleep=_unique(_runners(obj.get("asleep", []), "asleep"), "asleep"),
            podium=_runners(obj.get("podium", []), "podium"),
            crossed=tuple(_crossed(c, path("crossed", i)) for i, c in
                          enumerate(json_list(obj.get("crossed", []), "crossed"))),
            out=_runners(obj.get("out", []), "out"),
            tokens=tuple(whole_number(t, path("tokens", i), 0, MAX_TOKENS)
                         for i, t in enumerate(json_list(obj["tokens"], "tokens"))),
            roll=roll, rerolled=rerolled,
            used=tuple(used_pair(u, path("used", i))
                       for i, u in enumerate(json_list(obj.get("used", []), "used"))),
            rules=_rules(obj.get("rules", {})))


def new_position(players: int, clans: Any = None, rules: Rules | None = None) -> Position:
    """The set-up (§3): runner X1 on space 0 ... X4 on space 3 for every clan, all awake,
    the victory tokens dealt, player 0 to roll."""
    from .validate import validate
    rules = Rules() if rules is None else rules
    if isinstance(players, bool) or not isinstance(players, int) \
            or not 2 <= players <= MAX_PLAYERS:
        raise PositionError("players", f"must be from 2 to {MAX_PLAYERS}, got "
                            f"{quote(players)}")
    clans = tuple(CLANS[:players] if clans is None else clans)
    pos = Position(players=players, clans=clans, to_move=0,
                   where=tuple(r % 4 for r in range(RUNNERS)),
                   tokens=(rules.tokens_per_player(players),) * players, rules=rules)
    validate(pos)
    return pos


def runner_id(text: Any, where: str) -> int:
    """The id of runner ``text`` (``K1``..``G4``)."""
    if not isinstance(text, str) or text not in _RUNNER_INDEX:
        raise PositionError(where, f"{quote(text)} is not a runner (K1..K4, W1..W4, "
                            f"F1..F4, G1..G4)")
    return _RUNNER_INDEX[text]


def clan_letter(text: Any, where: str) -> str:
    if not isinstance(text, str) or len(text) != 1 or text not in CLANS:
        raise PositionError(where, f"{quote(text)} is not a clan (K, W, F or G)")
    return text


def face_index(text: Any, where: str) -> int:
    if not isinstance(text, str) or text not in _FACE_INDEX:
        raise PositionError(where, f"{quote(text)} is not a die face "
                            f"({', '.join(FACE_NAMES)})")
    return _FACE_INDEX[text]


def used_name(face: int, action: int) -> str:
    """A resolved die as JSON writes it: its face, or ``copy:<action>`` (any other pair
    as ``<face>:<action>``, which validate refuses)."""
    if face == action and face != COPY:
        return FACE_NAMES[face]
    return f"{FACE_NAMES[face]}:{FACE_NAMES[action]}"


def used_pair(text: Any, where: str) -> tuple[int, int]:
    """``(face, action)`` of a resolved die written ``face`` or ``copy:<action>``."""
    if not isinstance(text, str):
        raise PositionError(where, f"must be a die face or copy:<action>, got {quote(text)}")
    face, colon, action = text.partition(":")
    f = face_index(face, where)
    return f, face_index(action, where) if colon else f


def space_number(text: str, where: str) -> int:
    """A space written as text (a JSON key, notation): plain digits, no leading zero."""
    if not text.isascii() or not text.isdigit() or (len(text) > 1 and text[0] == "0") \
            or len(text) > 18:
        raise PositionError(where, f"{quote(text)} is not a space number (0, 1, 2, ...)")
    return min(int(text), BOUND)


def place(where: list[int], runner: int, space: int, at: str) -> None:
    """Put ``runner`` on ``space`` in ``where``; a runner named twice is refused."""
    if where[runner] != OFF:
        raise PositionError(at, f"{RUNNER_NAMES[runner]} is also on space {where[runner]}")
    where[runner] = space


def _runners(value: Any, where: str) -> tuple[int, ...]:
    return tuple(runner_id(v, path(where, i)) for i, v in enumerate(json_list(value, where)))


def _unique(runners: tuple[int, ...], where: str) -> tuple[int, ...]:
    for i, r in enumerate(runners):
        if r in runners[:i]:
            raise PositionError(path(where, i), f"{RUNNER_NAMES[r]} is named twice")
    return runners


def _crossed(value: Any, where: str) -> tuple[int, int, int]:
    obj = json_object(value, where, ("runner", "action", "from"))
    for key in ("runner", "action", "from"):
        if key not in obj:
            raise PositionError(path(where, key), "required field missing")
    return (runner_id(obj["runner"], path(where, "runner")),
            whole_number(obj["action"], path(where, "action"), 0, 99),
            whole_number(obj["from"], path(where, "from"), 0, 999))


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
