"""Every invariant of docs/games/camel-up.md §3, each failure a PositionError naming the field and
reason."""

from __future__ import annotations

from collections import Counter

from ...errors import PositionError, quote
from .position import N_SPACES, Position


def _check_track(pos: Position) -> None:
    v = pos.rules
    seen: dict[str, int] = {}
    for s, stack in enumerate(pos.track, start=1):
        for camel in stack:
            if camel not in v.camels:
                raise PositionError(f"track[{s}]", f"{camel} is not a camel of {v.id}")
            if camel in seen:
                raise PositionError("track", f"camel {camel} appears twice (spaces "
                                             f"{seen[camel]} and {s})")
            seen[camel] = s
    for camel in v.camels:
        if camel not in seen:
            raise PositionError("track", f"camel {camel} is missing")


def _check_pyramid(pos: Position) -> None:
    v = pos.rules
    low = v.leg_left + 1
    if not low <= len(pos.pyramid) <= len(v.dice):
        raise PositionError("pyramid", f"{len(pos.pyramid)} dice inside; a decision point "
                                       f"has {low} to {len(v.dice)} (the leg ends with "
                                       f"{v.leg_left} left)")
    if sum(pos.pyramid_tickets) != pos.revealed:
        raise PositionError("pyramid_tickets", f"players hold {sum(pos.pyramid_tickets)} "
                                               f"pyramid tickets but {pos.revealed} dice "
                                               f"were revealed this leg")


def _check_tickets(pos: Position) -> None:
    v = pos.rules
    for p, held in enumerate(pos.leg_tickets):
        for c, value in held:
            if value not in v.tickets:
                raise PositionError(f"leg_tickets[{p}]", f"no {c} ticket is worth {value}")
    for c, stack in zip(v.colours, pos.ticket_stacks):
        held = sorted((val for h in pos.leg_tickets for col, val in h if col == c),
                      reverse=True)
        k = len(held)
        if held != list(v.tickets[:k]):
            raise PositionError("leg_tickets", f"{c} tickets held {held} are not the top "
                                               f"{k} of the stack {list(v.tickets)}")
        if list(stack) != list(v.tickets[k:]):
            raise PositionError(f"ticket_stacks.{c}", f"{list(stack)} left but players hold "
                                                      f"{held}; expected {list(v.tickets[k:])}")


def _check_tiles(pos: Position) -> None:
    owners = Counter(t.owner for t in pos.tiles)
    for i, t in enumerate(pos.tiles):
        f = f"tiles[{i}]"
        if t.owner >= pos.players:
            raise PositionError(f, f"owner {t.owner} is not a player (0..{pos.players - 1})")
        if owners[t.owner] > 1:
            raise PositionError(f, f"player {t.owner} has more than one tile")
        if not 2 <= t.space <= N_SPACES:
            raise PositionError(f, f"space {t.space}: tiles go on spaces 2..{N_SPACES}")
        if pos.stack(t.space):
            raise PositionError(f, f"space {t.space} holds camels; a tile's space is empty")
        for other in pos.tiles:
            if other is not t and abs(other.space - t.space) <= 1:
                where = "the same space" if other.space == t.space else f"space {other.space}"
                raise PositionError(f, f"space {t.space} is next to player {other.owner}'s "
                                       f"tile on {where}")


def _check_cards(pos: Position) -> None:
    v = pos.rules
    placed: dict[int, list[str | None]] = {}
    for deck_name, deck in (("winner_deck", pos.winner_deck), ("loser_deck", pos.loser_deck)):
        for i, card in enumerate(deck):
            if card.owner >= pos.players:
                raise PositionError(f"{deck_name}[{i}]", f"owner {card.owner} is not a player")
            if card.owner == pos.to_move and card.colour is None:
                raise PositionError(f"{deck_name}[{i}]", "the player to move knows their own "
                                                         "card: give its colour")
            mine = placed.setdefault(card.owner, [])
            if card.colour is not None and card.colour in mine:
                raise PositionError(f"{deck_name}[{i}]", f"player {card.owner} placed two "
                                                         f"{card.colour} cards")
            mine.append(card.colour)
    for p, cards in placed.items():
        if len(cards) > len(v.colours):
            raise PositionError("winner_deck", f"player {p} placed {len(cards)} cards; "
                                               f"they own {len(v.colours)}")
    for p, hand in enumerate(pos.finish_hand):
        if hand is None:
            if p == pos.to_move:
                raise PositionError(f"finish_hand[{p}]", "the player to move knows their hand")
            continue
        cards = placed.get(p, [])
        if len(hand) != len(v.colours) - len(cards) or len(set(hand)) != len(hand) or \
                set(hand) & {c for c in cards if c is not None}:
            raise PositionError(f"finish_hand[{p}]", f"{list(hand)} does not match the "
                                                     f"{len(cards)} cards placed")


def _check_players(pos: Position) -> None:
    v = pos.rules
    if not v.min_players <= pos.players <= v.max_players:
        raise PositionError("players", f"{v.id} is for {v.min_players}-{v.max_players} "
                                       f"players, got {pos.players}")
    for key in ("leg_tickets", "pyramid_tickets", "finish_hand", "money"):
        if len(getattr(pos, key)) != pos.players:
            raise PositionError(key, f"has {len(getattr(pos, key))} entries for "
                                     f"{pos.players} players")
    if not 0 <= pos.to_move < pos.players:
        raise PositionError("to_move", f"must be a seat 0..{pos.players - 1}")
    if not 0 <= pos.leg_start < pos.players:
        raise PositionError("leg_start", f"must be a seat 0..{pos.players - 1}")
    for p, m in enumerate(pos.money):
        if m < 0:
            raise PositionError(f"money[{p}]", "must be at least 0")
    if pos.status != "running":
        raise PositionError("status", f"only running positions can be analysed, got "
                                      f"{quote(pos.status)}")
    if pos.final_clamp not in ("card", "net"):
        raise PositionError("rules.final_clamp", "must be 'card' or 'net'")


def _check_partnership(pos: Position) -> None:
    part = pos.partnership
    if not (pos.rules.partnerships and pos.players >= 6):
        if part is not None and any(q is not None for q in part):
            raise PositionError("partnership", "partnerships exist only with 6-8 players "
                                               "in the 2nd edition")
        return
    if part is None or len(part) != pos.players:
        raise PositionError("partnership", f"needs {pos.players} entries")
    for p, q in enumerate(part):
        if q is None:
            continue
        if not 0 <= q < pos.players or q == p:
            raise PositionError(f"partnership[{p}]", f"{q} is not another player")
        if part[q] != p:
            raise PositionError(f"partnership[{p}]", f"player {p} is partnered with {q} "
                                                     f"but {q} is not partnered with {p}")


def _letters(pos: Position, dice: tuple[str, ...]) -> str:
    v = pos.rules
    return "".join(v.dice_letters[v.dice.index(d)] for d in dice) or "-"


def _check_leg_turns(pos: Position) -> None:
    """The turns since the leg began: as many as the seat to move is after the leg-start
    seat, plus whole rounds, and each turn was one action that left a trace (§13.4)."""
    n, low, high = pos.players, pos.fewest_turns, pos.most_turns
    since = (pos.to_move - pos.leg_start) % n
    turns = low + (since - low) % n  # the fewest turns the seats allow
    if high is None or turns <= high:
        return
    v = pos.rules
    typed = _letters(pos, pos.pyramid)
    seen = [_count(pos.revealed, "reveal"), _count(pos.tickets_taken, "ticket") + " taken"]
    seen += [_count(pos.pairs, "partnership")] if pos.pairs else []
    seen += [f"up to {_count(len(pos.winner_deck) + len(pos.loser_deck), 'finish card')} "
             f"placed"]
    had = f"exactly {_count(low, 'turn')}" if high == low else f"{low} to {high} turns"
    rolled = tuple(d for d in v.dice if d not in pos.pyramid)
    swap = f" ({_letters(pos, rolled)} if {typed} were rolled)" \
        if v.leg_left < len(rolled) < len(v.dice) else ""
    dice = "die" if pos.revealed == 1 else "dice"
    raise PositionError("pyramid", f"{typed} leaves {pos.revealed} {dice} revealed, so with "
                                   f"no tile on the track this leg had {had} "
                                   f"({', '.join(seen)}), but seat {pos.to_move} moving in a "
                                   f"leg begun by seat {pos.leg_start} (leg_start) "
                                   f"needs {since}, {since + n}, ... turns: write the dice "
                                   f"still in the pyramid{swap}, or the right start")


def _count(k: int, word: str) -> str:
    return f"{k} {word}" if k == 1 else f"{k} {word}s"


def validate(pos: Position) -> Position:
    """Check every invariant of docs/games/camel-up.md §3; return the position unchanged if it
    holds."""
    _check_players(pos)
    _check_track(pos)
    _check_pyramid(pos)
    _check_tickets(pos)
    _check_tiles(pos)
    _check_cards(pos)
    _check_partnership(pos)
    _check_leg_turns(pos)
    return pos
