"""Whole games from random starts with the per-game facts a designer report needs.

Game ``r`` of a run seeded ``seed`` sets up its camels from stream (seed, 3r), draws dice
from (seed, 3r + 1) and policy choices from (seed, 3r + 2), so a game's record depends on
(seed, r) only: never on chunking, threads or Dask workers (``kernels.batch``).

One row of ``record_games`` (int16) per game, columns at the offsets below:
money of seats 0..7 (EP, -1 for seats not in the game); turns; legs played (the one in
which the race ended included); race winner and loser (camel index); each racing camel's
place at the start (0 = leading); the race leader at the end of legs 1..MAX_LEGS_LOGGED
(-1 where that leg was not completed before the race ended); the number of grey-die moves
that changed the race leader; 1 if the eventual winner last took the lead by a grey-die
move; and every seat's action count by kind (``KIND_*``).
"""

import numpy as np
from ..jit import njit

from ..arrays import copy_into
from ..batch import record_chunk
from ..threads import rows
from .game import (
    A_PARTNER, A_PYRAMID, A_WINNER, A_LOSER, MAX_PLAYERS, MONEY, N_PLAYERS,
    STATUS, TO_MOVE, apply_action, draw_reveal, pyramid_mask, setup_camels,
)
from .policy import choose, forget, workspace
from .rollout import MAX_TURNS
from .track import GREY, N_RACING, camel_at_place, die_count, place_of

MAX_LEGS_LOGGED = 12
N_KINDS = 6
KIND_NAMES = ("ticket", "pyramid", "spectator", "winner_bet", "loser_bet", "partner")

F_MONEY = 0
F_TURNS = F_MONEY + MAX_PLAYERS
F_LEGS = F_TURNS + 1
F_WINNER = F_LEGS + 1
F_LOSER = F_WINNER + 1
F_START = F_LOSER + 1  # N_RACING entries
F_LEADER = F_START + N_RACING  # MAX_LEGS_LOGGED entries
F_CRAZY_CHANGES = F_LEADER + MAX_LEGS_LOGGED
F_CRAZY_DECIDED = F_CRAZY_CHANGES + 1
F_ACTIONS = F_CRAZY_DECIDED + 1  # MAX_PLAYERS x N_KINDS, seat-major
N_FIELDS = F_ACTIONS + MAX_PLAYERS * N_KINDS


@njit(cache=True)
def action_kind(action):
    """``KIND_NAMES`` index of an action code."""
    if action < A_PYRAMID:
        return 0
    if action == A_PYRAMID:
        return 1
    if action < A_WINNER:
        return 2
    if action < A_LOSER:
        return 3
    if action < A_PARTNER:
        return 4
    return 5


@njit(cache=True)
def record_game(context, scratch, streams, row):
    """``record_chunk``'s game: set up on ``rules`` from stream 0, play to the end (dice
    from stream 1, policy choices from stream 2) and fill ``row`` (``N_FIELDS``).
    ``context``: (rules, policies, params); ``scratch``: ``_scratch(context)``."""
    rules, policies, params = context
    ws, st = scratch
    dice, pol = streams[1], streams[2]
    copy_into(st, rules)
    setup_camels(st, streams[0])
    forget(ws)
    for c in range(N_RACING):
        row[F_START + c] = place_of(st, c)
    for k in range(MAX_LEGS_LOGGED):
        row[F_LEADER + k] = -1
    turns = 0
    legs = 0
    last_by_grey = 0
    while st[STATUS] == 0 and turns < MAX_TURNS:
        seat = st[TO_MOVE]
        action = choose(st, policies[seat], params, pol, ws)
        row[F_ACTIONS + seat * N_KINDS + action_kind(action)] += 1
        leader = -1
        inside = 0
        die = -1
        face = -1
        if action == A_PYRAMID:
            leader = camel_at_place(st, 0)
            inside = die_count(pyramid_mask(st))
            die, face = draw_reveal(st, dice)
        apply_action(st, action, die, face)
        if action == A_PYRAMID:
            if camel_at_place(st, 0) != leader:
                last_by_grey = 1 if die == GREY else 0
                row[F_CRAZY_CHANGES] += last_by_grey
            if st[STATUS] == 0 and die_count(pyramid_mask(st)) >= inside:  # leg scored
                if legs < MAX_LEGS_LOGGED:
                    row[F_LEADER + legs] = camel_at_place(st, 0)
                legs += 1
        turns += 1
    for p in range(MAX_PLAYERS):
        row[F_MONEY + p] = st[MONEY + p] if p < st[N_PLAYERS] else -1
    row[F_TURNS] = turns
    row[F_LEGS] = legs + 1
    row[F_WINNER] = camel_at_place(st, 0)
    row[F_LOSER] = camel_at_place(st, N_RACING - 1)
    row[F_CRAZY_DECIDED] = last_by_grey


@njit(cache=True)
def _scratch(context):
    """A thread's scratch for ``record_game``: (policy workspace, game state)."""
    return workspace(), np.empty_like(context[0])


@njit(cache=True, nogil=True)
def record_range(rules, policies, params, seed, game0, n_games):
    """``record_games`` for games ``game0 .. game0 + n_games - 1`` on this thread."""
    return record_chunk(record_game, _scratch, (rules, policies, params), N_FIELDS, seed,
                        game0, n_games)


def record_games(rules, policies, params, seed, game0, n_games, chunk_size, progress=None):
    """Games ``game0 .. game0 + n_games - 1`` from random starts (docs/games/camel-up.md §2,
    AMB-9) on the empty state ``rules`` (players and rules parameters), seat ``i`` following
    ``policies[i]``: ``out[game, N_FIELDS]`` (int16, layout in the module docstring).
    Threads take ``chunk_size`` games at a time (``threads.rows``; ``progress(games
    done)`` after each); the rows do not depend on it."""
    return rows(lambda g, n: record_range(rules, policies, params, np.uint64(seed), game0 + g,
                                          n), n_games, chunk_size, progress)
