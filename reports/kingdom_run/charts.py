"""Kingdom Run charts: the odds of one position, and a replayed game turn by turn.

The position chart draws the race (docs/games/kingdom-run.md §2, §12): the track's spaces
from START to FINISH with its boards, zone values and lakes, every runner on its space in
its clan's colour (asleep runners pale and hatched, written lower-case as in the
notation), and the podium behind the finish line with its places' points. Under it, the
face's ``odds`` (§15): every player's chance to win (a Monte Carlo estimate, ±1.96 SE
error bars) and beside it the player's score now (§9, exact, on what the position holds)
and its expected final score (±1.96 SE).

The replay chart draws every player's chance to win after the turns of a record (``odds``
of the position after the turn, sampled; at most ``MAX_EVALUATED`` points, evenly spaced,
so a long record stays affordable; after the last turn of a finished game, the result)
over every player's score after each turn. Players keep their clan's colour and a marker
each, so the lines stay readable in greyscale; figure sizes are in inches at
``figures.DPI``.
"""

from __future__ import annotations

import textwrap

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle
from matplotlib.ticker import MaxNLocator

from ...analyser.kingdom_run.odds import odds
from ...analyser.kingdom_run.position import CLANS, RUNNER_NAMES, Position
from ...analyser.kingdom_run.turns import scores_now
from ...errors import OddsbotError
from .. import figures, palette, plots
from .games import CLAN_NAMES

POSITION_SIZE = (12.0, 8.0)  # inches: 1200 x 800 px at figures.DPI
POSITION_HEIGHTS = (5, 4)  # the track over the odds panels
REPLAY_SIZE = (12.0, 8.0)  # inches: 1200 x 800 px
REPLAY_HEIGHTS = (3, 2)  # the win panel over the score panel
Z = 1.96  # error bars and bands: ±Z standard errors
TITLE_WIDTH = 150  # characters per title line before wrapping (at spaces only)
TITLE_SIZE = "medium"
BAR_WIDTH = 0.38  # each of a player's two score bars
NOW_ALPHA, NOW_HATCH = plots.NOW_ALPHA, plots.NOW_HATCH
ASLEEP_ALPHA, ASLEEP_HATCH = 0.3, "////"  # asleep runners
MAX_EVALUATED = 40  # positions of a replay whose odds are sampled, at most
REPLAY_SAMPLES = 1000  # games per evaluated position when the caller gives none
PLAYER_MARKERS = ("o", "s", "^", "D")  # per player: readable in greyscale
MARKERS = 25  # about this many markers per score line
GRID = "#dddddd"
END_ROOM = 0.04  # room right of the last turn, a share of the turns (one at least)
# one colour per clan (Okabe-Ito): Knights vermillion, Wizards blue, Forest folk green,
# Gnomes orange; a player is drawn in its clan's colour
CLAN_COLOURS = {"K": "#D55E00", "W": "#0072B2", "F": "#009E73", "G": "#E69F00"}
LAKE, BOARD_SHADE, PODIUM_SHADE = "#cfe8f7", "#f4f4f4", "#fbf0cf"
BOARD_NAMES = ("START", "FINISH")  # first and last board; the middle ones A, B, C, ...
PLACE_GAP = 1.0  # empty columns between FINISH and the podium (the finish line)
RUNNER_BOX = (0.84, 0.64)  # a runner's box: width (a share of a space), height (of a level)
LETTERS = "SCBTZY"  # face letters (§1)


def clan_colour(clan: str) -> str:
    return CLAN_COLOURS[clan]


def player_label(pos: Position, p: int) -> str:
    """``p1 (K)``: the player, 1-based, and its clan."""
    return f"p{p + 1} ({pos.clans[p]})"


def _wrap(lines: list[str]) -> str:
    return "\n".join(textwrap.fill(line, TITLE_WIDTH, break_long_words=False,
                                   break_on_hyphens=False) for line in lines)


def _roll_text(pos: Position) -> str:
    """The roll and the dice used so far, in words."""
    if pos.roll is None:
        return "before the roll"
    roll = "".join(LETTERS[f] for f in pos.roll)
    text = f"roll {roll}, {'re-rolled' if pos.rerolled else 'not re-rolled'}"
    if pos.used:
        text += ", used " + ",".join(LETTERS[f] if f == a else f"{LETTERS[f]}:{LETTERS[a]}"
                                     for f, a in pos.used)
    return text


def _head(pos: Position) -> str:
    """The game, the variant, who is to move, the roll, the tokens."""
    tokens = " ".join(f"p{p + 1}:{t}" for p, t in enumerate(pos.tokens))
    return (f"Kingdom Run · {pos.variant} · {pos.players} players · "
            f"{player_label(pos, pos.to_move)} to move · {_roll_text(pos)} · podium "
            f"{len(pos.podium)}/{pos.rules.places()} · tokens {tokens}")


def _method(prov: dict, seed: int) -> str:
    """How the odds were computed, in words."""
    return (f"Monte Carlo, {prov['samples']:,} games, seed {seed}, {prov['policy']}, error "
            f"bars ±{Z} SE")


def position_chart(pos: Position, *, samples: int | None = None, seed: int = 0,
                   target_se: float | None = None) -> Figure:
    """The race (the track, the runners, the podium), and every player's chance to win
    and expected final score (``odds``: ``samples`` sampled games, or batches until
    ``target_se``, ``samples`` at most, else the face's default)."""
    result = odds(pos, samples=samples, seed=seed, target_se=target_se)
    players = result["players"]
    prov = result["provenance"]
    fig = figures.figure(*POSITION_SIZE)
    grid = fig.add_gridspec(2, 2, height_ratios=POSITION_HEIGHTS)
    track_ax = fig.add_subplot(grid[0, :])
    win_ax, score_ax = fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[1, 1])
    draw_track(track_ax, pos)
    colours = [clan_colour(c) for c in pos.clans]
    names = [player_label(pos, p) for p in range(pos.players)]
    _win_panel(win_ax, players, names, colours)
    _score_panel(score_ax, players, scores_now(pos), names, colours)
    fig.suptitle(_wrap([_head(pos), pos.to_notation(), _method(prov, seed)]),
                 fontsize=TITLE_SIZE)
    return fig


# --------------------------------------------------------------------------- the track


def _board_names(boards: int) -> list[str]:
    middle = [chr(ord("A") + i) for i in range(max(0, boards - 2))]
    return [BOARD_NAMES[0], *middle, BOARD_NAMES[1]][:boards]


def podium_x(pos: Position, place: int) -> float:
    """The x of podium place ``place`` (0 = 1st), right of the finish line."""
    return pos.rules.spaces() - 1 + PLACE_GAP + 1 + place


def _runner(ax: Axes, x: float, y: float, r: int, asleep: bool) -> None:
    """Runner ``r`` as a square in its clan's colour with its name (asleep: pale,
    hatched, lower-case)."""
    clan = RUNNER_NAMES[r][0]
    colour = clan_colour(clan)
    w, h = RUNNER_BOX
    corner = (x - w / 2, y - h / 2)
    ax.add_patch(Rectangle(corner, w, h, facecolor=colour,
                           alpha=ASLEEP_ALPHA if asleep else 1.0, edgecolor="none",
                           hatch=ASLEEP_HATCH if asleep else None, zorder=3))
    ax.add_patch(Rectangle(corner, w, h, facecolor="none", edgecolor=palette.EDGE,
                           linewidth=0.8, zorder=4))
    name = RUNNER_NAMES[r].lower() if asleep else RUNNER_NAMES[r]
    ax.text(x, y, name, ha="center", va="center", fontsize=7, zorder=5,
            color="#111111" if asleep else "white", fontweight="bold")


def draw_track(ax: Axes, pos: Position) -> None:
    """The track (§2) with every runner on its space, bottom up in id order, the boards
    with their zone values, the lakes, and the podium (§7) with its places' points; this
    turn's crossers and the surplus finishers are named in the panel's title."""
    rules = pos.rules
    n = rules.spaces()
    height = max(rules.capacity, 4)
    places = rules.places()
    lakes = set(rules.lake_spaces())
    starts = rules.board_starts()
    tokens = set(rules.token_spaces())
    exact = rules.zone_mode == "exact"
    top = height - 0.5
    for b, ((size, _), start) in enumerate(zip(rules.layout, starts)):
        if b % 2 == 0:
            ax.add_patch(Rectangle((start - 0.5, -0.5), size, height, facecolor=BOARD_SHADE,
                                   edgecolor="none", zorder=0))
        if b:
            ax.axvline(start - 0.5, color="#888888", linewidth=1.2, zorder=1)
        zone = rules.zone_values[b]
        what = f"token {zone}" if exact else f"zone {zone}"
        ax.text(start - 0.5 + size / 2, top + 0.15, f"{_board_names(len(starts))[b]} · {what}",
                ha="center", va="bottom", fontsize=8, color="#333333")
    for s in range(n):
        if s in lakes:
            ax.add_patch(Rectangle((s - 0.5, -0.5), 1, height, facecolor=LAKE,
                                   edgecolor="#6fa8cc", linewidth=0.6, zorder=1))
        if exact and s in tokens:
            ax.add_patch(Rectangle((s - 0.5, -0.5), 1, height, facecolor="none",
                                   edgecolor="#8a6d00", linewidth=1.2, linestyle="--",
                                   zorder=2))
    finish = n - 1 + (PLACE_GAP + 1) / 2
    ax.axvline(finish, color="#222222", linewidth=2.0, linestyle=(0, (2, 1.5)), zorder=1)
    for place, value in enumerate(rules.podium_values):
        x = podium_x(pos, place)
        ax.add_patch(Rectangle((x - 0.5, -0.5), 1, height, facecolor=PODIUM_SHADE,
                               edgecolor="#c9b26a", linewidth=0.6, zorder=1))
        ax.text(x, top - 0.1, f"{value}", ha="center", va="top", fontsize=7,
                color="#6b5a1e")
    x0 = podium_x(pos, 0)
    ax.text(x0 - 0.5 + places / 2, top + 0.15, "podium (points)", ha="center",
            va="bottom", fontsize=8, color="#333333")
    asleep = set(pos.asleep)
    for s, runners in pos.track().items():
        for level, r in enumerate(runners):
            _runner(ax, s, level, r, r in asleep)
    for place, r in enumerate(pos.podium):
        _runner(ax, podium_x(pos, place), 0, r, False)
    for level, (r, _, _) in enumerate(pos.crossed):  # on the finish line, in crossing order
        _runner(ax, finish, level, r, False)
    ticks = list(range(n)) + [podium_x(pos, i) for i in range(places)]
    labels = [str(s) for s in range(n)] + [_ordinal(i + 1) for i in range(places)]
    ax.set_xticks(ticks, labels, fontsize=7)
    ax.set_yticks([])
    ax.set_xlim(-0.6, podium_x(pos, places - 1) + 0.6)
    ax.set_ylim(-0.6, top + 0.9)
    ax.set_xlabel("space (START 0 to FINISH), then the podium places behind the finish line")
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    extra = []
    if pos.crossed:
        extra.append("on the finish line: crossed this turn, waiting for a place: "
                     + ", ".join(RUNNER_NAMES[r] for r, _, _ in pos.crossed))
    if pos.out:
        extra.append("surplus finishers (no place, 0 points): "
                     + ", ".join(RUNNER_NAMES[r] for r in pos.out))
    ax.set_title("the race: runners by clan, bottom up on each space"
                 + ("" if not extra else " · " + " · ".join(extra)), fontsize="medium")
    owner = {c: p for p, c in enumerate(pos.clans)}
    handles = [Patch(facecolor=clan_colour(c), edgecolor=palette.EDGE,
                     label=f"{c} {CLAN_NAMES[i]}: "
                     + (f"p{owner[c] + 1}" if c in owner else "neutral"))
               for i, c in enumerate(CLANS)]
    handles += [Patch(facecolor="#999999", alpha=ASLEEP_ALPHA, hatch=ASLEEP_HATCH,
                      edgecolor=palette.EDGE, label="asleep (lower-case)"),
                Patch(facecolor=LAKE, edgecolor="#6fa8cc", label="lake")]
    if exact:
        handles.append(Patch(facecolor="none", edgecolor="#8a6d00", linestyle="--",
                             label="score token's space"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              borderaxespad=0, fontsize="small", frameon=False)


def _ordinal(k: int) -> str:
    return f"{k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'}"


# --------------------------------------------------------------------------- odds panels


def _win_panel(ax: Axes, players: list[dict], names: list[str], colours: list[str]) -> None:
    """One bar per player: its chance to win, ±Z SE, its value above."""
    x = np.arange(len(players))
    p = np.array([v["win_p"] for v in players])
    se = np.array([v["win_se"] for v in players])
    ax.bar(x, p, 0.6, yerr=Z * se, color=colours, edgecolor=palette.EDGE, linewidth=0.6,
           error_kw={"ecolor": palette.EDGE, "capsize": 3, "elinewidth": 1})
    for xi, pi, si in zip(x, p, se):
        ax.annotate(f"{pi:.1%}", (xi, pi + Z * si), xytext=(0, 2), textcoords="offset points",
                    ha="center", va="bottom", fontsize=8, color="#222222")
    ax.set_xticks(x, names)
    ax.set(ylim=(0, 1.08), ylabel="probability", xlabel="player",
           title=f"chance to win, ±{Z} SE")
    ax.set_yticks(np.linspace(0, 1, 6))
    ax.grid(axis="y", color=GRID, linewidth=0.6)
    ax.set_axisbelow(True)
    ax.title.set_fontsize("medium")


def _score_panel(ax: Axes, players: list[dict], now: list[int], names: list[str],
                 colours: list[str]) -> None:
    """Per player: the score now (pale, hatched) and the expected final score (±Z SE)."""
    x = np.arange(len(players))
    final = np.array([v["score"] for v in players])
    se = np.array([v["score_se"] for v in players])
    ax.bar(x - BAR_WIDTH / 2, now, BAR_WIDTH, color=colours, alpha=NOW_ALPHA,
           edgecolor=palette.EDGE, linewidth=0.6, hatch=NOW_HATCH, label="score now")
    ax.bar(x + BAR_WIDTH / 2, final, BAR_WIDTH, yerr=Z * se, color=colours,
           edgecolor=palette.EDGE, linewidth=0.6, label="expected final score",
           error_kw={"ecolor": palette.EDGE, "capsize": 3, "elinewidth": 1})
    for xi, value, err in [*zip(x - BAR_WIDTH / 2, now, np.zeros(len(x))),
                           *zip(x + BAR_WIDTH / 2, final, Z * se)]:
        ax.annotate(f"{value:.1f}" if value % 1 else f"{value:.0f}", (xi, value + err),
                    xytext=(0, 2), textcoords="offset points", ha="center", va="bottom",
                    fontsize=8, color="#222222")
    high = max(1.0, float(np.max(now)), float(np.max(final + Z * se)))
    ax.set_ylim(0, high * 1.1)
    ax.set_xticks(x, names)
    ax.set(ylabel="points", xlabel="player",
           title=f"score now (hatched) and expected final score, ±{Z} SE")
    ax.grid(axis="y", color=GRID, linewidth=0.6)
    ax.set_axisbelow(True)
    ax.title.set_fontsize("medium")
    plots.now_and_final_legend(ax)


# --------------------------------------------------------------------------- replay


def _turn(item):
    """A replay step's turn: the steps are (position before, turn) pairs."""
    return item[1] if isinstance(item, tuple) else item


def positions(steps) -> list[Position]:
    """The position after k turns, k = 0 (the start) .. len(steps)."""
    first = steps[0]
    start = first[0] if isinstance(first, tuple) else _turn(first).before
    return [start] + [_turn(item).after for item in steps]


def _over(steps) -> bool:
    return bool(getattr(steps, "over", False))


def evaluated_turns(steps, most: int = MAX_EVALUATED) -> list[int]:
    """The turns played k (0 = the start) after which the replay chart samples the odds:
    every position before the game is over, at most ``most`` of them, evenly spaced, the
    first and the last always."""
    last = len(steps) - 1 if _over(steps) else len(steps)
    return plots.evenly(list(range(last + 1)), most)


def replay_chart(steps, *, samples: int | None = REPLAY_SAMPLES, seed: int = 0,
                 title: str | None = None) -> Figure:
    """A replayed record (``record.load_record(text)[1]``) turn by turn, x = turns played
    (0 = the start). Above: every player's chance to win after the turns (``odds`` of the
    position after the turn: ``samples`` games, ``seed``, every seat heuristic), at most
    ``MAX_EVALUATED`` positions evenly spaced, with ±1.96 SE bands, and after the last turn
    of a finished game its result (1 for each winner). Below: every player's score after
    each turn (§9, on what it holds then; steps, ``drawstyle="steps-post"``). ``title``
    (e.g. the record's name) heads the chart."""
    if not steps:
        raise OddsbotError("record: no turns to chart")
    samples = samples or REPLAY_SAMPLES
    views = positions(steps)
    start = views[0]
    players = start.players
    scores = np.array([scores_now(pos) for pos in views])
    if _over(steps) and getattr(steps, "scores", ()):
        scores[-1] = steps.scores
    xs, p, se = _win_odds(steps, views, samples, seed)
    fig = figures.figure(*REPLAY_SIZE)
    win_ax, score_ax = fig.subplots(2, 1, sharex=True, height_ratios=REPLAY_HEIGHTS)
    right = len(steps) + max(1.0, END_ROOM * len(steps))
    turns = np.arange(len(steps) + 1)
    for seat in range(players):
        colour = clan_colour(start.clans[seat])
        marker = PLAYER_MARKERS[seat % len(PLAYER_MARKERS)]
        name = player_label(start, seat)
        win_ax.fill_between(xs, np.clip(p[:, seat] - Z * se[:, seat], 0, 1),
                            np.clip(p[:, seat] + Z * se[:, seat], 0, 1), color=colour,
                            alpha=0.18, linewidth=0)
        win_ax.plot(xs, p[:, seat], color=colour, marker=marker, markersize=4,
                    markeredgecolor=palette.EDGE, markeredgewidth=0.5, linewidth=1.5,
                    label=f"player {name}")
        end = "at the end" if _over(steps) else "now"
        score_ax.plot(turns, scores[:, seat], drawstyle="steps-post", color=colour,
                      marker=marker, markersize=4, markeredgecolor=palette.EDGE,
                      markeredgewidth=0.5, linewidth=1.5, markevery=plots.marked(len(turns), MARKERS),
                      label=f"player {name}: {scores[-1, seat]} {end}")
        score_ax.plot([turns[-1], right], [scores[-1, seat]] * 2, color=colour,
                      linewidth=1.5, label="_nolegend_")
    for ax in (win_ax, score_ax):
        ax.grid(axis="y", color=GRID, linewidth=0.6)
        ax.set_axisbelow(True)
    win_ax.set(xlim=(0, right), ylim=(-0.02, 1.02), yticks=np.linspace(0, 1, 6),
               ylabel="win probability")
    win_ax.set_title(f"each player's chance to win after the turns ({len(evaluated_turns(steps))}"
                     f" positions evaluated)", fontsize="medium")
    score_ax.set(ylabel="score (points)", xlabel="turns played (0 = the start)")
    score_ax.set_ylim(bottom=0)
    score_ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ticks = MaxNLocator(integer=True, steps=(1, 2, 5, 10)).tick_values(0, len(steps))
    score_ax.set_xticks([t for t in ticks if 0 <= t <= len(steps)])
    score_ax.set_title("each player's score after each turn (§9, on what it holds then)",
                       fontsize="medium")
    plots.legend(win_ax)
    plots.legend(score_ax)
    fig.suptitle(_replay_title(steps, start, samples, seed, title), fontsize=TITLE_SIZE)
    return fig


def _win_odds(steps, views: list[Position], samples: int, seed: int
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x, ``[point, player]`` win probabilities, their SEs): the evaluated positions,
    then the result of a finished game."""
    return plots.win_series([(k, views[k]) for k in evaluated_turns(steps)],
                            lambda pos: odds(pos, samples=samples, seed=seed),
                            views[0].players,
                            (len(steps), steps.winners) if _over(steps) else None)


def _replay_title(steps, start: Position, samples: int, seed: int, title: str | None
                  ) -> str:
    """``title``, the game and how it ends, the start position, the method."""
    if _over(steps):
        ending = ("game over: " + " ".join(f"p{p + 1}:{s}" for p, s in enumerate(steps.scores))
                  + ", winner " + ",".join(f"p{p + 1}" for p in steps.winners))
    else:
        ending = f"game not over: p{getattr(steps, 'to_move', 0) + 1} to move"
    head = (f"Kingdom Run · {start.variant} · {start.players} players ("
            + ", ".join(player_label(start, p) for p in range(start.players))
            + f") · {len(steps)} turns · {ending}")
    method = (f"win probability: Monte Carlo, {samples:,} games per evaluated position, "
              f"every seat heuristic, seed {seed}, bands ±{Z} SE"
              + (" · after the last turn: the result" if _over(steps) else ""))
    return _wrap(([title] if title else []) + [head, f"start {start.to_notation()}", method])

