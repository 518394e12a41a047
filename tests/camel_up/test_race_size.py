"""The exact race's states counted without its kernel (``race_size``, docs/games/camel-up.md
§9.1 "Budget"): the same count and the same refusals as ``race_exact`` on random legal
positions and budgets, hand-worked races, and ``advise`` refusing a fresh race without
calling the kernel."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from oddsbot.analyser.camel_up import face as cu
from oddsbot.analyser.camel_up import odds as O
from oddsbot.kernels import camel_up as K
from oddsbot.kernels.camel_up import exact_race as X
from oddsbot.kernels.camel_up.leg import _pack, _unpack
from oddsbot.kernels.camel_up.race_size import canonical_keys, leg_starts, race_states

from positions import late_race_position, random_position

NONE = np.zeros(0, dtype=np.int64)
TOLERANCE = 1e-15


def kernel(track, tile, mask, leg_left, full, max_states, too_big=NONE) -> tuple[int, int]:
    """``race_exact``'s (states, culprit); states None when it did not converge."""
    _, states, _, change, culprit = K.race_exact(track, tile, mask, leg_left, full, max_states,
                                                 TOLERANCE, 10_000, too_big)
    return (None if change > TOLERANCE else states), culprit


def ncam(track) -> int:
    return K.N_CAMELS if track[K.SP + K.WHITE] != K.ABSENT else K.N_RACING


positions = st.one_of(
    st.builds(random_position, st.integers(1, 10**6), st.just(4),
              st.sampled_from(["camel-up", "camel-up-2014"]), st.integers(0, 60)),
    st.builds(late_race_position, st.integers(1, 10**6), st.just(4),
              st.sampled_from(["camel-up", "camel-up-2014"]), st.integers(12, 16)))
late_races = st.builds(late_race_position, st.integers(1, 10**6), st.just(4),
                       st.sampled_from(["camel-up", "camel-up-2014"]), st.integers(14, 16))


@settings(max_examples=30, deadline=None)
@given(positions, st.integers(0, 63))
def test_canonical_keys_are_the_kernels(pos, dice):
    """On the position's camels and on every leg start of its current leg (whose chances
    and those of the race ending in it add up to 1)."""
    track, tiles, mask, leg_left, full = O.race_inputs(pos)
    configs, chances = leg_starts(track, tiles, mask, leg_left, full)
    ended = K.race_exact(track, tiles, mask, leg_left, full, 0, TOLERANCE, 1, NONE)[0]
    assert abs(chances.sum() + ended[0].sum() - 1) <= 1e-12
    packed = np.append(configs, _pack(track))
    masks = np.full(len(packed), full, dtype=np.int64)
    masks[-1] = dice
    tr = np.zeros(K.TRACK_SIZE, dtype=np.int64)
    order = np.zeros(K.N_CAMELS, dtype=np.int64)
    label = np.zeros(K.N_RACING, dtype=np.int64)
    want = []
    for key, m in zip(packed, masks):
        _unpack(key, tr)
        want.append(X.canonical(tr, m, ncam(track), order, label))
    assert canonical_keys(packed, masks, ncam(track)).tolist() == want


@settings(max_examples=150, deadline=None)
@given(st.one_of(positions, late_races), st.sampled_from([1, 2, 30, 300, 3_000, 30_000,
                                                           100_000, 400_000]))
def test_the_count_and_the_refusal_are_the_kernels(pos, max_states):
    """Budgets from 1 state to the default, so that both sides are hit (the events): the
    count (``race_states``) is ``race_exact``'s number of states, or -1 exactly when that
    is; a leg start it names reaches more than ``max_states`` states on its own
    (``closure`` from it alone says so), and known too big it makes both refuse."""
    track, tiles, mask, leg_left, full = O.race_inputs(pos)
    states, culprit = race_states(track, tiles, mask, leg_left, full, max_states, NONE)
    want, _ = kernel(track, tiles, mask, leg_left, full, max_states)
    event(f"{'fits' if states >= 0 else 'over'}, {'a' if culprit >= 0 else 'no'} culprit")
    if want is not None:  # (a race that does not converge is refused after the search)
        assert states == want
    if culprit >= 0:
        assert X.closure(np.array([culprit]), ncam(track), full, leg_left, max_states)[1] == -2
        known = np.array([culprit])
        assert race_states(track, tiles, mask, leg_left, full, max_states, known) == (-1, -1)
        assert kernel(track, tiles, mask, leg_left, full, max_states, known)[0] == -1


def stack_2014(space: int) -> np.ndarray:
    """A 2014 track: the five racing camels stacked on ``space``, camel 0 at the bottom."""
    tr = np.zeros(K.TRACK_SIZE, dtype=np.int64)
    tr[K.SP:K.SP + K.N_CAMELS] = K.ABSENT
    tr[K.SP:K.SP + K.N_RACING] = space
    tr[K.HT:K.HT + K.N_RACING] = np.arange(K.N_RACING)
    tr[K.CNT + space] = K.N_RACING
    return tr


@pytest.mark.parametrize("space, dice, states", [
    (16, 31, 0),  # a fresh leg: every reveal carries a unit across the line
    (15, 1, 1),  # the bottom die: 16 (a leg start, every reveal from it ends), or across
    (14, 1, 32),  # worked out in the test's docstring
])
def test_hand_worked_2014_stacks(space, dice, states):
    """All five camels stacked on ``space``, the dice ``dice`` in the pyramid (2014: five
    dice, all revealed each leg). From 14 with the bottom die left, the leg ends with the
    stack on 15 or 16 (2 leg starts). From 16 every reveal ends the race. From 15, a
    camel's die moves it and the camels above it to 16 (face 1) or across: after b such
    reveals the camels on 16 are b units of sizes s_1..s_b taken bottom first, each unit's
    bottom camel with its die out, the rest on 15: one state per composition of 1..5
    camels into b <= 4 parts (b = 5 ends the leg: all on 16, the leg start again),
    1 + 2 + 4 + 8 + 15 = 30; with the 2 leg starts, 32."""
    tile = np.zeros(K.N_SPACES + 2, dtype=np.int64)
    args = (stack_2014(space), tile, dice, 0, 31, 400_000)
    assert race_states(*args, NONE) == (states, -1)
    assert kernel(*args)[0] == states


def test_the_budget_is_exceeded_by_one_state():
    """The late example has 76,606 states (docs/games/camel-up.md §9.1): a budget of that
    many fits, one fewer does not."""
    pos = cu.parse(open("examples/camel-up-late-race.json").read())
    inputs = O.race_inputs(pos)
    assert race_states(*inputs, 76_606, NONE)[0] == 76_606
    assert race_states(*inputs, 76_605, NONE)[0] == -1
    assert kernel(*inputs, 76_605)[0] == -1


def test_a_fresh_race_is_refused_without_the_kernel(monkeypatch):
    """The README's main position (a fresh 2nd-edition race) is over the default budget:
    ``exact_race_odds`` says so without calling ``race_exact`` (so a first ``advise`` does
    not compile it); a race that fits is still solved by it, with the same answer."""
    def no_kernel(*args):
        raise AssertionError("race_exact called")

    O._exact.cache_clear()
    monkeypatch.setattr(O, "_last_fitted", False)
    monkeypatch.setattr(K, "race_exact", no_kernel)
    start = cu.parse(open("examples/camel-up-start-4p.json").read())
    assert O.exact_race_odds(start) is None
    monkeypatch.undo()
    O._exact.cache_clear()
    late = cu.parse(open("examples/camel-up-late-race.json").read())
    exact = O.exact_race_odds(late)
    odds, states, _, _, _ = K.race_exact(*O.race_inputs(late), 400_000, TOLERANCE, 10_000,
                                         NONE)
    assert exact.states == states == 76_606
    assert exact.win.tolist() == odds[0].tolist() and exact.lose.tolist() == odds[1].tolist()
