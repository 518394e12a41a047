"""The Five Tribes kernel package (kernels/five_tribes/__init__.py): each name is the
object the star imports of all its modules gave before the modules of the turn walk were
loaded on use, and a command that only lists sowings or checks a position loads none of
them (so an empty numba cache does not compile the walk for it)."""

from __future__ import annotations

import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest

import oddsbot.kernels.five_tribes as FT

ROOT = Path(__file__).resolve().parents[2]
# the package's star imports, in their order, when every module was imported with it
STAR_IMPORTS = ("board", "data", "batch_games", "rounds", "scoring", "sowing",
                "sowing_count", "state", "turn_steps", "complete_turns", "djinn_powers",
                "turn_store", "turn_walk", "turn_table", "heuristic", "rollouts")


def test_every_name_is_the_object_the_star_imports_gave():
    star: dict[str, object] = {}
    for module in STAR_IMPORTS:
        found = vars(import_module(f"oddsbot.kernels.five_tribes.{module}"))
        star.update((k, v) for k, v in found.items() if not k.startswith("_"))
    assert {"walk", "complete_turns", "rollouts", "list_sowings", "play_round"} <= set(star)
    assert callable(FT.complete_turns) and callable(FT.rollouts)  # not the modules
    assert [name for name, value in star.items() if getattr(FT, name) is not value] == []


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no_such_kernel"):
        FT.no_such_kernel  # noqa: B018


# a fresh interpreter runs the command in-process, then names the walk's modules it loaded
_LOADED = """
import sys
from oddsbot.analyser.cli.entry import main
sys.argv = ["oddsbot", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print(sorted(m for m in sys.modules if m.rsplit(".", 1)[-1] in {walk!r}
             and m.startswith("oddsbot.kernels.five_tribes.")), file=sys.stderr)
"""


@pytest.mark.parametrize("command", ["moves", "validate"])
def test_listing_sowings_or_checking_loads_no_module_of_the_walk(command):
    code = _LOADED.format(walk=set(FT.WALK_MODULES))
    done = subprocess.run([sys.executable, "-c", code, command,
                           "examples/five-tribes-opening-4p.json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.stdout.strip(), done.stderr  # the command answered
    assert done.stderr.strip().splitlines()[-1] == "[]"
