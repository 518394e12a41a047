"""Mumia's charts (``oddsbot.reports.mumia.charts``): the position chart (``oddsbot chart``)
and the replay chart (``oddsbot replay --chart``).

Both are drawn through the CLI to PNG and read back; in process, the bars and lines are
checked against what they show: ``face.odds`` (same samples and seed), every player's
score by §7 (the replay's final scores and its ``result`` line), the turn openings
evaluated, and a record cut short (with and without hidden action tokens) against the
whole record's next position.
"""

from __future__ import annotations

import matplotlib.image
import numpy as np
import pytest
from matplotlib.collections import PolyCollection

from checks import ok
from figure_checks import (
    assert_legends_clear, assert_no_clipped_text, assert_saves, bars, pixels,
)
from oddsbot.analyser.mumia import face
from oddsbot.analyser.mumia.record import load_record
from oddsbot.analyser.mumia.simulate import new_position, play
from oddsbot.errors import OddsbotError
from oddsbot.reports.mumia import charts

SAMPLES = 300
SEED = 4
REPLAY_SAMPLES = 50


def record_head(text: str, steps: int) -> str:
    """The record's start line and its first ``steps`` step lines (no result line)."""
    lines = [line for line in text.splitlines() if line.strip()]
    return "\n".join(lines[:1 + steps]) + "\n"


@pytest.fixture(scope="module")
def game() -> str:
    """``oddsbot new mumia --players 3 --seed 2 --play random``: a whole game's record."""
    return play(3, 2, "mumia", "random")


@pytest.fixture(scope="module")
def middle(game):
    """The position before step 40 of the game, and its chart and odds."""
    _, steps = load_record(game)
    pos = steps[40][0]
    fig = charts.position_chart(pos, samples=SAMPLES, seed=SEED)
    return pos, face.odds(pos, samples=SAMPLES, seed=SEED), fig


# --------------------------------------------------------------------------- position chart


def test_position_chart_shows_the_odds(middle):
    pos, odds, fig = middle
    win_ax, score_ax = fig.axes
    (wins,) = bars(win_ax)
    p = np.array([r["win_p"] for r in odds["players"]])
    se = np.array([r["win_se"] for r in odds["players"]])
    np.testing.assert_array_equal([b.get_height() for b in wins], p)
    segments = wins.errorbar.lines[2][0].get_segments()
    np.testing.assert_allclose([s[0][1] for s in segments], p - 1.96 * se, atol=1e-12)
    np.testing.assert_allclose([s[1][1] for s in segments], p + 1.96 * se, atol=1e-12)
    now, final = bars(score_ax)
    np.testing.assert_array_equal([b.get_height() for b in final],
                                  [r["score"] for r in odds["players"]])
    assert [b.get_height() for b in now] == charts.scores_now(pos)
    assert [t.get_text() for t in win_ax.get_xticklabels()] == ["player A", "player B",
                                                                "player C"]
    title = fig.get_suptitle()
    assert title.splitlines()[0].startswith("Mumia · mumia (no expansions) · 3 players · "
                                            f"player {'ABC'[pos.to_move]} to move")
    assert f"{SAMPLES:,} games, seed {SEED}" in title and "±1.96 SE" in title
    assert pos.to_notation() in " ".join(title.splitlines())


def test_scores_now_are_the_rules_scores(game):
    """At the start nobody holds anything; the replay's scores before its last step and
    the final scores differ by that step only, and the final ones are the result line's."""
    _, steps = load_record(game)
    assert charts.scores_now(steps[0][0]) == [0, 0, 0]
    result = game.strip().splitlines()[-1].split()
    assert result[0] == "result"
    assert tuple(int(w.split(":")[1]) for w in result[1:4]) == steps.scores
    start = new_position(4, 7, "mumia", "all")
    assert charts.scores_now(start) == [0, 0, 0, 0]


def test_position_chart_layout(middle, tmp_path):
    fig = middle[2]
    assert_no_clipped_text(fig)
    assert_legends_clear(fig)
    assert_saves(fig, tmp_path, charts.POSITION_SIZE)


def test_target_se_stops_the_samples():
    """--target-se: the face's batches until every win probability's SE is at most it."""
    pos = new_position(3, 1)
    fig = charts.position_chart(pos, seed=1, target_se=0.05)
    odds = face.odds(pos, seed=1, target_se=0.05)
    assert odds["provenance"]["target_reached"] is True
    assert max(p["win_se"] for p in odds["players"]) <= 0.05
    assert f"{odds['provenance']['samples']:,} games" in fig.get_suptitle()


# --------------------------------------------------------------------------- replay chart


@pytest.fixture(scope="module")
def whole(game):
    _, steps = load_record(game)
    return steps, charts.replay_chart(steps, samples=REPLAY_SAMPLES, seed=SEED,
                                      title="record x")


def score_lines(ax) -> list:
    return [line for line in ax.lines if line.get_label().startswith("player ")]


def test_replay_scores_follow_the_game(whole):
    steps, fig = whole
    win_ax, score_ax = fig.axes
    lines = score_lines(score_ax)
    assert [line.get_label() for line in lines] == [
        f"player {'ABC'[p]}: {s} at the end" for p, s in enumerate(steps.scores)]
    want = np.array([charts.scores_now(pos) for pos, _ in steps] + [list(steps.scores)])
    for seat, line in enumerate(lines):
        np.testing.assert_array_equal(line.get_xdata(), np.arange(len(steps) + 1))
        np.testing.assert_array_equal(line.get_ydata(), want[:, seat])
        assert line.get_drawstyle() == "steps-post"
    assert score_ax.get_shared_x_axes().joined(win_ax, score_ax)


def test_replay_win_odds_at_evaluated_openings(whole):
    steps, fig = whole
    win_ax = fig.axes[0]
    chosen = charts.evaluated_steps(steps)
    openings = [k for k, (_, t) in enumerate(steps) if t.opening]
    assert len(openings) > charts.MAX_EVALUATED == len(chosen)
    assert chosen[0] == openings[0] and chosen[-1] == openings[-1]
    assert set(chosen) <= set(openings) and chosen == sorted(chosen)
    lines = score_lines(win_ax)
    assert [line.get_label() for line in lines] == ["player A", "player B", "player C"]
    for k in (chosen[0], chosen[len(chosen) // 2]):
        odds = face.odds(steps[k][0], samples=REPLAY_SAMPLES, seed=SEED)["players"]
        i = chosen.index(k)
        for seat, line in enumerate(lines):
            assert line.get_xdata()[i] == k
            assert line.get_ydata()[i] == odds[seat]["win_p"]
    for seat, line in enumerate(lines):  # the last point is the result
        assert line.get_xdata()[-1] == len(steps)
        assert line.get_ydata()[-1] == (1.0 if seat in steps.winners else 0.0)
        assert len(line.get_xdata()) == len(chosen) + 1
    bands = [c for c in win_ax.collections if isinstance(c, PolyCollection)]
    assert len(bands) == 3
    y = np.concatenate([line.get_ydata() for line in lines])
    assert ((0 <= y) & (y <= 1)).all()
    title = fig.get_suptitle().splitlines()
    assert title[0] == "record x"
    assert title[1].startswith(f"Mumia · mumia · 3 players · {len(steps)} steps · game over")
    assert f"{REPLAY_SAMPLES} games per evaluated turn" in title[-2] + title[-1]


@pytest.mark.parametrize("how", ["base", "e4"])
def test_replay_of_an_unfinished_game(how):
    """A record cut at a turn's end: the last score point is the score the whole record
    shows before its next step (hidden tokens count too); without hidden tokens the last
    odds are that position's."""
    text = play(3, 5, "mumia", "heuristic", "all" if how == "e4" else "")
    _, full = load_record(text)
    cut = next(k for k in range(30, len(full)) if full[k][1].opening)
    _, steps = load_record(record_head(text, cut))
    assert len(steps) == cut and not steps.over
    fig = charts.replay_chart(steps, samples=REPLAY_SAMPLES, seed=SEED)
    win_ax, score_ax = fig.axes
    assert [line.get_ydata()[-1] for line in score_lines(score_ax)] == \
        charts.scores_now(full[cut][0])
    odds = face.odds(full[cut][0], samples=REPLAY_SAMPLES, seed=SEED)["players"]
    for seat, line in enumerate(score_lines(win_ax)):
        if how == "e4":  # the next mover knows its own tokens, the replay does not
            assert line.get_xdata()[-1] == charts.evaluated_steps(steps)[-1] < cut
        else:
            assert line.get_xdata()[-1] == cut
            assert line.get_ydata()[-1] == odds[seat]["win_p"]
    assert "game not over" in fig.get_suptitle()
    assert all(line.get_label().endswith(" now") for line in score_lines(score_ax))


def test_replay_chart_layout(whole, tmp_path):
    fig = whole[1]
    assert_no_clipped_text(fig)
    assert_legends_clear(fig)
    assert_saves(fig, tmp_path, charts.REPLAY_SIZE)


def test_a_record_without_steps_is_refused(game):
    _, steps = load_record(record_head(game, 0))
    assert len(steps) == 0
    with pytest.raises(OddsbotError, match="no turns"):
        charts.replay_chart(steps, samples=REPLAY_SAMPLES)


# --------------------------------------------------------------------------- the CLI


def test_cli_charts(oddsbot_cli, tmp_path):
    record = tmp_path / "game.record"
    made = ok(oddsbot_cli("new", "mumia", "--players", 3, "--seed", 2, "--play", "random"))
    record.write_text(made.out)
    png = tmp_path / "replay.png"
    run = ok(oddsbot_cli("replay", record, "--samples", REPLAY_SAMPLES, "--chart", png))
    assert f"wrote {png}" in run.err
    assert matplotlib.image.imread(png).shape == (*pixels(charts.REPLAY_SIZE), 4)
    _, steps = load_record(made.out)
    position = tmp_path / "middle.txt"
    position.write_text(steps[len(steps) // 2][0].to_notation() + "\n")
    out = tmp_path / "odds.png"
    run = ok(oddsbot_cli("chart", position, "--out", out, "--samples", SAMPLES))
    assert run.out == "" and str(out) in run.err
    assert matplotlib.image.imread(out).shape == (*pixels(charts.POSITION_SIZE), 4)
