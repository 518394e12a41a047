"""Deliberately naive reference for the djinn powers of Five Tribes, for tests only.

Written from ``docs/games/five-tribes.md`` §11, §14 and §20, *not* from the kernel: the
payments, the powers used before the sowing and after the tile action (the "windows"), the
palm and palace placements with Lamia and Hagis, the passive incomes (Ba'al, Marid,
Monkir, Nekir), Kandicha's spoils, the draws (Anun-Nak, Sibittis, Sloar, Kandicha) as exact
distributions, and the bids with Kumarbi. The turn itself is driven by
``naive_five_tribes_turns``, which calls into this module at each step.

A draw is a list of ``(probability, state)``: every card, djinn or meeple is drawn one at a
time, uniformly from what the deck or bag holds (a deck that is empty when a card is due is
first refilled with its discard pile, §20.6), and outcomes leaving equal states are merged.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction

from naive_five_tribes_state import (BID_COSTS, CARDS, COLOURS, DJINNS, FIRST_ZERO, PALACES,
                                     PALMS, B, G, State, W, Y, around, blue_around, claim,
                                     discard_fakirs, gain_card, tile_name, tile_type)
from oddsbot.analyser.five_tribes.position import Position

Outcomes = list[tuple[Fraction, State]]

COST = {  # §11: the paid powers
    "Anun-Nak": "E|F", "Bouraq": "E|F", "Echidna": "E+(E|F)", "Enki": "E|F", "Hagis": "E|F",
    "Iblis": "E|F", "Kumarbi": "F+", "Lamia": "E|F", "Leta": "E+(E|F)",
    "Sibittis": "E+(E|F)", "Sloar": "F", "Utug": "E+(E|F)",
}
PAYMENTS = {  # (label word, elders, fakirs), in enumeration order (§20.4)
    "E|F": (("elder", 1, 0), ("fakir", 0, 1)),
    "E+(E|F)": (("2 elders", 2, 0), ("elder+fakir", 1, 1)),
    "F": (("fakir", 0, 1),),
}
WINDOW = ("Anun-Nak", "Bouraq", "Enki", "Leta", "Sibittis", "Sloar", "Utug")  # §20.4


@dataclass(frozen=True)
class Rules:
    """How the reference plays djinns. ``powers=False`` is the game without any power
    (VP, end scoring and Boaz only): what the kernel plays today. The switches of §20.3:
    ``neighbours`` for Hagis and Lamia (8 or 4), ``nekir_per_meeple``; ``used``: djinns
    whose power the mover has already used before this turn (the 2-player per-round limit;
    positions do not carry it, default none)."""

    powers: bool = True
    neighbours: int = 8
    nekir_per_meeple: bool = False
    used: frozenset[str] = frozenset()


NO_POWERS = Rules(powers=False)


@dataclass
class Turn:
    """What a turn's steps share: the position it starts from, the mover, the rules."""

    pos: Position
    mover: int
    rules: Rules


@dataclass
class Choice:
    """One choice of a step: its words (None: nothing to say), and the state after it, or
    the outcomes of a draw it makes. ``stay``: the step offers further choices after this
    one (a window of djinn powers)."""

    label: str | None
    state: State | None = None
    draw: Outcomes | None = None
    stay: bool = False


def ascii_name(djinn: str) -> str:
    """A djinn's name in labels: ASCII, without the apostrophe (``Baal``)."""
    return djinn.replace("'", "")


# ------------------------------------------------------------------------ payments

def payments(t: Turn, s: State, djinn: str) -> list[tuple[str, int, int]]:
    """The ways the mover can pay ``djinn``'s power now; none if the powers are off, the
    djinn is not held or its power was used this turn."""
    me = s.players[t.mover]
    if (not t.rules.powers or djinn not in me["djinns"] or djinn in s.used
            or djinn in t.rules.used):
        return []
    return [(word, e, f) for word, e, f in PAYMENTS[COST[djinn]]
            if me["elders"] >= e and me["fakirs"] >= f]


def pay(t: Turn, s: State, djinn: str, elders: int, fakirs: int) -> None:
    """Elders back to the bag, Fakirs to the discard, the power marked used (§11)."""
    s.players[t.mover]["elders"] -= elders
    discard_fakirs(s, t.mover, fakirs)
    s.used = s.used | {djinn}


def paid(t: Turn, s: State, djinn: str) -> Iterator[tuple[str, State]]:
    """``(djinn <Name> (<payment>), state after paying)`` for every payment (§20.5)."""
    for word, e, f in payments(t, s, djinn):
        n = s.copy()
        pay(t, n, djinn, e, f)
        yield f"djinn {ascii_name(djinn)} ({word})", n


# ------------------------------------------------------------------------ passive income

def income(t: Turn, s: State, djinn: str, times: int = 1) -> None:
    """Ba'al, Marid, Monkir, Nekir (§20.2): their holder gains 1 GC per event caused by
    the mover if the holder is the mover, 2 GC if an opponent."""
    holder = s.holder(djinn) if t.rules.powers else None
    if holder is not None:
        s.players[holder]["gold"] += times * (1 if holder == t.mover else 2)


def acquire(t: Turn, s: State, djinn: str) -> None:
    """The mover takes ``djinn``; Ba'al pays, except for its own acquisition."""
    s.players[t.mover]["djinns"].append(djinn)
    if djinn != "Ba'al":
        income(t, s, "Ba'al")


def drop(t: Turn, s: State, tile: int, colour: int) -> None:
    """One meeple of a sowing dropped on ``tile``; Marid pays if its holder owns it."""
    s.add(tile, colour, 1)
    if t.rules.powers and s.owner[tile] is not None and s.owner[tile] == s.holder("Marid"):
        income(t, s, "Marid")


# ------------------------------------------------------------------------ draws

def _merged(outcomes: Outcomes) -> Outcomes:
    """Outcomes leaving equal states merged (probabilities added), first seen first."""
    out: dict[tuple, list] = {}
    for p, s in outcomes:
        key = s.turn_key()
        if key in out:
            out[key][0] += p
        else:
            out[key] = [p, s]
    return [(p, s) for p, s in out.values()]


def _one_of(counts: list[int]) -> list[tuple[Fraction, int]]:
    """Each index drawn with probability proportional to its count."""
    total = sum(counts)
    return [(Fraction(n, total), i) for i, n in enumerate(counts) if n]


def draw_cards(s: State, mover: int, n: int) -> Outcomes:
    """The mover draws ``n`` resource cards one by one (§20.6)."""
    out: Outcomes = [(Fraction(1), s)]
    for _ in range(n):
        nxt: Outcomes = []
        for p, st in out:
            st = st.copy()
            if not any(st.resource_deck()):
                st.discard = [0] * len(CARDS)  # reshuffled into the deck
            deck = st.resource_deck()
            if not any(deck):
                nxt.append((p, st))  # nothing left to draw
                continue
            for q, kind in _one_of(deck):
                d = st.copy()
                gain_card(d, mover, CARDS[kind])
                nxt.append((p * q, d))
        out = _merged(nxt)
    return out


def cards_left(s: State) -> int:
    return sum(s.resource_deck()) + sum(s.discard)


def draw_djinns(s: State, n: int) -> Outcomes:
    """``n`` djinns drawn one by one into ``State.drawn`` (Sibittis, §20.6)."""
    out: Outcomes = [(Fraction(1), s)]
    for _ in range(n):
        nxt: Outcomes = []
        for p, st in out:
            st = st.copy()
            if not st.djinn_deck():
                st.djinn_discard = ()  # reshuffled into the deck
            deck = st.djinn_deck()
            for q, i in _one_of([1] * len(deck)):
                d = st.copy()
                d.drawn = tuple(sorted((*d.drawn, deck[i]), key=DJINNS.index))
                nxt.append((p * q, d))
            if not deck:
                nxt.append((p, st))
        out = _merged(nxt)
    return out


def djinns_left(s: State) -> int:
    return len(s.djinn_deck()) + len(s.djinn_discard)


def draw_meeples(s: State, tile: int, n: int) -> Outcomes:
    """``n`` meeples drawn one by one from the bag onto ``tile`` (Anun-Nak, §20.6)."""
    out: Outcomes = [(Fraction(1), s)]
    for _ in range(n):
        nxt: Outcomes = []
        for p, st in out:
            for q, colour in _one_of(list(st.bag())):
                d = st.copy()
                d.add(tile, colour, 1)
                nxt.append((p * q, d))
        out = _merged(nxt)
    return out


# ------------------------------------------------------------------------ placements

def place(t: Turn, s: State, tile: int, what: str) -> Iterator[tuple[str, State]]:
    """A palm or palace the mover puts on ``tile`` (the supply is checked by the caller):
    ``("", state)`` as intended, then ``(", djinn Lamia (<payment>) to <tile>", state)``
    (Hagis for a palace) for every payment and every neighbour of ``tile`` (§20.2)."""
    modifier = "Lamia" if what == "palm" else "Hagis"
    yield "", _put(t, s.copy(), tile, what)
    for head, n in paid(t, s, modifier):
        for u in around(tile, t.rules.neighbours):
            yield f", {head} to {tile_name(u)}", _put(t, n.copy(), u, what)


def _put(t: Turn, s: State, tile: int, what: str) -> State:
    if what == "palm":
        s.palms[tile] += 1
    else:
        s.palaces[tile] += 1
        income(t, s, "Monkir")
    return s


# ------------------------------------------------------------------------ windows

def window(t: Turn, s: State) -> Iterator[Choice]:
    """A window of powers (§20.4 items 2 and 6): stop here, or use one more power of
    :data:`WINDOW` (then the window stays open). Sibittis' draw is sorted first: the mover
    keeps one of the djinns drawn."""
    if s.drawn:
        for d in s.drawn:
            n = s.copy()
            n.drawn = ()
            n.djinn_discard = tuple(sorted((*n.djinn_discard, *(x for x in s.drawn if x != d)),
                                           key=DJINNS.index))
            acquire(t, n, d)
            yield Choice(f"keep {ascii_name(d)}", n, stay=True)
        return
    yield Choice(None, s)
    for djinn in WINDOW:
        for head, n in paid(t, s, djinn):
            yield from _USES[djinn](t, n, head)


def _empty_tiles(s: State) -> list[int]:
    """Tiles with no camel, meeple, palm or palace (Anun-Nak, Leta)."""
    return [u for u in range(len(s.meeples)) if s.owner[u] is None and not any(s.meeples[u])
            and not s.palms[u] and not s.palaces[u]]


def _anun_nak(t: Turn, s: State, head: str) -> Iterator[Choice]:
    n = min(3, sum(s.bag()))
    if n:
        for u in _empty_tiles(s):
            yield Choice(f"{head} meeples {tile_name(u)}", draw=draw_meeples(s, u, n), stay=True)


def _placing(what: str, kind: str, supply: int):
    def use(t: Turn, s: State, head: str) -> Iterator[Choice]:
        if sum(s.palms if what == "palm" else s.palaces) >= supply:
            return
        for u in range(len(s.meeples)):
            if tile_type(t.pos, u) == kind:
                for more, n in place(t, s, u, what):
                    yield Choice(f"{head} {what} {tile_name(u)}{more}", n, stay=True)
    return use


def _camel(targets):
    def use(t: Turn, s: State, head: str) -> Iterator[Choice]:
        if s.players[t.mover]["camels"] == 0:
            return
        for u in targets(s):
            n = s.copy()
            n.owner[u] = t.mover
            n.players[t.mover]["camels"] -= 1
            yield Choice(f"{head} camel {tile_name(u)}", n, stay=True)
    return use


def _utug_tiles(s: State) -> list[int]:
    """Unowned tiles with a meeple and no palm or palace (Utug)."""
    return [u for u in range(len(s.meeples)) if s.owner[u] is None and any(s.meeples[u])
            and not s.palms[u] and not s.palaces[u]]


def _sibittis(t: Turn, s: State, head: str) -> Iterator[Choice]:
    n = min(3, djinns_left(s))
    if n:
        yield Choice(f"{head} draws {n}", draw=draw_djinns(s, n), stay=True)


def _sloar(t: Turn, s: State, head: str) -> Iterator[Choice]:
    if cards_left(s):
        yield Choice(f"{head} draws a card", draw=draw_cards(s, t.mover, 1), stay=True)


_USES = {
    "Anun-Nak": _anun_nak,
    "Bouraq": _placing("palace", "village", PALACES),
    "Enki": _placing("palm", "oasis", PALMS),
    "Leta": _camel(_empty_tiles),
    "Sibittis": _sibittis,
    "Sloar": _sloar,
    "Utug": _camel(_utug_tiles),
}


# ------------------------------------------------------------------------ assassins

@dataclass
class Kill:
    """One kill action's victims: board meeples ``(tile, colour)`` (all on one tile) or
    held ``(seat, "vizier" | "elder")`` (all of one opponent)."""

    board: list[tuple[int, int]] = field(default_factory=list)
    held: list[tuple[int, str]] = field(default_factory=list)

    def words(self) -> str:
        if self.board:
            return ", ".join(f"{COLOURS[c]}@{tile_name(u)}" for u, c in self.board)
        return ", ".join(f"p{q}'s {what}" for q, what in self.held)


def kill(t: Turn, s: State, victims: Kill) -> tuple[State, int, bool]:
    """The victims die (§9, §20.2 Kandicha, Nekir); returns the state, the Merchants
    Kandicha draws a card for, and whether the emptied tile was claimed."""
    n = s.copy()
    kandicha = t.rules.powers and n.has(t.mover, "Kandicha")
    me = n.players[t.mover]
    merchants = 0
    for u, c in victims.board:
        n.add(u, c, -1)
        if kandicha and c in (Y, W):
            me["viziers" if c == Y else "elders"] += 1
        elif kandicha and c == B:
            me["gold"] += blue_around(t.pos, u)
        elif kandicha and c == G:
            merchants += 1
    for q, what in victims.held:
        n.players[q][what + "s"] -= 1
        if kandicha:
            me[what + "s"] += 1
    claimed = bool(victims.board) and claim(n, t.mover, victims.board[0][0])
    dead = len(victims.board) + len(victims.held)
    income(t, n, "Nekir", dead if t.rules.nekir_per_meeple else 1)
    return n, merchants, claimed


def pairs_on(s: State, tile: int) -> list[list[tuple[int, int]]]:
    """Every two meeples of ``tile`` (colours in YWBGR order), for Iblis."""
    have = s.meeples[tile]
    return [[(tile, a), (tile, b)] for a in range(5) for b in range(a, 5)
            if have[a] >= 1 + (a == b) and have[b] >= 1]


def held_pairs(s: State, q: int) -> list[list[tuple[int, str]]]:
    """Every two held Viziers/Elders of opponent ``q``, for Iblis."""
    p = s.players[q]
    out = []
    for a, b in (("vizier", "vizier"), ("vizier", "elder"), ("elder", "elder")):
        need_v = (a == "vizier") + (b == "vizier")
        if p["viziers"] >= need_v and p["elders"] >= 2 - need_v:
            out.append([(q, a), (q, b)])
    return out


# ------------------------------------------------------------------------ bidding

@dataclass(frozen=True)
class Bid:
    """One legal bid of the marker at the front of the bid order track (§5, §20.7):
    the space (index into ``BID_COSTS``), the gold paid and the Fakirs discarded."""

    space: int
    gold: int
    fakirs: int


def bids(pos: Position, rules: Rules = Rules()) -> dict[str, Bid]:
    """Every legal bid, by label: ``bid 18`` ... ``bid 1``, ``bid 0``, and with Kumarbi
    ``bid 18 kumarbi 2`` (discard 2 Fakirs, pay the price 2 spaces cheaper: 8)."""
    assert pos.phase == "bidding" and pos.bid_track, (pos.phase, pos.bid_track)
    me = pos.players[pos.bid_track[0]]
    kumarbi = (rules.powers and "Kumarbi" in me.djinns and "Kumarbi" not in rules.used)
    out: dict[str, Bid] = {}
    for space in range(FIRST_ZERO):
        if pos.turn_track[space] is not None:
            continue
        if me.gold >= BID_COSTS[space]:
            out[f"bid {BID_COSTS[space]}"] = Bid(space, BID_COSTS[space], 0)
        for k in range(1, FIRST_ZERO - space + 1):
            if kumarbi and k <= me.fakirs and me.gold >= BID_COSTS[space + k]:
                out[f"bid {BID_COSTS[space]} kumarbi {k}"] = Bid(space, BID_COSTS[space + k], k)
    zeros = sum(p is not None for p in pos.turn_track[FIRST_ZERO:])
    if zeros < len(BID_COSTS) - FIRST_ZERO:
        out["bid 0"] = Bid(FIRST_ZERO, 0, 0)
    if not out:  # §14.7: the cheapest free space for all the gold
        space = max(i for i in range(FIRST_ZERO) if pos.turn_track[i] is None)
        out[f"bid {BID_COSTS[space]}"] = Bid(space, me.gold, 0)
    return out
