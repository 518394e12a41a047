"""``kernels/jit.py``: a kernel called with different constants by jitted callers
compiles once, for the plain argument types, and gives the same results."""

from __future__ import annotations

import numpy as np

from oddsbot.kernels.jit import njit


@njit
def _scaled(x, k, flag):
    return x * k + (1 if flag else 0)


@njit
def _callers(x):
    return _scaled(x, 2, True) + _scaled(x, 3, False) + _scaled(x, np.int64(5), True)


def test_constants_share_one_compilation():
    assert _callers(7) == (7 * 2 + 1) + (7 * 3) + (7 * 5 + 1)
    assert len(_scaled.signatures) == 1
    assert "Literal" not in str(_scaled.signatures[0])


@njit
def _item(t, k):
    return t[k]


@njit
def _mixed():
    return _item((1, 2.5), 1) + _item((1, 2.5), 0)


def test_a_kernel_that_needs_its_constants_falls_back_to_them():
    """Indexing a tuple of mixed types needs a constant index: typed with a plain
    ``int64`` the call fails, and the dispatcher falls back to numba's literal
    specialisation, one compilation per constant."""
    assert _mixed() == 3.5
    assert len(_item.signatures) == 2
    assert all("Literal[int]" in str(sig[1]) for sig in _item.signatures)
