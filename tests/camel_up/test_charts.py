"""Charts: ``oddsbot chart POSITION --out FILE`` and ``oddsbot replay RECORD --chart FILE``.

Figures are inspected before they are saved (axes, series, bar heights against the odds
they draw, palette colours, titles, no text outside the figure); saved files are read
back (PNG pixel size, SVG root).
"""

from __future__ import annotations

import errno
import os
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import matplotlib.image
import numpy as np
import pytest
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgb

from oddsbot.analyser.camel_up import face as cu
from oddsbot.analyser.camel_up.odds import leg_distribution, race_odds
from oddsbot.analyser.camel_up.record import load_record
from oddsbot.errors import OddsbotError
from oddsbot.analyser.montecarlo import Plan
from oddsbot.reports import palette
from oddsbot.reports.camel_up import charts

from faults import write_faults
from docs_blocks import oddsbot_script
from figure_checks import (
    assert_legends_clear, assert_no_clipped_text, assert_saves, bars, pixels,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
START_4P = EXAMPLES / "camel-up-start-4p.json"
GAME_4P = EXAMPLES / "camel-up-game-4p.record"
GAME_2014 = EXAMPLES / "camel-up-game-2014-3p.record"
SAMPLES = 2000
SEED = 3


def flat(text: str) -> str:
    """``text`` with every run of white space (wrapped lines) as one space."""
    return " ".join(text.split())



# --------------------------------------------------------------------------- position chart


POSITIONS = {
    "start-4p": lambda: cu.parse(START_4P.read_text()),
    "mid-leg": lambda: cu.parse((EXAMPLES / "camel-up-mid-leg.json").read_text()),
    "2014": lambda: cu.new_position(4, seed=1, variant_id="camel-up-2014"),
}


@pytest.fixture(scope="module", params=list(POSITIONS))
def position_case(request):
    pos = POSITIONS[request.param]()
    return pos, charts.position_chart(pos, samples=SAMPLES, seed=SEED)


def test_position_chart_leg_panel(position_case):
    pos, fig = position_case
    assert len(fig.axes) == 2
    leg_ax = fig.axes[0]
    colours = pos.rules.colours
    ranks = leg_distribution(pos).rank_probabilities
    stacked = bars(leg_ax)
    assert len(stacked) == 5 and all(len(c) == len(colours) == 5 for c in stacked)
    assert len(leg_ax.patches) == 25
    heights = np.array([[p.get_height() for p in c] for c in stacked]).T  # [camel, place]
    bottoms = np.array([[p.get_y() for p in c] for c in stacked]).T
    np.testing.assert_allclose(heights, ranks, rtol=0, atol=1e-12)
    np.testing.assert_allclose(bottoms, np.cumsum(ranks, axis=1) - ranks, atol=1e-12)
    np.testing.assert_allclose(heights.sum(axis=1), 1, rtol=0, atol=1e-12)
    for c, colour in enumerate(colours):
        style = palette.camel(colour)
        own = np.array(to_rgb(style.colour))
        faces = [np.array(c_[c].get_facecolor()[:3]) for c_ in stacked]
        np.testing.assert_allclose(faces[0], own)  # 1st place: the camel's colour
        # later places: paler and paler tints of it (mixed with white)
        shares = [np.max((f - own) / np.maximum(1 - own, 1e-9)) for f in faces]
        assert shares[0] == 0 and all(a < b for a, b in zip(shares, shares[1:]))
        for f, t in zip(faces, shares):
            np.testing.assert_allclose(f, (1 - t) * own + t, atol=1e-9)
        assert all(c_[c].get_hatch() in (style.hatch, None) for c_ in stacked)
    assert [t.get_text() for t in leg_ax.get_xticklabels()] == list(colours)
    assert leg_ax.get_ylim() == (0, 1) and "probability" in leg_ax.get_ylabel()


def test_position_chart_race_panel(position_case):
    pos, fig = position_case
    race_ax = fig.axes[1]
    colours = pos.rules.colours
    race = race_odds(pos, Plan(samples=SAMPLES), SEED)
    grouped = bars(race_ax)
    assert len(grouped) == 2 and all(len(c) == 5 for c in grouped)
    assert len(race_ax.patches) == 10
    for container, p, se in ((grouped[0], race.win, race.win_se),
                             (grouped[1], race.lose, race.lose_se)):
        np.testing.assert_array_equal([b.get_height() for b in container], p)
        assert container.errorbar is not None
        segments = container.errorbar.lines[2][0].get_segments()
        half = np.array([(s[1][1] - s[0][1]) / 2 for s in segments])
        np.testing.assert_allclose(half, 1.96 * se, atol=1e-12)
        for patch, colour in zip(container, colours):
            assert to_rgb(patch.get_facecolor()) == to_rgb(palette.camel(colour).colour)
    win_hatches = [b.get_hatch() or "" for b in grouped[0]]
    lose_hatches = [b.get_hatch() or "" for b in grouped[1]]
    assert all(w != lo for w, lo in zip(win_hatches, lose_hatches))
    assert [t.get_text() for t in race_ax.get_legend().get_texts()] == ["race winner",
                                                                        "race loser"]
    assert race_ax.get_ylim() == (0, 1) and "probability" in race_ax.get_ylabel()
    title = flat(fig.get_suptitle())
    assert pos.to_notation() in title
    expected = ((f"race: exact, {race.states:,} states",) if race.method == "exact" else
                ("Monte Carlo", f"{race.samples:,} races", f"seed {SEED}", "1.96 SE"))
    for words in ("exact enumeration",) + expected:
        assert words in title
    assert race_ax.get_title().endswith("exact" if race.method == "exact" else "1.96 SE")


def test_position_chart_files(position_case, tmp_path):
    _, fig = position_case
    assert_no_clipped_text(fig)
    assert_saves(fig, tmp_path, charts.POSITION_SIZE)


def test_position_chart_validates():
    bad = cu.parse(START_4P.read_text()).with_(pyramid=())
    with pytest.raises(OddsbotError, match="pyramid"):
        charts.position_chart(bad, samples=SAMPLES)


# --------------------------------------------------------------------------- replay chart


def record_head(turns: int) -> str:
    """The 4-player example record up to and including its turn ``turns``."""
    lines = GAME_4P.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("start"))
    return "\n".join(lines[:start + 1 + turns]) + "\n"


def new_legs(positions: list) -> list[int]:
    """Indices k with a fuller pyramid at positions[k] than at positions[k - 1]: a leg
    ended with the turn between them."""
    return [k for k in range(1, len(positions))
            if len(positions[k].pyramid) > len(positions[k - 1].pyramid)]


@pytest.fixture(scope="module", params=[GAME_4P, GAME_2014], ids=["4p", "2014-3p"])
def replay_case(request):
    _, steps = load_record(request.param.read_text())
    return steps, charts.replay_chart(steps, samples=SAMPLES, seed=SEED, title="a record")


def camel_lines(ax, colours) -> dict:
    return {line.get_label(): line for line in ax.lines if line.get_label() in colours}


def test_replay_chart_series(replay_case):
    steps, fig = replay_case
    assert steps.over
    (ax,) = fig.axes
    start = steps[0][0]
    colours = start.rules.colours
    lines = camel_lines(ax, colours)
    assert sorted(lines) == sorted(colours)
    first = race_odds(start, Plan(samples=SAMPLES, target_se=None), SEED).win
    for c, colour in enumerate(colours):
        line = lines[colour]
        style = palette.camel(colour)
        np.testing.assert_array_equal(line.get_xdata(), np.arange(len(steps) + 1))
        y = np.asarray(line.get_ydata())
        assert ((0 <= y) & (y <= 1)).all()
        assert y[0] == first[c]
        assert y[-1] == (1.0 if colour == steps.winner else 0.0)
        assert to_rgb(line.get_color()) == to_rgb(style.colour)
        assert line.get_marker() == style.marker
        # a value holds from its turn to the next: steps, not slopes between turns
        assert line.get_drawstyle() == "steps-post"
        assert len(steps) in line.get_markevery()  # the final odds are marked
    bands = [b for b in ax.collections if isinstance(b, PolyCollection)]
    assert [to_rgb(b.get_facecolor()[0]) for b in bands] == [
        to_rgb(palette.camel(c).colour) for c in colours]
    for band in bands:  # stepped too: every edge of its outline is level or upright
        dx, dy = np.diff(band.get_paths()[0].vertices, axis=0).T
        assert ((dx == 0) | (dy == 0)).all()
    assert ax.get_xlim()[1] > len(steps)  # the last step is not hidden by the frame
    expected = new_legs([pos for pos, _ in steps])
    assert len(expected) >= 2
    boundaries = [line for line in ax.lines if line.get_gid() == charts.BOUNDARY]
    assert [line.get_xdata()[0] for line in boundaries] == expected
    assert ax.get_xlabel().startswith("turn") and ax.get_ylabel() == "race-win probability"
    title = flat(fig.get_suptitle())
    assert "a record" in title and start.to_notation() in title
    exact = [race_odds(pos, Plan(samples=SAMPLES, target_se=None), SEED).method == "exact"
             for pos, _ in steps]
    if all(exact):  # a 2014 race always fits the budget (docs/games/camel-up.md §9.1)
        assert "race-win probability: exact at every turn" in title
    else:
        assert f"{SAMPLES:,} races per turn" in title and f"seed {SEED}" in title
        assert (f"exact at {sum(exact)} of" in title) == any(exact)


def test_a_second_pass_over_the_record_solves_no_race(replay_case, monkeypatch):
    """The chart solved (or counted and refused) the exact race of every turn: in the same
    process, every race of the record is then answered from ``odds._exact``'s cache
    (``EXACT_CACHE`` races: more than the 142 turns of the 2014 example)."""
    from oddsbot.analyser.camel_up import odds

    def solved_again(*args):
        raise AssertionError("a race of the record was solved again")

    steps, _ = replay_case
    monkeypatch.setattr(odds, "race_states", solved_again)
    monkeypatch.setattr(odds.K, "race_exact", solved_again)
    plan = Plan(samples=SAMPLES, target_se=None)
    assert len(steps) <= odds.EXACT_CACHE
    assert [race_odds(pos, plan, SEED).method for pos, _ in steps]


def test_replay_chart_files(replay_case, tmp_path):
    _, fig = replay_case
    assert_no_clipped_text(fig)
    assert_legends_clear(fig)
    assert_saves(fig, tmp_path, charts.REPLAY_SIZE)


def test_replay_chart_of_an_unfinished_game():
    """A record cut after the turn that ends the first leg: the last point is the race
    odds after that turn (read from the record one turn longer) and the leg's end is
    marked at the last turn."""
    _, steps = load_record(GAME_4P.read_text())
    positions = [pos for pos, _ in steps]
    n = new_legs(positions)[0]
    _, short = load_record(record_head(n))
    assert len(short) == n and not short.over
    fig = charts.replay_chart(short, samples=SAMPLES, seed=SEED)
    ax = fig.axes[0]
    plan = Plan(samples=SAMPLES, target_se=None)
    after = race_odds(positions[n], plan, SEED)
    colours = positions[0].rules.colours
    lines = camel_lines(ax, colours)
    for c, colour in enumerate(colours):
        assert lines[colour].get_ydata()[-1] == after.win[c]
    boundaries = [line for line in ax.lines if line.get_gid() == charts.BOUNDARY]
    assert [line.get_xdata()[0] for line in boundaries] == [n]


# --------------------------------------------------------------------------- command line


def test_cli_chart_png_and_svg(oddsbot_cli, tmp_path):
    png = tmp_path / "x.png"
    run = oddsbot_cli("chart", START_4P, "--out", png, "--samples", SAMPLES)
    assert (run.code, run.exc, run.out) == (0, None, "")
    assert len(run.err.strip().splitlines()) == 1 and str(png) in run.err
    assert matplotlib.image.imread(png).shape == (*pixels(charts.POSITION_SIZE), 4)
    svg = tmp_path / "x.svg"
    notation = cu.parse(START_4P.read_text()).to_notation()
    run = oddsbot_cli("chart", notation, "--out", svg, "--samples", SAMPLES, "--seed", 2)
    assert (run.code, run.exc) == (0, None)
    assert ET.parse(svg).getroot().tag.endswith("svg")


def assert_refused(run, *words: str) -> None:
    assert run.exc is None, run.tb
    assert run.code == 2 and run.out == ""
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("oddsbot: error:"), run.err
    assert "Traceback" not in run.err
    for word in words:
        assert word in lines[0]


@pytest.mark.parametrize("case", ["jpg", "no-folder", "input", "input-named-svg",
                                  "bad-position", "samples-0"])
def test_cli_chart_bad_input(oddsbot_cli, tmp_path, case):
    position = tmp_path / ("start.svg" if case == "input-named-svg" else "start.json")
    position.write_text(START_4P.read_text())
    out, extra, words = tmp_path / "x.png", [], ()
    if case == "jpg":
        out, words = tmp_path / "x.jpg", (".png or .svg",)
    elif case == "no-folder":
        out, words = tmp_path / "nope" / "x.png", ("does not exist",)
    elif case == "input":
        out, words = position, ("--out",)
    elif case == "input-named-svg":  # a position file that looks like an image
        out, words = position, ("input file",)
    elif case == "bad-position":
        position.write_text('{"game": "camel-up", "track": {"3": ["blue"]}, "pyramid": []}')
        words = ("track",)
    else:
        extra, words = ["--samples", "0"], ("--samples",)
    before = position.read_text()
    run = oddsbot_cli("chart", position, "--out", out, *extra)
    assert_refused(run, *words)
    assert position.read_text() == before
    assert not (out.exists() and out != position)


def short_record(tmp_path: Path, turns: int = 12) -> Path:
    """The first ``turns`` turns of the 4-player example record, as a file."""
    path = tmp_path / "short.record"
    path.write_text(record_head(turns))
    return path


def test_cli_replay_chart(oddsbot_cli, tmp_path):
    record = short_record(tmp_path)
    chart = tmp_path / "replay.png"
    run = oddsbot_cli("replay", record, "--samples", SAMPLES, "--format", "csv",
                      "--chart", chart)
    assert (run.code, run.exc) == (0, None), run.err
    assert len(run.out.strip().splitlines()) == 1 + 12  # the annotation, as without --chart
    assert str(chart) in run.err
    assert matplotlib.image.imread(chart).shape == (*pixels(charts.REPLAY_SIZE), 4)


@pytest.mark.parametrize("case", ["record", "jpg"])
def test_cli_replay_chart_refused(oddsbot_cli, tmp_path, case):
    record = short_record(tmp_path)
    before = record.read_text()
    chart = record if case == "record" else tmp_path / "replay.jpg"
    run = oddsbot_cli("replay", record, "--samples", SAMPLES, "--chart", chart)
    assert_refused(run, "--chart")
    assert record.read_text() == before


# --------------------------------------------------------------------------- outputs: identity, faults


def other_name(source: Path, kind: str, suffix: str) -> Path:
    """Another name of ``source`` ending in ``suffix``: a hard link or a symlink."""
    name = source.with_name(f"{kind}{suffix}")
    (os.link if kind == "hard" else os.symlink)(source, name)
    return name


def chart_args(command: str, source: Path, out: Path) -> list[object]:
    if command == "chart":
        return ["chart", source, "--out", out, "--samples", SAMPLES]
    return ["replay", source, "--samples", SAMPLES, "--chart", out]


@pytest.mark.parametrize("kind", ["hard", "soft"])
@pytest.mark.parametrize("command", ["chart", "replay"])
def test_an_output_that_is_another_name_of_the_input_is_refused(oddsbot_cli, tmp_path,
                                                                command, kind):
    """By file identity, not by name: a hard link or a symlink to the position or record
    is the input, whatever it is called."""
    source = short_record(tmp_path) if command == "replay" else tmp_path / "start.json"
    if command == "chart":
        source.write_text(START_4P.read_text())
    before = source.read_bytes()
    out = other_name(source, kind, ".svg")
    run = oddsbot_cli(*chart_args(command, source, out))
    assert_refused(run, "--out" if command == "chart" else "--chart", "input file",
                   source.name)
    assert source.read_bytes() == before and out.read_bytes() == before


def test_replay_from_stdin_refuses_the_file_stdin_reads(tmp_path):
    """``replay - --chart OUT < RECORD`` where OUT is a hard link to RECORD (a real
    process: standard input is the redirected file)."""
    record = short_record(tmp_path)
    before = record.read_bytes()
    out = other_name(record, "hard", ".png")
    with open(record, "rb") as stdin:
        proc = subprocess.run([oddsbot_script(), "replay", "-", "--samples", "100",
                               "--chart", out], stdin=stdin, capture_output=True, text=True,
                              timeout=300)
    assert (proc.returncode, proc.stdout) == (2, ""), proc.stderr
    assert proc.stderr.startswith("oddsbot: error: --chart: ") and "input file" in proc.stderr
    assert len(proc.stderr.splitlines()) == 1 and record.read_bytes() == before


@pytest.mark.parametrize("code, words", [(errno.ENOSPC, "No space left on device"),
                                         (errno.EACCES, "Permission denied")])
@pytest.mark.parametrize("command", ["chart", "replay"])
def test_a_chart_that_cannot_be_written_is_one_line(oddsbot_cli, monkeypatch, tmp_path,
                                                    command, code, words):
    """A full disk or a folder one may not write to: one error line naming the file and
    nothing before it, and neither a chart nor a partial file left (an older chart of
    that name is kept)."""
    source = short_record(tmp_path) if command == "replay" else START_4P
    out = tmp_path / "chart.png"
    out.write_bytes(b"an older chart")
    with write_faults(monkeypatch, lambda name: name == out.name, code) as refused:
        run = oddsbot_cli(*chart_args(command, source, out))
    assert refused == [out.name]
    assert (run.code, run.exc, run.out) == (2, None, "") and "Traceback" not in run.err
    *before, line = run.err.strip().splitlines()
    assert before == []  # replay too prints nothing before its work is done
    option = "--out" if command == "chart" else "--chart"
    assert line == f"oddsbot: error: {option}: cannot write {out}: {words}"
    assert out.read_bytes() == b"an older chart"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["chart.png"] + (["short.record"] if command == "replay" else []))

