"""``p_best`` (analyser/equity.py): each candidate's chance of truly being the best, from
the normal approximation of the candidates' mean wins. Candidates with identical rollouts
share one draw and split it evenly, so the split does not hang on how the machine's
linear algebra rounds a singular covariance (two orders of the same two actions printed
0.216 / 0.220 on one machine and 0.220 / 0.216 on another)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from oddsbot.analyser.equity import P_BEST_DRAWS, p_best


def _wins(seed: int, n: int, a: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.random((n, a)) < rng.uniform(0.1, 0.6, a)).astype(float)


def _reference(win: np.ndarray, seed: int) -> np.ndarray:
    """The formula on distinct columns, written out: draws from the normal approximation,
    the share of each argmax."""
    n = win.shape[0]
    rng = np.random.default_rng([seed, 0x70BE57])
    draws = rng.multivariate_normal(win.mean(axis=0), np.cov(win, rowvar=False) / n,
                                    size=P_BEST_DRAWS, method="eigh", check_valid="ignore")
    draws += rng.uniform(0, 1e-12, size=draws.shape)
    return np.bincount(draws.argmax(axis=1), minlength=win.shape[1]) / P_BEST_DRAWS


@given(st.integers(0, 2**32 - 1), st.integers(2, 6))
def test_distinct_candidates_are_the_formula(seed, a):
    win = _wins(seed, 200, a)
    if len(np.unique(win, axis=1).T) == a:
        assert np.array_equal(p_best(win, seed), _reference(win, seed))


@given(st.integers(0, 2**32 - 1), st.integers(2, 5), st.data())
def test_identical_candidates_split_their_share_evenly(seed, a, data):
    """Copies of a candidate inserted anywhere after it (so the distinct candidates keep
    their order, which fixes the draws): each copy gets an equal part of what the
    candidate gets alone, and the others keep theirs exactly."""
    win = _wins(seed, 200, a)
    if len(np.unique(win, axis=1).T) < a:
        return
    alone = p_best(win, seed)
    copied = data.draw(st.integers(0, a - 1))
    copies = data.draw(st.integers(1, 3))
    where = sorted(data.draw(st.lists(st.integers(copied + 1, a), min_size=copies, max_size=copies)))
    cols = list(range(a))
    for k, w in enumerate(where):
        cols.insert(w + k, copied)
    shares = p_best(win[:, cols], seed)
    mine = [i for i, c in enumerate(cols) if c == copied]
    assert np.allclose(shares[mine], alone[copied] / len(mine), rtol=0, atol=1e-15)
    others = [i for i, c in enumerate(cols) if c != copied]
    assert np.array_equal(shares[others], alone[[cols[i] for i in others]])
    assert abs(shares.sum() - 1) < 1e-12


def test_all_candidates_identical():
    win = np.repeat(_wins(3, 50, 1), 3, axis=1)
    assert np.array_equal(p_best(win, 1), np.full(3, 1 / 3))
