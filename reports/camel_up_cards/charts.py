"""Camel Up Cards position chart: the odds of one position as its viewer knows it.

Drawn from the face's ``odds`` (docs/games/camel-up-cards.md §14): each camel's place at
the end of this leg (exact, or sampled with a large deck) as a stacked bar, and its chance
of winning and of losing the race (sampled) with ±1.96 SE (about 95 %) error bars.
Probabilities are on a 0..1 axis; every camel is drawn in its palette style
(``reports.palette``). Figure sizes are in inches at ``figures.DPI``.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from ...analyser.camel_up_cards import face
from ...analyser.camel_up_cards.advise import COLOUR_NAMES
from ...analyser.camel_up_cards.position import Position
from .. import figures, palette

POSITION_SIZE = (12.0, 6.0)  # inches: 1200 x 600 px at figures.DPI
Z = 1.96  # error bars: ±Z standard errors
TITLE_WIDTH = 150  # characters per title line before wrapping (at spaces only)
TITLE_SIZE = "medium"
PLACES = ("1st", "2nd", "3rd", "4th", "5th")
PLACE_TINT = (0.0, 0.3, 0.5, 0.68, 0.82)  # share of white mixed into a camel's colour
MIN_LABELLED = 0.05  # stacked segments at least this tall get a place label
LOSER_HATCH = "xx"
BAR_WIDTH = 0.38  # each of a camel's two race bars
VALUE_ROOM = 1.08  # both panels' y axes reach this far: room for the race bars' labels


def samples_for(target_se: float) -> int:
    """Races (and sampled legs) for every standard error to be at most ``target_se``:
    the worst case, p = 1/2, needs 1 / (4 target_se²)."""
    return math.ceil(0.25 / target_se ** 2)


def position_chart(pos: Position, *, samples: int | None = None, seed: int = 0,
                   target_se: float | None = None) -> Figure:
    """Every camel's place at the end of this leg and its race winner / loser odds
    (``face.odds``): ``samples`` sampled races and legs, or enough for ``target_se``
    (``samples_for``) when only that is given, or the face's default (100,000)."""
    if samples is None and target_se is not None:
        samples = samples_for(target_se)
    odds = face.odds(pos, samples=samples, seed=seed)
    camels = odds["camels"]
    prov = odds["provenance"]
    places = np.array([[c[f"p{k + 1}"] for k in range(len(PLACES))] for c in camels])
    fig = figures.figure(*POSITION_SIZE)
    leg_ax, race_ax = fig.subplots(1, 2)
    names = [COLOUR_NAMES[i] for i in range(len(camels))]
    _leg_panel(leg_ax, names, places, _leg_heading(prov, places))
    _race_panel(race_ax, names, camels, prov["race_samples"])
    fig.suptitle(_title(pos, odds, seed), fontsize=TITLE_SIZE)
    return fig


def _leg_heading(prov: dict, places: np.ndarray) -> str:
    """The leg panel's heading: exact, or sampled with the largest SE."""
    if prov["leg"] == "exact":
        return "place at the end of this leg: exact (1st at the bottom)"
    worst = float(np.sqrt(places * (1 - places) / prov["leg_samples"]).max())
    return (f"place at the end of this leg: {prov['leg_samples']:,} sampled legs, SE at "
            f"most {worst:.4f} (1st at the bottom)")


def _title(pos: Position, odds: dict, seed: int) -> str:
    """Who is to move in which leg, the position's notation (wrapped), then the method."""
    prov = odds["provenance"]
    phase = {"start": "", "bet": ", bet taken", "race": ", race action taken"}[pos.phase]
    viewer = "" if pos.viewer == pos.to_move else f", seen by player {pos.viewer}"
    head = (f"Camel Up Cards · leg {pos.leg} · player {pos.to_move} to move{phase}{viewer} · "
            f"{pos.players} players · race deck {pos.deck_count} of {pos.deck_size} cards "
            f"left")
    method = (f"race: Monte Carlo, {prov['race_samples']:,} races, seed {seed}, error bars "
              f"±{Z} SE · race ends this leg {odds['race_ends_this_leg']:.1%} · legs left "
              f"{odds['legs_left']:.2f} (this one included)")
    notation = textwrap.fill(pos.to_notation(), TITLE_WIDTH, break_long_words=False,
                             break_on_hyphens=False)
    return "\n".join([head, notation, method])


def _leg_panel(ax: Axes, names: Sequence[str], places: np.ndarray, heading: str) -> None:
    """One bar per camel stacked 1st (bottom, full camel colour) to 5th (palest)."""
    x = np.arange(len(names))
    styles = [palette.camel(c) for c in names]
    bottom = np.zeros(len(names))
    for place, label in enumerate(PLACES):
        faces = [_tint(s.colour, PLACE_TINT[place]) for s in styles]
        bars = ax.bar(x, places[:, place], 0.7, bottom=bottom, color=faces,
                      edgecolor=[s.edge for s in styles], linewidth=0.6, label=label)
        for patch, style in zip(bars, styles):
            patch.set_hatch(style.hatch)
        texts = ax.bar_label(bars, label_type="center", fontsize=8, labels=[
            f"{label} {q:.0%}" if q >= MIN_LABELLED else "" for q in places[:, place]])
        for text, face_colour, style in zip(texts, faces, styles):
            text.set_color("white" if _luminance(face_colour) < 0.45 else "black")
            if style.hatch:  # a plain patch behind the label keeps it off the hatching
                text.set_bbox({"facecolor": face_colour, "edgecolor": "none", "pad": 1})
        bottom += places[:, place]
    _camel_axis(ax, names, heading)


def _race_panel(ax: Axes, names: Sequence[str], camels: list[dict], races: int) -> None:
    """Race winner (plain) and loser (cross-hatched) bars per camel, ±Z SE, each bar's
    value above its error bar; the key under the x label, clear of the bars."""
    x = np.arange(len(names))
    styles = [palette.camel(c) for c in names]
    for k, (label, p_key, se_key, hatch) in enumerate(
            (("winner", "race_win", "win_se", ""), ("loser", "race_lose", "lose_se",
                                                     LOSER_HATCH))):
        p = np.array([c[p_key] for c in camels])
        se = np.array([c[se_key] for c in camels])
        bars = ax.bar(x + (k - 0.5) * BAR_WIDTH, p, BAR_WIDTH, yerr=Z * se, label=label,
                      color=[s.colour for s in styles], edgecolor=[s.edge for s in styles],
                      linewidth=0.6, error_kw={"ecolor": palette.EDGE, "capsize": 3,
                                               "elinewidth": 1})
        for patch, style in zip(bars, styles):
            patch.set_hatch(style.hatch + hatch)
        for xi, pi, si in zip(x + (k - 0.5) * BAR_WIDTH, p, se):
            ax.annotate(f"{pi:.0%}" if pi >= 0.005 or pi == 0 else "<1%",
                        (xi, pi + Z * si), xytext=(0, 2), textcoords="offset points",
                        ha="center", va="bottom", fontsize=7.5, color="#222222")
    ax.legend(handles=[Patch(facecolor="white", edgecolor=palette.EDGE, hatch=h,
                             label=f"race {label}")
                       for label, h in (("winner", ""), ("loser", LOSER_HATCH))],
              loc="upper center", bbox_to_anchor=(0.5, -0.1), ncols=2, frameon=False)
    _camel_axis(ax, names, f"race winner / loser: {races:,} sampled races, ±{Z} SE")


def _camel_axis(ax: Axes, names: Sequence[str], heading: str) -> None:
    """Camel names as x ticks, probability 0..1 on y (room above it up to
    ``VALUE_ROOM``, the same in both panels), heading."""
    ax.set_xticks(np.arange(len(names)), names)
    ax.set(ylim=(0, VALUE_ROOM), ylabel="probability", xlabel="camel", title=heading)
    ax.set_yticks(np.linspace(0, 1, 6))
    ax.grid(axis="y", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    ax.title.set_fontsize("medium")


def _tint(colour: str, share: float) -> tuple[float, float, float]:
    """``colour`` mixed with ``share`` of white (0 = the colour itself)."""
    return tuple((1 - share) * np.array(to_rgb(colour)) + share)


def _luminance(rgb: tuple[float, float, float]) -> float:
    """Relative luminance (0 black .. 1 white) of an sRGB colour, Rec. 709 weights."""
    r, g, b = rgb
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
