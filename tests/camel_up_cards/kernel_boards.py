"""Boards of the naive reference (``naive_cards``) as kernel track arrays and back, and a
hypothesis strategy for random legal boards (docs/games/camel-up-cards.md §0, §5)."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from naive_cards import CAMELS, FULL_SET, figure_spaces, new_board
from oddsbot.kernels.camel_up_cards import track as T

TYPES = [c + v for c in CAMELS for v in "12"]  # kernel card type t is TYPES[t]


def to_track(board: dict) -> np.ndarray:
    """The kernel track of a naive board."""
    tr = np.zeros(T.TRACK_SIZE, dtype=np.int64)
    line = board["start"]
    for i, camel in enumerate(line):
        c = CAMELS.index(camel)
        tr[T.SP + c], tr[T.HT + c] = 0, len(line) - 1 - i
    tr[T.CNT] = len(line)
    spots = dict(board["stacks"])
    if board["finish"]:
        spots[board["L"] + 1] = board["finish"]
    for space, stack in spots.items():
        for h, camel in enumerate(stack):
            c = CAMELS.index(camel)
            tr[T.SP + c], tr[T.HT + c] = space, h
        tr[T.CNT + space] = len(stack)
    tr[T.FOX] = board["fox"] or 0
    tr[T.PALM] = board["palm"] or 0
    tr[T.FOX_HOLDER] = -1 if board["fox"] is None else 0
    tr[T.PALM_HOLDER] = -1 if board["palm"] is None else 0
    tr[T.LAST] = board["L"]
    tr[T.FINISHED] = 1 if board["finish"] else 0
    tr[T.N_CARDS] = len(board["cards"])
    tr[T.CARD:T.CARD + len(board["cards"])] = board["cards"]
    return tr


def from_track(tr: np.ndarray) -> dict:
    """The naive board of a kernel track."""
    last = int(tr[T.LAST])
    board = {"L": last, "cards": [int(x) for x in tr[T.CARD:T.CARD + tr[T.N_CARDS]]],
             "stacks": {}, "start": [], "fox": int(tr[T.FOX]) or None,
             "palm": int(tr[T.PALM]) or None, "finish": None}
    spots: dict[int, list[tuple[int, str]]] = {}
    for c, camel in enumerate(CAMELS):
        spots.setdefault(int(tr[T.SP + c]), []).append((int(tr[T.HT + c]), camel))
    for space, camels in spots.items():
        stack = [camel for _, camel in sorted(camels)]
        if space == 0:
            board["start"] = stack[::-1]
        elif space == last + 1:
            board["finish"] = stack
        else:
            board["stacks"][space] = stack
    return board


def rank_of(order: tuple[str, ...]) -> int:
    """The kernel's ranking index of a ranking (camels 1st..5th)."""
    perms = T.perm_orders()
    want = [CAMELS.index(c) for c in order]
    return int(next(i for i in range(120) if list(perms[i]) == want))


@st.composite
def boards(draw, figures: bool = True, max_space: int | None = None) -> dict:
    """A random legal board mid-race: L 15..19 on two-space cards (some turned to the
    sandstorm side), camels anywhere on 0..L (``max_space`` caps it), figures on legal
    spaces."""
    last = draw(st.integers(15, 19))
    board = new_board(last)
    turned = draw(st.lists(st.booleans(), min_size=len(board["cards"]),
                           max_size=len(board["cards"])))
    board["cards"] = [1 if t and i < len(turned) - 1 else 2 for i, t in enumerate(turned)]
    board["L"] = sum(board["cards"]) - draw(st.integers(0, 1))
    top = board["L"] if max_space is None else min(board["L"], max_space)
    spaces = draw(st.lists(st.integers(0, top), min_size=5, max_size=5))
    order = draw(st.permutations(CAMELS))
    board["start"] = [c for c, s in zip(order, spaces) if s == 0]
    for camel, space in zip(order, spaces):
        if space:
            board["stacks"].setdefault(space, []).append(camel)
    if figures:
        for fig in ("fox", "palm"):
            free = figure_spaces(board)
            if free and draw(st.booleans()):
                board[fig] = draw(st.sampled_from(free))
    return board


def counts(cards: list[str]) -> np.ndarray:
    """Cards as kernel type counts."""
    out = np.zeros(len(TYPES), dtype=np.int64)
    for card in cards:
        out[TYPES.index(card)] += 1
    return out


def full_counts() -> np.ndarray:
    return counts(FULL_SET)
