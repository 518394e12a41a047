"""Chart shapes shared by designer reports: grouped bars with 95 % error bars, lines with
95 % bands, overlaid histograms and stacked shares. Each draws on a given ``Axes`` from a
tidy table (one row per bar or point with ``p``, ``lo95``, ``hi95`` columns)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from . import palette


def grouped_bars(ax: Axes, frame: pd.DataFrame, x: str, group: str, *, value: str = "p",
                 xlabel: str, ylabel: str, reference: float | None = None) -> None:
    """One bar per row at category ``x``, side by side per ``group``, with the 95 %
    interval as an error bar; an optional dashed ``reference`` level."""
    groups = list(dict.fromkeys(frame[group]))
    cats = sorted(set(frame[x]))
    width = 0.8 / len(groups)
    for i, g in enumerate(groups):
        rows = frame[frame[group] == g]
        pos = np.array([cats.index(c) for c in rows[x]]) + (i - (len(groups) - 1) / 2) * width
        err = np.vstack([rows[value] - rows["lo95"], rows["hi95"] - rows[value]])
        ax.bar(pos, rows[value], width, yerr=err, capsize=3, label=str(g),
               color=palette.series(i), edgecolor=palette.EDGE, linewidth=0.5)
    if reference is not None:
        ax.axhline(reference, color="#555555", linestyle="--", linewidth=1)
    ax.set_xticks(range(len(cats)), [str(c) for c in cats])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if len(groups) > 1:
        ax.legend(title=group, fontsize="small")


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
    ax.legend(title=group, fontsize="small")


def histograms(ax: Axes, samples: dict[str, np.ndarray], *, xlabel: str,
               ylabel: str = "share of games") -> None:
    """Integer-valued samples per series as overlaid step histograms of shares."""
    lo = min(int(s.min()) for s in samples.values())
    hi = max(int(s.max()) for s in samples.values())
    bins = np.arange(lo, hi + 2) - 0.5
    for i, (name, s) in enumerate(samples.items()):
        ax.hist(s, bins=bins, weights=np.full(len(s), 1 / len(s)), histtype="step",
                linewidth=1.5, color=palette.series(i), label=name)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize="small")


def stacked_shares(ax: Axes, frame: pd.DataFrame, row: str, part: str, *,
                   value: str = "share", xlabel: str, ylabel: str) -> None:
    """One horizontal bar per ``row`` split into its ``part`` shares (summing to 1)."""
    rows = list(dict.fromkeys(frame[row]))
    left = np.zeros(len(rows))
    for i, p in enumerate(dict.fromkeys(frame[part])):
        sub = frame[frame[part] == p].set_index(row).reindex(rows)[value].fillna(0).to_numpy()
        ax.barh(range(len(rows)), sub, left=left, color=palette.series(i), label=str(p),
                edgecolor=palette.EDGE, linewidth=0.5)
        left += sub
    ax.set_yticks(range(len(rows)), [str(r) for r in rows])
    ax.set_xlim(0, 1)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize="small", ncols=3, loc="upper center", bbox_to_anchor=(0.5, -0.18))
