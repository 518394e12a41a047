"""Mumia benchmark: whole games, the EV table of a roll as a whole process, the exact
search against the naive reference.

    python bench/bench_mumia.py

Figures (issue "Mumia"):

M1. whole 4-player games, base game, default policy (``heuristic``), 2 threads
    (``game.record_games``): >= 20,000 games/s; all four expansions on: >= 5,000 games/s;
    1 thread and the other policies beside them;
M2. ``oddsbot advise examples/mumia-mid-4p.json --roll 4,PM`` (mid-game, 4 players, E1 and
    E2, sampled), the whole process, warm numba cache: <= 2 s; beside it the exact endgame
    ``examples/mumia-endgame.json --roll 3``;
M3. the exact value of small endgames: the kernel's expectimax against the naive
    reference (tests/mumia/naive_mumia.py) on the same positions (the ratio).

Best of several runs after a warm-up; wall-clock on a shared machine (load printed).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numba
import numpy as np

from oddsbot.analyser.mumia.advise import exact_values, outcomes
from oddsbot.analyser.mumia.encode import encode
from oddsbot.analyser.mumia.rules import Rules, rules_vector
from oddsbot.analyser.mumia.simulate import new_position, simulate
from oddsbot.kernels.mumia import game as G
from oddsbot.kernels.mumia.choices import POLICY_NAMES
from timing import process_seconds

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
GAMES_TARGET = {"base": 20_000, "all four expansions": 5_000}  # M1, games/s
ADVISE_TARGET = 2.0  # M2, s


def games_per_second(expansions: frozenset, policy: str, threads: int, games: int) -> float:
    R = rules_vector(Rules(), 4, expansions)
    codes = np.full(6, POLICY_NAMES.index(policy), dtype=np.int64)
    numba.set_num_threads(threads)
    G.record_games(R, codes, 1, 0, 256, 64)
    best = 0.0
    for rep in range(3):
        start = time.perf_counter()
        G.record_games(R, codes, 2 + rep, 0, games, 1024)
        best = max(best, games / (time.perf_counter() - start))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return best


def endgames(count: int) -> list:
    """Turn starts late in 3-player games (3 or 4 pawns off FINISH, the mummy gone) that
    the exact search solves within its budget."""
    found = []
    seed = 0
    while len(found) < count:
        seed += 1
        game = simulate(new_position(3, seed), seed=seed, policy="heuristic")
        for line in game.turns[-8:]:
            pos = line.before
            pawns = sum(len(f.pawns) for f in pos.track[:-1])
            if 3 <= pawns <= 4 and not any(f.mummy for f in pos.track):
                enc = encode(pos)
                if exact_values(enc, outcomes(enc), POLICY_NAMES.index("greedy"))[0]:
                    found.append(pos)
                break
    return found


def main() -> int:
    from tests.mumia import naive_mumia as ref
    from tests.mumia.test_kernel import plain

    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for name, exp in (("base", frozenset()), ("all four expansions",
                                              frozenset({"e1", "e2", "e3", "e4"}))):
        for policy in POLICY_NAMES:
            for threads in (2, 1):
                if threads == 1 and policy != "heuristic":
                    continue
                rate = games_per_second(exp, policy, threads, 100_000 if threads == 2
                                        else 50_000)
                target = (f" (target >= {GAMES_TARGET[name]:,})"
                          if policy == "heuristic" and threads == 2 else "")
                print(f"M1 {name}, 4 players, every seat {policy}, {threads} thread(s): "
                      f"{rate:,.0f} games/s{target}", flush=True)
    mid = process_seconds("advise", "examples/mumia-mid-4p.json", "--roll", "4,PM")
    print(f"M2 oddsbot advise examples/mumia-mid-4p.json --roll 4,PM (2,000 rollouts a "
          f"choice, whole process): {mid:.2f} s (target <= {ADVISE_TARGET:.0f} s)",
          flush=True)
    end = process_seconds("advise", "examples/mumia-endgame.json", "--roll", "3")
    print(f"M2 oddsbot advise examples/mumia-endgame.json --roll 3 (exact, whole "
          f"process): {end:.2f} s", flush=True)
    kernel = naive = 0.0
    positions = endgames(5)
    for pos in positions:
        enc = encode(pos)
        rolls = outcomes(enc)
        exact_values(enc, rolls, POLICY_NAMES.index("greedy"))  # compiled
        start = time.perf_counter()
        values, states = exact_values(enc, rolls, POLICY_NAMES.index("greedy"))
        kernel += time.perf_counter() - start
        assert values is not None
        start = time.perf_counter()
        ref.exact(plain(pos), others="greedy")
        naive += time.perf_counter() - start
    print(f"M3 exact endgames (3 players, 3-4 pawns off FINISH, {len(positions)} "
          f"positions): kernel {kernel * 1000:.1f} ms, naive reference {naive:.2f} s: "
          f"{naive / kernel:,.0f}x", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
