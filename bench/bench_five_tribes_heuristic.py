"""Five Tribes ``heuristic`` against ``greedy``: the heuristic's share of the wins in
2-player games and its speed (issue 36, part 4; target: >= 35 % of the wins at >= 1,000
whole 4-player games/s on 2 threads).

    python bench/bench_five_tribes_heuristic.py               # 200 seeds, a few minutes
    python bench/bench_five_tribes_heuristic.py --games 50    # quicker, wider interval

H1. Games 0..N-1 (seed S) are played twice, seats (heuristic, greedy) and again (greedy,
    heuristic), by the reports' runner (``simulate_raw``: the deal shuffles the bid order,
    so the same seed swaps the seats' roles). Winner: the highest final score, a tie
    shares the win (docs/games/five-tribes.md §13, as the designer reports count it). Per
    seed, the mean of the heuristic's two win shares; the share is the mean over seeds and
    its 95 % interval comes from the standard error across seeds (paired by seed). The
    score margin (heuristic minus greedy, VP) is paired the same way; each policy's mean
    score parts (§13) and bid gold show where the margin comes from. Greedy's cost: the
    wall time of the match per game (2 threads, each game has one greedy seat).
H2. Whole 4-player games with ``heuristic`` in every seat (``record_games``, 2 threads,
    warm): games/s, best of 3.

Wall-clock on a shared machine (load average printed).
"""

from __future__ import annotations

import argparse
import os
import time

import numba
import numpy as np

from oddsbot.kernels import five_tribes as K
from oddsbot.reports.five_tribes.games import simulate_raw

from bench_five_tribes_strategy import games_per_second  # bench/ is the script's folder

GAMES_TARGET = 1_000  # H2, games/s
SHARE_TARGET = 0.35  # H1
Z95 = 1.96


def win_shares(totals: np.ndarray) -> np.ndarray:
    """Per game and seat, the share of the win (1 to the best score, 1/k to k tied)."""
    top = totals == totals.max(axis=1, keepdims=True)
    return top / top.sum(axis=1, keepdims=True)


def mean_ci(x: np.ndarray) -> tuple[float, float, float]:
    """Mean and its 95 % interval (normal approximation) of per-seed values ``x``."""
    se = x.std(ddof=1) / np.sqrt(len(x))
    return float(x.mean()), float(x.mean() - Z95 * se), float(x.mean() + Z95 * se)


def match(games: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """H1: per seed, the heuristic's mean win share and mean score margin over its two
    seatings; per policy (heuristic, greedy), the mean of each score part and of the bid
    gold (``parts``); the match's wall time."""
    share, margin = np.zeros(games), np.zeros(games)
    parts = np.zeros((2, K.N_SCORE + 1))
    start = time.perf_counter()
    for seat, order in enumerate((("heuristic", "greedy"), ("greedy", "heuristic"))):
        raw = simulate_raw("five-tribes", 2, order, seed, 0, games)
        totals = raw[:, K.F_TOTAL:K.F_TOTAL + 2].astype(float)
        share += win_shares(totals)[:, seat] / 2
        margin += (totals[:, seat] - totals[:, 1 - seat]) / 2
        for who, p in ((0, seat), (1, 1 - seat)):
            first = K.F_PARTS + p * K.N_SCORE
            parts[who, :-1] += raw[:, first:first + K.N_SCORE].mean(axis=0) / 2
            parts[who, -1] += raw[:, K.F_BID_GOLD + p].mean() / 2
    return share, margin, parts, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="H1: seeds (2 games each)")
    parser.add_argument("--seed", type=int, default=36, help="H1: the run's seed")
    parser.add_argument("--speed-games", type=int, default=2_000, help="H2: games a run")
    parser.add_argument("--no-match", action="store_true", help="H2 only")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", flush=True)
    rate = games_per_second("heuristic", 2, args.speed_games)  # H2, as S1 measures it
    print(f"H2 heuristic 4-player games, 2 threads: {rate:,.0f} games/s "
          f"(target >= {GAMES_TARGET:,})", flush=True)
    if args.no_match:
        return 0
    numba.set_num_threads(2)
    share, margin, parts, seconds = match(args.games, args.seed)
    s, lo, hi = mean_ci(share)
    m, mlo, mhi = mean_ci(margin)
    print(f"H1 heuristic vs greedy, 2 players, {args.games} seeds x 2 seatings "
          f"(seed {args.seed}): heuristic's win share {s:.3f} (95% {lo:.3f}-{hi:.3f}; "
          f"target >= {SHARE_TARGET:.2f}); margin {m:+.1f} VP (95% {mlo:+.1f} to {mhi:+.1f}); "
          f"{seconds:,.0f} s, {2 * seconds / (2 * args.games):.2f} s per game and thread",
          flush=True)
    names = (*K.SCORE_PARTS[:K.N_SCORE], "bid gold")
    print("H1 mean VP per game by part (heuristic / greedy): " + ", ".join(
        f"{n} {h:.1f}/{g:.1f}" for n, h, g in zip(names, *parts)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
