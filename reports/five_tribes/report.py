"""The Five Tribes designer report: every table and chart is computed from the per-game
table of ``games.simulate_block`` (one row per game), variant by variant.

Conventions: seats are the players as the kernel numbers them (the deal shuffles the bid
order, so a seat number alone carries no advantage); a game's winners are the seats of the
highest final score and a tie shares the win equally (spec §13); every estimate has a
95 % interval (``lo95``, ``hi95``): Wilson intervals for proportions, normal intervals for
means over games (games are the independent units, also for per-player means),
binomial-rank intervals for quantiles, and for shares of turns the ratio estimator over
games. The small helpers (per-variant split, proportions, summaries, a report chart) are
Camel Up's.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import plots, stats
from ..document import Section, Table
from .. import sections
from ..sections import by_variant, chart, interval_text, proportion, summary_rows, top_credit
from ..spec import RunSpec
from .games import END_TRIGGERS, PARTS, TRIBES

HOLDINGS = (("camels", "camels placed (tiles owned)"), ("djinns", "djinns taken"))


def scores(g: pd.DataFrame, players: int) -> np.ndarray:
    """``[game, seat]``: final scores."""
    return g[[f"score_{p}" for p in range(players)]].to_numpy()


def win_credit(g: pd.DataFrame, players: int) -> np.ndarray:
    """``[game, seat]``: 1/k for each of the k seats of the highest score, 0 for others."""
    return top_credit(scores(g, players))


def _legend_right(ax) -> None:
    """Move a stacked chart's legend to the right of the axes: ``plots.stacked_shares``
    puts it below, a fixed fraction of the axes height down, where on these short charts
    it covers the x label."""
    ax.legend(fontsize="small", loc="center left", bbox_to_anchor=(1.01, 0.5))


def _seat_values(g: pd.DataFrame, name: str, players: int) -> np.ndarray:
    return g[[f"{name}_{p}" for p in range(players)]].to_numpy()


# --------------------------------------------------------------------------- tables


def length_tables(df: pd.DataFrame, spec: RunSpec) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(rounds distribution, rounds and turns summary)."""
    dist, summary = [], []
    for v, g in by_variant(df, spec):
        n = len(g)
        for rounds, k in g["rounds"].value_counts().sort_index().items():
            dist.append(dict(variant=v, rounds=int(rounds), games=int(k), **proportion(k, n)))
        turns = _seat_values(g, "turns", spec.players).sum(axis=1)
        summary += summary_rows(g["rounds"].to_numpy(), variant=v, measure="rounds")
        summary += summary_rows(turns, variant=v, measure="turns")
    return pd.DataFrame(dist), pd.DataFrame(summary)


def end_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Share of games by the end conditions that held when the game ended."""
    rows = []
    for v, g in by_variant(df, spec):
        for trigger in END_TRIGGERS:
            k = int((g["end_trigger"] == trigger).sum())
            rows.append(dict(variant=v, end_trigger=trigger, games=k, **proportion(k, len(g))))
    return pd.DataFrame(rows)


def seat_tables(df: pd.DataFrame, spec: RunSpec) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(win rate by seat, chi-square test of equal win rates), ties shared."""
    return sections.seat_tables(df, spec, win_credit)


def first_bidder_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Win rate of the player whose marker bids first in round 1 (ties shared)."""
    rows = []
    for v, g in by_variant(df, spec):
        credit = win_credit(g, spec.players)
        k = float(credit[np.arange(len(g)), g["first_bidder"].to_numpy()].sum())
        rows.append(dict(variant=v, games=len(g), wins=k, **proportion(k, len(g)),
                         equal_share=1 / spec.players))
    return pd.DataFrame(rows)


def composition_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Mean VP of every score part per winner (a game's winners averaged) and per player
    (a game's seats averaged), with the part's share of that group's mean score."""
    rows = []
    for v, g in by_variant(df, spec):
        won = win_credit(g, spec.players) > 0
        for group in ("winners", "all players"):
            means = []
            for part in PARTS:
                vp = _seat_values(g, f"vp_{part}", spec.players)
                per_game = ((vp * won).sum(axis=1) / won.sum(axis=1) if group == "winners"
                            else vp.mean(axis=1))
                mean, lo, hi = stats.mean_ci(per_game)
                means.append(dict(variant=v, group=group, part=part, mean=mean, lo95=lo,
                                  hi95=hi))
            total = sum(m["mean"] for m in means)
            rows += [dict(m, share=m["mean"] / total if total else np.nan) for m in means]
    return pd.DataFrame(rows)


def winner_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """The winning score and the winning margin (best minus second-best score, 0 on a
    tie): mean and quantiles."""
    rows = []
    for v, g in by_variant(df, spec):
        s = np.sort(scores(g, spec.players), axis=1)
        rows += summary_rows(s[:, -1], variant=v, measure="winning score")
        rows += summary_rows(s[:, -1] - s[:, -2], variant=v, measure="winning margin")
    return pd.DataFrame(rows)


def _per_seat(df: pd.DataFrame, spec: RunSpec, names: tuple[tuple[str, str], ...]
              ) -> pd.DataFrame:
    rows = []
    for v, g in by_variant(df, spec):
        for name, measure in names:
            for seat in range(spec.players):
                mean, lo, hi = stats.mean_ci(g[f"{name}_{seat}"].to_numpy())
                rows.append(dict(variant=v, measure=measure, seat=seat,
                                 policy=spec.policies[seat], mean=mean, lo95=lo, hi95=hi))
    return pd.DataFrame(rows)


def bid_gold_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Gold a seat paid for turn-order bids over a game: mean per seat."""
    return _per_seat(df, spec, (("bid_gold", "gold paid for bids"),))


def holdings_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Camels placed and djinns taken per game: mean per seat."""
    return _per_seat(df, spec, HOLDINGS)


def tribe_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Share of each tribe among the meeples-taking turns of the seats playing each
    policy."""
    rows = []
    for v, g in by_variant(df, spec):
        for policy in dict.fromkeys(spec.policies):
            seats = [s for s, p in enumerate(spec.policies) if p == policy]
            counts = {t: g[[f"took_{t}_{s}" for s in seats]].to_numpy().sum(axis=1)
                      for t in TRIBES}
            total = sum(counts.values())
            for tribe, num in counts.items():
                share, lo, hi = stats.ratio_ci(num, total)
                rows.append(dict(variant=v, policy=policy, tribe=tribe, turns=int(num.sum()),
                                 share=share, lo95=lo, hi95=hi))
    return pd.DataFrame(rows)


def comparison_table(tables: dict[str, pd.DataFrame], spec: RunSpec) -> pd.DataFrame:
    """Headline figures of every variant side by side, each as ``value [lo95, hi95]``."""
    picks = [
        ("mean rounds", "length", lambda t: t[(t.measure == "rounds") & (t.statistic == "mean")],
         "value"),
        ("mean turns", "length", lambda t: t[(t.measure == "turns") & (t.statistic == "mean")],
         "value"),
        ("P(a player placed his last camel)", "end",
         lambda t: t[t.end_trigger.isin(["last camel", "both"])], "sum"),
        ("P(no legal sowing was left)", "end",
         lambda t: t[t.end_trigger.isin(["no legal sowing", "both"])], "sum"),
        ("P(seat 0 wins)", "seats", lambda t: t[t.seat == 0], "p"),
        ("P(first bidder of round 1 wins)", "first", lambda t: t, "p"),
        ("mean winning score (VP)", "winner",
         lambda t: t[(t.measure == "winning score") & (t.statistic == "mean")], "value"),
        ("mean winning margin (VP)", "winner",
         lambda t: t[(t.measure == "winning margin") & (t.statistic == "mean")], "value"),
    ]
    rows = []
    for label, name, select, col in picks:
        row = {"measure": label}
        chosen = select(tables[name])
        for v in spec.variants:
            hit = chosen[chosen.variant == v]
            if hit.empty:
                row[v] = "n/a"
            elif col == "sum":  # the union of two end-condition rows, its own interval
                every = tables[name]
                p = proportion(int(hit.games.sum()), int(every[every.variant == v].games.sum()))
                row[v] = interval_text(p["p"], p["lo95"], p["hi95"])
            else:
                row[v] = interval_text(hit[col].iloc[0], hit.lo95.iloc[0], hit.hi95.iloc[0])
        rows.append(row)
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- sections


def report_sections(df: pd.DataFrame, spec: RunSpec) -> list[Section]:
    """Every section of the Five Tribes report for the games ``df`` of run ``spec``."""
    rounds, length = length_tables(df, spec)
    end = end_table(df, spec)
    seats, seat_test = seat_tables(df, spec)
    first = first_bidder_table(df, spec)
    composition = composition_table(df, spec)
    winner = winner_table(df, spec)
    bid_gold = bid_gold_table(df, spec)
    holdings = holdings_table(df, spec)
    tribes = tribe_table(df, spec)
    groups = by_variant(df, spec)
    stack = composition.assign(bar=composition["variant"] + " · " + composition["group"])
    mix = tribes.assign(group=tribes["variant"] + " · " + tribes["policy"])
    widest = stack.groupby("bar")["mean"].sum().max()

    def composition_chart(ax):
        plots.stacked_shares(ax, stack, "bar", "part", value="mean",
                             xlabel="mean VP per player (stacked by score part)",
                             ylabel="variant · group")
        ax.set_xlim(0, 1.05 * widest)  # VP, not shares
        _legend_right(ax)

    def tribe_chart(ax):
        plots.stacked_shares(ax, mix, "group", "tribe", xlabel="share of the policy's turns",
                             ylabel="variant · policy")
        _legend_right(ax)

    out = [
        Section("Game length",
                "Rounds played (the last included; a round is the bidding, every marker's "
                "turn and the clean-up) and turns (one per marker and round: two per player "
                "and round with 2 players) per game.",
                [Table("rounds", "Rounds per game", rounds),
                 Table("length", "Rounds and turns", length)],
                [chart("rounds", "Share of games by number of rounds, 95% error bars",
                        lambda ax: plots.grouped_bars(ax, rounds, "rounds", "variant",
                                                      xlabel="rounds in the game (count)",
                                                      ylabel="share of games")),
                 chart("turns", "Distribution of turns per game",
                        lambda ax: plots.histograms(
                            ax, {v: _seat_values(g, "turns", spec.players).sum(axis=1)
                                 for v, g in groups},
                            xlabel="turns in the game (count)"))]),
        Section("End of the game",
                "Which end conditions held when the game ended, after the clean-up of its "
                "last round (spec §13): a player had placed his last camel, no legal "
                "sowing was left on the board, or both. 'round cap' counts games stopped by "
                "the simulator's safety cap (none are expected).",
                [Table("end_trigger", "End conditions", end)],
                [chart("end_trigger", "Share of games by end condition, 95% error bars",
                        lambda ax: plots.grouped_bars(ax, end, "end_trigger", "variant",
                                                      xlabel="end condition",
                                                      ylabel="share of games"))]),
        Section("Seat advantage",
                "Win rate by seat, a tie sharing the win equally; the dashed line is "
                "1/players. The deal shuffles the bid order, so with one policy at every "
                "seat no seat should stand out (the test checks the simulation); with mixed "
                "policies the seats compare the policies. The test is Pearson's chi-square "
                "of the seats' win totals against equal win rates. The last table is the win "
                "rate of the player whose marker bids first in round 1.",
                [Table("seats", "Win rate by seat", seats),
                 Table("seat_test", "Test of no seat advantage", seat_test),
                 Table("first_bidder", "Win rate of the first bidder of round 1", first)],
                [chart("seats", "Win rate by seat, 95% error bars",
                        lambda ax: plots.grouped_bars(
                            ax, seats, "seat", "variant", xlabel="seat",
                            ylabel="win rate (ties shared)", reference=1 / spec.players))]),
        Section("Score composition",
                "Mean VP of every score part (spec §13) for the winners (a tie's winners "
                "averaged within the game) and for all players; share is the part's share "
                "of the group's mean score. Then the winning score and the margin over the "
                "second-best score.",
                [Table("score_composition", "Score parts", composition),
                 Table("winner_score", "Winning score and margin (VP)", winner)],
                [chart("score_composition", "Mean score by part, winners and all players",
                        composition_chart, height=1.6 + 0.45 * stack["bar"].nunique())]),
        Section("Gold spent on bids",
                "Gold a seat paid for turn-order bids over a game (spec §5); gold left at "
                "the end scores 1 VP each.",
                [Table("bid_gold", "Gold paid for bids per game", bid_gold)],
                [chart("bid_gold", "Mean gold paid for bids per game, 95% error bars",
                        lambda ax: plots.grouped_bars(
                            ax, bid_gold, "seat", "variant", value="mean", xlabel="seat",
                            ylabel="gold paid for bids per game"))]),
        Section("Tiles, djinns and tribes",
                "Camels placed (tiles owned) and djinns taken per game by seat, and the "
                "share of each tribe among the turns in which the seats of a policy took "
                "meeples; intervals treat games (not single turns) as the independent units.",
                [Table("holdings", "Camels and djinns per game", holdings),
                 Table("tribe_mix", "Tribes taken", tribes)],
                [chart("tribe_mix", "Tribes taken by variant and policy", tribe_chart,
                        height=1.6 + 0.45 * mix["group"].nunique())]),
    ]
    if len(spec.variants) > 1:
        tables = {"length": length, "end": end, "seats": seats, "first": first,
                  "winner": winner}
        out.append(Section(
            "Variants side by side",
            "Headline figures of every variant, each with its 95% interval.",
            [Table("variants", "Variants compared", comparison_table(tables, spec))]))
    return out
