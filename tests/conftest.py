"""Shared fixtures: kernels compiled before the first test (``oddsbot warm-up`` where a
game's are not yet, then each game's position kernels loaded once per session or
pytest-xdist worker); the in-process CLI runner. The suite runs on every core
(``-n auto`` in pyproject.toml); ``pytest -n 0`` runs it in one process.

Every folder of tests (``common``, and one per game) is put on ``sys.path``, so helper
modules import by their bare names (``import naive_camel_up``, ``from checks import ok``)
and a new game's folder needs no entry anywhere."""

from __future__ import annotations

import io
import json
import signal
import sys
import traceback
from dataclasses import dataclass

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

sys.path[:0] = [str(p) for p in sorted(Path(__file__).parent.iterdir())
                if (p / "__init__.py").is_file()]

pytest_plugins = ["xdist_groups", "pytester"]  # tests/common/xdist_groups.py; pytest's own

SUMMARY = pytest.StashKey[list]()  # lines a test module asks to print at the end


def pytest_configure(config):
    config.stash[SUMMARY] = []
    # pytest-xdist workers ignore Ctrl-C, as does a suite started in the background
    # (``nohup pytest &``), and an ignored signal stays ignored in the processes they
    # start: the tests that press Ctrl-C in a command need it caught
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if not hasattr(config, "workerinput") and not config.option.collectonly:
        compile_kernels()


def compile_kernels() -> None:
    """Before the first test, and before pytest-xdist starts its workers: when a game's
    kernels are not all compiled on this machine (its first-run marks), ``oddsbot
    warm-up`` compiles them, in as many processes as there are cores, rather than each
    worker compiling the same kernels on its own, one by one, inside the tests."""
    from oddsbot.analyser import first_run, registry
    from oddsbot.analyser.cli.warmup import warm_up

    games = {registry.spec(g).name for g in registry.specs()}
    cold = sorted(g for g in games if not all(first_run.compiled(g, kind)
                                              for kind in first_run.KINDS))
    if cold:
        warm_up(cold)


def pytest_sessionfinish(session):
    """A pytest-xdist worker hands its summary lines to the controller."""
    if hasattr(session.config, "workeroutput"):
        session.config.workeroutput["summary"] = session.config.stash[SUMMARY]


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """pytest-xdist: a worker finished; keep its summary lines (``pytest_sessionfinish``)."""
    node.config.stash[SUMMARY] += getattr(node, "workeroutput", {}).get("summary", [])


def pytest_terminal_summary(terminalreporter, config):
    """The lines tests left in ``config.stash[SUMMARY]`` (e.g. the fuzz test's counts)."""
    for line in config.stash.get(SUMMARY, []):
        terminalreporter.write_line(line)


settings.register_profile("oddsbot", deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("oddsbot")


@pytest.fixture(scope="session", autouse=True)
def warm_kernels():
    """Compile (or load from the numba cache) every registered game's position kernels
    once per session: a new position and its EV table."""
    from oddsbot.analyser import registry

    for spec in registry.specs().values():
        face = spec.load()
        low, high = spec.players
        pos = face.new_position(min(max(4, low), high), 0, spec.name)
        face.advise(pos, samples=4096, seed=0, target_se=None, progress=None)


@dataclass
class Run:
    """What one in-process ``oddsbot`` run produced."""

    code: int | None  # exit code; None if an exception escaped main()
    out: str
    err: str
    exc: BaseException | None = None
    tb: str = ""

    def json(self):
        assert self.exc is None, f"exception escaped main():\n{self.tb}"
        assert self.code == 0, f"exit {self.code}, stderr: {self.err!r}"
        return json.loads(self.out)


@pytest.fixture
def oddsbot_cli(monkeypatch, capsys):
    """Run ``oddsbot ARGS...`` in-process; returns a :class:`Run`. Piped, with no
    ``$COLUMNS`` from the shell running the tests (a test may set its own)."""
    monkeypatch.delenv("COLUMNS", raising=False)

    def run(*args, stdin: str | None = None) -> Run:
        monkeypatch.setattr(sys, "argv", ["oddsbot", *map(str, args)])
        monkeypatch.setattr(sys, "stdin", io.StringIO("" if stdin is None else stdin))
        capsys.readouterr()
        code: int | None = 0
        exc = None
        tb = ""
        from oddsbot.analyser import cli

        try:
            cli.main()
        except SystemExit as e:
            code = 0 if e.code is None else e.code
        except Exception as e:  # noqa: BLE001 - would be a traceback for the user
            code, exc, tb = None, e, traceback.format_exc()
        out, err = capsys.readouterr()
        return Run(code, out, err, exc, tb)

    return run
