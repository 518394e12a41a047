"""Deliberately naive reference for complete Five Tribes turns, for tests only.

Written from ``docs/games/five-tribes.md`` §2, §6-§15 and §20 and the project's turn
decisions, *not* from the compiled kernel, so that the two can be compared. Everything is
enumerated by brute force on plain Python lists, copied freely at every branch, in the order
of §15 (§20.4):

1. the mover's marker leaves the turn order track for the end of the bid order track;
2. djinn powers before the sowing (any sequence of distinct usable powers, §20.4);
3. every full sowing sequence of :func:`naive_five_tribes.sowings` (or none), with tile
   control of the final tile;
4. the tribe action (Builders: every fakir count, with or without Echidna; Assassins: every
   (fakir count, victim), with or without Iblis);
5. the final tile's action (palm or palace, redirected or not by Lamia or Hagis; market
   picks, djinn + payment, or skip);
6. djinn powers after the tile action;
7. every subset of the goods' layers sold.

Each combination of choices has a label (§19.1, §20.5). A combination whose next step is a
draw with more than one outcome ends there, with ``then best``: its value is the exact
expectation over the draw of the best continuation (§20.6).

``complete_turns(pos, rules)`` maps the result key of each distinct result (the
:func:`position_key` of the resulting position; for a draw, the draw's outcomes and the step
they resume at) to the mover's score delta (naive final scoring, as if the game ended after
this turn; exact fractions for draws) and the number of combinations that reach it.
``turn_rows(pos, rules)`` gives the same rows by label, each labelled by its first
combination. The default rules, ``Rules()``, play every power (as the kernel does);
``NO_POWERS`` plays none. ``result_positions(pos)`` gives the deterministic
results as Positions; their ``to_move`` is the next marker's owner (unchanged, with phase
"turns", after the round's last marker, so such results do not pass ``validate``).
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import naive_five_tribes as NS
import naive_five_tribes_djinns as ND
from naive_five_tribes_djinns import NO_POWERS, Choice, Kill, Outcomes, Rules, Turn
from naive_five_tribes_state import (B, COLOURS, FIRST_ZERO, G, GOODS, N_TILES, PALACES,
                                     PALMS, SUIT_VALUE, W, Y, State, blue_around, claim,
                                     discard_fakirs, distance, mover_score, position_key,
                                     take_card, tile_name, tile_type)
from oddsbot.analyser.five_tribes.position import Position

__all__ = ["NO_POWERS", "Rules", "complete_turns", "position_key", "result_positions",
           "turn_rows", "combinations_of"]

THEN_BEST = "then best"


# ------------------------------------------------------------------------ turn steps

def move_marker(s: State) -> int:
    """Step 1: the first marker on the turn order track goes to the bid order track's end."""
    i = next(i for i, p in enumerate(s.turn_track) if p is not None)
    mover = s.turn_track[i]
    s.turn_track[i] = None
    if i >= FIRST_ZERO:
        zeros = [p for p in s.turn_track[FIRST_ZERO:] if p is not None]
        s.turn_track[FIRST_ZERO:] = zeros + [None] * (len(s.turn_track) - FIRST_ZERO
                                                      - len(zeros))
    s.bid_track.append(mover)
    return mover


def sow(t: Turn, s: State) -> Iterator[Choice]:
    """Step 3 (§7, §8): every full sowing sequence, the pick-up and tile control."""
    end_rule = {"live": NS.LIVE, "premove": NS.PREMOVE}[t.pos.end_rule]
    found = sorted(NS.sowings(np.array(s.meeples, dtype=np.int64).reshape(N_TILES, 5),
                              end_rule))  # §20.4: tile index order, then colours YWBGR
    assert len(found) == len(set(found))
    if not found:
        yield Choice("no sowing", s)
    for start, path, colours in found:
        n = s.copy()
        n.meeples[start] = (0,) * 5
        for u, c in zip(path, colours):
            ND.drop(t, n, u, c)
        final, colour = path[-1], colours[-1]
        k = n.meeples[final][colour]
        assert k >= 2
        n.add(final, colour, -k)
        camel = f", camel {tile_name(final)}" if claim(n, t.mover, final) else ""
        n.sown = (final, colour, k)
        steps = ">".join(f"{tile_name(u)}:{COLOURS[c]}" for u, c in zip(path, colours))
        yield Choice(f"{tile_name(start)}>{steps}; take {k}{COLOURS[colour]}{camel}", n)


def _fakirs(f: int) -> str:
    return f" (+{f} fakir{'s' * (f != 1)})" if f else ""


def tribe_action(t: Turn, s: State) -> Iterator[Choice]:
    """Step 4 (§9, §20.2): every choice of the tribe action."""
    if s.sown is None:
        yield Choice(None, s)
        return
    final, colour, k = s.sown
    if colour in (Y, W):
        n = s.copy()
        n.players[t.mover]["viziers" if colour == Y else "elders"] += k
        yield Choice(None, n)
    elif colour == G:
        n = s.copy()
        for _ in range(min(k, len(n.resources))):
            take_card(n, t.mover, 0)
        yield Choice(None, n)
    elif colour == B:
        yield from builders(t, s, final, k)
    else:
        yield from assassins(t, s, final, k)


def builders(t: Turn, s: State, final: int, k: int) -> Iterator[Choice]:
    """Every Fakir count f: ``(k + f) x b`` GC, doubled with Echidna (§9, §20.2)."""
    b = blue_around(t.pos, final)
    for f in range(s.players[t.mover]["fakirs"] + 1):
        spent = s.copy()
        discard_fakirs(spent, t.mover, f)
        n = spent.copy()
        n.players[t.mover]["gold"] += (k + f) * b
        yield Choice(f"builders{_fakirs(f)}" if f else None, n)
        for head, n in ND.paid(t, spent, "Echidna"):
            n.players[t.mover]["gold"] += 2 * (k + f) * b
            yield Choice(f"{head}: builders{_fakirs(f)}", n)


def assassins(t: Turn, s: State, final: int, k: int) -> Iterator[Choice]:
    """Every (Fakir count, victim), then every (Fakir count, Iblis payment, two victims);
    no kill where allowed (§9, §14.3, §20.2)."""
    opponents = [q for q in range(len(s.players)) if q != t.mover and not s.has(q, "Boaz")]
    held = [(q, what) for q in opponents for what in ("vizier", "elder")
            if s.players[q][what + "s"] > 0]

    def in_reach(reach: int) -> list[int]:
        return [u for u in range(N_TILES) if any(s.meeples[u]) and distance(u, final) <= reach]

    for f in range(s.players[t.mover]["fakirs"] + 1):
        spent = s.copy()
        discard_fakirs(spent, t.mover, f)
        for u in in_reach(k + f):
            for c in range(5):
                if s.meeples[u][c]:
                    yield _killed(t, spent, Kill(board=[(u, c)]), "", f)
        for victim in held:
            yield _killed(t, spent, Kill(held=[victim]), "", f)
        for head, n in ND.paid(t, spent, "Iblis"):
            for u in in_reach(k + f):
                for two in ND.pairs_on(n, u):
                    yield _killed(t, n, Kill(board=two), f"{head}: ", f)
            for q in opponents:
                for two in ND.held_pairs(n, q):
                    yield _killed(t, n, Kill(held=two), f"{head}: ", f)
    if t.pos.assassin_optional or (not in_reach(k) and not held):
        yield Choice("no kill", s.copy())


def _killed(t: Turn, s: State, victims: Kill, head: str, f: int) -> Choice:
    n, merchants, claimed = ND.kill(t, s, victims)
    camel = f", camel {tile_name(victims.board[0][0])}" if claimed else ""
    label = f"{head}kill {victims.words()}{_fakirs(f)}{camel}"
    if merchants:
        return Choice(label, draw=ND.draw_cards(n, t.mover, merchants))
    return Choice(label, n)


def tile_action(t: Turn, s: State) -> Iterator[Choice]:
    """Step 5 (§10, §20.2): every choice of the final tile's action."""
    if s.sown is None:
        yield Choice(None, s)
        return
    final = s.sown[0]
    kind = tile_type(t.pos, final)
    me = s.players[t.mover]
    if kind in ("oasis", "village"):
        what, supply = ("palm", PALMS) if kind == "oasis" else ("palace", PALACES)
        if sum(s.palms if what == "palm" else s.palaces) >= supply:
            yield Choice(f"no {what} left", s)
            return
        for more, n in ND.place(t, s, final, what):
            yield Choice(f"{what}{more}", n)
        return
    yield Choice(f"skip {kind}", s)
    if kind == "small-market" and me["gold"] >= 3:
        for i in range(min(3, len(s.resources))):
            n = s.copy()
            n.players[t.mover]["gold"] -= 3
            take_card(n, t.mover, i)
            yield Choice(f"buy {s.resources[i]}@{i + 1}", n)
    elif kind == "large-market" and me["gold"] >= 6:
        if len(s.resources) == 1:
            n = s.copy()
            n.players[t.mover]["gold"] -= 6
            take_card(n, t.mover, 0)
            yield Choice(f"buy {s.resources[0]}@1", n)
        for i, j in combinations(range(min(6, len(s.resources))), 2):
            n = s.copy()
            n.players[t.mover]["gold"] -= 6
            take_card(n, t.mover, j)  # the later one first: i's position is unchanged
            take_card(n, t.mover, i)
            yield Choice(f"buy {s.resources[i]}@{i + 1}+{s.resources[j]}@{j + 1}", n)
    elif kind == "sacred-place":
        for d, djinn in enumerate(s.djinns):
            payments = []
            if me["elders"] >= 2:
                payments.append(("2 elders", 2, 0))
            if me["elders"] >= 1 and me["fakirs"] >= 1:
                payments.append(("elder+fakir", 1, 1))
            for word, elders, fakirs in payments:
                n = s.copy()
                n.players[t.mover]["elders"] -= elders
                discard_fakirs(n, t.mover, fakirs)
                ND.acquire(t, n, n.djinns.pop(d))
                yield Choice(f"djinn {ND.ascii_name(djinn)} ({word})", n)


def sales(t: Turn, s: State) -> Iterator[Choice]:
    """Step 7 (§12): one choice per subset of the goods' layers (empty subset = no sale)."""
    goods = s.players[t.mover]["goods"]
    layers = [[g for g in range(len(GOODS)) if goods[g] >= i]
              for i in range(1, max(goods) + 1)]
    for size in range(len(layers) + 1):
        for chosen in combinations(range(len(layers)), size):
            n = s.copy()
            for i in chosen:
                for g in layers[i]:
                    n.players[t.mover]["goods"][g] -= 1
                    n.discard[g] += 1
                n.players[t.mover]["gold"] += SUIT_VALUE[len(layers[i])]
            sold = "+".join(str(i + 1) for i in chosen)
            yield Choice(f"sell suit{'s' * (size > 1)} {sold}" if chosen else None, n)


STEPS: tuple[Callable[[Turn, State], Iterator[Choice]], ...] = (
    ND.window, sow, tribe_action, tile_action, ND.window, sales)


# ------------------------------------------------------------------------ whole turns

@dataclass(frozen=True)
class Draw:
    """A combination that ends in a draw: its outcomes and the step they resume at."""

    step: int
    outcomes: Outcomes

    def key(self) -> tuple:
        return ("draw", self.step, frozenset((s.turn_key(), p) for p, s in self.outcomes))


Leaf = State | Draw


def _play(t: Turn, s: State, step: int, words: tuple[str, ...]
          ) -> Iterator[tuple[tuple[str, ...], Leaf]]:
    """``(label parts, leaf)`` of every combination of choices from ``step`` on."""
    if step == len(STEPS):
        yield words, s
        return
    for choice in STEPS[step](t, s):
        nxt = step if choice.stay else step + 1
        said = words + (choice.label,) if choice.label else words
        if choice.draw is not None and len(choice.draw) > 1:
            yield said + (THEN_BEST,), Draw(nxt, choice.draw)
        else:
            after = choice.state if choice.draw is None else choice.draw[0][1]
            yield from _play(t, after, nxt, said)


class _Valuer:
    """The mover's score delta by part of any leaf: a state's, or a draw's expectation of
    the best continuation (most total, ties to the largest parts in PARTS order, §20.6)."""

    def __init__(self, t: Turn) -> None:
        self.t = t
        self.tile_vp = [cell.vp for _, _, cell in t.pos.cells()]
        self.before = mover_score(self.tile_vp, State.of(t.pos), t.mover)
        self.scores: dict[tuple, tuple[int, ...]] = {}  # the score ignores meeples and cards
        self.best: dict[tuple, tuple] = {}

    def __call__(self, leaf: Leaf) -> tuple:
        if isinstance(leaf, Draw):
            total = [Fraction(0)] * len(self.before)
            for p, s in leaf.outcomes:
                total = [a + p * b for a, b in zip(total, self.continuation(s, leaf.step))]
            return tuple(total)
        scored = (leaf.players_key(), tuple(leaf.owner), tuple(leaf.palms), tuple(leaf.palaces))
        if scored not in self.scores:
            after = mover_score(self.tile_vp, leaf, self.t.mover)
            self.scores[scored] = tuple(a - b for a, b in zip(after, self.before))
        return self.scores[scored]

    def continuation(self, s: State, step: int) -> tuple:
        key = (step, s.turn_key())
        if key not in self.best:
            values = (self(leaf) for _, leaf in _play(self.t, s, step, ()))
            self.best[key] = max(values, key=lambda v: (v[-1], *v[:-1]))
        return self.best[key]


def _start(pos: Position, rules: Rules) -> tuple[Turn, State]:
    assert pos.phase == "turns", pos.phase
    s = State.of(pos)
    mover = move_marker(s)
    assert mover == pos.to_move, (mover, pos.to_move)
    return Turn(pos, mover, rules), s


def _combinations(pos: Position, rules: Rules) -> Iterator[tuple[str, Leaf, Turn]]:
    """``(label, leaf, turn)`` of every combination, in §15 order."""
    t, s = _start(pos, rules)
    for words, leaf in _play(t, s, 0, ()):
        yield "; ".join(words), leaf, t


def _rows(pos: Position, rules: Rules) -> dict[tuple, list]:
    """``result key -> [first label, delta by part, count]``."""
    out: dict[tuple, list] = {}
    value = None
    with _no_gc():
        for label, leaf, t in _combinations(pos, rules):
            value = value or _Valuer(t)
            key = leaf.key()
            if key in out:
                out[key][2] += 1
            else:
                out[key] = [label, value(leaf), 1]
    return out


def complete_turns(pos: Position, rules: Rules = Rules()
                   ) -> dict[tuple, tuple[tuple, int]]:
    """``result key -> (mover's score delta by part, count)`` over every complete turn."""
    return {key: (delta, n) for key, (_, delta, n) in _rows(pos, rules).items()}


def turn_rows(pos: Position, rules: Rules = Rules()) -> dict[str, tuple[tuple, int]]:
    """``label -> (mover's score delta by part, count)``: the rows of
    :func:`complete_turns`, each labelled by its first combination in §15 order."""
    return {label: (delta, n) for label, delta, n in _rows(pos, rules).values()}


def combinations_of(pos: Position, rules: Rules = Rules()) -> list[tuple[str, tuple]]:
    """``(label, result key)`` of every combination in §15 order: every label is distinct,
    and combinations with equal keys are one row of :func:`complete_turns`."""
    with _no_gc():
        return [(label, leaf.key()) for label, leaf, _ in _combinations(pos, rules)]


@contextmanager
def _no_gc() -> Iterator[None]:
    """Collection passes over tens of thousands of live keys cost more than the turn."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def result_positions(pos: Position, rules: Rules = Rules()) -> list[Position]:
    """Each distinct deterministic result of :func:`complete_turns` as a Position (first
    found first)."""
    seen: dict[tuple, Position] = {}
    with _no_gc():
        for _, leaf, _ in _combinations(pos, rules):
            if isinstance(leaf, State) and leaf.key() not in seen:
                seen[leaf.key()] = leaf.to_position(pos)
    return list(seen.values())
