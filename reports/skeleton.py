"""The report skeleton every game shares, as tables and as sections: the game's length,
its end conditions, the seat advantage (with the first player's win rate) and the
variants side by side. A game passes its column names, labels and texts; its own
sections go between these.

Conventions as in the games' reports: a game's win is shared equally by tied seats
(``credit``: ``[game, seat]`` shares, rows summing to 1), every estimate has a 95 %
interval (``lo95``, ``hi95``): Wilson intervals for proportions, binomial-rank intervals
for quantiles, normal intervals for means over games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from . import numbers, plots
from .document import Section, Table
from .sections import by_variant, chart, proportion, summary_rows
from .spec import RunSpec

Measure = Callable[[pd.DataFrame, int], np.ndarray]  # (games, players) -> a value per game
Credit = Callable[[pd.DataFrame, int], np.ndarray]  # (games, players) -> [game, seat] shares
Select = Callable[[pd.DataFrame], pd.DataFrame]  # a table -> the rows a comparison picks


def column(name: str) -> Measure:
    """The per-game values of column ``name``."""
    return lambda g, _players: g[name].to_numpy()


class Length(NamedTuple):
    """How a game's length is counted: ``unit``, the column of the game's length unit
    (legs, rounds: a count per game), and ``measures``, the summary rows' measures in
    order (name -> values per game), "turns" among them (its histogram is charted)."""

    unit: str
    measures: Mapping[str, Measure]


class Pick(NamedTuple):
    """One row of the variant comparison: ``label``, and the column ``value`` (with its
    ``lo95`` and ``hi95``) of the first row that ``select`` keeps of table ``table``; value
    ``UNION``: the share of games in any of the rows kept (rows of a ``category_table``, so
    one game is in one row), with its own interval."""

    label: str
    table: str
    select: Select
    value: str


UNION = "union"


# --------------------------------------------------------------------------- tables


def length_tables(df: pd.DataFrame, spec: RunSpec, length: Length
                  ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(share of games by their count of ``length.unit``, summary rows of every measure)."""
    dist, summary = [], []
    for v, g in by_variant(df, spec):
        n = len(g)
        for count, k in g[length.unit].value_counts().sort_index().items():
            dist.append({"variant": v, length.unit: int(count), "games": int(k),
                         **proportion(k, n)})
        for name, values in length.measures.items():
            summary += summary_rows(values(g, spec.players), variant=v, measure=name)
    return pd.DataFrame(dist), pd.DataFrame(summary)


def category_table(df: pd.DataFrame, spec: RunSpec, name: str, categories: Sequence[str]
                   ) -> pd.DataFrame:
    """Share of games in each category of the categorical column ``name`` (the end
    conditions that held when the game ended), ``categories`` in order."""
    rows = []
    for v, g in by_variant(df, spec):
        for category in categories:
            k = int((g[name] == category).sum())
            rows.append({"variant": v, name: category, "games": k, **proportion(k, len(g))})
    return pd.DataFrame(rows)


def first_player_table(df: pd.DataFrame, spec: RunSpec, credit: Credit, seat: str
                       ) -> pd.DataFrame:
    """Win rate of the seat that column ``seat`` names in each game (the first player),
    ties shared, beside the equal share 1/players."""
    rows = []
    for v, g in by_variant(df, spec):
        won = credit(g, spec.players)
        k = float(won[np.arange(len(g)), g[seat].to_numpy()].sum())
        rows.append(dict(variant=v, games=len(g), wins=k, **proportion(k, len(g)),
                         equal_share=1 / spec.players))
    return pd.DataFrame(rows)


def comparison_table(tables: Mapping[str, pd.DataFrame], spec: RunSpec,
                     picks: Sequence[Pick]) -> pd.DataFrame:
    """Headline figures of every variant side by side, each as ``value [lo95, hi95]``
    ("n/a" where a variant has no such row)."""
    rows = []
    for label, name, select, col in picks:
        row = {"measure": label}
        chosen = select(tables[name])
        for v in spec.variants:
            hit = chosen[chosen.variant == v]
            if hit.empty:
                row[v] = "n/a"
            elif col == UNION:
                every = tables[name]
                p = proportion(int(hit.games.sum()), int(every[every.variant == v].games.sum()))
                row[v] = numbers.interval_text(p["p"], p["lo95"], p["hi95"])
            else:
                row[v] = numbers.interval_text(hit[col].iloc[0], hit.lo95.iloc[0],
                                               hit.hi95.iloc[0])
        rows.append(row)
    return pd.DataFrame(rows)


def mean_of(measure: str) -> Select:
    """The mean row of ``measure`` in a table of ``summary_rows``."""
    return lambda t: t[(t.measure == measure) & (t.statistic == "mean")]


def length_picks(length: Length) -> list[Pick]:
    """The comparison rows of the game's length: the mean of every measure (table
    "length")."""
    return [Pick(f"mean {name}", "length", mean_of(name), "value") for name in length.measures]


SEAT_PICK = Pick("P(seat 0 wins)", "seats", lambda t: t[t.seat == 0], "p")  # table "seats"


# --------------------------------------------------------------------------- sections


def length_section(df: pd.DataFrame, spec: RunSpec, length: Length, dist: pd.DataFrame,
                   summary: pd.DataFrame, *, text: str) -> Section:
    """The "Game length" section: the tables of ``length_tables`` (``dist``, ``summary``),
    the bars of ``dist`` and the histogram of turns per game; ``text`` says what the
    measures count."""
    unit = length.unit
    turns = length.measures["turns"]
    return Section(
        "Game length", text,
        [Table(unit, f"{unit.capitalize()} per game", dist),
         Table("length", " and ".join(length.measures).capitalize(), summary)],
        [chart(unit, f"Share of games by number of {unit}, 95% error bars",
               lambda ax: plots.grouped_bars(ax, dist, unit, "variant",
                                             xlabel=f"{unit} in the game (count)",
                                             ylabel="share of games")),
         chart("turns", "Share of games by number of turns, 95% bands",
               lambda ax: plots.histograms(ax, {v: turns(g, spec.players)
                                                for v, g in by_variant(df, spec)},
                                           xlabel="turns in the game (count)"))])


def end_section(end: pd.DataFrame, name: str, *, text: str) -> Section:
    """The "End of the game" section: the ``category_table`` ``end`` of column ``name`` and
    its bars; ``text`` says what the end conditions are."""
    return Section(
        "End of the game", text, [Table(name, "End conditions", end)],
        [chart(name, "Share of games by end condition, 95% error bars",
               lambda ax: plots.grouped_bars(ax, end, name, "variant", xlabel="end condition",
                                             ylabel="share of games"))])


def seat_section(seats: pd.DataFrame, seat_test: pd.DataFrame, spec: RunSpec, *,
                 xlabel: str, note: str = "", first: tuple[Table, str] | None = None
                 ) -> Section:
    """The "Seat advantage" section: the win rates and the test of ``sections.seat_tables``
    and their bars (x axis ``xlabel``). ``note``: what the seats mean in this game (whole
    sentences); ``first``: the first player's win rate (a ``first_player_table``) and who that
    player is, in words."""
    text = ("Win rate by seat, a tie sharing the win equally; the dashed line is 1/players. "
            + (note + " " if note else "")
            + "The test is Pearson's chi-square of the seats' win totals against equal win "
            "rates.")
    tables = [Table("seats", "Win rate by seat", seats),
              Table("seat_test", "Test of no seat advantage", seat_test,
                    formats={"p_value": numbers.p_value})]
    if first is not None:
        table, who = first
        text += f" The last table is the win rate of {who}."
        tables.append(table)
    return Section(
        "Seat advantage", text, tables,
        [chart("seats", "Win rate by seat, 95% error bars",
               lambda ax: plots.grouped_bars(ax, seats, "seat", "variant", xlabel=xlabel,
                                             ylabel="win rate (ties shared)",
                                             reference=1 / spec.players))])


def variants_sections(tables: Mapping[str, pd.DataFrame], spec: RunSpec,
                      picks: Sequence[Pick]) -> list[Section]:
    """The "Variants side by side" section (the ``comparison_table`` of ``picks``) when the
    run has more than one variant, else none. ``length_picks`` and ``SEAT_PICK`` read the
    tables "length" (the summary of ``length_tables``) and "seats"."""
    if len(spec.variants) < 2:
        return []
    return [Section("Variants side by side",
                    "Headline figures of every variant, each with its 95% interval.",
                    [Table("variants", "Variants compared",
                           comparison_table(tables, spec, picks))])]
