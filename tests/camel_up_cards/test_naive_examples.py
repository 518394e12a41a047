"""The naive Camel Up Cards reference (naive_cards.py) on the worked examples of
docs/games/camel-up-cards.md (§5.3 M1-M8, §5.4, §5.5, §7, §8), worked again by hand from the
rules text, plus hand-computed §9 posteriors and leg distributions."""

from __future__ import annotations

import copy
from fractions import Fraction as F

import naive_cards as nc
import pytest


def board(L, stacks, start=(), fox=None, palm=None):
    """A board with ceil(L/2) two-space cards."""
    return {"L": L, "cards": [2] * ((L + 1) // 2), "stacks": dict(stacks),
            "start": list(start), "fox": fox, "palm": palm, "finish": None}


# ---------------------------------------------------------------------------------------------
# §5.3 worked examples


def test_m1_setup_reveals():
    b = nc.new_board(15)
    for card in ["Y1", "O2", "Y2", "B1", "O1"]:
        b = nc.move(b, card[0], int(card[1]))
    assert b["start"] == ["W", "G"]
    assert b["stacks"] == {1: ["B"], 3: ["Y", "O"]}
    assert nc.ranking(b) == ["O", "Y", "B", "W", "G"]


def test_m2_palm():
    b = board(17, {2: ["O", "Y"], 5: ["G", "W"], 8: ["B"]}, palm=7)
    after = nc.move(b, "G", 2)
    assert after["stacks"] == {2: ["O", "Y"], 8: ["B", "G", "W"]}
    assert after["palm"] is None          # palm and card back: Ann will not pay for it
    assert nc.ranking(after) == ["W", "G", "B", "Y", "O"]


def test_m3_fox_puts_unit_underneath():
    b = board(17, {2: ["W"], 4: ["G"], 7: ["O", "Y"], 8: ["B"]}, fox=9)
    after = nc.move(b, "O", 2)
    assert after["stacks"] == {2: ["W"], 4: ["G"], 8: ["O", "Y", "B"]}
    assert after["fox"] is None
    assert nc.ranking(after)[:3] == ["B", "Y", "O"]


def test_m4_palm_then_fox():
    b = board(17, {3: ["G", "O", "B", "Y"], 8: ["W"]}, palm=10, fox=11)
    after = nc.move(b, "W", 2)
    assert after["stacks"] == {3: ["G", "O", "B", "Y"], 10: ["W"]}
    assert after["fox"] is None and after["palm"] is None


def test_fox_then_palm_chain():
    # C-AMB-3 the other way round: fox on 6 sends W back to 5 where the palm is, which sends
    # it forward to 6 again (the fox is gone by then): W ends on top of nothing on 6.
    b = board(17, {2: ["G", "O", "B", "Y"], 4: ["W"]}, palm=5, fox=6)
    after = nc.move(b, "W", 2)
    assert after["stacks"] == {2: ["G", "O", "B", "Y"], 6: ["W"]}
    assert after["fox"] is None and after["palm"] is None


def test_m5_plus_two_from_the_hand():
    b = board(17, {1: ["W", "B", "Y"], 4: ["G", "O"]})
    assert nc.unit_move_hand(b, "G")["stacks"] == {1: ["W", "B", "Y"], 5: ["G", "O"]}
    assert nc.move(b, "G", 2)["stacks"] == {1: ["W", "B", "Y"], 6: ["G", "O"]}
    assert b["stacks"][4] == ["G", "O"]   # purity


def test_m6_passed_figure():
    b = board(17, {2: ["W"], 5: ["G", "O", "B", "Y"]}, fox=3)
    after = nc.move(b, "W", 2)
    assert after["stacks"] == {4: ["W"], 5: ["G", "O", "B", "Y"]}
    assert after["fox"] is None           # passed by every camel: Dan no longer pays


def test_m6_figure_not_passed_while_a_camel_is_on_the_start_card():
    b = board(17, {2: ["W"], 5: ["O", "B", "Y"]}, start=["G"], fox=3)
    after = nc.move(b, "W", 2)
    assert after["fox"] == 3              # G (position 0) is still behind the fox


def test_m7_finish_via_palm():
    b = board(17, {10: ["W", "G", "O"], 16: ["B", "Y"]}, palm=17)
    after = nc.move(b, "B", 1)
    assert after["finish"] == ["B", "Y"]
    assert nc.ranking(after) == ["Y", "B", "O", "G", "W"]
    with pytest.raises(ValueError):
        nc.move(after, "W", 1)


def test_finish_beyond_the_finish_card():
    b = board(15, {5: ["W", "G", "O"], 14: ["B"], 15: ["Y"]})
    after = nc.move(b, "B", 2)            # 14 + 2 = 16 = L + 1
    assert after["finish"] == ["B"] and after["stacks"] == {5: ["W", "G", "O"], 15: ["Y"]}
    assert nc.ranking(after) == ["B", "Y", "O", "G", "W"]
    after = nc.move(b, "Y", 2)            # 17 > L + 1 also finishes
    assert after["finish"] == ["Y"]


def test_m8_fox_in_front_of_a_stack():
    b = board(17, {2: ["W"], 3: ["G"], 5: ["B", "O", "Y"]}, fox=6)
    after = nc.move(b, "O", 1)
    assert after["stacks"] == {2: ["W"], 3: ["G"], 5: ["O", "Y", "B"]}
    assert nc.ranking(after)[:3] == ["B", "Y", "O"]


def test_fox_on_space_one_sends_camel_to_end_of_line_up():
    # C-AMB-8: G leaves the line-up, lands on the fox on 1, goes back and joins at the end.
    b = board(17, {4: ["B", "Y"]}, start=["W", "G", "O"], fox=1)
    after = nc.move(b, "G", 1)
    assert after["start"] == ["W", "O", "G"] and after["fox"] is None
    assert nc.ranking(after) == ["Y", "B", "W", "O", "G"]


def test_start_card_camel_carries_nobody():
    b = nc.new_board(15)
    after = nc.move(b, "W", 1)
    assert after["start"] == ["G", "O", "B", "Y"] and after["stacks"] == {1: ["W"]}


def test_figure_spaces():
    b = board(10, {3: ["W"], 5: ["G", "O"], 8: ["B", "Y"]}, fox=6)
    assert nc.figure_spaces(b) == [4, 7, 9, 10]
    b = board(10, {2: ["B", "Y"]}, start=["W", "G", "O"], palm=4)
    assert nc.figure_spaces(b) == [1, 3, 5, 6, 7, 8, 9, 10]


# ---------------------------------------------------------------------------------------------
# §5.4 sandstorm, §5.5 extension


def test_sandstorm_example():
    b = board(17, {2: ["O"], 3: ["W"], 10: ["G"], 11: ["B", "Y"]})
    after = nc.sandstorm(b)
    assert after["cards"] == [2, 2, 1, 1, 2, 2, 2, 2, 2]
    assert after["stacks"] == {2: ["O"], 3: ["W"], 8: ["G"], 9: ["B", "Y"]}
    assert after["L"] == 15
    assert nc.sandstorm(after) == after   # nothing left to turn; turned cards stay turned


def test_sandstorm_last_camel_on_start_card():
    # leader Y on 7 = card 4 (spaces 7-8): cards 1, 2, 3 are empty and before it -> turned;
    # card 5 onward is ahead of the leader and never turned.
    b = board(17, {7: ["Y"]}, start=["W", "G", "O", "B"])
    after = nc.sandstorm(b)
    assert after["cards"] == [1, 1, 1, 2, 2, 2, 2, 2, 2]
    assert after["stacks"] == {4: ["Y"]} and after["L"] == 14


def test_extension_example():
    b = board(17, {3: ["W", "G", "O", "B"], 15: ["Y"]})
    after = nc.extend(b)
    assert after["L"] == 18 and after["cards"] == [2] * 9   # half-covered card uncovered
    b = board(18, {3: ["W", "G", "O", "B"], 17: ["Y"]})
    after = nc.extend(b)
    assert after["L"] == 20 and after["cards"] == [2] * 10  # one card added
    b = board(18, {3: ["W", "G", "O", "B"], 15: ["Y"]})
    assert nc.extend(b)["L"] == 18                          # 16, 17, 18 lie between: no change


# ---------------------------------------------------------------------------------------------
# §7 and §8 payouts


def test_leg_payout_example():
    order = ["O", "Y", "B", "G", "W"]
    ann = nc.leg_net(order, [("O", 5)], ["Y"], False, True)
    ben = nc.leg_net(order, [("G", 3)], ["B"], False, False)
    cal = nc.leg_net(order, [("W", 2)], [], False, False)
    assert (ann, ben, cal) == (5, 1, -1)
    assert nc.floor_money(1, cal) == 1
    # Y leader 5 and 3 (2nd: +1 each), midfield G 4th +1, O 1st -1, W 5th -1, fox -1
    assert nc.leg_net(order, [("Y", 5), ("Y", 3)], ["G", "O", "W"], True, False) == 0
    assert nc.leg_net(order, [("B", 2)], ["B"], False, False) == -1 + 2


def test_final_payout_example():
    order = ["Y", "O", "B", "G", "W"]
    assert nc.final_net(order, "O", "W") == 10
    assert nc.final_net(order, "Y", "G") == 10
    cal = nc.final_net(order, "B", "O")
    assert cal == -2
    assert [nc.floor_money(m, cal) for m in (1, 2, 3, 5)] == [1, 1, 1, 3]
    assert nc.final_net(order, None, None) == 0
    # C-AMB-6: leg payout floored first, then the final payout: 2 EP, leg -3, final +7
    assert nc.floor_money(nc.floor_money(2, -3), 7) == 8


# ---------------------------------------------------------------------------------------------
# §9 posteriors


def test_tiny_posterior_by_hand():
    # known ['W1'], pool ['W1','W2','G1'], one unknown card, first reveal W1.
    #   U = W1: deck {W1,W1}, P(first W1) = 2/2 = 1   -> rest (W1,)
    #   U = W2: deck {W1,W2}, P = 1/2                 -> rest (W2,)
    #   U = G1: deck {W1,G1}, P = 1/2                 -> rest (G1,)
    # total 2: posterior W1 1/2, W2 1/4, G1 1/4.
    post = nc.deck_posterior(["W1"], ["W1", "W2", "G1"], 1, ["W1"])
    assert post == {("W1",): F(1, 2), ("W2",): F(1, 4), ("G1",): F(1, 4)}


def test_posterior_two_reveals_and_subtraction_bias():
    # known [W1,G1], pool [W1a,W1b,G1,B2], two unknown cards, reveals W1, W1.
    #   {W1a,W1b}: deck W1 x3 + G1, P = 3/4 * 2/3 = 1/2        -> rest (G1, W1)
    #   {W1a,G1}, {W1b,G1}: W1 x2 + G1 x2, P = 2/4 * 1/3 = 1/6 -> rest (G1, G1)
    #   {W1a,B2}, {W1b,B2}: W1 x2 + G1 + B2, P = 1/6 each      -> rest (B2, G1)
    #   {G1,B2}: only one W1, P = 0
    # total 1/2 + 4/6 = 7/6: (G1,W1) 3/7, (G1,G1) 2/7, (B2,G1) 2/7.
    post = nc.deck_posterior(["W1", "G1"], ["W1", "W1", "G1", "B2"], 2, ["W1", "W1"])
    assert post == {("G1", "W1"): F(3, 7), ("G1", "G1"): F(2, 7), ("B2", "G1"): F(2, 7)}
    # "draw U uniformly, then subtract the reveals" gives (G1,W1) only 1/6 (U = {W1a,W1b}
    # is 1 of 6 subsets) -- the revealed W1s are likelier from W1-rich decks.
    assert post[("G1", "W1")] != F(1, 6)
    # ... and in the tiny case it would give each rest 1/3 instead of 1/2, 1/4, 1/4
    tiny = nc.deck_posterior(["W1"], ["W1", "W2", "G1"], 1, ["W1"])
    assert tiny[("W1",)] != F(1, 3)


def test_posterior_no_reveal_is_the_prior_and_impossible_reveals_raise():
    post = nc.deck_posterior(["Y2"], ["W1", "W1", "G1"], 1, [])
    assert post == {("W1", "Y2"): F(2, 3), ("G1", "Y2"): F(1, 3)}
    with pytest.raises(ValueError):
        nc.deck_posterior([], ["W1", "G1"], 1, ["Y2"])
    with pytest.raises(ValueError):
        nc.deck_posterior(["W1"], ["G1"], 1, ["W1", "W1"])


# ---------------------------------------------------------------------------------------------
# §9 leg distributions


def test_leg_distribution_two_cards_with_fox():
    # 3:[W], 4:[G,O], 6:[B], 9:[Y], fox on 5, deck W1, G2.
    #   W1, G2: W on top of G,O on 4 -> [G,O,W]; G2 lifts all three onto B on 6 -> 6:[B,G,O,W];
    #           every camel beyond 5 -> fox passed. Ranking Y W O G B.
    #   G2, W1: [G,O] onto B -> 6:[B,G,O]; W to 4, still behind the fox. Ranking Y O G B W.
    b = board(15, {3: ["W"], 4: ["G", "O"], 6: ["B"], 9: ["Y"]}, fox=5)
    snapshot = copy.deepcopy(b)
    dist = nc.leg_distribution(b, ["W1", "G2"])
    assert dist == {(("Y", "W", "O", "G", "B"), False, False, False): F(1, 2),
                    (("Y", "O", "G", "B", "W"), False, True, False): F(1, 2)}
    assert b == snapshot                  # purity


def test_leg_distribution_three_cards_race_end():
    # L = 10, 2:[W,G,O], 8:[B], 9:[Y], deck Y1, Y1, B2 (3 orders of the strings, each 2/6).
    #   Y1 Y1 (B2):  Y to 10, Y to 11 = finish [Y]           -> Y B O G W, race ends
    #   Y1 B2 Y1:    Y to 10, B onto Y, Y lifts [Y,B] -> finish [Y,B] -> B Y O G W
    #   B2 Y1 Y1:    B to 10, Y onto B, Y alone to finish      -> Y B O G W
    b = board(10, {2: ["W", "G", "O"], 8: ["B"], 9: ["Y"]})
    dist = nc.leg_distribution(b, ["Y1", "Y1", "B2"])
    assert dist == {(("Y", "B", "O", "G", "W"), True, False, False): F(2, 3),
                    (("B", "Y", "O", "G", "W"), True, False, False): F(1, 3)}


def test_leg_distribution_empty_deck_and_posterior_mix():
    b = board(15, {1: ["W"], 2: ["G"], 3: ["O", "B", "Y"]}, palm=9)
    assert nc.leg_distribution(b, []) == {(("Y", "B", "O", "G", "W"), False, False, True): 1}
    # after the reveal W1 the rest is W1 (1/2), W2 (1/4) or G1 (1/4), see the tiny posterior:
    #   W1: W onto G on 2 -> Y B O W G;  W2: W onto Y on 3 -> W Y B O G;  G1: G onto Y -> G Y B O W
    dist = nc.leg_distribution_posterior(b, ["W1"], ["W1", "W2", "G1"], 1, ["W1"])
    assert dist == {(("Y", "B", "O", "W", "G"), False, False, True): F(1, 2),
                    (("W", "Y", "B", "O", "G"), False, False, True): F(1, 4),
                    (("G", "Y", "B", "O", "W"), False, False, True): F(1, 4)}


def test_full_set():
    assert len(nc.FULL_SET) == 30
    assert nc.FULL_SET.count("W1") == 5 and nc.FULL_SET.count("Y2") == 1
