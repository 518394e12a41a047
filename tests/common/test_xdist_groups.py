"""``xdist_groups``: the tests of a module that share a module- or class-scoped fixture go
to one pytest-xdist group; the others stay free (checked on a collection of a small test
module, with pytest's ``pytester``)."""

from __future__ import annotations

import pytest

MODULE = """
import pytest

@pytest.fixture(scope="module")
def report():
    return 1

@pytest.fixture(scope="class")
def server():
    return 2

@pytest.fixture(scope="session")
def kernels():
    return 3

@pytest.fixture
def tmp(report):
    return report

def test_free(kernels):
    pass

def test_module_fixture(report):
    pass

def test_through_a_function_fixture(tmp):
    pass

class TestServer:
    def test_class_fixture(self, server):
        pass

@pytest.mark.xdist_group("first-run")
def test_own_group(report):
    pass
"""


def groups(pytester: pytest.Pytester) -> dict[str, list[str]]:
    """Each test of ``MODULE`` collected with the plugin: its name -> its xdist groups."""
    pytester.makeconftest('pytest_plugins = ["xdist_groups"]')
    path = pytester.makepyfile(sample=MODULE)
    items, _ = pytester.inline_genitems(path, "-p", "no:xdist")
    return {item.name: [m.args[0] for m in item.iter_markers("xdist_group")]
            for item in items}


def test_tests_sharing_a_fixture_share_a_group(pytester):
    found = groups(pytester)
    shared = ["sample:shared"]
    assert found == {"test_free": [],
                     "test_module_fixture": shared,
                     "test_through_a_function_fixture": shared,
                     "test_class_fixture": shared,
                     "test_own_group": ["first-run"]}
