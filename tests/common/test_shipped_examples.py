"""The examples ship with oddsbot: ``examples/NAME`` runs in any folder (issue 34, item
10), ``oddsbot examples`` lists them, and a file of that name in the folder wins."""

from __future__ import annotations

import json
import re
from pathlib import Path

from oddsbot.analyser import registry
from oddsbot.analyser.cli.helptext import OWN_EXAMPLES

ROOT = Path(__file__).resolve().parents[2]
NAMES = sorted(p.name for p in (ROOT / "examples").iterdir()
               if p.suffix in (".json", ".record"))


def test_a_help_example_runs_in_an_empty_folder(oddsbot_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    here = oddsbot_cli("advise", "examples/camel-up-start-4p.json", "-f", "json")
    monkeypatch.chdir(tmp_path)
    there = oddsbot_cli("advise", "examples/camel-up-start-4p.json", "-f", "json")
    assert there.code == 0, there.err
    assert there.out == here.out


def test_a_shipped_record_replays_in_an_empty_folder(oddsbot_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run = oddsbot_cli("replay", "--position", "examples/five-tribes-bids-4p.record")
    assert run.code == 0, run.err
    assert run.out.startswith("five-tribes ")


def test_a_file_in_the_folder_wins(oddsbot_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "camel-up-start-4p.json").write_text("camel-up B/G/Y/R/P n=9\n")
    run = oddsbot_cli("validate", "examples/camel-up-start-4p.json")
    assert run.code == 2 and run.out == ""
    assert run.err.startswith("oddsbot: error: ") and run.err.count("\n") == 1


def test_an_unknown_example_is_named(oddsbot_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run = oddsbot_cli("advise", "examples/camel-up-nowhere.json")
    assert (run.code, run.out) == (2, "")
    assert run.err == ("oddsbot: error: position: no such file 'examples/camel-up-nowhere"
                       ".json' (nor an example shipped with oddsbot: 'oddsbot examples' "
                       "lists them)\n")
    run = oddsbot_cli("replay", "examples/nowhere.record")
    assert run.code == 2 and "'oddsbot examples' lists them" in run.err


def _game_and_kind(text: str) -> tuple[str, str]:
    """(game id, 'record' or 'position') of an example file, read by hand."""
    if text.startswith("{"):
        return registry.spec(json.loads(text)["game"]).name, "position"
    first = next(line for line in text.splitlines() if line.strip() and not
                 line.startswith("#"))
    kind = "record" if first.startswith("start ") else "position"
    return registry.spec(first.removeprefix("start ").split()[0]).name, kind


def test_examples_lists_every_shipped_file(oddsbot_cli):
    run = oddsbot_cli("examples")
    assert run.code == 0, run.err
    rows = [tuple(line.split("\t")) for line in run.out.splitlines()]
    assert rows == [(f"examples/{n}", *_game_and_kind((ROOT / "examples" / n).read_text()))
                    for n in NAMES]
    assert {kind for _, _, kind in rows} == {"record", "position"}
    assert run.err.startswith("shipped in ")


def test_every_help_example_names_a_shipped_file():
    """The ``--help`` examples (the CLI's own and every game's) read only files that ship
    with oddsbot, so they run in any folder."""
    lines = [*OWN_EXAMPLES, *(e for spec in registry.specs().values() for e in spec.examples)]
    named = {m for line in lines for m in re.findall(r"examples/(\S+)", line)}
    assert len(named) >= 10 and named <= set(NAMES), named - set(NAMES)
