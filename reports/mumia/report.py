"""The Mumia designer report: every table and chart is computed from the per-game table of
``games.simulate_block`` (one row per game), variant by variant.

Conventions: seats as the kernel numbers them (seat 0 moves first, docs/games/mumia.md
§2.1 step 5); a game's winners are the seats the kernel marks as winning or sharing the
win (§7: the highest score, ``tiebreak``), and a tie shares the win equally; every
estimate has a 95 % interval (``lo95``, ``hi95``): Wilson intervals for proportions,
normal intervals for means over games (games are the independent units, also for
per-seat means), binomial-rank intervals for quantiles, the ratio estimator over games
for ratios (points per camel) and the delta method over games for the standard deviation
of the final scores. Tables by seat-game (camels held) treat a seat's game as the unit;
the seat-games of one game are not independent of each other. The summary that opens the
report is the shared ``summary``'s, given this game's own headline proportions; game
length, end conditions, seat advantage and the variants side by side are the shared
``skeleton``'s, given this game's columns, labels and texts.
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache

import numpy as np
import pandas as pd

from ...analyser.mumia.simulate import rules_of
from .. import plots, sections, skeleton, stats
from ..document import Section, Table
from ..sections import by_variant, chart, proportion, seat_values, summary_rows
from ..skeleton import Length, Pick, column, mean_of
from ..spec import RunSpec
from ..summary import Claim, summary_section
from .games import END_CONDITIONS, SUDDEN, has, sudden

LENGTH = Length("rounds", {"turns": column("turns"), "moves": column("moves"),
                           "rounds": column("rounds")})
CAMEL_BINS = ("0", "1", "2", "3+")  # camel tiles a seat held at the end
HATS = (("luck", "luck_home", "hat of luck"), ("bad", "bad_home", "hat of bad luck"))
SUDDEN_VARIANT = "mumia-sudden"
SCORE = "final score (every seat)"
WITHIN = "spread within a game (SD of the seats' scores)"
WINNING, MARGIN, LOSING = "winning score", "margin (winner - second)", "lowest score"
TIE = "tie for the win"
POINTS_MEASURES = {WINNING: "winning score", MARGIN: "margin over the second",
                   WITHIN: "SD within a game"}  # the spread chart's bars (all in points)
SCORE_BIN = 5  # points per bin of the score distribution
CAMEL_POINTS = "points per camel held"
IDLE = "share of camel holders whose camels added nothing"
TOP_FOUR = "a top scorer took the mummy's 4"
ALL_TOKENS = "every mummy token was taken"


def seat_name(seat: int) -> str:
    """How the report names a seat: seat 0 moves first."""
    return "seat 0 (moves first)" if seat == 0 else f"seat {seat}"


def win_credit(g: pd.DataFrame, players: int) -> np.ndarray:
    """``[game, seat]``: 1/k for each of the k seats the kernel marks as winners."""
    won = seat_values(g, "won", players).astype(float)
    return won / np.maximum(won.sum(axis=1, keepdims=True), 1)


def picks(players: int) -> list[Pick]:
    """The variants side by side: tables named as in ``report_sections``."""
    return [
        *skeleton.length_picks(LENGTH),
        Pick("P(sudden end)", "end", lambda t: t[t.end == SUDDEN], "p"),
        *[Pick(f"P(seat {s} wins)", "seats", lambda t, s=s: t[t.seat == s], "p")
          for s in range(players)],
        Pick("SD of final scores (points)", "spread",
             lambda t: t[(t.measure == SCORE) & (t.statistic == "sd")], "value"),
        Pick("mean score (points)", "spread", mean_of(SCORE), "value"),
        Pick("mean winning score (points)", "spread", mean_of(WINNING), "value"),
        Pick("mean margin winner - second (points)", "spread", mean_of(MARGIN), "value"),
        Pick("P(tie for the win)", "spread", lambda t: t[t.measure == TIE], "value"),
        Pick("points per camel held", "camels", lambda t: t[t.measure == CAMEL_POINTS],
             "value"),
        Pick("P(a top scorer took the mummy's 4)", "mummy_top",
             lambda t: t[t.measure == TOP_FOUR], "p"),
        Pick("P(the luck hat's seat wins)", "hats", lambda t: t[t.hat == "luck"], "p"),
        Pick("P(the bad-luck hat's seat wins)", "hats", lambda t: t[t.hat == "bad"], "p"),
    ]


# --------------------------------------------------------------------------- tables


def length_tables(df: pd.DataFrame, spec: RunSpec) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(rounds distribution, turns, moves and rounds summary)."""
    return skeleton.length_tables(df, spec, LENGTH)


def end_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Share of games by how they ended."""
    return skeleton.category_table(df, spec, "end", END_CONDITIONS)


def seat_tables(df: pd.DataFrame, spec: RunSpec) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(win rate by seat, chi-square test of equal win rates), ties shared."""
    return sections.seat_tables(df, spec, win_credit)


def sd_ci(scores: np.ndarray) -> tuple[float, float, float]:
    """(SD, lo, hi) of every value of ``scores`` ``[game, seat]`` pooled (population SD),
    with a delta-method 95 % interval over games (the independent units): SD² = m2 - m1²
    with m1, m2 the means over games of the per-game mean of x and of x²."""
    x = np.asarray(scores, dtype=float)
    u, w = x.mean(axis=1), (x * x).mean(axis=1)
    m1, m2 = float(u.mean()), float(w.mean())
    sd = math.sqrt(max(m2 - m1 * m1, 0.0))
    n = len(x)
    if n < 2 or sd == 0:
        return sd, math.nan, math.nan
    cov = np.cov(np.vstack([u, w]), ddof=1) / n
    grad = np.array([-2 * m1, 1.0])  # of the variance
    se = math.sqrt(max(float(grad @ cov @ grad), 0.0)) / (2 * sd)
    return sd, sd - stats.Z * se, sd + stats.Z * se


def _rows(values: np.ndarray, **keys: object) -> list[dict[str, object]]:
    """``summary_rows``; a single game gives its value without intervals."""
    if len(values) > 1:
        return summary_rows(values, **keys)
    return [dict(keys, statistic="mean", value=float(values[0]), lo95=np.nan, hi95=np.nan)]


def spread_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Per variant: every seat's final score (mean and pooled SD), the spread within a
    game (the seats' SD), the winning score, the margin of the winner over the second
    (0 on a tie), the lowest score (mean and quantiles), and the share of games tied for
    the win."""
    rows = []
    for v, g in by_variant(df, spec):
        scores = seat_values(g, "score", spec.players).astype(float)
        ordered = np.sort(scores, axis=1)
        mean, lo, hi = stats.mean_ci(scores.mean(axis=1))
        rows.append(dict(variant=v, measure=SCORE, statistic="mean", value=mean, lo95=lo,
                         hi95=hi))
        sd, lo, hi = sd_ci(scores)
        rows.append(dict(variant=v, measure=SCORE, statistic="sd", value=sd, lo95=lo,
                         hi95=hi))
        rows += _rows(scores.std(axis=1), variant=v, measure=WITHIN)
        rows += _rows(ordered[:, -1], variant=v, measure=WINNING)
        rows += _rows(ordered[:, -1] - ordered[:, -2], variant=v, measure=MARGIN)
        rows += _rows(ordered[:, 0], variant=v, measure=LOSING)
        tied = int((seat_values(g, "won", spec.players).sum(axis=1) > 1).sum())
        p = proportion(tied, len(g))
        rows.append(dict(variant=v, measure=TIE, statistic="share", value=p["p"],
                         lo95=p["lo95"], hi95=p["hi95"]))
    return pd.DataFrame(rows)


def _share_ci(num: np.ndarray, den: np.ndarray) -> tuple[float, float, float]:
    """``stats.ratio_ci`` of a share (0..1), its interval clipped to 0..1; no share
    without a denominator."""
    if den.sum() == 0:
        return math.nan, math.nan, math.nan
    r, lo, hi = stats.ratio_ci(num, den)
    return r, max(lo, 0.0), min(hi, 1.0)


def score_bin_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Share of seat-games by final score in bins of ``SCORE_BIN`` points (``low`` ..
    ``high`` inclusive; ``centre`` for the chart)."""
    rows = []
    for v, g in by_variant(df, spec):
        scores = seat_values(g, "score", spec.players).ravel().astype(np.int64)
        low = scores // SCORE_BIN * SCORE_BIN
        for start, k in zip(*np.unique(low, return_counts=True)):
            rows.append(dict(variant=v, low=int(start), high=int(start) + SCORE_BIN - 1,
                             centre=start + (SCORE_BIN - 1) / 2, seat_games=int(k),
                             **proportion(int(k), len(scores))))
    return pd.DataFrame(rows)


def camel_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Per variant: camels held per game (all seats), the points a camel held added
    (camel gain over camels held, the ratio over games), the points camels added per
    seat-game, and the share of camel holders whose camels added nothing (no danger tile
    left to turn)."""
    rows = []
    for v, g in by_variant(df, spec):
        camels = seat_values(g, "camels", spec.players)
        gain = seat_values(g, "camel_gain", spec.players)
        out = [("camels held per game (all seats)", stats.mean_ci(camels.sum(axis=1))),
               (CAMEL_POINTS, stats.ratio_ci(gain.sum(axis=1), camels.sum(axis=1))
                if camels.sum() else (math.nan,) * 3),
               ("points from camels per seat", stats.mean_ci(gain.mean(axis=1))),
               (IDLE, _share_ci(((camels > 0) & (gain == 0)).sum(axis=1),
                                (camels > 0).sum(axis=1)))]
        rows += [dict(variant=v, measure=m, value=x, lo95=lo, hi95=hi)
                 for m, (x, lo, hi) in out]
    return pd.DataFrame(rows)


def camel_bin(camels: np.ndarray) -> np.ndarray:
    """Camels held as the labels of ``CAMEL_BINS``."""
    return np.array(CAMEL_BINS)[np.minimum(camels, len(CAMEL_BINS) - 1)]


def camel_win_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Every seat's game by the camels it held at the end: the win rate (ties shared),
    the mean final score and the mean points its camels added."""
    rows = []
    for v, g in by_variant(df, spec):
        won = win_credit(g, spec.players).ravel()
        bins = camel_bin(seat_values(g, "camels", spec.players)).ravel()
        score = seat_values(g, "score", spec.players).ravel().astype(float)
        gain = seat_values(g, "camel_gain", spec.players).ravel().astype(float)
        for label in CAMEL_BINS:
            mine = bins == label
            k = int(mine.sum())
            row = dict(variant=v, camels_held=label, seat_games=k, wins=float(won[mine].sum()),
                       **proportion(float(won[mine].sum()), k))
            for name, x in (("score", score[mine]), ("camel_gain", gain[mine])):
                m, lo, hi = stats.mean_ci(x) if k > 1 else (
                    float(x[0]) if k else np.nan, np.nan, np.nan)
                row |= {name: m, f"{name}_lo95": lo, f"{name}_hi95": hi}
            rows.append(row)
    return pd.DataFrame(rows)


def mummy_seat_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Mummy-token points per game by seat (mean), and the share of games in which the
    seat took any token."""
    rows = []
    for v, g in by_variant(df, spec):
        points = seat_values(g, "mummy", spec.players)
        for seat in range(spec.players):
            x = points[:, seat]
            m, lo, hi = stats.mean_ci(x)
            took = proportion(int((x > 0).sum()), len(g))
            rows.append(dict(variant=v, seat=seat, policy=spec.policies[seat], mean=m,
                             lo95=lo, hi95=hi, took_any=took["p"],
                             took_any_lo95=took["lo95"], took_any_hi95=took["hi95"]))
    return pd.DataFrame(rows)


@lru_cache(maxsize=None)
def four_takers(points: tuple[int, ...], tokens: tuple[int, ...]) -> frozenset[int]:
    """Every seat that may have taken the first (top) mummy token, given each seat's
    token points ``points`` and the stack ``tokens`` (top first: they are taken in that
    order); -1 stands for "nobody took it". A row's sums do not always say who took
    which token (4 = 4 or 3 + 1), so every split of the taken tokens among the seats
    that gives the sums is tried."""
    players = len(points)
    total = sum(points)
    out: set[int] = set()
    for k in range(len(tokens) + 1):
        if sum(tokens[:k]) != total:
            continue
        if k == 0:
            out.add(-1)
            continue
        for owners in itertools.product(range(players), repeat=k):
            sums = [0] * players
            for value, seat in zip(tokens[:k], owners):
                sums[seat] += value
            if tuple(sums) == points:
                out.add(owners[0])
    return frozenset(out)


def top_four(g: pd.DataFrame, players: int, tokens: tuple[int, ...]) -> np.ndarray:
    """Per game: 1 if a seat that wins (or shares the win) took the first mummy token,
    0 if none did, -1 where the seats' token points leave it open."""
    both = np.hstack([seat_values(g, "mummy", players), seat_values(g, "won", players)])
    if not len(both):
        return np.empty(0, dtype=np.int64)
    kinds, which = np.unique(both.astype(np.int64), axis=0, return_inverse=True)
    answer = np.empty(len(kinds), dtype=np.int64)  # per distinct (points, winners) row
    for i, row in enumerate(kinds):
        takers = four_takers(tuple(int(x) for x in row[:players]), tokens)
        hits = {t >= 0 and bool(row[players + t]) for t in takers}
        answer[i] = -1 if len(hits) != 1 else int(hits.pop())
    return answer[np.ravel(which)]


MUMMY_TOP_COLUMNS = ["variant", "measure", "games", "open", "count", "p", "lo95", "hi95",
                     "equal_share"]


def mummy_top_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Per variant: the share of games in which a top scorer took the mummy's first
    token (the 4), over the games whose token points say who took it (``open``: the
    others), beside 1/players; and the share of games in which every token was taken
    (the mummy left the game, §3.1)."""
    rows = []
    for v, g in by_variant(df, spec):
        tokens = rules_of(v, dict(spec.rules)).mummy_tokens
        top = top_four(g, spec.players, tokens)
        known = int((top >= 0).sum())
        k = int((top == 1).sum())
        rows.append(dict(variant=v, measure=TOP_FOUR, games=known, open=len(g) - known,
                         count=k, **proportion(k, known), equal_share=1 / spec.players))
        every = int((seat_values(g, "mummy", spec.players).sum(axis=1) == sum(tokens)).sum())
        rows.append(dict(variant=v, measure=ALL_TOKENS, games=len(g), open=0, count=every,
                         **proportion(every, len(g)), equal_share=np.nan))
    return pd.DataFrame(rows, columns=MUMMY_TOP_COLUMNS)


HAT_COLUMNS = ["variant", "hat", "games", "home", "home_p", "home_lo95", "home_hi95",
               "wins", "p", "lo95", "hi95", "equal_share"]


def hat_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Per variant with the hats (E2) and hat: the share of games in which a pawn took it
    home (locked on FINISH, §9.4), and the win rate (ties shared) of the seat that did,
    over those games, beside 1/players."""
    rows = []
    for v, g in by_variant(df, spec):
        if not has(v, "e2"):
            continue
        won = win_credit(g, spec.players)
        for hat, col, _ in HATS:
            seat = g[col].to_numpy().astype(np.int64)
            home = seat >= 0
            n = int(home.sum())
            k = float(won[np.flatnonzero(home), seat[home]].sum())
            h = proportion(n, len(g))
            rows.append(dict(variant=v, hat=hat, games=len(g), home=n, home_p=h["p"],
                             home_lo95=h["lo95"], home_hi95=h["hi95"], wins=k,
                             **proportion(k, n), equal_share=1 / spec.players))
    return pd.DataFrame(rows, columns=HAT_COLUMNS)


def end_rule_table(df: pd.DataFrame, spec: RunSpec, end: pd.DataFrame,
                   spread: pd.DataFrame, length: pd.DataFrame) -> pd.DataFrame:
    """Every variant of the run by its end rule: the share of games ended suddenly, the
    mean turns, the SD of the final scores, the mean winning score and margin."""
    rows = []
    for v in spec.variants:
        rule = "sudden (§6.2)" if sudden(v, dict(spec.rules)) else "all pawns home (§6.1)"
        picked = [
            ("P(sudden end)", end[(end.variant == v) & (end.end == SUDDEN)], "p"),
            ("mean turns", length[(length.variant == v) & (length.measure == "turns")
                                  & (length.statistic == "mean")], "value"),
            ("SD of final scores", spread[(spread.variant == v) & (spread.measure == SCORE)
                                          & (spread.statistic == "sd")], "value"),
            ("mean winning score", spread[(spread.variant == v) & (spread.measure == WINNING)
                                          & (spread.statistic == "mean")], "value"),
            ("mean margin (winner - second)", spread[(spread.variant == v)
                                                     & (spread.measure == MARGIN)
                                                     & (spread.statistic == "mean")],
             "value"),
        ]
        for measure, hit, col in picked:
            rows.append(dict(variant=v, end_rule=rule, measure=measure,
                             value=float(hit[col].iloc[0]), lo95=float(hit.lo95.iloc[0]),
                             hi95=float(hit.hi95.iloc[0])))
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- sections


def _spread_section(spec: RunSpec, spread: pd.DataFrame, bins: pd.DataFrame) -> Section:
    bars = spread[spread.measure.isin(list(POINTS_MEASURES)) & (spread.statistic == "mean")]
    bars = bars.assign(measure=bars.measure.map(POINTS_MEASURES))
    return Section(
        "Spread of final scores",
        "Final scores (docs/games/mumia.md §7) per variant: every seat's score (its mean, "
        "and its standard deviation over all seats and games: delta-method interval over "
        "games), the spread within a game (the standard deviation of the seats' scores in "
        "that game), the winning score, the winner's margin over the second (0 when the "
        "win is shared), the lowest score, and the share of games whose win is shared. "
        "A wide spread means that collecting tiles decides a lot; a small margin, close "
        f"games. Last, the share of seat-games by final score in bins of {SCORE_BIN} points "
        "(the seats of one game are not independent of each other).",
        [Table("spread", "Final scores: spread, winner and margin", spread),
         Table("score_bins", f"Final scores in bins of {SCORE_BIN} points", bins)],
        [chart("scores", f"Share of seat-games by final score ({SCORE_BIN}-point bins), 95% "
               "bands",
               lambda ax: plots.band_lines(ax, bins, "centre", "variant",
                                           xlabel=f"final score (points, centre of a "
                                           f"{SCORE_BIN}-point bin)",
                                           ylabel="share of seat-games")),
         chart("spread", "Winning score, margin and spread within a game, 95% error bars",
               lambda ax: plots.grouped_bars(ax, bars, "measure", "variant", value="value",
                                             xlabel="measure (mean per game)",
                                             ylabel="points"))])


def _camel_section(spec: RunSpec, camels: pd.DataFrame, camel_wins: pd.DataFrame
                   ) -> Section:
    shown = camel_wins[camel_wins.seat_games > 0]
    return Section(
        "Value of a camel",
        "A camel tile turns one of its holder's danger tiles positive, the largest first "
        "(§7); camels beyond the danger tiles held are worth nothing. The first table: "
        "camels held per game, the points a camel held added (the camels' gain over the "
        "camels held, a ratio over games), the points camels added per seat, and the "
        "share of camel holders whose camels added nothing. Then every seat's game by the "
        "camels it held at the end: its win rate (a tie shares the win; dashed: "
        "1/players), its mean score and what its camels added. Holding camels also means "
        "having left tiles behind and taken dangers, so this compares games as well as "
        "tiles.",
        [Table("camels", "The value of a camel", camels),
         Table("camel_wins", "Win rate and score by camels held", camel_wins)],
        [chart("camel_wins", "Win rate by camels held at the end, 95% error bars",
               lambda ax: plots.grouped_bars(ax, shown, "camels_held", "variant",
                                             xlabel="camel tiles the seat held",
                                             ylabel="win rate (ties shared)",
                                             reference=1 / spec.players))])


def _mummy_section(spec: RunSpec, mummy: pd.DataFrame, top: pd.DataFrame) -> Section:
    tokens = "/".join(map(str, rules_of(spec.variants[0], dict(spec.rules)).mummy_tokens))
    return Section(
        "Mummy tokens",
        f"The mummy pays its tokens ({tokens}, top first) to whoever moves it past FINISH "
        "(§5.2). Mummy-token points per game by seat, and the share of games in which the "
        "seat took any. Then the share of games in which a top scorer (a seat that wins "
        "or shares the win) took the first token, the 4, beside 1/players; the kernel "
        "keeps each seat's token points only, and where they do not say who took the 4 "
        "(4 = 3 + 1, ...) the game is left out (open). Last, the share of games in which "
        "every token was taken and the mummy left the game (§3.1).",
        [Table("mummy", "Mummy-token points by seat", mummy),
         Table("mummy_top", "The mummy's first token and the winner", top)],
        [chart("mummy", "Mummy-token points per game by seat, 95% error bars",
               lambda ax: plots.grouped_bars(ax, mummy, "seat", "variant", value="mean",
                                             xlabel="seat (0 moves first)",
                                             ylabel="mummy-token points per game"))])


def _hat_section(spec: RunSpec, hats: pd.DataFrame) -> Section:
    return Section(
        "Hats",
        "With E2 the hat of luck scores +10 and the hat of bad luck -10 to the seat whose "
        "pawn takes it home to FINISH (§9.4). For each hat: the share of games in which "
        "a pawn took it home, and over those games the win rate of the seat that did (a "
        "tie shares the win), beside 1/players (dashed).",
        [Table("hats", "Hats taken home and the win rate of their seat", hats)],
        [chart("hats", "Win rate of the seat that took the hat home, 95% error bars",
               lambda ax: plots.grouped_bars(
                   ax, hats.assign(hat=hats.hat.map({h: name for h, _, name in HATS})),
                   "hat", "variant", xlabel="hat", ylabel="win rate (ties shared)",
                   reference=1 / spec.players))])


def _end_rule_section(rules: pd.DataFrame) -> Section:
    points = rules[rules.measure.isin(["SD of final scores", "mean winning score",
                                       "mean margin (winner - second)"])]
    return Section(
        "End rules compared",
        "The standard end (§6.1: the game goes on until every pawn is home) beside the "
        "sudden end (§6.2, mumia-sudden: the game ends when the first seat has all its "
        "pawns home, and every other seat takes the tiles its pawns hold alone): the "
        "share of games that ended suddenly, the game's length and the spread of the "
        "final scores.",
        [Table("end_rules", "End rules compared", rules)],
        [chart("end_rules", "Score spread by end rule, 95% error bars",
               lambda ax: plots.grouped_bars(ax, points, "measure", "variant",
                                             value="value", xlabel="measure",
                                             ylabel="points"))])


def report_sections(df: pd.DataFrame, spec: RunSpec) -> list[Section]:
    """Every section of the Mumia report for the games ``df`` of run ``spec``."""
    rounds, length = length_tables(df, spec)
    end = end_table(df, spec)
    seats, seat_test = seat_tables(df, spec)
    spread = spread_table(df, spec)
    camels = camel_table(df, spec)
    camel_wins = camel_win_table(df, spec)
    mummy = mummy_seat_table(df, spec)
    top = mummy_top_table(df, spec)
    hats = hat_table(df, spec)
    n = spec.players
    claims = [Claim(TOP_FOUR, top[(top.measure == TOP_FOUR) & (top.games > 0)], 1 / n)]
    claims += [Claim(f"the seat that took the {name} home wins", hats[hats.hat == hat], 1 / n)
               for hat, _, name in HATS]
    out = [
        summary_section(spec, seats, seat_test, claims, seat_name),
        skeleton.length_section(
            df, spec, LENGTH, rounds, length,
            text="Turns (one roll and move each, docs/games/mumia.md §3), moves (an Extra "
            "move of E4 is a second move in a turn) and rounds per game: the turns "
            "divided by the players, rounded up. A seat whose pawns are all home takes no "
            "more turns (§3 step 4), so a late round has fewer turns than there are players."),
        skeleton.end_section(
            end, "end",
            text="The standard end (§6.1): the game ends when every pawn is home. With "
            "sudden_end (mumia-sudden, §6.2) it ends as soon as one seat has all its pawns "
            "home. 'turn cap' counts games stopped by the simulator's safety cap (none are "
            "expected)."),
        skeleton.seat_section(
            seats, seat_test, spec, xlabel="seat (0 moves first)",
            note="Seat 0 moves first and play goes 0, 1, 2, ... (§2.1 step 5). The "
            "set-up treats every seat alike (all pawns on START; with E2 a roll gives out "
            "the hats), so a gap between seats is the order of play."),
        _spread_section(spec, spread, score_bin_table(df, spec)),
        _camel_section(spec, camels, camel_wins),
        _mummy_section(spec, mummy, top),
    ]
    if not hats.empty:
        out.append(_hat_section(spec, hats))
    if SUDDEN_VARIANT in spec.variants:
        out.append(_end_rule_section(end_rule_table(df, spec, end, spread, length)))
    tables = {"length": length, "seats": seats, "end": end, "spread": spread,
              "camels": camels, "mummy_top": top, "hats": hats}
    return out + skeleton.variants_sections(tables, spec, picks(n))
