"""``oddsbot warm-up``: compile every game's kernels once, in parallel processes.

numba compiles a kernel on its first use, so a command's first run compiles what that
command uses and nothing else. ``warm-up`` compiles everything at once, for whoever wants
every command of every game ready (``tests/conftest.py`` runs it before the suite):
each game's face compiles what its commands use (``GameFace.warm_up``) and, with
designer reports, a few games of every variant compile the report kernels. These
parts compile in separate processes, as many at a time as there are cores (the commands
of every game first, then the reports); once all of a game's parts are done, every
command kind of it is marked compiled (``analyser/first_run.py``), so no command prints
the first-run notice or compiles again.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Optional

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from .. import registry
from ..face import Capability
from .common import app, err

WARM_GAMES = 2  # games per variant that compile the report kernels


PARTS = ("commands", "reports")  # what a worker compiles: a game's face, its reports


def kernel_bytes(name: str) -> int:
    """The size of game ``name``'s kernel sources (``kernels/<name with _>/``), in bytes:
    its compile time goes nearly in proportion (docs/benchmarks.md, "Where the compile
    time goes"); 0 for a game without a kernel package of its own."""
    from ... import kernels

    package = Path(kernels.__file__).parent / name.replace("-", "_")
    return sum(f.stat().st_size for f in package.glob("*.py"))


def plan(names: list[str]) -> list[tuple[str, str]]:
    """The (game, part) jobs of a warm-up of ``names``, in the order they start: every
    game's commands first (the longer parts), the largest kernels first, then the reports
    in the reverse order: the worker that finishes the first game's commands takes the
    last game's reports, so the cores finish together rather than one waiting on the
    longest game started last."""
    names = sorted(names, key=kernel_bytes, reverse=True)
    reports = [name for name in names if registry.spec(name).has(Capability.REPORTS)]
    return [(name, "commands") for name in names] + \
        [(name, "reports") for name in reversed(reports)]


def warm_part(name: str, part: str) -> float:
    """Compile (or load) the kernels of game ``name`` that ``part`` uses: ``commands``
    (``GameFace.warm_up``) or ``reports`` (a few games of every variant); the seconds it
    took. Runs in a worker process."""
    start = time.perf_counter()
    spec = registry.spec(name)
    if part == "commands":
        spec.load().warm_up()
    else:
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
    parts = plan(names)
    start = time.perf_counter()
    workers = max(1, min(len(parts), os.cpu_count() or 1))
    left = {name: sum(n == name for n, _ in parts) for name in names}
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool, \
            Progress(TextColumn("compiling kernels"), BarColumn(),
                     TextColumn("{task.completed}/{task.total} games {task.description}"),
                     TimeElapsedColumn(), console=err, transient=True,
                     disable=not err.is_terminal) as bar:
        task = bar.add_task("", total=len(names))
        jobs = {pool.submit(warm_part, *job): job[0] for job in parts}
        for job in as_completed(jobs):
            job.result()
            name = jobs[job]
            left[name] -= 1
            if left[name]:
                continue
            first_run.mark(name)
            bar.update(task, advance=1, description=name)
            err.print(f"{name}: kernels ready in {time.perf_counter() - start:.0f} s",
                      markup=False, highlight=False)
    err.print(f"warm-up: {len(names)} game{'s' if len(names) != 1 else ''} in "
              f"{time.perf_counter() - start:.0f} s", markup=False, highlight=False)
