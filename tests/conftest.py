"""Shared fixtures: one numba warm-up per session, so compile time is paid once."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("oddsbot", deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("oddsbot")


@pytest.fixture(scope="session", autouse=True)
def warm_kernels():
    """Compile (or load from the numba cache) the Camel Up kernels once per session."""
    from oddsbot.analyser import camel_up as cu

    pos = cu.new_position(4, seed=0)
    cu.advise(pos, samples=4096, seed=0)
    cu.simulate(pos, seed=0)
