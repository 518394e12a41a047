"""Camel Up Cards benchmark: exact leg odds, the EV table as a whole process, whole games.

    python bench/bench_camel_up_cards.py
    python bench/bench_camel_up_cards.py --only-exact --against main   # C1, and the
        # hardest deals' kernel at main beside today's, alternating in one run

Figures (issue "Camel Up Cards"):

C1. exact leg odds (``outcomes.leg_outcomes``) with 8 cards left in the race deck, of
    which the viewer knows only some (a real 4-player game, 4 cards revealed): <= 50 ms;
    and the hardest such case, 6 of the 8 unknown (new deals, the viewer's own known cards
    revealed first);
    beside it, the naive reference (tests/camel_up_cards/naive_cards.py) on the same
    position with 5 cards left, against the kernel on that one (the ratio);
C2. ``oddsbot advise`` on a new 4-player leg (12 cards in the deck, sampled), the whole
    process, warm numba cache: <= 2 s;
C3. whole 4-player games with ``heuristic`` seats (``record_games``, 2 threads):
    >= 50,000 games/s; 1 thread and ``random`` seats beside it.

Best of several runs after a warm-up; wall-clock on a shared machine (load printed).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

from oddsbot.analyser.camel_up_cards import encode, outcomes
from oddsbot.analyser.camel_up_cards.simulate import decode, new_position
from oddsbot.kernels.camel_up_cards import batch_games as B
from oddsbot.kernels.camel_up_cards import game as K
from oddsbot.kernels.camel_up_cards import leg as L
from oddsbot.kernels.camel_up_cards import policy as P
from oddsbot.kernels.rng import stream
import against  # bench/against.py, a kernel at another revision in subprocesses
from timing import process_seconds

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "camel_up_cards"))
EXACT_TARGET = 0.050  # C1, s
ADVISE_TARGET = 2.0  # C2, s
GAMES_TARGET = 50_000  # C3, games/s


def leg_position(left: int, seed: int = 4):
    """The position of the player to move in a real 4-player game (heuristic seats) at the
    first turn with ``left`` cards in the race deck."""
    deal, pol = stream(np.uint64(seed), 0), stream(np.uint64(seed), 2)
    st = K.new_game(4, deal, np.arange(4), K.SETUP[4], K.LAST_SPACE[4])
    while st[K.DECK_SIZE] - st[K.DRAWN] != left:
        K.play_turn(st, deal, *P.choose(st, pol, P.HEURISTIC))
    return decode(st)


def best_seconds(call, runs: int = 5) -> float:
    call()
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def exact_leg(pos) -> float:
    tr = encode.track_of(pos)
    deck = encode.deck_of(pos)
    assert outcomes.leg_outcomes(tr, deck, 1, 1).samples == 0
    return best_seconds(lambda: outcomes.leg_outcomes(tr, deck, 1, 1))


def naive_leg(pos) -> float:
    import naive_cards as N
    from collections import Counter
    board = {"L": pos.last, "cards": list(pos.cards), "start": list(pos.start_line),
             "stacks": {s: list(x) for s, x in enumerate(pos.stacks, start=1) if x},
             "fox": pos.fox.space if pos.fox else None,
             "palm": pos.palm.space if pos.palm else None, "finish": None}
    known = list(pos.own_deck) + [b for b in pos.blue if b]
    seen = Counter(pos.own_dealt) + Counter(b for s, b in enumerate(pos.blue)
                                            if b and s != pos.viewer)
    pool = list((Counter(N.FULL_SET) - seen).elements())
    start = time.perf_counter()
    N.leg_distribution_posterior(board, known, pool, pos.unknown_size, list(pos.revealed))
    return time.perf_counter() - start


def games_per_second(policy: str, threads: int, games: int) -> float:
    codes = np.full(4, P.POLICY_NAMES.index(policy), dtype=np.int64)
    numba.set_num_threads(threads)
    args = (4, np.arange(4), K.SETUP[4], K.LAST_SPACE[4], codes)
    B.record_games(*args, 1, 0, 256, 64)
    best = 0.0
    for rep in range(3):
        start = time.perf_counter()
        B.record_games(*args, 2 + rep, 0, games, 2048)
        best = max(best, games / (time.perf_counter() - start))
    return best


def hardest_against(pos, seed: int, rev: str) -> None:
    """C1 with ``--against REV``: ``leg_exact`` on one hardest deal at ``rev`` and today,
    alternating in one run (``against.py``); both must fill the same histogram, to 1e-12
    (the last card's states are not merged since issue 37: sums in another order)."""
    tr, k = encode.track_of(pos), encode.deck_of(pos).knowledge
    args = (tr, k.known, k.pool, k.unknown, k.revealed, outcomes.MAX_STATES,
            np.zeros(L.HIST_SHAPE))
    before, after, same = against.compare(rev, "camel_up_cards.leg", "leg_exact", args,
                                          rounds=3, calls=2, atol=1e-12)
    assert same, f"leg_exact at {rev} and today give different histograms"
    print(f"   deal {seed}: at {rev} {before[:, 0].min() * 1000:.1f} ms best (CPU median "
          f"{np.median(before[:, 1]) * 1000:.1f}), today {after[:, 0].min() * 1000:.1f} ms "
          f"(CPU median {np.median(after[:, 1]) * 1000:.1f}): "
          f"{np.median(before[:, 1]) / np.median(after[:, 1]):.2f}x by CPU time; the same "
          "histogram to 1e-12", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--against", metavar="REV",
                    help="C1's hardest deals also at git revision REV beside today, "
                         "alternating in one run (bench/against.py)")
    ap.add_argument("--only-exact", action="store_true", help="C1 only")
    args = ap.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    eight = leg_position(8)
    t8 = exact_leg(eight)
    print(f"C1 exact leg odds, 8 cards left ({len(encode.candidates(eight)[1]):,} possible "
          f"decks): {t8 * 1000:.1f} ms (target <= {EXACT_TARGET * 1000:.0f} ms)", flush=True)
    worst = []
    for seed in range(1, 6):  # a new deal with 4 of the viewer's known cards revealed first:
        pos = new_position(4, seed)  # every unknown card still unknown, the most candidates
        known = list(pos.own_deck) + [b for b in pos.blue if b]
        worst.append(exact_leg(pos.with_(revealed=tuple(known[:4]))))
        if args.against:
            hardest_against(pos.with_(revealed=tuple(known[:4])), seed, args.against)
    print(f"C1 exact leg odds, 8 cards left of which 6 unknown, 5 new deals: "
          f"{min(worst) * 1000:.1f}-{max(worst) * 1000:.1f} ms", flush=True)
    if args.only_exact:
        return 0
    five = leg_position(5)
    kernel5, naive5 = exact_leg(five), naive_leg(five)
    print(f"C1 5 cards left: kernel {kernel5 * 1000:.2f} ms, naive reference "
          f"{naive5:.2f} s: {naive5 / kernel5:,.0f}x", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "new-4p.json"
        fresh.write_text(new_position(4, 1).to_json_text())
        advise = process_seconds("advise", str(fresh))
    print(f"C2 oddsbot advise on a new 4-player leg (whole process): {advise:.2f} s "
          f"(target <= {ADVISE_TARGET:.0f} s)", flush=True)
    for policy in ("heuristic", "random"):
        for threads in (2, 1):
            rate = games_per_second(policy, threads, 200_000 if threads == 2 else 100_000)
            target = f" (target >= {GAMES_TARGET:,})" if policy == "heuristic" \
                and threads == 2 else ""
            print(f"C3 {policy} 4-player games, {threads} thread(s): {rate:,.0f} games/s"
                  + target, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
