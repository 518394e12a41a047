"""Whole games under policies: hidden-card sampling, batched games, and rollouts of every
candidate action on common random numbers.

Streams: game or rollout ``r`` of a run seeded ``seed`` draws hidden cards from stream
(seed, 3r), dice from (seed, 3r + 1) and policy choices from (seed, 3r + 2). In a
rollout every candidate action replays the same three streams from their start, so the
candidates face the same hidden cards and the same dice sequence.
"""

import numpy as np
from ..jit import njit

from ..arrays import copy_into
from ..rng import high_below, next_u64, reseed
from ..threads import rows
from .game import (
    A_PYRAMID, HAND, LDECK, LLEN, MAX_PLAYERS, MONEY, N_PLAYERS, STATUS, TO_MOVE, WDECK,
    WLEN, apply_action, draw_reveal,
)
from .policy import choose, forget, workspace
from .track import N_RACING

HIDDEN = 7  # colour code of a finish card whose colour the viewer cannot see
MAX_TURNS = 5000  # safety stop for a game that would never end (never reached in play)


@njit(cache=True)
def _owner_cards(st, owner):
    """(number of hidden cards, bit mask of the colours seen) of ``owner``'s placed
    finish cards on both decks."""
    hidden = 0
    seen = 0
    for deck, length in ((WDECK, WLEN), (LDECK, LLEN)):
        for i in range(st[length]):
            card = st[deck + i]
            if card // 8 == owner:
                if card % 8 == HIDDEN:
                    hidden += 1
                else:
                    seen |= 1 << (card % 8)
    return hidden, seen


@njit(cache=True)
def sample_hidden(st, s, free):
    """Give every hidden finish card a colour, uniformly over the assignments consistent
    with what is known: each owner holds one card per colour, so an owner's hidden cards
    (winner deck, then loser deck, in placement order) take a uniformly random ordered
    selection of the colours not seen on their other cards; the rest is their hand.
    ``free`` is scratch for 5 colours."""
    for owner in range(st[N_PLAYERS]):
        n_free = 0
        hidden, seen = _owner_cards(st, owner)
        if hidden == 0:
            continue
        for c in range(N_RACING):
            if not (seen >> c) & 1:
                free[n_free] = c
                n_free += 1
        for i in range(n_free - 1, 0, -1):  # Fisher-Yates
            j = high_below(next_u64(s), i + 1)
            tmp = free[i]
            free[i] = free[j]
            free[j] = tmp
        k = 0
        for deck, length in ((WDECK, WLEN), (LDECK, LLEN)):
            for i in range(st[length]):
                if st[deck + i] // 8 == owner and st[deck + i] % 8 == HIDDEN:
                    st[deck + i] = owner * 8 + free[k]
                    k += 1
        hand = 0
        for i in range(k, n_free):
            hand |= 1 << free[i]
        st[HAND + owner] = hand


@njit(cache=True)
def sample_hidden_informed(st, s, weights):
    """The ``informed`` model: each owner's hidden cards, in placement order (winner deck
    first), draw their colour among the colours still free for that owner with
    probability proportional to ``weights[deck, colour]`` (deck 0 winner, 1 loser), without
    replacement; the colours left are the owner's hand."""
    for owner in range(st[N_PLAYERS]):
        hidden, seen = _owner_cards(st, owner)
        if hidden == 0:
            continue
        used = seen
        for d, (deck, length) in enumerate(((WDECK, WLEN), (LDECK, LLEN))):
            for i in range(st[length]):
                if st[deck + i] // 8 != owner or st[deck + i] % 8 != HIDDEN:
                    continue
                total = 0.0
                for c in range(N_RACING):
                    if not (used >> c) & 1:
                        total += weights[d, c] + 1e-12
                u = (next_u64(s) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * total
                pick = -1
                for c in range(N_RACING):
                    if not (used >> c) & 1:
                        pick = c
                        u -= weights[d, c] + 1e-12
                        if u < 0.0:
                            break
                st[deck + i] = owner * 8 + pick
                used |= 1 << pick
        st[HAND + owner] = ((1 << N_RACING) - 1) & ~used


@njit(cache=True)
def play_out(st, policies, params, dice, pol, ws, log):
    """Play ``st`` to the end, seat ``i`` following ``policies[i]``; dice from stream
    ``dice``, policy randomness from ``pol`` (they may be the same stream). Row ``t`` of
    ``log`` (int64, 3 columns) records turn ``t`` as (action, die, face), die and face -1
    unless the action revealed a die; the game stops when the log is full, and an empty
    log records nothing. Returns the number of turns played."""
    turns = 0
    logged = log.shape[0] > 0
    limit = min(MAX_TURNS, log.shape[0]) if logged else MAX_TURNS
    while st[STATUS] == 0 and turns < limit:
        seat = st[TO_MOVE]
        action = choose(st, policies[seat], params, pol, ws)
        die = -1
        face = -1
        if action == A_PYRAMID:
            die, face = draw_reveal(st, dice)
        apply_action(st, action, die, face)
        if logged:
            log[turns, 0] = action
            log[turns, 1] = die
            log[turns, 2] = face
        turns += 1
    return turns


@njit(cache=True)
def outcome(st, viewer):
    """(win credit, margin) of ``viewer`` at the end: 1/k if among the k richest players,
    else 0; money minus the richest opponent's money (EP)."""
    best = -1
    best_other = -1
    for p in range(st[N_PLAYERS]):
        best = max(best, st[MONEY + p])
        if p != viewer:
            best_other = max(best_other, st[MONEY + p])
    tied = 0
    for p in range(st[N_PLAYERS]):
        if st[MONEY + p] == best:
            tied += 1
    win = 1.0 / tied if st[MONEY + viewer] == best else 0.0
    return win, st[MONEY + viewer] - best_other


@njit(cache=True, nogil=True)
def game_chunks(st0, policies, params, seed, chunk0, n_chunks, chunk_size):
    """``simulate_games`` for chunks ``chunk0 .. chunk0 + n_chunks - 1`` on this thread."""
    out = np.zeros((n_chunks * chunk_size, MAX_PLAYERS + 1), dtype=np.int64)
    ws = workspace()
    st = np.empty_like(st0)
    streams = np.empty((3, 4), dtype=np.uint64)
    free = np.empty(N_RACING, dtype=np.int64)
    no_log = np.zeros((0, 3), dtype=np.int64)
    for g in range(n_chunks * chunk_size):
        r = chunk0 * chunk_size + g
        for i in range(3):
            reseed(streams[i], seed, 3 * r + i)
        copy_into(st, st0)
        sample_hidden(st, streams[0], free)
        forget(ws)
        turns = play_out(st, policies, params, streams[1], streams[2], ws, no_log)
        for p in range(st[N_PLAYERS]):
            out[g, p] = st[MONEY + p]
        out[g, MAX_PLAYERS] = turns
    return out


def simulate_games(st0, policies, params, seed, chunk0, n_chunks, chunk_size):
    """Whole games from ``st0`` (hidden cards sampled per game): per game the final money
    of every seat and the number of turns, ``out[game, MAX_PLAYERS + 1]``; chunks of
    ``chunk_size`` games spread over the threads (``threads.rows``)."""
    return rows(lambda k, n: game_chunks(st0, policies, params, np.uint64(seed), chunk0 + k, n,
                                         chunk_size), n_chunks)


@njit(cache=True)
def _sample_base(base, st0, s, free, weights):
    """``base`` = ``st0`` with its hidden finish cards given colours from stream ``s``:
    uniformly (``weights`` empty) or ``sample_hidden_informed``."""
    copy_into(base, st0)
    if weights.shape[0] == 0:
        sample_hidden(base, s, free)
    else:
        sample_hidden_informed(base, s, weights)


@njit(cache=True)
def _play_candidate(st, base, action, policies, params, seed, r, streams, ws, no_log):
    """Rollout ``r``'s game of one candidate: ``st`` = ``base`` after ``action``, played to
    the end; dice from stream (seed, 3r + 1), policy choices from (seed, 3r + 2), both
    replayed from their start for every candidate."""
    copy_into(st, base)
    reseed(streams[1], seed, 3 * r + 1)
    reseed(streams[2], seed, 3 * r + 2)
    die = -1
    face = -1
    if action == A_PYRAMID:
        die, face = draw_reveal(st, streams[1])
    apply_action(st, action, die, face)
    forget(ws)
    play_out(st, policies, params, streams[1], streams[2], ws, no_log)


@njit(cache=True, nogil=True)
def rollout_chunks(st0, actions, policies, params, seed, chunk0, n_chunks, chunk_size,
                   weights):
    """``rollouts`` for chunks ``chunk0 .. chunk0 + n_chunks - 1`` on this thread
    (``weights`` empty: uniform hidden cards)."""
    viewer = st0[TO_MOVE]
    n_act = len(actions)
    out = np.zeros((n_chunks * chunk_size, n_act, 2))
    ws = workspace()
    base = np.empty_like(st0)
    st = np.empty_like(st0)
    streams = np.empty((3, 4), dtype=np.uint64)
    free = np.empty(N_RACING, dtype=np.int64)
    no_log = np.zeros((0, 3), dtype=np.int64)
    for g in range(n_chunks * chunk_size):
        r = chunk0 * chunk_size + g
        reseed(streams[0], seed, 3 * r)
        _sample_base(base, st0, streams[0], free, weights)
        for a in range(n_act):
            _play_candidate(st, base, actions[a], policies, params, seed, r, streams, ws,
                            no_log)
            win, margin = outcome(st, viewer)
            out[g, a, 0] = win
            out[g, a, 1] = margin
    return out


@njit(cache=True, nogil=True)
def playout_chunks(st0, actions, policies, params, seed, chunk0, n_chunks, chunk_size):
    """``playouts`` for chunks ``chunk0 .. chunk0 + n_chunks - 1`` on this thread."""
    n_act = len(actions)
    players = st0[N_PLAYERS]
    scores = np.zeros((n_chunks * chunk_size, n_act, players))
    wins = np.zeros((n_chunks * chunk_size, n_act, players))
    ws = workspace()
    base = np.empty_like(st0)
    st = np.empty_like(st0)
    streams = np.empty((3, 4), dtype=np.uint64)
    free = np.empty(N_RACING, dtype=np.int64)
    no_log = np.zeros((0, 3), dtype=np.int64)
    uniform = np.zeros((0, N_RACING))
    for g in range(n_chunks * chunk_size):
        r = chunk0 * chunk_size + g
        reseed(streams[0], seed, 3 * r)
        _sample_base(base, st0, streams[0], free, uniform)
        for a in range(n_act):
            _play_candidate(st, base, actions[a], policies, params, seed, r, streams, ws,
                            no_log)
            for p in range(players):
                scores[g, a, p] = st[MONEY + p]
                wins[g, a, p] = outcome(st, p)[0]
    return scores, wins


def playouts(st0, actions, policies, params, seed, n, chunk_size):
    """For rollouts ``0 .. n - 1`` and every candidate in ``actions``: the hidden finish
    cards sampled uniformly (``sample_hidden``), the candidate played for the player to
    move, then the game to its end under ``policies``, on the streams of ``rollouts``
    (common random numbers). Returns ``(scores, wins)``, float64 ``[candidate, rollout,
    seat]``: final money (EP) and win share (1/k each for the k richest). Chunks of
    ``chunk_size`` rollouts spread over the threads; the result does not depend on them."""
    n_chunks = -(-n // chunk_size)
    scores, wins = rows(lambda k, m: playout_chunks(st0, actions, policies, params,
                                                    np.uint64(seed), k, m, chunk_size),
                        n_chunks)
    return (np.ascontiguousarray(scores[:n].transpose(1, 0, 2)),
            np.ascontiguousarray(wins[:n].transpose(1, 0, 2)))


def rollouts(st0, actions, policies, params, seed, chunk0, n_chunks, chunk_size,
             weights=None):
    """For every rollout and every candidate in ``actions``: play the candidate for the
    player to move, then the game to its end under ``policies``. Returns
    ``out[rollout, candidate, 0]`` = win credit and ``[..., 1]`` = margin (EP) of that
    player. All candidates of a rollout share its hidden cards, dice and policy streams.
    Hidden cards: uniform (``sample_hidden``), or ``sample_hidden_informed`` with
    ``weights``. Chunks of ``chunk_size`` rollouts spread over the threads
    (``threads.rows``)."""
    weights = np.zeros((0, N_RACING)) if weights is None else weights
    return rows(lambda k, n: rollout_chunks(st0, actions, policies, params, np.uint64(seed),
                                            chunk0 + k, n, chunk_size, weights), n_chunks)
