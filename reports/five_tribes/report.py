"""The Five Tribes designer report: every table and chart is computed from the per-game
table of ``games.simulate_block`` (one row per game), variant by variant.

Conventions: seats are the players as the kernel numbers them (the deal shuffles the bid
order, so a seat number alone carries no advantage); a game's winners are the seats of the
highest final score and a tie shares the win equally (docs/games/five-tribes.md §13);
every estimate has a 95 % interval (``lo95``, ``hi95``): Wilson intervals for
proportions, normal intervals for means over games (games are the independent units, also
for per-player means), binomial-rank intervals for quantiles, and for shares of turns the
ratio estimator over games. The summary that opens the report is the shared
``summary``'s, given the first bidder's win rate; game length, end conditions, seat
advantage and the variants side by side are the shared ``skeleton``'s, given this game's
columns, labels and texts.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import plots, sections, skeleton, stats
from ..document import Section, Table
from ..sections import by_variant, chart, seat_values, stacked_chart, summary_rows, top_credit
from ..skeleton import UNION, Length, Pick, column, mean_of
from ..spec import RunSpec
from ..summary import Claim, summary_section
from .games import END_TRIGGERS, PARTS, TRIBES

HOLDINGS = (("camels", "camels placed (tiles owned)"), ("djinns", "djinns taken"))
LENGTH = Length("rounds", {
    "rounds": column("rounds"),
    "turns": lambda g, players: seat_values(g, "turns", players).sum(axis=1),  # all seats'
})
PICKS = [  # the variants side by side: tables named as in ``report_sections``
    *skeleton.length_picks(LENGTH),
    Pick("P(a player placed his last camel)", "end",
         lambda t: t[t.end_trigger.isin(["last camel", "both"])], UNION),
    Pick("P(no legal sowing was left)", "end",
         lambda t: t[t.end_trigger.isin(["no legal sowing", "both"])], UNION),
    skeleton.SEAT_PICK,
    Pick("P(first bidder of round 1 wins)", "first", lambda t: t, "p"),
    Pick("mean winning score (VP)", "winner", mean_of("winning score"), "value"),
    Pick("mean winning margin (VP)", "winner", mean_of("winning margin"), "value"),
]


def win_credit(g: pd.DataFrame, players: int) -> np.ndarray:
    """``[game, seat]``: 1/k for each of the k seats of the highest score, 0 for others."""
    return top_credit(seat_values(g, "score", players))


# --------------------------------------------------------------------------- tables


def composition_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Mean VP of every score part per winner (a game's winners averaged) and per player
    (a game's seats averaged), with the part's share of that group's mean score."""
    rows = []
    for v, g in by_variant(df, spec):
        won = win_credit(g, spec.players) > 0
        for group in ("winners", "all players"):
            means = []
            for part in PARTS:
                vp = seat_values(g, f"vp_{part}", spec.players)
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
        s = np.sort(seat_values(g, "score", spec.players), axis=1)
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
    return sections.policy_shares(df, spec, TRIBES, prefix="took_", key="tribe", count="turns")


# --------------------------------------------------------------------------- sections


def report_sections(df: pd.DataFrame, spec: RunSpec) -> list[Section]:
    """Every section of the Five Tribes report for the games ``df`` of run ``spec``."""
    rounds, length = skeleton.length_tables(df, spec, LENGTH)
    end = skeleton.category_table(df, spec, "end_trigger", END_TRIGGERS)
    seats, seat_test = sections.seat_tables(df, spec, win_credit)
    first = skeleton.first_player_table(df, spec, win_credit, "first_bidder")
    composition = composition_table(df, spec)
    winner = winner_table(df, spec)
    bid_gold = bid_gold_table(df, spec)
    holdings = holdings_table(df, spec)
    tribes = tribe_table(df, spec)
    stack = composition.assign(bar=composition["variant"] + " · " + composition["group"])
    mix = tribes.assign(group=tribes["variant"] + " · " + tribes["policy"])
    first_bidder = Claim("the first bidder of round 1 wins", first, 1 / spec.players)
    out = [
        summary_section(spec, seats, seat_test, [first_bidder]),
        skeleton.length_section(
            df, spec, LENGTH, rounds, length,
            text="Rounds played (the last included; a round is the bidding, every marker's "
            "turn and the clean-up) and turns (one per marker and round: two per player "
            "and round with 2 players) per game."),
        skeleton.end_section(
            end, "end_trigger",
            text="Which end conditions held when the game ended, after the clean-up of its "
            "last round (docs/games/five-tribes.md §13): a player had placed his last "
            "camel, no legal sowing was left on the board, or both. 'round cap' counts "
            "games stopped by the simulator's safety cap (none are expected)."),
        skeleton.seat_section(
            seats, seat_test, spec, xlabel="seat",
            note="The deal shuffles the bid order, so with one policy at every seat no seat "
            "should stand out (the test checks the simulation); with mixed policies the "
            "seats compare the policies.",
            first=(Table("first_bidder", "Win rate of the first bidder of round 1", first),
                   "the player whose marker bids first in round 1")),
        Section("Score composition",
                "Mean VP of every score part (docs/games/five-tribes.md §13) for the winners "
                "(a tie's winners averaged within the game) and for all players; share is "
                "the part's share of the group's mean score. Then the winning score and the "
                "margin over the second-best score.",
                [Table("score_composition", "Score parts", composition),
                 Table("winner_score", "Winning score and margin (VP)", winner)],
                [stacked_chart("score_composition",
                               "Mean score by part, winners and all players, 95% error bars",
                               stack, "bar", "part", value="mean",
                               xlabel="mean VP per player (stacked by score part)",
                               ylabel="variant · group")]),
        Section("Gold spent on bids",
                "Gold a seat paid for turn-order bids over a game "
                "(docs/games/five-tribes.md §5); gold left at the end scores 1 VP each.",
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
                [stacked_chart("tribe_mix", "Tribes taken by variant and policy, 95% error bars",
                               mix, "group", "tribe", xlabel="share of the policy's turns",
                               ylabel="variant · policy")]),
    ]
    tables = {"length": length, "end": end, "seats": seats, "first": first,
              "winner": winner}
    return out + skeleton.variants_sections(tables, spec, PICKS)
