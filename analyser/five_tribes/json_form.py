"""The JSON form of a Five Tribes position, and the defaults shared with the notation.

Shapes are checked here (wrong types, unknown names or fields: PositionError naming the
field); the game's invariants are checked by ``validate``. Only ``game`` ("five-tribes")
and ``board`` are required. Fields and defaults:

* ``board``: 5 rows of 6 cells, ``board[row][col]``, r0c0 top left. A cell is
  ``{"tile", "vp", "meeples", "owner", "palms", "palaces"}``; ``tile`` (oasis,
  small-market, large-market, village, sacred-place) and ``meeples`` (a string of
  ``YWBGR`` letters in any order, "" for none) are required. ``vp`` is the printed value:
  the default (and only valid value) for oasis 8, small market 6, large market 4,
  village 5; required for a sacred place (6, 10, 12 or 15, as many of each as the box
  has). ``owner`` (seat of the camel) defaults to null, ``palms`` and ``palaces`` to 0.
* ``players``: a number (2-4) or a list of player objects; default 4. A player object's
  fields are all optional: ``gold`` 50 (a whole number of GC; ``null`` or ``[lo, hi]``
  for a secret gold, see below), ``viziers`` 0, ``elders`` 0 (held meeples),
  ``camels`` (camels not yet placed) 11 with 2 players and 8 otherwise, minus the tiles the
  player owns on the board, ``djinns`` [] (names), ``djinns_used`` [] (the held djinns
  whose power the player has already used: in the turn under way, or with
  ``two_player_djinn`` "per_round" in this round; docs/games/five-tribes.md §20.8),
  ``goods`` {} (merchandise name -> count, missing types 0), ``fakirs`` 0.
* ``resources``: the face-up resource row, front first, at most 9 cards (merchandise names
  or "fakir"; the 2014 printing's "slave" is read as "fakir"), default [].
  ``djinns``: the face-up djinns, at most 3, default []. Djinn names as in the rulebook,
  case, apostrophes, hyphens and spaces ignored ("baal" = "Ba'al"). All names ignore case.
* ``bid_track``: the bid order track: owners (seats) of the markers on it, front first.
  ``turn_track``: the priced turn order track, only its occupied spaces:
  ``{"18": seat, "12": seat, "8": seat, "5": seat, "3": seat, "1": seat, "0": [seat, ...]}``,
  the zero list in play order (first plays first), at most 3. Each player has one marker
  (two with 2 players, so a seat appears twice). Default: no bids (``{}``) and every marker
  not on the turn track on the bid track in seat order (0, 1, 2, 3; with 2 players
  0, 1, 0, 1).
* ``phase``: "bidding" (markers wait on ``bid_track`` to bid) or "turns" (every marker has
  bid; markers that already played this round wait on ``bid_track`` in play order, for the
  next round); default "bidding" if ``bid_track`` is non-empty, else "turns".
* ``to_move``: default the owner of the marker that acts next (``bid_track``'s front while
  bidding, the first marker on ``turn_track`` during turns); any other value is invalid.
* ``resource_discard`` (card names) and ``djinn_discard`` (djinn names): default [].
* ``rules``: ``{"end_rule": "live" | "premove", "assassin_optional": false | true,
  "djinn_neighbour": 8 | 4, "nekir_per_meeple": false | true,
  "two_player_djinn": "per_turn" | "per_round"}``: the sowing's end rule
  (docs/games/five-tribes.md §7.4), default "live"; whether the Assassins may kill no one
  when a victim exists (§14.3), default false; the djinn switches of §20.3 (the tiles
  around for Hagis and Lamia, default 8; Nekir paying per victim, default false; the
  2-player limit, default "per_turn", "per_round" only with 2 players).

A secret gold (docs/games/five-tribes.md §14.13): ``"gold": [lo, hi]``, the interval the
viewer knows it lies in (0 <= lo <= hi <= 999999), or ``null`` for ``SECRET_GOLD`` (0..100);
the player's ``gold`` is then the midpoint ``(lo + hi) // 2`` and ``gold_range`` ``(lo, hi)``.
The player to move knows their own gold (checked by ``validate``).

Hidden parts are never given, always derived: the bag holds every meeple neither on the
board nor held (viziers and elders); the resource deck holds the 54 cards minus the row,
the players' hands and the discard pile; the djinn deck the 22 djinns minus those face up,
owned and discarded; deck order is unknown.

Numbers are read within the ranges of docs/games/five-tribes.md §18.3 (``MAX_GOLD``,
``COUNT_MAX``, ``card_max``); seats are checked against the player count by ``validate``.

``to_json`` writes every field in canonical form: meeples in ``YWBGR`` order, djinn lists
and the resource discard pile in box order (their order has no effect), goods only where
non-zero; a player's ``djinns_used`` and the djinn switches of ``rules`` only when not
empty or not the default (so files without djinn powers read and write as before); a
secret gold always as ``[lo, hi]``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from ...kernels import five_tribes as FT
from ...errors import PositionError, quote
from ...strict import json_list, json_object, path, whole_number
from . import names
from .position import FREE_TRACK, NAME, SECRET_GOLD, Cell, Player, Position

TOP_KEYS = ("game", "board", "players", "resources", "djinns", "bid_track", "turn_track",
            "phase", "to_move", "resource_discard", "djinn_discard", "rules")
CELL_KEYS = ("tile", "vp", "meeples", "owner", "palms", "palaces")
PLAYER_KEYS = ("gold", "viziers", "elders", "camels", "djinns", "djinns_used", "goods",
               "fakirs")
RULE_KEYS = ("end_rule", "assassin_optional", "djinn_neighbour", "nekir_per_meeple",
             "two_player_djinn")
COUNT_KEYS = ("viziers", "elders", "camels", "fakirs")  # gold: ``read_gold``
PHASES = ("bidding", "turns")
END_RULES = ("live", "premove")
NEIGHBOURS = (8, 4)  # djinn_neighbour (docs/games/five-tribes.md §20.3)
TWO_PLAYER_DJINN = ("per_turn", "per_round")  # the 2-player djinn limit (§14.18, §20.3)
COSTS = tuple(int(c) for c in FT.BID_COSTS)
FIRST_ZERO = COSTS.index(0)
COST_LABELS = tuple(str(c) for c in COSTS[:FIRST_ZERO + 1])
DEFAULT_PLAYERS = 4
MAX_GOLD = 999_999  # GC: far more than any game earns (docs/games/five-tribes.md §18.3)
# the most of each count a player may hold: the box's
COUNT_MAX = {"viziers": int(FT.MEEPLE_TOTALS[FT.COLOURS.index("Y")]),
             "elders": int(FT.MEEPLE_TOTALS[FT.COLOURS.index("W")]),
             "camels": max(FT.CAMELS.values()), "fakirs": FT.FAKIRS}
MAX_VP = max(FT.SACRED_VPS)
_vps = sorted(set(FT.SACRED_VPS))
SACRED_VPS = f"{', '.join(map(str, _vps[:-1]))} or {_vps[-1]}"  # for messages


def card_max(card: str) -> int:
    """The most cards of kind ``card`` (a merchandise or ``fakir``) a player may hold:
    the box's."""
    return names.CARD_COUNTS[names.CARDS.index(card)]


def default_vp(tile: str, field: str) -> int:
    """The printed VP of a tile type; sacred places have none."""
    if tile == "sacred-place":
        raise PositionError(field, f"a sacred place needs its vp ({SACRED_VPS})")
    return FT.TILE_VP[FT.TILE_TYPES.index(tile)]


def _cell(value: Any, field: str) -> Cell:
    cell = json_object(value, field, CELL_KEYS)
    for key in ("tile", "meeples"):
        if key not in cell:
            raise PositionError(f"{field}.{key}", "required field missing")
    tile = names.tile_type(cell["tile"], f"{field}.tile")
    owner = cell.get("owner")
    return Cell(
        tile=tile,
        vp=(whole_number(cell["vp"], f"{field}.vp", 0, MAX_VP) if "vp" in cell
            else default_vp(tile, f"{field}.vp")),
        meeples=names.meeples(cell["meeples"], f"{field}.meeples"),
        owner=None if owner is None else whole_number(owner, f"{field}.owner"),
        palms=whole_number(cell.get("palms", 0), f"{field}.palms", 0, FT.PALMS),
        palaces=whole_number(cell.get("palaces", 0), f"{field}.palaces", 0, FT.PALACES),
    )


def check_grid(rows: list, field: str = "board") -> None:
    """5 rows of 6 cells, or a PositionError naming the row."""
    if len(rows) != FT.ROWS:
        raise PositionError(field, f"{len(rows)} rows, expected {FT.ROWS}")
    for r, row in enumerate(rows):
        if len(row) != FT.COLS:
            raise PositionError(f"{field}[{r}]", f"{len(row)} cells, expected {FT.COLS}")


def _board(value: Any) -> tuple[tuple[Cell, ...], ...]:
    rows = [json_list(row, f"board[{r}]") for r, row in enumerate(json_list(value, "board"))]
    check_grid(rows)
    return tuple(tuple(_cell(cell, f"board[{r}][{c}]") for c, cell in enumerate(row))
                 for r, row in enumerate(rows))


def secret_gold(lo: int, hi: int, field: str) -> dict[str, Any]:
    """A player's fields for a secret gold in ``lo..hi`` (docs/games/five-tribes.md §14.13):
    the interval and its midpoint."""
    if lo > hi:
        raise PositionError(field, f"secret gold {lo}..{hi}: lo must be at most hi")
    return {"gold": (lo + hi) // 2, "gold_range": (lo, hi)}


def read_gold(value: Any, field: str) -> dict[str, Any]:
    """A player's ``gold``: a whole number (known), ``null`` (secret, ``SECRET_GOLD``) or
    ``[lo, hi]`` (secret, that interval)."""
    if value is None:
        return secret_gold(*SECRET_GOLD, field)
    if isinstance(value, list):
        if len(value) != 2:
            raise PositionError(field, f"a secret gold is [lo, hi], got a list of {len(value)}")
        lo, hi = (whole_number(x, f"{field}[{i}]", 0, MAX_GOLD) for i, x in enumerate(value))
        return secret_gold(lo, hi, field)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(field, f"must be a whole number, null or [lo, hi], got "
                                   f"{quote(value)}")
    return {"gold": whole_number(value, field, 0, MAX_GOLD)}


def _player(value: Any, field: str) -> dict[str, Any]:
    spec = json_object(value, field, PLAYER_KEYS)
    out: dict[str, Any] = {k: whole_number(spec[k], f"{field}.{k}", 0, COUNT_MAX[k])
                           for k in COUNT_KEYS if k in spec}
    if "gold" in spec:
        out.update(read_gold(spec["gold"], f"{field}.gold"))
    for key in ("djinns", "djinns_used"):
        if key in spec:
            out[key] = djinn_list(spec[key], f"{field}.{key}")
    if "goods" in spec:
        counts: Counter[str] = Counter()
        for key, k in json_object(spec["goods"], f"{field}.goods").items():
            good = names.good(key, f"{field}.goods")
            counts[good] += whole_number(k, f"{field}.goods.{good}", 0, card_max(good))
        out["goods"] = tuple(counts[g] for g in FT.GOODS)
    return out


def _players(value: Any) -> int | list[dict[str, Any]]:
    if isinstance(value, list):
        return [_player(p, f"players[{i}]") for i, p in enumerate(value)]
    return whole_number(value, "players")


def card_list(value: Any, field: str) -> tuple[str, ...]:
    """Resource card names, in the given order."""
    return tuple(names.card(x, f"{field}[{i}]") for i, x in enumerate(json_list(value, field)))


def djinn_list(value: Any, field: str) -> tuple[str, ...]:
    """Djinn names, canonical order (duplicates kept for ``validate`` to report)."""
    return names.sorted_djinns(names.djinn(x, f"{field}[{i}]")
                               for i, x in enumerate(json_list(value, field)))


def space_cost(label: str, field: str) -> int:
    """The cost of the turn order track space labelled ``label`` ("18" ... "0")."""
    if label not in COST_LABELS:
        raise PositionError(field, f"no space costs {quote(label)} (costs: "
                                   f"{', '.join(COST_LABELS)})")
    return int(label)


def place_bids(bids: Iterable[tuple[int, int]], field: str) -> tuple[int | None, ...]:
    """The turn order track from ``(cost, seat)`` bids; zero bids in play order."""
    track = list(FREE_TRACK)
    zeros = FIRST_ZERO
    for cost, seat in bids:
        if cost:
            if track[COSTS.index(cost)] is not None:
                raise PositionError(field, f"space {cost} is taken twice")
            track[COSTS.index(cost)] = seat
        elif zeros == len(COSTS):
            raise PositionError(f"{field}.0", f"more than {len(COSTS) - FIRST_ZERO} markers "
                                              f"on the zero spaces")
        else:
            track[zeros] = seat
            zeros += 1
    return tuple(track)


def bids_of(track: tuple[int | None, ...]) -> list[tuple[int, int]]:
    """``(cost, seat)`` of every occupied space, in play order."""
    return [(cost, p) for cost, p in zip(COSTS, track) if p is not None]


def _turn_track(value: Any) -> tuple[int | None, ...]:
    bids = []
    for label, owner in json_object(value, "turn_track").items():
        f = path("turn_track", label)
        price = space_cost(label, f)
        if price:
            bids.append((price, whole_number(owner, f)))
        else:
            bids += [(0, whole_number(s, f"{f}[{i}]"))
                     for i, s in enumerate(json_list(owner, f))]
    return place_bids(bids, "turn_track")


def markers(n: int) -> list[int]:
    """Every marker's owner in seat order (two rounds of seats with 2 players)."""
    return [p for _ in range(FT.MARKERS[n]) for p in range(n)]


def default_bid_track(n: int, turn_track: tuple[int | None, ...]) -> tuple[int, ...]:
    """The markers not on the turn order track, in seat order."""
    left = Counter(markers(n)) - Counter(p for p in turn_track if p is not None)
    out = []
    for p in markers(n):
        if left[p]:
            out.append(p)
            left[p] -= 1
    return tuple(out)


def default_phase(bid_track: tuple[int, ...]) -> str:
    return "bidding" if bid_track else "turns"


def default_to_move(pos: Position) -> int:
    return 0 if pos.next_marker is None else pos.next_marker


def default_camels(n: int, owned: int) -> int:
    return max(FT.CAMELS[n] - owned, 0)


def check_player_count(n: int, field: str = "players") -> None:
    if n not in FT.CAMELS:
        raise PositionError(field, f"Five Tribes is for 2-4 players, got {n}")


def build(board: tuple[tuple[Cell, ...], ...], players: int | list[dict[str, Any]],
          fields: dict[str, Any]) -> Position:
    """A Position from already-typed fields, filling every default (see module doc)."""
    n = players if isinstance(players, int) else len(players)
    check_player_count(n)
    specs = [{}] * n if isinstance(players, int) else players
    owned = Counter(cell.owner for row in board for cell in row)
    turn_track = fields.get("turn_track", FREE_TRACK)
    bid_track = fields.get("bid_track", default_bid_track(n, turn_track))
    pos = Position(
        board=board,
        players=tuple(Player(**{"camels": default_camels(n, owned[p]), **spec})
                      for p, spec in enumerate(specs)),
        resources=fields.get("resources", ()),
        djinns=fields.get("djinns", ()),
        bid_track=bid_track,
        turn_track=turn_track,
        phase=fields.get("phase", default_phase(bid_track)),
        resource_discard=names.sorted_cards(fields.get("resource_discard", ())),
        djinn_discard=fields.get("djinn_discard", ()),
        end_rule=fields.get("end_rule", "live"),
        assassin_optional=fields.get("assassin_optional", False),
        djinn_neighbour=fields.get("djinn_neighbour", 8),
        nekir_per_meeple=fields.get("nekir_per_meeple", False),
        two_player_djinn=fields.get("two_player_djinn", "per_turn"),
    )
    return pos.with_(to_move=fields.get("to_move", default_to_move(pos)))


def choice(value: Any, field: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise PositionError(field, f"must be {' or '.join(map(repr, allowed))}, got "
                                   f"{quote(value)}")
    return value


def flag(value: Any, field: str) -> bool:
    """A JSON boolean."""
    if not isinstance(value, bool):
        raise PositionError(field, f"must be true or false, got {quote(value)}")
    return value


def neighbours(value: Any, field: str) -> int:
    """``djinn_neighbour``: 8 or 4 (a whole number)."""
    if isinstance(value, bool) or value not in NEIGHBOURS:
        raise PositionError(field, f"must be 8 or 4, got {quote(value)}")
    return int(value)


def _rules(value: Any) -> dict[str, Any]:
    rules = json_object(value, "rules", RULE_KEYS)
    out: dict[str, Any] = {}
    if "end_rule" in rules:
        out["end_rule"] = choice(rules["end_rule"], "rules.end_rule", END_RULES)
    for key in ("assassin_optional", "nekir_per_meeple"):
        if key in rules:
            out[key] = flag(rules[key], f"rules.{key}")
    if "djinn_neighbour" in rules:
        out["djinn_neighbour"] = neighbours(rules["djinn_neighbour"], "rules.djinn_neighbour")
    if "two_player_djinn" in rules:
        out["two_player_djinn"] = choice(rules["two_player_djinn"], "rules.two_player_djinn",
                                         TWO_PLAYER_DJINN)
    return out


def position_from_json(data: Any) -> Position:
    """See ``Position.from_json``."""
    if not isinstance(data, dict):
        raise PositionError("position", "must be a JSON object")
    for key in ("game", "board"):
        if key not in data:
            raise PositionError(key, "required field missing")
    if data["game"] != NAME:
        raise PositionError("game", f"expected {NAME!r}, got {quote(data['game'])}")
    json_object(data, "", TOP_KEYS)
    fields: dict[str, Any] = {}
    for key in ("resources", "resource_discard"):
        if key in data:
            fields[key] = card_list(data[key], key)
    for key in ("djinns", "djinn_discard"):
        if key in data:
            fields[key] = djinn_list(data[key], key)
    if "bid_track" in data:
        fields["bid_track"] = tuple(whole_number(p, f"bid_track[{i}]")
                                    for i, p in enumerate(json_list(data["bid_track"],
                                                                    "bid_track")))
    if "turn_track" in data:
        fields["turn_track"] = _turn_track(data["turn_track"])
    if "phase" in data:
        fields["phase"] = choice(data["phase"], "phase", PHASES)
    if "to_move" in data:
        fields["to_move"] = whole_number(data["to_move"], "to_move")
    fields.update(_rules(data.get("rules", {})))
    return build(_board(data["board"]), _players(data.get("players", DEFAULT_PLAYERS)), fields)


def _cell_json(cell: Cell) -> dict[str, Any]:
    return {"tile": cell.tile, "vp": cell.vp, "meeples": cell.meeples, "owner": cell.owner,
            "palms": cell.palms, "palaces": cell.palaces}


def _player_json(p: Player) -> dict[str, Any]:
    out = {"gold": p.gold if p.gold_range is None else list(p.gold_range),
           "viziers": p.viziers, "elders": p.elders, "camels": p.camels,
           "djinns": list(p.djinns)}
    if p.djinns_used:
        out["djinns_used"] = list(p.djinns_used)
    return {**out, "goods": {g: k for g, k in zip(FT.GOODS, p.goods) if k}, "fakirs": p.fakirs}


def _rules_json(pos: Position) -> dict[str, Any]:
    """The rules, the djinn switches only where not the default."""
    out: dict[str, Any] = {"end_rule": pos.end_rule, "assassin_optional": pos.assassin_optional}
    if pos.djinn_neighbour != 8:
        out["djinn_neighbour"] = pos.djinn_neighbour
    if pos.nekir_per_meeple:
        out["nekir_per_meeple"] = True
    if pos.two_player_djinn != "per_turn":
        out["two_player_djinn"] = pos.two_player_djinn
    return out


def _turn_track_json(track: tuple[int | None, ...]) -> dict[str, Any]:
    bids = bids_of(track)
    out: dict[str, Any] = {str(cost): p for cost, p in bids if cost}
    zeros = [p for cost, p in bids if not cost]
    if zeros:
        out["0"] = zeros
    return out


def position_to_json(pos: Position) -> dict[str, Any]:
    """Every field of ``pos`` (see module doc)."""
    return {
        "game": NAME,
        "players": [_player_json(p) for p in pos.players],
        "board": [[_cell_json(cell) for cell in row] for row in pos.board],
        "resources": list(pos.resources),
        "djinns": list(pos.djinns),
        "bid_track": list(pos.bid_track),
        "turn_track": _turn_track_json(pos.turn_track),
        "phase": pos.phase,
        "to_move": pos.to_move,
        "resource_discard": list(pos.resource_discard),
        "djinn_discard": list(pos.djinn_discard),
        "rules": _rules_json(pos),
    }
