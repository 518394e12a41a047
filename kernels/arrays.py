"""Array copies without numba's slice assignment.

``out[a:b] = src``, an array into a slice, makes numba compile the error message it
raises on a shape mismatch: string formatting, about two seconds in every process that
uses it (docs/benchmarks.md, "First run"). Kernels copy arrays with these loops instead.
"""

import numpy as np
from .jit import njit


@njit(cache=True, inline="always")
def copy_into(dst, src):
    """``dst[:] = src`` for 1-D arrays of one length."""
    for i in range(len(src)):
        dst[i] = src[i]


@njit(cache=True)
def grown(a, rows):
    """The C-contiguous array ``a`` in a new array of ``rows`` rows (at least its own),
    zeros after them."""
    out = np.zeros((rows,) + a.shape[1:], dtype=a.dtype)
    copy_into(out.reshape(out.size), a.reshape(a.size))
    return out
