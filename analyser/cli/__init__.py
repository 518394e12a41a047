"""The ``oddsbot`` command: the roof over kernels, analyser and reports. It names no game:
games, their options and their capabilities come from the registry (``analyser/face.py``).

One module per command family: ``positions`` (advise, odds, validate, moves, new, games),
``records`` (replay), ``charts`` (chart), ``reports`` (report), ``serve`` (the web server,
``analyser/serve``); ``common`` holds what they share (with the server: the option checks
and the JSON answers of ``analyser/answers.py``) and ``startup`` every start-up speed
measure.

Data goes to stdout, messages and progress to stderr. Bad input of any kind prints one
line ``oddsbot: error: <what is wrong and where>`` on stderr and exits with code 2. Ctrl-C
prints ``oddsbot: error: interrupted`` and exits with code 130, at once: long kernels run
on kernel threads or in short chunks (``kernels/threads.py``), so the main thread takes
the interrupt within about a second, and ``console`` leaves without waiting for them.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["app", "console", "main"]


def console() -> None:
    """The ``oddsbot`` console script (``entry.console``). The command's modules load
    here, inside it, so that Ctrl-C while they load is one line too, not a traceback."""
    from .startup import one_blas_thread

    one_blas_thread()
    try:
        from .entry import console as run
    except KeyboardInterrupt:
        sys.stderr.write("oddsbot: error: interrupted\n")
        raise SystemExit(130) from None
    run()


def __getattr__(name: str) -> Any:
    """``app`` and ``main``, from ``entry`` on first use."""
    if name in ("app", "main"):
        from . import entry

        return getattr(entry, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
