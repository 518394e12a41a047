"""The labels of Mumia's choices (docs/games/mumia.md §16.1): ``pawn 2``,
``pawn 2, take luck from B``, ``guardian 5``, ``mummy``, ``token push 7``,
``token swap 3 4 B``, ``token bottom``, ``<move> + token extra``, and ``pass`` where no
move is legal (§11.7)."""

from __future__ import annotations

import numpy as np

from ...kernels.mumia import choices as C
from ...kernels.mumia import layout as L
from ...kernels.mumia.moves import PIECE_GUARDIAN, PIECE_MUMMY
from .notation import seat_letter

HAT_WORDS = {1: "take luck from", 2: "take bad from", 3: "give luck to", 4: "give bad to",
             5: "swap hats with"}
EXTRA = " + token extra"
SYMBOLS = ("P", "M", "PM")
# what the picture die shows, in words (docs/games/mumia.md §16.1): a pawn (its cone is read
# as a pyramid too), the mummy, or both; any case, beside the letters
SYMBOL_WORDS = {"pawn": "P", "pyramid": "P", "mummy": "M", "both": "PM", "pawn+mummy": "PM",
                "pyramid+mummy": "PM", "mummy+pawn": "PM", "mummy+pyramid": "PM"}


def index_of(S: np.ndarray, fid: int) -> int:
    """Field id ``fid`` as people count fields (0 START .. k+1 FINISH)."""
    return int(L.field_index(S, fid))


def label(S: np.ndarray, row: np.ndarray) -> str:
    """The label of choice ``row`` (``kernels/mumia/choices.py``) in state ``S``."""
    kind = int(row[0])
    if kind == C.C_PAWN:
        text = f"pawn {int(row[2])}"
        if row[3]:
            text += f", {HAT_WORDS[int(row[3])]} {seat_letter(int(row[4]))}"
    elif kind == C.C_GUARDIAN:
        text = f"guardian {index_of(S, int(row[2]))}"
    elif kind == C.C_MUMMY:
        text = "mummy"
    elif kind == C.C_PUSH:
        text = f"token push {index_of(S, int(row[1]))}"
    elif kind == C.C_SWAP:
        piece = int(row[3])
        who = ("guardian" if piece == PIECE_GUARDIAN else "mummy" if piece == PIECE_MUMMY
               else seat_letter(piece))
        text = (f"token swap {index_of(S, int(S[L.S_PAWN + int(row[1])]))} "
                f"{index_of(S, int(row[2]))} {who}")
    elif kind == C.C_BOTTOM:
        text = "token bottom"
    else:
        text = "pass"
    return text + (EXTRA if row[5] else "")


def piece_field(S: np.ndarray, row: np.ndarray) -> int | None:
    """The field the piece choice ``row`` moves stands on (the table's ``on``): the pawn
    (``pawn K``, ``token swap``), the guardian, the mummy, or the pushed field; None for
    ``token bottom`` and ``pass``."""
    kind = int(row[0])
    if kind in (C.C_PAWN, C.C_SWAP):
        return index_of(S, int(S[L.S_PAWN + int(row[1])]))
    if kind == C.C_GUARDIAN:
        return index_of(S, int(row[2]))
    if kind == C.C_MUMMY:
        return index_of(S, int(S[L.S_MUMMY]))
    if kind == C.C_PUSH:
        return index_of(S, int(row[1]))
    return None


def roll_text(n: int, sym: int) -> str:
    """``4,PM``, or ``4`` once the mummy has left (the picture die with it)."""
    return str(n) if sym == L.SYM_NONE else f"{n},{SYMBOLS[sym]}"


def read_roll(text: str, mummy_in_play: bool) -> tuple[int, int]:
    """(number, symbol) of ``--roll`` text; ValueError with the reason."""
    number, _, symbol = text.strip().partition(",")
    if number not in ("1", "2", "3", "4", "5", "6"):
        raise ValueError(f"the number die shows 1 to 6, got {number[:10]!r}")
    if not mummy_in_play:
        if symbol:
            raise ValueError("the mummy has left, and the picture die with it: give the "
                             "number only")
        return int(number), L.SYM_NONE
    symbol = SYMBOL_WORDS.get(symbol.strip().lower(), symbol.strip().upper())
    if symbol not in SYMBOLS:
        raise ValueError("the mummy is in play: give the picture die too, as N,P / N,M / "
                         "N,PM (or N,pawn / N,mummy / N,both)" if not symbol else
                         f"the picture die shows P (a pawn), M (the mummy) or PM (both), or "
                         f"in words {', '.join(SYMBOL_WORDS)}; got {symbol[:14]!r}")
    return int(number), SYMBOLS.index(symbol)
