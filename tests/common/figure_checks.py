"""Checks shared by the chart tests: figure sizes in pixels, a figure saved as PNG and SVG,
its bars, no text drawn outside a figure, legends clear of the plot, its labels and its
title, and the figure's own title."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import matplotlib.image
from matplotlib.container import BarContainer
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from oddsbot.reports import figures


def pixels(size: tuple[float, float]) -> tuple[int, int]:
    """(height, width) in pixels of a figure ``size`` in inches."""
    return round(size[1] * figures.DPI), round(size[0] * figures.DPI)


def assert_saves(fig: Figure, tmp_path: Path, size: tuple[float, float]) -> None:
    """Through ``figures.save`` (what the CLI calls): a PNG of exactly ``size`` at
    figures.DPI, an SVG that parses with an <svg> root."""
    png, svg = tmp_path / "chart.png", tmp_path / "chart.svg"
    figures.save(fig, png)
    figures.save(fig, svg)
    assert matplotlib.image.imread(png).shape == (*pixels(size), 4)
    assert ET.parse(svg).getroot().tag.rpartition("}")[2] == "svg"


def bars(ax) -> list[BarContainer]:
    """The bar containers of ``ax``."""
    return [c for c in ax.containers if isinstance(c, BarContainer)]


def undrawn_tick_labels(fig: Figure) -> set[int]:
    """ids of the tick labels matplotlib does not draw: their tick is outside the view."""
    out = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if not lo - 1e-9 <= tick.get_loc() <= hi + 1e-9:
                    out |= {id(tick.label1), id(tick.label2)}
    return out


def assert_no_clipped_text(fig: Figure) -> None:
    """Every drawn, non-empty text lies inside the figure (1 px tolerance)."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    undrawn = undrawn_tick_labels(fig)
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()
             and id(t) not in undrawn]
    assert texts
    for text in texts:
        ext = text.get_window_extent(renderer)
        assert (ext.x0 >= box.x0 - 1 and ext.y0 >= box.y0 - 1 and ext.x1 <= box.x1 + 1
                and ext.y1 <= box.y1 + 1), f"{text.get_text()!r} is clipped: {ext}"


def legends(fig: Figure) -> list[Legend]:
    """Every legend drawn on ``fig``: the axes' own and the figure's."""
    return [ax.get_legend() for ax in fig.axes if ax.get_legend()] + list(fig.legends)


def legend_labels(fig: Figure) -> list[str]:
    """The entries of the figure's one legend."""
    (legend,) = legends(fig)
    return [t.get_text() for t in legend.get_texts()]


def _overlap(a: Bbox, b: Bbox) -> bool:
    """Boxes share more than a pixel's sliver (touching edges do not count)."""
    return min(a.x1, b.x1) - max(a.x0, b.x0) > 1 and min(a.y1, b.y1) - max(a.y0, b.y0) > 1


def assert_legends_clear(fig: Figure) -> None:
    """Every legend lies inside the figure and covers neither an axes' plotting area nor
    its tick labels, axis labels or title, nor the figure's title."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    undrawn = undrawn_tick_labels(fig)
    others: list[tuple[str, Bbox]] = []
    for ax in fig.axes:
        others.append(("axes", ax.get_window_extent(renderer)))
        texts = [ax.xaxis.label, ax.yaxis.label, ax.title, *ax.get_xticklabels(),
                 *ax.get_yticklabels()]
        others += [(repr(t.get_text()), t.get_window_extent(renderer)) for t in texts
                   if t.get_visible() and t.get_text().strip() and id(t) not in undrawn]
    if fig._suptitle is not None and fig._suptitle.get_text():
        others.append(("title", fig._suptitle.get_window_extent(renderer)))
    box = fig.bbox
    for legend in legends(fig):
        ext = legend.get_window_extent(renderer)
        assert (ext.x0 >= box.x0 - 1 and ext.y0 >= box.y0 - 1 and ext.x1 <= box.x1 + 1
                and ext.y1 <= box.y1 + 1), f"legend outside the figure: {ext}"
        for what, other in others:
            assert not _overlap(ext, other), f"legend covers {what}: {ext} / {other}"


def assert_titled(fig: Figure, *lines: str) -> None:
    """The figure's own title (drawn inside the image, above every axes) reads
    ``lines``."""
    assert fig.get_suptitle().splitlines() == list(lines)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ext = fig._suptitle.get_window_extent(renderer)
    assert fig.bbox.x0 <= ext.x0 and ext.x1 <= fig.bbox.x1 and ext.y1 <= fig.bbox.y1
    for ax in fig.axes:
        assert ext.y0 >= ax.get_tightbbox(renderer).y1 - 1, "the title overlaps a chart"
