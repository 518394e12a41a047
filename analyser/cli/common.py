"""What every command shares: the typer app, the stderr console, loading a position as its
game, option checks, progress bars, and game-only options.

Game-only options (``GameOption``) are declared by the games, not here:
:func:`with_game_options` adds every registered game's options of a command to that
command's signature, each listed in ``--help`` under its game's title, and
:func:`game_options` refuses in one line an option the position's game lacks.
"""

from __future__ import annotations

import inspect
import math
import sys
from dataclasses import replace
from collections.abc import Callable
from contextlib import contextmanager
from enum import Enum, StrEnum
from typing import Any, Iterator, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from ...errors import OddsbotError, quote
from ...inputs import is_json, read_position_text
from .. import registry, render
from ..face import Capability, GameFace, GameOption, GameSpec
from ..notation_errors import in_notation_words
from ..table import Table

app = typer.Typer(no_args_is_help=True,
                  help="Exact and Monte Carlo odds for board games: what is each action worth?")
err = Console(stderr=True)


def _print_version(value: bool) -> None:
    if value:
        from ... import __version__
        print(f"oddsbot {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_print_version,
                                       is_eager=True, help="Print the version and exit.")
          ) -> None:
    """Exact and Monte Carlo odds for board games: what is each action worth?"""

POSITION_HELP = "A position: a file path, '-' for stdin, or the one-line notation inline."
FORMAT_HELP = "Output format."
VARIANT_HELP = "Read the position under this rules variant (see 'oddsbot games')."
MAX_SEED = 2**64 - 1  # = kernels.rng.MAX_SEED; not imported: the CLI loads numba late


def choices(name: str, values: tuple[str, ...]) -> type[StrEnum]:
    """A string enum of ``values``: typer lists them in ``--help`` and refuses any other
    value in one line; members are their strings (``str(m) == m.value``)."""
    return StrEnum(name, {v: v for v in values})


Format = choices("Format", render.FORMATS)
Variant = choices("Variant", tuple(v for spec in registry.specs().values()
                                   for v in spec.variants))
TextFormat = choices("TextFormat", ("table", "json"))  # a list or notation, or JSON


def load(source: str, variant: Optional[str], rule: Optional[list[str]] = None
         ) -> tuple[GameSpec, GameFace, Any]:
    """(declaration, face, position) for POSITION, optionally read as rules ``variant``,
    with the rule parameters of ``--rule`` set. POSITION may be a game record: its
    position is the one after its last line (``oddsbot replay RECORD --position``). A
    notation position is validated here, its complaints in the notation's words
    (``analyser/notation_errors.py``)."""
    text = read_position_text(source)
    if registry.is_record(text):
        return _reached(text, variant, rule)
    spec = registry.spec_of_text(text)
    rules = read_rules(spec, rule)
    face = spec.load()
    keys = None if is_json(text) else face.NOTATION_KEYS
    with in_notation_words(keys):
        pos = _read(spec, face, text, variant)
    pos = face.with_rules(pos, rules) if rules else pos
    if keys is not None:  # checked now, so that every complaint names what the user typed
        with in_notation_words(keys, validating=True):
            face.validate(pos)
    return spec, face, pos


def _reached(text: str, variant: Optional[str], rule: Optional[list[str]]
             ) -> tuple[GameSpec, GameFace, Any]:
    """(declaration, face, position after the last line) of the game record ``text``."""
    spec = registry.spec_of_record(text)
    if not spec.has(Capability.RECORDS):
        raise OddsbotError(f"position: a game record (a 'start' line), but {spec.name} has no "
                           f"records: give a position (notation or JSON)")
    if variant is not None:
        raise OddsbotError("--variant: a game record's start line sets its variant")
    face = spec.load()
    steps = record_going_on(face.record, text, read_rules(spec, rule), "record",
                            "; give a record that stops before the end, or a position")
    return spec, face, steps.final


def record_going_on(game_record: Any, text: str, rules: dict, field: str, fix: str = ""
                    ) -> Any:
    """The replay of the record ``text`` (``--rule`` values ``rules``), refused in one
    line naming ``field`` (and ``fix``) when its game is over: nothing to go on from."""
    _, steps = game_record.load_record(text, **({"rules": rules} if rules else {}))
    if steps.over or steps.final is None:
        raise OddsbotError(f"{field}: {game_record.status(steps)}: no one is to move{fix}")
    return steps


def _read(spec: GameSpec, face: GameFace, text: str, variant: Optional[str]) -> Any:
    if variant is None:
        return face.parse(text)
    variant = str(variant)  # a Variant choice: its plain string
    if variant not in spec.variants:
        raise OddsbotError(f"variant: {variant!r} is not a variant of {spec.name} "
                           f"(known: {', '.join(spec.variants)})")
    return face.parse_as(text, variant)


WIDE_HELP = ("Every column in the table, which may then be wider than 80 columns (json, csv "
             "and markdown always have every column).")


def check_wide(wide: bool, fmt: str) -> None:
    """``--wide`` is for the table only: refused in one line with another format."""
    if wide and fmt != "table":
        raise OddsbotError(f"--wide: for -f table only; -f {fmt} always has every column")


MAX_OPTION = 10**9  # the most samples, rollouts, games, rows... an option may ask for


def check_positive(name: str, value: Optional[float]) -> None:
    """A numeric option, if given: a finite number greater than 0 and at most
    ``MAX_OPTION`` (NaN and infinities refused: they would run to a cap or forever)."""
    if value is None:
        return
    if not math.isfinite(value):
        raise OddsbotError(f"{name}: must be a finite number, got {value}")
    if value <= 0:
        raise OddsbotError(f"{name}: must be greater than 0, got {value}")
    if value > MAX_OPTION:
        raise OddsbotError(f"{name}: must be at most {MAX_OPTION:,}, got {value:,}")


def _check_seed(value: Optional[int]) -> Optional[int]:
    if value is not None and not 0 <= value <= MAX_SEED:
        raise typer.BadParameter(f"must be a whole number from 0 to 2**64-1, got {value}")
    return value


def seed_option(help_text: str, default: Optional[int] = 0) -> Any:
    """``--seed``: a whole number from 0 to 2**64-1 (the kernels' seeds are uint64)."""
    return typer.Option(default, callback=_check_seed, help=f"{help_text} 0 to 2**64-1.")


def policy_choices(declared: str) -> type[Enum]:
    """Every registered game's policies of one kind (``GameSpec.policies`` or
    ``rollout_policies``) as choices; :func:`check_policy` refuses one the position's game
    lacks."""
    names = [p for spec in registry.specs().values() for p in getattr(spec, declared)]
    return choices(declared, tuple(dict.fromkeys(names)))


def check_policy(flag: str, spec: GameSpec, known: tuple[str, ...], policy: Optional[Enum]
                 ) -> Optional[str]:
    """The policy's name if ``spec``'s game has it (one line otherwise)."""
    if policy is None:
        return None
    if policy.value not in known:
        raise OddsbotError(f"{flag}: {spec.name} has no policy {policy.value!r} "
                           f"(known: {', '.join(known) or 'none'})")
    return policy.value


def guarded(update: Callable[..., None]) -> Callable[..., None]:
    """``update`` made harmless: a progress display is a courtesy, so a fault while
    drawing it stops the drawing (once), never the run."""
    broken: list[BaseException] = []

    def safe(*args: Any) -> None:
        if broken:
            return
        try:
            update(*args)
        except Exception as exc:  # noqa: BLE001 - the display only
            broken.append(exc)

    return safe


@contextmanager
def progress_bar(label: str, unit: str = "samples") -> Iterator:
    """A progress callback ``(done, planned)`` drawing on stderr, counting ``unit``; silent
    unless stderr is a terminal, so piped output and logs stay clean; never able to stop
    the run (``guarded``)."""
    if not err.is_terminal:
        yield None
        return
    with Progress(TextColumn(label), BarColumn(), TextColumn(f"{{task.completed:,}} {unit}"),
                  TimeElapsedColumn(), console=err, transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, planned: int) -> None:
            bar.update(task, completed=done, total=planned)

        yield guarded(update)


@contextmanager
def first_run(spec: GameSpec, kind: str) -> Iterator[None]:
    """Around a command's kernel work (``kind``, one of ``first_run.KINDS``): on a
    terminal, one line on stderr when its kernels have not been compiled here yet; the
    mark once the work is done (``analyser/first_run.py``)."""
    from .. import first_run as marks

    if err.is_terminal and not marks.compiled(spec.name, kind):
        err.print(f"compiling kernels for {spec.name} {kind}, first run only…", markup=False,
                  highlight=False, soft_wrap=True)
    yield
    marks.mark(spec.name, (kind,))


@contextmanager
def busy(what: str) -> Iterator[None]:
    """A spinner with ``what`` on stderr while work of unknown length runs (a terminal
    only), so a long run shows a sign of life."""
    if not err.is_terminal:
        yield
        return
    with err.status(f"{what}…"):
        yield


TITLE_WIDTH = 78  # a longer title (a long notation) is left out: the table fits 80 columns


def print_frame(table: Table, fmt: str, wide: bool = False, **style: Any) -> None:
    """``table`` on stdout as CSV, Markdown or a rich table (``style``: title, caption,
    digits; a title longer than ``TITLE_WIDTH`` is left out; ``wide``: --wide, wider than
    80 columns when piped)."""
    if len(style.get("title") or "") > TITLE_WIDTH:
        style["title"] = None
    if fmt == "csv":
        sys.stdout.write(render.csv(table))
    elif fmt == "markdown":
        sys.stdout.write(render.markdown(table))
    else:
        render.print_table(render.rich_table(table, **style), wide)


# --------------------------------------------------------------------------- game options


def _declared(command: str) -> dict[str, tuple[GameOption, list[str]]]:
    """Every registered game's options of ``command``: name -> (option, game titles); an
    option several games declare keeps each game's help, under its title."""
    found: dict[str, list[tuple[GameOption, str]]] = {}
    for spec in registry.specs().values():
        for option in spec.options:
            if command in option.commands:
                found.setdefault(option.name, []).append((option, spec.title))
    merged = {}
    for name, declared in found.items():
        first, titles = declared[0][0], [title for _, title in declared]
        if len(declared) > 1:
            first = replace(first, help=" ".join(f"{title}: {o.help}"
                                                 for o, title in declared))
        merged[name] = (first, titles)
    return merged


def with_game_options(command: str) -> Callable[[Callable], Callable]:
    """Add the game-only options of ``command`` to a command function that takes them as
    ``**game``: each is listed in ``--help`` under its games' titles, with its choices."""

    def wrap(fn: Callable) -> Callable:
        sig = inspect.signature(fn)
        params = [p for p in sig.parameters.values() if p.kind is not p.VAR_KEYWORD]
        for name, (option, titles) in _declared(command).items():
            kind = choices(name, option.choices) if option.choices else str
            params.append(inspect.Parameter(
                name, inspect.Parameter.KEYWORD_ONLY,
                annotation=Optional[kind],
                default=typer.Option(None, option.flag,
                                     help=option.help + (f" Default: {option.default}."
                                                         if option.default else ""),
                                     rich_help_panel=f"{' / '.join(titles)} only")))
        fn.__signature__ = sig.replace(parameters=params)
        return fn

    return wrap


def game_options(spec: GameSpec, command: str, given: dict[str, Optional[Enum | str]]
                 ) -> dict[str, str]:
    """The game's options of ``command`` (given, or their defaults); one line for an
    option given that the game does not have."""
    for name, value in given.items():
        option = spec.option(name)
        if value is not None and (option is None or command not in option.commands):
            titles = _declared(command)[name][1]
            raise OddsbotError(f"--{name.replace('_', '-')}: a {' / '.join(titles)} option; "
                               f"{spec.name} has no such option")
    return {o.name: o.default if given.get(o.name) is None else _text(given[o.name])
            for o in spec.options if command in o.commands}


def _text(value: Enum | str) -> str:
    return str(value.value) if isinstance(value, Enum) else value


# --------------------------------------------------------------------------- rule parameters

RULE_HELP = ("Set a rule parameter, NAME=VALUE (repeatable; 'oddsbot rules GAME' lists a "
             "game's parameters, their values and defaults).")


def rule_option() -> Any:
    """``--rule NAME=VALUE``, repeatable."""
    return typer.Option(None, "--rule", help=RULE_HELP, metavar="NAME=VALUE")


def read_rules(spec: GameSpec, given: Optional[list[str]]) -> dict[str, str]:
    """``--rule`` values as {name: text}: one line for a game without rule parameters, a
    malformed one, an unknown name or a name given twice (the game reads the values)."""
    if not given:
        return {}
    if not spec.rules:
        raise OddsbotError(f"--rule: {spec.name} has no rule parameters (its variants: "
                           f"'oddsbot games')")
    known = [r.name for r in spec.rules]
    out: dict[str, str] = {}
    for item in given:
        name, eq, value = item.partition("=")
        if not eq or not name or not value:
            raise OddsbotError(f"--rule: expected NAME=VALUE, got {quote(item)}")
        if name not in known:
            raise OddsbotError(f"--rule: {spec.name} has no rule parameter {quote(name)} "
                               f"('oddsbot rules {spec.name}' lists them)")
        if name in out:
            raise OddsbotError(f"--rule: {name} is given twice")
        out[name] = value
    return out

