"""The re-roll table's branch-and-bound search (``bound.best_value``,
docs/games/kingdom-run.md §15.2) against the full search (``turns.search`` with no budget):
the same best default evaluation, exactly (both are whole numbers: equal as int64, so bit
for bit); ``upper_bound`` never below the best of the rest of the turn; the keep-set rows
the old search (4,000 states) valued exactly keep their values bit for bit.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import kernel_adapter as ka
import naive_kingdom_run as kr
from oddsbot.analyser.kingdom_run.advise import SEARCH_BUDGET
from oddsbot.analyser.kingdom_run.encode import rules_vector, state_vector
from oddsbot.analyser.kingdom_run.position import Position
from oddsbot.analyser.kingdom_run.record import parse_record, replay
from oddsbot.analyser.kingdom_run.rules import Rules
from oddsbot.analyser.kingdom_run.simulate import new_position
from oddsbot.analyser.kingdom_run.turns import keep_rows
from oddsbot.kernels.kingdom_run import actions as A
from oddsbot.kernels.kingdom_run import bound as B
from oddsbot.kernels.kingdom_run import game as G
from oddsbot.kernels.kingdom_run import layout as L
from oddsbot.kernels.kingdom_run import reroll
from oddsbot.kernels.kingdom_run import turns as T
from oddsbot.kernels.kingdom_run.policies import greedy_value
from .test_kernel import VARIANTS, random_position

ROOT = Path(__file__).resolve().parents[2]
LOW = -(1 << 40)
FULL = 400_000  # states: a position whose full search is larger is not drawn


def full_best(S: np.ndarray, R: np.ndarray) -> int | None:
    """The full search's best, or None past ``FULL`` states."""
    *_, best, complete = T.search(S, R, 0, FULL)
    return int(best) if complete else None


def agrees(S: np.ndarray, R: np.ndarray, drawn: bool = True) -> int:
    """best_value equals the full search's best from no incumbent and from greedy's, and
    the bound is at least it; returns the best. A ``drawn`` position whose full search
    is too large is not used; another must not be."""
    best = full_best(S, R)
    if drawn:
        assume(best is not None)
    assert best is not None
    for incumbent in (LOW, int(greedy_value(S, R))):
        value, complete, _ = B.best_value(S, R, 0, incumbent)
        assert complete and int(value) == best, (incumbent, value, best)
    work = np.empty(B.B_SIZE, dtype=np.int64)
    assert B.upper_bound(S, R, S[L.S_TO_MOVE], work) >= best
    return best


def walk(S: np.ndarray, R: np.ndarray, rng: random.Random) -> list[np.ndarray]:
    """The states along a random legal sequence of the rest of the turn."""
    out = [S.copy()]
    rows = np.empty((T.MAX_ACTIONS, A.A_COLS), dtype=np.int64)
    W = S.copy()
    while True:
        m = min(A.legal_actions(W, R, rows), T.MAX_ACTIONS)
        if m == 0:
            return out
        A.apply_action(W, R, rows[rng.randrange(m)])
        out.append(W.copy())


@st.composite
def crowded(draw):
    """Random legal positions after the re-roll as the kernel tests draw them, with up
    to two dice that can scatter and up to 10 awake runners."""
    params = kr.make_params(**draw(st.sampled_from(VARIANTS)))
    params["dice"] = draw(st.sampled_from((4, 4, 3, 2)))
    players = draw(st.integers(2, 4))
    rng = random.Random(draw(st.integers(0, 2 ** 32)))
    return random_position(rng, params, players, max_awake=draw(st.integers(2, 10)),
                           max_scatter=2), rng


@settings(max_examples=120, deadline=None)
@given(crowded())
def test_best_value_is_the_full_search_best(drawn):
    pos, rng = drawn
    _like, S, R = ka.encode(pos)
    agrees(S, R)
    for state in walk(S, R, rng)[1:]:  # mid-turn: the bound holds on the way too
        best = full_best(state, R)
        if best is not None:
            work = np.empty(B.B_SIZE, dtype=np.int64)
            assert B.upper_bound(state, R, state[L.S_TO_MOVE], work) >= best
            assert int(B.best_value(state, R, 0, LOW)[0]) == best


def final_roll(S: np.ndarray, faces: str) -> np.ndarray:
    W = S.copy()
    W[L.S_ROLL:L.S_ROLL + len(faces)] = ["SCBTZY".index(f) for f in faces]
    W[L.S_HAS_ROLL] = 1
    W[L.S_REROLLED] = 1
    return W


@pytest.mark.parametrize("faces", ["SCTT", "SBTT", "STTZ", "SBBB", "SCCC", "CCBZ", "CBBZ",
                                   "CBTY", "BTZY", "CTZY", "BBZY"])
def test_set_up_final_rolls(faces):
    """Hand-picked final rolls of the crowded 4-player set-up, where the greedy value is
    the best and the bound must prove it."""
    R = rules_vector(Rules())
    agrees(final_roll(G.new_game(R, 4), faces), R, drawn=False)


def test_mid_game_example():
    pos = Position.from_json(json.loads((ROOT / "examples/kingdom-run-mid-4p.json")
                                        .read_text()))
    agrees(state_vector(pos), rules_vector(pos.rules), drawn=False)


def old_keep_values(S: np.ndarray, R: np.ndarray, keeps: np.ndarray, budget: int):
    """The re-roll table as valued before the bound: the full search within ``budget``
    states, else the greedy value (rows marked inexact)."""
    values, exact = [], []
    memo: dict[str, tuple[int, bool]] = {}
    for row in keeps:
        k = int(R[L.R_NDICE]) - int(row.sum())
        acc, ok, total = 0, True, 0
        for digits in itertools.product(range(int(R[L.R_NFACES])), repeat=k):
            counts = row.copy()
            for d in digits:
                counts[R[L.R_FACES + d]] += 1
            faces = "".join("SCBTZY"[f] * int(counts[f]) for f in range(6))
            if faces not in memo:
                W = final_roll(S, faces)
                *_, best, complete = T.search(W, R, 0, budget)
                memo[faces] = (int(best) if complete else int(greedy_value(W, R)),
                               bool(complete))
            value, complete = memo[faces]
            acc += value
            ok &= complete
            total += 1
        values.append(acc / total)
        exact.append(ok)
    return values, exact


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 4), (4, 2)])
def test_exact_rows_unchanged(players, seed):
    """Rows exact before stay exact with the same float, bit for bit; the new table has
    no fewer exact rows."""
    pos = new_position(players, seed)
    S, R, keeps = state_vector(pos), rules_vector(pos.rules), keep_rows(pos)
    before, was_exact = old_keep_values(S, R, keeps, 4_000)
    after, exact, _, _ = reroll.keep_values(S, R, keeps, SEARCH_BUDGET)
    for i, ok in enumerate(was_exact):
        if ok:
            assert exact[i] and after[i] == before[i]
        else:
            assert after[i] >= before[i]  # the greedy lower bound or the true value
    assert exact.sum() >= sum(was_exact)


@pytest.mark.parametrize("turn,faces", [(15, "SCBY"), (16, "SCBY"), (17, "SSCC"),
                                        (17, "SSCB")])
def test_bound_reads_no_stale_scratch(turn, faces):
    """Regression (the replay of examples/kingdom-run-game-4p.record crashed inside
    ``keep_values``): after a Scatter that may cross the line, ``_front`` read the
    reach of a count of actions never reached (-1) as a space, and so scratch past the
    arrays' ends. The bound must not depend on what ``work`` held before."""
    text = (ROOT / "examples/kingdom-run-game-4p.record").read_text()
    pos = replay(parse_record(text))[turn][1].keep_at
    S, R = final_roll(state_vector(pos), faces), rules_vector(pos.rules)
    me = S[L.S_TO_MOVE]
    clean = B.upper_bound(S, R, me, np.zeros(B.B_SIZE, dtype=np.int64))
    stale = B.upper_bound(S, R, me, np.full(B.B_SIZE, LOW, dtype=np.int64))
    assert stale == clean
