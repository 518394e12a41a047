"""The shared report skeleton, by hand on tiny tables, and the shared whole-game pieces:

* ``kernels.batch.record_chunk``, spread over threads by ``kernels.threads.rows``, seeds
  game r from streams (seed, 3r..3r+2) whatever the chunk size or the block's first game,
  and hands every game a zeroed row;
* ``reports.raw``: the shared columns of the per-game table and ``simulate_block``;
* ``reports.skeleton``: game length, end conditions, first player, variant comparison
  and the sections built from them; ``sections.policy_shares``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from numba import njit

from oddsbot.kernels.batch import N_STREAMS, record_chunk
from oddsbot.kernels.rng import stream
from oddsbot.kernels.threads import rows
from oddsbot.reports import raw, skeleton
from oddsbot.reports.document import Table
from oddsbot.reports.sections import policy_shares, proportion, seat_values, top_credit
from oddsbot.reports.spec import RunSpec, policy_codes

# ----------------------------------------------------------------- kernels.batch, threads

N_FIELDS = 2 * N_STREAMS + 2


@njit
def _scratch(context):
    return np.zeros(1, dtype=np.int64)


@njit
def _play(context, ws, streams, row):
    """Row: each stream's first two words (low 15 bits); the context's offset plus the
    row's sum on arrival (0: zeroed); the games the chunk's scratch has seen before."""
    (offset,) = context
    arrived = row.sum()
    for i in range(N_STREAMS):
        row[2 * i] = np.int64(streams[i, 0] & np.uint64(0x7FFF))
        row[2 * i + 1] = np.int64(streams[i, 1] & np.uint64(0x7FFF))
    row[2 * N_STREAMS] = offset + arrived
    row[2 * N_STREAMS + 1] = ws[0]
    ws[0] += 1


@njit(nogil=True)
def _range(offset, seed, game0, n):
    return record_chunk(_play, _scratch, (offset,), N_FIELDS, seed, game0, n)


def _record(offset, seed, game0, n, chunk):
    return rows(lambda g, k: _range(offset, seed, game0 + g, k), n, chunk)


def test_record_chunk_seeds_every_game_from_its_own_streams():
    seed = np.uint64(2**63 + 12345)
    whole = _record(7, seed, 0, 50, 64)
    assert whole.dtype == np.int16 and whole.shape == (50, N_FIELDS)
    for r in (0, 1, 17, 49):
        want = [int(w) & 0x7FFF for i in range(N_STREAMS)
                for w in stream(seed, N_STREAMS * r + i)[:2]]
        assert list(whole[r, :-2]) == want
    assert (whole[:, -2] == 7).all()  # every row zeroed before its game
    for game0, n, chunk in ((0, 50, 1), (0, 50, 3), (13, 20, 7), (49, 1, 64)):
        part = _record(7, seed, game0, n, chunk)
        np.testing.assert_array_equal(part[:, :-1], whole[game0:game0 + n, :-1])
        assert list(part[:, -1]) == [g % chunk for g in range(n)]  # one scratch a chunk
    assert not np.array_equal(_record(7, seed + np.uint64(1), 0, 50, 64), whole)


# ----------------------------------------------------------------- reports.raw


def test_shared_columns():
    rows = np.arange(3 * 10, dtype=np.int16).reshape(3, 10)
    cols = raw.game_columns("b", ("a", "b"), 40, 3)
    assert list(cols["game"]) == [40, 41, 42] and cols["game"].dtype == np.int64
    assert list(cols["variant"]) == ["b"] * 3 and list(cols["variant"].categories) == ["a", "b"]
    seats = raw.seat_columns(rows, "money", 2, 3)
    assert list(seats) == ["money_0", "money_1", "money_2"]
    np.testing.assert_array_equal(seats["money_2"], rows[:, 4])
    parts = raw.seat_part_columns(rows, "took_", ("x", "y"), 3, 2)
    assert list(parts) == ["took_x_0", "took_y_0", "took_x_1", "took_y_1"]
    np.testing.assert_array_equal(parts["took_y_1"], rows[:, 3 + 1 * 2 + 1])


def test_block_simulator_tables_the_raw_rows():
    calls = []

    def simulate_raw(variant_id, players, policies, seed, game0, n):
        calls.append((variant_id, players, policies, seed, game0, n))
        return np.full((n, 1), seed, dtype=np.int16)

    def raw_table(rows, variant_id, players, game0):
        return pd.DataFrame(raw.game_columns(variant_id, (variant_id,), game0, len(rows))
                            | raw.seat_columns(rows, "x", 0, 1))

    df = raw.block_simulator(simulate_raw, raw_table)("v", 2, ("p", "q"), 9, 5, 3)
    assert calls == [("v", 2, ("p", "q"), 9, 5, 3)]
    assert list(df["game"]) == [5, 6, 7] and list(df["x_0"]) == [9, 9, 9]


def test_policy_codes():
    codes = policy_codes(("b", "a", "b"), ("a", "b"))
    assert codes.dtype == np.int64 and list(codes) == [1, 0, 1]


# ----------------------------------------------------------------- reports.skeleton

SPEC = RunSpec("g", ("v1", "v2"), 2, ("p", "q"), 4, 0)
TINY = pd.DataFrame({  # 4 games of v1, 2 of v2
    "variant": ["v1"] * 4 + ["v2"] * 2,
    "rounds": [3, 4, 3, 3, 5, 5],
    "turns_0": [3, 4, 3, 3, 5, 5],
    "turns_1": [3, 4, 2, 3, 5, 4],
    "score_0": [10, 5, 7, 7, 1, 9],
    "score_1": [8, 6, 7, 2, 3, 9],
    "end": ["x", "y", "both", "x", "y", "y"],
    "first": [0, 1, 1, 0, 1, 0],
})
LENGTH = skeleton.Length("rounds", {
    "rounds": skeleton.column("rounds"),
    "turns": lambda g, players: seat_values(g, "turns", players).sum(axis=1),
})


def credit(g: pd.DataFrame, players: int) -> np.ndarray:
    return top_credit(seat_values(g, "score", players))


def test_length_tables():
    dist, summary = skeleton.length_tables(TINY, SPEC, LENGTH)
    assert list(dist.columns) == ["variant", "rounds", "games", "p", "lo95", "hi95"]
    assert list(dist[["variant", "rounds", "games"]].itertuples(index=False, name=None)) == [
        ("v1", 3, 3), ("v1", 4, 1), ("v2", 5, 2)]
    assert dist.p.tolist() == [0.75, 0.25, 1.0]
    assert list(summary[["variant", "measure", "statistic"]].drop_duplicates(
        ["variant", "measure"]).itertuples(index=False, name=None)) == [
        ("v1", "rounds", "mean"), ("v1", "turns", "mean"), ("v2", "rounds", "mean"),
        ("v2", "turns", "mean")]
    means = summary[summary.statistic == "mean"].value.tolist()
    assert means == pytest.approx([13 / 4, 25 / 4, 5, 19 / 2])


def test_category_and_first_player_tables():
    end = skeleton.category_table(TINY, SPEC, "end", ("x", "y", "both"))
    assert list(end[["variant", "end", "games"]].itertuples(index=False, name=None)) == [
        ("v1", "x", 2), ("v1", "y", 1), ("v1", "both", 1),
        ("v2", "x", 0), ("v2", "y", 2), ("v2", "both", 0)]
    first = skeleton.first_player_table(TINY, SPEC, credit, "first")
    # v1: seat 0 wins (first 0), seat 1 wins (first 1), tie (first 1: 1/2), seat 0 wins
    # (first 0); v2: seat 1 wins (first 1), tie (first 0: 1/2)
    assert first.wins.tolist() == [3.5, 1.5]
    assert first.games.tolist() == [4, 2] and first.equal_share.tolist() == [0.5, 0.5]
    assert first.p.tolist() == [3.5 / 4, 1.5 / 2]


def test_comparison_table_picks_and_unions():
    end = skeleton.category_table(TINY, SPEC, "end", ("x", "y", "both"))
    _, summary = skeleton.length_tables(TINY, SPEC, LENGTH)
    tables = {"length": summary, "end": end,
              "only_v1": pd.DataFrame([dict(variant="v1", p=0.5, lo95=0.25, hi95=0.75)])}
    picks = [*skeleton.length_picks(LENGTH),
             skeleton.Pick("P(x or both)", "end", lambda t: t[t.end.isin(["x", "both"])],
                           skeleton.UNION),
             skeleton.Pick("only v1", "only_v1", lambda t: t, "p")]
    table = skeleton.comparison_table(tables, SPEC, picks)
    assert table.measure.tolist() == ["mean rounds", "mean turns", "P(x or both)", "only v1"]
    union = proportion(3, 4)
    assert table.v1[2] == f"{0.75:.4g} [{union['lo95']:.4g}, {union['hi95']:.4g}]"
    assert table.v2[2].startswith("0 [0, ")
    assert table.v1[3] == "0.5 [0.25, 0.75]" and table.v2[3] == "n/a"
    one = RunSpec("g", ("v1",), 2, ("p", "q"), 4, 0)
    assert skeleton.variants_sections(tables, one, picks) == []
    [section] = skeleton.variants_sections(tables, SPEC, picks)
    assert section.title == "Variants side by side"
    assert [t.name for t in section.tables] == ["variants"]


def test_sections_name_their_tables_and_charts():
    dist, summary = skeleton.length_tables(TINY, SPEC, LENGTH)
    length = skeleton.length_section(TINY, SPEC, LENGTH, dist, summary, text="t")
    assert [(t.name, t.title) for t in length.tables] == [
        ("rounds", "Rounds per game"), ("length", "Rounds and turns")]
    assert [c.name for c in length.charts] == ["rounds", "turns"]
    end = skeleton.category_table(TINY, SPEC, "end", ("x", "y", "both"))
    assert [c.name for c in skeleton.end_section(end, "end", text="t").charts] == ["end"]
    seats = pd.DataFrame(dict(variant=["v1", "v1"], seat=[0, 1], p=[0.5, 0.5],
                              lo95=[0.2, 0.2], hi95=[0.8, 0.8]))
    plain = skeleton.seat_section(seats, seats, SPEC, xlabel="seat")
    assert plain.text == ("Win rate by seat, a tie sharing the win equally; the dashed line "
                          "is 1/players. The test is Pearson's chi-square of the seats' win "
                          "totals against equal win rates.")
    first = skeleton.seat_section(seats, seats, SPEC, xlabel="seat", note="Seats rotate.",
                                  first=(Table("first", "First", seats), "the host"))
    assert first.text.startswith("Win rate by seat, a tie sharing the win equally; the "
                                 "dashed line is 1/players. Seats rotate. The test is ")
    assert first.text.endswith(" The last table is the win rate of the host.")
    assert [t.name for t in first.tables] == ["seats", "seat_test", "first"]


def test_policy_shares_pool_the_seats_of_a_policy():
    games = pd.DataFrame({"variant": ["v1"] * 2, "took_a_0": [1, 0], "took_b_0": [1, 2],
                          "took_a_1": [3, 1], "took_b_1": [0, 0]})
    spec = RunSpec("g", ("v1",), 2, ("p", "p"), 2, 0)
    table = policy_shares(games, spec, ("a", "b"), prefix="took_", key="tribe", count="turns")
    assert list(table.columns) == ["variant", "policy", "tribe", "turns", "share", "lo95",
                                   "hi95"]
    assert list(table[["policy", "tribe", "turns"]].itertuples(index=False, name=None)) == [
        ("p", "a", 5), ("p", "b", 3)]
    assert table.share.tolist() == pytest.approx([5 / 8, 3 / 8])
