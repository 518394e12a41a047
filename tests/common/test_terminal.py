"""Every long-running command in a real pseudo-terminal, as a person runs it.

Piped tests never draw a progress display (it is drawn on a terminal only), so a display
that crashes passed all of them once. Here the ``oddsbot`` console script runs with its
stdin, stdout and stderr on a pseudo-terminal of 80 columns, and those that draw a progress
display on one of 200 columns too (the window size set on the terminal itself, no
``COLUMNS``): it must end with exit code 0 and no traceback, and where the work is long
enough to be drawn, its progress display must have appeared.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from terminal import ROOT, in_terminal

# a first-run notice on the screen would differ: not beside test_first_run's mark removals
pytestmark = pytest.mark.xdist_group("first-run")

RECORD_TURNS = 12  # turns of the example record replayed (a few seconds)


@pytest.fixture(scope="module")
def short_record(tmp_path_factory) -> Path:
    lines = (ROOT / "examples" / "camel-up-game-4p.record").read_text().splitlines()
    body = [line for line in lines if line.strip() and not line.startswith("#")]
    path = tmp_path_factory.mktemp("record") / "short.record"
    path.write_text("\n".join(body[:1 + RECORD_TURNS]) + "\n")
    return path


@pytest.fixture(scope="module")
def five_tribes_mid(tmp_path_factory) -> Path:
    """A Five Tribes game cut in its fourth round, where the best turns carry long labels
    (a walk, a kill, two market buys and a sale: up to 109 characters)."""
    golden = ROOT / "tests" / "five_tribes" / "golden" / "five-tribes-4p-seed5.txt"
    path = tmp_path_factory.mktemp("record") / "five-tribes-mid.record"
    path.write_text("".join(golden.read_text().splitlines(keepends=True)[:50]))
    return path


CASES = {
    # name: (arguments, the progress text drawn on the terminal, or None)
    "report camel-up": (["report", "camel-up", "--games", "3000", "--out", "{tmp}/cu"],
                        "simulating"),
    "report five-tribes": (["report", "five-tribes", "--games", "100", "--out", "{tmp}/ft"],
                           "simulating"),
    "advise camel-up": (["advise", "examples/camel-up-start-4p.json", "--samples", "400000"],
                        None),
    "advise five-tribes": (["advise", "examples/five-tribes-opening-4p.json"], None),
    "advise --rollouts": (["advise", "examples/camel-up-mid-leg.json", "--rollouts", "200"],
                          None),
    "odds camel-up": (["odds", "examples/camel-up-mid-leg.json"], None),
    "odds five-tribes": (["odds", "examples/five-tribes-opening-4p.json"], None),
    "advise five-tribes --rollouts": (["advise", "examples/five-tribes-opening-4p.json",
                                       "--rollouts", "500", "--candidates", "4"],
                                      "rollouts"),
    "chart five-tribes": (["chart", "examples/five-tribes-opening-4p.json", "--out",
                           "{tmp}/ft.png"], None),
    "replay": (["replay", "{record}", "--samples", "20000"], "annotating"),
    "new --play": (["new", "camel-up", "--play", "heuristic", "--seed", "3"],
                   "playing a whole camel-up game"),
    "warm-up": (["warm-up", "camel-up"], "camel-up: kernels ready"),
    "report camel-up-cards": (["report", "camel-up-cards", "--games", "3000", "--out",
                               "{tmp}/cuc"], "simulating"),
    "advise camel-up-cards": (["advise", "examples/camel-up-cards-4p.json"], None),
    "advise camel-up-cards --rollouts": (["advise", "examples/camel-up-cards-late.json",
                                          "--rollouts", "4000"], "rollouts"),
    "replay camel-up-cards": (["replay", "examples/camel-up-cards-opening-4p.record",
                               "--samples", "5000"], "annotating"),
    "new --play camel-up-cards": (["new", "camel-up-cards", "--play", "random", "--seed",
                                   "3"], None),
    "report mumia": (["report", "mumia", "--games", "3000", "--out", "{tmp}/mu"],
                     "simulating"),
    "advise mumia": (["advise", "examples/mumia-mid-4p.json", "--roll", "4,PM"], "odds"),
    "advise mumia every roll": (["advise", "examples/mumia-mid-4p.json"], "odds"),
    "replay mumia": (["replay", "examples/mumia-game-4p.record", "--samples", "50"],
                     "annotating"),
    "rules mumia": (["rules", "mumia"], None),
    "report kingdom-run": (["report", "kingdom-run", "--games", "3000", "--out",
                            "{tmp}/kr"], "simulating"),
    "advise kingdom-run re-roll": (["advise", "examples/kingdom-run-roll-4p.json"], None),
    "advise kingdom-run actions": (["advise", "examples/kingdom-run-mid-4p.json"], None),
    "advise kingdom-run --rollouts": (["advise", "examples/kingdom-run-mid-4p.json",
                                       "--rollouts", "200"], None),
    "odds kingdom-run": (["odds", "examples/kingdom-run-mid-4p.json"], None),
    "new --play kingdom-run": (["new", "kingdom-run", "--play", "greedy", "--seed", "3"],
                               None),
    "rules kingdom-run": (["rules", "kingdom-run"], None),
    "arena camel-up": (["arena", "camel-up", "--policies", "heuristic,random", "--games",
                        "30000"], "playing"),
    "arena search": (["arena", "camel-up", "--policies", "search@5ms,heuristic",
                      "--games", "6"], "playing"),
}


# every case at 80 columns, where tables wrap and bars are shortest; at 200 columns the cases
# that draw a progress display, whose layout follows the width (a table's columns do not:
# only ``--wide`` adds some, test_tables_fit_80_columns_unless_wide)
WIDTHS = [(case, 80) for case in CASES] + [
    (case, 200) for case, (_, progress) in CASES.items() if progress is not None]


@pytest.mark.parametrize("case, columns", WIDTHS, ids=[f"{c}-{w}" for c, w in WIDTHS])
def test_command_in_a_terminal(case, columns, tmp_path, short_record):
    args, progress = CASES[case]
    args = [a.format(tmp=tmp_path, record=short_record) for a in args]
    code, screen = in_terminal(args, columns)
    assert "Traceback" not in screen, screen[-3000:]
    assert code == 0, screen[-3000:]
    if progress is not None:
        assert progress in screen, f"no progress display: {screen[-2000:]}"
    cut = [line for line in screen.splitlines() if "│" in line and "…" in line]
    assert not cut, f"a table cell cut at {columns} columns: {cut[0]}"


TABLES = [  # every command printing a table, with the options that change its columns
    ["advise", "examples/camel-up-start-4p.json"],
    ["advise", "examples/camel-up-mid-leg.json", "--rollouts", "50", "--top", "5"],
    ["advise", "examples/camel-up-2014.json"],
    ["advise", "examples/five-tribes-opening-4p.json"],
    ["advise", "examples/five-tribes-opening-4p.json", "--rollouts", "20", "--top", "5"],
    ["advise", "{five_tribes_mid}", "--top", "20"],
    ["odds", "examples/camel-up-mid-leg.json"],
    ["odds", "examples/five-tribes-opening-4p.json"],
    ["replay", "{record}", "--samples", "2000"],
    ["replay", "{record}", "--samples", "500", "--rollouts", "8"],
    ["advise", "examples/camel-up-cards-late.json"],
    ["advise", "examples/camel-up-cards-late.json", "--rollouts", "50", "--top", "5"],
    ["odds", "examples/camel-up-cards-late.json"],
    ["replay", "examples/camel-up-cards-opening-4p.record", "--samples", "500"],
    ["advise", "examples/mumia-mid-4p.json", "--roll", "4,PM", "--samples", "50"],
    ["advise", "examples/mumia-mid-4p.json", "--samples", "50"],
    ["advise", "examples/mumia-endgame.json"],
    ["odds", "examples/mumia-mid-4p.json", "--samples", "200"],
    ["replay", "examples/mumia-game-4p.record", "--samples", "10"],
    ["advise", "examples/kingdom-run-roll-4p.json"],
    ["advise", "kingdom-run p2 K,W to=2 t=6:G4/7:F4,G1,G2/13:F2,F3,G3/20:W2/24:K3 "
     "pod=K4,W1,W4,W3,F1,K1,K2 tok=4,8 roll=- rr=0", "--roll", "TTZZ"],  # every row exact
    ["advise", "examples/kingdom-run-mid-4p.json"],
    ["advise", "examples/kingdom-run-roll-4p.json", "--rollouts", "20", "--top", "5"],
    ["advise", "examples/kingdom-run-mid-4p.json", "--rollouts", "20", "--top", "5"],
    ["odds", "examples/kingdom-run-mid-4p.json"],
]


@pytest.mark.parametrize("args", TABLES, ids=lambda a: " ".join(a[:1] + a[2:]))
def test_tables_fit_80_columns_unless_wide(args, oddsbot_cli, short_record, five_tribes_mid):
    """Piped (no ``$COLUMNS``), a table fits 80 columns as on a person's terminal: long
    labels wrap, no cell is cut; ``--wide`` shows more columns."""
    args = [a.format(record=short_record, five_tribes_mid=five_tribes_mid) for a in args]
    compact = oddsbot_cli(*args)
    assert compact.code == 0, compact.err
    widest = max(compact.out.splitlines(), key=len)
    assert len(widest) <= 80, widest
    cut = [line for line in compact.out.splitlines() if "…" in line]
    assert not cut, f"a cell cut: {cut[0]}"
    wide = oddsbot_cli(*args, "--wide")
    assert wide.code == 0, wide.err
    header = next(line for line in wide.out.splitlines() if line.startswith("┃"))
    assert header.count("┃") > next(
        line for line in compact.out.splitlines() if line.startswith("┃")).count("┃")


@pytest.mark.parametrize("args", [["advise", "examples/camel-up-start-4p.json"],
                                  ["odds", "examples/camel-up-start-4p.json"],
                                  ["replay", "examples/camel-up-game-4p.record"]])
@pytest.mark.parametrize("fmt", ["json", "csv", "markdown"])
def test_wide_is_refused_where_every_column_is_shown_anyway(args, fmt, oddsbot_cli):
    run = oddsbot_cli(*args, "--wide", "-f", fmt)
    assert (run.code, run.out) == (2, "")
    assert run.err == f"oddsbot: error: --wide: for -f table only; -f {fmt} always has every column\n"


def test_a_failing_display_never_stops_the_run():
    from oddsbot.analyser.cli.common import guarded

    calls = []

    def draw(done: int, planned: int) -> None:
        calls.append(done)
        raise TypeError("unsupported format string passed to NoneType.__format__")

    update = guarded(draw)
    update(1, None)
    update(2, 10)  # after one fault the display is left alone
    assert calls == [1]


def test_help_shows_every_word_of_every_help_text(oddsbot_cli, monkeypatch):
    """Rich markup once swallowed bracketed help text (``Players [default: 4].`` showed as
    ``Players .``): every word of every command's and option's help must be shown."""
    import typer.main

    from oddsbot.analyser.cli import app

    monkeypatch.setenv("COLUMNS", "200")
    group = typer.main.get_command(app)
    for name, command in group.commands.items():
        shown = set(oddsbot_cli(name, "--help").out.replace("│", " ").split())
        for param in command.params:
            words = set((getattr(param, "help", None) or "").split())
            assert words <= shown, (name, param.name, sorted(words - shown))


def test_version(oddsbot_cli):
    from oddsbot import __version__

    run = oddsbot_cli("--version")
    assert (run.code, run.out, run.err) == (0, f"oddsbot {__version__}\n", "")
