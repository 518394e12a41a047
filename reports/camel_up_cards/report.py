"""The Camel Up Cards designer report: every table and chart is computed from the per-game
table of ``games.simulate_block`` (one row per game), variant by variant; only "Legs by
player count" also simulates games of the other player counts.

Conventions: seats as ``games`` numbers them (seat 0 is the youngest, so it starts leg 1,
docs/games/camel-up-cards.md §2 step 7); a game's winners are the richest seats and a tie
shares the win equally (§8.4); camels by colour name; every estimate has a 95 % interval
(``lo95``, ``hi95``): Wilson intervals for proportions, normal intervals for means over
games, binomial-rank intervals for quantiles, and for shares of actions, chances or
placements the ratio estimator over games. Tables by seat and game (the hand card's value)
treat a seat's game as the unit. The summary that opens the report is the shared
``summary``'s, given this game's seat names and its own headline proportions; game length,
end conditions, seat advantage and the variants side by side are the shared
``skeleton``'s, given this game's columns, labels and texts.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...analyser.camel_up_cards.advise import COLOUR_NAMES
from ...analyser.camel_up_cards.position import COLOURS, MAX_PLAYERS, MIN_PLAYERS
from .. import figures, plots, sections, skeleton, stats
from ..document import Chart, Section, Table
from ..sections import (
    by_variant, chart, proportion, seat_values, stacked_chart, summary_rows, top_credit,
)
from ..skeleton import Length, Pick, column
from ..spec import RunSpec
from ..summary import Claim, summary_section
from .games import (
    BET_KINDS, END_TRIGGERS, FATES, FIGURES, RACE_KINDS, seat_policies, simulate_block,
)

LENGTH = Length("legs", {"turns": column("turns"), "legs": column("legs")})
N_CAMELS = len(COLOURS)
ROLES = ("winner", "loser")  # the race's winning and losing camel
LETTER = dict(zip(COLOUR_NAMES, COLOURS))
FIRST_LEG, LAST_LEG = "leg 1 (the youngest)", "last leg (the least money)"
START_PLAYERS = ((FIRST_LEG, "first_player"), (LAST_LEG, "last_start"))
HAND_BINS = ("0", "1", "2", "3", "4+")  # hand cards a seat played in a game
NO_BET = "no bet"
# games per other player count in "Legs by player count" (the run's own count: its games)
BY_PLAYERS_GAMES = 20_000
PICKS = [  # the variants side by side: tables named as in ``report_sections``
    *skeleton.length_picks(LENGTH),
    skeleton.SEAT_PICK,
    Pick("P(start player of the last leg wins)", "start",
         lambda t: t[t.start_player == LAST_LEG], "p"),
    Pick("P(leading camel after set-up wins)", "start_place",
         lambda t: t[(t.role == "winner") & (t.start_place == 1)], "p"),
    Pick("mean winner money (EP)", "money", lambda t: t[t.statistic == "mean"], "value"),
]


def seat_name(seat: int) -> str:
    """How the report names a seat: seat 0 is the youngest and starts leg 1."""
    return "seat 0 (starts leg 1)" if seat == 0 else f"seat {seat}"


def win_credit(g: pd.DataFrame, players: int) -> np.ndarray:
    """``[game, seat]``: 1/k for each of the k richest seats, 0 for the others."""
    return top_credit(seat_values(g, "money", players))


def _policy_seats(spec: RunSpec) -> list[tuple[str, list[int]]]:
    """Every policy of the run with the seats playing it, in seat order."""
    return [(policy, [s for s, p in enumerate(spec.policies) if p == policy])
            for policy in dict.fromkeys(spec.policies)]


def _sum_seats(g: pd.DataFrame, name: str, seats: list[int]) -> np.ndarray:
    """Per game: the per-seat column ``<name>_<seat>`` summed over ``seats``."""
    return g[[f"{name}_{s}" for s in seats]].to_numpy().sum(axis=1)


# --------------------------------------------------------------------------- tables


def length_tables(df: pd.DataFrame, spec: RunSpec) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(legs distribution, turns and legs summary)."""
    return skeleton.length_tables(df, spec, LENGTH)


def end_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Share of games by the race action that ended the race."""
    return skeleton.category_table(df, spec, "end_trigger", END_TRIGGERS)


def seat_tables(df: pd.DataFrame, spec: RunSpec) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(win rate by seat, chi-square test of equal win rates), ties shared."""
    return sections.seat_tables(df, spec, win_credit)


def start_player_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Win rate of the start player of leg 1 and of the last leg (the one in which the
    race ended), ties shared, beside the equal share 1/players."""
    rows = []
    for v, g in by_variant(df, spec):
        won = win_credit(g, spec.players)
        for label, col in START_PLAYERS:
            k = float(won[np.arange(len(g)), g[col].to_numpy()].sum())
            rows.append(dict(variant=v, start_player=label, games=len(g), wins=k,
                             **proportion(k, len(g)), equal_share=1 / spec.players))
    return pd.DataFrame(rows)


def legs_started_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Legs each seat started per game (mean), and its share of all legs played."""
    rows = []
    for v, g in by_variant(df, spec):
        legs = g["legs"].to_numpy()
        for seat in range(spec.players):
            started = g[f"legs_started_{seat}"].to_numpy()
            mean, lo, hi = stats.mean_ci(started)
            share, s_lo, s_hi = stats.ratio_ci(started, legs)
            rows.append(dict(variant=v, seat=seat, policy=spec.policies[seat], mean=mean,
                             lo95=lo, hi95=hi, share_of_legs=share, share_lo95=s_lo,
                             share_hi95=s_hi))
    return pd.DataFrame(rows)


def player_count_games(df: pd.DataFrame, spec: RunSpec, variant: str
                       ) -> dict[int, tuple[str, pd.DataFrame]]:
    """For every player count 2-6: ("this run", the run's games) for the run's own count,
    else ("simulated", ``BY_PLAYERS_GAMES`` games at most, as many as the run has: games
    0.. of the run's seed, the run's policies repeated in seat order)."""
    mine = df[df["variant"] == variant]
    n = min(len(mine), BY_PLAYERS_GAMES)
    return {k: ("this run", mine) if k == spec.players else
            ("simulated", simulate_block(variant, k, seat_policies(spec.policies, k),
                                         spec.seed, 0, n))
            for k in range(MIN_PLAYERS, MAX_PLAYERS + 1)}


def legs_by_players_tables(df: pd.DataFrame, spec: RunSpec
                           ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(share of games by legs played, per player count; legs per game: mean and
    quantiles, per player count), from ``player_count_games``."""
    dist, summary = [], []
    for v in spec.variants:
        for players, (source, g) in player_count_games(df, spec, v).items():
            n = len(g)
            for legs, k in g["legs"].value_counts().sort_index().items():
                dist.append(dict(variant=v, players=players, source=source, legs=int(legs),
                                 games=int(k), **proportion(k, n)))
            summary += summary_rows(g["legs"].to_numpy(), variant=v, players=players,
                                    source=source, games=n)
    return pd.DataFrame(dist), pd.DataFrame(summary)


def hand_use_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Per policy: hand cards played and the chances to play one (legs in which a seat
    took a turn); ``share`` of the chances used, and hand cards played per seat and game."""
    rows = []
    for v, g in by_variant(df, spec):
        for policy, seats in _policy_seats(spec):
            plays = _sum_seats(g, "hand", seats)
            chances = _sum_seats(g, "hand_legs", seats)
            share, lo, hi = stats.ratio_ci(plays, chances)
            mean, m_lo, m_hi = stats.mean_ci(plays / len(seats))
            rows.append(dict(variant=v, policy=policy, seats=len(seats),
                             hand_plays=int(plays.sum()), chances=int(chances.sum()),
                             share=share, lo95=lo, hi95=hi, per_seat_game=mean,
                             per_seat_game_lo95=m_lo, per_seat_game_hi95=m_hi))
    return pd.DataFrame(rows)


def hand_value_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Per policy and number of hand cards a seat played in a game (``HAND_BINS``, the
    last "or more"): its seat-games, their win rate (ties shared) and mean final money.
    Rows without seat-games have no estimates."""
    rows = []
    top = len(HAND_BINS) - 1
    for v, g in by_variant(df, spec):
        won = win_credit(g, spec.players)
        money = seat_values(g, "money", spec.players)
        played = np.minimum(seat_values(g, "hand", spec.players), top)
        for policy, seats in _policy_seats(spec):
            for b, label in enumerate(HAND_BINS):
                mask = played[:, seats] == b
                n = int(mask.sum())
                k = float(won[:, seats][mask].sum())
                mean, lo, hi = (stats.mean_ci(money[:, seats][mask]) if n
                                else (math.nan,) * 3)
                rows.append(dict(variant=v, policy=policy, hand_played=label, seat_games=n,
                                 wins=k, **proportion(k, n), money=mean, money_lo95=lo,
                                 money_hi95=hi))
    return pd.DataFrame(rows)


def figure_use_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Foxes and palms each seat placed per game (mean)."""
    rows = []
    for v, g in by_variant(df, spec):
        for figure in FIGURES:
            for seat in range(spec.players):
                mean, lo, hi = stats.mean_ci(g[f"{figure}_{seat}"].to_numpy())
                rows.append(dict(variant=v, figure=figure, seat=seat,
                                 policy=spec.policies[seat], placed=int(g[f"{figure}_{seat}"]
                                                                       .sum()),
                                 mean=mean, lo95=lo, hi95=hi))
    return pd.DataFrame(rows)


FATE_COLUMNS = ["variant", "policy", "figure", "fate", "placed", "count", "share", "lo95",
                "hi95"]


def figure_fate_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Per policy and figure that its seats placed at least once: the share of the
    placements that were triggered, passed or paid for."""
    rows = []
    for v, g in by_variant(df, spec):
        for policy, seats in _policy_seats(spec):
            for figure in FIGURES:
                placed = _sum_seats(g, figure, seats)
                if placed.sum() == 0:
                    continue
                for fate in FATES:
                    count = _sum_seats(g, f"{figure}_{fate}", seats)
                    share, lo, hi = stats.ratio_ci(count, placed)
                    rows.append(dict(variant=v, policy=policy, figure=figure, fate=fate,
                                     placed=int(placed.sum()), count=int(count.sum()),
                                     share=share, lo95=lo, hi95=hi))
    return pd.DataFrame(rows, columns=FATE_COLUMNS)


def race_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """How often each camel won and lost the race."""
    rows = []
    for v, g in by_variant(df, spec):
        for role in ROLES:
            names = g[role].astype(str).to_numpy()
            for camel in COLOUR_NAMES:
                k = int((names == camel).sum())
                rows.append(dict(variant=v, role=role, camel=camel, games=k,
                                 **proportion(k, len(g))))
    return pd.DataFrame(rows)


def start_place_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """P(the race's winner, or loser, stood in place k after the set-up reveals), k = 1
    (leading) .. 5."""
    rows = []
    for v, g in by_variant(df, spec):
        orders = g["start_order"].astype(str).to_numpy()
        for role in ROLES:
            places = np.array([order.index(LETTER[c]) + 1
                               for order, c in zip(orders, g[role].astype(str))])
            for place in range(1, N_CAMELS + 1):
                k = int((places == place).sum())
                rows.append(dict(variant=v, role=role, start_place=place, games=k,
                                 **proportion(k, len(g))))
    return pd.DataFrame(rows)


def winner_money_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """The richest seat's final money (EP): mean and quantiles."""
    rows = []
    for v, g in by_variant(df, spec):
        rows += summary_rows(seat_values(g, "money", spec.players).max(axis=1), variant=v)
    return pd.DataFrame(rows)


def race_action_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Share of each race action among the turns of the seats playing each policy."""
    return sections.policy_shares(df, spec, RACE_KINDS, prefix="", key="action",
                                  count="turns")


def bet_table(df: pd.DataFrame, spec: RunSpec) -> pd.DataFrame:
    """Share of each bet, and of turns without one, among the turns of the seats playing
    each policy (a turn has at most one bet)."""
    none = {f"{NO_BET}_{s}": sum(df[f"{k}_{s}"] for k in RACE_KINDS)
            - sum(df[f"{k}_{s}"] for k in BET_KINDS) for s in range(spec.players)}
    return sections.policy_shares(df.assign(**none), spec, (*BET_KINDS, NO_BET), prefix="",
                                  key="bet", count="turns")


# --------------------------------------------------------------------------- charts


def hand_value_chart(value: pd.DataFrame, spec: RunSpec) -> Chart:
    """Win rate (left, dashed at 1/players) and mean final money (right) of a seat's game
    by the hand cards it played, one colour per policy, 95 % error bars."""
    fig = figures.figure(10, 4.2)
    win_ax, money_ax = fig.subplots(1, 2)
    shown = value[value.seat_games > 0]
    plots.grouped_bars(win_ax, shown, "hand_played", "policy",
                       xlabel="hand cards the seat played in the game",
                       ylabel="win rate (ties shared)", reference=1 / spec.players,
                       key=False)
    plots.grouped_bars(money_ax, shown.rename(columns={"p": "win", "lo95": "win_lo95",
                                                       "hi95": "win_hi95", "money_lo95": "lo95",
                                                       "money_hi95": "hi95"}),
                       "hand_played", "policy", value="money",
                       xlabel="hand cards the seat played in the game",
                       ylabel="final money (EP), mean")
    return Chart("hand_value", "Win rate and final money by hand cards played, 95% error "
                 "bars", fig)


# --------------------------------------------------------------------------- sections


def _figure_text(use: pd.DataFrame, fates: pd.DataFrame, spec: RunSpec) -> str:
    """What the "Fox and palm" section shows, and which of its rows are missing."""
    text = ("Foxes and palms placed per game by seat (a placement is a race action, "
            "docs/games/camel-up-cards.md §4 A), then what became of them: triggered (a "
            "moving unit ended its move on the figure: the fox sends it back a space, "
            "underneath; the palm forward, on top), passed (every camel, the start card's "
            "included, went beyond it) or paid for (still on the track when the leg or the "
            "race ended: its card cost the seat that placed it 1 EP). Each placement has "
            "exactly one of these fates; shares treat games as the independent units.")
    if use["placed"].sum() == 0:
        return text + " No seat of this run placed a figure (the heuristic policy never does)."
    if len(fates) < len(set(spec.policies)) * len(FIGURES) * len(FATES):
        text += (" A policy whose seats never placed a fox (or a palm) has no rows for it in "
                 "the second table (the heuristic policy never places a figure).")
    return text


def report_sections(df: pd.DataFrame, spec: RunSpec) -> list[Section]:
    """Every section of the Camel Up Cards report for the games ``df`` of run ``spec``."""
    legs, length = length_tables(df, spec)
    end = end_table(df, spec)
    seats, seat_test = seat_tables(df, spec)
    start = start_player_table(df, spec)
    started = legs_started_table(df, spec)
    by_players, by_players_summary = legs_by_players_tables(df, spec)
    hand_use = hand_use_table(df, spec)
    hand_value = hand_value_table(df, spec)
    use = figure_use_table(df, spec)
    fates = figure_fate_table(df, spec)
    race = race_table(df, spec)
    places = start_place_table(df, spec)
    money = winner_money_table(df, spec)
    race_actions = race_action_table(df, spec)
    bets = bet_table(df, spec)
    n = spec.players
    claims = [Claim("the start player of the last leg (the least money) wins",
                    start[start.start_player == LAST_LEG], 1 / n),
              Claim("the camel leading after set-up wins the race",
                    places[(places.role == "winner") & (places.start_place == 1)],
                    1 / N_CAMELS)]
    figure_charts = []
    if use["placed"].sum() > 0:
        figure_charts.append(chart(
            "figure_use", "Foxes and palms placed per game by seat, 95% error bars",
            lambda ax: plots.grouped_bars(ax, use, "seat", "figure", value="mean",
                                          xlabel="seat (0 starts leg 1)",
                                          ylabel="placements per game")))
    if not fates.empty:
        figure_charts.append(stacked_chart(
            "figure_fates", "What became of the placed figures, 95% error bars",
            fates.assign(bar=fates["policy"] + " · " + fates["figure"]), "bar", "fate",
            xlabel="share of the placements", ylabel="policy · figure"))
    out = [
        summary_section(spec, seats, seat_test, claims, seat_name),
        skeleton.length_section(
            df, spec, LENGTH, legs, length,
            text="Legs played (the leg in which the race ended included) and turns (one "
            "race action each, with at most one bet) per game."),
        skeleton.end_section(
            end, "end_trigger",
            text="The race ends at once when a unit reaches or passes the finish "
            "(docs/games/camel-up-cards.md §8): on a card revealed from the race deck, or "
            "on a hand card played (it moves its camel 1 space). A unit the palm carries "
            "over the finish counts under the card that moved it. 'turn cap' counts games "
            "stopped by the simulator's safety cap (none are expected)."),
        skeleton.seat_section(
            seats, seat_test, spec, xlabel="seat (0 starts leg 1)",
            note="Seat 0 is the youngest player, so it starts leg 1 and play goes 0, 1, "
            "2, ...; later legs start with the player with the least money (§3 step 9)."),
        Section("Start player",
                "The win rate of the player who started leg 1 (the youngest: seat 0) and "
                "of the player who started the last leg, the one in which the race ended "
                "(the least money after the previous leg, then the youngest), against "
                "1/players (dashed). Then how many legs each seat started: the start of "
                "later legs goes to the poorest player.",
                [Table("start_player", "Win rate of the start player", start),
                 Table("legs_started", "Legs started per game by seat", started)],
                [chart("start_player", "Win rate of the start player, 95% error bars",
                       lambda ax: plots.grouped_bars(
                           ax, start, "start_player", "variant",
                           xlabel="start player of", ylabel="win rate (ties shared)",
                           reference=1 / n))]),
        Section("Legs by player count",
                f"Legs per game for every player count from {MIN_PLAYERS} to "
                f"{MAX_PLAYERS}: the run's own count ({n}) from its games; the others "
                f"from games simulated for this section ({BY_PLAYERS_GAMES:,} at most, as "
                "many as the run has; the run's seed, the run's policies repeated in seat "
                "order; source says which). Each count plays on its own track length and "
                "leg setup numbers (§2).",
                [Table("legs_by_players", "Legs per game by player count", by_players),
                 Table("legs_by_players_summary", "Legs per game by player count: mean "
                       "and quantiles", by_players_summary)],
                [chart("legs_by_players",
                       "Share of games by number of legs and player count, 95% error bars",
                       lambda ax: plots.grouped_bars(
                           ax, by_players, "legs", "players",
                           xlabel="legs in the game (count)", ylabel="share of games"))]),
        Section("The kept hand card",
                "Every leg each player keeps one card in hand (§3) and may play it once as "
                "a race action: its camel moves 1 space, a \"+2\" card too (§4 C). "
                "A chance to play it is a leg in which the seat took a turn; share is the "
                "share of those chances used. Then every seat's game by the hand cards the "
                "seat played in it: its win rate (a tie shares the win) and its final "
                "money. Longer games give more chances, so these compare games as well as "
                "choices; the seat-games of one game are not independent of each other.",
                [Table("hand_use", "Hand cards played", hand_use),
                 Table("hand_value", "Win rate and money by hand cards played", hand_value)],
                [hand_value_chart(hand_value, spec)]),
        Section("Fox and palm", _figure_text(use, fates, spec),
                [Table("figure_use", "Figures placed per game by seat", use)]
                + ([Table("figure_fates", "What became of the placed figures", fates)]
                   if not fates.empty else []),
                figure_charts),
        Section("The race",
                "How often each camel won and lost the race (the dashed line is 1/5), and "
                "where the winner and the loser stood after the set-up reveals (§2 step 6; "
                "place 1 = leading, camels left on the start card ranked by the line-up, "
                "C-AMB-2). Then the richest seat's final money.",
                [Table("race_camels", "Race winner and loser by camel", race),
                 Table("start_place", "Race winner and loser by place after set-up",
                       places),
                 Table("winner_money", "Winner's money (EP)", money)],
                [chart("race_camels", "Race winner and loser by camel, 95% error bars",
                       lambda ax: plots.grouped_bars(
                           ax, race, "camel", "role", xlabel="camel",
                           ylabel="share of games", reference=1 / N_CAMELS)),
                 chart("start_place",
                       "Race winner and loser by place after set-up, 95% error bars",
                       lambda ax: plots.grouped_bars(
                           ax, places, "start_place", "role",
                           xlabel="place after the set-up reveals (1 = leading)",
                           ylabel="share of games", reference=1 / N_CAMELS))]),
        Section("Actions by policy",
                "Share of each race action, and of each bet (or none), among the turns of "
                "the seats playing a policy; intervals treat games (not single turns) as "
                "the independent units.",
                [Table("race_actions", "Race actions", race_actions),
                 Table("bets", "Bets", bets)],
                [stacked_chart("race_actions", "Race actions by policy, 95% error bars",
                               race_actions.assign(group=race_actions["variant"] + " · "
                                                   + race_actions["policy"]),
                               "group", "action", xlabel="share of the policy's turns",
                               ylabel="variant · policy"),
                 stacked_chart("bets", "Bets by policy, 95% error bars",
                               bets.assign(group=bets["variant"] + " · " + bets["policy"]),
                               "group", "bet", xlabel="share of the policy's turns",
                               ylabel="variant · policy")]),
    ]
    tables = {"length": length, "seats": seats, "start": start, "start_place": places,
              "money": money}
    return out + skeleton.variants_sections(tables, spec, PICKS)
