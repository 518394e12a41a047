"""``oddsbot warm-up``: compile every registered game's kernels now (``analyser.warm_up``),
with a progress bar on a terminal and one line per unit otherwise."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .. import registry, warm_up as warming
from .common import app, check_positive, err, guarded

Tell = Callable[[str, str, float], None]


@contextmanager
def _progress() -> Iterator[Tell]:
    """``tell(what, unit, seconds)`` drawing a bar of the units on a terminal; elsewhere
    one line per unit ready."""
    if not err.is_terminal:
        def line(what: str, label: str, seconds: float) -> None:
            if what == "done":
                err.print(f"warm-up: {label} ready in {seconds:.1f} s", markup=False,
                          highlight=False)
        yield line
        return
    planned: list[str] = []
    running: list[str] = []
    with Progress(TextColumn("compiling kernels"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("units"), TimeElapsedColumn(), TextColumn("{task.description}"),
                  console=err, transient=True) as bar:
        task = bar.add_task("", total=None)

        def draw(what: str, label: str, seconds: float) -> None:
            if what == "planned":
                planned.append(label)
            elif what == "started":
                running.append(label)
            elif what == "done":
                running.remove(label)
                bar.advance(task)
            bar.update(task, total=len(planned), description=", ".join(running))

        yield guarded(draw)


@app.command("warm-up")
def warm_up(
    processes: Optional[int] = typer.Option(
        None, help="Worker processes (default: one per core, at most one per game)."),
) -> None:
    """Compile every game's kernels now, so that no later command compiles.

    numba compiles each kernel on its first use and keeps it in its cache on disk: without
    this, the first run of each command after an install waits for its kernels.

    Example: pip install . && oddsbot warm-up"""
    check_positive("--processes", processes)
    specs = [s for s in registry.specs().values()
             if s.warm_up is not None or s.designer is not None]
    t0 = time.perf_counter()
    done: list[str] = []
    with _progress() as tell:
        def count(what: str, label: str, seconds: float) -> None:
            if what == "done":
                done.append(label)
            tell(what, label, seconds)

        ok = warming.warm_up(specs, processes or warming.default_processes(len(specs)), count)
    if not ok:
        err.print("oddsbot: warm-up failed (the traceback is above)", markup=False,
                  highlight=False)
        raise typer.Exit(1)
    err.print(f"warm-up: {len(done)} units of {len(specs)} games ready in "
              f"{time.perf_counter() - t0:.0f} s; later commands load them from the cache",
              markup=False, highlight=False, soft_wrap=True)
