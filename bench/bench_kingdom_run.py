"""Kingdom Run benchmark: the re-roll table as a whole process, every distinct turn of a
crowded mid-game position, whole games.

    python bench/bench_kingdom_run.py
    python bench/bench_kingdom_run.py --games         # K3 only
    python bench/bench_kingdom_run.py --against REV   # K3 only: the games at git
                                                      # revision REV beside today's

Figures (issue "Kingdom Run"):

K1. ``oddsbot advise examples/kingdom-run-roll-4p.json`` (the re-roll table of the
    set-up's first roll), the whole process, warm numba cache: <= 1 s;
K2. every distinct turn of ``examples/kingdom-run-mid-4p.json`` (4 players, mid-game,
    Scatter, Catch-up, Bath and Steal re-rolled; ``turns.search`` listing them all):
    <= 100 ms; beside it the set-up with the same faces and with two Scatters;
K3. whole 4-player games, every seat ``heuristic`` (the default), 2 threads
    (``game.record_games``): >= 25,000 games/s; 1 thread and the other policies beside.
    With ``--against REV``: the same games at revision REV and today in alternating
    batches in one run (``bench/against.py``; the first run at a revision compiles), 2
    threads (``record_games``) and 1 (``record_range``, CPU time), each policy; the
    rows must be the same bit for bit;
K4. re-roll tables exact: the keep-set rows valued exactly (not by the greedy lower
    bound, docs/games/kingdom-run.md §15.2) and the time of each whole table
    (``advise``), on (a) the starts of ``oddsbot new kingdom-run --players P --seed S``
    (P 2..4, S 1..7) and ``examples/kingdom-run-roll-4p.json``, (b) 200 positions at a
    re-roll decision of ``new --play heuristic`` games (players 2..4, seeds 1..):
    >= 95 % of rows exact, each table <= 2 s.

Best of several runs after a warm-up; wall-clock on a shared machine (load printed).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import numba
import numpy as np

from oddsbot.analyser.kingdom_run.advise import advise
from oddsbot.analyser.kingdom_run.encode import rules_vector, state_vector
from oddsbot.analyser.kingdom_run.position import Position
from oddsbot.analyser.kingdom_run.record import parse_record, replay
from oddsbot.analyser.kingdom_run.rules import Rules
from oddsbot.analyser.kingdom_run.simulate import new_position, play
from oddsbot.analyser.kingdom_run.turns import LIST_MOST
from oddsbot.kernels.kingdom_run import game as G
from oddsbot.kernels.kingdom_run import layout as L
from oddsbot.kernels.kingdom_run import turns as T
from oddsbot.kernels.kingdom_run.policies import POLICY_NAMES
from against import commit_of, compare
from timing import process_seconds

ROOT = Path(__file__).resolve().parent.parent
ADVISE_TARGET = 1.0  # K1, s
TURN_TARGET = 0.1  # K2, s
GAMES_TARGET = 25_000  # K3, games/s
EXACT_TARGET = 0.95  # K4, share of keep-set rows valued exactly
TABLE_TARGET = 2.0  # K4, s per re-roll table
PLAYED = 200  # K4 (b), positions from played games


def best_seconds(call, runs: int = 3) -> float:
    call()
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def every_turn(S: np.ndarray, R: np.ndarray) -> tuple[float, int]:
    """(seconds, distinct end-of-turn positions) of listing every turn of S as ``advise``
    does (the best ``LIST_MOST`` kept)."""
    out = T.search(S, R, LIST_MOST, 0)
    return best_seconds(lambda: T.search(S, R, LIST_MOST, 0), 2), int(out[3])


def games_per_second(policy: str, threads: int, games: int) -> float:
    R = rules_vector(Rules())
    codes = np.full(L.MAX_PLAYERS, POLICY_NAMES.index(policy), dtype=np.int64)
    numba.set_num_threads(threads)
    G.record_games(R, 4, codes, 1, 0, 64, 16)
    best = 0.0
    for rep in range(3):
        start = time.perf_counter()
        G.record_games(R, 4, codes, 2 + rep, 0, games, 256)
        best = max(best, games / (time.perf_counter() - start))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return best


def starts() -> list[Position]:
    """K4 (a): the 21 starts of ``new`` and the shipped example with its roll."""
    example = Position.from_json(json.loads((ROOT / "examples/kingdom-run-roll-4p.json")
                                            .read_text()))
    return [new_position(p, s) for p in (2, 3, 4) for s in range(1, 8)] + [example]


def played(count: int) -> list[Position]:
    """K4 (b): ``count`` positions at a re-roll decision of heuristic games, taken
    evenly from games of 2, 3 and 4 players, seeds 1, 2, ... (every 3rd turn)."""
    out: list[Position] = []
    seed = 1
    while len(out) < count:
        for players in (2, 3, 4):
            turns = replay(parse_record(play(players, seed, "kingdom-run", "heuristic")))
            out += [turn.keep_at for _, turn in turns[1::3] if turn.keep_at is not None]
        seed += 1
    return out[:count]


def exact_rows(positions: list[Position]
               ) -> tuple[int, int, float, list[float], list[float]]:
    """(rows exact, rows, share of tables exact in every row, wall-clock and CPU seconds
    of each table)."""
    exact = rows = whole = 0
    times, cpu = [], []
    for pos in positions:
        start, start_cpu = time.perf_counter(), time.process_time()
        table = advise(pos)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        methods = list(table["method"])
        exact += methods.count("exact")
        rows += len(methods)
        whole += methods.count("exact") == len(methods)
    return exact, rows, whole / len(positions), times, cpu


def report_exact(name: str, positions: list[Position]) -> None:
    exact, rows, whole, times, cpu = exact_rows(positions)
    print(f"K4 re-roll tables, {name}: {exact} of {rows} rows exact "
          f"({100 * exact / rows:.1f} %; target >= {100 * EXACT_TARGET:.0f} %), "
          f"{100 * whole:.0f} % of tables wholly exact; table time median "
          f"{np.median(times):.2f} s, max {max(times):.2f} s (CPU {np.median(cpu):.2f} / "
          f"{max(cpu):.2f} s; target <= {TABLE_TARGET:.0f} s)", flush=True)


def games_against(rev: str) -> None:
    """K3 at ``rev`` and today, alternating in one run: games/s (2 threads: medians of
    wall time; 1 thread: medians of CPU time) and their ratio."""
    R = rules_vector(Rules())
    print(f"K3 at {rev} ({commit_of(rev)[:12]}) and today, alternating batches", flush=True)
    for policy in POLICY_NAMES:
        codes = np.full(L.MAX_PLAYERS, POLICY_NAMES.index(policy), dtype=np.int64)
        games = 40_000 if policy == "heuristic" else 4_000 if policy == "random" else 400
        for threads, function, args, col in (
                (2, "record_games", (R, 4, codes, 2, 0, games, 256), 0),
                (1, "record_range", (R, np.int64(4), codes, np.uint64(2), 0, games // 2), 1)):
            before, after, same = compare(rev, "kingdom_run.game", function, args, 5, 1)
            assert same, f"the games at {rev} and today differ"
            n = args[5]
            b, a = np.median(before[:, col]), np.median(after[:, col])
            print(f"K3 every seat {policy}, {threads} thread(s): {n / b:,.0f} games/s at "
                  f"{rev}, {n / a:,.0f} today ({b / a:.2f}x; the same rows; load average "
                  f"{os.getloadavg()[0]:.2f})", flush=True)


def games() -> None:
    """K3: games/s of every policy, 2 threads (and 1 for ``heuristic``)."""
    for policy in POLICY_NAMES:
        for threads in (2, 1):
            if threads == 1 and policy != "heuristic":
                continue
            n = 40_000 if policy == "heuristic" else 4_000 if policy == "random" else 400
            rate = games_per_second(policy, threads, n // threads)
            target = (f" (target >= {GAMES_TARGET:,})" if policy == "heuristic" and
                      threads == 2 else "")
            print(f"K3 whole 4-player games, every seat {policy}, {threads} thread(s): "
                  f"{rate:,.0f} games/s{target}", flush=True)


def main() -> int:
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if len(sys.argv) == 3 and sys.argv[1] == "--against":
        games_against(sys.argv[2])
        return 0
    if sys.argv[1:] == ["--games"]:
        games()
        return 0
    seconds = process_seconds("advise", "examples/kingdom-run-roll-4p.json")
    print(f"K1 oddsbot advise examples/kingdom-run-roll-4p.json (re-roll table, whole "
          f"process): {seconds:.2f} s (target <= {ADVISE_TARGET:.0f} s)", flush=True)
    mid = Position.from_json(json.loads((ROOT / "examples/kingdom-run-mid-4p.json")
                                        .read_text()))
    R = rules_vector(mid.rules)
    took, count = every_turn(state_vector(mid), R)
    print(f"K2 every distinct turn of examples/kingdom-run-mid-4p.json (Scatter, Catch-up, "
          f"Bath, Steal): {count:,} positions in {took * 1000:.0f} ms (target <= "
          f"{TURN_TARGET * 1000:.0f} ms)", flush=True)
    for faces in ((0, 1, 2, 3), (0, 0, 1, 2)):
        S = G.new_game(R, 4)
        S[L.S_ROLL:L.S_ROLL + 4] = faces
        S[L.S_HAS_ROLL] = 1
        S[L.S_REROLLED] = 1
        took, count = every_turn(S, R)
        names = ", ".join(L.FACE_NAMES[f] for f in faces)
        print(f"K2 every distinct turn of the 4-player set-up ({names}): {count:,} positions "
              f"in {took:.2f} s", flush=True)
    advise(starts()[0])  # warm-up
    report_exact("(a) 21 starts of new kingdom-run + examples/kingdom-run-roll-4p.json",
                 starts())
    report_exact(f"(b) {PLAYED} positions of heuristic games", played(PLAYED))
    games()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
