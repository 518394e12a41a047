"""Where numba's compile time goes: every kernel compiled by a game's commands (its face's
``warm_up``, what ``oddsbot warm-up`` runs for that game) on an empty numba cache, one
fresh process per game.

    python bench/bench_compile.py                 # every game
    python bench/bench_compile.py mumia --top 30  # one game, more rows

For each game: the wall time of the warm-up and of compiling alone, and the kernels
that took longest, by **own** time (the compile minus the kernels compiled inside it,
which numba compiles first, as it meets their calls) with the number of signatures
compiled for each (more than one: the same kernel compiled for other argument types,
layouts or read-only arrays). Reads numba's event API (``numba:compile``, fired only on
a cache miss).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

CHILD = r"""
import json, sys, time
from numba.core import event
from oddsbot.analyser import registry

spec = registry.spec(sys.argv[1])
start = time.perf_counter()
with event.install_recorder("numba:compile") as rec:
    spec.load().warm_up()
wall = time.perf_counter() - start
stack, rows = [], []
for when, ev in rec.buffer:
    if ev.is_start:
        stack.append([when, 0.0, ev.data])
        continue
    began, inner, data = stack.pop()
    took = when - began
    if stack:
        stack[-1][1] += took
    d = data["dispatcher"]
    rows.append({"kernel": f"{d.py_func.__module__}.{d.py_func.__qualname__}",
                 "sig": str(data["args"]), "total": took, "own": took - inner,
                 "top": not stack})
print(json.dumps({"wall": wall, "rows": rows}))
"""


def profile(game: str) -> dict:
    """The compile events of ``game``'s warm-up on an empty cache (a child process)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = subprocess.run([sys.executable, "-c", CHILD, game], env=env, check=True,
                             capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def report(game: str, data: dict, top: int) -> None:
    rows = data["rows"]
    own: dict[str, float] = defaultdict(float)
    sigs: dict[str, set] = defaultdict(set)
    for r in rows:
        own[r["kernel"]] += r["own"]
        sigs[r["kernel"]].add(r["sig"])
    compiling = sum(r["total"] for r in rows if r["top"])
    print(f"\n## {game}: warm-up {data['wall']:.1f} s, of it compiling {compiling:.1f} s; "
          f"{len(own)} kernels, {len(rows)} compilations")
    print("| kernel | own s | signatures |\n|---|---|---|")
    for name, t in sorted(own.items(), key=lambda kv: -kv[1])[:top]:
        print(f"| `{name.removeprefix('oddsbot.kernels.')}` | {t:.2f} | {len(sigs[name])} |")
    twice = {k: v for k, v in sigs.items() if len(v) > 1}
    if twice:
        print(f"\nkernels compiled for more than one signature ({len(twice)}):")
        for name, s in sorted(twice.items()):
            print(f"- {name.removeprefix('oddsbot.kernels.')}: " + "; ".join(sorted(s)))


def main() -> int:
    from oddsbot.analyser import registry
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", help="games (default: every game)")
    ap.add_argument("--top", type=int, default=12, help="kernels listed per game")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    total = time.perf_counter()
    for game in args.games or list(registry.specs()):
        report(game, profile(game), args.top)
    print(f"\nall games one after another: {time.perf_counter() - total:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
