"""The naive Mumia reference (``naive_mumia``) on whole E4 turns: ``choices`` / ``step`` and
the turn state (``Turn``), each rule of the E4 / E2 resolutions on a small position worked
out by hand:

1. pawns swapped this turn do not move this turn; pawns moved this turn are not swapped;
2. pawn numbers: field, hats, then not-swapped before swapped; swapped pawns not listed;
3. a Swap must leave a move for the roll;
4. the own pawn a Swap moves (no hat first, not moved), the partner (no hat first);
5. ``+ token extra`` only when the game goes on and the mover still has a pawn out;
6. ``pass`` when there is no move choice;
7. a Push must push something;
8. ``swap hats`` only when it is not a take or a give; give to a hatless pawn;
9. ``hats["split"]``.

Seats: 0 = A, 1 = B. Field numbers are those of the position as it stands (they drop by
one behind a collected tile).
"""

from __future__ import annotations

import naive_mumia as N
import pytest


from .test_naive_examples import F, P  # the worked examples' position builders


def pawns(pos, i):
    return pos["track"][i].get("pawns", [])


T0 = N.new_turn()


# ---------------------------------------------------------------------------------------------
# rules 1 and 2: a swapped pawn does not move, numbering puts it after its twins


def test_swapped_pawn_does_not_move_and_is_numbered_after_its_twin():
    # A: -1 (field 1) and +2 (field 2, with a B pawn); B also on -3; A holds Swap, Extra
    pos = P([F("start", [1], mummy=True), F("-1", [0]), F("+2", [0, 1]), F("-3", [1]),
             F("+4"), F("finish", [0])], expansions=["e4"], hands=[["swap", "extra"], []],
            pile=["push"])
    # roll 1, P: pawn 1 (-1) and pawn 2 (+2), both with Extra (the game goes on, A still
    # out); Swaps: A on 1 with B on 2, A on 2 with B on 3 (START is no path tile); after
    # either, A's other pawn can still move
    assert N.choices(pos, 1, "P", T0) == [
        "pawn 1", "pawn 2", "pawn 1 + token extra", "pawn 2 + token extra",
        "token swap 1 2 B", "token swap 2 3 B"]
    pos1, t1, on = N.step(pos, 1, "P", "token swap 1 2 B", T0)
    assert on is True
    assert pawns(pos1, 1) == [1] and pawns(pos1, 2) == [0, 0]
    assert pos1["action_tokens"] == {"hands": [["extra"], []], "pile": ["push", "swap"]}
    assert t1 == N.Turn(frozenset(), swapped=((2, ""),), moved=())
    # both A pawns on field 2 wear no hat: the one not swapped is pawn 1, the swapped one
    # pawn 2 (not listed); same roll
    assert N.legal(pos1, 1, "P", turn=t1) == ["pawn 1"]
    assert N.choices(pos1, 1, "P", t1) == ["pawn 1", "pawn 1 + token extra"]
    # pawn 1 goes on to the -3 (B's pawn there); the +2 keeps A's swapped pawn: nothing taken
    pos2, t2, on = N.step(pos1, 1, "P", "pawn 1 + token extra", t1)
    assert on is True and pos2["to_move"] == 0
    assert pawns(pos2, 2) == [0] and pawns(pos2, 3) == [0, 1]
    assert pos2["collected"] == [[], []]
    assert t2 == N.Turn(frozenset(), swapped=((2, ""),), moved=((3, ""),))
    # second roll: only the moved pawn may move (it is pawn 2: field 3 after field 2)
    assert N.choices(pos2, 2, "P", t2) == ["pawn 2"]
    # at the start of a turn both would be listed
    assert N.legal(pos2, 2, "P") == ["pawn 1", "pawn 2"]
    pos3, t3, on = N.step(pos2, 2, "P", "pawn 2", t2)
    assert on is False and t3 == N.new_turn()
    assert pos3["to_move"] == 1 and pawns(pos3, 5) == [0, 0]


def test_moved_pawn_is_not_swapped_even_after_moving_twice():
    # A's last pawn out on the -1; B on START (with the mummy), +2 and -3.
    # A holds Extra, Extra, Swap; the pile holds one Push.
    pos = P([F("start", [1], mummy=True), F("-1", [0]), F("+2", [1]), F("-3", [1]), F("+4"),
             F("finish", [0, 0])], expansions=["e4"],
            hands=[["extra", "extra", "swap"], []], pile=["push"])
    # roll 1, P: the Swap would leave A nothing to move (rule 3): not listed
    assert N.choices(pos, 1, "P", T0) == ["pawn 1", "pawn 1 + token extra"]
    # roll 1, PM: after the Swap the mummy can still move
    assert N.choices(pos, 1, "PM", T0) == [
        "pawn 1", "mummy", "pawn 1 + token extra", "mummy + token extra", "token swap 1 2 B"]
    # the old form without a roll does not make that check
    assert N.token_labels(pos) == ["token swap 1 2 B"]
    assert N.token_labels(pos, n=1, symbol="P") == []
    assert N.token_labels(pos, n=1, symbol="PM") == ["token swap 1 2 B"]
    # pawn 1 + Extra: the -1 is left empty, A takes it and draws the Push (fresh, index 3),
    # then spends the first Extra: hand Extra, Swap, Push (fresh index 2)
    pos1, t1, on = N.step(pos, 1, "P", "pawn 1 + token extra", T0)
    assert on is True
    assert [f["tile"] for f in pos1["track"]] == ["start", "+2", "-3", "+4", "finish"]
    assert pos1["collected"][0] == ["-1"] and pawns(pos1, 1) == [0, 1]
    assert pos1["action_tokens"] == {"hands": [["extra", "swap", "push"], []],
                                     "pile": ["extra"]}
    assert t1 == N.Turn(frozenset({2}), swapped=(), moved=((1, ""),))
    # second roll 1, PM: the moved pawn may move again but not be swapped; the Push is fresh
    assert N.choices(pos1, 1, "PM", t1) == [
        "pawn 1", "mummy", "pawn 1 + token extra", "mummy + token extra"]
    # had it not moved, the Swap with B's pawn on field 2 would be listed
    assert N.choices(pos1, 1, "PM", N.Turn(frozenset({2}))) == [
        "pawn 1", "mummy", "pawn 1 + token extra", "mummy + token extra",
        "token swap 1 2 B"]
    pos2, t2, on = N.step(pos1, 1, "PM", "pawn 1 + token extra", t1)
    assert on is True
    assert pawns(pos2, 1) == [1] and pawns(pos2, 2) == [0, 1]  # the +2 keeps B: not taken
    assert pos2["action_tokens"] == {"hands": [["swap", "push"], []],
                                     "pile": ["extra", "extra"]}
    assert t2 == N.Turn(frozenset({1}), swapped=(), moved=((2, ""),))
    # third roll 1, PM: the pawn moved twice is still "moved": no Swap
    assert N.choices(pos2, 1, "PM", t2) == ["pawn 1", "mummy"]
    assert N.choices(pos2, 1, "PM", N.Turn(frozenset({1}))) == [
        "pawn 1", "mummy", "token swap 2 1 B"]
    pos3, t3, on = N.step(pos2, 1, "PM", "pawn 1", t2)
    assert on is False and t3 == T0 and pos3["to_move"] == 1
    assert pawns(pos3, 3) == [0]


def test_step_refuses_what_choices_does_not_list():
    pos = P([F("start", [1], mummy=True), F("-1", [0]), F("+2", [1]), F("-3", [1]), F("+4"),
             F("finish", [0, 0])], expansions=["e4"], hands=[["swap"], []])
    with pytest.raises(ValueError):
        N.step(pos, 1, "P", "token swap 1 2 B", T0)  # rule 3
    with pytest.raises(ValueError):
        N.step(pos, 1, "P", "pass", T0)


def test_pawn_numbers_with_a_swapped_pawn_of_another_hat():
    # A on field 2: one pawn without a hat (swapped this turn) and one with luck
    hats = {"luck": {"seat": 0, "field": 2}, "bad": {"seat": 1, "field": 0}}
    pos = P([F("start", [1, 1], mummy=True), F("-1"), F("+2", [0, 0]), F("-3", [1]),
             F("finish", [0])], expansions=["e2", "e4"], hats=hats, hands=[[], []])
    t = N.Turn(frozenset(), swapped=((2, ""),))
    # hatless first: pawn 1 (swapped, not listed), luck: pawn 2; B's pawn on -3 wears nothing
    assert N.choices(pos, 1, "P", t) == ["pawn 2", "pawn 2, give luck to B"]
    assert N.legal(pos, 1, "P") == ["pawn 1", "pawn 2", "pawn 2, give luck to B"]
    moved, _ = N.move_ex(pos, 1, "P", "pawn 2", turn=t)
    assert moved["hats"]["luck"] == {"seat": 0, "field": 3}
    # the turn state must fit the position
    with pytest.raises(ValueError):
        N.legal(pos, 1, "P", turn=N.Turn(frozenset(), swapped=((2, "B"),)))


# ---------------------------------------------------------------------------------------------
# rule 4: which pawns a Swap moves


def test_swap_moves_own_hatless_pawn_and_their_hatless_pawn():
    # A: two pawns on the +2, one with luck; B: two on the -3, one with bad
    hats = {"luck": {"seat": 0, "field": 2}, "bad": {"seat": 1, "field": 3}}
    pos = P([F("start", [1], mummy=True), F("-1"), F("+2", [0, 0]), F("-3", [1, 1]),
             F("+4"), F("finish", [0])], expansions=["e2", "e4"], hats=hats,
            hands=[["swap"], []])
    # pawn 1 (no hat) onto B's pair: take bad; swap hats would be a take (rule 8).
    # pawn 2 (luck): take bad, give luck, swap hats (luck for bad)
    assert N.choices(pos, 1, "P", T0) == [
        "pawn 1", "pawn 1, take bad from B",
        "pawn 2", "pawn 2, take bad from B", "pawn 2, give luck to B",
        "pawn 2, swap hats with B",
        "token swap 2 3 B"]
    pos1, t1, on = N.step(pos, 1, "P", "token swap 2 3 B", T0)
    assert on is True
    # A's hatless pawn went to the -3, B's hatless pawn to the +2: the hats stayed put
    assert pawns(pos1, 2) == [0, 1] and pawns(pos1, 3) == [0, 1]
    assert pos1["hats"] == hats
    assert t1 == N.Turn(frozenset(), swapped=((3, ""),))
    # A's luck pawn is pawn 1 now; the swapped one (pawn 2) is not listed
    assert N.choices(pos1, 1, "P", t1) == [
        "pawn 1", "pawn 1, take bad from B", "pawn 1, give luck to B",
        "pawn 1, swap hats with B"]


def test_swap_skips_the_pawn_moved_this_turn_whose_hat_changed():
    # A: hatless pawns on the -1 and on the +2; B: luck on the +2, a pawn on the -3
    hats = {"luck": {"seat": 1, "field": 2}, "bad": {"seat": 1, "field": 0}}
    pos = P([F("start", [1], mummy=True), F("-1", [0]), F("+2", [0, 1]), F("-3", [1]),
             F("finish", [0])], expansions=["e2", "e4"], hats=hats,
            hands=[["extra", "swap"], []])
    # A's pawn from the -1 takes luck on the +2 and uses the Extra move; -1 taken, the pile
    # is empty: no token
    pos1, t1, on = N.step(pos, 1, "P", "pawn 1, take luck from B + token extra", T0)
    assert on is True
    assert [f["tile"] for f in pos1["track"]] == ["start", "+2", "-3", "finish"]
    assert pawns(pos1, 1) == [0, 0, 1]
    assert pos1["hats"]["luck"] == {"seat": 0, "field": 1}
    assert t1 == N.Turn(frozenset(), swapped=(), moved=((1, "L"),))
    # pawn 1 = the hatless one (not moved), pawn 2 = the lucky one (moved: may move again).
    # The Swap takes the first pawn in hat order not moved: the hatless one.
    assert N.choices(pos1, 1, "P", t1) == [
        "pawn 1", "pawn 2", "pawn 2, give luck to B", "token swap 1 2 B"]
    pos2, t2, on = N.step(pos1, 1, "P", "token swap 1 2 B", t1)
    assert pawns(pos2, 1) == [0, 1, 1] and pawns(pos2, 2) == [0]
    assert pos2["hats"]["luck"] == {"seat": 0, "field": 1}  # the lucky pawn stayed
    assert t2 == N.Turn(frozenset(), swapped=((2, ""),), moved=((1, "L"),))
    # the lucky pawn (pawn 1, moved) may move, the swapped one (pawn 2) not; field 2 holds
    # only A's own pawn: no hat action
    assert N.choices(pos2, 1, "P", t2) == ["pawn 1"]


def test_swap_does_not_move_a_pawn_that_moved():
    # the moved pawn alone on its field: no Swap from there
    pos = P([F("start", [1], mummy=True), F("-1", [0]), F("+2", [1, 1]), F("finish", [0, 0])],
            expansions=["e4"], hands=[["swap"], []])
    t = N.Turn(frozenset(), moved=((1, ""),))
    assert N.choices(pos, 1, "PM", T0) == ["pawn 1", "mummy", "token swap 1 2 B"]
    assert N.choices(pos, 1, "PM", t) == ["pawn 1", "mummy"]
    assert N.token_labels(pos, moved_field=1) == []  # the old form says the same


# ---------------------------------------------------------------------------------------------
# rule 5: Extra move only while the game goes on and the mover has a pawn out


def test_no_extra_when_the_move_brings_the_last_pawn_home():
    pos = P([F("start", [1, 1], mummy=True), F("-1", [0]), F("+2"), F("finish", [0, 0, 1])],
            expansions=["e4"], hands=[["extra"], []])
    # roll 2: pawn 1 goes home (A all home, B still playing: not over) -> no Extra after it
    assert N.choices(pos, 2, "PM", T0) == ["pawn 1", "mummy", "mummy + token extra"]
    assert N.choices(pos, 1, "PM", T0) == ["pawn 1", "mummy", "pawn 1 + token extra",
                                          "mummy + token extra"]
    with pytest.raises(ValueError):
        N.move_ex(pos, 2, "PM", "pawn 1 + token extra")
    assert N.choose(pos, 2, "P", "greedy") == "pawn 1"  # no Extra for the policies either


def test_no_extra_after_a_push_that_ends_the_game():
    # A on START (2) and on the -1 with B's last pawn; roll 2 pushes B home
    track = [F("start", [0, 0]), F("-1", [0, 1]), F("+2", mummy=True), F("finish", [1, 1])]
    pos = P(track, expansions=["e4"], hands=[["push", "extra"], []])
    assert N.choices(pos, 2, "P", T0) == [
        "pawn 1", "pawn 3", "token push 1",
        "pawn 1 + token extra", "pawn 3 + token extra", "token push 1 + token extra"]
    sud = dict(pos, rules={"sudden_end": True})
    assert N.choices(sud, 2, "P", T0) == [
        "pawn 1", "pawn 3", "token push 1",
        "pawn 1 + token extra", "pawn 3 + token extra"]
    end, t, on = N.step(sud, 2, "P", "token push 1", T0)
    assert on is False and end["over"] is True and t == T0
    assert end["collected"] == [["-1"], []]  # A's lone pawn takes the -1 at the sudden end
    # a Push moves no own pawn: nothing "moved"
    _, t2, on = N.step(pos, 2, "P", "token push 1 + token extra", T0)
    assert on is True and t2 == N.Turn(frozenset(), (), ())


# ---------------------------------------------------------------------------------------------
# rule 6: pass


def test_pass_when_every_pawn_out_was_swapped():
    # A's last pawn out on the -1; B: two on the +2, one on the -3 with the mummy; a lone
    # guardian on the camel. A holds Swap, Swap, Extra, Bottom and has a stack.
    pos = P([F("start"), F("-1", [0]), F("+2", [1, 1]), F("camel", g=1),
             F("-3", [1], mummy=True), F("finish", [0, 0])], expansions=["e4"],
            collected=[["+5", "-2"], []], hands=[["swap", "swap", "extra", "bottom"], []])
    assert N.choices(pos, 1, "M", T0) == [
        "mummy", "mummy + token extra", "token swap 1 2 B", "token bottom"]
    pos1, t1, _ = N.step(pos, 1, "M", "token swap 1 2 B", T0)
    assert pawns(pos1, 1) == [1] and pawns(pos1, 2) == [0, 1]
    assert t1 == N.Turn(frozenset(), swapped=((2, ""),))
    # the swapped pawn may be swapped again (with B's pawn or the guardian)
    assert N.choices(pos1, 1, "M", t1) == [
        "mummy", "mummy + token extra", "token swap 2 1 B", "token swap 2 3 guardian",
        "token bottom"]
    # the mummy passes FINISH: A takes the 4; the -3 keeps B's pawn
    pos2, t2, on = N.step(pos1, 1, "M", "mummy + token extra", t1)
    assert on is True and pos2["mummy_taken"] == [[4], []]
    assert pos2["action_tokens"]["hands"][0] == ["swap", "bottom"]
    assert t2 == t1
    # second roll 3, P: A's only pawn out was swapped, the guardian stands alone -> pass.
    # Swap 2 1 B would leave nothing to move; Swap 2 3 guardian brings the guardian to B's
    # pawn on the +2, where it can move: listed.
    assert N.legal(pos2, 3, "P", turn=t2) == ["pass"]
    assert N.choices(pos2, 3, "P", t2) == ["pass", "token swap 2 3 guardian", "token bottom"]
    assert N.choices(pos2, 3, "PM", t2) == ["mummy", "token swap 2 1 B",
                                            "token swap 2 3 guardian", "token bottom"]
    assert N.choose(pos2, 3, "P", "greedy", turn=t2) == "pass"
    done, t3, on = N.step(pos2, 3, "P", "pass", t2)
    assert on is False and t3 == T0
    assert done == dict(pos2, to_move=1)  # pass changes nothing and ends the turn
    with pytest.raises(ValueError):
        N.move_ex(pos2, 3, "P", "pass + token extra", turn=t2)
    pos3, t4, on = N.step(pos2, 3, "P", "token swap 2 3 guardian", t2)
    assert on is True and pos3["track"][2] == {"tile": "+2", "pawns": [1], "guardians": 1}
    assert t4 == N.Turn(frozenset(), swapped=((3, ""),))
    assert N.choices(pos3, 3, "P", t4) == ["guardian 2", "token bottom"]


# ---------------------------------------------------------------------------------------------
# rule 7: a Push must push something


def test_push_needs_something_to_push():
    rules = {"tokens_on_start_finish": True}
    # A on START (with B), alone on the -1, home; B home twice; mummy on the +2
    track = [F("start", [0, 1]), F("-1", [0]), F("+2", mummy=True), F("finish", [0, 1, 1])]
    pos = P(track, expansions=["e4"], rules=rules, hands=[["push"], []])
    # START: B's pawn -> Push; -1: own pawn only; FINISH: only finished pawns -> no Push
    assert N.legal(pos, 2, "P") == ["pawn 1", "pawn 2", "token push 0"]
    assert N.legal(dict(pos, rules={}), 2, "P") == ["pawn 1", "pawn 2"]
    # with the mummy on FINISH the Push on FINISH moves it
    track2 = [F("start", [0, 1]), F("-1", [0]), F("+2"), F("finish", [0, 1, 1], mummy=True)]
    pos2 = P(track2, expansions=["e4"], rules=rules, hands=[["push"], []])
    assert N.legal(pos2, 2, "P") == ["pawn 1", "pawn 2", "token push 0", "token push 3"]
    after = N.move(pos2, 2, "P", "token push 3")  # FINISH -> START -> -1: no token
    assert after["track"][1] == {"tile": "-1", "pawns": [0], "mummy": True}
    assert after["track"][3] == {"tile": "finish", "pawns": [0, 1, 1]}
    assert after["mummy_taken"] == [[], []]
    # a guardian alone with A's pawn is pushed
    pos3 = P([F("start", [1, 1]), F("-1", [0], g=1), F("+2", mummy=True),
              F("finish", [0, 0, 1])], expansions=["e4"], hands=[["push"], []])
    assert N.legal(pos3, 1, "P") == ["pawn 1", "guardian 1", "token push 1"]


# ---------------------------------------------------------------------------------------------
# rule 8: hat actions


def test_swap_hats_only_when_neither_take_nor_give():
    # A's pawn with both hats on the -1 moves onto two hatless B pawns
    hats = {"luck": {"seat": 0, "field": 1}, "bad": {"seat": 0, "field": 1}}
    pos = P([F("start", [1], mummy=True), F("-1", [0]), F("+2", [0]), F("-3", [1, 1]),
             F("+4", [0]), F("finish")], expansions=["e2"], hats=hats)
    assert N.legal(pos, 2, "P") == [
        "pawn 1", "pawn 1, give luck to B", "pawn 1, give bad to B",
        "pawn 1, swap hats with B", "pawn 2", "pawn 3"]
    gave = N.move(pos, 2, "P", "pawn 1, give luck to B")  # the -1 is taken: fields drop
    assert gave["hats"] == {"luck": {"seat": 1, "field": 2}, "bad": {"seat": 0, "field": 2}}
    sw = N.move(pos, 2, "P", "pawn 1, swap hats with B")  # both hats to one B pawn
    assert sw["hats"] == {"luck": {"seat": 1, "field": 2}, "bad": {"seat": 1, "field": 2}}


def test_give_to_the_hatless_pawn_and_swap_with_the_hat_wearer():
    # A's luck pawn moves onto B's pair: one hatless, one with bad
    hats = {"luck": {"seat": 0, "field": 1}, "bad": {"seat": 1, "field": 3}}
    pos = P([F("start", [0], mummy=True), F("-1", [0]), F("+2"), F("-3", [1, 1]),
             F("+4", [1]), F("finish", [0])], expansions=["e2"], hats=hats)
    assert N.legal(pos, 2, "P") == [
        "pawn 1", "pawn 2", "pawn 2, take bad from B", "pawn 2, give luck to B",
        "pawn 2, swap hats with B"]
    # give: to the hatless B pawn -> luck and bad on two B pawns on one field: split
    gave = N.move(pos, 2, "P", "pawn 2, give luck to B")
    assert gave["hats"] == {"luck": {"seat": 1, "field": 2}, "bad": {"seat": 1, "field": 2},
                            "split": True}
    # swap: with the bad pawn (A gets bad, B's bad pawn gets luck)
    sw = N.move(pos, 2, "P", "pawn 2, swap hats with B")
    assert sw["hats"] == {"luck": {"seat": 1, "field": 2}, "bad": {"seat": 0, "field": 2}}
    # a hatless A pawn onto B's lone bad pawn: the swap would be a take
    pos2 = P([F("start", [0], mummy=True), F("-1", [0]), F("+2", [1]), F("-3", [1]),
              F("+4", [1]), F("finish", [0])], expansions=["e2"],
             hats={"luck": {"seat": 1, "field": 3}, "bad": {"seat": 1, "field": 2}})
    assert N.legal(pos2, 1, "P") == ["pawn 1", "pawn 2", "pawn 2, take bad from B"]


def test_swap_hats_with_both_hats_on_one_pawn_or_on_two():
    one = {"luck": {"seat": 1, "field": 2}, "bad": {"seat": 1, "field": 2}}
    track = [F("start", [0, 0], mummy=True), F("-1"), F("+2", [1, 1]), F("+3", [1]),
             F("finish", [0])]
    pos = P(track, expansions=["e2"], hats=one)
    assert N.legal(pos, 2, "P") == [
        "pawn 1", "pawn 1, take luck from B", "pawn 1, take bad from B",
        "pawn 1, swap hats with B"]
    sw = N.move(pos, 2, "P", "pawn 1, swap hats with B")
    assert sw["hats"] == {"luck": {"seat": 0, "field": 2}, "bad": {"seat": 0, "field": 2}}
    # on two B pawns: each of them wears one hat, a swap would be a take
    split = P(track, expansions=["e2"], hats=dict(one, split=True))
    assert N.legal(split, 2, "P") == [
        "pawn 1", "pawn 1, take luck from B", "pawn 1, take bad from B"]
    took = N.move(split, 2, "P", "pawn 1, take luck from B")
    assert took["hats"] == {"luck": {"seat": 0, "field": 2}, "bad": {"seat": 1, "field": 2}}


# ---------------------------------------------------------------------------------------------
# rule 9: hats["split"] in the JSON


def test_split_key_read_and_written():
    one = {"luck": {"seat": 1, "field": 2}, "bad": {"seat": 1, "field": 2}}
    track = [F("start", [0, 0], mummy=True), F("-1"), F("+2", [1, 1]), F("+3", [1]),
             F("finish", [0])]
    pos = P(track, expansions=["e2"], hats=one)
    no = P(track, expansions=["e2"], hats=dict(one, split=False))
    assert N.legal(no, 2, "P") == N.legal(pos, 2, "P")
    assert N._dump(N._load(no))["hats"] == one  # "split": false is not written back
    yes = P(track, expansions=["e2"], hats=dict(one, split=True))
    assert N._dump(N._load(yes))["hats"] == dict(one, split=True)
    # B moves its lucky pawn off the pair: the hats part, the key goes
    b = dict(yes, to_move=1)
    assert N.legal(b, 1, "P") == ["pawn 1", "pawn 2", "pawn 3"]  # luck, bad, then field 3
    parted = N.move(b, 1, "P", "pawn 1")
    assert parted["hats"] == {"luck": {"seat": 1, "field": 3}, "bad": {"seat": 1, "field": 2}}
    # ... and the bad one joining it again brings the key back (the +2 is left empty: B
    # takes it, the -3 becomes field 2)
    again = N.move(parted, 1, "P", "pawn 1")
    assert again["collected"] == [[], ["+2"]]
    assert again["hats"] == {"luck": {"seat": 1, "field": 2}, "bad": {"seat": 1, "field": 2},
                             "split": True}
