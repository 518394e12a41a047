"""A game record goes on from where it stops (issue 34, item 1): ``replay RECORD --position``
prints the position after its last line (notation, or JSON with ``-f json``; the annotation's
JSON names it as ``position``), and ``advise``, ``odds``, ``moves`` and ``validate`` take the
record in place of a position. Checked for every game with records on a record cut a few
turns in: the position is the one the whole record's replay stands at before its next turn
(what the next mover saw), and every command answers on the record exactly as on that
position typed in. A finished record, ``--variant`` with a record, and a record for a game
without records are refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checks import assert_bad_input, ok
from oddsbot.analyser import registry
from oddsbot.analyser.face import Capability, GameSpec
from oddsbot.errors import OddsbotError

ROOT = Path(__file__).resolve().parents[2]
RECORDS = {  # a whole record of each game, and how many turns in to cut it
    "camel-up": (ROOT / "examples" / "camel-up-game-4p.record", 5),
    "camel-up-cards": (ROOT / "examples" / "camel-up-cards-game-4p.record", 3),
    "five-tribes": (ROOT / "tests" / "five_tribes" / "golden" / "five-tribes-4p-seed5.txt", 6),
    "kingdom-run": (ROOT / "examples" / "kingdom-run-game-4p.record", 3),
    "mumia": (ROOT / "examples" / "mumia-game-4p.record", 6),
}
ANSWERS = {  # the commands that take the record, with options that keep them quick
    "advise": ["--samples", "512"], "odds": ["--samples", "512"], "moves": [],
    "validate": [],
}
ROLLED = {"kingdom-run": ["--roll", "SCBY"]}  # advise after a turn: the next roll
UNROLLED = {("kingdom-run", "moves")}  # moves has no --roll


def test_every_game_with_records_is_covered():
    assert set(RECORDS) == {name for name, spec in registry.specs().items()
                            if spec.has(Capability.RECORDS)}


def cut(text: str, load_record, turns: int) -> str:
    """``text`` up to the line that makes its ``turns``-th turn (comments kept): the
    shortest head of the record that loads with that many turns."""
    lines = text.splitlines()
    for end in range(1, len(lines) + 1):
        head = "\n".join(lines[:end]) + "\n"
        try:
            _, steps = load_record(head)
        except OddsbotError:  # a head that stops where a record may not (a deal is due)
            continue
        if len(steps) == turns:
            return head
    raise AssertionError(f"no head of the record has {turns} turns")


@pytest.fixture(params=sorted(RECORDS))
def cut_record(request, tmp_path):
    """(game face, the cut record's file, the whole record's position before the next
    turn)."""
    name = request.param
    face = registry.game(name)
    path, turns = RECORDS[name]
    text = path.read_text()
    _, whole = face.record.load_record(text)
    record = tmp_path / f"{name}-cut.record"
    record.write_text(cut(text, face.record.load_record, turns))
    return face, record, whole[turns][0]


def test_replay_prints_the_position_the_record_reaches(cut_record, oddsbot_cli):
    face, record, after = cut_record
    run = ok(oddsbot_cli("replay", record, "--position"))
    assert run.out == after.to_notation() + "\n"
    assert run.err.startswith("record OK: ") and "game not over" in run.err
    as_json = ok(oddsbot_cli("replay", record, "--position", "-f", "json"))
    assert face.Position.from_json(json.loads(as_json.out)) == after


@pytest.mark.parametrize("command", sorted(ANSWERS))
def test_a_command_answers_on_a_record_as_on_its_position(cut_record, oddsbot_cli, command,
                                                          tmp_path):
    face, record, after = cut_record
    typed = tmp_path / "typed.txt"
    typed.write_text(after.to_notation())
    options = [*ANSWERS[command], *(ROLLED.get(face.NAME, []) if command == "advise" else [])]
    on_record = oddsbot_cli(command, record, *options, "-f", "json")
    on_position = oddsbot_cli(command, typed, *options, "-f", "json")
    assert (on_record.code, on_record.out, on_record.err) == \
        (on_position.code, on_position.out, on_position.err)
    if (face.NAME, command) in UNROLLED:  # refused alike: the position has no roll yet
        assert_bad_input(on_record, "roll")
    else:
        ok(on_record)


def test_the_annotation_names_the_position_reached(oddsbot_cli, tmp_path):
    face = registry.game("kingdom-run")
    path, turns = RECORDS["kingdom-run"]
    record = tmp_path / "cut.record"
    record.write_text(cut(path.read_text(), face.record.load_record, turns))
    data = json.loads(ok(oddsbot_cli("replay", record, "-f", "json")).out)
    _, steps = face.record.load_record(record.read_text())
    assert data["position"] == steps.final.to_notation() and data["result"] is None
    # the whole record's annotation (no position, a result): kingdom_run/test_cli.py's
    # test_replay_the_example_record, which replays that record already


def test_a_finished_record_has_no_position(oddsbot_cli):
    path, _ = RECORDS["kingdom-run"]
    assert_bad_input(oddsbot_cli("advise", path), "record:", "game over", "no one is to move")
    assert_bad_input(oddsbot_cli("replay", path, "--position"), "--position", "game over")


def test_refusals_of_a_record_where_a_position_is_meant(cut_record, oddsbot_cli,
                                                        monkeypatch):
    face, record, _ = cut_record
    assert_bad_input(oddsbot_cli("advise", record, "--variant", face.NAME), "--variant",
                     "record")
    assert_bad_input(oddsbot_cli("replay", record, "--position", "-f", "csv"), "--position",
                     "-f csv")
    monkeypatch.setattr(GameSpec, "has", lambda self, capability: False)
    assert_bad_input(oddsbot_cli("moves", record), "position:", "game record", "no records")
