"""Five Tribes rollouts (docs/games/five-tribes.md §21): whole games played from a position
by a policy in every seat, many times, on common random numbers.

``turn_equity`` rolls out candidate turns or bids of the player to move (win probability,
final margin over the best opponent, paired gaps: ``analyser.equity``); ``standings``
rolls out the position as it stands for every player's chance to win and expected final
score. Secret gold (§14.13) is drawn from its interval in each rollout; unseen cards,
djinns and meeples are drawn as they fall from what the decks and the bag hold (§20.6).
Win credit: 1 to the player with the most VP, shared 1/k among k tied (§13).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...kernels import five_tribes as FT
from .. import equity
from ..equity import RolloutEquity
from . import GAME
from .encode import encode
from .position import Position

ROLLOUT_POLICIES = ("heuristic", "random")
CREDIT_UNITS = 12  # win credit 1/k of k <= 4 tied players is a whole number of twelfths
CHUNK = 8  # rollouts a kernel thread takes at a time (the rows do not depend on it)
BATCH_CHUNKS = 32  # 256 rollouts between two looks at the target error
TARGET_SE = GAME.target_se["odds"]  # of the standings' win probabilities, unless told
GREEDY_HINT = ("greedy values every complete turn exactly at every decision: about a "
               "second a turn")
UNSEEN_WORDS = ("cards, djinns and meeples not in view are drawn uniformly as they fall from "
                "what the decks and the bag hold (docs/games/five-tribes.md §20.6)")
SECRET_GOLD_WORDS = ("a secret gold (docs/games/five-tribes.md §14.13) is drawn uniformly from "
                     "its interval in each rollout, independently per player")
POLICY_WORDS = {
    "heuristic": "heuristic: each turn the best of 4 sampled sowings, each followed by its "
                 "best tribe then tile choice by change of final score (docs/games/"
                 "five-tribes.md §21.1); bids the cheapest legal price",
    "random": "random: uniformly random legal bids and complete turns (docs/games/"
              "five-tribes.md §19.5)",
}


def gold_bounds(pos: Position) -> tuple[np.ndarray, np.ndarray]:
    """Per seat, the interval its gold is drawn from (known gold: one value)."""
    lo = [p.gold if p.gold_range is None else p.gold_range[0] for p in pos.players]
    hi = [p.gold if p.gold_range is None else p.gold_range[1] for p in pos.players]
    return np.array(lo, dtype=np.int64), np.array(hi, dtype=np.int64)


def final_scores(pos: Position, kinds: list[int], cands: np.ndarray, *, rollouts: int,
                 policy: str, seed: int,
                 stop: Callable[[np.ndarray], bool] | None = None,
                 progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """``scores[r, c, p]``: seat p's final score (VP) in rollout r after candidate c
    (``FT.CAND_*`` kinds; ``cands``: their rows), ``rollouts`` at most, ``stop`` looked at
    after every batch."""
    equity.check_rollouts(rollouts, policy, ROLLOUT_POLICIES, GREEDY_HINT)
    st = encode(pos)
    lo, hi = gold_bounds(pos)
    policies = np.full(pos.n_players, FT.POLICY_NAMES.index(policy), dtype=np.int64)
    return equity.batches(
        lambda first, count: FT.rollouts(st, kinds, cands, lo, hi, policies, seed, first,
                                         count, CHUNK),
        rollouts, CHUNK, BATCH_CHUNKS, stop, progress)


def shares(scores: np.ndarray) -> np.ndarray:
    """Win credit ``[..., p]`` of final scores ``[..., p]``: 1/k to each of the k best."""
    top = scores == scores.max(axis=-1, keepdims=True)
    return top / top.sum(axis=-1, keepdims=True)


def _mover_results(scores: np.ndarray, mover: int) -> tuple[np.ndarray, np.ndarray]:
    """(win credit, margin over the best opponent) of ``mover``, per rollout and
    candidate."""
    others = np.delete(scores, mover, axis=-1)
    return shares(scores)[..., mover], scores[..., mover] - others.max(axis=-1)


def turn_equity(pos: Position, kinds: list[int], cands: np.ndarray, *, rollouts: int,
                policy: str = "heuristic", seed: int = 0, target_se: float | None = None,
                progress: Callable[[int, int], None] | None = None) -> RolloutEquity:
    """The rollout equity of the mover's candidates (turn rows or bids): each played,
    then the whole game under ``policy``; with ``target_se``, stop once the leading
    candidate is separated from every other (``equity.separated``)."""
    mover = pos.to_move
    stop = None if target_se is None else (
        lambda s: equity.separated(_mover_results(s, mover)[0], target_se))
    scores = final_scores(pos, kinds, cands, rollouts=rollouts, policy=policy, seed=seed,
                          stop=stop, progress=progress)
    win, margin = _mover_results(scores.astype(float), mover)
    return equity.equity(win, margin, seed, policy)


@dataclass(frozen=True)
class Standings:
    """Per player: chance to win and expected final score (VP), with standard errors;
    ``target_se``: the SE the rollouts stopped at (None: a fixed number)."""

    win: np.ndarray
    win_se: np.ndarray
    score: np.ndarray
    score_se: np.ndarray
    rollouts: int
    policy: str
    target_se: float | None = None


def standings(pos: Position, *, rollouts: int | None = None, policy: str = "heuristic",
              seed: int = 0, target_se: float | None = None, max_rollouts: int = 100_000,
              progress: Callable[[int, int], None] | None = None) -> Standings:
    """Every player's chance to win and expected final score from ``pos`` as it stands:
    ``rollouts`` alone, exactly that many; else batches until every win probability's SE
    is at most ``target_se`` (``TARGET_SE`` when neither is given), ``rollouts`` (else
    ``max_rollouts``) at most (``montecarlo.sampling``)."""
    goal = target_se if target_se is not None or rollouts else TARGET_SE
    stop = None if goal is None else (
        lambda s: float(equity.se(shares(s[:, 0].astype(float))).max()) <= goal)
    cands = np.zeros((1, FT.ACTION_SIZE), dtype=np.int64)
    scores = final_scores(pos, [FT.CAND_NONE], cands, rollouts=rollouts or max_rollouts,
                          policy=policy, seed=seed, stop=stop, progress=progress)[:, 0]
    win, win_se = _exact_mean_se(np.rint(shares(scores) * CREDIT_UNITS).astype(np.int64))
    score, score_se = _exact_mean_se(scores.astype(np.int64))
    return Standings(win / CREDIT_UNITS, win_se / CREDIT_UNITS, score, score_se, len(scores),
                     policy, goal)


def _exact_mean_se(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and standard error over axis 0 of integers, the sums taken in integers: a
    column of one value has exactly that mean and zero error."""
    n = x.shape[0]
    total, squares = x.sum(axis=0), (x * x).sum(axis=0)
    spread = (n * squares - total * total) / (n * (n - 1)) if n > 1 else np.inf
    return total / n, np.sqrt(spread / n)
