"""The game registry: game ids to the modules that implement the common face.

Every registered module offers ``NAME``, ``VARIANTS`` (variant id -> description),
``Position`` (with ``to_notation``, ``to_json``, ``from_json``), ``parse(text)``,
``validate(position)``, ``legal_actions(position)``, ``moves(position)`` (counts and
labels), ``advise(position, ...)`` returning an EV-table DataFrame with ``table_view`` and
``advise_caption`` for the terminal, ``odds(position, ...)`` with ``odds_view``,
``new_position(...)``, ``simulate(...)`` and ``play(...)`` (a whole game as a record).
"""

from __future__ import annotations

from types import ModuleType

from ..errors import OddsbotError, load_json


def _games() -> dict[str, ModuleType]:
    from . import camel_up, five_tribes

    return {camel_up.NAME: camel_up, five_tribes.NAME: five_tribes}


def games() -> dict[str, ModuleType]:
    """Registered game modules by game id."""
    return _games()


def game(name: str) -> ModuleType:
    """The module of game ``name`` or of one of its variants."""
    for module in _games().values():
        if name == module.NAME or name in module.VARIANTS:
            return module
    known = ", ".join(sorted(_games()))
    raise OddsbotError(f"game: unknown game {name!r} (known: {known})")


def game_of_text(text: str) -> ModuleType:
    """Which game a position text (JSON object or one-line notation) belongs to."""
    stripped = text.strip()
    if not stripped:
        raise OddsbotError("position: empty input")
    if stripped.startswith("{"):
        data = load_json(stripped)
        if not isinstance(data, dict) or "game" not in data:
            raise OddsbotError("game: required field missing")
        if not isinstance(data["game"], str):
            raise OddsbotError("game: must be a string")
        module = game(data["game"])
        variant = data.get("variant")
        if variant is not None and variant not in module.VARIANTS:
            raise OddsbotError(f"variant: unknown variant {variant!r} of {module.NAME} "
                               f"(known: {', '.join(module.VARIANTS)})")
        return module
    return game(stripped.split()[0])


def game_of_record(text: str) -> ModuleType:
    """Which game a game record belongs to: the game of its ``start <notation>`` line
    (comments and blank lines before it are skipped)."""
    for number, line in enumerate(text.splitlines(), start=1):
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        if not body.startswith("start "):
            raise OddsbotError(f"line {number}: expected 'start <position notation>' "
                               f"first, got {body!r}")
        return game_of_text(body.removeprefix("start ").strip())
    raise OddsbotError(f"line {max(len(text.splitlines()), 1)}: no 'start <position "
                       f"notation>' line: the record is empty")


def parse(text: str):
    """Parse a position of any registered game."""
    return game_of_text(text).parse(text)
