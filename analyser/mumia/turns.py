"""One choice at a time through the kernel, for records, logs and labels
(docs/games/mumia.md §3, §11, §16.1).

A turn is a sequence of steps of one seat: any ``token swap``/``token bottom`` (the same
roll), one move (or ``pass`` where none is legal, §11.7), and after a move labelled
``+ token extra`` one more move with a new roll. ``choices`` lists every choice open now
with its label; ``take`` applies one and says whether the turn goes on.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import OddsbotError, quote
from ...kernels.mumia import choices as C
from ...kernels.mumia import layout as L
from ...kernels.mumia.moves import end_turn, spend_token
from .labels import label, read_roll
from .notation import seat_letter

_ROWS = np.empty((C.MAX_CHOICES, C.N_COLS), dtype=np.int64)


def choices(S: np.ndarray, R: np.ndarray, n: int, sym: int, tokens: bool = True
            ) -> tuple[np.ndarray, list[str]]:
    """Every choice of the seat to move for roll (``n``, ``sym``) in canonical order (the
    moves, each again with ``+ token extra`` where it may follow, then with ``tokens``
    the Swaps and Bottom), and their labels."""
    m = int(C.move_choices(S, R, n, sym, _ROWS, True))
    rows = [_ROWS[:m].copy()]
    if tokens:
        k = int(C.token_choices(S, R, n, sym, _ROWS))
        rows.append(_ROWS[:k].copy())
    out = np.concatenate(rows)
    return out, [label(S, r) for r in out]


@dataclass
class Step:
    """What a step did: the mummy tokens it took (values) and whether the turn goes on
    (``extra``: a new roll; ``same_roll``: a token before the move)."""

    mummy: tuple[int, ...]
    extra: bool
    same_roll: bool


def take(S: np.ndarray, R: np.ndarray, row: np.ndarray, n: int) -> Step:
    """Apply choice ``row`` for the seat to move, in place, and pass the dice unless the
    turn goes on."""
    before = int(S[L.S_TAKEN])
    C.apply_choice(S, R, row, n)
    taken = tuple(int(v) for v in R[L.R_MUMMY + before:L.R_MUMMY + int(S[L.S_TAKEN])])
    same_roll = int(row[0]) in (C.C_SWAP, C.C_BOTTOM) and not S[L.S_OVER]
    extra = bool(row[5]) and not S[L.S_OVER]
    if extra:
        spend_token(S, int(S[L.S_TO_MOVE]), L.EXTRA)
    if not same_roll and not extra:
        end_turn(S, R)
    return Step(taken, extra, same_roll)


def step(S: np.ndarray, R: np.ndarray, roll: str, choice: str) -> Step:
    """Take ``choice`` (a label of ``choices``) for roll ``roll`` (``4,PM``, as records
    and labels write it) for the seat to move, in place: the step of a record line and of
    play-along. An unreadable roll or an illegal choice is refused in one line."""
    try:
        n, sym = read_roll(roll, bool(S[L.S_MUMMY] >= 0))
    except ValueError as exc:
        raise OddsbotError(f"roll {quote(roll)}: {exc}") from None
    rows, labels = choices(S, R, n, sym)
    if choice not in labels:
        shown = ", ".join(labels[:8]) + (" …" if len(labels) > 8 else "")
        raise OddsbotError(f"{quote(choice)} is not a legal choice of "
                           f"{seat_letter(int(S[L.S_TO_MOVE]))} for roll {roll} (legal: "
                           f"{shown})")
    return take(S, R, rows[labels.index(choice)], n)
