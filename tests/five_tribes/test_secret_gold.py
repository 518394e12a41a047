"""Secret gold in Five Tribes positions (docs/games/five-tribes.md §14.13): the JSON forms
``null`` and ``[lo, hi]`` (§18.1), the notation forms ``gc?`` and ``gc30-45`` (§18.2), their
round trips, the midpoint in ``Player.gold``, every malformed value as a one-line error
naming the field, and validation refusing a secret gold for the player to move; end to end
through ``oddsbot validate``."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checks import assert_bad_input, ok
from five_tribes.test_cli import EXAMPLE_1, notation, position, write
from five_tribes_positions import random_midgame, random_opening, with_djinn_rules
from oddsbot.analyser.five_tribes import face as ft
from oddsbot.analyser.five_tribes.encode import decode, encode
from oddsbot.analyser.five_tribes.json_form import MAX_GOLD
from oddsbot.analyser.five_tribes.position import SECRET_GOLD, Position
from oddsbot.errors import PositionError

TO_MOVE_MESSAGE = ("the player to move knows their own gold (secret gold is for opponents, "
                   "docs/games/five-tribes.md §14.13)")
# 3 players, turns phase: player 2 plays first (bid 18), so players 0 and 1 are opponents
TURNS = ("n=3", "turn=18:2,12:1,8:0")


def line(*holdings: str) -> str:
    """The notation of ``EXAMPLE_1`` in ``TURNS`` with ``holdings`` (``p0=gc?`` ...)."""
    return notation(EXAMPLE_1, *TURNS, *holdings)


def data(*players: dict) -> dict:
    """The JSON of ``EXAMPLE_1`` in ``TURNS`` with ``players``' objects."""
    return position(EXAMPLE_1, players=list(players), turn_track={"18": 2, "12": 1, "8": 0})


def with_secret_gold(pos: Position, seed: int) -> Position:
    """``pos`` with some opponents' gold secret: the default interval, a random one, or an
    interval at the ends of the range."""
    rng = random.Random(seed)
    players = list(pos.players)
    for i, p in enumerate(players):
        if i == pos.to_move or rng.random() < 0.3:
            continue
        lo = rng.choice((0, rng.randint(0, 150), MAX_GOLD))
        lo, hi = rng.choice((SECRET_GOLD, (lo, rng.randint(lo, min(lo + 80, MAX_GOLD))),
                             (lo, MAX_GOLD)))
        players[i] = replace(p, gold=(lo + hi) // 2, gold_range=(lo, hi))
    return replace(pos, players=tuple(players))


def refused(text: str) -> PositionError:
    """The error of parsing and validating ``text``, checked to be one ``field: reason``."""
    with pytest.raises(PositionError) as info:
        ft.validate(ft.parse(text))
    message = str(info.value)
    assert message == f"{info.value.field}: {info.value.reason}" and "\n" not in message
    return info.value


# ----------------------------------------------------------------------- parsing


@pytest.mark.parametrize("gold, expected", [
    (38, (38, None)),
    (None, (50, (0, 100))),
    ([30, 45], (37, (30, 45))),
    ([0, 1], (0, (0, 1))),
    ([7, 7], (7, (7, 7))),
    ([0, MAX_GOLD], (MAX_GOLD // 2, (0, MAX_GOLD))),
])
def test_json_gold_forms(gold, expected):
    pos = ft.validate(ft.parse(json.dumps(data({}, {"gold": gold}, {}))))
    assert (pos.players[1].gold, pos.players[1].gold_range) == expected
    assert pos.players[0].gold_range is None and pos.players[0].gold == 50


@pytest.mark.parametrize("text, expected", [
    ("gc38", (38, None)),
    ("gc?", (50, (0, 100))),
    ("gc30-45", (37, (30, 45))),
    ("gc0-1", (0, (0, 1))),
    ("gc7-7", (7, (7, 7))),
    ("gc0-999999", (MAX_GOLD // 2, (0, MAX_GOLD))),
])
def test_notation_gold_forms(text, expected):
    pos = ft.validate(ft.parse(line(f"p1={text},v1")))
    assert (pos.players[1].gold, pos.players[1].gold_range) == expected
    assert pos.players[1].viziers == 1


def test_json_and_notation_agree_and_write_canonical_forms():
    from_json = ft.parse(json.dumps(data({"gold": None}, {"gold": [30, 45]}, {"gold": 12})))
    from_notation = ft.parse(line("p0=gc?", "p1=gc30-45", "p2=gc12"))
    assert from_json == from_notation
    assert [p["gold"] for p in from_json.to_json()["players"]] == [[0, 100], [30, 45], 12]
    text = from_json.to_notation()
    assert " p0=gc? p1=gc30-45 p2=gc12" in text
    assert ft.parse(text) == from_json


def test_a_secret_gold_at_the_start_gold_is_still_written():
    """0..100 and 49..51 have the midpoint 50, the start gold, but stay secret."""
    pos = ft.parse(line("p0=gc?", "p1=gc49-51"))
    assert [p.gold for p in pos.players] == [50, 50, 50]
    assert " p0=gc? p1=gc49-51" in pos.to_notation()
    assert pos.to_json()["players"][0]["gold"] == [0, 100]


# ----------------------------------------------------------------------- round trips


@settings(max_examples=150)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]),
       opening=st.booleans(), djinns=st.booleans())
def test_random_positions_with_secret_gold_round_trip(seed, players, opening, djinns):
    pos = (random_opening if opening else random_midgame)(seed, players)
    pos = with_secret_gold(with_djinn_rules(pos, seed) if djinns else pos, seed)
    ft.validate(pos)
    as_json = pos.to_json()
    assert ft.Position.from_json(json.loads(json.dumps(as_json))) == pos
    assert ft.parse(pos.to_notation()) == pos
    # JSON -> notation -> JSON, and notation -> JSON -> notation
    assert ft.parse(ft.parse(json.dumps(as_json)).to_notation()).to_json() == as_json
    assert ft.parse(json.dumps(ft.parse(pos.to_notation()).to_json())).to_notation() \
        == pos.to_notation()


@settings(max_examples=50)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]))
def test_the_kernel_state_holds_the_midpoint(seed, players):
    """``encode`` reads ``gold``; ``decode`` gives every gold known."""
    pos = with_secret_gold(random_midgame(seed, players), seed)
    known = replace(pos, players=tuple(replace(p, gold_range=None) for p in pos.players))
    assert decode(encode(pos)) == known


# ----------------------------------------------------------------------- malformed values


@pytest.mark.parametrize("gold, field, word", [
    ("50", "players[1].gold", "whole number, null or [lo, hi]"),
    (True, "players[1].gold", "whole number, null or [lo, hi]"),
    (False, "players[1].gold", "whole number, null or [lo, hi]"),
    (37.5, "players[1].gold", "whole number, null or [lo, hi]"),
    ({"lo": 1, "hi": 2}, "players[1].gold", "whole number, null or [lo, hi]"),
    (-1, "players[1].gold", "at least 0"),
    (MAX_GOLD + 1, "players[1].gold", "at most 999999"),
    ([], "players[1].gold", "[lo, hi], got a list of 0"),
    ([30], "players[1].gold", "[lo, hi], got a list of 1"),
    ([30, 40, 50], "players[1].gold", "[lo, hi], got a list of 3"),
    ([45, 30], "players[1].gold", "45..30: lo must be at most hi"),
    ([-1, 30], "players[1].gold[0]", "at least 0"),
    ([0, MAX_GOLD + 1], "players[1].gold[1]", "at most 999999"),
    ([True, 30], "players[1].gold[0]", "whole number"),
    ([0, False], "players[1].gold[1]", "whole number"),
    (["0", 30], "players[1].gold[0]", "whole number"),
    ([0, 30.0], "players[1].gold[1]", "whole number"),
    ([None, 30], "players[1].gold[0]", "whole number"),
    ([[0, 1], 30], "players[1].gold[0]", "whole number"),
])
def test_malformed_json_gold_names_the_field(oddsbot_cli, tmp_path, gold, field, word):
    error = refused(json.dumps(data({}, {"gold": gold}, {})))
    assert error.field == field and word in error.reason, str(error)
    assert_bad_input(oddsbot_cli("validate", write(tmp_path, data({}, {"gold": gold}, {}))),
                     field, word)


@pytest.mark.parametrize("text, field, word", [
    ("gc45-30", "players[1].gold", "45..30: lo must be at most hi"),
    ("gc-5", "players[1].gold", "at least 0"),
    ("gc-5-10", "players[1].gold", "at least 0"),
    ("gc5--10", "players[1].gold", "at least 0"),
    ("gc0-1000000", "players[1].gold", "at most 999999"),
    ("gc1000000", "players[1].gold", "at most 999999"),
    ("gc3-x", "players[1].gold", "whole number"),
    ("gc3-", "players[1].gold", "whole number"),
    ("gc-", "players[1].gold", "whole number"),
    ("gc1-2-3", "players[1].gold", "whole number"),
    ("gc??", "players[1].gold", "whole number"),
    ("gc?5", "players[1].gold", "whole number"),
    ("gc", "players[1].gold", "whole number"),
    ("gc" + "9" * 19 + "-1", "players[1].gold", "digits"),
    ("gc?,gc3", "p1", "gc given twice"),
    ("gc30-45,gc?", "p1", "gc given twice"),
])
def test_malformed_notation_gold_names_the_field(oddsbot_cli, text, field, word):
    error = refused(line(f"p1={text}"))
    assert error.field == field and word in error.reason, str(error)
    typed = {"players[1].gold": "p1 gc"}.get(field, field)  # the CLI names the key typed
    assert_bad_input(oddsbot_cli("validate", line(f"p1={text}")), f"error: {typed}: ", word)


# ----------------------------------------------------------------------- validation


@pytest.mark.parametrize("text", [line("p2=gc?"), line("p2=gc30-45"),
                                  json.dumps(data({}, {}, {"gold": None})),
                                  json.dumps(data({}, {}, {"gold": [30, 45]}))])
def test_the_player_to_move_knows_their_own_gold(text):
    error = refused(text)
    assert (error.field, error.reason) == ("players[2].gold", TO_MOVE_MESSAGE)


def test_the_player_to_move_is_the_bidder_while_bidding():
    pos = ft.parse(notation(EXAMPLE_1, "n=3", "bid=1,2,0", "p0=gc?", "p2=gc10-20"))
    assert pos.phase == "bidding" and pos.to_move == 1
    ft.validate(pos)
    error = refused(notation(EXAMPLE_1, "n=3", "bid=1,2,0", "p1=gc?"))
    assert (error.field, error.reason) == ("players[1].gold", TO_MOVE_MESSAGE)


@pytest.mark.parametrize("gold, gold_range, word", [
    (40, (30, 45), "its midpoint 37"),
    (50, (45, 30), "0 <= lo <= hi <= 999999"),
    (0, (-2, 2), "0 <= lo <= hi <= 999999"),
    (MAX_GOLD, (MAX_GOLD, MAX_GOLD + 1), "0 <= lo <= hi <= 999999"),
])
def test_hand_built_secret_gold_is_checked(gold, gold_range, word):
    pos = ft.parse(line())
    players = (replace(pos.players[0], gold=gold, gold_range=gold_range), *pos.players[1:])
    with pytest.raises(PositionError) as info:
        ft.validate(pos.with_(players=players))
    assert info.value.field == "players[0].gold" and word in info.value.reason, str(info.value)


# ----------------------------------------------------------------------- command line


def test_validate_prints_a_secret_gold(oddsbot_cli):
    result = ok(oddsbot_cli("validate", line("p0=gc?", "p1=gc30-45,v1")))
    assert result.out.split()[-2:] == ["p0=gc?", "p1=gc30-45,v1"]
    as_json = ok(oddsbot_cli("validate", line("p0=gc?"), "-f", "json")).json()
    assert [p["gold"] for p in as_json["players"]] == [[0, 100], 50, 50]


def test_validate_refuses_a_secret_gold_for_the_player_to_move(oddsbot_cli):
    message = assert_bad_input(oddsbot_cli("validate", line("p0=gc?", "p2=gc?")))
    assert message == f"oddsbot: error: p2 gc: {TO_MOVE_MESSAGE}"  # the key typed: p2=gc?
