"""Turns and whole games of Kingdom Run, one at a time with a log of every turn, or many in
ranges with the per-game facts a designer report reads (docs/games/kingdom-run.md §3,
§4, §15).

Game ``r`` of a run seeded ``seed`` rolls its dice from stream (seed, 3r + 1) and takes
policy choices from (seed, 3r + 2) (the set-up draws nothing), so its row depends on
(seed, r) only (``kernels.batch``).

One row (int16) per game, players not in the game -1: ``F_SCORE + p`` final score,
``F_WIN + p`` 1 for each winner (a shared win counts for each), ``F_PODIUM + p`` podium
points, ``F_ZONE + p`` points of runners left on the track, ``F_TOKENS + p`` victory
tokens held, ``F_FINISHED + p`` runners on the podium, ``F_REROLLS + p`` dice rolled
again, ``F_USE + 6p + a`` actions of type a taken (a Copy counted as its action) and
``F_USE + 6p + 5`` Copies used; ``F_TURNS``; ``F_END`` how the game ended (``END_*``);
``F_SEAT_TURNS + p`` the turns player p took (added after the others: the earlier
columns keep their places).
"""

import numpy as np
from ..jit import njit

from ..batch import record_chunk
from ..rng import below, reseed
from ..threads import rows as thread_rows
from .actions import A_COLS, A_FACE, A_TYPE
from .layout import (
    COPY, MAX_DICE, MAX_PLACES, MAX_PLAYERS, N_FACES, NO_PLACE, R_FACES, R_NDICE,
    R_NFACES, R_NPLACES, R_PODV, R_SCOREV, R_SIZE, R_TOKPP, RUNNERS, S_CLAN,
    S_HAS_ROLL, S_LOC, S_NPOD, S_OCC, S_OVER, S_OWNER, S_PLACE, S_PLAYERS, S_REROLLED,
    S_ROLL, S_SIZE, S_TO_MOVE, S_TOK, scores_and_wins,
)
from .policies import F_SIZE, I_SIZE, keep_mask, play_actions
from .turns import MAX_ACTIONS

MAX_TURNS = 1000  # a game stopped there ends as END_STOPPED (§8)
END_PODIUM, END_OWN_RUNNERS, END_NOBODY, END_STOPPED = 0, 1, 2, 3

# the log of a turn: player, the roll, the dice kept (bitmask), the final roll, the
# actions (A_COLS each), then the podium hand-out (how many, who)
L_PLAYER = 0
L_ROLL = 1
L_KEEP = L_ROLL + MAX_DICE
L_FINAL = L_KEEP + 1
L_N = L_FINAL + MAX_DICE
L_ACT = L_N + 1
L_HAND = L_ACT + MAX_DICE * A_COLS
LOG_FIELDS = L_HAND + 1 + MAX_PLACES

F_SCORE = 0
F_WIN = F_SCORE + MAX_PLAYERS
F_PODIUM = F_WIN + MAX_PLAYERS
F_ZONE = F_PODIUM + MAX_PLAYERS
F_TOKENS = F_ZONE + MAX_PLAYERS
F_FINISHED = F_TOKENS + MAX_PLAYERS
F_REROLLS = F_FINISHED + MAX_PLAYERS
F_USE = F_REROLLS + MAX_PLAYERS
F_TURNS = F_USE + N_FACES * MAX_PLAYERS
F_END = F_TURNS + 1
F_SEAT_TURNS = F_END + 1
N_FIELDS = F_SEAT_TURNS + MAX_PLAYERS


@njit(cache=True)
def new_game(R, players):
    """The set-up (§3): runner n of every clan on space n - 1, all awake; player p plays
    clan p; victory tokens dealt; player 0 to move, dice not rolled."""
    S = np.zeros(S_SIZE, dtype=np.int64)
    for r in range(RUNNERS):
        S[S_LOC + r] = r % 4
        S[S_OCC + r % 4] += 1
        S[S_PLACE + r] = NO_PLACE
    S[S_PLAYERS] = players
    for c in range(4):
        S[S_OWNER + c] = c if c < players else -1
    for p in range(players):
        S[S_CLAN + p] = p
        S[S_TOK + p] = R[R_TOKPP + players - 2]
    for d in range(MAX_DICE):
        S[S_ROLL + d] = -1
    return S


@njit(cache=True)
def roll_die(R, rng):
    return R[R_FACES + below(rng, R[R_NFACES])]


@njit(cache=True)
def roll(S, R, rng):
    """Roll every die (§4.1)."""
    for d in range(R[R_NDICE]):
        S[S_ROLL + d] = roll_die(R, rng)
    S[S_HAS_ROLL] = 1
    S[S_REROLLED] = 0


@njit(cache=True)
def reroll(S, R, keep, rng):
    """Roll again every die not in the bitmask ``keep`` (§4.2)."""
    for d in range(R[R_NDICE]):
        if not (keep >> d) & 1:
            S[S_ROLL + d] = roll_die(R, rng)
    S[S_REROLLED] = 1


@njit(cache=True)
def play_game(S, R, dice, pol_rng, policies, log, stats):
    """Play ``S`` (between turns) to the end, player p by ``policies[p]``: each turn the
    rest of the mover's turn (roll, re-roll unless done, actions, podium), logged in
    ``log`` as far as it has room (a ``LOG_FIELDS`` row a turn), its actions counted in
    ``stats`` (``F_USE``, ``F_REROLLS``, ``F_SEAT_TURNS`` of a game row). Returns the
    number of turns. One function, its scratch made once a game and no views taken in
    the loop: the arrays' reference counts are paid once a game, not once a turn."""
    rows = np.empty((MAX_ACTIONS, A_COLS), dtype=np.int64)
    acts = np.empty((MAX_DICE, A_COLS), dtype=np.int64)
    hand = np.empty(1 + MAX_PLACES, dtype=np.int64)
    iw = np.empty(I_SIZE, dtype=np.int64)
    fw = np.empty(F_SIZE, dtype=np.float64)
    turns = 0
    while S[S_OVER] == 0 and turns < MAX_TURNS:
        p = S[S_TO_MOVE]
        policy = policies[p]
        logged = turns < log.shape[0]
        if S[S_HAS_ROLL] == 0:
            roll(S, R, dice)
        if logged:
            log[turns, L_PLAYER] = p
            for d in range(MAX_DICE):
                log[turns, L_ROLL + d] = S[S_ROLL + d]
        keep = (1 << MAX_DICE) - 1
        if S[S_REROLLED] == 0:
            keep = keep_mask(S, R, policy, pol_rng, iw)
            reroll(S, R, keep, dice)
        if logged:
            log[turns, L_KEEP] = keep
            for d in range(MAX_DICE):
                log[turns, L_FINAL + d] = S[S_ROLL + d]
        n = play_actions(S, R, policy, pol_rng, rows, acts, hand, iw, fw)
        if logged:
            log[turns, L_N] = n
            for i in range(min(n, MAX_DICE)):
                for c in range(A_COLS):
                    log[turns, L_ACT + A_COLS * i + c] = acts[i, c]
            for j in range(1 + hand[0]):
                log[turns, L_HAND + j] = hand[j]
        stats[F_SEAT_TURNS + p] += 1
        for d in range(R[R_NDICE]):
            if not (keep >> d) & 1:
                stats[F_REROLLS + p] += 1
        for i in range(n):
            stats[F_USE + N_FACES * p + acts[i, A_TYPE]] += 1
            if acts[i, A_FACE] == COPY:
                stats[F_USE + N_FACES * p + COPY] += 1
        turns += 1
    return turns


@njit(cache=True)
def end_reason(S, R, turns):
    if S[S_OVER] == 0:
        return END_STOPPED
    if S[S_NPOD] >= R[R_NPLACES]:
        return END_PODIUM
    if S[S_PLAYERS] == 2:
        return END_OWN_RUNNERS
    return END_NOBODY


@njit(cache=True)
def game_row(S, R, turns, row):
    """The report's facts of a finished game into ``row`` (module docstring); ``F_USE``
    and ``F_REROLLS`` are already counted there."""
    scores = np.zeros(MAX_PLAYERS, dtype=np.int64)
    wins = np.zeros(MAX_PLAYERS, dtype=np.float64)
    scores_and_wins(S, R, scores, wins)
    n = S[S_PLAYERS]
    for p in range(MAX_PLAYERS):
        if p >= n:
            for f in (F_SCORE, F_WIN, F_PODIUM, F_ZONE, F_TOKENS, F_FINISHED, F_REROLLS,
                      F_SEAT_TURNS):
                row[f + p] = -1
            for a in range(N_FACES):
                row[F_USE + N_FACES * p + a] = -1
            continue
        row[F_SCORE + p] = scores[p]
        row[F_WIN + p] = np.int64(wins[p])
        row[F_TOKENS + p] = S[S_TOK + p]
        c = S[S_CLAN + p]
        for r in range(4 * c, 4 * c + 4):
            if S[S_LOC + r] >= 0:
                row[F_ZONE + p] += R[R_SCOREV + S[S_LOC + r]]
            elif S[S_PLACE + r] >= 0:
                row[F_PODIUM + p] += R[R_PODV + S[S_PLACE + r]]
                row[F_FINISHED + p] += 1
    row[F_TURNS] = turns
    row[F_END] = end_reason(S, R, turns)


@njit(cache=True)
def record_game(context, scratch, streams, row):
    """``record_chunk``'s game: a new game of ``context`` = (rules, players, policies)."""
    R, players, policies = context
    S = new_game(R, players)
    turns = play_game(S, R, streams[1], streams[2], policies, scratch, row)
    game_row(S, R, turns, row)


@njit(cache=True)
def _scratch(context):
    return np.zeros((0, LOG_FIELDS), dtype=np.int64)  # no turn log in batches


@njit(cache=True, nogil=True)
def record_range(R, players, policies, seed, game0, n_games):
    """``record_games`` for games ``game0 .. game0 + n_games - 1`` on this thread."""
    return record_chunk(record_game, _scratch, (R, players, policies), N_FIELDS, seed,
                        game0, n_games)


def record_games(R, players, policies, seed, game0, n_games, chunk_size, progress=None):
    """Games ``game0 .. game0 + n_games - 1`` of ``players`` players under rules ``R``,
    player i by ``policies[i]`` (``policies.POLICY_NAMES`` ids): ``out[game, N_FIELDS]``
    (int16), the same for any ``chunk_size`` and number of threads."""
    assert R.shape[0] == R_SIZE
    return thread_rows(lambda g, k: record_range(R, np.int64(players), policies,
                                                 np.uint64(seed), game0 + g, k),
                       n_games, chunk_size, progress)


@njit(cache=True)
def play_from(S, R, policies, seed, game, log_rows):
    """Play ``S`` (between turns) to the end as game ``game`` of a run seeded ``seed``:
    (final state, log[turns, LOG_FIELDS], turns, the game row)."""
    streams = np.empty((3, 4), dtype=np.uint64)
    for i in range(3):
        reseed(streams[i], seed, 3 * game + i)
    log = np.zeros((log_rows, LOG_FIELDS), dtype=np.int64)
    row = np.zeros(N_FIELDS, dtype=np.int64)
    W = S.copy()
    turns = play_game(W, R, streams[1], streams[2], policies, log, row)
    game_row(W, R, turns, row)
    return W, log[:min(turns, log_rows)], turns, row
