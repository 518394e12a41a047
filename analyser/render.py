"""One result, four renderings: a rich table for people, JSON, CSV and Markdown for tools."""

from __future__ import annotations

import io
import json
import math
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

if TYPE_CHECKING:  # pandas loads with the game that makes the frame, not with --help
    import pandas as pd

FORMATS = ("table", "json", "csv", "markdown")
CAPTION_WIDTH = 80


def clean(value: Any) -> Any:
    """JSON-safe scalars: numpy types to Python, NaN to None."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def records(df: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows as dicts, leaving out the columns that do not apply to a row (NaN)."""
    out = []
    for row in df.to_dict(orient="records"):
        out.append({k: clean(v) for k, v in row.items() if clean(v) is not None})
    return out


def to_json(obj: Any) -> str:
    return json.dumps(obj, indent=2, default=clean)


def _cell(value: Any, digits: int) -> str:
    value = clean(value)
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def markdown(df: pd.DataFrame, digits: int = 4) -> str:
    head = "| " + " | ".join(df.columns) + " |"
    rule = "| " + " | ".join("---" for _ in df.columns) + " |"
    rows = ["| " + " | ".join(_cell(v, digits) for v in row) + " |"
            for row in df.itertuples(index=False)]
    return "\n".join([head, rule, *rows]) + "\n"


def csv(df: pd.DataFrame) -> str:
    buf = io.StringIO()
    df.to_csv(buf, index=False, float_format="%.10g")
    return buf.getvalue()


def rich_table(df: pd.DataFrame, title: str | None = None, caption: str | None = None,
               digits: int = 3) -> Table:
    shown = [c for c in df.columns if df[c].notna().any()]
    # a long caption widens a narrow table up to 80 columns rather than wrap tall
    table = Table(title=title, caption=caption, header_style="bold",
                  min_width=min(len(caption or ""), CAPTION_WIDTH))
    for col in shown:
        numeric = df[col].dtype.kind in "iufb"
        table.add_column(col, justify="right" if numeric else "left")
    for row in df[shown].itertuples(index=False):
        table.add_row(*(_cell(v, digits) for v in row))
    return table


def print_table(table: Table) -> None:
    """Print to stdout; when piped, wide enough that no column is cut."""
    probe = Console()
    Console(width=None if probe.is_terminal else 160, soft_wrap=False).print(table)
