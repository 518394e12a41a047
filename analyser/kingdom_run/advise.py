"""Kingdom Run's EV table at both decision points of a turn (docs/games/kingdom-run.md
§15).

- The re-roll (a roll not yet re-rolled): one row per keep-set. ``ev`` = the expected
  default evaluation (the mover's score minus the best other player's, §14) after the
  best sequence of the final roll, over every outcome of the dice rolled again. A final
  roll whose branch-and-bound search (§15.2) ends within the table's ``SEARCH_BUDGET``
  states (all its final rolls' searches together) is valued exactly; a larger one by the
  greedy sequence (a lower bound): a row resting on any of those is ``method`` ``greedy``
  (no SE), the others ``exact``.
- The actions (the roll re-rolled, or in the middle of the turn): one row per distinct
  end-of-turn position, ``ev`` = its default evaluation (exact); ``on`` = where the
  runner of each Catch-up, Bath, Sleep or Wake step stands when the step is taken.
- No roll yet (``roll=-``, without ``--roll``): one row, ``roll`` (play-along's action
  whose outcomes are the dice), valued by the default evaluation as the position stands
  (``method`` ``before-roll``).
- ``--rollouts N``: each candidate (every keep-set; up to ``--candidates`` sequences,
  one per distinct end-of-turn position, the best by the default evaluation, a tie at
  the best spread evenly: ``equity.pick_candidates``) played to the end N times by
  ``--policy`` for every seat on common random numbers: ``ev`` = the expected final
  margin over the best other player, ``win_p`` the chance to win (a shared win 1/k),
  ``gap_se``, ``p_best``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ... import __version__
from ...errors import OddsbotError
from ...kernels.kingdom_run import layout as L
from ...kernels.kingdom_run.policies import POLICY_NAMES
from ...kernels.kingdom_run.reroll import keep_values
from ...kernels.kingdom_run.rollouts import rollouts as run_rollouts
from ...kernels.kingdom_run.turns import apply_path
from ..equity import (Candidates, batches, check_rollouts, columns, equity, pick_candidates,
                      separated)
from ..table import Table
from .encode import rules_vector, state_vector
from .labels import REROLL_ALL
from .position import FACE_NAMES, Position
from .turns import (
    ROLL, evaluation, keep_choices, keep_masks, keep_rows, over, phase, sequences, standing,
    with_roll,
)
from .validate import validate

SEARCH_BUDGET = 1_600_000  # states the searches of one re-roll table's final rolls value
REPLAY_BUDGET = 200_000  # ... in the replay of a whole game (``record.annotate``)
CANDIDATES = 12  # sequences rolled out with --rollouts (equity.pick_candidates)
CHUNK = 25
BATCH_CHUNKS = 20  # 500 rollouts between two looks at --target-se (--rollouts)
ROLLOUT_POLICIES = ("heuristic", "greedy", "random")
FACE_LETTERS = "SCBTZY"


def read_roll(text: str, dice: int) -> tuple[int, ...]:
    """``--roll``: faces by name (``scatter,catchup,bath,copy``) or letters (``SCBY``)."""
    words = [w.strip() for w in text.split(",")] if "," in text else list(text.strip())
    faces = []
    for w in words:
        if w in FACE_NAMES:
            faces.append(FACE_NAMES.index(w))
        elif len(w) == 1 and w.upper() in FACE_LETTERS:
            faces.append(FACE_LETTERS.index(w.upper()))
        else:
            raise OddsbotError(f"--roll: {w[:20]!r} is not a face (scatter catchup bath "
                               f"steal sleepwake copy, or S C B T Z Y)")
    if len(faces) != dice:
        raise OddsbotError(f"--roll: {len(faces)} faces given, the game rolls {dice} dice")
    return tuple(sorted(faces))


def prepared(pos: Position, roll: str, unrolled: bool = False) -> Position:
    """The position to advise on: validated, not over, with a roll (``--roll``) unless
    ``unrolled`` allows none."""
    validate(pos)
    if over(pos):
        raise game_over(pos)
    if roll:
        if pos.roll is not None:
            raise OddsbotError("--roll: the position already has a roll")
        return with_roll(pos, read_roll(roll, pos.rules.dice))
    if pos.roll is None and not unrolled:
        raise OddsbotError("roll: the position has no roll yet; give the turn's roll with "
                           "--roll (e.g. --roll scatter,catchup,bath,copy or --roll SCBY)")
    return pos


def game_over(pos: Position) -> OddsbotError:
    """The one-line refusal of a finished game, with its result."""
    from .simulate import final, result_line
    scores, winners = final(state_vector(pos), rules_vector(pos.rules))
    return OddsbotError(f"position: the game is over ({result_line(scores, winners)})")


def _provenance(pos: Position, method: str, **more: object) -> dict:
    return {"game": "kingdom-run", "variant": pos.variant, "oddsbot": __version__,
            "position": pos.to_notation(), "decision": phase(pos), "method": method,
            **more}


def _exact_table(pos: Position, labels: list[str], values: np.ndarray, methods: list[str],
                 prov: dict, on: list[str | None] | None = None) -> Table:
    order = best_first(values)
    best = float(values[order[0]])
    columns = {"action": [labels[i] for i in order],
               "ev": [float(values[i]) for i in order],
               "se": [0.0 if methods[i] == "exact" else None for i in order],
               "method": [methods[i] for i in order],
               "gap": [best - float(values[i]) for i in order]}
    if on is not None:
        columns["on"] = [on[i] for i in order]
    return Table.from_columns(columns, provenance=prov)


def best_first(values: np.ndarray) -> list[int]:
    """Row indices by value, best first (stable: canonical order among ties)."""
    return sorted(range(len(values)), key=lambda i: -values[i])


def reroll_table(pos: Position, budget: int) -> Table:
    """The re-roll table valued by the best sequence (module docstring), its final rolls'
    searches within ``budget`` states in all."""
    values, exact, greedy, rolls = keep_values(state_vector(pos), rules_vector(pos.rules),
                                               keep_rows(pos), budget)
    labels = [label for label, _ in keep_choices(pos)]
    methods = ["exact" if e else "greedy" for e in exact]
    return _exact_table(pos, labels, values, methods,
                        _provenance(pos, "exact" if exact.all() else "exact+greedy",
                                    search_budget=budget, rows=len(labels),
                                    greedy_rows=int((~exact).sum()),
                                    greedy_rolls=int(greedy), final_rolls=int(rolls)))


def roll_table(pos: Position) -> Table:
    """No roll yet: the one action, ``roll`` (its outcomes are the dice), valued by the
    default evaluation now (§14)."""
    return Table.from_columns(
        {"action": [ROLL], "ev": [evaluation(pos, pos.to_move)], "se": [None],
         "method": ["before-roll"], "gap": [0.0]},
        provenance=_provenance(pos, "before-roll"))


def sequence_table(pos: Position) -> Table:
    """Every distinct end-of-turn position valued by the default evaluation."""
    seqs = sequences(pos)
    return _exact_table(pos, seqs.labels, seqs.values, ["exact"] * len(seqs.labels),
                        _provenance(pos, "exact", positions=seqs.total,
                                    listed=len(seqs.labels)), standing(pos, seqs.paths))


def policy_id(policy: str | None) -> int:
    return POLICY_NAMES.index(policy or "heuristic")


def rollout_table(pos: Position, rollouts: int, seed: int, policy: str | None,
                  candidates: int | None,
                  progress: Callable[[int, int], None] | None,
                  target_se: float | None = None) -> Table:
    """Candidates rolled out to the end on common random numbers (module docstring),
    ``rollouts`` at most: with ``target_se``, they stop once the leading candidate is
    separated from every other (``equity.separated``), as every game's rollouts do."""
    name = policy or "heuristic"
    check_rollouts(rollouts, name, ROLLOUT_POLICIES, "")
    R = rules_vector(pos.rules)
    me = pos.to_move
    prov = _provenance(pos, "monte-carlo", rollouts=rollouts, seed=seed, policy=name)
    if phase(pos) == "keep":
        labels = [label for label, _ in keep_choices(pos)]
        S = state_vector(pos)
        states = np.repeat(S[None, :], len(labels), axis=0)
        keeps = np.array(keep_masks(pos), dtype=np.int64)
        shown = on = None
    else:
        most = candidates or CANDIDATES
        if most < 1:
            raise OddsbotError("--candidates: at least 1")
        labels, shown, on, states, chosen = sequence_candidates(pos, most)
        prov.update(chosen.provenance())
        keeps = np.full(len(labels), -1, dtype=np.int64)
    policies = np.full(L.MAX_PLAYERS, policy_id(policy), dtype=np.int64)
    stop = None if target_se is None else (
        lambda rows: separated(rows[:, :, L.MAX_PLAYERS + me], target_se))
    out = batches(lambda first, count: run_rollouts(states, keeps, R, policies, seed, first,
                                                    count, CHUNK),
                  rollouts, CHUNK, BATCH_CHUNKS, stop, progress)
    prov.update(rollouts=int(out.shape[0]), rollout_target_se=target_se)
    scores = out[:, :, :pos.players]
    others = np.delete(scores, me, axis=2).max(axis=2)
    margin = scores[:, :, me] - others
    win = out[:, :, L.MAX_PLAYERS + me]
    eq = equity(win, margin, seed, name)
    cols = columns(eq)
    order = sorted(range(len(labels)), key=lambda i: -eq.margin[i])
    best = eq.margin[order[0]]
    table = {"action": [labels[i] for i in order],
             "ev": [float(eq.margin[i]) for i in order],
             "se": [float(eq.margin_se[i]) for i in order],
             "method": ["monte-carlo"] * len(order),
             "gap": [float(best - eq.margin[i]) for i in order]}
    for col, values in cols.items():
        if col not in ("margin", "margin_se"):
            table[col] = [float(values[i]) for i in order]
    if shown is not None:
        table["evaluation"] = [shown[i] for i in order]
        table["on"] = [on[i] for i in order]
    return Table.from_columns(table, provenance=prov)


def sequence_candidates(pos: Position, most: int) -> tuple[
        list[str], list[float], list[str | None], np.ndarray, Candidates]:
    """(labels, default evaluations, ``on``, states after, the choice) of the sequences
    rolled out: up to ``most``, one per distinct end-of-turn position, spread over the
    best-valued ones (``equity.pick_candidates``)."""
    seqs = sequences(pos)
    order = best_first(seqs.values)
    S, R = state_vector(pos), rules_vector(pos.rules)

    def after(i: int) -> np.ndarray:
        state = S.copy()
        apply_path(state, R, seqs.paths[i].astype(np.int64))
        return state

    chosen = pick_candidates([float(seqs.values[i]) for i in order],
                             lambda k: after(order[k]).tobytes(), most)
    rows = [order[k] for k in chosen.chosen]
    return ([seqs.labels[i] for i in rows], [float(seqs.values[i]) for i in rows],
            standing(pos, seqs.paths[rows]), np.array([after(i) for i in rows]), chosen)


def advise(pos: Position, *, samples: int | None = None, seed: int = 0, roll: str = "",
           policy: str | None = None, candidates: int | None = None,
           progress: Callable[[int, int], None] | None = None,
           target_se: float | None = None, search_budget: int | None = None) -> Table:
    """The EV table of the position's decision (module docstring); ``samples``: rollouts
    per candidate (``--rollouts``/``--samples``), none for the exact values; ``target_se``
    stops the rollouts early (``rollout_table``); ``search_budget``: the re-roll table's
    (``SEARCH_BUDGET`` if None)."""
    pos = prepared(pos, roll, unrolled=samples is None)
    if pos.roll is None:
        return roll_table(pos)
    if samples is not None:
        return rollout_table(pos, samples, seed, policy, candidates, progress, target_se)
    if phase(pos) == "keep":
        return reroll_table(pos, SEARCH_BUDGET if search_budget is None else search_budget)
    return sequence_table(pos)


__all__ = ["advise", "prepared", "read_roll", "REROLL_ALL"]
