"""The Camel Up designer report: every table and chart is computed from the per-game
table of ``games.simulate_block`` (one row per game), variant by variant.

Conventions: places and seats as docs/games/camel-up.md counts them (start place 1 = the
leading camel, seat 0 moves first); a game's winners are the richest seats, a tie shares the win
equally; every estimate has a 95 % interval (``lo95``, ``hi95``): Wilson intervals for
proportions, normal intervals for means, binomial-rank intervals for quantiles, and for
shares of actions the ratio estimator over games. The summary that opens the report is
the shared ``summary``'s, given this game's seat names and the leading camel's win rate;
game length, seat advantage and the variants side by side are the shared ``skeleton``'s,
given this game's columns, labels and texts.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...analyser.camel_up.variants import VARIANTS
from ...kernels.camel_up import KIND_NAMES, MAX_LEGS_LOGGED, N_RACING
from .. import plots, sections, skeleton, stats
from ..document import Section, Table
from ..sections import (
    by_variant, chart, proportion, seat_values, stacked_chart, summary_rows, top_credit,
)
from ..skeleton import Length, Pick, column
from ..spec import RunSpec
from ..summary import Claim, summary_section

LENGTH = Length("legs", {"turns": column("turns"), "legs": column("legs")})
PICKS = [  # the variants side by side: tables named as in ``report_sections``
    *skeleton.length_picks(LENGTH),
    skeleton.SEAT_PICK,
    Pick("P(leading camel at the start wins)", "start", lambda t: t[t.start_place == 1], "p"),
    Pick("P(leader after leg 1 wins)", "leader", lambda t: t[t.leg == 1], "p"),
    Pick("P(crazy camels decided the race)", "crazy",
         lambda t: t[t.measure.str.startswith("P(")], "value"),
    Pick("mean winner money (EP)", "money", lambda t: t[t.statistic == "mean"], "value"),
]


def seat_name(seat: int) -> str:
    """How the report names a seat: seat 0 moves first (docs/games/camel-up.md §2)."""
    return "seat 0 (moves first)" if seat == 0 else f"seat {seat}"


def win_credit(g: pd.DataFrame, players: int) -> np.ndarray:
    """``[game, seat]``: 1/k for each of the k richest seats, 0 for the others."""
    return top_credit(seat_values(g, "money", players))


# --------------------------------------------------------------------------- tables


def length_tables(df: pd.DataFrame, spec: RunSpec) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(legs distribution, turns and legs summary)."""
    return skeleton.length_tables(df, spec, LENGTH)


def start_place_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """P(the race winner started in place k), k = 1 (leading) .. 5."""
    rows = []
    for v, g in by_variant(df, spec):
        letters = dict(zip(VARIANTS[v].colours, VARIANTS[v].letters))
        start = np.array([order.index(letters[w]) + 1
                          for order, w in zip(g["start_order"], g["winner"].astype(str))])
        for place in range(1, len(letters) + 1):
            k = int((start == place).sum())
            rows.append(dict(variant=v, start_place=place, wins=k, games=len(g),
                             **proportion(k, len(g))))
    return pd.DataFrame(rows)


def leader_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """P(the leader after leg k wins the race), among games in which leg k was scored
    before the race ended."""
    rows = []
    for v, g in by_variant(df, spec):
        for k in range(1, MAX_LEGS_LOGGED + 1):
            leader = g[f"leader_leg_{k}"]
            played = leader.notna().to_numpy()
            n = int(played.sum())
            if n == 0:
                break
            wins = int((leader.astype(str).to_numpy() == g["winner"].astype(str).to_numpy())
                       [played].sum())
            rows.append(dict(variant=v, leg=k, games=n, leader_wins=wins,
                             **proportion(wins, n)))
    return pd.DataFrame(rows)


def seat_tables(df: pd.DataFrame, spec: RunSpec) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(win rate by seat, chi-square test of equal win rates), ties shared."""
    return sections.seat_tables(df, spec, win_credit)


def crazy_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """How often the crazy camels decided the race, and how often they changed the lead."""
    rows = []
    for v, g in by_variant(df, spec):
        if not VARIANTS[v].crazy:
            continue
        k = int(g["crazy_decided"].sum())
        rows.append(dict(variant=v, measure="P(winner last took the lead on a grey-die move)",
                         value=k / len(g), lo95=float(stats.wilson(k, len(g))[0]),
                         hi95=float(stats.wilson(k, len(g))[1])))
        mean, lo, hi = stats.mean_ci(g["crazy_lead_changes"].to_numpy())
        rows.append(dict(variant=v, measure="grey-die moves that changed the leader, per game",
                         value=mean, lo95=lo, hi95=hi))
    return pd.DataFrame(rows, columns=["variant", "measure", "value", "lo95", "hi95"])


def winner_money_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """The winner's final money (EP): mean and quantiles."""
    rows = []
    for v, g in by_variant(df, spec):
        rows += summary_rows(seat_values(g, "money", spec.players).max(axis=1), variant=v)
    return pd.DataFrame(rows)


def action_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Share of each action kind among the actions of the seats playing each policy."""
    return sections.policy_shares(df, spec, KIND_NAMES, prefix="", key="kind", count="actions")


# --------------------------------------------------------------------------- sections


def report_sections(df: pd.DataFrame, spec: RunSpec) -> list[Section]:
    """Every section of the Camel Up report for the games ``df`` of run ``spec``."""
    legs, summary = length_tables(df, spec)
    start = start_place_table(df, spec)
    leader = leader_table(df, spec)
    seats, seat_test = seat_tables(df, spec)
    crazy = crazy_table(df, spec)
    money = winner_money_table(df, spec)
    actions = action_table(df, spec)
    groups = by_variant(df, spec)
    mix = actions.assign(group=actions["variant"] + " · " + actions["policy"])
    crazy_text = ("A grey-die move changes the leader when the leading racing camel differs "
                  "before and after it (a crazy camel carried racers backwards, or moved "
                  "under them). The crazy camels decided the race when the eventual winner "
                  "took the lead for the last time on such a move."
                  + (" None of the variants of this run has crazy camels." if crazy.empty
                     else ""))
    leading = Claim("the camel leading after set-up wins the race",
                    start[start.start_place == 1], 1 / N_RACING)
    out = [
        summary_section(spec, seats, seat_test, [leading], seat_name),
        skeleton.length_section(df, spec, LENGTH, legs, summary,
                                text="Legs played (the leg in which the race ends included) "
                                "and turns (one action each) per game."),
        Section("Starting place and the race",
                "How often the camel that started in each place (after the set-up rolls and "
                "stacking; 1 = leading) wins the race. The dashed line is 1/5.",
                [Table("start_place", "Race winner by start place", start)],
                [chart("start_place", "P(the race winner started in place k), 95% error bars",
                        lambda ax: plots.grouped_bars(
                            ax, start, "start_place", "variant", ylabel="P(race winner)",
                            xlabel="start place of the camel (1 = leading after set-up)",
                            reference=1 / N_RACING))]),
        Section("Leader after leg k",
                "Among games in which leg k was scored before the race ended, how often the "
                "camel leading at that moment went on to win.",
                [Table("leader_after_leg", "P(leader after leg k wins)", leader)],
                [chart("leader_after_leg", "P(leader after leg k wins), 95% bands",
                        lambda ax: plots.band_lines(
                            ax, leader, "leg", "variant", xlabel="leg k (count)",
                            ylabel="P(leader after leg k wins the race)"))]),
        skeleton.seat_section(seats, seat_test, spec, xlabel="seat (0 moves first)"),
        Section("Crazy camels", crazy_text,
                [Table("crazy", "Crazy camels and the race", crazy)]),
        Section("Money of winners", "The richest seat's final money in EP.",
                [Table("winner_money", "Winner's money (EP)", money)],
                [chart("winner_money", "Share of games by the winner's money, 95% bands",
                        lambda ax: plots.histograms(
                            ax, {v: seat_values(g, "money", spec.players).max(axis=1)
                                 for v, g in groups},
                            xlabel="winner's money (EP)"))]),
        Section("Action mix by policy",
                "Share of each kind of action among all actions taken by the seats playing a "
                "policy; intervals treat games (not single actions) as the independent units.",
                [Table("action_mix", "Action mix", actions)],
                [stacked_chart("action_mix", "Action mix by variant and policy, 95% error bars",
                               mix, "group", "kind", xlabel="share of the policy's actions",
                               ylabel="variant · policy")]),
    ]
    tables = {"length": summary, "seats": seats, "start": start, "leader": leader,
              "crazy": crazy, "money": money}
    return out + skeleton.variants_sections(tables, spec, PICKS)
