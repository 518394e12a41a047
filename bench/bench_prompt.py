"""Speed at the prompt: ``--help`` of every command and a warm ``advise``, whole processes.

    python bench/bench_prompt.py            # best of 5 each
    python bench/bench_prompt.py --runs 9

Figures (issue "A person at a terminal", 2-core machine, warm numba cache):

P1. ``oddsbot --help`` and ``oddsbot <command> --help`` for every command: <= 0.3 s each.
P2. ``oddsbot advise examples/camel-up-start-4p.json``: <= 1.0 s.

Best-of-N wall-clock seconds of the ``oddsbot`` console script (the load average is
printed: the machine may be shared); nothing here is a unit test. Exit code 1 if a target
is missed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HELP_TARGET = 0.3
ADVISE_TARGET = 1.0


def best_of(args: list[str], runs: int) -> float:
    """Best wall-clock time of ``runs`` runs of ``args`` (stdout and stderr discarded)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    exe = shutil.which("oddsbot")
    if exe is None:
        sys.exit("the `oddsbot` console script is not on PATH")
    import typer.main

    from oddsbot.analyser.cli import app

    commands = sorted(typer.main.get_command(app).commands)
    print(f"load average {os.getloadavg()[0]:.2f}; best of {runs} runs")
    missed = 0
    for name in ["", *commands]:
        seconds = best_of([exe, *name.split(), "--help"], runs)
        missed += seconds > HELP_TARGET
        print(f"  oddsbot {name + ' ' if name else ''}--help  {seconds:.3f} s  "
              f"(target <= {HELP_TARGET} s)")
    advise = [exe, "advise", "examples/camel-up-start-4p.json"]
    best_of(advise, 1)  # the numba cache is warm after this
    seconds = best_of(advise, runs)
    missed += seconds > ADVISE_TARGET
    print(f"  oddsbot advise examples/camel-up-start-4p.json  {seconds:.3f} s  "
          f"(target <= {ADVISE_TARGET} s)")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
