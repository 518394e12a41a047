"""Camel Up charts: the odds of one position, and race-win odds turn by turn through a
recorded game.

Probabilities are on a 0..1 axis; race odds are exact where the race fits the budget
(docs/games/camel-up.md §9.1), and Monte Carlo estimates carry ±1.96 SE (about 95 %) error
bars or bands (none for exact values). Every camel is drawn in its palette style (``reports.palette``).
Figure sizes are in inches at ``figures.DPI``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import numpy as np
from matplotlib import patheffects
from matplotlib.axes import Axes
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from ...analyser.camel_up import GAME
from ...analyser.camel_up.encode import decode, encode
from ...analyser.camel_up.odds import RaceOdds, leg_distribution, race_odds
from ...analyser.camel_up.position import Position
from ...analyser.camel_up.record import RecordTurn, Replay
from ...analyser.camel_up.validate import validate
from ...errors import OddsbotError
from ...analyser.montecarlo import Plan
from ...kernels import camel_up as K
from .. import figures, palette, plots

POSITION_SIZE = (12.0, 5.6)  # inches: 1200 x 560 px at figures.DPI
REPLAY_SIZE = (12.0, 6.0)  # inches: 1200 x 600 px
Z = 1.96  # error bars and bands: ±Z standard errors
TITLE_WIDTH = 120  # characters per title line before wrapping
PLACES = ("1st", "2nd", "3rd", "4th", "5th")
PLACE_TINT = (0.0, 0.3, 0.5, 0.68, 0.82)  # share of white mixed into a camel's colour
MIN_LABELLED = 0.05  # stacked segments at least this tall get a place label
LOSER_HATCH = "xx"
BOUNDARY = "leg-boundary"  # gid of the leg-boundary lines of the replay chart
MARKERS = 20  # about this many markers per replay line
END_MARGIN = 0.01  # room right of the last turn, a share of the turns, so its step shows


def position_chart(pos: Position, *, samples: int | None = None, seed: int = 0,
                   target_se: float | None = None) -> Figure:
    """Leg-place distribution (exact) and race winner / loser odds (Monte Carlo,
    ``samples`` races or until ``target_se``) of every racing camel of ``pos``."""
    validate(pos)
    colours = pos.rules.colours
    race = race_odds(pos, Plan.of(samples, target_se, GAME.target_se["chart"]), seed)
    fig = figures.figure(*POSITION_SIZE)
    leg_ax, race_ax = fig.subplots(1, 2)
    _leg_panel(leg_ax, colours, leg_distribution(pos).rank_probabilities)
    _race_panel(race_ax, colours, race)
    fig.suptitle(_title([pos.to_notation()], "leg: exact enumeration · race: " + (
        f"exact, {race.states:,} states" if race.method == "exact" else
        f"Monte Carlo, {race.samples:,} races, seed {seed}, error bars ±{Z} SE")))
    return fig


def replay_chart(steps: Replay, *, samples: int = 20000, seed: int = 0,
                 title: str | None = None) -> Figure:
    """Every racing camel's race-win probability before each turn of a replayed record
    (x = turns played, 0 = the start) and after the last, with ±1.96 SE bands; dashed
    lines where a leg ended. The values are steps: each holds from the turn it was
    estimated at until the next turn is played (``drawstyle="steps-post"``). ``title``
    (e.g. the record's name) heads the chart."""
    if not steps:
        raise OddsbotError("record: no turns to chart")
    start = steps[0][0]
    colours = start.rules.colours
    end = None if steps.over else _after(*steps[-1])
    p, se, races, exact = _race_wins(steps, end, Plan(samples=samples, target_se=None), seed)
    fig = figures.figure(*REPLAY_SIZE)
    ax = fig.subplots()
    turns = np.arange(len(steps) + 1)
    for c, colour in enumerate(colours):
        _camel_line(ax, turns, p[:, c], se[:, c], colour)
    for i, k in enumerate(_leg_ends(steps, end)):
        ax.axvline(k, color="#777777", linestyle="--", linewidth=0.9, gid=BOUNDARY,
                   label="leg ended" if i == 0 else "_nolegend_", zorder=1)
    ax.set(xlim=(0, len(steps) + END_MARGIN * len(steps)), ylim=(-0.02, 1.02),
           yticks=np.linspace(0, 1, 6), xlabel="turn (0 = start)",
           ylabel="race-win probability")
    ax.grid(axis="y", color="#dddddd", linewidth=0.6)
    plots.legend(ax)
    heading = [title] if title else []
    estimates = len(steps) + (end is not None)
    how = (f"Monte Carlo, {races:,} races per turn, seed {seed}, bands ±{Z} SE"
           if races else "")
    if exact == estimates:
        how = "exact at every turn"
    elif exact:
        how = f"exact at {exact} of {estimates} turns, elsewhere " + how
    fig.suptitle(_title(heading + [f"start {start.to_notation()}"],
                        f"race-win probability: {how}"))
    return fig


def _race_wins(steps: Replay, end: Position | None, plan: Plan,
               seed: int) -> tuple[np.ndarray, np.ndarray, int, int]:
    """``[turn, camel]`` race-win probabilities and their SEs before every turn and after
    the last (``end``; certain if the game ended), the races per sampled estimate (0 if
    none was sampled) and the number of exact estimates."""
    odds = [race_odds(pos, plan, seed)
            for pos in [pos for pos, _ in steps] + ([] if end is None else [end])]
    p = [r.win for r in odds]
    se = [r.win_se for r in odds]
    if end is None:
        colours = steps[0][0].rules.colours
        p.append(np.array([float(c == steps.winner) for c in colours]))
        se.append(np.zeros(len(colours)))
    sampled = [r.samples for r in odds if r.method != "exact"]
    return (np.array(p), np.array(se), sampled[0] if sampled else 0,
            sum(r.method == "exact" for r in odds))


def _leg_ends(steps: Replay, end: Position | None) -> list[int]:
    """Turns ``k`` (1-based) after which a new leg began: turn ``k`` rolled a die and left
    a full pyramid. ``end`` is the position after the last turn (None: the game ended)."""
    after = [pos for pos, _ in steps[1:]] + ([] if end is None else [end])
    return [k for k, ((_, turn), pos) in enumerate(zip(steps, after), start=1)
            if turn.roll is not None and len(pos.pyramid) == len(pos.rules.dice)]


def _after(pos: Position, turn: RecordTurn) -> Position:
    """The position after ``turn`` (the game must still be running)."""
    st = encode(pos)
    K.apply_action(st, turn.code, turn.die, turn.face)
    return decode(st, pos.variant, pos.players)


def _leg_panel(ax: Axes, colours: Sequence[str], ranks: np.ndarray) -> None:
    """One bar per camel stacked 1st (bottom, full camel colour) to 5th (palest)."""
    x = np.arange(len(colours))
    styles = [palette.camel(c) for c in colours]
    bottom = np.zeros(len(colours))
    for place, name in enumerate(PLACES):
        faces = [_tint(s.colour, PLACE_TINT[place]) for s in styles]
        bars = ax.bar(x, ranks[:, place], 0.7, bottom=bottom, color=faces,
                      edgecolor=[s.edge for s in styles], linewidth=0.6, label=name)
        for patch, style in zip(bars, styles):
            patch.set_hatch(style.hatch)
        labels = ax.bar_label(bars, label_type="center", fontsize=8, labels=[
            f"{name} {q:.0%}" if q >= MIN_LABELLED else "" for q in ranks[:, place]])
        for text, face in zip(labels, faces):
            text.set_color("white" if _luminance(face) < 0.45 else "black")
        bottom += ranks[:, place]
    _camel_axis(ax, colours, "P(leg place), exact: 1st at the bottom")


def _race_panel(ax: Axes, colours: Sequence[str], race: RaceOdds) -> None:
    """Race winner (plain) and loser (cross-hatched) bars per camel, ±1.96 SE (none when
    exact)."""
    x = np.arange(len(colours))
    styles = [palette.camel(c) for c in colours]
    width = 0.38
    for k, (label, p, se, hatch) in enumerate((("winner", race.win, race.win_se, ""),
                                               ("loser", race.lose, race.lose_se,
                                                LOSER_HATCH))):
        bars = ax.bar(x + (k - 0.5) * width, p, width, yerr=Z * se, label=label,
                      color=[s.colour for s in styles], edgecolor=[s.edge for s in styles],
                      linewidth=0.6, error_kw={"ecolor": palette.EDGE, "capsize": 3,
                                               "elinewidth": 1})
        for patch, style in zip(bars, styles):
            patch.set_hatch(style.hatch + hatch)
    ax.legend(handles=[Patch(facecolor="white", edgecolor=palette.EDGE, hatch=h,
                             label=f"race {label}")
                       for label, h in (("winner", ""), ("loser", LOSER_HATCH))],
              loc="best", frameon=False)
    _camel_axis(ax, colours, "P(race winner / loser), " + (
        "exact" if race.method == "exact" else f"Monte Carlo ±{Z} SE"))


def _camel_axis(ax: Axes, colours: Sequence[str], heading: str) -> None:
    """Camel names as x ticks, probability 0..1 on y, panel heading."""
    ax.set_xticks(np.arange(len(colours)), colours)
    ax.set(ylim=(0, 1), ylabel="probability", xlabel="camel", title=heading)
    ax.grid(axis="y", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)


def _camel_line(ax: Axes, turns: np.ndarray, p: np.ndarray, se: np.ndarray,
                colour: str) -> None:
    """One camel's probability as steps (outlined in its edge colour) with its ±Z SE
    band; markers on about ``MARKERS`` of the turns, the last always."""
    style = palette.camel(colour)
    ax.fill_between(turns, np.clip(p - Z * se, 0, 1), np.clip(p + Z * se, 0, 1),
                    step="post", color=style.colour, alpha=0.2, linewidth=0)
    every = max(1, len(turns) // MARKERS)
    ax.plot(turns, p, drawstyle="steps-post", color=style.colour, marker=style.marker,
            markersize=5, markeredgecolor=style.edge, markeredgewidth=0.6, linewidth=1.6,
            label=colour, markevery=sorted({*range(0, len(turns), every), len(turns) - 1}),
            path_effects=[patheffects.Stroke(linewidth=2.6, foreground=style.edge),
                          patheffects.Normal()])


def _title(lines: list[str], method: str) -> str:
    """Title lines wrapped at ``TITLE_WIDTH`` characters (at spaces only), then the
    method line."""
    wrapped = [textwrap.fill(line, TITLE_WIDTH, break_long_words=False,
                             break_on_hyphens=False) for line in lines]
    return "\n".join(wrapped + [method])


def _tint(colour: str, share: float) -> tuple[float, float, float]:
    """``colour`` mixed with ``share`` of white (0 = the colour itself)."""
    return tuple((1 - share) * np.array(to_rgb(colour)) + share)


def _luminance(rgb: tuple[float, float, float]) -> float:
    """Relative luminance (0 black .. 1 white) of an sRGB colour, Rec. 709 weights."""
    r, g, b = rgb
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
