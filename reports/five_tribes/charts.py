"""Five Tribes charts: the standings of one position, and every player's win probability
action by action through a replayed game.

Win probabilities are on a 0..1 axis and scores in VP. Rollouts of the whole game
(``analyser.five_tribes.rollouts``, docs/games/five-tribes.md §21) carry ±1.96 SE (about
95 %) error bars or bands; scores if the game ended now are exact. The replay chart draws
the players in the palette's series colours; the position chart gives those colours to
the score parts (as the designer report does, ``plots.stacked_bars``) and draws the win
bars beside them in one neutral grey. Figure sizes are in inches at ``figures.DPI``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from typing import Any, Protocol

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ...analyser.five_tribes.encode import encode
from ...analyser.five_tribes.position import Position
from ...analyser.five_tribes.rollouts import Standings, shares, standings
from ...analyser.five_tribes.validate import validate
from ...errors import OddsbotError
from ...kernels import five_tribes as FT
from .. import figures, palette, plots

POSITION_SIZE = (12.0, 6.0)  # inches: 1200 x 600 px at figures.DPI
REPLAY_SIZE = (12.0, 6.0)  # inches: 1200 x 600 px
Z = 1.96  # error bars and bands: ±Z standard errors
TITLE_WIDTH = 140  # characters per title line before wrapping (at TITLE_SIZE)
TITLE_SIZE = "medium"
# Rollouts per action of the replay chart at most (``--samples`` caps them lower): a
# rollout is a whole game, about a millisecond, so 512 take about a second per action.
REPLAY_ROLLOUTS = 512
PLAYER_MARKERS = ("o", "s", "^", "D")  # per seat: replay lines stay readable in greyscale
MARKERS = 20  # about this many markers per replay line
END_MARGIN = 0.01  # room right of the last action, a share of the actions, so its step shows
ROUND = "round-start"  # gid of the replay chart's lines where a new round's bidding began
GRID = "#dddddd"
LABEL_ROOM = 1.25  # the score axis reaches this share past the largest score: its label
BAR_HEIGHT = 0.8  # of a player's row: as tall as ``plots.stacked_bars``' bars beside them
WIN_BARS = "#9e9e9e"  # neutral: the score parts beside them take the series colours


class Replay(Protocol):
    """A replayed record (``analyser.five_tribes.record.load_record(text)[1]``): (position
    before the action, turn) pairs, whether the game is ``over``, and the ``final``
    position after the last action."""

    over: bool
    final: Position

    def __len__(self) -> int: ...

    def __getitem__(self, i: int) -> tuple[Position, Any]: ...

    def __iter__(self) -> Iterator[tuple[Position, Any]]: ...


def position_chart(pos: Position, *, samples: int | None = None, seed: int = 0,
                   target_se: float | None = None) -> Figure:
    """Every player's win probability (rollouts: ``samples`` whole games, or until every
    SE is at most ``target_se``, ``samples`` at most: ``standings``) beside their score
    by part if the game ended now (exact, VP) and their expected final score (rollouts,
    VP)."""
    validate(pos)
    ahead = standings(pos, rollouts=samples, seed=seed, target_se=target_se)
    fig = figures.figure(*POSITION_SIZE)
    win_ax, score_ax = fig.subplots(1, 2, sharey=True, width_ratios=(2, 3))
    _win_panel(win_ax, ahead)
    _score_panel(score_ax, FT.state_scores(encode(pos)), ahead)
    fig.suptitle(_title([pos.to_notation()],
                        f"win probability and expected final score: {ahead.rollouts:,} "
                        f"rollouts, every seat {ahead.policy}, seed {seed}, ±{Z} SE · "
                        f"score by part: exact"), fontsize=TITLE_SIZE)
    return fig


def replay_chart(steps: Replay, *, samples: int = 20000, seed: int = 0,
                 title: str | None = None) -> Figure:
    """Every player's win probability before each bid or turn of a replayed record (x =
    actions played, 0 = the start) and after the last, with ±1.96 SE bands: rollouts,
    ``min(samples, REPLAY_ROLLOUTS)`` per action; the end of a finished game is exact (the
    winners of the final scores, ties shared). The values are steps: each holds from the
    action it was estimated at until the next is played. Dashed lines where a round's
    bidding began. ``title`` (e.g. the record's name) heads the chart."""
    if not steps:
        raise OddsbotError("record: no turns to chart")
    start = steps[0][0]
    n = min(samples, REPLAY_ROLLOUTS)
    ahead = [standings(pos, rollouts=n, seed=seed) for pos, _ in steps]
    if not steps.over:
        ahead.append(standings(steps.final, rollouts=n, seed=seed))
    p = [a.win for a in ahead] + ([_final_win(steps.final)] if steps.over else [])
    se = [a.win_se for a in ahead] + ([np.zeros(start.n_players)] if steps.over else [])
    fig = figures.figure(*REPLAY_SIZE)
    ax = fig.subplots()
    actions = np.arange(len(steps) + 1)
    for seat, (q, e) in enumerate(zip(np.array(p).T, np.array(se).T)):
        _player_line(ax, actions, q, e, seat)
    for i, k in enumerate(_round_starts(steps)):
        ax.axvline(k, color="#777777", linestyle="--", linewidth=0.9, gid=ROUND, zorder=1,
                   label="new round" if i == 0 else "_nolegend_")
    ax.set(xlim=(0, len(steps) * (1 + END_MARGIN)), ylim=(-0.02, 1.02),
           yticks=np.linspace(0, 1, 6), xlabel="bids and turns played (0 = the start)",
           ylabel="win probability")
    ax.grid(axis="y", color=GRID, linewidth=0.6)
    plots.legend(ax)
    ending = " · the end: exact, from the final scores" if steps.over else ""
    fig.suptitle(_title(([title] if title else []) + [f"start {start.to_notation()}"],
                        f"win probability: {ahead[0].rollouts:,} rollouts per action, every "
                        f"seat {ahead[0].policy}, seed {seed}, bands ±{Z} SE{ending}"),
                 fontsize=TITLE_SIZE)
    return fig


def _final_win(pos: Position) -> np.ndarray:
    """Win credit by the final scores of ``pos``: 1 to the best, 1/k to each of k tied."""
    return shares(FT.state_scores(encode(pos))[:, -1].astype(float))


def _round_starts(steps: Replay) -> list[int]:
    """Actions ``k`` (1-based) after which a new round's bidding began (not the end of a
    finished game)."""
    after = [pos for pos, _ in steps[1:]] + ([] if steps.over else [steps.final])
    return [k for k, ((pos, _), nxt) in enumerate(zip(steps, after), start=1)
            if pos.phase == "turns" and nxt.phase == "bidding"]


def _players(n: int) -> list[str]:
    return [f"player {p}" for p in range(n)]


def _win_panel(ax: Axes, ahead: Standings) -> None:
    """One bar per player (the first at the top), its win probability ±Z SE and value."""
    n = len(ahead.win)
    bars = ax.barh(np.arange(n), ahead.win, BAR_HEIGHT, xerr=Z * ahead.win_se, color=WIN_BARS,
                   edgecolor=palette.EDGE, linewidth=0.6,
                   error_kw={"ecolor": palette.EDGE, "capsize": 3, "elinewidth": 1})
    ax.bar_label(bars, [f"{w:.0%}" for w in ahead.win], padding=4, fontsize="small")
    ax.set_yticks(np.arange(n), _players(n))
    ax.set_ylim(n - 0.5, -0.5)  # the first player at the top
    ax.set(xlim=(0, 1.12), xticks=np.linspace(0, 1, 6), xlabel="probability",
           title=f"win probability (ties shared)\nrollouts ±{Z} SE")
    ax.title.set_fontsize(TITLE_SIZE)
    ax.grid(axis="x", color=GRID, linewidth=0.6)
    ax.set_axisbelow(True)


def _score_panel(ax: Axes, parts: np.ndarray, ahead: Standings) -> None:
    """Per player, the score by part if the game ended now (stacked, exact; ``parts``:
    ``state_scores`` rows) and the expected final score (a marker ±Z SE), in VP."""
    n = len(parts)
    ax.errorbar(ahead.score, np.arange(n), xerr=Z * ahead.score_se, fmt="D", markersize=7,
                color=palette.EDGE, markerfacecolor="white", markeredgewidth=1.5, capsize=4,
                elinewidth=1.2, zorder=3)
    frame = pd.DataFrame([dict(player=name, part=part, vp=float(vp), lo95=np.nan,
                               hi95=np.nan)
                          for name, row in zip(_players(n), parts)
                          for part, vp in zip(FT.SCORE_PARTS[:-1], row)])
    plots.stacked_bars(ax, frame, "player", "part", value="vp", xlabel="VP", ylabel="")
    for y, (total, score, se) in enumerate(zip(parts[:, -1], ahead.score, ahead.score_se)):
        ax.annotate(f"{total} \N{RIGHTWARDS ARROW} {score:.1f}",
                    (max(total, score + Z * se), y), xytext=(6, 0), textcoords="offset points",
                    va="center", fontsize="small")
    right = max(float(parts[:, -1].max()), float((ahead.score + Z * ahead.score_se).max()))
    ax.set_xlim(0, LABEL_ROOM * right)
    ax.set_title(f"score if the game ended now, by part (exact) \N{RIGHTWARDS ARROW}\n"
                 f"\N{WHITE DIAMOND} expected final score (rollouts ±{Z} SE)",
                 fontsize=TITLE_SIZE)
    ax.grid(axis="x", color=GRID, linewidth=0.6)
    ax.set_axisbelow(True)


def _player_line(ax: Axes, actions: np.ndarray, p: np.ndarray, se: np.ndarray,
                 seat: int) -> None:
    """One player's win probability as steps with its ±Z SE band; markers on about
    ``MARKERS`` of the actions, the last always."""
    colour = palette.series(seat)
    ax.fill_between(actions, np.clip(p - Z * se, 0, 1), np.clip(p + Z * se, 0, 1),
                    step="post", color=colour, alpha=0.2, linewidth=0)
    every = max(1, len(actions) // MARKERS)
    ax.plot(actions, p, drawstyle="steps-post", color=colour,
            marker=PLAYER_MARKERS[seat % len(PLAYER_MARKERS)], markersize=5,
            markeredgecolor=palette.EDGE, markeredgewidth=0.6, linewidth=1.6,
            label=f"player {seat}",
            markevery=sorted({*range(0, len(actions), every), len(actions) - 1}))


def _title(lines: list[str], method: str) -> str:
    """Title lines wrapped at ``TITLE_WIDTH`` characters (at spaces, or after a board
    row's ``/``), then the method line."""
    wrapped = [textwrap.fill(line.replace("/", "/ "), TITLE_WIDTH, break_long_words=False,
                             break_on_hyphens=False).replace("/ ", "/") for line in lines]
    return "\n".join(wrapped + [method])
