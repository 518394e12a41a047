"""Five Tribes strategy benchmark: the heuristic policy's speed, rollouts as whole
processes, and the policies' head-to-head strength.

    python bench/bench_five_tribes_strategy.py                  # S1-S3
    python bench/bench_five_tribes_strategy.py --head-to-head   # S4 (long: greedy games)

Figures (issue "Five Tribes strategy"):

S1. whole 4-player games with ``heuristic`` seats (``record_games``, 2 threads):
    >= 1,000 games/s; ``random`` seats and 1 thread shown beside it;
S2. ``oddsbot advise --rollouts 500`` on the opening position
    (examples/five-tribes-opening-4p.json), the whole process, warm numba cache: <= 60 s;
S3. ``oddsbot odds`` on it with rollouts to an SE of at most 0.01, the whole process,
    warm: <= 20 s.
S4. head to head, for each pair of policies: 4-player games, the two policies in
    alternate seats (half the games A B A B, half B A B A, so each sits first in the bid
    order as often), >= 2,000 games a pair: the share of the wins (ties shared) that
    policy A takes, with its 95 % interval (0.5: as strong as B). Greedy games take
    seconds each: the pairs with greedy run for tens of minutes.

Best of several runs after a warm-up; wall-clock on a shared machine (load printed).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numba
import numpy as np

from oddsbot.kernels import five_tribes as K
from timing import process_seconds

ROOT = Path(__file__).resolve().parent.parent
OPENING = ROOT / "examples" / "five-tribes-opening-4p.json"
GAMES_TARGET = 1_000  # S1, games/s
ADVISE_TARGET = 60.0  # S2, s
ODDS_TARGET = 20.0  # S3, s
PAIRS = (("heuristic", "random"), ("greedy", "heuristic"), ("greedy", "random"))
Z95 = 1.96


def games_per_second(policy: str, threads: int, games: int) -> float:
    """S1: whole 4-player games under ``policy`` in every seat, best of 3."""
    codes = np.full(4, K.POLICY_NAMES.index(policy), dtype=np.int64)
    numba.set_num_threads(threads)
    K.record_games(4, K.LIVE, False, codes, 1, 0, 64, 16)  # warm-up
    best = 0.0
    for rep in range(3):
        start = time.perf_counter()
        K.record_games(4, K.LIVE, False, codes, 2 + rep, 0, games, 64)
        best = max(best, games / (time.perf_counter() - start))
    return best


def head_to_head(a: str, b: str, games: int, seed: int) -> tuple[float, float, float]:
    """S4: A's share of the wins against B and its 95 % interval (normal approximation
    over games), 4-player games with alternate seats."""
    code = {name: K.POLICY_NAMES.index(name) for name in (a, b)}
    half = games // 2
    credit = []
    for order in ((a, b, a, b), (b, a, b, a)):
        codes = np.array([code[p] for p in order], dtype=np.int64)
        chunk = 1 if "greedy" in order else 64
        rows = K.record_games(4, K.LIVE, False, codes, seed, 0, half, chunk)
        totals = rows[:, K.F_TOTAL:K.F_TOTAL + 4].astype(float)
        top = totals == totals.max(axis=1, keepdims=True)
        share = top / top.sum(axis=1, keepdims=True)
        mine = [seat for seat, p in enumerate(order) if p == a]
        credit.append(share[:, mine].sum(axis=1))
    x = np.concatenate(credit)
    se = x.std(ddof=1) / np.sqrt(len(x))
    return float(x.mean()), float(x.mean() - Z95 * se), float(x.mean() + Z95 * se)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--head-to-head", action="store_true", help="S4 only (long)")
    parser.add_argument("--games", type=int, default=2_000, help="S4: games per pair")
    parser.add_argument("--pairs", default=",".join(f"{a}-{b}" for a, b in PAIRS),
                        help="S4: the pairs, e.g. heuristic-random,greedy-heuristic")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if args.head_to_head:
        for pair in args.pairs.split(","):
            a, b = pair.split("-")
            start = time.perf_counter()
            share, lo, hi = head_to_head(a, b, args.games, seed=15)
            print(f"S4 {a} vs {b}: {a} takes {share:.3f} of the wins "
                  f"(95% {lo:.3f}-{hi:.3f}) over {args.games:,} games "
                  f"[{time.perf_counter() - start:,.0f} s]", flush=True)
        return 0
    for policy in ("heuristic", "random"):
        for threads in (2, 1):
            rate = games_per_second(policy, threads, 2_000 if threads == 2 else 1_000)
            target = f" (target >= {GAMES_TARGET:,})" if policy == "heuristic" else ""
            print(f"S1 {policy} 4-player games, {threads} thread(s): {rate:,.0f} games/s"
                  + (target if threads == 2 else ""), flush=True)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    advise = process_seconds("advise", str(OPENING), "--rollouts", "500")
    print(f"S2 oddsbot advise --rollouts 500 (opening, whole process): {advise:.1f} s "
          f"(target <= {ADVISE_TARGET:.0f} s)", flush=True)
    odds = process_seconds("odds", str(OPENING), "--target-se", "0.01")
    print(f"S3 oddsbot odds --target-se 0.01 (opening, whole process): {odds:.1f} s "
          f"(target <= {ODDS_TARGET:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
