"""The state of a game of Mumia as one int64 vector, the rules as another, and what both
read: fields, pieces, scores (docs/games/mumia.md §0, §4, §7).

**Fields** have ids that never change while tiles are taken: ``START`` = 0, the tile laid
``t``-th (0-based) is field ``t + 1``, ``FIN`` = ``MAX_TILES + 1``. A tile taken from the
track is marked absent and every step skips it (§0: the track closes up), so no piece
ever needs re-indexing. People count fields on the track as it lies
(:func:`field_index`).

**Tiles** are codes ``kind * 16 + magnitude`` (``tile_code``): danger ``-m``, treasure
``+m``, camel, risk ``m`` (E3, scores +-m) and exchange (E1).

**The state** ``S`` (``S_SIZE`` int64): offsets ``S_*`` below; seat ``p``'s pawn ``k``
is at ``S[S_PAWN + p * MAX_PAWNS + k]`` (a field id), a hat is on a pawn slot
``p * MAX_PAWNS + k`` (-1: no such hat), a guardian in the box is at -1, the mummy after
it has left is at -1. A collected-tile stack lists tile codes bottom first. The action
token pile lists token kinds top first.

**The rules** ``R`` (``R_SIZE`` int64): the game's parameters (§13) as numbers, offsets
``R_*``.
"""

import numpy as np
from ..jit import njit

MAX_SEATS = 6
MAX_PAWNS = 3
MAX_TILES = 40
MAX_GUARDS = 8
MAX_MUMMY = 8
N_TOKEN_KINDS = 4
MAX_TOKENS = 40
START = 0
FIN = MAX_TILES + 1
N_FIELDS = MAX_TILES + 2

# tile kinds (tile code = kind * 16 + magnitude)
DANGER, TREASURE, CAMEL, RISK, EXCHANGE = 0, 1, 2, 3, 4
# action token kinds (§11)
EXTRA, SWAP, PUSH, BOTTOM = 0, 1, 2, 3
TOKEN_NAMES = ("extra", "swap", "push", "bottom")
# picture die symbols (§3); NONE once the mummy has left
SYM_P, SYM_M, SYM_PM, SYM_NONE = 0, 1, 2, 3

# ---------------------------------------------------------------- the state vector
S_TO_MOVE = 0
S_OVER = 1       # 1 once the game has ended
S_MUMMY = 2      # the mummy's field, -1 once it has left
S_TAKEN = 3      # mummy tokens taken so far (the next is R[R_MUMMY + S_TAKEN])
S_T = 4          # tiles laid at setup
S_LUCK = 5       # pawn slot wearing the hat of luck, -1 none (E2)
S_BAD = 6        # pawn slot wearing the hat of bad luck
S_PILE_N = 7     # action tokens in the pile (E4)
S_TILE = 8                                   # code of tile t
S_PRESENT = S_TILE + MAX_TILES               # 1 while tile t is on the track
S_PAWN = S_PRESENT + MAX_TILES               # field of pawn slot p * MAX_PAWNS + k
S_GUARD = S_PAWN + MAX_SEATS * MAX_PAWNS     # field of guardian g, -1 in the box
S_STACK_N = S_GUARD + MAX_GUARDS             # tiles collected by seat p
S_STACK = S_STACK_N + MAX_SEATS              # seat p's stack: S_STACK + p * MAX_TILES + i
S_MPTS = S_STACK + MAX_SEATS * MAX_TILES     # mummy-token points of seat p
S_PILE = S_MPTS + MAX_SEATS                  # the token pile, top first
S_HAND = S_PILE + MAX_TOKENS                 # seat p's tokens of kind j: S_HAND + p * 4 + j
S_FRESH = S_HAND + MAX_SEATS * N_TOKEN_KINDS  # the mover's tokens gained this turn, by kind
S_SWAPPED = S_FRESH + N_TOKEN_KINDS  # bit ``slot``: that pawn was swapped this turn (§11.4)
S_MOVED = S_SWAPPED + 1  # bit ``slot``: that pawn was moved this turn (§11.4)
S_SIZE = S_MOVED + 1

# ---------------------------------------------------------------- the rules vector
R_PLAYERS = 0
R_PAWNS = 1            # pawns per seat
R_FACES = 2            # picture die faces P, M, PM (3 entries)
R_ONE_PER_ROLL = 5     # tokens_per_pass = one
R_SUDDEN = 6           # sudden_end
R_PAIR_ALONE = 7       # sudden_end_pair_alone
R_FEWER_CAMELS = 8     # tiebreak = fewer_camels
R_HAT_LUCK = 9         # hat_values
R_HAT_BAD = 10
R_LUCK_LAST = 11       # luck_hat_last_out
R_FLIP_RISK = 12       # camels_flip_risk
R_UNUSED = 13          # unused_token_value
R_TOKENS_SF = 14       # tokens_on_start_finish
R_E1, R_E2, R_E3, R_E4 = 15, 16, 17, 18
R_N_MUMMY = 19         # mummy tokens in the full stack
R_MUMMY = 20           # their values, top first (MAX_MUMMY entries)
R_MIX = R_MUMMY + MAX_MUMMY        # action tokens of each kind (4 entries)
R_RANDOM_LAYOUT = R_MIX + N_TOKEN_KINDS  # first_layout = random
R_KEEP_E1_REMOVAL = R_RANDOM_LAYOUT + 1  # e3_e1_keep_e1_removal
R_HAT_REROLL = R_KEEP_E1_REMOVAL + 1     # hat_tie = reroll
R_EXCH_POS = R_HAT_REROLL + 1            # exchange_positions (4 entries, 1-based)
R_N_POOL = R_EXCH_POS + 4                # base tiles (tile_values)
R_POOL = R_N_POOL + 1                    # their codes, in the standard layout's order
R_N_E3OUT = R_POOL + MAX_TILES           # tiles E3 returns to the box (e3_removed)
R_E3OUT = R_N_E3OUT + 1
R_SIZE = R_E3OUT + MAX_TILES


@njit(cache=True, inline="always")
def tile_code(kind, magnitude):
    return kind * 16 + magnitude


@njit(cache=True, inline="always")
def kind_of(code):
    return code // 16


@njit(cache=True, inline="always")
def magnitude_of(code):
    return code % 16


@njit(cache=True, inline="always")
def pawn_field(S, slot):
    return S[S_PAWN + slot]


@njit(cache=True)
def next_field(S, f):
    """The field one step ahead of field ``f`` (< FIN) for a pawn or guardian (§4)."""
    g = f + 1
    last = S[S_T]
    while g <= last and S[S_PRESENT + g - 1] == 0:
        g += 1
    return g if g <= last else FIN


@njit(cache=True)
def step(S, f, n):
    """Where a pawn or guardian on ``f`` ends after ``n`` steps (surplus at FIN lost)."""
    for _ in range(n):
        if f == FIN:
            break
        f = next_field(S, f)
    return f


@njit(cache=True)
def mummy_step(S, f, n):
    """(field, passes): the mummy's ``n`` steps on the cycle START .. FIN, START ..
    (§4), and how many of them land on FIN (§5: each is a pass)."""
    passes = 0
    for _ in range(n):
        f = START if f == FIN else next_field(S, f)
        if f == FIN:
            passes += 1
    return f, passes


@njit(cache=True)
def previous_field(S, f):
    """The field one step behind ``f`` (> START) on the track as it lies."""
    g = (S[S_T] if f == FIN else f - 1)
    while g >= 1 and S[S_PRESENT + g - 1] == 0:
        g -= 1
    return g


@njit(cache=True)
def field_index(S, f):
    """Field id ``f`` as people count it: 0 START, 1..k the tiles on the track, k+1 FIN."""
    if f == START:
        return 0
    i = 0
    last = S[S_T] if f == FIN else f
    for t in range(last):
        i += S[S_PRESENT + t]
    return i + (1 if f == FIN else 0)


@njit(cache=True)
def tiles_left(S):
    k = 0
    for t in range(S[S_T]):
        k += S[S_PRESENT + t]
    return k


@njit(cache=True)
def is_tile(f):
    return START < f < FIN


@njit(cache=True)
def pieces_on(S, R, f):
    """Pawns, guardians and the mummy on field ``f``."""
    count = 0
    for slot in range(R[R_PLAYERS] * MAX_PAWNS):
        if slot % MAX_PAWNS < R[R_PAWNS] and S[S_PAWN + slot] == f:
            count += 1
    for g in range(MAX_GUARDS):
        if S[S_GUARD + g] == f:
            count += 1
    if S[S_MUMMY] == f:
        count += 1
    return count


@njit(cache=True)
def pawns_of_on(S, R, p, f):
    """Seat ``p``'s pawns on field ``f``."""
    count = 0
    for k in range(R[R_PAWNS]):
        if S[S_PAWN + p * MAX_PAWNS + k] == f:
            count += 1
    return count


@njit(cache=True)
def home(S, R, p):
    """True when every pawn of seat ``p`` is on FIN."""
    for k in range(R[R_PAWNS]):
        if S[S_PAWN + p * MAX_PAWNS + k] != FIN:
            return False
    return True


@njit(cache=True)
def field_mask(S, R, skip_seat, guardians, skip_guardian=-1):
    """Bit f set for every field f holding a pawn of a seat other than ``skip_seat`` (-1:
    any seat), the mummy, and with ``guardians`` a guardian other than ``skip_guardian``
    (fields are < 64)."""
    mask = np.uint64(0)
    for slot in range(R[R_PLAYERS] * MAX_PAWNS):
        if slot % MAX_PAWNS < R[R_PAWNS] and slot // MAX_PAWNS != skip_seat:
            mask |= np.uint64(1) << np.uint64(S[S_PAWN + slot])
    if S[S_MUMMY] >= 0:
        mask |= np.uint64(1) << np.uint64(S[S_MUMMY])
    if guardians:
        for g in range(MAX_GUARDS):
            if S[S_GUARD + g] >= 0 and g != skip_guardian:
                mask |= np.uint64(1) << np.uint64(S[S_GUARD + g])
    return mask


@njit(cache=True, inline="always")
def has_bit(mask, f):
    return (mask >> np.uint64(f)) & np.uint64(1) != np.uint64(0)


@njit(cache=True)
def hat_code(S, slot):
    """The hats pawn ``slot`` wears: 0 none, 1 luck, 2 bad, 3 both (§9)."""
    return (1 if S[S_LUCK] == slot else 0) + (2 if S[S_BAD] == slot else 0)


@njit(cache=True)
def guardian_movable(S, R, g):
    """§3: a guardian on the track moves only while a pawn or the mummy shares its field."""
    f = S[S_GUARD + g]
    if f < 0:
        return False
    if S[S_MUMMY] == f:
        return True
    for slot in range(R[R_PLAYERS] * MAX_PAWNS):
        if slot % MAX_PAWNS < R[R_PAWNS] and S[S_PAWN + slot] == f:
            return True
    return False


# ---------------------------------------------------------------- scores (§7, §10, §11)


@njit(cache=True)
def score(S, R, p):
    """Seat ``p``'s score on its holdings now (§7): treasures, dangers less those camels
    flip, risk tiles by parity, mummy tokens, hats locked on FIN, unused action tokens."""
    return score_with(S, R, p, -1, False)


@njit(cache=True)
def score_with(S, R, p, add, drop_top):
    """``score`` as if tile ``add`` (a code, -1 none) were on top of seat ``p``'s stack,
    or (``drop_top``) its top tile gone. Dangers (magnitudes 1..10) are counted by
    magnitude in one int64, 6 bits a magnitude, so camels flip from the largest down
    without sorting or allocating."""
    hist = 0
    rhist = 0
    nd = 0
    nr = 0
    risk_sum = 0
    camels = 0
    value = S[S_MPTS + p]
    n = S[S_STACK_N + p] - (1 if drop_top else 0)
    for i in range(n + (1 if add >= 0 else 0)):
        code = S[S_STACK + p * MAX_TILES + i] if i < n else add
        kind = kind_of(code)
        m = magnitude_of(code)
        if kind == TREASURE:
            value += m
        elif kind == CAMEL:
            camels += 1
        elif kind == DANGER:
            hist += 1 << (6 * (m - 1))
            nd += 1
        elif kind == RISK:
            nr += 1
            risk_sum += m
            rhist += 1 << (6 * (m - 1))
    if R[R_FLIP_RISK] != 0 and nr > 0 and camels > 0:
        value += _flip_risk_best(rhist, nr, hist, camels)
    else:
        value += risk_sum if nr % 2 == 0 else -risk_sum
        value += _dangers(hist, camels)
    for hat, worth in ((S[S_LUCK], R[R_HAT_LUCK]), (S[S_BAD], R[R_HAT_BAD])):
        if hat >= 0 and hat // MAX_PAWNS == p and S[S_PAWN + hat] == FIN:
            value += worth
    tokens = 0
    for j in range(N_TOKEN_KINDS):
        tokens += S[S_HAND + p * N_TOKEN_KINDS + j]
    return value + tokens * R[R_UNUSED]


@njit(cache=True)
def _dangers(hist, camels):
    """The dangers' part of a score: ``camels`` flip the largest magnitudes (§7)."""
    value = 0
    left = camels
    for m in range(10, 0, -1):
        count = (hist >> (6 * (m - 1))) & 63
        flipped = min(count, left)
        left -= flipped
        value += m * (flipped - (count - flipped))
    return value


@njit(cache=True)
def _flip_risk_best(rhist, nr, hist, camels):
    """``camels_flip_risk`` (M-AMB-18): camels may flip risk tiles (each then scores
    +magnitude outside the parity count) as well as dangers; the best choice is taken.
    ``rhist``: the ``nr`` risk tiles counted by magnitude as ``hist`` counts dangers."""
    risks = np.zeros(nr, dtype=np.int64)
    k = 0
    for m in range(1, 11):
        for _ in range((rhist >> (6 * (m - 1))) & 63):
            risks[k] = m
            k += 1
    best = -(1 << 30)
    for mask in range(1 << nr):
        used = 0
        value = 0
        kept = 0
        kept_n = 0
        for i in range(nr):
            if (mask >> i) & 1:
                used += 1
                value += risks[i]
            else:
                kept += risks[i]
                kept_n += 1
        if used > camels:
            continue
        value += (kept if kept_n % 2 == 0 else -kept) + _dangers(hist, camels - used)
        best = max(best, value)
    return best


@njit(cache=True)
def camels_held(S, p):
    count = 0
    for i in range(S[S_STACK_N + p]):
        if kind_of(S[S_STACK + p * MAX_TILES + i]) == CAMEL:
            count += 1
    return count


@njit(cache=True)
def scores_and_wins(S, R, out_scores, out_wins):
    """Every seat's score now, and 1.0 for each seat that wins or shares the win (§7;
    ``tiebreak = fewer_camels`` first breaks ties by fewer camels)."""
    n = R[R_PLAYERS]
    best = -(1 << 30)
    for p in range(n):
        out_scores[p] = score(S, R, p)
        if out_scores[p] > best:
            best = out_scores[p]
    fewest = 1 << 30
    for p in range(n):
        if out_scores[p] == best and R[R_FEWER_CAMELS] != 0:
            fewest = min(fewest, camels_held(S, p))
    for p in range(n):
        won = out_scores[p] == best
        if won and R[R_FEWER_CAMELS] != 0 and camels_held(S, p) != fewest:
            won = False
        out_wins[p] = 1.0 if won else 0.0
