"""The notice while numba compiles kernels: one line on stderr,
``compiling kernels for camel-up advise, first run only…``.

numba compiles a kernel on its first use and keeps the machine code in its on-disk cache,
so kernels compile on the first run after an install (unless ``oddsbot warm-up`` ran) and
not again. The entry points that run kernels are marked with :func:`announces`; while one
runs, the first compile of the process prints the line, once. numba raises its
``numba:compile`` event only when it compiles, never when it loads a kernel from the
cache, so a warm run prints nothing. Like every progress display, the line is shown on a
terminal only: piped and logged stderr stay as they were.
"""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_printed = threading.Event()  # the line was printed (or silenced): never again here
_lock = threading.Lock()


def silence() -> None:
    """No notice in this process (``oddsbot warm-up`` shows its own progress)."""
    _printed.set()


def _first_compile(what: str) -> None:
    with _lock:
        if _printed.is_set():
            return
        _printed.set()
    if sys.stderr.isatty():
        sys.stderr.write(f"compiling kernels for {what}, first run only…\n")
        sys.stderr.flush()


@contextmanager
def notice(what: str) -> Iterator[None]:
    """While the block runs, the first kernel compile prints the notice for ``what``."""
    if _printed.is_set():
        yield
        return
    from numba.core import event

    class Notice(event.Listener):
        def on_start(self, _: event.Event) -> None:
            if not _printed.is_set():
                _first_compile(what)

        def on_end(self, _: event.Event) -> None:
            pass

    listener = Notice()
    event.register("numba:compile", listener)
    try:
        yield
    finally:
        event.unregister("numba:compile", listener)


def announces(what: str) -> Callable[[F], F]:
    """Decorator: ``notice(what)`` around every call; ``what`` names the game and the
    command, ``camel-up advise``."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            with notice(what):
                return fn(*args, **kwargs)

        return run  # type: ignore[return-value]

    return wrap
