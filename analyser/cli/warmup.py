"""``oddsbot warm-up``: compile every game's kernels once, in parallel processes.

numba compiles a kernel on its first use. ``warm-up`` does all of that at once, right
after install: each game's face compiles what its commands use (``GameFace.warm_up``) and,
with designer reports, a few games of every variant compile the report kernels. Games
compile in separate processes, as many at a time as there are cores; then every command
kind of every game is marked compiled (``analyser/first_run.py``), so no command prints the
first-run notice or compiles again.
"""

from __future__ import annotations

import os
import time
from typing import Optional

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from .. import registry
from ..face import Capability
from .common import app, err

WARM_GAMES = 2  # games per variant that compile the report kernels


def warm_game(name: str) -> float:
    """Compile (or load) every kernel of game ``name``; the seconds it took. Runs in a
    worker process."""
    start = time.perf_counter()
    spec = registry.spec(name)
    spec.load().warm_up()
    if spec.has(Capability.REPORTS):
        from ...reports import designer, runner
        from ...reports.spec import RunSpec

        players = max(min(4, spec.players[1]), spec.players[0])
        runner.warm_up(RunSpec(name, tuple(spec.variants), players,
                               designer(name).seat_policies((), players), WARM_GAMES, 0))
    return time.perf_counter() - start


@app.command("warm-up")
def warm_up(
    games: Optional[list[str]] = typer.Argument(None, help="Games to compile (default: "
                                                           "every game)."),
) -> None:
    """Compile every game's kernels now, in parallel processes, so that no command
    compiles on its first run (numba caches them on disk; after an upgrade or a kernel
    change, run it again)."""
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from multiprocessing import get_context

    from .. import first_run
    names = list(dict.fromkeys(registry.spec(g).name for g in games or registry.specs()))
    start = time.perf_counter()
    workers = max(1, min(len(names), os.cpu_count() or 1))
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool, \
            Progress(TextColumn("compiling kernels"), BarColumn(),
                     TextColumn("{task.completed}/{task.total} games {task.description}"),
                     TimeElapsedColumn(), console=err, transient=True,
                     disable=not err.is_terminal) as bar:
        task = bar.add_task("", total=len(names))
        jobs = {pool.submit(warm_game, name): name for name in names}
        for job in as_completed(jobs):
            seconds = job.result()
            first_run.mark(jobs[job])
            bar.update(task, advance=1, description=jobs[job])
            err.print(f"{jobs[job]}: kernels ready in {seconds:.0f} s", markup=False,
                      highlight=False)
    err.print(f"warm-up: {len(names)} game{'s' if len(names) != 1 else ''} in "
              f"{time.perf_counter() - start:.0f} s", markup=False, highlight=False)
