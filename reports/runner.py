"""Running the blocks of a designer run: in this process on numba threads (the default),
or on a Dask cluster — an existing scheduler or a ``LocalCluster`` started here.

Either way every block is computed by ``run_block`` and written by this process, so the
files, and every number made from them, are the same for the same seed. A block file is
written whole or not at all (``outputs.replacing``) and checked before it is used
(:func:`block_problem`): a damaged one is named, never loaded.
"""

from __future__ import annotations

import io
import logging
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

import numpy as np
import pandas as pd
from numpy.lib import format as npy

from ..errors import OddsbotError, quote
from ..outputs import make_folder, replacing
from . import designer
from .spec import Block, RunSpec

Progress = Callable[[int, int, float], None]  # (games done, games planned, games/s)
WARM_GAMES = 2  # enough to compile every code path; a greedy Five Tribes game takes seconds
IN_FLIGHT = 2  # blocks sent to a Dask cluster per worker thread, at most, at a time
BLOCK_DTYPE = np.dtype(np.int16)  # the kernels' rows (kernels.batch.record_chunk)
SCHEDULER_TIMEOUT = "ODDSBOT_SCHEDULER_TIMEOUT"  # seconds to reach --scheduler; default 15


def run_block(spec: RunSpec, block: Block,
              progress: Callable[[int], None] | None = None) -> np.ndarray:
    """The compact per-game rows of ``block`` (importable: Dask workers call it);
    ``progress(games of the block done)`` as its games finish."""
    extra = {"rules_given": dict(spec.rules)} if spec.rules else {}
    return designer(spec.game).simulate_raw(block.variant, spec.players, spec.policies,
                                            spec.seed, block.game0, block.n, progress,
                                            **extra)


def warm_up(spec: RunSpec) -> float:
    """Compile (or load from the numba cache) what ``run_block`` needs, with a few games
    of every variant; returns the seconds it took."""
    t0 = time.perf_counter()
    for v in spec.variants:
        run_block(spec, Block(v, 0, WARM_GAMES, spec.key()))
    return time.perf_counter() - t0


def save_block(rows: np.ndarray, path: Path) -> None:
    """Write a block whole or not at all (``outputs.replacing``). Through ``write``, not
    NumPy's ``tofile``, whose short-write error does not say why (a full disk)."""
    data = io.BytesIO()
    np.save(data, rows)
    make_folder(path.parent)
    with replacing(path) as f:
        f.write(data.getbuffer())


_HEADERS = {(1, 0): npy.read_array_header_1_0, (2, 0): npy.read_array_header_2_0}


def block_problem(path: Path, n: int, fields: int) -> str | None:
    """What is wrong with the block file ``path``, which must hold ``n`` rows of
    ``fields`` int16 columns (C order); ``None`` when it is sound. Reads the header only."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size == 0:
                return "empty"
            read_header = _HEADERS.get(npy.read_magic(f))
            if read_header is None:
                return "not a block file (unknown .npy version)"
            shape, fortran, dtype = read_header(f)
            start = f.tell()
    except (ValueError, EOFError) as exc:
        return f"not a block file ({exc})"
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    if dtype != BLOCK_DTYPE or fortran or shape != (n, fields):
        other = (dtype == BLOCK_DTYPE and not fortran and len(shape) == 2
                 and shape[0] == n)  # rows of another number of fields per game
        layout = ": the record layout of another oddsbot version" if other else ""
        return (f"wrong schema: {dtype} {'Fortran' if fortran else 'C'}-order {shape}, "
                f"expected {BLOCK_DTYPE} C-order {(n, fields)}{layout}")
    want = start + n * fields * BLOCK_DTYPE.itemsize
    if size != want:
        return (f"truncated: {size:,} of {want:,} bytes" if size < want
                else f"{size - want:,} bytes too long")
    return None


def load_block(spec: RunSpec, block: Block, out: Path) -> np.ndarray:
    """The rows of a finished ``block`` of run folder ``out``; one line naming the block
    and how to recompute it when its file is damaged."""
    path = block.path(out)
    problem = block_problem(path, block.n, designer(spec.game).RAW_FIELDS)
    if problem is None:
        try:
            return np.load(path, allow_pickle=False)
        except (ValueError, EOFError, OSError) as exc:  # changed since it was checked
            problem = f"unreadable ({exc})"
    raise OddsbotError(f"{path}: damaged block ({problem}); recompute it with: oddsbot "
                       f"report --resume {out}")


def damaged(spec: RunSpec, out: Path) -> Iterator[tuple[Block, str]]:
    """Every block of ``spec`` whose file in ``out`` exists but is damaged, and why."""
    fields = designer(spec.game).RAW_FIELDS
    for block in spec.blocks():
        path = block.path(out)
        if path.exists():
            problem = block_problem(path, block.n, fields)
            if problem is not None:
                yield block, problem


@dataclass
class Executed:
    """A simulation session so far: told after warm-up and after every saved block."""

    how: str  # where the blocks ran, in words
    games: int  # games simulated by this call
    seconds: float  # wall time of the simulation, after warm-up
    warm_up_seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("nan")


Saved = Callable[[Executed], None]


def _numba_threads() -> int:
    import numba

    return numba.get_num_threads()


def missing(spec: RunSpec, out: Path) -> Iterator[Block]:
    """The blocks of ``spec`` with no file in ``out`` yet, in order, one at a time."""
    return (b for b in spec.blocks() if not b.path(out).exists())


def execute(spec: RunSpec, out: Path, *, client=None, progress: Progress | None = None,
            saved: Saved | None = None) -> Executed:
    """Compute and save every block of ``spec`` not yet in ``out`` (in-process, or on the
    Dask ``client``); ``saved`` is told the session so far after warm-up and after every
    saved block. Ctrl-C stops at once (a block being computed is dropped); saved blocks
    stay usable. Memory does not grow with the number of blocks: they are made one at a
    time, and at most ``IN_FLIGHT`` per worker thread are on a cluster at once."""
    total = spec.games * len(spec.variants)
    left = sum(b.n for b in missing(spec, out))
    if client is None:
        warm = warm_up(spec) if left else 0.0
        how = f"in-process, {_numba_threads()} numba threads"
        session = Executed(how, 0, 0.0, warm)
        within = None if progress is None else _within_block(progress, session, total - left,
                                                             total)
        results = ((b, run_block(spec, b, within)) for b in missing(spec, out))
        return _collect(results, out, session, total - left, total, progress, saved)
    t0 = time.perf_counter()
    try:
        warm = max(client.run(warm_up, spec).values(), default=0.0) if left else 0.0
    except Exception as exc:  # a worker without oddsbot, or of another version
        raise OddsbotError(f"--scheduler: the Dask workers cannot run oddsbot's kernels: "
                           f"{type(exc).__name__}: {exc}") from None
    warm = max(warm, time.perf_counter() - t0)
    workers = client.scheduler_info()["workers"]
    threads = sum(w["nthreads"] for w in workers.values())
    how = (f"Dask scheduler {client.scheduler.address}, {len(workers)} worker"
           f"{'s' if len(workers) != 1 else ''} ({threads} threads)")
    return _collect(_on_cluster(client, spec, missing(spec, out), IN_FLIGHT * threads), out,
                    Executed(how, 0, 0.0, warm), total - left, total, progress, saved)


def _within_block(progress: Progress, session: Executed, done: int, total: int
                  ) -> Callable[[int], None]:
    """``progress`` told of the games of the block under way as they finish (in-process:
    a block of slow games, greedy seats, moves the bar before it is saved)."""
    t0 = time.perf_counter()

    def tell(games: int) -> None:
        rate = (session.games + games) / max(time.perf_counter() - t0, 1e-9)
        progress(done + session.games + games, total, rate)
    return tell


def _on_cluster(client, spec: RunSpec, todo: Iterator[Block], window: int
                ) -> Iterator[tuple[Block, np.ndarray]]:
    """The rows of every block of ``todo`` computed on the Dask ``client``, as they come,
    with at most ``window`` blocks submitted and not yet handed back."""
    from dask.distributed import as_completed

    pending: dict[str, tuple[object, Block]] = {}  # future key -> (future, its block)

    def submit(block: Block):
        future = client.submit(run_block, spec, block, pure=False)
        pending[future.key] = (future, block)
        return future

    running = as_completed([submit(b) for b in islice(todo, max(1, window))])
    try:
        for future in running:
            rows = future.result()
            _, block = pending.pop(future.key)
            for b in islice(todo, 1):
                running.add(submit(b))
            yield block, rows
    finally:
        client.cancel([f for f, _ in pending.values()])


def _collect(results: Iterator[tuple[Block, np.ndarray]], out: Path, session: Executed,
             done: int, total: int, progress: Progress | None, saved: Saved | None
             ) -> Executed:
    """Save every block of ``results``, telling ``saved`` and ``progress`` after each."""
    if saved is not None:
        saved(session)
    t0 = time.perf_counter()
    for block, rows in results:
        save_block(rows, block.path(out))
        session.games += block.n
        session.seconds = time.perf_counter() - t0
        if saved is not None:
            saved(session)
        if progress is not None:
            progress(done + session.games, total, session.games / max(session.seconds, 1e-9))
    session.seconds = time.perf_counter() - t0
    return session


def scheduler_timeout() -> float:
    """Seconds ``--scheduler`` is given to answer: ``$ODDSBOT_SCHEDULER_TIMEOUT``, else 15."""
    raw = os.environ.get(SCHEDULER_TIMEOUT, "15")
    try:
        seconds = float(raw)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds <= 3600:
        raise OddsbotError(f"{SCHEDULER_TIMEOUT}: expected seconds in (0, 3600], got "
                           f"{quote(raw)}")
    return seconds


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
            client = Client(scheduler, timeout=scheduler_timeout())
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
    frames = [faces.raw_table(load_block(spec, b, out), b.variant, spec.players, b.game0)
              for b in spec.blocks()]
    return pd.concat(frames, ignore_index=True)
