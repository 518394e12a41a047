"""``kernels/unlinked.py``: a kernel called through a symbol gives what a direct call
gives, passes its exceptions up, is not compiled into its callers, and works when the
callers are loaded from numba's cache in a later process; a kernel's calls to itself
(``itself``) recurse as numba's recursion does, without numba typing a recursion."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest
from numba import njit, types

from oddsbot.kernels.unlinked import itself, unlinked


@njit(types.int64(types.int64, types.int64[:]))
def _weighted(k, xs):
    if k < 0:
        raise IndexError("k below 0")
    total = 0
    for i in range(xs.size):
        total += (i + k) * xs[i]
    return total


_called = unlinked(_weighted, "oddsbot.tests.weighted")


@njit
def _through_symbol(k, xs):
    return _called(k, xs) + 1


@njit
def _linked(k, xs):
    return _weighted(k, xs) + 1


def _by_hand(k: int, xs: np.ndarray) -> int:
    return sum((i + k) * int(x) for i, x in enumerate(xs)) + 1


@pytest.mark.parametrize("k", [0, 1, 7])
def test_the_call_gives_what_a_direct_call_gives(k):
    xs = np.arange(5, dtype=np.int64) * 3 - 4
    assert _through_symbol(k, xs) == _linked(k, xs) == _by_hand(k, xs)


def test_a_literal_argument_is_converted():
    xs = np.ones(3, dtype=np.int64)

    @njit
    def caller(xs):
        return _called(2, xs)

    assert caller(xs) == 2 + 3 + 4


def test_an_exception_passes_up():
    with pytest.raises(IndexError, match="k below 0"):
        _through_symbol(-1, np.ones(2, dtype=np.int64))


def test_the_callers_hold_a_call_not_a_copy():
    xs = np.ones(2, dtype=np.int64)
    _through_symbol(1, xs), _linked(1, xs)
    through, linked = (next(iter(f.inspect_llvm().values())) for f in
                       (_through_symbol, _linked))
    assert "k below 0" in linked  # the kernel's code, its message with it
    assert "k below 0" not in through
    assert "declare i32 @oddsbot.tests.weighted(" in through


_down_again = itself(types.int64(types.int64), lambda n: _down(n))


@njit(types.int64(types.int64))
def _down(n):
    """The number of calls from ``n`` down to 0 (0 at 0); below 0, an error at once."""
    if n < 0:
        raise ValueError("n below 0")
    return 0 if n == 0 else 1 + _down_again(n - 1) + 0 * _down_again(n // 2)


def _down_naive(n: int) -> int:
    return 0 if n == 0 else 1 + _down_naive(n - 1)


@pytest.mark.parametrize("n", [0, 1, 2, 10, 25])
def test_a_kernel_calling_itself_recurses(n):
    assert _down(n) == _down_naive(n) == n


def test_the_call_to_itself_is_a_direct_call_and_its_exception_passes_up():
    (code,) = _down.inspect_llvm().values()
    name = _down.overloads[_down.signatures[0]].fndesc.llvm_func_name
    assert code.count(f"call i32 @{name}(") >= 2  # both calls, to the kernel itself

    @njit
    def caller(n):
        return _down(n)

    with pytest.raises(ValueError, match="n below 0"):
        caller(-1)


def test_numba_types_no_recursion(monkeypatch):
    from numba.core import typeinfer

    partial = typeinfer.TypeInferer.return_types_from_partial
    resumed = []

    def counted(self):
        resumed.append(1)
        return partial(self)

    monkeypatch.setattr(typeinfer.TypeInferer, "return_types_from_partial", counted)
    again = itself(types.int64(types.int64), lambda n: through(n))

    @njit(types.int64(types.int64))
    def through(n):
        return n if n < 2 else again(n - 1) + again(n - 2)

    assert resumed == [] and through(10) == 55

    @njit(types.int64(types.int64))
    def direct(n):
        return n if n < 2 else direct(n - 1) + direct(n - 2)

    assert resumed and direct(10) == 55  # (the check can fail: numba's own recursion)


def test_a_call_to_itself_from_a_kernel_of_another_type_is_refused():
    @njit
    def other(x):
        return _down_again(3) + x

    with pytest.raises(TypeError, match="not of that type"):
        other(1.0)


MODULE = """
import numpy as np
from numba import njit, types
from oddsbot.kernels.unlinked import itself, unlinked

@njit(types.float64(types.float64[:]), cache=True)
def norm2(xs):
    return (xs * xs).sum()

call_norm2 = unlinked(norm2, "oddsbot.tests.norm2")

down_again = itself(types.int64(types.int64), lambda n: down(n))

@njit(types.int64(types.int64), cache=True)
def down(n):
    return 0 if n == 0 else 1 + down_again(n - 1)

@njit(cache=True)
def caller(xs):
    return call_norm2(xs) / 2.0 + down(4)
"""

RUN = """
import sys
import numpy as np
sys.path.insert(0, sys.argv[1])
import cached_pair
print(cached_pair.caller(np.array([1.0, 2.0, 3.0])),
      sum(cached_pair.caller.stats.cache_hits.values()))
"""


def test_cached_callers_find_the_kernel_in_a_later_process(tmp_path):
    (tmp_path / "cached_pair.py").write_text(textwrap.dedent(MODULE))
    env_cache = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def run() -> list[str]:
        import os
        done = subprocess.run([sys.executable, "-c", RUN, str(tmp_path)], check=True,
                              capture_output=True, text=True, env={**os.environ, **env_cache})
        return done.stdout.split()

    assert run() == ["11.0", "0"]  # compiled and cached
    assert run() == ["11.0", "1"]  # the caller loaded from the cache, the kernels found


def test_with_the_jit_disabled_the_kernel_itself_is_called(monkeypatch):
    from numba.core import config

    def plain(k):
        return k + 1

    monkeypatch.setattr(config, "DISABLE_JIT", True)
    assert unlinked(plain, "oddsbot.tests.plain") is plain
    assert itself(types.int64(types.int64), plain) is plain
