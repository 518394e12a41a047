"""Numbers as a report's readers see them: table cells, p-values, percentages and
estimates with their intervals. The tables' CSV files keep the full numbers; only the
page and the Markdown are rounded here.

Conventions: a whole number is written without decimals (counts, and quantiles of counts,
are whole; so is an exact 0 or 1); other numbers get a fixed count of decimals; thousands
are separated by commas; a missing value (None, NaN) is an empty cell.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

P_FLOOR = 1e-4  # smaller p-values are written "< 0.0001"


def cell(value: object, digits: int = 4) -> str:
    """A table cell: ``value`` with ``digits`` decimals, none if it is a whole number."""
    if value is None or isinstance(value, bool):
        return "" if value is None else str(value)
    if isinstance(value, Integral):
        return f"{int(value):,}"
    if isinstance(value, Real):
        x = float(value)
        if math.isnan(x):
            return ""
        return f"{int(x):,}" if x.is_integer() else f"{x:,.{digits}f}"
    return str(value)


def p_value(value: object) -> str:
    """A test's p-value to 4 decimals, ``< 0.0001`` below that (never ``0.0000``)."""
    if value is None or math.isnan(float(value)):
        return ""
    p = float(value)
    return f"< {P_FLOOR:.4f}" if p < P_FLOOR else f"{p:.4f}"


def count(n: int, noun: str) -> str:
    """``n`` things: ``1 game``, ``20,000 games``."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def percent(p: float) -> str:
    """A proportion (0..1) in percent with one decimal, e.g. ``28.8 %``."""
    return f"{100 * p:.1f} %"


def percent_interval(p: float, lo: float, hi: float) -> str:
    """A proportion and its 95 % interval in percent: ``28.8 % [28.1, 29.4]``."""
    return f"{percent(p)} [{100 * lo:.1f}, {100 * hi:.1f}]"


def points(d: float) -> str:
    """A difference of proportions in percentage points, signed: ``+3.8``."""
    return f"{100 * d:+.1f}"


def interval_text(value: float, lo: float, hi: float) -> str:
    """``value [lo95, hi95]``, 4 significant digits each (the variant comparison)."""
    return f"{value:.4g} [{lo:.4g}, {hi:.4g}]"
