"""Each player's chance to win and expected final score (docs/games/mumia.md §16.3):
exact over both dice where the rest of the game is small and no token is hidden, every
seat playing the policy; sampled whole games otherwise: ``SAMPLES``, or with ``--target-se``
batches of ``BATCH`` until every win probability's SE is at most it (``--samples``, else
``MAX_SAMPLES``, at most: ``montecarlo.until``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ... import __version__
from .. import montecarlo
from ...errors import OddsbotError
from ...kernels.mumia import exact as X
from ...kernels.mumia.choices import POLICY_NAMES
from ...kernels.mumia import layout as L
from ...kernels.mumia.rollouts import position_rollouts
from ..equity import se as mean_se
from .advise import CHUNK, EXACT_BUDGET, EXACT_PAWNS, policy_id
from .encode import encode
from .notation import seat_letter
from .position import Position
from .validate import over, validate

SAMPLES = 4_000  # games sampled by default
MAX_SAMPLES = 100_000  # games at most when stopping at --target-se without --samples
BATCH = 500  # games between two looks at the target SE


def odds(pos: Position, *, samples: int | None = None, seed: int = 0,
         target_se: float | None = None,
         progress: Callable[[int, int], None] | None = None, policy: str | None = None
         ) -> dict:
    """``{"players": [{seat, player, score, score_se, win_p, win_se}], "provenance"}``."""
    validate(pos)
    if over(pos):
        raise OddsbotError("position: the game is over; see its result with 'validate'")
    enc = encode(pos)
    pid = policy_id(policy)
    n = pos.players
    values = None
    pawns = sum(len(f.pawns) for f in pos.track[:-1])
    if samples is None and not enc.R[L.R_E4] and pawns <= EXACT_PAWNS:
        memo = X.new_memo(EXACT_BUDGET)
        out = np.zeros(X.N_VALUES)
        if X.value(enc.S, enc.R, -1, pid, *memo, EXACT_BUDGET, out) == 0:
            values = (out[:n], np.zeros(n), out[L.MAX_SEATS:L.MAX_SEATS + n], np.zeros(n))
    method = "exact"
    if values is None:
        method = "monte-carlo"
        most = montecarlo.sampling(samples, target_se, SAMPLES, MAX_SAMPLES)
        if most < 2:
            raise OddsbotError("--samples: need at least 2 games for a standard error")
        policies = np.full(L.MAX_SEATS, pid, dtype=np.int64)
        res, count = montecarlo.until(
            lambda first, k, told: position_rollouts(enc.S, enc.R, policies, enc.pool,
                                                     enc.unseen, seed, first, k, CHUNK, told),
            lambda a, b: np.concatenate([a, b]),
            lambda rows, _: float(mean_se(rows[:, 1, :n]).max()),
            most, target_se, BATCH, progress)
        score, win = res[:, 0, :n], res[:, 1, :n]
        values = (score.mean(axis=0), mean_se(score), win.mean(axis=0), mean_se(win))
    players = [{"seat": p, "player": seat_letter(p), "score": float(values[0][p]),
                "score_se": None if method == "exact" else float(values[1][p]),
                "win_p": float(values[2][p]),
                "win_se": None if method == "exact" else float(values[3][p])}
               for p in range(n)]
    prov = {"game": "mumia", "variant": pos.variant, "oddsbot": __version__,
            "position": pos.to_notation(), "method": method,
            "policy": "every seat " + POLICY_NAMES[pid],
            "exact_budget": EXACT_BUDGET}
    if method != "exact":
        prov.update(samples=int(count), seed=seed)
    prov.update(montecarlo.target_provenance(
        target_se, None if method == "exact" else float(values[3].max())))
    return {"game": "mumia", "players": players, "provenance": prov}
