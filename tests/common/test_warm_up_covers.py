"""``oddsbot warm-up GAME`` leaves no kernel for a command to compile: after a game's warm-up
(``cli.warmup.warm_part`` of each part: its face's ``warm_up``, its report kernels), no command
loads a kernel signature the warm-up did not load. Checked in a fresh process on the
session's numba cache, so it takes seconds; a kernel it missed would compile on a first
run after the warm-up, with no notice (the marks say compiled)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from oddsbot.analyser import registry

ROOT = Path(__file__).resolve().parents[2]

COVERAGE = r"""
import importlib, json, pkgutil, sys
from numba.core.registry import CPUDispatcher
import oddsbot.kernels
from oddsbot.analyser import cli, registry
from oddsbot.analyser.cli.warmup import PARTS, warm_part
from oddsbot.analyser.face import Capability

def loaded():
    found = set()
    for info in pkgutil.walk_packages(oddsbot.kernels.__path__, "oddsbot.kernels."):
        for name, obj in vars(importlib.import_module(info.name)).items():
            if isinstance(obj, CPUDispatcher):
                found |= {f"{obj.py_func.__module__}.{name}{sig}" for sig in obj.overloads}
    return found

name = sys.argv[1]
spec = registry.spec(name)
for part in PARTS:
    if part == "commands" or spec.has(Capability.REPORTS):
        warm_part(name, part)
before = loaded()
for args in json.loads(sys.argv[2]):
    sys.argv = ["oddsbot", *args]
    try:
        cli.main()
    except SystemExit as exc:
        assert not exc.code, args
print("\nNEW " + json.dumps(sorted(loaded() - before)))
"""


def tall_stack() -> str:
    """The Five Tribes example with a stack of 20 (docs/games/five-tribes.md §19.1.1: past
    every budget, so its turn table is sampled), in notation."""
    from five_tribes_positions import stacked
    from oddsbot.analyser.five_tribes import face as ft

    pos = ft.parse((ROOT / "examples" / "five-tribes-opening-4p.json").read_text())
    return stacked(pos, {14: 20}).to_notation()


def commands(tmp_path: Path) -> dict[str, list[list[str]]]:
    """Every command kind of every game (``new --play greedy`` of Five Tribes excepted: a
    whole greedy game takes most of a minute; the warm-up plays its first round), on
    positions within and past the Five Tribes budgets."""
    record = tmp_path / "short.record"
    lines = (ROOT / "examples" / "camel-up-game-4p.record").read_text().splitlines()
    record.write_text("\n".join([ln for ln in lines if ln and not ln.startswith("#")][:9]))
    camel, tribes = "examples/camel-up-start-4p.json", "examples/five-tribes-opening-4p.json"
    cards, late = "examples/camel-up-cards-4p.json", "examples/camel-up-cards-late.json"
    mid, end = "examples/mumia-mid-4p.json", "examples/mumia-endgame.json"
    kr_roll, kr_mid = "examples/kingdom-run-roll-4p.json", "examples/kingdom-run-mid-4p.json"
    kr_start = ("kingdom-run p2 K,W to=1 t=0:K1,W1,F1,G1/1:K2,W2,F2,G2/2:K3,W3,F3,G3/"
                "3:K4,W4,F4,G4 tok=6,6 roll=- rr=0")
    kr_record = tmp_path / "kingdom-run.record"
    kr_lines = (ROOT / "examples" / "kingdom-run-game-4p.record").read_text().splitlines()
    kr_record.write_text("\n".join(kr_lines[:4]) + "\n")
    return {
        "camel-up": [
            ["advise", camel, "--samples", "4096"],
            ["advise", camel, "--samples", "4096", "--rollouts", "20", "--hidden", "informed"],
            ["odds", "examples/camel-up-mid-leg.json", "--samples", "4096"],
            ["odds", "examples/camel-up-late-race.json"],  # an exact race (§9.1)
            ["validate", camel], ["moves", camel], ["new", "camel-up"],
            ["new", "camel-up", "--play", "heuristic"],
            ["replay", str(record), "--samples", "4096"],
            ["chart", camel, "--samples", "4096", "--out", str(tmp_path / "chart.png")],
            ["report", "camel-up", "--games", "10", "--out", str(tmp_path / "cu")]],
        "five-tribes": [
            ["advise", tribes], ["odds", tribes], ["moves", tribes], ["new", "five-tribes"],
            ["advise", tall_stack()], ["odds", tall_stack()], ["moves", tall_stack()],
            ["report", "five-tribes", "--games", "4", "--out", str(tmp_path / "ft")]],
        "camel-up-cards": [
            ["advise", cards, "--samples", "4096"], ["advise", late, "--samples", "4096"],
            ["advise", late, "--samples", "4096", "--rollouts", "20"],
            ["odds", cards, "--samples", "4096"], ["moves", late], ["validate", late],
            ["new", "camel-up-cards"], ["new", "camel-up-cards", "--play", "random"],
            ["replay", "examples/camel-up-cards-opening-4p.record", "--samples", "4096"],
            ["chart", cards, "--samples", "4096", "--out", str(tmp_path / "cards.png")],
            ["report", "camel-up-cards", "--games", "10", "--out", str(tmp_path / "cuc")]],
        "mumia": [
            ["advise", mid, "--roll", "4,PM", "--samples", "64"], ["advise", end],
            ["advise", end, "--roll", "3"], ["odds", mid, "--samples", "64"], ["odds", end],
            ["moves", mid], ["validate", mid], ["rules", "mumia"],
            ["new", "mumia", "--expansions", "all"],
            ["new", "mumia", "--players", "3", "--play", "greedy"],
            ["replay", "examples/mumia-game-4p.record", "--samples", "16"],
            ["chart", mid, "--samples", "64", "--out", str(tmp_path / "mumia.png")],
            ["report", "mumia", "--games", "10", "--out", str(tmp_path / "mu")]],
        "kingdom-run": [
            ["advise", kr_roll], ["advise", kr_mid, "--top", "5"],
            ["advise", kr_start, "--roll", "SCBY"], ["advise", kr_roll, "--rollouts", "8"],
            ["advise", kr_mid, "--rollouts", "8", "--policy", "greedy"],
            ["advise", kr_mid, "--rollouts", "8", "--policy", "random"],
            ["odds", kr_mid, "--samples", "64"], ["moves", kr_mid], ["moves", kr_roll],
            ["validate", kr_mid], ["rules", "kingdom-run"], ["new", "kingdom-run"],
            ["new", "kingdom-run", "--players", "2", "--play", "heuristic"],
            ["new", "kingdom-run", "--players", "3", "--play", "greedy"],
            ["new", "kingdom-run", "--play", "random"],
            ["replay", str(kr_record)], ["replay", str(kr_record), "--rollouts", "4"],
            ["replay", str(kr_record), "--chart", str(tmp_path / "kr-replay.png"),
             "--samples", "64"],
            ["chart", kr_mid, "--samples", "64", "--out", str(tmp_path / "kr.png")],
            ["report", "kingdom-run", "--games", "10", "--out", str(tmp_path / "kr")]],
    }


@pytest.mark.parametrize("game", sorted(registry.specs()))
def test_after_a_games_warm_up_no_command_of_it_needs_another_kernel(game, tmp_path):
    """After ``oddsbot warm-up GAME`` alone, each command kind of the game loads only kernels
    that warm-up loaded (the kernels games share included)."""
    runs = commands(tmp_path)
    assert set(runs) == set(registry.specs())  # every game's commands are listed
    out = subprocess.run([sys.executable, "-c", COVERAGE, game, json.dumps(runs[game])],
                         cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    new = json.loads(out.stdout.rsplit("\nNEW ", 1)[1])
    assert new == [], f"kernels the warm-up did not load: {new}"
