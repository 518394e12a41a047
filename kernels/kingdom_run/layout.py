"""Kingdom Run's state and rules vectors, and what is read off them
(docs/games/kingdom-run.md §1-§9).

A state ``S`` is one int64 vector. Runner ``r`` = 4 * clan + (number - 1), clans K W F G
= 0..3. A runner on the track has ``S[S_LOC + r]`` = its space (0 = START's first) and
``S[S_PLACE + r]`` = ``NO_PLACE``; off the track its space is ``OFF`` and its place is a
podium place (0 = 1st), ``PENDING`` (crossed this turn, place not handed out yet, §7) or
``OUT`` (a surplus finisher, §7). Players are 0..players-1 in turn order; ``S_CLAN + p``
is player p's clan and ``S_OWNER + c`` clan c's player (-1 neutral). The roll holds die
faces 0..5 (``FACE_NAMES``); ``S_USED`` is a bitmask of the dice resolved this turn.

The rules vector ``R`` holds the parameters (§11) as the kernel reads them, built by
``analyser/kingdom_run/encode.py``.
"""

import numpy as np
from ..jit import njit

SCATTER, CATCHUP, BATH, STEAL, SLEEPWAKE, COPY = 0, 1, 2, 3, 4, 5
FACE_NAMES = ("scatter", "catchup", "bath", "steal", "sleepwake", "copy")
N_FACES = 6
RUNNERS = 16
CLANS = 4
MAX_PLAYERS = 4
MAX_SPACES = 60
MAX_DICE = 5
MAX_PLACES = 12
MAX_DIE_FACES = 12

OFF = -1
NO_PLACE = -1
PENDING = -2
OUT = -3

# ------------------------------------------------------------------ state vector
S_LOC = 0
S_SLEEP = S_LOC + RUNNERS
S_PLACE = S_SLEEP + RUNNERS
S_CACT = S_PLACE + RUNNERS       # pending runner: index of the action that carried it over
S_CFROM = S_CACT + RUNNERS       # pending runner: the space it left
S_CORD = S_CFROM + RUNNERS       # pending runner: its crossing order this turn (0, 1, ...)
S_NPOD = S_CORD + RUNNERS        # podium places handed out
S_NPEND = S_NPOD + 1             # runners pending
S_TOK = S_NPEND + 1              # victory tokens per player
S_PLAYERS = S_TOK + MAX_PLAYERS
S_TO_MOVE = S_PLAYERS + 1
S_CLAN = S_TO_MOVE + 1
S_OWNER = S_CLAN + MAX_PLAYERS
S_ROLL = S_OWNER + CLANS         # the roll's faces (S_HAS_ROLL = 0: none yet)
S_HAS_ROLL = S_ROLL + MAX_DICE
S_REROLLED = S_HAS_ROLL + 1
S_USED = S_REROLLED + 1          # bitmask of the dice resolved this turn
S_NUSED = S_USED + 1             # actions resolved this turn
S_UCOUNT = S_NUSED + 1           # uses of each action type this turn (a Copy as its action)
S_OVER = S_UCOUNT + N_FACES      # 1 once the game has ended (§8)
S_OCC = S_OVER + 1               # runners on each space
S_SIZE = S_OCC + MAX_SPACES

# ------------------------------------------------------------------ rules vector
R_NSP = 0                        # spaces on the track
R_CAP = 1                        # runners a space holds
R_NPLACES = 2                    # podium places
R_TOKV = 3                       # points per victory token
R_LIMIT = 4                      # uses of an action per turn
R_MAND = 5                       # 1: dice must be used while they can
R_TWOEND = 6                     # 0 first_of, 1 own_runners_only
R_ORDER = 7                      # 0 free, 1 chronological
R_SURPLUS = 8                    # 0 score_zero, 1 stay
R_TIE = 9                        # 0 best_podium, 1 shared
R_NDICE = 10
R_NFACES = 11                    # faces of a die
R_FACES = 12                     # the faces of a die (MAX_DIE_FACES)
R_TOKPP = R_FACES + MAX_DIE_FACES  # victory tokens per player for 2, 3, 4 players
R_PODV = R_TOKPP + 3             # podium values (MAX_PLACES)
R_LAKE = R_PODV + MAX_PLACES     # 1 for a lake space (MAX_SPACES)
R_SCOREV = R_LAKE + MAX_SPACES   # what a runner standing there scores (§9, zone_mode)
R_NEXTLAKE = R_SCOREV + MAX_SPACES  # the nearest lake ahead of a space, -1 none
R_SIZE = R_NEXTLAKE + MAX_SPACES


@njit(cache=True, inline="always")
def insert_by_space(S, out, at, m, r):
    """Insert runner ``r`` into the list ``out[at:at + m]`` of runners in ascending space
    order (after the runners already on its space); returns the new length."""
    s = S[S_LOC + r]
    j = m
    while j > 0 and S[S_LOC + out[at + j - 1]] > s:
        out[at + j] = out[at + j - 1]
        j -= 1
    out[at + j] = r
    return m + 1


@njit(cache=True, inline="always")
def on_track(S, r):
    return S[S_LOC + r] >= 0


@njit(cache=True)
def finished(S, p):
    """Player p's four runners have all crossed the line (§4, §8)."""
    c = S[S_CLAN + p]
    for r in range(4 * c, 4 * c + 4):
        if S[S_LOC + r] >= 0:
            return False
    return True


@njit(cache=True, inline="always")
def ended(S, R):
    """The end condition (§8), this turn's crossers counted as finished."""
    full = S[S_NPOD] + S[S_NPEND] >= R[R_NPLACES]
    own_runners = R[R_TWOEND] == 1
    n = S[S_PLAYERS]
    on = 0  # clans with a runner on the track (bitmask)
    for r in range(RUNNERS):
        if S[S_LOC + r] >= 0:
            on |= 1 << (r // 4)
    left = 0  # players with a runner on the track
    for p in range(MAX_PLAYERS):  # a fixed count, unrolled: S dies in one place
        if p < n:
            left += (on >> S[S_CLAN + p]) & 1
    if n >= 3:
        return full or left == 0  # nobody left to take a turn (§8)
    four = left < 2  # a player's four runners are in
    return four if own_runners else full or four


@njit(cache=True)
def score(S, R, p):
    """Player p's score (§9): podium places, runners on the track, victory tokens."""
    c = S[S_CLAN + p]
    total = R[R_TOKV] * S[S_TOK + p]
    for r in range(4 * c, 4 * c + 4):
        s = S[S_LOC + r]
        if s >= 0:
            total += R[R_SCOREV + s]
        else:
            place = S[S_PLACE + r]
            if place >= 0:
                total += R[R_PODV + place]
    return total


@njit(cache=True)
def evaluation(S, R, p):
    """The default evaluation (§14): p's score minus the best other player's."""
    mine = score(S, R, p)
    best = -(1 << 40)
    for q in range(S[S_PLAYERS]):
        if q != p:
            v = score(S, R, q)
            if v > best:
                best = v
    return mine - best


@njit(cache=True)
def best_place(S, p):
    """Player p's best podium place, or a large number without one (ties, §9)."""
    c = S[S_CLAN + p]
    best = 1 << 20
    for r in range(4 * c, 4 * c + 4):
        place = S[S_PLACE + r]
        if place >= 0 and place < best:
            best = place
    return best


@njit(cache=True)
def scores_and_wins(S, R, scores, wins):
    """Every player's score into ``scores``, and 1.0 into ``wins`` for each winner (a
    shared win counts for every sharer; §9 ``tie_rule``)."""
    n = S[S_PLAYERS]
    top = -(1 << 40)
    for p in range(n):
        scores[p] = score(S, R, p)
        if scores[p] > top:
            top = scores[p]
    best = 1 << 30
    if R[R_TIE] == 0:
        for p in range(n):
            if scores[p] == top:
                best = min(best, best_place(S, p))
    for p in range(n):
        wins[p] = 0.0
        if scores[p] == top and (R[R_TIE] == 1 or best >= 1 << 20 or
                                 best_place(S, p) == best):
            wins[p] = 1.0


@njit(cache=True)
def remaining(S, R, face):
    """Unused dice of the roll showing ``face``."""
    n = 0
    for d in range(R[R_NDICE]):
        if S[S_ROLL + d] == face and not (S[S_USED] >> d) & 1:
            n += 1
    return n


@njit(cache=True)
def rolled(S, R, face):
    """Dice of the roll showing ``face``, used or not."""
    n = 0
    for d in range(R[R_NDICE]):
        if S[S_ROLL + d] == face:
            n += 1
    return n


@njit(cache=True)
def awake_on_track(S, c):
    """Awake runners of clan c on the track."""
    n = 0
    for r in range(4 * c, 4 * c + 4):
        if S[S_LOC + r] >= 0 and S[S_SLEEP + r] == 0:
            n += 1
    return n


@njit(cache=True)
def anyone_off(S):
    """A runner has crossed the line (podium, pending or out)."""
    for r in range(RUNNERS):
        if S[S_LOC + r] < 0:
            return True
    return False


# ------------------------------------------------------------------ merge keys
def _zobrist():
    rng = np.random.default_rng(20261127)
    # runner-state codes: track space (asleep or not), podium place, pending (by action and
    # from), out; keyed per clan so that same-clan runners are interchangeable (§13)
    z = rng.integers(-(1 << 62), 1 << 62, size=(2, CLANS, 2 * MAX_SPACES + MAX_PLACES
                                                + MAX_DICE * (MAX_SPACES + 1) + 1),
                     dtype=np.int64)
    t = rng.integers(-(1 << 62), 1 << 62, size=(2, MAX_PLAYERS, 64), dtype=np.int64)
    return z, t


ZOB, ZTOK = _zobrist()
Z_PLACE = 2 * MAX_SPACES
Z_PEND = Z_PLACE + MAX_PLACES
Z_OUT = Z_PEND + MAX_DICE * (MAX_SPACES + 1)


@njit(cache=True)
def runner_code(S, r):
    """The runner's state as a code of ``ZOB`` (what makes two positions equal, §13)."""
    s = S[S_LOC + r]
    if s >= 0:
        return 2 * s + S[S_SLEEP + r]
    place = S[S_PLACE + r]
    if place >= 0:
        return Z_PLACE + place
    if place == PENDING:
        return Z_PEND + S[S_CACT + r] * (MAX_SPACES + 1) + S[S_CFROM + r] + 1
    return Z_OUT


@njit(cache=True)
def pending_order_key(S, h):
    """The order this turn's crossers crossed in, by clan (§7 chronological)."""
    k = np.int64(0)
    for r in range(RUNNERS):
        if S[S_PLACE + r] == PENDING:
            k += ZTOK[h, 2, S[S_CORD + r]] * (r // 4 + 1)
    return k


@njit(cache=True)
def position_keys(S):
    """Two keys of what a turn ends with: the runners (same-clan runners interchangeable)
    and the victory tokens; nothing of the dice."""
    a = np.int64(0)
    b = np.int64(0)
    for r in range(RUNNERS):
        code = runner_code(S, r)
        a += ZOB[0, r // 4, code]
        b += ZOB[1, r // 4, code]
    for p in range(S[S_PLAYERS]):
        a += ZTOK[0, p, S[S_TOK + p] & 63]
        b += ZTOK[1, p, S[S_TOK + p] & 63]
    return a, b


@njit(cache=True)
def keys(S):
    """Two independent 64-bit keys of the state ``S`` mid-turn: the runners (keys are
    sums, so equal multisets of runner states give equal keys whatever the runners'
    names, §13), the tokens, the player to move and the turn's dice."""
    a, b = position_keys(S)
    turn = S[S_USED] + 1
    a += ZTOK[0, 0, 32 + S[S_TO_MOVE]] * turn
    b += ZTOK[1, 0, 32 + S[S_TO_MOVE]] * turn
    for f in range(N_FACES):
        a += ZTOK[0, 1, 40 + f] * S[S_UCOUNT + f]
        b += ZTOK[1, 1, 40 + f] * S[S_UCOUNT + f]
    x = S[S_NUSED] + 3 * S[S_OVER] + 7 * S[S_NPEND]
    a += ZTOK[0, 2, 50] * x + ZTOK[0, 3, 51] * S[S_HAS_ROLL]
    b += ZTOK[1, 2, 50] * x + ZTOK[1, 3, 51] * S[S_HAS_ROLL]
    if S[S_NPEND] > 0:
        a += pending_order_key(S, 0)
        b += pending_order_key(S, 1)
    return a, b
