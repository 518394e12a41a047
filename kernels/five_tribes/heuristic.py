"""The ``heuristic`` policy's turn: the sowings screened by where they end, the best few
played out with their best choices under a cheap evaluation (docs/games/five-tribes.md
§21.1).

No full turn is enumerated. **Screen** (``screen_targets``): every target (final tile t,
last colour c) that some sowing reaches with no earlier drop on t (start tiles s with a
walk of the stack's length from s to t visiting t only at its end, and a legal colour
order ending in c) gets one start tile, drawn uniformly among those s, and a screen
value (``target_value``): what ending there gives the mover if the game ended then, read
off the board before the sowing, with k = (c on t) + 1 meeples taken: the camel on t when
only c stood there (the tile's VP, 3 per palm, 5 per palace), the tile's palm or palace
(for its owner; an opponent's at the opponents' weight), the tribe action (Viziers: k VP
and the 10-VP comparisons won or taken from opponents; Elders: 2 VP each; Builders: k x
the blue tiles around, plus each Fakir where a blue tile is worth more than a Fakir;
Merchants: the first k cards of the row as suits, a Fakir card at its weight; Assassins:
the best camel a kill within reach k leaves a tile for, else an opponent's Elder), and at
a sacred place the best face-up djinn's VP less its price (2 Elders, or an Elder and a
Fakir). **Play-out**: the ``params[H_TOP]`` targets of the best screen value (the first
target in (t, c) order among equals) each get a uniform walk and colour order of their
start tile (``draw_walk``, ``draw_order``); ``params[H_SOWINGS]`` more sequences are
drawn uniformly from all of the board's (``draw_counted``; at least one when no target
qualifies; only these, as many as ``H_TOP`` + ``H_SOWINGS``, when a stack is taller than
``INT_STACK``). After each sowing, the tribe choice with the best evaluation is made,
then the tile choice with the best evaluation (one after the other, not every pair); the
sowing whose turn evaluates best is played (the first tried among equals). The turn never
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
from ..rng import below
from .board import COLS, N_COLOURS, N_TILES
from .complete_turns import (
    A_COLOUR, A_COLOURS, A_LEN, A_PATH, A_START, A_TAKEN, A_TILE, A_TILE_ACTION, ACTION_SIZE,
    TA_NONE, TILE_ROWS, TRIBE_ROWS, clear_action, play_sowing, play_tile, play_tribe,
    player_parts, tile_options, tribe_options,
)
from .data import DJINN_VP, OASIS, PALACES, PALMS, SACRED_PLACE, VILLAGE
from .scoring import N_GOODS, SCORE_PARTS, suit_value
from .sowing import MAX_STACK, _order_table, _tallest
from .sowing_count import (
    INT_STACK, _term_orders, count_sowings, draw_counted, draw_order, draw_walk, random_sowing,
)
from .state import (
    DJINN_ROW, END_RULE, FAKIR_CARD, N_PLAYERS, P_CAMELS, P_ELDERS, P_FAKIRS, P_GOODS,
    P_VIZIERS, ROW, STATE_SIZE, T_OWNER, T_PALACES, T_PALMS, T_TYPE, T_VP, TO_MOVE,
    meeples,
)
from .turn_steps import blue_around

H_SOWINGS, H_FAKIR, H_OPPONENTS, H_TOP = range(4)
_Y, _W, _B, _G, _R = range(N_COLOURS)  # meeple colours (``COLOURS`` order YWBGR)
RED = _R  # the Assassins' colour
TRIBE, TILE = range(2)  # the two choices after a sowing
N_TARGETS = N_TILES * N_COLOURS  # targets (final tile t, last colour c) as t * 5 + c
# the 4 targets of the best screen value and no uniform draw: a little faster than the 4
# uniform draws it replaced (bench/bench_five_tribes_heuristic.py); Fakirs at 1 VP;
# opponents' gains at half weight
HEURISTIC_PARAMS = np.array([0.0, 1.0, 0.5, 4.0])
N_TOTAL = len(SCORE_PARTS) - 1  # index of the total among ``player_parts``' outputs


@njit(cache=True)
def heuristic_workspace():
    """Scratch of ``heuristic_turn``: (best action, candidate action, state after the
    sowing, after the tribe action, a trial state, tribe options, tile options, sowings per
    start tile, order table, scores before the turn, a score row; the screen's value,
    start tile and starts seen per target, goods and hand scratch)."""
    return (np.zeros(ACTION_SIZE, dtype=np.int64), np.zeros(ACTION_SIZE, dtype=np.int64),
            np.zeros(STATE_SIZE, dtype=np.int64), np.zeros(STATE_SIZE, dtype=np.int64),
            np.zeros(STATE_SIZE, dtype=np.int64), np.zeros((TRIBE_ROWS, 4), dtype=np.int64),
            np.zeros((TILE_ROWS, 5), dtype=np.int64), np.zeros(N_TILES, dtype=np.int64),
            np.zeros((5, MAX_STACK), dtype=np.int64), np.zeros(4, dtype=np.int64),
            np.zeros(N_TOTAL + 1, dtype=np.int64), np.zeros(N_TARGETS),
            np.zeros(N_TARGETS, dtype=np.int64), np.zeros(N_TARGETS, dtype=np.int64),
            np.zeros(N_GOODS, dtype=np.int64), np.zeros(N_COLOURS, dtype=np.int64))


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


# --------------------------------------------------------------------------- the screen


@njit(cache=True)
def _claim_worth(st, t):
    """VP of a camel on ``t``: the tile's VP, 3 per palm, 5 per palace."""
    return st[T_VP + t] + 3 * st[T_PALMS + t] + 5 * st[T_PALACES + t]


@njit(cache=True)
def _vizier_gain(st, mover, k, opp):
    """Screen value of ``k`` more Viziers: k VP, the 10-VP comparisons won, and those the
    opponents lose at weight ``opp`` each."""
    mine = st[P_VIZIERS + mover]
    v = float(k)
    for q in range(st[N_PLAYERS]):
        if q != mover:
            vq = st[P_VIZIERS + q]
            v += 10.0 * ((mine + k > vq) - (mine > vq))
            v += opp * 10.0 * ((vq > mine) - (vq > mine + k))
    return v


@njit(cache=True)
def _goods_gain(st, mover, k, fakir, goods):
    """Screen value of the first ``k`` cards of the row: the suits' gain, ``fakir`` per
    Fakir card (``goods``: scratch of ``N_GOODS``)."""
    base = P_GOODS + mover * N_GOODS
    copy_into(goods, st[base:base + N_GOODS])
    before = suit_value(goods, 0, False)
    v = 0.0
    for i in range(min(k, 9)):
        card = st[ROW + i]
        if card < 0:
            break
        if card == FAKIR_CARD:
            v += fakir
        else:
            goods[card] += 1
    return v + suit_value(goods, 0, False) - before


@njit(cache=True)
def _kill_gain(st, mover, t, left_on_t, reach, opp, camels):
    """Screen value of the Assassins' best kill within ``reach`` of ``t``: the camel on a
    free tile it empties (``left_on_t``: meeples left on ``t``), else 2 VP at weight
    ``opp`` (an opponent's Elder or Vizier)."""
    best = 0.0
    for q in range(st[N_PLAYERS]):
        if q != mover and st[P_ELDERS + q] + st[P_VIZIERS + q] > 0:
            best = 2.0 * opp
    if camels == 0:
        return best
    for u in range(N_TILES):
        far = abs(u // COLS - t // COLS) + abs(u % COLS - t % COLS) > reach
        if far or st[T_OWNER + u] >= 0:
            continue
        on = left_on_t if u == t else meeples(st)[u].sum()
        if on == 1:
            best = max(best, float(_claim_worth(st, u)))
    return best


@njit(cache=True)
def _djinn_gain(st, mover, elders, fakir):
    """Screen value of a sacred place with ``elders`` Elders: the best face-up djinn's VP
    less its price (2 Elders at 2 VP, else an Elder and a Fakir), 0 if none pays."""
    if elders >= 2:
        cost = 4.0
    elif elders == 1 and st[P_FAKIRS + mover] > 0:
        cost = 2.0 + fakir
    else:
        return 0.0
    best = 0.0
    for d in range(3):
        if st[DJINN_ROW + d] >= 0:
            best = max(best, DJINN_VP[st[DJINN_ROW + d]] - cost)
    return best


@njit(cache=True)
def target_value(st, mover, t, c, params, goods):
    """The screen value (module doc) for ``mover`` of a sowing ending on ``t`` with
    colour ``c`` and no earlier drop on ``t`` (``goods``: scratch of ``N_GOODS``)."""
    opp = params[H_OPPONENTS] / max(st[N_PLAYERS] - 1, 1)
    on_t = meeples(st)[t].sum()
    k = meeples(st)[t, c] + 1
    owner, camels = st[T_OWNER + t], st[P_CAMELS + mover]
    v = 0.0
    if owner < 0 and camels > 0 and on_t == k - 1:
        v += _claim_worth(st, t)
        owner, camels = mover, camels - 1
    kind = st[T_TYPE + t]
    piece = 0
    if kind == OASIS and st[T_PALMS:T_PALMS + N_TILES].sum() < PALMS:
        piece = 3
    elif kind == VILLAGE and st[T_PALACES:T_PALACES + N_TILES].sum() < PALACES:
        piece = 5
    v += piece if owner == mover else (-opp * piece if owner >= 0 else 0.0)
    elders = st[P_ELDERS + mover]
    if c == _Y:
        v += _vizier_gain(st, mover, k, opp)
    elif c == _W:
        v += 2.0 * k
        elders += k
    elif c == _B:
        blue = blue_around(st, t)
        v += k * blue + st[P_FAKIRS + mover] * max(0.0, blue - params[H_FAKIR])
    elif c == _G:
        v += _goods_gain(st, mover, k, params[H_FAKIR], goods)
    else:
        v += _kill_gain(st, mover, t, on_t - k + 1, k, opp, camels)
    if kind == SACRED_PLACE:
        v += _djinn_gain(st, mover, elders, params[H_FAKIR])
    return v


@njit(cache=True)
def screen_targets(st, rng, paths, params, hw):
    """The screen (module doc): for every target h = t * 5 + c reached with no earlier
    drop on t, ``hw[13][h]`` > 0, a start tile ``hw[12][h]`` (uniform among those that
    reach it) and the screen value ``hw[11][h]``. ``paths``: ``walk_tables()[1]``;
    returns the number of targets."""
    value, start, seen, goods, hand, tab = hw[11], hw[12], hw[13], hw[14], hw[15], hw[8]
    counts = meeples(st)
    seen[:] = 0
    for s in range(N_TILES):
        n = counts[s].sum()
        if n == 0:
            continue
        copy_into(hand, counts[s])
        _order_table(hand, n, st[END_RULE], tab)
        for t in range(N_TILES):
            d = abs(s // COLS - t // COLS) + abs(s % COLS - t % COLS)
            if d > n or (n - d) % 2 or paths[s, n, t, 0] == 0:
                continue
            for c in range(N_COLOURS):
                if _term_orders(counts, s, t, 0, c, st[END_RULE], tab) > 0:
                    h = t * N_COLOURS + c
                    seen[h] += 1
                    if below(rng, seen[h]) == 0:
                        start[h] = s
    found = 0
    for h in range(N_TARGETS):
        if seen[h]:
            value[h] = target_value(st, st[TO_MOVE], h // N_COLOURS, h % N_COLOURS, params,
                                    goods)
            found += 1
    return found


# --------------------------------------------------------------------------- the turn


@njit(cache=True)
def _best_target(hw):
    """The unplayed target of the best screen value (the first among equals), marked
    played (``hw[13]`` zeroed)."""
    value, seen = hw[11], hw[13]
    h = -1
    for i in range(N_TARGETS):
        if seen[i] and (h < 0 or value[i] > value[h]):
            h = i
    seen[h] = 0
    return h


@njit(cache=True)
def _try(st, act, mover, params, hw, best_value):
    """Play the sowing in ``act`` on a copy of ``st`` with its best choices; if its turn
    evaluates above ``best_value``, it becomes the best action ``hw[0]``. Returns the best
    value."""
    copy_into(hw[2], st)
    play_sowing(hw[2], act, mover)
    value = _choices(st, act, mover, params, hw)
    if value > best_value:
        copy_into(hw[0], act)
        return value
    return best_value


@njit(cache=True)
def heuristic_turn(st, rng, params, tables, hw):
    """The heuristic turn of the player to move in ``st`` (module doc) into ``hw[0]`` (an
    ``apply_turn`` row; ``st`` unchanged). ``tables``: ``walk_tables()``; ``hw``:
    ``heuristic_workspace()``. Returns the row."""
    mover = st[TO_MOVE]
    act = hw[1]
    clear_action(hw[0])
    hw[0][A_TILE_ACTION] = TA_NONE
    counts = meeples(st)
    tall = _tallest(counts) > INT_STACK
    found = 0 if tall else screen_targets(st, rng, tables[1], params, hw)
    _totals(st, hw[9], hw[10])
    best_value = -1e300
    for _ in range(min(int(params[H_TOP]), found)):
        h = _best_target(hw)
        s, t, c = hw[12][h], h // N_COLOURS, h % N_COLOURS
        clear_action(act)
        n = counts[s].sum()
        draw_walk(tables[0], s, t, 0, n, rng, act[A_PATH:A_COLOURS])
        draw_order(counts, s, t, c, n, rng, act[A_PATH:A_COLOURS], act[A_COLOURS:A_TILE])
        act[A_START], act[A_LEN] = s, n
        best_value = _try(st, act, mover, params, hw, best_value)
    draws = int(params[H_SOWINGS]) + (int(params[H_TOP]) if tall else 0)
    if found == 0:
        draws = max(draws, 1)
    per_start, tab = hw[7], hw[8]
    total = 0 if tall or draws == 0 else count_sowings(counts, st[END_RULE], tables,
                                                      per_start, tab)
    for _ in range(draws):
        clear_action(act)
        if tall:
            s, n = random_sowing(counts, st[END_RULE], tables, rng, per_start, tab,
                                 act[A_PATH:A_COLOURS], act[A_COLOURS:A_TILE])
        elif total > 0:
            s, n = draw_counted(counts, st[END_RULE], tables, rng, per_start, total, tab,
                                act[A_PATH:A_COLOURS], act[A_COLOURS:A_TILE])
        else:
            s, n = -1, 0
        if n == 0:
            break
        act[A_START], act[A_LEN] = s, n
        best_value = _try(st, act, mover, params, hw, best_value)
    return hw[0]
