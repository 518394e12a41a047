"""Rollout equity of Camel Up Cards turns (docs/games/camel-up-cards.md §14.1,
``--rollouts``): the best turns by EV played out to the end of the game many times, on
common random numbers; the statistics are the shared ``analyser.equity``.

For each rollout the race deck's rest and the opponents' hand cards are drawn from the
viewer's model (§9), never from anything the viewer cannot know; every candidate turn of
the rollout meets the same draws, deals and policy streams."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...kernels.camel_up_cards import policy as P
from ...kernels.camel_up_cards import rollouts as R
from ..equity import RolloutEquity, batches, check_rollouts, columns, equity, separated
from ..table import Table
from .labels import turn_codes
from .position import Position
from .state import PHASE_CODES, known_state

ROLLOUT_POLICIES = P.POLICY_NAMES
CHUNK = 16
BATCH_CHUNKS = 16


def rollout_equity(pos: Position, labels: list[str], *, rollouts: int, policy: str,
                   seed: int = 0, target_se: float | None = None,
                   progress: Callable[[int, int], None] | None = None) -> RolloutEquity:
    """Roll out each turn of ``labels`` ``rollouts`` times at most (module doc); with
    ``target_se``, stop once the leading turn is separated from every other."""
    check_rollouts(rollouts, policy, ROLLOUT_POLICIES, "")
    st, h = known_state(pos)
    turns = np.array([turn_codes(label, pos.phase) for label in labels], dtype=np.int64)
    policies = np.full(pos.players, ROLLOUT_POLICIES.index(policy), dtype=np.int64)
    phase = PHASE_CODES[pos.phase]
    out = batches(lambda first, count: R.rollouts(
        st, h.m, h.cum, h.pool, h.known, h.revealed, h.hidden_hands, turns, phase,
        policies, np.uint64(seed), first, count), rollouts, CHUNK, BATCH_CHUNKS,
        None if target_se is None else lambda rows: separated(rows[:, :, 0], target_se),
        progress)
    return equity(out[:, :, 0], out[:, :, 1], seed, policy)


DEFAULT_CANDIDATES = 12


def with_rollouts(table: Table, pos: Position, *, rollouts: int, policy: str | None,
                  candidates: int | None, seed: int, target_se: float | None,
                  progress: Callable[[int, int], None] | None) -> Table:
    """``table`` (best first by ev) with the rollout columns of its best ``candidates``
    turns (default ``DEFAULT_CANDIDATES``), those rows first by ``win_p``."""
    policy = policy or ROLLOUT_POLICIES[0]
    chosen = list(table["action"][:candidates or DEFAULT_CANDIDATES])
    eq = rollout_equity(pos, chosen, rollouts=rollouts, policy=policy, seed=seed,
                        target_se=target_se, progress=progress)
    at = {label: k for k, label in enumerate(chosen)}
    out = table.with_columns({col: [float(v[at[a]]) if a in at else None
                                    for a in table["action"]]
                              for col, v in columns(eq).items()})
    win, ev = out.columns.index("win_p"), out.columns.index("ev")
    ordered = sorted(out.rows, key=lambda r: (r[win] is None,
                                              -(r[ev] if r[win] is None else r[win])))
    prov = dict(out.provenance)
    prov.update(rollouts=eq.rollouts, policy=policy, rollout_seed=seed,
                rollout_target_se=target_se, candidates=len(chosen),
                hidden="the rest of the race deck and the opponents' hand cards drawn "
                       "from the viewer's model (docs/games/camel-up-cards.md §9)",
                win="1 for the richest player, shared among ties (§8)")
    return Table(out.columns, tuple(ordered), prov)
