"""Mumia records: generated games replayed against the rules (issue "Mumia: five kinds
of wrong legal moves").

    python bench/bench_mumia_records.py [--records 1000]

R1. ``--records`` whole games from ``oddsbot new mumia --play`` (``simulate.play``): every
    combination of expansions (16), 2-6 players and the three policies in turn, seeds
    0, 1, ...; each record replayed by ``oddsbot replay``'s checker (``load_record``,
    without the annotations). Target: every one replays. Printed: records, steps, how
    often each E4 choice and ``pass`` occurs, records/s for writing and replaying.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections import Counter

from oddsbot.analyser.mumia.position import EXPANSIONS
from oddsbot.analyser.mumia.record import load_record
from oddsbot.analyser.mumia.simulate import play
from oddsbot.errors import OddsbotError

COMBOS = [",".join(c) or "none" for k in range(5) for c in itertools.combinations(EXPANSIONS, k)]
POLICIES = ("random", "greedy", "heuristic")
WORDS = ("token swap", "token bottom", "token push", "+ token extra", " pass")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=1000)
    args = ap.parse_args()
    play(2, 0, "mumia", "random", "all")  # compile outside the clock
    load_record(play(2, 0, "mumia", "random", "all"))
    seen: Counter[str] = Counter()
    failed: list[str] = []
    steps = 0
    write = check = 0.0
    for i in range(args.records):
        combo, players, policy = COMBOS[i % 16], 2 + i % 5, POLICIES[i % 3]
        start = time.perf_counter()
        text = play(players, i, "mumia", policy, combo)
        write += time.perf_counter() - start
        steps += text.count("\n") - 2
        for word in WORDS:
            seen[word.strip()] += text.count(word)
        start = time.perf_counter()
        try:
            load_record(text)
        except OddsbotError as exc:
            failed.append(f"seed {i} {players}p {combo} {policy}: {exc}")
        check += time.perf_counter() - start
    print(f"R1 records replayed: {args.records - len(failed):,} of {args.records:,} "
          f"(every expansion set, 2-6 players, {', '.join(POLICIES)})")
    print(f"   steps: {steps:,}; " + ", ".join(f"{w}: {seen[w]:,}" for w in
                                                 (w.strip() for w in WORDS)))
    print(f"   writing {args.records / write:,.1f} records/s, replaying "
          f"{args.records / check:,.1f} records/s ({steps / check:,.0f} steps/s)")
    for line in failed[:10]:
        print("   FAILED", line)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
