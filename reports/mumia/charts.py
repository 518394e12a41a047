"""Mumia charts: the odds of one position, and a replayed game step by step.

The position chart is drawn from the face's ``odds`` (docs/games/mumia.md §16.3): every
player's chance to win (or share the win) with ±1.96 SE (about 95 %) error bars when it is
sampled, and beside it the player's score now (§7, exact) and its expected final score
(±1.96 SE). The replay chart draws every player's score after each step of a record (from
the replay's positions) under every player's chance to win before the turns (``odds`` of
the position the mover saw, sampled; at most ``MAX_EVALUATED`` turn openings, evenly
spaced, so a long record stays affordable). Players are drawn in the series colours with a
marker each (``reports.palette``); figure sizes are in inches at ``figures.DPI``.
"""

from __future__ import annotations

import textwrap

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from ...analyser.mumia import face
from ...analyser.mumia.encode import Encoded, decode, encode
from ...analyser.mumia.labels import read_roll
from ...analyser.mumia.notation import seat_letter
from ...analyser.mumia.position import Position
from ...analyser.mumia.record import Replay
from ...analyser.mumia.turns import choices, take
from ...errors import OddsbotError
from ...kernels.mumia import layout as L
from .. import figures, palette, plots

POSITION_SIZE = (12.0, 6.0)  # inches: 1200 x 600 px at figures.DPI
REPLAY_SIZE = (12.0, 8.0)  # inches: 1200 x 800 px
REPLAY_HEIGHTS = (3, 2)  # the win panel over the score panel
Z = 1.96  # error bars and bands: ±Z standard errors
TITLE_WIDTH = 150  # characters per title line before wrapping (at spaces only)
TITLE_SIZE = "medium"
BAR_WIDTH = 0.38  # each of a player's two score bars
NOW_ALPHA, NOW_HATCH = plots.NOW_ALPHA, plots.NOW_HATCH
MAX_EVALUATED = 40  # turn openings of a replay whose odds are sampled, at most
PLAYER_MARKERS = ("o", "s", "^", "D", "v", "P")  # per seat: readable in greyscale
MARKERS = 20  # about this many markers per score line
GRID = "#dddddd"
END_ROOM = 0.04  # room right of the last step, a share of the steps (one at least)


def scores_now(pos: Position) -> list[int]:
    """Every seat's score on what it holds now (§7); tokens the viewer cannot see count
    as unused tokens (their kinds do not matter to the score)."""
    enc = encode(pos)
    return [int(L.score(enc.S, enc.R, p) + enc.unseen[p] * enc.R[L.R_UNUSED])
            for p in range(pos.players)]


def _method(prov: dict, seed: int) -> str:
    """How the odds were computed, in words."""
    if prov["method"] == "exact":
        return f"exact over both dice, {prov['policy']}"
    return (f"Monte Carlo, {prov['samples']:,} games, seed {seed}, {prov['policy']}, error "
            f"bars ±{Z} SE")


def _head(pos: Position) -> str:
    """The game, the variant and who is to move."""
    exp = ",".join(pos.expansions) or "no expansions"
    mummy = (f"mummy tokens left {'/'.join(map(str, pos.mummy_tokens))}" if pos.mummy_tokens
             else "the mummy has left")
    return (f"Mumia · {pos.variant} ({exp}) · {pos.players} players · player "
            f"{seat_letter(pos.to_move)} to move · {len(pos.track) - 2} path tiles left · "
            f"{mummy}")


def _wrap(lines: list[str]) -> str:
    return "\n".join(textwrap.fill(line, TITLE_WIDTH, break_long_words=False,
                                   break_on_hyphens=False) for line in lines)


def position_chart(pos: Position, *, samples: int | None = None, seed: int = 0,
                   target_se: float | None = None) -> Figure:
    """Every player's chance to win and expected final score (``face.odds``): exact where
    the face computes it exactly (no ``samples``), else ``samples`` sampled games, or
    batches until ``target_se`` (``samples`` at most)."""
    odds = face.odds(pos, samples=samples, seed=seed, target_se=target_se)
    players = odds["players"]
    prov = odds["provenance"]
    now = scores_now(pos)
    fig = figures.figure(*POSITION_SIZE)
    win_ax, score_ax = fig.subplots(1, 2)
    _win_panel(win_ax, players, prov)
    _score_panel(score_ax, players, now)
    fig.suptitle(_wrap([_head(pos), pos.to_notation(), _method(prov, seed)]),
                 fontsize=TITLE_SIZE)
    return fig


def _se(values: list[dict], key: str) -> np.ndarray:
    """The SEs of ``key`` (0 where the odds are exact: None)."""
    return np.array([0.0 if v[key] is None else v[key] for v in values])


def _names(players: list[dict]) -> list[str]:
    return [f"player {p['player']}" for p in players]


def _win_panel(ax: Axes, players: list[dict], prov: dict) -> None:
    """One bar per player: its chance to win or share the win, ±Z SE, its value above."""
    x = np.arange(len(players))
    p = np.array([v["win_p"] for v in players])
    se = _se(players, "win_se")
    ax.bar(x, p, 0.6, yerr=Z * se, color=[palette.series(i) for i in x],
           edgecolor=palette.EDGE, linewidth=0.6,
           error_kw={"ecolor": palette.EDGE, "capsize": 3, "elinewidth": 1})
    for xi, pi, si in zip(x, p, se):
        ax.annotate(f"{pi:.1%}", (xi, pi + Z * si), xytext=(0, 2), textcoords="offset points",
                    ha="center", va="bottom", fontsize=8, color="#222222")
    ax.set_xticks(x, _names(players))
    ax.set(ylim=(0, 1.08), ylabel="probability", xlabel="player",
           title="chance to win (a shared win counts)"
           + ("" if prov["method"] == "exact" else f", ±{Z} SE"))
    ax.set_yticks(np.linspace(0, 1, 6))
    ax.grid(axis="y", color=GRID, linewidth=0.6)
    ax.set_axisbelow(True)
    ax.title.set_fontsize("medium")


def _score_panel(ax: Axes, players: list[dict], now: list[int]) -> None:
    """Per player: the score now (pale) and the expected final score (±Z SE)."""
    x = np.arange(len(players))
    final = np.array([v["score"] for v in players])
    se = _se(players, "score_se")
    colours = [palette.series(i) for i in x]
    ax.bar(x - BAR_WIDTH / 2, now, BAR_WIDTH, color=colours, alpha=NOW_ALPHA,
           edgecolor=palette.EDGE, linewidth=0.6, hatch=NOW_HATCH, label="score now")
    ax.bar(x + BAR_WIDTH / 2, final, BAR_WIDTH, yerr=Z * se, color=colours,
           edgecolor=palette.EDGE, linewidth=0.6, label="expected final score",
           error_kw={"ecolor": palette.EDGE, "capsize": 3, "elinewidth": 1})
    for xi, value, err in [*zip(x - BAR_WIDTH / 2, now, np.zeros(len(x))),
                           *zip(x + BAR_WIDTH / 2, final, Z * se)]:
        up = value >= 0
        ax.annotate(f"{value:.1f}" if value % 1 else f"{value:.0f}",
                    (xi, value + err if up else value - err), xytext=(0, 2 if up else -2),
                    textcoords="offset points", ha="center", va="bottom" if up else "top",
                    fontsize=8, color="#222222")
    low = min(0.0, float(np.min(now)), float(np.min(final - Z * se)))
    high = max(1.0, float(np.max(now)), float(np.max(final + Z * se)))
    room = 0.08 * (high - low)
    ax.set_ylim(low - (room if low < 0 else 0), high + room)
    ax.axhline(0, color="#555555", linewidth=0.8)
    ax.set_xticks(x, _names(players))
    ax.set(ylabel="points", xlabel="player",
           title="score now (hatched) and expected final score"
           + ("" if se.max() == 0 else f", ±{Z} SE"))
    ax.grid(axis="y", color=GRID, linewidth=0.6)
    ax.set_axisbelow(True)
    ax.title.set_fontsize("medium")
    plots.now_and_final_legend(ax)


# --------------------------------------------------------------------------- replay


def evaluated_steps(steps: Replay, most: int = MAX_EVALUATED) -> list[int]:
    """The steps (0-based) whose odds the replay chart samples: the turn openings, at
    most ``most`` of them, evenly spaced, the first and the last always."""
    return plots.evenly([k for k, (_, turn) in enumerate(steps) if turn.opening], most)


def _dealt(enc: Encoded) -> np.ndarray:
    """The state with every token the viewer cannot see dealt from the unseen pool in a
    fixed order (pile first, then the seats' unseen counts): a legal state whose scores
    and moves are the position's."""
    S = enc.S.copy()
    kinds = [j for j, k in enumerate(enc.pool) for _ in range(int(k))]
    for i in range(int(S[L.S_PILE_N])):
        if S[L.S_PILE + i] < 0:
            S[L.S_PILE + i] = kinds.pop(0)
    for p, k in enumerate(enc.unseen):
        for _ in range(int(k)):
            S[L.S_HAND + p * L.N_TOKEN_KINDS + kinds.pop(0)] += 1
    return S


def after_last(steps: Replay) -> tuple[list[int], Position | None]:
    """After the last step of an unfinished game: every seat's score, and the position as
    the next mover knows it if the turn has passed and the last mover saw every token
    (None otherwise: while the turn goes on, and with hidden E4 tokens, whose kinds the
    next mover may know but the replay does not; the scores count tokens, not kinds)."""
    pos, turn = steps[-1]
    enc = encode(pos)
    S = _dealt(enc)
    n, sym = read_roll(turn.line.roll, bool(S[L.S_MUMMY] >= 0))
    rows, labels = choices(S, enc.R, n, sym)
    step = take(S, enc.R, rows[labels.index(turn.line.label)], n)
    scores = [int(L.score(S, enc.R, p)) for p in range(pos.players)]
    if step.extra or step.same_roll or S[L.S_OVER] or enc.hidden:
        return scores, None
    return scores, decode(S, enc.R, pos.rules, pos.expansions, viewer=int(S[L.S_TO_MOVE]))


def replay_chart(steps: Replay, *, samples: int = 20000, seed: int = 0,
                 title: str | None = None) -> Figure:
    """A replayed record (``record.load_record(text)[1]``) step by step, x = steps played
    (0 = the start). Above: every player's chance to win (or share the win) before the
    turns, as the player to move saw the game (``face.odds``: ``samples`` games, ``seed``,
    every seat heuristic), at most ``MAX_EVALUATED`` turn openings evenly spaced, with
    ±1.96 SE bands, and after the last step: the result if the game is over (1 for each
    winner), else the odds as the next mover knows the game (``after_last``: not while
    the turn goes on, nor with hidden action tokens). Below: every player's score after
    each step (§7, on what it holds then; steps, ``drawstyle="steps-post"``). ``title``
    (e.g. the record's name) heads the chart."""
    if not steps:
        raise OddsbotError("record: no turns to chart")
    start = steps[0][0]
    players = start.players
    scores = [scores_now(pos) for pos, _ in steps]
    after = None
    if steps.over:
        scores.append(list(steps.scores))
    else:
        last, after = after_last(steps)
        scores.append(last)
    scores = np.array(scores)
    xs, p, se = _win_odds(steps, after, samples, seed)
    fig = figures.figure(*REPLAY_SIZE)
    win_ax, score_ax = fig.subplots(2, 1, sharex=True, height_ratios=REPLAY_HEIGHTS)
    right = len(steps) + max(1.0, END_ROOM * len(steps))
    turns = np.arange(len(steps) + 1)
    for seat in range(players):
        colour = palette.series(seat)
        marker = PLAYER_MARKERS[seat % len(PLAYER_MARKERS)]
        win_ax.fill_between(xs, np.clip(p[:, seat] - Z * se[:, seat], 0, 1),
                            np.clip(p[:, seat] + Z * se[:, seat], 0, 1), color=colour,
                            alpha=0.18, linewidth=0)
        win_ax.plot(xs, p[:, seat], color=colour, marker=marker, markersize=4,
                    markeredgecolor=palette.EDGE, markeredgewidth=0.5, linewidth=1.5,
                    label=f"player {seat_letter(seat)}")
        end = f"{scores[-1, seat]} at the end" if steps.over else f"{scores[-1, seat]} now"
        score_ax.plot(turns, scores[:, seat], drawstyle="steps-post", color=colour,
                      marker=marker, markersize=4, markeredgecolor=palette.EDGE,
                      markeredgewidth=0.5, linewidth=1.5,
                      markevery=plots.marked(len(turns), MARKERS),
                      label=f"player {seat_letter(seat)}: {end}")
        score_ax.plot([turns[-1], right], [scores[-1, seat]] * 2, color=colour,
                      linewidth=1.5, label="_nolegend_")
    for ax in (win_ax, score_ax):
        ax.grid(axis="y", color=GRID, linewidth=0.6)
        ax.set_axisbelow(True)
    win_ax.set(xlim=(0, right), ylim=(-0.02, 1.02), yticks=np.linspace(0, 1, 6),
               ylabel="win probability")
    win_ax.set_title(f"each player's chance to win before the turns, as the player to move "
                     f"saw the game ({len(evaluated_steps(steps))} turn "
                     f"openings evaluated)", fontsize="medium")
    score_ax.axhline(0, color="#555555", linewidth=0.8)
    score_ax.set(ylabel="score (points)", xlabel="steps played (0 = the start)")
    score_ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ticks = MaxNLocator(integer=True, steps=(1, 2, 5, 10)).tick_values(0, len(steps))
    score_ax.set_xticks([t for t in ticks if 0 <= t <= len(steps)])
    score_ax.set_title("each player's score after each step (§7, on what it holds then)",
                       fontsize="medium")
    plots.legend(win_ax)
    plots.legend(score_ax)
    fig.suptitle(_replay_title(steps, samples, seed, title), fontsize=TITLE_SIZE)
    return fig


def _win_odds(steps: Replay, after: Position | None, samples: int, seed: int
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x, ``[point, seat]`` win probabilities, their SEs): the evaluated turn openings,
    then the result of a finished game or the odds after the last step."""
    views = [(k, steps[k][0]) for k in evaluated_steps(steps)]
    if after is not None:
        views.append((len(steps), after))
    return plots.win_series(views, lambda pos: face.odds(pos, samples=samples, seed=seed),
                            steps[0][0].players,
                            (len(steps), steps.winners) if steps.over else None)


def _replay_title(steps: Replay, samples: int, seed: int, title: str | None) -> str:
    """``title``, the game and how it ends, the start position, the method."""
    start = steps[0][0]
    if steps.over:
        ending = "game over: " + " ".join(f"{seat_letter(p)} {s}"
                                          for p, s in enumerate(steps.scores)) \
            + ", winner " + ",".join(seat_letter(p) for p in steps.winners)
    else:
        ending = f"game not over: player {seat_letter(steps.to_move)} to move"
    head = (f"Mumia · {start.variant} · {start.players} players · {len(steps)} steps · "
            f"{ending}")
    method = (f"win probability: Monte Carlo, {samples:,} games per evaluated turn from its "
              f"mover's view, every seat heuristic, seed {seed}, bands ±{Z} SE"
              + (" · after the last step: the result" if steps.over else ""))
    return _wrap(([title] if title else []) + [head, f"start {start.to_notation()}", method])
