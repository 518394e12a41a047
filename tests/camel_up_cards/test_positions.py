"""Camel Up Cards positions: JSON and notation round trips, defaults, helpers, and every §6
invariant of docs/games/camel-up-cards.md (each refusal one line naming the field)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oddsbot.analyser.camel_up_cards.json_form import (TOP_KEYS, position_from_json,
                                                       position_to_json)
from oddsbot.analyser.camel_up_cards.notation import parse_notation, to_notation
from oddsbot.analyser.camel_up_cards.position import (COLOURS, DEFAULT_LAST, DEFAULT_SETUP,
                                                      FULL_SET, LEADER_VALUES, PHASES,
                                                      Figure, Position, blue_count)
from oddsbot.analyser.camel_up_cards.validate import validate
from oddsbot.errors import PositionError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

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
    assert Position.from_json(without_derived(json.loads(text))) == pos
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
    # on the start card: never a camel whose "+2" was revealed this leg, and a camel that
    # moved this leg (back by the fox on 1) behind those that did not (§13.4)
    far = {card[0] for card in revealed if card[1] == "2"}
    moved = {card[0] for card in revealed} | {hand[s][0] for s in seats}
    where = {c: 0 if c not in far and rng.random() < 0.3 else rng.randint(1, last)
             for c in COLOURS}
    order = list(COLOURS)
    rng.shuffle(order)
    stacks: list[list[str]] = [[] for _ in range(last)]
    for c in order:
        if where[c]:
            stacks[where[c] - 1].append(c)
    start_line = tuple(sorted((c for c in order if not where[c]), key=lambda c: c in moved))
    rear = 0 if start_line else min(where.values())
    free = [s for s in range(rear + 1, last + 1) if not stacks[s - 1]]
    rng.shuffle(free)
    figures = []
    for _ in range(2):
        figures.append(Figure(free.pop(), rng.randrange(n))
                       if free and rng.random() < 0.5 else None)
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
    assert info.value.field == "blue_cards[1]" and "G2" in info.value.reason


def test_json_form_is_the_documented_shape():
    data = parse_notation(BASE).to_json()
    assert data == {
        "game": "camel-up-cards", "players": 4, "ages": [0, 1, 2, 3], "setup": [7, 3, 2],
        "track": {"last": 17, "cards": [2] * 9}, "start_line": ["W", "G"],
        "stacks": {"1": ["B"], "3": ["Y", "O"]}, "fox": {"space": 7, "holder": 1},
        "palm": "supply", "deck_count": 10, "viewer": 0, "revealed": ["Y1", "O2"],
        "played_hand_cards": [{"player": 1, "card": "G2"}],
        "blue_cards": ["W1", "G1", "O1", "Y1"],
        "own_cards": {"dealt": ["W1", "W1", "B1", "O1", "B1", "W1", "G1"],
                      "discarded": ["W1", "W1", "B1"], "deck": ["O1", "B1"], "hand": "G1"},
        "hands": [True, False, True, True],
        "leader_stacks": {"W": [5, 3, 2, 2], "G": [5, 3, 2, 2], "O": [3, 2, 2],
                          "B": [5, 3, 2, 2], "Y": [5, 3, 2, 2]},
        "midfield_available": {"W": True, "G": True, "O": True, "B": True, "Y": False},
        "leg_cards": [{"leader": [["O", 5]], "midfield": ["Y"]},
                      {"leader": [], "midfield": []}, {"leader": [], "midfield": []},
                      {"leader": [], "midfield": []}],
        "final_cards": [{"winner": None, "loser": None}, {"winner": "O", "loser": None},
                        {"winner": None, "loser": None}, {"winner": None, "loser": None}],
        "money": [3] * 4, "to_move": 0, "phase": "start", "status": "running", "leg": 1}
    assert set(data) == set(TOP_KEYS)


def test_minimal_forms_take_the_defaults():
    data = {"game": "camel-up-cards", "players": 2, "start_line": ["W", "G", "O", "B", "Y"],
            "own_cards": {"discarded": ["G1", "W1", "W1", "W1", "W1"],
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
    (dict(blue="W1,G2,O1,Y1"), "played_hand_cards[0].card"),
    (dict(own="W1.W1.W1/W1.B1/G1", blue="W1,G1,O1,W1"), "blue_cards[3]"),
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
    (dict(mid="0:Y;2:Y"), "leg_cards[2].midfield"),
    (dict(mid="0:YY"), "leg_cards[0].midfield"),
    (dict(win="-OO-"), "final_cards[2].winner"),
    (dict(lose="YY--"), "final_cards[1].loser"),
    (dict(lead="0:O5;1:O5"), "leg_cards[1].leader"),
    (dict(lead="0:O3"), "leg_cards[0].leader"),
    (dict(lead="0:O5;2:O2"), "leg_cards[2].leader"),
    (dict(lead="0:O4"), "lead[0]"),
    # money
    (dict(money="3,0,3,3"), "money[1]"),
    (dict(money="3,3,3"), "money"),
    # hands, played, blue, own cards
    (dict(hands="1111"), "hands[1]"),
    (dict(hands="1001"), "hands[2]"),
    (dict(play="1:G2,1:W1"), "played_hand_cards[1]"),
    (dict(own="W1.W1.B1/O1.B1/-"), "own_cards.hand"),
    (dict(play="1:G2,0:G1", hands="0011"), "own_cards.hand"),
    (dict(blue="W1,-,O1,Y1"), "blue_cards[1]"),
    (dict(own="W1.W1.B1.Y1/O1.B1/G1"), "own_cards.discarded"),  # fewer is legal (§13.4)
    (dict(own="W1.W1.B1/O1/G1"), "own_cards.deck"),
    (dict(own="W1.W1.B1/O1.B3/G1"), "own (deck)"),
    # setup, track, camels, seats
    (dict(setup="7/3/3"), "setup"),
    (dict(n="5", setup="7/3/2", blue="W1,G1,O1,Y1,B1", ages="01234", hands="10111",
          win="-O---", lose="-----", money="3,3,3,3,3"), "setup"),
    (dict(cards="22222222"), "track.cards"),
    (dict(cards="2222222222"), "track.cards"),
    (dict(L="16", cards="222222221"), "track.cards"),
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
                           (dict(winner=("O", "O", None, None)), "final_cards[1].winner"),
                           (dict(leg=0), "leg")]:
        with pytest.raises(PositionError) as info:
            validate(pos.with_(**changes))
        assert info.value.field == field, str(info.value)
    with pytest.raises(PositionError) as info:
        Position(players=7)
    assert info.value.field == "players"


def two_player() -> dict:
    return {"game": "camel-up-cards", "players": 2, "start_line": list(COLOURS),
            "own_cards": {"discarded": ["W1"] * 5, "deck": ["G1"] * 5 + ["O1"], "hand": "B1"}}


def test_two_players_reveal_no_blue_card():
    refused({**two_player(), "blue_cards": ["W2", None]}, "blue_cards[0]")  # validate's name
    refused({**two_player(), "revealed": ["G1"] * 6 + ["O1"] * 5 + ["W2"]}, "revealed")
    refused({**two_player(), "revealed": ["W1"]}, "revealed")  # all five W1 discarded


def base_json() -> dict:
    return parse_notation(BASE).to_json()


DERIVED = ("deck_count", "leader_stacks", "midfield_available")


def without_derived(data: dict) -> dict:
    """``data`` with every derived field left out (``own_cards.dealt`` too)."""
    out = {k: v for k, v in data.items() if k not in DERIVED}
    if "own_cards" in out:
        out["own_cards"] = {k: v for k, v in out["own_cards"].items() if k != "dealt"}
    return out


def edit(data: dict | None = None, **changes) -> dict:
    """``data`` (the base position's JSON, every field written) with ``changes`` (None: the
    key left out)."""
    data = base_json() if data is None else data
    for key, value in changes.items():
        if value is None:
            data.pop(key)
        else:
            data[key] = value
    return data


def loose(**changes) -> dict:
    """``edit`` of the base position without its derived fields: for a change that the
    derived fields would no longer agree with."""
    return edit(without_derived(base_json()), **changes)


def leg_cards(*seats) -> list:
    """``leg_cards`` for 4 seats: ``seats`` first, the others empty."""
    return list(seats) + [{}] * (4 - len(seats))


# The invariants are checked by validate, which still names the fields as the Position does
# ("start", "played_hand_cards[0].card", "blue_cards[1]", "own_cards.hand", "leg_cards[1].leader", "leg_cards[2].midfield",
# "final_cards[2].winner"): those rows are marked "validate".
@pytest.mark.parametrize("data,field", [
    ([], "position"),
    (edit(game=None), "game"),
    (edit(game="camel-up"), "game"),
    (edit(variant="camel-up-cards"), "variant"),
    (edit(players=None), "players"),
    (edit(players=7), "players"),
    (edit(players=True), "players"),
    (edit(start_line=None, stacks=None), "stacks"),
    (edit(stacks={"1": ["B"], "3": ["Y", "O"], "18": ["G"]}, start_line=["W"]), "stacks.18"),
    (edit(stacks={"1": ["B"], "x": ["Y", "O"]}), "stacks.x"),
    (edit(stacks={"1": ["B"], "3": ["Y", "O"], "03": ["G"]}, start_line=["W"]), "stacks.03"),
    (edit(stacks={"1": "B", "3": ["Y", "O"]}), "stacks.1"),
    (edit(stacks={"1": ["b"], "3": ["Y", "O"]}), "stacks.1[0]"),
    (edit(stacks=["B"]), "stacks"),
    (edit(start_line="WG"), "start_line"),
    (edit(start_line=["W", "g"]), "start_line[1]"),
    (loose(start_line=["W", "G", "G"]), "start_line"),  # validate
    (edit(played_hand_cards=[{"player": 1}]), "played_hand_cards[0]"),
    (edit(played_hand_cards=[{"player": 1, "card": "G3"}]), "played_hand_cards[0].card"),
    (edit(played_hand_cards=[{"player": 1, "card": "G2", "when": 3}]),
     "played_hand_cards[0].when"),
    (edit(played_hand_cards=[{"player": 4, "card": "G2"}]), "played_hand_cards[0].player"),
    (edit(fox={"space": 7}), "fox"),
    (edit(fox={"space": 7, "holder": 4}), "fox.holder"),
    (edit(fox={"space": 0, "holder": 1}), "fox.space"),
    (edit(fox={"space": 7, "holder": 1, "colour": "W"}), "fox.colour"),
    (edit(fox="beside"), "fox"),
    (edit(fox=[7, 1]), "fox"),
    (edit(palm=False), "palm"),
    (loose(palm={"space": 7, "holder": 2}), "palm"),  # validate
    (edit(own_cards={"hand": "Z1"}), "own_cards.hand"),
    (edit(own_cards={"deck": "O1"}), "own_cards.deck"),
    (edit(own_cards={"discarded": ["W1", "W3"]}), "own_cards.discarded[1]"),
    (edit(own_cards={"dealt": ["W1", 1]}), "own_cards.dealt[1]"),
    (edit(own_cards={"x": 1}), "own_cards.x"),
    (edit(own_cards=["W1"]), "own_cards"),
    (edit(hands=[1, 0, 1, 1]), "hands[0]"),
    (edit(hands=[True, False, True]), "hands"),
    (edit(money=[3, 3, 3]), "money"),
    (edit(money=[3, 0, 3, 3]), "money[1]"),
    (edit(money=[3, 3.5, 3, 3]), "money[1]"),
    (edit(leg_cards=leg_cards({"leader": [["O", 4]]})), "leg_cards[0].leader[0][1]"),
    (loose(leg_cards=leg_cards({"leader": [["O", 5]]}, {"leader": [["O", 5]]})),
     "leg_cards[1].leader"),  # validate
    (edit(leg_cards=leg_cards({"leader": ["O5"]})), "leg_cards[0].leader[0]"),
    (edit(leg_cards=leg_cards({}, {"leader": [["X", 5]]})), "leg_cards[1].leader[0][0]"),
    (edit(leg_cards=leg_cards({"midfield": ["Y", "y"]})), "leg_cards[0].midfield[1]"),
    (edit(leg_cards=leg_cards({"midfield": "Y"})), "leg_cards[0].midfield"),
    (edit(leg_cards=leg_cards({"bet": []})), "leg_cards[0].bet"),
    (loose(leg_cards=leg_cards({"midfield": ["Y"]}, {}, {"midfield": ["Y"]})),
     "leg_cards[2].midfield"),  # validate
    (edit(leg_cards=[{}, {}, {}]), "leg_cards"),
    (edit(leg_cards=[[], {}, {}, {}]), "leg_cards[0]"),
    (loose(final_cards=[{}, {"winner": "O"}, {"winner": "O"}, {}]), "final_cards[2].winner"),  # validate
    (edit(final_cards=[{}, {"winner": "o"}, {}, {}]), "final_cards[1].winner"),
    (edit(final_cards=[{}, {}, {"loser": 3}, {}]), "final_cards[2].loser"),
    (edit(final_cards=[{}, {}, {}, {"both": None}]), "final_cards[3].both"),
    (edit(final_cards=[{}, {}, {}]), "final_cards"),
    (edit(final_cards={"winner": [None, "O", None, None]}), "final_cards"),
    (edit(phase="over"), "phase"),
    (edit(status="over"), "status"),
    (edit(status="Running"), "status"),
    (loose(status=None, phase=None, unknown=1), "unknown"),
    (edit(setup=[7, 3]), "setup"),
    (edit(setup=[7, 3, -1]), "setup[2]"),
    (loose(setup=[10, 3, 2]), "setup"),  # validate
    (edit(setup="7/3/2"), "setup"),
    (edit(setup={"dealt": 7, "discarded": 3}), "setup"),
    (edit(setup={"dealt": 7, "discarded": 3, "into_deck": 2, "blue": 1}), "setup.blue"),
    (edit(setup={"dealt": 7, "discarded": 31, "into_deck": 2}), "setup.discarded"),
    (edit(setup={"dealt": 7, "discarded": 3, "into_deck": "2"}), "setup.into_deck"),
    (edit(track=[17, [2] * 9]), "track"),
    (edit(track={"last": 0}), "track.last"),
    (edit(track={"last": 61}), "track.last"),
    (edit(track={"cards": [2, 3]}), "track.cards[1]"),
    (edit(track={"cards": 2}), "track.cards"),
    (edit(track={"last": 17, "L": 17}), "track.L"),
    (edit(blue_cards=["W1", "G1", "O1", "Y1", "B1"]), "blue_cards"),
    (edit(blue_cards=["W1", "G3", "O1", "Y1"]), "blue_cards[1]"),
    (loose(blue_cards=["W1", "G2", "O1", "Y1"]), "played_hand_cards[0].card"),  # validate
    (edit(leg=0), "leg"),
    (edit(viewer=5), "viewer"),
    (edit(to_move=-1), "to_move"),
    (loose(revealed=["O2", "O2"]), "revealed"),  # validate
    (edit(revealed="O2"), "revealed"),
    (edit(revealed=["O2", "o2"]), "revealed[1]"),
    # the old names are unknown keys now
    *[(edit(**{old: value}), old) for old, value in [
        ("start", ["W", "G"]), ("last", 17), ("cards", [2] * 9), ("played", []),
        ("blue", ["W1", "G1", "O1", "Y1"]), ("own", {}), ("leader", [[], [], [], []]),
        ("midfield", [[], [], [], []]), ("winner", [None] * 4), ("loser", [None] * 4)]],
])
def test_bad_json_names_the_field(data, field):
    refused(data, field)


# ---------------------------------------------------------------------- derived JSON fields


def test_derived_fields_may_be_left_out_or_given():
    pos = parse_notation(BASE)
    assert position_from_json(base_json()) == pos  # all given, as written
    bare = without_derived(base_json())
    assert position_from_json(bare) == pos
    full = base_json()
    for key in DERIVED:
        assert position_from_json({**bare, key: full[key]}) == pos
    assert position_from_json({**bare, "own_cards": full["own_cards"]}) == pos
    # a multiset: any order; leader_stacks and midfield_available per colour, some only
    dealt = list(reversed(full["own_cards"]["dealt"]))
    assert position_from_json({**bare, "own_cards": {**full["own_cards"],
                                                     "dealt": dealt}}) == pos
    assert position_from_json({**bare, "leader_stacks": {"O": [3, 2, 2], "Y": [5, 3, 2, 2]},
                               "midfield_available": {"Y": False, "B": True}}) == pos
    assert position_from_json({**bare, "leader_stacks": {}, "midfield_available": {}}) == pos


def test_derived_fields_given_follow_the_position():
    # the viewer played their hand card: it is among the dealt cards
    pos = parse_notation(alter(view="1", own="W1.W1.B1/O1.B1/-"))
    data = position_to_json(pos)
    assert data["own_cards"]["hand"] is None
    assert sorted(data["own_cards"]["dealt"]) == sorted(
        ["W1", "W1", "B1", "O1", "B1", "G1", "G2"])
    assert validate(position_from_json(data)) == pos
    refused({**data, "own_cards": {**data["own_cards"],
                                   "dealt": ["W1", "W1", "B1", "O1", "B1", "G1"]}},
            "own_cards.dealt")
    # two players: no blue card among them
    two = two_player()
    dealt = ["W1"] * 5 + ["G1"] * 5 + ["O1", "B1"]
    assert validate(position_from_json({**two, "own_cards": {**two["own_cards"],
                                                              "dealt": dealt}}))
    refused({**two, "own_cards": {**two["own_cards"], "dealt": dealt + ["W2"]}},
            "own_cards.dealt")
    refused({**two, "deck_count": 11}, "deck_count")
    assert position_from_json({**two, "deck_count": 12}).deck_count == 12
    # leader cards held change the stacks, midfield cards the availability
    late = {**without_derived(base_json()),
            "leg_cards": leg_cards({"leader": [["O", 5], ["O", 3]]}, {"midfield": ["W"]})}
    pos = validate(position_from_json(late))
    assert position_from_json({**late, "leader_stacks": {"O": [2, 2]},
                               "midfield_available": {"W": False, "Y": True}}) == pos
    refused({**late, "leader_stacks": {"O": [3, 2, 2]}}, "leader_stacks.O")
    refused({**late, "midfield_available": {"W": True}}, "midfield_available.W")


@pytest.mark.parametrize("changes,field", [
    (dict(deck_count=11), "deck_count"),
    (dict(deck_count=12), "deck_count"),  # the deck's size, but two cards were revealed
    (dict(deck_count=-1), "deck_count"),
    (dict(deck_count="10"), "deck_count"),
    (dict(own_cards={"dealt": ["W1", "W1", "B1", "O1", "B1", "W1"],
                     "discarded": ["W1", "W1", "B1"], "deck": ["O1", "B1"], "hand": "G1"}),
     "own_cards.dealt"),
    (dict(own_cards={"dealt": ["W1", "W1", "B1", "O1", "B1", "W1", "G2"],
                     "discarded": ["W1", "W1", "B1"], "deck": ["O1", "B1"], "hand": "G1"}),
     "own_cards.dealt"),
    (dict(own_cards={"dealt": "W1", "discarded": ["W1", "W1", "B1"]}), "own_cards.dealt"),
    (dict(leader_stacks={"O": [5, 3, 2, 2]}), "leader_stacks.O"),
    (dict(leader_stacks={"W": [3, 2, 2]}), "leader_stacks.W"),
    (dict(leader_stacks={"W": [5, 3, 2, 2, 2]}), "leader_stacks.W"),
    (dict(leader_stacks={"O": [2, 2, 3]}), "leader_stacks.O"),
    (dict(leader_stacks={"O": [3, 2, 4]}), "leader_stacks.O[2]"),
    (dict(leader_stacks={"X": []}), "leader_stacks.X"),
    (dict(leader_stacks=[[5, 3, 2, 2]] * 5), "leader_stacks"),
    (dict(leader_stacks={"O": "322"}), "leader_stacks.O"),
    (dict(midfield_available={"Y": True}), "midfield_available.Y"),
    (dict(midfield_available={"B": False}), "midfield_available.B"),
    (dict(midfield_available={"B": 1}), "midfield_available.B"),
    (dict(midfield_available={"b": True}), "midfield_available.b"),
    (dict(midfield_available=[True] * 5), "midfield_available"),
])
def test_derived_fields_given_inconsistently_are_refused(changes, field):
    refused(edit(**changes), field)


# ---------------------------------------------------------------------- JSON alternatives


def test_supply_and_null_both_mean_beside_the_track():
    pos = parse_notation(alter(fox="-"))
    assert pos.fox is None and pos.palm is None
    assert position_to_json(pos)["fox"] == position_to_json(pos)["palm"] == "supply"
    for fox in ("supply", None):
        for palm in ("supply", None):
            assert position_from_json(edit(fox=fox, palm=palm)) == pos
    assert position_from_json(edit(fox=None, palm=None)) == pos
    assert position_from_json(edit(fox="supply")) == pos
    assert position_from_json(edit(palm=None)) == parse_notation(BASE)


def test_setup_as_an_object_and_track_keys_optional():
    pos = parse_notation(BASE)
    assert position_from_json(edit(setup={"into_deck": 2, "dealt": 7, "discarded": 3})) == pos
    assert position_from_json(edit(setup=None)) == pos  # the 4-player default
    assert position_from_json(edit(track={"last": 17})) == pos
    assert position_from_json(edit(track={"cards": [2] * 9})) == pos
    assert position_from_json(edit(track={})) == pos
    assert position_from_json(edit(track=None)) == pos
    short = parse_notation(alter(L="16", cards="221222222"))
    assert position_from_json(edit(track={"last": 16, "cards": [2, 2, 1] + [2] * 6})) == short


def test_per_seat_objects_take_their_defaults():
    pos = parse_notation(BASE)
    assert position_from_json(edit(leg_cards=leg_cards({"leader": [["O", 5]],
                                                        "midfield": ["Y"]}))) == pos
    finals = [{}, {"winner": "O"}, {"loser": None}, {}]
    assert position_from_json(edit(final_cards=finals)) == pos
    bare = without_derived(base_json())
    assert position_from_json({**bare, "leg_cards": [{}] * 4}) == pos.with_(
        leader=((),) * 4, midfield=((),) * 4)
    assert position_from_json({**bare, "final_cards": [{}] * 4}) == pos.with_(
        winner=(None,) * 4)
    assert position_from_json(edit(status=None)) == pos
    assert position_from_json(edit(status="running")) == pos


def test_the_docs_example_is_the_late_example():
    late = validate(position_from_json(json.loads(
        (EXAMPLES / "camel-up-cards-late.json").read_text())))
    docs = {"game": "camel-up-cards", "players": 4,
            "track": {"last": 15, "cards": [2, 1, 2, 1, 2, 2, 2, 2, 2]},
            "stacks": {"3": ["B"], "7": ["W"], "9": ["G", "O", "Y"]},
            "fox": {"space": 8, "holder": 1}, "palm": {"space": 14, "holder": 1},
            "viewer": 3, "to_move": 3, "revealed": ["B1", "B1", "G1", "B1", "W2"],
            "blue_cards": ["B1", "G2", "W2", "B1"],
            "own_cards": {"discarded": ["G1", "Y1", "Y1"], "deck": ["O1", "O2"],
                          "hand": "B2"},
            "leg_cards": [{"leader": [["Y", 5]]}, {"leader": [["G", 5]]},
                          {"leader": [["Y", 3]]}, {"midfield": ["W"]}],
            "final_cards": [{"winner": "Y"}, {"winner": "G"}, {"loser": "B"},
                            {"winner": "O", "loser": "G"}],
            "money": [7, 4, 5, 1], "leg": 2}
    assert validate(position_from_json(docs)) == late
    data = json.loads((EXAMPLES / "camel-up-cards-4p.json").read_text())
    assert data == position_to_json(position_from_json(data))  # written in the new form
