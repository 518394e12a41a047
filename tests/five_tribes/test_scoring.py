"""Five Tribes final scoring: hand-worked end states and the kernel against the reference.

``naive_five_tribes_scoring.py`` is written from ``docs/games/five-tribes.md`` §11-§13
and §14.11 and splits goods into suits by brute force. Part 1 runs hand-worked end states on an
*engine*: the reference, and the kernel ``oddsbot.kernels.five_tribes`` (parameter id
``kernel``). Part 2 compares the kernel with the reference on random end states and random goods
rows. ``-k "not kernel"`` runs the reference alone.
"""

from __future__ import annotations

import os
import random
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import naive_five_tribes_scoring as N  # noqa: E402

Scores = list[dict[str, int]]


@dataclass(frozen=True)
class Engine:
    """One implementation of final scoring: every player's parts, and one goods row's VP."""

    scores: Callable[[N.EndState], Scores]
    suits: Callable[[list[int], int, bool], int]


@pytest.fixture(scope="module")
def FT():
    """The kernel module (imported here so the reference tests run without it)."""
    from oddsbot.kernels import five_tribes

    return five_tribes


def kernel_scores(FT, s: N.EndState) -> Scores:
    """``FT.final_scores`` of an end state as one dict per player; checks shape and inputs."""
    bit = {"Jafaar": FT.JAFAAR, "Shamhat": FT.SHAMHAT, "Haurvatat": FT.HAURVATAT,
           "Al-Amin": FT.AL_AMIN}
    args = tuple(np.array(x, dtype=np.int64) for x in (
        s.gold, s.viziers, s.elders,
        [sum(N.DJINN_VP[d] for d in ds) for ds in s.djinns],
        [sum(bit[d] for d in ds if d in bit) for ds in s.djinns],
        s.owner, s.tile_vp, s.palms, s.palaces, s.goods, s.fakirs,
    ))
    before = [a.copy() for a in args]
    got = FT.final_scores(*args)
    assert all(np.array_equal(a, b) for a, b in zip(args, before)), "final_scores modified input"
    assert got.dtype == np.int64 and got.shape == (s.players, len(N.PARTS))
    return [{k: int(v) for k, v in zip(FT.SCORE_PARTS, row)} for row in got]


def kernel_suits(FT, goods: list[int], fakirs: int, al_amin: bool) -> int:
    """``FT.suit_value`` of one goods row."""
    return int(FT.suit_value(np.array(goods, dtype=np.int64), fakirs, al_amin))


@pytest.fixture(params=["naive", "kernel"])
def engine(request: pytest.FixtureRequest) -> Engine:
    if request.param == "naive":
        return Engine(N.final_scores, N.suit_value)
    ft = request.getfixturevalue("FT")
    return Engine(lambda s: kernel_scores(ft, s), lambda g, f, a: kernel_suits(ft, g, f, a))


def blank(players: int) -> N.EndState:
    """An end state where nobody holds anything; tiles in :data:`N.TILE_VPS` order
    (0-5 oases 8 VP, 6-13 small markets 6, 14-17 large markets 4, 18-22 villages 5,
    23-29 sacred places 6 6 6 6 10 12 15)."""
    return N.EndState(
        gold=[0] * players, viziers=[0] * players, elders=[0] * players,
        djinns=[[] for _ in range(players)], owner=[-1] * N.N_TILES,
        tile_vp=list(N.TILE_VPS), palms=[0] * N.N_TILES, palaces=[0] * N.N_TILES,
        goods=[[0] * len(N.GOODS) for _ in range(players)], fakirs=[0] * players,
    )


def parts(engine: Engine, s: N.EndState, name: str) -> list[int]:
    """One score part of every player."""
    return [row[name] for row in engine.scores(s)]


# ---------------------------------------------------------------------------------------------
# part 1: hand-worked end states, on the reference and on the kernel


@pytest.mark.parametrize("goods, vp", [
    # ivory 3, jewels 1, papyrus 2: suits {ivory, jewels, papyrus} 7 + {ivory, papyrus} 3
    # + {ivory} 1 = 11
    ([3, 1, 0, 2, 0, 0, 0, 0, 0], 11),
    # jewels 2, gold 1, silk 3, fish 1: {J, G, S, F} 13 + {J, S} 3 + {S} 1 = 17
    ([0, 2, 1, 0, 3, 0, 1, 0, 0], 17),
    # the whole deck: layers of 9, 9, 6, 6, 3, 3 types = 60 + 60 + 30 + 30 + 7 + 7 = 194
    ([2, 2, 2, 4, 4, 4, 6, 6, 6], 194),
    ([2, 2, 0, 0, 0, 0, 0, 0, 0], 6),  # two suits of 2 (3 + 3), not 3 + 1 + 1
    ([6, 0, 0, 0, 0, 0, 0, 0, 0], 6),  # six suits of 1
    ([1, 1, 1, 1, 1, 1, 1, 1, 1], 60),  # one full suit
    ([0] * 9, 0),
])
def test_suits_layering(engine, goods, vp):
    assert engine.suits(goods, 0, False) == vp
    assert engine.suits(goods, 7, False) == vp  # fakirs are worth nothing without Al-Amin
    s = blank(2)
    s.goods[1] = goods
    assert parts(engine, s, "goods") == [0, vp]


@pytest.mark.parametrize("goods, fakirs, vp", [
    # ivory 3, one of each other type: suits 9 (60) + {ivory} 1 + {ivory} 1 = 62.
    # 5 fakirs = 2 wilds (the fifth is worth nothing); both join the 2nd suit, the largest below
    # 9: 60 + 7 + 1 = 68 (one in each small suit gives only 60 + 3 + 3 = 66)
    ([3, 1, 1, 1, 1, 1, 1, 1, 1], 5, 68),
    ([3, 1, 1, 1, 1, 1, 1, 1, 1], 4, 68),
    ([3, 1, 1, 1, 1, 1, 1, 1, 1], 3, 64),  # 1 wild: 60 + 3 + 1
    ([3, 1, 1, 1, 1, 1, 1, 1, 1], 1, 62),  # a lone fakir is no wild
    # 7 types once + 18 fakirs = 9 wilds: 2 fill the suit to 9 (60), 7 make a suit of 7 (40)
    ([1, 1, 1, 1, 1, 1, 1, 0, 0], 18, 100),
    ([1, 1, 1, 1, 1, 1, 1, 1, 1], 2, 61),  # the only suit is full: the wild starts a new one
    ([0] * 9, 4, 3),  # 2 wilds alone make a suit of 2
    # suits {J, G, S, F} 13 + {J, S} 3 + {S} 1; 3 wilds grow the first to 7 cards:
    # 40 + 3 + 1 = 44
    ([0, 2, 1, 0, 3, 0, 1, 0, 0], 6, 44),
])
def test_suits_al_amin_wilds(engine, goods, fakirs, vp):
    assert engine.suits(goods, fakirs, True) == vp
    s = blank(2)
    s.goods[0], s.fakirs[0], s.djinns[0] = goods, fakirs, ["Al-Amin"]
    s.goods[1], s.fakirs[1] = goods, fakirs  # same hand, no Al-Amin: fakirs worth nothing
    got = engine.scores(s)
    assert [got[0]["goods"], got[0]["djinns"]] == [vp, 5]
    assert [got[1]["goods"], got[1]["djinns"]] == [engine.suits(goods, 0, False), 0]


def test_jafaar(engine):
    s = blank(3)
    s.viziers = [4, 2, 2]
    s.djinns = [["Jafaar", "Boaz"], ["Jafaar"], []]
    got = engine.scores(s)
    assert [g["viziers"] for g in got] == [
        4 * 3 + 10 + 10,  # 3 per Vizier, +10 per opponent with fewer, unchanged
        2 * 3,  # Jafaar, but tied with P2 and behind P0: no bonus
        2,
    ]
    assert [g["djinns"] for g in got] == [6 + 6, 6, 0]


def test_shamhat(engine):
    s = blank(2)
    s.elders = [5, 3]
    s.djinns[0] = ["Shamhat"]
    got = engine.scores(s)
    assert [g["elders"] for g in got] == [5 * 4, 3 * 2]
    assert [g["djinns"] for g in got] == [6, 0]


def test_haurvatat(engine):
    s = blank(2)
    s.owner[0] = s.owner[1] = 0  # two oases of P0
    s.owner[2] = 1
    s.palms[0], s.palms[1], s.palms[2] = 2, 1, 2
    s.djinns[0] = ["Haurvatat"]
    got = engine.scores(s)
    assert [g["palms"] for g in got] == [(2 + 1) * 5, 2 * 3]
    assert [g["tiles"] for g in got] == [8 + 8, 8]
    assert [g["djinns"] for g in got] == [8, 0]


def test_palms_and_palaces_score_for_the_tile_owner(engine):
    s = blank(2)
    s.owner[18] = 1  # a village of P1, where P0 may have put the palace: it counts for P1
    s.palaces[18] = 2
    s.palms[18] = 1
    s.owner[3] = 0  # an oasis of P0 without palms
    s.palms[4], s.palaces[20], s.palms[29] = 3, 2, 1  # on unowned tiles: for no one
    s.palaces[29] = 1
    got = engine.scores(s)
    assert [g["palms"] for g in got] == [0, 1 * 3]
    assert [g["palaces"] for g in got] == [0, 2 * 5]
    assert [g["tiles"] for g in got] == [8, 5]  # the unowned 15-VP sacred place: no one
    assert [g["total"] for g in got] == [8, 3 + 10 + 5]


@pytest.mark.parametrize("viziers, part", [
    ([3, 3], [3, 3]),  # 2 players tied: no bonus either way
    ([0, 0], [0, 0]),
    ([3, 2], [3 + 10, 2]),
    ([5, 5, 2], [5 + 10, 5 + 10, 2]),  # each beats only P2
    ([2, 1, 1], [2 + 20, 1, 1]),
    ([4, 4, 4, 4], [4, 4, 4, 4]),
    ([6, 3, 3, 0], [6 + 30, 3 + 10, 3 + 10, 0]),
    ([1, 2, 3, 4], [1, 2 + 10, 3 + 20, 4 + 30]),
])
def test_vizier_bonus(engine, viziers, part):
    s = blank(len(viziers))
    s.viziers = viziers
    got = engine.scores(s)
    assert [g["viziers"] for g in got] == part
    assert [g["total"] for g in got] == part


def test_player_with_nothing(engine):
    s = blank(3)
    s.gold[0], s.viziers[0], s.elders[0], s.djinns[0] = 40, 5, 4, ["Hagis", "Al-Amin"]
    s.goods[0], s.fakirs[0] = [1, 0, 0, 0, 0, 0, 1, 1, 2], 6
    s.owner[23] = 0
    s.gold[1], s.viziers[1] = 7, 1
    s.owner[5] = 1
    s.palms[5] = 1
    got = engine.scores(s)
    assert got[2] == dict.fromkeys(N.PARTS, 0)
    # P1: 7 gold + 1 Vizier (+10 for P2's 0) + oasis 8 + 1 palm 3 = 29
    assert got[1] == dict(gold=7, viziers=11, elders=0, tiles=8, palms=3, palaces=0, djinns=0,
                          goods=0, total=29)
    # P0: 40 + (5 + 20) + 4*2 + sacred 6 + 0 + 0 + (10 + 5) + goods: suits {I, F, W, P} 13 +
    # {P} 1; 3 wilds grow the 4-suit to 7 (40) -> 41; total 40 + 25 + 8 + 6 + 15 + 41 = 135
    assert got[0] == dict(gold=40, viziers=25, elders=8, tiles=6, palms=0, palaces=0, djinns=15,
                          goods=41, total=135)


# ---------------------------------------------------------------------------------------------
# the reference's own tables against the spec


def test_reference_tables_match_spec():
    assert len(N.DJINN_VP) == 22 and sum(N.DJINN_VP.values()) == 141
    assert Counter(N.DJINN_VP.values()) == {4: 4, 5: 1, 6: 10, 8: 5, 10: 2}
    assert len(N.TILE_VPS) == N.N_TILES and sum(N.TILE_VPS) == 198
    assert sum(N.DECK) == 36 and N.SUIT_VALUE[1:] == (1, 3, 7, 13, 21, 30, 40, 50, 60)


# ---------------------------------------------------------------------------------------------
# part 2: the kernel against the reference on random end states and goods rows


def test_kernel_score_parts(FT):
    assert tuple(FT.SCORE_PARTS) == N.PARTS


def assert_same_scores(FT, s: N.EndState) -> None:
    want, got = N.final_scores(s), kernel_scores(FT, s)
    diff = [(p, k, want[p][k], got[p][k])
            for p in range(s.players) for k in N.PARTS if want[p][k] != got[p][k]]
    assert not diff, f"state {s}: (player, part, naive, kernel) {diff}"


@settings(max_examples=500)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_kernel_final_scores_random_states(FT, players, seed):
    """States from a seeded ``random.Random``: one draw per example keeps hypothesis fast."""
    assert_same_scores(FT, N.random_end_state(random.Random(seed), players))


goods_rows = st.tuples(*(st.integers(0, n) for n in N.DECK)).map(list)


@settings(max_examples=400)
@given(goods=goods_rows, fakirs=st.integers(0, N.FAKIRS), al_amin=st.booleans())
def test_kernel_suit_value_random_rows(FT, goods, fakirs, al_amin):
    want = N.suit_value(goods, fakirs, al_amin)
    got = kernel_suits(FT, goods, fakirs, al_amin)
    assert got == want, f"goods {goods}, fakirs {fakirs}, al_amin {al_amin}: {want} vs {got}"
