"""What every command shares: the typer app, the stderr console, loading a position as its
game (``analyser/answers.py`` holds the option checks), progress bars, and game-only
options.

Game-only options (``GameOption``) are declared by the games, not here:
:func:`with_game_options` adds every registered game's options of a command to that
command's signature, each listed in ``--help`` under its game's title, and
:func:`game_options` refuses in one line an option the position's game lacks.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from contextlib import contextmanager
from enum import Enum, StrEnum
from typing import Any, Iterator, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from ...errors import OddsbotError
from ...inputs import read_position_text
from .. import render
# the checks and the loader are the server's too (``analyser/answers.py``); the command
# modules take them from here
from ..answers import (  # noqa: F401
    MAX_OPTION, MAX_SEED, check_policy, check_positive, declared_options, game_options,
    load_text, policy_names, read_rules, record_going_on, seed_problem, variant_names,
)
from ..face import GameFace, GameSpec
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


def choices(name: str, values: tuple[str, ...]) -> type[StrEnum]:
    """A string enum of ``values``: typer lists them in ``--help`` and refuses any other
    value in one line; members are their strings (``str(m) == m.value``)."""
    return StrEnum(name, {v: v for v in values})


Format = choices("Format", render.FORMATS)
Variant = choices("Variant", variant_names())
TextFormat = choices("TextFormat", ("table", "json"))  # a list or notation, or JSON


def load(source: str, variant: Optional[str], rule: Optional[list[str]] = None
         ) -> tuple[GameSpec, GameFace, Any]:
    """(declaration, face, position) for POSITION (a file, '-' or inline text), optionally
    read as rules ``variant``, with the rule parameters of ``--rule`` set. POSITION may be
    a game record: its position is the one after its last line (``oddsbot replay RECORD
    --position``); see ``answers.load_text``."""
    return load_text(read_position_text(source), variant, rule)


WIDE_HELP = ("Every column in the table, which may then be wider than 80 columns (json, csv "
             "and markdown always have every column).")


def check_wide(wide: bool, fmt: str) -> None:
    """``--wide`` is for the table only: refused in one line with another format."""
    if wide and fmt != "table":
        raise OddsbotError(f"--wide: for -f table only; -f {fmt} always has every column")


def _check_seed(value: Optional[int]) -> Optional[int]:
    if (problem := seed_problem(value)) is not None:
        raise typer.BadParameter(problem)
    return value


def seed_option(help_text: str, default: Optional[int] = 0) -> Any:
    """``--seed``: a whole number from 0 to 2**64-1 (the kernels' seeds are uint64)."""
    return typer.Option(default, callback=_check_seed, help=f"{help_text} 0 to 2**64-1.")


def policy_choices(declared: str) -> type[Enum]:
    """Every registered game's policies of one kind (``GameSpec.policies`` or
    ``rollout_policies``) as choices; :func:`check_policy` refuses one the position's game
    lacks."""
    return choices(declared, policy_names(declared))


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
    mark once the work is done (``analyser/first_run.py``). A marked command that meets a
    kernel it did not need before (Camel Up's exact race, compiled on the first race
    that fits its budget) says so too, when that kernel starts to compile."""
    from .. import first_run as marks

    if not err.is_terminal:
        yield
    elif not marks.compiled(spec.name, kind):
        err.print(f"compiling kernels for {spec.name} {kind}, first run only…", markup=False,
                  highlight=False, soft_wrap=True)
        yield
    else:
        from numba.core.event import install_listener

        with install_listener("numba:compile", _compile_notice(spec.name, kind)):
            yield
    marks.mark(spec.name, (kind,))


def _compile_notice(game: str, kind: str):
    """A numba event listener for ``numba:compile`` (sent only for a kernel that is not in
    the cache) that prints one line at the first compile."""
    from numba.core.event import Listener

    class CompileNotice(Listener):
        line: str | None = f"compiling more kernels for {game} {kind}, first use only…"

        def on_start(self, event) -> None:
            if self.line is not None:
                line, self.line = self.line, None
                err.print(line, markup=False, highlight=False, soft_wrap=True)

        def on_end(self, event) -> None:
            pass

    return CompileNotice()


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


def with_game_options(command: str) -> Callable[[Callable], Callable]:
    """Add the game-only options of ``command`` to a command function that takes them as
    ``**game``: each is listed in ``--help`` under its games' titles, with its choices."""

    def wrap(fn: Callable) -> Callable:
        sig = inspect.signature(fn)
        params = [p for p in sig.parameters.values() if p.kind is not p.VAR_KEYWORD]
        for name, (option, titles) in declared_options(command).items():
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


# --------------------------------------------------------------------------- rule parameters

RULE_HELP = ("Set a rule parameter, NAME=VALUE (repeatable; 'oddsbot rules GAME' lists a "
             "game's parameters, their values and defaults).")


def rule_option() -> Any:
    """``--rule NAME=VALUE``, repeatable."""
    return typer.Option(None, "--rule", help=RULE_HELP, metavar="NAME=VALUE")
