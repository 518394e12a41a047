"""The JSON form of a Camel Up Cards position: ``position_from_json``, ``position_to_json``.

The fields are the facts of the rules' §6 under the names §6 gives them
(docs/games/camel-up-cards.md §13.1); ``ages``, ``viewer`` and ``leg`` are oddsbot's
additions. Shapes are checked here (wrong types, unknown keys at every depth, colours and
cards, numbers out of their range: a one-line PositionError naming the field, e.g.
``played_hand_cards[0].card`` or ``leg_cards[1].leader[0]``); the game's invariants are
checked by ``validate``. Required: ``game``, ``players`` and the board (``start_line``
and/or ``stacks``); everything else has the defaults of ``Position``. The derived fields
(``deck_count``, ``own_cards.dealt``, ``leader_stacks``, ``midfield_available``) may be
left out; when given they must agree with the rest (PositionError naming them)::

    {"game": "camel-up-cards", "players": 4, "ages": [0, 1, 2, 3],
     "setup": [7, 3, 2],                     (or {"dealt": 7, "discarded": 3, "into_deck": 2})
     "track": {"last": 17, "cards": [2, 2, 2, 2, 2, 2, 2, 2, 2]},
     "start_line": ["W", "G"],
     "stacks": {"1": ["B"], "3": ["Y", "O"]},          (spaces as strings, bottom -> top)
     "fox": {"space": 7, "holder": 1}, "palm": "supply",        ("supply" or null: beside)
     "deck_count": 10, "viewer": 0, "revealed": ["Y1", "O2"],
     "played_hand_cards": [{"player": 1, "card": "G2"}],
     "blue_cards": ["W1", "G1", "O1", "Y1"],           (null per seat with 2 players)
     "own_cards": {"dealt": ["W1", "W1", "B1", "O1", "B1", "W1", "G1"],
                   "discarded": ["W1", "W1", "B1"], "deck": ["O1", "B1"], "hand": "G1"},
     "hands": [true, false, true, true],
     "leader_stacks": {"W": [5, 3, 2, 2], "G": [5, 3, 2, 2], "O": [3, 2, 2], ...},
     "midfield_available": {"W": true, "G": true, "O": true, "B": true, "Y": false},
     "leg_cards": [{"leader": [["O", 5]], "midfield": ["Y"]}, {}, {}, {}],
     "final_cards": [{}, {"winner": "O"}, {}, {"winner": null, "loser": null}],
     "money": [3, 3, 3, 3], "to_move": 0, "phase": "start", "status": "running", "leg": 1}

``leader_stacks`` lists per colour the values still in the stack, top first (a colour
left out is not checked); ``status`` accepts only ``"running"`` (a finished race has
nothing to analyse). ``position_to_json`` writes every field (the derived ones too, every
colour, both keys of each seat's ``leg_cards`` and ``final_cards``, figures beside the
track as ``"supply"``), so ``position_from_json(position_to_json(p)) == p``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...errors import PositionError, quote
from ...strict import json_list, json_object, path, read_int, whole_number
from .position import (COLOURS, DEFAULT_LAST, GAME, LEADER_VALUES, MAX_LAST, MAX_LEG,
                       MAX_MONEY, MAX_PLAYERS, MAX_SETUP, MIN_PLAYERS, PHASES, Figure,
                       Position, card_key, is_card)

TOP_KEYS = ("game", "players", "ages", "setup", "track", "start_line", "stacks", "fox",
            "palm", "deck_count", "viewer", "revealed", "played_hand_cards", "blue_cards",
            "own_cards", "hands", "leader_stacks", "midfield_available", "leg_cards",
            "final_cards", "money", "to_move", "phase", "status", "leg")
SETUP_KEYS = ("dealt", "discarded", "into_deck")
TRACK_KEYS = ("last", "cards")
FIGURE_KEYS = ("space", "holder")
SUPPLY = "supply"  # a figure beside the track
PLAYED_KEYS = ("player", "card")
OWN_KEYS = ("dealt", "discarded", "deck", "hand")
LEG_KEYS = ("leader", "midfield")
FINAL_KEYS = ("winner", "loser")
STATUSES = ("running",)  # "over" (§6) is refused: a finished race has nothing to analyse
# the Position fields checked per player by ``build`` (named as the notation and validate do)
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


def _per_player(values: tuple, field: str, players: int) -> tuple:
    """``values`` if there is one per player."""
    if len(values) != players:
        raise PositionError(field, f"has {len(values)} entries for {players} players")
    return values


def _optional_colour(value: Any, field: str) -> str | None:
    return None if value is None else colour(value, field)


def _setup(value: Any) -> tuple[int, int, int]:
    """``[dealt, discarded, into_deck]`` or the object with those three keys."""
    if isinstance(value, dict):
        json_object(value, "setup", SETUP_KEYS)
        for key in SETUP_KEYS:
            if key not in value:
                raise PositionError("setup", f"missing {key!r} (the setup is {{\"dealt\": "
                                             f"d, \"discarded\": x, \"into_deck\": k}} or "
                                             f"[d, x, k])")
        return tuple(whole_number(value[key], path("setup", key), 0, MAX_SETUP)
                     for key in SETUP_KEYS)
    if not isinstance(value, list):
        raise PositionError("setup", f"expected [dealt, discarded, into_deck] or an object "
                                     f"with those keys, got {quote(value)}")
    setup = _items(value, "setup", lambda v, f: whole_number(v, f, 0, MAX_SETUP))
    if len(setup) != 3:
        raise PositionError("setup", f"expected [dealt, discarded, into_deck], got "
                                     f"{len(setup)} numbers")
    return setup


def _track(value: Any) -> dict[str, Any]:
    """``{"last": L, "cards": [...]}``, both keys optional: the Position fields given."""
    json_object(value, "track", TRACK_KEYS)
    out: dict[str, Any] = {}
    if "last" in value:
        out["last"] = whole_number(value["last"], "track.last", 1, MAX_LAST)
    if "cards" in value:
        out["cards"] = _items(value["cards"], "track.cards",
                              lambda v, f: whole_number(v, f, 1, 2))
    return out


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
    """``"supply"`` (or null): beside the track; else ``{"space": s, "holder": seat}``."""
    if value is None or value == SUPPLY:
        return None
    if not isinstance(value, dict):
        raise PositionError(name, f"expected {SUPPLY!r} (beside the track) or {{\"space\": "
                                  f"s, \"holder\": seat}}, got {quote(value)}")
    json_object(value, name, FIGURE_KEYS)
    for key in FIGURE_KEYS:
        if key not in value:
            raise PositionError(name, f"missing {key!r} (a figure on the track is "
                                      f"{{\"space\": s, \"holder\": seat}}, or {SUPPLY!r})")
    return Figure(whole_number(value["space"], name + ".space", 1, last),
                  seat(value["holder"], name + ".holder", players))


def _played(value: Any, players: int) -> tuple[tuple[int, str], ...]:
    out = []
    for i, item in enumerate(json_list(value, "played_hand_cards")):
        field = path("played_hand_cards", i)
        json_object(item, field, PLAYED_KEYS)
        for key in PLAYED_KEYS:
            if key not in item:
                raise PositionError(field, f"missing {key!r} (a played card is "
                                           f"{{\"player\": seat, \"card\": card}})")
        out.append((seat(item["player"], field + ".player", players),
                    card(item["card"], field + ".card")))
    return tuple(out)


def _own(value: Any) -> tuple[dict[str, Any], tuple[str, ...] | None]:
    """The Position fields of ``own_cards``, and its ``dealt`` cards if given."""
    json_object(value, "own_cards", OWN_KEYS)
    out: dict[str, Any] = {}
    for key, name in (("discarded", "own_discarded"), ("deck", "own_deck")):
        if key in value:
            out[name] = _items(value[key], "own_cards." + key, card)
    if value.get("hand") is not None:
        out["own_hand"] = card(value["hand"], "own_cards.hand")
    dealt = _items(value["dealt"], "own_cards.dealt", card) if "dealt" in value else None
    return out, dealt


def _leader_cards(value: Any, field: str) -> tuple[tuple[str, int], ...]:
    row = []
    for j, item in enumerate(json_list(value, field)):
        f = path(field, j)
        if not isinstance(item, list) or len(item) != 2:
            raise PositionError(f, f"a leader card is [colour, value], got {quote(item)}")
        row.append((colour(item[0], path(f, 0)),
                    leader_value(whole_number(item[1], path(f, 1), 2, 5), path(f, 1))))
    return tuple(row)


def _leg_cards(value: Any, players: int) -> dict[str, tuple]:
    """``leg_cards``: per seat ``{"leader": [[colour, value], ...], "midfield": [...]}``."""
    leader, midfield = [], []
    for p, item in enumerate(json_list(value, "leg_cards")):
        field = path("leg_cards", p)
        json_object(item, field, LEG_KEYS)
        leader.append(_leader_cards(item["leader"], field + ".leader")
                      if "leader" in item else ())
        midfield.append(_items(item["midfield"], field + ".midfield", colour)
                        if "midfield" in item else ())
    _per_player(leader, "leg_cards", players)
    return {"leader": tuple(leader), "midfield": tuple(midfield)}


def _final_cards(value: Any, players: int) -> dict[str, tuple]:
    """``final_cards``: per seat ``{"winner": colour or null, "loser": colour or null}``."""
    out: dict[str, list] = {key: [] for key in FINAL_KEYS}
    for p, item in enumerate(json_list(value, "final_cards")):
        field = path("final_cards", p)
        json_object(item, field, FINAL_KEYS)
        for key in FINAL_KEYS:
            out[key].append(_optional_colour(item.get(key), path(field, key)))
    _per_player(out["winner"], "final_cards", players)
    return {key: tuple(values) for key, values in out.items()}


def _leader_stacks(value: Any) -> dict[str, tuple[int, ...]]:
    """``leader_stacks``: colour -> the values still in its stack, top first."""
    json_object(value, "leader_stacks", COLOURS)
    return {c: _items(values, path("leader_stacks", c),
                      lambda v, f: leader_value(whole_number(v, f, 2, 5), f))
            for c, values in value.items()}


def _midfield_available(value: Any) -> dict[str, bool]:
    json_object(value, "midfield_available", COLOURS)
    return {c: _bool(flag, path("midfield_available", c)) for c, flag in value.items()}


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise PositionError(field, f"must be true or false, got {quote(value)}")
    return value


def _status(value: Any) -> str:
    if value not in STATUSES:
        raise PositionError("status", f"expected 'running' (a finished race has nothing to "
                                      f"analyse), got {quote(value)}")
    return value


def _show(cards: tuple) -> str:
    return " ".join(sorted(cards, key=card_key)) or "none"


def _check_derived(pos: Position, deck_count: int | None, dealt: tuple[str, ...] | None,
                   stacks: dict[str, tuple[int, ...]], available: dict[str, bool]) -> None:
    """The derived fields given agree with the position built from the others."""
    if deck_count is not None and deck_count != pos.deck_count:
        raise PositionError("deck_count", f"{deck_count} cards left, but the race deck held "
                                          f"{pos.deck_size} (setup) and {len(pos.revealed)} "
                                          f"were revealed: {pos.deck_count} are left")
    if dealt is not None and Counter(dealt) != Counter(pos.own_dealt):
        parts = "discarded, deck, blue and hand" if pos.players >= 3 \
            else "discarded, deck and hand"
        raise PositionError("own_cards.dealt", f"{_show(dealt)} given, but the viewer's "
                                               f"{parts} cards are {_show(pos.own_dealt)}")
    for c, given in stacks.items():
        if given != pos.leader_stack(c):
            raise PositionError(path("leader_stacks", c),
                                f"{list(given)} given, but the leader cards held leave "
                                f"{list(pos.leader_stack(c))} (top first)")
    for c, flag in available.items():
        if flag != pos.midfield_available(c):
            holder = next((s for s, held in enumerate(pos.midfield) if c in held), None)
            why = f"seat {holder} holds it" if holder is not None else "nobody holds it"
            raise PositionError(path("midfield_available", c),
                                f"{'true' if flag else 'false'} given, but {why} "
                                f"(leg_cards)")


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
    if "start_line" not in data and "stacks" not in data:
        raise PositionError("stacks", "required field missing: the board is 'start_line' "
                                      "(the line-up on the start card) and/or 'stacks'")
    n = whole_number(data["players"], "players", MIN_PLAYERS, MAX_PLAYERS)
    fields: dict[str, Any] = {"players": n}
    if "ages" in data:
        fields["ages"] = _per_player(_list(data, "ages", lambda v, f: seat(v, f, n)),
                                     "ages", n)
    if "setup" in data:
        fields["setup"] = _setup(data["setup"])
    if "track" in data:
        fields.update(_track(data["track"]))
    last = fields.get("last", DEFAULT_LAST[n])
    if "start_line" in data:
        fields["start_line"] = _list(data, "start_line", colour)
    fields["stacks"] = _stacks(data["stacks"], last) if "stacks" in data else ((),) * last
    for name in ("fox", "palm"):
        if name in data:
            fields[name] = _figure(data[name], name, last, n)
    deck_count = whole_number(data["deck_count"], "deck_count", 0) \
        if "deck_count" in data else None
    for name in ("viewer", "to_move"):
        if name in data:
            fields[name] = seat(data[name], name, n)
    if "revealed" in data:
        fields["revealed"] = _list(data, "revealed", card)
    if "played_hand_cards" in data:
        fields["played"] = _played(data["played_hand_cards"], n)
    if "blue_cards" in data:
        fields["blue"] = _per_player(_list(data, "blue_cards", lambda v, f: None if v is None
                                           else card(v, f)), "blue_cards", n)
    dealt = None
    if "own_cards" in data:
        own, dealt = _own(data["own_cards"])
        fields.update(own)
    if "hands" in data:
        fields["hands"] = _per_player(_list(data, "hands", _bool), "hands", n)
    stacks = _leader_stacks(data["leader_stacks"]) if "leader_stacks" in data else {}
    available = _midfield_available(data["midfield_available"]) \
        if "midfield_available" in data else {}
    if "leg_cards" in data:
        fields.update(_leg_cards(data["leg_cards"], n))
    if "final_cards" in data:
        fields.update(_final_cards(data["final_cards"], n))
    if "money" in data:
        fields["money"] = _per_player(
            _list(data, "money", lambda v, f: whole_number(v, f, 1, MAX_MONEY)), "money", n)
    if "phase" in data:
        fields["phase"] = phase(data["phase"], "phase")
    if "status" in data:
        _status(data["status"])
    if "leg" in data:
        fields["leg"] = whole_number(data["leg"], "leg", 1, MAX_LEG)
    pos = build(fields)
    _check_derived(pos, deck_count, dealt, stacks, available)
    return pos


def phase(value: Any, field: str) -> str:
    """The turn's phase: one of PHASES."""
    if value not in PHASES:
        raise PositionError(field, f"expected {', '.join(map(repr, PHASES))}, got "
                                   f"{quote(value)}")
    return value


# ---------------------------------------------------------------------- Position -> JSON


def _figure_json(fig: Figure | None) -> dict[str, int] | str:
    return SUPPLY if fig is None else {"space": fig.space, "holder": fig.holder}


def position_to_json(pos: Position) -> dict[str, Any]:
    """Every field of ``pos`` as a JSON object, the derived ones too (module doc)."""
    return {
        "game": pos.variant,
        "players": pos.players,
        "ages": list(pos.ages),
        "setup": list(pos.setup),
        "track": {"last": pos.last, "cards": list(pos.cards)},
        "start_line": list(pos.start_line),
        "stacks": {str(s): list(stack) for s, stack in enumerate(pos.stacks, 1) if stack},
        "fox": _figure_json(pos.fox),
        "palm": _figure_json(pos.palm),
        "deck_count": pos.deck_count,
        "viewer": pos.viewer,
        "revealed": list(pos.revealed),
        "played_hand_cards": [{"player": s, "card": c} for s, c in pos.played],
        "blue_cards": list(pos.blue),
        "own_cards": {"dealt": list(pos.own_dealt), "discarded": list(pos.own_discarded),
                      "deck": list(pos.own_deck), "hand": pos.own_hand},
        "hands": list(pos.hands),
        "leader_stacks": {c: list(pos.leader_stack(c)) for c in COLOURS},
        "midfield_available": {c: pos.midfield_available(c) for c in COLOURS},
        "leg_cards": [{"leader": [[c, v] for c, v in held], "midfield": list(mid)}
                      for held, mid in zip(pos.leader, pos.midfield)],
        "final_cards": [{"winner": w, "loser": lo} for w, lo in zip(pos.winner, pos.loser)],
        "money": list(pos.money),
        "to_move": pos.to_move,
        "phase": pos.phase,
        "status": "running",
        "leg": pos.leg,
    }
