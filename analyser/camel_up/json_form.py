"""Reading a Camel Up position from JSON (and from the notation's parsed fields).

Shapes are checked here (wrong types, unknown names and keys, numbers out of their range
of docs/games/camel-up.md §13.3: PositionError naming the field); game invariants are
checked by ``validate``. Missing fields get documented defaults:
4 players (or as many as a per-player list implies), 3 EP each, seat 0 to move, nothing
bet, no tiles; pyramid tickets of the dice already revealed go to the players who moved
just before ``to_move`` (as if only dice were rolled since the leg began); the leg-start seat
is the one that makes the leg as short as the position allows.
"""

from __future__ import annotations

from typing import Any

from ...errors import PositionError, quote
from ...strict import in_range, json_list, json_object, path, read_int, whole_number
from .position import MAX_MONEY, N_SPACES, START_MONEY, Card, Position, Tile
from .variants import MAX_SEAT, Variant, variant

PER_PLAYER = ("leg_tickets", "pyramid_tickets", "finish_hand", "money", "partnership")


TOP_KEYS = ("game", "variant", "players", "to_move", "leg_start", "status", "track",
            "pyramid", "tiles", "ticket_stacks", "leg_tickets", "pyramid_tickets",
            "winner_deck", "loser_deck", "finish_hand", "money", "partnership", "rules")
TILE_KEYS = ("owner", "space", "side")
TICKET_KEYS = ("colour", "value")
CARD_KEYS = ("owner", "colour")
RULE_KEYS = ("final_clamp",)


def seat(value: Any, field: str) -> int:
    """A seat number as JSON: 0 to the most players' last seat."""
    return whole_number(value, field, 0, MAX_SEAT)


def _track(value: Any, v: Variant) -> tuple[tuple[str, ...], ...]:
    if not isinstance(value, dict):
        raise PositionError("track", "must be an object mapping space numbers to stacks")
    spaces: list[tuple[str, ...]] = [()] * N_SPACES
    for key, stack in value.items():
        short = key.isascii() and key.isdigit() and len(key) <= 2
        s = read_int(key, f"track[{key}]" if short else path("track", key), 1, N_SPACES)
        if isinstance(stack, str):
            stack = [stack]
        names = [v.camel(c, f"track[{key}]") for c in json_list(stack, f"track[{key}]")]
        spaces[s - 1] = spaces[s - 1] + tuple(names)
    return tuple(spaces)


def _pyramid(value: Any, v: Variant) -> tuple[str, ...]:
    if isinstance(value, str):  # letters, e.g. "BGYRPX"
        value = list(value.replace(" ", ""))
    dice = [v.die(d, f"pyramid[{i}]") for i, d in enumerate(json_list(value, "pyramid"))]
    for d in dice:
        if dice.count(d) > 1:
            raise PositionError("pyramid", f"die {d} listed twice")
    return tuple(d for d in v.dice if d in dice)


def _tiles(value: Any, v: Variant) -> tuple[Tile, ...]:
    tiles = []
    for i, t in enumerate(json_list(value, "tiles")):
        f = f"tiles[{i}]"
        json_object(t, f, TILE_KEYS)
        for key in TILE_KEYS:
            if key not in t:
                raise PositionError(f, f"missing {key!r}")
        tiles.append(Tile(seat(t["owner"], f + ".owner"),
                          whole_number(t["space"], f + ".space", 1, N_SPACES),
                          v.side(t["side"], f + ".side")))
    return tuple(sorted(tiles, key=lambda t: t.space))


def _leg_tickets(value: Any, v: Variant) -> tuple[tuple[tuple[str, int], ...], ...]:
    out = []
    for p, held in enumerate(json_list(value, "leg_tickets")):
        f = f"leg_tickets[{p}]"
        row = []
        for j, ticket in enumerate(json_list(held, f)):
            g = f"{f}[{j}]"
            if isinstance(ticket, dict):
                ticket = [json_object(ticket, g, TICKET_KEYS).get(k) for k in TICKET_KEYS]
            if not isinstance(ticket, list) or len(ticket) != 2:
                raise PositionError(g, "a ticket is [colour, value]")
            row.append((v.colour(ticket[0], g), ticket_value(ticket[1], g + ".value", v)))
        out.append(tuple(row))
    return tuple(out)


def ticket_value(value: Any, field: str, v: Variant) -> int:
    """A betting ticket's value as JSON: 1 to the edition's highest."""
    return whole_number(value, field, 1, max(v.tickets))


def _ticket_stacks(value: Any, v: Variant) -> dict[str, tuple[int, ...]]:
    if not isinstance(value, dict):
        raise PositionError("ticket_stacks", "must be an object: colour -> values top first")
    out = {}
    for key, vals in value.items():
        c = v.colour(key, "ticket_stacks")
        f = f"ticket_stacks.{c}"
        out[c] = tuple(ticket_value(x, f, v) for x in json_list(vals, f))
    return out


def _deck(value: Any, v: Variant, name: str) -> tuple[Card, ...]:
    cards = []
    for i, card in enumerate(json_list(value, name)):
        f = f"{name}[{i}]"
        if isinstance(card, list) and len(card) == 2:
            card = {"owner": card[0], "colour": card[1]}
        if not isinstance(card, dict) or "owner" not in card:
            raise PositionError(f, "a card is {\"owner\": seat, \"colour\": colour or null}")
        json_object(card, f, CARD_KEYS)
        colour = card.get("colour")
        cards.append(Card(seat(card["owner"], f + ".owner"),
                          None if colour is None else v.colour(colour, f + ".colour")))
    return tuple(cards)


def _hands(value: Any, v: Variant) -> list[tuple[str, ...] | None]:
    out: list[tuple[str, ...] | None] = []
    for p, hand in enumerate(json_list(value, "finish_hand")):
        if hand is None:
            out.append(None)
        else:
            f = f"finish_hand[{p}]"
            out.append(tuple(v.colour(c, f) for c in json_list(hand, f)))
    return out


def _players(data: dict[str, Any], v: Variant) -> int:
    if "players" in data:
        return whole_number(data["players"], "players", v.min_players, v.max_players)
    for key in PER_PLAYER:
        if isinstance(data.get(key), list):
            return in_range(len(data[key]), key + " (one entry per player)", v.min_players,
                            v.max_players)
    return 4


def default_pyramid_tickets(players: int, to_move: int, revealed: int) -> tuple[int, ...]:
    """Revealed dice credited to the players who moved just before ``to_move``."""
    counts = [0] * players
    for k in range(1, revealed + 1):
        counts[(to_move - k) % players] += 1
    return tuple(counts)


def default_leg_start(pos: Position) -> int:
    """The seat that began the leg if it had as few turns as the position allows
    (docs/games/camel-up.md §13.4)."""
    return (pos.to_move - pos.fewest_turns) % pos.players


def default_hand(v: Variant, player: int, winner: tuple[Card, ...],
                 loser: tuple[Card, ...]) -> tuple[str, ...] | None:
    """Colours not yet placed by ``player``, or None if one of their cards is hidden."""
    placed = [c for c in winner + loser if c.owner == player]
    if any(c.colour is None for c in placed):
        return None
    return tuple(c for c in v.colours if c not in {p.colour for p in placed})


def build(v: Variant, fields: dict[str, Any]) -> Position:
    """A Position from already-typed fields, filling every default (see module doc)."""
    players = fields["players"]
    to_move = fields.get("to_move", 0)
    if not 0 <= to_move < players:
        raise PositionError("to_move", f"must be a seat 0..{players - 1}, got {to_move}")
    pyramid = fields["pyramid"]
    revealed = len(v.dice) - len(pyramid)
    leg_tickets = fields.get("leg_tickets") or ((),) * players
    if "ticket_stacks" in fields:
        given = fields["ticket_stacks"]
        stacks = tuple(given.get(c, tuple(v.tickets)) for c in v.colours)
    else:
        stacks = tuple(tuple(v.tickets[sum(1 for held in leg_tickets for t in held
                                           if t[0] == c):]) for c in v.colours)
    winner = fields.get("winner_deck", ())
    loser = fields.get("loser_deck", ())
    hands = fields.get("finish_hand")
    if hands is None:
        hands = tuple(default_hand(v, p, winner, loser) for p in range(players))
    partnership = fields.get("partnership")
    if partnership is None and v.partnerships and players >= 6:
        partnership = (None,) * players
    pos = Position(
        variant=v.id,
        track=fields["track"],
        pyramid=pyramid,
        tiles=fields.get("tiles", ()),
        ticket_stacks=stacks,
        leg_tickets=tuple(leg_tickets),
        pyramid_tickets=tuple(fields.get("pyramid_tickets")
                              or default_pyramid_tickets(players, to_move, max(revealed, 0))),
        winner_deck=winner,
        loser_deck=loser,
        finish_hand=tuple(hands),
        money=tuple(fields.get("money") or (START_MONEY,) * players),
        partnership=None if partnership is None else tuple(partnership),
        to_move=to_move,
        players=players,
        status=fields.get("status", "running"),
        final_clamp=fields.get("final_clamp", "card"),
    )
    return pos.with_(leg_start=fields.get("leg_start", default_leg_start(pos)))


def _check_lengths(fields: dict[str, Any], players: int) -> None:
    for key in PER_PLAYER:
        value = fields.get(key)
        if value is not None and len(value) != players:
            raise PositionError(key, f"has {len(value)} entries for {players} players")


def position_from_json(data: Any) -> Position:
    """See ``Position.from_json``."""
    if not isinstance(data, dict):
        raise PositionError("position", "must be a JSON object")
    if "game" not in data:
        raise PositionError("game", "required field missing")
    if data["game"] not in ("camel-up", "camel-up-2014"):
        raise PositionError("game", f"expected 'camel-up', got {quote(data['game'])}")
    v = variant(data.get("variant") or data["game"])
    for key in ("track", "pyramid"):
        if key not in data:
            raise PositionError(key, "required field missing")
    json_object(data, "", TOP_KEYS)
    players = _players(data, v)
    fields: dict[str, Any] = {"players": players, "track": _track(data["track"], v),
                              "pyramid": _pyramid(data["pyramid"], v)}
    if "to_move" in data:
        fields["to_move"] = seat(data["to_move"], "to_move")
    if "leg_start" in data:
        fields["leg_start"] = whole_number(data["leg_start"], "leg_start", 0, players - 1)
    if "status" in data:
        fields["status"] = data["status"]
    if "tiles" in data:
        fields["tiles"] = _tiles(data["tiles"], v)
    if "ticket_stacks" in data:
        fields["ticket_stacks"] = _ticket_stacks(data["ticket_stacks"], v)
    if "leg_tickets" in data:
        fields["leg_tickets"] = _leg_tickets(data["leg_tickets"], v)
    if "pyramid_tickets" in data:
        fields["pyramid_tickets"] = tuple(
            whole_number(x, f"pyramid_tickets[{i}]", 0, len(v.dice))
            for i, x in enumerate(json_list(data["pyramid_tickets"], "pyramid_tickets")))
    for deck in ("winner_deck", "loser_deck"):
        if deck in data:
            fields[deck] = _deck(data[deck], v, deck)
    if "finish_hand" in data:
        fields["finish_hand"] = _hands(data["finish_hand"], v)
    if "money" in data:
        fields["money"] = tuple(whole_number(x, f"money[{i}]", 0, MAX_MONEY)
                                for i, x in enumerate(json_list(data["money"], "money")))
    if data.get("partnership") is not None:
        fields["partnership"] = tuple(
            None if x is None or x == "available" else seat(x, f"partnership[{i}]")
            for i, x in enumerate(json_list(data["partnership"], "partnership")))
    rules = json_object(data.get("rules") or {}, "rules", RULE_KEYS)
    if "final_clamp" in rules:
        if rules["final_clamp"] not in ("card", "net"):
            raise PositionError("rules.final_clamp", f"must be 'card' or 'net', got "
                                                     f"{quote(rules['final_clamp'])}")
        fields["final_clamp"] = rules["final_clamp"]
    _check_lengths(fields, players)
    return build(v, fields)
