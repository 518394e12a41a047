"""A kernel today against the same kernel at another git revision, timed in one run.

    from against import compare
    before, after, same = compare("main", "camel_up", "leg_distribution", args)

The ``kernels/`` folder of the revision is exported (``git archive``) once into a folder
under the system's temporary folder named by its commit; the files keep the commit's time,
so numba's caches there stay valid from one run to the next (the first run compiles). Each
side runs in a subprocess of its own (today's kernels as ``oddsbot.kernels``, the export's
as a top-level ``kernels`` package), gets the arguments once, returns the result of a
warm-up call and the arguments after it (a kernel may fill an output array), then times
batches of calls in turn with the other side, so that a change of load on the machine
falls on both alike.

Run as a script, this module is that subprocess (``against.py PACKAGE [ROOT]``): pickled
requests on stdin, pickled answers on stdout.
"""

from __future__ import annotations

import importlib
import io
import pickle
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def commit_of(rev: str) -> str:
    """The full hash of the commit ``rev`` names in this repository."""
    return subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT,
                          check=True, capture_output=True, text=True).stdout.strip()


def kernels_at(rev: str) -> Path:
    """A folder holding ``kernels/`` as it is at ``rev`` (exported on first use)."""
    commit = commit_of(rev)
    folder = Path(tempfile.gettempdir()) / f"oddsbot-kernels-{commit[:12]}"
    if not (folder / "kernels" / "__init__.py").is_file():
        tar = subprocess.run(["git", "archive", "--format=tar", commit, "kernels"], cwd=ROOT,
                             check=True, capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
            archive.extractall(folder, filter="data")
    return folder


class Side:
    """One side of the comparison: a subprocess holding ``package.module.function``."""

    def __init__(self, package: str, root: Path | None, module: str, function: str,
                 args: tuple) -> None:
        argv = [sys.executable, __file__, package] + ([str(root)] if root else [])
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.result = self._ask((module, function, args))

    def _ask(self, request: Any) -> Any:
        pickle.dump(request, self.proc.stdin)
        self.proc.stdin.flush()
        answer = pickle.load(self.proc.stdout)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    def times(self, calls: int) -> list[tuple[float, float]]:
        """(wall, CPU) times of ``calls`` calls, one by one."""
        return self._ask(calls)

    def close(self) -> None:
        self._ask(0)
        self.proc.wait()


def same_result(a: Any, b: Any, atol: float = 0.0) -> bool:
    """Equal results: arrays bit for bit (or within ``atol``), tuples element by
    element."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same_result(x, y, atol) for x, y in zip(a, b))
    a, b = np.asarray(a), np.asarray(b)
    if atol and a.shape == b.shape and a.dtype.kind == b.dtype.kind == "f":
        return bool(np.all(np.abs(a - b) <= atol))
    return bool(np.array_equal(a, b))


def compare(rev: str, module: str, function: str, args: tuple, rounds: int = 10,
            calls: int = 5, atol: float = 0.0) -> tuple[np.ndarray, np.ndarray, bool]:
    """Times of ``kernels.<module>.<function>(*args)`` at ``rev`` and today, ``rounds``
    alternating batches of ``calls`` calls each, after a warm-up call on each side.
    Returns (times at rev, times today, whether both returned the same result and left the
    same arguments after the warm-up call, floats within ``atol``); a row of
    times is (wall, CPU of the calling thread: less sensitive to other work on the
    machine)."""
    before = Side("kernels", kernels_at(rev), module, function, args)
    after = Side("oddsbot.kernels", None, module, function, args)
    t_before: list[tuple[float, float]] = []
    t_after: list[tuple[float, float]] = []
    try:
        for _ in range(rounds):
            t_before += before.times(calls)
            t_after += after.times(calls)
    finally:
        before.close()
        after.close()
    return (np.array(t_before), np.array(t_after),
            same_result(before.result, after.result, atol))


def _serve(package: str) -> None:
    """The subprocess: answer a (module, function, args) request with the result of one
    call and the arguments after it, then each count with the times of that many calls;
    0 ends."""
    out = sys.stdout.buffer
    module, function, args = pickle.load(sys.stdin.buffer)
    fn = getattr(importlib.import_module(f"{package}.{module}"), function)
    pickle.dump((fn(*args), args), out)  # the arguments too: a kernel may fill one
    out.flush()
    while calls := pickle.load(sys.stdin.buffer):
        times = []
        for _ in range(calls):
            t0, c0 = time.perf_counter(), time.thread_time()
            fn(*args)
            times.append((time.perf_counter() - t0, time.thread_time() - c0))
        pickle.dump(times, out)
        out.flush()
    pickle.dump(None, out)
    out.flush()


if __name__ == "__main__":
    if len(sys.argv) > 2:
        sys.path.insert(0, sys.argv[2])
    _serve(sys.argv[1])
