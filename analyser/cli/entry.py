"""The command's entry: every command module loaded, typer's help composed, and ``main``
and ``console`` (``analyser/cli/__init__.py`` says what the command is)."""

from __future__ import annotations

import re
import sys
from functools import cache

import click
import typer.main

from ...errors import QUOTE_LIMIT, Interrupted, OddsbotError, quote
# each module adds its commands to ``app``, in the order --help lists them
from . import positions  # noqa: F401  (isort: skip)
from . import arena, charts, records, reports, serve, warmup  # noqa: F401
from .common import app, err
from .helptext import compose, overview
from .startup import leave, skip_blas_probe

app.registered_callback.help = overview(app.info.help)
for _command in app.registered_commands:  # docstring, games' columns and examples
    _command.help = compose(_command.name or _command.callback.__name__.replace("_", "-"),
                            _command.callback.__doc__ or "")

__all__ = ["app", "console", "main"]
INTERRUPTED = 130  # the exit code of Ctrl-C (128 + SIGINT), with one line on stderr


@cache
def _command() -> click.Command:
    """The click command typer makes of ``app``, made once a process: ``app()`` makes it
    anew on every call (12 ms), which a process running many commands pays each time (the
    suite runs the CLI in-process). A bug's traceback is Python's own, not typer's."""
    return typer.main.get_command(app)


def main() -> None:
    """Console entry point: bad input of any kind (a position, an option, a usage slip)
    becomes one line on stderr and exit code 2."""
    skip_blas_probe()
    if len(sys.argv) == 1:
        sys.argv.append("--help")
    try:
        code = _command()(standalone_mode=False)
    except OddsbotError as exc:
        _fail(str(exc), 2)
    except Interrupted as exc:  # a command's own words: "interrupted; ..."
        _fail(str(exc), INTERRUPTED)
    except (KeyboardInterrupt, EOFError):
        _fail("interrupted", INTERRUPTED)
    except Exception as exc:
        # typer's usage errors (bad option value, missing argument) carry a message and
        # an exit code; anything else is a bug and keeps its traceback
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
            _fail(_usage_line(exc), exc.exit_code)
        if exc.__class__.__name__ == "Abort":
            _fail("interrupted", INTERRUPTED)
        raise
    if code == INTERRUPTED:  # typer hands back Ctrl-C inside a command as 130
        _fail("interrupted", INTERRUPTED)
    if isinstance(code, int) and code:
        sys.exit(code)


def console() -> None:
    """The ``oddsbot`` console script: ``main``, then flush and leave at once
    (``startup.leave``)."""
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    leave(code)


# a word (or a quoted value) of a usage message longer than a message may echo
_LONG_WORD = re.compile(rf"'([^']{{{QUOTE_LIMIT + 1},}})'|(\S{{{QUOTE_LIMIT + 1},}})")


def _usage_line(exc: Exception) -> str:
    """A usage error in the house style: ``--play: 'x' is not one of 'random', …``; the
    value it echoes cut as ``errors.quote`` cuts it."""
    param = getattr(exc, "param", None)
    message = getattr(exc, "message", None)
    if param is None or not message:
        line = " ".join(exc.format_message().split())
    else:
        name = param.opts[0] if getattr(param, "opts", None) else param.human_readable_name
        line = f"{name}: " + " ".join(message.removeprefix("Value error, ").split())
    return _LONG_WORD.sub(lambda m: quote(m[1] or m[2]), line)


def _fail(message: str, code: int) -> None:
    err.print(f"oddsbot: error: {message}", markup=False, highlight=False, soft_wrap=True)
    sys.exit(code)

