"""Camel Up Cards track: camels, figures, movement, ranking, sandstorm and extension
(docs/games/camel-up-cards.md §0, §5).

Conventions
-----------
* Camels 0..4 are W G O B Y. Position 0 is the start card, 1..L the track spaces, L + 1
  the finish card (a finished unit is dropped there, so it keeps its order).
* Heights: 0 is the bottom of a stack. On the start card the camels stand side by side in
  a line-up; the line-up is stored as heights too, the camel FIRST in the line-up (ranked
  ahead, C-AMB-2) the highest. Moving a camel off the start card lifts it alone; a unit the
  fox pushes back to the start card is dropped underneath: it joins the end of the line-up
  with its top camel ahead (C-AMB-8). So every ranking is by (position, height).
* A racing card is a type ``colour * 2 + value - 1`` (``N_TYPES`` = 10): W1 W2 G1 G2 ...

A *track* is an int64 array of ``TRACK_SIZE``: positions at ``SP``, heights at ``HT``,
camels per position at ``CNT`` (the layout of ``kernels.stacks``), then the fox's and the
palm's space (0 = beside the track) and the seat holding their cards (-1 none), the last
space ``L``, whether a unit finished, and the track cards' sizes (2, or 1 once turned to the
sandstorm side) from the first card on.
"""

import numpy as np
from ..jit import njit

from ..stacks import drop, lift, lift_one, perm_orders, rank  # noqa: F401 (re-exported)

N_CAMELS = 5
N_TYPES = 10
CARDS_PER_TYPE = np.array([5, 1] * N_CAMELS, dtype=np.int64)  # five +1, one +2 per colour
MAX_L = 60  # the last space oddsbot follows (docs/games/camel-up-cards.md §5.5)
N_POS = MAX_L + 2  # positions 0..L+1
MAX_CARDS = MAX_L  # track cards (each covers one or two spaces)

SP = 0
HT = N_CAMELS
CNT = 2 * N_CAMELS
FOX = CNT + N_POS
PALM = FOX + 1
FOX_HOLDER = PALM + 1
PALM_HOLDER = FOX_HOLDER + 1
LAST = PALM_HOLDER + 1
FINISHED = LAST + 1
N_CARDS = FINISHED + 1
CARD = N_CARDS + 1  # MAX_CARDS sizes
TRACK_SIZE = CARD + MAX_CARDS


@njit(cache=True, inline="always")
def card_colour(t):
    return t >> 1


@njit(cache=True, inline="always")
def card_value(t):
    return (t & 1) + 1


@njit(cache=True)
def _remove_passed(tr):
    """Return every figure that all camels have passed (§5.1 step 5) with its card."""
    lowest = tr[SP]
    for c in range(1, N_CAMELS):
        lowest = min(lowest, tr[SP + c])
    for f in (FOX, PALM):
        if tr[f] != 0 and tr[f] < lowest:
            tr[f] = 0
            tr[f + 2] = -1


@njit(cache=True)
def move(tr, camel, steps):
    """Move ``camel`` (with the camels above it, unless it stands on the start card)
    ``steps`` spaces forward: §5.1 with figure effects, chaining (C-AMB-3), the finish
    (C-AMB-11) and passed figures. Returns True if the race ended."""
    s = tr[SP + camel]
    last = tr[LAST]
    if s == 0:
        size = lift_one(tr, N_CAMELS, camel)
    else:
        size = lift(tr, N_CAMELS, s, tr[HT + camel])
    t = s + steps
    under = False
    while True:
        if t >= last + 1:
            drop(tr, N_CAMELS, last + 1, size, False)
            tr[FINISHED] = 1
            return True
        if t == 0:  # pushed back onto the start card: the end of the line-up
            under = True
        drop(tr, N_CAMELS, t, size, under)
        if t == 0:
            break
        if tr[PALM] == t:
            tr[PALM] = 0
            tr[PALM_HOLDER] = -1
            size = lift(tr, N_CAMELS, t, tr[HT + camel])
            t += 1
            under = False
        elif tr[FOX] == t:
            tr[FOX] = 0
            tr[FOX_HOLDER] = -1
            size = lift(tr, N_CAMELS, t, tr[HT + camel])
            t -= 1
            under = True
        else:
            break
    _remove_passed(tr)
    return False


@njit(cache=True, inline="always")
def key(tr, c):
    """Camel ``c``'s ranking key: larger is further ahead (§5.2)."""
    return tr[SP + c] * 8 + tr[HT + c]


@njit(cache=True)
def ranking(tr, order):
    """Fill ``order[0..4]`` with the camels from 1st to 5th place (§5.2)."""
    rank(tr, N_CAMELS, N_CAMELS, order)


@njit(cache=True)
def rank_index(tr):
    """The ranking as one number 0..119: the Lehmer code of the places, camel 0's place
    digit first (``perm_orders`` decodes it)."""
    idx = 0
    for c in range(N_CAMELS - 1):
        k = key(tr, c)
        ahead = 0
        for o in range(c + 1, N_CAMELS):
            if key(tr, o) > k:
                ahead += 1
        idx = idx * (N_CAMELS - c) + ahead
    return idx


@njit(cache=True)
def figure_space_ok(tr, s):
    """True if a figure may be placed on space ``s`` (§4 action A, C-AMB-4)."""
    if s < 1 or s > tr[LAST] or tr[CNT + s] != 0 or tr[FOX] == s or tr[PALM] == s:
        return False
    lowest = tr[SP]
    for c in range(1, N_CAMELS):
        lowest = min(lowest, tr[SP + c])
    return s > lowest


@njit(cache=True)
def figure_spaces(tr, out):
    """Write to ``out`` every space a figure may be placed on (``figure_space_ok``);
    returns how many."""
    lowest = tr[SP]
    for c in range(1, N_CAMELS):
        lowest = min(lowest, tr[SP + c])
    n = 0
    for s in range(lowest + 1, tr[LAST] + 1):
        if tr[CNT + s] == 0 and tr[FOX] != s and tr[PALM] != s:
            out[n] = s
            n += 1
    return n


@njit(cache=True)
def _card_of(tr, s):
    """Index of the track card that holds space ``s`` (1..)."""
    end = 0
    for k in range(tr[N_CARDS]):
        end += tr[CARD + k]
        if s <= end:
            return k
    return tr[N_CARDS] - 1


@njit(cache=True)
def sandstorm(tr):
    """Turn every empty track card strictly between the last camel's card and the
    leader's card to its one-space side (§5.4); later positions and L move down."""
    lead = 0
    lowest = tr[SP]
    for c in range(N_CAMELS):
        lead = max(lead, tr[SP + c])
        lowest = min(lowest, tr[SP + c])
    if lead == 0:
        return
    lead_card = _card_of(tr, lead)
    low_card = -1 if lowest == 0 else _card_of(tr, lowest)
    k = lead_card - 1
    while k > low_card:
        start = 1
        for j in range(k):
            start += tr[CARD + j]
        size = tr[CARD + k]
        empty = True
        for s in range(start, start + size):
            if tr[CNT + s] != 0:
                empty = False
        if size == 2 and empty:
            tr[CARD + k] = 1
            for c in range(N_CAMELS):
                if tr[SP + c] > start:
                    tr[SP + c] -= 1
            for s in range(start + 1, N_POS - 1):
                tr[CNT + s] = tr[CNT + s + 1]
            tr[CNT + N_POS - 1] = 0
            tr[LAST] -= 1
        k -= 1


@njit(cache=True)
def extend(tr):
    """Lengthen the track so that 3 spaces lie between the leader and the finish (§5.5)."""
    lead = 0
    for c in range(N_CAMELS):
        lead = max(lead, tr[SP + c])
    if tr[LAST] - lead < 3:
        tr[LAST] = min(lead + 3, MAX_L)
    total = 0
    for k in range(tr[N_CARDS]):
        total += tr[CARD + k]
    while total < tr[LAST]:
        tr[CARD + tr[N_CARDS]] = 2
        tr[N_CARDS] += 1
        total += 2


@njit(cache=True)
def new_track(last, line_up):
    """A track of ``last`` spaces on two-space cards with every camel on the start card,
    ``line_up`` (camels, first = ahead) their order there; no figures."""
    tr = np.zeros(TRACK_SIZE, dtype=np.int64)
    for i in range(N_CAMELS):
        c = line_up[i]
        tr[SP + c] = 0
        tr[HT + c] = N_CAMELS - 1 - i
    tr[CNT] = N_CAMELS
    tr[FOX_HOLDER] = -1
    tr[PALM_HOLDER] = -1
    tr[LAST] = last
    n = (last + 1) // 2
    tr[N_CARDS] = n
    for k in range(n):
        tr[CARD + k] = 2
    return tr
