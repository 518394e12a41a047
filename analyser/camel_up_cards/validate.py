"""Every invariant of a Camel Up Cards position (docs/games/camel-up-cards.md §6), each
failure a one-line PositionError ``field: reason``; fields are named as in the JSON form.

Checked: players, per-player lengths, seats and ages, phase, leg; the leg setup numbers
(§2); the track cards and L (§2, §5.4, §5.5); every camel exactly once; the fox and the
palm (§4 action A; passed figures have left, §5.1 step 5); the racing cards: blue cards
(§3 step 6), hand cards played and held, the viewer's own cards, and the 30-card
accounting including the revealed cards (§9); the camels on the start card against this
leg's cards (§13.4); the leg and final betting cards; money.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...errors import PositionError, quote
from .position import (CARD_TYPES, COLOURS, GAME, LEADER_VALUES, MAX_LAST, MAX_MONEY,
                       MAX_PLAYERS, MIN_PLAYERS, PHASES, Figure, Position, card_counts,
                       copies, is_card)

# per-seat fields of the Position -> their JSON names (docs/games/camel-up-cards.md §13.1)
PER_PLAYER = {"ages": "ages", "blue": "blue_cards", "hands": "hands", "leader": "leg_cards",
              "midfield": "leg_cards", "winner": "final_cards", "loser": "final_cards",
              "money": "money"}
_ORDINAL = {2: "2nd", 3: "3rd"}


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat(pos: Position, value: Any, field: str, what: str = "seat") -> None:
    if not _int(value) or not 0 <= value < pos.players:
        raise PositionError(field, f"{what} {quote(value)} is not a seat 0..{pos.players - 1}")


def _card(value: Any, field: str) -> None:
    if not is_card(value):
        raise PositionError(field, f"{quote(value)} is not a racing card (W1 .. Y2)")


def _colour(value: Any, field: str) -> None:
    if value not in COLOURS:
        raise PositionError(field, f"{quote(value)} is not a colour ({' '.join(COLOURS)})")


def _check_players(pos: Position) -> None:
    n = pos.players
    if pos.variant != GAME:
        raise PositionError("game", f"expected {GAME!r}, got {quote(pos.variant)}")
    if not _int(n) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise PositionError("players", f"{GAME} is for {MIN_PLAYERS}-{MAX_PLAYERS} players, "
                                       f"got {quote(n)}")
    for key, name in PER_PLAYER.items():
        if len(getattr(pos, key)) != n:
            raise PositionError(name, f"has {len(getattr(pos, key))} entries for {n} players")
    _seat(pos, pos.to_move, "to_move")
    _seat(pos, pos.viewer, "viewer")
    if sorted(pos.ages) != list(range(n)):
        raise PositionError("ages", f"{list(pos.ages)} is not an order of the seats "
                                    f"0..{n - 1} (youngest first)")
    if pos.phase not in PHASES:
        raise PositionError("phase", f"expected {', '.join(map(repr, PHASES))}, got "
                                     f"{quote(pos.phase)}")
    if not _int(pos.leg) or pos.leg < 1:
        raise PositionError("leg", f"must be a whole number at least 1, got {quote(pos.leg)}")
    for s, money in enumerate(pos.money):
        if not _int(money) or money < 1:
            raise PositionError(f"money[{s}]", f"must be at least 1 EP (nobody has less, "
                                               f"§7 step 4), got {quote(money)}")
        if money > MAX_MONEY:
            raise PositionError(f"money[{s}]", f"must be at most {MAX_MONEY}, got {money}")


def _check_setup(pos: Position) -> None:
    setup = pos.setup
    if len(setup) != 3 or not all(_int(x) and x >= 0 for x in setup):
        raise PositionError("setup", f"expected [dealt, discarded, into the deck], whole "
                                     f"numbers, got {quote(list(setup))}")
    dealt, discarded, into = setup
    blue = pos.blue_per_player
    kept = dealt - discarded - into - blue
    if kept != 1:
        reveal = f" - revealed {blue}" if blue else ""
        raise PositionError("setup", f"dealt {dealt} - discarded {discarded} - into the deck "
                                     f"{into}{reveal} leaves {kept} cards; every player "
                                     f"keeps exactly 1 (§2)")
    if pos.players * dealt > 30:
        raise PositionError("setup", f"{pos.players} players x {dealt} cards dealt = "
                                     f"{pos.players * dealt}, more than the 30 racing cards")
    if pos.deck_size < 1:
        raise PositionError("setup", "the race deck would be empty")


def _check_track(pos: Position) -> None:
    last = pos.last
    if not _int(last) or not 1 <= last <= MAX_LAST:
        raise PositionError("track.last", f"must be a space 1..{MAX_LAST}, got {quote(last)}")
    for i, size in enumerate(pos.cards):
        if size not in (1, 2) or not _int(size):
            raise PositionError(f"track.cards[{i}]", f"a track card holds 2 spaces, or 1 on its "
                                               f"sandstorm side; got {quote(size)}")
    spaces = sum(pos.cards)
    if spaces < last:
        raise PositionError("track.cards", f"the {len(pos.cards)} track cards hold {spaces} "
                                     f"spaces, fewer than L = {last}")
    if spaces > last + 1:
        raise PositionError("track.cards", f"the {len(pos.cards)} track cards hold {spaces} "
                                     f"spaces, more than L + 1 = {last + 1}: the finish card "
                                     f"covers at most the second half of the last card (§2)")
    if spaces == last + 1 and pos.cards[-1] != 2:
        raise PositionError("track.cards", "the last track card is a one-space sandstorm card "
                                     "lying wholly under the finish card")
    if len(pos.stacks) != last:
        raise PositionError("stacks", f"{len(pos.stacks)} spaces for L = {last}")


def _check_camels(pos: Position) -> None:
    seen: dict[str, str] = {}
    places = [("start_line", c) for c in pos.start_line]
    places += [(f"stacks.{s}", c) for s, stack in enumerate(pos.stacks, 1) for c in stack]
    for field, camel in places:
        _colour(camel, field)
        if camel in seen:
            where = "the start card" if seen[camel] == "start_line" else \
                f"space {seen[camel].split('.')[1]}"
            raise PositionError(field, f"camel {camel} appears twice (also on {where})")
        seen[camel] = field
    for camel in COLOURS:
        if camel not in seen:
            raise PositionError("stacks", f"camel {camel} is missing: every camel stands on "
                                          f"the start card or on a track space")


def _check_figures(pos: Position) -> None:
    rear = pos.last_camel
    behind = "the start card" if rear == 0 else f"space {rear}"
    figures = (("fox", pos.fox), ("palm", pos.palm))
    for name, fig in figures:
        if fig is None:
            continue
        if not isinstance(fig, Figure):
            raise PositionError(name, f"expected a Figure(space, holder) or None, got "
                                      f"{quote(fig)}")
        if not _int(fig.space) or not 1 <= fig.space <= pos.last:
            raise PositionError(name, f"space {quote(fig.space)} is not a track space "
                                      f"1..{pos.last}")
        _seat(pos, fig.holder, name + ".holder", "holder")
    if pos.fox is not None and pos.palm is not None and pos.fox.space == pos.palm.space:
        raise PositionError("palm", f"space {pos.palm.space} already holds the fox")
    for name, fig in figures:
        if fig is None:
            continue
        stack = pos.stack(fig.space)
        if stack:
            raise PositionError(name, f"space {fig.space} holds camels ({''.join(stack)}); "
                                      f"a figure stands on an empty space")
        if fig.space <= rear:
            raise PositionError(name, f"space {fig.space} is not ahead of the last camel (on "
                                      f"{behind}): a figure goes strictly ahead of it, and a "
                                      f"passed figure leaves the track (§5.1 step 5)")


def _check_hands(pos: Position) -> dict[int, int]:
    """Blue cards, hand cards played and held; returns seat -> index in ``played``."""
    n = pos.players
    for s, blue in enumerate(pos.blue):
        if n >= 3 and blue is None:
            raise PositionError(f"blue_cards[{s}]", "with 3 or more players every seat reveals one "
                                              "card into the deck at leg setup (§3 step 6): "
                                              "give it")
        if n < 3 and blue is not None:
            raise PositionError(f"blue_cards[{s}]", "with 2 players nobody reveals a card at leg "
                                              "setup (§3 step 6)")
        if blue is not None:
            _card(blue, f"blue_cards[{s}]")
    who: dict[int, int] = {}
    for i, entry in enumerate(pos.played):
        if not isinstance(entry, tuple) or len(entry) != 2:
            raise PositionError(f"played_hand_cards[{i}]", f"expected (seat, card), got {quote(entry)}")
        s, card = entry
        _seat(pos, s, f"played_hand_cards[{i}].player")
        _card(card, f"played_hand_cards[{i}].card")
        if s in who:
            raise PositionError(f"played_hand_cards[{i}]", f"seat {s} already played its hand card "
                                                f"(played_hand_cards[{who[s]}]); each seat holds one")
        who[s] = i
    for s, held in enumerate(pos.hands):
        if not isinstance(held, bool):
            raise PositionError(f"hands[{s}]", f"must be true or false, got {quote(held)}")
        if held and s in who:
            raise PositionError(f"hands[{s}]", f"seat {s} played its hand card "
                                               f"(played_hand_cards[{who[s]}]), so it holds none")
        if not held and s not in who:
            raise PositionError(f"hands[{s}]", f"seat {s} has not played its hand card this "
                                               f"leg, so it still holds it")
    v = pos.viewer
    if pos.own_hand is None and v not in who:
        raise PositionError("own_cards.hand", f"the viewer (seat {v}) has not played a hand card "
                                        f"this leg: give the card they hold")
    if pos.own_hand is not None:
        _card(pos.own_hand, "own_cards.hand")
        if v in who:
            raise PositionError("own_cards.hand", f"the viewer (seat {v}) played their hand card "
                                            f"(played_hand_cards[{who[v]}]), so they hold none: leave "
                                            f"the hand empty")
    return who


def _check_racing_cards(pos: Position) -> None:
    """The viewer's own cards and the 30-card accounting (§1, §9)."""
    for i, c in enumerate(pos.own_discarded):
        _card(c, f"own_cards.discarded[{i}]")
    for i, c in enumerate(pos.own_deck):
        _card(c, f"own_cards.deck[{i}]")
    for i, c in enumerate(pos.revealed):
        _card(c, f"revealed[{i}]")
    if len(pos.own_discarded) > pos.discarded:  # fewer: the rest are unknown (§9)
        raise PositionError("own_cards.discarded", f"{_cards(len(pos.own_discarded))}, but each "
                                             f"player discards {pos.discarded} (setup)")
    if len(pos.own_deck) != pos.into_deck:
        raise PositionError("own_cards.deck", f"{_cards(len(pos.own_deck))}, but each player puts "
                                        f"{pos.into_deck} into the race deck (setup)")
    # (a) every card seen, per type, within its copies
    seen: Counter = Counter()
    where: dict[str, list[str]] = {}
    sources = [(f"own_cards.discarded[{i}]", c) for i, c in enumerate(pos.own_discarded)]
    sources += [(f"own_cards.deck[{i}]", c) for i, c in enumerate(pos.own_deck)]
    sources += [("own_cards.hand", pos.own_hand)] if pos.own_hand is not None else []
    sources += [(f"blue_cards[{s}]", c) for s, c in enumerate(pos.blue) if c is not None]
    sources += [(f"played_hand_cards[{i}].card", c) for i, (_, c) in enumerate(pos.played)]
    for field, c in sources:
        seen[c] += 1
        if seen[c] > copies(c):
            nth = _ORDINAL.get(seen[c], f"{seen[c]}th")
            raise PositionError(field, f"a {nth} {c}, but the 30 racing cards hold only "
                                       f"{copies(c)} {c} (also in {', '.join(where[c])})")
        where.setdefault(c, []).append(field)
    # (b) the revealed cards: known deck cards first, the rest from the unknown part
    if len(pos.revealed) >= pos.deck_size:
        raise PositionError("revealed", f"{len(pos.revealed)} cards revealed, but the race "
                                        f"deck holds {pos.deck_size}: the leg ended when it "
                                        f"was emptied (§7 step 1)")
    revealed = Counter(pos.revealed)
    known = Counter(pos.own_deck) + card_counts(pos.blue)
    beyond = 0
    for t in CARD_TYPES:
        extra = revealed[t] - known[t]
        if extra <= 0:
            continue
        unseen = copies(t) - seen[t]
        if extra > unseen:
            raise PositionError("revealed", f"{revealed[t]} {t} revealed, more than the "
                                            f"{known[t]} known in the deck (own deck and "
                                            f"blue cards) and the {max(unseen, 0)} unseen")
        beyond += extra
    if beyond > pos.unknown_size:
        raise PositionError("revealed", f"{beyond} revealed cards are not the viewer's deck "
                                        f"cards or blue cards, but the opponents put only "
                                        f"{pos.unknown_size} cards into the deck")


def _check_bets(pos: Position) -> None:
    for s, held in enumerate(pos.leader):
        for entry in held:
            if not isinstance(entry, tuple) or len(entry) != 2:
                raise PositionError(f"leg_cards[{s}].leader", f"a leader card is (colour, value), got "
                                                    f"{quote(entry)}")
            _colour(entry[0], f"leg_cards[{s}].leader")
            if entry[1] not in LEADER_VALUES or not _int(entry[1]):
                raise PositionError(f"leg_cards[{s}].leader", f"a leader card is worth 5, 3 or 2, got "
                                                    f"{quote(entry[1])}")
    for c in COLOURS:
        left = Counter(LEADER_VALUES)
        holders: dict[int, int] = {}
        taken: list[int] = []
        for s, held in enumerate(pos.leader):
            for col, value in held:
                if col != c:
                    continue
                left[value] -= 1
                if left[value] < 0:
                    raise PositionError(f"leg_cards[{s}].leader", f"one {c}{value} leader card too "
                                                        f"many: each colour has leader cards "
                                                        f"5, 3, 2, 2")
                holders.setdefault(value, s)
                taken.append(value)
        for value, top in zip(sorted(taken, reverse=True), LEADER_VALUES):
            if value != top:
                raise PositionError(f"leg_cards[{holders[value]}].leader",
                                    f"{c}{value} is held but {c}{top}, above it in the stack "
                                    f"(5, 3, 2, 2), is not: the stack is taken top first")
    owner: dict[str, int] = {}
    for s, held in enumerate(pos.midfield):
        for c in held:
            _colour(c, f"leg_cards[{s}].midfield")
            if c in owner:
                who = "listed twice" if owner[c] == s else f"already held by seat {owner[c]}"
                raise PositionError(f"leg_cards[{s}].midfield", f"the {c} midfield card is {who}: "
                                                      f"there is one per colour")
            owner[c] = s
    for name in ("winner", "loser"):
        holder: dict[str, int] = {}
        for s, c in enumerate(getattr(pos, name)):
            if c is None:
                continue
            _colour(c, f"final_cards[{s}].{name}")
            if c in holder:
                raise PositionError(f"final_cards[{s}].{name}", f"the {c} {name} card is already held by "
                                                    f"seat {holder[c]}: there is one per colour")
            holder[c] = s


def _moved(pos: Position) -> dict[str, str]:
    """Camel -> the first card of this leg that moved it by its own colour, in words:
    ``W1 revealed`` or ``Y1 played from a hand``."""
    out: dict[str, str] = {}
    cards = [f"{c} revealed" for c in pos.revealed]
    cards += [f"{c} played from a hand" for _, c in pos.played]
    for words in cards:
        out.setdefault(words[0], words)
    return out


def _check_start_line(pos: Position) -> None:
    """A camel on the start card moved this leg only from it onto the fox on space 1,
    which sent it back to the end of the line-up (§5.1 step 4, C-AMB-8): never by a
    revealed "+2", and never ahead of a camel that has not moved (§13.4)."""
    moved = _moved(pos)
    for card in pos.revealed:
        if card[1] == "2" and card[0] in pos.start_line:
            raise PositionError("start_line", f"{card[0]} is on the start card, but {card} "
                                              f"was revealed this leg: a "
                                              f"camel that leaves the start card by 2 never "
                                              f"comes back to it (§5.1): move the camels "
                                              f"as the cards say")
    for i, camel in enumerate(pos.start_line):
        behind = [c for c in pos.start_line[i + 1:] if c not in moved]
        if camel in moved and behind:
            raise PositionError("start_line", f"{camel} is on the start card ahead of "
                                              f"{behind[0]}, but {camel} moved this leg "
                                              f"({moved[camel]}) and {behind[0]} did not: "
                                              f"a camel back on the start card joins the "
                                              f"end of the line-up (C-AMB-8): move the "
                                              f"camels as the cards say")


def validate(pos: Position) -> Position:
    """Check every invariant of docs/games/camel-up-cards.md §6 (module doc); return the
    position unchanged if they all hold."""
    _check_players(pos)
    _check_setup(pos)
    _check_track(pos)
    _check_camels(pos)
    _check_figures(pos)
    _check_hands(pos)
    _check_racing_cards(pos)
    _check_start_line(pos)
    _check_bets(pos)
    return pos
