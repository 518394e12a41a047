"""Camel Up Cards charts: the odds of one position as its viewer knows it, and a replayed
game turn by turn.

The position chart is drawn from the face's ``odds`` (docs/games/camel-up-cards.md §14):
each camel's place at the end of this leg (exact, or sampled with a large deck) as a
stacked bar, and its chance of winning and of losing the race (sampled) with ±1.96 SE
(about 95 %) error bars. The replay chart draws every camel's race-win chance before each
turn of a record as its mover knew the game (``outcomes.race_places``, ±1.96 SE bands)
over every player's money after each turn, with the legs' ends marked.
Probabilities are on a 0..1 axis, money in EP; every camel is drawn in its palette style
(``reports.palette``), every player in a series colour and a marker of its own. Figure
sizes are in inches at ``figures.DPI``.
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
from matplotlib.ticker import MaxNLocator
from matplotlib.transforms import offset_copy

from ...analyser.camel_up_cards import face
from ...analyser.camel_up_cards.advise import COLOUR_NAMES
from ...analyser.camel_up_cards.encode import deck_of, track_of
from ...analyser.camel_up_cards.outcomes import race_places
from ...analyser.camel_up_cards.position import Position
from ...analyser.camel_up_cards.record import Replay
from ...analyser.camel_up_cards.simulate import decode
from ...errors import OddsbotError
from ...kernels.camel_up_cards import game as G
from ...kernels.rng import stream
from .. import figures, palette, plots

POSITION_SIZE = (12.0, 6.0)  # inches: 1200 x 600 px at figures.DPI
Z = 1.96  # error bars and bands: ±Z standard errors
TITLE_WIDTH = 150  # characters per title line before wrapping (at spaces only)
TITLE_SIZE = "medium"
PLACES = ("1st", "2nd", "3rd", "4th", "5th")
PLACE_TINT = (0.0, 0.3, 0.5, 0.68, 0.82)  # share of white mixed into a camel's colour
MIN_LABELLED = 0.05  # stacked segments at least this tall get a place label
LOSER_HATCH = "xx"
BAR_WIDTH = 0.38  # each of a camel's two race bars
VALUE_ROOM = 1.08  # both panels' y axes reach this far: room for the race bars' labels
REPLAY_SIZE = (12.0, 8.0)  # inches: 1200 x 800 px
REPLAY_HEIGHTS = (3, 2)  # the race-win panel over the money panel
BOUNDARY = "leg-boundary"  # gid of the replay chart's lines where a leg ended
LEG_LABEL = "leg-label"  # gid of the replay chart's leg names over the money panel
TAIL = "after-the-last-turn"  # gid of the replay lines' last steps, to the right edge
MARKERS = 20  # about this many markers per replay line
END_ROOM = 0.04  # room right of the last turn, a share of the turns (a turn at least), so
# its step shows: a finished game's last payouts and result
PLAYER_MARKERS = ("o", "s", "^", "D", "v", "P")  # per seat: readable in greyscale
MONEY_SPREAD = 1.6  # points between the seats' money lines: equal money stays visible
GRID = "#dddddd"
MONEY_ROOM = 1.15  # the money axis reaches this share past the most money: the leg names


def position_chart(pos: Position, *, samples: int | None = None, seed: int = 0,
                   target_se: float | None = None) -> Figure:
    """Every camel's place at the end of this leg and its race winner / loser odds
    (``face.odds``): ``samples`` sampled races and legs, or batches until ``target_se``
    (``samples`` at most), or the face's default (100,000)."""
    odds = face.odds(pos, samples=samples, seed=seed, target_se=target_se)
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


def replay_chart(steps: Replay, *, samples: int = 20000, seed: int = 0,
                 title: str | None = None) -> Figure:
    """A replayed record (``record.load_record(text)[1]``) turn by turn, x = turns played
    (0 = the start): above, every camel's race-win probability before each turn as the
    mover knew the game (``outcomes.race_places``: ``samples`` races, ``seed``, the same
    every turn) and after the last turn (the next mover's view; if the race is over, its
    result: 1 for the winner camel), with ±1.96 SE bands; below, every player's money
    after each turn (EP, payouts included). Both are steps: a value holds from its turn
    until the next turn is played (``drawstyle="steps-post"``). Dashed lines where a leg
    ended (the race's end included). ``title`` (e.g. the record's name) heads the chart."""
    if not steps:
        raise OddsbotError("record: no turns to chart")
    start = steps[0][0]
    p, se = _race_wins(steps, samples, seed)
    money = _money(steps)
    ends = leg_ends(steps)
    fig = figures.figure(*REPLAY_SIZE)
    race_ax, money_ax = fig.subplots(2, 1, sharex=True, height_ratios=REPLAY_HEIGHTS)
    turns = np.arange(len(steps) + 1)
    right = len(steps) + max(1.0, END_ROOM * len(steps))
    for c, name in enumerate(COLOUR_NAMES):
        _camel_line(race_ax, turns, p[:, c], se[:, c], name, right)
    for seat in range(start.players):
        _money_line(money_ax, turns, money[:, seat], seat, start.players, right,
                    f"player {seat}: {money[-1, seat]} EP" + (" at the end" if steps.over
                                                             else " now"))
    for ax in (race_ax, money_ax):
        for i, k in enumerate(ends):
            ax.axvline(k, color="#777777", linestyle="--", linewidth=0.9, gid=BOUNDARY,
                       zorder=1, label="leg ended" if i == 0 else "_nolegend_")
        ax.grid(axis="y", color=GRID, linewidth=0.6)
        ax.set_axisbelow(True)
    race_ax.set(xlim=(0, right), ylim=(-0.02, 1.02),
                yticks=np.linspace(0, 1, 6), ylabel="race-win probability")
    race_ax.set_title("each camel's chance of winning the race, before each turn, as the "
                      "player to move knew it", fontsize="medium")
    money_ax.set(ylim=(0, max(1, int(money.max())) * MONEY_ROOM), ylabel="money (EP)",
                 xlabel="turns played (0 = the start)")
    money_ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ticks = MaxNLocator(integer=True, steps=(1, 2, 5, 10)).tick_values(0, len(steps))
    money_ax.set_xticks([t for t in ticks if 0 <= t <= len(steps)])  # turns played only
    money_ax.set_title("each player's money after each turn (EP, payouts included)",
                       fontsize="medium")
    _leg_names(money_ax, steps, ends)
    plots.legend(race_ax)
    plots.legend(money_ax)
    fig.suptitle(_replay_title(steps, samples, seed, title), fontsize=TITLE_SIZE)
    return fig


def leg_ends(steps: Replay) -> list[int]:
    """Turns ``k`` (1-based) that ended a leg: the next turn is in a later leg, or the
    race ended with turn ``k`` (the last)."""
    legs = [int(st[G.LEG]) for st in steps.states] + [steps.leg]
    ends = [k for k in range(1, len(steps) + 1) if legs[k] > legs[k - 1]]
    return ends + ([len(steps)] if steps.over and len(steps) not in ends else [])


def _race_wins(steps: Replay, samples: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``[turn, camel]`` race-win probabilities and their SEs before every turn (the
    mover's view) and after the last (certain if the race is over)."""
    views = [pos for pos, _ in steps] + ([] if steps.over else [_after(steps)])
    p, se = [], []
    for pos in views:
        race = race_places(track_of(pos), deck_of(pos), pos.deck_size, samples, seed)
        p.append(race.p[0])
        se.append(race.se()[0])
    if steps.over:
        p.append(np.array([float(name == steps.winner) for name in COLOUR_NAMES]))
        se.append(np.zeros(len(COLOUR_NAMES)))
    return np.array(p), np.array(se)


def _money(steps: Replay) -> np.ndarray:
    """``[turn, seat]``: everyone's money at the start and after every turn."""
    return np.array([pos.money for pos, _ in steps] + [steps.money])


def _after(steps: Replay) -> Position:
    """The position after the last turn of an unfinished game, as the next mover knows
    it. The state before the turn already holds the card a reveal drew next in its race
    deck; the turn did not end a leg (``load_record`` refuses a record that stops where a
    deal line is due), so the kernel deals no cards of its own."""
    st = steps.states[-1].copy()
    turn = steps[-1][1]
    G.play_turn(st, stream(np.uint64(0), 0), turn.bet1, turn.race, turn.bet2)
    return decode(st)


def _replay_title(steps: Replay, samples: int, seed: int, title: str | None) -> str:
    """``title``, the game and how it ends, the start position (wrapped), the method."""
    start = steps[0][0]
    ending = (f"game over after leg {steps.leg}: winner {steps.winner}, loser {steps.loser}"
              if steps.over else f"game not over: leg {steps.leg}, player {steps.to_move} "
                                 f"to move")
    head = (f"Camel Up Cards · {start.players} players · {len(steps)} turns · {ending}")
    method = (f"race-win probability: Monte Carlo, {samples:,} races per turn from its "
              f"mover's view, seed {seed}, bands ±{Z} SE" + (" · after the last turn: the "
                                                             "race's result" if steps.over
                                                             else ""))
    lines = ([title] if title else []) + [head, f"start {start.to_notation()}", method]
    return "\n".join(textwrap.fill(line, TITLE_WIDTH, break_long_words=False,
                                   break_on_hyphens=False) for line in lines)


def _leg_names(ax: Axes, steps: Replay, ends: list[int]) -> None:
    """Each leg's name at the top of ``ax`` (in the room ``MONEY_ROOM`` keeps free),
    centred on its turns."""
    legs = [int(st[G.LEG]) for st in steps.states]
    edges = [0, *[k for k in ends if k < len(steps)], len(steps)]
    for a, b in zip(edges, edges[1:]):
        ax.annotate(f"leg {legs[a]}", ((a + b) / 2, 1), xycoords=("data", "axes fraction"),
                    xytext=(0, -3), textcoords="offset points", ha="center", va="top",
                    fontsize="small", color="#555555", gid=LEG_LABEL)


def _camel_line(ax: Axes, turns: np.ndarray, p: np.ndarray, se: np.ndarray, name: str,
                right: float) -> None:
    """One camel's probability as steps (outlined in its edge colour) with its ±Z SE
    band, the last value carried on to ``right``; markers on about ``MARKERS`` of the
    turns, the last always."""
    style = palette.camel(name)
    x = np.append(turns, right)
    q, e = np.append(p, p[-1]), np.append(se, se[-1])
    ax.fill_between(x, np.clip(q - Z * e, 0, 1), np.clip(q + Z * e, 0, 1), step="post",
                    color=style.colour, alpha=0.2, linewidth=0)
    look = dict(color=style.colour, linewidth=1.6,
                path_effects=[patheffects.Stroke(linewidth=2.6, foreground=style.edge),
                              patheffects.Normal()])
    ax.plot(turns, p, drawstyle="steps-post", marker=style.marker, markersize=5,
            markeredgecolor=style.edge, markeredgewidth=0.6, label=name,
            markevery=_marked(len(turns)), **look)
    ax.plot([turns[-1], right], [p[-1], p[-1]], gid=TAIL, label="_nolegend_", **look)


def _money_line(ax: Axes, turns: np.ndarray, money: np.ndarray, seat: int, players: int,
                right: float, label: str) -> None:
    """One player's money as steps in its series colour and marker, the last value
    carried on to ``right``, drawn ``MONEY_SPREAD`` points from its neighbours' (the
    data stay exact) so that players with equal money stay apart."""
    shift = (seat - (players - 1) / 2) * MONEY_SPREAD
    look = dict(color=palette.series(seat), linewidth=1.6,
                transform=offset_copy(ax.transData, fig=ax.figure, y=shift, units="points"))
    ax.plot(turns, money, drawstyle="steps-post",
            marker=PLAYER_MARKERS[seat % len(PLAYER_MARKERS)], markersize=5,
            markeredgecolor=palette.EDGE, markeredgewidth=0.6, label=label,
            markevery=_marked(len(turns)), **look)
    ax.plot([turns[-1], right], [money[-1], money[-1]], gid=TAIL, label="_nolegend_",
            **look)


def _marked(n: int) -> list[int]:
    """About ``MARKERS`` of ``n`` points, evenly spaced, the last always."""
    every = max(1, n // MARKERS)
    return sorted({*range(0, n, every), n - 1})


def _tint(colour: str, share: float) -> tuple[float, float, float]:
    """``colour`` mixed with ``share`` of white (0 = the colour itself)."""
    return tuple((1 - share) * np.array(to_rgb(colour)) + share)


def _luminance(rgb: tuple[float, float, float]) -> float:
    """Relative luminance (0 black .. 1 white) of an sRGB colour, Rec. 709 weights."""
    r, g, b = rgb
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
