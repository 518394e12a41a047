"""Chart shapes shared by designer reports: grouped bars (upright or lying) with 95 % error
bars, lines with 95 % bands, overlaid histograms with 95 % bands and stacked bars with 95 %
error bars.
Each draws on a given ``Axes`` from a tidy table (one row per bar or point with the
estimate and its ``lo95``, ``hi95`` columns).

Legends sit outside the axes in the space constrained layout reserves for them
(``legend``), so they never cover the data, the tick labels, the axis labels or the
title.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from . import palette, stats

RIGHT, BELOW = "right", "below"  # where ``legend`` puts a legend
BELOW_COLUMNS = 8  # entries per row of a legend below the axes (one row for every report chart)


def legend(ax: Axes, *, title: str | None = None, where: str = RIGHT) -> None:
    """The legend of ``ax``'s labelled artists, outside the axes: to the right of it, top
    aligned (``RIGHT``: the axes' own legend, which constrained layout keeps beside it),
    or under the x label (``BELOW``: a figure legend at the figure's foot, in rows of
    ``BELOW_COLUMNS``). None for fewer than two entries: the chart's title names a single
    series."""
    handles, labels = ax.get_legend_handles_labels()
    if len(handles) < 2:
        return
    if where == BELOW:
        ax.figure.legend(handles, labels, loc="outside lower center", title=title,
                         ncols=min(len(handles), BELOW_COLUMNS), fontsize="small",
                         frameon=False)
    else:
        ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.02, 1.0),
                  borderaxespad=0, title=title, fontsize="small", frameon=False)


def categories(values: Sequence) -> list:
    """Distinct ``values``: sorted if they are numbers, else in order of appearance (the
    order the table gives, e.g. end conditions or score parts)."""
    distinct = list(dict.fromkeys(values))
    numeric = all(isinstance(v, (int, float, np.integer, np.floating)) for v in distinct)
    return sorted(distinct) if numeric else distinct


def grouped_bars(ax: Axes, frame: pd.DataFrame, x: str, group: str, *, value: str = "p",
                 xlabel: str, ylabel: str, reference: float | None = None,
                 horizontal: bool = False, key: bool = True) -> None:
    """One bar per row at category ``x``, side by side per ``group``, with the 95 %
    interval as an error bar; an optional dashed ``reference`` level. ``horizontal``:
    the categories down the y axis, the first at the top, the bars along x (``xlabel`` and
    ``ylabel`` still label the x and y axes). ``key``: draw the legend (off for the
    other panels of a figure that shares one)."""
    groups = list(dict.fromkeys(frame[group]))
    cats = categories(frame[x])
    width = 0.8 / len(groups)
    draw, along = (ax.barh, "xerr") if horizontal else (ax.bar, "yerr")
    for i, g in enumerate(groups):
        rows = frame[frame[group] == g]
        pos = np.array([cats.index(c) for c in rows[x]]) + (i - (len(groups) - 1) / 2) * width
        err = np.vstack([rows[value] - rows["lo95"], rows["hi95"] - rows[value]])
        draw(pos, rows[value], width, **{along: err}, capsize=3, label=str(g),
             color=palette.series(i), edgecolor=palette.EDGE, linewidth=0.5)
    if reference is not None:
        (ax.axvline if horizontal else ax.axhline)(reference, color="#555555",
                                                   linestyle="--", linewidth=1)
    labels = [str(c) for c in cats]
    if horizontal:
        ax.set_yticks(range(len(cats)), labels)
        ax.set_ylim(len(cats) - 0.5, -0.5)  # the first category at the top
    else:
        ax.set_xticks(range(len(cats)), labels)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if key:
        legend(ax, title=group)


def band_lines(ax: Axes, frame: pd.DataFrame, x: str, group: str, *, value: str = "p",
               xlabel: str, ylabel: str) -> None:
    """One line per ``group`` over ``x`` with its 95 % band."""
    for i, g in enumerate(dict.fromkeys(frame[group])):
        rows = frame[frame[group] == g]
        colour = palette.series(i)
        ax.plot(rows[x], rows[value], marker="o", color=colour, label=str(g))
        ax.fill_between(rows[x], rows["lo95"], rows["hi95"], color=colour, alpha=0.2,
                        linewidth=0)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    legend(ax, title=group)


def histograms(ax: Axes, samples: dict[str, np.ndarray], *, xlabel: str,
               ylabel: str = "share of games") -> None:
    """Integer-valued samples per series as overlaid step histograms of shares, each
    value's share with its 95 % Wilson band."""
    lo = min(int(s.min()) for s in samples.values())
    hi = max(int(s.max()) for s in samples.values())
    bins = np.arange(lo, hi + 2) - 0.5
    for i, (name, s) in enumerate(samples.items()):
        colour = palette.series(i)
        counts, _ = np.histogram(s, bins=bins)
        low, high = stats.wilson(counts, len(s))
        ax.fill_between(bins, np.append(low, low[-1]), np.append(high, high[-1]),
                        step="post", color=colour, alpha=0.25, linewidth=0)
        ax.hist(s, bins=bins, weights=np.full(len(s), 1 / len(s)), histtype="step",
                linewidth=1.5, color=colour, label=name)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    legend(ax)


def stacked_bars(ax: Axes, frame: pd.DataFrame, row: str, part: str, *,
                 value: str = "share", xlabel: str, ylabel: str) -> None:
    """One horizontal bar per ``row`` split into its ``part`` values, each part with its
    95 % interval as an error bar at the part's end; the legend below the x label."""
    rows = list(dict.fromkeys(frame[row]))
    left = np.zeros(len(rows))
    right = 0.0
    for i, p in enumerate(dict.fromkeys(frame[part])):
        sub = frame[frame[part] == p].set_index(row).reindex(rows)
        width = sub[value].fillna(0).to_numpy()
        err = np.vstack([width - sub["lo95"], sub["hi95"] - width])  # nan: no interval
        ax.barh(range(len(rows)), width, left=left, xerr=err, color=palette.series(i),
                label=str(p), edgecolor=palette.EDGE, linewidth=0.5,
                error_kw={"ecolor": palette.EDGE, "capsize": 2, "elinewidth": 0.8})
        left += width
        right = max(right, float(np.nanmax(np.r_[left, left + err[1]])))
    ax.set_yticks(range(len(rows)), [str(r) for r in rows])
    ax.set_xlim(0, 1.02 * right)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    legend(ax, where=BELOW)


def evenly(indices: Sequence[int], most: int) -> list[int]:
    """At most ``most`` of ``indices``, evenly spaced, the first and the last always (the
    positions a replay chart samples the odds of)."""
    if len(indices) <= most:
        return list(indices)
    picks = np.unique(np.round(np.linspace(0, len(indices) - 1, most)).astype(int))
    return [indices[i] for i in picks]


def marked(n: int, markers: int) -> list[int]:
    """About ``markers`` of ``n`` points of a line, evenly spaced, the last always."""
    every = max(1, n // markers)
    return sorted({*range(0, n, every), n - 1})


def win_series(views: Sequence[tuple[int, object]], odds: Callable[[object], dict],
               players: int, result: tuple[int, Sequence[int]] | None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A replay chart's win chances: (x, ``[point, player]`` win probabilities, their
    SEs) of the positions ``views`` (x, position) by ``odds(position)`` (a face's odds
    result), then, for a finished game, its ``result`` (x, the winners)."""
    xs, p, se = [], [], []
    for x, pos in views:
        rows = odds(pos)["players"]
        xs.append(x)
        p.append([r["win_p"] for r in rows])
        se.append([0.0 if r["win_se"] is None else r["win_se"] for r in rows])
    if result is not None:
        xs.append(result[0])
        p.append([float(s in result[1]) for s in range(players)])
        se.append([0.0] * players)
    return np.array(xs), np.array(p), np.array(se)


NOW_ALPHA, NOW_HATCH = 0.35, "//"  # a position chart's score-now bars: pale and hatched


def now_and_final_legend(ax: Axes) -> None:
    """The legend of a position chart's score panel: the score now (pale, hatched bars)
    and the expected final score, outside the axes on the right."""
    from matplotlib.patches import Patch

    ax.legend(handles=[Patch(facecolor="#bbbbbb", alpha=NOW_ALPHA, hatch=NOW_HATCH,
                             edgecolor=palette.EDGE, label="score now"),
                       Patch(facecolor="#bbbbbb", edgecolor=palette.EDGE,
                             label="expected final score")],
              loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0,
              fontsize="small", frameon=False)
