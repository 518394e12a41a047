"""Words for Five Tribes actions: sowings, complete turns (kernel action rows) and bids.

A complete turn reads ``<sowing>; take <k><colour>[, camel <tile>]; <tribe>; <tile
action>; <sale>`` with the parts that do nothing left out, e.g.
``r2c2>r2c3:Y>r2c4:W; take 2W, camel r2c4; djinn Jafaar (2 elders); sell suit 1``
(cards bought are named with their place in the row, ``buy silk@1+fish@3``). A
sowing is the start tile, then each step's tile and the colour dropped there. A bid is
``bid 18`` ... ``bid 1`` or ``bid 0``.
"""

from __future__ import annotations

import numpy as np

from ...kernels import five_tribes as FT
from .names import CARDS, DJINN_NAMES


def sowing_label(start: int, path, colours) -> str:
    """``r2c2>r2c3:Y>r2c4:W``: the start, then each step's tile and dropped colour."""
    steps = (f"{FT.tile_name(int(t))}:{FT.COLOURS[int(c)]}" for t, c in zip(path, colours))
    return ">".join((FT.tile_name(int(start)), *steps))


def _tribe(a: np.ndarray) -> str | None:
    colour = FT.COLOURS[a[FT.A_COLOUR]]
    fakirs = int(a[FT.A_FAKIRS])
    extra = f" (+{fakirs} fakir{'s' * (fakirs != 1)})" if fakirs else ""
    if colour == "B":
        return f"builders{extra}" if fakirs else None
    if colour != "R":
        return None
    victim = a[FT.A_VICTIM]
    if victim == FT.V_NONE:
        return "no kill"
    if victim == FT.V_BOARD:
        claim = f", camel {FT.tile_name(a[FT.A_VICTIM_AT])}" if a[FT.A_CLAIM2] else ""
        return (f"kill {FT.COLOURS[a[FT.A_VICTIM_COLOUR]]}@{FT.tile_name(a[FT.A_VICTIM_AT])}"
                f"{extra}{claim}")
    held = "vizier" if victim == FT.V_VIZIER else "elder"
    return f"kill p{a[FT.A_VICTIM_AT]}'s {held}{extra}"


def _tile(a: np.ndarray, tile_type: str) -> str | None:
    action = a[FT.A_TILE_ACTION]
    if action == FT.TA_PALM:
        return "palm"
    if action == FT.TA_PALACE:
        return "palace"
    if action == FT.TA_BUY:
        cards = [f"{CARDS[a[FT.A_KIND1]]}@{a[FT.A_CARD1] + 1}"]
        if a[FT.A_CARD2] >= 0:
            cards.append(f"{CARDS[a[FT.A_KIND2]]}@{a[FT.A_CARD2] + 1}")
        return "buy " + "+".join(cards)
    if action == FT.TA_DJINN:
        pay = "elder+fakir" if a[FT.A_DJINN_FAKIR] else "2 elders"
        return f"djinn {DJINN_NAMES[a[FT.A_DJINN_ID]]} ({pay})"
    if action == FT.TA_SKIP:
        return f"skip {tile_type}"
    if tile_type in ("oasis", "village"):
        return f"no {'palm' if tile_type == 'oasis' else 'palace'} left"
    return None


def _take(a: np.ndarray) -> str:
    take = f"take {a[FT.A_TAKEN]}{FT.COLOURS[a[FT.A_COLOUR]]}"
    return take + (f", camel {FT.tile_name(a[FT.A_TILE])}" if a[FT.A_CLAIM] else "")


def _sale(mask: int) -> str | None:
    sold = [str(i + 1) for i in range(mask.bit_length()) if (mask >> i) & 1]
    return f"sell suit{'s' * (len(sold) > 1)} {'+'.join(sold)}" if sold else None


def turn_label(a: np.ndarray, tile_types: tuple[str, ...]) -> str:
    """One complete turn (a ``complete_turns`` action row) in words (module doc);
    ``tile_types`` by tile index."""
    return turn_labels(a[None, :], tile_types)[0]


def _worded(actions: np.ndarray, cols: slice, word) -> list[str | None]:
    """``word(row)`` for every row of ``actions``, computed once per distinct ``cols``
    (rows grouped by a 64-bit mix of those columns, the grouping then checked exactly)."""
    part = actions[:, cols]
    weights = np.random.default_rng(len(part[0])).integers(1, 2**62, part.shape[1]) | 1
    mixed = part @ weights  # wraps around: a hash, not a number
    _, first, inverse = np.unique(mixed, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    if not (part[first[inverse]] == part).all():  # a collision: group exactly instead
        _, first, inverse = np.unique(part, axis=0, return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
    words = [word(actions[i]) for i in first]
    return [words[i] for i in inverse]


def _sowing_take(a: np.ndarray) -> str:
    n = int(a[FT.A_LEN])
    if n == 0:
        return "no sowing"
    return "; ".join((sowing_label(a[FT.A_START], a[FT.A_PATH:FT.A_PATH + n],
                                   a[FT.A_COLOURS:FT.A_COLOURS + n]), _take(a)))


def turn_labels(actions: np.ndarray, tile_types: tuple[str, ...]) -> list[str]:
    """``turn_label`` of every row of ``actions``: each part is worded once per distinct
    value (a table has tens of thousands of rows sharing a few thousand sowings)."""
    sown = actions[:, FT.A_LEN] > 0
    parts = [
        _worded(actions, slice(0, FT.A_FAKIRS), _sowing_take),
        _worded(actions, slice(FT.A_COLOUR, FT.A_TILE_ACTION), _tribe),
        _worded(actions, slice(FT.A_TILE, FT.A_SALE),
                lambda a: _tile(a, tile_types[a[FT.A_TILE]])),
        _worded(actions, slice(FT.A_SALE, FT.A_SALE + 1), lambda a: _sale(int(a[FT.A_SALE]))),
    ]
    return ["; ".join(p for p in (sow, tribe if s else None, tile if s else None, sale) if p)
            for sow, tribe, tile, sale, s in zip(*parts, sown)]


def bid_label(bid: int) -> str:
    """``bid 18`` ... ``bid 0`` for a bid (``rounds`` code) on that turn-order-track space;
    with Kumarbi ``bid 18 kumarbi 2`` (2 Fakirs discarded, docs/games/five-tribes.md §20.7)."""
    k = int(FT.bid_fakirs(bid))
    kumarbi = f" kumarbi {k}" if k else ""
    return f"bid {FT.BID_COSTS[FT.bid_space(bid)]}{kumarbi}"
