"""Five Tribes tall stacks (docs/games/five-tribes.md §19.1.1): peak memory and wall time of
``oddsbot advise`` and ``oddsbot moves`` on the example opening with its meeples piled
into tall stacks.

    python bench/bench_tall_stacks.py           # every position, every command
    python bench/bench_tall_stacks.py --quick   # the 8- and 20-stack, advise and moves

Positions: ``examples/five-tribes-opening-4p.json`` (player 2 to move), and the same board
with r2c2 holding 8, 11 or 20 meeples, or r0c0, r2c2 and r4c5 holding 20 each, the meeples
moved there from the other tiles (``tests/five_tribes/five_tribes_positions.stacked``).

Figures (issue 13): every command on every position within 1 GB peak resident memory
(max RSS, ``/usr/bin/time -f %M``), each a whole process on a warm numba cache (one
warm-up run first), output to /dev/null. ``advise -f json`` prints every row, the most
memory a table takes. Also shown: the board's full sowing sequences and how the table
was made (exact, or sampled: sowings drawn and rows).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "five_tribes"))
from five_tribes_positions import stacked  # noqa: E402  (the tests' position builder)

from oddsbot.analyser.five_tribes import face as ft  # noqa: E402
from oddsbot.analyser.five_tribes.encode import encode  # noqa: E402
from oddsbot.analyser.five_tribes.sowings import census  # noqa: E402
from oddsbot.kernels import five_tribes as FT  # noqa: E402

MEMORY_TARGET_MB = 1024
TIME = "/usr/bin/time"
CENTRE = 14  # r2c2
POSITIONS = {"opening (3 a tile)": {}, "one 8-stack": {CENTRE: 8},
             "one 11-stack": {CENTRE: 11}, "one 20-stack": {CENTRE: 20},
             "three 20-stacks": {0: 20, CENTRE: 20, 29: 20}}
COMMANDS = {"advise": ["advise"], "advise -f json": ["advise", "-f", "json"],
            "moves": ["moves"]}
QUICK = (("one 8-stack", "one 20-stack"), ("advise", "moves"))
console = Console(width=130)


def position(sizes: dict[int, int]) -> ft.Position:
    pos = ft.parse((ROOT / "examples" / "five-tribes-opening-4p.json").read_text())
    return ft.validate(stacked(pos, sizes))


def measured(args: list[str]) -> tuple[float, float, str]:
    """(peak resident memory in MB, wall seconds, stdout) of ``oddsbot ARGS``."""
    with tempfile.NamedTemporaryFile("w+", suffix=".time") as stats:
        out = subprocess.run([TIME, "-f", "%M %e", "-o", stats.name, "oddsbot", *args],
                             check=True, capture_output=True, text=True)
        kb, seconds = stats.read().split()[-2:]
    return int(kb) / 1024, float(seconds), out.stdout


def how(stdout: str) -> str:
    """How an ``advise -f json`` table was made, from its provenance."""
    data = json.loads(stdout)
    sampling = data["provenance"].get("sampling")
    rows = len(data["actions"])
    if sampling is None:
        return f"exact, {rows:,} rows"
    return f"sampled: {sampling['drawn']:,} sowings drawn, {rows:,} rows"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the 8- and 20-stack, advise and moves")
    args = ap.parse_args()
    names, commands = (QUICK if args.quick else (tuple(POSITIONS), tuple(COMMANDS)))
    console.print(f"{os.cpu_count()} cores · load average {os.getloadavg()[0]:.2f}")
    table = Table(title="oddsbot on tall stacks (whole process, warm cache)")
    for col in ("position", "full sowings", "command", "peak MB", "wall s", "table",
                f"<= {MEMORY_TARGET_MB} MB"):
        table.add_column(col)
    ok_all = True
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            pos = position(POSITIONS[name])
            path = Path(tmp) / "position.txt"
            path.write_text(pos.to_notation())
            total = census(FT.meeples(encode(pos)), FT.LIVE).total
            measured(["advise", str(path)])  # warm-up: load every kernel from the cache
            made = how(measured(["advise", str(path), "-f", "json"])[2])
            for command in commands:
                mb, seconds, _ = measured([*COMMANDS[command], str(path)])
                ok = mb <= MEMORY_TARGET_MB
                ok_all &= ok
                sowings = f"{total:,}" if total < 10**9 else f"{total:.2e}"
                table.add_row(name, sowings, command, f"{mb:,.0f}", f"{seconds:.2f}",
                              made if command.startswith("advise") else "",
                              "yes" if ok else "NO")
    console.print(table)
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
