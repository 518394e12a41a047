"""The reference itself against the rules' worked examples (to be stated in
docs/games/kingdom-run.md with the game's kernel, issue 18), a
hand-worked re-roll table, and invariants."""

from fractions import Fraction

import pytest

import naive_kingdom_run as kr

ALL = [c + str(i) for c in kr.CLANS for i in range(1, 5)]


def fill(placement, spaces=(0, 1, 2, 3), exclude=()):
    """Put every runner not yet placed (nor excluded) on ``spaces`` (4 per space)."""
    placed = {r for names in placement.values() for r in names} | set(exclude)
    rest = [r for r in ALL if r not in placed]
    out = {s: list(v) for s, v in placement.items()}
    for s in spaces:
        while rest and len(out.get(s, [])) < 4:
            out.setdefault(s, []).append(rest.pop(0))
    assert not rest
    return out


def where(pos, runner):
    f = kr.find(pos, runner)
    return None if f is None else f[0]


def check_invariants(pos):
    assert sorted(kr.all_runners(pos)) == sorted(ALL)          # 16 runners always
    cap = pos["params"]["capacity"]
    assert all(len(sp["runners"]) <= cap for sp in pos["track"])


# --------------------------------------------------------------------------- Scatter

def scatter_position():
    # space 5: K1 W1 F1; space 6 full; space 7 (lake) holds G1; space 8 empty
    placement = fill({5: ["K1", "W1", "F1"], 6: ["K2", "W2", "F2", "G2"], 7: ["G1"]})
    return kr.position_from(placement, ["K", "W"], ["scatter", "steal", "steal", "copy"])


def test_scatter_drop_order_drowns_the_first():
    pos = scatter_position()
    labels = [lab for lab, _a in kr.legal_actions(pos)]
    assert "scatter 5 [W1,K1]" in labels and "scatter 5 [K1,W1]" in labels
    assert "scatter 7 [G1]" not in labels                     # lake: not a source
    a = kr.apply_action(pos, ("scatter", 5, ["W1", "K1"]))
    assert where(a, "W1") == 7 and a["track"][7]["lake"]       # W1 stuck in the lake
    assert where(a, "K1") == 8
    b = kr.apply_action(pos, ("scatter", 5, ["K1", "W1"]))
    assert where(b, "K1") == 7 and where(b, "W1") == 8          # the knight drowned
    check_invariants(a), check_invariants(b)
    # a runner in a lake cannot be scattered nor catch up
    after = [lab for lab, _x in kr.legal_actions(a)]
    assert not any(lab.startswith("scatter 7") for lab in after)


# --------------------------------------------------------------------------- Catch-up

def test_catchup_overflows_into_lake():
    placement = fill({9: ["G2"], 12: ["K1", "W1", "F1", "G1"]}, spaces=(0, 1, 2))
    pos = kr.position_from(placement, ["K", "W"], ["catchup", "catchup", "steal", "steal"])
    a = kr.apply_action(pos, ("catchup", "G2"))
    assert where(a, "G2") == 13 and a["track"][13]["lake"]
    assert "catchup G2" not in [lab for lab, _x in kr.legal_actions(a)]
    check_invariants(a)


def test_catchup_leader_crosses_to_podium_place_3():
    placement = fill({25: ["K2"]}, exclude=("K1", "W1"))   # K1, W1 on the podium already
    asleep = [r for r in ALL if r != "K2"]
    pos = kr.position_from(placement, ["K", "W"], ["catchup", "catchup", "bath", "bath"],
                           podium=["K1", "W1"], asleep=asleep)
    check_invariants(pos)
    seqs = dict(kr.legal_sequences(pos))
    assert set(seqs) == {"catchup K2 > podium [K2]"}
    new = seqs["catchup K2 > podium [K2]"]
    assert new["podium"] == ["K1", "W1", "K2"]              # place 3
    assert new["to_move"] == 1 and new["roll"] is None
    assert kr.scores(new)[0] - kr.scores(pos)[0] == 8 - 5    # podium 3rd 8 - zone 5
    check_invariants(new)
    # the leader cannot catch up when nobody has finished
    pos2 = kr.position_from(fill({25: ["K2"]}), ["K", "W"], ["catchup"] * 4, asleep=asleep)
    check_invariants(pos2)
    assert kr.legal_actions(pos2) == []
    assert [lab for lab, _p in kr.legal_sequences(pos2)] == ["pass"]


def test_same_turn_finishers_free_order_and_surplus():
    placement = {25: ["K1", "W1"], 0: ["K2", "W2", "F2", "G2"], 1: ["K3", "W3", "F3", "G3"],
                 2: ["K4", "W4", "F4", "G4"]}
    asleep = [r for r in ALL if r not in ("K1", "W1")]
    pos = kr.position_from(placement, ["K", "W", "F"], ["scatter", "bath", "bath", "bath"],
                           podium=["F1", "G1"], asleep=asleep)
    labels = {lab for lab, _p in kr.legal_sequences(pos)}
    assert "scatter 25 [K1,W1] > podium [K1,W1]" in labels
    assert "scatter 25 [K1,W1] > podium [W1,K1]" in labels    # free order (§6)
    chrono = kr.position_from(placement, ["K", "W", "F"], ["scatter", "bath", "bath", "bath"],
                              podium=["F1", "G1"], asleep=asleep,
                              params=kr.make_params(same_turn_order="chronological"))
    labels = {lab for lab, _p in kr.legal_sequences(chrono)}
    assert "scatter 25 [K1,W1] > podium [K1,W1]" in labels
    assert "scatter 25 [K1,W1] > podium [W1,K1]" not in labels
    # surplus: one place left, two crossers -> one scores nothing, game over
    full = kr.position_from(placement, ["K", "W", "F"], ["scatter", "bath", "bath", "bath"],
                            podium=["F1", "G1", "F2", "G2", "F3", "G3", "F4"],
                            asleep=asleep)
    full["track"][0]["runners"] = [("K2", True), ("W2", True)]
    full["track"][1]["runners"] = [("K3", True), ("W3", True)]
    full["track"][2]["runners"] = [("K4", True), ("W4", True), ("G4", True)]
    check_invariants(full)
    seqs = dict(kr.legal_sequences(full))
    new = seqs["scatter 25 [K1,W1] > podium [W1]"]
    assert new["podium"][-1] == "W1" and new["out"] == ["K1"] and kr.is_over(new)
    check_invariants(new)


# --------------------------------------------------------------------------- Bath

def test_bath_in_and_out():
    placement = fill({8: ["W3"]})
    pos = kr.position_from(placement, ["K", "W"], ["bath", "bath", "steal", "steal"])
    a = kr.apply_action(pos, ("bath", "W3"))
    assert where(a, "W3") == 13                        # in the lake
    b = kr.apply_action(a, ("bath", "W3"))
    assert where(b, "W3") == 14                        # out, one space forward
    with pytest.raises(ValueError):                    # third bath: over the limit
        kr.apply_action(b, ("bath", "W3"))
    # out of the lake into a full 14 -> 15
    placement = fill({13: ["W3"], 14: ["K1", "W1", "F1", "G1"]}, spaces=(0, 1, 2))
    pos = kr.position_from(placement, ["K", "W"], ["bath", "steal", "steal", "copy"])
    c = kr.apply_action(pos, ("bath", "W3"))
    assert where(c, "W3") == 15
    check_invariants(a), check_invariants(b), check_invariants(c)


# --------------------------------------------------------------------------- Copy

def copy_position(tokens):
    placement = fill({})
    asleep = [r for r in ALL if r != "K1"]
    return kr.position_from(placement, ["K", "W"], ["bath", "bath", "copy", "steal"],
                            tokens=tokens, asleep=asleep)


def test_copy_cannot_be_third_bath_becomes_second_steal():
    seqs = kr.legal_sequences(copy_position([6, 6]))
    assert seqs
    for lab, new in seqs:
        steps = lab.split(" > ")
        assert sum(s.startswith("bath") for s in steps) == 2
        assert "copy:bath K1" not in steps
        assert steps.count("steal p2") == 1 and steps.count("copy:steal p2") == 1
        assert new["tokens"] == [8, 4]
        check_invariants(new)
    # orders: bath K1 in before out; the real steal before copy:steal (a Copy never
    # displaces a real die) -> 4!/(2!2!) = 6 interleavings
    assert len(seqs) == 6


def test_copy_discarded_when_second_steal_impossible():
    seqs = kr.legal_sequences(copy_position([6, 1]))
    for lab, new in seqs:
        steps = lab.split(" > ")
        assert sum(s.startswith("bath") for s in steps) == 2
        assert not any(s.startswith("copy:") for s in steps)
        assert steps.count("steal p2") == 1
        assert new["tokens"] == [7, 0]
    assert len(seqs) == 3


# --------------------------------------------------------------------------- Scoring

def test_scoring_example_31_32_24():
    placement = {16: ["K3", "F3"], 4: ["K4"], 22: ["W3"], 10: ["W4"], 17: ["F4"],
                 0: ["G3", "G4"]}
    pos = kr.position_from(placement, ["K", "W", "F"], None, tokens=[3, 5, 4],
                           podium=["K1", "W1", "G1", "K2", "F1", "W2", "F2", "G2"])
    check_invariants(pos)
    assert kr.scores(pos) == [31, 32, 24]
    assert kr.is_over(pos)
    assert kr.evaluate(pos, 1) == 1.0


# --------------------------------------------------------------------------- Re-roll

def test_reroll_table_hand_worked():
    # 2 players (K = p1 to move, W = p2), 6 tokens each, params dice=2 (tiny by design).
    # All 16 runners asleep on 22..25 (zone 5), one of each clan per space, podium empty.
    # Both score 4*5 + 6*2 = 32, so evaluate = 0.  Current roll: bath, steal.
    # Per final roll (faces T steal, Z sleep/wake, S scatter, C catch-up, B bath, Y copy):
    #   steal = +4 (me +2, him -2); two steals (TT, TY) = +8;
    #   Z then S or C: wake K1 on 22 and move it: 23..25 are full -> it crosses, podium
    #   13 instead of zone 5 = +8 (ZS, ZC);  T with Z/S/C/B = +4 (nothing can move);
    #   everything else 0 (bath: no lake ahead; nothing awake to move; Y copies only).
    # keep bath,steal: 4.
    # keep steal, re-roll 1: T 8, Y 8, Z/S/C/B 4 -> (8+8+4*4)/6 = 16/3.
    # keep bath, re-roll 1: only T helps (+4) -> 4/6 = 2/3.
    # re-roll all (36 ordered): TT 1x8, TY 2x8, TZ 2x4, TS/TC/TB 6x4, ZS 2x8, ZC 2x8
    #   = 8+16+8+24+16+16 = 88 -> 88/36 = 22/9.
    placement = {22 + i: [c + str(i + 1) for c in kr.CLANS] for i in range(4)}
    pos = kr.position_from(placement, ["K", "W"], ["bath", "steal"], asleep=ALL,
                           params=kr.make_params(dice=2))
    assert kr.evaluate(pos, 0) == 0.0
    table = kr.reroll_table(pos)
    assert table == [("keep bath,steal", Fraction(4)), ("keep bath", Fraction(2, 3)),
                     ("keep steal", Fraction(16, 3)), ("reroll all", Fraction(22, 9))]
    outs = kr.reroll_outcomes(pos, [])
    assert sum(p for _r, p in outs) == 1 and len(outs) == 21
    assert dict(outs)[("bath", "steal")] == Fraction(2, 36)


# --------------------------------------------------------------------------- Invariants

def test_invariants_over_all_sequences():
    start = kr.new_game(["K", "W", "F"], roll=["scatter", "catchup", "bath", "sleepwake"])
    check_invariants(start)
    assert all(len(sp["runners"]) == 4 for sp in start["track"][:4])
    steps = kr.legal_actions(start)
    assert len(steps) > 100
    for _lab, act in steps:                   # every first step from the start
        check_invariants(kr.apply_action(start, act))
    pos = scatter_position()
    pos["roll"] = ["scatter", "catchup", "bath", "copy"]
    for sp in pos["track"]:
        sp["runners"] = [(r, r not in ("K1", "W1", "G1")) for r, _a in sp["runners"]]
    seqs = kr.legal_sequences(pos)
    for _lab, new in seqs:
        check_invariants(new)
    assert len(seqs) > 100
