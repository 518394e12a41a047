"""The Kingdom Run designer report: every table and chart is computed from the per-game
table of ``games.simulate_block`` (one row per game), variant by variant.

Conventions: seats as the kernel numbers them (seat p plays clan ``KWFG[p]``, seat 0 moves
first, docs/games/kingdom-run.md §3 step 5); a game's winners are the seats the kernel
marks as winning or sharing the win (§9, ``tie_rule``), and for the win rates a tie shares
the win equally; every estimate has a 95 % interval (``lo95``, ``hi95``): Wilson intervals
for proportions, normal intervals for means over games (games are the independent units,
also for per-seat means), binomial-rank intervals for quantiles and the ratio estimator
over games for ratios (actions per turn, shares of the points). Tables by player-game
(the win rate by how often a player used an action) treat a player's game as the unit;
the player-games of one game are not independent of each other, and a use split is a
comparison of games, not an experiment. The summary that opens the report is the shared
``summary``'s, given this game's own headline proportions; game length, end conditions,
seat advantage and the variants side by side are the shared ``skeleton``'s, given this
game's columns, labels and texts.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...analyser.kingdom_run.variants import rules_of
from .. import numbers, plots, sections, skeleton, stats
from ..document import Section, Table
from ..sections import by_variant, chart, proportion, seat_values, stacked_chart, summary_rows
from ..skeleton import Length, Pick, column, mean_of
from ..spec import RunSpec
from ..summary import Claim, summary_section
from .games import ACTIONS, CLAN_NAMES, CLANS, END_CONDITIONS, PODIUM

LENGTH = Length("rounds", {"turns": column("turns"), "rounds": column("rounds")})
SCORE = "final score (every seat)"
WINNING, MARGIN, LOSING = "winning score", "margin (winner - second)", "lowest score"
TIE = "tie for the win"
POINTS_MEASURES = {WINNING: "winning score", MARGIN: "margin over the second",
                   SCORE: "every seat's score"}  # the spread chart's bars (all in points)
SOURCES = (("podium", "podium places"), ("track", "runners on the track"),
           ("token_points", "victory tokens"))  # the parts of a score (§9): column, name
TOTAL = "total score"
SOURCE_NAMES = tuple(name for _, name in SOURCES)
REAL = ACTIONS[:-1]  # the five actions a die resolves; ACTIONS[-1] is copy
COPY = ACTIONS[-1]
ALL_ACTIONS = "all actions"
FEWER, AT, MORE = "fewer than the median", "the median", "more than the median"
LEVELS = (FEWER, AT, MORE)
REROLLS_PER_TURN = "dice re-rolled per turn"
REROLL_SHARE = "share of the rolled dice re-rolled"
ACTION_WINS_BASE, ACTION_WINS_BAR = 1.8, 0.14  # inches: the win-by-use chart's height


def seat_name(seat: int) -> str:
    """How the report names a seat: its clan, and seat 0 moves first."""
    return f"seat {seat} ({CLAN_NAMES[seat]}{', moves first' if seat == 0 else ''})"


def win_credit(g: pd.DataFrame, players: int) -> np.ndarray:
    """``[game, seat]``: 1/k for each of the k seats the kernel marks as winners."""
    won = seat_values(g, "won", players).astype(float)
    return won / np.maximum(won.sum(axis=1, keepdims=True), 1)


def use_values(g: pd.DataFrame, action: str, players: int) -> np.ndarray:
    """``[game, seat]``: the actions of type ``action`` each seat took (``copy``: the
    Copies it used)."""
    return seat_values(g, f"use_{action}", players)


def picks(players: int) -> list[Pick]:
    """The variants side by side: tables named as in ``report_sections``."""
    return [
        *skeleton.length_picks(LENGTH),
        Pick("P(podium full ends the game)", "end", lambda t: t[t.end == PODIUM], "p"),
        *[Pick(f"P(seat {s} wins)", "seats", lambda t, s=s: t[t.seat == s], "p")
          for s in range(players)],
        Pick("mean score (points)", "spread", mean_of(SCORE), "value"),
        Pick("mean winning score (points)", "spread", mean_of(WINNING), "value"),
        Pick("mean margin winner - second (points)", "spread", mean_of(MARGIN), "value"),
        Pick("P(tie for the win)", "spread", lambda t: t[t.measure == TIE], "value"),
        *[Pick(f"share of points from {name}", "point_shares",
               lambda t, k=name: t[t.source == k], "value") for name in SOURCE_NAMES],
        *[Pick(f"{a} per turn", "action_rates", lambda t, a=a: t[t.action == a], "value")
          for a in ACTIONS],
        Pick(REROLLS_PER_TURN, "rerolls",
             lambda t: t[(t.seat == "all") & (t.measure == REROLLS_PER_TURN)], "value"),
    ]


# --------------------------------------------------------------------------- tables


def length_tables(df: pd.DataFrame, spec: RunSpec) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(rounds distribution, turns and rounds summary)."""
    return skeleton.length_tables(df, spec, LENGTH)


def end_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Share of games by how they ended."""
    return skeleton.category_table(df, spec, "end", END_CONDITIONS)


def seat_tables(df: pd.DataFrame, spec: RunSpec) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(win rate by seat, chi-square test of equal win rates), ties shared."""
    return sections.seat_tables(df, spec, win_credit)


def _rows(values: np.ndarray, **keys: object) -> list[dict[str, object]]:
    """``summary_rows``; a single game gives its value without intervals."""
    if len(values) > 1:
        return summary_rows(values, **keys)
    return [dict(keys, statistic="mean", value=float(values[0]), lo95=np.nan, hi95=np.nan)]


def _mean(values: np.ndarray) -> tuple[float, float, float]:
    """``stats.mean_ci``; one game gives no interval."""
    values = np.asarray(values, dtype=float)
    if len(values) < 2:
        return float(values.mean()), np.nan, np.nan
    return stats.mean_ci(values)


def _ratio(num: np.ndarray, den: np.ndarray) -> tuple[float, float, float]:
    """``stats.ratio_ci``; nothing without a denominator."""
    if np.asarray(den).sum() == 0:
        return np.nan, np.nan, np.nan
    return stats.ratio_ci(num, den)


def spread_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Per variant: every seat's final score (mean, and quantiles over the per-game mean),
    the winning score, the margin of the winner over the second (0 on a tie of scores),
    the lowest score (mean and quantiles), and the share of games whose win is shared."""
    rows = []
    for v, g in by_variant(df, spec):
        scores = seat_values(g, "score", spec.players).astype(float)
        ordered = np.sort(scores, axis=1)
        mean, lo, hi = _mean(scores.mean(axis=1))
        rows.append(dict(variant=v, measure=SCORE, statistic="mean", value=mean, lo95=lo,
                         hi95=hi))
        rows += _rows(ordered[:, -1], variant=v, measure=WINNING)
        rows += _rows(ordered[:, -1] - ordered[:, -2], variant=v, measure=MARGIN)
        rows += _rows(ordered[:, 0], variant=v, measure=LOSING)
        tied = int((seat_values(g, "won", spec.players).sum(axis=1) > 1).sum())
        p = proportion(tied, len(g))
        rows.append(dict(variant=v, measure=TIE, statistic="share", value=p["p"],
                         lo95=p["lo95"], hi95=p["hi95"]))
    return pd.DataFrame(rows)


POINTS_COLUMNS = ["variant", "seat", "source", "mean", "lo95", "hi95", "share", "share_lo95",
                  "share_hi95"]


def points_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Per variant, seat (and ``all``: every seat's points added, per seat) and source of
    points (§9: podium places, runners left on the track, victory tokens, then the total):
    the mean points per game (normal interval over games) and the source's share of the
    seat's points (ratio estimator over games)."""
    rows = []
    for v, g in by_variant(df, spec):
        total = seat_values(g, "score", spec.players).astype(float)
        for seat in [*range(spec.players), "all"]:
            pick = (slice(None) if seat == "all" else [seat])
            den = total[:, pick].sum(axis=1)
            per = 1 if seat != "all" else spec.players
            for key, name in [*SOURCES, ("score", TOTAL)]:
                num = seat_values(g, key, spec.players).astype(float)[:, pick].sum(axis=1)
                mean, lo, hi = _mean(num / per)
                share, slo, shi = _ratio(num, den) if key != "score" else (1.0, 1.0, 1.0)
                rows.append(dict(variant=v, seat=str(seat), source=name, mean=mean, lo95=lo,
                                 hi95=hi, share=share, share_lo95=slo, share_hi95=shi))
    return pd.DataFrame(rows, columns=POINTS_COLUMNS)


def podium_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Per variant and seat: its runners on the podium per game (normal interval over
    games), and the share of games in which all four of them got there."""
    rows = []
    for v, g in by_variant(df, spec):
        finished = seat_values(g, "finished", spec.players)
        for seat in range(spec.players):
            mean, lo, hi = _mean(finished[:, seat])
            four = proportion(int((finished[:, seat] == 4).sum()), len(g))
            rows.append(dict(variant=v, seat=seat, runners=mean, lo95=lo, hi95=hi,
                             all_four=four["p"], all_four_lo95=four["lo95"],
                             all_four_hi95=four["hi95"]))
    return pd.DataFrame(rows)


ACTION_COLUMNS = ["variant", "action", "uses", "per_player_game", "lo95", "hi95", "per_turn",
                  "per_turn_lo95", "per_turn_hi95", "share", "share_lo95", "share_hi95"]


def action_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Per variant and action (the five actions, ``copy``: the Copies used, each also
    counted under the action it copied, then every action): the uses in all games, the
    uses per player per game (normal interval over games), per turn and as a share of
    every action taken (ratio estimator over games)."""
    rows = []
    for v, g in by_variant(df, spec):
        turns = g["turns"].to_numpy().astype(float)
        every = sum(use_values(g, a, spec.players).sum(axis=1) for a in REAL).astype(float)
        for a in [*ACTIONS, ALL_ACTIONS]:
            uses = (every if a == ALL_ACTIONS
                    else use_values(g, a, spec.players).sum(axis=1).astype(float))
            mean, lo, hi = _mean(uses / spec.players)
            per, plo, phi = _ratio(uses, turns)
            share, slo, shi = _ratio(uses, every)
            rows.append(dict(variant=v, action=a, uses=int(uses.sum()), per_player_game=mean,
                             lo95=lo, hi95=hi, per_turn=per, per_turn_lo95=plo,
                             per_turn_hi95=phi, share=share, share_lo95=slo, share_hi95=shi))
    return pd.DataFrame(rows, columns=ACTION_COLUMNS)


USE_WIN_COLUMNS = ["variant", "action", "median", "level", "player_games", "mean_uses",
                   "wins", "p", "lo95", "hi95", "equal_share"]


def use_win_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Per variant and action: every player-game split by the player's uses of the action
    against the median over all player-games of the variant (fewer, the median itself,
    more; no middle group when the median falls between two counts), and the win rate of
    each group (a tie sharing the win) with its Wilson interval, beside 1/players."""
    rows = []
    for v, g in by_variant(df, spec):
        credit = win_credit(g, spec.players).ravel()
        for a in ACTIONS:
            uses = use_values(g, a, spec.players).ravel().astype(float)
            median = float(np.median(uses))
            for level, mask in ((FEWER, uses < median), (AT, uses == median),
                                (MORE, uses > median)):
                n = int(mask.sum())
                if level == AT and n == 0:
                    continue
                k = float(credit[mask].sum())
                rows.append(dict(variant=v, action=a, median=median, level=level,
                                 player_games=n,
                                 mean_uses=float(uses[mask].mean()) if n else np.nan,
                                 wins=k, **proportion(k, n), equal_share=1 / spec.players))
    return pd.DataFrame(rows, columns=USE_WIN_COLUMNS)


def reroll_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Per variant: the dice re-rolled per turn and the share of the rolled dice that
    were re-rolled (every seat, ratio estimator over games); per seat, its dice re-rolled
    per game (normal interval over games)."""
    rows = []
    for v, g in by_variant(df, spec):
        dice = rules_of(v, dict(spec.rules)).dice
        rerolls = seat_values(g, "rerolls", spec.players).astype(float)
        turns = g["turns"].to_numpy().astype(float)
        value, lo, hi = _ratio(rerolls.sum(axis=1), turns)
        rows.append(dict(variant=v, seat="all", measure=REROLLS_PER_TURN, value=value,
                         lo95=lo, hi95=hi))
        value, lo, hi = _ratio(rerolls.sum(axis=1), dice * turns)
        rows.append(dict(variant=v, seat="all", measure=REROLL_SHARE, value=value, lo95=lo,
                         hi95=hi))
        for seat in range(spec.players):
            mean, lo, hi = _mean(rerolls[:, seat])
            rows.append(dict(variant=v, seat=str(seat), measure="dice re-rolled per game",
                             value=mean, lo95=lo, hi95=hi))
    return pd.DataFrame(rows)


def _parameters(variant: str, spec: RunSpec) -> str:
    """The assumed parameters a variant plays (§10, §11), in words."""
    r = rules_of(variant, dict(spec.rules))
    return (f"podium {','.join(map(str, r.podium_values))}; zones "
            f"{','.join(map(str, r.zone_values))} ({r.zone_mode}); tokens "
            f"{r.tokens_per_player(spec.players)} x {r.victory_token_value}")


def parameter_table(spec: RunSpec, tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Every variant of the run with its assumed parameters: the mean winning score and
    margin, the shares of the points from the podium, the track and the tokens, the mean
    turns, seat 0's win rate and the seats' chi-square test (its statistic and p-value,
    no interval)."""
    spread, points, length = tables["spread"], tables["points"], tables["length"]
    seats, test = tables["seats"], tables["seat_test"]
    rows = []
    for v in spec.variants:
        def one(frame: pd.DataFrame, col: str = "value", lo: str = "lo95",
                hi: str = "hi95") -> tuple[float, float, float]:
            hit = frame[frame.variant == v].iloc[0]
            return float(hit[col]), float(hit[lo]), float(hit[hi])

        picked = [
            ("mean winning score",
             one(spread[(spread.measure == WINNING) & (spread.statistic == "mean")])),
            ("mean margin (winner - second)",
             one(spread[(spread.measure == MARGIN) & (spread.statistic == "mean")])),
            *[(f"share of points from {name}",
               one(points[(points.seat == "all") & (points.source == name)], "share",
                   "share_lo95", "share_hi95")) for name in SOURCE_NAMES],
            ("mean turns", one(length[(length.measure == "turns")
                                      & (length.statistic == "mean")])),
            (f"P({seat_name(0)} wins)", one(seats[seats.seat == 0], "p")),
        ]
        t = test[test.variant == v].iloc[0]
        picked += [("seat test chi-square", (float(t.chi2), np.nan, np.nan)),
                   ("seat test p-value", (float(t.p_value), np.nan, np.nan))]
        for measure, (value, lo, hi) in picked:
            rows.append(dict(variant=v, parameters=_parameters(v, spec), measure=measure,
                             value=value, lo95=lo, hi95=hi))
    return pd.DataFrame(rows)


def _estimate(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """``frame`` with its estimate ``name`` and its interval (``<name>_lo95``,
    ``<name>_hi95``) as ``value``, ``lo95``, ``hi95``, the columns ``Pick`` reads."""
    return frame.assign(value=frame[name], lo95=frame[f"{name}_lo95"],
                        hi95=frame[f"{name}_hi95"])


# --------------------------------------------------------------------------- sections


def _spread_section(spread: pd.DataFrame) -> Section:
    bars = spread[spread.measure.isin(list(POINTS_MEASURES)) & (spread.statistic == "mean")]
    bars = bars.assign(measure=bars.measure.map(POINTS_MEASURES))
    return Section(
        "Final scores",
        "Final scores (docs/games/kingdom-run.md §9) per variant: every seat's score (the "
        "mean per game of the seats' scores), the winning score, the winner's margin over "
        "the second (0 when two top scores are equal, whoever the tie rule makes the "
        "winner), the lowest score, and the share of games whose win is shared (with "
        "tie_rule=best_podium only tied players without a runner on the podium share it). "
        "A small margin means close games.",
        [Table("spread", "Final scores: winner, margin and lowest", spread)],
        [chart("spread", "Mean winning score, margin and score, 95% error bars",
               lambda ax: plots.grouped_bars(ax, bars, "measure", "variant", value="value",
                                             xlabel="measure (mean per game)",
                                             ylabel="points"))])


def _action_section(spec: RunSpec, actions: pd.DataFrame, use_wins: pd.DataFrame
                    ) -> Section:
    shown = use_wins[use_wins.level.isin([FEWER, MORE]) & (use_wins.player_games > 0)]
    if len(spec.variants) > 1:  # a row per action and side of the median, a bar per variant
        shown = shown.assign(split=shown.action + ": " + shown.level.map(
            {FEWER: "fewer", MORE: "more"}))
        x, group, ylabel = "split", "variant", "action: uses against the median"
    else:  # a row per action, a bar per side of the median
        x, group, ylabel = "action", "level", "action"
    height = ACTION_WINS_BASE + ACTION_WINS_BAR * len(shown)
    return Section(
        "What each action is worth",
        "Every action a die resolves (§6), a Copy counted as the action it copied (§6.6); "
        "copy counts the Copies used, which are also counted under their action. The "
        "first table: each action's uses in all games, per player per game, per turn (a "
        "turn resolves at most the dice rolled) and its share of every action taken. Then "
        "every player's game split by how often the player took the action, against the "
        "median over all player-games of the variant (fewer, exactly the median, more), "
        "and the win rate of each group (a tie shares the win; dashed: 1/players). A "
        "player who takes an action often also had the dice and the targets for it, so a "
        "gap compares games as well as choices; the player-games of one game are not "
        "independent.",
        [Table("actions", "Actions taken", actions),
         Table("action_wins", "Win rate by uses of an action (median split)", use_wins)],
        [chart("actions", "Uses per player per game by action, 95% error bars",
               lambda ax: plots.grouped_bars(ax, actions[actions.action != ALL_ACTIONS],
                                             "action", "variant", value="per_player_game",
                                             xlabel="action (copy: Copies used)",
                                             ylabel="uses per player per game")),
         chart("action_wins", "Win rate of player-games with fewer or more uses than the "
               "median, 95% error bars",
               lambda ax: plots.grouped_bars(ax, shown, x, group, horizontal=True,
                                             xlabel="win rate (ties shared)",
                                             ylabel=ylabel,
                                             reference=1 / spec.players),
               height=height)])


def _points_section(spec: RunSpec, points: pd.DataFrame, podium: pd.DataFrame) -> Section:
    parts = points[points.source != TOTAL].copy()
    parts["row"] = [f"{v} · {'every seat' if s == 'all' else f'seat {s} ({CLANS[int(s)]})'}"
                    for v, s in zip(parts.variant, parts.seat)]
    return Section(
        "Where the points come from",
        "A score (§9) adds the podium places of the player's runners, the zone values of "
        "its runners left on the track (zone_mode=zone: the board it stands on; exact: "
        "only a board's first space) and its victory tokens. Per seat (and every seat, "
        "per seat), the mean points per game from each source and the source's share of "
        "the seat's points (ratio over games); the total is the final score. Then the "
        "seat's runners on the podium per game and the share of games in which all four "
        "got there.",
        [Table("points", "Points by source and seat", points),
         Table("podium", "Runners on the podium by seat", podium)],
        [stacked_chart("points", "Mean points per game by source, 95% error bars", parts,
                       "row", "source", value="mean", xlabel="points per game",
                       ylabel="variant · seat")])


def _reroll_section(rerolls: pd.DataFrame) -> Section:
    per_seat = rerolls[rerolls.seat != "all"]
    return Section(
        "Re-rolls",
        "The mover rolls the action dice, then rolls any of them again once (§4 step 2; "
        "keeping every die is no re-roll). The dice re-rolled per turn and the share of "
        "the rolled dice that were re-rolled (every seat: ratio over games), then each "
        "seat's dice re-rolled per game (a seat's turns per game are not recorded, and with "
        "3-4 players a seat whose runners are all across takes no more turns).",
        [Table("rerolls", "Dice re-rolled", rerolls)],
        [chart("rerolls", "Dice re-rolled per game by seat, 95% error bars",
               lambda ax: plots.grouped_bars(ax, per_seat, "seat", "variant", value="value",
                                             xlabel="seat (0 moves first)",
                                             ylabel="dice re-rolled per game"))])


def _parameter_section(spec: RunSpec, params: pd.DataFrame) -> Section:
    shares = {f"share of points from {name}": name for name in SOURCE_NAMES}
    shown = params[params.measure.isin(list(shares))]
    shown = shown.assign(measure=shown.measure.map(shares))
    more = ("" if len(spec.variants) > 1 else
            " This run plays one variant; run kingdom-run-linear-podium and "
            "kingdom-run-exact-zones beside it to compare.")
    return Section(
        "Assumed parameters",
        "No source gives the podium values after the printed 13 (KR-4) nor how the score "
        "tokens count (KR-5, KR-6); oddsbot assumes them (§10, §11). The variants set the "
        "assumptions differently: kingdom-run-linear-podium scores the places 8, 7, ..., "
        "1, kingdom-run-exact-zones scores a runner on the track only on a score token's "
        "own space. Per variant: its parameters, the mean winning score and margin, the "
        "shares of the points from each source, the game's length, seat 0's win rate and "
        "the seats' chi-square test (statistic and p-value, no interval)." + more,
        [Table("parameters", "Assumed parameters compared", params,
               formats={"value": lambda x: numbers.cell(x, 4)})],
        [chart("parameters", "Share of the points from each source by variant, 95% error "
               "bars",
               lambda ax: plots.grouped_bars(ax, shown, "measure", "variant", value="value",
                                             xlabel="source of points (§9)",
                                             ylabel="share of every seat's points"))])


def action_claims(use_wins: pd.DataFrame, players: int) -> list[Claim]:
    """Per action: the win rate of the player-games with more uses than the median."""
    more = use_wins[(use_wins.level == MORE) & (use_wins.player_games > 0)]
    return [Claim(f"a player who took {a} more often than the median wins",
                  more[more.action == a], 1 / players) for a in ACTIONS]


def report_sections(df: pd.DataFrame, spec: RunSpec) -> list[Section]:
    """Every section of the Kingdom Run report for the games ``df`` of run ``spec``."""
    rounds, length = length_tables(df, spec)
    end = end_table(df, spec)
    seats, seat_test = seat_tables(df, spec)
    spread = spread_table(df, spec)
    points = points_table(df, spec)
    actions = action_table(df, spec)
    use_wins = use_win_table(df, spec)
    rerolls = reroll_table(df, spec)
    tables = {"length": length, "seats": seats, "seat_test": seat_test, "end": end,
              "spread": spread, "points": points, "rerolls": rerolls,
              "point_shares": _estimate(points[points.seat == "all"], "share"),
              "action_rates": _estimate(actions, "per_turn")}
    n = spec.players
    out = [
        summary_section(spec, seats, seat_test, action_claims(use_wins, n), seat_name),
        skeleton.length_section(
            df, spec, LENGTH, rounds, length,
            text="Turns (one roll, one re-roll and the actions, docs/games/kingdom-run.md "
            "§4) and rounds per game: the turns divided by the players, rounded up. With "
            "3-4 players a player whose four runners have all crossed takes no more turns "
            "(§4 step 6), so a late round can have fewer turns than there are players."),
        skeleton.end_section(
            end, "end",
            text="How the game ended (§8): the podium full (8 places by default; the end "
            "with 3-4 players, and with 2 players under two_player_end=first_of when it "
            "comes first), the 2-player rule (one player's four runners across), nobody "
            "left to move (3-4 players whose runners are all across, possible only with a "
            "long podium), or stopped by the simulator at the turn limit (KR-28, none "
            "expected)."),
        skeleton.seat_section(
            seats, seat_test, spec, xlabel="seat (0 moves first)",
            note="Seat p plays clan " + ", ".join(f"{p} {CLAN_NAMES[p]} ({CLANS[p]})"
                                                  for p in range(n))
            + "; seat 0 moves first and play goes 0, 1, 2, ... (§3). The set-up treats "
            "every clan alike (one runner of each on each START space, equal tokens), so "
            "a gap between seats is the order of play."),
        _spread_section(spread),
        _action_section(spec, actions, use_wins),
        _points_section(spec, points, podium_table(df, spec)),
        _reroll_section(rerolls),
        _parameter_section(spec, parameter_table(spec, tables)),
    ]
    return out + skeleton.variants_sections(tables, spec, picks(n))
