"""Five Tribes benchmark: sowing enumeration and complete turns against the naive
pure-Python references, and ``oddsbot advise`` as a whole process.

    python bench/bench_five_tribes.py           # everything, naive baselines included
    python bench/bench_five_tribes.py --quick   # the naive 8-stack run is skipped

Figures (issue "Five Tribes"):

F1. every count of §7.3 (``FT.sowing_counts``: full sequences and the distinct counts)
    on a 3-meeples-per-tile opening board: <= 2 ms;
F2. the same with a single 8-meeple stack in the middle of a full opening board:
    <= 50 ms;
F3. >= 100x the naive pure-Python DFS of ``tests/five_tribes/naive_five_tribes.py`` (every
    path and colour order listed, then counted; best of 3 when fast) on both boards, whose
    counts must agree exactly;
F4. ``oddsbot advise`` on a 4-player opening position (every marker has bid, the first
    to move), the whole process, warm numba cache: <= 3 s (median of 5 runs after one
    warm-up run). Also shown, without a target: the same in the bidding phase, and the
    complete-turn kernel (``FT.complete_turns``: every distinct turn, valued and merged)
    against the naive reference of ``tests/five_tribes/naive_five_tribes_turns.py`` on that
    board.

Best of several runs after a warm-up; wall-clock on a shared machine (load printed).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from oddsbot.kernels import five_tribes as FT

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "five_tribes"))
import naive_five_tribes as naive  # noqa: E402  (the pure-Python reference of the tests)
import naive_five_tribes_turns as naive_turns  # noqa: E402
from five_tribes_positions import random_opening  # noqa: E402

from oddsbot.analyser.five_tribes.position import Position  # noqa: E402
from oddsbot.analyser.five_tribes.encode import encode  # noqa: E402

OPENING_TARGET_MS = 2.0
STACK_TARGET_MS = 50.0
RATIO_TARGET = 100.0
ADVISE_TARGET_S = 3.0
console = Console(width=110)


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


def opening_turn(seed: int) -> Position:
    """A 4-player opening after the bids: every marker on the turn order track."""
    pos = random_opening(seed, 4)
    return replace(pos, phase="turns", bid_track=(), to_move=pos.bid_track[0],
                   turn_track=(*pos.bid_track, None, None, None, None, None))


def advise_seconds(pos: Position, runs: int = 5) -> float:
    """Median wall time of ``oddsbot advise NOTATION`` (a new process each run; one
    warm-up run first)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "position.txt"
        path.write_text(pos.to_notation())
        cmd = ["oddsbot", "advise", str(path)]
        subprocess.run(cmd, check=True, capture_output=True)
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


def turns_table(seed: int) -> tuple[Table, bool]:
    pos = opening_turn(seed)
    st = encode(pos)
    rows = len(FT.complete_turns(st)[0])
    kernel = best_ms(lambda: FT.complete_turns(st), 5)
    t0 = time.perf_counter()
    assert len(naive_turns.complete_turns(pos)) == rows
    naive_ms = (time.perf_counter() - t0) * 1e3
    turns_s = advise_seconds(pos)
    bids_s = advise_seconds(random_opening(seed, 4))
    table = Table(title=f"complete turns and advise (4 players, opening, {rows:,} rows)")
    for col in ("measure", "time", "naive", "ratio", "target", "ok"):
        table.add_column(col)
    table.add_row("complete_turns kernel", f"{kernel:.1f} ms", f"{naive_ms:,.0f} ms",
                  f"{naive_ms / kernel:,.0f}x", "", "")
    ok = turns_s <= ADVISE_TARGET_S
    table.add_row("oddsbot advise, turns phase (whole process)", f"{turns_s:.2f} s", "", "",
                  f"<= {ADVISE_TARGET_S:g} s", "yes" if ok else "NO")
    table.add_row("oddsbot advise, bidding phase (whole process)", f"{bids_s:.2f} s", "", "",
                  "", "")
    return table, ok


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
    turns, ok = turns_table(args.seed)
    console.print(turns)
    return 0 if ok_all and ok else 1


if __name__ == "__main__":
    sys.exit(main())
