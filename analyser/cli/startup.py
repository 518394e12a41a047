"""Start-up speed: every measure that keeps ``oddsbot`` quick to start lives here.

- Game declarations are light (``analyser/face.py``): ``--help`` and argument errors
  import no game face, hence no numba; a command loads only the game it uses.
- Reports (Dask, matplotlib) are imported inside the commands that use them.
- :func:`skip_blas_probe` spares numba's first compile or cache load a scipy import.
- :func:`leave` skips the interpreter's teardown once the output is flushed.
- :func:`one_blas_thread` keeps NumPy's BLAS from busy-waiting beside numba's threads.
"""

from __future__ import annotations

import importlib.abc
import os
import sys


class _NoScipyDuringProbe(importlib.abc.MetaPathFinder):
    """Refuses ``scipy`` imports while ``numba.np.arraymath`` is being imported, and
    steps aside for good once that import is over (see ``skip_blas_probe``)."""

    PROBE = "numba.np.arraymath"

    def find_spec(self, fullname, path=None, target=None):
        probe = sys.modules.get(self.PROBE)
        if probe is not None and not getattr(probe.__spec__, "_initializing", False):
            sys.meta_path.remove(self)  # the probe is over: scipy imports normally
            return None
        if probe is not None and (fullname == "scipy" or fullname.startswith("scipy.")):
            raise ImportError("hidden from numba's BLAS probe")
        return None


def skip_blas_probe() -> None:
    """Save half a second of the first kernel load: numba's first compile or cache load
    imports ``numba.np.arraymath``, which imports ``scipy.linalg`` only to check for
    BLAS. The kernels use no linear algebra, so the CLI lets that probe fail fast. The
    guard costs nothing until numba loads (``--help`` never imports numba) and affects the
    probe only: scipy imports normally afterwards; numba's ``np.dot`` and ``np.linalg``
    become unavailable to kernels in this process, which oddsbot does not use."""
    if "numba.np.arraymath" in sys.modules or "scipy" in sys.modules:
        return
    sys.meta_path.insert(0, _NoScipyDuringProbe())


BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def one_blas_thread() -> None:
    """Give NumPy's BLAS one thread unless the user chose otherwise: oddsbot's work runs
    on numba's threads, and idle OpenBLAS threads spin on the same cores (a search
    player measured 6.9 s of CPU for 4.2 s of wall time with them, 4.3 s without).
    Takes effect only before NumPy is imported (``console`` calls it first)."""
    for name in BLAS_THREADS:
        os.environ.setdefault(name, "1")


def leave(code: int) -> None:
    """Flush the output, then end the process at once. Tearing down the interpreter
    (numba's thread pool, the large module graph) costs about 0.4 s that a finished
    command does not need; output is flushed first, so nothing is lost."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, ValueError):  # reader went away, or stream closed
            pass
    os._exit(code)
