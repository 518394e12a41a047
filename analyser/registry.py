"""The game registry: the one place where games are found.

A game is a package of ``oddsbot.analyser`` holding a ``face.py`` whose ``__init__.py``
declares ``GAME = GameSpec(...)`` (``analyser/face.py``); the registry finds every such
package itself (no other package is imported to look), so adding a game edits no shared
file. :func:`register` adds a game declared elsewhere (a plug-in, or a test's toy game).
Declarations are light: a game's face, and with it numba, is imported only when that game
is used.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from typing import Any

from ..errors import OddsbotError, quote
from ..inputs import is_json, lines
from ..strict import load_json
from .face import GameFace, GameSpec

_SPECS: dict[str, GameSpec] = {}
_FOUND: list[bool] = []  # set once the packages have been scanned


def _discover() -> None:
    if _FOUND:
        return
    _FOUND.append(True)
    here = Path(__file__).parent
    for info in sorted(pkgutil.iter_modules([str(here)]), key=lambda m: m.name):
        if info.ispkg and (here / info.name / "face.py").is_file():
            spec = getattr(importlib.import_module(f"{__package__}.{info.name}"), "GAME", None)
            if isinstance(spec, GameSpec):
                register(spec)


def register(spec: GameSpec) -> GameSpec:
    """Add a game (its id, variants and aliases must be new); returns ``spec``."""
    _discover()
    names = (spec.name, *spec.variants, *spec.aliases)
    for name in names:
        try:
            taken = _lookup(name)
        except OddsbotError:
            continue
        if taken is not spec:
            raise ValueError(f"{name}: already names the game {taken.name}")
    _SPECS[spec.name] = spec
    return spec


def unregister(name: str) -> None:
    """Remove a game added by :func:`register` (tests)."""
    _SPECS.pop(name, None)


def specs() -> dict[str, GameSpec]:
    """Every registered game's declaration, by game id."""
    _discover()
    return dict(_SPECS)


def _lookup(name: str) -> GameSpec:
    for spec in _SPECS.values():
        if name == spec.name or name in spec.variants or name in spec.aliases:
            return spec
    known = ", ".join(sorted(_SPECS))
    raise OddsbotError(f"game: unknown game {quote(name)} (known: {known})")


def spec(name: str) -> GameSpec:
    """The declaration of game ``name``, or of the game one of its variants or aliases
    names."""
    _discover()
    return _lookup(name)


def game(name: str) -> GameFace:
    """The face of game ``name`` (a game id, variant or alias)."""
    return spec(name).load()


def spec_of_text(text: str) -> GameSpec:
    """Which game a position text (JSON object or one-line notation) belongs to."""
    stripped = text.strip()
    if not stripped:
        raise OddsbotError("position: empty input")
    if is_json(stripped):
        data = load_json(stripped)
        if not isinstance(data, dict) or "game" not in data:
            raise OddsbotError("game: required field missing")
        if not isinstance(data["game"], str):
            raise OddsbotError("game: must be a string")
        found = spec(data["game"])
        variant = data.get("variant")
        if variant is not None and (not isinstance(variant, str)
                                    or variant not in found.variants):
            raise OddsbotError(f"variant: unknown variant {quote(variant)} of {found.name} "
                               f"(known: {', '.join(found.variants)})")
        return found
    return spec(stripped.split()[0])


def _first_said(text: str) -> tuple[int, str | None]:
    """(its line number, the first line of ``text`` that says something, comments and
    blank lines skipped), or (the number of lines, None) if none does."""
    number = 0
    for number, line in enumerate(lines(text), start=1):
        body = line.split("#", 1)[0].strip()
        if body:
            return number, body
    return number, None


def is_record(text: str) -> bool:
    """Whether ``text`` is a game record: its first line that says something is
    ``start <position notation>``."""
    body = _first_said(text)[1]
    return body is not None and body.startswith("start ")


def spec_of_record(text: str) -> GameSpec:
    """Which game a game record belongs to: the game of its ``start <notation>`` line
    (comments and blank lines before it are skipped)."""
    number, body = _first_said(text)
    if body is None:
        raise OddsbotError(f"line {max(number, 1)}: no 'start <position notation>' line: the "
                           f"record is empty")
    if not body.startswith("start "):
        raise OddsbotError(f"line {number}: expected 'start <position notation>' "
                           f"first, got {quote(body)}")
    return spec_of_text(body.removeprefix("start ").strip())


def parse(text: str) -> Any:
    """Parse a position of any registered game."""
    return spec_of_text(text).load().parse(text)
