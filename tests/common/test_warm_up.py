"""``oddsbot warm-up`` and the compile notice (``analyser.warm_up``, ``analyser.compiling``).

* the notice: one line on a terminal at the first compile of a process inside an
  announced entry point; never twice, never off a terminal, never without a compile;
* warm-up runs every registered game's units (the toy's too) in worker processes;
* after the warm-up units, no command needs a kernel they did not load (in a fresh
  process on the session's numba cache, so quick);
* in a real terminal, a command on an empty numba cache prints the notice, and the same
  command again does not.

No timing is asserted: ``bench/bench_first_run.py`` measures.
"""

from __future__ import annotations

import io
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from numba import njit

from checks import assert_bad_input
from oddsbot.analyser import compiling, registry
from oddsbot.analyser.warm_up import units
from test_terminal import in_terminal
from test_toy_game import toy  # noqa: F401  (fixture)

ROOT = Path(__file__).resolve().parents[2]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def stderr_on_a_terminal(monkeypatch):
    """As in a process that printed no notice yet: call it in the test (pytest resets
    ``sys.stderr`` between a fixture and its test) for a stderr on a terminal."""
    monkeypatch.setattr(compiling, "_printed", threading.Event())

    def terminal() -> Terminal:
        err = Terminal()
        monkeypatch.setattr(sys, "stderr", err)
        return err

    return terminal


def test_the_notice_is_one_line_at_the_first_compile(stderr_on_a_terminal):
    err = stderr_on_a_terminal()

    @njit
    def double(x):
        return 2 * x

    @njit
    def triple(x):
        return 3 * x

    announced = compiling.announces("toy-race advise")(lambda x: double(x))
    assert announced(1) == 2
    assert err.getvalue() == "compiling kernels for toy-race advise, first run only…\n"
    with compiling.notice("toy-race moves"):
        assert triple(1) == 3
    assert announced(2) == 4
    assert err.getvalue().count("\n") == 1  # once a process


def test_no_notice_without_a_compile_or_off_a_terminal(stderr_on_a_terminal, monkeypatch):
    err = stderr_on_a_terminal()

    @njit
    def double(x):
        return 2 * x

    double(1)
    with compiling.notice("toy-race advise"):
        double(2)  # compiled already
    assert err.getvalue() == ""
    piped = io.StringIO()
    monkeypatch.setattr(sys, "stderr", piped)

    @njit
    def triple(x):
        return 3 * x

    with compiling.notice("toy-race advise"):
        triple(1)
    assert piped.getvalue() == ""


def test_warm_up_compiles_every_game(toy, oddsbot_cli):  # noqa: F811
    run = oddsbot_cli("warm-up")
    assert run.exc is None and run.code == 0 and run.out == "", run.err
    for spec in registry.specs().values():
        for unit in units(spec):
            assert f"warm-up: {unit.label} ready in " in run.err
    assert "toy-race advise" in run.err and "toy-race report" in run.err
    last = run.err.splitlines()[-1]
    assert last.startswith("warm-up: ") and "games ready in" in last, last


def test_warm_up_refuses_a_bad_count_in_one_line(oddsbot_cli):
    assert_bad_input(oddsbot_cli("warm-up", "--processes", "0"), "--processes")


COVERAGE = r"""
import importlib, json, pkgutil, sys
from numba.core.registry import CPUDispatcher
import oddsbot.kernels
from oddsbot.analyser import cli, registry
from oddsbot.analyser.warm_up import units

def loaded():
    found = set()
    for info in pkgutil.walk_packages(oddsbot.kernels.__path__, "oddsbot.kernels."):
        for name, obj in vars(importlib.import_module(info.name)).items():
            if isinstance(obj, CPUDispatcher):
                found |= {f"{obj.py_func.__module__}.{name}{sig}" for sig in obj.overloads}
    return found

for spec in registry.specs().values():
    for unit in units(spec):
        unit.run()
before = loaded()
for args in json.loads(sys.argv[1]):
    sys.argv = ["oddsbot", *args]
    try:
        cli.main()
    except SystemExit as exc:
        assert not exc.code, args
print("\nNEW " + json.dumps(sorted(loaded() - before)))
"""


def test_after_the_warm_up_units_no_command_needs_another_kernel(tmp_path):
    """Every command (``new --play greedy`` of Five Tribes excepted: a whole greedy game
    takes most of a minute, and its ``play`` unit runs the same ``simulate``) loads only
    kernels the warm-up units loaded: any other would compile on a first run."""
    record = tmp_path / "short.record"
    lines = (ROOT / "examples" / "camel-up-game-4p.record").read_text().splitlines()
    record.write_text("\n".join([ln for ln in lines if ln and not ln.startswith("#")][:9]))
    camel, tribes = "examples/camel-up-start-4p.json", "examples/five-tribes-opening-4p.json"
    commands = [
        ["advise", camel, "--samples", "4096"],
        ["advise", camel, "--samples", "4096", "--rollouts", "20", "--hidden", "informed"],
        ["odds", "examples/camel-up-mid-leg.json", "--samples", "4096"],
        ["moves", camel], ["new", "camel-up"], ["new", "camel-up", "--play", "heuristic"],
        ["replay", str(record), "--samples", "4096"],
        ["chart", camel, "--samples", "4096", "--out", str(tmp_path / "chart.png")],
        ["advise", tribes], ["odds", tribes], ["moves", tribes], ["new", "five-tribes"],
        ["report", "camel-up", "--games", "10", "--out", str(tmp_path / "cu")],
        ["report", "five-tribes", "--games", "4", "--out", str(tmp_path / "ft")],
    ]
    import json

    out = subprocess.run([sys.executable, "-c", COVERAGE, json.dumps(commands)], cwd=ROOT,
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    new = json.loads(out.stdout.rsplit("\nNEW ", 1)[1])
    assert new == [], f"kernels the warm-up units did not load: {new}"


def test_a_first_run_prints_the_notice_and_the_next_one_does_not(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # empty: this command compiles
    args = ["moves", "examples/camel-up-start-4p.json"]
    code, screen = in_terminal(args, 80)
    assert code == 0 and "compiling kernels for camel-up moves, first run only…" in screen
    assert screen.count("compiling kernels") == 1
    code, screen = in_terminal(args, 80)
    assert code == 0 and "compiling kernels" not in screen and "pyramid" in screen
