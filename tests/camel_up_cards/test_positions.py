"""Camel Up Cards positions: JSON and notation round trips, defaults, helpers, and every §6
invariant of docs/games/camel-up-cards.md (each refusal one line naming the field)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oddsbot.analyser.camel_up_cards.json_form import position_from_json, position_to_json
from oddsbot.analyser.camel_up_cards.notation import parse_notation, to_notation
from oddsbot.analyser.camel_up_cards.position import (COLOURS, DEFAULT_LAST, DEFAULT_SETUP,
                                                      FULL_SET, LEADER_VALUES, PHASES,
                                                      Figure, Position, blue_count)
from oddsbot.analyser.camel_up_cards.validate import validate
from oddsbot.errors import PositionError

# A legal 4-player position (seat 0's view): W and G on the start card, the fox on 7.
BASE = ("camel-up-cards n=4 to=0 view=0 phase=start leg=1 setup=7/3/2 ages=0123 L=17 "
        "cards=222222222 line=WG track=1:B,3:YO fox=7@1 palm=- rev=Y1,O2 play=1:G2 "
        "blue=W1,G1,O1,Y1 own=W1.W1.B1/O1.B1/G1 hands=1011 lead=0:O5;1:;2:;3: "
        "mid=0:Y;1:;2:;3: win=-O-- lose=---- money=3,3,3,3")


def alter(text: str = BASE, **values: str | None) -> str:
    """``text`` with the given keys' values replaced (None: the key left out)."""
    tokens = text.split()
    out = [tokens[0]]
    for token in tokens[1:]:
        key = token.partition("=")[0]
        if key in values:
            if values[key] is not None:
                out.append(f"{key}={values.pop(key)}")
            else:
                values.pop(key)
        else:
            out.append(token)
    out += [f"{k}={v}" for k, v in values.items() if v is not None]
    return " ".join(out)


def round_trips(pos: Position) -> None:
    assert parse_notation(to_notation(pos)) == pos
    text = json.dumps(pos.to_json())
    again = Position.from_json(json.loads(text))
    assert again == pos and hash(again) == hash(pos)
    assert position_to_json(again) == json.loads(text)
    assert to_notation(parse_notation(to_notation(pos))) == to_notation(pos)


# ---------------------------------------------------------------------- random legal positions


def random_position(rng: random.Random) -> Position:
    """A legal position: a real deal of the 30 cards, random camels, figures and bets."""
    n = rng.randint(2, 6)
    dealt, discarded, into = DEFAULT_SETUP[n]
    last = rng.randint(15, 19)
    cards: list[int] = []
    while sum(cards) < last:
        cards.append(1 if rng.random() < 0.15 else 2)
    where = {c: 0 if rng.random() < 0.3 else rng.randint(1, last) for c in COLOURS}
    order = list(COLOURS)
    rng.shuffle(order)
    stacks: list[list[str]] = [[] for _ in range(last)]
    for c in order:
        if where[c]:
            stacks[where[c] - 1].append(c)
    start_line = tuple(c for c in order if not where[c])
    rear = 0 if start_line else min(where.values())
    free = [s for s in range(rear + 1, last + 1) if not stacks[s - 1]]
    rng.shuffle(free)
    figures = []
    for _ in range(2):
        figures.append(Figure(free.pop(), rng.randrange(n))
                       if free and rng.random() < 0.5 else None)
    # leg setup (§3): deal, discard, into the deck, reveal one (3+ players), keep one
    deck = list(FULL_SET)
    rng.shuffle(deck)
    dealt_cards = [deck[i * dealt:(i + 1) * dealt] for i in range(n)]
    blues = [h[discarded + into] if n >= 3 else None for h in dealt_cards]
    hand = [h[-1] for h in dealt_cards]
    race = [c for h in dealt_cards for c in h[discarded:discarded + into]]
    race += [b for b in blues if b is not None]
    rng.shuffle(race)
    revealed = tuple(race[:rng.randrange(len(race))])
    seats = [s for s in range(n) if rng.random() < 0.4]
    rng.shuffle(seats)
    viewer = rng.randrange(n)
    leader: list[list[tuple[str, int]]] = [[] for _ in range(n)]
    midfield: list[list[str]] = [[] for _ in range(n)]
    for c in COLOURS:
        for value in LEADER_VALUES[:rng.randint(0, 4)]:
            leader[rng.randrange(n)].append((c, value))
        if rng.random() < 0.4:
            midfield[rng.randrange(n)].append(c)
    finals = []
    for _ in range(2):
        left = list(COLOURS)
        rng.shuffle(left)
        finals.append(tuple(left.pop() if left and rng.random() < 0.4 else None
                            for _ in range(n)))
    ages = list(range(n))
    rng.shuffle(ages)
    mine = dealt_cards[viewer]
    return Position(
        players=n, ages=tuple(ages), last=last, cards=tuple(cards), start_line=start_line,
        stacks=tuple(map(tuple, stacks)), fox=figures[0], palm=figures[1],
        viewer=viewer, revealed=revealed, played=tuple((s, hand[s]) for s in seats),
        blue=tuple(blues), own_discarded=tuple(mine[:discarded]),
        own_deck=tuple(mine[discarded:discarded + into]),
        own_hand=None if viewer in seats else hand[viewer],
        leader=tuple(map(tuple, leader)), midfield=tuple(map(tuple, midfield)),
        winner=finals[0], loser=finals[1],
        money=tuple(rng.choice((1, rng.randint(1, 40), 999_999)) for _ in range(n)),
        to_move=rng.randrange(n), phase=rng.choice(PHASES), leg=rng.randint(1, 6))


@settings(max_examples=300)
@given(rng=st.randoms(use_true_random=False))
def test_random_legal_positions_validate_and_round_trip(rng):
    pos = random_position(rng)
    assert validate(pos) is pos
    round_trips(pos)
    assert len(pos.own_dealt) == pos.dealt
    assert pos.deck_count == pos.deck_size - len(pos.revealed) > 0
    for c in COLOURS:
        held = sorted((v for row in pos.leader for col, v in row if col == c), reverse=True)
        assert tuple(held) + pos.leader_stack(c) == LEADER_VALUES
        assert pos.midfield_available(c) == all(c not in row for row in pos.midfield)


# ---------------------------------------------------------------------- hand-made positions


def test_base_position_parses_validates_and_round_trips():
    pos = validate(parse_notation(BASE))
    assert to_notation(pos) == BASE
    round_trips(pos)
    assert pos.start_line == ("W", "G") and pos.stack(3) == ("Y", "O")
    assert pos.fox == Figure(7, 1) and pos.palm is None
    assert pos.deck_size == 12 and pos.deck_count == 10 and pos.unknown_size == 6
    assert pos.own_dealt == ("W1", "W1", "B1", "O1", "B1", "W1", "G1")
    assert pos.leader_stack("O") == (3, 2, 2) and pos.leader_stack("W") == LEADER_VALUES
    assert not pos.midfield_available("Y") and pos.midfield_available("B")
    assert pos.played_card(1) == "G2" and pos.played_card(0) is None
    assert pos.last_camel == 0 and pos.camel_position("O") == 3


def test_the_briefs_example_round_trips_but_shows_three_g2():
    text = alter(blue="W1,G2,O1,Y1", own="W1.W1.G2/O1.B1/G1")
    pos = parse_notation(text)
    assert to_notation(pos) == text
    round_trips(pos)
    with pytest.raises(PositionError) as info:
        validate(pos)
    assert info.value.field == "blue[1]" and "G2" in info.value.reason


def test_json_form_is_the_documented_shape():
    data = parse_notation(BASE).to_json()
    assert data == {
        "game": "camel-up-cards", "players": 4, "ages": [0, 1, 2, 3], "setup": [7, 3, 2],
        "last": 17, "cards": [2] * 9, "start": ["W", "G"],
        "stacks": {"1": ["B"], "3": ["Y", "O"]}, "fox": {"space": 7, "holder": 1},
        "palm": None, "viewer": 0, "revealed": ["Y1", "O2"],
        "played": [{"player": 1, "card": "G2"}], "blue": ["W1", "G1", "O1", "Y1"],
        "own": {"discarded": ["W1", "W1", "B1"], "deck": ["O1", "B1"], "hand": "G1"},
        "hands": [True, False, True, True], "leader": [[["O", 5]], [], [], []],
        "midfield": [["Y"], [], [], []], "winner": [None, "O", None, None],
        "loser": [None] * 4, "money": [3] * 4, "to_move": 0, "phase": "start", "leg": 1}


def test_minimal_forms_take_the_defaults():
    data = {"game": "camel-up-cards", "players": 2, "start": ["W", "G", "O", "B", "Y"],
            "own": {"discarded": ["G1", "W1", "W1", "W1", "W1"],
                    "deck": ["G1"] * 4 + ["O1", "W1"], "hand": "B1"}}
    pos = validate(position_from_json(data))
    text = "camel-up-cards n=2 line=WGOBY own=W1.W1.G1.W1.W1/G1.G1.O1.G1.G1.W1/B1"
    assert parse_notation(text) == pos
    assert pos.setup == (12, 5, 6) and pos.last == 15 and pos.cards == (2,) * 8
    assert pos.stacks == ((),) * 15 and pos.ages == (0, 1) and pos.money == (3, 3)
    assert pos.blue == (None, None) and pos.hands == (True, True) and pos.viewer == 0
    assert pos.own_discarded == ("W1", "W1", "W1", "W1", "G1")  # canonical order
    assert pos.deck_size == 12 and pos.phase == "start" and pos.leg == 1
    round_trips(pos)
    for n in range(2, 7):
        p = Position(players=n, to_move=n - 1)
        assert p.setup == DEFAULT_SETUP[n] and p.last == DEFAULT_LAST[n]
        assert p.viewer == n - 1 and sum(p.cards) in (p.last, p.last + 1)
        assert p.deck_size == n * (p.into_deck + blue_count(n))


def test_omitted_hands_follow_the_played_cards():
    pos = parse_notation(alter(hands=None, view="1", own="W1.W1.B1/O1.B1/-"))
    assert pos.hands == (True, False, True, True) and pos.own_hand is None
    validate(pos)


def test_sets_are_kept_in_canonical_order():
    a = parse_notation(alter(own="B1.W1.W1/B1.O1/G1", lead="0:O5G3;1:;2:;3:"))
    b = parse_notation(alter(own="W1.B1.W1/O1.B1/G1", lead="0:G3O5"))
    assert a == b and hash(a) == hash(b)
    assert a.leader[0] == (("G", 3), ("O", 5))


def test_sandstorm_cards_and_a_long_track():
    pos = validate(parse_notation(alter(L="16", cards="221222222")))
    assert pos.finish_half_covers
    long = validate(parse_notation(alter(L="60", cards="2" * 30, track="1:B,60:YO")))
    round_trips(long)
    assert long.stack(60) == ("Y", "O")


# ---------------------------------------------------------------------- refusals


def refused(text_or_data, field: str) -> PositionError:
    with pytest.raises(PositionError) as info:
        if isinstance(text_or_data, str):
            validate(parse_notation(text_or_data))
        else:
            validate(position_from_json(text_or_data))
    err = info.value
    assert err.field == field, str(err)
    assert "\n" not in str(err) and str(err) == f"{field}: {err.reason}"
    return err


@pytest.mark.parametrize("changes,field", [
    # a card seen beyond its copies
    (dict(blue="W1,G2,O1,Y1"), "played[0].card"),
    (dict(own="W1.W1.W1/W1.B1/G1", blue="W1,G1,O1,W1"), "blue[3]"),
    (dict(rev="O2,O2"), "revealed"),
    (dict(rev="G1,G1,G1,G1,G1"), "revealed"),
    (dict(rev="G2"), "revealed"),
    (dict(rev="W2,O2,B2,Y2,W1,W1,W1,G1,G1"), "revealed"),  # 7 beyond the known, 6 unknown
    (dict(rev=",".join(["W1", "G1", "O1", "Y1", "B1", "O2"] * 2)), "revealed"),
    # figures
    (dict(palm="7@2"), "palm"),
    (dict(line="-", track="5:WG,6:OBY", fox="3@1"), "fox"),
    (dict(line="-", track="5:WG,6:OBY", fox="5@1"), "fox"),
    (dict(fox="3@1"), "fox"),
    (dict(fox="18@1"), "fox (space)"),
    (dict(fox="7@4"), "fox (holder)"),
    # bet cards held twice, leader stacks
    (dict(mid="0:Y;2:Y"), "midfield[2]"),
    (dict(mid="0:YY"), "midfield[0]"),
    (dict(win="-OO-"), "winner[2]"),
    (dict(lose="YY--"), "loser[1]"),
    (dict(lead="0:O5;1:O5"), "leader[1]"),
    (dict(lead="0:O3"), "leader[0]"),
    (dict(lead="0:O5;2:O2"), "leader[2]"),
    (dict(lead="0:O4"), "lead[0]"),
    # money
    (dict(money="3,0,3,3"), "money[1]"),
    (dict(money="3,3,3"), "money"),
    # hands, played, blue, own cards
    (dict(hands="1111"), "hands[1]"),
    (dict(hands="1001"), "hands[2]"),
    (dict(play="1:G2,1:W1"), "played[1]"),
    (dict(own="W1.W1.B1/O1.B1/-"), "own.hand"),
    (dict(play="1:G2,0:G1", hands="0011"), "own.hand"),
    (dict(blue="W1,-,O1,Y1"), "blue[1]"),
    (dict(own="W1.W1/O1.B1/G1"), "own.discarded"),
    (dict(own="W1.W1.B1/O1/G1"), "own.deck"),
    (dict(own="W1.W1.B1/O1.B3/G1"), "own (deck)"),
    # setup, track, camels, seats
    (dict(setup="7/3/3"), "setup"),
    (dict(n="5", setup="7/3/2", blue="W1,G1,O1,Y1,B1", ages="01234", hands="10111",
          win="-O---", lose="-----", money="3,3,3,3,3"), "setup"),
    (dict(cards="22222222"), "cards"),
    (dict(cards="2222222222"), "cards"),
    (dict(L="16", cards="222222221"), "cards"),
    (dict(line="WGB"), "stacks.1"),
    (dict(line="W"), "stacks"),
    (dict(track="1:B,3:YO,18:G", line="W"), "track[2]"),
    (dict(track="1:B,3:YO,1:G", line="W"), "track[2]"),
    (dict(ages="0012"), "ages"),
    (dict(to="4"), "to"),
    (dict(phase="end"), "phase"),
    (dict(L="61"), "L"),
    (dict(n=None), "n"),
    (dict(line=None, track=None), "track"),
    (dict(line=""), "line"),
    (dict(rev=""), "rev"),
    (dict(foo="1"), "notation"),
])
def test_bad_notation_names_the_field(changes, field):
    refused(alter(**changes), field)


def test_bad_notation_tokens():
    refused(BASE + " n=4", "n")
    refused(BASE.replace("camel-up-cards", "camel-up", 1), "notation")
    refused(BASE + " money", "notation")


def test_validate_refuses_hand_made_positions():
    pos = parse_notation(BASE)
    for changes, field in [(dict(money=(3, 0, 3, 3)), "money[1]"),
                           (dict(fox=Figure(7, 1), palm=Figure(7, 2)), "palm"),
                           (dict(viewer=4), "viewer"),
                           (dict(fox=Figure(7, 9)), "fox.holder"),
                           (dict(stacks=pos.stacks[:-1]), "stacks"),
                           (dict(winner=("O", "O", None, None)), "winner[1]"),
                           (dict(leg=0), "leg")]:
        with pytest.raises(PositionError) as info:
            validate(pos.with_(**changes))
        assert info.value.field == field, str(info.value)
    with pytest.raises(PositionError) as info:
        Position(players=7)
    assert info.value.field == "players"


def two_player() -> dict:
    return {"game": "camel-up-cards", "players": 2, "start": list(COLOURS),
            "own": {"discarded": ["W1"] * 5, "deck": ["G1"] * 5 + ["O1"], "hand": "B1"}}


def test_two_players_reveal_no_blue_card():
    refused({**two_player(), "blue": ["W2", None]}, "blue[0]")
    refused({**two_player(), "revealed": ["G1"] * 6 + ["O1"] * 5 + ["W2"]}, "revealed")
    refused({**two_player(), "revealed": ["W1"]}, "revealed")  # all five W1 discarded


def base_json() -> dict:
    return parse_notation(BASE).to_json()


def edit(**changes) -> dict:
    data = base_json()
    for key, value in changes.items():
        if value is None:
            data.pop(key)
        else:
            data[key] = value
    return data


@pytest.mark.parametrize("data,field", [
    ([], "position"),
    (edit(game=None), "game"),
    (edit(game="camel-up"), "game"),
    (edit(variant="camel-up-cards"), "variant"),
    (edit(players=None), "players"),
    (edit(players=7), "players"),
    (edit(players=True), "players"),
    (edit(start=None, stacks=None), "stacks"),
    (edit(stacks={"1": ["B"], "3": ["Y", "O"], "18": ["G"]}, start=["W"]), "stacks.18"),
    (edit(stacks={"1": ["B"], "x": ["Y", "O"]}), "stacks.x"),
    (edit(stacks={"1": ["B"], "3": ["Y", "O"], "03": ["G"]}, start=["W"]), "stacks.03"),
    (edit(stacks={"1": "B", "3": ["Y", "O"]}), "stacks.1"),
    (edit(stacks={"1": ["b"], "3": ["Y", "O"]}), "stacks.1[0]"),
    (edit(stacks=["B"]), "stacks"),
    (edit(start=["W", "G", "G"]), "start"),
    (edit(played=[{"player": 1}]), "played[0]"),
    (edit(played=[{"player": 1, "card": "G3"}]), "played[0].card"),
    (edit(played=[{"player": 1, "card": "G2", "when": 3}]), "played[0].when"),
    (edit(fox={"space": 7}), "fox"),
    (edit(fox={"space": 7, "holder": 4}), "fox.holder"),
    (edit(fox={"space": 0, "holder": 1}), "fox.space"),
    (edit(palm={"space": 7, "holder": 2}), "palm"),
    (edit(own={"hand": "Z1"}), "own.hand"),
    (edit(own={"deck": "O1"}), "own.deck"),
    (edit(own={"x": 1}), "own.x"),
    (edit(hands=[1, 0, 1, 1]), "hands[0]"),
    (edit(money=[3, 3, 3]), "money"),
    (edit(money=[3, 0, 3, 3]), "money[1]"),
    (edit(money=[3, 3.5, 3, 3]), "money[1]"),
    (edit(leader=[[["O", 4]], [], [], []]), "leader[0][0][1]"),
    (edit(leader=[[["O", 5]], [["O", 5]], [], []]), "leader[1]"),
    (edit(leader=[["O5"], [], [], []]), "leader[0][0]"),
    (edit(midfield=[["Y"], [], ["Y"], []]), "midfield[2]"),
    (edit(winner=[None, "O", "O", None]), "winner[2]"),
    (edit(phase="over"), "phase"),
    (edit(setup=[7, 3]), "setup"),
    (edit(setup=[10, 3, 2]), "setup"),
    (edit(blue=["W1", "G1", "O1", "Y1", "B1"]), "blue"),
    (edit(blue=["W1", "G2", "O1", "Y1"]), "played[0].card"),
    (edit(last=0), "last"),
    (edit(leg=0), "leg"),
    (edit(viewer=5), "viewer"),
    (edit(revealed=["O2", "O2"]), "revealed"),
])
def test_bad_json_names_the_field(data, field):
    refused(data, field)
