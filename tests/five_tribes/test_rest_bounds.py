"""The bounds that let the best rest after a draw skip a sowing
(kernels/five_tribes/rest_bounds.py) hold: on random mid-game positions where the mover
holds djinns and others are on display, every turn of the complete table that uses no
power before the sowing adds, from the state its sowing leaves, at most ``rest_bound``
(whenever no sale changes the total: ``sale_neutral``). The walks that use the bounds are
checked against the naive reference in test_djinn_turns.py."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from five_tribes.test_djinn_turns import djinn_position

from oddsbot.analyser.five_tribes.encode import encode
from oddsbot.kernels import five_tribes as FT
from oddsbot.kernels.five_tribes import rest_bounds as RB
from oddsbot.kernels.jit import njit


@njit  # not cached: numba would keep it after rest_bounds.py changes (kernels/cache_guard.py)
def sown_bound(st, action):
    """(what the sowing of ``action`` adds to the mover's total, what ``rest_bound`` lets
    the rest add: inf when a sale may change the total)."""
    mover = st[FT.TO_MOVE]
    base = st.copy()
    FT.marker_to_bid_track(base)
    before = FT.leaf_value(base, mover, np.zeros(FT.N_PARTS))
    act = np.zeros(FT.ACTION_SIZE, dtype=np.int64)
    FT.clear_action(act)
    n = action[FT.A_LEN]
    FT.play_sowing_of(base, act, mover, action[FT.A_START],
                      action[FT.A_PATH:FT.A_PATH + n].copy(),
                      action[FT.A_COLOURS:FT.A_COLOURS + n].copy(), n)
    now = FT.leaf_value(base, mover, before)[FT.N_PARTS - 1]
    if not RB.sale_neutral(base, mover):
        return now, np.inf
    return now, RB.rest_bound(base, act, mover)


def _pre_sowing_use(action: np.ndarray) -> bool:
    uses = action[FT.A_USES:FT.A_USES + action[FT.A_NUSES] * FT.U_SIZE]
    return bool((uses[FT.U_STEP::FT.U_SIZE] == FT.S_PRE).any())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]),
       stacks=st.integers(4, 8), held=st.integers(1, 3))
@example(seed=1272987056, players=4, stacks=6, held=3)  # 10,670 rows
def test_no_turn_passes_the_bound_of_its_sowing(seed, players, stacks, held):
    s = encode(djinn_position(seed, players, stacks, held))
    table = FT.complete_turns(s, max_rows=50_000)
    assume(table is not None)
    best: dict[bytes, tuple[float, np.ndarray]] = {}
    sowing = slice(FT.A_START, FT.A_TILE)
    for action, parts in zip(table[0], table[1]):
        if action[FT.A_LEN] == 0 or _pre_sowing_use(action):
            continue
        key = action[sowing].tobytes()
        if key not in best or parts[-1] > best[key][0]:
            best[key] = (parts[-1], action)
    assume(best)
    for total, action in best.values():
        now, bound = sown_bound(s, action)
        assert total <= now + bound, (total, now, bound, action[:FT.A_FAKIRS])
