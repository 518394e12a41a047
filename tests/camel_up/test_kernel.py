"""The numba Camel Up kernel against the worked examples of docs/games/camel-up.md §5.5 and the
naive reference.

``naive_camel_up.py`` is written from ``docs/games/camel-up.md`` only; this file holds
the adapter between its dict/list representation and the kernel's arrays, and the comparisons:

* docs/games/camel-up.md §5.5 worked examples E1-E8 (E5 row by row) on the reference and on the
  kernel;
* docs/games/camel-up.md §7.4 and §8 worked examples on ``score_leg`` / ``score_final`` (and the
  reference);
* single die resolutions on random legal positions (hypothesis);
* exact leg distributions (``leg_distribution``) against brute force with Fractions, on
  hand-picked and random positions, 2nd edition and the 2014 edition;
* whole ``reveal`` calls that end a leg or the game (money after leg and final scoring);
* Monte Carlo ``leg_counts`` against the exact probabilities, and its reproducibility.
"""

from __future__ import annotations

import os
import sys
from fractions import Fraction

import numba
import numpy as np
import oddsbot.kernels.camel_up as k
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import naive_camel_up as ref

LETTERS = ["B", "G", "Y", "R", "P", "W", "K"]
IDX = {c: i for i, c in enumerate(LETTERS)}
DIE_IDX = {"B": 0, "G": 1, "Y": 2, "R": 3, "P": 4, "grey": 5}
SIDE = {"cheer": 1, "boo": -1}
TICKETS_2ND = [5, 3, 2, 2]
TICKETS_1ST = [5, 3, 2]

SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow], "derandomize": True}


# ---------------------------------------------------------------------------------------------
# adapter: reference structures <-> kernel arrays


def kernel_face(die, face):
    if die == "grey":
        colour, v = face
        return v - 1 if colour == "white" else v + 2
    return face - 1


def make_state(track, tiles=None, *, crazy=True, n_players=8, partners=0, final_net=0):
    tickets = np.array(TICKETS_2ND if crazy else TICKETS_1ST, dtype=np.int64)
    s = k.new_state(n_players, 1 if crazy else 0, 1 if crazy else 0, tickets, partners, final_net)
    for space in sorted(track):
        for camel in track[space]:
            k.place_camel(s, IDX[camel], space)
    for space, (owner, side) in (tiles or {}).items():
        s[k.TILE + space] = SIDE[side]
        s[k.TOWNER + space] = owner
    return s


def tile_array(tiles):
    a = np.zeros(18, dtype=np.int64)
    for space, (_owner, side) in tiles.items():
        a[space] = SIDE[side]
    return a


def mine_array(tiles, owner):
    a = np.zeros(18, dtype=np.int64)
    for space, (o, _side) in tiles.items():
        if o == owner:
            a[space] = 1
    return a


def pyramid_bits(pyramid):
    return sum(1 << DIE_IDX[d] for d in pyramid)


def decode(tr):
    """Kernel track -> (track dict without empty stacks, crossing or None)."""
    on_track, crossed = {}, {}
    for c in range(7):
        s, h = int(tr[k.SP + c]), int(tr[k.HT + c])
        if s == k.ABSENT:
            continue
        bucket = on_track if 1 <= s <= 16 else crossed
        bucket.setdefault(s, {})
        assert h not in bucket[s], f"two camels at space {s} height {h}"
        bucket[s][h] = LETTERS[c]
    track = {}
    for s, stack in on_track.items():
        assert sorted(stack) == list(range(len(stack))), f"heights on {s} not contiguous"
        assert int(tr[k.CNT + s]) == len(stack), f"CNT[{s}] wrong"
        track[s] = [stack[h] for h in sorted(stack)]
    for s in range(1, 17):
        if s not in track:
            assert int(tr[k.CNT + s]) == 0, f"CNT[{s}] should be 0"
    crossing = None
    if crossed:
        assert len(crossed) == 1, "camels crossed in both directions"
        (s, unit), = crossed.items()
        assert s in (k.CROSSED_CW, k.CROSSED_CCW)
        crossing = ("cw" if s == k.CROSSED_CW else "ccw", [unit[h] for h in sorted(unit)])
    return track, crossing


def norm(track):
    return {s: list(v) for s, v in track.items() if v}


def kernel_ranking(tr):
    order = np.zeros(5, dtype=np.int64)
    k.ranking(tr, order)
    return [LETTERS[c] for c in order]


def kernel_roll(track, tiles, die, face, crazy=True):
    s = make_state(track, tiles, crazy=crazy)
    tr = s[: k.TRACK_SIZE].copy()
    mover, landed = k.roll(tr, tile_array(tiles), DIE_IDX[die], kernel_face(die, face))
    new_track, crossing = decode(tr)
    return LETTERS[int(mover)], (int(landed) or None), new_track, crossing, tr


def kernel_leg(track, tiles, pyramid, leg_left, owner=0, crazy=True, workers=None):
    s = make_state(track, tiles, crazy=crazy)
    tr = s[: k.TRACK_SIZE].copy()
    if workers is None:
        hist, land, den = k.leg_distribution(
            tr, tile_array(tiles), mine_array(tiles, owner), pyramid_bits(pyramid), leg_left)
    else:  # the parallel batch form, one layout per row, on ``workers`` threads
        before = numba.get_num_threads()
        numba.set_num_threads(workers)
        try:
            hists, lands, den = k.leg_distributions(
                tr, tile_array(tiles)[None, :], mine_array(tiles, owner)[None, :],
                pyramid_bits(pyramid), leg_left)
        finally:
            numba.set_num_threads(before)
        hist, land = hists[0], lands[0]
    return hist, land, int(den)


def kernel_leg_as_ref(track, tiles, pyramid, leg_left, owner=0, crazy=True, workers=None):
    """Kernel leg distribution in the reference's format (exact Fractions)."""
    hist, land, den = kernel_leg(track, tiles, pyramid, leg_left, owner, crazy, workers)
    assert (hist >= 0).all(), "negative weights in hist"
    assert hist.sum() == den, f"hist weights sum to {hist.sum()}, denominator {den}"
    perms = k.perm_orders()
    dist, place, end = {}, {c: [Fraction(0)] * 5 for c in ref.RACING}, Fraction(0)
    for e, p, j in zip(*np.nonzero(hist)):
        pr = Fraction(int(hist[e, p, j]), den)
        order = tuple(LETTERS[c] for c in perms[p])
        dist[(int(e), order, int(j))] = pr
        for q, c in enumerate(order):
            place[c][q] += pr
        if e == 1:
            end += pr
    lands = {s: Fraction(int(land[s]), den) for s in range(18) if land[s]}
    return {"dist": dist, "place": place, "end": end, "land": lands}


def mover_of(track, die, face):
    if die == "grey":
        return ref.crazy_mover(track, face[0])
    return die


def assert_roll_agrees(track, tiles, die, face, crazy=True):
    """Reference and kernel resolve one die identically (stacks, crossing, tile, mover)."""
    r_track, r_landed, r_cross = ref.move(track, tiles, die, face)
    mover, landed, k_track, k_cross, tr = kernel_roll(track, tiles, die, face, crazy)
    where = f"track={track} tiles={tiles} die={die} face={face}"
    assert mover == mover_of(track, die, face), where
    assert landed == r_landed, where
    assert k_track == norm(r_track), where
    assert k_cross == (None if r_cross is None else (r_cross[0], list(r_cross[1]))), where
    assert kernel_ranking(tr) == ref.ranking(r_track, r_cross), where
    assert bool(k.crossed(tr)) == (r_cross is not None), where


def with_fillers(track, fillers):
    """Add the camels a worked example does not mention, alone on the given spaces."""
    out = {s: list(v) for s, v in track.items()}
    missing = [c for c in LETTERS if all(c not in v for v in out.values())]
    assert len(missing) == len(fillers)
    for c, s in zip(missing, fillers):
        assert s not in out
        out[s] = [c]
    return out


# ---------------------------------------------------------------------------------------------
# §5.5 worked examples


ANN, BEN, CAL = 0, 1, 2


def check_example(track, tiles, die, face, expect_stacks, expect_cross=None, expect_owner=None,
                  expect_rank_prefix=None):
    """Reference and kernel both give the stated stacks, crossing and tile income."""
    # reference
    r_track, r_landed, r_cross = ref.move(track, tiles, die, face)
    for s, stack in expect_stacks.items():
        assert r_track.get(s, []) == stack, f"reference: space {s}"
    assert (r_cross is None) == (expect_cross is None)
    if expect_cross is not None:
        assert (r_cross[0], list(r_cross[1])) == expect_cross
    assert (r_landed is not None) == (expect_owner is not None)
    if expect_owner is not None:
        assert tiles[r_landed][0] == expect_owner
    if expect_rank_prefix is not None:
        rank = ref.ranking(r_track, r_cross)
        assert rank[: len(expect_rank_prefix)] == expect_rank_prefix
    # kernel: k.roll on a bare track ...
    _mover, landed, k_track, k_cross, tr = kernel_roll(track, tiles, die, face)
    for s, stack in expect_stacks.items():
        assert k_track.get(s, []) == stack, f"kernel: space {s}"
    assert k_cross == expect_cross
    assert (landed is not None) == (expect_owner is not None)
    if expect_rank_prefix is not None:
        assert kernel_ranking(tr)[: len(expect_rank_prefix)] == expect_rank_prefix
    # ... and k.reveal on a whole state pays the tile owner (player 3 reveals; no tickets)
    s = make_state(track, tiles, n_players=4)
    s[k.TO_MOVE] = 3
    before = s[k.MONEY: k.MONEY + 4].copy()
    k.reveal(s, DIE_IDX[die], kernel_face(die, face))
    gained = s[k.MONEY: k.MONEY + 3] - before[:3]
    expected = np.zeros(3, dtype=np.int64)
    if expect_owner is not None:
        expected[expect_owner] = 1
    assert list(gained) == list(expected)
    new_track, _ = decode(s[: k.TRACK_SIZE])
    for sp, stack in expect_stacks.items():
        assert new_track.get(sp, []) == stack, f"kernel reveal: space {sp}"


def test_e1_carrying_and_landing_on_top():
    track = with_fillers({3: ["B", "G", "Y"], 5: ["R"]}, [10, 12, 14])
    check_example(track, {}, "G", 2, {3: ["B"], 5: ["R", "G", "Y"]})
    r_track, _, _ = ref.move(track, {}, "G", 2)
    rank = ref.ranking(r_track)
    assert rank.index("Y") < rank.index("G") < rank.index("R")
    _, _, _, _, tr = kernel_roll(track, {}, "G", 2)
    krank = kernel_ranking(tr)
    assert krank.index("Y") < krank.index("G") < krank.index("R")


def test_e2_cheering_tile():
    track = with_fillers({6: ["P"], 9: ["Y"]}, [1, 2, 3, 12, 13])
    check_example(track, {8: (ANN, "cheer")}, "P", 2, {6: [], 8: [], 9: ["Y", "P"]},
                  expect_owner=ANN)


def test_e3_booing_tile_puts_unit_underneath():
    track = with_fillers({5: ["B", "G"], 7: ["R"]}, [1, 12, 13, 14])
    tiles = {8: (BEN, "boo")}
    check_example(track, tiles, "B", 3, {5: [], 8: [], 7: ["B", "G", "R"]}, expect_owner=BEN)
    r_track, _, _ = ref.move(track, tiles, "B", 3)
    rank = ref.ranking(r_track)
    assert rank.index("R") < rank.index("G") < rank.index("B")
    _, _, _, _, tr = kernel_roll(track, tiles, "B", 3)
    krank = kernel_ranking(tr)
    assert krank.index("R") < krank.index("G") < krank.index("B")


def test_e4_crazy_camel_carries_racing_camels_backwards():
    track = with_fillers({12: ["W", "G"], 10: ["Y"], 15: ["K"]}, [1, 2, 3])
    check_example(track, {}, "grey", ("black", 2), {12: [], 10: ["Y", "W", "G"], 15: ["K"]})


# E5: (stacks, {die colour: (mover, unit moved)}); the unit lands alone on 14 - v (or on top)
E5_ROWS = [
    ({14: ["K", "W"]}, {"white": ["W"], "black": ["W"]}),
    ({14: ["K", "W", "R"]}, {"white": ["W", "R"], "black": ["W", "R"]}),
    ({14: ["K", "R", "W"]}, {"white": ["K", "R", "W"], "black": ["K", "R", "W"]}),
    ({14: ["K", "R", "W", "Y"]}, {"white": ["W", "Y"], "black": ["K", "R", "W", "Y"]}),
    ({10: ["W", "B"], 13: ["K", "Y"]}, {"white": ["W", "B"], "black": ["K", "Y"]}),
    ({10: ["W"], 13: ["K"]}, {"white": ["W"], "black": ["K"]}),
]


@pytest.mark.parametrize("row", range(len(E5_ROWS)))
@pytest.mark.parametrize("colour", ["white", "black"])
@pytest.mark.parametrize("value", [1, 2, 3])
def test_e5_crazy_camel_selection(row, colour, value):
    stacks, units = E5_ROWS[row]
    n_missing = 7 - sum(len(v) for v in stacks.values())
    track = with_fillers(stacks, [1, 2, 3, 4, 5][:n_missing])
    unit = units[colour]
    mover = unit[0]
    assert ref.crazy_mover(track, colour) == mover
    src = next(s for s, v in track.items() if mover in v)
    dst = src - value
    expect = {src: track[src][: track[src].index(mover)], dst: track.get(dst, []) + unit}
    check_example(track, {}, "grey", (colour, value), expect)
    got_mover, *_ = kernel_roll(track, {}, "grey", (colour, value))
    assert got_mover == mover


@pytest.mark.parametrize("side,expect", [("cheer", {8: ["G", "K"], 10: ["P"]}),
                                         ("boo", {8: ["G"], 10: ["K", "P"]})])
def test_e6_crazy_camel_on_spectator_tile(side, expect):
    track = with_fillers({11: ["K"], 8: ["G"], 10: ["P"]}, [1, 2, 3, 14])
    assert track[14] == ["W"]
    check_example(track, {9: (CAL, side)}, "grey", ("black", 2), {**expect, 11: [], 9: []},
                  expect_owner=CAL)


@pytest.mark.parametrize("face", [(c, v) for c in ("white", "black") for v in (2, 3)])
def test_e7_crossing_backwards(face):
    track = {2: ["W", "P", "Y"], 5: ["B"], 7: ["G"], 12: ["R"], 9: ["K"]}
    check_example(track, {}, "grey", face, {2: [], 5: ["B"], 7: ["G"], 12: ["R"], 9: ["K"]},
                  expect_cross=("ccw", ["W", "P", "Y"]),
                  expect_rank_prefix=["R", "G", "B", "Y", "P"])


@pytest.mark.parametrize("colour", ["white", "black"])
def test_e7_grey_one_moves_w_onto_space_1(colour):
    """Same position, grey 1: W still moves (it alone carries) but lands on 1, no crossing."""
    track = {2: ["W", "P", "Y"], 5: ["B"], 7: ["G"], 12: ["R"], 9: ["K"]}
    check_example(track, {}, "grey", (colour, 1), {2: [], 1: ["W", "P", "Y"], 9: ["K"]},
                  expect_rank_prefix=["R", "G", "B", "Y", "P"])


def test_e8_crossing_forward():
    track = with_fillers({14: ["R", "G", "B"]}, [5, 8, 10, 12])
    check_example(track, {}, "G", 3, {14: ["R"]}, expect_cross=("cw", ["G", "B"]),
                  expect_rank_prefix=["B", "G", "R"])


def test_e8_variant_cheering_tile_on_16():
    track = with_fillers({14: ["R", "G", "B"]}, [5, 8, 10, 12])
    check_example(track, {16: (ANN, "cheer")}, "G", 2, {14: ["R"], 16: []},
                  expect_cross=("cw", ["G", "B"]), expect_owner=ANN,
                  expect_rank_prefix=["B", "G", "R"])


# ---------------------------------------------------------------------------------------------
# §7.4 and §8 worked examples


def _rank_track(rank, crazy_spaces=(12, 14)):
    """A track whose ranking is ``rank`` (1st first): racing camels alone on 2..6."""
    track = {6 - i: [c] for i, c in enumerate(rank)}
    track[crazy_spaces[0]] = ["W"]
    track[crazy_spaces[1]] = ["K"]
    return track


def test_leg_scoring_example_7_4_reference():
    rank = ["G", "Y", "B", "R", "P"]
    tickets = [[("G", 5), ("Y", 3), ("B", 2)], [("R", 3)]]
    assert ref.leg_scoring(rank, tickets, [2, 0], [0, 1]) == [7, 0]
    # six-player variant: Ben copies Ann's G5, Ann declines Ben's R3
    assert ref.leg_scoring(rank, tickets, [2, 0], [0, 1], partner=[1, 0]) == [7, 5]


@pytest.mark.parametrize("six", [False, True])
def test_leg_scoring_example_7_4_kernel(six):
    n = 6 if six else 3
    s = make_state(_rank_track(["G", "Y", "B", "R", "P"]), n_players=n, partners=int(six))
    assert kernel_ranking(s[: k.TRACK_SIZE]) == ["G", "Y", "B", "R", "P"]
    ann, ben, cal = 0, 1, 2
    g, y, b, r = IDX["G"], IDX["Y"], IDX["B"], IDX["R"]
    k.take_ticket(s, ann, g)                     # G5
    k.take_ticket(s, cal, y)                     # Y5 (Cal)
    k.take_ticket(s, ann, y)                     # Y3
    k.take_ticket(s, cal, b)                     # B5 (Cal)
    k.take_ticket(s, cal, b)                     # B3 (Cal)
    k.take_ticket(s, ann, b)                     # B2
    k.take_ticket(s, cal, r)                     # R5 (Cal)
    k.take_ticket(s, ben, r)                     # R3
    assert s[k.LT_VALUE + ann * 5 + b] == 2 and s[k.LT_VALUE + ann * 5 + y] == 3
    assert s[k.LT_VALUE + ben * 5 + r] == 3 and s[k.LT_COUNT + cal * 5 + b] == 2
    s[k.PTIX + ann] = 2
    s[k.MONEY + ann] = 3
    s[k.MONEY + ben] = 1
    s[k.MONEY + cal] = 10
    if six:
        s[k.PARTNER + ann] = ben
        s[k.PARTNER + ben] = ann
    k.score_leg(s)
    # Ann: 5 + 1 - 1 + 2 = +7; Cal: Y5 +1, B5 -1, B3 -1, R5 -1 = -2
    want_ben = 5 if six else 0
    assert list(s[k.MONEY: k.MONEY + 3]) == [10, want_ben, 8]
    tickets = [[("G", 5), ("Y", 3), ("B", 2)], [("R", 3)], [("Y", 5), ("B", 5), ("B", 3), ("R", 5)]]
    partner = [1, 0, None] if six else None
    assert ref.leg_scoring(["G", "Y", "B", "R", "P"], tickets, [2, 0, 0], [3, 1, 10],
                           partner) == [10, want_ben, 8]


FIN_RANK = ["G", "Y", "B", "R", "P"]  # winner G, loser P
FIN_WDECK = [(1, "Y"), (0, "G"), (2, "G"), (3, "G"), (4, "G"), (5, "G")]  # Ben Y, Ann G, Cal..Fay G
FIN_LDECK = [(2, "P"), (0, "B"), (1, "P")]                                 # Cal P, Ann B, Ben P


def test_final_scoring_example_reference():
    money = [10, 0, 10, 10, 10, 10]
    # winner deck: Ben -1 (has 0: pays nothing), Ann +8, Cal +5, Dan +3, Eve +2, Fay +1
    # loser deck: Cal +8, Ann -1, Ben +5
    assert ref.final_scoring(FIN_RANK, FIN_WDECK, FIN_LDECK, money) == [17, 5, 23, 13, 12, 11]
    assert ref.final_scoring(FIN_RANK, FIN_WDECK, [], money) == [18, 0, 15, 13, 12, 11]
    # net clamp option (AMB-8): Ben -1 + 5 = +4
    assert ref.final_scoring(FIN_RANK, FIN_WDECK, FIN_LDECK, money, clamp="net")[1] == 4
    # 6th and later correct cards pay 1 each
    deck = [(p, "G") for p in range(8)]
    assert ref.final_scoring(FIN_RANK, deck, [], [0] * 8) == [8, 5, 3, 2, 1, 1, 1, 1]


def _final_state(final_net):
    s = make_state(_rank_track(FIN_RANK), n_players=6, partners=0, final_net=final_net)
    for i, (owner, colour) in enumerate(FIN_WDECK):
        s[k.WDECK + i] = owner * 8 + IDX[colour]
    for i, (owner, colour) in enumerate(FIN_LDECK):
        s[k.LDECK + i] = owner * 8 + IDX[colour]
    s[k.WLEN] = len(FIN_WDECK)
    s[k.LLEN] = len(FIN_LDECK)
    s[k.MONEY: k.MONEY + 6] = [10, 0, 10, 10, 10, 10]
    return s


def test_final_scoring_example_kernel():
    s = _final_state(0)
    assert kernel_ranking(s[: k.TRACK_SIZE]) == FIN_RANK
    k.score_final(s)
    assert list(s[k.MONEY: k.MONEY + 6]) == [17, 5, 23, 13, 12, 11]


def test_final_scoring_example_kernel_net_clamp():
    s = _final_state(1)
    k.score_final(s)
    assert list(s[k.MONEY: k.MONEY + 6]) == ref.final_scoring(
        FIN_RANK, FIN_WDECK, FIN_LDECK, [10, 0, 10, 10, 10, 10], clamp="net")
    assert s[k.MONEY + 1] == 4


# ---------------------------------------------------------------------------------------------
# random legal positions


@st.composite
def positions(draw, crazy=True, min_dice=2, max_dice=4):
    """A random legal position: all camels on 1..16 (clustered so stacks and crossings are
    common), tiles of distinct owners on empty non-adjacent spaces 2..16, a pyramid subset."""
    camels = ref.RACING + (ref.CRAZY if crazy else [])
    width = draw(st.integers(1, 7))
    region = draw(st.sampled_from(["low", "high", "anywhere"]))
    if region == "low":
        lo = 1
    elif region == "high":
        lo = 17 - width
    else:
        lo = draw(st.integers(1, 17 - width))
    space = {c: draw(st.integers(lo, lo + width - 1)) for c in camels}
    track = {}
    for c in draw(st.permutations(camels)):  # order of arrival = stacking order
        track.setdefault(space[c], []).append(c)
    owners = draw(st.permutations(range(8)))
    tiles = {}
    for i in range(4 - draw(st.integers(0, 4))):  # written so that simple = many tiles
        free = [s for s in range(2, 17)
                if s not in track and s not in tiles and s - 1 not in tiles and s + 1 not in tiles]
        near = [s for s in free if lo - 3 <= s <= lo + width + 3]
        pool = free if draw(st.booleans()) or not near else near
        if not pool:
            break
        s = draw(st.sampled_from(pool))
        tiles[s] = (owners[i], draw(st.sampled_from(["cheer", "boo"])))
    dice = ref.RACING + (["grey"] if crazy else [])
    n = max_dice - draw(st.integers(0, max_dice - min_dice))
    pyramid = sorted(draw(st.permutations(dice))[:n], key=DIE_IDX.get)
    me = owners[0] if draw(st.booleans()) else owners[1]
    return track, tiles, pyramid, me


def check_legal(track, tiles, crazy=True):
    camels = sorted(c for v in track.values() for c in v)
    assert camels == sorted(ref.RACING + (ref.CRAZY if crazy else []))
    assert all(1 <= s <= 16 for s in track)
    for s in tiles:
        assert 2 <= s <= 16 and s not in track and s + 1 not in tiles


@settings(max_examples=50, **SETTINGS)
@given(pos=positions())
def test_single_die_random_positions(pos):
    """Every die and face (21 rolls) from each random position."""
    track, tiles, _, _ = pos
    check_legal(track, tiles)
    for die in ref.DICE:
        for face, _p in ref.faces_of(die):
            assert_roll_agrees(track, tiles, die, face)


def test_boo_back_onto_own_start_space():
    """A unit moving 1 onto a booing tile goes back *under* the camels it left behind."""
    track = {7: ["B", "R", "G"], 1: ["Y"], 2: ["P"], 14: ["W"], 15: ["K"]}
    tiles = {8: (0, "boo")}
    r_track, landed, _ = ref.move(track, tiles, "R", 1)
    assert landed == 8 and r_track[7] == ["R", "G", "B"]
    assert_roll_agrees(track, tiles, "R", 1)
    # mirrored for a crazy camel: K carries Y from 9 onto the booing tile on 8 -> back to 9
    track = {9: ["B", "K", "Y"], 1: ["G"], 2: ["P"], 3: ["R"], 14: ["W"]}
    r_track, landed, _ = ref.move(track, tiles, "grey", ("white", 1))
    assert landed == 8 and r_track[9] == ["K", "Y", "B"]
    assert_roll_agrees(track, tiles, "grey", ("white", 1))


# ---------------------------------------------------------------------------------------------
# exact leg odds


def assert_leg_agrees(track, tiles, pyramid, leg_left=1, owner=0, crazy=True):
    want = ref.leg_odds(track, tiles, pyramid, leg_left=leg_left, owner=owner)
    got = kernel_leg_as_ref(track, tiles, pyramid, leg_left, owner, crazy)
    where = f"track={track} tiles={tiles} pyramid={pyramid} leg_left={leg_left} owner={owner}"
    want_dist = {key: p for key, p in want["dist"].items() if p}
    assert set(got["dist"]) == set(want_dist), where
    for key, p in want_dist.items():
        assert abs(float(got["dist"][key] - p)) < 1e-12, f"{where} {key}"
    for c in want["place"]:
        for q in range(5):
            assert abs(float(got["place"][c][q] - want["place"][c][q])) < 1e-12, f"{where} {c}"
    assert abs(float(got["end"] - want["end"])) < 1e-12, where
    for s in range(18):
        w = want["land"].get(s, Fraction(0))
        assert abs(float(got["land"].get(s, Fraction(0)) - w)) < 1e-12, f"{where} land {s}"
    return want


HAND_PICKED = [
    # fresh-ish start, crazy camels at 14..16 with tiles in their way
    ({1: ["B", "G"], 2: ["Y"], 3: ["R", "P"], 16: ["K"], 14: ["W"]},
     {5: (0, "cheer"), 12: (1, "boo")}, ["B", "R", "P", "grey"]),
    # racing camels near 16 (clockwise crossing) and crazy ones carrying near 1 (ccw crossing)
    ({15: ["B", "W", "G"], 14: ["Y"], 2: ["K", "R", "P"]},
     {16: (0, "cheer"), 4: (2, "boo")}, ["G", "Y", "R", "grey"]),
    # crazy stacked on crazy with racing camels in between and on top
    ({6: ["K", "W", "R"], 8: ["B"], 9: ["G", "Y", "P"]},
     {7: (0, "boo"), 12: (3, "cheer")}, ["B", "Y", "P", "grey"]),
    # the spec's E7 position with three dice left
    ({2: ["W", "P", "Y"], 5: ["B"], 7: ["G"], 12: ["R"], 9: ["K"]},
     {3: (0, "cheer"), 10: (1, "boo")}, ["P", "G", "grey"]),
]


@pytest.mark.parametrize("case", range(len(HAND_PICKED)))
def test_leg_odds_hand_picked(case):
    track, tiles, pyramid = HAND_PICKED[case]
    check_legal(track, tiles)
    want = assert_leg_agrees(track, tiles, pyramid)
    assert sum(want["dist"].values()) == 1
    assert all(sum(ps) == 1 for ps in want["place"].values())


def test_leg_odds_hand_picked_crossings_happen():
    """Position 2 above really exercises both crossing directions."""
    track, tiles, pyramid = HAND_PICKED[1]
    want = ref.leg_odds(track, tiles, pyramid)
    ends = {key[1][-1] for key in want["dist"] if key[0] == 1}
    assert 0 < want["end"] < 1
    # K crossing ccw with [K, R, P]: R (bottom-most carried) becomes the last camel
    assert "R" in ends
    assert assert_leg_agrees(track, tiles, pyramid)["end"] == want["end"]


def test_leg_odds_five_dice_slow_case():
    """The one 5-dice case (4 reveals, ~15 s in the naive reference)."""
    track = {3: ["B", "K"], 4: ["G", "Y"], 5: ["W", "R"], 1: ["P"]}
    tiles = {7: (0, "cheer"), 2: (1, "boo"), 10: (2, "boo")}
    assert_leg_agrees(track, tiles, ["B", "G", "Y", "P", "grey"])


@settings(max_examples=55, **SETTINGS)
@given(pos=positions(min_dice=2, max_dice=4))
def test_leg_odds_random_positions(pos):
    track, tiles, pyramid, me = pos
    check_legal(track, tiles)
    assert_leg_agrees(track, tiles, pyramid, leg_left=1, owner=me)


def test_leg_odds_thread_independent():
    """The serial single-layout form and the parallel batch form on 1 or all threads give
    the same integer weights."""
    track, tiles, pyramid = HAND_PICKED[1]
    a = kernel_leg(track, tiles, pyramid, 1)
    for workers in (1, numba.config.NUMBA_NUM_THREADS, 1):
        b = kernel_leg(track, tiles, pyramid, 1, workers=workers)
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) and a[2] == b[2]


def plain_leg_walk(tr0, tile, mine, mask, leg_left):
    """``leg_distribution``'s (hist, land) by a plain walk in Python: nodes of a level in a
    dict keyed by the whole track, the dice and the own-tile landings, each reveal made
    with the kernel's ``roll`` on a copy (the kernel keys nodes by ``_pack`` and moves
    nothing: ``_moved``)."""
    hist = np.zeros((2, k.N_PERMS, k.MAX_INCOME), dtype=np.int64)
    land = np.zeros(k.N_SPACES + 2, dtype=np.int64)
    order = np.zeros(5, dtype=np.int64)
    index = {tuple(int(c) for c in p): i for i, p in enumerate(k.perm_orders())}
    level = {(tuple(int(x) for x in tr0), mask, 0): int(k.leg_denominator(mask, leg_left))}
    m = int(k.die_count(mask))
    while level and m > leg_left:
        nxt: dict = {}
        for (track, dice, inc), w in level.items():
            for die in range(k.N_DICE):
                if not dice >> die & 1:
                    continue
                for face in range(6 if die == k.GREY else 3):
                    fw = w // (6 * m) * (1 if die == k.GREY else 2)
                    tr = np.array(track, dtype=np.int64)
                    _mover, landed = k.roll(tr, tile, die, face)
                    land[landed] += fw if landed else 0
                    key = (tuple(int(x) for x in tr), dice & ~(1 << die),
                           inc + (int(mine[landed]) if landed else 0))
                    if k.crossed(tr) or m - 1 == leg_left:
                        k.ranking(tr, order)
                        hist[int(k.crossed(tr)), index[tuple(order)], key[2]] += fw
                    else:
                        nxt[key] = nxt.get(key, 0) + fw
        level = nxt
        m -= 1
    return hist, land


@pytest.mark.parametrize("variant,seed", [("camel-up", 1), ("camel-up", 2),
                                          ("camel-up-2014", 3)])
def test_fresh_legs_give_the_plain_walks_integer_weights(variant, seed):
    """A full pyramid (the leg's 320,760 leaves in the 2nd edition) with tiles of two
    owners on the track: the same integer weights as the plain walk, bit for bit."""
    from oddsbot.analyser.camel_up import face as cu
    from oddsbot.analyser.camel_up.encode import encode

    pos = cu.new_position(4, seed, variant)
    st_ = encode(pos)
    tr0 = st_[:k.TRACK_SIZE].copy()
    empty = [s for s in range(2, 17) if tr0[k.CNT + s] == 0]
    tile = np.zeros(18, dtype=np.int64)
    mine = np.zeros(18, dtype=np.int64)
    for i, s in enumerate(empty[seed:seed + 6:2]):  # cheer, boo, cheer; the first two mine
        tile[s] = 1 if i % 2 == 0 else -1
        mine[s] = 1 if i < 2 else 0
    mask = int(k.pyramid_mask(st_))
    leg_left = pos.rules.leg_left
    hist, land, den = k.leg_distribution(tr0, tile, mine, mask, leg_left)
    want_hist, want_land = plain_leg_walk(tr0, tile, mine, mask, leg_left)
    assert den == k.leg_denominator(mask, leg_left) == hist.sum()
    assert np.array_equal(hist, want_hist) and np.array_equal(land, want_land)


# 1st edition (Appendix A): no crazy camels, 5 dice, the leg ends when all are revealed


@settings(max_examples=12, **SETTINGS)
@given(pos=positions(crazy=False, min_dice=1, max_dice=4))
def test_first_edition_leg_odds_random(pos):
    track, tiles, pyramid, me = pos
    check_legal(track, tiles, crazy=False)
    assert_leg_agrees(track, tiles, pyramid, leg_left=0, owner=me, crazy=False)


def test_first_edition_full_leg():
    """All 5 dice of a fresh 1st-edition leg (29,160 leaves)."""
    track = {1: ["B", "G"], 2: ["Y"], 3: ["R", "P"]}
    tiles = {4: (0, "boo"), 6: (1, "cheer")}
    assert_leg_agrees(track, tiles, ["B", "G", "Y", "R", "P"], leg_left=0, crazy=False)


def test_first_edition_full_leg_near_finish():
    track = {13: ["B"], 14: ["G", "Y"], 12: ["R", "P"]}
    tiles = {16: (0, "cheer"), 10: (1, "boo")}
    want = assert_leg_agrees(track, tiles, ["B", "G", "Y", "R", "P"], leg_left=0, crazy=False)
    assert Fraction(9, 10) < want["end"] < 1  # the game nearly always ends this leg


@settings(max_examples=8, **SETTINGS)
@given(pos=positions(crazy=False))
def test_first_edition_single_die(pos):
    track, tiles, _, _ = pos
    check_legal(track, tiles, crazy=False)
    for die in ref.RACING:
        for value in (1, 2, 3):
            assert_roll_agrees(track, tiles, die, value, crazy=False)


# ---------------------------------------------------------------------------------------------
# whole reveals that end the leg or the game: money after leg and final scoring


@settings(max_examples=25, **SETTINGS)
@given(pos=positions(min_dice=2, max_dice=3), data=st.data())
def test_reveal_scoring_random(pos, data):
    track, tiles, pyramid, _ = pos
    n = data.draw(st.integers(3, 8))
    partners = n >= 6
    tiles = {s: (o % n, side) for s, (o, side) in tiles.items()}
    # at most one tile per player
    seen, legal_tiles = set(), {}
    for s, (o, side) in sorted(tiles.items()):
        if o not in seen:
            seen.add(o)
            legal_tiles[s] = (o, side)
    tiles = legal_tiles
    s = make_state(track, tiles, n_players=n, partners=int(partners))
    for d in range(6):
        s[k.PYR + d] = 1 if ref.DICE[d] in pyramid else 0
    assert k.pyramid_mask(s) == pyramid_bits(pyramid)
    money = [data.draw(st.integers(0, 6)) for _ in range(n)]
    s[k.MONEY: k.MONEY + n] = money
    # betting tickets taken in a random order
    stacks = {c: list(TICKETS_2ND) for c in ref.RACING}
    tickets = [[] for _ in range(n)]
    for _ in range(data.draw(st.integers(0, 10))):
        c = data.draw(st.sampled_from([c for c in ref.RACING if stacks[c]]))
        p = data.draw(st.integers(0, n - 1))
        tickets[p].append((c, stacks[c].pop(0)))
        k.take_ticket(s, p, IDX[c])
    # pyramid tickets for the dice already revealed
    ptix = [0] * n
    for _ in range(6 - len(pyramid)):
        ptix[data.draw(st.integers(0, n - 1))] += 1
    s[k.PTIX: k.PTIX + n] = ptix
    partner = [None] * n
    if partners:
        a, b = data.draw(st.permutations(range(n)))[:2]
        if data.draw(st.booleans()):
            partner[a], partner[b] = b, a
            s[k.PARTNER + a], s[k.PARTNER + b] = b, a
    # finish cards: each player places some distinct colours on either deck
    cards = []
    for p in range(n):
        for c in data.draw(st.permutations(ref.RACING))[: data.draw(st.integers(0, 2))]:
            cards.append((p, c, data.draw(st.booleans())))
    cards = data.draw(st.permutations(cards))
    wdeck = [(p, c) for p, c, w in cards if w]
    ldeck = [(p, c) for p, c, w in cards if not w]
    for i, (p, c) in enumerate(wdeck):
        s[k.WDECK + i] = p * 8 + IDX[c]
    for i, (p, c) in enumerate(ldeck):
        s[k.LDECK + i] = p * 8 + IDX[c]
    s[k.WLEN], s[k.LLEN] = len(wdeck), len(ldeck)
    to_move = data.draw(st.integers(0, n - 1))
    s[k.TO_MOVE] = to_move
    die = data.draw(st.sampled_from(pyramid))
    face = data.draw(st.sampled_from([f for f, _ in ref.faces_of(die)]))

    # reference
    new_track, landed, crossing = ref.move(track, tiles, die, face)
    want = list(money)
    if landed is not None:
        want[tiles[landed][0]] += 1
    ptix[to_move] += 1
    leg_over = crossing is not None or len(pyramid) - 1 == 1
    if leg_over:
        rank = ref.ranking(new_track, crossing)
        want = ref.leg_scoring(rank, tickets, ptix, want, partner)
        if crossing is not None:
            want = ref.final_scoring(rank, wdeck, ldeck, want)

    k.reveal(s, DIE_IDX[die], kernel_face(die, face))
    where = f"track={track} tiles={tiles} die={die} face={face} pyramid={pyramid}"
    assert list(s[k.MONEY: k.MONEY + n]) == want, where
    k_track, k_cross = decode(s[: k.TRACK_SIZE])
    assert k_track == norm(new_track), where
    assert k_cross == (None if crossing is None else (crossing[0], list(crossing[1]))), where
    if leg_over and crossing is None:
        # §7.2 step 5 clean-up: dice back, tickets back, tiles back
        assert k.pyramid_mask(s) == 63, where
        assert all(s[k.TILE + sp] == 0 and s[k.TOWNER + sp] == -1 for sp in range(1, 17)), where
        assert s[k.LT_COUNT: k.LT_COUNT + 5 * n].sum() == 0, where
        assert s[k.PTIX: k.PTIX + n].sum() == 0, where
    elif not leg_over:
        assert s[k.PTIX + to_move] == ptix[to_move], where
        assert k.pyramid_mask(s) == pyramid_bits([d for d in pyramid if d != die]), where


# ---------------------------------------------------------------------------------------------
# Monte Carlo


MC_POSITION = ({14: ["B", "K"], 13: ["G", "Y"], 12: ["R"], 3: ["W", "P"]},
               {15: (0, "boo"), 5: (1, "cheer")}, ["B", "G", "R", "P", "grey"])


def test_leg_counts_matches_exact():
    track, tiles, pyramid = MC_POSITION
    hist, _, den = kernel_leg(track, tiles, pyramid, 1)
    assert hist.sum() == den
    perms = k.perm_orders()
    exact = np.zeros((5, 5))
    for e, p, j in zip(*np.nonzero(hist)):
        for q in range(5):
            exact[perms[p][q], q] += hist[e, p, j] / den
    p_end = hist[1].sum() / den
    assert 0.05 < p_end < 0.95  # the position really mixes ending and non-ending legs
    s = make_state(track, tiles)
    n_chunks, chunk_size = 8, 5000
    counts, ends = k.leg_counts(s[: k.TRACK_SIZE].copy(), tile_array(tiles),
                                pyramid_bits(pyramid), 1, 12345, 0, n_chunks, chunk_size)
    n = n_chunks * chunk_size
    total = counts.sum(axis=0)
    assert (total.sum(axis=1) == n).all() and (total.sum(axis=0) == n).all()
    freq = total / n
    for c in range(5):
        for q in range(5):
            p = exact[c, q]
            se = np.sqrt(max(p * (1 - p), 1e-4) / n)
            assert abs(freq[c, q] - p) < 4 * se, (c, q, freq[c, q], p)
    se = np.sqrt(p_end * (1 - p_end) / n)
    assert abs(ends.sum() / n - p_end) < 4 * se


def test_leg_counts_reproducible_and_chunked():
    track, tiles, pyramid = MC_POSITION
    tr = make_state(track, tiles)[: k.TRACK_SIZE].copy()
    args = (tile_array(tiles), pyramid_bits(pyramid), 1, 777)
    a_counts, a_ends = k.leg_counts(tr.copy(), *args, 0, 6, 500)
    b_counts, b_ends = k.leg_counts(tr.copy(), *args, 0, 6, 500)
    assert np.array_equal(a_counts, b_counts) and np.array_equal(a_ends, b_ends)
    c_counts, c_ends = k.leg_counts(tr.copy(), *args, 3, 3, 500)
    assert np.array_equal(a_counts[3:], c_counts) and np.array_equal(a_ends[3:], c_ends)
    d_counts, _ = k.leg_counts(tr.copy(), tile_array(tiles), pyramid_bits(pyramid), 1, 778,
                               0, 6, 500)
    assert not np.array_equal(a_counts, d_counts)
