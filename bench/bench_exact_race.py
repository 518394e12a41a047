"""Exact race odds of Camel Up (docs/games/camel-up.md §9.1): how many states a race has,
how long the exact odds take, and how often a position fits the default budget.

    python bench/bench_exact_race.py [--seeds 5] [--max-states 3000000]

Positions: a random start, then whole legs of dice only (no tiles), as the race model
plays later legs; "after leg k" is the start of leg k + 1. For each edition and each k:
the race states solved (every (configuration, dice inside) dice reach, up to the camels'
symmetry), how many of them are leg starts, and the seconds of the exact odds; "over"
when the race has more than ``--max-states`` states (then the time is that of finding
out). Then the share of 2nd-edition positions at each leg start that fit the default
``--exact-budget``, with the seconds of the kernel's answer beside those of the count that
comes first (``race_size.race_states``, docs/games/camel-up.md §9.1: the same answer
without the kernel), and ``oddsbot advise`` on one that does, as a whole process (warm).

Figures (issue "Camel Up: exact race winner and loser odds"):
R1. 1st edition, exact race odds from the start of the race: <= 60 s, aim <= 10 s;
R2. 2nd edition, exact race odds from any position after the third leg: <= 10 s;
R3. ``advise`` with exact race columns on such a position, whole process, warm: <= 12 s.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from oddsbot.analyser.camel_up.odds import EXACT_BUDGET, budget_states
from oddsbot.kernels import camel_up as K
from oddsbot.kernels.camel_up import exact_race as X
from oddsbot.kernels.camel_up.race_size import race_states
from timing import process_seconds

LATE_EXAMPLE = "examples/camel-up-late-race.json"


def after_legs(crazy: bool, seed: int, legs: int) -> tuple[np.ndarray, int, int]:
    """(track, full dice mask, dice left at a leg's end) at the start of leg ``legs + 1``
    of a race from a random start played with dice only (re-dealt if it ended sooner)."""
    rng = np.random.default_rng(seed)
    leg_left = 1 if crazy else 0
    while True:
        st = K.new_state(4, int(crazy), leg_left, np.array([5, 3, 2, 2]), 0, 0)
        K.setup_camels(st, K.stream(np.uint64(rng.integers(1 << 62)), 0))
        tr = st[:K.TRACK_SIZE].copy()
        full = int(K.full_mask(st))
        tile = np.zeros(K.N_SPACES + 2, dtype=np.int64)
        for _ in range(legs):
            inside = [d for d in range(K.N_DICE) if (full >> d) & 1]
            while len(inside) > leg_left and not K.crossed(tr):
                die = inside.pop(int(rng.integers(len(inside))))
                K.roll(tr, tile, die, int(rng.integers(6 if die == K.GREY else 3)))
        if not K.crossed(tr):
            return tr, full, leg_left


def solve(tr: np.ndarray, full: int, leg_left: int, max_states: int
          ) -> tuple[int, int, float]:
    """(states, leg-start states, seconds) of the exact race from a leg start; states
    -1 when over ``max_states``."""
    start = time.perf_counter()
    tile = np.zeros(K.N_SPACES + 2, dtype=np.int64)
    states = K.race_exact(tr, tile, full, leg_left, full, max_states, 1e-15, 10_000,
                          np.zeros(0, dtype=np.int64))[1]
    seconds = time.perf_counter() - start
    if states < 0:
        return -1, -1, seconds
    ncam = K.N_CAMELS if tr[K.SP + K.WHITE] != K.ABSENT else K.N_RACING
    order = np.zeros(K.N_CAMELS, dtype=np.int64)
    label = np.zeros(K.N_RACING, dtype=np.int64)
    root = np.array([X.canonical(tr, full, ncam, order, label)], dtype=np.int64)
    keys, n, _, _, _, _ = X.closure(root, ncam, full, leg_left, max_states)
    canon_full = (1 << K.GREY) | 31 if ncam == K.N_CAMELS else 31
    starts = sum(1 for i in range(n) if X.decode_mask(keys[i, 0], ncam) == canon_full)
    return states, starts, seconds


def count(tr: np.ndarray, full: int, leg_left: int, max_states: int) -> tuple[int, float]:
    """(states, seconds) of ``race_size.race_states`` from a leg start (-1: over)."""
    start = time.perf_counter()
    tile = np.zeros(K.N_SPACES + 2, dtype=np.int64)
    states, _ = race_states(tr, tile, full, leg_left, full, max_states,
                            np.zeros(0, dtype=np.int64))
    return states, time.perf_counter() - start


def cell(states: int, starts: int, seconds: float) -> str:
    if states < 0:
        return f"over ({seconds:.1f} s)"
    return f"{states:,} ({starts:,} leg starts) {seconds:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--max-states", type=int, default=3_000_000)
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.2f}; max states {args.max_states:,}; default budget "
          f"{EXACT_BUDGET} s = {budget_states(EXACT_BUDGET):,} states")
    solve(*after_legs(False, 0, 0), args.max_states)  # compile
    for crazy, legs in ((False, (0, 2, 3)), (True, (0, 2, 3, 4, 5, 6))):
        edition = "2nd edition" if crazy else "1st edition"
        for k in legs:
            rows = [solve(*after_legs(crazy, seed, k), args.max_states)
                    for seed in range(1, args.seeds + 1)]
            print(f"{edition}, {'start' if k == 0 else f'after leg {k}'}:")
            for row in rows:
                print("   ", cell(*row))
    fits = budget_states(EXACT_BUDGET)
    print(f"2nd edition, share of leg starts solved within the default budget "
          f"({fits:,} states), 40 positions each; mean seconds of the kernel (the count "
          f"first):")
    for k in range(2, 9):
        starts = [after_legs(True, 100 + seed, k) for seed in range(40)]
        rows = [solve(*start, fits) for start in starts]
        counts = [count(*start, fits) for start in starts]
        assert [r[0] for r in rows] == [c[0] for c in counts]  # the same answers
        ok = [i for i, r in enumerate(rows) if r[0] >= 0]
        over = [i for i, r in enumerate(rows) if r[0] < 0]

        def mean(seconds: list, which: list[int]) -> str:
            return f"{np.mean([seconds[i] for i in which]):.2f} s" if which else "-"

        kernel, counted = [r[2] for r in rows], [c[1] for c in counts]
        print(f"    after leg {k}: {len(ok)}/40 exact in {mean(kernel, ok)} ("
              f"{mean(counted, ok)}), the others found over in {mean(kernel, over)} "
              f"({mean(counted, over)})")
    seconds = process_seconds("advise", LATE_EXAMPLE)
    print(f"R3 oddsbot advise {LATE_EXAMPLE} (exact race), whole process warm: "
          f"{seconds:.2f} s (target <= 12 s)")


if __name__ == "__main__":
    main()
