"""The result table (``analyser/table.py``) and its renderings agree with pandas: the
table is light so that ``advise`` starts fast, not different."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from oddsbot.analyser import render
from oddsbot.analyser.table import Table, plain

cells = st.one_of(st.none(), st.floats(allow_nan=False, allow_infinity=False, width=64),
                  st.integers(-10**6, 10**6))
columns = st.lists(st.sampled_from(["action", "ev", "se", "gap", "why"]), min_size=1,
                   max_size=5, unique=True)


@st.composite
def tables(draw) -> Table:
    names = draw(columns)
    rows = draw(st.lists(st.tuples(*[cells for _ in names]), max_size=8))
    return Table(tuple(names), tuple(rows), {"game": "test"})


def _numeric_frame(table: Table) -> pd.DataFrame:
    """The table as pandas builds it from the same rows (every column a float one)."""
    return pd.DataFrame([[math.nan if v is None else float(v) for v in row]
                         for row in table.rows], columns=list(table.columns), dtype=float)


@settings(max_examples=200, deadline=None)
@given(tables())
def test_csv_is_what_pandas_writes(table):
    expected = _numeric_frame(table).to_csv(index=False, float_format="%.10g",
                                            lineterminator="\n")
    assert render.csv(Table.from_frame(_numeric_frame(table))) == expected


@settings(max_examples=200, deadline=None)
@given(tables())
def test_frame_round_trip_keeps_cells_and_provenance(table):
    df = table.frame()
    assert df.attrs["provenance"] == {"game": "test"}
    back = Table.from_frame(df)
    assert back.columns == table.columns and back.provenance == table.provenance
    for row, again in zip(table.rows, back.rows):
        assert [None if v is None else float(v) for v in row] == \
            [None if v is None else float(v) for v in again]


def test_records_leave_out_cells_that_do_not_apply():
    table = Table.from_dicts([{"action": "a", "ev": 1.5}, {"action": "b", "se": 0.1}],
                             ["action", "ev", "se"])
    assert table.rows == (("a", 1.5, None), ("b", None, 0.1))
    assert table.records() == [{"action": "a", "ev": 1.5}, {"action": "b", "se": 0.1}]


def test_sorted_by_is_largest_first_and_stable():
    table = Table.from_columns({"action": ["a", "b", "c", "d"], "ev": [1.0, 2.0, 1.0, 3.0]})
    assert table.sorted_by("ev")["action"] == ["d", "b", "a", "c"]


def test_select_head_and_with_columns():
    table = Table.from_columns({"action": ["a", "b"], "ev": [1.0, 2.0]}, {"k": 1})
    wider = table.with_columns({"gap": [1.0, 0.0], "ev": [5.0, 6.0]})
    assert wider.columns == ("action", "ev", "gap") and wider["ev"] == [5.0, 6.0]
    assert wider.select(["gap", "action"]).rows == ((1.0, "a"), (0.0, "b"))
    assert len(wider.head(1)) == 1 and wider.head(1).provenance == {"k": 1}


def test_rich_table_aligns_numbers_and_drops_empty_columns():
    table = Table.from_dicts([{"action": "a", "ev": 1.25}], ["action", "ev", "se"])
    rich = render.rich_table(table)
    assert [c.header for c in rich.columns] == ["action", "ev"]
    assert [c.justify for c in rich.columns] == ["left", "right"]


def test_markdown_rows():
    table = Table.from_dicts([{"action": "a", "ev": 1.25}], ["action", "ev", "se"])
    assert render.markdown(table, digits=2) == ("| action | ev | se |\n| --- | --- | --- |\n"
                                                "| a | 1.25 |  |\n")


def test_from_frame_is_plain_of_every_cell():
    """``from_frame`` converts whole numeric columns at once; it gives what ``plain`` of each
    cell, row by row, gives: same values and Python types, NaN and missing as None,
    ``-0.0`` and infinities kept, pandas scalars (a timestamp, ``NA``) as they are."""
    n = 40
    rng = np.random.default_rng(7)
    df = pd.DataFrame({
        "int": rng.integers(-5, 5, n), "uint8": np.arange(n, dtype=np.uint8),
        "float": np.where(rng.random(n) < 0.3, np.nan, rng.random(n)),
        "float32": rng.random(n).astype(np.float32), "edge": [np.inf, -0.0, -np.inf, 0.0] * 10,
        "bool": rng.random(n) < 0.5, "str": pd.array(["a", None] * 20, dtype="str"),
        "object": [None if i % 3 else np.float64(1.5) for i in range(n)],
        "numpy_ints": [np.int64(i) for i in range(n)], "nullable": pd.array([1, None] * 20,
                                                                           dtype="Int64"),
        "time": pd.date_range("2026-01-01", periods=n), "category": pd.Categorical(["p", "q"] * 20),
    })
    want = tuple(tuple(plain(v) for v in row) for row in df.itertuples(index=False))
    got = Table.from_frame(df).rows
    assert len(got) == n
    for a, b in zip(got, want):
        assert [type(x) for x in a] == [type(y) for y in b]
        assert [repr(x) for x in a] == [repr(y) for y in b]
    assert Table.from_frame(pd.DataFrame(index=range(3))).rows == ((), (), ())
