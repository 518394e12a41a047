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
