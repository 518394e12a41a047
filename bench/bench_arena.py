"""``oddsbot arena`` benchmark (docs/benchmarks.md, "Strategies"): the issue-36 figures.

    python bench/bench_arena.py cheap               # 10,000-game 4-player Camel Up arena
    python bench/bench_arena.py ladder [--games N] [--game G]
                                                    # each game: heuristic vs greedy, random
    python bench/bench_arena.py search --budget 20ms [--games N] [--game G]
                                                    # search vs heuristic, fewest players

Each figure is one ``oddsbot arena ... -f json`` run as a whole process (warm: a first
run of the same command compiles), timed; the policies' win rates with their 95 %
intervals are printed as the arena gives them.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from oddsbot.analyser import registry

ROOT = Path(__file__).resolve().parent.parent
ODDSBOT = str(Path(sys.executable).parent / "oddsbot")


def arena(*args: str) -> tuple[dict, float]:
    """The JSON answer of ``oddsbot arena ARGS -f json`` and its wall time (s)."""
    t0 = time.perf_counter()
    done = subprocess.run([ODDSBOT, "arena", *args, "-f", "json"], capture_output=True,
                          text=True, cwd=ROOT)
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"oddsbot arena {' '.join(args)}: {done.stderr.strip()}")
    return json.loads(done.stdout), seconds


def line(answer: dict, seconds: float) -> str:
    rows = " · ".join(f"{r['policy']} {100 * r['win']:.1f} % [{100 * r['win_lo']:.1f}, "
                      f"{100 * r['win_hi']:.1f}] ({r['ms_per_decision']:.3g} ms/dec)"
                      for r in answer["policies"])
    return (f"{answer['game']} {answer['players']}p, {answer['games']:,} games: {rows} · "
            f"{seconds:.1f} s")


def fewest(game: str) -> int:
    return registry.spec(game).players[0]


def cheap() -> None:
    args = ("camel-up", "--policies", "heuristic,greedy,random", "--players", "4",
            "--games", "10000", "--seed", "1")
    arena(*args[:-4], "--games", "100")  # compiled, warm
    print(line(*arena(*args)))


def ladder(games: int, only: str | None) -> None:
    for game in sorted(registry.specs()) if only is None else [only]:
        players = str(fewest(game))
        for other in ("greedy", "random"):
            if other not in registry.spec(game).policies:
                continue
            args = (game, "--policies", f"heuristic,{other}", "--players", players,
                    "--games", str(games), "--seed", "1")
            arena(*args[:-4], "--games", "4")
            print(line(*arena(*args)), flush=True)


def search(budget: str, games: int, only: str | None) -> None:
    for game in sorted(registry.specs()) if only is None else [only]:
        args = (game, "--policies", "search,heuristic", "--players", str(fewest(game)),
                "--games", str(games), "--decision-budget", budget, "--seed", "1")
        answer, seconds = arena(*args)
        paired = answer["paired"]
        print(line(answer, seconds) + f" · search − heuristic {100 * paired['difference']:+.1f}"
              f" [{100 * paired['lo']:+.1f}, {100 * paired['hi']:+.1f}]", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("cheap", "ladder", "search"))
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--budget", default="20ms")
    parser.add_argument("--game")
    a = parser.parse_args()
    if a.what == "cheap":
        cheap()
    elif a.what == "ladder":
        ladder(a.games, a.game)
    else:
        search(a.budget, a.games, a.game)


if __name__ == "__main__":
    main()
