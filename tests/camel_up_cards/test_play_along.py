"""Play-along from one seat's point of view (``Capability.PLAY``,
docs/games/camel-up-cards.md §15): seeded whole games walked through ``apply`` by every
viewer, each step reaching the record replay's position as that viewer knows it, each card
the viewer saw among ``outcomes`` with a positive chance; the viewer's record reads back;
the chances by hand; bad input refused in one line."""

from __future__ import annotations

from fractions import Fraction

import pytest
from oddsbot.analyser.camel_up_cards import face as cc
from oddsbot.analyser.camel_up_cards import record as rec
from oddsbot.analyser.camel_up_cards.simulate import cards_text, decode
from oddsbot.errors import OddsbotError

GAMES = [(4, 2, "heuristic"), (2, 1, "random"), (3, 5, "random"), (6, 3, "heuristic")]


def seen_moves(text: str, viewer: int) -> list[tuple[str, str | None]]:
    """The turns of the omniscient record ``text`` as seat ``viewer`` sees them: a
    reveal's card, an opponent's hand card, and after the reveal that ends a leg the next
    deal as the viewer sees it (their cards, every blue card)."""
    record = rec.parse_record(text)
    entries = list(record.entries[1:])
    moves = []
    for i, turn in enumerate(entries):
        if isinstance(turn, rec.RecordDeal):
            continue
        shown = turn.race == rec.K.RACE_REVEAL or (turn.race == rec.K.RACE_HAND
                                                   and turn.player != viewer)
        outcome = turn.card if shown else None
        if turn.end == "leg":
            deal = entries[i + 1].deal
            mine = deal.seats[viewer]
            outcome += (f" deal own={cards_text(mine.discarded)}/{cards_text(mine.deck)}/"
                        f"{mine.hand}")
            if record.start.players >= 3:
                outcome += " blue=" + ",".join(s.blue for s in deal.seats)
        moves.append((turn.action, outcome))
    return moves


def walk(text: str, viewer: int) -> None:
    """Walk the record ``text`` through ``apply`` as ``viewer`` sees it (module doc)."""
    _, steps = rec.load_record(text)
    moves = seen_moves(text, viewer)
    assert len(moves) == len(steps)
    start = decode(steps.states[0], viewer)
    pos = start
    for i, (action, outcome) in enumerate(moves):
        assert pos.to_notation() == decode(steps.states[i], viewer).to_notation()
        listed = dict(cc.outcomes(pos, action))
        assert (outcome is None) == (not listed)
        if outcome is not None:
            assert listed[outcome.split()[0]] > 0
            assert sum(listed.values()) == pytest.approx(1)
        if i + 1 < len(steps) or not steps.over:
            pos = cc.apply(pos, action, outcome)
        else:
            with pytest.raises(OddsbotError, match="ends the race"):
                cc.apply(pos, action, outcome)
    text = cc.record_text(start, moves)
    assert text.splitlines()[1] == f"view p{viewer}"
    assert (" | race ends" in text.splitlines()[-1]) == steps.over
    again, read = cc.record_moves(text)
    assert again == start and [o for _, o in read] == [o for _, o in moves]
    # a bet after a race action where the table lists it first reads as the table's label
    assert all(a == b or a.split(" + ")[::-1] == b.split(" + ")
               for (a, _), (b, _) in zip(read, moves))
    assert cc.record_text(again, read) == text


@pytest.mark.parametrize("players, seed, policy", GAMES)
def test_played_games_walk_through_apply_for_every_viewer(players, seed, policy):
    text = cc.play(players, seed, "camel-up-cards", policy)
    for viewer in range(players):
        walk(text, viewer)


def test_chances_by_hand():
    """§9: before any reveal the unknown part is a uniform draw from the unseen pool, so
    the top card's chance of a type is (known + unknown * pool share) / deck size; an
    opponent's yellow hand card is Y1 with chance 4 of 5 (the unseen yellow cards)."""
    pos = cc.new_position(4, 0)  # own O1.O1.B1/W1.W1/G1, blue B1,Y1,O1,G1
    assert pos.own_deck == ("W1", "W1") and pos.blue == ("B1", "Y1", "O1", "G1")
    listed = dict(cc.outcomes(pos, "reveal"))
    # W1: 2 known + 6 unknown drawn from a pool of 20 holding 3 W1, of a 12-card deck
    assert listed["W1"] == pytest.approx(float((2 + Fraction(6 * 3, 20)) / 12))
    assert listed["Y2"] == pytest.approx(float(Fraction(6 * 1, 20) / 12))
    opp = cc.apply(pos, "reveal", "W1")
    assert opp.to_move == 1 and opp.viewer == 0 and opp.revealed == ("W1",)
    assert dict(cc.outcomes(opp, "hand yellow")) == pytest.approx({"Y1": 0.8, "Y2": 0.2})
    after = cc.apply(opp, "hand yellow", "Y2")
    assert after.played == ((1, "Y2"),) and after.hands == (True, False, True, True)
    assert after.own_hand == "G1" and after.to_move == 2


def test_opponent_turns_are_what_the_viewer_sees():
    """An opponent's turn lists a ``hand <colour>`` per colour their card may have, never
    the viewer's own card; advise refuses it in one line as before."""
    opp = cc.apply(cc.new_position(4, 0), "reveal", "W1")
    legal = cc.legal_actions(opp)
    hands = sorted({a.split(" + ")[-1] for a in legal if "hand" in a})
    assert hands == ["hand blue", "hand green", "hand orange", "hand white", "hand yellow"]
    with pytest.raises(OddsbotError, match="advice is for the player to move"):
        cc.advise(opp, samples=64)


@pytest.mark.parametrize("action, outcome, words", [
    ("hand red", None, "is not legal for player 0"),
    ("reveal", None, "needs its chance outcome"),
    ("reveal", "Z9", "is not an outcome of 'reveal'"),
    ("leader white + hand green", "G1", "has no chance outcome"),
    ("reveal", "W1 deal own=-/-/W1", "only a reveal that empties the race deck"),
])
def test_bad_input_is_one_line(action, outcome, words):
    with pytest.raises(OddsbotError, match=words) as caught:
        cc.apply(cc.new_position(4, 0), action, outcome)
    assert "\n" not in str(caught.value)


def test_a_leg_end_needs_the_deal_the_viewer_sees():
    """The reveal that empties the deck: its card alone is refused (the viewer sees a
    new deal too); a deal that does not fit the setup is refused; the one written gives
    the viewer those cards and every seat its blue card."""
    text = cc.play(4, 2, "camel-up-cards", "heuristic")
    _, steps = rec.load_record(text)
    moves = seen_moves(text, 0)
    i = next(i for i, (_, o) in enumerate(moves) if o and " deal " in o)
    pos = decode(steps.states[i], 0)
    action, outcome = moves[i]
    card = outcome.split()[0]
    with pytest.raises(OddsbotError, match=f"{card} ends leg 1: write the new deal"):
        cc.apply(pos, action, card)
    with pytest.raises(OddsbotError, match="the leg setup says 3/2/1"):
        cc.apply(pos, action, f"{card} deal own=W1/W1/W1 blue=G1,G1,G1,G1")
    after = cc.apply(pos, action, outcome)
    assert after.leg == 2 and after.revealed == () and after.own_hand is not None
    assert after.to_notation() == decode(steps.states[i + 1], 0).to_notation()


def test_the_cli_reads_a_viewers_moves(oddsbot_cli, tmp_path):
    """``oddsbot moves`` of an opponent's turn lists what the viewer can see them do."""
    opp = cc.apply(cc.new_position(4, 0), "reveal", "W1")
    run = oddsbot_cli("moves", opp.to_notation())
    assert run.code == 0 and "hand yellow" in run.out and "hand white" in run.out
    run = oddsbot_cli("advise", opp.to_notation(), "--samples", "64")
    assert run.code == 2 and run.err.count("\n") == 1 and "viewer:" in run.err


def test_replay_reads_a_viewers_record(oddsbot_cli, tmp_path):
    """``oddsbot replay`` of a viewer's record: the viewer's own turns annotated, the
    position reached as the viewer knows it; a bad turn line refused in one line."""
    start = cc.new_position(4, 0)
    moves = [("reveal", "W1"), ("hand yellow", "Y2"), ("reveal", "G1"),
             ("leader white + reveal", "B1"), ("reveal", "O1")]
    path = tmp_path / "view.record"
    path.write_text(cc.record_text(start, moves))
    run = oddsbot_cli("replay", path, "--samples", "200", "-f", "json")
    assert run.code == 0 and "record OK: 2 turns" in run.err
    turns = run.json()["turns"]
    assert [(t["player"], t["action"], t["card"]) for t in turns] == [
        (0, "reveal", "W1"), (0, "reveal", "O1")]
    pos = cc.parse(run.json()["position"])
    assert pos == cc.apply(cc.apply(cc.apply(cc.apply(cc.apply(start, *moves[0]),
                                                      *moves[1]), *moves[2]), *moves[3]),
                           *moves[4])
    path.write_text(cc.record_text(start, moves[:2]) + "   3 p2 hand yellow -> Y9\n")
    run = oddsbot_cli("replay", path, "--samples", "200")
    assert run.code == 2 and run.err.count("\n") == 1
    assert run.err.startswith("oddsbot: error: line 5: outcome: 'Y9' is not an outcome")
