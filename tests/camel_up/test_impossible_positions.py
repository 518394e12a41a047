"""Positions that cannot arise in a game are refused in one line; legal ones never are
(docs/games/camel-up.md §13.4: the turns of the leg against the leg-start seat)."""

from __future__ import annotations

from pathlib import Path

import pytest

from oddsbot.analyser.camel_up import face as cu
from oddsbot.analyser.camel_up.record import load_record

from positions import random_position

ROOT = Path(__file__).resolve().parents[2]
START = "camel-up R/YP/GB/10/W/K/1"

REFUSED = [
    # two dice rolled by seats 0 and 1 typed as the pyramid
    (f"{START} BG n=4 to=2 start=0",
     "pyramid: BG leaves 4 dice revealed, so with no tile on the track this leg had exactly "
     "4 turns (4 reveals, 0 tickets taken, up to 0 finish cards placed), but seat 2 moving "
     "in a leg begun by seat 0 (start=) needs 2, 6, ... turns: write the dice "
     "still in the pyramid (YRPX if BG were rolled), or the right start"),
    # nothing done this leg, yet seat 2 moves in a leg seat 0 began
    (f"{START} BGYRPX n=4 to=2 start=0",
     "pyramid: BGYRPX leaves 0 dice revealed, so with no tile on the track this leg had "
     "exactly 0 turns (0 reveals, 0 tickets taken, up to 0 finish cards placed), but seat 2 "
     "moving in a leg begun by seat 0 (start=) needs 2, 6, ... turns: write the "
     "dice still in the pyramid, or the right start"),
    # 2014: three dice rolled typed as the pyramid, with a ticket and a finish card
    ("camel-up-2014 O/WB/GY/13 BG n=3 to=0 start=0 bets=W5,, win=2?",
     "pyramid: BG leaves 3 dice revealed, so with no tile on the track this leg had 4 to 5 "
     "turns (3 reveals, 1 ticket taken, up to 1 finish card placed), but seat 0 moving in a "
     "leg begun by seat 0 (start=) needs 0, 3, ... turns: write the dice still "
     "in the pyramid (OYW if BG were rolled), or the right start"),
    # 6 players: a partnership is a turn too
    (f"{START} BGYRPX n=6 to=3 start=0 part=2-3",
     "pyramid: BGYRPX leaves 0 dice revealed, so with no tile on the track this leg had "
     "exactly 1 turn (0 reveals, 0 tickets taken, 1 partnership, up to 0 finish cards "
     "placed), but seat 3 moving in a leg begun by seat 0 (start=) needs 3, 9, "
     "... turns: write the dice still in the pyramid, or the right start"),
]


@pytest.mark.parametrize("text, message", REFUSED)
def test_impossible_leg_is_refused_in_one_line(oddsbot_cli, text, message):
    run = oddsbot_cli("validate", text)
    assert run.code == 2 and run.out == ""
    assert run.err == f"oddsbot: error: {message}\n"


def test_the_same_position_in_json_is_refused_alike(oddsbot_cli):
    text = ('{"game": "camel-up", "track": {"1": "R", "2": ["Y", "P"], "3": ["G", "B"], '
            '"14": "W", "15": "K"}, "pyramid": ["blue", "green"], "to_move": 2, '
            '"leg_start": 0}')
    run = oddsbot_cli("validate", text)
    assert run.code == 2
    assert run.err == f"oddsbot: error: {REFUSED[0][1].replace('(start=)', '(leg_start)')}\n"


ACCEPTED = [
    f"{START} YRPX n=4 to=2 start=0",  # the dice still inside: two turns, two reveals
    f"{START} BG n=4 to=0 start=0",  # four reveals, a whole round
    f"{START} BGYRPX n=4 to=2 start=0 win=0?,1?",  # the two turns placed finish cards
    f"{START} BGYRPX n=4 to=2 start=0 lose=0?,0?,1?",  # some cards from earlier legs
    "camel-up R/YP/GB/-1/9/W/K/1 BGYRPX n=4 to=3 start=0",  # a tile: moved any number of times
    f"{START} BGYRX n=6 to=3 start=1 pt=0,1,0,0,0,0 part=2-3",  # a partnership, a reveal
    f"{START} BG n=4 to=2",  # leg start left out: as few turns as the position allows
]


@pytest.mark.parametrize("text", ACCEPTED)
def test_possible_legs_are_accepted(oddsbot_cli, text):
    run = oddsbot_cli("validate", text)
    assert run.code == 0, run.err


def test_a_left_out_leg_start_is_the_shortest_leg_and_round_trips(oddsbot_cli):
    run = oddsbot_cli("validate", f"{START} BG n=4 to=2 bets=,G5,,", "-f", "json")
    assert run.code == 0
    pos = cu.parse(run.out)
    assert pos.leg_start == 1  # 5 turns (4 reveals, a ticket): seats 1, 2, 3, 0, 1
    assert pos.to_notation() == f"{START} BG n=4 to=2 bets=,G5,,"
    assert cu.parse(pos.to_notation()) == pos


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("variant, players", [("camel-up", 4), ("camel-up", 7),
                                              ("camel-up-2014", 3)])
def test_positions_reached_in_play_are_accepted(variant, players, seed):
    pos = random_position(seed, players, variant)
    assert cu.validate(cu.parse(pos.to_notation())) == pos
    assert cu.validate(cu.parse(pos.to_json_text())) == pos


@pytest.mark.parametrize("record", sorted((ROOT / "examples").glob("camel-up-game-*.record")))
def test_every_position_of_the_shipped_records_is_accepted(record):
    _, steps = load_record(record.read_text())
    assert len(steps) > 20
    for pos, _ in steps:
        assert cu.validate(cu.parse(pos.to_notation())) == pos


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("variant, players", [("camel-up", 3), ("camel-up", 8),
                                              ("camel-up-2014", 2)])
def test_new_starts_are_accepted(oddsbot_cli, variant, players, seed):
    run = oddsbot_cli("new", "camel-up", "--variant", variant, "--players", players,
                      "--seed", seed, "-f", "notation")
    assert run.code == 0
    assert oddsbot_cli("validate", run.out.strip()).code == 0
