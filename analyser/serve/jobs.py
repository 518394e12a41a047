"""Computations off the event loop: worker processes, each with the game faces (and so
their numba kernels) loaded, fed one job at a time over a pipe.

Numba kernels hold the GIL, so a thread would stall the server: every computation runs in
a worker process. A job is cancelled by killing its worker, which is then replaced; a
worker that dies on its own is replaced too. Progress comes back as ``("progress", done,
planned)`` messages (at most ``PROGRESS_EVERY`` seconds apart), then one ``("result",
answer)``, ``("error", line)`` or ``("crash", traceback)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import time
import traceback
from collections.abc import AsyncIterator, Callable
from multiprocessing.connection import Connection
from typing import Any

PROGRESS_EVERY = 0.1  # seconds between two progress messages of a job
Message = tuple  # ("progress", done, planned) | ("result", x) | ("error", s) | ("crash", s)


class WorkerDied(Exception):
    """The worker process ended in the middle of a job."""


def _preload() -> None:
    """Import every game's face (its kernels load from numba's cache on first call)."""
    from .. import registry

    for spec in registry.specs().values():
        spec.load()


def _reporter(conn: Connection) -> Callable[[int, int], None]:
    """A job's progress callback: a message at most every ``PROGRESS_EVERY`` seconds."""
    last = [0.0]

    def progress(done: int, planned: int) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY:
            last[0] = now
            conn.send(("progress", int(done), int(planned)))

    return progress


def _serve(conn: Connection) -> None:
    """A worker's loop: one job after another until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    from ...errors import OddsbotError
    from . import work

    _preload()
    while True:
        try:
            endpoint, body = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send(("result", work.run(endpoint, body, _reporter(conn))))
        except OddsbotError as exc:
            conn.send(("error", str(exc)))
        except Exception:  # noqa: BLE001 - a bug: the server logs it, the client gets a line
            conn.send(("crash", traceback.format_exc()))


class Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, context: Any) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child,), daemon=True,
                                       name="oddsbot-serve-worker")
        self.process.start()
        child.close()

    async def receive(self) -> Message:
        """The next message of the running job (``WorkerDied`` if the process ended)."""
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        fd = self.conn.fileno()
        loop.add_reader(fd, lambda: ready.done() or ready.set_result(None))
        try:
            await ready
        finally:
            loop.remove_reader(fd)
        try:
            return self.conn.recv()
        except (EOFError, OSError):
            raise WorkerDied() from None

    def kill(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()


class Pool:
    """``size`` workers; a job waits for an idle one."""

    def __init__(self, size: int, context: Any = None) -> None:
        self.context = context or multiprocessing.get_context("spawn")
        self.size = size
        self.idle: asyncio.Queue[Worker] = asyncio.Queue()
        self.workers: set[Worker] = set()
        for _ in range(size):
            self._add()

    def _add(self) -> None:
        worker = Worker(self.context)
        self.workers.add(worker)
        self.idle.put_nowait(worker)

    def _replace(self, worker: Worker) -> None:
        worker.kill()
        self.workers.discard(worker)
        self._add()

    async def run(self, endpoint: str, body: dict) -> AsyncIterator[Message]:
        """The messages of one job, the last one final. Closing the iterator before its
        end (a cancelled request) kills the worker and starts another."""
        worker = await self.idle.get()
        finished = False
        try:
            worker.conn.send((endpoint, body))
            while True:
                try:
                    message = await worker.receive()
                except WorkerDied:
                    finished = True  # replaced below all the same
                    self._replace(worker)
                    yield ("crash", "the worker process ended during the computation")
                    return
                final = message[0] != "progress"
                if final:
                    finished = True
                    self.idle.put_nowait(worker)
                yield message
                if final:
                    return
        finally:
            if not finished:
                self._replace(worker)

    def close(self) -> None:
        for worker in list(self.workers):
            worker.kill()
        self.workers.clear()


def default_size() -> int:
    """Workers of long computations: one per core."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else os.cpu_count() or 1)
