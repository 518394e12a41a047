"""Camel Up's kernels compiled ahead of use (``WarmUpFace`` of ``analyser/face.py``): each
unit runs the functions the commands call, on a new 4-player start."""

from __future__ import annotations

from .advise import advise
from .simulate import new_position, simulate

UNITS = {
    "advise": "advise, odds, moves, new, replay, chart: exact leg odds and race Monte Carlo",
    "games": "advise --rollouts, new --play, replay: whole games under the policies",
}


def warm(unit: str) -> None:
    """Compile (or load from the numba cache) the kernels of ``unit``."""
    pos = new_position(4, 0)
    if unit == "advise":
        advise(pos, samples=4096, target_se=None)
    elif unit == "games":
        advise(pos, samples=4096, target_se=None, rollouts=32)
        simulate(pos, seed=0, policy="heuristic")
    else:
        raise ValueError(f"camel-up has no warm-up unit {unit!r}")
