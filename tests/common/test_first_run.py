"""First runs: the one-line notice before a command's kernels compile for the first time,
the marks that silence it, and ``oddsbot warm-up``, which compiles and marks everything."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from oddsbot.analyser import first_run, registry
from oddsbot.kernels import cache_guard
from test_terminal import in_terminal
from docs_blocks import oddsbot_script

ROOT = Path(__file__).resolve().parents[2]
NOTICE = "compiling kernels for camel-up validate, first run only…"

# these remove camel-up's first-run marks: not beside the terminal tests (pyproject.toml)
pytestmark = pytest.mark.xdist_group("first-run")


def test_marks_live_beside_the_caches(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert cache_guard.marks_folder() == tmp_path / cache_guard.MARKS
    assert not first_run.compiled("camel-up", "advise --rollouts")
    first_run.mark("camel-up", ("advise --rollouts",))
    assert first_run.compiled("camel-up", "advise --rollouts")
    assert not first_run.compiled("camel-up", "advise")
    assert not first_run.compiled("five-tribes", "advise --rollouts")


def test_changed_kernels_take_the_marks_with_their_caches(tmp_path):
    """A kernel source change purges the caches (``cache_guard``) and every mark."""
    root = tmp_path / "kernels"
    (root / "game").mkdir(parents=True)
    (root / "shared.py").write_text("X = 1\n")
    (root / "game" / "__init__.py").write_text("")
    cache_guard.purge_stale_caches(root)
    marks = cache_guard.marks_folder(root)
    marks.mkdir(parents=True)
    (marks / "game.advise").touch()
    assert not cache_guard.purge_stale_caches(root)  # nothing changed: the mark stays
    assert (marks / "game.advise").exists()
    (root / "game" / "__init__.py").write_text("Y = 2\n")
    assert cache_guard.purge_stale_caches(root)
    assert not (marks / "game.advise").exists()


def test_the_notice_shows_once_in_a_terminal(tmp_path, monkeypatch):
    """On a cache of its own (validate compiles next to nothing), so no other process of
    the suite can touch its marks between the two runs."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    mark = cache_guard.marks_folder() / "camel-up.validate"
    assert not mark.exists()
    code, screen = in_terminal(["validate", "examples/camel-up-start-4p.json"], 80)
    assert code == 0 and NOTICE in screen, screen
    assert mark.exists()
    code, screen = in_terminal(["validate", "examples/camel-up-start-4p.json"], 80)
    assert code == 0 and "compiling kernels" not in screen, screen


def test_a_marked_command_says_when_a_kernel_compiles(tmp_path, monkeypatch):
    """A kernel a marked command did not need before (Camel Up's exact race, on the first
    race that fits the budget) compiles with one line, printed when it starts; a run
    that compiles nothing prints nothing."""
    import io

    import numba
    from rich.console import Console

    from oddsbot.analyser.cli import common

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    first_run.mark("camel-up", ("odds",))
    screen = io.StringIO()
    monkeypatch.setattr(common, "err", Console(file=screen, force_terminal=True, width=80))
    twice, thrice = numba.njit(lambda x: 2 * x), numba.njit(lambda x: 3 * x)  # no cache
    spec = registry.spec("camel-up")
    with common.first_run(spec, "odds"):
        assert "compiling" not in screen.getvalue()
        assert twice(2) == 4 and thrice(2) == 6
    assert screen.getvalue().splitlines() == [
        "compiling more kernels for camel-up odds, first use only…"]
    with common.first_run(spec, "odds"):
        assert twice(5) == 10
    assert screen.getvalue().count("compiling") == 1


def test_no_notice_when_piped(oddsbot_cli):
    (cache_guard.marks_folder() / "camel-up.moves").unlink(missing_ok=True)
    run = oddsbot_cli("moves", "examples/camel-up-start-4p.json")
    assert run.code == 0 and "compiling" not in run.err


def test_warm_up_compiles_and_marks_every_kind():
    exe = oddsbot_script()
    for kind in first_run.KINDS:
        (cache_guard.marks_folder() / f"camel-up.{kind.replace(' --', '-')}").unlink(
            missing_ok=True)
    done = subprocess.run([exe, "warm-up", "camel-up"], cwd=ROOT, capture_output=True,
                          text=True, timeout=900, env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    assert "camel-up: kernels ready in" in done.stderr and done.stdout == ""
    assert all(first_run.compiled("camel-up", kind) for kind in first_run.KINDS)


def test_warm_up_refuses_an_unknown_game(oddsbot_cli):
    run = oddsbot_cli("warm-up", "chess")
    assert (run.code, run.out) == (2, "")
    assert run.err.startswith("oddsbot: error: ") and "chess" in run.err


def test_every_game_can_warm_up():
    for name in registry.specs():
        assert callable(registry.game(name).warm_up)


def test_warm_up_starts_the_largest_kernels_first():
    """Compile time goes with the size of a game's kernel sources: the warm-up starts the
    largest game's commands first, every game's commands before any reports, and each
    game's reports in the reverse order of its commands."""
    from oddsbot.analyser.cli.warmup import kernel_bytes, plan

    names = sorted({registry.spec(g).name for g in registry.specs()})
    parts = plan(names)
    commands = [n for n, part in parts if part == "commands"]
    reports = [n for n, part in parts if part == "reports"]
    assert sorted(commands) == names and len(set(parts)) == len(parts)
    assert parts[:len(commands)] == [(n, "commands") for n in commands]
    sizes = [kernel_bytes(n) for n in commands]
    assert sizes == sorted(sizes, reverse=True) and min(sizes) > 0
    assert reports == [n for n in reversed(commands) if n in reports]
    assert kernel_bytes("no-such-game") == 0
