"""A toy game (``toy_race.py``, plain Python) registered through the registration point
alone works with every command of the face, and with designer reports: what the next
real game is held to. No shared file knows the toy."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from oddsbot.analyser import registry
from oddsbot.analyser.face import GameFace
from oddsbot.reports.face import DesignerFace


def _load_toy():
    path = Path(__file__).with_name("toy_race.py")
    spec = importlib.util.spec_from_file_location("toy_race", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["toy_race"] = module  # the declaration's face and designer name it
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def toy():
    module = _load_toy()
    registry.register(module.GAME)
    yield module
    registry.unregister(module.NAME)


def ok(run):
    assert run.exc is None, run.tb
    assert run.code == 0, run.err
    return run


def test_the_toy_meets_the_face(toy):
    assert isinstance(toy, GameFace) and isinstance(toy, DesignerFace)
    assert registry.spec("toy-race") is toy.GAME and registry.game("toy-race") is toy


def test_games_lists_it(toy, oddsbot_cli):
    assert "toy-race\ttoy-race\tthe coin race to 5" in ok(oddsbot_cli("games")).out.splitlines()


def test_validate_new_and_play(toy, oddsbot_cli):
    assert ok(oddsbot_cli("validate", "toy-race 0/2/1 to=1")).out == "toy-race 0/2/1 to=1\n"
    assert json.loads(ok(oddsbot_cli("new", "toy-race", "--players", "3")).out) == {
        "game": "toy-race", "pawns": [0, 0, 0], "to_move": 0}
    record = ok(oddsbot_cli("new", "toy-race", "--play", "random", "--seed", "4")).out
    assert record.startswith("start toy-race 0/0/0/0 to=0\n")
    assert record.splitlines()[-1].startswith("winner p")
    bad = oddsbot_cli("validate", "toy-race 0/9 to=0")
    assert bad.code == 2 and bad.err.startswith("oddsbot: error: pawns:")


@pytest.mark.parametrize("fmt", ["table", "json", "csv", "markdown"])
def test_advise_every_format(toy, oddsbot_cli, fmt):
    out = ok(oddsbot_cli("advise", "toy-race 1/0 to=0", "-f", fmt)).out
    if fmt == "json":
        data = json.loads(out)
        assert data["game"] == "toy-race"
        assert [(a["action"], a["ev"], a["gap"]) for a in data["actions"]] == [
            ("flip", 1.5, 0.0), ("walk", 1.0, 0.5)]
    else:
        assert "flip" in out and "walk" in out and out.index("flip") < out.index("walk")


def test_odds_and_moves(toy, oddsbot_cli):
    assert json.loads(ok(oddsbot_cli("odds", "toy-race 1/4 to=0", "-f", "json")).out)[
        "to_goal"] == [4, 1]
    assert ok(oddsbot_cli("moves", "toy-race 1/4 to=0")).out == "walk\nflip\n"


def test_capabilities_it_lacks_are_refused_in_one_line(toy, oddsbot_cli, tmp_path):
    record = tmp_path / "toy.record"
    record.write_text("start toy-race 0/0 to=0\n")
    for args, line in [
        (("replay", record), "oddsbot: error: toy-race has no replay yet"),
        (("chart", "toy-race 0/0 to=0", "--out", tmp_path / "c.png"),
         "oddsbot: error: toy-race has no position charts yet"),
        (("advise", "toy-race 0/0 to=0", "--rollouts", "5"),
         "oddsbot: error: --rollouts: toy-race has no rollouts yet"),
        (("advise", "toy-race 0/0 to=0", "--deck-model", "race"),
         "oddsbot: error: --deck-model: a Camel Up option; toy-race has no such option"),
    ]:
        run = oddsbot_cli(*args)
        assert (run.exc, run.code, run.out, run.err) == (None, 2, "", line + "\n"), args


def test_report(toy, oddsbot_cli, tmp_path):
    out = tmp_path / "rep"
    ok(oddsbot_cli("report", "toy-race", "--games", "300", "--players", "3", "--out", out))
    wins = (out / "tables" / "seats.csv").read_text().splitlines()
    assert wins[0] == "winner,games"
    assert sum(int(line.split(",")[1]) for line in wins[1:]) == 300
    assert "Wins by seat" in (out / "report.html").read_text()
