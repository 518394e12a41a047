"""Five Tribes benchmark: sowing enumeration against the naive pure-Python reference.

    python bench/bench_five_tribes.py           # both boards, naive baseline included
    python bench/bench_five_tribes.py --quick   # the naive 8-stack run is skipped

Figures (issue "Five Tribes"):

F1. every count of §7.3 (``FT.sowing_counts``: full sequences and the distinct counts)
    on a 3-meeples-per-tile opening board: <= 2 ms;
F2. the same with a single 8-meeple stack in the middle of a full opening board:
    <= 50 ms;
F3. >= 100x the naive pure-Python DFS of ``tests/naive_five_tribes.py`` (every path and
    colour order listed, then counted; best of 3 when fast) on both boards, whose counts
    must agree exactly.

Best of several runs after a warm-up; wall-clock on a shared machine (load printed).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from oddsbot.kernels import five_tribes as FT

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import naive_five_tribes as naive  # noqa: E402  (the pure-Python reference of the tests)

OPENING_TARGET_MS = 2.0
STACK_TARGET_MS = 50.0
RATIO_TARGET = 100.0
console = Console()


def best_ms(fn, repeats: int) -> float:
    fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1e3


def boards(seed: int) -> dict[str, np.ndarray]:
    """An opening board, and the same board with its centre tile r2c2 holding 8 meeples
    drawn from the bag (the other tiles keep their 3)."""
    rng = random.Random(seed)
    opening = naive.opening_board(rng)
    stack = opening.copy()
    stack[14] = 0
    for colour in rng.sample([c for c, n in enumerate(naive.TOTALS) for _ in range(n)], 8):
        stack[14, colour] += 1
    return {"opening board (3 per tile)": opening, "one 8-meeple stack": stack}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="skip the naive run on the 8-stack")
    args = ap.parse_args()
    console.print(f"{os.cpu_count()} cores · load average {os.getloadavg()[0]:.2f}")
    table = Table(title="sowing enumeration (live end rule)")
    for col in ("board", "full_sequences", "kernel", "naive", "ratio", "target", "ok"):
        table.add_column(col)
    ok_all = True
    for (name, b), target in zip(boards(args.seed).items(), (OPENING_TARGET_MS,
                                                              STACK_TARGET_MS)):
        counts = FT.sowing_counts(b, FT.LIVE)
        kernel = best_ms(lambda: FT.sowing_counts(b, FT.LIVE), 20)
        naive_ms = ratio = None
        if not (args.quick and "stack" in name):
            naive_ms = float("inf")
            for _ in range(3):  # best of 3 (one run when a run takes over a second)
                t0 = time.perf_counter()
                expected = naive.sowing_counts(b, naive.LIVE)
                naive_ms = min(naive_ms, (time.perf_counter() - t0) * 1e3)
                if naive_ms > 1000:
                    break
            assert [expected[k] for k in FT.COUNT_NAMES] == list(counts), (name, expected,
                                                                           counts)
            ratio = naive_ms / kernel
        ok = kernel <= target and (ratio is None or ratio >= RATIO_TARGET)
        ok_all &= ok
        table.add_row(name, f"{counts[0]:,}", f"{kernel:.3f} ms",
                      "" if naive_ms is None else f"{naive_ms:,.0f} ms",
                      "" if ratio is None else f"{ratio:,.0f}x",
                      f"<= {target:g} ms, >= {RATIO_TARGET:g}x", "yes" if ok else "NO")
    console.print(table)
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
