"""Fuzzing: mutated positions and records of every registered game (``hostile.py``) are
answered (exit 0) or refused in exactly one line (exit 2); never a traceback, another exit
code, several lines, a long message, or a change to the input file.

Cases run in-process for speed, within ``BUDGET_SECONDS`` (about a minute in CI with the
real-process cases): once the budget is spent the remaining examples are counted as
``not run``. Hypothesis derives every case from one ``random.Random`` it controls, so a
failure shrinks and replays. The counts by game, kind and outcome class are printed at the
end of the module (and, per example, as hypothesis events: ``--hypothesis-show-statistics``);
``bench/fuzz_summary.py`` runs the same generators for any number of cases.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections import Counter

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import hostile
from conftest import SUMMARY

BUDGET_SECONDS = 45.0
MAX_EXAMPLES = 3000
CHANNELS = {"position": ("file", "stdin", "inline"), "record": ("file", "stdin")}


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory, request):
    """The seeds, a folder for the cases, the tally, and the clock; the tally is printed
    at the end of the run (``conftest.SUMMARY``)."""
    state = {"seeds": hostile.corpus(), "folder": tmp_path_factory.mktemp("fuzz"),
             "tally": Counter(), "start": None}
    yield state
    tally = state["tally"]
    request.config.stash[SUMMARY] += [f"fuzz: {sum(tally.values()):,} cases"] + [
        f"  {game} {kind} {outcome}: {n:,}" for (game, kind, outcome), n in sorted(tally.items())]


def draw_case(rng, seeds):
    """A mutated case drawn by ``rng``: (seed, data, mutation names, channel)."""
    seed = rng.choice(seeds)
    data, names = hostile.mutate(rng, seed.data)
    return seed, data, names, rng.choice(CHANNELS[seed.kind])


@settings(max_examples=MAX_EXAMPLES, deadline=None, database=None)
@given(rng=st.randoms(use_true_random=False))
def test_mutated_inputs_are_answered_or_refused_in_one_line(fuzz, rng):
    if fuzz["start"] is None:
        fuzz["start"] = time.monotonic()
    seed, data, names, channel = draw_case(rng, fuzz["seeds"])
    if time.monotonic() - fuzz["start"] > BUDGET_SECONDS:
        fuzz["tally"][(seed.game, seed.kind, "not run (time budget)")] += 1
        return
    outcome, run = hostile.run_case(seed.kind, data, channel, fuzz["folder"])
    fuzz["tally"][(seed.game, seed.kind, outcome)] += 1
    event(f"{seed.game} {seed.kind}: {outcome}")
    assert outcome in hostile.GOOD, (
        f"{outcome}: {seed.name} after {', '.join(names)} via {channel}\n"
        f"input starts {data[:300]!r}\nstderr {run.err[-2000:]}\n{run.tb}")


def test_the_fuzzer_ran_cases_of_every_game(fuzz):
    """After the fuzz test (module order): it tried every game's seeds, and some cases
    were answered (mutations are not all fatal)."""
    tally = fuzz["tally"]
    if not tally:
        pytest.skip("the fuzz test did not run")
    tried = {game for (game, _, outcome) in tally if outcome in hostile.GOOD}
    assert tried == {seed.game for seed in fuzz["seeds"]}, tally
    assert any(outcome == "ok" for (_, _, outcome) in tally), tally


@pytest.mark.parametrize("case", range(4))
def test_mutated_inputs_through_the_console_script(tmp_path, case):
    """A few cases through a real process (the entry point, its stdin and stderr, argv):
    the same outcome class as the same command in-process, the input file unchanged."""
    seed, data, names, channel = draw_case(random.Random(case), hostile.corpus())
    command = hostile.commands(seed.kind)[0]
    path = tmp_path / "case"
    path.write_bytes(data)
    args, stdin = hostile.arguments(command, channel, path, data)
    expected = hostile.outcome_class(hostile.run_cli(args, stdin))
    exe = os.path.join(os.path.dirname(sys.executable), "oddsbot")
    done = subprocess.run([exe, *args], input=stdin, capture_output=True, timeout=300,
                          check=False)
    run = hostile.Outcome(done.returncode, done.stdout.decode(errors="replace"),
                          done.stderr.decode(errors="replace"))
    assert hostile.outcome_class(run) == expected, (names, channel, run.err[-2000:])
    assert expected in hostile.GOOD and path.read_bytes() == data
