"""Whole games of Camel Up Cards on one state vector (docs/games/camel-up-cards.md §2-§8).

The state ``st`` (int64, ``STATE_SIZE``) starts with the track (``track.TRACK_SIZE``), then
the game fields at the offsets below, this leg's race deck in drawing order, the leader
cards left per colour, each midfield card's holder (-1 available) and one block of
``PB`` fields per seat. The simulator knows everything; what a player may use is up to the
policy (``policy``), which reads only the board, the public cards and its own.

A turn is (bet, race action, bet) with at most one bet (§4). Codes: race actions
``RACE_REVEAL``, ``RACE_HAND``, ``FOX_BASE + space``, ``PALM_BASE + space``; bets
``BET_LEADER + colour``, ``BET_MIDFIELD + colour``, ``BET_WINNER + colour``,
``BET_LOSER + colour``; ``NO_BET`` (-1).
"""

import numpy as np
from ..arrays import copy_into
from ..jit import njit

from ..rng import below
from .leg import ALL_CARDS
from .track import (
    FOX, FOX_HOLDER, N_CAMELS, PALM, PALM_HOLDER, TRACK_SIZE, card_colour,
    card_value, extend, figure_space_ok, move, new_track, ranking, sandstorm,
)

MAX_PLAYERS = 6
MAX_DEALT = 12
START_MONEY = 3
SETUP_REVEALS = 5  # cards revealed to place the camels (§2 step 6)
LEADER_VALUES = np.array([5, 3, 2, 2], dtype=np.int64)  # top first
FINAL_PAY = np.array([7, 3, -1, -1, -1], dtype=np.int64)  # a final card, by place (§8)
LAST_SPACE = np.array([0, 0, 15, 16, 17, 18, 19], dtype=np.int64)  # by players (§2)
# dealt, discarded, into the deck by players (§2; 3-5 players inferred: rule parameters)
SETUP = np.array([[0, 0, 0], [0, 0, 0], [12, 5, 6], [10, 5, 3], [7, 3, 2], [6, 3, 1],
                  [5, 2, 1]], dtype=np.int64)

NO_BET = -1
BET_LEADER = 0
BET_MIDFIELD = 5
BET_WINNER = 10
BET_LOSER = 15
N_BETS = 20
RACE_REVEAL = 0
RACE_HAND = 1
FOX_BASE = 2
PALM_BASE = 66
N_RACE = 130

G = TRACK_SIZE
N_PLAYERS = G
TO_MOVE = G + 1
PHASE = G + 2  # unused between turns: a turn is applied whole
LEG = G + 3
STATUS = G + 4  # 0 running, 1 over
DECK_SIZE = G + 5
DRAWN = G + 6
TURNS = G + 7
DEALT = G + 8
DISCARDED = G + 9
INTO_DECK = G + 10
BLUE = G + 11  # cards each player reveals into the deck: 1 with 3+ players, else 0
DECK = G + 16
LEADER_LEFT = DECK + 32
MID_HOLDER = LEADER_LEFT + N_CAMELS
PLAYER = MID_HOLDER + N_CAMELS
# per seat
MONEY = 0
HAND = 1  # card type held, -1 none
PLAYED = 2  # card type played from the hand this leg, -1 none
WINNER = 3
LOSER = 4
AGE = 5  # 0 = youngest
LEAD_SUM = 6  # per colour: values of the leader cards held
LEAD_N = LEAD_SUM + N_CAMELS  # per colour: leader cards held
CARDS = LEAD_N + N_CAMELS  # the cards dealt this leg: discarded, into the deck, blue, hand
PB = CARDS + MAX_DEALT
STATE_SIZE = PLAYER + MAX_PLAYERS * PB


@njit(cache=True, inline="always")
def seat(p, field):
    return PLAYER + p * PB + field


@njit(cache=True)
def leg_setup(st, s):
    """§3: leader and midfield cards back, a fresh deal, each player's discards, deck
    cards, blue card and kept card (uniform choices: the cards are dealt shuffled and
    taken in order), the race deck shuffled, the sandstorm check, the start player."""
    n = st[N_PLAYERS]
    for c in range(N_CAMELS):
        st[LEADER_LEFT + c] = 4
        st[MID_HOLDER + c] = -1
    cards = ALL_CARDS.copy()
    for i in range(cards.shape[0] - 1, 0, -1):
        k = below(s, i + 1)
        cards[i], cards[k] = cards[k], cards[i]
    dealt = st[DEALT]
    put = st[INTO_DECK] + st[BLUE]
    size = 0
    for p in range(n):
        for i in range(dealt):
            st[seat(p, CARDS + i)] = cards[p * dealt + i]
        for i in range(MAX_DEALT - dealt):
            st[seat(p, CARDS + dealt + i)] = -1
        first = st[DISCARDED]
        for i in range(put):
            st[DECK + size] = st[seat(p, CARDS + first + i)]
            size += 1
        st[seat(p, HAND)] = st[seat(p, CARDS + dealt - 1)]
        st[seat(p, PLAYED)] = -1
        for c in range(N_CAMELS):
            st[seat(p, LEAD_SUM + c)] = 0
            st[seat(p, LEAD_N + c)] = 0
    for i in range(size - 1, 0, -1):
        k = below(s, i + 1)
        st[DECK + i], st[DECK + k] = st[DECK + k], st[DECK + i]
    st[DECK_SIZE] = size
    st[DRAWN] = 0
    sandstorm(st)
    best = 0
    for p in range(1, n):
        m, mb = st[seat(p, MONEY)], st[seat(best, MONEY)]
        if m < mb or (m == mb and st[seat(p, AGE)] < st[seat(best, AGE)]):
            best = p
    st[TO_MOVE] = best


@njit(cache=True)
def new_game(n, s, ages, setup, last):
    """A game of ``n`` players at the start of leg 1 (§2): camels lined up W G O B Y and
    placed by 5 revealed cards, 3 EP each, no final cards. ``ages[p]`` is seat p's rank
    by age (0 youngest), ``setup`` = (dealt, discarded, into the deck), ``last`` = L."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    copy_into(st[:TRACK_SIZE], new_track(last, np.arange(N_CAMELS)))
    st[N_PLAYERS] = n
    st[LEG] = 1
    st[DEALT] = setup[0]
    st[DISCARDED] = setup[1]
    st[INTO_DECK] = setup[2]
    st[BLUE] = 1 if n >= 3 else 0
    cards = ALL_CARDS.copy()
    for i in range(SETUP_REVEALS):
        k = i + below(s, cards.shape[0] - i)
        cards[i], cards[k] = cards[k], cards[i]
        move(st, card_colour(cards[i]), card_value(cards[i]))
    for p in range(n):
        st[seat(p, MONEY)] = START_MONEY
        st[seat(p, WINNER)] = -1
        st[seat(p, LOSER)] = -1
        st[seat(p, AGE)] = ages[p]
    leg_setup(st, s)
    return st


@njit(cache=True)
def bet_ok(st, p, b):
    """True if seat ``p`` may take bet ``b`` (§4 D, E)."""
    c = b % N_CAMELS
    if b < BET_MIDFIELD:
        return st[LEADER_LEFT + c] > 0
    if b < BET_WINNER:
        return st[MID_HOLDER + c] == -1
    field = WINNER if b < BET_LOSER else LOSER
    for o in range(st[N_PLAYERS]):
        if st[seat(o, field)] == c:
            return False
    return True


@njit(cache=True)
def race_ok(st, p, r):
    """True if seat ``p`` may take race action ``r`` (§4 A-C)."""
    if r == RACE_REVEAL:
        return st[DRAWN] < st[DECK_SIZE]
    if r == RACE_HAND:
        return st[seat(p, HAND)] >= 0
    if r < PALM_BASE:
        return st[FOX] == 0 and figure_space_ok(st, r - FOX_BASE)
    return st[PALM] == 0 and figure_space_ok(st, r - PALM_BASE)


@njit(cache=True)
def apply_bet(st, p, b):
    """Seat ``p`` takes bet ``b`` (legal); a second winner or loser card returns the
    first (C-AMB-10)."""
    c = b % N_CAMELS
    if b < BET_MIDFIELD:
        st[LEADER_LEFT + c] -= 1
        st[seat(p, LEAD_SUM + c)] += LEADER_VALUES[3 - st[LEADER_LEFT + c]]
        st[seat(p, LEAD_N + c)] += 1
    elif b < BET_WINNER:
        st[MID_HOLDER + c] = p
    elif b < BET_LOSER:
        st[seat(p, WINNER)] = c
    else:
        st[seat(p, LOSER)] = c


@njit(cache=True)
def apply_race(st, p, r):
    """Seat ``p`` takes race action ``r`` (legal). Returns (ended, card): ``ended`` 0 the
    leg goes on, 1 the deck is empty (the leg ends), 2 the race ended; ``card`` the card
    revealed or played (-1 for a figure)."""
    if r >= FOX_BASE:
        if r < PALM_BASE:
            st[FOX] = r - FOX_BASE
            st[FOX_HOLDER] = p
        else:
            st[PALM] = r - PALM_BASE
            st[PALM_HOLDER] = p
        return 0, -1
    if r == RACE_HAND:
        card = st[seat(p, HAND)]
        st[seat(p, HAND)] = -1
        st[seat(p, PLAYED)] = card
        return (2 if move(st, card_colour(card), 1) else 0), card
    card = st[DECK + st[DRAWN]]
    st[DRAWN] += 1
    if move(st, card_colour(card), card_value(card)):
        return 2, card
    return (1 if st[DRAWN] == st[DECK_SIZE] else 0), card


@njit(cache=True)
def leg_net(st, p, order):
    """Seat ``p``'s leg payout for the ranking ``order`` (§7 step 3)."""
    net = 0
    for c in range(N_CAMELS):
        k = st[seat(p, LEAD_N + c)]
        if k == 0:
            continue
        if order[0] == c:
            net += st[seat(p, LEAD_SUM + c)]
        elif order[1] == c:
            net += k
        else:
            net -= k
    for place in range(N_CAMELS):
        if st[MID_HOLDER + order[place]] == p:
            net += 2 if place == 2 else (1 if place == 1 or place == 3 else -1)
    if st[FOX] != 0 and st[FOX_HOLDER] == p:
        net -= 1
    if st[PALM] != 0 and st[PALM_HOLDER] == p:
        net -= 1
    return net


@njit(cache=True)
def leg_gain_table(st, p, orders, out):
    """``out[rank, fox_on, palm_on]``: seat ``p``'s money change by this leg's payout
    (§7 steps 3-4, the 1 EP floor included) for every ranking (``orders[rank]``: the
    camels 1st to 5th) and whether each figure is still on the track."""
    s = st.copy()
    money = st[seat(p, MONEY)]
    for r in range(orders.shape[0]):
        for f in range(2):
            s[FOX] = st[FOX] if f else 0
            for q in range(2):
                s[PALM] = st[PALM] if q else 0
                out[r, f, q] = max(1, money + leg_net(s, p, orders[r])) - money


@njit(cache=True)
def final_net(st, p, order):
    """Seat ``p``'s final payout (§8 step 3): ``FINAL_PAY`` by the place of its winner
    card's camel, and by the place from last of its loser card's camel."""
    net = 0
    w = st[seat(p, WINNER)]
    lo = st[seat(p, LOSER)]
    for place in range(N_CAMELS):
        if order[place] == w:
            net += FINAL_PAY[place]
        if order[place] == lo:
            net += FINAL_PAY[N_CAMELS - 1 - place]
    return net


@njit(cache=True)
def settle(st, s, race_over):
    """The end of a leg (§7) or of the race (§8): payouts with the 1 EP floor, then the
    clean-up, the extension and the next leg's setup, or the game's end."""
    order = np.empty(N_CAMELS, dtype=np.int64)
    ranking(st, order)
    n = st[N_PLAYERS]
    for p in range(n):
        st[seat(p, MONEY)] = max(1, st[seat(p, MONEY)] + leg_net(st, p, order))
    if race_over:
        for p in range(n):
            st[seat(p, MONEY)] = max(1, st[seat(p, MONEY)] + final_net(st, p, order))
        st[STATUS] = 1
        return
    st[FOX] = 0
    st[PALM] = 0
    st[FOX_HOLDER] = -1
    st[PALM_HOLDER] = -1
    for p in range(n):
        st[seat(p, HAND)] = -1
    extend(st)
    st[LEG] += 1
    leg_setup(st, s)


@njit(cache=True)
def play_turn(st, s, bet1, race, bet2):
    """Seat to move takes the turn (bet1, race, bet2) (legal; at most one bet), then the
    leg or race is settled if it ended, else the next seat moves. Returns (ended, card)
    as ``apply_race``."""
    p = st[TO_MOVE]
    if bet1 != NO_BET:
        apply_bet(st, p, bet1)
    ended, card = apply_race(st, p, race)
    if ended == 0 and bet2 != NO_BET:
        apply_bet(st, p, bet2)
    st[TURNS] += 1
    if ended:
        settle(st, s, ended == 2)
    else:
        st[TO_MOVE] = (p + 1) % st[N_PLAYERS]
    return ended, card


@njit(cache=True)
def winners(st, out):
    """Mark in ``out[p]`` the seats with the most money (ties share the victory, §8.4);
    returns how many."""
    n = st[N_PLAYERS]
    best = 0
    for p in range(n):
        best = max(best, st[seat(p, MONEY)])
    k = 0
    for p in range(n):
        out[p] = 1 if st[seat(p, MONEY)] == best else 0
        k += out[p]
    return k


