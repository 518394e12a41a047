"""What the viewer cannot see, drawn from the model of docs/games/camel-up-cards.md §9, and
rollouts of candidate turns to the end of the game (§14.1, ``--rollouts``).

``sample_hidden`` completes a state that holds only what the viewer knows: the rest of the
race deck is a candidate deck drawn by its posterior weight and shuffled; every opponent
who still holds a hand card gets one drawn uniformly from the cards left unseen (the pool
less the unknown deck part that draw implies). ``rollouts`` plays every candidate turn
from the same completed state and the same streams (common random numbers): rollout r
draws the hidden cards from stream (seed, 3r + 1), deals later legs from (seed, 3r) and
takes policy choices from (seed, 3r + 2). ``playouts`` plays the same rollouts and keeps
every seat's final money and win share (the arena's ``search`` player, docs/strategies.md).
"""

import numpy as np
from ..arrays import copy_into
from ..jit import njit

from ..rng import below, reseed
from .batch_games import MAX_TURNS
from .game import (
    DECK, DRAWN, HAND, MONEY, N_PLAYERS, NO_BET, STATUS, TO_MOVE, apply_bet, play_turn,
    seat, winners,
)
from .leg import draw_deck
from .policy import choose
from .track import N_TYPES

PHASE_START = 0  # nothing of the turn done
PHASE_BET = 1  # the bet is taken, the race action is not
PHASE_RACE = 2  # the race action is taken, no bet yet


@njit(cache=True, inline="always")  # one kernel caller, playouts
def sample_hidden(st, m, cum, pool, known, revealed, hidden_hands, s):
    """Fill in ``st`` the rest of the race deck and the hand cards of the seats marked in
    ``hidden_hands`` (module doc); counts per card type: ``pool`` the unseen pool,
    ``known`` the deck cards the viewer knows, ``revealed`` the cards drawn so far."""
    deck = np.empty(32, dtype=np.int64)
    n = draw_deck(m, cum, s, deck)
    # the cards neither in this leg's deck nor seen: pool - (rest + revealed - known)
    left = pool + known - revealed
    for i in range(n):
        st[DECK + st[DRAWN] + i] = deck[i]
        left[deck[i]] -= 1
    total = left.sum()
    for p in range(st[N_PLAYERS]):
        if not hidden_hands[p]:
            continue
        k = below(s, total)
        for t in range(N_TYPES):
            if k < left[t]:
                st[seat(p, HAND)] = t
                left[t] -= 1
                total -= 1
                break
            k -= left[t]


@njit(cache=True, inline="always")  # one caller, _play_on
def finish_turn(st, deal, bet1, race, bet2, phase):
    """The rest of the turn of the seat to move (``phase``: what of it is done): the
    whole turn from ``PHASE_START``; the race action and no bet from ``PHASE_BET``; the
    bet (or none) from ``PHASE_RACE``, then the next seat moves."""
    if phase == PHASE_RACE:
        if bet1 != NO_BET:
            apply_bet(st, st[TO_MOVE], bet1)
        st[TO_MOVE] = (st[TO_MOVE] + 1) % st[N_PLAYERS]
        return
    play_turn(st, deal, bet1 if phase == PHASE_START else NO_BET, race, bet2)


@njit(cache=True, inline="always")  # one caller, playouts
def _play_on(st, hidden, streams, seed, r, turn, phase, policies):
    """Rollout ``r`` of one candidate turn: ``st`` set to the completed state ``hidden``,
    the turn finished, then every seat following ``policies`` to the end of the game
    (deals from stream (seed, 3r), choices from (seed, 3r + 2))."""
    copy_into(st, hidden)
    reseed(streams[0], seed, 3 * r)
    reseed(streams[2], seed, 3 * r + 2)
    finish_turn(st, streams[0], turn[0], turn[1], turn[2], phase)
    played = 0
    while st[STATUS] == 0 and played < MAX_TURNS:
        bet1, race, bet2 = choose(st, streams[2], policies[st[TO_MOVE]])
        play_turn(st, streams[0], bet1, race, bet2)
        played += 1


def rollouts(st0, m, cum, pool, known, revealed, hidden_hands, turns, phase, policies,
             seed, first, count):
    """Rollouts ``first .. first + count - 1`` of every candidate turn ``turns[k]`` =
    (bet before, race action, bet after) of the seat to move in ``st0`` (a state with
    what the viewer knows), every seat then following ``policies``: ``out[r, k]`` =
    (win credit of the seat to move: 1 shared among the richest, its money less the best
    other seat's) (module doc). Python over ``playouts`` (no kernel of its own: it would
    optimise the whole game's code once more)."""
    games = playouts(st0, m, cum, pool, known, revealed, hidden_hands, turns, phase,
                     policies, seed, first, count)
    return _mover_rows(games, st0[TO_MOVE])


@njit(cache=True)
def _mover_rows(games, me):
    """``out[r, k]`` = (win share, money less the best other seat's) of seat ``me`` from
    ``playouts``' rows (a kernel: numpy's indexing costs ~1 % of a batch)."""
    out = np.empty((games.shape[0], games.shape[1], 2))
    for r in range(games.shape[0]):
        for k in range(games.shape[1]):
            other = -1.0
            for p in range(games.shape[3]):
                if p != me:
                    other = max(other, games[r, k, 0, p])
            out[r, k, 0] = games[r, k, 1, me]
            out[r, k, 1] = games[r, k, 0, me] - other
    return out


@njit(cache=True, nogil=True)
def playouts(st0, m, cum, pool, known, revealed, hidden_hands, turns, phase, policies,
             seed, first, count):
    """The rollouts of ``rollouts`` (the same streams), every seat's result:
    ``out[r, k, 0, p]`` seat p's final money, ``out[r, k, 1, p]`` its win share (1 shared
    among the richest, §8)."""
    n = st0[N_PLAYERS]
    out = np.zeros((count, turns.shape[0], 2, n))
    mark = np.zeros(n, dtype=np.int64)
    hidden = st0.copy()
    st = st0.copy()
    streams = np.empty((3, 4), dtype=np.uint64)
    for i in range(count):
        r = first + i
        copy_into(hidden, st0)
        reseed(streams[1], seed, 3 * r + 1)
        sample_hidden(hidden, m, cum, pool, known, revealed, hidden_hands, streams[1])
        for k in range(turns.shape[0]):
            _play_on(st, hidden, streams, seed, r, turns[k], phase, policies)
            tied = winners(st, mark)
            for p in range(n):
                out[i, k, 0, p] = st[seat(p, MONEY)]
                out[i, k, 1, p] = mark[p] / tied
    return out
