"""Errors speak notation to a notation user (issue 34, item 2): a position typed as one-line
notation is refused naming the key the user typed (``bets``, not ``leg_tickets``) and, where
there is one, how to write it (``analyser/notation_errors.py``); the same broken position
as JSON is refused naming the JSON field, as before. Every game, through the CLI."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from checks import assert_bad_input
from oddsbot.analyser import registry
from oddsbot.analyser.notation_errors import Key, NotationKeys

CU = "camel-up BGP/Y/R/11/W/K BGYRPX n=4 to=0"
CUC = ("camel-up-cards n=4 to=0 view=0 phase=start leg=1 setup=7/3/2 ages=0123 L=17 "
       "cards=222222222 line=Y track=1:O,2:BG,3:W fox=- palm=- rev=- play=- "
       "blue=B1,Y1,O1,G1 own=O1.O1.B1/W1.W1/G1 hands=1111 lead=0:;1:;2:;3: mid=0:;1:;2:;3: "
       "win=---- lose=---- money=3,3,3,3")
FT = ("five-tribes O8:GGR,S6:WBB,L4:WWB,V5:WWB,D6:YBB,D10:WWR/S6:BRR,D6:YGG,S6:YYR,O8:WBR,"
      "O8:YWR,S6:WBG/L4:YGG,O8:YBB,S6:YWB,V5:WWG,D15:YYW,L4:WBR/V5:WBG,D12:YYG,D6:WBR,S6:YYW,"
      "L4:BGR,D6:GRR/V5:YGR,S6:WBG,V5:BGR,S6:GRR,O8:GGR,O8:YWR n=4")
KR = ("kingdom-run p4 K,W,F,G to=1 t=0:K1,W1,F1,G1/1:K2,W2,F2,G2/2:K3,W3,F3,G3/"
      "3:K4,W4,F4,G4 tok=3,3,3,3 roll=SCCY rr=0")
MU = ("mumia 4p A | S:AAABBBCCCDDDM -1 -2 -3 -4 -5 -6 -7 -8 c:g c:g c:g c:g c:g c:g +8:g +7:g "
      "+6 +5 +4 +3 +2 +1 -1 -2 -3 -4 -5 -6 -7 -8 -9 -10 F | A:- B:- C:- D:- | "
      "mummy 4,3,2,1 taken -")
BETS = ("one entry per player, comma-separated, each colour letter + value pairs, empty for "
        "none, e.g. bets=P5,G5P3,, (4 players)")
TRACK = ("cells split by '/' for spaces 1-16: camel letters bottom to top, a number for a "
         "run of empty spaces, +N or -N for player N's spectator (2014: desert) tile")
TURN = "the occupied turn order spaces as cost:seat in play order, e.g. turn=18:2,3:0,0:1,0:3"
BID = "the bid order track's seats, front first, e.g. bid=2,0,1"
CAMELS = "a letter, B G Y R P W K, or the colour's name"
MEEPLES = "more meeples than the box holds:"
YELLOW = "18 yellow (16 on the board; 2 held: p0 2; the box has 16"


def _set(field: str, value) -> Callable[[dict], dict]:
    """A JSON position with ``field`` set to ``value``."""
    return lambda data: {**data, field: value}


# (a broken notation position, its line; how the same position breaks as JSON: None when
# the notation parses (its JSON is the parsed position's), else a change to the valid
# position's JSON; the JSON line). The lines leave out 'oddsbot: error: '.
CASES = [
    # camel-up: the issue's example, a bad track cell, a tile, a validation complaint
    (f"{CU} bets=,G5", f"bets: has 2 entries for 4 players; {BETS}",
     _set("leg_tickets", [[], [["green", 5]]]), "leg_tickets: has 2 entries for 4 players"),
    (f"{CU} bets=G5,G5,,", "bets: green tickets held [5, 5] are not the top 2 of the stack "
     "[5, 3, 2, 2]", None, "leg_tickets: green tickets held [5, 5] are not the top 2 of the "
     "stack [5, 3, 2, 2]"),
    (CU.replace("/K ", "/Q "), f"track cell 'Q': unknown camel 'Q' (expected {CAMELS}); "
     f"{TRACK}", _set("track", {"1": ["blue", "Q"]}),
     f"track[1]: unknown camel 'Q' (expected {CAMELS})"),
    (CU.replace("/11/", "/10/"), f"track: describes 15 spaces, expected 16; {TRACK}", None,
     None),
    (CU.replace("/11/", "/10/+7/"), "track (a tile): owner 7 is not a player (0..3)", None,
     "tiles[0]: owner 7 is not a player (0..3)"),
    (f"{CU} money=3,3", "money: has 2 entries for 4 players; EP per player, comma-separated, "
     "e.g. money=4,2,5,3", _set("money", [3, 3]), "money: has 2 entries for 4 players"),
    (f"{CU} pt=1,0,0,0", "pt: players hold 1 pyramid tickets but 0 dice were revealed this "
     "leg", None, "pyramid_tickets: players hold 1 pyramid tickets but 0 dice were revealed "
     "this leg"),
    (f"{CU} win=1B,1B", "win[1]: player 1 placed two blue cards", None,
     "winner_deck[1]: player 1 placed two blue cards"),
    # camel-up-cards
    (CUC.replace("blue=B1,Y1,O1,G1", "blue=B1,Y1,O1"), "blue: has 3 entries for 4 players; "
     "each seat's blue card, comma-separated, e.g. blue=W1,G2,O1,Y1 ('-' for none)",
     _set("blue_cards", ["B1", "Y1", "O1"]), "blue_cards: has 3 entries for 4 players"),
    (CUC.replace("3:W ", "3:WY "), "track (space 3): camel Y appears twice (also on the start "
     "card)", None, "stacks.3: camel Y appears twice (also on the start card)"),
    (CUC.replace("own=O1.O1.B1/W1.W1/G1", "own=O1.O1.B1/W1/G1"), "own (deck): 1 card, but "
     "each player puts 2 into the race deck (setup)", None,
     "own_cards.deck: 1 card, but each player puts 2 into the race deck (setup)"),
    (CUC.replace("lead=0:;", "lead=0:O3;"), "lead[0]: O3 is held but O5, above it in the stack "
     "(5, 3, 2, 2), is not: the stack is taken top first", None, "leg_cards[0].leader: O3 is "
     "held but O5, above it in the stack (5, 3, 2, 2), is not: the stack is taken top first"),
    (CUC.replace("play=- ", "play=1:G2 "), "hands[1]: seat 1 played its hand card (play[0]), "
     "so it holds none", None, "hands[1]: seat 1 played its hand card (played_hand_cards[0]), "
     "so it holds none"),
    # five-tribes: the issue's phase=turns, and the markers, holdings and cells
    (f"{FT} bid=3,2,0,1 phase=turns", "phase: turns, but no marker is left on turn=; "
     f"{TURN}", None, "phase: turns, but no marker is left on turn_track"),
    (f"{FT} bid=3,2,0", "bid: player 1 has 0 marker(s) on bid= and 0 on turn=; with 4 players "
     f"each has 1; {BID}", None, "bid_track: player 1 has 0 marker(s) on bid_track and 0 on "
     "turn_track; with 4 players each has 1"),
    (f"{FT} bid=3,2,0,1 to=2", "to: player 2, but the next marker to act (the front of bid=) "
     f"is player 3's; {BID}", None, "to_move: player 2, but the next marker to act (the "
     "front of bid_track) is player 3's"),
    (f"{FT} bid=3,2,0,1 p1=c9", "p1 c: 9 left + 0 on tiles; with 4 players each has 8 camels",
     None, "players[1].camels: 9 left + 0 on tiles; with 4 players each has 8 camels"),
    (f"{FT} bid=3,2,0,1 p1=Baal* p0=Baal", "p1.djinns: Ba'al is also in p0.djinns", None,
     "players[1].djinns: Ba'al is also in players[0].djinns"),
    (FT.replace("V5:WWB", "V5:WWB@7", 1) + " bid=3,2,0,1", "r0c3 @owner: 7 is not a "
     "player (0..3)", None, "board[0][3].owner: 7 is not a player (0..3)"),
    # issue 34 item 3: every colour over in one message, a surplus on the board located
    (f"{FT} bid=3,2,0,1 p0=gc38,v2", f"p0: {MEEPLES} {YELLOW})", None,
     f"players[0]: {MEEPLES} {YELLOW})"),
    (FT.replace("O8:GGR,S6", "O8:GGRWWW,S6") + " bid=3,2,0,1 p0=gc38,v2", f"board: {MEEPLES} "
     f"{YELLOW}), 23 white (23 on the board: r0c0 3, r0c2 2, r0c3 2, …; the box has 20)",
     None, f"board: {MEEPLES} {YELLOW}), 23 white (23 on the board: board[0][0] 3, "
     "board[0][2] 2, board[0][3] 2, …; the box has 20)"),
    (f"{FT.replace('n=4', 'n=5')}", "n: Five Tribes is for 2-4 players, got 5", None, None),
    # kingdom-run
    (KR.replace("tok=3,3,3,3", "tok=3,3,3"), "tok: one count per player: 4 players, got 3",
     None, "tokens: one count per player: 4 players, got 3"),
    (KR.replace(" tok=3,3,3,3", ""), "tok: required word tok= missing; the victory tokens "
     "per player, comma-separated, e.g. tok=4,4,4", None, None),
    (KR.replace("/3:K4", "/99:K4"), "t (space 99): K4 is on space 99 but the track has spaces "
     "0..25", None, "track.99: K4 is on space 99 but the track has spaces 0..25"),
    (KR.replace("rr=0", "rr=0 used=S"), "rr: must be true once dice are used or runners have "
     "crossed this turn (the re-roll comes first)", None, "rerolled: must be true once dice "
     "are used or runners have crossed this turn (the re-roll comes first)"),
    # mumia
    (MU.replace("mummy 4,3,2,1", "mummy 3,2,1"), "mummy ... taken: the tokens taken must be 4",
     None, "mummy_taken: the tokens taken must be 4"),
    (MU + " | tokens A:swap B:- C:- D:- pile -", "tokens: action tokens without expansion e4",
     _set("action_tokens", {"hands": [["swap"], [], [], []], "pile": []}),
     "action_tokens: action tokens without expansion e4"),
    (MU.replace("4p A", "4p Z"), "seat to move: 'Z' is not a seat (A..D)", None, None),
    # seats as letters, the track's S: and F: fields, fields counted from S:, A: stacks
    (MU.replace("S:AAAB", "S:AAAAB"), "track: seat A must have 3 pawns on the track (S: and "
     "F: included), got 4 (4 on S:)", None, "track: seat 0 must have 3 pawns on the track "
     "(START and FINISH included), got 4 (4 on START)"),
    (MU.replace("-1 -2 -3 -4 -5", "-1:B -2 -3 -4 -5", 1), "track: seat B must have 3 pawns on "
     "the track (S: and F: included), got 4 (3 on S:, 1 on field 1)", None, "track: seat 1 "
     "must have 3 pawns on the track (START and FINISH included), got 4 (3 on START, 1 on "
     "field 1)"),
    (MU.replace("A:- B:-", "A:-3,-3,-3 B:-"), "collected A: one -3 too many (also on the "
     "track): the game has 2", None, "collected[0][0]: one -3 too many (also on the track): "
     "the game has 2"),
    (MU.replace("c:g +8:g", "c:g c:g +8:g"), "track field 15 (S: = 0): one camel too many: "
     "the game has 6", None, "track[15].tile: one camel too many: the game has 6"),
]


def test_every_game_is_covered():
    games = {registry.spec_of_text(notation).name for notation, *_ in CASES}
    assert games == set(registry.specs())


@pytest.mark.parametrize("notation, line, to_json, json_line", CASES,
                         ids=[case[1][:40] for case in CASES])
def test_notation_names_its_keys_json_its_fields(oddsbot_cli, tmp_path, notation, line,
                                                 to_json, json_line):
    """The notation's line names the key and the fix, exactly; the same position as JSON
    names the JSON field, exactly (as before)."""
    said = assert_bad_input(oddsbot_cli("validate", notation))
    assert said == f"oddsbot: error: {line}"
    if json_line is None:
        return
    face = registry.spec_of_text(notation).load()
    valid = next(text for text in (CU, CUC, FT, KR, MU)
                 if registry.spec_of_text(text).name == face.NAME)
    data = (face.parse(notation).to_json() if to_json is None
            else to_json(face.parse(valid).to_json()))
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    said = assert_bad_input(oddsbot_cli("validate", str(path)))
    assert said == f"oddsbot: error: {json_line}"


def test_the_issue_example_on_advise(oddsbot_cli):
    """The report's own command: advise, not only validate, names bets= and its form."""
    said = assert_bad_input(oddsbot_cli("advise", f"{CU} bets=,G5"))
    assert said == f"oddsbot: error: bets: has 2 entries for 4 players; {BETS}"


def test_a_record_start_line_speaks_notation(oddsbot_cli, tmp_path):
    """A record's start line is notation: its complaints name the key too."""
    path = tmp_path / "game.record"
    path.write_text(f"start {CU} bets=,G5\n")
    said = assert_bad_input(oddsbot_cli("replay", str(path)))
    assert said == f"oddsbot: error: line 1: bad start position: bets: has 2 entries for 4 " \
                   f"players; {BETS}"


def test_the_words_of_a_declaration():
    """The mechanism alone: a path's numbers carried over, a key named in a reason, the
    form of the field's key at parse time and only a whole named key's when validating."""
    keys = NotationKeys({"leg_tickets": Key("bets", "FORM"), "players[*]": Key("p*"),
                         "turn_track": Key("turn", "TURN"), "cells[*][*]": Key("r*c*")})
    from oddsbot.errors import PositionError

    def worded(field: str, reason: str, validating: bool = False) -> str:
        return str(keys.worded(PositionError(field, reason), validating))

    assert worded("leg_tickets[2]", "bad") == "bets[2]: bad; FORM"
    assert worded("leg_tickets", "bad", validating=True) == "bets: bad"
    assert worded("cells[1][4].vp", "x") == "r1c4.vp: x"
    assert worded("phase", "none left on turn_track", True) == "phase: none left on turn=; TURN"
    assert worded("x", "also in players[3].djinns") == "x: also in p3.djinns"
    assert worded("bets[0]", "not pairs") == "bets[0]: not pairs; FORM"  # the parser's word
    assert worded("n", "for 4 players") == "n: for 4 players"  # nothing declared: as it is
    assert worded("leg_tickets", "says FORM") == "bets: says FORM"  # the fix said once
    seats = NotationKeys({"stacks[*]": Key("stack @", whole=True)}, seats="ABCD",
                         words={"START": "S:"})
    said = seats.worded(PositionError("stacks[2][0]", "seat 3 has 1 on START, seats 12"))
    assert str(said) == "stack C: seat D has 1 on S:, seats 12"
