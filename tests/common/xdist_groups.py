"""A pytest plugin (loaded by ``tests/conftest.py``): under pytest-xdist's ``--dist
loadgroup``, the tests of a module that share a module- or class-scoped fixture (a report
run, a server, a chart) run on one worker, so the fixture is made once, not once on each
worker that the tests happen to be sent to (the Five Tribes report run took 87 s on each of
both). Tests already in a group keep it; tests using only function- and session-scoped
fixtures are left free. Tested in ``test_xdist_groups.py``."""

from __future__ import annotations

import pytest

SHARED = "{module}:shared"  # the group of a module's tests that share a fixture


def shares_a_fixture(item: pytest.Item) -> bool:
    """Whether ``item`` uses a fixture made once for several tests of its module (scope
    ``module``, ``class`` or ``package``; ``session`` fixtures are made once per worker
    anyway)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(defs[-1].scope not in ("function", "session")
               for name in info.names_closure
               if (defs := info.name2fixturedefs.get(name)))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Marks every test that shares a fixture with ``xdist_group(SHARED)``."""
    for item in items:
        if not item.get_closest_marker("xdist_group") and shares_a_fixture(item):
            item.add_marker(pytest.mark.xdist_group(SHARED.format(module=item.module.__name__)))
