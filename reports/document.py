"""A report as sections of text, facts, tables and charts, written three ways: a
self-contained HTML page (charts embedded as PNG data), Markdown (charts as files beside
it) and one CSV per table.

Sections are written in their order: a report opens with its headline summary and ends
with its provenance (``batch.build``). Every chart's PNG carries its own title: the
chart's caption over the report's title, drawn inside the image.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from ..analyser import render
from ..analyser.table import Table as ResultTable
from ..outputs import make_folder, write_bytes, write_text
from . import figures, numbers

Format = Callable[[object], str]  # a cell's text, for a column that needs its own

CSS = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto;
       padding: 0 1em; color: #222; line-height: 1.45; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th { background: #f2f2f2; } td.text, th.text { text-align: left; }
caption { caption-side: top; text-align: left; font-weight: 600; padding: 0.3em 0; }
figure { margin: 1em 0; }
img { max-width: 100%; height: auto; }
dl { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dt { font-weight: 600; }
"""


@dataclass
class Table:
    name: str  # file stem of its CSV
    title: str
    frame: pd.DataFrame
    digits: int = 4  # decimals of numbers that are not whole (``numbers.cell``)
    formats: Mapping[str, Format] = field(default_factory=dict)  # column -> its own text


@dataclass
class Chart:
    name: str  # file stem of its PNG
    caption: str  # the chart's title, drawn in its PNG
    figure: Figure


@dataclass
class Section:
    title: str
    text: str = ""
    tables: list[Table] = field(default_factory=list)
    charts: list[Chart] = field(default_factory=list)
    facts: dict[str, object] = field(default_factory=dict)  # name -> value, as a list


@dataclass
class Report:
    title: str
    sections: list[Section]


def _cells(t: Table) -> list[list[str]]:
    """Every row of ``t`` as the texts shown on the page and in Markdown."""
    fmts = [t.formats.get(c, lambda v: numbers.cell(v, t.digits)) for c in t.frame.columns]
    return [[f(v) for f, v in zip(fmts, row)] for row in t.frame.itertuples(index=False)]


def _numeric(t: Table) -> list[bool]:
    return [pd.api.types.is_numeric_dtype(t.frame[c]) for c in t.frame.columns]


def _html_table(t: Table) -> str:
    numeric = _numeric(t)
    head = "".join(f"<th>{html.escape(str(c))}</th>" if num
                   else f'<th class="text">{html.escape(str(c))}</th>'
                   for c, num in zip(t.frame.columns, numeric))
    rows = ["<tr>" + "".join(f"<td>{html.escape(v)}</td>" if num
                             else f'<td class="text">{html.escape(v)}</td>'
                             for v, num in zip(row, numeric)) + "</tr>"
            for row in _cells(t)]
    return (f"<table><caption>{html.escape(t.title)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def _md_table(t: Table) -> str:
    rule = ["---:" if num else "---" for num in _numeric(t)]
    lines = [list(map(str, t.frame.columns)), rule, *_cells(t)]
    return "\n".join("| " + " | ".join(line) + " |" for line in lines) + "\n"


def _html_chart(c: Chart, png: bytes) -> str:
    data = base64.b64encode(png).decode("ascii")
    w, h = (int(round(x * figures.DPI)) for x in c.figure.get_size_inches())
    return (f'<figure><img src="data:image/png;base64,{data}" width="{w}" height="{h}" '
            f'alt="{html.escape(c.caption)}"></figure>')


def _paragraphs(text: str) -> str:
    return "".join(f"<p>{html.escape(p.strip())}</p>" for p in text.split("\n\n") if p.strip())


def _facts_html(facts: dict[str, object]) -> str:
    items = "".join(f"<dt>{html.escape(str(k))}</dt><dd>{html.escape(str(v))}</dd>"
                    for k, v in facts.items())
    return f"<dl>{items}</dl>" if facts else ""


def write(report: Report, out: Path) -> list[Path]:
    """Write ``report.html``, ``report.md``, ``charts/<name>.png`` (each titled with its
    caption and the report's title) and ``tables/<name>.csv`` into the folder ``out``;
    returns the paths written. Each file is written whole or not at all
    (``outputs.replacing``)."""
    make_folder(out / "charts")
    make_folder(out / "tables")
    written: list[Path] = []
    body = [f"<h1>{html.escape(report.title)}</h1>"]
    md = [f"# {report.title}"]
    for section in report.sections:
        body += [f"<h2>{html.escape(section.title)}</h2>", _paragraphs(section.text),
                 _facts_html(section.facts)]
        md += ["", f"## {section.title}", "", section.text.strip(), ""]
        md += [f"- **{k}**: {v}" for k, v in section.facts.items()]
        md += [""] if section.facts else []
        for t in section.tables:
            path = out / "tables" / f"{t.name}.csv"
            write_text(path, render.csv(ResultTable.from_frame(t.frame)))
            written.append(path)
            body.append(_html_table(t))
            md += [f"**{t.title}**", "", _md_table(t)]
        for c in section.charts:
            figures.title(c.figure, c.caption, report.title)
            png = figures.png_bytes(c.figure)
            path = out / "charts" / f"{c.name}.png"
            write_bytes(path, png)
            written.append(path)
            body.append(_html_chart(c, png))
            md += [f"![{c.caption}](charts/{c.name}.png)", ""]
    page = (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f"<title>{html.escape(report.title)}</title><style>{CSS}</style></head>"
            f"<body>{''.join(body)}</body></html>\n")
    write_text(out / "report.html", page)
    write_text(out / "report.md", "\n".join(md) + "\n")
    return written + [out / "report.html", out / "report.md"]
