"""Shared fixtures: one numba warm-up per session (every registered game), so compile
time is paid once; the in-process CLI runner.

Every folder of tests (``common``, and one per game) is put on ``sys.path``, so helper
modules import by their bare names (``import naive_camel_up``, ``from checks import ok``)
and a new game's folder needs no entry anywhere."""

from __future__ import annotations

import io
import json
import sys
import traceback
from dataclasses import dataclass

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

sys.path[:0] = [str(p) for p in sorted(Path(__file__).parent.iterdir())
                if (p / "__init__.py").is_file()]

SUMMARY = pytest.StashKey[list]()  # lines a test module asks to print at the end


def pytest_configure(config):
    config.stash[SUMMARY] = []


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
    """Run ``oddsbot ARGS...`` in-process; returns a :class:`Run`."""

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
