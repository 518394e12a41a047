"""Kingdom Run through the ``oddsbot`` command (docs/games/kingdom-run.md §12, §15):
advise at both decision points (with ``--roll``, ``--top``, ``--rollouts``), odds, moves,
validate, new (``--play`` each policy), replay, ``--rule``, the JSON shapes, one run on
an 80-column terminal; and bad input refused in one line, exit 2, the file untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oddsbot.analyser.kingdom_run.face import parse

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
ROLL = EXAMPLES / "kingdom-run-roll-4p.json"  # p1 rolled TTZY, not re-rolled yet
MID = EXAMPLES / "kingdom-run-mid-4p.json"    # p1 to act on SCBT
RECORD = EXAMPLES / "kingdom-run-game-4p.record"
START = ("kingdom-run p2 K,W to=1 t=0:K1,W1,F1,G1/1:K2,W2,F2,G2/2:K3,W3,F3,G3/"
         "3:K4,W4,F4,G4 tok=6,6 roll=- rr=0")
OVER = ("kingdom-run p3 K,W,F to=2 t=0:G3,G4/4:K4/10:W4/16:K3,F3/17:F4/22:W3 "
        "pod=K1,W1,G1,K2,F1,W2,F2,G2 tok=3,5,4 roll=- rr=0 used= cross= out=")  # §16.6
POLICIES = ("heuristic", "greedy", "random")


def one_line_refusal(run, *words: str) -> None:
    assert run.exc is None, run.tb
    assert (run.code, run.out) == (2, ""), (run.code, run.out, run.err)
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("oddsbot: error: "), run.err
    for word in words:
        assert word in lines[0], (word, lines[0])


def start_json() -> dict:
    return parse(START).to_json()


# ------------------------------------------------------------------------ advise
def test_advise_the_re_roll_one_row_per_keep_set(oddsbot_cli):
    data = oddsbot_cli("advise", ROLL, "-f", "json").json()
    assert set(data) == {"game", "player", "actions", "provenance"}
    assert data["game"] == "kingdom-run" and data["player"] == 0
    rows = data["actions"]
    labels = [r["action"] for r in rows]
    # TTZY: the distinct sub-multisets (§13.1), best first
    assert sorted(labels) == sorted([
        "keep steal,steal,sleepwake,copy", "keep steal,steal,sleepwake",
        "keep steal,steal,copy", "keep steal,sleepwake,copy", "keep steal,steal",
        "keep steal,sleepwake", "keep steal,copy", "keep sleepwake,copy", "keep steal",
        "keep sleepwake", "keep copy", "reroll all"])
    evs = [r["ev"] for r in rows]
    assert evs == sorted(evs, reverse=True)
    assert all(r["gap"] == pytest.approx(evs[0] - r["ev"]) for r in rows)
    assert {r["method"] for r in rows} <= {"exact", "greedy"}
    prov = data["provenance"]
    assert prov["decision"] == "keep" and prov["game"] == "kingdom-run"
    assert prov["position"] == parse(ROLL.read_text()).to_notation()
    moves = oddsbot_cli("moves", ROLL)
    assert moves.code == 0 and moves.out.splitlines() == [
        "keep steal,steal,sleepwake,copy", "keep steal,steal,sleepwake",
        "keep steal,steal,copy", "keep steal,sleepwake,copy", "keep steal,steal",
        "keep steal,sleepwake", "keep steal,copy", "keep sleepwake,copy", "keep steal",
        "keep sleepwake", "keep copy", "reroll all"]  # canonical order (§13.1)
    assert "12 keep-sets" in moves.err


def test_advise_the_actions_and_top(oddsbot_cli):
    every = oddsbot_cli("advise", MID, "-f", "json").json()
    rows = every["actions"]
    prov = every["provenance"]
    assert prov["decision"] == "act" and prov["method"] == "exact"
    assert prov["listed"] == len(rows) <= prov["positions"]
    assert len({r["action"] for r in rows}) == len(rows)  # merged: one label a position
    evs = [r["ev"] for r in rows]
    assert evs == sorted(evs, reverse=True) and all(r["se"] is None for r in rows)
    assert all(r["action"].split(" > ")[0].split()[0] in
               ("scatter", "catchup", "bath", "steal", "copy:scatter") for r in rows)
    top = oddsbot_cli("advise", MID, "--top", "5", "-f", "json").json()
    assert top["actions"] == rows[:5]
    table = oddsbot_cli("advise", MID, "--top", "3")
    assert table.code == 0 and rows[0]["action"] in table.out
    assert "p1 (K) to move" in table.out and "best 3 of" in table.out
    moves = oddsbot_cli("moves", MID, "-f", "json").json()
    assert moves["counts"] == {"sequences": prov["positions"], "listed": prov["listed"]}
    assert sorted(moves["moves"]) == sorted(r["action"] for r in rows)


def test_advise_takes_the_roll_from_the_command_line(oddsbot_cli):
    unrolled = oddsbot_cli("advise", START, "-f", "json").json()  # play-along's one action
    assert [row["action"] for row in unrolled["actions"]] == ["roll"]
    one_line_refusal(oddsbot_cli("advise", START, "--rollouts", "4"), "roll", "--roll")
    by_letters = oddsbot_cli("advise", START, "--roll", "SCBY", "-f", "json").json()
    by_names = oddsbot_cli("advise", START, "--roll", "copy,bath,catchup,scatter",
                           "-f", "json").json()
    assert by_letters["actions"] == by_names["actions"]
    assert by_letters["provenance"]["position"].endswith("roll=SCBY rr=0")
    assert by_letters["provenance"]["decision"] == "keep"
    assert len(by_letters["actions"]) == 16  # four different faces: 2^4 keep-sets
    one_line_refusal(oddsbot_cli("advise", MID, "--roll", "SCBY"), "--roll", "already")


def test_rollouts_are_reproducible_by_seed(oddsbot_cli):
    args = ("advise", ROLL, "--rollouts", "12", "-f", "json")
    a = oddsbot_cli(*args, "--seed", "5").json()
    b = oddsbot_cli(*args, "--seed", "5").json()
    c = oddsbot_cli(*args, "--seed", "6").json()
    assert a == b and a["actions"] != c["actions"]
    assert a["provenance"]["method"] == "monte-carlo"
    assert a["provenance"]["rollouts"] == 12 and a["provenance"]["seed"] == 5
    row = a["actions"][0]
    assert {"action", "ev", "se", "gap", "win_p"} <= set(row)
    assert 0 <= row["win_p"] <= 1 and len(a["actions"]) == 12
    seq = oddsbot_cli("advise", MID, "--rollouts", "6", "--seed", "2", "--candidates", "3",
                      "--policy", "random", "-f", "json").json()
    assert len(seq["actions"]) == 3 and seq["provenance"]["policy"] == "random"
    assert all("evaluation" in r for r in seq["actions"])
    one_line_refusal(oddsbot_cli("advise", MID, "--rollouts", "6", "--policy", "clever"),
                     "clever")


# ------------------------------------------------------------------------ odds, validate
def test_odds(oddsbot_cli):
    args = ("odds", MID, "--samples", "200", "--seed", "3", "-f", "json")
    data = oddsbot_cli(*args).json()
    assert data == oddsbot_cli(*args).json()
    assert data["game"] == "kingdom-run" and len(data["players"]) == 4
    assert [p["player"] for p in data["players"]] == ["p1 (K)", "p2 (W)", "p3 (F)", "p4 (G)"]
    for p in data["players"]:
        assert set(p) == {"player", "clan", "score", "score_se", "win_p", "win_se"}
        assert 0 <= p["win_p"] <= 1 and p["score"] > 0
    assert sum(p["win_p"] for p in data["players"]) >= 1 - 1e-9  # shared wins count each
    assert data["provenance"]["samples"] == 200 and data["provenance"]["seed"] == 3
    table = oddsbot_cli("odds", MID, "--samples", "200")
    assert table.code == 0 and "p3 (F)" in table.out
    one_line_refusal(oddsbot_cli("odds", OVER), "game is over")


def test_validate_both_forms_and_stdin(oddsbot_cli):
    run = oddsbot_cli("validate", MID)
    notation = run.out.strip()
    assert run.code == 0 and notation.startswith("kingdom-run p4 K,W,F,G to=1 ")
    back = oddsbot_cli("validate", notation, "-f", "json").json()
    assert parse(json.dumps(back)) == parse(MID.read_text()) == parse(notation)
    piped = oddsbot_cli("validate", "-", stdin=MID.read_text())
    assert piped.out.strip() == notation
    alias = oddsbot_cli("validate", notation.replace("kingdom-run", "krolewski-wyscig", 1))
    assert alias.code == 0 and alias.out.strip() == notation
    over = oddsbot_cli("validate", OVER)  # a game that is over is a valid position
    assert over.code == 0 and over.out.strip().startswith("kingdom-run p3 K,W,F to=2")


# ------------------------------------------------------------------------ new, play
def test_new_position(oddsbot_cli):
    data = oddsbot_cli("new", "kingdom-run", "--players", "3", "--seed", "7",
                       "-f", "json").json()
    assert data["game"] == "kingdom-run" and data["players"] == 3
    assert data["clans"] == ["K", "W", "F"] and data["to_move"] == 0
    assert data["tokens"] == [4, 4, 4] and data["rerolled"] is False
    assert len(data["roll"]) == 4 and data["used"] == []
    assert data["track"] == {str(s): [f"{c}{s + 1}" for c in "KWFG"] for s in range(4)}
    notation = oddsbot_cli("new", "kingdom-run", "--players", "3", "--seed", "7",
                           "-f", "notation")
    assert notation.code == 0
    assert parse(notation.out.strip()) == parse(json.dumps(data))
    again = oddsbot_cli("new", "krolewski-wyscig", "--players", "3", "--seed", "7",
                        "-f", "notation")
    assert again.out == notation.out  # the alias, the same seed: the same roll
    two = oddsbot_cli("new", "kingdom-run", "--players", "2", "--seed", "1",
                      "-f", "json").json()
    assert two["tokens"] == [6, 6] and two["clans"] == ["K", "W"]
    four = oddsbot_cli("new", "kingdom-run", "-f", "json").json()
    assert four["players"] == 4 and four["tokens"] == [3, 3, 3, 3]
    one_line_refusal(oddsbot_cli("new", "kingdom-run", "--players", "5"), "--players")
    one_line_refusal(oddsbot_cli("new", "kingdom-run", "--players", "1"), "--players")
    # what new prints is a position every command takes
    ok = oddsbot_cli("advise", notation.out.strip(), "--top", "2")
    assert ok.code == 0, ok.err


@pytest.mark.parametrize("policy", POLICIES)
def test_new_play_each_policy(oddsbot_cli, policy):
    run = oddsbot_cli("new", "kingdom-run", "--players", "3", "--seed", "4", "--play",
                      policy)
    assert run.code == 0, run.err
    lines = run.out.rstrip("\n").splitlines()
    assert lines[0].startswith("start kingdom-run p3 K,W,F to=1 ")
    assert lines[-1].startswith("result p1:") and " winner p" in lines[-1]
    first_roll = parse(oddsbot_cli("new", "kingdom-run", "--players", "3", "--seed", "4",
                                   "-f", "notation").out.strip()).roll
    letters = "".join("SCBTZY"[f] for f in sorted(first_roll))
    assert lines[1].startswith(f"p1 | {letters} | ")  # new --seed S and --play S alike
    for line in lines[1:-1]:
        assert len(line.split(" | ")) == 5, line
    same = oddsbot_cli("new", "kingdom-run", "--players", "3", "--seed", "4", "--play",
                       policy)
    assert same.out == run.out
    # the record reads back and replays to its result line (replay's checks, without
    # the slow annotation)
    from oddsbot.analyser.kingdom_run.record import load_record
    _, steps = load_record(run.out)
    assert steps.over


def test_new_play_refuses_unknown_policy(oddsbot_cli):
    one_line_refusal(oddsbot_cli("new", "kingdom-run", "--play", "clever"), "clever")


# ------------------------------------------------------------------------ replay
def test_replay_the_example_record(oddsbot_cli):
    data = oddsbot_cli("replay", RECORD, "-f", "json").json()
    assert set(data) >= {"game", "start", "turns", "result", "ev_lost", "provenance"}
    body = [ln for ln in RECORD.read_text().splitlines() if ln and not ln.startswith("#")]
    assert len(data["turns"]) == 2 * (len(body) - 2)  # the re-roll and the actions a turn
    assert data["result"] == {"scores": [25, 25, 16, 31], "winners": [3]}
    assert data["position"] is None  # a finished record (common/test_record_positions.py)
    for row in data["turns"]:
        assert row["decision"] in ("re-roll", "actions")
        assert row["ev_lost"] is None or row["ev_lost"] >= -1e-9
    assert len(data["ev_lost"]) == 4


def test_replay_table_and_refusals(oddsbot_cli, tmp_path):
    lines = RECORD.read_text().splitlines()
    short = tmp_path / "short.record"
    short.write_text("\n".join(lines[:4]) + "\n")
    run = oddsbot_cli("replay", short)
    assert run.code == 0, run.err
    assert "record OK: 3 turns" in run.err and "p4 to move" in run.err
    start, first = lines[0], lines[1]

    def refused(name: str, body: str, *words: str) -> None:
        path = tmp_path / f"{name}.record"
        text = f"{start}\n{body}\n"
        path.write_text(text)
        before = path.read_bytes()
        one_line_refusal(oddsbot_cli("replay", path), "line 2", *words)
        assert path.read_bytes() == before

    refused("label", first.replace("steal p3", "steal p9"), "steal p9")
    refused("illegal", first.replace(" > copy:sleep W2", ""), "not a legal turn")
    refused("player", lines[2], "p1's turn")
    refused("keep", first.replace("keep steal,steal,sleepwake,copy", "keep steal,bath"),
            "keep steal,bath")
    refused("kept", first.replace("| TTZY | steal", "| SSSS | steal"), "kept dice")
    refused("roll", first.replace("p1 | TTZY", "p1 | TTQY"), "TTQY")
    refused("dice", first.replace("p1 | TTZY", "p1 | TTZYY"), "5 faces")
    wrong = tmp_path / "wrong.record"
    wrong.write_text("\n".join(lines[:-1] + ["result p1:25 p2:25 p3:16 p4:30 winner p1"])
                     + "\n")
    one_line_refusal(oddsbot_cli("replay", wrong), "result mismatch")


# ------------------------------------------------------------------------ --rule
def test_rule_on_advise_and_new(oddsbot_cli):
    plain = oddsbot_cli("advise", MID, "--top", "5", "-f", "json").json()
    exact = oddsbot_cli("advise", MID, "--top", "5", "--rule", "zone_mode=exact",
                        "-f", "json").json()
    assert plain["provenance"]["position"] + " rules=zone_mode:exact" == \
        exact["provenance"]["position"]
    assert exact["provenance"]["variant"] == "kingdom-run-exact-zones"
    assert [r["ev"] for r in plain["actions"]] != [r["ev"] for r in exact["actions"]]
    shown = oddsbot_cli("validate", MID, "--rule", "podium_values=8,7,6")
    assert shown.code == 0 and shown.out.strip().endswith("rules=podium_values:8,7,6")
    new = oddsbot_cli("new", "kingdom-run", "--players", "4", "--seed", "3", "--rule",
                      "dice=3", "--rule", "victory_tokens=6/4/5", "-f", "json").json()
    assert len(new["roll"]) == 3 and new["tokens"] == [5, 5, 5, 5]
    assert new["rules"] == {"dice": "3", "victory_tokens": "6/4/5"}
    one_line_refusal(oddsbot_cli("advise", MID, "--rule", "bogus=1"), "bogus")
    one_line_refusal(oddsbot_cli("new", "kingdom-run", "--rule", "bogus=1"), "bogus")
    one_line_refusal(oddsbot_cli("advise", MID, "--rule", "zone_mode=near"), "zone_mode")
    one_line_refusal(oddsbot_cli("advise", MID, "--rule", "zone_mode"), "NAME=VALUE")
    one_line_refusal(oddsbot_cli("advise", MID, "--rule", "zone_values=1,2,3"),
                     "zone_values")


# ------------------------------------------------------------------------ bad input
def _with(**changes) -> dict:
    pos = start_json()
    pos.update(changes)
    return pos


def _track(**spaces) -> dict:
    track = dict(start_json()["track"])
    track.update({k.removeprefix("s"): v for k, v in spaces.items()})
    return {k: v for k, v in track.items() if v}


BAD_JSON = {
    # name: (position, words its one line must hold)
    "five runners on a space": (
        _with(track=_track(s0=["K1", "W1", "F1", "G1", "K2"], s1=["W2", "F2", "G2"])),
        ("track", "5 runners")),
    "a clan all asleep, none crossed": (
        _with(asleep=["K1", "K2", "K3", "K4"]), ("asleep", "K")),
    "more tokens than exist": (_with(tokens=[7, 6]), ("tokens", "13")),
    "a Copy copying a Copy": (
        _with(roll=["scatter", "catchup", "copy", "copy"], rerolled=True,
              used=["copy:copy"]), ("used[0]", "Copy")),
    "a copy before the real die": (
        _with(roll=["scatter", "catchup", "copy", "copy"], rerolled=True,
              used=["copy:catchup"]), ("used[0]", "copy:catchup")),
    "five players": (_with(players=5), ("players",)),
    "a runner missing": (
        _with(track=_track(s3=["W4", "F4", "G4"])), ("K4",)),
    "an unknown key": (_with(speed=3), ("speed",)),
    "a roll of three dice": (_with(roll=["scatter", "bath", "copy"]), ("roll",)),
    "a face that is not one": (_with(roll=["scatter", "bath", "copy", "move"]),
                               ("move",)),
    "an unknown rule": (_with(rules={"bogus": "1"}), ("bogus",)),
}


@pytest.mark.parametrize("name", list(BAD_JSON))
def test_impossible_positions_are_refused_in_one_line(oddsbot_cli, tmp_path, name):
    pos, words = BAD_JSON[name]
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(pos, indent=2))
    before = path.read_bytes()
    for command in ("validate", "advise", "odds", "moves"):
        one_line_refusal(oddsbot_cli(command, path), *words)
    assert path.read_bytes() == before


def test_bad_notation_and_options_in_one_line(oddsbot_cli, tmp_path):
    path = tmp_path / "start.txt"
    path.write_text(START + "\n")
    before = path.read_bytes()
    one_line_refusal(oddsbot_cli("advise", path, "--roll", "SCBQ"), "--roll", "'Q'")
    one_line_refusal(oddsbot_cli("advise", path, "--roll", "SCBYY"), "--roll", "5 faces")
    one_line_refusal(oddsbot_cli("advise", path, "--roll", "scatter,move,bath,copy"),
                     "--roll", "move")
    one_line_refusal(oddsbot_cli("advise", path, "--rule", "no_such=1"), "no_such")
    one_line_refusal(oddsbot_cli("advise", path, "--rule", "capacity=9", "--roll", "SCBY"),
                     "capacity")
    assert path.read_bytes() == before
    over = tmp_path / "over.txt"
    over.write_text(OVER)
    one_line_refusal(oddsbot_cli("advise", over, "--roll", "SCBY"), "the game is over")
    one_line_refusal(oddsbot_cli("advise", over), "the game is over")
    assert over.read_text() == OVER
    one_line_refusal(oddsbot_cli("validate", START.replace("t=0:K1,", "t=0:X9,")), "X9")
    one_line_refusal(oddsbot_cli("validate", START.replace("p2 K,W", "p2 K,K")), "clans")


# ------------------------------------------------------------------------ a real terminal
def test_advise_on_an_80_column_terminal():
    from terminal import in_terminal

    code, screen = in_terminal(["advise", str(MID), "--top", "8"], 80)
    assert code == 0 and "Traceback" not in screen, screen[-3000:]
    assert "scatter" in screen and "p1 (K) to move" in screen
    assert not [ln for ln in screen.splitlines() if "│" in ln and "…" in ln], screen
    widths = [len(ln) for ln in screen.replace("\r", "").splitlines() if "│" in ln]
    assert widths and max(widths) <= 80


def test_replay_table_fits_80_columns(oddsbot_cli, tmp_path):
    """As ``tests/common/test_terminal.py`` asks of every table (a short record: the
    replay annotation is slow)."""
    from terminal import in_terminal

    short = tmp_path / "short.record"
    short.write_text("\n".join(RECORD.read_text().splitlines()[:4]) + "\n")
    piped = oddsbot_cli("replay", short)
    assert piped.code == 0, piped.err
    code, screen = in_terminal(["replay", str(short)], 80)
    assert code == 0
    assert not [ln for ln in screen.splitlines() if "│" in ln and "…" in ln]
    assert max(len(ln) for ln in piped.out.splitlines()) <= 80
