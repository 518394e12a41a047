"""The Five Tribes designer report: every table and chart is computed from the per-game
table of ``games.simulate_block`` (one row per game), variant by variant.

Conventions: seats are the players as the kernel numbers them (the deal shuffles the bid
order, so a seat number alone carries no advantage); a game's winners are the seats of the
highest final score and a tie shares the win equally (docs/games/five-tribes.md §13),
except in the djinn table, where a djinn's holder sharing first place counts as a winner;
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

from .. import figures, palette, plots, sections, skeleton, stats
from ..document import Chart, Section, Table
from ..sections import (
    by_variant, chart, proportion, seat_values, stacked_chart, summary_rows, top_credit,
    top_seats,
)
from ..skeleton import UNION, Length, Pick, column, mean_of
from ..spec import RunSpec
from ..summary import Claim, summary_section
from .games import DJINNS, END_TRIGGERS, PARTS, TRIBES
from .greedy_check import greedy_check_section

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


def _rate(prefix: str, k: float, n: int) -> dict[str, object]:
    """``proportion(k, n)`` as ``<prefix>_rate``, ``<prefix>_lo95``, ``<prefix>_hi95``."""
    p = proportion(k, n)
    return {f"{prefix}_rate": p["p"], f"{prefix}_lo95": p["lo95"], f"{prefix}_hi95": p["hi95"]}


def djinn_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Per variant and djinn: ``held``, the games in which some player held it at the end,
    of ``games``, and the pick rate (their share); ``wins``, the games of ``held`` in
    which its holder won (a holder sharing first place counts as a winner), and the win
    rate (their share of ``held``; none when never held); each with its 95 % Wilson
    interval. ``player_win_rate``: a player's win rate over all games by the same rule
    (what a djinn's win rate compares with). Sorted by win rate, highest first, within
    each variant."""
    frames = []
    for v, g in by_variant(df, spec):
        top = top_seats(seat_values(g, "score", spec.players))
        rows = []
        for d in DJINNS:
            holder = g[f"holder_{d}"].to_numpy()
            held = holder >= 0
            wins = int(top[held, holder[held]].sum())
            rows.append(dict(variant=v, djinn=d, games=len(g), held=int(held.sum()),
                             **_rate("pick", held.sum(), len(g)), wins=wins,
                             **_rate("win", wins, held.sum()),
                             player_win_rate=float(top.mean())))
        frames.append(pd.DataFrame(rows).sort_values("win_rate", ascending=False,
                                                     na_position="last", kind="stable"))
    return pd.concat(frames, ignore_index=True)


BASE_LINES = ("--", ":", "-.")  # any player's win rate, variant by variant


def djinn_chart(djinns: pd.DataFrame) -> Chart:
    """Pick rate and win rate per djinn side by side (top down in the table's order, the
    first variant's when there are several), each variant a colour, with 95 % error bars;
    a dark line per variant at any player's win rate, named in the legend below."""
    variants = list(dict.fromkeys(djinns["variant"]))
    fig = figures.figure(9, 2.6 + 0.26 * len(DJINNS) * len(variants) ** 0.5)
    pick_ax, win_ax = fig.subplots(1, 2, sharey=True)
    for ax, rate, xlabel in ((pick_ax, "pick", "pick rate (share of games held at the end)"),
                             (win_ax, "win", "win rate of its holder (ties count as wins)")):
        frame = djinns.rename(columns={f"{rate}_rate": "p", f"{rate}_lo95": "lo95",
                                       f"{rate}_hi95": "hi95"})
        plots.grouped_bars(ax, frame, "djinn", "variant", xlabel=xlabel,
                           ylabel="djinn" if ax is pick_ax else "", horizontal=True, key=False)
        ax.grid(axis="x", linewidth=0.5, alpha=0.4)
        ax.locator_params(axis="x", nbins=6)
    for i, v in enumerate(variants):
        base = djinns.loc[djinns["variant"] == v, "player_win_rate"].iloc[0]
        name = "any player's win rate" + (f", {v}" if len(variants) > 1 else "")
        win_ax.axvline(base, color=palette.EDGE, linestyle=BASE_LINES[i % len(BASE_LINES)],
                       linewidth=1.2, zorder=3, label=name)
    plots.legend(win_ax, where=plots.BELOW)
    return Chart("djinns", "Djinn pick rate and its holder's win rate, 95% error bars", fig)


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
    djinns = djinn_table(df, spec)
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
        Section("Djinns",
                "Per djinn, the pick rate: the share of games in which some player held it "
                "at the end; and the win rate: among those games, the share in which its "
                "holder won (a holder sharing first place counts as a winner, so a player's "
                "win rate in general, player_win_rate, is a little above 1 / players). "
                "Both with 95% Wilson intervals; held and wins are the games behind them. "
                "Sorted by win rate (docs/games/five-tribes.md §19.5).",
                [Table("djinns", "Djinn pick rate and win rate", djinns)],
                [djinn_chart(djinns)]),
        greedy_check_section(spec),
    ]
    tables = {"length": length, "end": end, "seats": seats, "first": first,
              "winner": winner}
    return out + skeleton.variants_sections(tables, spec, PICKS)
