"""Whole-game rollouts from a position, on common random numbers (docs/games/five-tribes.md
§21.3): what ``advise --rollouts`` and ``odds`` are made of.

Rollout ``r`` of a run seeded ``seed`` draws the secret gold from stream (seed,
``N_STREAMS`` x ``r`` x ``KEY_SPAN``), then its d-th decision (a bid or a turn, from the
policy stream i = 1) or clean-up (refills, i = 2) from stream (seed, ``N_STREAMS`` x (``r``
x ``KEY_SPAN`` + d) + i) (``batch_games.play_round``). Every candidate of the rollout
starts from the same gold, plays its own first action, then meets the same streams
decision by decision, so the candidates' results are paired even where their games part
ways.

Secret gold (§14.13): seat ``p``'s gold is set to ``lo[p] + below(hi[p] - lo[p] + 1)``
before anything is played, ``lo == hi`` for gold the viewer knows; the state's own gold
is never read for any seat. Decks and the bag are held as counts (``state``), so every
card, djinn and meeple still unseen is drawn uniformly as it falls.

Candidates (``kinds[c]``, ``cands[c]``): ``CAND_NONE`` plays the position as it stands;
``CAND_BID`` makes the bid ``cands[c, 0]`` (a ``rounds`` code) first; ``CAND_TURN`` plays
the complete turn ``cands[c]`` (an ``apply_turn`` row: no draw ends it) first. Then every
seat follows its policy to the end of the game (``MAX_ROUNDS`` at most).
"""

import numpy as np
from ..arrays import copy_into
from ..jit import njit

from ..batch import N_STREAMS
from ..rng import below, reseed
from ..threads import rows
from .batch_games import MAX_ROUNDS, N_FIELDS, end_code, play_round, turn_workspace
from .complete_turns import ACTION_SIZE, player_parts
from .heuristic import HEURISTIC_PARAMS, N_TOTAL
from .rounds import MAX_BIDS, place_bid
from .sowing_count import walk_tables_once
from .state import BIDDING, N_PLAYERS, P_GOLD, PHASE, TRACK_SPACES, TURN_TRACK
from .turn_walk import apply_turn

CAND_NONE, CAND_BID, CAND_TURN = range(3)
KEY_SPAN = 1024  # decisions keyed per rollout: 60 rounds of at most 4 bids, 4 turns, 1 clean-up


@njit(cache=True, inline="always")
def play_out(st, policies, params, streams, keys, seed, tables, ws, spaces, row):
    """Play ``st`` to the end of the game (the round under way first), each decision from
    its own stream (``keys``: ``play_round``); returns the rounds played. A position
    between rounds whose end check holds is over: nothing is played. ``row``: scratch of
    ``N_FIELDS`` (``play_round``'s facts, unused here)."""
    rounds = 0
    end = 0
    if st[PHASE] == BIDDING and st[TURN_TRACK:TURN_TRACK + TRACK_SPACES].max() < 0:
        end = end_code(st, tables, ws)
    while rounds < MAX_ROUNDS and end == 0:
        rounds += 1
        end = play_round(st, policies, params, streams[1], streams[2], keys, seed, tables, ws,
                         spaces, row)
    return rounds


@njit(cache=True)
def apply_candidate(st, kind, cand):
    """Play candidate ``cand`` of kind ``kind`` (module doc) on ``st``."""
    if kind == CAND_BID:
        place_bid(st, cand[0])
    elif kind == CAND_TURN:
        apply_turn(st, cand)


@njit(cache=True, nogil=True)
def rollout_range(st, kinds, cands, lo, hi, policies, params, walks, paths, seed, r0, n):
    """Rollouts ``r0 .. r0 + n - 1`` (module doc): ``out[r, c, p]``, seat ``p``'s final
    score in VP after candidate ``c``."""
    players = st[N_PLAYERS]
    out = np.zeros((n, len(kinds), players), dtype=np.int32)
    streams = np.empty((N_STREAMS, 4), dtype=np.uint64)
    ws = turn_workspace()
    spaces = np.zeros(MAX_BIDS, dtype=np.int64)
    row = np.zeros(N_FIELDS, dtype=np.int64)
    parts = np.zeros(N_TOTAL + 1, dtype=np.int64)
    start = st.copy()
    s = st.copy()
    keys = np.zeros(3, dtype=np.int64)
    for i in range(n):
        r = r0 + i
        reseed(streams[0], seed, N_STREAMS * r * KEY_SPAN)
        for p in range(players):
            start[P_GOLD + p] = lo[p] + below(streams[0], hi[p] - lo[p] + 1)
        for c in range(len(kinds)):
            keys[0], keys[1], keys[2] = 1, r * KEY_SPAN, 1
            copy_into(s, start)
            apply_candidate(s, kinds[c], cands[c])
            play_out(s, policies, params, streams, keys, seed, (walks, paths), ws, spaces, row)
            for p in range(players):
                player_parts(s, p, parts)
                out[i, c, p] = parts[N_TOTAL]
    return out


def rollouts(st, kinds, cands, lo, hi, policies, seed, r0, n, piece=8, params=None):
    """``rollout_range`` for rollouts ``r0 .. r0 + n - 1`` spread over the kernel threads
    (``threads.rows``, ``piece`` rollouts at a time): the result does not depend on the
    threads or on ``piece``."""
    walks, paths = walk_tables_once()
    params = HEURISTIC_PARAMS if params is None else params
    kinds = np.asarray(kinds, dtype=np.int64)
    cands = np.asarray(cands, dtype=np.int64).reshape(len(kinds), ACTION_SIZE)
    return rows(lambda a, m: rollout_range(st, kinds, cands, np.asarray(lo, dtype=np.int64),
                                           np.asarray(hi, dtype=np.int64),
                                           np.asarray(policies, dtype=np.int64), params, walks,
                                           paths, np.uint64(seed), r0 + a, m),
                n, piece)

