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

import numpy as np

from ...kernels import camel_up as K
from ...errors import OddsbotError
from ..equity import RolloutEquity, batches, check_rollouts, equity, separated
from .encode import encode
from .position import Position

CHUNK = 16  # rollouts per chunk: chunk k always uses the streams of rollouts 16k..16k+15
BATCH_CHUNKS = 16
ROLLOUT_POLICIES = ("heuristic", "random")


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
    check_rollouts(rollouts, policy, ROLLOUT_POLICIES, "greedy enumerates the leg at every "
                   "decision: milliseconds a turn, for tournaments, not rollouts")
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
    out = batches(lambda first, count: K.rollouts(st, actions, policies, K.HEURISTIC_PARAMS,
                                                  np.uint64(seed), first // CHUNK,
                                                  count // CHUNK, CHUNK, weights),
                  rollouts, CHUNK, BATCH_CHUNKS,
                  None if target_se is None else lambda rows: separated(rows[:, :, 0], target_se),
                  progress)
    return equity(out[:, :, 0], out[:, :, 1], seed, policy)
