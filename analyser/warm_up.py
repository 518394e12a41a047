"""``oddsbot warm-up``: every registered game's kernels compiled ahead of use, in worker
processes, into numba's on-disk cache, which every later command loads instead of
compiling.

A unit is one group of kernels: the units a game declares (``WarmUpFace`` of ``face``)
and, for a game with designer reports, its report kernels (two games through the
designer's ``simulate_raw``). A game's units run in order in one worker process, each
compiling on top of what the units before it compiled; the games are shared out among
the workers, one process per core (docs/benchmarks.md, "First run").
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import queue
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import compiling
from .face import GameSpec

REPORT_GAMES = 2  # games a report unit simulates: enough to compile every code path


@dataclass(frozen=True)
class Unit:
    """One unit: ``module.function(*args)`` compiles it (or loads it from the cache)."""

    game: str
    name: str
    module: str
    function: str
    args: tuple

    @property
    def label(self) -> str:
        return f"{self.game} {self.name}"

    def run(self) -> None:
        getattr(importlib.import_module(self.module), self.function)(*self.args)


def units(spec: GameSpec) -> list[Unit]:
    """The units of ``spec``, in the order they compile (imports the game)."""
    face = spec.load_warm_up()
    out = [Unit(spec.name, unit, spec.warm_up, "warm", (unit,))
           for unit in (face.UNITS if face is not None else ())]
    if spec.designer is not None:
        low, high = spec.players
        out.append(Unit(spec.name, "report", __name__, "warm_report",
                        (spec.designer, spec.name, min(max(4, low), high))))
    return out


def warm_report(designer: str, game: str, players: int) -> None:
    """The report unit: a few games of ``game`` through the designer module ``designer``
    (every seat on the game's default policy; the policies share one compiled kernel)."""
    face = importlib.import_module(designer)
    face.simulate_raw(game, players, face.seat_policies((), players), 0, 0, REPORT_GAMES)


def _worker(specs: list[GameSpec], events: Any) -> None:
    """Compile the units of ``specs`` in order, telling ``events`` (a queue) each unit
    planned, started, done or failed, and ``finished`` last."""
    compiling.silence()
    try:
        for spec in specs:
            todo = units(spec)
            for unit in todo:
                events.put(("planned", unit.label, 0.0))
            for unit in todo:
                events.put(("started", unit.label, 0.0))
                t0 = time.perf_counter()
                unit.run()
                events.put(("done", unit.label, time.perf_counter() - t0))
    except Exception:  # noqa: BLE001 - a bug: its traceback on stderr, then stop
        traceback.print_exc()
        events.put(("failed", "", 0.0))
    events.put(("finished", "", 0.0))


def warm_up(specs: list[GameSpec], processes: int,
            tell: Callable[[str, str, float], None]) -> bool:
    """Compile every unit of ``specs`` in ``processes`` worker processes, the games shared
    out in turn; ``tell(what, label, seconds)`` hears each unit planned, started and done.
    Returns False if a worker failed (its traceback is on stderr)."""
    import oddsbot.kernels  # noqa: F401 - the cache guard, once, before the workers start

    shares = [specs[i::processes] for i in range(processes) if specs[i::processes]]
    context = multiprocessing.get_context("spawn")
    events = context.Queue()
    workers = [context.Process(target=_worker, args=(share, events)) for share in shares]
    for worker in workers:
        worker.start()
    running, ok = len(workers), True
    try:
        while running:
            try:
                what, label, seconds = events.get(timeout=1.0)
            except queue.Empty:
                if not any(w.is_alive() for w in workers):  # died without a word
                    return False
                continue
            if what == "finished":
                running -= 1
            elif what == "failed":
                ok = False
            else:
                tell(what, label, seconds)
    except BaseException:  # Ctrl-C, or a fault in ``tell``: stop the workers
        for worker in workers:
            worker.terminate()
        raise
    finally:
        for worker in workers:
            worker.join()
    return ok and all(w.exitcode == 0 for w in workers)


def default_processes(games: int) -> int:
    """One worker per core, at most one per game."""
    return max(1, min(games, os.cpu_count() or 1))
