"""Independent work items spread over threads: the kernels' parallelism.

A kernel that does many independent items (chunks of races or rollouts, tile layouts,
games) is compiled ``nogil=True`` and computes one range of items; :func:`rows` runs the
ranges on a pool of threads, each free thread taking the next range, and joins their rows
in item order. Every item draws its chance from its own random streams (``rng``), so the
rows are the same for any number of threads: ``numba.get_num_threads()``, set by
``NUMBA_NUM_THREADS`` or ``numba.set_num_threads``.

Python threads rather than numba's ``parallel=True``: the parfors pipeline compiles the
loop body, with everything it calls, once more, which made the parallel kernels the
slowest of all to compile (docs/benchmarks.md, "First run").

Ctrl-C: the calling (main) thread only waits, so it takes KeyboardInterrupt at once
however long a range runs; the ranges not started are dropped and the command exits
(``analyser/cli``: exit code 130 via ``os._exit``, which does not wait for a range still
running). :func:`call` runs one long ``nogil`` kernel the same way.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Any, Union

import numba
import numpy as np

Rows = Union[np.ndarray, tuple[np.ndarray, ...]]


@lru_cache(maxsize=1)
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(numba.config.NUMBA_NUM_THREADS, thread_name_prefix="kernels")


def rows(kernel: Callable[[int, int], Rows], n: int, piece: int = 1,
         progress: Callable[[int], None] | None = None) -> Rows:
    """``kernel(first, count)`` over items ``0 .. n - 1`` in ranges of ``piece`` items,
    spread over the threads, joined on axis 0 in item order (a tuple of arrays element
    by element); ``progress(items done)`` is told after each range (from the thread that
    ran it, one call at a time). An error in any range stops the others taking more and
    is raised here."""
    ranges = [(first, min(piece, n - first)) for first in range(0, n, piece)] or [(0, 0)]
    threads = min(numba.get_num_threads(), len(ranges))
    out: list = [None] * len(ranges)
    todo = iter(range(len(ranges)))
    lock = threading.Lock()
    stop = threading.Event()
    done = [0]

    def work() -> None:
        while not stop.is_set():
            with lock:
                i = next(todo, None)
            if i is None:
                return
            out[i] = kernel(*ranges[i])
            if progress is not None:
                with lock:
                    done[0] += ranges[i][1]
                    progress(done[0])

    futures = [_pool().submit(work) for _ in range(threads)]
    try:
        for future in futures:
            future.result()
    finally:
        stop.set()
    return _join(out)


def call(kernel: Callable[..., Any], *args: Any) -> Any:
    """``kernel(*args)`` on a kernel thread, the caller waiting (Ctrl-C stops the wait
    at once: module doc). ``kernel`` must be compiled ``nogil=True``."""
    return _pool().submit(kernel, *args).result()


def _join(parts: list) -> Rows:
    if isinstance(parts[0], tuple):
        return tuple(np.concatenate(column) for column in zip(*parts))
    return parts[0] if len(parts) == 1 else np.concatenate(parts)
