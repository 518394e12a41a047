"""Each player's chance to win and expected final score (docs/games/kingdom-run.md §15):
whole games sampled from the position, every seat playing the policy (``heuristic``
unless told), the dice of game i from stream (seed, 3i + 1): the same for any threads. With
``--target-se``, games are drawn in batches of ``BATCH`` until every win probability's
SE is at most it (``--samples``, else ``MAX_SAMPLES``, at most: ``montecarlo.until``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ... import __version__
from .. import montecarlo
from ...errors import OddsbotError
from ...kernels.kingdom_run import layout as L
from ...kernels.kingdom_run.policies import POLICY_NAMES
from ...kernels.kingdom_run.rollouts import rollouts
from ..equity import se as mean_se
from .advise import CHUNK, game_over, policy_id
from .encode import rules_vector, state_vector
from .position import Position
from .turns import over
from .validate import validate

SAMPLES = 2_000  # games sampled by default
MAX_SAMPLES = 200_000  # games at most when stopping at --target-se without --samples
BATCH = 500  # games between two looks at the target SE


def player_name(pos: Position, p: int) -> str:
    return f"p{p + 1} ({pos.clans[p]})"


def odds(pos: Position, *, samples: int | None = None, seed: int = 0,
         target_se: float | None = None,
         progress: Callable[[int, int], None] | None = None, policy: str | None = None
         ) -> dict:
    """``{"players": [{player, clan, score, score_se, win_p, win_se}], "provenance"}``;
    a shared win counts 1/k for each of the k sharing it."""
    validate(pos)
    if over(pos):
        raise game_over(pos)
    most = montecarlo.sampling(samples, target_se, SAMPLES, MAX_SAMPLES)
    if most < 2:
        raise OddsbotError("--samples: need at least 2 games for a standard error")
    pid = policy_id(policy)
    policies = np.full(L.MAX_PLAYERS, pid, dtype=np.int64)
    S = state_vector(pos)[None, :]
    R = rules_vector(pos.rules)
    n = pos.players
    wins = slice(L.MAX_PLAYERS, L.MAX_PLAYERS + n)
    out, count = montecarlo.until(
        lambda first, k, told: rollouts(S, np.array([-1]), R, policies, seed, first, k,
                                        CHUNK, told),
        lambda a, b: np.concatenate([a, b]),
        lambda rows, _: float(mean_se(rows[:, 0, wins]).max()),
        most, target_se, BATCH, progress)
    score, win = out[:, 0, :n], out[:, 0, wins]
    values = (score.mean(axis=0), mean_se(score), win.mean(axis=0), mean_se(win))
    players = [{"player": player_name(pos, p), "clan": pos.clans[p],
                "score": float(values[0][p]), "score_se": float(values[1][p]),
                "win_p": float(values[2][p]), "win_se": float(values[3][p])}
               for p in range(n)]
    prov = {"game": "kingdom-run", "variant": pos.variant, "oddsbot": __version__,
            "position": pos.to_notation(), "method": "monte-carlo",
            "policy": "every seat " + POLICY_NAMES[pid], "samples": int(count), "seed": seed,
            **montecarlo.target_provenance(target_se, float(values[3].max()))}
    return {"game": "kingdom-run", "players": players, "provenance": prov}
