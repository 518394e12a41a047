"""One-line notation of a Camel Up Cards position; round-trips with the JSON form.

    camel-up-cards key=value key=value ...

Keys, in the canonical order ``to_notation`` writes them all (example: 4 players)::

    n=4              players (required)             to=0        the seat to move
    view=0           the viewer (default: to)       phase=start start | bet | race
    leg=1            leg number                     setup=7/3/2 dealt/discarded/into deck
    ages=0123        seats youngest first, a digit each
    L=17             the last space                 cards=222222222  track-card sizes
    line=WG          the start card's line-up, first = ahead ('-' none)
    track=1:B,3:YO   stacks, space:camels bottom -> top ('-' no camel on the track)
    fox=7@1          space@holder ('-' beside the track); palm=- likewise
    rev=Y1,O2        cards revealed from the race deck this leg, in order ('-' none)
    play=1:G2        hand cards played this leg, seat:card, in order ('-' none)
    blue=W1,G2,O1,Y1 each seat's blue card ('-' for none: every seat with 2 players)
    own=W1.W1.G2/O1.B1/G1   the viewer's discarded/deck/hand cards ('.'-joined, '-' none)
    hands=1011       per seat: 1 still holds a hand card
    lead=0:O5;1:;2:;3:      leader cards per seat, colour+value
    mid=0:Y;1:;2:;3:        midfield cards per seat, colours
    win=-O--         winner card per seat, a colour or '-'; lose=---- likewise
    money=3,3,3,3    EP per seat

Only ``n`` and the board (``line`` and/or ``track``) are required: an omitted key has the
JSON form's default. Unknown and repeated keys are refused. ``parse_notation(
to_notation(p)) == p``.
"""

from __future__ import annotations

from typing import Any, Callable

from ...errors import PositionError, quote
from ...strict import read_int
from ..notation_errors import Key, NotationKeys
from .json_form import build, card, colour, leader_value, phase, space_key
from .position import (DEFAULT_LAST, GAME, MAX_LAST, MAX_LEG, MAX_MONEY, MAX_PLAYERS,
                       MAX_SETUP, MIN_PLAYERS, Figure, Position)

KEYS = ("n", "to", "view", "phase", "leg", "setup", "ages", "L", "cards", "line", "track",
        "fox", "palm", "rev", "play", "blue", "own", "hands", "lead", "mid", "win", "lose",
        "money")
NONE = "-"
# the JSON path each notation key holds (analyser/notation_errors.py)
NOTATION_KEYS = NotationKeys({
    "players": Key("n"),
    "to_move": Key("to"),
    "viewer": Key("view"),
    "setup": Key("setup", "dealt/discarded/into the deck, e.g. setup=7/3/2"),
    "ages": Key("ages", "the seats youngest first, a digit each, e.g. ages=0123"),
    "track.last": Key("L"),
    "track.cards": Key("cards", "a digit per track card, 2 (or 1 on its sandstorm side), "
                                "e.g. cards=222222222"),
    "start_line": Key("line", "the start card's camels, first = ahead, e.g. line=WG "
                              "('-' none)"),
    "stacks": Key("track", "space:camels bottom to top, comma-separated, e.g. "
                           "track=1:B,3:YO ('-' no camel on the track)"),
    "stacks.*": Key("track (space *)"),
    "revealed": Key("rev", "the cards revealed from the race deck this leg, in order, e.g. "
                           "rev=Y1,O2 ('-' none)"),
    "played_hand_cards": Key("play", "the hand cards played this leg as seat:card, in "
                                     "order, e.g. play=1:G2 ('-' none)"),
    "blue_cards": Key("blue", "each seat's blue card, comma-separated, e.g. "
                              "blue=W1,G2,O1,Y1 ('-' for none)"),
    "own_cards": Key("own", "the viewer's discarded/deck/hand cards, each '.'-joined, e.g. "
                            "own=W1.W1.G2/O1.B1/G1 ('-' none)"),
    "own_cards.discarded": Key("own (discarded)"),
    "own_cards.deck": Key("own (deck)"),
    "own_cards.hand": Key("own (hand)", whole=True),
    "hands": Key("hands", "per seat 1 if it still holds a hand card, else 0, e.g. "
                          "hands=1011"),
    "leg_cards[*].leader": Key("lead[*]"),
    "leg_cards[*].midfield": Key("mid[*]"),
    "final_cards[*].winner": Key("win[*]"),
    "final_cards[*].loser": Key("lose[*]"),
    "money": Key("money", "EP per seat, comma-separated, e.g. money=3,3,3,3"),
    # keys whose JSON is shaped otherwise, by their own names (the parser's words)
    "lead": Key("lead", "seat:cards entries separated by ';', each card colour+value, e.g. "
                        "lead=0:O5;1:;2:;3:"),
    "mid": Key("mid", "seat:colours entries separated by ';', e.g. mid=0:Y;1:;2:;3:"),
    "win": Key("win", "a colour or '-' per seat, e.g. win=-O--"),
    "lose": Key("lose", "a colour or '-' per seat, e.g. lose=--B-"),
})


# ---------------------------------------------------------------------- Position -> text


def _cards(cards: tuple[str, ...], sep: str = ",") -> str:
    return sep.join(cards) or NONE


def _figure(fig: Figure | None) -> str:
    return NONE if fig is None else f"{fig.space}@{fig.holder}"


def _per_seat(rows: tuple[tuple[Any, ...], ...], item: Callable[[Any], str]) -> str:
    return ";".join(f"{s}:{''.join(item(x) for x in row)}" for s, row in enumerate(rows))


def to_notation(pos: Position) -> str:
    """The canonical one-line notation of ``pos``: every key (module doc)."""
    track = ",".join(f"{s}:{''.join(stack)}" for s, stack in enumerate(pos.stacks, 1)
                     if stack) or NONE
    own = "/".join((_cards(pos.own_discarded, "."), _cards(pos.own_deck, "."),
                    pos.own_hand or NONE))
    parts = [
        GAME,
        f"n={pos.players}",
        f"to={pos.to_move}",
        f"view={pos.viewer}",
        f"phase={pos.phase}",
        f"leg={pos.leg}",
        "setup=" + "/".join(map(str, pos.setup)),
        "ages=" + "".join(map(str, pos.ages)),
        f"L={pos.last}",
        "cards=" + "".join(map(str, pos.cards)),
        "line=" + ("".join(pos.start_line) or NONE),
        "track=" + track,
        "fox=" + _figure(pos.fox),
        "palm=" + _figure(pos.palm),
        "rev=" + _cards(pos.revealed),
        "play=" + (",".join(f"{s}:{c}" for s, c in pos.played) or NONE),
        "blue=" + ",".join(c or NONE for c in pos.blue),
        "own=" + own,
        "hands=" + "".join("1" if h else "0" for h in pos.hands),
        "lead=" + _per_seat(pos.leader, lambda lc: f"{lc[0]}{lc[1]}"),
        "mid=" + _per_seat(pos.midfield, str),
        "win=" + "".join(c or NONE for c in pos.winner),
        "lose=" + "".join(c or NONE for c in pos.loser),
        "money=" + ",".join(map(str, pos.money)),
    ]
    return " ".join(parts)


# ---------------------------------------------------------------------- text -> Position


def _items(text: str, key: str, sep: str = ",") -> list[str]:
    """The ``sep``-separated items of ``text``; none for '-'; an empty text refused."""
    if text == NONE:
        return []
    if not text:
        raise PositionError(key, f"empty (write {NONE!r} for none)")
    return text.split(sep)


def _per_player(items: list[Any], key: str, players: int) -> tuple:
    if len(items) != players:
        raise PositionError(key, f"has {len(items)} entries for {players} players")
    return tuple(items)


def _seat(text: str, field: str, players: int) -> int:
    return read_int(text, field, 0, players - 1)


def _track(text: str, last: int) -> tuple[tuple[str, ...], ...]:
    spaces: list[tuple[str, ...]] = [()] * last
    seen: set[int] = set()
    for i, item in enumerate(_items(text, "track")):
        where, colon, camels = item.partition(":")
        field = f"track[{i}]"
        if not colon or not camels:
            raise PositionError(field, f"expected space:camels like 3:YO, got {quote(item)}")
        s = space_key(where, field, last)
        if s in seen:
            raise PositionError(field, f"space {s} is given twice")
        seen.add(s)
        spaces[s - 1] = tuple(colour(c, field) for c in camels)
    return tuple(spaces)


def _figure_text(text: str, key: str, last: int, players: int) -> Figure | None:
    if text == NONE:
        return None
    where, at, holder = text.partition("@")
    if not at:
        raise PositionError(key, f"expected space@holder like 7@1, or '-', got {quote(text)}")
    return Figure(read_int(where, key + " (space)", 1, last),
                  _seat(holder, key + " (holder)", players))


def _played(text: str, players: int) -> tuple[tuple[int, str], ...]:
    out = []
    for i, item in enumerate(_items(text, "play")):
        who, colon, what = item.partition(":")
        field = f"play[{i}]"
        if not colon:
            raise PositionError(field, f"expected seat:card like 1:G2, got {quote(item)}")
        out.append((_seat(who, field, players), card(what, field)))
    return tuple(out)


def _own(text: str) -> dict[str, Any]:
    parts = text.split("/")
    if len(parts) != 3:
        raise PositionError("own", f"expected discarded/deck/hand like W1.G2/O1.B1/G1, got "
                                   f"{quote(text)}")
    discarded, deck, hand = parts
    return {
        "own_discarded": tuple(card(c, "own (discarded)")
                               for c in _items(discarded, "own (discarded)", ".")),
        "own_deck": tuple(card(c, "own (deck)") for c in _items(deck, "own (deck)", ".")),
        "own_hand": None if hand == NONE else card(hand, "own (hand)"),
    }


def _seat_rows(text: str, key: str, players: int, read: Callable[[str, str], list]
               ) -> tuple[tuple[Any, ...], ...]:
    """``seat:items;seat:items``: seats not given hold nothing."""
    rows: list[tuple[Any, ...]] = [()] * players
    seen: set[int] = set()
    for item in _items(text, key, ";"):
        who, colon, what = item.partition(":")
        if not colon:
            raise PositionError(key, f"expected seat:cards entries separated by ';', got "
                                     f"{quote(item)}")
        s = _seat(who, key, players)
        if s in seen:
            raise PositionError(key, f"seat {s} is given twice")
        seen.add(s)
        rows[s] = tuple(read(what, f"{key}[{s}]"))
    return tuple(rows)


def _leader_cards(text: str, field: str) -> list[tuple[str, int]]:
    if len(text) % 2:
        raise PositionError(field, f"expected colour+value pairs like O5G3, got {quote(text)}")
    return [(colour(text[i], field), leader_value(read_int(text[i + 1], field, 2, 5), field))
            for i in range(0, len(text), 2)]


def _colours(text: str, field: str) -> list[str]:
    return [colour(c, field) for c in text]


def _finals(text: str, key: str, players: int) -> tuple[str | None, ...]:
    return _per_player([None if c == NONE else colour(c, key) for c in text], key, players)


def parse_notation(text: str) -> Position:
    """The position written as ``text`` (module doc); PositionError naming the key."""
    tokens = text.split()
    if not tokens or tokens[0] != GAME:
        raise PositionError("notation", f"expected '{GAME} n=<players> ...', got "
                                        f"{quote(text)}")
    opts: dict[str, str] = {}
    for token in tokens[1:]:
        key, eq, value = token.partition("=")
        if not eq or key not in KEYS:
            raise PositionError("notation", f"unknown field {quote(token)} (known: "
                                            f"{', '.join(KEYS)})")
        if key in opts:
            raise PositionError(key, "given twice")
        opts[key] = value
    if "n" not in opts:
        raise PositionError("n", "required field missing (the number of players)")
    if "line" not in opts and "track" not in opts:
        raise PositionError("track", "required field missing: the board is 'line' (the "
                                     "start card's line-up) and/or 'track'")
    n = read_int(opts["n"], "n", MIN_PLAYERS, MAX_PLAYERS)
    fields: dict[str, Any] = {"players": n}
    if "to" in opts:
        fields["to_move"] = _seat(opts["to"], "to", n)
    if "view" in opts:
        fields["viewer"] = _seat(opts["view"], "view", n)
    if "phase" in opts:
        fields["phase"] = phase(opts["phase"], "phase")
    if "leg" in opts:
        fields["leg"] = read_int(opts["leg"], "leg", 1, MAX_LEG)
    if "setup" in opts:
        numbers = opts["setup"].split("/")
        if len(numbers) != 3:
            raise PositionError("setup", f"expected dealt/discarded/into-deck like 7/3/2, "
                                         f"got {quote(opts['setup'])}")
        fields["setup"] = tuple(read_int(x, "setup", 0, MAX_SETUP) for x in numbers)
    if "ages" in opts:
        fields["ages"] = _per_player([_seat(ch, "ages", n) for ch in opts["ages"]],
                                     "ages", n)
    if "L" in opts:
        fields["last"] = read_int(opts["L"], "L", 1, MAX_LAST)
    last = fields.get("last", DEFAULT_LAST[n])
    if "cards" in opts:
        if not opts["cards"]:
            raise PositionError("cards", "empty: one digit (2, or 1 for sandstorm) per card")
        fields["cards"] = tuple(read_int(ch, "cards", 1, 2) for ch in opts["cards"])
    if "line" in opts:
        line = opts["line"]
        if not line:
            raise PositionError("line", f"empty (write {NONE!r} for no camel on the start "
                                        f"card)")
        fields["start_line"] = () if line == NONE else tuple(colour(c, "line") for c in line)
    fields["stacks"] = _track(opts["track"], last) if "track" in opts else ((),) * last
    for key in ("fox", "palm"):
        if key in opts:
            fields[key] = _figure_text(opts[key], key, last, n)
    if "rev" in opts:
        fields["revealed"] = tuple(card(c, f"rev[{i}]")
                                   for i, c in enumerate(_items(opts["rev"], "rev")))
    if "play" in opts:
        fields["played"] = _played(opts["play"], n)
    if "blue" in opts:
        fields["blue"] = _per_player([None if c == NONE else card(c, f"blue[{i}]")
                                      for i, c in enumerate(opts["blue"].split(","))],
                                     "blue", n)
    if "own" in opts:
        fields.update(_own(opts["own"]))
    if "hands" in opts:
        flags = opts["hands"]
        if any(ch not in "01" for ch in flags):
            raise PositionError("hands", f"expected 1 or 0 per seat, got {quote(flags)}")
        fields["hands"] = _per_player([ch == "1" for ch in flags], "hands", n)
    if "lead" in opts:
        fields["leader"] = _seat_rows(opts["lead"], "lead", n, _leader_cards)
    if "mid" in opts:
        fields["midfield"] = _seat_rows(opts["mid"], "mid", n, _colours)
    if "win" in opts:
        fields["winner"] = _finals(opts["win"], "win", n)
    if "lose" in opts:
        fields["loser"] = _finals(opts["lose"], "lose", n)
    if "money" in opts:
        fields["money"] = _per_player([read_int(x, f"money[{i}]", 1, MAX_MONEY)
                                       for i, x in enumerate(opts["money"].split(","))],
                                      "money", n)
    return build(fields)
