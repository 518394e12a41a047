"""One-line text notation for Camel Up positions (FEN-like); round-trips with the JSON form.

    <variant> <track> <pyramid> [key=value ...]

* ``variant``: ``camel-up`` or ``camel-up-2014``.
* ``track``: spaces 1..16 left to right, separated by ``/``. A stack is its camels' letters
  bottom -> top (``B G Y R P`` racing, ``W K`` crazy; 2014: ``B G O Y W``); a run of empty
  spaces is its length; a spectator tile is ``+N`` (cheer) or ``-N`` (boo) of player N.
* ``pyramid``: letters of the dice still inside, grey die ``X`` (``-`` for none).
* optional fields, defaults as in the JSON form: ``n`` players, ``to`` seat to move,
  ``start`` leg-start seat, ``money`` (comma list), ``bets`` leg tickets per player
  (``G5Y3``, comma list), ``pt`` pyramid tickets per player, ``win`` / ``lose`` decks in
  placement order (owner seat + colour letter, ``?`` hidden), ``hand`` finish hands per
  player (letters, ``?`` hidden), ``part`` partnerships (``0-3,1-2``), ``clamp=net``.

Example: ``camel-up BG/Y/RP/10/K/1/W BGYRPX n=4 to=0``.
"""

from __future__ import annotations

from typing import Any

from ...errors import PositionError, quote
from ...strict import read_int
from ..notation_errors import Key, NotationKeys
from .json_form import build, default_hand, default_leg_start, default_pyramid_tickets
from .position import MAX_MONEY, N_SPACES, START_MONEY, Card, Position, Tile
from .variants import MAX_SEAT, Variant, variant

KEYS = ("n", "to", "start", "money", "bets", "pt", "win", "lose", "hand", "part", "clamp")
TRACK = ("cells split by '/' for spaces 1-16: camel letters bottom to top, a number for a "
         "run of empty spaces, +N or -N for player N's spectator (2014: desert) tile")
DECK = "a seat and a colour letter per card in placement order, ? hidden, e.g. {}=0?,2B"
# the JSON path each notation key or word holds (analyser/notation_errors.py)
NOTATION_KEYS = NotationKeys({
    "players": Key("n"),
    "to_move": Key("to"),
    "leg_start": Key("start"),
    "track": Key("track", TRACK, positional=True),
    "tiles": Key("track (a tile)", TRACK, whole=True, positional=True),
    "pyramid": Key("pyramid", "the letters of the dice still in the pyramid, X the grey "
                              "die, - for none", positional=True),
    "money": Key("money", "EP per player, comma-separated, e.g. money=4,2,5,3"),
    "leg_tickets": Key("bets", "one entry per player, comma-separated, each colour letter + "
                               "value pairs, empty for none, e.g. bets=P5,G5P3,, (4 players)"),
    "ticket_stacks": Key("bets", whole=True),
    "pyramid_tickets": Key("pt", "one count per player, comma-separated, e.g. pt=1,0,0,1; "
                                 "they add up to the dice revealed this leg"),
    "winner_deck": Key("win", DECK.format("win")),
    "loser_deck": Key("lose", DECK.format("lose")),
    "finish_hand": Key("hand", "one hand per player, comma-separated, colour letters, ? "
                               "hidden, e.g. hand=BGY,?,RP,BGYRP"),
    "partnership": Key("part", "pairs of partnered seats, e.g. part=0-3,1-2"),
    "rules.final_clamp": Key("clamp"),
})


def _letter(v: Variant, name: str) -> str:
    return v.camel_letters[v.camels.index(name)]


def _track_text(pos: Position) -> str:
    v = pos.rules
    tiles = {t.space: t for t in pos.tiles}
    cells: list[str] = []
    empty = 0
    for s in range(1, N_SPACES + 1):
        stack = pos.stack(s)
        if not stack and s not in tiles:
            empty += 1
            continue
        if empty:
            cells.append(str(empty))
            empty = 0
        if s in tiles:
            t = tiles[s]
            cells.append(("+" if t.side == "cheer" else "-") + str(t.owner))
        else:
            cells.append("".join(_letter(v, c) for c in stack))
    if empty:
        cells.append(str(empty))
    return "/".join(cells)


def _seats(values: list[str]) -> str:
    return ",".join(values)


def _deck_text(v: Variant, deck: tuple[Card, ...]) -> str:
    return ",".join(f"{c.owner}{'?' if c.colour is None else _letter(v, c.colour)}"
                    for c in deck)


def to_notation(pos: Position) -> str:
    """The canonical one-line notation of ``pos``."""
    v = pos.rules
    pyramid = "".join(v.dice_letters[v.dice.index(d)] for d in pos.pyramid) or "-"
    parts = [v.id, _track_text(pos), pyramid, f"n={pos.players}", f"to={pos.to_move}"]
    if pos.leg_start != default_leg_start(pos):
        parts.append(f"start={pos.leg_start}")
    if any(m != START_MONEY for m in pos.money):
        parts.append("money=" + _seats([str(m) for m in pos.money]))
    if any(pos.leg_tickets):
        parts.append("bets=" + _seats(["".join(f"{_letter(v, c)}{val}" for c, val in held)
                                       for held in pos.leg_tickets]))
    if pos.pyramid_tickets != default_pyramid_tickets(pos.players, pos.to_move, pos.revealed):
        parts.append("pt=" + _seats([str(k) for k in pos.pyramid_tickets]))
    if pos.winner_deck:
        parts.append("win=" + _deck_text(v, pos.winner_deck))
    if pos.loser_deck:
        parts.append("lose=" + _deck_text(v, pos.loser_deck))
    defaults = [default_hand(v, p, pos.winner_deck, pos.loser_deck) for p in range(pos.players)]
    if list(pos.finish_hand) != defaults:
        parts.append("hand=" + _seats(["?" if h is None else "".join(_letter(v, c) for c in h)
                                       for h in pos.finish_hand]))
    if pos.partnership and any(q is not None for q in pos.partnership):
        pairs = [f"{p}-{q}" for p, q in enumerate(pos.partnership) if q is not None and p < q]
        parts.append("part=" + ",".join(pairs))
    if pos.final_clamp != "card":
        parts.append(f"clamp={pos.final_clamp}")
    return " ".join(parts)


def _parse_track(text: str, v: Variant) -> tuple[tuple[tuple[str, ...], ...], tuple[Tile, ...]]:
    spaces: list[tuple[str, ...]] = []
    tiles: list[Tile] = []
    for cell in text.split("/"):
        if cell[:1].isdigit():  # a run of empty spaces
            spaces.extend([()] * read_int(cell, "track (a run of empty spaces)", 1, N_SPACES))
        elif cell[:1] in ("+", "-"):  # a tile: its side and owner
            tiles.append(Tile(read_int(cell[1:], "track (a tile's owner)", 0, MAX_SEAT),
                              len(spaces) + 1, "cheer" if cell[0] == "+" else "boo"))
            spaces.append(())
        elif cell:
            spaces.append(tuple(v.camel(ch, f"track cell {quote(cell)}") for ch in cell))
        else:
            raise PositionError("track", "empty cell between '/' (write empty runs as numbers)")
        if len(spaces) > N_SPACES:
            break
    if len(spaces) != N_SPACES:
        raise PositionError("track", f"describes {len(spaces)} spaces, expected {N_SPACES}")
    return tuple(spaces), tuple(tiles)


def _ints(text: str, key: str, high: int) -> tuple[int, ...]:
    """Comma-separated whole numbers, each 0..``high``."""
    return tuple(read_int(x, f"{key}[{i}]", 0, high) for i, x in enumerate(text.split(",")))


def _bets(text: str, v: Variant) -> tuple[tuple[tuple[str, int], ...], ...]:
    out = []
    for p, chunk in enumerate(text.split(",")):
        held = []
        i = 0
        while i < len(chunk):
            j = i + 1
            while j < len(chunk) and chunk[j].isdigit():
                j += 1
            if j == i + 1:
                raise PositionError("bets", f"player {p}: {quote(chunk)} is not colour+value "
                                            f"pairs")
            held.append((v.colour(chunk[i], f"bets[{p}]"),
                         read_int(chunk[i + 1:j], f"bets[{p}]", 1, max(v.tickets))))
            i = j
        out.append(tuple(held))
    return tuple(out)


def _deck(text: str, v: Variant, key: str) -> tuple[Card, ...]:
    cards = []
    for i, item in enumerate(text.split(",")):
        if len(item) < 2:
            raise PositionError(key, f"card {i}: {quote(item)} is not seat+colour letter")
        colour = None if item[-1] == "?" else v.colour(item[-1], f"{key}[{i}]")
        cards.append(Card(read_int(item[:-1], f"{key}[{i}] (a seat)", 0, MAX_SEAT), colour))
    return tuple(cards)


def _hands(text: str, v: Variant) -> tuple[tuple[str, ...] | None, ...]:
    return tuple(None if h == "?" else tuple(v.colour(ch, f"hand[{p}]") for ch in h)
                 for p, h in enumerate(text.split(",")))


def _partners(text: str, players: int) -> tuple[int | None, ...]:
    part: list[int | None] = [None] * players
    for pair in text.split(","):
        a, _, b = pair.partition("-")
        try:
            p, q = (read_int(x, "part", 0, players - 1) for x in (a, b))
        except PositionError:
            raise PositionError("part", f"{quote(pair)} is not a pair of seats like 0-3") \
                from None
        part[p], part[q] = q, p
    return tuple(part)


def parse_notation(text: str) -> Position:
    """Parse the one-line notation (see module doc)."""
    tokens = text.split()
    if len(tokens) < 3:
        raise PositionError("notation", "expected '<variant> <track> <pyramid> [key=value ...]'")
    v = variant(tokens[0])
    track, tiles = _parse_track(tokens[1], v)
    pyramid_text = "" if tokens[2] == "-" else tokens[2]
    dice = [v.die(ch, "pyramid") for ch in pyramid_text]
    if len(set(dice)) != len(dice):
        raise PositionError("pyramid", "a die is listed twice")
    opts: dict[str, str] = {}
    for tok in tokens[3:]:
        key, eq, value = tok.partition("=")
        if not eq or key not in KEYS:
            raise PositionError("notation", f"unknown field {quote(tok)} (known: "
                                            f"{', '.join(KEYS)})")
        if key in opts:
            raise PositionError(key, "given twice")
        opts[key] = value
    players = 4
    if "n" in opts:
        players = read_int(opts["n"], "n", 0, MAX_SEAT + 1)
    if not v.min_players <= players <= v.max_players:
        raise PositionError("n", f"{v.id} is for {v.min_players}-{v.max_players} players")
    fields: dict[str, Any] = {"players": players, "track": track, "tiles": tiles,
                              "pyramid": tuple(d for d in v.dice if d in dice)}
    if "to" in opts:
        fields["to_move"] = read_int(opts["to"], "to", 0, MAX_SEAT)
    if "start" in opts:
        fields["leg_start"] = read_int(opts["start"], "start", 0, players - 1)
    if "money" in opts:
        fields["money"] = _ints(opts["money"], "money", MAX_MONEY)
    if "bets" in opts:
        fields["leg_tickets"] = _bets(opts["bets"], v)
    if "pt" in opts:
        fields["pyramid_tickets"] = _ints(opts["pt"], "pt", len(v.dice))
    if "win" in opts:
        fields["winner_deck"] = _deck(opts["win"], v, "win")
    if "lose" in opts:
        fields["loser_deck"] = _deck(opts["lose"], v, "lose")
    if "hand" in opts:
        fields["finish_hand"] = _hands(opts["hand"], v)
    if "part" in opts:
        fields["partnership"] = _partners(opts["part"], players)
    if "clamp" in opts:
        if opts["clamp"] not in ("card", "net"):
            raise PositionError("clamp", "must be 'card' or 'net'")
        fields["final_clamp"] = opts["clamp"]
    for key in ("money", "leg_tickets", "pyramid_tickets", "finish_hand"):
        if key in fields and len(fields[key]) != players:
            raise PositionError(key, f"has {len(fields[key])} entries for {players} players")
    return build(v, fields)
