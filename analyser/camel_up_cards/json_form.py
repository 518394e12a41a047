"""The JSON form of a Camel Up Cards position: ``position_from_json``, ``position_to_json``.

Shapes are checked here (wrong types, unknown keys, colours and cards, numbers out of their
range: a one-line PositionError naming the field, e.g. ``played[0].card``); the game's
invariants are checked by ``validate``. Required: ``game``, ``players`` and the board
(``start`` and/or ``stacks``); everything else has the defaults of ``Position``::

    {"game": "camel-up-cards", "players": 4, "ages": [0, 1, 2, 3], "setup": [7, 3, 2],
     "last": 17, "cards": [2, 2, 2, 2, 2, 2, 2, 2, 2], "start": ["W", "G"],
     "stacks": {"1": ["B"], "3": ["Y", "O"]},          (spaces as strings, bottom -> top)
     "fox": {"space": 7, "holder": 1}, "palm": null,
     "viewer": 0, "revealed": ["Y1", "O2"], "played": [{"player": 1, "card": "G2"}],
     "blue": ["W1", "G2", "O1", "Y1"],                 (null per seat with 2 players)
     "own": {"discarded": ["W1", "W1", "G2"], "deck": ["O1", "B1"], "hand": "G1"},
     "hands": [true, false, true, true], "leader": [[["O", 5]], [], [], []],
     "midfield": [["Y"], [], [], []], "winner": [null, "O", null, null],
     "loser": [null, null, null, null], "money": [3, 3, 3, 3],
     "to_move": 0, "phase": "start", "leg": 1}

``position_to_json`` writes every field, so ``position_from_json(position_to_json(p)) == p``.
"""

from __future__ import annotations

from typing import Any

from ...errors import PositionError, quote
from ...strict import json_list, json_object, path, read_int, whole_number
from .position import (COLOURS, DEFAULT_LAST, GAME, LEADER_VALUES, MAX_LAST, MAX_LEG,
                       MAX_MONEY, MAX_PLAYERS, MAX_SETUP, MIN_PLAYERS, PHASES, Figure,
                       Position, is_card)

TOP_KEYS = ("game", "players", "ages", "setup", "last", "cards", "start", "stacks", "fox",
            "palm", "viewer", "revealed", "played", "blue", "own", "hands", "leader",
            "midfield", "winner", "loser", "money", "to_move", "phase", "leg")
FIGURE_KEYS = ("space", "holder")
PLAYED_KEYS = ("player", "card")
OWN_KEYS = ("discarded", "deck", "hand")
PER_PLAYER = ("ages", "blue", "hands", "leader", "midfield", "winner", "loser", "money")
LEADER_WORTH = tuple(sorted(set(LEADER_VALUES), reverse=True))  # 5, 3, 2


# ---------------------------------------------------------------------- shared readers
# (the notation reads its values with these too)


def colour(value: Any, field: str) -> str:
    """A camel colour: one of the letters W G O B Y."""
    if not isinstance(value, str) or value not in COLOURS:
        raise PositionError(field, f"expected a colour {', '.join(COLOURS[:-1])} or "
                                   f"{COLOURS[-1]}, got {quote(value)}")
    return value


def card(value: Any, field: str) -> str:
    """A racing card: a colour letter and its value 1 or 2, e.g. 'W1' or 'Y2'."""
    if not is_card(value):
        raise PositionError(field, f"expected a racing card like 'W1' or 'Y2' (a colour "
                                   f"{'/'.join(COLOURS)} and 1 or 2), got {quote(value)}")
    return value


def leader_value(value: int, field: str) -> int:
    """A leader card's value: 5, 3 or 2 (an int already read)."""
    if value not in LEADER_WORTH:
        raise PositionError(field, f"a leader card is worth 5, 3 or 2, got {value}")
    return value


def seat(value: Any, field: str, players: int) -> int:
    """A seat as JSON: 0..players-1."""
    return whole_number(value, field, 0, players - 1)


def space_key(key: str, field: str, last: int) -> int:
    """A track space written as text (a JSON key, a notation number): 1..``last``."""
    s = read_int(key, field, 1, MAX_LAST)
    if s > last:
        raise PositionError(field, f"space {s} is beyond the last space L = {last}")
    return s


def build(fields: dict[str, Any]) -> Position:
    """A Position from typed fields (``Position`` fills the defaults); per-player lists
    of the wrong length are refused first, naming the JSON key."""
    players = fields["players"]
    for key in PER_PLAYER:
        value = fields.get(key)
        if value is not None and len(value) != players:
            raise PositionError(key, f"has {len(value)} entries for {players} players")
    return Position(**fields)


# ---------------------------------------------------------------------- JSON -> Position


def _items(value: Any, field: str, read) -> tuple:
    """The JSON list ``value``, each item read by ``read(item, its field)``."""
    return tuple(read(item, path(field, i)) for i, item in enumerate(json_list(value, field)))


def _list(data: dict[str, Any], key: str, read) -> tuple:
    """The list ``data[key]``, each item read by ``read(item, its field)``."""
    return _items(data[key], key, read)


def _stacks(value: Any, last: int) -> tuple[tuple[str, ...], ...]:
    if not isinstance(value, dict):
        raise PositionError("stacks", "must be an object mapping spaces (\"1\" to "
                                      "\"L\") to camels bottom -> top")
    spaces: list[tuple[str, ...]] = [()] * last
    given: dict[int, str] = {}
    for key, stack in value.items():
        field = path("stacks", key)
        s = space_key(key, field, last)
        if s in given:
            raise PositionError(field, f"space {s} is given twice (also as {quote(given[s])})")
        given[s] = key
        spaces[s - 1] = tuple(colour(c, path(field, j))
                              for j, c in enumerate(json_list(stack, field)))
    return tuple(spaces)


def _figure(value: Any, name: str, last: int, players: int) -> Figure | None:
    if value is None:
        return None
    json_object(value, name, FIGURE_KEYS)
    for key in FIGURE_KEYS:
        if key not in value:
            raise PositionError(name, f"missing {key!r} (a figure on the track is "
                                      f"{{\"space\": s, \"holder\": seat}}, or null)")
    return Figure(whole_number(value["space"], name + ".space", 1, last),
                  seat(value["holder"], name + ".holder", players))


def _played(value: Any, players: int) -> tuple[tuple[int, str], ...]:
    out = []
    for i, item in enumerate(json_list(value, "played")):
        field = path("played", i)
        json_object(item, field, PLAYED_KEYS)
        for key in PLAYED_KEYS:
            if key not in item:
                raise PositionError(field, f"missing {key!r} (a played card is "
                                           f"{{\"player\": seat, \"card\": card}})")
        out.append((seat(item["player"], field + ".player", players),
                    card(item["card"], field + ".card")))
    return tuple(out)


def _leader(value: Any) -> tuple[tuple[tuple[str, int], ...], ...]:
    out = []
    for p, held in enumerate(json_list(value, "leader")):
        field = path("leader", p)
        row = []
        for j, item in enumerate(json_list(held, field)):
            f = path(field, j)
            if not isinstance(item, list) or len(item) != 2:
                raise PositionError(f, f"a leader card is [colour, value], got {quote(item)}")
            row.append((colour(item[0], path(f, 0)),
                        leader_value(whole_number(item[1], path(f, 1), 2, 5), path(f, 1))))
        out.append(tuple(row))
    return tuple(out)


def _own(value: Any) -> dict[str, Any]:
    json_object(value, "own", OWN_KEYS)
    out: dict[str, Any] = {}
    for key, name in (("discarded", "own_discarded"), ("deck", "own_deck")):
        if key in value:
            out[name] = _items(value[key], "own." + key, card)
    if value.get("hand") is not None:
        out["own_hand"] = card(value["hand"], "own.hand")
    return out


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise PositionError(field, f"must be true or false, got {quote(value)}")
    return value


def position_from_json(data: Any) -> Position:
    """The position of a JSON object (module doc); PositionError naming the field."""
    if not isinstance(data, dict):
        raise PositionError("position", "must be a JSON object")
    if "game" not in data:
        raise PositionError("game", "required field missing")
    if data["game"] != GAME:
        raise PositionError("game", f"expected {GAME!r}, got {quote(data['game'])}")
    json_object(data, "", TOP_KEYS)
    if "players" not in data:
        raise PositionError("players", "required field missing")
    if "start" not in data and "stacks" not in data:
        raise PositionError("stacks", "required field missing: the board is 'start' (the "
                                      "line-up on the start card) and/or 'stacks'")
    n = whole_number(data["players"], "players", MIN_PLAYERS, MAX_PLAYERS)
    fields: dict[str, Any] = {"players": n}
    if "ages" in data:
        fields["ages"] = _list(data, "ages", lambda v, f: seat(v, f, n))
    if "setup" in data:
        setup = _list(data, "setup", lambda v, f: whole_number(v, f, 0, MAX_SETUP))
        if len(setup) != 3:
            raise PositionError("setup", f"expected [dealt, discarded, into the deck], got "
                                         f"{len(setup)} numbers")
        fields["setup"] = setup
    if "last" in data:
        fields["last"] = whole_number(data["last"], "last", 1, MAX_LAST)
    last = fields.get("last", DEFAULT_LAST[n])
    if "cards" in data:
        fields["cards"] = _list(data, "cards", lambda v, f: whole_number(v, f, 1, 2))
    if "start" in data:
        fields["start_line"] = _list(data, "start", colour)
    fields["stacks"] = _stacks(data["stacks"], last) if "stacks" in data else ((),) * last
    for name in ("fox", "palm"):
        if name in data:
            fields[name] = _figure(data[name], name, last, n)
    for name in ("viewer", "to_move"):
        if name in data:
            fields[name] = seat(data[name], name, n)
    if "revealed" in data:
        fields["revealed"] = _list(data, "revealed", card)
    if "played" in data:
        fields["played"] = _played(data["played"], n)
    if "blue" in data:
        fields["blue"] = _list(data, "blue", lambda v, f: None if v is None else card(v, f))
    if "own" in data:
        fields.update(_own(data["own"]))
    if "hands" in data:
        fields["hands"] = _list(data, "hands", _bool)
    if "leader" in data:
        fields["leader"] = _leader(data["leader"])
    if "midfield" in data:
        fields["midfield"] = tuple(
            tuple(colour(c, path(path("midfield", p), j))
                  for j, c in enumerate(json_list(held, path("midfield", p))))
            for p, held in enumerate(json_list(data["midfield"], "midfield")))
    for name in ("winner", "loser"):
        if name in data:
            fields[name] = _list(data, name, lambda v, f: None if v is None else colour(v, f))
    if "money" in data:
        fields["money"] = _list(data, "money", lambda v, f: whole_number(v, f, 1, MAX_MONEY))
    if "phase" in data:
        fields["phase"] = phase(data["phase"], "phase")
    if "leg" in data:
        fields["leg"] = whole_number(data["leg"], "leg", 1, MAX_LEG)
    return build(fields)


def phase(value: Any, field: str) -> str:
    """The turn's phase: one of PHASES."""
    if value not in PHASES:
        raise PositionError(field, f"expected {', '.join(map(repr, PHASES))}, got "
                                   f"{quote(value)}")
    return value


# ---------------------------------------------------------------------- Position -> JSON


def _figure_json(fig: Figure | None) -> dict[str, int] | None:
    return None if fig is None else {"space": fig.space, "holder": fig.holder}


def position_to_json(pos: Position) -> dict[str, Any]:
    """Every field of ``pos`` as a JSON object (module doc)."""
    return {
        "game": pos.variant,
        "players": pos.players,
        "ages": list(pos.ages),
        "setup": list(pos.setup),
        "last": pos.last,
        "cards": list(pos.cards),
        "start": list(pos.start_line),
        "stacks": {str(s): list(stack) for s, stack in enumerate(pos.stacks, 1) if stack},
        "fox": _figure_json(pos.fox),
        "palm": _figure_json(pos.palm),
        "viewer": pos.viewer,
        "revealed": list(pos.revealed),
        "played": [{"player": s, "card": c} for s, c in pos.played],
        "blue": list(pos.blue),
        "own": {"discarded": list(pos.own_discarded), "deck": list(pos.own_deck),
                "hand": pos.own_hand},
        "hands": list(pos.hands),
        "leader": [[[c, v] for c, v in held] for held in pos.leader],
        "midfield": [list(held) for held in pos.midfield],
        "winner": list(pos.winner),
        "loser": list(pos.loser),
        "money": list(pos.money),
        "to_move": pos.to_move,
        "phase": pos.phase,
        "leg": pos.leg,
    }
