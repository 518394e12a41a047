"""Every command's help: examples shown, each example run as a person would run it, and
the choices of every option with a fixed set of values listed."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
from pathlib import Path

import pytest
import typer.main
from docs_blocks import oddsbot_script

from oddsbot.analyser.cli import app, helptext

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = sorted(typer.main.get_command(app).commands)
EXAMPLES = sorted({line for c in COMMANDS for line in helptext.examples(c)})


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_shows_an_example(command, oddsbot_cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    run = oddsbot_cli(command, "--help")
    assert run.code == 0, run.err
    shown = helptext.examples(command)
    assert shown, f"no example in `oddsbot {command} --help`"
    for line in shown:
        assert line in run.out


@pytest.mark.parametrize("line", EXAMPLES)
def test_every_example_runs(line, tmp_path, oddsbot_cli, monkeypatch):
    """In a fresh folder holding the project's examples/, as a reader of the help would;
    in-process, but for ``oddsbot serve``, which serves until Ctrl-C: it runs as the
    installed script (as do the docs' examples, tests/common/docs_blocks.py, and the
    terminal tests)."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    args = shlex.split(line)
    if args[1] == "serve":  # serves until Ctrl-C: once it says where, press it
        exe = oddsbot_script()
        env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
        _serves_until_ctrl_c([exe, *args[1:]], tmp_path, env)
        return
    monkeypatch.chdir(tmp_path)
    done = oddsbot_cli(*args[1:])
    assert done.exc is None, done.tb
    assert done.code == 0, done.err
    wrote = any(p.name != "examples" for p in tmp_path.iterdir())
    assert done.out or wrote or done.err.strip(), "the example printed nothing"


def _serves_until_ctrl_c(argv: list[str], cwd: Path, env: dict) -> None:
    server = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        assert "oddsbot serving on http://" in server.stdout.readline()
    finally:
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=60)
    assert server.returncode == 0, err


@pytest.mark.parametrize("args, shown", [
    (["advise", "--help"], "table|json|csv|markdown"),
    (["new", "--help"], "random|heuristic|greedy"),
    (["new", "--help"], "json|notation"),
    (["moves", "--help"], "table|json"),
    (["advise", "--help"], "five-tribes-premove"),
])
def test_choices_are_listed(args, shown, oddsbot_cli, monkeypatch):
    """Every choice in --help (typer draws the list as ``[a|b]`` or ``<a|b>``)."""
    monkeypatch.setenv("COLUMNS", "200")
    assert shown in oddsbot_cli(*args).out


def test_raw_choices_are_the_report_formats():
    from oddsbot.analyser.cli.reports import RawFormat
    from oddsbot.reports.batch import RAW_FORMATS

    assert tuple(RawFormat) == RAW_FORMATS


def test_the_games_cap_is_the_report_runs_cap():
    from oddsbot.analyser.cli import reports
    from oddsbot.reports import spec

    assert reports.MAX_GAMES == spec.MAX_GAMES
