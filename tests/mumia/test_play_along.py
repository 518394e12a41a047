"""Mumia's play-along face (docs/games/mumia.md §17): whole games walked through ``apply``
only give the record replay's positions and the record byte for byte; the roll is in the
action, so nothing has an outcome; bad input is refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checks import assert_bad_input, ok
from oddsbot.analyser.mumia import face
from oddsbot.analyser.mumia.encode import decode, encode
from oddsbot.analyser.mumia.record import load_record
from oddsbot.errors import OddsbotError

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.txt"))
PLAYED = [(4, 1, "mumia", "heuristic"), (6, 5, "mumia-e1", "greedy"),
          (3, 2, "mumia-e2", "random"), (3, 4, "mumia-e3", "heuristic"),
          (2, 3, "mumia-sudden", "heuristic"), (5, 6, "mumia", "random")]
RECORDS = [path.read_text() for path in GOLDEN] + [face.play(*args) for args in PLAYED]
CORE = ["action", "ev", "se", "method", "gap"]


def as_mover_sees(pos):
    """``pos`` (every token shown) as its mover sees it (§15), as the replay gives it."""
    enc = encode(pos)
    return decode(enc.S, enc.R, pos.rules, pos.expansions, viewer=pos.to_move,
                  taken_by=pos.mummy_taken)


def walk(text: str) -> tuple[int, str | None]:
    """Walk ``text``'s steps through ``apply`` against the replay; (steps walked, the
    refusal that stopped the walk, if any)."""
    start, moves = face.record_moves(text)
    _, steps = load_record(text)
    assert len(moves) == len(steps)
    pos = start
    for i, ((before, turn), (action, outcome)) in enumerate(zip(steps, moves)):
        assert as_mover_sees(pos).to_notation() == before.to_notation(), i
        assert action == f"{turn.line.roll} {turn.line.label}" and outcome is None
        try:
            assert face.outcomes(pos, action) == []
        except OddsbotError as exc:
            return i, str(exc)
        pos = face.apply(pos, action)
        if i + 1 < len(moves):  # (the last, once over, may not be a position to play on)
            face.validate(pos)
    if steps.over:
        assert face.record_text(start, moves) == text
    else:
        assert pos.to_notation() == steps.final.to_notation()
    return len(moves), None


@pytest.mark.parametrize("text", RECORDS, ids=[p.stem for p in GOLDEN] +
                         ["-".join(map(str, args)) for args in PLAYED])
def test_whole_games_walk_through_apply(text):
    walked, refused = walk(text)
    if "e4" not in text.splitlines()[0].split("|")[0]:
        assert refused is None
        assert face.record_text(*face.record_moves(text)) == text
        return
    # with the action tokens, a step that carries the turn on (+ token extra, token swap,
    # token bottom) is refused: the walk stops there, its record so far read back alike
    assert refused is not None and "carries the turn on" in refused, refused
    start, moves = face.record_moves(text)
    head = face.record_text(start, moves[:walked])
    assert head == "".join(text.splitlines(keepends=True)[:walked + 1])
    assert "\n" not in refused and "whole turns" in refused


def test_the_roll_is_in_the_action():
    start = face.new_position(3, 2, "mumia")
    assert face.outcomes(start, "3,P pawn 1") == []
    after = face.apply(start, "3,P pawn 1")
    assert after.to_move == 1 and after.track[3].pawns == (0,)
    assert face.player_name(after, after.to_move) == "B"
    record = face.record_text(start, [("3,P pawn 1", None), ("4,M mummy", None)])
    assert record.splitlines()[1:] == ["A 3,P pawn 1", "B 4,M mummy"]
    assert face.record_moves(record) == (start, [("3,P pawn 1", None), ("4,M mummy", None)])


@pytest.mark.parametrize("action, outcome, words", [
    ("pawn 1", None, ["'pawn 1'", "<roll> <choice>", "4,PM pawn 2"]),
    ("3,P mummy", None, ["'mummy'", "not a legal choice", "roll 3,P", "legal: pawn 1"]),
    ("7,P pawn 1", None, ["roll '7,P'", "1 to 6"]),
    ("3,P pawn 1", "3", ["outcome", "no chance outcome", "'3'"]),
])
def test_bad_steps_are_refused_in_one_line(action, outcome, words):
    start = face.new_position(3, 2, "mumia")
    with pytest.raises(OddsbotError) as caught:
        face.apply(start, action, outcome)
    message = str(caught.value)
    assert "\n" not in message and all(w in message for w in words), message


def test_hidden_tokens_and_a_finished_game_are_refused():
    hidden = face.new_position(4, 7, "mumia-e4")
    assert "?" in hidden.to_notation()
    with pytest.raises(OddsbotError, match=r"hides action tokens \('\?'\).*start line"):
        face.apply(hidden, face.legal_actions(hidden)[0])
    start, moves = face.record_moves(face.play(2, 3, "mumia", "random"))
    pos = start
    for action, _ in moves:
        pos = face.apply(pos, action)
    with pytest.raises(OddsbotError, match="the game is over"):
        face.outcomes(pos, "3 pawn 1")


def test_every_advise_row_starts_with_the_core_columns(oddsbot_cli, tmp_path):
    path = tmp_path / "game.record"
    path.write_text(face.record_text(face.new_position(4, 0, "mumia"), [("3,P pawn 1", None)]))
    for args in (("--roll", "3"), ("--samples", "20"), ()):
        where = ROOT / "examples/mumia-endgame.json" if args[:1] == ("--roll",) else path
        rows = json.loads(ok(oddsbot_cli("advise", where, *args, "-f", "json")).out)["actions"]
        assert rows and all(list(row)[:5] == CORE for row in rows), rows[0]
    assert_bad_input(oddsbot_cli("advise", path, "--roll", "9"), "--roll", "1 to 6")
