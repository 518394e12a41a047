"""Five Tribes positions: JSON and notation round trips, defaults, hidden parts, and every
validation error as a one-line ``field: reason``."""

from __future__ import annotations

import copy
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from five_tribes_positions import random_midgame, random_opening, with_djinn_rules
from oddsbot.analyser.five_tribes import face as ft
from oddsbot.analyser.five_tribes.encode import decode, encode
from oddsbot.errors import PositionError
from oddsbot.analyser.five_tribes.notation import board_text, parse_board_text
from oddsbot.analyser.five_tribes.position import Cell
from oddsbot.kernels import five_tribes as FT

FT_DJINNS = tuple(name for name, _, _ in FT.DJINNS)

BOARD = """\
O8:YWB S6:BGR     L4:WW   V5:BGR@0 D6:YYW   S6:RR
D10:W  O8:GG@1+p1 S6:YBB  V5:WR+P2 L4:YGR   D6:
S6:YWG V5:@2+P1   D15:BRR O8:WWB   S6:YG    L4:BR
O8:Y   D12:WWG    S6:BR   V5:WGG   O8:@0+p2 D6:YWBGR
L4:WB  S6:        V5:YYR  O8:WBG   D6:WRR   S6:YBG"""
ROWS = "/".join(",".join(line.split()) for line in BOARD.splitlines())
PLAIN_ROWS = re.sub(r"@\d|\+[pP]\d", "", ROWS)  # no camels, palms or palaces
FULL = (f"five-tribes {ROWS} n=3 bid=2,0 turn=18:1 res=fi,fa,si,po,wh,sp,iv,je,go "
        f"dj=Baal,Enki,Sloar p0=gc38,v3,e1,fi2,fa1,Haurvatat p1=gc41,e2,c6,Jafaar rd=fa "
        f"dd=Sibittis end=premove")


def cell(tile: str, meeples: str, **more) -> dict:
    return {"tile": tile, "meeples": meeples, **more}


OASIS, SMALL, LARGE, VILLAGE = "oasis", "small-market", "large-market", "village"
JSON_BOARD = [  # the same board as BOARD; names and letters as a user might write them
    [cell(OASIS, "BYW"), cell(SMALL, "GRB"), cell(LARGE, "WW"),
     cell(VILLAGE, "BGR", owner=0), cell("sacred place", "YYW", vp=6), cell(SMALL, "RR")],
    [cell("Sacred-Place", "w", vp=10), cell(OASIS, "GG", owner=1, palms=1),
     cell(SMALL, "BBY"), cell(VILLAGE, "WR", palaces=2), cell(LARGE, "YGR"),
     cell("sacred_place", "", vp=6)],
    [cell(SMALL, "YWG"), cell(VILLAGE, "", owner=2, palaces=1),
     cell("sacred-place", "RRB", vp=15), cell(OASIS, "WWB", vp=8), cell(SMALL, "GY"),
     cell(LARGE, "BR")],
    [cell(OASIS, "Y"), cell("sacred-place", "WWG", vp=12), cell(SMALL, "RB"),
     cell(VILLAGE, "GGW"), cell(OASIS, "", owner=0, palms=2),
     cell("sacred-place", "RGBWY", vp=6)],
    [cell(LARGE, "WB"), cell(SMALL, ""), cell(VILLAGE, "YYR"), cell(OASIS, "BGW"),
     cell("sacred-place", "RRW", vp=6), cell(SMALL, "GBY")],
]
FULL_JSON = {
    "game": "five-tribes",
    "board": JSON_BOARD,
    "players": [{"gold": 38, "viziers": 3, "elders": 1, "goods": {"fish": 2}, "fakirs": 1,
                 "djinns": ["haurvatat"]},
                {"gold": 41, "elders": 2, "camels": 6, "djinns": ["Jafaar"]},
                {}],
    "resources": ["fish", "fakir", "silk", "pottery", "Wheat", "spice", "ivory", "jewels",
                  "gold"],
    "djinns": ["Sloar", "baal", "Enki"],
    "bid_track": [2, 0],
    "turn_track": {"18": 1},
    "resource_discard": ["slave"],
    "djinn_discard": ["Sibittis"],
    "rules": {"end_rule": "premove"},
}


# ----------------------------------------------------------------------- round trips

@settings(max_examples=150)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]),
       opening=st.booleans())
def test_random_positions_round_trip(seed, players, opening):
    pos = (random_opening if opening else random_midgame)(seed, players)
    ft.validate(pos)
    assert ft.parse(pos.to_notation()) == pos
    assert ft.Position.from_json(json.loads(json.dumps(pos.to_json()))) == pos
    assert ft.parse(json.dumps(pos.to_json())) == pos
    assert parse_board_text(board_text(pos)) == pos.board
    assert board_text(pos).count("\n") == 4


def test_notation_with_every_field_round_trips_exactly():
    pos = ft.validate(ft.parse(FULL))
    assert pos.to_notation() == FULL
    assert board_text(pos) == BOARD
    assert ft.Position.from_json(pos.to_json()) == pos


def test_json_and_notation_describe_the_same_position():
    assert ft.parse(json.dumps(FULL_JSON)) == ft.parse(FULL)


def test_parsed_fields():
    pos = ft.parse(FULL)
    assert pos.board[1][1] == Cell("oasis", 8, "GG", owner=1, palms=1)
    assert pos.board[3][5] == Cell("sacred-place", 6, "YWBGR")
    assert pos.board[2][2].vp == 15 and pos.board[1][0].meeples == "W"
    p0, p1, p2 = pos.players
    assert (p0.gold, p0.viziers, p0.elders, p0.fakirs) == (38, 3, 1, 1)
    assert p0.goods == (0, 0, 0, 0, 0, 0, 2, 0, 0) and p0.djinns == ("Haurvatat",)
    assert p0.camels == 6 and p1.camels == 6 and p2.camels == 7
    assert pos.resources[:3] == ("fish", "fakir", "silk")
    assert pos.djinns == ("Ba'al", "Enki", "Sloar")
    assert pos.bid_track == (2, 0) and pos.turn_track[0] == 1
    assert pos.phase == "bidding" and pos.to_move == 2 and pos.end_rule == "premove"
    assert pos.resource_discard == ("fakir",) and pos.djinn_discard == ("Sibittis",)


def test_to_json_writes_every_field():
    data = ft.parse(FULL).to_json()
    assert data["board"][0][3] == {"tile": "village", "vp": 5, "meeples": "BGR", "owner": 0,
                                   "palms": 0, "palaces": 0}
    assert data["players"][0] == {"gold": 38, "viziers": 3, "elders": 1, "camels": 6,
                                  "djinns": ["Haurvatat"], "goods": {"fish": 2}, "fakirs": 1}
    assert data["turn_track"] == {"18": 1} and data["bid_track"] == [2, 0]
    assert (data["phase"], data["to_move"], data["rules"]) == (
        "bidding", 2, {"end_rule": "premove", "assassin_optional": False})


def test_the_assassin_rule_round_trips():
    pos = ft.parse(FULL + " kill=optional")
    assert pos.assassin_optional and pos.to_notation() == FULL + " kill=optional"
    assert ft.Position.from_json(pos.to_json()) == pos
    assert pos.to_json()["rules"]["assassin_optional"] is True


# 2 players, the 2-player per_round limit: player 0 has used Enki this round, player 1
# Kumarbi (bidding is under way: player 1's second marker bids next)
DJINN_RULES = (f"five-tribes {PLAIN_ROWS} n=2 turn=18:0,12:1,8:0 dj=Baal,Sloar "
               f"p0=gc20,fa2,Enki*,Haurvatat p1=gc38,fa1,Kumarbi*,Nekir around=4 "
               f"nekir=per_meeple limit=per_round")


@settings(max_examples=150)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]),
       opening=st.booleans())
def test_djinns_used_and_djinn_rules_round_trip(seed, players, opening):
    pos = with_djinn_rules((random_opening if opening else random_midgame)(seed, players), seed)
    ft.validate(pos)
    assert ft.parse(pos.to_notation()) == pos
    assert ft.parse(json.dumps(pos.to_json())) == pos
    assert decode(encode(pos)) == pos


def test_djinn_rules_in_notation_json_and_state():
    pos = ft.validate(ft.parse(DJINN_RULES))
    assert pos.to_notation() == DJINN_RULES
    assert pos.players[0].djinns_used == ("Enki",) and pos.players[1].djinns_used == ("Kumarbi",)
    assert (pos.djinn_neighbour, pos.nekir_per_meeple, pos.two_player_djinn) == (
        4, True, "per_round")
    data = pos.to_json()
    assert data["players"][1]["djinns_used"] == ["Kumarbi"]
    assert data["rules"] == {"end_rule": "live", "assassin_optional": False,
                             "djinn_neighbour": 4, "nekir_per_meeple": True,
                             "two_player_djinn": "per_round"}
    assert ft.parse(json.dumps(data)) == pos
    state = encode(pos)
    kumarbi, enki = (FT_DJINNS.index(d) for d in ("Kumarbi", "Enki"))
    assert list(state[FT.P_USED:FT.P_USED + 4]) == [1 << enki, 1 << kumarbi, 0, 0]
    assert (state[FT.DJINN_NEIGHBOUR], state[FT.NEKIR_PER_MEEPLE], state[FT.DJINN_PER_ROUND]) \
        == (4, 1, 1)


def test_defaults_are_not_written():
    data = ft.parse(FULL).to_json()
    assert all("djinns_used" not in p for p in data["players"])
    assert set(data["rules"]) == {"end_rule", "assassin_optional"}
    state = encode(ft.parse(FULL))
    assert (state[FT.DJINN_NEIGHBOUR], state[FT.NEKIR_PER_MEEPLE], state[FT.DJINN_PER_ROUND]) \
        == (8, 0, 0) and not state[FT.P_USED:FT.P_USED + 4].any()


def test_cells_in_any_order_of_marks():
    assert ft.parse(FULL.replace("V5:WR+P2", "V5:RW+P2")) == ft.parse(FULL)
    text = FULL.replace("O8:GG@1+p1", "O8:GG@1+P3+p1")
    assert ft.parse(text).board[1][1] == Cell("oasis", 8, "GG", 1, palms=1, palaces=3)
    assert ft.parse(FULL.replace("O8:YWB", "o:ywb")) == ft.parse(FULL)


# ----------------------------------------------------------------------- defaults

def minimal(**more) -> dict:
    return {"game": "five-tribes", "board": [[{k: v for k, v in c.items() if k in (
        "tile", "meeples", "vp")} for c in row] for row in JSON_BOARD], **more}


def test_minimal_json_is_a_fresh_four_player_round():
    pos = ft.validate(ft.Position.from_json(minimal()))
    assert pos.n_players == 4
    assert all(p.gold == 50 and p.camels == 8 and p.viziers == p.elders == p.fakirs == 0
               and p.goods == (0,) * 9 and p.djinns == () for p in pos.players)
    assert pos.bid_track == (0, 1, 2, 3) and set(pos.turn_track) == {None}
    assert pos.phase == "bidding" and pos.to_move == 0
    assert pos.resources == () and pos.djinns == () and pos.end_rule == "live"
    assert pos.board[0][0] == Cell("oasis", 8, "YWB")
    assert pos.to_notation() == f"five-tribes {PLAIN_ROWS} n=4"


def test_two_players_have_two_markers_and_eleven_camels():
    pos = ft.validate(ft.Position.from_json(minimal(players=2)))
    assert pos.bid_track == (0, 1, 0, 1)
    assert [p.camels for p in pos.players] == [11, 11]


def test_camels_default_to_those_not_on_tiles():
    pos = ft.Position.from_json(dict(FULL_JSON, players=3))
    assert [p.camels for p in pos.players] == [6, 7, 7]


def test_bid_track_defaults_to_markers_not_yet_on_the_turn_track():
    pos = ft.validate(ft.Position.from_json(minimal(players=4, turn_track={"5": 2,
                                                                           "0": [3, 0]})))
    assert pos.bid_track == (1,) and pos.to_move == 1 and pos.phase == "bidding"
    assert pos.turn_track == (None, None, None, 2, None, None, 3, 0, None)


def test_every_marker_placed_means_turns_and_the_first_bid_plays():
    pos = ft.validate(ft.parse(f"five-tribes {PLAIN_ROWS} n=2 turn=12:1,3:0,0:0,0:1"))
    assert pos.phase == "turns" and pos.to_move == 1 and pos.bid_track == ()
    assert pos.to_json()["turn_track"] == {"12": 1, "3": 0, "0": [0, 1]}


def test_markers_that_played_wait_on_the_bid_track_during_turns():
    text = f"five-tribes {ROWS} n=3 turn=5:0,0:1 phase=turns"
    pos = ft.validate(ft.parse(text))
    assert pos.bid_track == (2,) and pos.to_move == 0 and pos.to_notation() == text
    assert ft.parse(text.replace("n=3", "n=3 bid=2")) == pos


def test_a_wrong_to_move_round_trips_for_validate_to_report():
    pos = ft.parse(FULL + " to=1")
    assert pos.to_notation() == FULL.replace(" res=", " to=1 res=")
    with pytest.raises(PositionError, match=r"^to_move: player 1, but the next marker"):
        ft.validate(pos)


def test_hidden_parts_are_everything_not_visible():
    pos = ft.parse(FULL)
    on_board = "".join(c.meeples for row in pos.board for c in row)
    assert pos.bag == tuple(total - on_board.count(c) - held for c, total, held in
                            zip("YWBGR", (16, 20, 18, 18, 18), (3, 3, 0, 0, 0)))
    #         ivory jewels gold papyrus silk spice fish wheat pottery fakir
    assert pos.resource_deck == (1, 1, 1, 4, 3, 3, 3, 5, 5, 15)
    assert len(pos.djinn_deck) == 22 - 3 - 2 - 1
    assert "Sibittis" not in pos.djinn_deck and "Boaz" in pos.djinn_deck


def test_a_fresh_opening_leaves_an_empty_bag():
    pos = random_opening(7, 3)
    assert pos.bag == (0,) * 5 and sum(pos.resource_deck) == 54 - 9
    assert len(pos.djinn_deck) == 19


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1), where=st.integers(0, 29), colour=st.sampled_from("YWBGR"))
def test_one_meeple_more_than_the_box_is_refused(seed, where, colour):
    pos = random_opening(seed, 4)
    r, c = divmod(where, 6)
    cell = pos.board[r][c]
    more = Cell(cell.tile, cell.vp, "".join(sorted(cell.meeples + colour, key="YWBGR".index)))
    board = tuple(tuple(more if (i, j) == (r, c) else x for j, x in enumerate(row))
                  for i, row in enumerate(pos.board))
    with pytest.raises(PositionError, match="meeples") as info:
        ft.validate(pos.with_(board=board))
    assert info.value.field == "board"


# ----------------------------------------------------------------------- errors

def edit(change) -> str:
    data = copy.deepcopy(FULL_JSON)
    change(data)
    return json.dumps(data)


def at(r: int, c: int, **values):
    return lambda d: d["board"][r][c].update(values)


def player(i: int, **values):
    return lambda d: d["players"][i].update(values)


def top(**values):
    return lambda d: d.update(values)


def drop(key: str):
    return lambda d: d.pop(key)


JSON_ERRORS = [
    ("grid: 4 rows", lambda d: d["board"].pop(), "board", "rows"),
    ("grid: 7 cells", lambda d: d["board"][2].append(cell(OASIS, "")), "board[2]", "cells"),
    ("grid: not a list", top(board="O8:YWB"), "board", "list"),
    ("grid: row not a list", lambda d: d["board"].__setitem__(1, {}), "board[1]", "list"),
    ("unknown tile", at(1, 2, tile="castle"), "board[1][2].tile", "unknown"),
    ("unknown colour", at(2, 3, meeples="YXB"), "board[2][3].meeples", "colour"),
    ("meeples not a string", at(0, 0, meeples=["Y"]), "board[0][0].meeples", "string"),
    ("too many reds on board", at(3, 5, meeples="R" * 15), "board", "red ("),
    ("a stack of 21", at(3, 5, meeples="YYYYWWWWBBBBGGGGRRRRR"), "board[3][5].meeples",
     "at most 20"),
    ("too many viziers held", player(2, viziers=9), "players[0]", "yellow ("),
    ("7 oases", at(2, 4, tile="oasis"), "board", "oasis"),
    ("sacred place without vp", lambda d: d["board"][3][1].pop("vp"), "board[3][1].vp",
     "sacred"),
    ("sacred place worth 7", at(3, 1, vp=7), "board[3][1].vp", "worth"),
    ("two sacred 15s", at(3, 1, vp=15), "board", "worth 15"),
    ("oasis worth 9", at(0, 0, vp=9), "board[0][0].vp", "worth"),
    ("13 palms", at(4, 1, palms=10), "board", "palms"),
    ("11 palaces", at(0, 3, palaces=8), "board", "palaces"),
    ("negative palms", at(4, 1, palms=-1), "board[4][1].palms", "least"),
    ("negative gold", player(1, gold=-5), "players[1].gold", "least"),
    ("negative elders", player(0, elders=-1), "players[0].elders", "least"),
    ("negative goods", player(0, goods={"fish": -2}), "players[0].goods.fish", "least"),
    ("gold as a string", player(0, gold="50"), "players[0].gold", "whole number"),
    ("owner 5 of 3 players", at(4, 1, owner=5), "board[4][1].owner", "player"),
    ("owner -1", at(4, 1, owner=-1), "board[4][1].owner", "player"),
    ("owner as a string", at(4, 1, owner="1"), "board[4][1].owner", "whole number"),
    ("too many camels", player(1, camels=8), "players[1].camels", "camels"),
    ("3 ivory", player(2, goods={"ivory": 2}), "resources", "ivory"),
    ("7 fish", player(1, goods={"fish": 4}), "resources", "fish"),
    ("19 fakirs", player(2, fakirs=16), "resource_discard", "fakir"),
    ("unknown good", player(0, goods={"camel": 1}), "players[0].goods", "unknown"),
    ("fakir as a good", player(0, goods={"fakir": 1}), "players[0].goods", "fakirs"),
    ("unknown card", top(resources=["fish", "coffee"]), "resources[1]", "unknown"),
    ("10 cards in the row", top(resources=["fish"] * 4 + ["fakir"] * 6), "resources", "row"),
    ("unknown djinn", top(djinns=["Genie"]), "djinns[0]", "unknown"),
    ("djinn in two places", player(2, djinns=["Enki"]), "players[2].djinns", "also"),
    ("djinn twice in one place", top(djinn_discard=["Utug", "utug"]), "djinn_discard",
     "twice"),
    ("unknown djinn held", player(1, djinns=["Jafar"]), "players[1].djinns[0]", "unknown"),
    ("unknown djinn discarded", top(djinn_discard=["Genie"]), "djinn_discard[0]",
     "unknown"),
    ("unknown djinn used", player(0, djinns_used=["Genie"]), "players[0].djinns_used[0]",
     "unknown"),
    ("djinn held by two players", player(1, djinns=["Jafaar", "Haurvatat"]),
     "players[1].djinns", "also in players[0].djinns"),
    ("djinn face up and discarded", top(djinn_discard=["Sloar"]), "djinn_discard",
     "also in djinns"),
    ("djinn held and discarded", top(djinn_discard=["Jafaar"]), "djinn_discard",
     "also in players[1].djinns"),
    ("djinn held twice", player(0, djinns=["Haurvatat", "haurvatat"]), "players[0].djinns",
     "twice"),
    ("used, not held", lambda d: d.update(bid_track=[], turn_track={"18": 1, "5": 2, "0": [0]})
     or d["players"][1].update(djinns=["Jafaar"], djinns_used=["Enki"]),
     "players[1].djinns_used", "does not hold"),
    ("used twice", lambda d: d.update(bid_track=[], turn_track={"18": 1, "5": 2, "0": [0]})
     or d["players"][1].update(djinns=["Jafaar", "Utug"], djinns_used=["Utug", "utug"]),
     "players[1].djinns_used", "twice"),
    ("passive djinn used", lambda d: d.update(bid_track=[], turn_track={"18": 1, "5": 2,
                                                                         "0": [0]})
     or d["players"][1].update(djinns_used=["Jafaar"]),
     "players[1].djinns_used", "no power"),
    ("used out of the mover's turn", lambda d: d["players"][0].update(
        djinns=["Haurvatat", "Utug"], djinns_used=["Utug"]),
     "players[0].djinns_used", "not playing a turn"),
    ("used not a list", player(0, djinns_used="Utug"), "players[0].djinns_used", "list"),
    ("neighbours 6", top(rules={"djinn_neighbour": 6}), "rules.djinn_neighbour", "8 or 4"),
    ("neighbours as text", top(rules={"djinn_neighbour": "4"}), "rules.djinn_neighbour",
     "8 or 4"),
    ("nekir not a boolean", top(rules={"nekir_per_meeple": 1}), "rules.nekir_per_meeple",
     "true or false"),
    ("two-player limit unknown", top(rules={"two_player_djinn": "per_game"}),
     "rules.two_player_djinn", "per_turn"),
    ("per_round with 3 players", top(rules={"two_player_djinn": "per_round"}),
     "rules.two_player_djinn", "2-player"),
    ("4 face-up djinns", top(djinns=["Boaz", "Utug", "Leta", "Nekir"]), "djinns", "3"),
    ("marker missing", top(bid_track=[2]), "bid_track", "marker"),
    ("marker twice", top(bid_track=[2, 0, 1]), "turn_track", "marker"),
    ("2 players have 2 markers", lambda d: d.update(players=2, bid_track=[0, 1]) or d[
        "board"][2][1].update(owner=None), "bid_track", "each has 2"),
    ("bid_track seat 7", top(bid_track=[7, 0]), "bid_track[0]", "player"),
    ("turn_track seat 3", top(turn_track={"18": 3}), "turn_track.18", "player"),
    ("no space costs 7", top(turn_track={"7": 1}), "turn_track.7", "costs"),
    ("4 zeros", top(players=4, bid_track=[], turn_track={"0": [0, 1, 2, 3]}),
     "turn_track.0", "zero"),
    ("to_move 5", top(to_move=5), "to_move", "player"),
    ("to_move not the next marker", top(to_move=0), "to_move", "next marker"),
    ("phase unknown", top(phase="auction"), "phase", "bidding"),
    ("turns with no marker left", top(phase="turns", bid_track=[2, 0, 1], turn_track={}),
     "phase", "turn_track"),
    ("bidding with no marker waiting", top(phase="bidding", bid_track=[],
                                          turn_track={"18": 1, "0": [0, 2]}), "phase",
     "bid_track"),
    ("end rule", top(rules={"end_rule": "loose"}), "rules.end_rule", "live"),
    ("assassin rule not a boolean", top(rules={"assassin_optional": "yes"}),
     "rules.assassin_optional", "true or false"),
    ("unknown rule", top(rules={"house_rule": True}), "rules.house_rule",
     "unknown"),
    ("5 players", top(players=5), "players", "2-4"),
    ("list of 1 player", top(players=[{}]), "players", "2-4"),
    ("players as text", top(players="three"), "players", "whole number"),
    ("unknown player field", player(0, money=3), "players[0].money", "unknown"),
    ("unknown cell field", at(0, 0, colour="Y"), "board[0][0].colour", "unknown"),
    ("unknown top field", top(bag="YYW"), "bag", "unknown"),
    ("wrong game", top(game="camel-up"), "game", "five-tribes"),
    ("no game", drop("game"), "game", "missing"),
    ("no board", drop("board"), "board", "missing"),
    ("no tile", lambda d: d["board"][0][0].pop("tile"), "board[0][0].tile", "missing"),
]


@pytest.mark.parametrize("change,field,word", [pytest.param(*case[1:], id=case[0])
                                                for case in JSON_ERRORS])
def test_invalid_json_names_the_field(change, field, word):
    with pytest.raises(PositionError) as info:
        ft.validate(ft.parse(edit(change)))
    message = str(info.value)
    assert info.value.field == field, message
    assert word in info.value.reason, message
    assert message == f"{field}: {info.value.reason}" and "\n" not in message


NOTATION_ERRORS = [
    ("4 rows", FULL.replace(ROWS, ROWS.rsplit("/", 1)[0]), "board", "rows"),
    ("5 cells", FULL.replace("O8:YWB,", ""), "board[0]", "cells"),
    ("tile letter", FULL.replace("L4:WW", "X4:WW"), "board[0][2]", "tile letter"),
    ("not a cell", FULL.replace("L4:WW", "L4WW"), "board[0][2]", "not a cell"),
    ("colour", FULL.replace("L4:WW", "L4:WQ"), "board[0][2].meeples", "colour"),
    ("sacred place without vp", FULL.replace("D10:W", "D:W"), "board[1][0]", "sacred"),
    ("palms twice", FULL.replace("+p1", "+p1+p1"), "board[1][1]", "twice"),
    ("owner 3 of 3", FULL.replace("V5:BGR@0", "V5:BGR@3"), "board[0][3].owner", "player"),
    ("negative gold", FULL.replace("gc41", "gc-5"), "players[1].gold", "least"),
    ("gold given twice", FULL.replace("gc41", "gc41,gc2"), "p1", "twice"),
    ("unknown card code", FULL.replace("fi2", "xx2"), "p0", "unknown"),
    ("unknown djinn", FULL.replace("Jafaar", "Jafar"), "players[1].djinns[0]", "unknown"),
    ("player 3 of 3", FULL + " p3=gc1", "p3", "no player"),
    ("space taken twice", FULL.replace("turn=18:1", "turn=18:1,18:2"), "turn_track",
     "twice"),
    ("bad bid", FULL.replace("turn=18:1", "turn=18"), "turn", "cost:seat"),
    ("unknown cost", FULL.replace("turn=18:1", "turn=17:1"), "turn", "costs"),
    ("unknown field", FULL + " bag=YY", "notation", "unknown"),
    ("field twice", FULL + " n=3", "n", "twice"),
    ("n=5", FULL.replace("n=3", "n=5"), "n", "2-4"),
    ("n=x", FULL.replace("n=3", "n=x"), "n", "whole number"),
    ("bid seats", FULL.replace("bid=2,0", "bid=2,a"), "bid", "whole number"),
    ("end rule", FULL.replace("premove", "later"), "rules.end_rule", "live"),
    ("wrong game", FULL.replace("five-tribes", "five-tribe"), "game", "five-tribes"),
    ("no board", "five-tribes", "notation", "board"),
    ("unknown used djinn", DJINN_RULES.replace("Enki*", "Enky*"), "players[0].djinns[0]",
     "unknown"),
    ("used mark twice", DJINN_RULES.replace("Enki*", "Enki**"), "players[0].djinns[0]",
     "unknown"),
    ("held and used twice", DJINN_RULES.replace("Enki*", "Enki*,Enki*"), "players[0].djinns",
     "twice"),
    ("held by two players", DJINN_RULES.replace("Nekir", "Haurvatat"), "players[1].djinns",
     "also in players[0].djinns"),
    ("held and face up", DJINN_RULES.replace("Nekir", "Sloar"), "players[1].djinns",
     "also in djinns"),
    ("passive used", DJINN_RULES.replace("Nekir", "Nekir*"), "players[1].djinns_used",
     "no power"),
    ("used by a bidder, per turn", DJINN_RULES.replace(" limit=per_round", ""),
     "players[0].djinns_used", "not playing a turn"),
    ("around=6", DJINN_RULES.replace("around=4", "around=6"), "around", "8 or 4"),
    ("around=x", DJINN_RULES.replace("around=4", "around=x"), "around", "whole number"),
    ("nekir=x", DJINN_RULES.replace("per_meeple", "each"), "nekir", "per_action"),
    ("limit=x", DJINN_RULES.replace("per_round", "per_game"), "limit", "per_turn"),
    ("per_round with 3 players", FULL + " limit=per_round", "rules.two_player_djinn",
     "2-player"),
]


@pytest.mark.parametrize("text,field,word", [pytest.param(*case[1:], id=case[0])
                                              for case in NOTATION_ERRORS])
def test_invalid_notation_names_the_field(text, field, word):
    with pytest.raises(PositionError) as info:
        ft.validate(ft.parse(text))
    assert info.value.field == field, str(info.value)
    assert word in info.value.reason, str(info.value)


def test_malformed_json_is_one_line():
    with pytest.raises(PositionError, match=r"^position: malformed JSON at line 1"):
        ft.parse('{"game": "five-tribes",')


def test_board_text_errors_name_the_cell():
    with pytest.raises(PositionError, match=r"^board\[4\]\[0\]\.meeples: unknown colour 'Z'"):
        parse_board_text(BOARD.replace("L4:WB", "L4:ZB"))
    with pytest.raises(PositionError, match=r"^board: 4 rows, expected 5"):
        parse_board_text(BOARD.rsplit("\n", 1)[0])


def test_hand_built_positions_are_checked_for_canonical_form():
    pos = ft.parse(FULL)
    row = (Cell("oasis", 8, "WY"),) + pos.board[0][1:]
    with pytest.raises(PositionError, match=r"^board\[0\]\[0\]\.meeples: colours must be in"):
        ft.validate(pos.with_(board=(row,) + pos.board[1:]))
    with pytest.raises(PositionError, match=r"^turn_track\.0: zero spaces fill"):
        ft.validate(pos.with_(turn_track=(1,) + (None,) * 6 + (0, None), bid_track=(2,)))
    with pytest.raises(PositionError, match=r"^djinns\[0\]: unknown djinn 'Baal'"):
        ft.validate(pos.with_(djinns=("Baal",)))
    with pytest.raises(PositionError, match=r"^resources\[0\]: unknown resource card 'Fish'"):
        ft.validate(pos.with_(resources=("Fish",)))
    with pytest.raises(PositionError, match=r"^board\[0\]\[0\]\.tile: unknown tile type"):
        ft.validate(pos.with_(board=((Cell("Oasis", 8),) + pos.board[0][1:],) + pos.board[1:]))
    with pytest.raises(PositionError, match=r"^turn_track: 8 spaces"):
        ft.validate(pos.with_(turn_track=(1,) + (None,) * 7))


def test_every_meeple_over_count_in_one_message():
    """Viziers and Elders given to players on a board that holds every meeple: both
    colours' surplus in one message, each with where its meeples stand."""
    data = json.loads(open("examples/five-tribes-opening-4p.json").read())
    data["players"][0]["viziers"] = 2
    data["players"][1]["elders"] = 3
    with pytest.raises(PositionError) as refused:
        ft.validate(ft.Position.from_json(data))
    assert str(refused.value) == (
        "players[0]: more meeples than the box holds: 18 yellow (16 on the board; 2 held: "
        "p0 2; the box has 16), 23 white (20 on the board; 3 held: p1 3; the box has 20)")
