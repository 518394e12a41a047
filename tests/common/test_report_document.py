"""The report page, by hand on tiny tables, with no games simulated:

* ``reports.numbers``: whole numbers without decimals, p-values never ``0.0000``;
* ``reports.document``: sections in their order (summary first, provenance last), every
  table cell through ``numbers`` or its column's own format, every chart's PNG titled;
* ``reports.summary``: the headline figures, the largest imbalance and the words;
* ``reports.batch``: the title and the run facts (the blocks a run was really cut into);
* ``reports.plots``: legends clear of the plot and its labels (and the check that says
  so catches a legend that is not), stacked bars with error bars, category order.
"""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib.image
import numpy as np
import pandas as pd
import pytest
from matplotlib.container import ErrorbarContainer

from oddsbot.reports import batch, document, figures, numbers, plots
from oddsbot.reports.sections import chart, proportion, stacked_chart
from oddsbot.reports.spec import RunSpec
from oddsbot.reports.summary import Claim, headline_table, seat_claims, summary_section

from figure_checks import assert_legends_clear, assert_no_clipped_text, assert_titled, \
    legend_labels

WHOLE_WITH_DECIMALS = re.compile(r"^-?[\d,]+\.0+$")  # "85.0000": a count printed as a float

# ----------------------------------------------------------------- numbers


@pytest.mark.parametrize("value, text", [
    (85, "85"), (np.int16(85), "85"), (85.0, "85"), (np.float64(20000.0), "20,000"),
    (84.92761, "84.9276"), (5751.666666, "5,751.6667"), (0.0, "0"), (1.0, "1"),
    (0.00001, "0.0000"), (-3.0, "-3"), (float("nan"), ""), (None, ""), ("text", "text"),
    (True, "True"), (np.bool_(False), "False"),
])
def test_cell(value, text):
    assert numbers.cell(value) == text


@pytest.mark.parametrize("p, text", [
    (0.0, "< 0.0001"), (3e-47, "< 0.0001"), (0.0000999, "< 0.0001"), (0.0001, "0.0001"),
    (0.04321, "0.0432"), (0.8504, "0.8504"), (1.0, "1.0000"), (float("nan"), ""),
])
def test_p_value(p, text):
    assert numbers.p_value(p) == text


def test_counts():
    assert numbers.count(1, "game") == "1 game" and numbers.count(20000, "game") == "20,000 games"


def test_percentages():
    assert numbers.percent_interval(0.28758, 0.2814, 0.29394) == "28.8 % [28.1, 29.4]"
    assert numbers.points(0.0376) == "+3.8" and numbers.points(-0.4931) == "-49.3"


# ----------------------------------------------------------------- document


def tiny_report() -> document.Report:
    counts = pd.DataFrame({"variant": ["v", "v"], "turns": [3, 4], "games": [85, 15],
                           "wins": [42.5, 7.0], "p": [0.85, 0.15], "median": [85.0, 12.0]})
    test = pd.DataFrame({"variant": ["v", "w"], "chi2": [221.9668, 0.5],
                         "p_value": [0.0, 0.4793]})
    sections = [
        document.Section("Summary", "First.\n\nSecond.",
                         [document.Table("counts", "Counts", counts)],
                         [chart("bars", "Bars, 95% error bars",
                                lambda ax: ax.bar([0, 1], [1, 2], yerr=[0.1, 0.2]))]),
        document.Section("Seats", "", [document.Table("test", "Test", test,
                                                      formats={"p_value": numbers.p_value})]),
        document.Section("Provenance", "Made.", facts={"seed": 3, "blocks": "1 per variant"}),
    ]
    return document.Report("a report · 100 games", sections)


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> tuple[document.Report, Path]:
    report = tiny_report()
    out = tmp_path_factory.mktemp("doc")
    document.write(report, out)
    return report, out


def md_cells(md: str) -> list[str]:
    return [c.strip() for line in md.splitlines() if line.startswith("| ")
            for c in line.strip("|").split("|")]


def test_sections_in_order_summary_first_provenance_last(written):
    _, out = written
    md = (out / "report.md").read_text()
    page = (out / "report.html").read_text()
    assert re.findall(r"^## (.+)$", md, re.M) == ["Summary", "Seats", "Provenance"]
    assert re.findall(r"<h2>(.+?)</h2>", page) == ["Summary", "Seats", "Provenance"]
    assert "- **seed**: 3" in md and "<dt>blocks</dt><dd>1 per variant</dd>" in page
    assert "<p>First.</p><p>Second.</p>" in page


def test_cells_whole_numbers_and_p_values(written):
    _, out = written
    md = (out / "report.md").read_text()
    page = (out / "report.html").read_text()
    cells = md_cells(md)
    assert not [c for c in cells if WHOLE_WITH_DECIMALS.match(c)]
    assert "| v | 3 | 85 | 42.5000 | 0.8500 | 85 |" in md
    assert "| v | 221.9668 | < 0.0001 |" in md and "| w | 0.5000 | 0.4793 |" in md
    assert "<td>&lt; 0.0001</td>" in page and "0.0000" not in page
    assert (out / "tables" / "test.csv").read_text().splitlines()[1] == "v,221.9668,0"


def test_every_chart_png_carries_its_title(written):
    report, out = written
    (c,) = report.sections[0].charts
    assert_titled(c.figure, c.caption, report.title)
    assert_no_clipped_text(c.figure)
    png = matplotlib.image.imread(out / "charts" / "bars.png")
    top = png[: png.shape[0] // 12, :, :3]  # the title's band, above the axes
    assert (top < 0.5).any(), "no dark title pixels at the top of the PNG"
    assert '<figcaption' not in (out / "report.html").read_text()


# ----------------------------------------------------------------- summary

SPEC = RunSpec("g", ("v1", "v2"), 2, ("a", "b"), 100, 0)


def seats_table(wins: dict[str, tuple[float, float]], games: int = 100) -> pd.DataFrame:
    return pd.DataFrame([dict(variant=v, seat=s, policy=SPEC.policies[s], wins=w,
                              games=games, **proportion(w, games))
                         for v, ws in wins.items() for s, w in enumerate(ws)])


def seat_test(p_values: dict[str, float]) -> pd.DataFrame:
    return pd.DataFrame([dict(variant=v, games=100, chi2=9.5, df=1, p_value=p,
                              verdict="seat advantage (p < 0.05)" if p < 0.05
                              else "no evidence of a seat advantage")
                         for v, p in p_values.items()])


def test_headline_table_and_policies():
    seats = seats_table({"v1": (70.5, 29.5), "v2": (52, 48)})
    first = pd.DataFrame([dict(variant="v2", p=0.9, lo95=0.8, hi95=0.95)])
    table = headline_table(SPEC, seat_claims(seats, SPEC)
                           + [Claim("the host wins", first, 0.5)])
    assert table.columns.tolist() == ["variant", "finding", "p", "lo95", "hi95",
                                      "equal_share", "vs_equal"]
    assert list(table[["variant", "finding", "vs_equal"]].itertuples(index=False,
                                                                     name=None)) == [
        ("v1", "seat 0 wins", "above"), ("v1", "seat 1 wins", "below"),
        ("v2", "seat 0 wins", "within"), ("v2", "seat 1 wins", "within"),
        ("v2", "the host wins", "above")]
    section = summary_section(SPEC, seats, seat_test({"v1": 3e-9, "v2": 0.69}))
    found = section.tables[0].frame
    # two policies: their seats' shared wins, against their share of the seats
    policy = found[found.finding == "the seat playing a (0) wins"]
    assert policy.p.tolist() == [0.705, 0.52]
    assert policy.lo95.tolist() == [proportion(70.5, 100)["lo95"], proportion(52, 100)["lo95"]]


def test_summary_words():
    seats = seats_table({"v1": (70.5, 29.5), "v2": (52, 48)})
    section = summary_section(SPEC, seats, seat_test({"v1": 3e-9, "v2": 0.69}),
                              name=lambda s: "the host" if s == 0 else f"seat {s}")
    assert section.title == "Summary" and [t.name for t in section.tables] == ["summary"]
    v1, v2 = (p for p in section.text.split("\n\n") if p.startswith(("v1 ·", "v2 ·")))
    assert v1.startswith("v1 · 100 games, 2 players, seats playing a, b. Largest imbalance: ")
    assert "the host wins 70.5 % [" in v1  # the edge, not the shortfall of seat 1
    assert v2.endswith("No imbalance found: every interval contains its equal share.")
    assert "p < 0.0001: seat advantage (p < 0.05)." in section.text
    assert "p = 0.6900: no evidence of a seat advantage." in section.text
    assert "0.0000" not in section.text


# ----------------------------------------------------------------- batch


@pytest.mark.parametrize("games, block, text", [
    (20_000, 50_000, "1 per variant, of 20,000 games"),
    (1, 50_000, "1 per variant, of 1 game"),
    (100_000, 50_000, "2 per variant, of 50,000 games"),
    (120_000, 50_000, "3 per variant, of 50,000 games, the last of 20,000"),
    (1_500, 500, "3 per variant, of 500 games"),
])
def test_blocks_as_they_were(games, block, text):
    spec = RunSpec("g", ("v1", "v2"), 2, ("a", "a"), games, 0, block=block)
    assert batch.blocks_text(spec) == text
    assert max(b.n for b in spec.blocks()) <= games


@pytest.mark.parametrize("variants, games, title", [
    (("camel-up",), 2000, "oddsbot designer report: camel-up · 2,000 games, 4 players"),
    (("camel-up",), 1, "oddsbot designer report: camel-up · 1 game, 4 players"),
    (("camel-up-2014",), 2000,
     "oddsbot designer report: camel-up-2014 · 2,000 games, 4 players"),
    (("camel-up", "camel-up-2014"), 2000,
     "oddsbot designer report: camel-up vs camel-up-2014 · 2,000 games each, 4 players"),
])
def test_title(variants, games, title):
    assert batch.title(RunSpec("camel-up", variants, 4, ("heuristic",) * 4, games, 0)) == title


# ----------------------------------------------------------------- plots

MIX = pd.DataFrame([dict(group=g, kind=k, share=s, lo95=s - 0.02, hi95=s + 0.03)
                    for g in ("v1 · a", "v2 · a") for k, s in
                    zip(("ticket", "pyramid", "spectator", "winner_bet", "loser_bet",
                         "partner"), (0.5, 0.27, 0.04, 0.1, 0.06, 0.03))])


def test_stacked_bars_error_bars_and_legend_below():
    c = stacked_chart("mix", "Mix, 95% error bars", MIX, "group", "kind",
                      xlabel="share of the policy's actions", ylabel="variant · policy")
    (ax,) = c.figure.axes
    bars = [b for b in ax.containers if not isinstance(b, ErrorbarContainer)]
    kinds = list(dict.fromkeys(MIX.kind))
    assert legend_labels(c.figure) == kinds == [b.get_label() for b in bars]
    left = np.zeros(2)
    for kind, container in zip(kinds, bars):
        rows = MIX[MIX.kind == kind]
        segments = container.errorbar.lines[2][0].get_segments()
        ends = left + rows.share.to_numpy()
        assert [s[0][0] for s in segments] == pytest.approx(ends - 0.02)
        assert [s[1][0] for s in segments] == pytest.approx(ends + 0.03)
        left = ends
    figures.title(c.figure, c.caption, "a run")
    assert_legends_clear(c.figure)
    assert_no_clipped_text(c.figure)


def test_the_legend_check_catches_a_legend_over_the_x_label():
    """The fault this check exists for: the action mix of one policy as it was drawn, a
    legend a fixed share of the axes height below a short axes, over the x label."""
    one = MIX[MIX.group == "v1 · a"]
    c = chart("mix", "Mix", lambda ax: plots.stacked_bars(ax, one, "group", "kind",
                                                          xlabel="share of actions",
                                                          ylabel="variant · policy"),
              height=1.6 + 0.45)
    c.figure.legends.clear()
    c.figure.axes[0].legend(fontsize="small", ncols=3, loc="upper center",
                            bbox_to_anchor=(0.5, -0.18))
    with pytest.raises(AssertionError, match="legend covers"):
        assert_legends_clear(c.figure)


def test_grouped_bars_keep_the_order_of_named_categories():
    frame = pd.DataFrame(dict(variant=["v1"] * 3 + ["v2"] * 3,
                              end=["last camel", "no legal sowing", "both"] * 2,
                              p=[0.2, 0.7, 0.1] * 2, lo95=[0.1, 0.6, 0.05] * 2,
                              hi95=[0.3, 0.8, 0.2] * 2))
    c = chart("end", "End, 95% error bars",
              lambda ax: plots.grouped_bars(ax, frame, "end", "variant", xlabel="end",
                                            ylabel="share of games"))
    (ax,) = c.figure.axes
    assert [t.get_text() for t in ax.get_xticklabels()] == ["last camel", "no legal sowing",
                                                            "both"]
    assert plots.categories([3, 1, 2]) == [1, 2, 3]
    figures.title(c.figure, c.caption, "a run")
    assert legend_labels(c.figure) == ["v1", "v2"]
    assert_legends_clear(c.figure)
