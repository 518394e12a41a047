"""The designer report's HTML page in a real browser: opened in headless Chromium (Debian's
``chromium``, which ``.ci/run`` installs), every embedded chart loads at the pixel size of
its PNG, the page references nothing outside itself, and its title, its section headings
(the summary first, the provenance last) and every table caption are on the rendered
page. The same check catches a page with one image corrupted or linked to its chart file
instead of embedded. The page's cells: no whole number with decimals, no p-value of
0.0000, and run facts as the run was made.
"""

from __future__ import annotations

import base64
import html
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import matplotlib.image
import pandas as pd
import pytest
from checks import full_run
from oddsbot.reports import numbers
from oddsbot.reports.spec import RunSpec

SPEC = RunSpec("camel-up", ("camel-up", "camel-up-2014"), 4, ("heuristic",) * 4, 1_500, 1,
               block=500)
TITLE = "oddsbot designer report: camel-up vs camel-up-2014 · 1,500 games each, 4 players"
PNG_URI = "data:image/png;base64,"
URL_ATTRS = {"src", "href", "srcset", "action", "data", "poster", "background"}
EXTERNAL_TAGS = {"link", "script", "iframe", "object", "embed", "base"}
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync",
                  "--virtual-time-budget=10000", "--dump-dom")

# Run by the browser once the page and all its images have loaded: writes what it sees
# into <pre id="check"> so that it is part of the DOM Chromium dumps.
CHECK_SCRIPT = """<pre id="check"></pre><script>
window.addEventListener("load", () => {
  const text = (sel) => Array.from(document.querySelectorAll(sel), (e) => e.textContent);
  document.getElementById("check").textContent = JSON.stringify({
    title: document.title, h1: text("h1"), h2: text("h2"), captions: text("caption"),
    images: Array.from(document.images, (i) => ({
      complete: i.complete, width: i.naturalWidth, height: i.naturalHeight})),
  });
});
</script>"""


class Page(HTMLParser):
    """The parts of an HTML page these tests look at."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.images: list[str] = []  # src of every <img>, in page order
        self.urls: list[tuple[str, str, str]] = []  # (tag, attribute, value), non-<img>
        self.tags: set[str] = set()
        self.captions: list[str] = []
        self.styles: list[str] = []
        self._open: str | None = None  # "caption" or "style" while inside one
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        for name, value in attrs:
            if tag == "img" and name == "src":
                self.images.append(value or "")
            elif name in URL_ATTRS:
                self.urls.append((tag, name, value or ""))
        if tag in ("caption", "style"):
            self._open = tag
            (self.captions if tag == "caption" else self.styles).append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == self._open:
            self._open = None

    def handle_data(self, data: str) -> None:
        if self._open:
            target = self.captions if self._open == "caption" else self.styles
            target[-1] += data


def chromium() -> str:
    """The ``chromium`` executable; fails (never skips) the test when it is missing."""
    path = shutil.which("chromium")
    if path is None:
        pytest.fail("chromium not found: .ci/run installs it; locally: apt-get install "
                    "chromium")
    return path


def browser_view(page: str, work: Path) -> dict:
    """Open HTML text ``page`` in headless Chromium (from a file in the new folder
    ``work``, away from the report's own files) and return what the browser saw after
    the load event: title, h1 and caption texts, and each image's ``complete`` and
    natural pixel size."""
    work.mkdir()
    assert page.count("</body>") == 1
    path = work / "page.html"
    path.write_text(page.replace("</body>", CHECK_SCRIPT + "</body>"), encoding="utf-8")
    run = subprocess.run([chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={work / 'profile'}",
                          path.as_uri()], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, f"chromium exit {run.returncode}: {run.stderr[-2000:]}"
    found = re.search(r'<pre id="check">(.+?)</pre>', run.stdout, re.S)
    assert found, f"the check script did not run; chromium stderr: {run.stderr[-2000:]}"
    return json.loads(html.unescape(found.group(1)))  # the DOM dump escapes &, < and >


def not_loaded(view: dict) -> list[int]:
    """Indexes of the images the browser could not show."""
    return [i for i, img in enumerate(view["images"])
            if not (img["complete"] and img["width"] > 0 and img["height"] > 0)]


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    """A small two-variant report's run folder."""
    out = tmp_path_factory.mktemp("html") / "run"
    full_run(SPEC, out)
    return out


@pytest.fixture(scope="module")
def page(report) -> str:
    return (report / "report.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def view(page, tmp_path_factory) -> dict:
    """What Chromium saw of the report's page."""
    return browser_view(page, tmp_path_factory.mktemp("browser") / "report")


def test_every_chart_loads_in_chromium_at_its_png_size(report, page, view):
    charts = {p.read_bytes(): p for p in (report / "charts").glob("*.png")}
    srcs = Page(page).images
    assert charts and len(srcs) == len(charts) == page.count("<img")
    assert all(src.startswith(PNG_URI) for src in srcs)
    shown = [charts[base64.b64decode(src.removeprefix(PNG_URI), validate=True)]
             for src in srcs]  # KeyError: an embedded image that is no chart file
    assert len(set(shown)) == len(charts), "a chart is embedded twice, another never"

    assert len(view["images"]) == len(charts)
    assert not_loaded(view) == []
    for img, png in zip(view["images"], shown):
        height, width = matplotlib.image.imread(png).shape[:2]
        assert (img["width"], img["height"]) == (width, height), png.name


def test_page_is_self_contained(page):
    parsed = Page(page)
    assert parsed.urls == [], "the page links to other resources"
    assert not parsed.tags & EXTERNAL_TAGS
    assert parsed.images and all(src.startswith(PNG_URI) for src in parsed.images)
    assert parsed.styles and not any(re.search(r"url\(|@import", css) for css in parsed.styles)


def test_title_and_table_captions_are_on_the_rendered_page(report, page, view):
    captions = Page(page).captions
    assert len(captions) == len(list((report / "tables").glob("*.csv")))
    assert view["title"] == TITLE and view["h1"] == [TITLE]
    assert view["captions"] == captions
    assert view["h2"][0] == "Summary" and view["h2"][-1] == "Provenance"
    assert len(set(view["h2"])) == len(view["h2"])


def test_cells_and_facts(report, page):
    cells = re.findall(r"<td>([^<]*)</td>", page)  # the numeric cells
    assert cells and not [c for c in cells if re.fullmatch(r"-?[\d,]+\.0+", c)]
    for p in pd.read_csv(report / "tables" / "seat_test.csv").p_value:
        assert f"<td>{html.escape(numbers.p_value(p))}</td>" in page
    summary = page[page.index("<h2>Summary</h2>"):page.index("<h2>", page.index("<h2>") + 1)]
    for v in SPEC.variants:
        assert re.search(rf"<p>{v} · 1,500 games, 4 players, heuristic at every seat\. "
                         rf"(Largest imbalance: [^<]+ \[[^<]+\] of games against an equal "
                         rf"share of [^<]+ points \[[^<]+\]\.|No imbalance found: [^<]+\.)"
                         rf"</p>", summary)
    assert "<dt>blocks</dt><dd>3 per variant, of 500 games</dd>" in page
    assert "<dt>games per variant</dt><dd>1,500</dd>" in page


def corrupted(src: str) -> str:
    """``src``'s PNG with its signature zeroed: not an image any browser decodes."""
    png = bytearray(base64.b64decode(src.removeprefix(PNG_URI)))
    png[:8] = bytes(8)
    return PNG_URI + base64.b64encode(png).decode("ascii")


@pytest.mark.parametrize("breakage", [corrupted, lambda src: "charts/legs.png"],
                         ids=["corrupted-data", "chart-file-not-embedded"])
def test_a_broken_image_is_caught(page, tmp_path, breakage):
    srcs = Page(page).images
    broken = 1
    bad_src = breakage(srcs[broken])
    bad_page = page.replace(srcs[broken], bad_src, 1)
    assert Page(bad_page).images[broken] == bad_src
    view = browser_view(bad_page, tmp_path / "browser")
    assert not_loaded(view) == [broken]
