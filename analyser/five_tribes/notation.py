"""Text notation for Five Tribes positions; round-trips with the JSON form.

One line::

    five-tribes <row 0>/<row 1>/<row 2>/<row 3>/<row 4> n=<players> [key=value ...]

A row is its 6 cells, left to right, separated by commas. A cell is
``<type><vp>:<meeples>[@<owner>][+p<palms>][+P<palaces>]``: type letter ``O`` oasis,
``S`` small market, ``L`` large market, ``V`` village, ``D`` sacred place (djinns); the vp
may be left out except on a sacred place; meeples are ``YWBGR`` letters, nothing after the
colon for none. Examples: ``O8:YWB``, ``S6:``, ``V5:GG@1+P2``, ``D12:W@0+p1``.
``board_text`` writes the same cells one row per line, columns aligned, and
``parse_board_text`` reads that back (cells separated by spaces or commas).

Fields after the board, each written only when it differs from the JSON form's default
(``n`` always; ``-`` is an empty list):

* ``n=3`` players; ``res=fi,fa,si``: face-up resource row, front first, as card codes
  ``iv je go pa si sp fi wh po fa`` (ivory, jewels, gold, papyrus, silk, spice, fish, wheat,
  pottery, fakir; full names are read too); ``dj=Baal,Sloar``: face-up djinns (names
  without the apostrophe);
* ``bid=2,0,1``: the bid order track, front first; ``turn=18:2,3:0,0:1,0:3``: the occupied
  turn order track spaces as ``cost:seat`` in play order (zeros: first plays first);
  ``phase=turns``; ``to=1``;
* ``p1=gc38,v3,e1,c5,fi2,fa1,Baal,Enki*``: player 1's holdings: ``gc`` gold (``gc?`` a
  secret gold in ``SECRET_GOLD`` 0..100, ``gc30-45`` a secret gold in 30..45;
  docs/games/five-tribes.md §14.13), ``v`` viziers, ``e`` elders, ``c`` camels left, a
  card code with a count (goods and fakirs), and djinn names, a ``*`` after a held djinn
  whose power the player has already used (``djinns_used``, docs/games/five-tribes.md
  §20.8);
* ``rd=fa,fi``, ``dd=Enki``: resource and djinn discard piles; ``end=premove``;
  ``kill=optional`` (the Assassins may kill no one, docs/games/five-tribes.md §14.3); the
  djinn switches of §20.3: ``around=4`` (Hagis and Lamia, default 8), ``nekir=per_meeple``
  (default ``per_action``), ``limit=per_round`` (2 players; default ``per_turn``).

Example: a board in ``board_text`` form::

    O8:YWB S6:BGR     L4:WW   V5:BGR@0 D6:YYW   S6:RR
    D10:W  O8:GG@1+p1 S6:YBB  V5:WR+P2 L4:YGR   D6:
    S6:YWG V5:@2+P1   D15:BRR O8:WWB   S6:YG    L4:BR
    O8:Y   D12:WWG    S6:BR   V5:WGG   O8:@0+p2 D6:YWBGR
    L4:WB  S6:        V5:YYR  O8:WBG   D6:WRR   S6:YBG

is ``five-tribes O8:YWB,S6:BGR,L4:WW,V5:BGR@0,D6:YYW,S6:RR/D10:W,...`` in one line,
followed by e.g. ``n=3 bid=2,0 turn=18:1 res=fi,fa,si,po,wh,sp,iv,je,go dj=Baal,Enki,Sloar
p0=gc38,v3,e1,fi2,fa1,Haurvatat``.
"""

from __future__ import annotations

import re
from typing import Any

from ...kernels import five_tribes as FT
from ...errors import PositionError, quote
from ...strict import read_int
from ..notation_errors import Key, NotationKeys
from . import names
from .json_form import (COUNT_MAX, DEFAULT_PLAYERS, END_RULES, MAX_GOLD, MAX_VP, PHASES,
                        TWO_PLAYER_DJINN, bids_of, build, card_max, check_grid,
                        check_player_count, choice, default_bid_track, default_camels,
                        default_phase, default_to_move, default_vp, djinn_list, neighbours,
                        place_bids, secret_gold, space_cost)
from .position import NAME, SECRET_GOLD, Cell, Player, Position

KEYS = ("n", "bid", "turn", "phase", "to", "res", "dj", "rd", "dd", "end", "kill", "around",
        "nekir", "limit")
USED = "*"  # after a held djinn: its power already used (djinns_used)
NEKIR = ("per_action", "per_meeple")  # nekir=: index = nekir_per_meeple
GOLD = "gc"  # gold: gc38 known, gc? or gc30-45 secret (docs/games/five-tribes.md §14.13)
SECRET = "?"  # gc?: a secret gold in SECRET_GOLD
COUNTS = {"v": "viziers", "e": "elders", "c": "camels"}
MARKS = {"p": "palms", "P": "palaces"}
MARK_MAX = {"p": FT.PALMS, "P": FT.PALACES}
TURN = ("the occupied turn order spaces as cost:seat in play order, e.g. "
        "turn=18:2,3:0,0:1,0:3")
# the JSON path each notation key holds (analyser/notation_errors.py)
NOTATION_KEYS = NotationKeys({
    "players[*]": Key("p*", "a player's holdings, e.g. p1=gc38,v3,e1,c5,fi2,fa1,Baal,Enki*"),
    "players[*].gold": Key("p* gc", "gc<gold>, gc? (a secret gold) or gc<lo>-<hi>, e.g. "
                                    "p1=gc38", whole=True),
    "players[*].viziers": Key("p* v", whole=True),
    "players[*].elders": Key("p* e", whole=True),
    "players[*].camels": Key("p* c", whole=True),
    "players[*].djinns_used": Key("p* (a djinn marked *)", whole=True),
    "board[*][*]": Key("r*c*"),
    "board[*][*].owner": Key("r*c* @owner", "a cell's owner after its meeples, e.g. "
                                            "V5:GG@1 (seat 1)", whole=True),
    "bid_track": Key("bid", "the bid order track's seats, front first, e.g. bid=2,0,1"),
    "turn_track": Key("turn", TURN, whole=True),
    "to_move": Key("to"),
    "resources": Key("res"),
    "resource_discard": Key("rd"),
    "djinns": Key("dj"),
    "djinn_discard": Key("dd"),
    "rules.end_rule": Key("end"),
    "rules.djinn_neighbour": Key("around"),
    "rules.two_player_djinn": Key("limit"),
})
CELL = re.compile(r"([0-9]*):([A-Za-z]*)(?:@(-?[0-9]+))?((?:\+[pP][0-9]+)*)")


def cell_text(cell: Cell) -> str:
    """One cell, e.g. ``V5:GG@1+P2``."""
    text = f"{names.TILE_LETTERS[FT.TILE_TYPES.index(cell.tile)]}{cell.vp}:{cell.meeples}"
    if cell.owner is not None:
        text += f"@{cell.owner}"
    if cell.palms:
        text += f"+p{cell.palms}"
    if cell.palaces:
        text += f"+P{cell.palaces}"
    return text


def board_text(pos: Position) -> str:
    """The board as 5 lines, one per row, columns aligned."""
    texts = [[cell_text(cell) for cell in row] for row in pos.board]
    widths = [max(len(row[c]) for row in texts) for c in range(FT.COLS)]
    return "\n".join(" ".join(t.ljust(w) for t, w in zip(row, widths)).rstrip()
                     for row in texts)


def parse_cell(text: str, field: str) -> Cell:
    """One cell (see module doc); ``field`` names it in errors."""
    letter, m = text[:1].upper(), CELL.fullmatch(text[1:])
    if not letter or letter not in names.TILE_LETTERS:
        raise PositionError(field, f"{quote(text)}: unknown tile letter {quote(letter)} (O oasis, "
                                   f"S small market, L large market, V village, "
                                   f"D sacred place)")
    if m is None:
        raise PositionError(field, f"{quote(text)} is not a cell: <type><vp>:<meeples>"
                                   f"[@owner][+p<palms>][+P<palaces>]")
    vp, meeples, owner, extras = m.groups()
    tile = FT.TILE_TYPES[names.TILE_LETTERS.index(letter)]
    marks: dict[str, int] = {}
    for mark, k in re.findall(r"\+([pP])([0-9]+)", extras):
        if mark in marks:
            raise PositionError(field, f"{quote(text)}: +{mark} given twice")
        marks[mark] = read_int(k, f"{field}.{MARKS[mark]}", 0, MARK_MAX[mark])
    return Cell(tile=tile, vp=read_int(vp, field + ".vp", 0, MAX_VP) if vp
                else default_vp(tile, field),
                meeples=names.meeples(meeples, field + ".meeples"),
                owner=None if owner is None else read_int(owner, field + ".owner"),
                palms=marks.get("p", 0), palaces=marks.get("P", 0))


def _board(rows: list[list[str]]) -> tuple[tuple[Cell, ...], ...]:
    check_grid(rows)
    return tuple(tuple(parse_cell(text, f"board[{r}][{c}]") for c, text in enumerate(row))
                 for r, row in enumerate(rows))


def parse_board_text(text: str) -> tuple[tuple[Cell, ...], ...]:
    """A board from ``board_text``'s 5 lines (blank lines ignored)."""
    return _board([re.split(r"[,\s]+", line.strip())
                   for line in text.splitlines() if line.strip()])


def _gold_text(p: Player) -> list[str]:
    """``gc38`` (if not the start gold), ``gc?`` or ``gc30-45``."""
    if p.gold_range == SECRET_GOLD:
        return [GOLD + SECRET]
    if p.gold_range is not None:
        return [f"{GOLD}{p.gold_range[0]}-{p.gold_range[1]}"]
    return [f"{GOLD}{p.gold}"] if p.gold != FT.START_GOLD else []


def _player_text(p: Player, camels: int) -> str:
    default = Player(camels=camels)
    items = _gold_text(p)
    items += [f"{key}{getattr(p, attr)}" for key, attr in COUNTS.items()
              if getattr(p, attr) != getattr(default, attr)]
    cards = (*p.goods, p.fakirs)
    items += [f"{code}{k}" for code, k in zip(names.CARD_CODES, cards) if k]
    items += [names.djinn_token(d) + (USED if d in p.djinns_used else "") for d in p.djinns]
    return ",".join(items)


def _codes(cards: tuple[str, ...]) -> str:
    return ",".join(names.CARD_CODES[names.CARDS.index(card)] for card in cards)


def _list(values: list[str]) -> str:
    return ",".join(values) or "-"


def to_notation(pos: Position) -> str:
    """The canonical one-line notation of ``pos``."""
    n = pos.n_players
    board = "/".join(",".join(cell_text(cell) for cell in row) for row in pos.board)
    parts = [NAME, board, f"n={n}"]
    if pos.bid_track != default_bid_track(n, pos.turn_track):
        parts.append("bid=" + _list([str(p) for p in pos.bid_track]))
    if bids_of(pos.turn_track):
        parts.append("turn=" + ",".join(f"{c}:{p}" for c, p in bids_of(pos.turn_track)))
    if pos.phase != default_phase(pos.bid_track):
        parts.append(f"phase={pos.phase}")
    if pos.to_move != default_to_move(pos):
        parts.append(f"to={pos.to_move}")
    if pos.resources:
        parts.append("res=" + _codes(pos.resources))
    if pos.djinns:
        parts.append("dj=" + ",".join(map(names.djinn_token, pos.djinns)))
    for i, p in enumerate(pos.players):
        text = _player_text(p, default_camels(n, pos.owned(i)))
        if text:
            parts.append(f"p{i}={text}")
    if pos.resource_discard:
        parts.append("rd=" + _codes(pos.resource_discard))
    if pos.djinn_discard:
        parts.append("dd=" + ",".join(map(names.djinn_token, pos.djinn_discard)))
    if pos.end_rule != "live":
        parts.append(f"end={pos.end_rule}")
    if pos.assassin_optional:
        parts.append("kill=optional")
    if pos.djinn_neighbour != 8:
        parts.append(f"around={pos.djinn_neighbour}")
    if pos.nekir_per_meeple:
        parts.append("nekir=per_meeple")
    if pos.two_player_djinn != "per_turn":
        parts.append(f"limit={pos.two_player_djinn}")
    return " ".join(parts)


def _items(text: str) -> list[str]:
    return [] if text == "-" else text.split(",")


def _seats(text: str, key: str) -> tuple[int, ...]:
    return tuple(read_int(x, key) for x in _items(text))


def _bids(text: str) -> tuple[int | None, ...]:
    bids = []
    for item in _items(text):
        label, colon, seat = item.partition(":")
        if not colon:
            raise PositionError("turn", f"{quote(item)} is not cost:seat")
        bids.append((space_cost(label, "turn"), read_int(seat, "turn")))
    return place_bids(bids, "turn_track")


def _gold(text: str, field: str) -> dict[str, Any]:
    """What follows ``gc``: ``38`` known, ``?`` or ``30-45`` secret."""
    if text == SECRET:
        return secret_gold(*SECRET_GOLD, field)
    lo, dash, hi = text[1:].partition("-")  # a leading "-" is a sign, for read_int to refuse
    if not dash:
        return {"gold": read_int(text, field, 0, MAX_GOLD)}
    return secret_gold(read_int(text[:1] + lo, field, 0, MAX_GOLD),
                       read_int(hi, field, 0, MAX_GOLD), field)


def _player(text: str, i: int) -> dict[str, Any]:
    field = f"players[{i}]"
    out: dict[str, Any] = {}
    cards = [0] * len(names.CARDS)
    djinns, used = [], []
    for item in _items(text):
        if item.startswith(GOLD):
            if "gold" in out:
                raise PositionError(f"p{i}", f"{GOLD} given twice")
            out.update(_gold(item.removeprefix(GOLD), f"{field}.gold"))
            continue
        m = re.fullmatch(r"([A-Za-z]+)(-?[0-9]+)", item)
        if m is None:
            name = item.removesuffix(USED)
            djinns.append(name)
            if name != item:
                used.append(name)
            continue
        key, digits = m.groups()
        if key in COUNTS:
            if COUNTS[key] in out:
                raise PositionError(f"p{i}", f"{key} given twice")
            out[COUNTS[key]] = read_int(digits, f"{field}.{COUNTS[key]}", 0,
                                        COUNT_MAX[COUNTS[key]])
        else:
            card = names.card(key, f"p{i}")
            cards[names.CARDS.index(card)] += read_int(digits, f"{field}.{card}", 0,
                                                       card_max(card))
    out["goods"], out["fakirs"] = tuple(cards[:-1]), cards[-1]
    out["djinns"] = djinn_list(djinns, f"{field}.djinns")
    out["djinns_used"] = djinn_list(used, f"{field}.djinns_used")
    return out


def _options(tokens: list[str]) -> dict[str, str]:
    opts: dict[str, str] = {}
    for tok in tokens:
        key, eq, value = tok.partition("=")
        if not eq or not (key in KEYS or re.fullmatch(r"p[0-9]", key)):
            raise PositionError("notation", f"unknown field {quote(tok)} (known: "
                                            f"{', '.join(KEYS)}, p0..p3)")
        if key in opts:
            raise PositionError(key, "given twice")
        opts[key] = value
    return opts


def parse_notation(text: str) -> Position:
    """Parse the one-line notation (see module doc)."""
    tokens = text.split()
    if len(tokens) < 2:
        raise PositionError("notation", f"expected '{NAME} <board> [key=value ...]'")
    if tokens[0] != NAME:
        raise PositionError("game", f"expected {NAME!r}, got {quote(tokens[0])}")
    board = _board([row.split(",") for row in tokens[1].split("/")])
    opts = _options(tokens[2:])
    n = read_int(opts["n"], "n") if "n" in opts else DEFAULT_PLAYERS
    check_player_count(n, "n")
    players: list[dict[str, Any]] = [{} for _ in range(n)]
    for key, value in opts.items():
        if key[0] == "p" and key[1:].isascii() and key[1:].isdigit():
            if int(key[1:]) >= n:
                raise PositionError(key, f"no player {key[1:]} in a {n}-player game")
            players[int(key[1:])] = _player(value, int(key[1:]))
    fields: dict[str, Any] = {}
    if "bid" in opts:
        fields["bid_track"] = _seats(opts["bid"], "bid")
    if "turn" in opts:
        fields["turn_track"] = _bids(opts["turn"])
    if "phase" in opts:
        fields["phase"] = choice(opts["phase"], "phase", PHASES)
    if "to" in opts:
        fields["to_move"] = read_int(opts["to"], "to")
    for key, field in (("res", "resources"), ("rd", "resource_discard")):
        if key in opts:
            fields[field] = tuple(names.card(x, f"{field}[{i}]")
                                  for i, x in enumerate(_items(opts[key])))
    for key, field in (("dj", "djinns"), ("dd", "djinn_discard")):
        if key in opts:
            fields[field] = djinn_list(_items(opts[key]), field)
    if "end" in opts:
        fields["end_rule"] = choice(opts["end"], "rules.end_rule", END_RULES)
    if "kill" in opts:
        fields["assassin_optional"] = choice(opts["kill"], "kill", ("optional",)) == "optional"
    if "around" in opts:
        fields["djinn_neighbour"] = neighbours(read_int(opts["around"], "around"), "around")
    if "nekir" in opts:
        fields["nekir_per_meeple"] = choice(opts["nekir"], "nekir", NEKIR) == "per_meeple"
    if "limit" in opts:
        fields["two_player_djinn"] = choice(opts["limit"], "limit", TWO_PLAYER_DJINN)
    return build(board, players, fields)
