"""Turns and whole games of Mumia, one at a time with a log of every move, or many in
ranges with the per-game facts a designer report reads (docs/games/mumia.md §3, §16).

Game ``r`` of a run seeded ``seed`` lays its tiles, hats and token pile from stream
(seed, 3r), rolls its dice from (seed, 3r + 1) and takes policy choices from
(seed, 3r + 2), so its row depends on (seed, r) only (``kernels.batch``).

One row (int16) per game: ``F_SCORE + p`` every seat's final score, ``F_WIN + p`` 1
for each seat that wins or shares the win, ``F_CAMELS + p`` camels held, ``F_CAMEL_GAIN
+ p`` what the camels added to the score, ``F_MUMMY + p`` mummy-token points, ``F_TURNS``,
``F_MOVES`` (moves, Extra moves and passes included; Swaps and Bottoms not), ``F_SUDDEN``
1 if a sudden end ended the game, ``F_LUCK``/``F_BAD`` the seat whose pawn took that hat
home (-1: none), ``F_DECISIONS + p`` the steps seat p's policy chose (moves, Extra moves
and passes, and random's Swaps and Bottoms: one per ``choose``); seats not in the game
hold -1.
"""

import numpy as np
from ..jit import njit

from ..batch import record_chunk
from ..rng import below, reseed
from ..threads import rows as thread_rows
from .choices import (
    C_BOTTOM, C_SWAP, MAX_CHOICES, N_COLS, RANDOM, apply_choice, choose, move_choices,
    token_choices, wants_extra,
)
from .layout import (
    CAMEL, EXTRA, FIN, MAX_PAWNS, MAX_SEATS, MAX_TILES, R_E4, R_FACES, R_PLAYERS, R_SIZE,
    S_BAD, S_LUCK, S_MPTS, S_MUMMY, S_OVER, S_PAWN, S_SIZE, S_STACK, S_STACK_N, S_TO_MOVE,
    SYM_M, SYM_NONE, SYM_P, SYM_PM, camels_held, home, kind_of, score, scores_and_wins,
)
from .moves import end_turn, spend_token
from .setup import new_game

MAX_TURNS = 10_000  # far more than a game takes: pawns only advance, guardians and the
# mummy leave the track after finitely many moves
LOG_FIELDS = 3 + N_COLS  # seat, number, symbol, then the choice row

F_SCORE = 0
F_WIN = F_SCORE + MAX_SEATS
F_CAMELS = F_WIN + MAX_SEATS
F_CAMEL_GAIN = F_CAMELS + MAX_SEATS
F_MUMMY = F_CAMEL_GAIN + MAX_SEATS
F_TURNS = F_MUMMY + MAX_SEATS
F_MOVES = F_TURNS + 1
F_SUDDEN = F_MOVES + 1
F_LUCK = F_SUDDEN + 1
F_BAD = F_LUCK + 1
F_DECISIONS = F_BAD + 1
N_FIELDS = F_DECISIONS + MAX_SEATS


@njit(cache=True)
def roll(S, R, rng):
    """(number 1..6, symbol): the picture die while the mummy is in play (its faces by
    ``picture_faces``), ``SYM_NONE`` after (§3)."""
    n = 1 + below(rng, 6)
    if S[S_MUMMY] < 0:
        return n, SYM_NONE
    total = R[R_FACES] + R[R_FACES + 1] + R[R_FACES + 2]
    r = below(rng, total)
    if r < R[R_FACES]:
        return n, SYM_P
    if r < R[R_FACES] + R[R_FACES + 1]:
        return n, SYM_M
    return n, SYM_PM


@njit(cache=True, inline="always")  # one kernel caller, play_move
def policy_choice(S, R, n, sym, policy, pol_rng, rows, work):
    """The index in ``rows`` (filled here) of the step ``policy`` takes for roll (``n``,
    ``sym``): ``random`` with E4 among every choice, the others among the moves (whether
    an Extra move follows is ``wants_extra``'s, after the move)."""
    every = policy == RANDOM and R[R_E4] != 0
    m = move_choices(S, R, n, sym, rows, every)
    if every:
        m += token_choices(S, R, n, sym, rows[m:])
    return choose(S, R, n, rows, m, policy, pol_rng, work)


@njit(cache=True)
def play_move(S, R, n, sym, policy, pol_rng, rows, work, log, entry):
    """The seat to move takes its steps of roll (``n``, ``sym``) by its policy: ``random``
    with E4 picks among every choice, Swaps, Bottom and ``+ token extra`` included (a
    Swap or Bottom is followed by another pick of the same roll), the others among the
    moves. Each step goes to ``log[entry]``, ``entry + 1`` ... if there is room.
    Returns (the log's next entry, True when an Extra move follows: §11.3, §16.4)."""
    every = policy == RANDOM and R[R_E4] != 0
    while True:
        i = policy_choice(S, R, n, sym, policy, pol_rng, rows, work)
        if entry < log.shape[0]:
            log[entry, 0] = S[S_TO_MOVE]
            log[entry, 1] = n
            log[entry, 2] = sym
            for c in range(N_COLS):
                log[entry, 3 + c] = rows[i, c]
        entry += 1
        apply_choice(S, R, rows[i], n)
        if rows[i, 0] != C_SWAP and rows[i, 0] != C_BOTTOM:
            break
        if S[S_OVER] != 0:
            return entry, False
    extra = rows[i, 5] != 0 if every else wants_extra(S, R, policy)
    if extra and not every and entry - 1 < log.shape[0]:
        log[entry - 1, 3 + N_COLS - 1] = 1  # the move is followed by an Extra move
    return entry, extra


@njit(cache=True, inline="always")  # small: its callers' code calls play_move
def finish_turn(S, R, extra, policy, dice, pol_rng, rows, work, log, entry):
    """The rest of a turn after a move (``extra``: an Extra move follows): Extra moves,
    each with both dice rolled again (§11.3), then the dice pass (§3). Returns (the log's
    next entry, the Extra moves made)."""
    extras = 0
    while extra:
        spend_token(S, S[S_TO_MOVE], EXTRA)
        n, sym = roll(S, R, dice)
        entry, extra = play_move(S, R, n, sym, policy, pol_rng, rows, work, log, entry)
        extras += 1
    end_turn(S, R)
    return entry, extras


@njit(cache=True, inline="always")  # a wrapper of play_counted
def play_game(S, R, dice, pol_rng, policies, log):
    """Play ``S`` to the end, seat p by ``policies[p]``; every step in ``log`` (as far as
    it has room). Returns (turns, steps logged or not, moves: Extra moves included, Swaps
    and Bottoms not)."""
    return play_counted(S, R, dice, pol_rng, policies, log, np.zeros(MAX_SEATS, np.int64))


@njit(cache=True, inline="always")  # small: its callers' code calls play_move
def play_counted(S, R, dice, pol_rng, policies, log, decisions):
    """``play_game``, adding to ``decisions[p]`` the steps seat p's policy chose."""
    rows = np.empty((MAX_CHOICES, N_COLS), dtype=np.int64)
    work = np.empty(S_SIZE, dtype=np.int64)
    turns = 0
    entry = 0
    moves = 0
    while S[S_OVER] == 0 and turns < MAX_TURNS:
        seat = S[S_TO_MOVE]
        policy = policies[seat]
        first = entry
        n, sym = roll(S, R, dice)
        entry, extra = play_move(S, R, n, sym, policy, pol_rng, rows, work, log, entry)
        entry, extras = finish_turn(S, R, extra, policy, dice, pol_rng, rows, work, log,
                                    entry)
        decisions[seat] += entry - first
        moves += 1 + extras
        turns += 1
    return turns, entry, moves


@njit(cache=True)
def camel_gain(S, R, p):
    """What seat ``p``'s camels add to its score: its score less its score without them."""
    work = S.copy()
    n = 0
    base = S_STACK + p * MAX_TILES
    for i in range(S[S_STACK_N + p]):
        code = S[base + i]
        if kind_of(code) != CAMEL:
            work[base + n] = code
            n += 1
    work[S_STACK_N + p] = n
    return score(S, R, p) - score(work, R, p)


@njit(cache=True)
def game_row(S, R, turns, moves, decisions, row):
    """The report's facts of a finished game into ``row`` (module docstring)."""
    scores = np.zeros(MAX_SEATS, dtype=np.int64)
    wins = np.zeros(MAX_SEATS, dtype=np.float64)
    scores_and_wins(S, R, scores, wins)
    n = R[R_PLAYERS]
    sudden = 0
    for p in range(MAX_SEATS):
        inside = p < n
        row[F_SCORE + p] = scores[p] if inside else -1
        row[F_WIN + p] = np.int64(wins[p]) if inside else -1
        row[F_CAMELS + p] = camels_held(S, p) if inside else -1
        row[F_CAMEL_GAIN + p] = camel_gain(S, R, p) if inside else -1
        row[F_MUMMY + p] = S[S_MPTS + p] if inside else -1
        row[F_DECISIONS + p] = decisions[p] if inside else -1
        if inside and not home(S, R, p):
            sudden = 1
    row[F_TURNS] = turns
    row[F_MOVES] = moves
    row[F_SUDDEN] = sudden
    for field, hat in ((F_LUCK, S[S_LUCK]), (F_BAD, S[S_BAD])):
        row[field] = hat // MAX_PAWNS if hat >= 0 and S[S_PAWN + hat] == FIN else -1


@njit(cache=True)
def record_game(context, scratch, streams, row):
    """``record_chunk``'s game: a new game of ``context`` = (rules, policies)."""
    R, policies = context
    S = new_game(R, streams[0])
    decisions = np.zeros(MAX_SEATS, dtype=np.int64)
    turns, _, moves = play_counted(S, R, streams[1], streams[2], policies, scratch,
                                   decisions)
    game_row(S, R, turns, moves, decisions, row)


@njit(cache=True)
def _scratch(context):
    return np.zeros((0, LOG_FIELDS), dtype=np.int64)  # no move log in batches


@njit(cache=True, nogil=True)
def record_range(R, policies, seed, game0, n_games):
    """``record_games`` for games ``game0 .. game0 + n_games - 1`` on this thread."""
    return record_chunk(record_game, _scratch, (R, policies), N_FIELDS, seed, game0, n_games)


def record_games(R, policies, seed, game0, n_games, chunk_size, progress=None):
    """Games ``game0 .. game0 + n_games - 1`` under rules ``R`` (``layout``), seat i
    following ``policies[i]`` (``choices.POLICY_NAMES`` ids): ``out[game, N_FIELDS]``
    (int16), the same for any ``chunk_size`` and number of threads."""
    assert R.shape[0] == R_SIZE
    return thread_rows(lambda g, k: record_range(R, policies, np.uint64(seed), game0 + g, k),
                       n_games, chunk_size, progress)


@njit(cache=True)
def one_game(R, policies, seed, game, log_rows):
    """Game ``game`` of a run seeded ``seed`` with its move log:
    (start state, final state, log[steps, LOG_FIELDS], turns)."""
    streams = np.empty((3, 4), dtype=np.uint64)
    for i in range(3):
        reseed(streams[i], seed, 3 * game + i)
    S = new_game(R, streams[0])
    start = S.copy()
    log = np.zeros((log_rows, LOG_FIELDS), dtype=np.int64)
    turns, steps, _ = play_game(S, R, streams[1], streams[2], policies, log)
    return start, S, log[:min(steps, log_rows)], turns
