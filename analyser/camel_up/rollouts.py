"""Rollout equity: every legal action played out to the end of the game many times.

For each rollout the opponents' hidden finish cards are sampled uniformly over the
assignments consistent with what the player knows, then every candidate action is
played followed by the whole game under the chosen policy for all seats, on common
random numbers (the same hidden cards, dice sequence and policy stream for every
candidate of a rollout), so differences between candidates are sharper than the
candidates' own errors. Win credit: 1 for the richest player, shared 1/k among k tied.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...kernels import camel_up as K
from ...errors import OddsbotError
from .encode import encode
from .position import Position

CHUNK = 16  # rollouts per chunk: chunk k always uses the streams of rollouts 16k..16k+15
BATCH_CHUNKS = 16
SEPARATED_Z = 2.5  # the leader is "separated" when every gap exceeds this many SEs
P_BEST_DRAWS = 20_000
ROLLOUT_POLICIES = ("heuristic", "random")


@dataclass(frozen=True)
class RolloutEquity:
    """Per candidate (in the order given): win probability, final margin over the best
    opponent in EP, their standard errors, the SE of the paired difference of win
    probability to the best candidate, and the probability of truly being best."""

    win: np.ndarray
    win_se: np.ndarray
    margin: np.ndarray
    margin_se: np.ndarray
    gap_se: np.ndarray
    p_best: np.ndarray
    rollouts: int
    policy: str


def _se(x: np.ndarray) -> np.ndarray:
    n = x.shape[0]
    return x.std(axis=0, ddof=1) / np.sqrt(n) if n > 1 else np.full(x.shape[1:], np.inf)


def _gap_se(win: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """(best candidate, mean gap of each candidate to it, SE of that paired gap)."""
    best = int(np.argmax(win.mean(axis=0)))
    diff = win[:, [best]] - win
    return best, diff.mean(axis=0), _se(diff)


def _separated(win: np.ndarray, target_se: float) -> bool:
    best, gap, gap_se = _gap_se(win)
    others = np.arange(win.shape[1]) != best
    done = (gap_se[others] <= target_se) | (gap[others] > SEPARATED_Z * gap_se[others])
    return bool(done.all())


def _p_best(win: np.ndarray, seed: int) -> np.ndarray:
    """P(each candidate has the highest true win probability), from the normal
    approximation of the candidates' means with their sample covariance (which carries
    the common-random-number correlation)."""
    n, a = win.shape
    if a == 1:
        return np.ones(1)
    mean = win.mean(axis=0)
    cov = np.cov(win, rowvar=False) / n
    rng = np.random.default_rng([seed, 0x70BE57])
    draws = rng.multivariate_normal(mean, cov, size=P_BEST_DRAWS, method="eigh",
                                    check_valid="ignore")
    draws += rng.uniform(0, 1e-12, size=draws.shape)  # exact ties split evenly
    return np.bincount(draws.argmax(axis=1), minlength=a) / P_BEST_DRAWS


HIDDEN_MODELS = {
    "uniform": "each opponent's hidden cards are a uniformly random ordered choice of the "
               "colours not seen on their other cards",
    "informed": "each hidden card takes a colour not yet used by its owner with probability "
                "proportional to that colour's race odds (to win for the winner deck, to lose "
                "for the loser deck); positions carry no placement history, so the odds are "
                "the current ones",
}


def rollout_equity(pos: Position, codes: list[int], *, rollouts: int, policy: str,
                   seed: int = 0, target_se: float | None = None, hidden: str = "uniform",
                   race_weights: np.ndarray | None = None,
                   progress: Callable[[int, int], None] | None = None) -> RolloutEquity:
    """Roll out every candidate action (kernel codes) ``rollouts`` times at most; with
    ``target_se``, stop early once the leading candidate is separated from every other
    (gap > 2.5 SE, or the gap's SE <= target_se). Whole batches of chunks only, so the
    answer depends on the seed alone, never on threads. ``hidden`` picks the model of
    opponents' hidden finish cards (``HIDDEN_MODELS``); ``informed`` needs
    ``race_weights[deck, colour]`` (deck 0: P(win), deck 1: P(lose))."""
    if policy not in ROLLOUT_POLICIES:
        hint = (" (greedy enumerates the leg at every decision: milliseconds a turn, for "
                "tournaments, not rollouts)" if policy == "greedy" else "")
        raise OddsbotError(f"policy: {policy!r} cannot drive rollouts{hint}; use "
                           f"{' or '.join(ROLLOUT_POLICIES)}")
    if rollouts < 2:
        raise OddsbotError("rollouts: need at least 2 rollouts for a standard error")
    if hidden not in HIDDEN_MODELS:
        raise OddsbotError(f"hidden: unknown model {hidden!r} (known: "
                           f"{', '.join(HIDDEN_MODELS)})")
    weights = None
    if hidden == "informed":
        if race_weights is None:
            raise OddsbotError("hidden: the informed model needs race odds")
        weights = np.asarray(race_weights, dtype=np.float64)
    st = encode(pos)
    actions = np.array(codes, dtype=np.int64)
    policies = np.full(pos.players, K.POLICY_NAMES.index(policy), dtype=np.int64)
    total_chunks = -(-rollouts // CHUNK)
    parts = []
    done = 0
    while done < total_chunks:
        n_chunks = min(BATCH_CHUNKS, total_chunks - done)
        parts.append(K.rollouts(st, actions, policies, K.HEURISTIC_PARAMS, np.uint64(seed), done,
                                n_chunks, CHUNK, weights))
        done += n_chunks
        if progress is not None:
            progress(done * CHUNK, total_chunks * CHUNK)
        if target_se is not None and _separated(np.concatenate(parts)[:, :, 0], target_se):
            break
    out = np.concatenate(parts)
    win, margin = out[:, :, 0], out[:, :, 1]
    _, _, gap_se = _gap_se(win)
    return RolloutEquity(win.mean(axis=0), _se(win), margin.mean(axis=0), _se(margin),
                         gap_se, _p_best(win, seed), out.shape[0], policy)
