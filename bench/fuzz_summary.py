"""How mutated input fares: N cases from the fuzz test's generators (``tests/common/hostile.py``),
counted by outcome class, game, kind, channel and mutation.

    python bench/fuzz_summary.py --cases 2000 --seed 0

Every case is a seed of a registered game (a position or a record) after one to three
random mutations, given to ``oddsbot`` in-process by a file, stdin or inline; its class
is ``ok`` (answered, exit 0) or ``refused`` (exit 2, one line), or a fault (``traceback``,
``exit N``, ``not one line``, ``long message``, ``stdout on error``, ``input changed``),
listed at the end with the case that showed it. The exit code is 1 if any fault was seen.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "common"))
import hostile  # noqa: E402  tests/common/hostile.py, the fuzz test's generators

CHANNELS = {"position": ("file", "stdin", "inline"), "record": ("file", "stdin")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1000, help="cases to run")
    parser.add_argument("--seed", type=int, default=0, help="seed of the case generator")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    seeds = hostile.corpus()
    by_class, by_game, by_channel, by_mutation = Counter(), Counter(), Counter(), Counter()
    faults = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.cases):
            seed = rng.choice(seeds)
            data, names = hostile.mutate(rng, seed.data)
            channel = rng.choice(CHANNELS[seed.kind])
            outcome, run = hostile.run_case(seed.kind, data, channel, Path(folder))
            by_class[outcome] += 1
            by_game[(seed.game, seed.kind, outcome)] += 1
            by_channel[(channel, outcome)] += 1
            for name in set(names):
                by_mutation[(name, outcome)] += 1
            if outcome not in hostile.GOOD:
                faults.append((outcome, seed.name, names, channel, run.tb or run.err))
    seconds = time.perf_counter() - start
    print(f"{args.cases:,} cases from {len(seeds)} seeds, generator seed {args.seed}, "
          f"{seconds:.0f} s ({seconds / max(args.cases, 1) * 1000:.0f} ms a case)")
    for title, counts in (("outcome", by_class), ("game, kind, outcome", by_game),
                          ("channel, outcome", by_channel),
                          ("mutation (a case may have several), outcome", by_mutation)):
        print(f"\nby {title}:")
        for key, n in sorted(counts.items(), key=lambda kv: (str(kv[0]))):
            print(f"  {' '.join(key) if isinstance(key, tuple) else key:<50} {n:>7,}")
    for outcome, name, names, channel, detail in faults[:20]:
        print(f"\nFAULT {outcome}: {name} after {', '.join(names)} via {channel}\n"
              f"{detail[-1500:]}")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
