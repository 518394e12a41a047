"""Five Tribes sowing legality: the spec's worked examples and the kernel against the reference.

``naive_five_tribes.py`` is written from ``docs/games/five-tribes.md`` §7 only. Part 1
runs the §7.2 worked examples (and two §7.4 statements) on an *engine*: the naive reference, and
the compiled kernel ``oddsbot.kernels.five_tribes`` (parameter id ``kernel``). Part 2 compares the
kernel's six §7.3 counts and its full list of sowings with the reference on random boards, under
both end rules. ``-k "not kernel"`` runs the reference alone.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import naive_five_tribes as N  # noqa: E402

RULES = [N.LIVE, N.PREMOVE]
RULE_IDS = ["live", "premove"]
t = N.tile


@dataclass(frozen=True)
class Engine:
    """One implementation of the sowing rules: the list of sowings and the six counts."""

    sowings: Callable[[np.ndarray, int], list[N.Sowing]]
    counts: Callable[[np.ndarray, int], dict[str, int]]


@pytest.fixture(scope="module")
def FT():
    """The compiled kernel module (imported here so the reference tests run without it)."""
    from oddsbot.kernels import five_tribes

    return five_tribes


def kernel_sowings(FT, counts: np.ndarray, end_rule: int) -> list[N.Sowing]:
    """``FT.sowings`` as a list of ``(start, path, colours)``; checks shapes and padding."""
    before = counts.copy()
    starts, paths, colours, lengths = FT.sowings(counts, end_rule)
    assert np.array_equal(counts, before), "FT.sowings modified the board"
    m = len(starts)
    assert paths.shape[0] == colours.shape[0] == lengths.shape[0] == m
    out = []
    for i in range(m):
        n = int(lengths[i])
        assert (paths[i, n:] == -1).all() and (colours[i, n:] == -1).all(), "bad padding"
        out.append((int(starts[i]), tuple(int(x) for x in paths[i, :n]),
                    tuple(int(x) for x in colours[i, :n])))
    return out


def kernel_counts(FT, counts: np.ndarray, end_rule: int) -> dict[str, int]:
    """``FT.sowing_counts`` as a dict keyed by :data:`N.COUNT_NAMES`."""
    before = counts.copy()
    got = FT.sowing_counts(counts, end_rule)
    assert np.array_equal(counts, before), "FT.sowing_counts modified the board"
    assert got.shape == (len(N.COUNT_NAMES),)
    return {name: int(v) for name, v in zip(N.COUNT_NAMES, got)}


@pytest.fixture(params=["naive", "kernel"])
def engine(request) -> Engine:
    if request.param == "naive":
        return Engine(N.sowings, N.sowing_counts)
    ft = request.getfixturevalue("FT")
    return Engine(lambda c, r: kernel_sowings(ft, c, r), lambda c, r: kernel_counts(ft, c, r))


def seq(start: str, *steps: str) -> N.Sowing:
    """A sowing from ``seq("r2c2", "r2c3:Y", "r2c4:W")``."""
    pairs = [s.split(":") for s in steps]
    return (t(start), tuple(t(p) for p, _ in pairs), tuple(N.COLOURS.index(c) for _, c in pairs))


# ---------------------------------------------------------------------------------------------
# part 1: §7.2 worked examples and §7.4 statements, on the reference and on the kernel


@pytest.mark.parametrize("rule", RULES, ids=RULE_IDS)
def test_example1_three_sowings(engine, rule):
    b = N.board({"r2c2": "YW", "r2c4": "W", "r1c3": "Y"})
    found = engine.sowings(b, rule)
    assert sorted(found) == sorted([
        seq("r2c2", "r2c3:Y", "r2c4:W"),
        seq("r2c2", "r2c3:W", "r1c3:Y"),
        seq("r2c2", "r1c2:W", "r1c3:Y"),
    ])
    counts = engine.counts(b, rule)
    assert counts["full_sequences"] == 3
    assert counts["distinct_start_end_colour"] == 2
    assert counts["start_tiles_with_a_move"] == 1


def test_example2_paths_never_return_immediately():
    assert (t("r0c1"), t("r0c0")) not in N.paths(t("r0c0"), 2)
    assert (t("r0c1"), t("r1c1"), t("r1c0")) in N.paths(t("r0c0"), 3)
    assert (t("r0c1"), t("r1c1"), t("r1c0"), t("r0c0")) in N.paths(t("r0c0"), 4)
    for start in range(N.N_TILES):
        for p in N.paths(start, 6):
            walk = (start,) + p
            assert all(b in N.neighbours(a) for a, b in zip(walk, walk[1:]))
            assert all(walk[i + 2] != walk[i] for i in range(len(walk) - 2))


@pytest.mark.parametrize("rule", RULES, ids=RULE_IDS)
def test_example2_backtracking(engine, rule):
    two = engine.sowings(N.board({"r0c0": "WW", "r0c1": "W"}), rule)
    assert all(p != (t("r0c1"), t("r0c0")) for _, p, _ in two)
    # r0c1 holds a W, so only the no-return rule forbids r0c1 -> r0c2 -> r0c1
    three = engine.sowings(N.board({"r0c0": "WWW", "r0c1": "W", "r1c0": "W"}), rule)
    assert seq("r0c0", "r0c1:W", "r0c2:W", "r0c1:W") not in three
    assert seq("r0c0", "r1c0:W", "r1c1:W", "r0c1:W") in three
    assert seq("r0c0", "r0c1:W", "r1c1:W", "r1c0:W") in three
    # the start tile held Ws before the pickup, but is empty when the 4-loop closes on it
    assert engine.sowings(N.board({"r0c0": "WWWW"}), rule) == []


def test_example3_loop_live_vs_premove(engine):
    b = N.board({"r1c1": "GGBRY"})
    loop = seq("r1c1", "r0c1:G", "r0c0:B", "r1c0:R", "r1c1:Y", "r0c1:G")
    live = engine.sowings(b, N.LIVE)
    assert len(live) == 96 and loop in live
    assert engine.counts(b, N.LIVE)["full_sequences"] == 96
    assert engine.sowings(b, N.PREMOVE) == []
    assert engine.counts(b, N.PREMOVE) == dict.fromkeys(N.COUNT_NAMES, 0)


@pytest.mark.parametrize("rule", RULES, ids=RULE_IDS)
def test_example4_rulebook_loop(engine, rule):
    b = N.board({"r1c1": "GBRYG", "r1c2": "G"})
    loop = seq("r1c1", "r1c2:G", "r2c2:B", "r2c1:R", "r1c1:Y", "r1c2:G")
    assert loop in engine.sowings(b, rule)
    after = N.apply_sowing(b, loop)
    assert after[t("r1c2")].tolist() == [0, 0, 0, 3, 0]  # three greens, all picked up (§8)
    assert after[t("r1c1")].tolist() == [1, 0, 0, 0, 0]


def test_live_start_tile_end_needs_an_earlier_drop(engine):
    """§7.4: with >= 8 meeples a live sowing may end on its start tile, a premove one never."""
    b = N.board({"r1c1": "GGGGGGGY"})
    loop = ("r0c1", "r0c0", "r1c0", "r1c1")
    ok = seq("r1c1", *(f"{p}:{c}" for p, c in zip(loop * 2, "GGGGGGYG")))
    bad = seq("r1c1", *(f"{p}:{c}" for p, c in zip(loop * 2, "GGGYGGGG")))
    live = engine.sowings(b, N.LIVE)
    assert ok in live and bad not in live
    assert engine.sowings(b, N.PREMOVE) == []


@settings(max_examples=40)
@given(rng=st.randoms(use_true_random=False))
def test_reference_rules_differ_only_on_revisited_final_tile(rng):
    """§7.4: premove sowings are live sowings; the extra live ones revisit their final tile."""
    b = N.sparse_board(rng, max_stacks=6, max_height=6)
    live, premove = set(N.sowings(b, N.LIVE)), set(N.sowings(b, N.PREMOVE))
    assert premove <= live
    assert all(p[-1] in p[:-1] for _, p, _ in live - premove)


# ---------------------------------------------------------------------------------------------
# part 2: the kernel against the reference on random boards


def assert_same_counts(FT, b: np.ndarray, rule: int) -> None:
    want, got = N.sowing_counts(b, rule), kernel_counts(FT, b, rule)
    diff = {k: (want[k], got[k]) for k in N.COUNT_NAMES if want[k] != got[k]}
    assert not diff, f"board {N.board_dict(b)}, rule {RULE_IDS[rule]}: (naive, kernel) {diff}"


def assert_same_sowings(FT, b: np.ndarray, rule: int) -> None:
    got = kernel_sowings(FT, b, rule)
    assert len(got) == len(set(got)), f"duplicates, board {N.board_dict(b)}, {RULE_IDS[rule]}"
    want = set(N.sowings(b, rule))
    missing, extra = sorted(want - set(got))[:3], sorted(set(got) - want)[:3]
    assert not missing and not extra, (
        f"board {N.board_dict(b)}, rule {RULE_IDS[rule]}: missing {missing}, extra {extra}")


def test_kernel_count_names(FT):
    assert tuple(FT.COUNT_NAMES) == N.COUNT_NAMES


@pytest.mark.parametrize("rule", RULES, ids=RULE_IDS)
@settings(max_examples=200)
@given(rng=st.randoms(use_true_random=False))
def test_kernel_counts_opening_boards(FT, rule, rng):
    assert_same_counts(FT, N.opening_board(rng), rule)


@pytest.mark.parametrize("rule", RULES, ids=RULE_IDS)
@settings(max_examples=200)
@given(rng=st.randoms(use_true_random=False),
       shape=st.sampled_from([(8, 5), (30, 4), (4, 6)]))
def test_kernel_counts_sparse_boards(FT, rule, rng, shape):
    assert_same_counts(FT, N.sparse_board(rng, *shape), rule)


@settings(max_examples=30)
@given(rng=st.randoms(use_true_random=False), opening=st.booleans())
def test_kernel_sowing_lists(FT, rng, opening):
    b = N.opening_board(rng) if opening else N.sparse_board(rng, max_stacks=6, max_height=6)
    for rule in RULES:
        assert_same_sowings(FT, b, rule)


DEEP = [
    {"r1c1": "GGGGGGGY"},
    {"r2c2": "GGGGGGYY", "r1c2": "G", "r3c3": "Y", "r2c4": "GY"},
    {"r0c0": "WWWWWWWB", "r1c1": "W", "r0c2": "B"},
    {"r2c2": "YYYYYYR", "r2c3": "R", "r0c2": "Y", "r4c2": "RY"},
]


@pytest.mark.parametrize("rule", RULES, ids=RULE_IDS)
@pytest.mark.parametrize("stacks", DEEP, ids=[",".join(d) for d in DEEP])
def test_kernel_deep_stacks(FT, rule, stacks):
    """Stacks of 7-8 (two colours, so the reference stays quick): start-tile endings."""
    b = N.board(stacks)
    assert_same_counts(FT, b, rule)
    assert_same_sowings(FT, b, rule)
