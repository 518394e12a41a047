"""Running the blocks of a designer run: in this process on numba threads (the default),
or on a Dask cluster — an existing scheduler or a ``LocalCluster`` started here.

Either way every block is computed by ``run_block`` and written by this process, so the
files, and every number made from them, are the same for the same seed.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import OddsbotError
from . import designer
from .spec import Block, RunSpec

Progress = Callable[[int, int, float], None]  # (games done, games planned, games/s)
WARM_GAMES = 2  # enough to compile every code path; a greedy Five Tribes game takes seconds


def run_block(spec: RunSpec, block: Block) -> np.ndarray:
    """The compact per-game rows of ``block`` (importable: Dask workers call it)."""
    return designer(spec.game).simulate_raw(block.variant, spec.players, spec.policies,
                                            spec.seed, block.game0, block.n)


def warm_up(spec: RunSpec) -> float:
    """Compile (or load from the numba cache) what ``run_block`` needs, with a few games
    of every variant; returns the seconds it took."""
    t0 = time.perf_counter()
    for v in spec.variants:
        run_block(spec, Block(v, 0, WARM_GAMES, spec.key()))
    return time.perf_counter() - t0


def save_block(rows: np.ndarray, path: Path) -> None:
    """Write a block atomically: a file that exists is complete."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".partial")
    with open(tmp, "wb") as f:
        np.save(f, rows)
    os.replace(tmp, path)


@dataclass
class Executed:
    how: str  # where the blocks ran, in words
    games: int  # games simulated by this call
    seconds: float  # wall time of the simulation, after warm-up
    warm_up_seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("nan")


def _numba_threads() -> int:
    import numba

    return numba.get_num_threads()


def execute(spec: RunSpec, out: Path, *, client=None,
            progress: Progress | None = None) -> Executed:
    """Compute and save every block of ``spec`` not yet in ``out`` (in-process, or on the
    Dask ``client``). Ctrl-C stops between blocks; saved blocks stay usable."""
    todo = [b for b in spec.blocks() if not b.path(out).exists()]
    total = sum(b.n for b in spec.blocks())
    done = total - sum(b.n for b in todo)
    if client is None:
        warm = warm_up(spec) if todo else 0.0
        how = f"in-process, {_numba_threads()} numba threads"
        results: Iterator[tuple[Block, np.ndarray]] = ((b, run_block(spec, b)) for b in todo)
        return _collect(results, out, how, warm, done, total, progress)
    from dask.distributed import as_completed

    t0 = time.perf_counter()
    try:
        warm = max(client.run(warm_up, spec).values(), default=0.0) if todo else 0.0
    except Exception as exc:  # a worker without oddsbot, or of another version
        raise OddsbotError(f"--scheduler: the Dask workers cannot run oddsbot's kernels: "
                           f"{type(exc).__name__}: {exc}") from None
    warm = max(warm, time.perf_counter() - t0)
    workers = client.scheduler_info()["workers"]
    threads = sum(w["nthreads"] for w in workers.values())
    how = (f"Dask scheduler {client.scheduler.address}, {len(workers)} worker"
           f"{'s' if len(workers) != 1 else ''} ({threads} threads)")
    futures = [client.submit(run_block, spec, b, pure=False) for b in todo]
    index = {f.key: b for f, b in zip(futures, todo)}
    try:
        results = ((index[f.key], f.result()) for f in as_completed(futures))
        return _collect(results, out, how, warm, done, total, progress)
    finally:
        client.cancel(futures)


def _collect(results: Iterator[tuple[Block, np.ndarray]], out: Path, how: str,
             warm: float, done: int, total: int, progress: Progress | None) -> Executed:
    t0 = time.perf_counter()
    games = 0
    for block, rows in results:
        save_block(rows, block.path(out))
        games += block.n
        if progress is not None:
            progress(done + games, total, games / max(time.perf_counter() - t0, 1e-9))
    return Executed(how, games, time.perf_counter() - t0, warm)


@contextmanager
def dask_client(scheduler: str | None, workers: int | None) -> Iterator[object]:
    """A Dask client for ``--scheduler ADDRESS`` or a ``LocalCluster`` of ``workers``
    processes on loopback (each with cores / workers numba threads); ``None`` when
    neither is asked for (in-process)."""
    if scheduler is None and workers is None:
        yield None
        return
    from dask.distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout="15s")
        except (OSError, TimeoutError) as exc:
            raise OddsbotError(f"--scheduler: cannot reach {scheduler}: {exc}") from None
        with client:
            yield client
        return
    threads = max(1, (os.cpu_count() or 1) // workers)
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      host="127.0.0.1", dashboard_address=None,
                      silence_logs=logging.ERROR,
                      env={"NUMBA_NUM_THREADS": str(threads)}) as cluster, \
            Client(cluster) as client:
        yield client


def load_games(spec: RunSpec, out: Path) -> pd.DataFrame:
    """Every game of the run as the per-game table, variant by variant in game order."""
    faces = designer(spec.game)
    frames = [faces.raw_table(np.load(b.path(out)), b.variant, spec.players, b.game0)
              for b in spec.blocks()]
    return pd.concat(frames, ignore_index=True)
