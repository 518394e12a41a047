"""Rollout equity, shared by every game: the statistics of candidates rolled out to the end
of the game on common random numbers, and the batch loop that stops at a target error.

Each rollout plays every candidate from the same chance (the same hidden draws, dice or
refills and policy streams), so the per-rollout results of two candidates are paired:
``gap_se``, the standard error of a candidate's win-probability gap to the best, is that
of the paired differences and is much smaller than the candidates' own errors.
``p_best`` is each candidate's chance of truly being the best. Win credit: 1 for the
winner, shared 1/k among k tied.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import OddsbotError
from .table import Table

# the advise table's rollout columns -> the ``RolloutEquity`` field each one shows
ROLLOUT_FIELDS = {"win_p": "win", "win_se": "win_se", "margin": "margin",
                  "margin_se": "margin_se", "gap_se": "gap_se", "p_best": "p_best"}
SEPARATED_Z = 2.5  # the leader is "separated" when every gap exceeds this many SEs
P_BEST_DRAWS = 20_000


@dataclass(frozen=True)
class RolloutEquity:
    """Per candidate (in the order given): win probability, final margin over the best
    opponent (in the game's points), their standard errors, the SE of the paired
    difference of win probability to the best candidate, and the probability of truly
    being best."""

    win: np.ndarray
    win_se: np.ndarray
    margin: np.ndarray
    margin_se: np.ndarray
    gap_se: np.ndarray
    p_best: np.ndarray
    rollouts: int
    policy: str


@dataclass(frozen=True)
class Candidates:
    """The rows chosen for rollouts (indices into the rows as given) and what they were
    chosen from: the rows tied at the best value and their distinct resulting positions."""

    chosen: list[int]
    tied: int
    distinct: int

    def provenance(self) -> dict[str, int]:
        """The provenance keys of the choice (``candidates`` = rows rolled out)."""
        return {"candidates": len(self.chosen), "tied": self.tied,
                "distinct_tied": self.distinct}


def spread(n: int, k: int) -> list[int]:
    """``k`` indices spread evenly over ``range(n)``, in order (``k <= n``)."""
    return [(2 * j + 1) * n // (2 * k) for j in range(k)]


def pick_candidates(values: Sequence[float], result: Callable[[int], Hashable],
                    most: int) -> Candidates:
    """Up to ``most`` rows to roll out, of rows given best first by ``values``: one per
    distinct resulting position (``result(i)``, a key of the position row i's action
    leads to), value by value from the best; where one value holds more distinct positions
    than places are left, positions spread evenly over them (in the rows' order), so a tie
    is broken across distinct results rather than by the table's order."""
    chosen: list[int] = []
    seen: set[Hashable] = set()
    tied = distinct = 0
    start = 0
    while start < len(values) and len(chosen) < most:
        end = start
        while end < len(values) and values[end] == values[start]:
            end += 1
        firsts = []
        for i in range(start, end):
            key = result(i)
            if key not in seen:
                seen.add(key)
                firsts.append(i)
        if start == 0:
            tied, distinct = end, len(firsts)
        room = most - len(chosen)
        chosen += firsts if len(firsts) <= room else [firsts[k] for k in
                                                      spread(len(firsts), room)]
        start = end
    return Candidates(chosen, tied, distinct)


def candidates_words(prov: dict, what: str) -> str:
    """The caption's words on which rows (``what``: turns, sequences) were rolled out,
    from ``Candidates.provenance``: ``12 rolled out of 2,472 turns tied at the best ev
    (2,472 distinct positions, spread evenly over them)``."""
    rolled, tied, distinct = prov["candidates"], prov["tied"], prov["distinct_tied"]
    positions = f"{distinct:,} distinct position{'s' * (distinct != 1)}"
    if distinct > rolled:
        return (f"{rolled} rolled out of {tied:,} {what} tied at the best ev ({positions}, "
                f"spread evenly over them)")
    more = ", then the next best by ev, one a position" if rolled > distinct else ""
    if tied > 1:
        return (f"{rolled} rolled out: the {tied:,} {what} tied at the best ev "
                f"({positions}){more}")
    return f"{rolled} rolled out: the best {what} by ev, one a distinct position"


def compact_view(table: Table, ev_se: bool = False) -> Table:
    """An EV table with rollout columns as people read it in 80 columns: action, win
    probability and its SE (``±``), P(best), margin, ev, with ``ev_se`` its SE (``se``,
    empty when ``method`` is exact: a game whose action labels leave the room), and
    gap."""
    columns = {"action": table["action"], "win_p": table["win_p"], "±": table["win_se"],
               "p_best": table["p_best"], "margin": table["margin"], "ev": table["ev"]}
    if ev_se:
        columns["se"] = [None if m == "exact" else x
                         for x, m in zip(table["se"], table["method"])]
    return Table.from_columns(columns | {"gap": table["gap"]})


def wide_columns(table: Table) -> dict[str, list]:
    """The rollout columns of the wide view of an EV table, as people read them: win_p
    and its SE (``±``), gap_se, p_best, margin and its SE."""
    return {"win_p": table["win_p"], "±": table["win_se"], "gap_se": table["gap_se"],
            "p_best": table["p_best"], "margin": table["margin"],
            "margin_se": table["margin_se"]}


def columns(eq: RolloutEquity) -> dict[str, np.ndarray]:
    """The advise table's rollout columns (``ROLLOUT_FIELDS``) of ``eq``."""
    return {col: getattr(eq, field) for col, field in ROLLOUT_FIELDS.items()}


def se(x: np.ndarray) -> np.ndarray:
    """Standard error of the mean over axis 0 (inf with a single sample)."""
    n = x.shape[0]
    return x.std(axis=0, ddof=1) / np.sqrt(n) if n > 1 else np.full(x.shape[1:], np.inf)


def gap_se(win: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """(best candidate, mean gap of each candidate to it, SE of that paired gap) for
    ``win[rollout, candidate]``."""
    best = int(np.argmax(win.mean(axis=0)))
    diff = win[:, [best]] - win
    return best, diff.mean(axis=0), se(diff)


def separated(win: np.ndarray, target_se: float) -> bool:
    """True once the leading candidate is separated from every other: the gap exceeds
    ``SEPARATED_Z`` of its SEs, or its SE is at most ``target_se``."""
    best, gap, gap_err = gap_se(win)
    others = np.arange(win.shape[1]) != best
    done = (gap_err[others] <= target_se) | (gap[others] > SEPARATED_Z * gap_err[others])
    return bool(done.all())


def p_best(win: np.ndarray, seed: int) -> np.ndarray:
    """P(each candidate has the highest true win probability), from the normal
    approximation of the candidates' means with their sample covariance (which carries
    the common-random-number correlation). Candidates whose rollouts are identical (the
    same outcomes on every rollout, e.g. two orders of the same two actions) are one
    candidate whose share is split evenly: drawn apart, their tie would be broken by the
    rounding of the covariance's null space, which differs between machines."""
    n, a = win.shape
    if a == 1:
        return np.ones(1)
    _, first, group = np.unique(win, axis=1, return_index=True, return_inverse=True)
    order = np.argsort(first)  # the distinct columns in the candidates' order
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    columns, group = win[:, first[order]], rank[group.reshape(-1)]
    if columns.shape[1] == 1:
        return np.full(a, 1 / a)
    mean = columns.mean(axis=0)
    cov = np.cov(columns, rowvar=False) / n
    rng = np.random.default_rng([seed, 0x70BE57])
    draws = rng.multivariate_normal(mean, cov, size=P_BEST_DRAWS, method="eigh",
                                    check_valid="ignore")
    draws += rng.uniform(0, 1e-12, size=draws.shape)  # exact ties split evenly
    share = np.bincount(draws.argmax(axis=1), minlength=columns.shape[1]) / P_BEST_DRAWS
    return share[group] / np.bincount(group)[group]


def equity(win: np.ndarray, margin: np.ndarray, seed: int, policy: str) -> RolloutEquity:
    """The equity of candidates from per-rollout ``win[r, c]`` and ``margin[r, c]``."""
    return RolloutEquity(win.mean(axis=0), se(win), margin.mean(axis=0), se(margin),
                         gap_se(win)[2], p_best(win, seed), win.shape[0], policy)


def check_rollouts(rollouts: int, policy: str, policies: tuple[str, ...],
                   greedy_hint: str) -> None:
    """One line for too few rollouts or a policy that cannot drive them (``greedy``,
    with ``greedy_hint`` saying why: too slow)."""
    if policy not in policies:
        hint = f" ({greedy_hint})" if policy == "greedy" else ""
        raise OddsbotError(f"policy: {policy!r} cannot drive rollouts{hint}; use "
                           f"{' or '.join(policies)}")
    if rollouts < 2:
        raise OddsbotError("rollouts: need at least 2 rollouts for a standard error")


def batches(kernel: Callable[[int, int], np.ndarray], rollouts: int, chunk: int,
            batch_chunks: int, stop: Callable[[np.ndarray], bool] | None = None,
            progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """Rollouts ``kernel(first, count)`` (rows on axis 0) in batches of ``batch_chunks``
    chunks of ``chunk`` rollouts, exactly ``rollouts`` of them (the last chunk's rows past
    ``rollouts`` are played and left out); after each batch ``progress(done, planned)`` is
    told and ``stop(rows so far)`` may end the run. Whole batches only, so the rows depend
    on the seed alone, never on threads."""
    total_chunks = -(-rollouts // chunk)
    parts = []
    done = 0
    while done < total_chunks:
        n_chunks = min(batch_chunks, total_chunks - done)
        parts.append(kernel(done * chunk, n_chunks * chunk))
        done += n_chunks
        if progress is not None:
            progress(min(done * chunk, rollouts), rollouts)
        if stop is not None and stop(np.concatenate(parts)[:rollouts]):
            break
    return np.concatenate(parts)[:rollouts]
