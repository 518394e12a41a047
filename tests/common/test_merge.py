"""``kernels.merge``: states merged by key, against a plain dict (with growth from a tiny
table, colliding keys and a fixed first-seen order)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from oddsbot.kernels import merge


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(0, 2**40), st.floats(0, 1)),
                max_size=300))
def test_a_level_sums_like_a_dict(items):
    keys, vals, index = merge.level(2)
    n = 0
    want: dict[tuple[int, int], float] = {}
    for a, b, v in items:
        keys, vals, index, n = merge.add(keys, vals, index, n, a, b, v)
        want[(a, b)] = want.get((a, b), 0.0) + v
    assert [(int(k[0]), int(k[1])) for k in keys[:n]] == list(want)  # first-seen order
    assert list(vals[:n]) == list(want.values())
    for (a, b), _ in want.items():
        assert merge.find(keys, index, a, b) >= 0
    assert merge.find(keys, index, 99, 99) == -1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(0, 2**40), st.floats(0, 1)),
                max_size=300))
def test_put_with_doubled_fills_a_level_as_add_does(items):
    """``put`` into a level grown by the caller (``doubled`` when full) gives ``add``'s
    rows, values and row numbers."""
    keys, vals, index = merge.level(2)
    ref_keys, ref_vals, ref_index = merge.level(2)
    n = ref_n = 0
    for a, b, v in items:
        if n == keys.shape[0]:
            keys, vals, index = merge.doubled(keys, vals, n)
        n, row = merge.put(keys, vals, index, n, a, b, v)
        ref_keys, ref_vals, ref_index, ref_n, ref_row = merge.add_row(
            ref_keys, ref_vals, ref_index, ref_n, a, b, v)
        assert (n, row) == (ref_n, ref_row)
    assert np.array_equal(keys[:n], ref_keys[:n]) and np.array_equal(vals[:n], ref_vals[:n])
    for a, b, _ in items:
        assert merge.find(keys, index, a, b) == merge.find(ref_keys, ref_index, a, b) >= 0
