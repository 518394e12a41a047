"""The compiled complete-turn enumeration seen through the naive reference's interface
(``naive_five_tribes_turns``): ``complete_turns(pos)`` -> {position_key: (delta, count)}
and ``result_positions(pos)``, each row's result obtained by playing its action with
``apply_turn`` (rows that end in a draw have no single result: their key is their label).
Checks the kernel's own bookkeeping on the way (the bag it keeps equals the bag derived
from the position; no two rows leave the same state). ``same(pos)``: kernel = naive
row by row, by label, value by part (1e-12: draws are expectations) and count;
``check_greedy(...)``: a turn is the greedy choice."""

from __future__ import annotations

import numpy as np
import naive_five_tribes_turns as naive
from hypothesis import assume
from naive_five_tribes_turns import position_key

from oddsbot.analyser.five_tribes.encode import decode, encode
from oddsbot.analyser.five_tribes.labels import turn_labels
from oddsbot.analyser.five_tribes.position import Position
from oddsbot.kernels import five_tribes as FT


def rows(pos: Position) -> list[tuple[Position | None, tuple[float, ...], int, str]]:
    """(result position or None after a draw, delta, count, label) of every kernel row."""
    st = encode(pos)
    actions, parts, counts = FT.complete_turns(st)
    labels = turn_labels(actions, tuple(cell.tile for _, _, cell in pos.cells()))
    out = []
    for a, p, n, label in zip(actions, parts, counts, labels):
        q = None
        if a[FT.A_END] < 0:
            s = st.copy()
            FT.apply_turn(s, a)
            q = decode(s)
            assert tuple(s[FT.BAG:FT.BAG + FT.N_COLOURS]) == q.bag
            assert tuple(s[FT.RES_DECK:FT.RES_DECK + FT.N_CARD_KINDS]) == q.resource_deck
            assert np.allclose(FT.state_scores(s)[pos.to_move]
                               - FT.state_scores(st)[pos.to_move], p, atol=1e-12)
        out.append((q, tuple(float(x) for x in p), int(n), label))
    return out


def complete_turns(pos: Position) -> dict[tuple, tuple[tuple[float, ...], int]]:
    out = {}
    for q, delta, n, label in rows(pos):
        key = position_key(q) if q is not None else label
        assert key not in out, "two kernel rows leave the same state"
        out[key] = (delta, n)
    return out


def result_positions(pos: Position) -> list[Position]:
    return [q for q, _, _, _ in rows(pos) if q is not None]


def kernel_rows(pos: Position, limit: int | None = None
                ) -> dict[str, tuple[tuple[float, ...], int]] | None:
    """The kernel's table by label (None when it has more than ``limit`` rows)."""
    table = FT.complete_turns(encode(pos), max_rows=limit)
    if table is None:
        return None
    actions, parts, counts = table
    types = tuple(cell.tile for _, _, cell in pos.cells())
    labels = turn_labels(actions, types)
    assert len(set(labels)) == len(labels), "two rows with one label"
    return {label: (tuple(p), int(n)) for label, p, n in zip(labels, parts, counts)}


def same(pos: Position, limit: int | None = None) -> dict:
    """Kernel = naive row by row; with ``limit``, positions whose table has more rows are
    skipped (hypothesis ``assume``: the naive reference would take minutes)."""
    got = kernel_rows(pos, limit)
    if limit is not None:
        assume(got is not None)
    want = naive.turn_rows(pos)
    assert sorted(got) == sorted(want)
    for label, (value, n) in want.items():
        assert got[label][1] == n, label
        assert np.allclose(got[label][0], [float(v) for v in value], rtol=0, atol=1e-12), label
    return got


def _window_uses(actions: np.ndarray, step: int) -> np.ndarray:
    """Per row and use slot: True where the row uses a power in the window ``step``."""
    start = FT.A_USES + FT.U_STEP
    steps = actions[:, start:start + FT.MAX_USES * FT.U_SIZE:FT.U_SIZE]
    used = np.arange(FT.MAX_USES)[None, :] < actions[:, FT.A_NUSES][:, None]
    return (steps == step) & used


def before_the_window(actions: np.ndarray) -> np.ndarray:
    """Each row as far as the window after the tile action: its uses there, its sale and
    a draw there blanked."""
    key = actions.copy()
    post = _window_uses(actions, FT.S_POST)
    for j in range(FT.MAX_USES):
        key[post[:, j], FT.A_USES + j * FT.U_SIZE:FT.A_USES + (j + 1) * FT.U_SIZE] = -1
    key[:, FT.A_NUSES] -= post.sum(axis=1)
    key[:, [FT.A_SALE, FT.A_SALE_GOLD]] = 0
    key[key[:, FT.A_END] == FT.S_POST, FT.A_END] = -1
    return key


def check_greedy(st: np.ndarray, actions: np.ndarray, parts: np.ndarray,
                 action: np.ndarray, value: np.ndarray) -> None:
    """Assert that ``action``, worth ``value``, is the greedy choice (docs/games/five-tribes.md
    §20.9) of the player to move in ``st``, whose table is ``actions``, ``parts``: as far
    as the window after the tile action it is the first best row that uses no power before
    the sowing nor after the tile action; its value is that of the table row of the same
    result (for a turn ending in a draw: of a row ending in the same step's draw); no row
    that the table lists with the same turn before that window is worth more. (Rows are
    merged by result, so the table may list the greedy turn with its payments in another
    order.)"""
    stop = ~(_window_uses(actions, FT.S_PRE) | _window_uses(actions, FT.S_POST)).any(axis=1)
    assert stop.any()  # stopping at both windows is always a choice
    first = int(np.flatnonzero(stop)[np.argmax(parts[stop, -1])])
    key = before_the_window(actions)
    assert (before_the_window(action[None, :])[0] == key[first]).all()
    assert value[-1] >= parts[(key == key[first]).all(axis=1), -1].max()
    if action[FT.A_END] >= 0:  # a row ending in the same draw step, of the same value
        assert ((actions[:, FT.A_END] == action[FT.A_END]) & (parts == value).all(axis=1)).any()
        return
    after = st.copy()
    FT.apply_turn(after, action)
    rows = [i for i in np.flatnonzero((parts == value).all(axis=1)) if actions[i, FT.A_END] < 0]
    results = []
    for i in rows:
        results.append(st.copy())
        FT.apply_turn(results[-1], actions[i])
    assert any((r == after).all() for r in results)
