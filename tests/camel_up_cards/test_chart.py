"""The Camel Up Cards position chart (``oddsbot chart POSITION --out FILE``).

Every figure is inspected before it is saved: its bars are the face's ``odds`` of the
same position, samples and seed (leg places stacked 1st to 5th, race winner and loser with
±1.96 SE error bars), in the palette's camel colours; its title names the player to move,
the leg, the position and the method; no text leaves the figure and the legend covers
nothing; saved files are read back (PNG pixel size, SVG root).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.image
import numpy as np
import pytest
from matplotlib.colors import to_rgb

from checks import ok
from figure_checks import (
    assert_legends_clear, assert_no_clipped_text, assert_saves, bars, pixels,
)
from oddsbot.analyser import registry
from oddsbot.analyser.camel_up_cards import face
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


def test_target_se_sets_the_samples():
    """Without --samples, --target-se asks for enough races that every SE is at most it
    (the worst case, p = 1/2); without either, the face's default."""
    assert charts.samples_for(0.01) == 2500 and charts.samples_for(0.002) == 62500
    pos = face.new_position(4, 2)
    fig = charts.position_chart(pos, seed=1, target_se=0.01)
    odds = face.odds(pos, samples=2500, seed=1)
    assert "2,500 races" in fig.get_suptitle()
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
