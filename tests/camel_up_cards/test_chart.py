"""The Camel Up Cards charts: the position chart (``oddsbot chart POSITION --out FILE``)
and the replay chart (``oddsbot replay RECORD --chart FILE``).

Every figure is inspected before it is saved: the position chart's bars are the face's
``odds`` of the same position, samples and seed (leg places stacked 1st to 5th, race
winner and loser with ±1.96 SE error bars), in the palette's camel colours; its title
names the player to move, the leg, the position and the method. The replay chart's race
panel is ``outcomes.race_places`` of each turn's mover's view (same samples and seed) with
±1.96 SE bands, ending in the race's result (or the next mover's view of an unfinished
game); its money panel is the money the record's lines state after each turn; dashed lines
stand where the record says a leg or the race ended. No text leaves a figure and no legend
covers anything; saved files are read back (PNG pixel size, SVG root).
"""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib.image
import numpy as np
import pytest
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgb

from checks import ok
from figure_checks import (
    assert_legends_clear, assert_no_clipped_text, assert_saves, assert_titled, bars, pixels,
)
from oddsbot.analyser import registry
from oddsbot.analyser.camel_up_cards import face
from oddsbot.analyser.camel_up_cards.encode import deck_of, track_of
from oddsbot.analyser.camel_up_cards.outcomes import race_places
from oddsbot.analyser.camel_up_cards.record import load_record
from oddsbot.analyser.face import Capability
from oddsbot.errors import OddsbotError
from oddsbot.reports import palette
from oddsbot.reports.camel_up_cards import charts

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NAMES = ["white", "green", "orange", "blue", "yellow"]
SAMPLES = 4000
SEED = 3

POSITIONS = {  # the leg panel sampled (a full deck) or exact (few cards left), 2-6 players
    "4p-leg-2": lambda: face.parse((EXAMPLES / "camel-up-cards-4p.json").read_text()),
    "late-figures": lambda: face.parse((EXAMPLES / "camel-up-cards-late.json").read_text()),
    "new-2p": lambda: face.new_position(2, 1),
    "new-6p": lambda: face.new_position(6, 3),
}


def flat(text: str) -> str:
    """``text`` with every run of white space (wrapped lines) as one space."""
    return " ".join(text.split())


@pytest.fixture(scope="module", params=list(POSITIONS))
def case(request):
    pos = POSITIONS[request.param]()
    odds = face.odds(pos, samples=SAMPLES, seed=SEED)
    return pos, odds, charts.position_chart(pos, samples=SAMPLES, seed=SEED)


def test_leg_panel_stacks_the_places_of_this_leg(case):
    _, odds, fig = case
    leg_ax = fig.axes[0]
    want = np.array([[c[f"p{k}"] for k in range(1, 6)] for c in odds["camels"]])
    stacked = bars(leg_ax)
    assert len(stacked) == 5 and all(len(c) == 5 for c in stacked)
    assert [c.get_label() for c in stacked] == ["1st", "2nd", "3rd", "4th", "5th"]
    heights = np.array([[p.get_height() for p in c] for c in stacked]).T  # [camel, place]
    bottoms = np.array([[p.get_y() for p in c] for c in stacked]).T
    np.testing.assert_allclose(heights, want, rtol=0, atol=1e-12)
    np.testing.assert_allclose(bottoms, np.cumsum(want, axis=1) - want, atol=1e-12)
    np.testing.assert_allclose(heights.sum(axis=1), 1, atol=1e-9)
    for c, name in enumerate(NAMES):
        style = palette.camel(name)
        own = np.array(to_rgb(style.colour))
        faces = [np.array(container[c].get_facecolor()[:3]) for container in stacked]
        np.testing.assert_allclose(faces[0], own)  # 1st place: the camel's own colour
        tints = [float(np.max((f - own) / np.maximum(1 - own, 1e-9))) for f in faces]
        assert tints[0] == 0 and all(a < b for a, b in zip(tints, tints[1:]))  # paler
        assert all((container[c].get_hatch() or "") == style.hatch for container in stacked)
    assert [t.get_text() for t in leg_ax.get_xticklabels()] == NAMES
    assert leg_ax.get_ylim()[0] == 0 and leg_ax.get_ylim()[1] >= 1
    assert "probability" in leg_ax.get_ylabel()
    prov = odds["provenance"]
    heading = leg_ax.get_title()
    if prov["leg"] == "exact":
        assert "exact" in heading
    else:
        worst = np.sqrt(want * (1 - want) / prov["leg_samples"]).max()
        assert f"{prov['leg_samples']:,} sampled legs" in heading
        assert f"SE at most {worst:.4f}" in heading


def test_race_panel_draws_winner_and_loser_odds_with_error_bars(case):
    _, odds, fig = case
    race_ax = fig.axes[1]
    grouped = bars(race_ax)
    assert len(grouped) == 2 and all(len(c) == 5 for c in grouped)
    for container, p_key, se_key, hatch in ((grouped[0], "race_win", "win_se", ""),
                                            (grouped[1], "race_lose", "lose_se",
                                             charts.LOSER_HATCH)):
        p = np.array([c[p_key] for c in odds["camels"]])
        se = np.array([c[se_key] for c in odds["camels"]])
        np.testing.assert_array_equal([b.get_height() for b in container], p)
        segments = container.errorbar.lines[2][0].get_segments()
        np.testing.assert_allclose([s[0][1] for s in segments], p - 1.96 * se, atol=1e-12)
        np.testing.assert_allclose([s[1][1] for s in segments], p + 1.96 * se, atol=1e-12)
        for patch, name in zip(container, NAMES):
            style = palette.camel(name)
            assert to_rgb(patch.get_facecolor()) == to_rgb(style.colour)
            assert (patch.get_hatch() or "") == style.hatch + hatch
    labels = [t.get_text() for t in race_ax.texts]  # each bar's value above it
    assert len(labels) == 10 and all(t.endswith("%") for t in labels)
    assert [t.get_text() for t in race_ax.get_legend().get_texts()] == ["race winner",
                                                                        "race loser"]
    assert [t.get_text() for t in race_ax.get_xticklabels()] == NAMES
    assert race_ax.get_ylim() == fig.axes[0].get_ylim()  # one scale for both panels
    assert f"{odds['provenance']['race_samples']:,} sampled races" in race_ax.get_title()


def test_title_names_the_player_to_move_the_leg_and_the_method(case):
    pos, odds, fig = case
    title = fig.get_suptitle()
    head, *_, method = title.splitlines()
    assert head.startswith(f"Camel Up Cards · leg {pos.leg} · player {pos.to_move} to move")
    assert f"{pos.players} players" in head
    assert f"race deck {pos.deck_count} of {pos.deck_size} cards left" in head
    assert pos.to_notation() in flat(title)
    for words in (f"{SAMPLES:,} races", f"seed {SEED}", "±1.96 SE",
                  f"race ends this leg {odds['race_ends_this_leg']:.1%}",
                  f"legs left {odds['legs_left']:.2f}"):
        assert words in method


def test_chart_files_and_layout(case, tmp_path):
    _, _, fig = case
    assert_no_clipped_text(fig)
    assert_legends_clear(fig)
    assert_saves(fig, tmp_path, charts.POSITION_SIZE)


def test_target_se_stops_the_samples():
    """Without --samples, --target-se draws races in batches until every SE is at most
    it (the face's odds); without either, the face's default."""
    pos = face.new_position(4, 2)
    fig = charts.position_chart(pos, seed=1, target_se=0.01)
    odds = face.odds(pos, seed=1, target_se=0.01)
    assert f"{odds['provenance']['race_samples']:,} races" in fig.get_suptitle()
    assert [b.get_height() for b in bars(fig.axes[1])[0]] == [c["race_win"]
                                                               for c in odds["camels"]]
    assert max(c["win_se"] for c in odds["camels"]) <= 0.01
    assert "100,000 races" in charts.position_chart(pos, seed=1).get_suptitle()


def test_a_bad_position_is_refused():
    bad = face.new_position(4, 2).with_(money=(0, 3, 3, 3))
    with pytest.raises(OddsbotError, match="money"):
        charts.position_chart(bad, samples=SAMPLES)


CHARTS = registry.spec("camel-up-cards").has(Capability.POSITION_CHART)


@pytest.mark.skipif(not CHARTS, reason="the GameSpec does not declare position charts yet")
def test_cli_chart(oddsbot_cli, tmp_path):
    png = tmp_path / "odds.png"
    run = ok(oddsbot_cli("chart", EXAMPLES / "camel-up-cards-4p.json", "--out", png,
                         "--samples", SAMPLES))
    assert run.out == "" and str(png) in run.err
    assert matplotlib.image.imread(png).shape == (*pixels(charts.POSITION_SIZE), 4)


# --------------------------------------------------------------------------- replay chart


GAME_4P = EXAMPLES / "camel-up-cards-game-4p.record"
REPLAY_SAMPLES = 2000
CUT = 20  # turns of the unfinished game: in leg 2, after the first leg's end
CHOSEN = (0, 27)  # turns whose race panel values are recomputed (the start, leg 2)
_TURN = re.compile(r"^\s*(?P<turn>[0-9]+) p[0-9]")


def record_head(turns: int) -> str:
    """The 4-player example record up to and including its turn ``turns``."""
    lines = GAME_4P.read_text().splitlines()
    last = next(i for i, line in enumerate(lines)
                if (m := _TURN.match(line)) and int(m["turn"]) == turns)
    return "\n".join(lines[:last + 1]) + "\n"


def stated_money(text: str) -> list[tuple[int, ...]]:
    """The money the record's turn lines state after each turn, by turn."""
    return [tuple(map(int, re.search(r"\| money ([0-9,]+)", line)[1].split(",")))
            for line in text.splitlines() if _TURN.match(line)]


def stated_ends(text: str) -> list[int]:
    """The turns the record's lines say ended a leg or the race."""
    return [int(_TURN.match(line)["turn"]) for line in text.splitlines()
            if _TURN.match(line) and re.search(r"\| (leg|race) ends", line)]


def race_wins(pos) -> tuple[np.ndarray, np.ndarray]:
    """Race-win probabilities and SEs of ``pos`` as its viewer knows it (the chart's)."""
    race = race_places(track_of(pos), deck_of(pos), pos.deck_size, REPLAY_SAMPLES, SEED)
    return race.p[0], race.se()[0]


def camel_lines(ax) -> dict:
    return {line.get_label(): line for line in ax.lines if line.get_label() in NAMES}


def money_lines(ax) -> list:
    return [line for line in ax.lines if line.get_label().startswith("player ")]


def boundaries(ax) -> list[float]:
    return [line.get_xdata()[0] for line in ax.lines if line.get_gid() == charts.BOUNDARY]


@pytest.fixture(scope="module")
def whole():
    text = GAME_4P.read_text()
    record, steps = load_record(text)
    fig = charts.replay_chart(steps, samples=REPLAY_SAMPLES, seed=SEED, title="record x")
    return text, record, steps, fig


@pytest.fixture(scope="module")
def unfinished():
    text = record_head(CUT)
    record, steps = load_record(text)
    return text, record, steps, charts.replay_chart(steps, samples=REPLAY_SAMPLES, seed=SEED)


def test_replay_race_panel_is_the_movers_race_odds(whole):
    """At the chosen turns the plotted value and band are ``race_places`` of the position
    the mover saw (their own cards, not the whole deal); the last point is the result."""
    _, _, steps, fig = whole
    assert steps.over
    race_ax, _ = fig.axes
    lines = camel_lines(race_ax)
    assert sorted(lines) == sorted(NAMES)
    bands = [b for b in race_ax.collections if isinstance(b, PolyCollection)]
    assert [to_rgb(b.get_facecolor()[0]) for b in bands] == [
        to_rgb(palette.camel(name).colour) for name in NAMES]
    for k in CHOSEN:
        pos, turn = steps[k]
        assert pos.viewer == pos.to_move == turn.player
        p, se = race_wins(pos)
        for c, name in enumerate(NAMES):
            assert lines[name].get_ydata()[k] == p[c]
            band = bands[c].get_paths()[0].vertices
            ys = band[band[:, 0] == k][:, 1]
            for edge in (max(p[c] - 1.96 * se[c], 0), min(p[c] + 1.96 * se[c], 1)):
                assert np.isclose(ys, edge, rtol=0, atol=1e-12).any(), (k, name, edge)
    for c, name in enumerate(NAMES):
        line = lines[name]
        style = palette.camel(name)
        np.testing.assert_array_equal(line.get_xdata(), np.arange(len(steps) + 1))
        y = np.asarray(line.get_ydata())
        assert ((0 <= y) & (y <= 1)).all()
        assert y[-1] == (1.0 if name == steps.winner else 0.0)  # the race's result
        assert line.get_drawstyle() == "steps-post"
        assert to_rgb(line.get_color()) == to_rgb(style.colour)
        assert line.get_marker() == style.marker
        assert len(steps) in line.get_markevery()  # the final odds are marked
    for band in bands:  # stepped too: every edge of its outline is level or upright
        dx, dy = np.diff(band.get_paths()[0].vertices, axis=0).T
        assert ((dx == 0) | (dy == 0)).all()
    assert race_ax.get_xlim()[1] > len(steps)  # the last step is not hidden by the frame
    assert "probability" in race_ax.get_ylabel()


def test_replay_money_panel_is_the_records_money(whole):
    text, record, steps, fig = whole
    race_ax, money_ax = fig.axes
    assert money_ax.get_shared_x_axes().joined(race_ax, money_ax)
    want = np.array([record.start.money] + stated_money(text))
    assert want.shape == (len(steps) + 1, 4) and (want[-1] == (2, 1, 7, 19)).all()
    lines = money_lines(money_ax)
    assert [line.get_label() for line in lines] == [
        f"player {p}: {m} EP at the end" for p, m in enumerate(want[-1])]
    for seat, line in enumerate(lines):
        np.testing.assert_array_equal(line.get_xdata(), np.arange(len(steps) + 1))
        np.testing.assert_array_equal(line.get_ydata(), want[:, seat])
        assert line.get_drawstyle() == "steps-post"
        assert to_rgb(line.get_color()) == to_rgb(palette.series(seat))
    assert len({line.get_marker() for line in lines}) == 4  # one marker per player
    assert money_ax.get_ylim()[0] == 0 and money_ax.get_ylim()[1] > want.max()
    assert "EP" in money_ax.get_ylabel()


def test_replay_leg_lines_where_the_record_ends_legs(whole):
    text, _, steps, fig = whole
    ends = stated_ends(text)
    assert ends == [15, 36, 49] and ends[-1] == len(steps)
    for ax in fig.axes:  # in both panels, dashed
        assert boundaries(ax) == ends
        assert all(line.get_linestyle() == "--" for line in ax.lines
                   if line.get_gid() == charts.BOUNDARY)
    names = [t.get_text() for t in fig.axes[1].texts if t.get_gid() == charts.LEG_LABEL]
    assert names == ["leg 1", "leg 2", "leg 3"]


def test_replay_title(whole):
    _, record, steps, fig = whole
    title = fig.get_suptitle()
    lines = title.splitlines()
    assert lines[0] == "record x"
    assert lines[1] == ("Camel Up Cards · 4 players · 49 turns · game over after leg 3: "
                        "winner green, loser white")
    assert f"start {record.start.to_notation()}" in flat(title)
    for words in (f"{REPLAY_SAMPLES:,} races per turn", f"seed {SEED}", "±1.96 SE",
                  "mover's view", "the race's result"):
        assert words in lines[-1]
    assert_titled(fig, *lines)  # above both panels, inside the image
    _, short = load_record(record_head(3))
    untitled = charts.replay_chart(short, samples=200, seed=SEED).get_suptitle()
    assert untitled.startswith("Camel Up Cards · 4 players · 3 turns · game not over")


def test_replay_of_an_unfinished_game(unfinished):
    """A record cut in leg 2: the last point is the race odds after the last turn as the
    next mover knows it (the full record's position before its next turn); the money is
    the money then; one leg line."""
    text, _, steps, fig = unfinished
    assert len(steps) == CUT and not steps.over
    _, full = load_record(GAME_4P.read_text())
    race_ax, money_ax = fig.axes
    p, _ = race_wins(full[CUT][0])
    lines = camel_lines(race_ax)
    for c, name in enumerate(NAMES):
        assert lines[name].get_ydata()[-1] == p[c]
    money = [line.get_ydata()[-1] for line in money_lines(money_ax)]
    assert money == list(full[CUT][0].money)
    assert money == list(stated_money(text)[-1])
    assert all(line.get_label().endswith(" now") for line in money_lines(money_ax))
    for ax in fig.axes:
        assert boundaries(ax) == stated_ends(text) == [15]
    assert (f"game not over: leg 2, player {full[CUT][1].player} to move"
            in fig.get_suptitle())
    assert "result" not in fig.get_suptitle().splitlines()[-1]


@pytest.mark.parametrize("case", ["whole", "unfinished"])
def test_replay_chart_files_and_layout(case, request, tmp_path):
    fig = request.getfixturevalue(case)[-1]
    assert_no_clipped_text(fig)
    assert_legends_clear(fig)
    assert_saves(fig, tmp_path, charts.REPLAY_SIZE)


def test_a_record_without_turns_is_refused():
    text = record_head(1).splitlines()
    _, steps = load_record("\n".join(text[:-1]) + "\n")
    assert len(steps) == 0
    with pytest.raises(OddsbotError, match="no turns"):
        charts.replay_chart(steps, samples=REPLAY_SAMPLES)


REPLAY_CHARTS = registry.spec("camel-up-cards").has(Capability.REPLAY_CHART)


@pytest.mark.skipif(not REPLAY_CHARTS, reason="the GameSpec does not declare replay charts "
                                              "yet")
def test_cli_replay_chart(oddsbot_cli, tmp_path):
    record = tmp_path / "short.record"
    record.write_text(record_head(6))
    chart = tmp_path / "replay.png"
    run = ok(oddsbot_cli("replay", record, "--samples", 500, "--format", "csv", "--chart",
                         chart))
    assert len(run.out.strip().splitlines()) == 1 + 6  # the annotation, as without --chart
    assert f"wrote {chart}: 6 turns" in run.err
    assert matplotlib.image.imread(chart).shape == (*pixels(charts.REPLAY_SIZE), 4)
