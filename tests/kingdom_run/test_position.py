"""Kingdom Run positions (docs/games/kingdom-run.md §12) and rule parameters (§11): both
written forms round-trip, every invariant is refused naming its field, every parameter
reads and shows its text, and garbage is refused in one line, never a traceback."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oddsbot.analyser.kingdom_run import GAME
from oddsbot.analyser.kingdom_run.notation import format_notation, parse_notation
from oddsbot.analyser.kingdom_run.position import (
    OFF, RUNNER_NAMES, Position, new_position, runner_id,
)
from oddsbot.analyser.kingdom_run.rules import COPY, FACE_NAMES, Rules, declared_names, show
from oddsbot.analyser.kingdom_run.validate import validate
from oddsbot.errors import OddsbotError, PositionError
from oddsbot.inputs import read_position
from oddsbot.strict import load_json

MID_TURN = ("kingdom-run p3 K,W,F to=2 t=0:K4,W4,F4,G4/1:K3,W3,F3,G3/2:W2,G2/5:K1,W1,F1/"
            "7:g1 pod=K2 tok=5,4,3 roll=SCBY rr=1 used=S,Y:S cross=F2@0:24")
MID_GAME = ("kingdom-run p4 G,W,K,F to=4 t=3:K4,w4/9:F4,G4/13:K3,W3,F3,G3/16:f2/22:G2/25:k1,W1 "
            "pod=F1,G1,K2,W2 tok=0,5,3,4 roll=- rr=0 "
            "rules=layout:4/6:3/6:3/6:3/2/4;zone_values:1,2,3,4,4,5")
BETWEEN_ROLLS = "kingdom-run p2 W,F to=1 t=0:K1,W1,F1,G1/1:K2,W2,F2,G2/2:K3,W3,F3,G3/" \
                "3:K4,W4,F4,G4 tok=6,6 roll=BBTY rr=0"
PODIUM_FULL = ("kingdom-run p2 K,W to=2 t=20:K4,W4,F4,G4/21:G3 pod=K1,W1,F1,G1,K2,W2,F2,G2 "
               "tok=8,4 roll=SCCZ rr=1 used=C cross=K3@0:19 out=W3,F3 "
               "rules=two_player_end:own_runners_only")


def read(text: str) -> Position:
    """Either form, as the CLI reads it (strict JSON included)."""
    return read_position(text, Position.from_json, parse_notation)


def round_trips(pos: Position) -> None:
    assert parse_notation(format_notation(pos)) == pos
    assert pos.to_notation() == format_notation(pos)
    assert Position.from_json(pos.to_json()) == pos
    assert read(json.dumps(pos.to_json())) == pos
    assert read(pos.to_notation()) == pos


# ----------------------------------------------------------------------- round trips
@pytest.mark.parametrize("players", [2, 3, 4])
def test_set_up(players):
    pos = new_position(players)
    validate(pos)
    assert pos.clans == tuple("KWFG"[:players]) and pos.to_move == 0 and pos.roll is None
    assert pos.tokens == ((6, 4, 3)[players - 2],) * players
    assert pos.track() == {s: [s, 4 + s, 8 + s, 12 + s] for s in range(4)}
    assert pos.variant == "kingdom-run" and pos.viewer == 0
    round_trips(pos)
    obj = pos.to_json()
    assert obj["roll"] is None and obj["used"] == [] and obj["crossed"] == [] \
        and obj["out"] == [] and "rules" not in obj
    assert obj["track"]["0"] == ["K1", "W1", "F1", "G1"]


def test_set_up_clans_and_rules():
    pos = new_position(3, "GFK", Rules().with_({"victory_tokens": "6/5/3"}))
    assert pos.clans == ("G", "F", "K") and pos.tokens == (5, 5, 5)
    assert pos.to_json()["rules"] == {"victory_tokens": "6/5/3"}
    round_trips(pos)
    with pytest.raises(PositionError) as err:
        new_position(3, "KKW")
    assert err.value.field == "clans[1]"
    with pytest.raises(PositionError) as err:
        new_position(5)
    assert err.value.field == "players"


@pytest.mark.parametrize("text", [MID_TURN, MID_GAME, BETWEEN_ROLLS, PODIUM_FULL])
def test_hand_built(text):
    pos = parse_notation(text)
    validate(pos)
    round_trips(pos)
    assert format_notation(pos) == text


def test_mid_turn_fields():
    pos = parse_notation(MID_TURN)
    assert pos.to_move == 1 and pos.asleep == (runner_id("G1", "x"),)
    assert pos.used == ((0, 0), (COPY, 0)) and pos.crossed == ((9, 0, 24),)
    obj = pos.to_json()
    assert obj["used"] == ["scatter", "copy:scatter"]
    assert obj["crossed"] == [{"runner": "F2", "action": 0, "from": 24}]
    assert obj["roll"] == ["scatter", "catchup", "bath", "copy"]
    assert list(obj["track"]) == ["0", "1", "2", "5", "7"]
    assert obj["track"]["2"] == ["W2", "G2"]  # runner-id order
    assert obj["asleep"] == ["G1"]


def test_alias_any_order_and_omitted_lists():
    text = ("krolewski-wyscig p3 K,W,F to=2 t=7:g1/5:F1,W1,K1/0:G4,K4,W4,F4/"
            "1:K3,W3,F3,G3/2:G2,W2 pod=K2 tok=5,4,3 roll=YBCS rr=1 used=S,Y:S "
            "cross=F2@0:24 out= rules=")
    assert parse_notation(text) == parse_notation(MID_TURN)
    obj = parse_notation(MID_TURN).to_json()
    del obj["game"], obj["out"]
    assert Position.from_json(obj) == parse_notation(MID_TURN)
    bare = new_position(2).to_json()
    for key in ("asleep", "podium", "crossed", "out", "roll", "rerolled", "used"):
        del bare[key]
    assert Position.from_json(bare) == new_position(2)


# ------------------------------------------------------------- generated positions
RULE_SETS = (
    {},
    {"capacity": "6", "podium_values": "9,5,1"},
    {"layout": "5/3:1/12:0,4,11/4", "lakes": "4", "zone_values": "0,7,9,10",
     "surplus_finishers": "stay"},
    {"die_faces": "bath,bath,copy", "dice": "2", "per_action_limit": "1"},
)


@st.composite
def positions(draw) -> Position:
    """A valid position: runners placed within capacity, the podium, surplus finishers
    only behind a full podium, tokens adding up, sometimes in the middle of a turn."""
    rules = Rules().with_(draw(st.sampled_from(RULE_SETS)))
    players = draw(st.integers(2, 4))
    clans = tuple(draw(st.permutations("KWFG"))[:players])
    places, spaces = rules.places(), rules.spaces()
    order = draw(st.permutations(range(16)))
    podium = tuple(order[:draw(st.integers(0, min(places, 12)))])
    rest = list(order[len(podium):])
    out: tuple[int, ...] = ()
    if len(podium) == places and rules.surplus_finishers != "stay":
        out = tuple(rest[:draw(st.integers(0, len(rest)))])
        rest = rest[len(out):]
    roll = rerolled = None
    used: list[tuple[int, int]] = []
    crossed: list[tuple[int, int, int]] = []
    if draw(st.booleans()):
        roll = sorted(draw(st.lists(st.sampled_from(rules.die_faces), min_size=rules.dice,
                                    max_size=rules.dice)))
        rerolled = draw(st.booleans())
        if rerolled:
            left = list(roll)
            for die in draw(st.lists(st.integers(0, 4), max_size=rules.dice)):
                face = left.pop(die % len(left)) if left else None
                if face is None:
                    break
                action = face
                if face == COPY:
                    real = sorted(a for a in set(roll) - {COPY}  # a Copy never takes
                                  if roll.count(a) == sum(f == a for f, _ in used))  # a die's place
                    action = real[die % len(real)] if real else COPY
                if action == COPY or sum(a == action for _, a in used) >= \
                        rules.per_action_limit:
                    break
                used.append((face, action))
                if action in (0, 1, 2) and rest and draw(st.booleans()):
                    crossed.append((rest.pop(), len(used) - 1,
                                    draw(st.integers(0, spaces - 1))))
    where = [OFF] * 16
    held = [0] * spaces
    for r in rest:
        s = draw(st.integers(0, spaces - 1))
        while held[s] >= rules.capacity:
            s = (s + 1) % spaces
        held[s] += 1
        where[r] = s
    asleep = set(draw(st.lists(st.sampled_from(rest), unique=True))) if rest else set()
    for c in range(4):
        own = range(4 * c, 4 * c + 4)
        if all(where[r] != OFF and r in asleep for r in own):
            asleep.discard(4 * c)
    total = players * rules.tokens_per_player(players)
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=players - 1,
                                max_size=players - 1)))
    tokens = tuple(b - a for a, b in zip([0, *cuts], [*cuts, total]))
    done = set(podium) | set(out)
    movers = [p for p, c in enumerate(clans)
              if players == 2 or len(podium) == places
              or not all(r in done for r in runners(*(f"{c}{n}" for n in range(1, 5))))]
    to_move = draw(st.sampled_from(movers or [0]))
    pos = Position(players=players, clans=clans, to_move=to_move, where=tuple(where),
                   asleep=tuple(asleep), podium=podium, crossed=tuple(crossed), out=out,
                   tokens=tokens, roll=None if roll is None else tuple(roll),
                   rerolled=bool(rerolled), used=tuple(used), rules=rules)
    return pos


@settings(max_examples=300)
@given(positions())
def test_generated_round_trip(pos):
    validate(pos)
    round_trips(pos)


# ------------------------------------------------------------------ the invariants
def runners(*names: str) -> tuple[int, ...]:
    return tuple(runner_id(n, "test") for n in names)


def moved(pos: Position, **spaces: int) -> tuple[int, ...]:
    where = list(pos.where)
    for name, s in spaces.items():
        where[runner_id(name, "test")] = s
    return tuple(where)


MID = parse_notation(MID_TURN)
FULL = parse_notation(PODIUM_FULL)
BROKEN = {
    "players": (MID, dict(players=5), "players"),
    "clan count": (MID, dict(clans=("K", "W")), "clans"),
    "clan twice": (MID, dict(clans=("K", "W", "K")), "clans[2]"),
    "not a clan": (MID, dict(clans=("K", "X", "F")), "clans[1]"),
    "to_move": (MID, dict(to_move=3), "to_move"),
    "off the layout": (MID, dict(where=moved(MID, K1=26)), "track.26"),
    "capacity": (MID, dict(where=moved(MID, W2=1)), "track"),
    "runner twice": (MID, dict(podium=runners("K2", "K1")), "podium[1]"),
    "runner twice in a list": (MID, dict(podium=runners("K2", "K2")), "podium[1]"),
    "runner missing": (MID, dict(podium=()), "track"),
    "crossed and on track": (MID, dict(crossed=((0, 0, 24),)), "crossed[0].runner"),
    "asleep off the track": (MID, dict(asleep=runners("K2")), "asleep[0]"),
    "whole clan asleep": (MID, dict(asleep=runners("W1", "W2", "W3", "W4")), "asleep"),
    "podium too long": (MID.with_(rules=Rules().with_({"podium_values": "13"})),
                        dict(podium=runners("K2", "F2"), crossed=()), "podium"),
    "out before full": (MID, dict(out=runners("F2"), crossed=()), "out"),
    "out with stay": (FULL, dict(rules=Rules().with_({"surplus_finishers": "stay"})),
                      "out"),
    "token count": (MID, dict(tokens=(6, 6)), "tokens"),
    "negative tokens": (MID, dict(tokens=(-1, 7, 6)), "tokens[0]"),
    "tokens sum": (MID, dict(tokens=(5, 5, 3)), "tokens"),
    "roll length": (MID, dict(roll=(0, 1, 2)), "roll"),
    "face not on the dice": (MID, dict(rules=Rules().with_(
        {"die_faces": "scatter,catchup,bath,steal,sleepwake,bath"})), "roll[3]"),
    "rerolled before rolling": (new_position(3), dict(rerolled=True), "rerolled"),
    "used before re-roll": (MID, dict(rerolled=False), "rerolled"),
    "used before rolling": (MID, dict(roll=None, crossed=(), where=moved(MID, F2=24)),
                            "rerolled"),
    "used not rolled": (MID, dict(used=((0, 0), (0, 0))), "used[1]"),
    "copy of a copy": (MID, dict(used=((0, 0), (COPY, COPY))), "used[1]"),
    "copy of nothing rolled": (MID, dict(used=((0, 0), (COPY, 3))), "used[1]"),
    "die as another action": (MID, dict(used=((0, 1),)), "used[0]"),
    "per_action_limit": (MID.with_(rules=Rules().with_({"per_action_limit": "1"}),
                                   used=((0, 0),), crossed=(), where=moved(MID, F2=24)),
                         dict(used=((0, 0), (COPY, 0))), "used[1]"),
    "crossed by no die": (MID, dict(crossed=((9, 2, 24),)), "crossed[0].action"),
    "crossed by a steal": (MID, dict(roll=(0, 1, 3, 5), used=((3, 3),)),
                           "crossed[0].action"),
    "crossing order": (MID, dict(podium=(), crossed=((9, 1, 24), (1, 0, 20))),
                       "crossed[1].action"),
    "crossed from nowhere": (MID, dict(crossed=((9, 0, 26),)), "crossed[0].from"),
    "finished player to move": (MID, dict(
        podium=runners("K2", "W1", "W2", "W3", "W4"), to_move=1,
        where=moved(MID, W1=OFF, W2=OFF, W3=OFF, W4=OFF, F2=5), crossed=()),
        "to_move"),
}


@pytest.mark.parametrize("case", BROKEN)
def test_invariant(case):
    base, changes, field = BROKEN[case]
    validate(base)
    with pytest.raises(PositionError) as err:
        validate(base.with_(**changes))
    assert err.value.field == field, str(err.value)
    message = str(err.value)
    assert "\n" not in message and len(message) <= 300


def test_messages():
    def why(**changes):
        with pytest.raises(PositionError) as err:
            validate(MID.with_(**changes))
        return str(err.value)
    assert why(where=moved(MID, W2=1)) == "track: space 1 holds 5 runners, at most 4 (capacity)"
    assert why(tokens=(6, 4, 3)) == "tokens: 13 in play, the game has 12"
    assert why(used=((0, 0), (COPY, COPY))) == "used[1]: a Copy cannot copy a Copy"


def test_finished_player_ok_when_over_or_two_players():
    pos = MID.with_(podium=runners("K2", "W1", "W2", "W3", "W4"), to_move=1,
                    where=moved(MID, W1=OFF, W2=OFF, W3=OFF, W4=OFF, F2=5),
                    crossed=())
    validate(pos.with_(rules=Rules().with_({"podium_values": "5,4,3,2,1"})))


# ------------------------------------------------------------------- bad input
BAD_TEXT = {
    "": "notation", "chess p3": "notation", "kingdom-run 3p K,W,F": "players",
    "kingdom-run p9 K,W,F": "players", "kingdom-run p3 K,W,X to=1": "clans[2]",
    "kingdom-run p2 K,W to=3 t= tok=6,6 roll=- rr=0": "to_move",
    "kingdom-run p2 K,W to=1 tok=6,6 roll=- rr=0": "t",  # a word missing or out of place
    "kingdom-run p2 K,W to=1 t= roll=- tok=6,6 rr=0": "tok",
    "kingdom-run p2 K,W to=1 t= tok=6,6 roll=- rr=0 bogus=1": "notation",
    "kingdom-run p2 K,W to=1 t=0:K1,K1 tok=6,6 roll=- rr=0": "track.0[1]",
    "kingdom-run p2 K,W to=1 t=0:K1/0:W1 tok=6,6 roll=- rr=0": "track.0",
    "kingdom-run p2 K,W to=1 t=00:K1 tok=6,6 roll=- rr=0": "track",
    "kingdom-run p2 K,W to=1 t=0:X1 tok=6,6 roll=- rr=0": "track.0[0]",
    "kingdom-run p2 K,W to=1 t=0: tok=6,6 roll=- rr=0": "track.0",
    "kingdom-run p2 K,W to=1 t= tok=6,x roll=- rr=0": "tokens[1]",
    "kingdom-run p2 K,W to=1 t= tok=6,6 roll=SQ rr=0": "roll",
    "kingdom-run p2 K,W to=1 t= tok=6,6 roll= rr=0": "roll",
    "kingdom-run p2 K,W to=1 t= tok=6,6 roll=- rr=2": "rerolled",
    "kingdom-run p2 K,W to=1 t= tok=6,6 roll=- rr=0 used=S:": "used[0]",
    "kingdom-run p2 K,W to=1 t= tok=6,6 roll=- rr=0 cross=K1@0": "crossed[0]",
    "kingdom-run p2 K,W to=1 t= tok=6,6 roll=- rr=0 cross=K1@٣:4": "crossed[0].action",
    "kingdom-run p2 K,W to=1 t= tok=6,6 roll=- rr=0 rules=dice": "rules",
}


@pytest.mark.parametrize("text", BAD_TEXT)
def test_bad_notation(text):
    with pytest.raises(PositionError) as err:
        parse_notation(text)
    assert err.value.field == BAD_TEXT[text], str(err.value)


def test_bad_rules_in_positions():
    for text in ("kingdom-run p2 K,W to=1 t= tok=6,6 roll=- rr=0 rules=dice:9",
                 "kingdom-run p2 K,W to=1 t= tok=6,6 roll=- rr=0 rules=bogus:1"):
        with pytest.raises(OddsbotError) as err:
            parse_notation(text)
        assert str(err.value).startswith("rules: ")
    with pytest.raises(OddsbotError, match="unknown rule parameter 'bogus'"):
        Position.from_json({**new_position(2).to_json(), "rules": {"bogus": "1"}})
    pos = Position.from_json({**new_position(2).to_json(), "rules": {"dice": 3,
                                                                     "mandatory_dice": False}})
    assert pos.rules.dice == 3 and pos.rules.mandatory_dice is False


GOOD = new_position(3).to_json()
BAD_JSON = {
    "unknown key": ({**GOOD, "bogus": 1}, "bogus"),
    "game": ({**GOOD, "game": "mumia"}, "game"),
    "missing": ({k: v for k, v in GOOD.items() if k != "tokens"}, "tokens"),
    "players": ({**GOOD, "players": True}, "players"),
    "clans": ({**GOOD, "clans": ["K", "W", ["F"]]}, "clans[2]"),
    "track key": ({**GOOD, "track": {"x": []}}, "track.x"),
    "track list": ({**GOOD, "track": {"0": "K1"}}, "track.0"),
    "track twice": ({**GOOD, "track": {**GOOD["track"], "5": ["K1"]}}, "track.5[0]"),
    "runner": ({**GOOD, "podium": [{"K": 1}]}, "podium[0]"),
    "asleep twice": ({**GOOD, "asleep": ["K1", "K1"]}, "asleep[1]"),
    "crossed": ({**GOOD, "crossed": [{"runner": "K1", "action": 0}]}, "crossed[0].from"),
    "crossed key": ({**GOOD, "crossed": [{"runner": "K1", "x": 0}]}, "crossed[0].x"),
    "roll": ({**GOOD, "roll": ["scatter", 3]}, "roll[1]"),
    "empty roll": ({**GOOD, "roll": []}, "roll"),
    "rerolled": ({**GOOD, "rerolled": 0}, "rerolled"),
    "used": ({**GOOD, "used": ["copy:nothing"]}, "used[0]"),
    "tokens": ({**GOOD, "tokens": [4, 4, 4.0]}, "tokens[2]"),
    "rules": ({**GOOD, "rules": {"dice": [4]}}, "rules.dice"),
    "not an object": ([], "position"),
}


@pytest.mark.parametrize("case", BAD_JSON)
def test_bad_json(case):
    obj, field = BAD_JSON[case]
    with pytest.raises(PositionError) as err:
        Position.from_json(obj)
    assert err.value.field == field, str(err.value)


def test_used_pairs_in_json():
    pos = parse_notation(MID_TURN)
    obj = pos.to_json()
    assert Position.from_json({**obj, "used": ["scatter", "copy:scatter"]}) == pos
    odd = pos.with_(used=((COPY, COPY),))
    assert odd.to_json()["used"] == ["copy:copy"]
    assert Position.from_json(odd.to_json()) == odd
    assert Position.from_json({**obj, "used": ["copy"]}).used == ((COPY, COPY),)


_WORDS = st.sampled_from(["kingdom-run", "p2", "p3", "K,W", "K,W,F", "to=1", "t=0:K1",
                          "t=", "tok=6,6", "roll=SCBY", "roll=-", "rr=1", "used=S,Y:S",
                          "cross=K1@0:3", "out=W1", "pod=G1", "rules=dice:3", "t=3:g4/0:K1",
                          "=", ":", "@", "/", ",", "-1", "99999999999999999999", "é", ""])


@settings(max_examples=400)
@given(st.lists(_WORDS, max_size=12), st.text(max_size=20))
def test_garbage_notation_is_one_line(words, junk):
    for text in (" ".join(words), " ".join(words) + junk, junk):
        try:
            validate(parse_notation(text))
        except OddsbotError as exc:
            assert "\n" not in str(exc) and len(str(exc)) <= 300


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=6)
                     | st.sampled_from(["K1", "scatter", "copy:bath", "0", "kingdom-run"]),
                     lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.sampled_from(list(GOOD) + ["x", "runner", "action",
                                                                     "from", "0", "dice"]),
                                       inner, max_size=4), max_leaves=12)


@settings(max_examples=400)
@given(st.dictionaries(st.sampled_from(list(GOOD)), _JSON, max_size=8), _JSON)
def test_garbage_json_is_one_line(changes, value):
    for obj in ({**GOOD, **changes}, value):
        try:
            validate(Position.from_json(obj))
        except OddsbotError as exc:
            assert "\n" not in str(exc) and len(str(exc)) <= 300


# ------------------------------------------------------------------ rule parameters
def test_declared_parameters():
    assert declared_names() == tuple(f.name for f in fields(Rules))
    default = Rules()
    for param in GAME.rules:
        assert show(param.name, getattr(default, param.name)) == param.default, param.name
        assert Rules().with_({param.name: param.default}) == default
    assert default.changed() == {}
    assert default.spaces() == 26 and default.lake_spaces() == (7, 13, 19)
    assert default.token_spaces() == (0, 4, 10, 16, 22)
    assert default.board_of_space()[:5] == (0, 0, 0, 0, 1)
    assert default.zone_of_space()[21:23] == (4, 5) and len(default.zone_of_space()) == 26
    assert default.places() == 8
    assert [default.tokens_per_player(n) for n in (2, 3, 4)] == [6, 4, 3]
    assert default.die_faces == tuple(range(6)) and FACE_NAMES[COPY] == "copy"


CHANGED = [
    {"die_faces": "bath,bath,copy,steal"}, {"dice": "5"}, {"per_action_limit": "1"},
    {"mandatory_dice": "false"}, {"capacity": "8"},
    {"layout": "4/6:3/6:0,5/6:3/4", "lakes": "4"},
    {"layout": "4/12/4", "lakes": "0", "zone_values": "1,5,9"},
    {"lakes": "2", "layout": "4/6:3/6/6:3/4"}, {"zone_values": "0,0,0,0,99"},
    {"zone_mode": "exact"}, {"podium_values": "13"},
    {"podium_values": "1,2,3,4,5,6,7,8,9,10,11,12"},
    {"victory_tokens": "0/20/3"}, {"victory_token_value": "0"},
    {"two_player_end": "own_runners_only"}, {"same_turn_order": "chronological"},
    {"surplus_finishers": "stay"}, {"tie_rule": "shared"},
]


@pytest.mark.parametrize("given_", CHANGED, ids=lambda g: ",".join(g))
def test_changed_round_trips(given_):
    rules = Rules().with_(given_)
    assert rules.changed() == given_
    assert Rules().with_(rules.changed()) == rules
    pos = new_position(3, rules=rules)
    round_trips(pos)
    assert pos.to_json()["rules"] == given_


BAD_RULES = [
    ("die_faces", "scatter,jump", "scatter, catchup"),
    ("die_faces", "copy,copy", "must not be copy"),
    ("die_faces", "scatter", "2 to 12"),
    ("dice", "0", "1 to 5"), ("dice", "٣", "1 to 5"), ("dice", "4.0", "1 to 5"),
    ("per_action_limit", "6", "1 to 5"), ("mandatory_dice", "yes", "true or false"),
    ("capacity", "3", "4 to 8"),
    ("layout", "4", "2 to 8 boards"), ("layout", "3/6:3/4", "at least 4 spaces"),
    ("layout", "4:1/6:3/6:3/6:3/4", "hold no lake"), ("layout", "4/6:6/4", "0 to 5"),
    ("layout", "4/6:3,3/4", "distinct"), ("layout", "4/13/4", "1 to 12"),
    ("layout", "4/12/12/12/12/12/4", "at most 60"), ("layout", "4/6:/4", "lake offsets"),
    ("lakes", "13", "0 to 12"), ("zone_values", "1", "2 to 8"),
    ("zone_values", "1,2,3,4,100", "0 to 99"), ("zone_mode", "near", "zone or exact"),
    ("podium_values", "", "1 to 12"), ("podium_values", ",".join(["1"] * 13), "1 to 12"),
    ("victory_tokens", "6,4,3", "'/'"), ("victory_tokens", "6/4/21", "0 to 20"),
    ("victory_token_value", "-1", "0 to 99"),
    ("two_player_end", "never", "first_of or own_runners_only"),
    ("same_turn_order", "x", "free or chronological"),
    ("surplus_finishers", "x", "score_zero or stay"), ("tie_rule", "x", "best_podium or"),
]


@pytest.mark.parametrize("name,text,words", BAD_RULES)
def test_bad_rule_values(name, text, words):
    with pytest.raises(OddsbotError) as err:
        Rules().with_({name: text}, "--rule")
    message = str(err.value)
    assert message.startswith(f"--rule: {name}="), message
    assert words in message and "\n" not in message and len(message) <= 300, message


@pytest.mark.parametrize("given_,words", [
    ({"lakes": "2"}, "lakes=2 but layout='4/6:3/6:3/6:3/4' holds 3 lakes"),
    ({"layout": "4/6/6:3/6:3/4"}, "holds 2 lakes"),
    ({"zone_values": "1,2,3"}, "one value per board"),
    ({"bogus": "1"}, "unknown rule parameter 'bogus' ('oddsbot rules kingdom-run' lists them)"),
])
def test_rules_that_do_not_fit(given_, words):
    with pytest.raises(OddsbotError) as err:
        Rules().with_(given_)
    assert words in str(err.value) and str(err.value).startswith("rules: ")


def test_runner_names():
    assert RUNNER_NAMES[0] == "K1" and RUNNER_NAMES[15] == "G4"
    assert [runner_id(n, "x") for n in ("K1", "W1", "F4", "G4")] == [0, 4, 11, 15]
    for bad in ("k1", "K5", "K0", "X1", 3, None):
        with pytest.raises(PositionError):
            runner_id(bad, "x")


def test_strict_json_text():
    text = json.dumps(new_position(2).to_json())
    assert read(text) == new_position(2)
    with pytest.raises(PositionError):
        read(text.replace('"tokens": [6, 6]', '"tokens": [6, 6], "tokens": [6, 6]'))
    assert load_json(text) == new_position(2).to_json()
