"""Where the piece a label names stands (issue 34, item 9): Mumia's ``pawn 3`` is numbered
from the back and Kingdom Run's ``catchup K2`` names a runner by its set-up name, so the
EV table says where it is (``on``, a new JSON key and a terminal column after ``action``);
the labels stay as they were. Checked against the position file, read naively."""

from __future__ import annotations

import json
import re
from pathlib import Path

from checks import ok

MUMIA = "examples/mumia-mid-4p.json"
KINGDOM = "examples/kingdom-run-mid-4p.json"


def header(out: str) -> list[str]:
    line = next(line for line in out.splitlines() if line.startswith("┃"))
    return [cell.strip() for cell in line.split("┃")[1:-1]]


def row_cells(out: str, label: str) -> list[str]:
    line = next(line for line in out.splitlines() if line.startswith(f"│ {label} "))
    return [cell.strip() for cell in line.split("│")[1:-1]]


def mumia_fields(position: dict) -> tuple[list[int], int | None]:
    """The mover's pawns' fields off FINISH, lowest first, and the mummy's field."""
    track = position["track"]
    pawns = sorted(i for i, field in enumerate(track) for seat in field.get("pawns", [])
                   if seat == position["to_move"] and field["tile"] != "finish")
    mummy = next((i for i, field in enumerate(track) if field.get("mummy")), None)
    return pawns, mummy


def test_mumia_on_is_where_the_moved_piece_stands(oddsbot_cli):
    args = ("advise", MUMIA, "--roll", "4,PM", "--samples", "16")
    rows = ok(oddsbot_cli(*args, "-f", "json")).json()["actions"]
    pawns, mummy = mumia_fields(json.loads(Path(MUMIA).read_text()))
    seen = set()
    for row in rows:
        kind, _, arg = row["action"].partition(" ")
        expected = (pawns[int(arg) - 1] if kind == "pawn" else
                    int(arg) if kind == "guardian" else mummy)
        assert row["on"] == expected, row
        seen.add(kind)
    assert seen == {"pawn", "guardian", "mummy"}
    assert list(rows[0])[:5] == ["action", "ev", "se", "method", "gap"]  # keys kept
    table = ok(oddsbot_cli(*args)).out
    assert header(table)[:3] == ["action", "on", "ev"]
    for row in rows:
        assert row_cells(table, row["action"])[:2] == [row["action"], str(row["on"])]


def test_mumia_labels_are_unchanged_and_every_roll_has_on(oddsbot_cli):
    moves = ok(oddsbot_cli("moves", MUMIA)).out.splitlines()
    rows = ok(oddsbot_cli("advise", MUMIA, "--samples", "4", "-f", "json")).json()["actions"]
    assert sorted(row["action"] for row in rows) == sorted(moves)
    assert all(isinstance(row["on"], int) for row in rows)


def kingdom_start(position: dict) -> dict[str, int]:
    """Every runner's space in the position file."""
    return {runner: int(space) for space, runners in position["track"].items()
            for runner in runners}


RUNNER_STEP = re.compile(r"(?:copy:)?(?:catchup|bath|sleep|wake) ([KWFG][1-4])")


def test_kingdom_run_on_gives_each_runner_step_its_space(oddsbot_cli):
    """A runner no earlier step of the row moved stands where the file puts it; every
    Catch-up, Bath, Sleep or Wake step has one entry, in step order."""
    rows = ok(oddsbot_cli("advise", KINGDOM, "-f", "json")).json()["actions"]
    start = kingdom_start(json.loads(Path(KINGDOM).read_text()))
    checked = 0
    for row in rows[:2000]:
        steps = row["action"].split(" > ")
        runner_steps = [(i, m.group(1)) for i, step in enumerate(steps)
                        if (m := RUNNER_STEP.fullmatch(step))]
        spaces = (row["on"] or "").split(",") if row["on"] else []
        assert len(spaces) == len(runner_steps), row
        for (i, runner), space in zip(runner_steps, spaces):
            if not any(runner in step for step in steps[:i]):
                assert int(space) == start[runner], row
                checked += 1
    assert checked > 1000


def test_kingdom_run_table_shows_on_and_keeps_labels(oddsbot_cli):
    label = "scatter 2 [W2,K3] > catchup K2 > bath W4 > steal p3"
    out = ok(oddsbot_cli("advise", KINGDOM)).out
    assert header(out)[:2] == ["action", "on"]
    assert row_cells(out, label)[:2] == [label, "3,5"]
    assert max(len(line) for line in out.splitlines()) <= 80
    keep = ok(oddsbot_cli("advise", "examples/kingdom-run-roll-4p.json", "-f", "json")).json()
    assert "on" not in keep["actions"][0]  # keep-sets name no runner


def test_kingdom_run_rollouts_show_on_within_80_columns(oddsbot_cli):
    """Candidates spread over a tie bring long labels: the terminal breaks them before a
    ``>``; the JSON has them on one line, with ``on``."""
    args = ("advise", KINGDOM, "--rollouts", "4")
    out = ok(oddsbot_cli(*args)).out
    assert header(out)[:2] == ["action", "on"]
    assert max(len(line) for line in out.splitlines()) <= 80
    rows = ok(oddsbot_cli(*args, "-f", "json")).json()["actions"]
    exact = {row["action"]: row["on"]
             for row in ok(oddsbot_cli("advise", KINGDOM, "-f", "json")).json()["actions"]}
    assert all(row["on"] == exact[row["action"]] for row in rows)
    wide = ok(oddsbot_cli(*args, "--wide")).out
    assert all(row["action"] in wide for row in rows)
