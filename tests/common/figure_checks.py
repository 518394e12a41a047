"""Checks shared by the chart tests: figure sizes in pixels, and no text drawn outside
a figure."""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.text import Text

from oddsbot.reports import figures


def pixels(size: tuple[float, float]) -> tuple[int, int]:
    """(height, width) in pixels of a figure ``size`` in inches."""
    return round(size[1] * figures.DPI), round(size[0] * figures.DPI)


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
