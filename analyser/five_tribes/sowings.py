"""The board's sowings within budgets (docs/games/five-tribes.md §7.3, §19.3).

Counted in closed form (``kernels.five_tribes.sowing_count``), whatever the stacks: every
count of §7.3 but ``distinct_outcomes``, which needs every walk enumerated and is counted
only on boards of at most ``OUTCOME_WALKS`` walks (None beyond). Listed in enumeration
order up to ``MOVES_LISTED`` full sequences.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...kernels import five_tribes as FT

OUTCOME_WALKS = 50_000  # distinct_outcomes is counted on boards of at most this many walks
MOVES_LISTED = 200_000  # ``moves`` lists at most this many full sequences


@dataclass(frozen=True)
class Census:
    """The board's sowings by stratum (start, final tile, last colour): ``strata[h] = (s,
    t, c)``, ``terms[h, e] = (walks, colour orders per walk)`` by earlier visits e to t
    (``FT.sowing_strata``), and ``sizes[h]``, the stratum's full sequences (exact)."""

    strata: np.ndarray
    terms: np.ndarray
    sizes: tuple[int, ...]

    @property
    def total(self) -> int:
        """Full sowing sequences on the board."""
        return sum(self.sizes)


def census(counts: np.ndarray, end_rule: int) -> Census:
    """The sowings of the board ``counts[30, 5]`` under ``end_rule`` by stratum."""
    paths = FT.walk_tables_once()[1]
    strata, terms = FT.sowing_strata(np.ascontiguousarray(counts), end_rule, paths)
    sizes = tuple(sum(int(w) * int(o) for w, o in row) for row in terms.tolist())
    return Census(strata, terms, sizes)


def counts(counts: np.ndarray, end_rule: int) -> dict[str, int | None]:
    """The six counts of ``FT.COUNT_NAMES`` (§7.3); ``distinct_outcomes`` None on boards of
    more than ``OUTCOME_WALKS`` walks."""
    found = census(counts, end_rule)
    walks, orders = found.terms[..., 0], found.terms[..., 1]
    legal = (walks > 0) & (orders > 0)
    # a walk (start, final tile, earlier visits) counts once if any last colour is legal
    walk_keys = {(int(s), int(t), e): int(walks[h, e])
                 for h, (s, t, _) in enumerate(found.strata) for e in np.flatnonzero(legal[h])}
    n_walks = sum(walk_keys.values())
    outcomes = int(FT.sowing_counts(counts, end_rule)[1]) if n_walks <= OUTCOME_WALKS else None
    return {"full_sequences": found.total, "distinct_outcomes": outcomes,
            "distinct_paths": n_walks,
            "distinct_path_endcolour": sum(int(x) for x in walks[legal]),
            "distinct_start_end_colour": len(found.strata),
            "start_tiles_with_a_move": len({int(s) for s in found.strata[:, 0]})}


def listed(counts: np.ndarray, end_rule: int, total: int):
    """The first ``min(total, MOVES_LISTED)`` full sequences (``FT.sowings``' arrays);
    ``total``: the board's full sequences."""
    return FT.sowings(counts, end_rule, min(total, MOVES_LISTED))
