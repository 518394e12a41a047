"""Five Tribes' kernels compiled ahead of use (``WarmUpFace`` of ``analyser/face.py``): each
unit runs the functions the commands call, on a new 4-player opening."""

from __future__ import annotations

from dataclasses import replace

from .advise import advise
from .face import moves, odds
from .position import Position
from .setup import new_position
from .simulate import simulate

UNITS = {
    "advise": "advise, new: every complete turn and the bid values",
    "moves": "moves, odds: the sowing counts and sequences",
    "play": "new --play: whole games, every marker greedy",
}


def _empty_board(pos: Position) -> Position:
    """``pos`` without a meeple on the board: no legal sowing, so a game from it ends
    after its first round (docs/games/five-tribes.md §13)."""
    return pos.with_(board=tuple(tuple(replace(cell, meeples="") for cell in row)
                                 for row in pos.board))


def warm(unit: str) -> None:
    """Compile (or load from the numba cache) the kernels of ``unit``."""
    pos = new_position(4, 0)
    if unit == "advise":
        advise(pos)  # bidding: the greedy turns behind the bid values, and turns(merge)
    elif unit == "moves":
        moves(pos)
        odds(pos)
    elif unit == "play":
        simulate(_empty_board(pos), seed=0)
    else:
        raise ValueError(f"five-tribes has no warm-up unit {unit!r}")
