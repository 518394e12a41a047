"""Five Tribes charts: ``position_chart`` (``oddsbot chart``) and ``replay_chart``
(``oddsbot replay --chart``).

Figures are inspected before they are saved: the bars, markers, lines and bands against
the numbers they draw (``rollouts.standings`` on the same seed, ``state_scores``), the
±1.96 SE intervals, the stacked parts against the total, a finished game's exact winner
share, titles, no text outside the figure, legends clear; saved files are read back (PNG
pixel size, SVG root). Rollouts are few (``SAMPLES``): the numbers drawn are checked, not
their precision.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import matplotlib.image
import numpy as np
import pytest
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgb
from matplotlib.container import ErrorbarContainer

from oddsbot.analyser.five_tribes import face as ft
from oddsbot.analyser.five_tribes.encode import encode
from oddsbot.analyser.five_tribes.position import Position
from oddsbot.analyser.five_tribes.rollouts import standings
from oddsbot.analyser.five_tribes.setup import new_position
from oddsbot.analyser.five_tribes.simulate import after_bids
from oddsbot.errors import OddsbotError
from oddsbot.kernels import five_tribes as FT
from oddsbot.reports import palette
from oddsbot.reports.five_tribes import charts

from figure_checks import (
    assert_legends_clear, assert_no_clipped_text, assert_saves, bars, pixels,
)
from five_tribes_positions import random_midgame

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
OPENING_4P = EXAMPLES / "five-tribes-opening-4p.json"
SAMPLES = 64
SEED = 3
PARTS = FT.SCORE_PARTS[:-1]


def squeezed(text: str) -> str:
    """``text`` without white space (titles wrap at spaces and after a board row's /)."""
    return "".join(text.split())


def finished(players: int, seed: int, gold: tuple[int, ...]) -> Position:
    """A dealt opening whose game is over: seat 1 has placed every camel (§13), and the
    players hold ``gold``."""
    pos = new_position(players, seed, "five-tribes")
    return replace(pos, players=tuple(replace(p, gold=g, camels=0 if i == 1 else p.camels)
                                      for i, (p, g) in enumerate(zip(pos.players, gold))))


def winner_shares(pos: Position) -> np.ndarray:
    totals = FT.state_scores(encode(pos))[:, -1]
    top = totals == totals.max()
    return top / top.sum()



def half_widths(container) -> np.ndarray:
    """Half the length of each horizontal error bar of ``container``."""
    segments = container.lines[2][0].get_segments()
    return np.array([(s[1][0] - s[0][0]) / 2 for s in segments])


# --------------------------------------------------------------------------- position chart


POSITIONS = {
    "opening-4p": lambda: ft.parse(OPENING_4P.read_text()),
    "turns-2p": lambda: after_bids(new_position(2, 5, "five-tribes")),
    "midgame-3p": lambda: random_midgame(11, 3),
    "finished-3p": lambda: finished(3, 2, (60, 75, 70)),
}


@pytest.fixture(scope="module", params=list(POSITIONS))
def position_case(request):
    pos = POSITIONS[request.param]()
    return (pos, standings(pos, rollouts=SAMPLES, seed=SEED),
            charts.position_chart(pos, samples=SAMPLES, seed=SEED))


def test_position_chart_win_panel(position_case):
    pos, ahead, fig = position_case
    win_ax = fig.axes[0]
    (container,) = bars(win_ax)
    assert len(container) == pos.n_players
    np.testing.assert_array_equal([b.get_width() for b in container], ahead.win)
    np.testing.assert_allclose([b.get_y() + b.get_height() / 2 for b in container],
                               np.arange(pos.n_players))
    np.testing.assert_allclose(half_widths(container.errorbar), 1.96 * ahead.win_se,
                               rtol=0, atol=1e-12)
    assert win_ax.yaxis_inverted()  # player 0 at the top
    assert [t.get_text() for t in win_ax.get_yticklabels()] == [
        f"player {p}" for p in range(pos.n_players)]
    assert [t.get_text() for t in win_ax.texts] == [f"{w:.0%}" for w in ahead.win]
    assert win_ax.get_xlim()[0] == 0 and "probability" in win_ax.get_xlabel()


def test_position_chart_score_panel(position_case):
    pos, ahead, fig = position_case
    score_ax = fig.axes[1]
    parts = FT.state_scores(encode(pos))
    stacked = bars(score_ax)
    assert len(stacked) == len(PARTS) and all(len(c) == pos.n_players for c in stacked)
    widths = np.array([[b.get_width() for b in c] for c in stacked]).T  # [player, part]
    lefts = np.array([[b.get_x() for b in c] for c in stacked]).T
    np.testing.assert_array_equal(widths, parts[:, :-1])
    np.testing.assert_array_equal(widths.sum(axis=1), parts[:, -1])  # the parts sum up
    np.testing.assert_array_equal(lefts, np.cumsum(widths, axis=1) - widths)
    for i, c in enumerate(stacked):  # the designer report's part colours
        assert c.get_label() == PARTS[i]
        assert to_rgb(c[0].get_facecolor()) == to_rgb(palette.series(i))
    (final,) = [c for c in score_ax.containers  # the bars' error bars have no data line
                if isinstance(c, ErrorbarContainer) and c.lines[0] is not None]
    x, y = final.lines[0].get_data()
    np.testing.assert_array_equal(x, ahead.score)
    np.testing.assert_array_equal(y, np.arange(pos.n_players))
    np.testing.assert_allclose(half_widths(final), 1.96 * ahead.score_se, rtol=0, atol=1e-9)
    assert [t.get_text() for t in score_ax.texts] == [
        f"{t} \N{RIGHTWARDS ARROW} {s:.1f}" for t, s in zip(parts[:, -1], ahead.score)]
    assert score_ax.get_xlim()[1] > max(parts[:, -1].max(),
                                        (ahead.score + 1.96 * ahead.score_se).max())
    assert fig.axes[0].get_shared_y_axes().joined(fig.axes[0], score_ax)


def test_position_chart_title(position_case):
    pos, ahead, fig = position_case
    title = fig.get_suptitle()
    assert all(len(line) <= charts.TITLE_WIDTH for line in title.splitlines()[:-1])
    assert squeezed(pos.to_notation()) in squeezed(title)
    for words in (f"{ahead.rollouts:,} rollouts", "heuristic", f"seed {SEED}", "1.96 SE",
                  "exact"):
        assert words in title.splitlines()[-1]


def test_position_chart_files(position_case, tmp_path):
    _, _, fig = position_case
    assert_no_clipped_text(fig)
    assert_legends_clear(fig)
    assert_saves(fig, tmp_path, charts.POSITION_SIZE)


@pytest.mark.parametrize("gold", [(60, 75, 70), (60, 75, 75)], ids=["winner", "tie"])
def test_a_finished_game_is_certain(gold):
    """Rollouts of a game that is over play nothing: every player's final score is the
    score now, and the win probability is the winner's share with zero SE."""
    pos = finished(3, 2, gold)
    fig = charts.position_chart(pos, samples=SAMPLES, seed=SEED)
    win_ax, score_ax = fig.axes
    (container,) = bars(win_ax)
    assert [b.get_width() for b in container] == list(winner_shares(pos))
    assert (half_widths(container.errorbar) == 0).all()
    assert [t.get_text().rpartition(" ")[2] for t in score_ax.texts] == [
        f"{t:.1f}" for t in FT.state_scores(encode(pos))[:, -1]]


def test_position_chart_validates():
    bad = replace(ft.parse(OPENING_4P.read_text()), to_move=7)
    with pytest.raises(OddsbotError, match="to_move"):
        charts.position_chart(bad, samples=SAMPLES)


# --------------------------------------------------------------------------- replay chart


class Steps(list):
    """What ``record.load_record`` returns: (position before, turn) pairs, ``over`` and
    the ``final`` position."""

    def __init__(self, positions: list[Position], final: Position, over: bool):
        super().__init__((pos, None) for pos in positions)
        self.final, self.over = final, over


def openings(seeds: range) -> list[Position]:
    """Per seed, a 4-player opening and its first turn (every bid placed): round after
    round, bidding then turns."""
    out = []
    for seed in seeds:
        pos = new_position(4, seed, "five-tribes")
        out += [pos, after_bids(pos)]
    return out


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    return openings(range(1, 3))


@pytest.fixture(scope="module", params=["over", "open"])
def replay_case(request, positions):
    if request.param == "over":  # the end: seat 1 placed its last camel, a 3-way tie
        steps = Steps(positions, finished(4, 3, (60, 75, 75, 75)), over=True)
    else:
        steps = Steps(positions, new_position(4, 3, "five-tribes"), over=False)
    return steps, charts.replay_chart(steps, samples=SAMPLES, seed=SEED, title="a record")


def player_lines(ax) -> list:
    return [line for line in ax.lines if line.get_label().startswith("player ")]


def test_replay_chart_series(replay_case):
    steps, fig = replay_case
    (ax,) = fig.axes
    estimates = [standings(pos, rollouts=SAMPLES, seed=SEED) for pos, _ in steps]
    if steps.over:
        last_p, last_se = winner_shares(steps.final), np.zeros(4)
        assert list(last_p) == [0, 1 / 3, 1 / 3, 1 / 3]  # exact: the final scores' winners
    else:
        end = standings(steps.final, rollouts=SAMPLES, seed=SEED)
        last_p, last_se = end.win, end.win_se
    p = np.array([e.win for e in estimates] + [last_p])  # [action, player]
    se = np.array([e.win_se for e in estimates] + [last_se])
    lines = player_lines(ax)
    assert [line.get_label() for line in lines] == [f"player {s}" for s in range(4)]
    bands = [b for b in ax.collections if isinstance(b, PolyCollection)]
    assert len(bands) == 4
    for seat, (line, band) in enumerate(zip(lines, bands)):
        np.testing.assert_array_equal(line.get_xdata(), np.arange(len(steps) + 1))
        np.testing.assert_array_equal(line.get_ydata(), p[:, seat])
        assert line.get_drawstyle() == "steps-post"
        assert to_rgb(line.get_color()) == to_rgb(palette.series(seat))
        assert to_rgb(band.get_facecolor()[0]) == to_rgb(palette.series(seat))
        assert len(steps) in line.get_markevery()  # the last value is marked
        ys = band.get_paths()[0].vertices[:, 1]
        for bound in np.r_[np.clip(p[:, seat] - 1.96 * se[:, seat], 0, 1),
                           np.clip(p[:, seat] + 1.96 * se[:, seat], 0, 1)]:
            assert np.abs(ys - bound).min() < 1e-12  # the band: ±1.96 SE
        dx, dy = np.diff(band.get_paths()[0].vertices, axis=0).T
        assert ((dx == 0) | (dy == 0)).all()  # stepped, as the line
    assert ax.get_xlim()[1] > len(steps)  # the last step is not hidden by the frame
    rounds = [line.get_xdata()[0] for line in ax.lines if line.get_gid() == charts.ROUND]
    assert rounds == ([2] if steps.over else [2, 4])  # not at the end of a finished game
    assert ax.get_ylabel() == "win probability" and "played" in ax.get_xlabel()
    title = fig.get_suptitle()
    assert title.startswith("a record\nstart five-tribes ")
    assert squeezed(steps[0][0].to_notation()) in squeezed(title)
    method = title.splitlines()[-1]
    assert f"{SAMPLES} rollouts per action" in method and f"seed {SEED}" in method
    assert ("exact" in method) == steps.over


def test_replay_chart_files(replay_case, tmp_path):
    _, fig = replay_case
    assert_no_clipped_text(fig)
    assert_legends_clear(fig)
    assert_saves(fig, tmp_path, charts.REPLAY_SIZE)


@pytest.mark.parametrize("samples, per_action", [(64, 16), (8, 8)])
def test_replay_rollouts_are_capped(monkeypatch, positions, samples, per_action):
    """``min(samples, REPLAY_ROLLOUTS)`` rollouts per action."""
    monkeypatch.setattr(charts, "REPLAY_ROLLOUTS", 16)
    steps = Steps(positions[:1], positions[1], over=False)
    fig = charts.replay_chart(steps, samples=samples, seed=SEED)
    assert f"{per_action} rollouts per action" in fig.get_suptitle()
    line = player_lines(fig.axes[0])[0]
    assert line.get_ydata()[0] == standings(positions[0], rollouts=per_action, seed=SEED).win[0]


def test_replay_chart_of_no_turns():
    with pytest.raises(OddsbotError, match="no turns"):
        charts.replay_chart(Steps([], new_position(4, 1, "five-tribes"), over=False))


# --------------------------------------------------------------------------- command line


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_cli_chart(oddsbot_cli, tmp_path, suffix):
    out = tmp_path / f"x.{suffix}"
    run = oddsbot_cli("chart", OPENING_4P, "--out", out, "--samples", SAMPLES)
    assert (run.code, run.exc, run.out) == (0, None, ""), run.err
    assert len(run.err.strip().splitlines()) == 1 and str(out) in run.err
    if suffix == "png":
        assert matplotlib.image.imread(out).shape == (*pixels(charts.POSITION_SIZE), 4)
    else:
        assert ET.parse(out).getroot().tag.endswith("svg")
