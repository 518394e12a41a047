"""Tall stacks (docs/games/five-tribes.md §19.1.1, §19.3): every enumeration within its budget.

Covered:

* the closed-form counts of ``sowings.counts`` equal the enumerating kernel's on random
  boards with stacks up to 9 (all six, under both end rules); ``distinct_outcomes`` is
  None past its budget; draws within a stratum are uniform over its listed sequences;
  int64 counts hold boards of stacks up to ``INT_STACK``, and past them the ``random``
  policy's draws stay legal and in proportion;
* ``moves`` lists the first sequences up to its limit, and says so;
* the sampled turn table against the exact one, on a position where the exact one is
  feasible, the budget forced low: every sampled row is a row of the exact table with
  the same value and parts; rows with ``count_se`` 0 are exact; at least 99 % of the
  counts lie within 4 ``count_se`` of the exact counts (the bound the docs state) and
  90 % within 2; the same seed gives the same table, in any chunks; the row budget holds;
* positions past every budget (one stack of 8, 11 or 20, three of 20): ``advise`` gives
  a sampled table within the row budget, every (start, final tile, colour) present,
  each listed value equal to the turn played out; the greedy turn beyond its budget is
  the best turn of ``advise``'s sampled table with the same draws; ``legal_actions``
  refuses in one line.
"""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np
import pytest

import naive_five_tribes as naive
from five_tribes_positions import loop_board, random_opening, stacked, tall_boards
from naive_report import chi2_sf
from oddsbot.analyser.five_tribes import face as ft
from oddsbot.analyser.five_tribes import sowings, turns
from oddsbot.analyser.five_tribes.encode import encode
from oddsbot.errors import OddsbotError
from oddsbot.kernels import five_tribes as FT
from oddsbot.kernels.rng import stream

EXAMPLE = "examples/five-tribes-opening-4p.json"
CENTRE = 14  # r2c2


def example() -> ft.Position:
    with open(EXAMPLE) as f:
        return ft.parse(f.read())


def result(st: np.ndarray, action: np.ndarray) -> bytes:
    """The state after the turn ``action`` (the identity of a table row)."""
    s = st.copy()
    FT.apply_turn(s, action)
    return s.tobytes()


# --------------------------------------------------------------------------- sowings


@pytest.mark.parametrize("end_rule", [FT.LIVE, FT.PREMOVE])
def test_closed_form_counts_equal_the_enumeration(end_rule):
    for board in tall_boards(60, seed=7 + end_rule):
        want = dict(zip(FT.COUNT_NAMES, (int(x) for x in FT.sowing_counts(board, end_rule))))
        assert sowings.counts(board, end_rule) == want


def test_distinct_outcomes_past_their_budget(monkeypatch):
    board = FT.meeples(encode(example()))
    counts = sowings.counts(board, FT.LIVE)
    monkeypatch.setattr(sowings, "OUTCOME_WALKS", counts["distinct_paths"] - 1)
    past = sowings.counts(board, FT.LIVE)
    assert past == {**counts, "distinct_outcomes": None}
    assert "distinct outcomes not counted (over" in ft.counts_line(past)


@pytest.mark.parametrize("end_rule", [FT.LIVE, FT.PREMOVE])
def test_draws_within_a_stratum_are_uniform(end_rule):
    board = loop_board()
    starts, paths, colours, lengths = FT.sowings(board, end_rule)
    listed = defaultdict(set)
    for s, p, c, n in zip(starts, paths, colours, lengths):
        listed[(int(s), int(p[n - 1]), int(c[n - 1]))].add((tuple(p[:n]), tuple(c[:n])))
    found = sowings.census(board, end_rule)
    weights = FT.stratum_weights(found.terms)
    assert {tuple(map(int, h)) for h in found.strata} == set(listed)
    assert list(found.sizes) == [len(listed[tuple(map(int, h))]) for h in found.strata]
    rng, walks = stream(np.uint64(3 + end_rule), np.int64(0)), FT.walk_tables_once()[0]
    path, drops = np.zeros(FT.MAX_STACK, np.int64), np.zeros(FT.MAX_STACK, np.int64)
    chi2, dof = 0.0, 0
    for h, stratum in enumerate(found.strata):
        rows = listed[tuple(map(int, stratum))]
        draws = 40 * len(rows)
        seen = Counter()
        for _ in range(draws):
            n = FT.draw_in_stratum(board, walks, stratum, weights[h], rng, path, drops)
            seen[(tuple(path[:n]), tuple(drops[:n]))] += 1
        assert set(seen) == rows  # only this stratum's sequences, and each of them
        chi2 += sum((k - 40) ** 2 / 40 for k in seen.values())
        dof += len(rows) - 1
    assert chi2_sf(chi2, dof) > 1e-3, (chi2, dof)


def test_int64_counts_hold_boards_of_stacks_up_to_int_stack():
    board = np.zeros((FT.N_TILES, FT.N_COLOURS), dtype=np.int64)
    for tile in (7, 9, 14, 16, 20, 22):  # six stacks of 14, every colour: the most orders
        board[tile] = [3, 3, 3, 3, 2]
    board[[0, 5, 12, 17, 24, 29], [0, 1, 2, 3, 4, 4]] = 1  # the other 6 of the 90 meeples
    assert board.sum(axis=1).max() == FT.INT_STACK and board.sum() == 90
    closed = FT.count_sowings(board, FT.LIVE, FT.walk_tables_once(),
                              np.zeros(FT.N_TILES, np.int64),
                              np.zeros((FT.N_COLOURS, FT.MAX_STACK), np.int64))
    assert closed == sowings.census(board, FT.LIVE).total > 10**12


def legal(counts: np.ndarray, start: int, path: tuple, drops: tuple, end_rule: int) -> bool:
    """The sowing rules of docs/games/five-tribes.md §7.1 (``naive_five_tribes``)."""
    previous, here = -1, start
    for step in path:
        if step not in naive.neighbours(here) or step == previous:
            return False
        previous, here = here, step
    stack = [c for c in range(FT.N_COLOURS) for _ in range(counts[start, c])]
    return sorted(drops) == stack and naive.final_drop_ok(counts, start, path, drops,
                                                          end_rule)


def test_random_sowings_past_int64_counts():
    """The ``random`` policy on a board whose count passes 2**63: every draw legal, each
    (start, final tile, colour) drawn in proportion to its sequences."""
    board = FT.meeples(encode(example())).copy()
    board[CENTRE] = [4, 4, 4, 4, 4]  # a stack of 20 in every colour: the most orders
    found = sowings.census(board, FT.LIVE)
    assert found.total > 2**63
    rng, tables = stream(np.uint64(9), np.int64(0)), FT.walk_tables_once()
    path, drops = np.zeros(FT.MAX_STACK, np.int64), np.zeros(FT.MAX_STACK, np.int64)
    scratch = np.zeros(FT.N_TILES, np.int64), np.zeros((FT.N_COLOURS, FT.MAX_STACK), np.int64)
    draws = 4000
    seen = Counter()
    for _ in range(draws):
        start, n = FT.random_sowing(board, FT.LIVE, tables, rng, *scratch, path, drops)
        assert legal(board, int(start), tuple(path[:n]), tuple(drops[:n]), FT.LIVE)
        seen[(int(start), int(path[n - 1]), int(drops[n - 1]))] += 1
    share = np.array(found.sizes, dtype=float) / found.total
    expected = {tuple(map(int, h)): draws * p for h, p in zip(found.strata, share)}
    big = [k for k, e in expected.items() if e >= 5]
    cells = [(seen[k], expected[k]) for k in big]  # the rest pooled, if expected often
    rest = (draws - sum(seen[k] for k in big), draws - sum(expected[k] for k in big))
    cells += [rest] if rest[1] >= 5 else []
    chi2 = sum((o - e) ** 2 / e for o, e in cells)
    assert set(seen) <= set(expected) and chi2_sf(chi2, len(cells) - 1) > 1e-3, chi2


def test_moves_lists_the_first_sequences_up_to_the_limit(monkeypatch):
    pos = example()
    every = ft.moves(pos)[1]
    monkeypatch.setattr(sowings, "MOVES_LISTED", 50)
    counts, labels = ft.moves(pos)
    assert labels == every[:50] and counts["listed"] == 50
    assert counts["full_sequences"] == len(every) > 50
    assert ft.counts_line(counts).endswith(" · listing the first 50 (the limit)")


# --------------------------------------------------------------------------- sampled tables


@pytest.fixture(scope="module")
def exact_opening():
    """(state, {result: (parts, count)}) of the example's exact table."""
    st = encode(example())
    actions, parts, counts = FT.complete_turns(st)
    return st, {result(st, a): (p, c) for a, p, c in zip(actions, parts, counts)}


def test_sampled_table_against_the_exact_one(monkeypatch, exact_opening):
    st, exact = exact_opening
    monkeypatch.setattr(turns, "EXACT_SOWINGS", -1)  # sample a position exact can handle
    for seed in (0, 1):
        rows = turns.turn_rows(st, samples=3000, seed=seed)
        assert rows.sampled and rows.rounds == 10 and not rows.full
        found = [exact[result(st, a)] for a in rows.actions]  # each a row of the exact table
        for (parts, _), got in zip(found, rows.parts):
            assert (parts == got).all()
        truth = np.array([count for _, count in found], dtype=float)
        sure = rows.count_se == 0
        assert (rows.count[sure] == truth[sure]).all()
        z = np.abs(rows.count[~sure] - truth[~sure]) / rows.count_se[~sure]
        assert (z <= 4).mean() >= 0.99 and (z <= 2).mean() >= 0.90, np.sort(z)[-20:]
        best = max(parts[-1] for parts, _ in exact.values())
        assert rows.parts[:, -1].max() == best


def test_same_seed_same_table_in_any_chunks(monkeypatch):
    st = encode(example())
    monkeypatch.setattr(turns, "EXACT_SOWINGS", -1)
    once = turns.turn_rows(st, samples=700, seed=5)
    monkeypatch.setattr(turns, "DRAWS_PER_CHUNK", 7)
    again = turns.turn_rows(st, samples=700, seed=5)
    for field in ("actions", "parts", "count", "count_se"):
        assert np.array_equal(getattr(once, field), getattr(again, field)), field
    other = turns.turn_rows(st, samples=700, seed=6)
    assert not np.array_equal(once.actions, other.actions)


def test_the_row_budget_holds_and_the_exact_table_falls_back(monkeypatch):
    pos = example()
    monkeypatch.setattr(turns, "TABLE_ROWS", 3000)  # the exact table has 41,266
    df = ft.advise(pos, samples=100_000).frame()
    assert (df["method"] == "sampled").all() and len(df) <= 3000
    sampling = df.attrs["provenance"]["sampling"]
    assert sampling["table_rows"] == 3000 and sampling["drawn"] < 100_000


# --------------------------------------------------------------------------- past every budget


def tall(sizes: dict[int, int]) -> ft.Position:
    return ft.validate(stacked(example(), sizes))


@pytest.mark.parametrize("sizes", [{CENTRE: 20}, {CENTRE: 20, 0: 20, 29: 20}],
                         ids=["a 20-stack", "three 20-stacks"])
def test_advise_past_every_budget(sizes):
    pos = tall(sizes)
    st = encode(pos)
    df = ft.advise(pos).frame()
    assert (df["method"] == "sampled").all() and len(df) <= turns.TABLE_ROWS
    found = sowings.census(FT.meeples(st), FT.LIVE)
    assert found.total > turns.EXACT_SOWINGS
    chosen = {(row.sowing.split(">")[0], row.final_tile, row.taken[-1])
              for row in df.itertuples()}
    assert chosen == {(FT.tile_name(s), FT.tile_name(t), FT.COLOURS[c])
                      for s, t, c in found.strata}  # every (start, end, colour)
    rows = turns.turn_rows(st, samples=256)
    rng = np.random.default_rng(1)
    for i in rng.choice(len(rows.actions), 200, replace=False):
        s = st.copy()
        FT.apply_turn(s, rows.actions[i])
        assert (FT.state_scores(s)[pos.to_move] - FT.state_scores(st)[pos.to_move]
                == rows.parts[i]).all()
    drawn = df.attrs["provenance"]["sampling"]["drawn"]
    assert (f"sampled: only the turns of {drawn:,} of {found.total:,} sowings drawn"
            in ft.advise_caption(pos, df.attrs["provenance"]))


def test_greedy_past_its_budget_is_the_best_of_the_same_draws():
    pos = tall({CENTRE: 8})
    st = encode(pos)
    assert sowings.census(FT.meeples(st), FT.LIVE).total > FT.GREEDY_SOWINGS
    action, parts = FT.greedy_turn(st)
    rows = turns.turn_rows(st, samples=FT.GREEDY_DRAWS, seed=FT.GREEDY_SEED)
    assert not rows.full
    best = FT.best_turn(rows.actions, rows.parts)
    assert (action == rows.actions[best]).all() and (parts == rows.parts[best]).all()
    assert (FT.greedy_turn(st)[0] == action).all()  # a function of the position


def test_legal_actions_past_the_budget_refuse_in_one_line():
    with pytest.raises(OddsbotError) as err:  # listed (membership plays a label instead)
        list(ft.legal_actions(tall({CENTRE: 11})))
    assert "\n" not in str(err.value) and f"{turns.EXACT_SOWINGS:,}" in str(err.value)


def test_a_dealt_opening_stays_exact():
    pos = random_opening(4, 4)
    pos = ft.validate(pos.with_(phase="turns", bid_track=(), to_move=pos.bid_track[0],
                                turn_track=(*pos.bid_track, None, None, None, None, None)))
    assert set(ft.advise(pos)["method"]) == {"exact"}
