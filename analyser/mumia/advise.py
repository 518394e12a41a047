"""Mumia's EV table: every choice of a roll, or of every roll (then labelled with it,
``4,PM pawn 2``), valued exactly when the rest of the game is small, by rollouts
otherwise (docs/games/mumia.md §16.2). Rows best first; ``gap`` is measured from the
best choice of the same roll.

``ev`` is the expected change of the mover's final score, ``win_p`` its chance to win or
share the win. Exact: expectimax over both dice, the mover taking its best expected
score at each of its turns and every other seat playing the policy (``heuristic`` unless
``--policy``); used when expansion 4's hidden tokens are out of the game and the search
solves at most ``EXACT_BUDGET`` positions, tried with at most ``EXACT_PAWNS`` pawns off
FINISH. Otherwise every choice is played to the end
``samples`` times by every seat's policy, all choices on the same dice and hidden tokens
(common random numbers: ``gap_se`` is the SE of the paired difference to the best); with
``--target-se``, each roll's rollouts come in batches (its share of ``BATCH``) until
every choice's win probability has at most that SE (its share of ``--samples``, else of
``MAX_SAMPLES``, at most: ``montecarlo.until``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ... import __version__
from .. import montecarlo
from ...errors import OddsbotError
from ...kernels.mumia import choices as C
from ...kernels.mumia import exact as X
from ...kernels.mumia import layout as L
from ...kernels.mumia.rollouts import choice_rollouts
from ..equity import se as mean_se
from ..table import Table
from .encode import Encoded, encode
from .labels import piece_field, read_roll, roll_text
from .position import Position
from .turns import choices
from .validate import over, validate

EXACT_BUDGET = 50_000  # positions the exact search may solve (about 0.6 s) before it gives up
EXACT_PAWNS = 6  # ...and it is tried only with at most this many pawns off FINISH
SAMPLES = 2_000  # rollouts per choice (without --roll: spread over the rolls)
CHUNK = 50
MAX_SAMPLES = 100_000  # rollouts a choice at most when stopping at --target-se alone
BATCH = 500  # rollouts a choice between two looks at the target SE
COLUMNS = ["action", "ev", "se", "method", "gap", "win_p", "win_se", "gap_se", "roll",
           "p_roll", "on"]


@dataclass
class RollValues:
    """The choices of one roll and their values."""

    n: int
    sym: int
    weight: float
    labels: list[str]
    on: list[int | None]  # the field the moved piece stands on (``labels.piece_field``)
    ev: np.ndarray
    se: np.ndarray
    win: np.ndarray
    win_se: np.ndarray
    gap_se: np.ndarray


def outcomes(enc: Encoded) -> list[tuple[int, int, float]]:
    """Every roll of the seat to move with its chance (§3)."""
    ns = np.empty(18, dtype=np.int64)
    syms = np.empty(18, dtype=np.int64)
    weights = np.empty(18)
    k = X.outcomes(enc.S, enc.R, ns, syms, weights)
    return [(int(ns[i]), int(syms[i]), float(weights[i])) for i in range(k)]


def rolls(enc: Encoded, drawn: str | None) -> list[tuple[int, int, float]]:
    """The roll ``drawn`` (a valid position's, §18) with chance 1, or every roll."""
    if drawn is None:
        return outcomes(enc)
    n, sym = read_roll(drawn, bool(enc.S[L.S_MUMMY] >= 0))
    return [(n, sym, 1.0)]


def fields(enc: Encoded, rows: np.ndarray) -> list[int | None]:
    """The field each choice's piece stands on (``labels.piece_field``)."""
    return [piece_field(enc.S, row) for row in rows]


def policy_id(policy: str | None) -> int:
    return C.POLICY_NAMES.index(policy or C.POLICY_NAMES[0])


def exact_values(enc: Encoded, rolls: list[tuple[int, int, float]], policy: int,
                 budget: int = EXACT_BUDGET) -> tuple[list[RollValues] | None, int]:
    """Every roll's choices valued exactly (None past ``budget`` positions solved, or
    with expansion 4, whose Extra moves and hidden tokens the search does not model), and
    the number of positions solved."""
    pawns = sum(1 for slot in range(int(enc.R[L.R_PLAYERS]) * L.MAX_PAWNS)
                if slot % L.MAX_PAWNS < enc.R[L.R_PAWNS]
                and enc.S[L.S_PAWN + slot] != L.FIN)
    if enc.R[L.R_E4] or pawns > EXACT_PAWNS:
        return None, 0
    memo = X.new_memo(budget)
    p = int(enc.S[L.S_TO_MOVE])
    now = L.score(enc.S, enc.R, p)
    out = []
    for n, sym, w in rolls:
        rows, labels = choices(enc.S, enc.R, n, sym)
        values = np.zeros((len(rows), X.N_VALUES))
        if X.row_values(enc.S, enc.R, n, rows, len(rows), p, policy, *memo, budget, values):
            return None, int(memo[3][0])
        zero = np.zeros(len(rows))
        out.append(RollValues(n, sym, w, labels, fields(enc, rows), values[:, p] - now, zero,
                              values[:, L.MAX_SEATS + p], zero, zero))
    return out, int(memo[3][0])


def sampled_values(enc: Encoded, rolls: list[tuple[int, int, float]], policy: int,
                   samples: int, seed: int, progress: Callable[[int, int], None] | None,
                   target_se: float | None = None) -> tuple[list[RollValues], int]:
    """Every roll's choices valued by rollouts: ``samples`` per choice, spread over the
    rolls by their chances (at least 2 a roll), or fewer once every win probability of
    the roll has at most ``target_se`` of SE; and the rollouts a choice drawn in all."""
    policies = np.full(L.MAX_SEATS, policy, dtype=np.int64)
    out = []
    tables = [choices(enc.S, enc.R, n, sym) for n, sym, _ in rolls]
    counts = [max(2, round(samples * w)) for _, _, w in rolls]
    planned = sum(k * len(rows) for k, (rows, _) in zip(counts, tables))
    done = drawn = 0
    for (n, sym, w), (rows, labels), count in zip(rolls, tables, counts):
        res, drew = montecarlo.until(
            lambda first, k, _, rows=rows, n=n, sym=sym: choice_rollouts(
                enc.S, enc.R, n, sym, rows, policies, enc.pool, enc.unseen, seed, first, k,
                CHUNK),
            lambda a, b: np.concatenate([a, b]),
            lambda r, _: float(mean_se(r[:, :, 1]).max()), count, target_se,
            max(2, round(BATCH * w)))
        drawn += drew
        done += count * len(rows)
        if progress is not None:
            progress(done, planned)
        gain, win = res[:, :, 0], res[:, :, 1]
        best = int(np.argmax(gain.mean(axis=0)))
        out.append(RollValues(n, sym, w, labels, fields(enc, rows), gain.mean(axis=0),
                              mean_se(gain), win.mean(axis=0), mean_se(win),
                              mean_se(gain[:, [best]] - gain)))
    return out, drawn


def even_chance(values: list[RollValues]) -> float | None:
    """The chance of every roll when all the rolls are equally likely, else None."""
    chances = {rv.weight for rv in values}
    return chances.pop() if len(chances) == 1 else None


def advise(pos: Position, *, samples: int | None = None, seed: int = 0,
           progress: Callable[[int, int], None] | None = None, roll: str = "",
           policy: str | None = None, target_se: float | None = None) -> Table:
    """The EV table of roll ``roll`` (``4,PM``; by default the position's roll, §18), or
    of every roll with its chance; sampled with ``target_se``: module doc."""
    validate(pos)
    if over(pos):
        raise OddsbotError("position: the game is over; nothing to advise")
    drawn, roll = pos.roll, roll or pos.roll or ""
    enc = encode(pos)
    mummy = bool(enc.S[L.S_MUMMY] >= 0)
    if roll:
        try:
            n, sym = read_roll(roll, mummy)
        except ValueError as exc:
            raise OddsbotError(f"--roll: {exc}") from None
        if drawn is not None and roll_text(n, sym) != drawn:
            raise OddsbotError(f"--roll: the position has rolled {drawn} already (§18)")
        rolls = [(n, sym, 1.0)]
    else:
        rolls = outcomes(enc)
    pid = policy_id(policy)
    values, states = (None, 0) if samples is not None else exact_values(enc, rolls, pid)
    method = "exact"
    if values is None:
        method = "monte-carlo"
        count = montecarlo.sampling(samples, target_se, SAMPLES, MAX_SAMPLES)
        if count < 2:
            raise OddsbotError("--samples: need at least 2 rollouts for a standard error")
        values, drawn = sampled_values(enc, rolls, pid, count, seed, progress, target_se)
        if target_se is not None:
            count = drawn
    rows = []
    for rv in values:
        best = float(rv.ev.max()) if len(rv.labels) else 0.0
        text = roll_text(rv.n, rv.sym)
        for i, name in enumerate(rv.labels):
            rows.append({"action": name if roll else f"{text} {name}", "ev": float(rv.ev[i]),
                         "se": float(rv.se[i]), "method": method,
                         "gap": best - float(rv.ev[i]), "win_p": float(rv.win[i]),
                         "win_se": float(rv.win_se[i]), "gap_se": float(rv.gap_se[i]),
                         "roll": text, "p_roll": rv.weight, "on": rv.on[i]})
    rows.sort(key=lambda r: -r["ev"])  # best first (stable: canonical order on ties)
    value = sum(rv.weight * float(rv.ev.max()) for rv in values if len(rv.labels))
    win = sum(rv.weight * float(rv.win[int(np.argmax(rv.ev))]) for rv in values
              if len(rv.labels))
    prov = {"game": "mumia", "variant": pos.variant, "oddsbot": __version__,
            "expansions": list(pos.expansions), "rules": pos.rules.changed(),
            "position": pos.to_notation(), "method": method,
            "policy": C.POLICY_NAMES[pid],
            "roll": roll_text(rolls[0][0], rolls[0][1]) if roll else None,
            "value_before_roll": None if roll else {"ev": value, "win_p": win},
            "roll_chance": even_chance(values),
            "exact_budget": EXACT_BUDGET}
    if method != "exact":
        prov.update(samples=int(count), seed=seed)
    else:
        prov.update(states=int(states))
    worst = max((float(rv.win_se.max()) for rv in values if len(rv.labels)), default=0.0)
    prov.update(montecarlo.target_provenance(target_se, None if method == "exact" else worst))
    return Table.from_dicts(rows, COLUMNS, prov)
