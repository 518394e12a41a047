"""Play-along (``Capability.PLAY``, docs/games/camel-up.md §15): whole games walked through
``apply`` only rebuild their records byte for byte, every step reaching the position the
record replay reaches, every die among ``outcomes`` with its probability; the pyramid's
probabilities by hand; bad input refused in one line; the advise JSON's core columns."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from oddsbot.analyser.camel_up import face as cu
from oddsbot.analyser.camel_up import record as rec
from oddsbot.errors import OddsbotError

GOLDEN = Path(__file__).parent / "golden"
GAMES = [(4, 1, "camel-up", "heuristic"), (3, 5, "camel-up", "random"),
         (6, 2, "camel-up", "greedy"), (8, 4, "camel-up", "random"),
         (3, 3, "camel-up-2014", "random"), (5, 6, "camel-up-2014", "heuristic")]


def walk(text: str) -> None:
    """Walk the record ``text`` through ``apply`` from its start (module doc)."""
    start, moves = cu.record_moves(text)
    _, steps = rec.load_record(text)
    assert len(steps) == len(moves)
    pos = start
    for (before, turn), (action, outcome) in zip(steps, moves):
        assert pos.to_notation() == before.to_notation()
        assert (action, outcome) == (turn.action, turn.roll)
        listed = dict(cu.outcomes(pos, action))
        assert (outcome is None) == (not listed)
        if outcome is not None:
            assert listed[outcome] == pytest.approx(
                1 / len(pos.pyramid) / (6 if outcome.startswith("grey") else 3))
        pos = cu.apply(pos, action, outcome)
    assert pos.status == ("over" if steps.over else "running")
    assert cu.record_text(start, moves) == text


@pytest.mark.parametrize("players, seed, variant, policy", GAMES)
def test_played_games_walk_through_apply(players, seed, variant, policy):
    walk(cu.play(players, seed, variant, policy))


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.txt")), ids=lambda p: p.name)
def test_golden_records_walk_through_apply(path):
    walk(path.read_text())


def test_part_of_a_game_reads_back():
    start, moves = cu.record_moves(cu.play(4, 1, "camel-up", "random"))
    text = cu.record_text(start, moves[:7])
    lines = text.splitlines()
    assert len(lines) == 8 and lines[-1].startswith("   7 p")  # no result line
    assert cu.record_moves(text) == (start, moves[:7])


def to_two_dice(variant: str) -> cu.Position:
    """A new position with its pyramid's dice revealed (by ``apply``) down to two."""
    pos = cu.new_position(4, 0, variant)
    while len(pos.pyramid) > 2:
        pos = cu.apply(pos, "pyramid", cu.outcomes(pos, "pyramid")[0][0])
    return pos


def test_pyramid_probabilities_by_hand():
    # 2014: two racing dice left: each die 1/2, each face 1/3: six outcomes of 1/6
    pos = to_two_dice("camel-up-2014")
    listed = cu.outcomes(pos, "pyramid")
    assert len(listed) == 6 and all(p == pytest.approx(1 / 6) for _, p in listed)
    assert {name.split()[0] for name, _ in listed} == set(pos.pyramid)
    # 2nd edition: a racing die (1/2 x 1/3 a face) and the grey die (1/2 x 1/6 a face)
    pos = to_two_dice("camel-up")
    assert "grey" in pos.pyramid
    listed = dict(cu.outcomes(pos, "pyramid"))
    racing = next(d for d in pos.pyramid if d != "grey")
    assert [listed[f"{racing} {k}"] for k in (1, 2, 3)] == [pytest.approx(1 / 6)] * 3
    assert [listed[f"grey {c} {k}"] for c in ("white", "black") for k in (1, 2, 3)] == \
        [pytest.approx(1 / 12)] * 6
    assert sum(map(Fraction, listed.values())) == pytest.approx(1)
    # a full 2nd-edition pyramid: 5 racing dice and the grey one, 21 outcomes
    start = cu.new_position(4, 0, "camel-up")
    assert len(cu.outcomes(start, "pyramid")) == 21
    assert cu.outcomes(start, "ticket blue") == []


def test_apply_runs_the_rules():
    pos = cu.new_position(4, 0, "camel-up")
    after = cu.apply(pos, "ticket blue")
    assert after.to_move == 1 and after.leg_tickets[0] == (("blue", 5),)
    after = cu.apply(pos, "pyramid", "G 2")  # the record's spellings are read too
    assert after.pyramid_tickets[0] == 1 and "green" not in after.pyramid
    assert after.camel_space("green") == pos.camel_space("green") + 2


@pytest.mark.parametrize("action, outcome, words", [
    ("pyramid", None, "outcome: 'pyramid' needs its chance outcome (blue 1|2|3"),
    ("pyramid", "pink 2", "outcome: 'pink 2' is not an outcome of 'pyramid' here ("),
    ("pyramid", "blue 4", "outcome: 'blue 4' is not an outcome of 'pyramid' here ("),
    ("ticket blue", "blue 2", "outcome: 'ticket blue' has no chance outcome, got 'blue 2'"),
    ("jump", None, "action: 'jump' is not legal for player 0 here (legal: ticket "),
    ("spectator 1 cheer", None, "action: 'spectator 1 cheer' is not legal for player 0"),
])
def test_bad_input_is_one_line(action, outcome, words):
    with pytest.raises(OddsbotError) as caught:
        cu.apply(cu.new_position(4, 0, "camel-up"), action, outcome)
    message = str(caught.value)
    assert message.startswith(words) and "\n" not in message and len(message) < 300


def test_a_pyramid_die_no_longer_inside_is_refused():
    pos = cu.apply(cu.new_position(4, 0, "camel-up"), "pyramid", "green 1")
    with pytest.raises(OddsbotError, match="'green 1' is not an outcome of 'pyramid'"):
        cu.apply(pos, "pyramid", "green 1")


def test_record_text_refuses_bad_moves_and_hidden_cards():
    pos = cu.new_position(4, 0, "camel-up")
    with pytest.raises(OddsbotError, match=r"^move 2: action: 'ticket pink'"):
        cu.record_text(pos, [("ticket blue", None), ("ticket pink", None)])
    hidden = pos.with_(finish_hand=pos.finish_hand[:3] + (None,))
    with pytest.raises(OddsbotError, match="every finish card's colour"):
        cu.record_text(hidden, [])


def test_hidden_cards_stay_hidden():
    """A seat whose finish cards the position hides keeps them hidden after any action;
    nothing is guessed (docs/games/camel-up.md §15)."""
    pos = cu.apply(cu.new_position(3, 0, "camel-up"), "winner blue")  # seat 0's card
    seen = pos.with_(winner_deck=(cu.Card(0, None),), finish_hand=(None,)
                     + pos.finish_hand[1:])  # seat 1 to move does not know its colour
    after = cu.apply(seen, "loser red")
    assert after.winner_deck == (cu.Card(0, None),) and after.finish_hand[0] is None
    assert after.loser_deck == (cu.Card(1, "red"),)
    # seat 0 is to move only as a seat knowing its own hand (§13): refused in one line
    assert after.to_move == 2
    with pytest.raises(OddsbotError, match="the player to move knows their own card"):
        cu.apply(cu.apply(after, "ticket blue"), "ticket blue")


def test_player_name_and_the_lines_that_use_it(oddsbot_cli, tmp_path):
    pos = cu.new_position(4, 0, "camel-up")
    assert [cu.player_name(pos, s) for s in range(4)] == ["0", "1", "2", "3"]
    record = tmp_path / "part.record"
    start, moves = cu.record_moves(cu.play(4, 1, "camel-up", "random"))
    record.write_text(cu.record_text(start, moves[:6]))
    run = oddsbot_cli("replay", record, "--samples", "500")
    assert run.code == 0 and "game not over: p2 to move" in run.out + run.err


@pytest.mark.parametrize("example", ["camel-up-mid-leg.json", "camel-up-2014.json"])
def test_advise_json_rows_carry_the_core_columns(oddsbot_cli, example):
    path = Path(__file__).resolve().parents[2] / "examples" / example
    rows = oddsbot_cli("advise", path, "-f", "json", "--samples", "500").json()["actions"]
    assert rows and all(list(row)[:5] == ["action", "ev", "se", "method", "gap"]
                        for row in rows)
    assert all(row["se"] == 0 for row in rows if row["method"] == "exact")
