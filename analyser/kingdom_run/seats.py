"""Kingdom Run's arena seats (``SeatsFace`` of ``analyser/face.py``;
docs/games/kingdom-run.md §18).

A turn is three decisions, as in the play-along (§17): ``roll`` (no choice), the
keep-set, the action sequence. Nothing is hidden (§17): a seat's view is the position.
A policy decides by the kernel's own code (``kernels/kingdom_run/policies.py``, as whole
simulated games play), and its turn is named as ``advise`` names it: the first sequence
in canonical order that ends in the same position (``kernels/kingdom_run/seats.py``).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ...errors import OddsbotError, quote
from ...kernels.kingdom_run import game as G
from ...kernels.kingdom_run import layout as L
from ...kernels.kingdom_run import seats as K
from ...kernels.kingdom_run import turns as T
from ...kernels.kingdom_run.policies import POLICY_NAMES
from ...kernels.kingdom_run.reroll import keep_values
from ...kernels.kingdom_run.rollouts import rollouts as run_rollouts
from ...kernels.rng import stream
from ..play_common import policy_code
from .advise import best_first, game_over
from .encode import rules_vector, state_vector
from .labels import keep_label, keep_mask, path_label, read_path
from .play import apply, record_text
from .position import Position
from .simulate import final, new_position, roll_text
from .turns import ROLL, keep_choices, keep_rows, over, phase

__all__ = ["candidates", "choose", "deal", "game_result", "playouts", "seat_view",
           "seated_record", "step"]

KEEP_BUDGET = 1  # states the keep-set table's searches may expand when ranking keep-sets:
# 1 values every final roll by the greedy sequence (advise's fallback, a lower bound)
SEQUENCE_BUDGET = 3_000  # states the search of a turn's sequences may expand (candidates)
NAMING_BUDGET = 200_000  # states searched for the name advise gives a policy's turn (then
# its own sequence names it: a crowded turn with more distinct ends than ``moves`` lists)
CHUNK = 32  # rollouts a thread takes at a time (does not change any result)


def deal(players: int, seed: int, variant: str, rules: Mapping[str, str]) -> Position:
    """The start of a new game: ``new_position``, the first roll from stream (seed, 1),
    the roll game 0 of a designer run seeded ``seed`` starts with."""
    return new_position(players, seed, variant, dict(rules) or None)


def seat_view(pos: Position, seat: int) -> Position:
    """What seat ``seat`` may know: everything (nothing is hidden, §17)."""
    return pos


def _decision(pos: Position) -> str:
    """The decision's phase (``turns.phase``); one line if the game is over."""
    if over(pos):
        raise game_over(pos)
    return phase(pos)


def choose(view: Position, policy: str, seed: int) -> str:
    """The action ``policy`` takes (as whole simulated games play it, §14), labelled as
    ``advise`` labels it; its random draws from stream (seed, 0)."""
    pid, stage = policy_code(policy, POLICY_NAMES, "kingdom-run"), _decision(view)
    if stage == "roll":
        return ROLL
    S, R = state_vector(view), rules_vector(view.rules)
    if stage == "keep":
        mask = K.policy_keep(S, R, pid, np.uint64(seed))
        return keep_label(tuple(sorted(f for d, f in enumerate(view.roll) if mask >> d & 1)))
    path, _ = K.policy_path(S, R, pid, np.uint64(seed), NAMING_BUDGET)
    return path_label(path, view.asleep)


def step(pos: Position, action: str, seed: int) -> tuple[Position, str | None]:
    """The position after ``action`` (``play.apply``), its dice rolled from stream
    (seed, 1) as the kernel rolls them; the roll they show (``SCBY``) or None."""
    outcome = _dice(pos, action, seed)
    return apply(pos, action, outcome), outcome


def _dice(pos: Position, action: str, seed: int) -> str | None:
    """The final roll ``action`` rolls, None if it rolls nothing (or is not a roll or
    keep-set of ``pos``: ``apply`` then says why)."""
    if over(pos) or phase(pos) == "act":
        return None
    S, R = state_vector(pos), rules_vector(pos.rules)
    if phase(pos) == "roll":
        if action.strip() != ROLL:
            return None
        G.roll(S, R, stream(np.uint64(seed), 1))
    else:
        kept = dict(keep_choices(pos)).get(action.strip())
        if kept is None or len(kept) == pos.rules.dice:
            return None
        G.reroll(S, R, keep_mask(pos.roll, kept), stream(np.uint64(seed), 1))
    return roll_text(tuple(int(f) for f in S[L.S_ROLL:L.S_ROLL + pos.rules.dice]))


def game_result(pos: Position) -> tuple[tuple[float, ...], tuple[float, ...]] | None:
    """None while the game goes on; else every seat's score and win share (§9: the
    tie rule decides the winners, k tied winners 1/k each)."""
    if not over(pos):
        return None
    scores, winners = final(state_vector(pos), rules_vector(pos.rules))
    return (tuple(float(s) for s in scores),
            tuple(1 / len(winners) if p in winners else 0.0 for p in range(pos.players)))


def candidates(view: Position, k: int, seed: int) -> list[str]:
    """At most ``k`` actions best first as ``advise`` ranks them, found cheaply: keep-sets
    by the expected value of the greedy sequence over the re-rolls (advise's lower
    bound), sequences by the default evaluation over the first ``SEQUENCE_BUDGET``
    states searched (advise's exact order when the search ends within it); then the
    heuristic's and greedy's choices where not in."""
    stage = _decision(view)
    if stage == "roll":
        return [ROLL]
    S, R = state_vector(view), rules_vector(view.rules)
    if stage == "keep":
        labels = [label for label, _ in keep_choices(view)]
        values, *_ = keep_values(S, R, keep_rows(view), KEEP_BUDGET)
    else:
        paths, values, rows, _, _, _ = T.search(S, R, max(k, 1), SEQUENCE_BUDGET)
        labels = [path_label(paths[i], view.asleep) for i in range(rows)]
    best = [labels[i] for i in best_first(values)[:k]]
    for policy in ("heuristic", "greedy"):
        choice = choose(view, policy, seed)
        if choice not in best:
            best.append(choice)
    return best


def _states(view: Position, actions: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The state after each action and the dice it keeps (-1: none rolled again), as
    the rollout kernel takes them; one line for an action that is not legal."""
    S, R = state_vector(view), rules_vector(view.rules)
    stage = _decision(view)
    states = np.repeat(S[None, :], len(actions), axis=0)
    keeps = np.full(len(actions), -1, dtype=np.int64)
    kept = dict(keep_choices(view)) if stage == "keep" else {}
    for i, action in enumerate(actions):
        if stage == "roll" and action.strip() == ROLL:
            continue
        if stage == "keep" and action.strip() in kept:
            keeps[i] = keep_mask(view.roll, kept[action.strip()])
            continue
        if stage != "act" or T.apply_path(states[i], R, read_path(action, "action")) < 0:
            raise OddsbotError(f"action: {quote(action)} is not a legal {stage} choice "
                               f"here ('oddsbot moves' lists them)")
    return states, keeps


def playouts(view: Position, actions: list[str], *, n: int, seed: int, policy: str
             ) -> tuple[np.ndarray, np.ndarray]:
    """``(scores, wins)`` of shape ``(len(actions), n, players)``: ``n`` games played on
    after each action, every seat by ``policy`` (``kernels/kingdom_run/rollouts.py``:
    rollout i rolls its dice from stream (seed, 3i + 1) whatever the action)."""
    pid = policy_code(policy, POLICY_NAMES, "kingdom-run")
    states, keeps = _states(view, actions)
    policies = np.full(L.MAX_PLAYERS, pid, dtype=np.int64)
    out = run_rollouts(states, keeps, rules_vector(view.rules), policies, seed, 0, n, CHUNK)
    players = view.players
    scores = out[:, :, :players].transpose(1, 0, 2)
    wins = out[:, :, L.MAX_PLAYERS:L.MAX_PLAYERS + players].transpose(1, 0, 2)
    return np.ascontiguousarray(scores), np.ascontiguousarray(wins)


def seated_record(positions: list[Position], moves: list[tuple[str, str | None]]) -> str:
    """The play-along record of a game played by seats (``new --play search``): ``step``'s
    outcomes are play-along's, so it is ``record_text`` of the start and the moves."""
    return record_text(positions[0], moves)
