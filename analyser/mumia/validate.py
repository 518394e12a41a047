"""Every invariant of a Mumia position, each refused as ``field: reason``
(docs/games/mumia.md §14.1)."""

from __future__ import annotations

from collections import Counter

from ...errors import PositionError
from ...kernels.mumia import layout as L
from ...kernels.mumia.setup import E1_REMOVED, RISK_TILES
from .labels import read_roll, roll_text
from .position import FINISH, START, UNSEEN, Position, read_pawn_word
from .rules import TOKEN_KINDS, pawns_per_seat
from .tiles import tile_name

RISK_SET = tuple(f"risk{m}" for m in RISK_TILES)  # the set-up's (kernels/mumia/setup.py)
E1_OUT = tuple(f"-{m}" for m in E1_REMOVED)


def game_tiles(pos: Position) -> Counter:
    """The path tiles a game with these expansions and rules can hold (§2, §8, §10): for
    expansions 1 and 3 together, before two dangers and two treasures are drawn out."""
    rules = pos.rules
    tiles = Counter(tile_name(c) for c in rules.tile_values)
    e1, e3 = pos.has("e1"), pos.has("e3")
    if e1 and (not e3 or rules.e3_e1_keep_e1_removal):
        tiles -= Counter(E1_OUT)
    if e3:
        tiles -= Counter(tile_name(c) for c in rules.e3_removed)
        tiles += Counter(RISK_SET)
    if e1:
        tiles["exchange"] = 4
    return tiles


def validate(pos: Position) -> None:
    """Raise ``PositionError`` for the first broken invariant."""
    _track(pos)
    _tiles(pos)
    _pieces(pos)
    _mummy(pos)
    _hats(pos)
    _tokens(pos)
    _roll(pos)
    _turn(pos)
    if not over(pos) and all(f.tile == FINISH for f in pos.track if pos.to_move in f.pawns):
        raise PositionError("to_move", f"seat {pos.to_move} has every pawn home and takes "
                            f"no more turns")


def over(pos: Position) -> bool:
    """§6: every pawn home, or (``sudden_end``) one player's."""
    home = [pos.track[-1].pawns.count(p) == pawns_per_seat(pos.players)
            for p in range(pos.players)]
    return all(home) or (pos.rules.sudden_end and any(home))


def _track(pos: Position) -> None:
    track = pos.track
    if len(track) < 2 or track[0].tile != START or track[-1].tile != FINISH:
        raise PositionError("track", "must run from a 'start' field to a 'finish' field")
    for i, f in enumerate(track[1:-1], start=1):
        if f.tile in (START, FINISH):
            raise PositionError(f"track[{i}].tile", f"{f.tile} only at the "
                                f"{'beginning' if f.tile == START else 'end'}")
    if len(track) - 2 > L.MAX_TILES:
        raise PositionError("track", f"at most {L.MAX_TILES} path tiles, got {len(track) - 2}")
    for i in (0, len(track) - 1):
        if track[i].guardians:
            raise PositionError(f"track[{i}].guardians", "guardians stand on path tiles only "
                                "(one reaching FINISH leaves the game)")
    for i, f in enumerate(track):
        if f.tile.startswith("risk") and not pos.has("e3"):
            raise PositionError(f"track[{i}].tile", "a risk tile without expansion e3")
        if f.tile == "exchange" and not pos.has("e1"):
            raise PositionError(f"track[{i}].tile", "an exchange tile without expansion e1")


def _tiles(pos: Position) -> None:
    allowed = game_tiles(pos)
    used: Counter = Counter()
    for i, f in enumerate(pos.track[1:-1], start=1):
        used[f.tile] += 1
        if used[f.tile] > allowed[f.tile]:
            raise PositionError(f"track[{i}].tile", f"one {f.tile} too many: the game has "
                                f"{allowed[f.tile]}")
    if pos.has("e1") and used["exchange"] != 4:
        raise PositionError("track", f"expansion e1 keeps its 4 exchange tiles on the track, "
                            f"got {used['exchange']}")
    for p, stack in enumerate(pos.collected):
        for i, t in enumerate(stack):
            where = f"collected[{p}][{i}]"
            if t == "exchange":
                raise PositionError(where, "exchange tiles are never collected")
            if t.startswith("risk") and not pos.has("e3"):
                raise PositionError(where, "a risk tile without expansion e3")
            used[t] += 1
            if used[t] > allowed[t]:
                also = " (also on the track)" if any(f.tile == t for f in pos.track) else ""
                raise PositionError(where, f"one {t} too many{also}: the game has "
                                    f"{allowed[t]}")
    if pos.has("e3") and pos.has("e1") and not pos.rules.e3_e1_keep_e1_removal:
        if sum(used.values()) - 4 > sum(allowed.values()) - 8:
            raise PositionError("track", "expansions e1 and e3 leave 28 path tiles besides "
                                "the exchange tiles")


def _pieces(pos: Position) -> None:
    pawns = pawns_per_seat(pos.players)
    counts = Counter(s for f in pos.track for s in f.pawns)
    for p in range(pos.players):
        if counts[p] != pawns:
            raise PositionError("track", f"seat {p} must have {pawns} pawns on the track "
                                f"(START and FINISH included), got {counts[p]}"
                                f"{_where_pawns(pos, p)}")
    guardians = sum(f.guardians for f in pos.track)
    if guardians > L.MAX_GUARDS:
        raise PositionError("track", f"at most {L.MAX_GUARDS} guardians, got {guardians}")
    mummies = [i for i, f in enumerate(pos.track) if f.mummy]
    if len(mummies) > 1:
        raise PositionError(f"track[{mummies[1]}].mummy", "there is one mummy")


def _where_pawns(pos: Position, seat: int) -> str:
    """Where ``seat``'s pawns stand, e.g. `` (4 on START, 1 on field 5)``."""
    last = len(pos.track) - 1
    where = [f"{f.pawns.count(seat)} on "
             + ("START" if i == 0 else "FINISH" if i == last else f"field {i}")
             for i, f in enumerate(pos.track) if seat in f.pawns]
    return f" ({', '.join(where)})" if where else ""


def _mummy(pos: Position) -> None:
    full = pos.rules.mummy_tokens
    left = pos.mummy_tokens
    if len(left) > len(full):
        raise PositionError("mummy_tokens", f"{len(left)} tokens left but the stack has "
                            f"{len(full)} ({','.join(map(str, full))})")
    if tuple(full[len(full) - len(left):]) != left:
        raise PositionError("mummy_tokens", f"the tokens left must be the bottom of the stack "
                            f"{','.join(map(str, full))} (taken top first)")
    taken = sorted(v for t in pos.mummy_taken for v in t)
    if taken != sorted(full[:len(full) - len(left)]):
        raise PositionError("mummy_taken", f"the tokens taken must be "
                            f"{','.join(map(str, full[:len(full) - len(left)])) or 'none'}")
    on_track = any(f.mummy for f in pos.track)
    if bool(left) != on_track:
        raise PositionError("track", "the mummy stands on the track exactly while tokens are "
                            "left" if left else "the mummy has left with the last token")


def _hats(pos: Position) -> None:
    for name, hat in (("luck", pos.luck), ("bad", pos.bad)):
        if hat is not None and not pos.has("e2"):
            raise PositionError(f"hats.{name}", "a hat without expansion e2")
        if pos.has("e2") and hat is None:
            raise PositionError(f"hats.{name}", "expansion e2 has both hats on pawns")
        if hat is None:
            continue
        if hat.field >= len(pos.track) or hat.seat not in pos.track[hat.field].pawns:
            raise PositionError(f"hats.{name}", f"seat {hat.seat} has no pawn on field "
                                f"{hat.field}")
    if pos.hats_split:
        luck, bad = pos.luck, pos.bad
        if luck is None or bad is None or luck != bad:
            raise PositionError("hats.split", "split is for both hats on one seat's pawns on "
                                "one field (luck and bad name the same seat and field)")
        if pos.track[luck.field].pawns.count(luck.seat) < 2:
            raise PositionError("hats.split", f"split needs two pawns of seat {luck.seat} on "
                                f"field {luck.field}; it has one")


def _tokens(pos: Position) -> None:
    if not pos.has("e4"):
        if any(pos.hands) or pos.pile:
            raise PositionError("action_tokens", "action tokens without expansion e4")
        return
    if len(pos.hands) != pos.players:
        raise PositionError("action_tokens.hands", f"must list {pos.players} seats")
    mix = dict(zip(TOKEN_KINDS, pos.rules.action_token_mix))
    total = sum(len(h) for h in pos.hands) + len(pos.pile)
    if total != sum(mix.values()):
        raise PositionError("action_tokens", f"the game has {sum(mix.values())} tokens "
                            f"(hands and pile), got {total}")
    seen = Counter(k for h in pos.hands for k in h if k != UNSEEN)
    seen += Counter(k for k in pos.pile if k != UNSEEN)
    for kind, count in seen.items():
        if count > mix[kind]:
            raise PositionError("action_tokens", f"{count} {kind} tokens but the game has "
                                f"{mix[kind]}")
    if UNSEEN in pos.hands[pos.to_move]:
        raise PositionError(f"action_tokens.hands[{pos.to_move}]", "the player to move "
                            "knows their own tokens")


def _roll(pos: Position) -> None:
    """A roll drawn (§18): readable, and written as labels write it."""
    if pos.roll is None:
        return
    try:
        n, sym = read_roll(pos.roll, bool(pos.mummy_tokens))
    except ValueError as exc:
        raise PositionError("roll", str(exc)) from None
    if roll_text(n, sym) != pos.roll:
        raise PositionError("roll", f"write it as {roll_text(n, sym)!r}, got {pos.roll!r}")
    if over(pos):
        raise PositionError("roll", "the game is over: no roll is drawn")


def _turn(pos: Position) -> None:
    """A turn under way (§18): E4 only; its fresh tokens in the mover's hand, its pawns
    the mover's, each swapped or moved at most once."""
    turn = pos.turn
    if turn is None:
        return
    if not pos.has("e4"):
        raise PositionError("turn", "a turn under way needs expansion e4 (§18)")
    hand = Counter(pos.hands[pos.to_move])
    for kind, count in Counter(turn.fresh).items():
        if kind == UNSEEN or count > hand[kind]:
            raise PositionError("turn.fresh", f"the mover holds {hand[kind]} {kind} "
                                f"token(s), fewer than the {count} gained this turn")
    marked: Counter = Counter()
    for key, words in (("swapped", turn.swapped), ("moved", turn.moved)):
        for w in words:
            index, hats = read_pawn_word(w, f"turn.{key}")
            marked[index, hats] += 1
            if index >= len(pos.track) - 1 or \
                    pos.pawn_hats(pos.to_move, index).count(hats) < marked[index, hats]:
                raise PositionError(f"turn.{key}", f"the mover has no such pawn off "
                                    f"FINISH (not swapped or moved yet) as {w!r}")
