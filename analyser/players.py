"""Who plays a seat, one decision at a time (docs/strategies.md §1): a game's compiled
policy, the ``search`` player, or a user's Python function.

A player's ``act(view, legal, seed)`` returns an action label for the player to move,
given only that seat's view of the game (``SeatsFace.seat_view``), a function that lists
its legal actions (called only by the players that need the list: it can be long), and
a fresh stream seed for this decision. A user's function may fail in any way; that
is a :class:`Forfeit`, named in one line, never a crash of the run.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

import numpy as np

from ..errors import OddsbotError, quote

DECISION_LIMIT = 10.0  # seconds a user's function may take for one decision, by default


class Forfeit(Exception):
    """A player broke the rules of the arena (raised, answered an illegal label, or took
    too long); the message says which, in one line."""


def derive(seed: int, *parts: int) -> int:
    """A stream seed (0..2**64-1) derived from ``seed`` and ``parts`` (a deal, a decision
    number, ...): the same parts give the same seed anywhere."""
    entropy = [seed & 0xFFFFFFFF, seed >> 32, *parts]
    return int(np.random.SeedSequence(entropy).generate_state(1, np.uint64)[0])


@dataclass
class Compiled:
    """A game's compiled policy (``GameSpec.policies``) choosing from the seat's view."""

    name: str
    policy: str
    face: Any = field(repr=False)

    def act(self, view: Any, legal: Callable[[], list[str]], seed: int) -> str:
        return self.face.choose(view, self.policy, seed)


class _TooLong(BaseException):
    """Raised inside a user's function by the decision-limit alarm (a BaseException, so
    the function's own ``except Exception`` cannot swallow it)."""


@contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    """Interrupt the main thread's Python code after ``seconds`` (SIGALRM where the
    platform and thread allow it; elsewhere the time is only checked afterwards)."""
    usable = (hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return

    def ring(signum: int, frame: Any) -> None:
        raise _TooLong()

    before = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


class Legal(Sequence[str]):
    """The legal action labels, listed only when first read (a game's list can take
    seconds to make: a Kingdom Run re-roll's best 20,000 turns)."""

    def __init__(self, make: Callable[[], list[str]]) -> None:
        self._make = make
        self._labels: list[str] | None = None

    @property
    def made(self) -> bool:
        return self._labels is not None

    def _list(self) -> list[str]:
        if self._labels is None:
            self._labels = list(self._make())
        return self._labels

    def __getitem__(self, i):  # type: ignore[override]
        return self._list()[i]

    def __len__(self) -> int:
        return len(self._list())

    def __contains__(self, label: object) -> bool:
        return label in self._list()

    def __repr__(self) -> str:
        return repr(self._list())


@dataclass
class UserPolicy:
    """A user's function ``choose(position, legal_actions, rng) -> label``: the seat's
    view, its legal action labels, and a ``numpy.random.Generator`` seeded for this
    decision (docs/strategies.md §1)."""

    name: str
    target: str  # "package.module:function"
    function: Callable[..., Any] = field(repr=False)
    limit: float = DECISION_LIMIT

    def act(self, view: Any, legal: Callable[[], list[str]], seed: int) -> str:
        """The function's answer; an answer off the list is refused here when the list
        was read, else by the game's own step (``seated.play_seated``)."""
        labels = Legal(legal)
        t0 = time.perf_counter()
        try:
            with _alarm(self.limit):
                action = self.function(view, labels, np.random.default_rng(seed))
        except _TooLong:
            raise Forfeit(f"{self.name} ({self.target}) took longer than the decision "
                          f"limit of {self.limit:g} s") from None
        except Exception as exc:  # noqa: BLE001 - the user's code, any fault
            text = " ".join(str(exc).split())[:120]
            raise Forfeit(f"{self.name} ({self.target}) raised {type(exc).__name__}"
                          + (f": {text}" if text else "")) from None
        if time.perf_counter() - t0 > self.limit:
            raise Forfeit(f"{self.name} ({self.target}) took longer than the decision "
                          f"limit of {self.limit:g} s")
        if not isinstance(action, str) or (labels.made and action not in labels):
            raise self.illegal(action)
        return action

    def illegal(self, action: object) -> Forfeit:
        shown = quote(action) if isinstance(action, str) else type(action).__name__
        return Forfeit(f"{self.name} ({self.target}) answered {shown}, not a legal action "
                       f"here")


def load_function(target: str, where: str) -> Callable[..., Any]:
    """The function ``package.module:function`` (the current folder is searched first,
    as ``python -m`` does); one line naming ``where`` if it cannot be loaded."""
    module_name, colon, attr = target.partition(":")
    if not colon or not module_name or not attr:
        raise OddsbotError(f"{where}: expected package.module:function, got {quote(target)}")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # noqa: BLE001 - the user's module, any fault on import
        text = " ".join(str(exc).split())[:120]
        raise OddsbotError(f"{where}: cannot import {module_name}: {type(exc).__name__}: "
                           f"{text}") from None
    function = getattr(module, attr, None)
    if not callable(function):
        raise OddsbotError(f"{where}: {module_name} has no function {attr!r}")
    return function
