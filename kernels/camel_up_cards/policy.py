"""How simulated players choose a turn (docs/games/camel-up-cards.md §14).

A policy sees what its seat may know: the board, the public cards (revealed, played and
blue cards, everyone's bets and money) and its own cards. Neither policy reads the race
deck's order or another seat's cards. Both build their part of the race deck by uniform
choices (``game.leg_setup``), the model under which oddsbot reads hidden cards (§9).

- ``random``: no bet, a bet before or a bet after the race action, each a third of the
  time; the bet and the race action uniformly among the legal ones.
- ``heuristic``: bets on the camel in front: its leader card while it is worth 5 or 3
  (before revealing), else, from the second leg on, a winner card on the leader and a
  loser card on the last camel while it holds none; plays its hand card when it moves a
  camel it holds a leader card on that is not in front; otherwise reveals.
"""

import numpy as np
from ..jit import njit

from ..rng import below
from .game import (
    BET_LEADER, BET_LOSER, BET_WINNER, FOX_BASE, HAND, PALM_BASE, LEADER_LEFT, LEG,
    LEAD_N, LOSER, N_BETS, N_RACE, NO_BET, RACE_HAND, RACE_REVEAL, TO_MOVE, WINNER, bet_ok,
    seat,
)
from .track import FOX, MAX_L, N_CAMELS, PALM, card_colour, figure_spaces, ranking

POLICY_NAMES = ("heuristic", "random")
HEURISTIC = 0
RANDOM = 1


@njit(cache=True)
def _random_turn(st, s, p):
    race = np.empty(N_RACE, dtype=np.int64)
    race[0] = RACE_REVEAL
    k = 1
    if st[seat(p, HAND)] >= 0:
        race[k] = RACE_HAND
        k += 1
    spaces = np.empty(MAX_L, dtype=np.int64)
    n_spaces = figure_spaces(st, spaces)
    for figure, base in ((FOX, FOX_BASE), (PALM, PALM_BASE)):
        if st[figure] == 0:
            for i in range(n_spaces):
                race[k] = base + spaces[i]
                k += 1
    r = race[below(s, k)]
    bets = np.empty(N_BETS, dtype=np.int64)
    nb = 0
    for b in range(N_BETS):
        if bet_ok(st, p, b):
            bets[nb] = b
            nb += 1
    when = below(s, 3)
    if nb == 0 or when == 0:
        return NO_BET, r, NO_BET
    b = bets[below(s, nb)]
    return (b, r, NO_BET) if when == 1 else (NO_BET, r, b)


@njit(cache=True)
def _heuristic_turn(st, p):
    order = np.empty(N_CAMELS, dtype=np.int64)
    ranking(st, order)
    lead = order[0]
    bet = NO_BET
    if st[LEADER_LEFT + lead] >= 3:  # the 5 or the 3 is on top
        bet = BET_LEADER + lead
    elif st[LEG] >= 2 and st[seat(p, WINNER)] < 0 and bet_ok(st, p, BET_WINNER + lead):
        bet = BET_WINNER + lead
    elif st[LEG] >= 2 and st[seat(p, LOSER)] < 0 \
            and bet_ok(st, p, BET_LOSER + order[N_CAMELS - 1]):
        bet = BET_LOSER + order[N_CAMELS - 1]
    hand = st[seat(p, HAND)]
    if hand >= 0:
        c = card_colour(hand)
        if c != lead and st[seat(p, LEAD_N + c)] > 0:
            return bet, RACE_HAND, NO_BET
    return bet, RACE_REVEAL, NO_BET  # the deck is never empty on a turn (§7 step 1)


@njit(cache=True)
def choose(st, s, policy):
    """The turn (bet before, race action, bet after) the seat to move takes."""
    p = st[TO_MOVE]
    if policy == RANDOM:
        return _random_turn(st, s, p)
    return _heuristic_turn(st, p)
