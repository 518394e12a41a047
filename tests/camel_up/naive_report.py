"""Deliberately naive recomputation of every Camel Up report table, for tests only.

Reads a run folder's raw per-game file (``games.parquet``) and its ``run.json`` and works
game by game in plain Python (loops, dicts, exact ``Fraction`` sums), from the tables'
stated definitions, *not* from ``oddsbot.reports.stats`` or ``oddsbot.reports.camel_up``:

- a game's winners are its richest seats; a tie shares the one win equally;
- proportions: Wilson score interval, found as the two roots of the quadratic
  (p_hat - p)^2 = Z^2 p (1 - p) / n;
- means: mean -/+ Z s / sqrt(n), s the n - 1 sample standard deviation;
- quantile q: the order statistic of rank ceil(n q), interval ranks
  floor(n q - Z sqrt(n q (1 - q))) and ceil(n q + Z sqrt(n q (1 - q))) + 1, clipped to [1, n];
- action shares: r = sum(a) / sum(t), se = sqrt(sum((a - r t)^2) / (n (n - 1))) / mean(t);
- seats: Pearson's chi-square of the seats' win totals against equal totals, its p-value
  from the regularised upper incomplete gamma function (series or continued fraction);
- summary: each seat's win rate against 1/players, each policy's (its seats' wins
  summed, when there are several policies) against its share of the seats, and the win
  rate of the camel leading after set-up against 1/5; "above" / "below" where the whole
  interval is, else "within".

Every table is a list of rows, each a dict from column name to value, columns in the
report's order: ``int`` for counts, ``float`` for estimates, ``str`` for keys.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pandas as pd

from oddsbot.analyser.camel_up.variants import VARIANTS

Z = 1.959963984540054
QUANTILES = (("median", Fraction(1, 2)), ("p10", Fraction(1, 10)), ("p90", Fraction(9, 10)))
DECIDED = "P(winner last took the lead on a grey-die move)"
CHANGES = "grey-die moves that changed the leader, per game"
TABLES = ("summary", "legs", "length", "start_place", "leader_after_leg", "seats", "seat_test",
          "crazy", "winner_money", "action_mix")

Game = dict[str, object]
Row = dict[str, object]


def load(run: Path) -> tuple[dict, list[Game]]:
    """(spec of ``run.json``, the games of ``games.parquet`` as one dict per row)."""
    spec = json.loads((run / "run.json").read_text())["spec"]
    return spec, pd.read_parquet(run / "games.parquet").to_dict("records")


def present(value: object) -> bool:
    """A filled colour cell (an empty one reads back as NaN or None)."""
    return isinstance(value, str)


def winner_money(game: Game, players: int) -> int:
    best = game["money_0"]
    for seat in range(1, players):
        best = max(best, game[f"money_{seat}"])
    return int(best)


def win_shares(game: Game, players: int) -> list[Fraction]:
    """Each seat's share of the game's one win."""
    best = winner_money(game, players)
    richest = [seat for seat in range(players) if game[f"money_{seat}"] == best]
    return [Fraction(1, len(richest)) if seat in richest else Fraction(0)
            for seat in range(players)]


def shares(values: list[int]) -> dict[int, float]:
    """Share of the values equal to each distinct value."""
    counts: dict[int, int] = {}
    for v in values:
        counts[int(v)] = counts.get(int(v), 0) + 1
    return {v: k / len(values) for v, k in counts.items()}


# --------------------------------------------------------------------------- estimates


def wilson(k: Fraction | int, n: int) -> tuple[float, float]:
    """The p with (p_hat - p)^2 = Z^2 p (1 - p) / n: a p^2 + b p + c = 0; the small root
    as c / (a * large root), which keeps its precision."""
    p_hat = float(Fraction(k) / n)
    a = 1 + Z * Z / n
    b = -(2 * p_hat + Z * Z / n)
    c = p_hat * p_hat
    high = (-b + math.sqrt(b * b - 4 * a * c)) / (2 * a)
    return min(1.0, max(0.0, c / (a * high))), min(1.0, high)


def proportion(k: Fraction | int, n: int) -> Row:
    lo, hi = wilson(k, n)
    return {"p": float(Fraction(k) / n), "lo95": lo, "hi95": hi}


def mean_interval(values: list[int]) -> tuple[float, float, float]:
    n = len(values)
    mean = Fraction(sum(values), n)
    squares = sum((v - mean) ** 2 for v in values)
    half = Z * math.sqrt(squares / (n - 1)) / math.sqrt(n)
    return float(mean), float(mean) - half, float(mean) + half


def quantile_interval(values: list[int], q: Fraction) -> tuple[float, float, float]:
    ordered = sorted(values)
    n = len(ordered)
    nq = n * q
    spread = Z * math.sqrt(nq * (1 - q))

    def at(rank: int) -> float:
        return float(ordered[min(n, max(1, rank)) - 1])

    return at(math.ceil(nq)), at(math.floor(nq - spread)), at(math.ceil(nq + spread) + 1)


def summary(values: list[int], keys: Row) -> list[Row]:
    """Mean, median, p10 and p90 rows of ``values`` with their intervals."""
    mean, lo, hi = mean_interval(values)
    rows = [{**keys, "statistic": "mean", "value": mean, "lo95": lo, "hi95": hi}]
    for name, q in QUANTILES:
        value, lo, hi = quantile_interval(values, q)
        rows.append({**keys, "statistic": name, "value": value, "lo95": lo, "hi95": hi})
    return rows


def ratio_interval(a: list[int], t: list[int]) -> tuple[float, float, float]:
    n = len(a)
    r = Fraction(sum(a), sum(t))
    squares = sum((ai - r * ti) ** 2 for ai, ti in zip(a, t))
    half = Z * math.sqrt(squares / (n * (n - 1))) / (sum(t) / n)
    return float(r), float(r) - half, float(r) + half


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x), X chi-square with ``df`` degrees of freedom: Q(df / 2, x / 2), from the
    series of the lower function below a + 1 and the continued fraction of the upper one
    above (Lentz's method)."""
    a, h = df / 2, x / 2
    if h == 0:
        return 1.0
    front = math.exp(a * math.log(h) - h - math.lgamma(a))
    if h < a + 1:
        term = total = 1 / a
        k = 0
        while term > 1e-17 * total:
            k += 1
            term *= h / (a + k)
            total += term
        return 1 - front * total
    tiny = 1e-300
    b = h + 1 - a
    c, d = 1 / tiny, 1 / b
    f = d
    for i in range(1, 10_000):
        step = -i * (i - a)
        b += 2
        d = step * d + b
        d = 1 / (d if abs(d) > tiny else tiny)
        c = b + step / c
        c = c if abs(c) > tiny else tiny
        f *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return front * f


# --------------------------------------------------------------------------- tables


def tables(run: Path) -> dict[str, list[Row]]:
    """Every table of the run folder ``run``, by CSV name, from its raw games only."""
    spec, games = load(run)
    players, policies = spec["players"], spec["policies"]
    columns = list(games[0])
    legs_logged = sum(1 for c in columns if c.startswith("leader_leg_"))
    kinds = [name for name, seat in (c.rsplit("_", 1) for c in columns if "_" in c)
             if seat == "0" and name != "money"]
    out: dict[str, list[Row]] = {name: [] for name in TABLES}
    for v in spec["variants"]:
        mine = [g for g in games if g["variant"] == v]
        n = len(mine)

        counts: dict[int, int] = {}
        for g in mine:
            counts[int(g["legs"])] = counts.get(int(g["legs"]), 0) + 1
        for legs in sorted(counts):
            out["legs"].append({"variant": v, "legs": legs, "games": counts[legs],
                                **proportion(counts[legs], n)})
        for measure in ("turns", "legs"):
            out["length"] += summary([int(g[measure]) for g in mine],
                                     {"variant": v, "measure": measure})

        letter = dict(zip(VARIANTS[v].colours, VARIANTS[v].letters))
        places = [0] * len(letter)
        for g in mine:
            places[g["start_order"].index(letter[g["winner"]])] += 1
        for place, k in enumerate(places, start=1):
            out["start_place"].append({"variant": v, "start_place": place, "wins": k,
                                       "games": n, **proportion(k, n)})

        for k in range(1, legs_logged + 1):
            scored = [g for g in mine if present(g[f"leader_leg_{k}"])]
            if scored:
                won = sum(1 for g in scored if g[f"leader_leg_{k}"] == g["winner"])
                out["leader_after_leg"].append({"variant": v, "leg": k, "games": len(scored),
                                                "leader_wins": won,
                                                **proportion(won, len(scored))})

        wins = [Fraction(0)] * players
        for g in mine:
            wins = [w + s for w, s in zip(wins, win_shares(g, players))]
        for seat, w in enumerate(wins):
            out["seats"].append({"variant": v, "seat": seat, "policy": policies[seat],
                                 "wins": float(w), "games": n, **proportion(w, n)})
        claims = [(f"seat {s}{' (moves first)' if s == 0 else ''} wins", w, Fraction(1, players))
                  for s, w in enumerate(wins)]
        if len(set(policies)) > 1:
            for policy in dict.fromkeys(policies):
                mine_seats = [s for s in range(players) if policies[s] == policy]
                many = len(mine_seats) > 1
                claims.append((f"the seat{'s' if many else ''} playing {policy} "
                               f"({', '.join(map(str, mine_seats))}) win{'' if many else 's'}",
                               sum(wins[s] for s in mine_seats),
                               Fraction(len(mine_seats), players)))
        claims.append(("the camel leading after set-up wins the race", places[0],
                       Fraction(1, 5)))
        for finding, k, equal in claims:
            row = proportion(k, n)
            side = ("above" if row["lo95"] > equal else "below" if row["hi95"] < equal
                    else "within")
            out["summary"].append({"variant": v, "finding": finding, **row,
                                   "equal_share": float(equal), "vs_equal": side})

        expected = Fraction(n, players)
        chi2 = float(sum((w - expected) ** 2 / expected for w in wins))
        p_value = chi2_sf(chi2, players - 1)
        out["seat_test"].append({
            "variant": v, "games": n, "chi2": chi2, "df": players - 1, "p_value": p_value,
            "verdict": "seat advantage (p < 0.05)" if p_value < 0.05
            else "no evidence of a seat advantage"})

        if VARIANTS[v].crazy:
            decided = sum(1 for g in mine if g["crazy_decided"])
            lo, hi = wilson(decided, n)
            out["crazy"].append({"variant": v, "measure": DECIDED, "value": decided / n,
                                 "lo95": lo, "hi95": hi})
            mean, lo, hi = mean_interval([int(g["crazy_lead_changes"]) for g in mine])
            out["crazy"].append({"variant": v, "measure": CHANGES, "value": mean,
                                 "lo95": lo, "hi95": hi})

        out["winner_money"] += summary([winner_money(g, players) for g in mine],
                                       {"variant": v})

        for policy in dict.fromkeys(policies):
            seats = [s for s in range(players) if policies[s] == policy]
            taken = {kind: [sum(int(g[f"{kind}_{s}"]) for s in seats) for g in mine]
                     for kind in kinds}
            totals = [sum(taken[kind][i] for kind in kinds) for i in range(n)]
            for kind in kinds:
                share, lo, hi = ratio_interval(taken[kind], totals)
                out["action_mix"].append({"variant": v, "policy": policy, "kind": kind,
                                          "actions": sum(taken[kind]), "share": share,
                                          "lo95": lo, "hi95": hi})
    return out
