"""Designer report tables and charts.

Every table CSV of a real run agrees with a naive recomputation from the raw per-game file
(``naive_report``); the table functions agree with answers worked out by hand on a tiny
hand-made raw file; every chart is inspected before it is saved (size, series, bar
heights and intervals against the tables, labels, no text outside the figure) and the
written PNGs are read back.
"""

from __future__ import annotations

import csv
import math
import numbers
import re
from pathlib import Path

import matplotlib.image
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgb
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.patches import Polygon

import naive_report as naive
from oddsbot.kernels.camel_up import KIND_NAMES, MAX_LEGS_LOGGED
from checks import full_run
from oddsbot.reports import batch, document, figures, stats
from oddsbot.reports.camel_up import report
from oddsbot.reports.document import Chart
from oddsbot.reports.spec import RunSpec
from figure_checks import (
    assert_legends_clear, assert_no_clipped_text, assert_titled, legend_labels, pixels,
)

SPEC = RunSpec("camel-up", ("camel-up", "camel-up-2014"), 4,
               ("heuristic", "random", "heuristic", "heuristic"), 3_000, 5, block=1_000)
REL = 1e-9  # CSV floats are written with 10 significant digits
ABS = 1e-12  # an interval end that is 0 in exact arithmetic may come out as 1e-17
BAR_CHARTS = {  # chart: (table, category column, dashed reference level)
    "legs": ("legs", "legs", None),
    "start_place": ("start_place", "start_place", 1 / 5),
    "seats": ("seats", "seat", 1 / SPEC.players),
}
DEFAULT_SIZE = (8, 4.2)  # inches, report._figure's default
SIZES = {
    "legs": DEFAULT_SIZE, "turns": DEFAULT_SIZE, "start_place": DEFAULT_SIZE,
    "leader_after_leg": DEFAULT_SIZE, "seats": DEFAULT_SIZE, "winner_money": DEFAULT_SIZE,
    "action_mix": (8, 4.0),  # 2.2 + 0.45 x (2 variants x 2 policies) inches high
}


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report") / "run"
    full_run(SPEC, out)
    return out


@pytest.fixture(scope="module")
def expected(run) -> dict[str, list[naive.Row]]:
    return naive.tables(run)


@pytest.fixture(scope="module")
def charts(run, tmp_path_factory) -> dict[str, Chart]:
    """Every chart of the report, as ``document.write`` saved it (titled)."""
    sections = report.report_sections(pd.read_parquet(run / "games.parquet"), SPEC)
    document.write(document.Report(batch.title(SPEC), sections), tmp_path_factory.mktemp("w"))
    return {c.name: c for s in sections for c in s.charts}


def read_csv(path: Path) -> tuple[list[str], list[list[str]]]:
    with path.open(newline="") as f:
        header, *rows = list(csv.reader(f))
    return header, rows


def same_cell(cell: str, want: object) -> bool:
    """A CSV cell against a naive value: ints written as ints and equal, floats to REL
    (within ABS of an exact 0), text equal."""
    if isinstance(want, float):
        got = float(cell)
        return abs(got) <= ABS if want == 0 else math.isclose(got, want, rel_tol=REL)
    return cell == str(want)


def rows_of(table: list[naive.Row], **keys: object) -> list[naive.Row]:
    return [r for r in table if all(r[k] == v for k, v in keys.items())]


# --------------------------------------------------------------------------- real run


def test_a_one_game_run_writes_its_report(tmp_path):
    """One game: estimates without a spread have no interval (empty cells), not a crash."""
    spec = RunSpec("camel-up", ("camel-up",), 4, ("heuristic",) * 4, 1, 2)
    full_run(spec, tmp_path / "one")
    md = (tmp_path / "one" / "report.md").read_text()
    assert md.startswith("# oddsbot designer report: camel-up · 1 game, 4 players\n")
    assert "camel-up · 1 game, 4 players, heuristic at every seat." in md


def test_the_run_wrote_every_table(run, expected):
    written = {p.stem for p in (run / "tables").glob("*.csv")}
    assert written == set(expected) | {"runs", "variants"}


@pytest.mark.parametrize("name", naive.TABLES)
def test_table_agrees_with_a_naive_recomputation(run, expected, name):
    header, rows = read_csv(run / "tables" / f"{name}.csv")
    want = expected[name]
    assert want, f"naive {name} is empty: nothing would be compared"
    assert header == list(want[0])
    assert len(rows) == len(want)
    for i, (cells, row) in enumerate(zip(rows, want)):
        for col, cell in zip(header, cells):
            assert same_cell(cell, row[col]), f"{name} row {i} {col}: {cell} != {row[col]!r}"


VARIANT_PICKS = {  # variants.csv row: (table, row keys, column quoted)
    "mean turns": ("length", {"measure": "turns", "statistic": "mean"}, "value"),
    "mean legs": ("length", {"measure": "legs", "statistic": "mean"}, "value"),
    "P(seat 0 wins)": ("seats", {"seat": 0}, "p"),
    "P(leading camel at the start wins)": ("start_place", {"start_place": 1}, "p"),
    "P(leader after leg 1 wins)": ("leader_after_leg", {"leg": 1}, "p"),
    "P(crazy camels decided the race)": ("crazy", {"measure": naive.DECIDED}, "value"),
    "mean winner money (EP)": ("winner_money", {"statistic": "mean"}, "value"),
}


def shown_4g(shown: str, want: float) -> bool:
    """``shown`` is ``want`` rounded to 4 significant digits."""
    if want == 0:
        return float(shown) == 0
    half_unit = 0.5 * 10 ** (math.floor(math.log10(abs(want))) - 3)
    return abs(float(shown) - want) <= half_unit * (1 + 1e-9)


def test_variants_table_quotes_the_other_tables(run, expected):
    header, rows = read_csv(run / "tables" / "variants.csv")
    assert header == ["measure", *SPEC.variants]
    assert [r[0] for r in rows] == list(VARIANT_PICKS)
    for measure, *cells in rows:
        table, keys, col = VARIANT_PICKS[measure]
        for v, cell in zip(SPEC.variants, cells):
            hit = rows_of(expected[table], variant=v, **keys)
            if not hit:
                assert cell == "n/a", (measure, v)
                continue
            (row,) = hit
            m = re.fullmatch(r"(\S+) \[(\S+), (\S+)\]", cell)
            assert m, (measure, v, cell)
            for shown, want in zip(m.groups(), (row[col], row["lo95"], row["hi95"])):
                assert shown_4g(shown, want), (measure, v, cell, want)
    assert any(c == "n/a" for r in rows for c in r[1:])  # camel-up-2014 has no crazy camels


@pytest.mark.parametrize("df", range(1, 8))  # 2..8 players
def test_chi2_p_values_agree_with_the_incomplete_gamma_function(df):
    for x in (1e-3, 0.3, 1, 2.5, df, 7.8, 14.07, 40, 150, 1000):
        assert math.isclose(stats.chi2_sf(x, df), naive.chi2_sf(x, df), rel_tol=REL), x


# --------------------------------------------------------------------------- tiny file

TINY_SPEC = RunSpec("camel-up", ("camel-up", "camel-up-2014"), 3,
                    ("heuristic", "random", "heuristic"), 6, 0)
# variant, money by seat, turns, legs, winner, start order (leading first), leaders after
# legs 1, 2, ..., crazy lead changes, crazy decided, actions by seat
TINY = [
    ("camel-up", (10, 7, 10), 60, 3, "blue", "BGYRP", ("green", "blue"), 0, False,
     ({"ticket": 2, "pyramid": 1}, {"pyramid": 3}, {"ticket": 1, "pyramid": 1})),
    # the race ended in leg 1: leg 1 was never scored and leg 2 never happened
    ("camel-up", (5, 12, 3), 40, 1, "yellow", "GYBRP", (), 0, False,
     ({"ticket": 1, "pyramid": 1}, {"ticket": 1, "pyramid": 1}, {"pyramid": 2})),
    ("camel-up", (8, 8, 8), 70, 4, "red", "PRBGY", ("red", "red", "green"), 2, True,
     ({"ticket": 3}, {"pyramid": 2, "spectator": 1}, {"ticket": 1, "pyramid": 1})),
    ("camel-up", (20, 1, 15), 90, 4, "purple", "BGYRP", ("purple", "blue", "purple"), 1,
     False, ({"pyramid": 2}, {"ticket": 2}, {"ticket": 2, "winner_bet": 1})),
    ("camel-up-2014", (9, 9, 2), 50, 3, "orange", "OBGYW", ("orange", "white"), 0, False,
     ({"ticket": 1, "loser_bet": 1}, {"pyramid": 2}, {"ticket": 1})),
    ("camel-up-2014", (4, 6, 11), 30, 2, "white", "BGOYW", ("green",), 0, False,
     ({"pyramid": 1}, {"ticket": 1, "pyramid": 1}, {"winner_bet": 1, "pyramid": 1})),
]


@pytest.fixture(scope="module")
def tiny() -> pd.DataFrame:
    """The games of ``TINY`` as a raw per-game table (columns of games.simulate_block)."""
    cols: dict[str, list] = {"variant": [g[0] for g in TINY]}
    for seat in range(TINY_SPEC.players):
        cols[f"money_{seat}"] = [g[1][seat] for g in TINY]
    cols["turns"] = [g[2] for g in TINY]
    cols["legs"] = [g[3] for g in TINY]
    cols["winner"] = [g[4] for g in TINY]
    cols["start_order"] = [g[5] for g in TINY]
    for k in range(MAX_LEGS_LOGGED):
        cols[f"leader_leg_{k + 1}"] = [g[6][k] if k < len(g[6]) else None for g in TINY]
    cols["crazy_lead_changes"] = [g[7] for g in TINY]
    cols["crazy_decided"] = [g[8] for g in TINY]
    for seat in range(TINY_SPEC.players):
        for kind in KIND_NAMES:
            cols[f"{kind}_{seat}"] = [g[9][seat].get(kind, 0) for g in TINY]
    df = pd.DataFrame(cols)
    colours = ["winner"] + [f"leader_leg_{k + 1}" for k in range(MAX_LEGS_LOGGED)]
    return df.astype({c: "category" for c in ["variant", *colours]})


def assert_rows(frame: pd.DataFrame, columns: list[str], want: list[tuple]) -> None:
    got = list(frame[columns].itertuples(index=False, name=None))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert len(g) == len(w), (g, w)
        for x, y in zip(g, w):
            if isinstance(y, numbers.Real) and not isinstance(y, bool):
                assert x == pytest.approx(y, rel=1e-12), (g, w)
            else:  # labels (and missing values) compare exactly
                assert x == y, (g, w)


def test_win_credit_shares_ties(tiny):
    np.testing.assert_allclose(report.win_credit(tiny, 3), [
        [1 / 2, 0, 1 / 2],  # 10 7 10: seats 0 and 2 tie
        [0, 1, 0],  # 5 12 3
        [1 / 3, 1 / 3, 1 / 3],  # 8 8 8: three-way tie
        [1, 0, 0],  # 20 1 15
        [1 / 2, 1 / 2, 0],  # 9 9 2
        [0, 0, 1],  # 4 6 11
    ], rtol=1e-12)


def test_seat_tables_by_hand(tiny):
    seats, test = report.seat_tables(tiny, TINY_SPEC)
    assert_rows(seats, ["variant", "seat", "policy", "wins", "games", "p"], [
        ("camel-up", 0, "heuristic", 11 / 6, 4, 11 / 24),  # 1/2 + 1/3 + 1
        ("camel-up", 1, "random", 4 / 3, 4, 1 / 3),  # 1 + 1/3
        ("camel-up", 2, "heuristic", 5 / 6, 4, 5 / 24),  # 1/2 + 1/3
        ("camel-up-2014", 0, "heuristic", 1 / 2, 2, 1 / 4),
        ("camel-up-2014", 1, "random", 1 / 2, 2, 1 / 4),
        ("camel-up-2014", 2, "heuristic", 1, 2, 1 / 2),
    ])
    # Wilson, k = 1, n = 2: centre 1/2, half = Z sqrt(1/8 + Z^2/16) / (1 + Z^2/2)
    assert seats.loc[5, ["lo95", "hi95"]].tolist() == pytest.approx(
        [0.09453120573423074, 0.9054687942657693], rel=1e-12)
    assert_rows(test, ["variant", "games", "chi2", "df", "p_value", "verdict"], [
        # expected 4/3 each: ((11/6 - 8/6)^2 + 0 + (5/6 - 8/6)^2) / (4/3) = 3/8;
        # df 2: p = exp(-chi2 / 2) = exp(-3/16)
        ("camel-up", 4, 3 / 8, 2, 0.8290291181804004, "no evidence of a seat advantage"),
        # expected 2/3 each: ((1/6)^2 + (1/6)^2 + (1/3)^2) / (2/3) = 1/4; exp(-1/8)
        ("camel-up-2014", 2, 1 / 4, 2, 0.8824969025845955, "no evidence of a seat advantage"),
    ])


def test_leader_table_by_hand(tiny):
    assert_rows(report.leader_table(tiny, TINY_SPEC),
                ["variant", "leg", "games", "leader_wins", "p"], [
        ("camel-up", 1, 3, 2, 2 / 3),  # green/blue no, red/red yes, purple/purple yes
        ("camel-up", 2, 3, 2, 2 / 3),  # blue/blue yes, red/red yes, blue/purple no
        ("camel-up", 3, 2, 1, 1 / 2),  # green/red no, purple/purple yes
        ("camel-up-2014", 1, 2, 1, 1 / 2),  # orange/orange yes, green/white no
        ("camel-up-2014", 2, 1, 0, 0),  # white/orange no
    ])


def test_start_place_table_by_hand(tiny):
    # camel-up winners: blue in BGYRP 1, yellow in GYBRP 2, red in PRBGY 2, purple in
    # BGYRP 5; camel-up-2014: orange in OBGYW 1, white in BGOYW 5
    assert_rows(report.start_place_table(tiny, TINY_SPEC),
                ["variant", "start_place", "wins", "games", "p"],
                [("camel-up", place, k, 4, k / 4) for place, k in zip(range(1, 6),
                                                                     (1, 2, 0, 0, 1))]
                + [("camel-up-2014", place, k, 2, k / 2) for place, k in zip(range(1, 6),
                                                                            (1, 0, 0, 0, 1))])


def test_length_tables_by_hand(tiny):
    legs, summary = report.length_tables(tiny, TINY_SPEC)
    assert_rows(legs, ["variant", "legs", "games", "p"], [
        ("camel-up", 1, 1, 1 / 4), ("camel-up", 3, 1, 1 / 4), ("camel-up", 4, 2, 1 / 2),
        ("camel-up-2014", 2, 1, 1 / 2), ("camel-up-2014", 3, 1, 1 / 2),
    ])
    # Wilson, k = 2, n = 4: centre 1/2, half = Z sqrt(1/16 + Z^2/64) / (1 + Z^2/4)
    assert legs.loc[2, ["lo95", "hi95"]].tolist() == pytest.approx(
        [0.15003898915214947, 0.8499610108478506], rel=1e-12)
    # n = 4, quantile ranks ceil(n q) with interval ranks floor / ceil(n q -/+ Z sqrt(n q
    # (1 - q))) (+ 1), clipped to [1, 4]: median 2 [1, 4], p10 1 [1, 3], p90 4 [2, 4];
    # n = 2: median 1, p10 1, p90 2, every interval [1, 2]
    assert_rows(summary, ["variant", "measure", "statistic", "value", "lo95", "hi95"], [
        # turns 40 60 70 90: mean 65, s^2 = (625 + 25 + 25 + 625) / 3, 65 -/+ Z sqrt(1300 / 12)
        ("camel-up", "turns", "mean", 65, 44.60004806602402, 85.39995193397598),
        ("camel-up", "turns", "median", 60, 40, 90),
        ("camel-up", "turns", "p10", 40, 40, 70),
        ("camel-up", "turns", "p90", 90, 60, 90),
        # legs 1 3 4 4: mean 3, s^2 = (4 + 0 + 1 + 1) / 3 = 2, 3 -/+ Z sqrt(2 / 4)
        ("camel-up", "legs", "mean", 3, 1.614096175650322, 4.385903824349678),
        ("camel-up", "legs", "median", 3, 1, 4),
        ("camel-up", "legs", "p10", 1, 1, 4),
        ("camel-up", "legs", "p90", 4, 3, 4),
        # turns 30 50: mean 40, s^2 = 200, 40 -/+ Z sqrt(200 / 2)
        ("camel-up-2014", "turns", "mean", 40, 20.40036015459946, 59.59963984540054),
        ("camel-up-2014", "turns", "median", 30, 30, 50),
        ("camel-up-2014", "turns", "p10", 30, 30, 50),
        ("camel-up-2014", "turns", "p90", 50, 30, 50),
        # legs 2 3: mean 2.5, s^2 = 1/2, 2.5 -/+ Z sqrt(1/2 / 2)
        ("camel-up-2014", "legs", "mean", 2.5, 1.520018007729973, 3.479981992270027),
        ("camel-up-2014", "legs", "median", 2, 2, 3),
        ("camel-up-2014", "legs", "p10", 2, 2, 3),
        ("camel-up-2014", "legs", "p90", 3, 2, 3),
    ])


def test_winner_money_table_by_hand(tiny):
    assert_rows(report.winner_money_table(tiny, TINY_SPEC),
                ["variant", "statistic", "value", "lo95", "hi95"], [
        # 10 12 8 20: mean 12.5, s^2 = (6.25 + 0.25 + 20.25 + 56.25) / 3 = 83/3,
        # 12.5 -/+ Z sqrt(83 / 12)
        ("camel-up", "mean", 12.5, 7.345381665295896, 17.654618334704104),
        ("camel-up", "median", 10, 8, 20),  # sorted 8 10 12 20, ranks 2 [1, 4]
        ("camel-up", "p10", 8, 8, 12),  # ranks 1 [1, 3]
        ("camel-up", "p90", 20, 10, 20),  # ranks 4 [2, 4]
        # 9 11: mean 10, s^2 = 2, se = 1: 10 -/+ Z
        ("camel-up-2014", "mean", 10, 8.040036015459947, 11.959963984540053),
        ("camel-up-2014", "median", 9, 9, 11),
        ("camel-up-2014", "p10", 9, 9, 11),
        ("camel-up-2014", "p90", 11, 9, 11),
    ])


def test_crazy_table_by_hand(tiny):
    assert_rows(report.crazy_table(tiny, TINY_SPEC), ["variant", "measure", "value", "lo95",
                                                      "hi95"], [
        # decided in 1 game of 4; Wilson: centre (1/4 + Z^2/8) / (1 + Z^2/4),
        # half Z sqrt(3/64 + Z^2/64) / (1 + Z^2/4)
        ("camel-up", naive.DECIDED, 1 / 4, 0.04558726080970055, 0.6993581574175981),
        # changes 0 0 2 1: mean 3/4, s^2 = (9/16 + 9/16 + 25/16 + 1/16) / 3 = 11/12,
        # 3/4 -/+ Z sqrt(11 / 48); no row for camel-up-2014 (no crazy camels)
        ("camel-up", naive.CHANGES, 3 / 4, -0.18826132451238609, 1.688261324512386),
    ])


def test_action_table_by_hand(tiny):
    table = report.action_table(tiny, TINY_SPEC)
    # (variant, policy): action totals by kind over its games, and all its actions
    totals = {
        # heuristic = seats 0 and 2: tickets 3 + 1 + 4 + 2, pyramid 2 + 3 + 1 + 2, one
        # winner bet; 19 actions (5 + 4 + 5 + 5)
        ("camel-up", "heuristic"): ({"ticket": 10, "pyramid": 8, "winner_bet": 1}, 19),
        # random = seat 1: pyramid 3 + 1 + 2, tickets 1 + 2, one spectator; 10 actions
        ("camel-up", "random"): ({"ticket": 3, "pyramid": 6, "spectator": 1}, 10),
        ("camel-up-2014", "heuristic"): ({"ticket": 2, "pyramid": 2, "winner_bet": 1,
                                          "loser_bet": 1}, 6),
        ("camel-up-2014", "random"): ({"ticket": 1, "pyramid": 3}, 4),
    }
    assert_rows(table, ["variant", "policy", "kind", "actions", "share"],
                [(v, p, kind, kinds.get(kind, 0), kinds.get(kind, 0) / n)
                 for (v, p), (kinds, n) in totals.items() for kind in KIND_NAMES])
    # camel-up heuristic tickets a = 3 1 4 2 of t = 5 4 5 5: r = 10/19, residuals a - r t
    # = 7 -21 26 -12 (/19), se = sqrt(1310/361 / (4 * 3)) / (19/4) = 0.11577047474539229
    assert table.loc[0, ["lo95", "hi95"]].tolist() == pytest.approx(
        [0.2994098284996114, 0.753221750447757], rel=1e-12)


# --------------------------------------------------------------------------- charts


def test_every_chart_has_its_size(charts):
    assert set(charts) == set(SIZES)
    for name, chart in charts.items():
        fig = chart.figure
        assert fig.dpi == figures.DPI, name
        h, w = pixels(SIZES[name])
        assert tuple(np.round(fig.get_size_inches() * fig.dpi)) == (w, h), name


def test_written_charts_are_pngs_of_that_size(run):
    written = {p.stem: p for p in (run / "charts").glob("*.png")}
    assert set(written) == set(SIZES)
    for name, path in written.items():
        assert matplotlib.image.imread(path).shape == (*pixels(SIZES[name]), 4), name


@pytest.mark.parametrize("name", SIZES)
def test_chart_labels_and_text_inside_the_figure(charts, name):
    chart = charts[name]
    (ax,) = chart.figure.axes
    assert ax.get_xlabel().strip()
    if name != "action_mix":  # its y axis is labelled by its bars' groups (checked below)
        assert ax.get_ylabel().strip()
    errorbars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    says = "error bars" in chart.caption
    assert bool(errorbars) == says and all((c.errorbar is not None) == says for c in bars)
    bands = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert bool(bands) == ("bands" in chart.caption)
    assert_no_clipped_text(chart.figure)
    assert_titled(chart.figure, chart.caption, batch.title(SPEC))
    assert_legends_clear(chart.figure)


@pytest.mark.parametrize("name", BAR_CHARTS)
def test_grouped_bars_draw_their_table(charts, expected, name):
    table, category, reference = BAR_CHARTS[name]
    (ax,) = charts[name].figure.axes
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert [c.get_label() for c in bars] == list(SPEC.variants) == legend_labels(ax.figure)
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks == [str(c) for c in sorted({r[category] for r in expected[table]})]
    label_at = dict(zip(np.round(ax.get_xticks()).astype(int), ticks))
    for v, container in zip(SPEC.variants, bars):
        segments = container.errorbar.lines[2][0].get_segments()
        got = {label_at[round(p.get_x() + p.get_width() / 2)]:
               (p.get_height(), seg[0][1], seg[1][1])
               for p, seg in zip(container.patches, segments)}
        want = {str(r[category]): (r["p"], r["lo95"], r["hi95"])
                for r in rows_of(expected[table], variant=v)}
        assert got.keys() == want.keys()
        for key, values in want.items():
            assert got[key] == pytest.approx(values, rel=REL, abs=ABS), (v, key)
    caps = {id(line) for c in bars for line in c.errorbar.lines[1]}
    levels = [line.get_ydata()[0] for line in ax.lines if id(line) not in caps]
    assert levels == ([] if reference is None else [pytest.approx(reference)])


def test_leader_chart_draws_its_table_with_bands(charts, expected):
    (ax,) = charts["leader_after_leg"].figure.axes
    assert [line.get_label() for line in ax.lines] == list(SPEC.variants) == \
        legend_labels(ax.figure)
    assert len(ax.collections) == len(SPEC.variants)
    for v, line, band in zip(SPEC.variants, ax.lines, ax.collections):
        rows = rows_of(expected["leader_after_leg"], variant=v)
        assert list(line.get_xdata()) == [r["leg"] for r in rows]
        assert list(line.get_ydata()) == pytest.approx([r["p"] for r in rows], rel=REL)
        assert tuple(band.get_facecolor()[0][:3]) == pytest.approx(to_rgb(line.get_color()))
        corners = band.get_paths()[0].vertices
        for r in rows:
            for end in (r["lo95"], r["hi95"]):
                assert np.hypot(*(corners - (r["leg"], end)).T).min() < 1e-9, (v, r["leg"])


def step_heights(poly: Polygon) -> dict[int, float]:
    """Bin centre -> height of a step histogram's outline (its horizontal segments)."""
    xy = poly.get_xy()
    return {round((x0 + x1) / 2): y0
            for (x0, y0), (x1, y1) in zip(xy[:-1], xy[1:]) if y0 == y1 and x1 > x0}


@pytest.mark.parametrize("name", ["turns", "winner_money"])
def test_histograms_draw_the_share_of_games_of_every_value(run, charts, name):
    spec, games = naive.load(run)
    (ax,) = charts[name].figure.axes
    polys = [p for p in ax.patches if isinstance(p, Polygon)]
    assert [p.get_label() for p in polys] == list(SPEC.variants) == legend_labels(ax.figure)
    value = {"turns": lambda g: int(g["turns"]),
             "winner_money": lambda g: naive.winner_money(g, spec["players"])}[name]
    samples = {v: [value(g) for g in games if g["variant"] == v] for v in SPEC.variants}
    span = range(min(map(min, samples.values())), max(map(max, samples.values())) + 1)
    bands = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert len(bands) == len(SPEC.variants)
    for v, poly, band in zip(SPEC.variants, polys, bands):
        share = naive.shares(samples[v])
        got = step_heights(poly)
        assert list(got) == list(span), v
        assert [got[x] for x in span] == pytest.approx([share.get(x, 0) for x in span],
                                                      rel=REL, abs=ABS), v
        assert tuple(band.get_facecolor()[0][:3]) == pytest.approx(to_rgb(poly.get_edgecolor()))
        corners = band.get_paths()[0].vertices  # a step band: both ends of every bin
        for x in span:
            k = round(share.get(x, 0) * len(samples[v]))
            for end in naive.wilson(k, len(samples[v])):
                assert np.hypot(*(corners - (x - 0.5, end)).T).min() < 1e-9, (v, x)


def test_action_mix_stacks_one_series_per_kind(charts, expected):
    (ax,) = charts["action_mix"].figure.axes
    rows = expected["action_mix"]
    groups = list(dict.fromkeys((r["variant"], r["policy"]) for r in rows))
    kinds = list(dict.fromkeys(r["kind"] for r in rows))
    assert len(groups) == len(SPEC.variants) * len(set(SPEC.policies))
    assert [t.get_text() for t in ax.get_yticklabels()] == [f"{v} · {p}" for v, p in groups]
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert [c.get_label() for c in bars] == kinds == legend_labels(ax.figure)
    left = np.zeros(len(groups))
    for kind, container in zip(kinds, bars):
        share = {(r["variant"], r["policy"]): r["share"] for r in rows if r["kind"] == kind}
        assert [round(p.get_y() + p.get_height() / 2) for p in container.patches] == \
            list(range(len(groups)))
        assert [p.get_width() for p in container.patches] == pytest.approx(
            [share[g] for g in groups], rel=REL, abs=ABS), kind
        assert [p.get_x() for p in container.patches] == pytest.approx(left, abs=1e-12)
        left += [share[g] for g in groups]
    assert left == pytest.approx(1)
