"""Camel Up track: camels, stacks, dice, movement and ranking (docs/games/camel-up.md §5-§6).

Conventions
-----------
* Spaces 1..16 run in the direction of the race (clockwise). A camel that crossed the
  line clockwise sits on pseudo-space ``CROSSED_CW`` (17); one carried across
  counterclockwise sits on ``CROSSED_CCW`` (0). Heights of crossed camels are their heights
  inside the crossing unit, so ranking by (space, height) is uniform (docs/games/camel-up.md §6).
* Camels 0..4 are the racing camels (2nd ed. B G Y R P; 1st ed. B G O Y W), 5 is the white
  and 6 the black crazy camel. An absent camel (1st edition) sits on ``ABSENT``.
* Height 0 is the bottom of a stack; a unit is a camel plus everything above it.
* Dice 0..4 are the racing dice (die i moves camel i), die 5 the grey die. Racing faces
  0..2 are the values 1..3; grey faces 0..2 are white 1..3, faces 3..5 black 1..3.

A *track* is an integer array of ``TRACK_SIZE``: camel spaces at ``SP``, heights at ``HT``
and stack sizes per space 0..17 at ``CNT``. A tile array is indexed by space (0..17):
0 none, +1 cheer, -1 boo.
"""

from ..jit import njit

from ..stacks import drop, lift, perm_orders, rank  # noqa: F401 (perm_orders: re-exported)

N_SPACES = 16
N_RACING = 5
N_CAMELS = 7
WHITE = 5
BLACK = 6
GREY = 5
N_DICE = 6
CROSSED_CW = 17
CROSSED_CCW = 0
ABSENT = -9
N_PERMS = 120  # orders of the 5 racing camels
MAX_INCOME = 7  # own-tile landings counted 0..6 within a leg

# track layout
SP = 0
HT = 7
CNT = 14
TRACK_SIZE = 32


@njit(cache=True, inline="always")
def carries(tr, x):
    """True if a racing camel sits anywhere above camel ``x`` in its stack (AMB-1)."""
    s = tr[SP + x]
    h = tr[HT + x]
    for c in range(N_RACING):
        if tr[SP + c] == s and tr[HT + c] > h:
            return True
    return False


@njit(cache=True, inline="always")
def crazy_mover(tr, colour):
    """Crazy camel that a grey die of printed ``colour`` (WHITE/BLACK) moves (§5.1)."""
    cw = carries(tr, WHITE)
    ck = carries(tr, BLACK)
    if cw != ck:
        return WHITE if cw else BLACK
    if tr[SP + WHITE] == tr[SP + BLACK]:
        if tr[HT + WHITE] == tr[HT + BLACK] + 1:
            return WHITE
        if tr[HT + BLACK] == tr[HT + WHITE] + 1:
            return BLACK
    return colour


@njit(cache=True, inline="always")
def destination(tile, s, d, dist):
    """Where a unit leaving space ``s`` in direction ``d`` for ``dist`` spaces ends (§5.2,
    §5.4): (space, space of the tile it landed on or 0, True if it goes underneath).
    A space beyond 1..16 means the unit crossed the finish line."""
    t = s + d * dist
    return pushed(t, tile[t] if 1 <= t <= N_SPACES else 0, d)


@njit(cache=True, inline="always")
def pushed(t, side, d):
    """``destination`` of a unit moving in direction ``d`` that reaches space ``t``, whose
    spectator tile is ``side`` (0 none, +1 cheer, -1 boo; §5.4)."""
    if side == 0:
        return t, 0, False
    if side > 0:
        return t + d, t, False
    return t - d, t, True


@njit(cache=True, inline="always")
def move_unit(tr, tile, mover, dist, d):
    """Move ``mover`` and the camels above it ``dist`` spaces in direction ``d`` (+1/-1).

    ``tile`` holds each space's spectator tile (0 none, +1 cheer, -1 boo). Implements
    §5.2-§5.4: landing on top, a tile's push (cheer: on top one space further; boo:
    underneath one space back), and finish-line crossings. Returns the space of the tile
    the unit landed on, 0 if none. Whether the unit crossed is seen in ``tr[SP + mover]``.
    """
    s = tr[SP + mover]
    t, landed, under = destination(tile, s, d, dist)
    size = lift(tr, N_CAMELS, s, tr[HT + mover])
    if t > N_SPACES or t < 1:
        t = CROSSED_CW if t > N_SPACES else CROSSED_CCW
    drop(tr, N_CAMELS, t, size, under)
    return landed


@njit(cache=True, inline="always")
def roll(tr, tile, die, face):
    """Resolve one revealed die. ``face`` is 0..2 for a racing die (value face + 1) and
    0..5 for the grey die (0..2 white, 3..5 black). Returns (mover, landed tile space)."""
    if die < GREY:
        return die, move_unit(tr, tile, die, face + 1, 1)
    mover = crazy_mover(tr, WHITE if face < 3 else BLACK)
    return mover, move_unit(tr, tile, mover, face % 3 + 1, -1)


@njit(cache=True)
def crossed(tr):
    """True once any camel has crossed the finish line (the game is over)."""
    for c in range(N_CAMELS):
        s = tr[SP + c]
        if s == CROSSED_CW or s == CROSSED_CCW:
            return True
    return False


@njit(cache=True)
def ranking(tr, order):
    """Fill ``order[0..4]`` with the racing camels from 1st to 5th place (§6)."""
    rank(tr, N_CAMELS, N_RACING, order)


@njit(cache=True)
def place_of(tr, camel):
    """Place 0..4 (0 = leading) of racing camel ``camel`` in the current ranking."""
    key = tr[SP + camel] * 8 + tr[HT + camel]
    place = 0
    for c in range(N_RACING):
        if tr[SP + c] * 8 + tr[HT + c] > key:
            place += 1
    return place


@njit(cache=True)
def camel_at_place(tr, place):
    """The racing camel in ``place`` (0 = leading) of the current ranking."""
    for c in range(N_RACING):
        if place_of(tr, c) == place:
            return c
    return -1


@njit(cache=True, inline="always")
def _index_of_keys(k0, k1, k2, k3, k4):
    """Ranking index from the racing camels' keys (larger key = further ahead).

    Digit ``L_c`` counts the camels c' > c ahead of camel c; index =
    24 L_0 + 6 L_1 + 2 L_2 + L_3 (a Lehmer code of the places vector)."""
    l0 = (k1 > k0) + (k2 > k0) + (k3 > k0) + (k4 > k0)
    l1 = (k2 > k1) + (k3 > k1) + (k4 > k1)
    l2 = (k3 > k2) + (k4 > k2)
    l3 = k4 > k3
    return 24 * l0 + 6 * l1 + 2 * l2 + l3


@njit(cache=True)
def die_count(mask):
    n = 0
    for i in range(N_DICE):
        n += (mask >> i) & 1
    return n
