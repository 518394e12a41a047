"""Designer report benchmark: the figures of the "Designer reports" issue in one process.

    python bench/bench_reports.py              # 2,000,000 games per run (the issue's size)
    python bench/bench_reports.py --games 400000 --quick   # smaller, no naive baseline

Figures (Camel Up, 4 players, the default heuristic policy in every seat, one variant):

R1. report throughput in-process: games simulated and saved per second by
    ``reports.runner.execute`` (kernel, per-game table, Parquet blocks), after the
    warm-up: >= 50,000 games/s. The kernel alone (``record_games``) beside it.
R2. the same run on a ``LocalCluster`` of 2 worker processes started here (loopback),
    after every worker's warm-up: >= 0.8x the in-process throughput; the games of both
    runs must be identical (checked, not assumed).
R3. the report itself (tables, charts, HTML, Markdown, raw file) from the finished run.
R4. naive baseline: the same games replayed by the pure-Python rules of
    ``tests/camel_up/test_golden.py`` (``NaiveGame``, no policy decisions at all, so the
    baseline is flattered), games/s and the kernel's speed-up over it.

Timings are wall-clock on a shared machine (the load average is printed); nothing here is
a unit test. The last block is a Markdown summary for a closing note; exit code 1 if a
target is missed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from oddsbot import __version__
from oddsbot.analyser.camel_up import face as cu
from oddsbot.analyser.camel_up.encode import rules_state
from oddsbot.analyser.camel_up.variants import variant
from oddsbot.kernels import camel_up as K
from oddsbot.reports import batch, runner
from oddsbot.reports.spec import RunSpec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "camel_up"))
from test_golden import NaiveGame  # noqa: E402  (the naive rules engine of the tests)

THROUGHPUT_TARGET = 50_000
CLUSTER_RATIO_TARGET = 0.8
console = Console()
ROWS: list[tuple[str, str, str, bool | None]] = []


def timed_run(spec: RunSpec, out: Path, workers: int | None) -> runner.Executed:
    state = batch.start(spec, out, "parquet")
    with runner.dask_client(None, workers) as client:
        return batch.simulate(spec, out, state, client=client)


def kernel_rate(games: int) -> float:
    rules = rules_state(variant("camel-up"), 4)
    seats = np.full(4, K.HEURISTIC, dtype=np.int64)
    K.record_games(rules, seats, K.HEURISTIC_PARAMS, 1, 0, 1_000, 64)
    best = np.inf
    for _ in range(3):
        t0 = time.perf_counter()
        K.record_games(rules, seats, K.HEURISTIC_PARAMS, 1, 0, games, 64)
        best = min(best, time.perf_counter() - t0)
    return games / best


def naive_rate(n: int) -> float:
    """Games per second of the pure-Python rules replaying ``n`` heuristic games."""
    records = []
    for seed in range(n):
        text = cu.simulate(cu.new_position(4, seed), seed=seed, policy="heuristic").text()
        records.append(text.splitlines())
    t0 = time.perf_counter()
    for lines in records:
        game = NaiveGame(cu.parse(lines[0].removeprefix("start ")))
        for line in lines[1:-1]:
            head = line.partition(" | money ")[0]
            _, player, rest = head.split(maxsplit=2)
            action, _, roll = rest.partition(" -> ")
            game.play(int(player[1:]), action, roll or None)
        assert game.over
    return n / (time.perf_counter() - t0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2_000_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--naive-games", type=int, default=200)
    ap.add_argument("--quick", action="store_true", help="skip the naive baseline")
    args = ap.parse_args()
    console.print(f"oddsbot {__version__} · {os.cpu_count()} cores · load average "
                  f"{os.getloadavg()[0]:.2f} · {args.games:,} games per run")
    spec = RunSpec("camel-up", ("camel-up",), 4, ("heuristic",) * 4, args.games, 1)
    tmp = Path(tempfile.mkdtemp(prefix="oddsbot-bench-"))
    try:
        console.rule("R1. in-process")
        local = timed_run(spec, tmp / "in-process", None)
        k_rate = kernel_rate(min(args.games, 400_000))
        console.print(f"{local.how}: {local.games:,} games in {local.seconds:.2f} s = "
                      f"[bold]{local.games_per_second:,.0f} games/s[/] (warm-up "
                      f"{local.warm_up_seconds:.2f} s); kernel alone {k_rate:,.0f} games/s")
        ROWS.append(("R1 report throughput, in-process", f"{local.games_per_second:,.0f} games/s",
                     f">= {THROUGHPUT_TARGET:,}", local.games_per_second >= THROUGHPUT_TARGET))
        ROWS.append(("R1 kernel record_games alone", f"{k_rate:,.0f} games/s", "", None))

        console.rule(f"R2. LocalCluster, {args.workers} workers")
        t0 = time.perf_counter()
        cluster = timed_run(spec, tmp / "cluster", args.workers)
        console.print(f"{cluster.how}: {cluster.games:,} games in {cluster.seconds:.2f} s = "
                      f"[bold]{cluster.games_per_second:,.0f} games/s[/] (start + warm-up "
                      f"{time.perf_counter() - t0 - cluster.seconds:.2f} s)")
        same = runner.load_games(spec, tmp / "in-process").equals(
            runner.load_games(spec, tmp / "cluster"))
        ratio = cluster.games_per_second / local.games_per_second
        ROWS.append((f"R2 LocalCluster {args.workers} workers / in-process", f"{ratio:.2f}x "
                     f"({cluster.games_per_second:,.0f} games/s)",
                     f">= {CLUSTER_RATIO_TARGET}x", ratio >= CLUSTER_RATIO_TARGET))
        ROWS.append(("R2 same games in-process and on the cluster", "yes" if same else "NO",
                     "identical", same))

        console.rule("R3. the report")
        t0 = time.perf_counter()
        state = batch.load_state(tmp / "in-process")
        batch.build(spec, tmp / "in-process", state)
        built = time.perf_counter() - t0
        size = (tmp / "in-process" / "report.html").stat().st_size
        ROWS.append(("R3 report from the finished run",
                     f"{built:.1f} s (HTML {size / 1e3:,.0f} kB)", "", None))

        if not args.quick:
            console.rule("R4. naive pure-Python baseline")
            n_rate = naive_rate(args.naive_games)
            ROWS.append(("R4 naive pure-Python rules, replay only", f"{n_rate:,.0f} games/s",
                         "", None))
            ROWS.append(("R4 report throughput / naive", f"{local.games_per_second / n_rate:,.0f}x",
                         "", None))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    table = Table(title="designer report figures")
    for col in ("figure", "measured", "target", "ok"):
        table.add_column(col)
    for what, measured, target, ok in ROWS:
        table.add_row(what, measured, target, "" if ok is None else ("yes" if ok else "NO"))
    console.print(table)
    print("\n| figure | measured | target |\n|---|---|---|")
    for what, measured, target, _ in ROWS:
        print(f"| {what} | {measured} | {target} |")
    return 0 if all(ok is not False for *_, ok in ROWS) else 1


if __name__ == "__main__":
    sys.exit(main())
