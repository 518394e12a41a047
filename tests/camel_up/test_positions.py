"""Positions: JSON and notation round trips, defaults, encoding, and every §3 invariant."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oddsbot.analyser.camel_up import face as cu
from oddsbot.analyser.camel_up.encode import decode, encode
from oddsbot.errors import PositionError
from positions import random_position

VARIANTS = st.sampled_from([("camel-up", 4), ("camel-up", 3), ("camel-up", 7),
                            ("camel-up-2014", 2), ("camel-up-2014", 5)])


@settings(max_examples=80)
@given(seed=st.integers(0, 10**6), game=VARIANTS)
def test_random_positions_round_trip(seed, game):
    variant, players = game
    pos = random_position(seed, players, variant)
    cu.validate(pos)
    assert cu.parse(pos.to_notation()) == pos
    assert cu.Position.from_json(json.loads(json.dumps(pos.to_json()))) == pos
    assert cu.parse(json.dumps(pos.to_json())) == pos
    st_ = encode(pos)
    again = decode(st_, variant, players)
    assert again == pos
    assert np.array_equal(encode(again), st_)


def test_minimal_json_defaults_to_a_fresh_four_player_leg():
    pos = cu.parse('{"game": "camel-up", "track": {"1": ["B", "G"], "2": "Y", '
                   '"3": ["red", "purple"], "14": ["K"], "16": ["white"]}, '
                   '"pyramid": ["blue", "green", "yellow", "red", "purple", "grey"]}')
    assert pos.players == 4 and pos.money == (3, 3, 3, 3) and pos.to_move == 0
    assert pos.ticket_stacks == ((5, 3, 2, 2),) * 5
    assert pos.leg_tickets == ((),) * 4 and pos.pyramid_tickets == (0, 0, 0, 0)
    assert pos.stack(1) == ("blue", "green") and pos.stack(16) == ("white",)
    assert pos.finish_hand == (("blue", "green", "yellow", "red", "purple"),) * 4
    assert pos.to_notation() == "camel-up BG/Y/RP/10/K/1/W BGYRPX n=4 to=0"


def test_revealed_dice_are_credited_to_the_players_before_the_mover():
    pos = cu.parse("camel-up BG/Y/RP/10/K/1/W BGX n=4 to=1")
    assert pos.pyramid_tickets == (1, 0, 1, 1)  # seats 0, 3, 2 revealed the 3 dice
    assert pos.to_notation() == "camel-up BG/Y/RP/10/K/1/W BGX n=4 to=1"


def test_notation_with_every_field_round_trips():
    text = ("camel-up 3/RY/B/1/GWP/1/-1/2/K/4 BYPX n=6 to=2 start=1 money=4,2,5,3,0,9 "
            "bets=P5,G5P3,,,, pt=1,0,0,1,0,0 win=0?,2B lose=1R hand=?,?,GYRP,?,BGYRP,BGYRP "
            "part=0-3,1-2 clamp=net")
    pos = cu.parse(text)
    cu.validate(pos)
    assert pos.to_notation() == text
    assert pos.partnership == (3, 2, 1, 0, None, None)
    assert pos.final_clamp == "net"
    assert pos.winner_deck[1] == cu.Card(2, "blue")


def test_hidden_cards_hide_the_hand():
    pos = cu.parse('{"game": "camel-up", "track": {"1": ["B", "G", "Y", "R", "P"], '
                   '"15": ["W", "K"]}, "pyramid": "BGYRPX", "to_move": 1, '
                   '"winner_deck": [{"owner": 0, "colour": null}]}')
    assert pos.finish_hand[0] is None and len(pos.finish_hand[1]) == 5
    cu.validate(pos)
    with pytest.raises(PositionError, match="knows their own"):
        cu.validate(pos.with_(to_move=0))


START = {"game": "camel-up", "track": {"1": ["B", "G"], "2": ["Y"], "3": ["R", "P"],
                                       "14": ["K"], "16": ["W"]},
         "pyramid": ["blue", "green", "yellow", "red", "purple", "grey"]}


def bad(**changes):
    data = json.loads(json.dumps(START))
    for key, value in changes.items():
        if value is None:
            data.pop(key)
        else:
            data[key] = value
    return json.dumps(data)


@pytest.mark.parametrize("text,field", [
    ("{", "position"),
    (bad(track=None), "track"),
    (bad(track={"1": ["B", "G", "orange"], "2": ["Y"], "3": ["R", "P"], "14": ["K"],
                "16": ["W"]}), "track[1]"),
    (bad(track={"1": ["B", "G"], "2": ["Y", "B"], "3": ["R", "P"], "14": ["K"],
                "16": ["W"]}), "track"),
    (bad(track={"1": ["B", "G"], "3": ["R", "P"], "14": ["K"], "16": ["W"]}), "track"),
    (bad(track={"17": ["B"]}), "track[17]"),
    (bad(pyramid=["blue"]), "pyramid"),
    (bad(pyramid=["blue", "blue", "grey"]), "pyramid"),
    (bad(pyramid=["blue", "pink"]), "pyramid[1]"),
    (bad(tiles=[{"owner": 0, "space": 1, "side": "cheer"}]), "tiles[0]"),
    (bad(tiles=[{"owner": 0, "space": 2, "side": "cheer"}]), "tiles[0]"),
    (bad(tiles=[{"owner": 0, "space": 6, "side": "cheer"},
                {"owner": 1, "space": 7, "side": "boo"}]), "tiles[0]"),
    (bad(tiles=[{"owner": 0, "space": 6, "side": "cheer"},
                {"owner": 0, "space": 9, "side": "boo"}]), "tiles[0]"),
    (bad(tiles=[{"owner": 0, "space": 6, "side": "up"}]), "tiles[0].side"),
    (bad(leg_tickets=[[["blue", 3]], [], [], []]), "leg_tickets"),
    (bad(leg_tickets=[[["blue", 5]], [], [], []],
         ticket_stacks={"blue": [5, 3, 2, 2]}), "ticket_stacks.blue"),
    (bad(pyramid_tickets=[1, 0, 0, 0]), "pyramid_tickets"),
    (bad(money=[3, 3, -1, 3]), "money[2]"),
    (bad(players=4, money=[3, 3, 3]), "money"),
    (bad(players=9), "players"),
    (bad(to_move=4), "to_move"),
    (bad(winner_deck=[{"owner": 1, "colour": "blue"}, {"owner": 1, "colour": "blue"}]),
     "winner_deck[1]"),
    (bad(winner_deck=[{"owner": 7, "colour": "blue"}]), "winner_deck[0]"),
    (bad(partnership=[1, 0, None, None]), "partnership"),
    (bad(colour=1), "colour"),
    (bad(status="over"), "status"),
    (bad(rules={"final_clamp": "sometimes"}), "rules.final_clamp"),
    (bad(variant="camel-up-1999"), "variant"),
])
def test_invalid_positions_name_the_field(text, field):
    with pytest.raises(PositionError) as info:
        cu.validate(cu.parse(text))
    assert info.value.field == field, str(info.value)


def test_six_players_partnership_must_be_symmetric():
    text = bad(players=6, partnership=[1, 2, None, None, None, None])
    with pytest.raises(PositionError, match="partnership"):
        cu.validate(cu.parse(text))


@pytest.mark.parametrize("notation,field", [
    ("camel-up BG/Y/RP/10/K/W BGYRPX", "track"),
    ("camel-up BG/Y/RP/10/K/1/W BGYRPX foo=1", "notation"),
    ("camel-up BG/Y/RP/10/K/1/W BGYRPZ", "pyramid"),
    ("camel-up BG/Y/RP/10/K/1/W", "notation"),
    ("camel-up BG/Y/RP/10/K/1/W BGYRPX bets=B4,,,", "leg_tickets[0]"),
    ("camel-up-2014 BG/Y/RP/13 BGOYW", "track cell 'RP'"),
])
def test_invalid_notation_names_the_field(notation, field):
    with pytest.raises(PositionError) as info:
        cu.validate(cu.parse(notation))
    assert info.value.field == field, str(info.value)


@pytest.mark.parametrize("label", ["partner -1", "partner 30", "ticket pink", "spectator x boo",
                                   "pyramid now", "winner"])
def test_malformed_action_labels_are_refused(label):
    from oddsbot.errors import ActionError

    pos = cu.parse("camel-up BG/Y/RP/10/K/1/W BGYRPX n=4 to=0")
    with pytest.raises(ActionError, match="not an action"):
        cu.check_action(pos, label)


def test_action_labels_round_trip_through_codes():
    from oddsbot.analyser.camel_up.encode import action_code, action_label

    pos = random_position(5, 6)
    for label in cu.legal_actions(pos):
        assert action_label(pos.rules, action_code(pos.rules, label)) == label
