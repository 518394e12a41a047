"""Mumia through the ``oddsbot`` command: positions in both forms, bad input (one line,
exit 2, the file untouched), ``--rule`` and ``oddsbot rules``, advise with and without a
roll, odds, new, replay; and that what the mover cannot see changes nothing (§15)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oddsbot.analyser.mumia.face import advise, odds, parse

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MID = EXAMPLES / "mumia-mid-4p.json"
END = EXAMPLES / "mumia-endgame.json"
BASE = "mumia 2p A | S:AAABBBM -1 -2 c:g +8:g F | A:- B:- | mummy 4,3,2,1 taken -"


def one_line_refusal(run, *words: str) -> None:
    assert run.exc is None, run.tb
    assert (run.code, run.out) == (2, ""), (run.code, run.out, run.err)
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("oddsbot: error: "), run.err
    for word in words:
        assert word in lines[0], (word, lines[0])


BAD = [
    # a pawn on a removed tile: the track lists only the tiles still on it, so a field
    # index past them does not exist (a hat's field here)
    ("mumia 2p A e2 | S:AAABBBM -1 F | A:- B:- | mummy 4,3,2,1 taken - | hats luck A@5 "
     "bad B@0", "hats luck"),  # the notation's words (hats.luck in JSON)
    (BASE.replace("A:- B:-", "A:+8 B:-"), "collected A", "+8"),     # also on the track
    (BASE.replace("mummy 4,3,2,1", "mummy 5,4,3,2,1"), "mummy:", "5 tokens"),  # a fifth
    (BASE.replace("-2 c:g", "-2 x c:g"), "exchange", "e1"),           # E1 piece, E1 off
    (BASE.replace("-2 c:g", "-2 r5 c:g"), "risk", "e3"),
    (BASE + " | hats luck A@0 bad B@0", "hats"),
    (BASE.replace("S:AAABBBM", "S:AABBBM"), "seat A", "3 pawns", "(2 on S:)"),
    (BASE.replace("S:AAABBBM", "S:AAABBB"), "mummy"),
    (BASE.replace("mumia 2p A", "mumia 2p C"), "seat to move"),
    (BASE.replace("+8:g", "+8:gggggggggg"), "guardians"),
]


@pytest.mark.parametrize("case", BAD, ids=[c[1] for c in BAD])
def test_impossible_positions_are_refused_in_one_line(oddsbot_cli, tmp_path, case):
    text, *words = case
    path = tmp_path / "pos.txt"
    path.write_text(text)
    for command in ("validate", "advise", "odds"):
        one_line_refusal(oddsbot_cli(command, path), *words)
    assert path.read_text() == text


def test_bad_options_are_refused_in_one_line(oddsbot_cli):
    one_line_refusal(oddsbot_cli("advise", END, "--rule", "no_such=1"), "--rule", "no_such")
    one_line_refusal(oddsbot_cli("advise", END, "--rule", "sudden_end=maybe"),
                     "sudden_end", "true or false")
    one_line_refusal(oddsbot_cli("advise", END, "--rule", "sudden_end"), "NAME=VALUE")
    one_line_refusal(oddsbot_cli("advise", END, "--roll", "3,PM"), "--roll", "mummy has left")
    one_line_refusal(oddsbot_cli("advise", MID, "--roll", "3"), "--roll", "picture die")
    one_line_refusal(oddsbot_cli("advise", MID, "--roll", "7,P"), "--roll", "1 to 6")
    one_line_refusal(oddsbot_cli("new", "mumia", "--expansions", "e5"), "--expansions")
    one_line_refusal(oddsbot_cli("new", "camel-up", "--rule", "sudden_end=true"),
                     "camel-up has no rule parameters")
    one_line_refusal(oddsbot_cli("new", "camel-up", "--expansions", "e1"), "--expansions")
    one_line_refusal(oddsbot_cli("advise", "examples/camel-up-mid-leg.json", "--roll", "3"),
                     "--roll")


def test_rules_command_lists_every_parameter(oddsbot_cli):
    run = oddsbot_cli("rules", "mumia", "-f", "json")
    rules = run.json()["rules"]
    assert [r["name"] for r in rules][:3] == ["picture_faces", "tile_values", "first_layout"]
    assert {r["name"]: r["default"] for r in rules}["sudden_end"] == "false"
    table = oddsbot_cli("rules", "thats-life")
    assert table.code == 0 and "tokens_per_pass" in table.out
    other = oddsbot_cli("rules", "camel-up")
    assert other.code == 0 and "no rule parameters" in other.err


def test_a_rule_changes_the_answer(oddsbot_cli):
    """--rule on advise: the same position under sudden_end scores differently, and
    validate prints the rule in the notation."""
    plain = oddsbot_cli("advise", END, "--roll", "3", "-f", "json").json()
    sudden = oddsbot_cli("advise", END, "--roll", "3", "--rule", "sudden_end=true",
                         "-f", "json").json()
    assert plain["provenance"]["rules"] == {} and sudden["provenance"]["rules"] == {
        "sudden_end": "true"}
    assert [a["ev"] for a in plain["actions"]] != [a["ev"] for a in sudden["actions"]]
    shown = oddsbot_cli("validate", END, "--rule", "hat_values=5,-5")
    assert shown.code == 0 and shown.out.strip().endswith("rules hat_values=5,-5")


def test_position_forms_round_trip(oddsbot_cli):
    run = oddsbot_cli("validate", MID)
    notation = run.out.strip()
    again = oddsbot_cli("validate", notation, "-f", "json").json()
    assert parse(json.dumps(again)) == parse(MID.read_text()) == parse(notation)


def test_advise_every_roll_and_one_roll(oddsbot_cli):
    one = oddsbot_cli("advise", END, "--roll", "3", "-f", "json").json()
    every = oddsbot_cli("advise", END, "-f", "json").json()
    assert one["provenance"]["method"] == every["provenance"]["method"] == "exact"
    rows3 = {a["action"].removeprefix("3 "): a["ev"] for a in every["actions"]
             if a["roll"] == "3"}
    assert rows3 == {a["action"]: a["ev"] for a in one["actions"]}
    value = every["provenance"]["value_before_roll"]
    best = {}
    for a in every["actions"]:
        best[a["roll"]] = max(best.get(a["roll"], -1e9), a["ev"])
    assert value["ev"] == pytest.approx(sum(best.values()) / 6, abs=1e-12)


def test_moves_and_new_and_play(oddsbot_cli):
    moves = oddsbot_cli("moves", MID, "-f", "json").json()
    assert moves["counts"]["rolls"] == 18 and "4,PM mummy" in moves["moves"]
    new = oddsbot_cli("new", "mumia", "--players", "3", "--seed", "5", "--expansions",
                      "e2,e4", "-f", "notation")
    assert new.code == 0 and new.out.startswith("mumia 3p A e2,e4 ")
    record = oddsbot_cli("new", "thats-life", "--players", "2", "--seed", "5", "--play",
                         "random")
    assert record.code == 0 and record.out.startswith("start mumia 2p A")
    assert record.out.rstrip().splitlines()[-1].startswith("result ")


def test_replay_checks_and_annotates(oddsbot_cli, tmp_path):
    text = (Path(__file__).parent / "golden" / "mumia-sudden-2p-seed3.txt").read_text()
    lines = text.splitlines()
    short = tmp_path / "short.record"
    short.write_text("\n".join(lines[:6]) + "\n")
    run = oddsbot_cli("replay", short, "--samples", "20", "-f", "json")
    turns = run.json()["turns"]
    assert len(turns) == 5 and all(t["ev_lost"] >= 0 for t in turns)
    bad = tmp_path / "bad.record"
    seat, roll, _ = lines[3].split(" ", 2)
    bad.write_text("\n".join(lines[:3] + [f"{seat} {roll} pawn 9"]) + "\n")
    one_line_refusal(oddsbot_cli("replay", bad), "line 4", "pawn 9")
    wrong = tmp_path / "wrong.record"
    wrong.write_text("\n".join(lines[:-1] + ["result A:0 B:0 winner A,B"]) + "\n")
    one_line_refusal(oddsbot_cli("replay", wrong, "--samples", "4"), "result mismatch")


HIDDEN = ("mumia 3p A e4 | S:AAABBBCCCM -1 -2 -3 c:g +8:g -4 F | A:- B:- C:- | "
          "mummy 4,3,2,1 taken - | tokens A:swap B:{b} C:{c} pile {pile}")


def test_what_the_mover_cannot_see_changes_nothing():
    """Two positions alike in everything the mover sees (its own token), but one with
    every other token shown in one arrangement and one in another, give the same table
    and odds once those tokens are hidden: the analysis reads only the '?'."""
    seen = [HIDDEN.format(b="push", c="extra,bottom", pile="extra,extra,swap,swap,push,"
                          "bottom"),
            HIDDEN.format(b="extra", c="swap,push", pile="bottom,push,extra,bottom,swap,"
                          "extra")]
    hidden = [parse(t).with_(hands=(("swap",), ("?",), ("?", "?")), pile=("?",) * 6)
              for t in seen]
    assert hidden[0] == hidden[1]
    for pos in hidden:
        assert advise(pos, samples=40, seed=3, roll="2,P").rows == \
            advise(hidden[0], samples=40, seed=3, roll="2,P").rows
    full = [advise(parse(t), samples=40, seed=3, roll="2,P") for t in seen]
    assert full[0].rows != full[1].rows  # what was hidden does matter when shown...
    # ...and the hidden deal follows the model: every unseen arrangement alike
    assert odds(hidden[0], samples=200, seed=1)["players"] == odds(
        hidden[1], samples=200, seed=1)["players"]


def test_rule_on_chart_replay_and_report(oddsbot_cli, tmp_path):
    """--rule on the commands that do not read a position's notation directly: the chart
    is of the position under the rule, a record is replayed under it (sudden_end ends the
    golden base game early: its next line is refused), and a report's run folder records
    it and plays every game by it; a bad value writes nothing."""
    chart = oddsbot_cli("chart", END, "--out", tmp_path / "c.png", "--rule",
                        "sudden_end=true")
    assert chart.code == 0 and "rules sudden_end=true" in chart.err
    assert (tmp_path / "c.png").stat().st_size > 0
    golden = Path(__file__).parent / "golden" / "mumia-4p-seed1.txt"
    plain = oddsbot_cli("replay", golden, "--samples", "2", "-f", "json", "--rule",
                        "hat_values=7,-7")
    assert plain.code == 0, plain.err  # no hats in the base game: the record stands
    one_line_refusal(oddsbot_cli("replay", golden, "--rule", "sudden_end=true"),
                     "the game is already over")
    one_line_refusal(oddsbot_cli("replay", golden, "--rule", "sudden_end=sometimes"),
                     "sudden_end")
    out = tmp_path / "report"
    run = oddsbot_cli("report", "mumia", "--games", "40", "--out", out, "--rule",
                      "sudden_end=true")
    assert run.code == 0, run.err
    spec = json.loads((out / "run.json").read_text())["spec"]
    assert spec["rules"] == [["sudden_end", "true"]]
    assert "sudden_end=true" in (out / "report.md").read_text()
    bad = tmp_path / "bad"
    one_line_refusal(oddsbot_cli("report", "mumia", "--games", "40", "--out", bad,
                                 "--rule", "tiebreak=coin"), "tiebreak")
    assert not bad.exists()
    one_line_refusal(oddsbot_cli("report", "--resume", out, "--rule", "sudden_end=false"),
                     "--rule")


@pytest.mark.parametrize("words, letters", [("pawn", "P"), ("Pyramid", "P"), ("mummy", "M"),
                                            ("both", "PM"), ("pyramid+mummy", "PM")])
def test_the_picture_die_in_words(oddsbot_cli, words, letters):
    """The picture die's symbol as its picture reads (docs/games/mumia.md §16.1) gives the
    same table as its letter."""
    said = oddsbot_cli("advise", MID, "--roll", f"4,{words}", "--samples", "64", "-f", "json")
    lettered = oddsbot_cli("advise", MID, "--roll", f"4,{letters}", "--samples", "64",
                           "-f", "json")
    assert said.code == 0 and said.out == lettered.out


def test_a_picture_the_die_does_not_show(oddsbot_cli):
    one_line_refusal(oddsbot_cli("advise", MID, "--roll", "4,camel"), "roll", "P (a pawn)",
                     "M (the mummy)", "PM (both)")
