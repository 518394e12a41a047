"""Assertions shared by test modules: how a CLI run must end, and when two report runs
are the same."""

from __future__ import annotations

import filecmp
from pathlib import Path

import pandas as pd
from oddsbot.reports import batch, runner
from oddsbot.reports.spec import RunSpec

from conftest import Run


def ok(result: Run) -> Run:
    assert result.exc is None, f"exception escaped main():\n{result.tb}"
    assert result.code == 0, f"exit {result.code}, stderr: {result.err!r}"
    assert "Traceback" not in result.err
    return result


def bad_line(run: Run, line: int, *words: str) -> str:
    """A game record refused at line ``line``: exit 2, nothing on stdout, exactly one
    stderr line ``oddsbot: error: line N: ...`` mentioning every one of ``words``."""
    text = assert_bad_input(run, *words)
    assert text.startswith(f"oddsbot: error: line {line}: "), text
    return text


def assert_bad_input(result: Run, *words: str) -> str:
    """Exit 2, nothing on stdout, exactly one stderr line ``oddsbot: error: ...`` that
    mentions every one of ``words`` (case-insensitive); no traceback. Returns the line."""
    assert result.exc is None, (f"exception escaped main() (the user sees a traceback):\n"
                                f"{result.tb}")
    assert result.code == 2, f"exit code {result.code}, stdout {result.out!r}, " \
                             f"stderr {result.err!r}"
    assert result.out == "", f"stdout must be empty on bad input, got {result.out!r}"
    assert "Traceback" not in result.err
    lines = result.err.splitlines()
    assert len(lines) == 1, f"stderr must be exactly one line, got {result.err!r}"
    line = lines[0]
    assert line.startswith("oddsbot: error: "), line
    for word in words:
        assert word.lower() in line.lower(), f"{word!r} not named in {line!r}"
    return line


def same_report(a: Path, b: Path) -> None:
    """Same raw games and the same numbers in every table (the 'How it ran' table
    records sessions and timings, so it differs by design)."""
    pd.testing.assert_frame_equal(pd.read_parquet(a / "games.parquet"),
                                  pd.read_parquet(b / "games.parquet"))
    tables = sorted(p.name for p in (a / "tables").iterdir())
    assert tables == sorted(p.name for p in (b / "tables").iterdir())
    for name in tables:
        if name != "runs.csv":
            assert filecmp.cmp(a / "tables" / name, b / "tables" / name, shallow=False), name


def full_run(spec: RunSpec, out: Path, client=None) -> runner.Executed:
    """A whole designer run into the new folder ``out``: simulate, then build the report."""
    state = batch.start(spec, out, "parquet")
    done = batch.simulate(spec, out, state, client=client)
    batch.build(spec, out, state)
    return done
