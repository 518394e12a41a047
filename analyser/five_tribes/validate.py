"""Every invariant of a Five Tribes position (docs/games/five-tribes.md §1-§5): the box's limits,
the players' holdings, the tracks. Each failure is a PositionError naming the field and the
reason."""

from __future__ import annotations

from collections import Counter

from ...kernels import five_tribes as FT
from ...errors import PositionError, quote
from . import names
from .json_form import (COSTS, END_RULES, FIRST_ZERO, MAX_GOLD, NEIGHBOURS, PHASES,
                        SACRED_VPS, TWO_PLAYER_DJINN, check_grid, check_player_count, choice)
from .position import Position

COLOUR_NAMES = dict(zip(FT.COLOURS, ("yellow", "white", "blue", "green", "red")))
PASSIVE = tuple(name for name, _, cost in FT.DJINNS if cost == FT.COST_NONE)  # no power to use


def _seat(value: int, n: int, field: str) -> None:
    if not 0 <= value < n:
        raise PositionError(field, f"{value} is not a player (0..{n - 1})")


def _known(name: str, known: tuple[str, ...], what: str, field: str) -> None:
    """Positions hold canonical names only (the parsers translate what people write)."""
    if name not in known:
        raise PositionError(field, f"unknown {what} {quote(name)}")


def _count(value: int, field: str) -> None:
    if value < 0:
        raise PositionError(field, f"must be at least 0, got {value}")


def _within(parts: list[tuple[str, int, str]], total: int, what: str) -> None:
    """Check that the ``(field, count, where)`` parts of ``what`` add up to at most the
    box's ``total``; else raise at the field whose part goes beyond it."""
    running = 0
    for field, k, _ in parts:
        running += k
        if running > total:
            where = ", ".join(f"{k} {w}" for _, k, w in parts if k)
            detail = f" ({where})" if len(parts) > 1 else ""
            raise PositionError(field, f"{sum(k for _, k, _ in parts)} {what}{detail}; "
                                       f"the box has {total}")


def _check_shape(pos: Position) -> None:
    check_player_count(pos.n_players)
    check_grid(list(pos.board))
    if len(pos.turn_track) != len(COSTS):
        raise PositionError("turn_track", f"{len(pos.turn_track)} spaces, expected "
                                          f"{len(COSTS)}")
    for i, p in enumerate(pos.players):
        if len(p.goods) != len(FT.GOODS):
            raise PositionError(f"players[{i}].goods", f"{len(p.goods)} counts, expected "
                                                       f"{len(FT.GOODS)}")


def _check_cell(pos: Position, r: int, c: int) -> None:
    cell = pos.board[r][c]
    f = f"board[{r}][{c}]"
    _known(cell.tile, FT.TILE_TYPES, "tile type", f + ".tile")
    if names.meeples(cell.meeples, f + ".meeples") != cell.meeples:
        raise PositionError(f + ".meeples", f"colours must be in {FT.COLOURS} order")
    if len(cell.meeples) > FT.MAX_STACK:
        raise PositionError(f + ".meeples", f"{len(cell.meeples)} meeples on one tile: "
                                            f"oddsbot enumerates stacks of at most "
                                            f"{FT.MAX_STACK}")
    if cell.tile == "sacred-place":
        if cell.vp not in FT.SACRED_VPS:
            raise PositionError(f + ".vp", f"sacred places are worth {SACRED_VPS}, "
                                           f"got {cell.vp}")
    elif cell.vp != (vp := FT.TILE_VP[FT.TILE_TYPES.index(cell.tile)]):
        raise PositionError(f + ".vp", f"{cell.tile} tiles are worth {vp}, got {cell.vp}")
    if cell.owner is not None:
        _seat(cell.owner, pos.n_players, f + ".owner")
    _count(cell.palms, f + ".palms")
    _count(cell.palaces, f + ".palaces")


def _check_board(pos: Position) -> None:
    for r, c, _ in pos.cells():
        _check_cell(pos, r, c)
    cells = [cell for _, _, cell in pos.cells()]
    tiles = Counter(cell.tile for cell in cells)
    for tile, total in zip(FT.TILE_TYPES, FT.TILE_COUNTS):
        _within([("board", tiles[tile], "")], total, f"{tile} tiles")
    sacred = Counter(cell.vp for cell in cells if cell.tile == "sacred-place")
    for vp, total in Counter(FT.SACRED_VPS).items():
        _within([("board", sacred[vp], "")], total, f"sacred places worth {vp}")
    _within([("board", sum(cell.palms for cell in cells), "")], FT.PALMS, "palms")
    _within([("board", sum(cell.palaces for cell in cells), "")], FT.PALACES, "palaces")


def _check_players(pos: Position) -> None:
    camels = FT.CAMELS[pos.n_players]
    for i, p in enumerate(pos.players):
        f = f"players[{i}]"
        for key in ("gold", "viziers", "elders", "camels", "fakirs"):
            _count(getattr(p, key), f"{f}.{key}")
        for good, k in zip(FT.GOODS, p.goods):
            _count(k, f"{f}.goods.{good}")
        if p.camels + pos.owned(i) > camels:
            raise PositionError(f"{f}.camels", f"{p.camels} left + {pos.owned(i)} on tiles; "
                                               f"with {pos.n_players} players each has "
                                               f"{camels} camels")


def _check_meeples(pos: Position) -> None:
    """Every colour with more meeples than the box holds, in one message: where they stand
    (on the board, the most crowded cells first; held, by whom) and the box's count. The
    field is the board if it alone holds too many, else the first holder of a surplus."""
    holders = ("viziers", "elders")  # the held Y and W meeples
    over, field = [], None
    for c, (colour, total, on_board, held) in enumerate(zip(
            FT.COLOURS, FT.MEEPLE_TOTALS, pos.board_meeples(), pos.held_meeples())):
        if on_board + held <= total:
            continue
        where = [f"{on_board} on the board"] if on_board else []
        if on_board > total:
            field = "board"
            where[0] += ": " + _crowded(pos, colour)
        if held:
            seats = [i for i, p in enumerate(pos.players) if getattr(p, holders[c])]
            field = field or f"players[{seats[0]}]"
            by = ", ".join(f"p{i} {getattr(pos.players[i], holders[c])}" for i in seats)
            where.append(f"{held} held: {by}")
        over.append(f"{on_board + held} {COLOUR_NAMES[colour]} ({'; '.join(where)}; the box "
                    f"has {int(total)})")
    if over:
        raise PositionError(field, "more meeples than the box holds: " + ", ".join(over))


def _crowded(pos: Position, colour: str, shown: int = 3) -> str:
    """The cells holding ``colour``'s meeples, the most crowded first, e.g. ``board[0][0]
    5, board[1][2] 4, board[2][2] 3, …`` (``shown`` of them)."""
    cells = sorted(((-cell.meeples.count(colour), r, c) for r, c, cell in pos.cells()
                    if colour in cell.meeples))
    named = [f"board[{r}][{c}] {-k}" for k, r, c in cells[:shown]]
    return ", ".join(named + ["…"] * (len(cells) > shown))


def _check_cards(pos: Position) -> None:
    for key in ("resources", "resource_discard"):
        for i, name in enumerate(getattr(pos, key)):
            _known(name, names.CARDS, "resource card", f"{key}[{i}]")
    if len(pos.resources) > FT.RESOURCE_ROW:
        raise PositionError("resources", f"{len(pos.resources)} cards face up; the row "
                                         f"holds {FT.RESOURCE_ROW}")
    row, discard = Counter(pos.resources), Counter(pos.resource_discard)
    for kind, total, held in zip(names.CARDS, names.CARD_COUNTS, pos.held_cards()):
        _within([("players", held, "held"), ("resources", row[kind], "face up"),
                 ("resource_discard", discard[kind], "discarded")], total, f"{kind} cards")


def _check_djinns(pos: Position) -> None:
    if len(pos.djinns) > FT.VISIBLE_DJINNS:
        raise PositionError("djinns", f"{len(pos.djinns)} face up; the display holds "
                                      f"{FT.VISIBLE_DJINNS}")
    places = [("djinns", pos.djinns),
              *((f"players[{i}].djinns", p.djinns) for i, p in enumerate(pos.players)),
              ("djinn_discard", pos.djinn_discard)]
    seen: dict[str, str] = {}
    for field, held in places:
        for i, name in enumerate(held):
            _known(name, names.DJINN_NAMES, "djinn", f"{field}[{i}]")
            if name in seen:
                again = "listed twice" if seen[name] == field else f"also in {seen[name]}"
                raise PositionError(field, f"{name} is {again}")
            seen[name] = field


def _check_used(pos: Position, i: int) -> None:
    """Player ``i``'s ``djinns_used`` (docs/games/five-tribes.md §20.8): known, each once,
    held, a paid power; under ``per_turn`` only the player to move, during the turns."""
    field = f"players[{i}].djinns_used"
    used = pos.players[i].djinns_used
    for j, name in enumerate(used):
        _known(name, names.DJINN_NAMES, "djinn", f"{field}[{j}]")
        if name in used[:j]:
            raise PositionError(field, f"{name} is listed twice")
        if name not in pos.players[i].djinns:
            raise PositionError(field, f"{name} is marked used, but player {i} does not "
                                       f"hold it")
        if name in PASSIVE:
            raise PositionError(field, f"{name} has no power to use (it always applies)")
    if used and pos.two_player_djinn == "per_turn" and (pos.phase, pos.to_move) != ("turns", i):
        raise PositionError(field, f"player {i} is not playing a turn: under the per_turn "
                                   f"limit a power is marked used only in the turn under way")


def _check_gold(pos: Position, i: int) -> None:
    """Player ``i``'s secret gold (docs/games/five-tribes.md §14.13): an interval within
    0..MAX_GOLD, ``gold`` its midpoint, and never the player to move's."""
    p, field = pos.players[i], f"players[{i}].gold"
    if p.gold_range is None:
        return
    lo, hi = p.gold_range
    if not 0 <= lo <= hi <= MAX_GOLD:
        raise PositionError(field, f"secret gold {lo}..{hi}: must be lo..hi with "
                                   f"0 <= lo <= hi <= {MAX_GOLD}")
    if p.gold != (lo + hi) // 2:
        raise PositionError(field, f"{p.gold}, but a secret gold in {lo}..{hi} is its "
                                   f"midpoint {(lo + hi) // 2}")
    if i == pos.to_move:
        raise PositionError(field, "the player to move knows their own gold (secret gold is "
                                   "for opponents, docs/games/five-tribes.md §14.13)")


def _check_rules(pos: Position) -> None:
    choice(pos.end_rule, "rules.end_rule", END_RULES)
    choice(pos.djinn_neighbour, "rules.djinn_neighbour", NEIGHBOURS)
    choice(pos.two_player_djinn, "rules.two_player_djinn", TWO_PLAYER_DJINN)
    if pos.two_player_djinn == "per_round" and pos.n_players != 2:
        raise PositionError("rules.two_player_djinn", f"per_round is the 2-player limit "
                                                      f"(§14.18); this game has "
                                                      f"{pos.n_players} players")


def _check_tracks(pos: Position) -> None:
    n = pos.n_players
    for i, p in enumerate(pos.bid_track):
        _seat(p, n, f"bid_track[{i}]")
    zeros = pos.turn_track[FIRST_ZERO:]
    for space, p in enumerate(pos.turn_track):
        if p is not None:
            field = (f"turn_track.{COSTS[space]}" if space < FIRST_ZERO
                     else f"turn_track.0[{space - FIRST_ZERO}]")
            _seat(p, n, field)
    if None in zeros and any(p is not None for p in zeros[zeros.index(None):]):
        raise PositionError("turn_track.0", "zero spaces fill from the first (play order)")
    on_bid = Counter(pos.bid_track)
    on_turn = Counter(p for p in pos.turn_track if p is not None)
    each = FT.MARKERS[n]
    for p in range(n):
        if on_bid[p] + on_turn[p] != each:  # a surplus is named where it was placed
            surplus = on_bid[p] + on_turn[p] > each
            field = "turn_track" if surplus and on_turn[p] else "bid_track"
            raise PositionError(field, f"player {p} has {on_bid[p]} marker(s) on bid_track "
                                       f"and {on_turn[p]} on turn_track; with {n} players "
                                       f"each has {each}")


def _check_turn(pos: Position) -> None:
    choice(pos.phase, "phase", PHASES)
    if pos.next_marker is None:
        waiting = "bid_track" if pos.phase == "bidding" else "turn_track"
        raise PositionError("phase", f"{pos.phase}, but no marker is left on {waiting}")
    _seat(pos.to_move, pos.n_players, "to_move")
    if pos.to_move != pos.next_marker:
        where = "the front of bid_track" if pos.phase == "bidding" else "first on turn_track"
        raise PositionError("to_move", f"player {pos.to_move}, but the next marker to act "
                                       f"({where}) is player {pos.next_marker}'s")


def validate(pos: Position) -> Position:
    """Check every invariant; return the position unchanged if they hold."""
    _check_shape(pos)
    _check_rules(pos)
    _check_board(pos)
    _check_players(pos)
    _check_meeples(pos)
    _check_cards(pos)
    _check_djinns(pos)
    _check_tracks(pos)
    _check_turn(pos)
    for i in range(pos.n_players):
        _check_used(pos, i)
        _check_gold(pos, i)
    return pos
