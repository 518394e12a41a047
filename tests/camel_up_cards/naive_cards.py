"""Deliberately naive reference implementation of the Camel Up Cards (2016) rules, tests only.

Written from the rules as ``docs/games/camel-up-cards.md`` (section numbers §N and the
ambiguity ids C-AMB-n refer to that file), *not* from the numba kernel, so that the two can be
compared. Slow, readable and boring on purpose: plain dicts and lists, exact ``Fraction``
probabilities, ``itertools`` brute force.

Representation
--------------
* Camels ``'W' 'G' 'O' 'B' 'Y'`` (this order is also the colour index 0..4).
* A racing card is a string colour + value, e.g. ``'W1'`` or ``'W2'``; ``FULL_SET`` holds the 30.
* A board is a dict:

  - ``"L"``: last track space (the finish card is position L+1);
  - ``"cards"``: track-card sizes (2, or 1 for a sandstorm card) from the first card on,
    covering spaces 1..sum(cards); sum(cards) >= L (the last card may be half covered);
  - ``"stacks"``: ``{space: [camels bottom -> top]}`` for spaces 1..L (empty spaces omitted);
  - ``"start"``: camels on the start card in line-up order, FIRST = ranked ahead (C-AMB-2);
  - ``"fox"``, ``"palm"``: the figure's space, or None when it stands beside the track;
  - ``"finish"``: None, or the unit that reached the finish, bottom -> top.

Every function is pure: arguments are never modified, new boards are returned.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from itertools import combinations, permutations
from math import factorial

CAMELS = ["W", "G", "O", "B", "Y"]
FULL_SET = [c + "1" for c in CAMELS for _ in range(5)] + [c + "2" for c in CAMELS]
FIGURES = ["fox", "palm"]


# ---------------------------------------------------------------------------------------------
# helpers


def new_board(L: int, start: list[str] | None = None) -> dict:
    """A board with all camels on the start card (default line-up W G O B Y), no figures,
    and ceil(L/2) two-space cards (§2 step 2)."""
    return {"L": L, "cards": [2] * ((L + 1) // 2), "stacks": {},
            "start": list(CAMELS if start is None else start),
            "fox": None, "palm": None, "finish": None}


def copy_board(board: dict) -> dict:
    """A deep copy with the empty stacks dropped."""
    new = copy.deepcopy(board)
    new["stacks"] = {s: list(st) for s, st in new["stacks"].items() if st}
    return new


def tidy(board: dict) -> dict:
    """Drop empty stacks in place (used on our own copies only)."""
    board["stacks"] = {s: st for s, st in board["stacks"].items() if st}
    return board


def position(board: dict, camel: str) -> int:
    """0 on the start card, the space 1..L on the track, L+1 when in the finishing unit."""
    if board["finish"] and camel in board["finish"]:
        return board["L"] + 1
    if camel in board["start"]:
        return 0
    for space, stack in board["stacks"].items():
        if camel in stack:
            return space
    raise ValueError(f"camel {camel} is nowhere on the board")


def figure_at(board: dict, space: int) -> str | None:
    """'fox' or 'palm' if that figure stands on ``space``."""
    for fig in FIGURES:
        if board[fig] == space:
            return fig
    return None


def put_on_top(board: dict, space: int, unit: list[str]) -> None:
    board["stacks"][space] = board["stacks"].get(space, []) + list(unit)


def put_underneath(board: dict, space: int, unit: list[str]) -> None:
    board["stacks"][space] = list(unit) + board["stacks"].get(space, [])


def lift(board: dict, space: int, unit: list[str]) -> None:
    """Take the camels of ``unit`` off ``space`` (the rest keeps its order)."""
    board["stacks"][space] = [c for c in board["stacks"].get(space, []) if c not in unit]


# ---------------------------------------------------------------------------------------------
# §5.1 movement


def move(board: dict, camel: str, steps: int) -> dict:
    """Move ``camel`` (and the camels above it) ``steps`` spaces: docs §5.1 steps 1-5.

    Returns a new board; ``"finish"`` is set when a unit reached position L+1 or beyond.
    """
    if board["finish"]:
        raise ValueError("the race is over")
    b = copy_board(board)
    L = b["L"]
    here = position(b, camel)

    # step 1: camels on the start card never carry anyone
    if here == 0:
        unit = [camel]
        b["start"].remove(camel)
    else:
        stack = b["stacks"][here]
        h = stack.index(camel)
        unit = stack[h:]
        b["stacks"][here] = stack[:h]

    # step 2: finish?
    t = here + steps
    if t >= L + 1:
        b["finish"] = unit
        return tidy(b)

    # step 3: on top of the stack on t
    put_on_top(b, t, unit)

    # step 4: figures, each triggers at most once (chaining allowed, C-AMB-3)
    while figure_at(b, t) is not None:
        fig = figure_at(b, t)
        b[fig] = None                      # figure and its card go back beside the track
        lift(b, t, unit)
        if fig == "palm":
            t = t + 1
            if t >= L + 1:
                b["finish"] = unit
                return tidy(b)
            put_on_top(b, t, unit)
        else:
            t = t - 1
            if t == 0:
                # C-AMB-8: the unit joins the END of the line-up, higher camel ahead
                b["start"] = b["start"] + list(reversed(unit))
                break
            put_underneath(b, t, unit)

    # step 5: passed figures (every camel, start card = 0, strictly beyond the figure)
    for fig in FIGURES:
        s = b[fig]
        if s is not None and all(position(b, c) > s for c in CAMELS):
            b[fig] = None
    return tidy(b)


def unit_move_hand(board: dict, camel: str) -> dict:
    """Action C: a hand card moves its camel 1 space, also a "+2" (docs §4 C, C-AMB-16)."""
    return move(board, camel, 1)


# ---------------------------------------------------------------------------------------------
# §5.2 ranking and §4 A figure spaces


def ranking(board: dict) -> list[str]:
    """Camels 1st..5th (docs §5.2): finishing unit (top first), track camels by space then
    height (higher ahead), start-card camels in line-up order (C-AMB-2)."""
    order = list(reversed(board["finish"])) if board["finish"] else []
    for space in sorted(board["stacks"], reverse=True):
        order += list(reversed(board["stacks"][space]))
    order += list(board["start"])
    assert sorted(order) == sorted(CAMELS), order
    return order


def figure_spaces(board: dict) -> list[int]:
    """Legal spaces for placing the fox or the palm (docs §4 A, C-AMB-4): 1..L, no camel, no
    figure, strictly ahead of the last camel (any empty space if it is on the start card)."""
    if board["finish"]:
        return []
    last = min(position(board, c) for c in CAMELS)
    return [s for s in range(last + 1, board["L"] + 1)
            if not board["stacks"].get(s) and figure_at(board, s) is None]


# ---------------------------------------------------------------------------------------------
# §5.4 sandstorm and §5.5 extension


def card_of(board: dict, space: int) -> int:
    """Index (0-based) of the track card holding ``space``; -1 for the start card."""
    if space == 0:
        return -1
    first = 1
    for i, size in enumerate(board["cards"]):
        if first <= space < first + size:
            return i
        first += size
    raise ValueError(f"space {space} is not on a track card")


def sandstorm(board: dict) -> dict:
    """Leg-setup sandstorm check (docs §5.4, C-AMB-7): every two-space card strictly between
    the leader's card and the last camel's card with no camel on it becomes one space; later
    spaces (camels, L) shift down. Figures must be beside the track (leg setup)."""
    if board["finish"]:
        raise ValueError("the race is over")
    if board["fox"] is not None or board["palm"] is not None:
        raise ValueError("figures are beside the track at leg setup")
    order = ranking(board)
    lead_card = card_of(board, position(board, order[0]))
    last_card = card_of(board, position(board, order[-1]))
    occupied = {card_of(board, s) for s, st in board["stacks"].items() if st}
    turned = [i for i in range(last_card + 1, lead_card)
              if board["cards"][i] == 2 and i not in occupied]

    # the second space of each turned card disappears
    first_spaces = []
    first = 1
    for size in board["cards"]:
        first_spaces.append(first)
        first += size
    gone = [first_spaces[i] + 1 for i in turned]

    def shift(space: int) -> int:
        return space - sum(1 for g in gone if g < space)

    b = copy_board(board)
    b["cards"] = [1 if i in turned else size for i, size in enumerate(board["cards"])]
    b["stacks"] = {shift(s): list(st) for s, st in b["stacks"].items()}
    b["L"] = board["L"] - len(turned)
    return b


def extend(board: dict) -> dict:
    """End-of-leg track extension (docs §5.5): if L - leader < 3 then L = leader + 3,
    adding two-space cards while they do not cover L (C-AMB-12: unlimited)."""
    if board["finish"]:
        raise ValueError("the race is over")
    b = copy_board(board)
    leader = position(b, ranking(b)[0])
    if b["L"] - leader < 3:
        b["L"] = leader + 3
    while sum(b["cards"]) < b["L"]:
        b["cards"].append(2)
    return b


# ---------------------------------------------------------------------------------------------
# §7 leg payout and §8 final payout


def leg_net(ranking: list[str], leaders: list[tuple[str, int]], midfields: list[str],
            fox_card: bool, palm_card: bool) -> int:
    """One player's leg net (docs §7.3). ``fox_card``/``palm_card``: holds the card and the
    figure is still on the track."""
    net = 0
    for colour, value in leaders:
        place = ranking.index(colour)
        if place == 0:
            net += value
        elif place == 1:
            net += 1
        else:
            net -= 1
    for colour in midfields:
        place = ranking.index(colour)
        if place == 2:
            net += 2
        elif place in (1, 3):
            net += 1
        else:
            net -= 1
    if fox_card:
        net -= 1
    if palm_card:
        net -= 1
    return net


def final_net(ranking: list[str], winner: str | None, loser: str | None) -> int:
    """Final cards (docs §8.3): winner 1st +7, 2nd +3, else -1; loser 5th +7, 4th +3,
    else -1."""
    net = 0
    if winner is not None:
        place = ranking.index(winner)
        net += 7 if place == 0 else 3 if place == 1 else -1
    if loser is not None:
        place = ranking.index(loser)
        net += 7 if place == 4 else 3 if place == 3 else -1
    return net


def floor_money(money: int, net: int) -> int:
    """Nobody ever has less than 1 EP (docs §7.4)."""
    return max(1, money + net)


# ---------------------------------------------------------------------------------------------
# §9 chance and information


def deck_posterior(known: list[str], pool: list[str], n_unknown: int,
                   revealed: list[str]) -> dict[tuple[str, ...], Fraction]:
    """Posterior over the rest of the race deck (docs §9).

    Full deck = ``known`` + U, U a uniform ``n_unknown``-subset of the physical cards of
    ``pool``. Each U is weighted by the probability that a uniformly shuffled full deck starts
    with exactly ``revealed``; the result maps the remaining deck (sorted tuple) to its
    probability.
    """
    weights: dict[tuple[str, ...], Fraction] = {}
    total = Fraction(0)
    for chosen in combinations(range(len(pool)), n_unknown):
        deck = list(known) + [pool[i] for i in chosen]
        p = Fraction(1)
        left = list(deck)
        for card in revealed:
            if not left:
                p = Fraction(0)
                break
            p *= Fraction(left.count(card), len(left))
            if card in left:
                left.remove(card)
            if p == 0:
                break
        if p == 0:
            continue
        key = tuple(sorted(left))
        weights[key] = weights.get(key, Fraction(0)) + p
        total += p
    if total == 0:
        raise ValueError("the revealed cards are impossible for this deck model")
    return {key: w / total for key, w in weights.items()}


def leg_distribution(board: dict, remaining: list[str]) -> dict[tuple, Fraction]:
    """Distribution of the end of the leg when ``remaining`` is shuffled uniformly and drawn
    to the end (no figures placed, no hand cards played), or until the race ends.

    Key: ``(tuple(ranking), race_ended, fox_on_track, palm_on_track)``. Every permutation of
    the physical cards is one equally likely order.
    """
    dist: dict[tuple, Fraction] = {}
    p = Fraction(1, factorial(len(remaining)))
    for order in permutations(remaining):
        b = board
        for card in order:
            if b["finish"]:
                break
            b = move(b, card[0], int(card[1:]))
        key = (tuple(ranking(b)), bool(b["finish"]),
               b["fox"] is not None, b["palm"] is not None)
        dist[key] = dist.get(key, Fraction(0)) + p
    return dist


def leg_distribution_posterior(board: dict, known: list[str], pool: list[str],
                               n_unknown: int, revealed: list[str]) -> dict[tuple, Fraction]:
    """``leg_distribution`` mixed over ``deck_posterior``: ``board`` is the position after
    the ``revealed`` cards, the rest of the deck is unknown (docs §9)."""
    dist: dict[tuple, Fraction] = {}
    for deck, p_deck in deck_posterior(known, pool, n_unknown, revealed).items():
        for key, p in leg_distribution(board, list(deck)).items():
            dist[key] = dist.get(key, Fraction(0)) + p_deck * p
    return dist
