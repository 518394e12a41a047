"""Pieces every game's designer report is built from: the games of one variant at a
time, proportions and summaries with their 95 % intervals, the win share of tied seats,
the seat-advantage tables, the policies' shares of actions or turns and the report
charts."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from . import figures, plots, stats
from .document import Chart
from .spec import RunSpec

QUANTILES = (("median", 0.5), ("p10", 0.1), ("p90", 0.9))
STACKED_BASE, STACKED_ROW = 2.2, 0.45  # inches: a stacked chart's height, fixed and per bar


def by_variant(df: pd.DataFrame, spec: RunSpec) -> list[tuple[str, pd.DataFrame]]:
    """The games of each variant of the run, in the run's order."""
    return [(v, df[df["variant"] == v]) for v in spec.variants]


def proportion(k, n) -> dict[str, object]:
    """``k / n`` with its Wilson interval, the ends moved onto the estimate where
    rounding put them a hair past it (k = 0 or k = n: the interval ends at 0 or 1)."""
    p = k / n if n else np.nan
    lo, hi = (float(x) for x in stats.wilson(k, n))
    return {"p": p, "lo95": min(lo, p), "hi95": max(hi, p)}


def summary_rows(values: np.ndarray, **keys: object) -> list[dict[str, object]]:
    """Mean and quantiles of ``values`` with their intervals, one row each."""
    mean, lo, hi = stats.mean_ci(values)
    rows = [dict(keys, statistic="mean", value=mean, lo95=lo, hi95=hi)]
    for name, q in QUANTILES:
        value, lo, hi = stats.quantile_ci(values, q)
        rows.append(dict(keys, statistic=name, value=value, lo95=lo, hi95=hi))
    return rows


def seat_values(g: pd.DataFrame, name: str, players: int) -> np.ndarray:
    """``[game, seat]``: the per-seat columns ``<name>_<seat>`` of the games ``g``."""
    return g[[f"{name}_{p}" for p in range(players)]].to_numpy()


def top_seats(values: np.ndarray) -> np.ndarray:
    """``[game, seat]``: True for every seat with a game's highest value (all of a tie)."""
    return values == values.max(axis=1, keepdims=True)


def top_credit(values: np.ndarray) -> np.ndarray:
    """``[game, seat]``: 1/k for each of the k seats with a game's highest value (a tie
    shares the win equally), 0 for the others."""
    top = top_seats(values)
    return top / top.sum(axis=1, keepdims=True)


def seat_tables(df: pd.DataFrame, spec: RunSpec,
                credit: Callable[[pd.DataFrame, int], np.ndarray]
                ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(win rate by seat, chi-square test of equal win rates), a game's win shared by
    ``credit(games, players)`` (``[game, seat]``, rows summing to 1)."""
    rows, tests = [], []
    for v, g in by_variant(df, spec):
        wins = credit(g, spec.players).sum(axis=0)
        for seat, k in enumerate(wins):
            rows.append(dict(variant=v, seat=seat, policy=spec.policies[seat], wins=float(k),
                             games=len(g), **proportion(k, len(g))))
        stat, dof, p_value = stats.uniformity_test(wins)
        tests.append(dict(variant=v, games=len(g), chi2=stat, df=dof, p_value=p_value,
                          verdict="seat advantage (p < 0.05)" if p_value < 0.05
                          else "no evidence of a seat advantage"))
    return pd.DataFrame(rows), pd.DataFrame(tests)


def policy_shares(df: pd.DataFrame, spec: RunSpec, kinds: tuple[str, ...], *, prefix: str,
                  key: str, count: str) -> pd.DataFrame:
    """Share of each of ``kinds`` among the counts of all seats playing each policy (a
    seat's count of kind k per game in column ``<prefix><k>_<seat>``), with the ratio
    estimator's interval over games; the kind in column ``key``, its total in ``count``."""
    rows = []
    for v, g in by_variant(df, spec):
        for policy in dict.fromkeys(spec.policies):
            seats = [s for s, p in enumerate(spec.policies) if p == policy]
            counts = {kind: g[[f"{prefix}{kind}_{s}" for s in seats]].to_numpy().sum(axis=1)
                      for kind in kinds}
            total = sum(counts.values())
            for kind, num in counts.items():
                share, lo, hi = stats.ratio_ci(num, total)
                rows.append({"variant": v, "policy": policy, key: kind, count: int(num.sum()),
                             "share": share, "lo95": lo, "hi95": hi})
    return pd.DataFrame(rows)


def chart(name: str, caption: str, draw: Callable[[Axes], None], height: float = 4.2) -> Chart:
    """A report chart: an 8-inch-wide figure with one axes drawn by ``draw``."""
    fig = figures.figure(8, height)
    draw(fig.add_subplot())
    return Chart(name, caption, fig)


def stacked_chart(name: str, caption: str, frame: pd.DataFrame, row: str, part: str, *,
                  value: str = "share", xlabel: str, ylabel: str) -> Chart:
    """A chart of ``plots.stacked_bars``, ``STACKED_BASE`` inches high plus ``STACKED_ROW``
    per bar (the title, x label and the legend below it take the base)."""
    return chart(name, caption,
                 lambda ax: plots.stacked_bars(ax, frame, row, part, value=value,
                                               xlabel=xlabel, ylabel=ylabel),
                 height=STACKED_BASE + STACKED_ROW * frame[row].nunique())
