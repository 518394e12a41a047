"""The naive Mumia reference (``naive_mumia``) on the rulebook's worked examples.

Movement and collection examples A-F (docs/games/mumia.md §4-§5), scoring §7 (score 30),
the expansions §8-§11 (risk -14, E1 pass, hats, the E4 tokens incl. a Push
carrying the mummy past FINISH), both end rules, and two tiny endgames whose exact values are
worked out by hand below. Seats: 0 = A, 1 = B, 2 = C.
"""

from __future__ import annotations

from fractions import Fraction

import naive_mumia as N


def F(tile, pawns=(), g=0, mummy=False):
    d = {"tile": tile}
    if pawns:
        d["pawns"] = sorted(pawns)
    if g:
        d["guardians"] = g
    if mummy:
        d["mummy"] = True
    return d


def P(track, players=2, to_move=0, expansions=(), rules=None, collected=None,
      tokens=(4, 3, 2, 1), taken=None, hats=None, hands=None, pile=None):
    pos = {"game": "mumia", "players": players, "to_move": to_move,
           "expansions": sorted(expansions), "rules": dict(rules or {}),
           "track": [F("start")] + list(track) if track[0]["tile"] != "start" else list(track),
           "collected": collected or [[] for _ in range(players)],
           "mummy_tokens": list(tokens),
           "mummy_taken": taken or [[] for _ in range(players)]}
    if hats is not None:
        pos["hats"] = hats
    if hands is not None:
        pos["action_tokens"] = {"hands": hands, "pile": list(pile or [])}
    return pos


def tiles(pos):
    return [f["tile"] for f in pos["track"]]


def where(pos, seat):
    return [i for i, f in enumerate(pos["track"]) for s in f.get("pawns", []) if s == seat]


# ---------------------------------------------------------------------------------------------
# worked examples A-F: movement and collection (§4, §5)


def test_example_a_lone_guardian_immovable_and_pawn_takes_plus3():
    pos = P([F("start", [1, 1, 1], mummy=True), F("+3", [0]), F("-1", [0, 0]), F("camel", g=1),
             F("-2"), F("-3"), F("-4"), F("finish")])
    # pawns sorted by field: 1 on the +3, 2 and 3 on the -1 (identical: only pawn 2 listed)
    assert N.legal(pos, 4, "P") == ["pawn 1", "pawn 2"]
    before = N.scores(pos)[0]
    after = N.move(pos, 4, "P", "pawn 1")
    assert after["collected"][0] == ["+3"]
    assert tiles(after) == ["start", "-1", "camel", "-2", "-3", "-4", "finish"]
    assert after["track"][4] == {"tile": "-3", "pawns": [0]}
    assert N.scores(after)[0] - before == 3
    assert pos["track"][1] == {"tile": "+3", "pawns": [0]}  # input untouched
    assert after["to_move"] == 0  # move() does not pass the turn


def test_example_b_other_pawn_stays_nothing_taken():
    pos = P([F("start", [0, 0, 0, 1, 1, 2, 2], mummy=True), F("-8", [1, 2]), F("+2"), F("-6"),
             F("finish")], players=3, to_move=1)
    # B's pawns: 1 and 2 on START (identical: only pawn 1 listed), 3 on the -8
    assert N.legal(pos, 2, "P") == ["pawn 1", "pawn 3"]
    after = N.move(pos, 2, "P", "pawn 3")
    assert after["collected"] == [[], [], []]
    assert tiles(after) == tiles(pos)
    assert after["track"][1]["pawns"] == [2] and after["track"][3]["pawns"] == [1]


def test_example_c_mummy_alone_on_minus7_is_taken():
    pos = P([F("start", [0, 0, 0, 1, 1, 1, 2, 2, 2]), F("-7", mummy=True), F("+1"),
             F("finish")], players=3, to_move=2)
    assert N.legal(pos, 1, "M") == ["mummy"]
    assert N.legal(pos, 1, "PM") == ["pawn 1", "mummy"]
    after = N.move(pos, 1, "M", "mummy")
    assert after["collected"][2] == ["-7"]
    assert tiles(after) == ["start", "+1", "finish"]
    assert after["track"][1].get("mummy") is True
    assert N.scores(after) == [0, 0, -7]


def test_example_d_mummy_passes_finish_takes_top_token():
    # k = 5, cycle length 7; mummy on field 3 (with a pawn), roll 6: 4, 5, 6=FINISH, 0, 1, 2
    pos = P([F("start", [0, 0, 1, 1]), F("+1"), F("+2"), F("-3", [0, 1], mummy=True), F("-4"),
             F("-5"), F("finish", [0, 1])])
    after = N.move(pos, 6, "M", "mummy")
    assert after["mummy_taken"][0] == [4]
    assert after["mummy_tokens"] == [3, 2, 1]
    assert after["track"][2].get("mummy") is True
    assert after["collected"] == [[], []]  # the -3 still holds two pawns
    # a mummy starting on FINISH earns nothing for leaving it
    pos2 = P([F("start", [0, 0, 0, 1, 1, 1]), F("+1"), F("+2"), F("finish", mummy=True)],
             tokens=[3, 2, 1])
    after2 = N.move(pos2, 3, "M", "mummy")
    assert after2["mummy_taken"] == [[], []] and after2["track"][2].get("mummy")


def test_example_e_guardian_shuffle():
    # B (Blue, seat 1) on a camel with its guardian; A (White) rolls 3 + P
    pos = P([F("start", [0, 0, 0, 1, 1], mummy=True), F("-1"), F("camel", [1], g=1), F("-2"),
             F("-3"), F("camel", g=1), F("+4"), F("finish")])
    labels = N.legal(pos, 3, "P")
    assert labels == ["pawn 1", "guardian 2"]  # the lone guardian on field 5 is not movable
    after = N.move(pos, 3, "P", "guardian 2")
    assert after["collected"] == [[], []] and tiles(after) == tiles(pos)
    assert after["track"][2] == {"tile": "camel", "pawns": [1]}
    assert after["track"][5] == {"tile": "camel", "guardians": 2}
    # Blue moves away first: nobody joined, so Blue takes the camel
    b = N.end_turn(after)
    assert b["to_move"] == 1
    b2 = N.move(b, 1, "P", "pawn 3")
    assert b2["collected"][1] == ["camel"]
    # ... but if White's pawn has joined the camel in the meantime, nothing is taken
    joined = N.move(after, 2, "P", "pawn 1")
    assert joined["track"][2]["pawns"] == [0, 1]
    j2 = N.move(N.end_turn(joined), 1, "P", "pawn 3")
    assert j2["collected"] == [[], []]


def test_guardian_with_mummy_movable_and_guardian_at_finish_goes_to_box():
    pos = P([F("start", [0, 0, 0, 1, 1, 1]), F("-1", g=1, mummy=True), F("+2"), F("finish")])
    assert N.legal(pos, 5, "P") == ["pawn 1", "guardian 1"]
    after = N.move(pos, 5, "P", "guardian 1")
    assert all("guardians" not in f for f in after["track"])
    assert tiles(after) == tiles(pos)  # a guardian never collects


def test_example_f_two_passes_in_one_roll():
    # k = 2, cycle 4; mummy alone on tile 2 (index 2), roll 6: 3=FINISH, 0, 1, 2, 3=FINISH, 0
    track = [F("start", [0, 0, 0, 1, 1, 1]), F("+1"), F("-2", mummy=True), F("finish")]
    after = N.move(P(track), 6, "M", "mummy")
    assert after["mummy_taken"][0] == [4, 3]
    assert after["mummy_tokens"] == [2, 1]
    assert after["collected"][0] == ["-2"]
    assert tiles(after) == ["start", "+1", "finish"]
    assert after["track"][0].get("mummy") is True
    # tokens_per_pass = one: at most one token per roll
    one = N.move(P(track, rules={"tokens_per_pass": "one"}), 6, "M", "mummy")
    assert one["mummy_taken"][0] == [4]
    # capped by the stack: the last token, then the mummy (and the picture die) leave
    last = N.move(P(track, tokens=[1]), 6, "M", "mummy")
    assert last["mummy_taken"][0] == [1] and last["mummy_tokens"] == []
    assert not any(f.get("mummy") for f in last["track"])
    assert N.legal(last, 1, None) == ["pawn 1"]
    assert [(n, s) for n, s, _ in N.rolls(last)] == [(n, None) for n in range(1, 7)]


def test_mummy_lifted_guardian_becomes_immovable():
    # the last token: mummy ends on a guardian's tile and is lifted; no tile taken for it
    pos = P([F("start", [0, 0, 0, 1, 1, 1]), F("-1", g=1), F("+2", mummy=True), F("finish")],
            tokens=[1])
    after = N.move(pos, 3, "M", "mummy")  # 3=FINISH (token), 0, 1
    assert after["mummy_taken"][0] == [1]
    assert after["collected"][0] == ["+2"]  # the tile it left alone
    assert tiles(after) == ["start", "-1", "finish"]
    assert N.legal(after, 2, None) == ["pawn 1"]  # guardian alone again


# ---------------------------------------------------------------------------------------------
# §7 scoring


def test_scoring_example_30():
    pos = P([F("start", [0, 0, 0, 1, 1, 1]), F("finish")],
            collected=[["+8", "+3", "-10", "-7", "-2", "camel", "camel"], []], taken=[[4], []])
    assert N.scores(pos) == [30, 0]
    assert N.winners(pos) == [0]


def test_tiebreak():
    pos = P([F("start", [0, 0, 0, 1, 1, 1]), F("finish")], collected=[["+3", "camel"], ["+3"]])
    assert N.winners(pos) == [0, 1]
    assert N.winners(dict(pos, rules={"tiebreak": "fewer_camels"})) == [1]


# ---------------------------------------------------------------------------------------------
# §8-§11 expansions


def test_e3_risk_parity():
    pos = P([F("start", [0, 0, 0, 1, 1, 1]), F("finish")], expansions=["e3"],
            collected=[["risk3", "risk5", "risk6"], ["risk4", "risk4", "camel"]])
    assert N.scores(pos) == [-14, 8]  # odd count: -14; even: +8, the camel flips nothing
    # camels_flip_risk: the owner may cover a risk tile (+m, out of the parity count)
    pos2 = P([F("start", [0, 0, 0, 1, 1, 1]), F("finish")], expansions=["e3"],
             collected=[["risk3", "risk5", "risk6", "camel"], []])
    assert N.scores(pos2)[0] == -14
    # cover the 6: +6, and 3 + 5 is an even count: +8 -> 14 (any single cover gives 14)
    assert N.scores(dict(pos2, rules={"camels_flip_risk": True}))[0] == 14
    # covering can hurt: risk 3 + 5 (even, +8) is better left alone
    pos3 = dict(pos2, collected=[["risk3", "risk5", "camel"], []],
                rules={"camels_flip_risk": True})
    assert N.scores(pos3)[0] == 8


def test_e1_exchange_tile_passes_top_of_stack_left():
    track = [F("start", [1, 1, 1, 2, 2, 2], mummy=True), F("exchange", [0]), F("+2"), F("-3"),
             F("finish", [0, 0])]
    pos = P(track, players=3, expansions=["e1"], collected=[["+5", "-3"], ["+1"], []])
    after = N.move(pos, 1, "P", "pawn 1")
    assert after["collected"] == [["+5"], ["+1", "-3"], []]
    assert tiles(after) == tiles(pos)  # the exchange tile stays
    # empty stack: nothing happens
    after2 = N.move(P(track, players=3, expansions=["e1"]), 1, "P", "pawn 1")
    assert after2["collected"] == [[], [], []]
    # the mummy leaving it empty passes too; seat 2's left is seat 0, even if seat 0 is home
    pos3 = P([F("start", [1, 1, 1, 2, 2, 2]), F("exchange", mummy=True), F("+2"),
              F("finish", [0, 0, 0])], players=3, to_move=2, expansions=["e1"],
             collected=[[], [], ["camel", "-9"]])
    after3 = N.move(pos3, 1, "M", "mummy")
    assert after3["collected"] == [["-9"], [], ["camel"]]


def test_e2_hat_labels_and_swap():
    hats = {"luck": {"seat": 1, "field": 3}, "bad": {"seat": 0, "field": 1}}
    pos = P([F("start", [0], mummy=True), F("-1", [0, 0]), F("-2"), F("+3", [1]), F("-4"),
             F("finish", [1, 1])], expansions=["e2"], hats=hats)
    assert N.legal(pos, 2, "P") == [
        "pawn 1",
        "pawn 2", "pawn 2, take luck from B",  # a swap of hats would only take luck
        "pawn 3", "pawn 3, take luck from B", "pawn 3, give bad to B", "pawn 3, swap hats with B"]
    after = N.move(pos, 2, "P", "pawn 3, swap hats with B")
    assert after["hats"] == {"luck": {"seat": 0, "field": 3}, "bad": {"seat": 1, "field": 3}}
    assert after["collected"] == [[], []]  # the other A pawn stays on the -1
    took = N.move(pos, 2, "P", "pawn 3, take luck from B")
    assert took["hats"] == {"luck": {"seat": 0, "field": 3}, "bad": {"seat": 0, "field": 3}}
    gave = N.move(pos, 2, "P", "pawn 3, give bad to B")
    assert gave["hats"] == {"luck": {"seat": 1, "field": 3}, "bad": {"seat": 1, "field": 3}}
    # hat rule of the policies: greedy moves pawn 1 (all changes 0 ... first label)
    assert N.choose(pos, 2, "P", "greedy") == "pawn 1"


def test_e2_hat_rule_in_choose():
    hats = {"luck": {"seat": 1, "field": 3}, "bad": {"seat": 0, "field": 1}}
    pos = P([F("start", mummy=True), F("-1", [0, 0]), F("-2"), F("+3", [1]), F("-4"),
             F("finish", [0, 1, 1])], expansions=["e2"], hats=hats)
    # pawn 1 = the hatless one; take luck (+10) and swap (+10) tie -> take luck (order)
    assert N.choose(pos, 2, "P", "greedy") == "pawn 1, take luck from B"


def test_e2_hat_locked_on_finish_and_no_hat_action_there():
    hats = {"luck": {"seat": 0, "field": 1}, "bad": {"seat": 1, "field": 2}}
    pos = P([F("start", [1], mummy=True), F("-4", [0]), F("finish", [0, 0, 1, 1])],
            expansions=["e2"], hats=hats)
    assert N.scores(pos) == [0, -10]  # luck not home yet: 0; bad locked on FINISH
    assert N.legal(pos, 3, "P") == ["pawn 1"]  # no hat action on FINISH
    after = N.move(pos, 3, "P", "pawn 1")
    assert after["hats"]["luck"] == {"seat": 0, "field": 1}  # FINISH = field 1 now
    assert N.scores(after) == [-4 + 10, -10]


def test_e4_danger_tile_draws_token_fresh_not_usable():
    pos = P([F("start", [0, 1, 1], mummy=True), F("-3", [0]), F("+2"), F("-5", [1]), F("+4"),
             F("finish", [0])], expansions=["e4"], hands=[[], []], pile=["swap", "push"])
    after, fresh = N.move_ex(pos, 1, "P", "pawn 2")
    assert after["collected"][0] == ["-3"]
    assert after["action_tokens"] == {"hands": [["swap"], []], "pile": ["push"]}
    assert fresh == {0}
    assert N.token_labels(after, fresh) == []  # gained this turn
    assert N.token_labels(after, (), moved_field=1) == []  # the pawn just moved
    assert N.scores(after) == [-3 + 1, 0]  # unused token +1
    # next turn of A: the Swap may be used
    nxt = dict(after, to_move=0)
    assert N.token_labels(nxt) == ["token swap 1 2 B"]
    sw = N.use_token(nxt, "token swap 1 2 B")
    assert sw["track"][1]["pawns"] == [1] and sw["track"][2]["pawns"] == [0]
    assert sw["action_tokens"] == {"hands": [[], []], "pile": ["push", "swap"]}
    assert sw["collected"] == after["collected"]


def test_e4_swap_targets_and_start_finish_flag():
    pos = P([F("start", [1, 1], mummy=True), F("-3", [0]), F("+2", [1], g=1), F("+4"),
             F("finish", [0, 0])], expansions=["e4"], hands=[["swap"], []])
    assert N.token_labels(pos) == ["token swap 1 2 B", "token swap 1 2 guardian"]
    flagged = dict(pos, rules={"tokens_on_start_finish": True})
    assert N.token_labels(flagged) == ["token swap 1 0 B", "token swap 1 0 mummy",
                                       "token swap 1 2 B", "token swap 1 2 guardian"]
    g = N.use_token(pos, "token swap 1 2 guardian")
    assert g["track"][1] == {"tile": "-3", "guardians": 1}
    assert g["track"][2] == {"tile": "+2", "pawns": [0, 1]}


def test_e4_bottom_token_with_e1():
    pos = P([F("start", [0, 0, 0, 1, 1, 1], mummy=True), F("+2"), F("finish")],
            expansions=["e1", "e4"], collected=[["+5", "-3", "camel"], []],
            hands=[["bottom"], []], pile=["extra"])
    assert N.token_labels(pos) == ["token bottom"]
    after = N.use_token(pos, "token bottom")
    assert after["collected"][0] == ["camel", "+5", "-3"]
    assert after["action_tokens"] == {"hands": [[], []], "pile": ["extra", "bottom"]}


def test_e4_extra_move():
    pos = P([F("start", [0, 0, 0, 1, 1, 1], mummy=True), F("+2"), F("-1"), F("+3"),
             F("finish")], expansions=["e4"], hands=[["extra"], []], pile=["push"])
    assert N.choose(pos, 1, "P", "greedy") == "pawn 1 + token extra"
    after = N.move(pos, 1, "P", "pawn 1 + token extra")
    assert after["to_move"] == 0
    assert after["action_tokens"] == {"hands": [[], []], "pile": ["push", "extra"]}
    again = N.move(after, 2, "P", "pawn 3")  # one more complete move
    assert again["collected"][0] == ["+2"]  # the +2 was left empty: taken, track closes up
    assert where(again, 0) == [0, 0, 2]  # on the +3, now field 2


def test_e4_push_carries_mummy_past_finish():
    # A's pawn shares the -1 with B's last pawn, a guardian and the mummy; roll 3
    track = [F("start", [0, 0]), F("-1", [0, 1], g=1, mummy=True), F("+2"),
             F("finish", [1, 1])]
    pos = P(track, expansions=["e4"], hands=[["push"], []])
    assert N.legal(pos, 3, "M") == ["mummy", "token push 1"]
    after = N.move(pos, 3, "M", "token push 1")
    assert after["track"][1] == {"tile": "-1", "pawns": [0]}  # nothing collected
    assert after["track"][3]["pawns"] == [1, 1, 1]  # B's pawn home
    assert all("guardians" not in f for f in after["track"])  # guardian to the box
    assert after["track"][0].get("mummy") is True  # 2, 3=FINISH, 0
    assert after["mummy_taken"] == [[4], []]  # the pusher gets the token
    assert after["action_tokens"] == {"hands": [[], []], "pile": ["push"]}
    assert not after.get("over")  # standard end: A still has pawns out
    assert N.end_turn(after)["to_move"] == 0  # B is home and takes no more turns
    # sudden end: B is home -> the game ends; A's lone pawn takes the -1
    sud = N.move(P(track, expansions=["e4"], hands=[["push"], []],
                   rules={"sudden_end": True}), 3, "M", "token push 1")
    assert sud["over"] is True
    assert sud["collected"] == [["-1"], []]
    assert N.scores(sud) == [-1 + 4, 0]


# ---------------------------------------------------------------------------------------------
# §6 end rules


def _end_pos(**kw):
    return P([F("start", [2]), F("-2", [1, 1]), F("+5", [1]), F("camel", [2], g=1),
              F("+1", [2]), F("-6", [0]), F("finish", [0, 0])], players=3, tokens=[], **kw)


def test_standard_end():
    pos = _end_pos()
    after = N.move(pos, 1, None, "pawn 1")
    assert after["collected"][0] == ["-6"] and not after.get("over")
    assert N.end_turn(after)["to_move"] == 1
    # 3 players, B all home: A passes to C
    pos2 = P([F("start", [0, 2]), F("+1"), F("finish", [0, 0, 1, 1, 1, 2, 2])], players=3,
             tokens=[])
    assert N.end_turn(pos2)["to_move"] == 2
    # the last pawn of all reaches FINISH: over
    pos3 = P([F("start", [0]), F("+1"), F("finish", [0, 0, 1, 1, 1])], tokens=[])
    done = N.move(pos3, 6, None, "pawn 1")
    assert done["over"] is True and N.legal(done, 1, None) == []


def test_sudden_end_grab_pair_not_alone():
    after = N.move(_end_pos(rules={"sudden_end": True}), 1, None, "pawn 1")
    assert after["over"] is True
    # B's lone pawn on +5 and C's on +1 take them; the pair on -2, C's pawn with the
    # guardian and C's pawn on START take nothing
    assert after["collected"] == [["-6"], ["+5"], ["+1"]]
    assert N.scores(after) == [-6, 5, 1] and N.winners(after) == [1]
    pair = N.move(_end_pos(rules={"sudden_end": True, "sudden_end_pair_alone": True}),
                  1, None, "pawn 1")
    assert pair["collected"] == [["-6"], ["-2", "+5"], ["+1"]]
    assert N.scores(pair) == [-6, 3, 1]


# ---------------------------------------------------------------------------------------------
# policies


def test_greedy_and_heuristic_differ():
    # A: pawn 1 on START, pawn 2 alone on +1; roll 1
    pos = P([F("start", [0, 1, 1, 1]), F("+1", [0]), F("-5"), F("+2"), F("finish", [0])],
            tokens=[])
    # greedy: pawn 2 takes +1 (+1) vs pawn 1 (0)
    assert N.choose(pos, 1, None, "greedy") == "pawn 2"
    # heuristic: pawn 2: +1 + 0.5 (-5 - 1) = -2; pawn 1: 0 + 0.5 (1 - 1) = 0
    assert N.choose(pos, 1, None, "heuristic") == "pawn 1"


# ---------------------------------------------------------------------------------------------
# exact, by hand


def test_exact_one_pawn_two_from_finish():
    # Track START, +1, +4, -3, FINISH (k = 3); A's last pawn alone on the +4 (field 2, two
    # fields from FINISH); B all home with +3; mummy gone. B never moves again, so A moves
    # every turn.  Roll 1 (1/6): A lands on -3 and takes +4, next turn any roll takes -3 and
    # goes home: final 1.  Roll 2..6 (5/6): home, takes +4: final 4.
    # EV(A) = 1/6 * 1 + 5/6 * 4 = 21/6 = 7/2; A wins (4 > 3) with 5/6, B with 1/6.
    pos = P([F("start"), F("+1"), F("+4", [0]), F("-3"), F("finish", [0, 0, 1, 1, 1])],
            tokens=[], collected=[[], ["+3"]])
    ev, win = N.exact(pos)
    assert ev == [Fraction(7, 2), 3]
    assert win == [Fraction(5, 6), Fraction(1, 6)]


def test_exact_guardian_choice():
    # Track START, +5 (A's last pawn + a guardian), -1, -2, FINISH; B home (+4); no mummy.
    # Moving the pawn off the +5 leaves the guardian there: the +5 is lost (value <= 0).
    # Moving the guardian n first (it shares the pawn's field), then the pawn alone takes +5.
    # W(-2) = -2 (a lone pawn on the last tile).  W(-1 with -2 after) = 1/6(-3) + 5/6(-1) = -4/3.
    # Guardian to the box (n >= 3): 1/6(5 - 4/3) + 1/6(5 - 2) + 4/6 * 5 = 40/9.
    # Guardian to -1 (n = 1): pawn rolls 1 -> joins the guardian on -1 (+5), then
    #   X = per roll: 1 -> move the guardian to -2, later pawn takes -1 only: -1
    #                     (pawn to -2 instead: the -2 is taken later: -2);
    #                 2..6 -> pawn home, the -1 keeps the guardian: 0.   X = -1/6;
    #   pawn rolls 2 -> lone on -2: 5 - 2 = 3; 3..6 -> home: 5.
    #   value = 1/6(5 - 1/6) + 1/6 * 3 + 4/6 * 5 = 167/36.
    # Guardian to -2 (n = 2): pawn 1 -> -1, then always -1 (joining the guardian on -2 and
    #   leaving it there, or straight home): 4; pawn 2 -> with the guardian on -2, then home
    #   leaving it: 5; 3..6: 5.  value = 1/6 * 4 + 5/6 * 5 = 29/6.
    # EV = 1/6 (167/36 + 29/6 + 4 * 40/9) = 1/6 * 981/36 = 109/24.
    pos = P([F("start"), F("+5", [0], g=1), F("-1"), F("-2"), F("finish", [0, 0, 1, 1, 1])],
            tokens=[], collected=[[], ["+4"]])
    ev, _ = N.exact(pos)
    assert ev == [Fraction(109, 24), 4]


def test_picture_faces_rule():
    pos = P([F("start", [0, 0, 0, 1, 1, 1], mummy=True), F("+1"), F("finish")],
            rules={"picture_faces": "1/2/3"})
    probs = {(n, s): p for n, s, p in N.rolls(pos)}
    assert probs[(1, "P")] == Fraction(1, 36) and probs[(6, "PM")] == Fraction(3, 36)
    assert sum(probs.values()) == 1


def test_e2_two_hats_on_two_pawns_of_one_seat_one_field():
    # A's luck pawn joins A's bad pawn on the -4: the JSON marks it with hats["split"]
    hats = {"luck": {"seat": 0, "field": 2}, "bad": {"seat": 0, "field": 4}}
    pos = P([F("start", [1], mummy=True), F("-1"), F("+2", [0]), F("-3"), F("-4", [0]),
             F("finish", [0, 1, 1])], expansions=["e2"], hats=hats)
    after = N.move(pos, 2, "P", "pawn 1")
    assert after["hats"] == {"luck": {"seat": 0, "field": 3}, "bad": {"seat": 0, "field": 3},
                             "split": True}
    assert N.legal(after, 1, "P") == ["pawn 1", "pawn 2"]  # luck, then bad
    home = N.move(after, 1, "P", "pawn 2")  # the bad one alone goes home
    assert home["hats"] == {"luck": {"seat": 0, "field": 3}, "bad": {"seat": 0, "field": 4}}
    assert N.scores(home)[0] == 2 - 10
