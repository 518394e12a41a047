"""Whole Five Tribes games from a fresh deal with the per-game facts a designer report
needs.

Game ``r`` of a run seeded ``seed`` is dealt from chance stream (seed, 3r), draws its
policies' random choices from (seed, 3r + 1) and its clean-up refills from (seed, 3r + 2),
so a game's record depends on (seed, r) only: never on chunking, threads or Dask workers
(``kernels.batch``).

Policies (``POLICY_NAMES``, one per seat):

- ``random``: bids a uniformly random legal space (``legal_bids``); a turn is a uniformly
  random full sowing sequence (every row of ``list_sowings`` equally likely, drawn
  without listing them: ``random_sowing``; none: the no-sowing turn), then a uniformly
  random tribe choice (``tribe_options``) and tile choice (``tile_options``, skipping an
  optional action included); it never sells. Played through ``apply_turn``.
- ``greedy``: plays ``greedy_turn`` (the best exact complete turn) and bids the cheapest
  free space (a zero space while one is free). This bid rule is NOT the analyser's bid
  model (``analyser.five_tribes.advise.bid_values``, which values each space by the turn
  it would allow), so the analyser's ``simulate`` plays other games than this policy.

The game loop is the analyser's (``analyser.five_tribes.simulate``): bids until the turns
begin, every marker's turn, clean-up, then the end check of ``game_over`` (``end_code``).
A sowing takes at least 2 meeples off the board for good (nothing puts them back: djinn
powers are not played) and every round but the last has one, so a game lasts at most 45
rounds; ``MAX_ROUNDS`` is a safety cap, flagged in the row if ever hit.

One row of ``record_games`` (int16: every field stays far below 2**15) per game, fields at
the ``F_*`` offsets, per-seat blocks of ``MAX_PLAYERS`` (0 for seats not in the game):
``F_TOTAL`` final score per seat (-1: no such seat); ``F_PARTS`` its parts, seat-major,
``SCORE_PARTS`` without the total; ``F_ROUNDS`` rounds played; ``F_END`` the end
conditions that hold at the end (``END_CAMELS`` bit: a player has placed his last camel;
``END_NO_SOWING`` bit: no legal sowing is left; 0: the cap was hit); ``F_CAPPED`` 1 if
``MAX_ROUNDS`` were played without an end; ``F_NO_SOWING_TURNS`` turns played without a
legal sowing; ``F_FIRST_BIDDER`` the seat whose marker bids first in round 1; per seat
``F_BID_GOLD`` gold paid for bids, ``F_CAMELS`` camels placed, ``F_DJINNS`` djinns taken,
``F_TURNS`` turns played; ``F_TRIBES`` per seat and tribe (``COLOURS`` order, seat-major)
the turns that took that tribe's meeples.
"""

import numpy as np
from numba import njit

from ..arrays import copy_into
from ..batch import record_chunk
from ..rng import below, next_u64
from ..threads import rows
from .board import COLS, N_COLOURS, N_TILES, NEIGHBOURS
from .data import DJINNS, FAKIRS
from .rounds import cleanup, deal, legal_bids, place_bid
from .scoring import SCORE_PARTS
from .sowing import LIVE, MAX_STACK, _order_table
from .state import (
    BID_ORDER, BIDDING, DJINN_ROW, END_RULE, MAX_PLAYERS, N_PLAYERS, P_CAMELS, P_DJINNS,
    P_GOLD, PHASE, ROW, STATE_SIZE, T_OWNER, TO_MOVE, TURN_TRACK, meeples,
)
from .complete_turns import (
    A_COLOUR, A_COLOURS, A_LEN, A_PATH, A_START, A_TAKEN, A_TILE, A_TILE_ACTION, ACTION_SIZE,
    TA_NONE, apply_turn, clear_action, play_sowing, play_tile, play_tribe,
    player_parts, tile_options, tribe_options, turns,
)

POLICY_NAMES = ("random", "greedy")
P_RANDOM, P_GREEDY = 0, 1
MAX_ROUNDS = 60  # safety cap: the rules end a game within 45 rounds (module doc)
N_SCORE = len(SCORE_PARTS) - 1  # parts without the total
END_CAMELS = 1
END_NO_SOWING = 2
N_DJINNS = len(DJINNS)
_TRIBE_ROWS = (N_TILES * N_COLOURS + 2 * MAX_PLAYERS) * (FAKIRS + 1) + 1  # tribe_options
_TILE_ROWS = 16  # tile_options' most rows (a large market: skip + 15 pairs)

F_TOTAL = 0  # MAX_PLAYERS
F_PARTS = F_TOTAL + MAX_PLAYERS  # MAX_PLAYERS x N_SCORE, seat-major
F_ROUNDS = F_PARTS + MAX_PLAYERS * N_SCORE
F_END = F_ROUNDS + 1
F_CAPPED = F_END + 1
F_NO_SOWING_TURNS = F_CAPPED + 1
F_FIRST_BIDDER = F_NO_SOWING_TURNS + 1
F_BID_GOLD = F_FIRST_BIDDER + 1  # MAX_PLAYERS
F_CAMELS = F_BID_GOLD + MAX_PLAYERS  # MAX_PLAYERS
F_DJINNS = F_CAMELS + MAX_PLAYERS  # MAX_PLAYERS
F_TURNS = F_DJINNS + MAX_PLAYERS  # MAX_PLAYERS
F_TRIBES = F_TURNS + MAX_PLAYERS  # MAX_PLAYERS x N_COLOURS, seat-major
N_FIELDS = F_TRIBES + MAX_PLAYERS * N_COLOURS


# --------------------------------------------------------------------------- sowings


def _back() -> np.ndarray:
    """``[tile, k]``: the slot of ``tile`` among the neighbours of its k-th neighbour."""
    out = np.full((N_TILES, 4), -1, dtype=np.int64)
    for t in range(N_TILES):
        for k in range(4):
            nb = NEIGHBOURS[t, k]
            if nb >= 0:
                out[t, k] = list(NEIGHBOURS[nb]).index(t)
    return out


BACK_SLOT = _back()
NO_PREVIOUS = 4  # the "entered from" slot of a walk's start tile: no previous tile
MAX_EARLIER = (MAX_STACK - 1) // 4  # a walk revisits a tile after >= 4 steps (grid girth)


@njit(cache=True)
def walk_tables():
    """(``walks``, ``paths``), pure board geometry. ``walks[t, cur, came, k, e]``: the
    non-backtracking walks of exactly ``k`` more steps from tile ``cur`` (entered from its
    neighbour slot ``came``; ``NO_PREVIOUS``: no previous tile) that end on tile ``t`` and step
    on ``t`` exactly ``e`` times before their last step; k <= ``MAX_STACK``.
    ``paths[s, n, t, e] = walks[t, s, NO_PREVIOUS, n, e]``: the sowing paths of a stack of n on
    ``s`` that end on ``t`` after ``e`` earlier visits (laid out for ``count_sowings``)."""
    walks = np.zeros((N_TILES, N_TILES, 5, MAX_STACK + 1, MAX_EARLIER + 1), dtype=np.int64)
    for t in range(N_TILES):
        walks[t, t, :, 0, 0] = 1
        for k in range(1, MAX_STACK + 1):
            for cur in range(N_TILES):
                for came in range(5):
                    if came < 4 and NEIGHBOURS[cur, came] < 0:
                        continue
                    for j in range(4):
                        nb = NEIGHBOURS[cur, j]
                        if nb < 0 or j == came:
                            continue
                        visit = 1 if nb == t and k > 1 else 0
                        for e in range(visit, MAX_EARLIER + 1):
                            walks[t, cur, came, k, e] += walks[t, nb, BACK_SLOT[cur, j], k - 1,
                                                               e - visit]
    paths = np.zeros((N_TILES, MAX_STACK + 1, N_TILES, MAX_EARLIER + 1), dtype=np.int64)
    for s in range(N_TILES):
        for n in range(MAX_STACK + 1):
            for t in range(N_TILES):
                copy_into(paths[s, n, t], walks[t, s, NO_PREVIOUS, n])
    return walks, paths


@njit(cache=True)
def _uniform(rng, n):
    """An integer uniform on [0, n): ``below`` for n < 2**32, else 64 random bits modulo
    n (a bias below n / 2**64)."""
    if n < 4294967296:
        return below(rng, n)
    return np.int64(next_u64(rng) % np.uint64(n))


@njit(cache=True, inline="always")
def _legal(counts, s, t, c):
    """The final tile ``t`` holds colour ``c`` before a sowing from ``s`` (emptied)."""
    return t != s and counts[t, c] > 0


@njit(cache=True)
def _start_weight(counts, s, n, end_rule, paths, tab, pick, out_tec):
    """The full sowing sequences from start tile ``s`` (a stack of ``n``; ``tab``: its
    ``sowing._order_table``): the sum over final tile t, earlier visits e to t and last
    colour c of (paths of that t and e, ``walk_tables``) x (legal colour orders, the cases
    of ``sowing._path_orders``: c already on t, any e: every order ending in c; c not on t,
    live rule and e >= 1: those in which an earlier visit to t gets a c too). With
    ``pick`` >= 0, stop at the (t, e, c) term holding sequence ``pick`` of ``s``:
    ``out_tec`` = (t, e, c, ``pick`` within the term); returns the sequences before it."""
    w = 0
    for t in range(N_TILES):
        d = abs(s // COLS - t // COLS) + abs(s % COLS - t % COLS)
        if d > n or (n - d) % 2:
            continue
        for e in range(MAX_EARLIER + 1):
            ways = paths[s, n, t, e]
            if ways == 0:
                continue
            for c in range(N_COLOURS):
                if counts[s, c] == 0:
                    continue
                if _legal(counts, s, t, c):
                    orders = tab[c, 0]
                elif e >= 1 and end_rule == LIVE:
                    orders = tab[c, e]
                else:
                    continue
                if 0 <= pick < w + ways * orders:
                    out_tec[0], out_tec[1], out_tec[2], out_tec[3] = t, e, c, pick - w
                    return w
                w += ways * orders
    return w


@njit(cache=True)
def count_sowings(counts, end_rule, tables, per_start, tab):
    """The number of full sowing sequences of ``counts[30, 5]`` (``list_sowings``' rows)
    in closed form (``_start_weight``): ``per_start[30]`` gets each start tile's share;
    ``tab``: scratch of (5, ``MAX_STACK``); ``tables``: ``walk_tables()``."""
    total = 0
    none = np.zeros(4, dtype=np.int64)
    hand = np.zeros(N_COLOURS, dtype=np.int64)
    for s in range(N_TILES):
        n = counts[s].sum()
        per_start[s] = 0
        if n == 0:
            continue
        copy_into(hand, counts[s])
        _order_table(hand, n, end_rule, tab)
        per_start[s] = _start_weight(counts, s, n, end_rule, tables[1], tab, np.int64(-1),
                                      none)
        total += per_start[s]
    return total


@njit(cache=True)
def random_sowing(counts, end_rule, tables, rng, per_start, tab, path, colours):
    """A uniformly random full sowing sequence of ``counts[30, 5]`` (every row of
    ``list_sowings`` equally likely), drawn without listing them: a uniform sequence
    number picks the start tile and the (t, e, c) term of the closed-form count, then a
    uniform walk among that term's paths (descent through ``walks``, each step weighted by
    the walks that can still finish) and a uniform order of the rest of the stack before
    the last c (a shuffle, redrawn while c is legal only through an earlier drop and no
    earlier visit to t got one). ``tables``: ``walk_tables()``; ``per_start``, ``tab``:
    scratch of ``count_sowings``. Writes the tiles stepped on and the colours dropped into
    ``path[:n]``, ``colours[:n]`` and returns (start, n); (-1, 0) if there is no legal
    sowing."""
    walks = tables[0]
    total = count_sowings(counts, end_rule, tables, per_start, tab)
    if total == 0:
        return -1, 0
    k = _uniform(rng, total)
    s = 0
    while k >= per_start[s]:
        k -= per_start[s]
        s += 1
    n = counts[s].sum()
    hand = counts[s].copy()
    _order_table(hand, n, end_rule, tab)
    tec = np.zeros(4, dtype=np.int64)
    _start_weight(counts, s, n, end_rule, tables[1], tab, k, tec)
    t, e, c = tec[0], tec[1], tec[2]
    cur, came, left, earlier = s, NO_PREVIOUS, n, e
    weights = np.zeros(4, dtype=np.int64)
    for i in range(n):  # a uniform walk among those of this (t, e)
        total = np.int64(0)
        for j in range(4):
            nb = NEIGHBOURS[cur, j]
            weights[j] = 0
            if nb < 0 or j == came:
                continue
            visit = 1 if nb == t and left > 1 else 0
            if earlier >= visit:
                weights[j] = walks[t, nb, BACK_SLOT[cur, j], left - 1, earlier - visit]
            total += weights[j]
        r = _uniform(rng, total)
        j = 0
        while r >= weights[j]:
            r -= weights[j]
            j += 1
        nb = NEIGHBOURS[cur, j]
        if nb == t and left > 1:
            earlier -= 1
        path[i] = nb
        came = BACK_SLOT[cur, j]
        cur = nb
        left -= 1
    hand[c] -= 1
    m = 0
    for x in range(N_COLOURS):
        for _ in range(hand[x]):
            colours[m] = x
            m += 1
    colours[n - 1] = c
    while True:  # a uniform order of the rest; c legal only through an earlier drop: redraw
        for i in range(n - 2, 0, -1):
            j = below(rng, i + 1)
            colours[i], colours[j] = colours[j], colours[i]
        if _legal(counts, s, t, c):
            break
        ok = False
        for i in range(n - 1):
            if path[i] == t and colours[i] == c:
                ok = True
        if ok:
            break
    return s, n


# --------------------------------------------------------------------------- policies


@njit(cache=True)
def choose_bid(st, policy, rng, spaces):
    """The space the bid order track's front marker bids under ``policy`` (``spaces``:
    scratch of 9): ``random`` any legal one uniformly; ``greedy`` the cheapest legal one
    (the last of ``legal_bids``: a zero space while one is free)."""
    n = legal_bids(st, spaces)
    if policy == P_RANDOM:
        return spaces[below(rng, n)]
    return spaces[n - 1]


@njit(cache=True)
def random_turn(st, rng, act, tables, scratch, tribe, tiles, per_start, tab):
    """A uniformly random complete turn of the player to move (module doc) into ``act``
    (an ``apply_turn`` row; ``st`` unchanged). ``scratch``: a state-sized work array;
    ``tribe`` and ``tiles``: option buffers of ``tribe_options`` and ``tile_options``;
    ``per_start``, ``tab``: scratch of ``count_sowings``; ``tables``: ``walk_tables()``."""
    mover = st[TO_MOVE]
    clear_action(act)
    start, n = random_sowing(meeples(st), st[END_RULE], tables, rng, per_start, tab,
                             act[A_PATH:A_COLOURS], act[A_COLOURS:A_TILE])
    if n == 0:
        act[A_TILE_ACTION] = TA_NONE
        return
    act[A_START], act[A_LEN] = start, n
    copy_into(scratch, st)
    play_sowing(scratch, act, mover)
    n_tribe = tribe_options(scratch, mover, act[A_TILE], act[A_COLOUR], act[A_TAKEN], tribe)
    play_tribe(scratch, act, mover, tribe[below(rng, n_tribe)])
    n_tile = tile_options(scratch, mover, act[A_TILE], tiles)
    play_tile(scratch, act, mover, tiles[below(rng, n_tile)])


@njit(cache=True)
def turn_workspace():
    """Scratch arrays of ``choose_turn``: (action, state, tribe options, tile options,
    sequences per start tile, order table)."""
    return (np.zeros(ACTION_SIZE, dtype=np.int64), np.zeros(STATE_SIZE, dtype=np.int64),
            np.zeros((_TRIBE_ROWS, 4), dtype=np.int64), np.zeros((_TILE_ROWS, 5), dtype=np.int64),
            np.zeros(N_TILES, dtype=np.int64), np.zeros((N_COLOURS, MAX_STACK), dtype=np.int64))


@njit(cache=True, inline="always")
def choose_turn(st, policy, rng, tables, ws):
    """The complete turn the player to move plays under ``policy``, as an ``apply_turn``
    row (``ws[0]`` of ``turn_workspace``, overwritten by the next call)."""
    act = ws[0]
    if policy == P_RANDOM:
        random_turn(st, rng, act, tables, ws[1], ws[2], ws[3], ws[4], ws[5])
    else:
        actions, _, _ = turns(st, np.bool_(False))  # the greedy row (kernels/__init__.py)
        copy_into(act, actions[0])
    return act


# --------------------------------------------------------------------------- games


@njit(cache=True)
def end_code(st, tables, ws):
    """``END_CAMELS`` | ``END_NO_SOWING``: which of the end conditions of ``game_over``
    (docs/games/five-tribes.md §13) hold in ``st``; nonzero exactly when ``game_over(st)``
    (tests check this on every round; ``count_sowings`` is closed-form where ``game_over``
    tables every path).
    ``ws``: ``turn_workspace()``."""
    code = 0
    for p in range(st[N_PLAYERS]):
        if st[P_CAMELS + p] == 0:
            code |= END_CAMELS
    if count_sowings(meeples(st), st[END_RULE], tables, ws[4], ws[5]) == 0:
        code |= END_NO_SOWING
    return code


@njit(cache=True)
def fresh_state(st):
    """Reset ``st`` to ``state.empty_state()``: zeros, every 'none' slot -1."""
    st[:] = 0
    st[T_OWNER:T_OWNER + N_TILES] = -1
    st[ROW:ROW + 9] = -1
    st[DJINN_ROW:DJINN_ROW + 3] = -1
    st[BID_ORDER:BID_ORDER + MAX_PLAYERS] = -1
    st[TURN_TRACK:TURN_TRACK + 9] = -1


@njit(cache=True)
def record_game(context, scratch, streams, row):
    """``record_chunk``'s game: dealt from stream 0, played to the end (policy choices
    from stream 1, clean-up refills from stream 2) and ``row`` (``N_FIELDS``) filled.
    ``context``: (players, end rule, assassin flag, policies, walks, paths);
    ``scratch``: ``_scratch(context)``."""
    players, end_rule, assassin_optional, policies, walks, paths = context
    ws, st = scratch
    pol, chance, tables = streams[1], streams[2], (walks, paths)
    fresh_state(st)
    deal(st, players, end_rule, assassin_optional, streams[0])
    spaces = np.zeros(9, dtype=np.int64)
    camels = st[P_CAMELS:P_CAMELS + players].copy()
    row[F_FIRST_BIDDER] = st[BID_ORDER]
    rounds = 0
    end = 0
    while rounds < MAX_ROUNDS and end == 0:
        rounds += 1
        while st[PHASE] == BIDDING:
            seat = st[TO_MOVE]
            gold = st[P_GOLD + seat]
            place_bid(st, choose_bid(st, policies[seat], pol, spaces))
            row[F_BID_GOLD + seat] += gold - st[P_GOLD + seat]
        while st[TO_MOVE] >= 0:
            seat = st[TO_MOVE]
            act = choose_turn(st, policies[seat], pol, tables, ws)
            row[F_TURNS + seat] += 1
            if act[A_LEN] == 0:
                row[F_NO_SOWING_TURNS] += 1
            else:
                row[F_TRIBES + seat * N_COLOURS + act[A_COLOUR]] += 1
            apply_turn(st, act)
        cleanup(st, chance)
        end = end_code(st, tables, ws)
    row[F_ROUNDS] = rounds
    row[F_END] = end
    row[F_CAPPED] = 1 if end == 0 else 0
    scores = np.zeros(N_SCORE + 1, dtype=np.int64)
    for p in range(MAX_PLAYERS):
        if p >= players:
            row[F_TOTAL + p] = -1
            continue
        player_parts(st, p, scores)
        row[F_TOTAL + p] = scores[N_SCORE]
        copy_into(row[F_PARTS + p * N_SCORE:F_PARTS + (p + 1) * N_SCORE], scores[:N_SCORE])
        row[F_CAMELS + p] = camels[p] - st[P_CAMELS + p]
        mask = st[P_DJINNS + p]
        for d in range(N_DJINNS):
            row[F_DJINNS + p] += (mask >> d) & 1


@njit(cache=True)
def _scratch(context):
    """A thread's scratch for ``record_game``: (``turn_workspace()``, game state)."""
    return turn_workspace(), np.zeros(STATE_SIZE, dtype=np.int64)


@njit(cache=True, nogil=True)
def record_range(players, end_rule, assassin_optional, policies, walks, paths, seed, game0,
                 n_games):
    """``record_games`` for games ``game0 .. game0 + n_games - 1`` on this thread
    (``walks``, ``paths``: ``walk_tables()``)."""
    context = (players, end_rule, assassin_optional, policies, walks, paths)
    return record_chunk(record_game, _scratch, context, N_FIELDS, seed, game0, n_games)


def record_games(players, end_rule, assassin_optional, policies, seed, game0, n_games,
                 chunk_size):
    """Games ``game0 .. game0 + n_games - 1`` for ``players`` under the rule flags
    ``end_rule`` (``sowing.LIVE`` or ``PREMOVE``) and ``assassin_optional``, seat ``i``
    following ``policies[i]`` (``POLICY_NAMES`` index): ``out[game, N_FIELDS]`` (int16,
    layout in the module docstring). Threads take ``chunk_size`` games at a time
    (``threads.rows``); the rows do not depend on it."""
    walks, paths = walk_tables()
    return rows(lambda g, n: record_range(players, end_rule, assassin_optional, policies, walks,
                                          paths, np.uint64(seed), game0 + g, n),
                n_games, chunk_size)
