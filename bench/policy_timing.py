"""numba timing harnesses for the benchmark's policy figures (not part of the package).

The heuristic policy decides in well under a microsecond, far below what a Python-level
call (dispatch, argument unboxing) costs, so its decisions are timed from inside compiled
code: the caller times one call of a harness below that makes many decisions, and divides.

* ``decide_loop``: ``K.choose`` (heuristic) many times on each of an array of encoded
  states; with ``mode`` FRESH the workspace is forgotten before every call, so the leg
  estimate is recomputed each time (the worst case), with CACHED it is recomputed once
  per state and then reused (the steady state between two reveals in a game), with
  OVERHEAD no decision is made at all (the loop and ``forget`` only).
* ``games_serial`` / ``games_replay``: the games of ``K.simulate_games`` on one thread,
  the first choosing every action with the policies and optionally logging it, the
  second replaying the logged actions on the same streams without any policy call. Their
  time difference over the number of turns is the policy's in-game cost per decision.
  Both return the final money and turns per game, laid out as ``K.simulate_games`` does,
  so the caller can check they play exactly the kernel's games. ``replay_state`` gives
  the state of a logged game after some turns (positions the policy really meets).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit
from oddsbot.kernels import camel_up as K
from oddsbot.kernels.camel_up.game import (
    A_PYRAMID,
    MAX_PLAYERS,
    MONEY,
    N_PLAYERS,
    STATUS,
    TO_MOVE,
    apply_action,
    draw_reveal,
)
from oddsbot.kernels.camel_up.policy import (
    HEURISTIC,
    W_COLS,
    W_ROWS,
    choose,
    forget,
    workspace,
)
from oddsbot.kernels.camel_up.rollout import MAX_TURNS, sample_hidden
from oddsbot.kernels.camel_up.track import N_RACING
from oddsbot.kernels.rng import reseed, stream

OVERHEAD = 0
CACHED = 1
FRESH = 2


def _purge_stale_caches() -> None:
    """numba checks a cached function against its own source file only, and these
    harnesses compile kernel code of other files into themselves: drop their cache
    whenever a kernel source changed (``kernels/cache_guard.py`` does the same for the
    kernels' own caches)."""
    import oddsbot.kernels
    from oddsbot.kernels.cache_guard import fingerprint

    here = Path(__file__).resolve()
    cache = here.parent / "__pycache__"
    stamp = cache / f"{here.stem}.kernels.sha256"
    current = fingerprint(Path(oddsbot.kernels.__file__).resolve().parent)
    try:
        if stamp.read_text() == current:
            return
    except OSError:
        pass
    try:
        if cache.is_dir():
            for f in cache.glob(f"{here.stem}.*"):
                if f.suffix in (".nbi", ".nbc"):
                    f.unlink()
        cache.mkdir(exist_ok=True)
        stamp.write_text(current)
    except OSError:
        pass


_purge_stale_caches()


@njit(cache=True)
def decide_loop(states, params, reps, mode):
    """``reps`` rounds of one heuristic decision on each row of ``states``, so consecutive
    decisions are on different states (no branch history to learn from one call to the
    next); each state keeps its own workspace. Returns a checksum of the chosen actions so
    that no call can be optimised away."""
    n = states.shape[0]
    ws = np.empty((n, W_ROWS, W_COLS))
    for i in range(n):
        forget(ws[i])
    s = stream(0, 0)
    total = 0
    for _ in range(reps):
        for i in range(n):
            st = states[i]
            if mode == FRESH:
                forget(ws[i])
            if mode == OVERHEAD:
                total += st[TO_MOVE]
            else:
                total += choose(st, HEURISTIC, params, s, ws[i])
    return total


@njit(cache=True)
def games_serial(st0, policies, params, seed, n_games, log, offsets):
    """Games 0..n_games-1 of ``K.simulate_games(st0, policies, params, seed, ...)`` on one
    thread. Every action goes to ``log`` (flat, game after game; game ``g`` starts at
    ``offsets[g]``) while it has room; pass an empty ``log`` to log nothing. Returns
    ``(out, logged)``: ``out`` as ``K.simulate_games`` returns it and the number of actions
    played in all (a log shorter than that was too small)."""
    out = np.zeros((n_games, MAX_PLAYERS + 1), dtype=np.int64)
    ws = workspace()
    st = np.empty_like(st0)
    streams = np.empty((3, 4), dtype=np.uint64)
    free = np.empty(N_RACING, dtype=np.int64)
    pos = 0
    for g in range(n_games):
        for i in range(3):
            reseed(streams[i], seed, 3 * g + i)
        st[:] = st0
        sample_hidden(st, streams[0], free)
        forget(ws)
        offsets[g] = pos
        turns = 0
        while st[STATUS] == 0 and turns < MAX_TURNS:
            action = choose(st, policies[st[TO_MOVE]], params, streams[2], ws)
            die = -1
            face = -1
            if action == A_PYRAMID:
                die, face = draw_reveal(st, streams[1])
            apply_action(st, action, die, face)
            if pos < log.shape[0]:
                log[pos] = action
            pos += 1
            turns += 1
        for p in range(st[N_PLAYERS]):
            out[g, p] = st[MONEY + p]
        out[g, MAX_PLAYERS] = turns
    offsets[n_games] = pos
    return out, pos


@njit(cache=True)
def games_replay(st0, seed, n_games, log, offsets):
    """The games logged by ``games_serial``, replayed without the policy: the same hidden
    cards and dice streams, every action read from the log. Returns ``out`` like
    ``games_serial`` (identical when the replay is faithful)."""
    if offsets[n_games] > log.shape[0]:
        raise ValueError("games_replay: the log does not hold every logged action")
    out = np.zeros((n_games, MAX_PLAYERS + 1), dtype=np.int64)
    st = np.empty_like(st0)
    streams = np.empty((3, 4), dtype=np.uint64)
    free = np.empty(N_RACING, dtype=np.int64)
    for g in range(n_games):
        for i in range(3):
            reseed(streams[i], seed, 3 * g + i)
        st[:] = st0
        sample_hidden(st, streams[0], free)
        turns = 0
        for t in range(offsets[g], offsets[g + 1]):
            action = log[t]
            die = -1
            face = -1
            if action == A_PYRAMID:
                die, face = draw_reveal(st, streams[1])
            apply_action(st, action, die, face)
            turns += 1
        for p in range(st[N_PLAYERS]):
            out[g, p] = st[MONEY + p]
        out[g, MAX_PLAYERS] = turns
    return out


@njit(cache=True)
def replay_state(st0, seed, g, log, offsets, turns):
    """The state of game ``g`` of a ``games_serial`` log after its first ``turns`` turns."""
    st = st0.copy()
    streams = np.empty((3, 4), dtype=np.uint64)
    free = np.empty(N_RACING, dtype=np.int64)
    for i in range(3):
        reseed(streams[i], seed, 3 * g + i)
    sample_hidden(st, streams[0], free)
    for t in range(offsets[g], min(offsets[g] + turns, offsets[g + 1])):
        action = log[t]
        die = -1
        face = -1
        if action == A_PYRAMID:
            die, face = draw_reveal(st, streams[1])
        apply_action(st, action, die, face)
    return st


def states_array(positions) -> np.ndarray:
    """The encoded states of ``positions`` as one ``int64[n, STATE_SIZE]`` array."""
    from oddsbot.analyser.camel_up.encode import encode

    return np.ascontiguousarray(np.stack([encode(p) for p in positions]), dtype=np.int64)


__all__ = ["CACHED", "FRESH", "OVERHEAD", "K", "decide_loop", "games_replay",
           "games_serial", "replay_state", "states_array"]
