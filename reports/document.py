"""A report as sections of text, tables and charts, written three ways: a self-contained
HTML page (charts embedded as PNG data), Markdown (charts as files beside it) and one
CSV per table."""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from ..analyser import render
from . import figures

CSS = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto;
       padding: 0 1em; color: #222; line-height: 1.45; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th { background: #f2f2f2; } td.text { text-align: left; }
caption { caption-side: top; text-align: left; font-weight: 600; padding: 0.3em 0; }
figure { margin: 1em 0; } figcaption { font-size: 0.9em; color: #555; }
img { max-width: 100%; height: auto; }
dl { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dt { font-weight: 600; }
"""


@dataclass
class Table:
    name: str  # file stem of its CSV
    title: str
    frame: pd.DataFrame
    digits: int = 4


@dataclass
class Chart:
    name: str  # file stem of its PNG
    caption: str
    figure: Figure


@dataclass
class Section:
    title: str
    text: str = ""
    tables: list[Table] = field(default_factory=list)
    charts: list[Chart] = field(default_factory=list)


@dataclass
class Report:
    title: str
    provenance: dict[str, object]
    sections: list[Section]


def _cell(value: object, digits: int) -> str:
    return html.escape(render._cell(value, digits))


def _html_table(t: Table) -> str:
    df = t.frame
    numeric = [pd.api.types.is_numeric_dtype(df[c]) for c in df.columns]
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
    rows = []
    for row in df.itertuples(index=False):
        cells = "".join(f"<td>{_cell(v, t.digits)}</td>" if num
                        else f'<td class="text">{_cell(v, t.digits)}</td>'
                        for v, num in zip(row, numeric))
        rows.append(f"<tr>{cells}</tr>")
    return (f"<table><caption>{html.escape(t.title)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def _html_chart(c: Chart, png: bytes) -> str:
    data = base64.b64encode(png).decode("ascii")
    w, h = (int(round(x * figures.DPI)) for x in c.figure.get_size_inches())
    return (f'<figure><img src="data:image/png;base64,{data}" width="{w}" height="{h}" '
            f'alt="{html.escape(c.caption)}"><figcaption>{html.escape(c.caption)}'
            f"</figcaption></figure>")


def _provenance_html(prov: dict[str, object]) -> str:
    items = "".join(f"<dt>{html.escape(str(k))}</dt><dd>{html.escape(str(v))}</dd>"
                    for k, v in prov.items())
    return f"<dl>{items}</dl>"


def _paragraphs(text: str) -> str:
    return "".join(f"<p>{html.escape(p.strip())}</p>" for p in text.split("\n\n") if p.strip())


def write(report: Report, out: Path) -> list[Path]:
    """Write ``report.html``, ``report.md``, ``charts/<name>.png`` and
    ``tables/<name>.csv`` into the folder ``out``; returns the paths written."""
    (out / "charts").mkdir(exist_ok=True)
    (out / "tables").mkdir(exist_ok=True)
    written: list[Path] = []
    body = [f"<h1>{html.escape(report.title)}</h1>", "<h2>Provenance</h2>",
            _provenance_html(report.provenance)]
    md = [f"# {report.title}", "", "## Provenance", ""]
    md += [f"- **{k}**: {v}" for k, v in report.provenance.items()]
    for section in report.sections:
        body += [f"<h2>{html.escape(section.title)}</h2>", _paragraphs(section.text)]
        md += ["", f"## {section.title}", "", section.text.strip(), ""]
        for t in section.tables:
            path = out / "tables" / f"{t.name}.csv"
            path.write_text(render.csv(t.frame))
            written.append(path)
            body.append(_html_table(t))
            md += [f"**{t.title}**", "", render.markdown(t.frame, t.digits)]
        for c in section.charts:
            png = figures.png_bytes(c.figure)
            path = out / "charts" / f"{c.name}.png"
            path.write_bytes(png)
            written.append(path)
            body.append(_html_chart(c, png))
            md += [f"![{c.caption}](charts/{c.name}.png)", "", f"*{c.caption}*", ""]
    page = (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f"<title>{html.escape(report.title)}</title><style>{CSS}</style></head>"
            f"<body>{''.join(body)}</body></html>\n")
    (out / "report.html").write_text(page, encoding="utf-8")
    (out / "report.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    return written + [out / "report.html", out / "report.md"]
