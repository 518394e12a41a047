"""Kingdom Run's charts (``oddsbot.reports.kingdom_run.charts``): the position chart
(``oddsbot chart``) and the replay chart (``oddsbot replay --chart``).

In process, the panels are checked against what they show: ``odds`` (same samples and
seed), every player's score by §9 (the set-up's, and the replay's final scores), every
runner drawn on its space or podium place, the positions evaluated and the result after
the last turn. The position chart is drawn through the CLI to PNG and read back.
"""

from __future__ import annotations

import json

import matplotlib.image
import numpy as np
import pytest
from matplotlib.collections import PolyCollection

from checks import ok
from figure_checks import (
    assert_legends_clear, assert_no_clipped_text, assert_saves, bars, pixels,
)
from oddsbot.analyser.kingdom_run.face import parse
from oddsbot.analyser.kingdom_run.odds import odds
from oddsbot.analyser.kingdom_run.position import RUNNER_NAMES
from oddsbot.analyser.kingdom_run.record import Replay, load_record
from oddsbot.analyser.kingdom_run.simulate import play
from oddsbot.errors import OddsbotError
from oddsbot.reports.kingdom_run import charts

SAMPLES = 300
SEED = 4
REPLAY_SAMPLES = 40
MID_TURN = {  # docs/games/kingdom-run.md §12.1, with exact zones
    "game": "kingdom-run", "players": 3, "clans": ["K", "W", "F"], "to_move": 0,
    "track": {"0": ["K4", "W4", "F4", "G4"], "1": ["K3", "W3", "F3", "G3"], "5": ["K1", "F1"],
              "7": ["G1"], "12": ["G2"], "13": ["W1"]},
    "asleep": ["G1"], "podium": ["K2", "W2"],
    "crossed": [{"runner": "F2", "action": 0, "from": 25}], "out": [], "tokens": [4, 4, 4],
    "roll": ["scatter", "catchup", "bath", "copy"], "rerolled": True,
    "used": ["scatter", "bath"], "rules": {"zone_mode": "exact"}}


@pytest.fixture(scope="module")
def game() -> str:
    """``oddsbot new kingdom-run --players 4 --seed 3 --play heuristic``: a whole game."""
    return play(4, 3, "kingdom-run", "heuristic")


@pytest.fixture(scope="module")
def middle(game):
    """The position before turn 30 of the game, and its chart and odds."""
    _, steps = load_record(game)
    pos = steps[30][0]
    fig = charts.position_chart(pos, samples=SAMPLES, seed=SEED)
    return pos, odds(pos, samples=SAMPLES, seed=SEED), fig


# --------------------------------------------------------------------------- position chart


def runner_texts(ax) -> dict[str, tuple[float, float]]:
    """Runner name (upper case) -> where its label is drawn."""
    names = {n.lower(): n for n in RUNNER_NAMES} | {n: n for n in RUNNER_NAMES}
    return {names[t.get_text()]: t.get_position() for t in ax.texts if t.get_text() in names}


def test_position_chart_shows_the_odds(middle):
    pos, result, fig = middle
    track_ax, win_ax, score_ax = fig.axes
    (wins,) = bars(win_ax)
    p = np.array([r["win_p"] for r in result["players"]])
    se = np.array([r["win_se"] for r in result["players"]])
    np.testing.assert_array_equal([b.get_height() for b in wins], p)
    segments = wins.errorbar.lines[2][0].get_segments()
    np.testing.assert_allclose([s[0][1] for s in segments], p - 1.96 * se, atol=1e-12)
    np.testing.assert_allclose([s[1][1] for s in segments], p + 1.96 * se, atol=1e-12)
    now, final = bars(score_ax)
    np.testing.assert_array_equal([b.get_height() for b in final],
                                  [r["score"] for r in result["players"]])
    assert [b.get_height() for b in now] == charts.scores_now(pos)
    assert [t.get_text() for t in win_ax.get_xticklabels()] == ["p1 (K)", "p2 (W)",
                                                                "p3 (F)", "p4 (G)"]
    title = fig.get_suptitle()
    assert title.splitlines()[0].startswith("Kingdom Run · kingdom-run · 4 players · "
                                            f"p{pos.to_move + 1} ({'KWFG'[pos.to_move]}) "
                                            "to move")
    assert f"{SAMPLES:,} games, seed {SEED}" in title and "±1.96 SE" in title
    assert pos.to_notation() in " ".join(title.splitlines())


def test_the_track_shows_every_runner(middle):
    pos, _, fig = middle
    drawn = runner_texts(fig.axes[0])
    assert set(drawn) == {RUNNER_NAMES[r] for r in range(16)
                          if pos.where[r] >= 0 or r in pos.podium}
    for r, s in enumerate(pos.where):
        if s >= 0:
            assert drawn[RUNNER_NAMES[r]][0] == s
    for place, r in enumerate(pos.podium):
        assert drawn[RUNNER_NAMES[r]][0] == charts.podium_x(pos, place)
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels[:26] == [str(s) for s in range(26)] and labels[26] == "1st"
    assert len(labels) == 26 + 8


def test_a_mid_turn_position():
    """Asleep runners are written lower-case; this turn's crossers stand on the finish
    line; exact zones score only the tokens' spaces."""
    pos = parse(json.dumps(MID_TURN))
    fig = charts.position_chart(pos, samples=60, seed=1)
    track = fig.axes[0]
    texts = [t.get_text() for t in track.texts]
    assert "g1" in texts and "G1" not in texts
    drawn = runner_texts(track)
    assert drawn["F2"][0] > 25 and drawn["F2"][0] < charts.podium_x(pos, 0)
    assert "waiting for a place: F2" in track.get_title()
    assert "START · token 1" in texts
    # the podium's places, a runner on a token's space (only K4, W4, F4 on space 0), tokens
    assert charts.scores_now(pos) == [13 + 1 + 8, 10 + 1 + 8, 0 + 1 + 8]
    assert "roll SCBY, re-rolled, used S,B" in fig.get_suptitle()


def test_scores_now_at_the_start(game):
    _, steps = load_record(game)
    assert charts.scores_now(steps[0][0]) == [3 * 2 + 4 * 1] * 4  # tokens, START's zone 1
    assert charts.scores_now(steps.final) == list(steps.scores)


def test_position_chart_layout(middle, tmp_path):
    fig = middle[2]
    assert_no_clipped_text(fig)
    assert_legends_clear(fig)
    assert_saves(fig, tmp_path, charts.POSITION_SIZE)


def test_target_se_stops_the_samples(game):
    """--target-se: the odds' batches until every win probability's SE is at most it."""
    _, steps = load_record(game)
    fig = charts.position_chart(steps[0][0], seed=1, target_se=0.05)
    result = odds(steps[0][0], seed=1, target_se=0.05)
    assert max(p["win_se"] for p in result["players"]) <= 0.05
    assert f"{result['provenance']['samples']:,} games" in fig.get_suptitle()


# --------------------------------------------------------------------------- replay chart


@pytest.fixture(scope="module")
def whole(game):
    _, steps = load_record(game)
    return steps, charts.replay_chart(steps, samples=REPLAY_SAMPLES, seed=SEED,
                                      title="record x")


def player_lines(ax) -> list:
    return [line for line in ax.lines if line.get_label().startswith("player ")]


def test_replay_scores_follow_the_game(whole):
    steps, fig = whole
    win_ax, score_ax = fig.axes
    lines = player_lines(score_ax)
    assert [line.get_label() for line in lines] == [
        f"player p{p + 1} ({'KWFG'[p]}): {s} at the end" for p, s in enumerate(steps.scores)]
    want = np.array([charts.scores_now(steps[0][0])]
                    + [charts.scores_now(turn.after) for _, turn in steps])
    np.testing.assert_array_equal(want[-1], steps.scores)
    for seat, line in enumerate(lines):
        np.testing.assert_array_equal(line.get_xdata(), np.arange(len(steps) + 1))
        np.testing.assert_array_equal(line.get_ydata(), want[:, seat])
        assert line.get_drawstyle() == "steps-post"
    assert score_ax.get_shared_x_axes().joined(win_ax, score_ax)


def test_replay_win_odds_at_evaluated_turns(whole):
    steps, fig = whole
    win_ax = fig.axes[0]
    chosen = charts.evaluated_turns(steps)
    assert len(steps) > charts.MAX_EVALUATED == len(chosen)
    assert chosen[0] == 0 and chosen[-1] == len(steps) - 1 and chosen == sorted(chosen)
    lines = player_lines(win_ax)
    assert [line.get_label() for line in lines] == ["player p1 (K)", "player p2 (W)",
                                                    "player p3 (F)", "player p4 (G)"]
    views = charts.positions(steps)
    for k in (chosen[1], chosen[len(chosen) // 2]):
        rows = odds(views[k], samples=REPLAY_SAMPLES, seed=SEED)["players"]
        i = chosen.index(k)
        for seat, line in enumerate(lines):
            assert line.get_xdata()[i] == k
            assert line.get_ydata()[i] == rows[seat]["win_p"]
    for seat, line in enumerate(lines):  # the last point is the result
        assert line.get_xdata()[-1] == len(steps)
        assert line.get_ydata()[-1] == (1.0 if seat in steps.winners else 0.0)
        assert len(line.get_xdata()) == len(chosen) + 1
    bands = [c for c in win_ax.collections if isinstance(c, PolyCollection)]
    assert len(bands) == 4
    title = fig.get_suptitle().splitlines()
    assert title[0] == "record x"
    assert title[1].startswith(f"Kingdom Run · kingdom-run · 4 players (p1 (K), p2 (W), "
                               f"p3 (F), p4 (G)) · {len(steps)} turns · game over")
    assert f"{REPLAY_SAMPLES} games per evaluated position" in " ".join(title[-2:])


def test_replay_of_an_unfinished_game(game):
    """A record cut short: every position is evaluated (few turns), the last one after
    the last turn, and the scores end with that position's."""
    _, full = load_record(game)
    cut = Replay()
    cut.extend(full[:12])
    cut.to_move = full[12][1].player
    fig = charts.replay_chart(cut, samples=REPLAY_SAMPLES, seed=SEED)
    win_ax, score_ax = fig.axes
    assert charts.evaluated_turns(cut) == list(range(13))
    last = full[11][1].after
    rows = odds(last, samples=REPLAY_SAMPLES, seed=SEED)["players"]
    for seat, line in enumerate(player_lines(win_ax)):
        assert line.get_xdata()[-1] == 12
        assert line.get_ydata()[-1] == rows[seat]["win_p"]
    assert [line.get_ydata()[-1] for line in player_lines(score_ax)] == \
        charts.scores_now(last)
    assert "game not over" in fig.get_suptitle()
    assert all(line.get_label().endswith(" now") for line in player_lines(score_ax))


def test_replay_chart_layout(whole, tmp_path):
    fig = whole[1]
    assert_no_clipped_text(fig)
    assert_legends_clear(fig)
    assert_saves(fig, tmp_path, charts.REPLAY_SIZE)


def test_a_record_without_turns_is_refused():
    with pytest.raises(OddsbotError, match="no turns"):
        charts.replay_chart(Replay(), samples=REPLAY_SAMPLES)


# --------------------------------------------------------------------------- the CLI


def test_cli_position_chart(oddsbot_cli, tmp_path, game):
    _, steps = load_record(game)
    position = tmp_path / "middle.txt"
    position.write_text(steps[len(steps) // 2][0].to_notation() + "\n")
    out = tmp_path / "odds.png"
    run = ok(oddsbot_cli("chart", position, "--out", out, "--samples", SAMPLES))
    assert run.out == "" and str(out) in run.err
    assert matplotlib.image.imread(out).shape == (*pixels(charts.POSITION_SIZE), 4)
