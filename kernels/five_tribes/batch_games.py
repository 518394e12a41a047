"""Whole Five Tribes games from a fresh deal with the per-game facts a designer report
needs.

Game ``r`` of a run seeded ``seed`` is dealt from chance stream (seed, 3r), draws its
policies' random choices from (seed, 3r + 1) and its clean-up refills from (seed, 3r + 2),
so a game's record depends on (seed, r) only: never on chunking, threads or Dask workers
(``kernels.batch``).

Policies (``POLICY_NAMES``, one per seat):

- ``random``: makes a uniformly random legal bid (``legal_bids``: every space, plain and
  with each number of Fakirs Kumarbi allows, docs/games/five-tribes.md §20.7); a turn is a
  uniformly random full sowing sequence (every row of ``list_sowings`` equally likely, drawn
  without listing them: ``random_sowing``; none: the no-sowing turn), then a uniformly
  random tribe choice (``tribe_options``) and tile choice (``tile_options``, skipping an
  optional action included); it never sells and uses no paid djinn power (the passive ones
  act). Played through ``play_turn_drawing``: Kandicha's card (§20.6) drawn from the
  policy stream.
- ``greedy``: plays ``turn_table.greedy`` (the best exact complete turn chosen in two
  stages, window powers after the tile action only, docs/games/five-tribes.md §20.9; a
  draw from the policy stream; beyond ``turn_table.GREEDY_SOWINGS`` full sequences, the
  best of sampled ones) and makes the legal bid of the lowest gold price (a
  zero space while one is free); among equal prices the one discarding the fewest Fakirs
  with Kumarbi (a plain bid first: Fakirs are kept for the Builders and Assassins unless
  they save gold). This bid rule is NOT the analyser's bid
  model (``analyser.five_tribes.advise.bid_values``, which values each space by the turn
  it would allow), so the analyser's ``simulate`` plays other games than this policy.

The game loop is the analyser's (``analyser.five_tribes.simulate``): bids until the turns
begin, every marker's turn, clean-up, then the end check of ``game_over`` (``end_code``).
A sowing takes at least 2 meeples off the board (only Anun-Nak puts any back, at most 3 a
turn) and every round but the last has one, so games end within a few dozen rounds;
``MAX_ROUNDS`` is a safety cap, flagged in the row if ever hit.

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
the turns that took that tribe's meeples; ``F_DJINN_HOLDER`` per djinn (``DJINNS`` order)
the seat holding it at the end of the game, -1 if nobody does (still in the deck, on
display or discarded).
"""

import numpy as np
from ..jit import njit

from ..arrays import copy_into
from ..batch import N_STREAMS, record_chunk
from ..rng import below, reseed
from ..threads import rows
from .board import N_COLOURS, N_TILES
from .data import DJINNS
from .rounds import MAX_BIDS, bid_fakirs, bid_price, cleanup, deal, legal_bids, place_bid
from .scoring import SCORE_PARTS
from .sowing import MAX_STACK
from .sowing_count import random_sowing, sowing_exists, walk_tables
from .state import (
    BID_ORDER, BIDDING, DJINN_NEIGHBOUR, DJINN_ROW, END_RULE, MAX_PLAYERS, N_PLAYERS, P_CAMELS,
    P_DJINNS, P_GOLD, PHASE, ROW, STATE_SIZE, T_OWNER, TO_MOVE, TURN_TRACK, meeples,
)
from .complete_turns import (
    A_COLOUR, A_COLOURS, A_LEN, A_PATH, A_START, A_TAKEN, A_TILE, A_TILE_ACTION, ACTION_SIZE,
    TA_NONE, TILE_ROWS, TRIBE_ROWS, clear_action, play_sowing, play_tile,
    play_tribe, player_parts, tile_options, tribe_options,
)
from .heuristic import HEURISTIC_PARAMS, heuristic_turn, heuristic_workspace
from .turn_table import G_PLAY, greedy
from .turn_walk import play_turn_drawing

POLICY_NAMES = ("random", "greedy", "heuristic")
P_RANDOM, P_GREEDY, P_HEURISTIC = 0, 1, 2
MAX_ROUNDS = 60  # safety cap: the rules end a game within 45 rounds (module doc)
N_SCORE = len(SCORE_PARTS) - 1  # parts without the total
END_CAMELS = 1
END_NO_SOWING = 2
N_DJINNS = len(DJINNS)

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
F_DJINN_HOLDER = F_TRIBES + MAX_PLAYERS * N_COLOURS  # N_DJINNS
N_FIELDS = F_DJINN_HOLDER + N_DJINNS


# --------------------------------------------------------------------------- policies


@njit(cache=True)
def choose_bid(st, policy, rng, bids):
    """The bid (a ``rounds`` code) the bid order track's front marker makes under
    ``policy`` (``bids``: scratch of ``MAX_BIDS``): ``random`` any legal one uniformly;
    ``greedy`` the lowest price, then the fewest Fakirs (module doc)."""
    n = legal_bids(st, bids)
    if policy == P_RANDOM:
        return bids[below(rng, n)]
    best = bids[0]
    for i in range(1, n):
        if (bid_price(bids[i]), bid_fakirs(bids[i])) < (bid_price(best), bid_fakirs(best)):
            best = bids[i]
    return best


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
    """Scratch arrays of ``play_turn``: (action, state, tribe options, tile options,
    sequences per start tile, order table, ``heuristic_workspace()``)."""
    return (np.zeros(ACTION_SIZE, dtype=np.int64), np.zeros(STATE_SIZE, dtype=np.int64),
            np.zeros((TRIBE_ROWS, 4), dtype=np.int64), np.zeros((TILE_ROWS, 5), dtype=np.int64),
            np.zeros(N_TILES, dtype=np.int64), np.zeros((N_COLOURS, MAX_STACK), dtype=np.int64),
            heuristic_workspace())


def play_turn(st, policy, rng, tables, ws, params):
    """Play the complete turn of the player to move under ``policy`` on ``st``
    (``params``: the heuristic's, ``HEURISTIC_PARAMS``); returns its action row
    (``ws[0]`` of ``turn_workspace``, overwritten by the next call). Run from Python it
    calls the kernels that ``play_round`` calls, compiled once for both: jitted
    (``_play_turn``) it is inlined into ``play_round``, and a kernel of its own would
    compile the whole turn walk once more (docs/benchmarks.md, "Where the compile time
    goes")."""
    act = ws[0]
    if policy == P_RANDOM:
        random_turn(st, rng, act, tables, ws[1], ws[2], ws[3], ws[4], ws[5])
        play_turn_drawing(st, act, rng)
    elif policy == P_HEURISTIC:
        copy_into(act, heuristic_turn(st, rng, params, tables, ws[6]))
        play_turn_drawing(st, act, rng)
    else:
        copy_into(act, greedy(st, st, act, np.int64(0), G_PLAY, tables[0], tables[1], rng)[0])
    return act


_play_turn = njit(cache=True, inline="always")(play_turn)


# --------------------------------------------------------------------------- games


@njit(cache=True)
def end_code(st, tables, ws):
    """``END_CAMELS`` | ``END_NO_SOWING``: which of the end conditions of ``game_over``
    (docs/games/five-tribes.md §13) hold in ``st``; nonzero exactly when ``game_over(st)``
    (tests check this on every round).
    ``ws``: ``turn_workspace()``."""
    code = 0
    for p in range(st[N_PLAYERS]):
        if st[P_CAMELS + p] == 0:
            code |= END_CAMELS
    if not sowing_exists(meeples(st), st[END_RULE], tables[1]):
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
    st[DJINN_NEIGHBOUR] = 8


@njit(cache=True)
def _next_key(keys, s, seed, i):
    """With ``keys[0]`` set, point the stream ``s`` at the next decision's: (seed,
    ``N_STREAMS`` x (``keys[1]`` + ``keys[2]``) + ``i``), and count the decision."""
    if keys[0]:
        reseed(s, seed, N_STREAMS * (keys[1] + keys[2]) + i)
        keys[2] += 1


@njit(cache=True)
def play_round(st, policies, params, pol, chance, keys, seed, tables, ws, spaces, row):
    """Play the rest of the round from ``st`` (bids, then every marker's turn, clean-up)
    with seat ``i`` following ``policies[i]``: choices from the stream ``pol``, refills
    from ``chance``; per-turn facts added to ``row`` (``F_*``: bid gold, turns, turns
    without a sowing, tribes). Returns ``end_code`` after clean-up. With ``keys[0]`` set,
    every bid, turn and clean-up draws from a stream of its own (``_next_key``: keyed by
    the decisions made so far, ``keys[2]``), so that games which part ways still share
    their chance decision by decision (rollouts' common random numbers); else the
    streams run on. ``spaces``: scratch of ``MAX_BIDS``; ``ws``: ``turn_workspace()``."""
    while st[PHASE] == BIDDING:
        seat = st[TO_MOVE]
        gold = st[P_GOLD + seat]
        _next_key(keys, pol, seed, 1)
        place_bid(st, choose_bid(st, policies[seat], pol, spaces))
        row[F_BID_GOLD + seat] += gold - st[P_GOLD + seat]
    while st[TO_MOVE] >= 0:
        seat = st[TO_MOVE]
        _next_key(keys, pol, seed, 1)
        act = _play_turn(st, policies[seat], pol, tables, ws, params)
        row[F_TURNS + seat] += 1
        if act[A_LEN] == 0:
            row[F_NO_SOWING_TURNS] += 1
        else:
            row[F_TRIBES + seat * N_COLOURS + act[A_COLOUR]] += 1
    _next_key(keys, chance, seed, 2)
    cleanup(st, chance)
    return end_code(st, tables, ws)


@njit(cache=True, inline="always")
def record_game(context, scratch, streams, row):
    """``record_chunk``'s game: dealt from stream 0, played to the end (policy choices
    from stream 1, clean-up refills from stream 2) and ``row`` (``N_FIELDS``) filled.
    ``context``: (players, end rule, assassin flag, policies, walks, paths, heuristic
    params); ``scratch``: ``_scratch(context)``. Inlined into ``record_range`` (through
    ``record_chunk``): a kernel of its own would compile the whole turn walk once more."""
    players, end_rule, assassin_optional, policies, walks, paths, params = context
    ws, st = scratch
    pol, chance, tables = streams[1], streams[2], (walks, paths)
    fresh_state(st)
    deal(st, players, end_rule, assassin_optional, streams[0])
    spaces = np.zeros(MAX_BIDS, dtype=np.int64)
    camels = st[P_CAMELS:P_CAMELS + players].copy()
    row[F_FIRST_BIDDER] = st[BID_ORDER]
    rounds = 0
    end = 0
    keys = np.zeros(3, dtype=np.int64)  # the streams run on (``play_round``)
    while rounds < MAX_ROUNDS and end == 0:
        rounds += 1
        end = play_round(st, policies, params, pol, chance, keys, np.uint64(0), tables, ws,
                         spaces, row)
    row[F_ROUNDS] = rounds
    row[F_END] = end
    row[F_CAPPED] = 1 if end == 0 else 0
    scores = np.zeros(N_SCORE + 1, dtype=np.int64)
    row[F_DJINN_HOLDER:F_DJINN_HOLDER + N_DJINNS] = -1
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
            if (mask >> d) & 1:
                row[F_DJINNS + p] += 1
                row[F_DJINN_HOLDER + d] = p


@njit(cache=True)
def _scratch(context):
    """A thread's scratch for ``record_game``: (``turn_workspace()``, game state)."""
    return turn_workspace(), np.zeros(STATE_SIZE, dtype=np.int64)


@njit(cache=True, nogil=True)
def record_range(players, end_rule, assassin_optional, policies, walks, paths, params, seed,
                 game0, n_games):
    """``record_games`` for games ``game0 .. game0 + n_games - 1`` on this thread
    (``walks``, ``paths``: ``walk_tables()``)."""
    context = (players, end_rule, assassin_optional, policies, walks, paths, params)
    return record_chunk(record_game, _scratch, context, N_FIELDS, seed, game0, n_games)


def record_games(players, end_rule, assassin_optional, policies, seed, game0, n_games,
                 chunk_size, progress=None):
    """Games ``game0 .. game0 + n_games - 1`` for ``players`` under the rule flags
    ``end_rule`` (``sowing.LIVE`` or ``PREMOVE``) and ``assassin_optional``, seat ``i``
    following ``policies[i]`` (``POLICY_NAMES`` index): ``out[game, N_FIELDS]`` (int16,
    layout in the module docstring). Threads take ``chunk_size`` games at a time
    (``threads.rows``; ``progress(games done)`` after each); the rows do not depend on it."""
    walks, paths = walk_tables()
    return rows(lambda g, n: record_range(players, end_rule, assassin_optional, policies, walks,
                                          paths, HEURISTIC_PARAMS, np.uint64(seed), game0 + g,
                                          n),
                n_games, chunk_size, progress)
