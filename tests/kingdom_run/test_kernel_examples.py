"""The worked examples of the rules (docs/games/kingdom-run.md §16; the spec
krolewski-wyscig.md §5-§8) asserted on the KERNEL through the analyser's position layer
(``kernel_adapter``), with the naive reference agreeing on every whole turn."""

from __future__ import annotations

import numpy as np
import pytest

import kernel_adapter as ka
import naive_kingdom_run as kr
from oddsbot.analyser.kingdom_run.encode import rules_vector, state_vector
from oddsbot.analyser.kingdom_run.notation import parse_notation
from oddsbot.kernels.kingdom_run import layout as L

ALL = [c + str(i) for c in kr.CLANS for i in range(1, 5)]


def fill(placement, spaces=(0, 1, 2, 3), exclude=()):
    """Every runner not placed (nor excluded) on ``spaces``, 4 a space, in id order."""
    placed = {r for names in placement.values() for r in names} | set(exclude)
    rest = [r for r in ALL if r not in placed]
    out = {s: list(v) for s, v in placement.items()}
    for s in spaces:
        while rest and len(out.get(s, [])) < 4:
            out.setdefault(s, []).append(rest.pop(0))
    assert not rest
    return out


def sleepers(*awake):
    return [r for r in ALL if r not in awake]


# --------------------------------------------------------------------- §16.1 Scatter
def scatter_161(roll=("scatter", "steal", "steal", "sleepwake"), **kw):
    placement = {0: ["K4", "W4", "F4", "G4"], 1: ["K3", "W3", "F3", "G3"],
                 5: ["K1", "W1", "F1"], 6: ["K2", "W2", "F2", "G2"], 7: ["G1"]}
    return kr.position_from(placement, ["K", "W"], list(roll), rerolled=True, **kw)


def test_161_position_is_the_documented_one():
    doc = parse_notation("kingdom-run p2 K,W to=1 t=0:K4,W4,F4,G4/1:K3,W3,F3,G3/"
                         "5:K1,W1,F1/6:K2,W2,F2,G2/7:G1 pod= tok=6,6 roll=STTZ rr=1 used= "
                         "cross= out=")
    assert ka.position(scatter_161()) == doc
    assert np.array_equal(ka.encode(scatter_161())[1], state_vector(doc))


def test_161_scatter_drop_order_decides_who_drowns():
    pos = scatter_161()
    where = ka.kernel_where(pos, [("scatter", 5, ["W1", "K1"])])
    assert (where["W1"], where["K1"]) == (7, 8)                 # W1 stuck in the lake
    where = ka.kernel_where(pos, [("scatter", 5, ["K1", "W1"])])
    assert (where["K1"], where["W1"]) == (7, 8)                 # the knight drowned
    assert ka.kernel_steps(pos, [("scatter", 7, ["G1"])]) is None   # a lake is no source
    for order in (["W1", "K1"], ["K1", "W1"]):                  # the reference agrees
        step = kr.apply_action(pos, ("scatter", 5, order))
        assert ka.kernel_steps(pos, [("scatter", 5, order)]) == ka.canon_naive(step)


def test_161_runner_in_a_lake_neither_scatters_nor_catches_up():
    pos = scatter_161(roll=("scatter", "catchup", "steal", "steal"))
    after = [("scatter", 5, ["W1", "K1"])]
    assert ka.kernel_steps(pos, after + [("catchup", "W1")]) is None
    assert ka.kernel_steps(pos, after + [("catchup", "K1")]) is None   # K1 leads
    assert ka.kernel_steps(pos, after + [("catchup", "F1")]) is not None
    pos = scatter_161(roll=("scatter", "scatter", "steal", "steal"))
    assert ka.kernel_steps(pos, after + [("scatter", 7, ["W1"])]) is None


def test_161_whole_turn_agrees():
    # three awake on 5 and G1 in the lake, all else asleep: small enough for the reference
    pos = scatter_161(roll=("scatter", "catchup", "bath", "steal"),
                      asleep=sleepers("K1", "W1", "F1", "G1"))
    finals = ka.same_turns(pos)
    drowned = {(tuple(ka.spaces_of(k, "W")), tuple(ka.spaces_of(k, "K"))) for k in finals}
    assert any(7 in w for w, _k in drowned) and any(7 in k for _w, k in drowned)


# --------------------------------------------------------------------- §16.2 Catch-up
def catchup_162(roll=("catchup", "catchup", "steal", "steal"), **kw):
    placement = fill({9: ["G2"], 12: ["K1", "W1", "F1", "G1"]}, spaces=(0, 1, 2))
    return kr.position_from(placement, ["K", "W"], list(roll), rerolled=True, **kw)


def test_162_catchup_overflows_into_the_lake():
    pos = catchup_162()
    assert ka.kernel_where(pos, [("catchup", "G2")])["G2"] == 13
    assert ka.kernel_steps(pos, [("catchup", "G2"), ("catchup", "G2")]) is None
    bath = catchup_162(roll=("catchup", "bath", "scatter", "steal"))
    assert ka.kernel_steps(bath, [("catchup", "G2"), ("scatter", 13, ["G2"])]) is None
    assert ka.kernel_where(bath, [("catchup", "G2"), ("bath", "G2")])["G2"] == 14


def test_162_whole_turn_agrees():
    pos = catchup_162(roll=("catchup", "bath", "steal", "sleepwake"),
                      asleep=sleepers("G2", "K1", "W1", "F1"))
    finals = ka.same_turns(pos)
    assert any(13 in ka.spaces_of(k, "G") for k in finals)


# --------------------------------------------------------------------- §16.3 podium
def leader_163(**kw):
    placement = fill({25: ["K2"]}, exclude=("K1", "W1"))
    return kr.position_from(placement, ["K", "W"], ["catchup", "catchup", "bath", "bath"],
                            podium=["K1", "W1"], asleep=sleepers("K2"), rerolled=True, **kw)


def test_163_leader_catches_up_to_podium_place_3():
    pos = leader_163()
    _like, _S, R, states, best = ka.kernel_final_states(pos)
    assert len(states) == 1
    (key, (F, value)), = states.items()
    assert key[2] == ("K", "W", "K")                            # place 3
    assert ka.final_scores(F, R)[0] - kr.scores(pos)[0] == 8 - 5
    assert ka.kernel_finals(pos)[0] == ka.naive_finals(pos, memo=False)[0]
    assert value == best == kr.best_value(pos)


def test_163_leader_cannot_catch_up_when_nobody_finished():
    pos = kr.position_from(fill({25: ["K2"]}), ["K", "W"], ["catchup"] * 4,
                           asleep=sleepers("K2"), rerolled=True)
    assert ka.kernel_n_legal(pos) == 0
    finals = ka.same_turns(pos, memo=False)
    assert len(finals) == 1 and next(iter(finals))[5] == 1      # pass: W to move


def same_turn_163(order):
    # K1, W1 on the podium; K2 leads on 25 (full with two asleep); W3 on 24: a Scatter
    # takes W3 over (25 full), then K2 catches up across the line
    placement = fill({25: ["K2", "F1", "G1", "F2"], 24: ["W3"]}, exclude=("K1", "W1"))
    return kr.position_from(placement, ["K", "W"], ["scatter", "catchup", "bath", "bath"],
                            podium=["K1", "W1"], asleep=sleepers("K2", "W3"),
                            params=kr.make_params(same_turn_order=order), rerolled=True)


def test_163_same_turn_finishers_free_order():
    pos = same_turn_163("free")
    assert ka.kernel_steps(pos, [("scatter", 24, ["W3"]), ("catchup", "K2")]) is not None
    finals = ka.same_turns(pos, memo=False)
    assert {("K", "W", "K", "W"), ("K", "W", "W", "K")} <= ka.podiums(finals)


def test_163_same_turn_finishers_chronological():
    pos = same_turn_163("chronological")
    finals = ka.same_turns(pos, memo=False)
    assert ("K", "W", "W", "K") in ka.podiums(finals)             # W3 crossed first
    assert ("K", "W", "K", "W") not in ka.podiums(finals)


def surplus_163(order="free", surplus="score_zero"):
    placement = {25: ["K1", "W1"], 0: ["K2", "W2", "G4"], 1: ["K3", "W3"], 2: ["K4", "W4"]}
    return kr.position_from(placement, ["K", "W", "F"], ["scatter", "bath", "bath", "bath"],
                            podium=["F1", "G1", "F2", "G2", "F3", "G3", "F4"],
                            asleep=sleepers("K1", "W1"), rerolled=True,
                            params=kr.make_params(same_turn_order=order,
                                                  surplus_finishers=surplus))


@pytest.mark.parametrize("order", ["free", "chronological"])
def test_163_surplus_finisher_scores_zero(order):
    pos = surplus_163(order)
    _like, _S, R, states, _best = ka.kernel_final_states(pos)
    surplus = {k: v for k, v in states.items() if k[3]}        # scatter 25 [K1,W1]
    assert {k[2][-1] for k in surplus} == {"K", "W"}           # podium [K1] or [W1]
    for key, (F, _v) in states.items():
        assert key[6] and len(key[2]) == 8                      # full podium: game over
        assert F[L.S_OVER] == 1
    for key, (F, _v) in surplus.items():
        assert key[3] == ({"K": ("W",), "W": ("K",)}[key[2][-1]])   # the other is out
        assert key[0][25] == ()
        assert ka.final_scores(F, R)[0] == 2 * 4 + (2 if key[2][-1] == "K" else 0) + 3
    assert set(states) == set(ka.naive_finals(pos, memo=False)[0])


def test_163_surplus_finisher_stays():
    pos = surplus_163(surplus="stay")
    _like, _S, R, states, _best = ka.kernel_final_states(pos)
    assert len(states) == 2
    for key, (F, _v) in states.items():
        left = {"K": "W", "W": "K"}[key[2][-1]]
        assert key[0][25] == ((left, False),) and key[3] == ()  # back on 25, awake
        assert ka.final_scores(F, R)[0] == 2 * 4 + 3 + (2 if left == "W" else 5)
    assert set(states) == set(ka.naive_finals(pos, memo=False)[0])


# --------------------------------------------------------------------- §16.4 Bath
def test_164_bath_in_and_out():
    pos = kr.position_from(fill({8: ["W3"]}), ["K", "W"], ["bath", "bath", "copy", "steal"],
                           tokens=[12, 0], asleep=sleepers("W3", "K1"), rerolled=True)
    assert ka.kernel_where(pos, [("bath", "W3")])["W3"] == 13
    assert ka.kernel_where(pos, [("bath", "W3"), ("bath", "W3")])["W3"] == 14
    two = [("bath", "W3"), ("bath", "W3")]
    assert ka.kernel_steps(pos, two + [("copy", ("bath", "W3"))]) is None   # limit 2
    assert ka.kernel_steps(pos, two + [("copy", ("bath", "K1"))]) is None
    _like, S, R, states, _best = ka.kernel_final_states(pos)
    gains = set()
    for key, (F, _v) in states.items():
        if ka.spaces_of(key, "W")[-1] == 14:
            gains.add(ka.final_scores(F, R)[1] - int(L.score(S, R, 1)))
    assert 1 in gains                                           # board A (2) -> B (3)
    ka.same_turns(pos)


def test_164_bath_out_into_a_full_space():
    placement = fill({13: ["W3"], 14: ["K1", "W1", "F1", "G1"]}, spaces=(0, 1, 2))
    pos = kr.position_from(placement, ["K", "W"], ["bath", "steal", "steal", "copy"],
                           asleep=sleepers("W3"), rerolled=True)
    assert ka.kernel_where(pos, [("bath", "W3")])["W3"] == 15
    ka.same_turns(pos, memo=False)


# --------------------------------------------------------------------- §16.5 Copy
def copy_165(tokens):
    return kr.position_from(fill({}), ["K", "W"], ["bath", "bath", "copy", "steal"],
                            tokens=tokens, asleep=sleepers("K1"), rerolled=True)


def test_165_copy_limit_second_steal():
    pos = copy_165([6, 6])
    finals = ka.same_turns(pos, memo=False)
    assert len(finals) == 1                                     # the six orders: one row
    key, = finals
    assert key[4] == (8, 4) and ka.spaces_of(key, "K")[-1] == 8
    # the Copy cannot be a third Bath, nor a Steal before the real Steal (KR-20)
    bb = [("bath", "K1"), ("bath", "K1")]
    assert ka.kernel_steps(pos, bb + [("copy", ("bath", "K1"))]) is None
    assert ka.kernel_steps(pos, [("copy", ("steal", 1))]) is None
    assert ka.kernel_steps(pos, [("steal", 1), ("copy", ("steal", 1))]) is not None


def test_165_copy_discarded_when_no_second_steal():
    finals = ka.same_turns(copy_165([11, 1]), memo=False)
    key, = finals
    assert key[4] == (12, 0)
    assert kr.legal_sequences(copy_165([6, 1]))[0][1]["tokens"] == [7, 0]
    key, = ka.kernel_finals(copy_165([6, 1]))[0]
    assert key[4] == (7, 0)


# --------------------------------------------------------------------- §16.6 scoring
def scoring_166(**params):
    placement = {16: ["K3", "F3"], 4: ["K4"], 22: ["W3"], 10: ["W4"], 17: ["F4"],
                 0: ["G3", "G4"]}
    return kr.position_from(placement, ["K", "W", "F"], None, tokens=[3, 5, 4],
                            podium=["K1", "W1", "G1", "K2", "F1", "W2", "F2", "G2"],
                            to_move=1, params=kr.make_params(**params))


def test_166_scoring_31_32_24():
    doc = parse_notation("kingdom-run p3 K,W,F to=2 t=0:G3,G4/4:K4/10:W4/16:K3,F3/17:F4/"
                         "22:W3 pod=K1,W1,G1,K2,F1,W2,F2,G2 tok=3,5,4 roll=- rr=0 used= "
                         "cross= out=")
    pos = scoring_166()
    assert ka.position(pos) == doc
    scores, wins = ka.kernel_scores_and_wins(pos)
    assert scores == kr.scores(pos) == [31, 32, 24]
    assert wins == kr.winners(pos) == [1]                       # the Wizards win
    S, R = state_vector(doc), rules_vector(doc.rules)
    assert L.evaluation(S, R, 1) == 1 and L.ended(S, R)


def test_166_scoring_exact_zone_mode():
    pos = scoring_166(zone_mode="exact")
    scores, wins = ka.kernel_scores_and_wins(pos)
    assert scores == kr.scores(pos) == [31, 32, 20]
    assert wins == kr.winners(pos) == [1]
