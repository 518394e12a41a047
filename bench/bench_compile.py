"""Where numba's compile time goes: every kernel compiled by a game's commands (its face's
``warm_up``, what ``oddsbot warm-up`` runs for that game) on an empty numba cache, one
fresh process per game; with ``--reports``, then what its designer reports compile
(``oddsbot warm-up``'s other part) in a second process on the same cache, as the warm-up
shares one.

    python bench/bench_compile.py                 # every game
    python bench/bench_compile.py mumia --top 30  # one game, more rows
    python bench/bench_compile.py five-tribes --reports
    python bench/bench_compile.py --command "advise examples/mumia-mid-4p.json"

For each game: the wall time of the warm-up and of compiling alone, and the kernels
that took longest, by **own** time (the compile minus the kernels compiled inside it,
which numba compiles first, as it meets their calls) with the number of signatures
compiled for each (more than one: the same kernel compiled for other argument types,
layouts or read-only arrays). With ``--command``, the same for one ``oddsbot`` command
run in-process in a child on an empty cache (a user's first run of it), each kernel with
the kernels it was compiled inside (``in``: a kernel compiled inside another is linked
into it, and the caller's module is optimised again with it). Reads numba's event API
(``numba:compile``, fired only on a cache miss).
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

RECORD = r"""
import json, sys, time
from numba.core import event

def record(work):
    start = time.perf_counter()
    with event.install_recorder("numba:compile") as rec:
        work()
    return time.perf_counter() - start, rec.buffer

def rows_of(wall, buffer):
    stack, rows = [], []
    for when, ev in buffer:
        if ev.is_start:
            stack.append([when, 0.0, ev.data])
            continue
        began, inner, data = stack.pop()
        took = when - began
        if stack:
            stack[-1][1] += took
        d, outer = data["dispatcher"], stack[-1][2]["dispatcher"] if stack else None
        rows.append({"kernel": f"{d.py_func.__module__}.{d.py_func.__qualname__}",
                     "sig": str(data["args"]), "total": took, "own": took - inner,
                     "top": not stack, "in": outer.py_func.__qualname__ if outer else ""})
    return {"wall": wall, "rows": rows}
"""

CHILD = RECORD + r"""
from oddsbot.analyser.cli.warmup import warm_part
print(json.dumps(rows_of(*record(lambda: warm_part(sys.argv[1], sys.argv[2])))))
"""

COMMAND = RECORD + r"""
import io, os
from oddsbot.analyser.cli import entry

sys.argv = ["oddsbot", *sys.argv[1:]]
out = io.StringIO()

def run():
    real, sys.stdout = sys.stdout, out
    try:
        entry.main()
    except SystemExit as exc:
        assert not exc.code, (exc.code, sys.argv)
    finally:
        sys.stdout = real

print(json.dumps(rows_of(*record(run))))
"""


def profile(game: str, parts: tuple[str, ...]) -> list[dict]:
    """The compile events of each of ``game``'s warm-up ``parts`` (``cli.warmup.PARTS``),
    one child process each, one after another on one cache, empty at the start."""
    found = []
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for part in parts:
            out = subprocess.run([sys.executable, "-c", CHILD, game, part], env=env,
                                 check=True, capture_output=True, text=True).stdout
            found.append(json.loads(out.strip().splitlines()[-1]))
    return found


def command_profile(command: str) -> dict:
    """The compile events of ``oddsbot COMMAND`` (its words, split as a shell would),
    in-process in a child on an empty cache."""
    import shlex

    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = subprocess.run([sys.executable, "-c", COMMAND, *shlex.split(command)], env=env,
                             check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def report(game: str, data: dict, top: int, what: str = "warm-up") -> None:
    rows = data["rows"]
    own: dict[str, float] = defaultdict(float)
    sigs: dict[str, set] = defaultdict(set)
    inside: dict[str, set] = defaultdict(set)
    for r in rows:
        own[r["kernel"]] += r["own"]
        sigs[r["kernel"]].add(r["sig"])
        inside[r["kernel"]].add(r["in"] or "-")
    compiling = sum(r["total"] for r in rows if r["top"])
    print(f"\n## {game}: {what} {data['wall']:.1f} s, of it compiling {compiling:.1f} s; "
          f"{len(own)} kernels, {len(rows)} compilations")
    print("| kernel | own s | signatures | compiled inside |\n|---|---|---|---|")
    for name, t in sorted(own.items(), key=lambda kv: -kv[1])[:top]:
        print(f"| `{name.removeprefix('oddsbot.kernels.')}` | {t:.2f} | {len(sigs[name])} | "
              f"{', '.join(sorted(inside[name]))} |")
    twice = {k: v for k, v in sigs.items() if len(v) > 1}
    if twice:
        print(f"\nkernels compiled for more than one signature ({len(twice)}):")
        for name, s in sorted(twice.items()):
            print(f"- {name.removeprefix('oddsbot.kernels.')}: " + "; ".join(sorted(s)))


def main() -> int:
    from oddsbot.analyser import registry
    from oddsbot.analyser.face import Capability
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", help="games (default: every game)")
    ap.add_argument("--top", type=int, default=12, help="kernels listed per game")
    ap.add_argument("--reports", action="store_true",
                    help="then the designer reports' part, on the same cache")
    ap.add_argument("--command", help="instead: one oddsbot command's first run, e.g. "
                    "'advise examples/mumia-mid-4p.json'")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    total = time.perf_counter()
    if args.command:
        report(f"oddsbot {args.command}", command_profile(args.command), args.top, "run")
        return 0
    for game in args.games or list(registry.specs()):
        with_reports = args.reports and registry.spec(game).has(Capability.REPORTS)
        parts = ("commands", "reports") if with_reports else ("commands",)
        for part, data in zip(parts, profile(game, parts)):
            report(game if part == "commands" else f"{game} reports", data, args.top)
    print(f"\nall games one after another: {time.perf_counter() - total:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
