"""First runs: which of a game's commands have their kernels compiled on this machine.

numba compiles a kernel on its first use and caches it on disk (``kernels/cache_guard``).
A mark per game and command kind (``camel-up.advise``) is written beside the caches once
that command has run, so the CLI can say ``compiling kernels for camel-up advise, first
run only…`` before a first run and nothing afterwards; ``oddsbot warm-up`` marks every
kind of every game it compiled. The marks go when the caches go (a kernel source changed).
A read-only install keeps no marks: the notice then shows each time, the compile does not.
"""

from __future__ import annotations

from ..kernels.cache_guard import marks_folder

KINDS = ("advise", "advise --rollouts", "odds", "moves", "validate", "new", "new --play",
         "replay", "chart", "report")  # the command kinds with kernels of their own


def _path(game: str, kind: str):
    return marks_folder() / f"{game}.{kind.replace(' --', '-')}"


def compiled(game: str, kind: str) -> bool:
    """Whether ``game``'s kernels for ``kind`` are compiled (marked) here."""
    return _path(game, kind).exists()


def mark(game: str, kinds: tuple[str, ...] = KINDS) -> None:
    """Mark ``kinds`` of ``game`` compiled (silently nothing on a read-only install)."""
    try:
        marks_folder().mkdir(parents=True, exist_ok=True)
        for kind in kinds:
            _path(game, kind).touch()
    except OSError:
        pass
