"""The ``heuristic`` policy's turn: a few sampled sowings, each followed by its best
choices under a cheap evaluation (docs/games/five-tribes.md §21.1).

No full turn is enumerated. The board's sowings are counted once (``count_sowings``) and
``params[H_SOWINGS]`` full sequences are drawn uniformly from them (with repetition;
``draw_counted``). After each, the tribe choice with the best evaluation is made, then
the tile choice with the best evaluation (one after the other, not every pair); the
sowing whose turn evaluates best is played (the first drawn among equals). The turn never
sells and uses no paid djinn power (the passive ones act), as ``random``.

Evaluation of a state reached in the turn, for the mover m (``evaluation``):
change of m's final score if the game ended then (VP, §13) + ``params[H_FAKIR]`` x the
Fakirs m gained − ``params[H_OPPONENTS]`` x the mean change of the opponents' final scores
(a kill or a vizier overtaken counts). The Assassins' choices looked at are those paying no
Fakir when one exists (a kill in reach), else every one.
"""

import numpy as np
from ..jit import njit

from ..arrays import copy_into
from .board import N_TILES
from .complete_turns import (
    A_COLOUR, A_COLOURS, A_LEN, A_PATH, A_START, A_TAKEN, A_TILE, A_TILE_ACTION, ACTION_SIZE,
    TA_NONE, TILE_ROWS, TRIBE_ROWS, clear_action, play_sowing, play_tile, play_tribe,
    player_parts, tile_options, tribe_options,
)
from .scoring import SCORE_PARTS
from .sowing import MAX_STACK, _tallest
from .sowing_count import INT_STACK, count_sowings, draw_counted, random_sowing
from .state import END_RULE, N_PLAYERS, P_FAKIRS, STATE_SIZE, TO_MOVE, meeples

H_SOWINGS, H_FAKIR, H_OPPONENTS = range(3)
RED = 4  # the Assassins' colour (``COLOURS`` order YWBGR)
TRIBE, TILE = range(2)  # the two choices after a sowing
# 4 sowings a turn: about 1,000 whole 4-player games a second on 2 threads
# (bench/bench_five_tribes_strategy.py); Fakirs at 1 VP; opponents' gains at half weight
HEURISTIC_PARAMS = np.array([4.0, 1.0, 0.5])
N_TOTAL = len(SCORE_PARTS) - 1  # index of the total among ``player_parts``' outputs


@njit(cache=True)
def heuristic_workspace():
    """Scratch of ``heuristic_turn``: (best action, candidate action, state after the
    sowing, after the tribe action, a trial state, tribe options, tile options, sowings per
    start tile, order table, scores before the turn, a score row)."""
    return (np.zeros(ACTION_SIZE, dtype=np.int64), np.zeros(ACTION_SIZE, dtype=np.int64),
            np.zeros(STATE_SIZE, dtype=np.int64), np.zeros(STATE_SIZE, dtype=np.int64),
            np.zeros(STATE_SIZE, dtype=np.int64), np.zeros((TRIBE_ROWS, 4), dtype=np.int64),
            np.zeros((TILE_ROWS, 5), dtype=np.int64), np.zeros(N_TILES, dtype=np.int64),
            np.zeros((5, MAX_STACK), dtype=np.int64), np.zeros(4, dtype=np.int64),
            np.zeros(N_TOTAL + 1, dtype=np.int64))


@njit(cache=True)
def _totals(st, out, row):
    """Every seat's final score if the game ended now into ``out`` (``row``: scratch)."""
    for p in range(st[N_PLAYERS]):
        player_parts(st, p, row)
        out[p] = row[N_TOTAL]


@njit(cache=True)
def evaluation(s, before, fakirs_before, mover, params, row):
    """The module doc's evaluation of ``s`` for ``mover`` (``before``: every seat's final
    score before the turn; ``row``: scratch)."""
    players = s[N_PLAYERS]
    mine = 0.0
    others = 0.0
    for p in range(players):
        player_parts(s, p, row)
        change = row[N_TOTAL] - before[p]
        if p == mover:
            mine = change
        else:
            others += change
    value = mine + params[H_FAKIR] * (s[P_FAKIRS + mover] - fakirs_before)
    return value - params[H_OPPONENTS] * others / max(players - 1, 1)


@njit(cache=True)
def _play(s, act, mover, step, option):
    """Play the tribe (``step`` TRIBE) or tile (TILE) choice ``option`` on ``s``."""
    if step == TRIBE:
        play_tribe(s, act, mover, option)
    else:
        play_tile(s, act, mover, option)


@njit(cache=True)
def _best_choice(base, act, mover, step, options, n, skip_paid, fakirs, params, hw):
    """(index, evaluation) of the first best of ``options[:n]`` of ``step`` played on
    ``base`` (``skip_paid``: leave out the choices paying Fakirs)."""
    trial, before, row = hw[4], hw[9], hw[10]
    best, best_value = 0, -1e300
    for i in range(n):
        if skip_paid and options[i, 0] > 0:
            continue
        copy_into(trial, base)
        _play(trial, act, mover, step, options[i])
        value = evaluation(trial, before, fakirs, mover, params, row)
        if value > best_value:
            best, best_value = i, value
    return best, best_value


@njit(cache=True)
def _choices(st, act, mover, params, hw):
    """After the sowing in ``act`` (state ``hw[2]``): the best tribe choice, then the best
    tile choice, both recorded in ``act``; returns the evaluation of the turn."""
    after_sow, after_tribe, tribe, tiles = hw[2], hw[3], hw[5], hw[6]
    fakirs = st[P_FAKIRS + mover]
    n_tribe = tribe_options(after_sow, mover, act[A_TILE], act[A_COLOUR], act[A_TAKEN], tribe)
    free = False  # an Assassins' choice paying no Fakir exists (module doc)
    if act[A_COLOUR] == RED:
        for i in range(n_tribe):
            free = free or tribe[i, 0] == 0
    best, _ = _best_choice(after_sow, act, mover, TRIBE, tribe, n_tribe, free, fakirs, params,
                           hw)
    copy_into(after_tribe, after_sow)
    play_tribe(after_tribe, act, mover, tribe[best])
    n_tile = tile_options(after_tribe, mover, act[A_TILE], tiles)
    best, value = _best_choice(after_tribe, act, mover, TILE, tiles, n_tile, False, fakirs,
                               params, hw)
    copy_into(hw[4], after_tribe)
    play_tile(hw[4], act, mover, tiles[best])  # its choice recorded in ``act`` again
    return value


@njit(cache=True)
def heuristic_turn(st, rng, params, tables, hw):
    """The heuristic turn of the player to move in ``st`` (module doc) into ``hw[0]`` (an
    ``apply_turn`` row; ``st`` unchanged). ``tables``: ``walk_tables()``; ``hw``:
    ``heuristic_workspace()``. Returns the row."""
    mover = st[TO_MOVE]
    best_act, act = hw[0], hw[1]
    clear_action(best_act)
    best_act[A_TILE_ACTION] = TA_NONE
    counts = meeples(st)
    per_start, tab = hw[7], hw[8]
    tall = _tallest(counts) > INT_STACK
    total = 0 if tall else count_sowings(counts, st[END_RULE], tables, per_start, tab)
    if not tall and total == 0:
        return best_act
    _totals(st, hw[9], hw[10])
    best_value = -1e300
    for _ in range(int(params[H_SOWINGS])):
        clear_action(act)
        if tall:
            start, n = random_sowing(counts, st[END_RULE], tables, rng, per_start, tab,
                                     act[A_PATH:A_COLOURS], act[A_COLOURS:A_TILE])
            if n == 0:
                return best_act
        else:
            start, n = draw_counted(counts, st[END_RULE], tables, rng, per_start, total, tab,
                                    act[A_PATH:A_COLOURS], act[A_COLOURS:A_TILE])
        act[A_START], act[A_LEN] = start, n
        copy_into(hw[2], st)
        play_sowing(hw[2], act, mover)
        value = _choices(st, act, mover, params, hw)
        if value > best_value:
            best_value = value
            copy_into(best_act, act)
    return best_act
