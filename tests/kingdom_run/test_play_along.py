"""Kingdom Run's play-along face (docs/games/kingdom-run.md §17): whole games walked
through ``apply`` only (roll, keep-set, sequence) give the record replay's positions and
the record byte for byte; the chances of the dice by hand; a record may end in a turn
under way; ``advise`` at ``roll=-`` offers ``roll``; bad input refused in one line."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from checks import assert_bad_input, ok
from oddsbot.analyser.kingdom_run import face
from oddsbot.analyser.kingdom_run.record import load_record
from oddsbot.errors import OddsbotError

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.txt"))
PLAYED = [(2, 11, "kingdom-run", "heuristic"), (3, 12, "kingdom-run-exact-zones", "random"),
          (4, 13, "kingdom-run-linear-podium", "greedy")]
RECORDS = ([path.read_text() for path in GOLDEN]
           + [(ROOT / "examples/kingdom-run-game-4p.record").read_text()]
           + [face.play(*args) for args in PLAYED])
CORE = ["action", "ev", "se", "method", "gap"]


def replayed(text: str) -> list[str]:
    """The notation of every position the record replay passes: each turn's start, after
    its roll, after its keep-set, after its sequence."""
    _, steps = load_record(text)
    out = [steps[0][0].to_notation()]
    for before, turn in steps:
        if before.roll is None:
            out.append(turn.keep_at.to_notation())
        if turn.keep_at is not None:
            out.append(turn.act_at.to_notation())
        out.append(turn.after.to_notation())
    return out


@pytest.mark.parametrize("text", RECORDS, ids=[p.stem for p in GOLDEN] + ["example"] +
                         ["-".join(map(str, args)) for args in PLAYED])
def test_whole_games_walk_through_apply(text):
    start, moves = face.record_moves(text)
    pos, seen = start, [start.to_notation()]
    for action, outcome in moves:
        chances = dict(face.outcomes(pos, action))
        assert (outcome is None) == (not chances), (action, outcome)
        assert outcome is None or chances[outcome] > 0
        assert not chances or abs(sum(chances.values()) - 1) < 1e-12
        pos = face.apply(pos, action, outcome)
        seen.append(pos.to_notation())
    assert seen == replayed(text)
    assert face.record_text(start, moves) == text


def test_the_chances_of_the_dice_by_hand():
    start = face.parse((ROOT / "examples/kingdom-run-roll-4p.json").read_text())
    unrolled = start.with_(roll=None)
    dice = dict(face.outcomes(unrolled, "roll"))
    assert len(dice) == 126  # 4 dice of 6 faces: multisets of 4 out of 6
    assert dice["SSSS"] == pytest.approx(1 / 1296) and dice["SCBT"] == pytest.approx(24 / 1296)
    assert dice["SSCC"] == pytest.approx(6 / 1296)
    # TTZY, keeping three dice: the fourth die re-rolled, each face 1/6
    kept = dict(face.outcomes(start, "keep steal,steal,sleepwake"))
    assert list(kept) == ["STTZ", "CTTZ", "BTTZ", "TTTZ", "TTZZ", "TTZY"]
    assert all(p == pytest.approx(1 / 6) for p in kept.values())
    assert face.outcomes(start, "keep steal,steal,sleepwake,copy") == []  # nothing re-rolled
    # a die of three faces, two of them Scatter: the chance of a face is its share
    lopsided = face.with_rules(unrolled, {"die_faces": "scatter,scatter,bath", "dice": "2"})
    two = {k: Fraction(p).limit_denominator(100) for k, p in
           face.outcomes(lopsided, "roll")}
    assert two == {"SS": Fraction(4, 9), "SB": Fraction(4, 9), "BB": Fraction(1, 9)}


def test_a_turn_step_by_step_and_a_record_cut_within_it(oddsbot_cli, tmp_path):
    start = face.new_position(2, 5)  # p1 has rolled, not re-rolled
    keep = face.legal_actions(start)[0]
    final = face.outcomes(start, keep)[-1][0] if face.outcomes(start, keep) else None
    acting = face.apply(start, keep, final)
    assert acting.rerolled and face.outcomes(acting, face.legal_actions(acting)[0]) == []
    cut = face.record_text(start, [(keep, final)])
    assert cut.splitlines()[1] == f"p1 | {face.record.roll_text(start.roll)} | {keep} | " \
                                  f"{final or face.record.roll_text(start.roll)}"
    assert face.record_moves(cut) == (start, [(keep, final)])
    path = tmp_path / "cut.record"
    path.write_text(cut)
    assert "p1 to move" in ok(oddsbot_cli("replay", path, "--position")).err
    assert ok(oddsbot_cli("replay", path, "--position")).out == acting.to_notation() + "\n"
    sequence = face.legal_actions(acting)[0]
    after = face.apply(acting, sequence)
    assert after.roll is None and after.to_move == 1 and face.player_name(after, 1) == "2"
    rolled = face.apply(after, "roll", "scatter,catchup,bath,copy")
    assert face.record.roll_text(rolled.roll) == "SCBY" and not rolled.rerolled
    text = face.record_text(start, [(keep, final), (sequence, None), ("roll", "SCBY")])
    assert text.splitlines()[-1] == "p2 | SCBY"
    assert face.record_moves(text)[1][-1] == ("roll", "SCBY")
    path.write_text(text + "p1 | SCBY\n")
    assert_bad_input(oddsbot_cli("replay", path), "line 3", "turn under way", "last line")


@pytest.mark.parametrize("phase, action, outcome, words", [
    ("roll", "keep scatter", None, ["no roll yet", "'roll'", "'keep scatter'"]),
    ("roll", "roll", None, ["outcome", "'roll' rolls dice", "e.g. SSSS"]),
    ("roll", "roll", "SCB", ["outcome", "'SCB'", "not a roll", "SSSS"]),
    ("keep", "keep scatter,scatter", "SSCC", ["'keep scatter,scatter'", "not a keep-set",
                                               "roll TTZY", "moves"]),
    ("keep", "keep steal,steal,sleepwake", "SSZY", ["'SSZY'", "not a roll"]),
    ("keep", "keep steal,steal,sleepwake,copy", "TTZY", ["no chance outcome", "'TTZY'"]),
    ("act", "no such action", None, ["action", "'no such action'"]),
])
def test_bad_moves_are_refused_in_one_line(phase, action, outcome, words):
    start = face.parse((ROOT / "examples/kingdom-run-roll-4p.json").read_text())
    pos = {"roll": start.with_(roll=None), "keep": start,
           "act": face.apply(start, "keep steal,steal,sleepwake,copy")}[phase]
    with pytest.raises(OddsbotError) as caught:
        face.apply(pos, action, outcome)
    message = str(caught.value)
    assert "\n" not in message and all(w in message for w in words), message


def test_advise_offers_roll_before_the_dice_and_every_row_carries_se(oddsbot_cli):
    unrolled = face.parse((ROOT / "examples/kingdom-run-roll-4p.json").read_text()
                          ).with_(roll=None).to_notation()
    table = ok(oddsbot_cli("advise", unrolled))
    assert "roll" in table.out and "no roll yet" in table.out
    assert max(len(line) for line in table.out.splitlines()) <= 80
    data = json.loads(ok(oddsbot_cli("advise", unrolled, "-f", "json")).out)
    assert [list(r.items()) for r in data["actions"]] == [
        [("action", "roll"), ("ev", data["actions"][0]["ev"]), ("se", None),
         ("method", "before-roll"), ("gap", 0.0)]]
    for where in ("kingdom-run-roll-4p.json", "kingdom-run-mid-4p.json"):
        for top in ((), ("--top", "3")):
            rows = json.loads(ok(oddsbot_cli("advise", ROOT / "examples" / where, *top,
                                             "-f", "json")).out)["actions"]
            assert rows and all(list(row)[:5] == CORE for row in rows), rows[0]
    assert_bad_input(oddsbot_cli("moves", unrolled), "no roll yet", "'roll'")
