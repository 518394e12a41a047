"""The whole Camel Up game on one int64 state vector: actions, leg and final scoring.

The state starts with a track (see ``track``) and holds everything else of docs/games/camel-up.md
§3 at the offsets below; the rules parameters of the edition live in the state too, so one
compiled function serves both editions.
"""

import numpy as np
from ..jit import njit

from ..rng import high_below, next_u64
from .race import _draw_die
from .track import (
    ABSENT, BLACK, CNT, CROSSED_CCW, CROSSED_CW, GREY, HT, N_CAMELS, N_DICE, N_RACING,
    N_SPACES, SP, WHITE, camel_at_place, die_count, place_of, roll,
)

MAX_PLAYERS = 8

# whole-game state layout
TILE = 32  # 17 entries indexed by space: 0 none, +1 cheer, -1 boo
TOWNER = 49  # 17 entries: owner of the tile on that space, -1 none
PYR = 66  # 6 entries: 1 if the die is still in the pyramid
TSTACK = 72  # 5 entries: betting tickets left in each colour's stack
LT_COUNT = 77  # 8 x 5: betting tickets held per player and colour
LT_VALUE = 117  # 8 x 5: sum of their printed values
PTIX = 157  # 8: pyramid tickets per player
MONEY = 165  # 8
PARTNER = 173  # 8: partner's seat, -1 if available
HAND = 181  # 8: bit mask of finish-card colours still in hand
WDECK = 189  # 40 cards, placement order: owner * 8 + colour
LDECK = 229  # 40
WLEN = 269
LLEN = 270
TO_MOVE = 271
LEG_START = 272
N_PLAYERS = 273
STATUS = 274  # 0 running, 1 over
# rules parameters (docs/games/camel-up.md Appendix A for the 1st edition)
R_CRAZY = 275  # 1 if the crazy camels and grey die are used
R_LEG_LEFT = 276  # dice left in the pyramid when a leg ends (1, or 0 in 2014)
R_TICKETS = 277  # 4 slots: ticket values top first (0 = no such ticket)
R_NTICKETS = 281  # tickets per colour
R_FINAL_NET = 282  # 1: final scoring clamped on the net per player (AMB-8 option)
R_PARTNERS = 283  # 1 if partnership cards are in play (6-8 players, 2nd edition)
LT_MAX = 284  # 8 x 5: highest single ticket value held per player and colour
STATE_SIZE = 324

FINAL_PAYOUT = np.array([8, 5, 3, 2, 1], dtype=np.int64)  # then 1 each

# action codes
A_TICKET = 0  # + colour
A_PYRAMID = 5
A_SPECTATOR = 6  # + (space - 2) * 2 + (0 cheer, 1 boo)
A_WINNER = 36  # + colour
A_LOSER = 41  # + colour
A_PARTNER = 46  # + seat
N_ACTIONS = 54


@njit(cache=True)
def new_state(n_players, crazy, leg_left, tickets, partners, final_net):
    """An empty state: fresh leg, 3 EP each, every card in hand, no camel placed."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    for c in range(N_CAMELS):
        st[SP + c] = ABSENT
    for s in range(N_SPACES + 1):
        st[TOWNER + s] = -1
    n_tickets = 0
    for i in range(4):
        st[R_TICKETS + i] = tickets[i] if i < len(tickets) else 0
        if i < len(tickets) and tickets[i] > 0:
            n_tickets += 1
    st[R_NTICKETS] = n_tickets
    st[R_CRAZY] = crazy
    st[R_LEG_LEFT] = leg_left
    st[R_PARTNERS] = partners
    st[R_FINAL_NET] = final_net
    st[N_PLAYERS] = n_players
    for c in range(N_RACING):
        st[TSTACK + c] = n_tickets
    for d in range(N_DICE):
        st[PYR + d] = 1 if (d < GREY or crazy) else 0
    for p in range(MAX_PLAYERS):
        st[PARTNER + p] = -1
        if p < n_players:
            st[MONEY + p] = 3
            st[HAND + p] = (1 << N_RACING) - 1
    return st


@njit(cache=True)
def place_camel(st, camel, space):
    """Put ``camel`` on top of ``space`` (setup and position encoding)."""
    st[SP + camel] = space
    st[HT + camel] = st[CNT + space]
    st[CNT + space] += 1


@njit(cache=True)
def setup_camels(st, s):
    """Random start (§2 steps 5-6, AMB-9): racing camels on 1..3 by a die each, stacked
    in random order; crazy camels on 16/15/14 by a grey die, second on top."""
    dice = np.empty(N_RACING, dtype=np.int64)
    for c in range(N_RACING):
        dice[c] = high_below(next_u64(s), 3) + 1
    order = np.arange(N_RACING)
    for i in range(N_RACING - 1, 0, -1):  # uniform stacking order (Fisher-Yates)
        j = high_below(next_u64(s), i + 1)
        tmp = order[i]
        order[i] = order[j]
        order[j] = tmp
    for i in range(N_RACING):
        place_camel(st, order[i], dice[order[i]])
    if st[R_CRAZY]:
        first = WHITE + high_below(next_u64(s), 2)
        for camel in (first, WHITE + BLACK - first):
            place_camel(st, camel, 17 - (high_below(next_u64(s), 3) + 1))


@njit(cache=True)
def pyramid_mask(st):
    m = 0
    for d in range(N_DICE):
        if st[PYR + d]:
            m |= 1 << d
    return m


@njit(cache=True)
def full_mask(st):
    return (1 << N_DICE) - 1 if st[R_CRAZY] else (1 << N_RACING) - 1


@njit(cache=True)
def own_tile(st, p):
    """Space of player ``p``'s spectator tile, 0 if it is not on the track."""
    for s in range(2, N_SPACES + 1):
        if st[TOWNER + s] == p:
            return s
    return 0


@njit(cache=True)
def spectator_legal(st, p, s):
    """Action 2 target check (§4, AMB-5): empty of camels and tiles, not space 1, not
    next to another player's tile, and a different space from the player's own tile."""
    if s < 2 or s > N_SPACES or st[CNT + s] != 0 or st[TILE + s] != 0:
        return False
    for n in (s - 1, s + 1):
        if 1 <= n <= N_SPACES and st[TILE + n] != 0 and st[TOWNER + n] != p:
            return False
    return True


@njit(cache=True)
def legal_actions(st):
    """Legal action codes of the player to move, ascending."""
    out = np.empty(N_ACTIONS, dtype=np.int64)
    n = 0
    if st[STATUS] != 0:
        return out[:0]
    p = st[TO_MOVE]
    for c in range(N_RACING):
        if st[TSTACK + c] > 0:
            out[n] = A_TICKET + c
            n += 1
    out[n] = A_PYRAMID
    n += 1
    for s in range(2, N_SPACES + 1):
        if spectator_legal(st, p, s):
            out[n] = A_SPECTATOR + (s - 2) * 2
            out[n + 1] = A_SPECTATOR + (s - 2) * 2 + 1
            n += 2
    for c in range(N_RACING):
        if (st[HAND + p] >> c) & 1:
            out[n] = A_WINNER + c
            n += 1
    for c in range(N_RACING):
        if (st[HAND + p] >> c) & 1:
            out[n] = A_LOSER + c
            n += 1
    if st[R_PARTNERS] and st[PARTNER + p] < 0:
        for q in range(st[N_PLAYERS]):
            if q != p and st[PARTNER + q] < 0:
                out[n] = A_PARTNER + q
                n += 1
    return out[:n]


@njit(cache=True)
def ticket_reward(st, p):
    """Net betting-ticket and pyramid-ticket result of player ``p`` for the current
    ranking, and the best single reward among their tickets (what a partner may copy)."""
    net = st[PTIX + p]
    best = 1 if st[PTIX + p] > 0 else -(1 << 30)
    for c in range(N_RACING):
        k = st[LT_COUNT + p * N_RACING + c]
        if k == 0:
            continue
        place = place_of(st, c)
        if place == 0:
            net += st[LT_VALUE + p * N_RACING + c]
            best = max(best, st[LT_MAX + p * N_RACING + c])
        elif place == 1:
            net += k
            best = max(best, 1)
        else:
            net -= k
            best = max(best, -1)
    return net, best


@njit(cache=True)
def score_leg(st):
    """Leg scoring (§7.2 steps 2-5, §7.3), then clean-up for the next leg. A player's new
    money depends on their own and their partner's tickets only, so players are settled
    one after the other in place."""
    n = st[N_PLAYERS]
    for p in range(n):
        net = ticket_reward(st, p)[0]
        q = st[PARTNER + p]
        bonus = max(0, ticket_reward(st, q)[1]) if q >= 0 else 0
        st[MONEY + p] = max(0, st[MONEY + p] + net + bonus)
    for p in range(n):
        st[PTIX + p] = 0
        st[PARTNER + p] = -1
        for c in range(N_RACING):
            st[LT_COUNT + p * N_RACING + c] = 0
            st[LT_VALUE + p * N_RACING + c] = 0
            st[LT_MAX + p * N_RACING + c] = 0
    for c in range(N_RACING):
        st[TSTACK + c] = st[R_NTICKETS]
    for s in range(N_SPACES + 1):
        st[TILE + s] = 0
        st[TOWNER + s] = -1
    for d in range(N_DICE):
        st[PYR + d] = 1 if (d < GREY or st[R_CRAZY]) else 0


@njit(cache=True)
def _deck_amount(st, deck, i, target, paid):
    """(payment of card ``i`` of a deck whose target colour is ``target``, correct cards
    paid so far after it): 8, 5, 3, 2, 1, 1, ... for correct cards, -1 otherwise."""
    if st[deck + i] % 8 == target:
        return (FINAL_PAYOUT[paid] if paid < len(FINAL_PAYOUT) else 1), paid + 1
    return -1, paid


@njit(cache=True)
def score_final(st):
    """Final scoring (§8): winner deck then loser deck in placement order, card by card
    with each payment clamped at 0 EP (AMB-8), or on the net per player if R_FINAL_NET."""
    winner = camel_at_place(st, 0)
    loser = camel_at_place(st, N_RACING - 1)
    decks = ((WDECK, WLEN, winner), (LDECK, LLEN, loser))
    if st[R_FINAL_NET]:
        for p in range(st[N_PLAYERS]):
            delta = 0
            for deck, length, target in decks:
                paid = np.int64(0)
                for i in range(st[length]):
                    amount, paid = _deck_amount(st, deck, i, target, paid)
                    if st[deck + i] // 8 == p:
                        delta += amount
            st[MONEY + p] = max(0, st[MONEY + p] + delta)
    else:
        for deck, length, target in decks:
            paid = np.int64(0)
            for i in range(st[length]):
                amount, paid = _deck_amount(st, deck, i, target, paid)
                owner = st[deck + i] // 8
                st[MONEY + owner] = max(0, st[MONEY + owner] + amount)


@njit(cache=True)
def take_ticket(st, p, c):
    """Action 1: the top ticket of colour ``c`` goes to player ``p``."""
    k = st[TSTACK + c]
    value = st[R_TICKETS + st[R_NTICKETS] - k]
    st[TSTACK + c] = k - 1
    st[LT_COUNT + p * N_RACING + c] += 1
    st[LT_VALUE + p * N_RACING + c] += value
    st[LT_MAX + p * N_RACING + c] = max(st[LT_MAX + p * N_RACING + c], value)


@njit(cache=True)
def place_tile(st, p, s, side):
    """Action 2: player ``p``'s tile (lifted first if on the track) on space ``s``."""
    old = own_tile(st, p)
    if old:
        st[TILE + old] = 0
        st[TOWNER + old] = -1
    st[TILE + s] = side
    st[TOWNER + s] = p


@njit(cache=True)
def reveal(st, die, face):
    """Action 3 for the player to move, with the chance outcome (die, face) given:
    pyramid ticket, movement, tile income, and leg or game end (§4, §5, §7, §8)."""
    p = st[TO_MOVE]
    st[PTIX + p] += 1
    st[PYR + die] = 0
    mover, landed = roll(st, st[TILE:TILE + N_SPACES + 1], die, face)
    if landed:
        st[MONEY + st[TOWNER + landed]] += 1
    sp = st[SP + mover]
    if sp == CROSSED_CW or sp == CROSSED_CCW:
        score_leg(st)
        score_final(st)
        st[STATUS] = 1
        return
    if die_count(pyramid_mask(st)) == st[R_LEG_LEFT]:
        score_leg(st)
        st[LEG_START] = (p + 1) % st[N_PLAYERS]


@njit(cache=True)
def apply_action(st, action, die, face):
    """Play ``action`` for the player to move and pass the turn; ``die``/``face`` are the
    chance outcome used only by the pyramid action. The action must be legal."""
    p = st[TO_MOVE]
    if action < A_PYRAMID:
        take_ticket(st, p, action - A_TICKET)
    elif action == A_PYRAMID:
        reveal(st, die, face)
    elif action < A_WINNER:
        k = action - A_SPECTATOR
        place_tile(st, p, k // 2 + 2, 1 if k % 2 == 0 else -1)
    elif action < A_PARTNER:
        loser = action >= A_LOSER
        c = action - (A_LOSER if loser else A_WINNER)
        deck = LDECK if loser else WDECK
        length = LLEN if loser else WLEN
        st[deck + st[length]] = p * 8 + c
        st[length] += 1
        st[HAND + p] &= ~(1 << c)
    else:
        q = action - A_PARTNER
        st[PARTNER + p] = q
        st[PARTNER + q] = p
    if st[STATUS] == 0:
        st[TO_MOVE] = (p + 1) % st[N_PLAYERS]


@njit(cache=True)
def draw_reveal(st, s):
    """Chance: a die uniformly from the pyramid and its face, from stream ``s``."""
    return _draw_die(s, pyramid_mask(st))
