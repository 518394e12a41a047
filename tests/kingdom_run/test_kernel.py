"""The Kingdom Run kernel against the naive reference (``naive_kingdom_run``, written from
docs/games/kingdom-run.md), through the analyser's position layer (``kernel_adapter``):

(a) random legal positions after the re-roll: the same distinct end-of-turn positions
    (§13: runners of a clan interchangeable), each with the same default evaluation, and
    the same best (§14);
(b) re-roll tables (§15): ``reroll.keep_values`` equals the reference's exact Fractions
    to 1e-12, the hand-worked table included, with changed ``die_faces`` and ``dice``;
(c) scores and winners (§9, both ``tie_rule``s) on random final positions;
(d) each rule parameter (§11) on a small position where it changes the turn.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kernel_adapter as ka
import naive_kingdom_run as kr
from oddsbot.kernels.kingdom_run import actions as A

ALL = [c + str(i) for c in kr.CLANS for i in range(1, 5)]

# rule sets for the random turns: the defaults (twice as often) and every switch
VARIANTS = [
    {}, {},
    dict(same_turn_order="chronological"),
    dict(surplus_finishers="stay"),
    dict(two_player_end="own_runners_only"),
    dict(two_player_end="own_runners_only", same_turn_order="chronological"),
    dict(zone_mode="exact"),
    dict(mandatory_dice=False),
    dict(per_action_limit=1),
    dict(capacity=5),
    dict(podium_values=[13, 10, 8]),
    dict(podium_values=[9, 4], surplus_finishers="stay", same_turn_order="chronological"),
    dict(victory_token_value=5, zone_values=[0, 3, 1, 4, 9]),
    dict(layout=[("START", 4, []), ("A", 5, [1, 3]), ("B", 4, [2]), ("FINISH", 3, [])],
         zone_values=[1, 3, 6, 10]),
]


def random_position(rng: random.Random, params: dict, players: int, max_awake: int = 5,
                    max_scatter: int = 1) -> dict:
    """A legal position after the re-roll: runners on the track (capacity respected,
    crowded near a random space or near FINISH), some asleep (never a whole clan asleep
    with none crossed), some in lakes, some on the podium (not full: the game may still
    be over with 2 players), tokens summing to the game's total, a random final roll with
    at most ``max_scatter`` dice that can scatter (Copy counted), the mover a player with
    a runner on the track (3-4 players)."""
    clans = rng.sample(kr.CLANS, players)
    places = len(params["podium_values"])
    cap = params["capacity"]
    nsp = sum(b[1] for b in params["layout"])
    runners = ALL[:]
    rng.shuffle(runners)
    npod = rng.randint(0, min(places - 1, 8))
    podium, ontrack = runners[:npod], runners[npod:]
    occ = [0] * nsp
    placement: dict[int, list[str]] = {}
    base = rng.randint(0, nsp - 1)
    for r in ontrack:
        u = rng.random()
        if u < 0.5:
            s = min(nsp - 1, base + rng.randint(0, 7))
        elif u < 0.75:
            s = rng.randint(max(0, nsp - 10), nsp - 1)
        else:
            s = rng.randint(0, nsp - 1)
        while occ[s] >= cap:
            s = (s + 1) % nsp
        occ[s] += 1
        placement.setdefault(s, []).append(r)
    awake = set(rng.sample(ontrack, min(rng.randint(1, max_awake), len(ontrack))))
    asleep = set(ontrack) - awake
    for c in kr.CLANS:
        mine = [r for r in ontrack if r[0] == c]
        if mine and all(r in asleep for r in mine) and not any(r[0] == c for r in podium):
            asleep.discard(mine[0])
    total = params["victory_tokens"][players] * players
    cuts = sorted(rng.randint(0, total) for _ in range(players - 1))
    tokens = [b - a for a, b in zip([0] + cuts, cuts + [total])]
    movers = [p for p in range(players)
              if players == 2 or any(r[0] == clans[p] for r in ontrack)]
    to_move = rng.choice(movers or list(range(players)))
    while True:
        roll = [rng.choice(params["die_faces"]) for _ in range(params["dice"])]
        scatters = roll.count("scatter") + (roll.count("copy") if "scatter" in roll else 0)
        if scatters <= max_scatter:
            break
    return kr.position_from(placement, clans, roll, tokens=tokens, podium=podium,
                            asleep=asleep, params=params, to_move=to_move, rerolled=True)


@st.composite
def positions(draw, variants=VARIANTS, dice=(4, 4, 3, 2), max_awake=5):
    params = kr.make_params(**draw(st.sampled_from(variants)))
    params["dice"] = draw(st.sampled_from(dice))
    players = draw(st.integers(2, 4))
    rng = random.Random(draw(st.integers(0, 2 ** 32)))
    return random_position(rng, params, players, max_awake=max_awake)


# ------------------------------------------------------------------ (a) whole turns
@settings(max_examples=60, deadline=None)
@given(positions())
def test_random_turns_agree(pos):
    ka.same_turns(pos)


@settings(max_examples=12, deadline=None)
@given(positions(dice=(2, 3), max_awake=3))
def test_memoised_reference_is_the_reference(pos):
    """The adapter's memoised walk of the reference equals ``legal_sequences``."""
    assert ka.naive_finals(pos, memo=True) == ka.naive_finals(pos, memo=False)
    ka.same_turns(pos, memo=False)


@settings(max_examples=30, deadline=None)
@given(positions())
def test_every_column_of_a_legal_action_is_written(pos):
    """An action row's runner columns past its number of runners hold -1, whatever the
    array held before: rows never carry what was in memory (``np.empty``) into the turn
    search, the game logs or a comparison."""
    _like, S, R = ka.encode(pos)
    rows = []
    for junk in (12345, -7):
        out = np.full((500, A.A_COLS), junk, dtype=np.int64)
        n = min(int(A.legal_actions(S, R, out)), len(out))
        rows.append(out[:n])
        for row in out[:n]:
            k = int(row[A.A_K])
            assert (row[A.A_R + k:] == -1).all() and (row[A.A_R:A.A_R + k] >= 0).all()
    assert (rows[0] == rows[1]).all()


@settings(max_examples=15, deadline=None)
@given(positions(variants=[{}], dice=(4,)))
def test_random_positions_encode_and_decode(pos):
    """The adapter's Position reads back from the kernel state unchanged."""
    from oddsbot.analyser.kingdom_run.encode import position_of
    like, S, _R = ka.encode(pos)
    assert position_of(S, like) == like
    assert ka.canon_position(like, kr.ended(pos)) == ka.canon_naive(pos)


# ------------------------------------------------------------------ (b) re-roll tables
def hand_worked():
    # test_naive_examples.test_reroll_table_hand_worked: 2 players, dice=2, all 16
    # asleep on 22..25, roll bath, steal
    placement = {22 + i: [c + str(i + 1) for c in kr.CLANS] for i in range(4)}
    return kr.position_from(placement, ["K", "W"], ["bath", "steal"], asleep=ALL,
                            params=kr.make_params(dice=2))


def test_reroll_table_hand_worked():
    table = ka.kernel_reroll_table(hand_worked(), ["keep bath,steal", "keep bath",
                                                   "keep steal", "reroll all"])
    assert table == [("keep bath,steal", Fraction(4)), ("keep bath", Fraction(2, 3)),
                     ("keep steal", Fraction(16, 3)), ("reroll all", Fraction(22, 9))]


def reroll_agrees(pos):
    naive = kr.reroll_table(pos)
    kern = ka.kernel_reroll_table(pos, [label for label, _v in naive])
    assert kern == naive, (kern, naive)
    return naive


@settings(max_examples=8, deadline=None)
@given(positions(variants=[{}, dict(victory_token_value=3)], dice=(2,), max_awake=2))
def test_random_reroll_tables(pos):
    pos["rerolled"] = False
    reroll_agrees(pos)


TINY = {20: ["K1", "W1"], 21: ["F1"], 22: ["K2", "W2", "F2", "G1"], 23: ["G2"],
        24: ["K3", "W3", "F3", "G3"], 25: ["K4", "W4", "F4", "G4"]}


@pytest.mark.parametrize("faces,roll", [
    ("scatter,steal,steal,bath", ["steal", "scatter"]),
    ("catchup,copy,steal", ["copy", "catchup"]),
    ("scatter,catchup,bath,steal,sleepwake,copy,copy,steal", ["sleepwake", "copy"]),
])
def test_reroll_table_die_faces(faces, roll):
    params = kr.make_params(die_faces=faces.split(","), dice=2)
    pos = kr.position_from(TINY, ["K", "W", "F"], roll, params=params,
                           asleep=[r for r in ALL if r not in ("K1", "W1", "F1", "G2")])
    default = kr.position_from(TINY, ["K", "W", "F"], roll, params=kr.make_params(dice=2),
                               asleep=[r for r in ALL if r not in ("K1", "W1", "F1", "G2")])
    assert reroll_agrees(pos) != kr.reroll_table(default)     # the faces matter


def test_reroll_table_three_dice():
    params = kr.make_params(dice=3, die_faces=["catchup", "steal", "copy"])
    pos = kr.position_from(TINY, ["K", "W"], ["catchup", "steal", "copy"], params=params,
                           asleep=[r for r in ALL if r not in ("K1", "W2")])
    rows = reroll_agrees(pos)
    assert len(rows) == 8


# ------------------------------------------------------------------ (c) scores, winners
SCORE_PARAMS = [
    {}, dict(tie_rule="shared"),
    dict(podium_values=[0] * 8, zone_values=[0] * 5),
    dict(podium_values=[0] * 8, zone_values=[0] * 5, tie_rule="shared"),
    dict(podium_values=[1, 1, 1], zone_values=[1, 1, 1, 1, 1], victory_token_value=1),
    dict(zone_mode="exact", victory_token_value=0, podium_values=[5, 3, 1, 1, 1, 1, 1, 1]),
]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SCORE_PARAMS), st.integers(2, 4), st.integers(0, 2 ** 32))
def test_scores_and_winners(over, players, seed):
    rng = random.Random(seed)
    params = kr.make_params(**over)
    places = len(params["podium_values"])
    runners = ALL[:]
    rng.shuffle(runners)
    npod = rng.randint(0, min(places, 12))
    podium, rest = runners[:npod], runners[npod:]
    n_out = rng.randint(0, min(3, len(rest)))
    out, ontrack = rest[:n_out], rest[n_out:]
    placement: dict[int, list[str]] = {}
    for r in ontrack:
        s = rng.randint(0, 25)
        while len(placement.get(s, [])) >= 4:
            s = (s + 1) % 26
        placement.setdefault(s, []).append(r)
    clans = rng.sample(kr.CLANS, players)
    total = params["victory_tokens"][players] * players
    if rng.random() < 0.5:
        tokens = [total // players] * players
    else:
        cuts = sorted(rng.randint(0, total) for _ in range(players - 1))
        tokens = [b - a for a, b in zip([0] + cuts, cuts + [total])]
    pos = kr.position_from(placement, clans, None, tokens=tokens, podium=podium,
                           asleep=[r for r in ontrack if rng.random() < 0.3], params=params)
    pos["out"] = out
    scores, wins = ka.kernel_scores_and_wins(pos)
    assert scores == kr.scores(pos)
    assert wins == kr.winners(pos)


def test_tie_rules_by_hand():
    # K and W tie on 12 points; W holds place 2, K none: best_podium -> W alone;
    # shared -> both; nobody tied on the podium -> shared
    zero = dict(podium_values=[0] * 8, zone_values=[0] * 5)
    for tie, expect in (("best_podium", [1]), ("shared", [0, 1])):
        pos = kr.position_from({0: ["K1", "K2", "K3", "K4"], 1: ["W2", "W3", "W4", "F1"],
                                2: ["F2", "F3", "F4", "G4"]}, ["K", "W"], None,
                               podium=["G1", "W1", "G2", "G3"], tokens=[6, 6],
                               params=kr.make_params(tie_rule=tie, **zero))
        assert ka.kernel_scores_and_wins(pos) == ([12, 12], expect)
        assert kr.winners(pos) == expect
    pos = kr.position_from({0: ["K1", "K2", "K3", "K4"], 1: ["W1", "W2", "W3", "W4"],
                            2: ["F2", "F3", "F4", "G4"], 3: ["F1"]}, ["K", "W", "F"], None,
                           podium=["G1", "G2", "G3"], tokens=[4, 4, 4],
                           params=kr.make_params(**zero))
    assert ka.kernel_scores_and_wins(pos) == ([8, 8, 8], [0, 1, 2]) == ([8, 8, 8],
                                                                     kr.winners(pos))


# ------------------------------------------------------------------ (d) rule parameters
def differs(make, **changed):
    """Kernel and reference agree with the defaults and with ``changed``; the changed
    parameters change the turn's outcomes (positions or values)."""
    base = ka.same_turns(make(kr.make_params()))
    other = ka.same_turns(make(kr.make_params(**changed)))
    assert base != other
    return base, other


def two_crossers(params, players=("K", "W", "F"), podium=("F1", "G1", "F2", "G2", "F3", "G3")):
    """K1 (catch-up from 24, 25 full) and K2, W1 (scatter from 25) can all cross."""
    placement = {24: ["K1"], 25: ["K2", "W1", "F4", "G4"], 0: ["K3", "K4", "W2"],
                 1: ["W3", "W4"]}
    placement = {s: [r for r in v if r not in podium] for s, v in placement.items()}
    placed = {r for v in placement.values() for r in v} | set(podium)
    rest = [r for r in ALL if r not in placed]
    placement[2] = rest[:4]
    placement[3] = rest[4:]
    return kr.position_from(placement, list(players), ["catchup", "scatter", "steal", "bath"],
                            podium=list(podium), params=params, rerolled=True,
                            tokens=[4] * len(players) if len(players) == 3 else [6, 6],
                            asleep=[r for r in ALL if r not in ("K1", "K2", "W1")])


def test_same_turn_order():
    base, chrono = differs(two_crossers, same_turn_order="chronological")
    assert set(chrono) < set(base)                           # fewer hand-outs


def test_surplus_finishers_stay():
    base, stay = differs(two_crossers, surplus_finishers="stay")
    assert all(k[3] == () for k in stay) and any(k[3] for k in base)


def test_two_player_end():
    def make(params):
        return two_crossers(params, players=("K", "W"),
                            podium=("F1", "G1", "F2", "G2", "F3", "G3", "W4"))
    base, own = differs(make, two_player_end="own_runners_only")
    assert all(k[6] for k in base if len(k[2]) == 8)          # full podium: over
    assert any(not k[6] and k[3] for k in own)                # goes on, crossers out


def test_podium_values_shorter():
    base, short = differs(two_crossers, podium_values=[13, 10, 8, 6, 5, 4, 3])
    assert all(len(k[2]) <= 7 for k in short)


def test_zone_mode_exact():
    differs(lambda p: kr.position_from(
        {0: ["K1", "W1", "F1", "G1"], 1: ["K2", "W2", "F2", "G2"], 2: ["K3", "W3", "F3"],
         3: ["K4", "W4", "F4", "G4"], 9: ["G3"]}, ["K", "W"],
        ["scatter", "catchup", "bath", "steal"], params=p, rerolled=True,
        asleep=[r for r in ALL if r not in ("K3", "W3", "F3", "G3", "W4")]),
        zone_mode="exact")


def test_mandatory_dice_false():
    pos = lambda p: kr.position_from(  # noqa: E731
        {8: ["W3"], 0: ["K1", "K2", "K3", "K4"], 1: ["W1", "W2", "W4", "F1"],
         2: ["F2", "F3", "F4", "G1"], 3: ["G2", "G3", "G4"]}, ["K", "W"],
        ["bath", "bath", "steal", "sleepwake"], params=p, rerolled=True,
        asleep=[r for r in ALL if r not in ("W3", "K1")])
    base, free = differs(pos, mandatory_dice=False)
    assert set(base) < set(free)
    assert ka.canon_naive(dict(pos(kr.make_params()), to_move=1)) in free   # stop at once


def test_per_action_limit_1():
    base, one = differs(lambda p: kr.position_from(
        {8: ["W3"], 0: ["K1", "K2", "K3", "K4"], 1: ["W1", "W2", "W4", "F1"],
         2: ["F2", "F3", "F4", "G1"], 3: ["G2", "G3", "G4"]}, ["K", "W"],
        ["bath", "bath", "copy", "steal"], params=p, rerolled=True,
        asleep=[r for r in ALL if r not in ("W3", "K1")]), per_action_limit=1)
    assert all(k[4] == (7, 5) for k in one)                   # one steal, Copy no use
    assert all(k[4] == (8, 4) for k in base)


def test_capacity_5():
    def make(p):
        placement = {0: ["K4", "W4", "F4", "G4"], 1: ["K3", "W3", "F3", "G3"],
                     5: ["K1", "W1", "F1"], 6: ["K2", "W2", "F2", "G2"], 7: ["G1"]}
        return kr.position_from(placement, ["K", "W"], ["scatter", "steal", "steal", "bath"],
                                params=p, rerolled=True,
                                asleep=[r for r in ALL if r not in ("K1", "W1", "G1")])
    base, five = differs(make, capacity=5)
    assert any(len(k[0][6]) == 5 for k in five)
    assert ka.kernel_where(make(kr.make_params(capacity=5)),
                           [("scatter", 5, ["W1", "K1"])])["W1"] == 6


def test_victory_token_value():
    base, five = differs(two_crossers, victory_token_value=5)
    assert set(base) == set(five)                             # same positions, values


def test_layout_and_zone_values():
    differs(lambda p: kr.position_from(
        {0: ["K1", "W1", "F1", "G1"], 1: ["K2", "W2", "F2", "G2"], 2: ["K3", "W3", "F3"],
         3: ["K4", "W4", "F4", "G4"], 6: ["G3"]}, ["K", "W", "F"],
        ["scatter", "catchup", "bath", "steal"], params=p, rerolled=True,
        asleep=[r for r in ALL if r not in ("K3", "W3", "F3", "G3")]),
        layout=[("START", 4, []), ("A", 5, [1, 3]), ("B", 4, [2]), ("FINISH", 3, [])],
        zone_values=[1, 3, 6, 10])


def test_dice_3():
    def make(p):
        return kr.position_from(TINY, ["K", "W"], ["catchup", "steal", "copy"], params=p,
                                rerolled=True, asleep=[r for r in ALL if r not in ("K1", "W2")])
    ka.same_turns(make(kr.make_params(dice=3)), memo=False)
