"""One result, four renderings: a rich table for people, JSON, CSV and Markdown for tools.

Tables arrive as ``analyser.table.Table`` (no pandas: see that module)."""

from __future__ import annotations

import csv as csv_module
import io
import json
import math
from typing import Any

from rich.console import Console
from rich.table import Table as RichTable

from .table import Table, plain

FORMATS = ("table", "json", "csv", "markdown")
CAPTION_WIDTH = 80
WIDE_WIDTH = 160  # columns of a piped --wide table


def to_json(obj: Any) -> str:
    """Indented JSON; numpy scalars as Python numbers; NaN and infinities, which JSON
    cannot hold (``json.dumps`` would write the non-standard ``NaN``), as null."""
    text = json.dumps(obj, indent=2, default=plain)
    if "NaN" in text or "Infinity" in text:  # rare: clean the values, then write again
        text = json.dumps(_finite(obj), indent=2, default=plain)
    return text


def _finite(obj: Any) -> Any:
    """``obj`` with every NaN or infinite float (numpy's too) replaced by None."""
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    value = plain(obj)
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _cell(value: Any, digits: int) -> str:
    value = plain(value)
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def markdown(table: Table, digits: int = 4) -> str:
    head = "| " + " | ".join(table.columns) + " |"
    rule = "| " + " | ".join("---" for _ in table.columns) + " |"
    rows = ["| " + " | ".join(_cell(v, digits) for v in row) + " |" for row in table.rows]
    return "\n".join([head, rule, *rows]) + "\n"


def _csv_cell(value: Any) -> Any:
    """A CSV cell: floats to 10 significant digits, a cell that does not apply empty."""
    value = plain(value)
    if value is None:
        return ""
    return format(value, ".10g") if isinstance(value, float) else value


def csv(table: Table) -> str:
    """The whole table as CSV with a header row (``\\n`` line ends)."""
    buf = io.StringIO()
    writer = csv_module.writer(buf, lineterminator="\n")
    writer.writerow(table.columns)
    writer.writerows([_csv_cell(v) for v in row] for row in table.rows)
    return buf.getvalue()


def rich_table(table: Table, title: str | None = None, caption: str | None = None,
               digits: int = 3) -> RichTable:
    """The table for people: columns that apply to no row left out, numbers right-aligned."""
    shown = [c for c in table.columns if any(v is not None for v in table[c])]
    view = table.select(shown)
    # a long caption widens a narrow table up to 80 columns rather than wrap tall
    out = RichTable(title=title, caption=caption, header_style="bold",
                    min_width=min(len(caption or ""), CAPTION_WIDTH))
    for col in shown:  # a long label wraps (a word longer than its column folds), never cut
        numeric = view.numeric(col)
        out.add_column(col, justify="right" if numeric else "left",
                       overflow="ellipsis" if numeric else "fold", no_wrap=numeric)
    for row in view.rows:
        out.add_row(*(_cell(v, digits) for v in row))
    return out


def print_table(table: RichTable, wide: bool = False) -> None:
    """Print to stdout, as wide as the terminal; when piped, ``$COLUMNS`` or 80 columns
    (labels wrap), and ``wide`` (--wide) up to ``WIDE_WIDTH`` so that no column is cut."""
    probe = Console()
    Console(width=None if probe.is_terminal or not wide else WIDE_WIDTH,
            soft_wrap=False).print(table)
