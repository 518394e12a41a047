"""The arena's table from its games (docs/strategies.md §3).

The games arrive as one row per seat of each game (``run.SEAT_COLUMNS``): ``deal``,
``seating``, ``seat``, ``policy``, ``score``, ``win`` (the seat's win share: 1, or 1/k
for k tied winners), ``margin`` (its score minus the best other seat's), ``decisions``,
``seconds`` and ``cpu_seconds`` (its decision time, wall and CPU), ``forfeit``.

Deals are the independent draws: every deal is played once per seating, so each
policy's figure is first averaged over its seats within a deal, and the 95 % intervals
come from the spread of those per-deal means across deals (normal approximation). A deal
whose seatings were not all played (a run interrupted mid-deal) is left out.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..stats import Z

BOOTSTRAP = 400  # resamples of the deals for the rating intervals
ELO = 400 / math.log(10)  # Elo points per unit of log strength
FIGURES = ("win", "score", "margin")


def complete_deals(seats: pd.DataFrame, seatings: int) -> pd.DataFrame:
    """The rows of the deals played in all ``seatings`` seatings."""
    played = seats.groupby("deal")["seating"].nunique()
    return seats[seats["deal"].isin(played.index[played == seatings])]


def per_deal(seats: pd.DataFrame, names: list[str]) -> dict[str, np.ndarray]:
    """Figure -> array (deals, policies): each policy's mean over its seats of a deal
    (forfeited seats count 0 wins; their scores and margins are left out)."""
    out = {}
    for figure in FIGURES:
        values = seats[figure].where(~seats["forfeit"] | (figure == "win"), np.nan)
        table = (seats.assign(value=values)
                 .pivot_table(index="deal", columns="policy", values="value",
                              aggfunc="mean", observed=True, dropna=False))
        out[figure] = table.reindex(columns=names).to_numpy(dtype=float)
    return out


def mean_interval(x: np.ndarray) -> tuple[float, float, float]:
    """(mean, lo, hi) over the rows of ``x`` (NaN rows left out), normal 95 %."""
    x = x[~np.isnan(x)]
    if len(x) == 0:
        return math.nan, math.nan, math.nan
    m = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else math.nan
    return m, m - Z * se, m + Z * se


def pairwise(seats: pd.DataFrame, names: list[str], players: int) -> np.ndarray:
    """(deals, K, K): ``[d, a, b]`` = games of deal d in which a seat of policy a finished
    ahead of a seat of policy b (a win share above, or equal shares and a higher score;
    a full tie counts a half), over every pair of seats of different policies; a
    forfeited seat finishes behind every other."""
    games = seats.sort_values(["deal", "seating", "seat"])
    deal_codes, deals = pd.factorize(games["deal"].to_numpy()[::players], sort=True)
    pol = games["policy"].map({n: i for i, n in enumerate(names)}).to_numpy()
    pol = pol.reshape(-1, players)
    win = games["win"].to_numpy(dtype=float).reshape(-1, players)
    score = np.where(games["forfeit"].to_numpy(), -np.inf,
                     games["score"].to_numpy(dtype=float)).reshape(-1, players)
    w_s, w_t = win[:, :, None], win[:, None, :]
    x_s, x_t = score[:, :, None], score[:, None, :]
    points = ((w_s > w_t) | ((w_s == w_t) & (x_s > x_t))) + 0.5 * ((w_s == w_t) & (x_s == x_t))
    p_s = np.broadcast_to(pol[:, :, None], points.shape)
    p_t = np.broadcast_to(pol[:, None, :], points.shape)
    d = np.broadcast_to(deal_codes[:, None, None], points.shape)
    differ = p_s != p_t
    k = len(names)
    out = np.zeros(len(deals) * k * k)
    np.add.at(out, (d[differ] * k + p_s[differ]) * k + p_t[differ], points[differ])
    return out.reshape(len(deals), k, k)


def bradley_terry(wins: np.ndarray, tolerance: float = 1e-10, iterations: int = 10_000
                  ) -> np.ndarray:
    """Elo-scale ratings (mean 0) of the Bradley-Terry model fitted to ``wins[..., a, b]``
    (a ahead of b; any leading axes are fitted each on its own), by the minorise-maximise
    iteration until no log strength moves by ``tolerance``; a half point of prior on every
    pair keeps a policy that never (or always) won finite."""
    k = wins.shape[-1]
    w = wins + 0.5 * (1 - np.eye(k))
    n = w + np.swapaxes(w, -1, -2)
    won = w.sum(axis=-1)
    log_s = np.zeros(wins.shape[:-1])
    for _ in range(iterations):
        s = np.exp(log_s)
        denom = (n / (s[..., :, None] + s[..., None, :])).sum(axis=-1)
        new = np.log(won / denom)
        new -= new.mean(axis=-1, keepdims=True)
        done = np.abs(new - log_s).max() < tolerance
        log_s = new
        if done:
            break
    return ELO * log_s


def ratings(pairs: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rating, lo, hi) per policy: the fit on every deal, and the 2.5 and 97.5
    percentiles of the fits on ``BOOTSTRAP`` resamples of the deals (seeded)."""
    rating = bradley_terry(pairs.sum(axis=0))
    if len(pairs) < 2:
        return rating, np.full_like(rating, np.nan), np.full_like(rating, np.nan)
    rng = np.random.default_rng([seed, 36])
    draws = rng.multinomial(len(pairs), np.full(len(pairs), 1 / len(pairs)), BOOTSTRAP)
    fits = bradley_terry(np.tensordot(draws.astype(float), pairs, axes=1))
    return rating, np.percentile(fits, 2.5, axis=0), np.percentile(fits, 97.5, axis=0)


def paired_difference(win: np.ndarray) -> dict[str, float]:
    """The first policy's win rate minus the second's, deal by deal: the mean, its 95 %
    interval and the two-sided p-value of no difference (normal approximation; 1 when
    every deal's difference is 0)."""
    diff = win[:, 0] - win[:, 1]
    m, lo, hi = mean_interval(diff)
    lo, hi = max(lo, -1.0), min(hi, 1.0)  # a difference of two shares
    se = (hi - m) / Z
    if se == 0 or math.isnan(se):
        p = 1.0 if m == 0 else (0.0 if se == 0 else math.nan)
    else:
        p = math.erfc(abs(m / se) / math.sqrt(2))
    return {"difference": m, "lo": lo, "hi": hi, "p_value": p}


def table_rows(seats: pd.DataFrame, names: list[str], players: int, seed: int
               ) -> list[dict[str, object]]:
    """One row per policy (in the order given): its seats, win rate, score and margin with
    95 % intervals, rating with its bootstrap interval, decision time, forfeits."""
    figures = per_deal(seats, names)
    rating, r_lo, r_hi = ratings(pairwise(seats, names, players), seed)
    rows = []
    for i, name in enumerate(names):
        mine = seats[seats["policy"] == name]
        row: dict[str, object] = {"policy": name, "seats": len(mine)}
        for figure in FIGURES:
            m, lo, hi = mean_interval(figures[figure][:, i])
            if figure == "win":  # a share: its interval stays within 0..1
                lo, hi = max(lo, 0.0), min(hi, 1.0)
            row |= {figure: m, f"{figure}_lo": lo, f"{figure}_hi": hi}
        decisions = int(mine["decisions"].sum())
        row |= {"rating": float(rating[i]), "rating_lo": float(r_lo[i]),
                "rating_hi": float(r_hi[i]), "decisions": decisions,
                "ms_per_decision": (1000 * float(mine["seconds"].sum()) / decisions
                                    if decisions else math.nan),
                "cpu_ms_per_decision": (1000 * float(mine["cpu_seconds"].sum()) / decisions
                                        if decisions else math.nan),
                "forfeits": int(mine["forfeit"].sum())}
        rows.append(row)
    return rows
