"""Words for Five Tribes actions: sowings, complete turns (kernel action rows) and bids.

A complete turn reads ``<sowing>; take <k><colour>[, camel <tile>]; <tribe>; <tile
action>; <sale>`` with the parts that do nothing left out, e.g.
``r2c2>r2c3:Y>r2c4:W; take 2W, camel r2c4; djinn Jafaar (2 elders); sell suit 1``
(cards bought are named with their place in the row, ``buy silk@1+fish@3``). A
sowing is the start tile, then each step's tile and the colour dropped there. Djinn
powers read ``djinn <Name> (<payment>) <effect>`` where they are used (before the sowing,
in the tribe or tile action, after it), and a turn that ends in a draw ends ``; then best``
(docs/games/five-tribes.md §20.5). A bid is ``bid 18`` ... ``bid 1`` or ``bid 0``.
"""

from __future__ import annotations

import numpy as np

from ...kernels import five_tribes as FT
from .names import CARDS, DJINN_NAMES


def sowing_label(start: int, path, colours) -> str:
    """``r2c2>r2c3:Y>r2c4:W``: the start, then each step's tile and dropped colour."""
    steps = (f"{FT.tile_name(int(t))}:{FT.COLOURS[int(c)]}" for t, c in zip(path, colours))
    return ">".join((FT.tile_name(int(start)), *steps))


PAYMENTS = {2: "elder", 1: "fakir", 4: "2 elders", 3: "elder+fakir"}  # djinn_powers codes
THEN_BEST = "then best"


def djinn_word(d: int) -> str:
    """A djinn's name in labels: ASCII, without the apostrophe (``Baal``)."""
    return DJINN_NAMES[d].replace("'", "")


def _uses(a: np.ndarray) -> list[tuple[int, int, int, int]]:
    """The power uses of a row: (step, djinn, payment, target), in the order played."""
    base = FT.A_USES
    return [tuple(int(x) for x in a[base + i * FT.U_SIZE:base + (i + 1) * FT.U_SIZE])
            for i in range(int(a[FT.A_NUSES]))]


def _head(djinn: int, pay: int) -> str:
    return f"djinn {djinn_word(djinn)} ({PAYMENTS[pay]})"


def _window(uses: list[tuple[int, int, int, int]], step: int) -> list[str]:
    """The words of the powers used in the window ``step`` (§20.5 ``<use>``)."""
    words: list[str] = []
    for _, d, pay, target in (u for u in uses if u[0] == step):
        if pay == FT.PAY_KEEP:
            words.append(f"keep {djinn_word(d)}")
        elif d in (FT.LAMIA, FT.HAGIS):
            words[-1] += f", {_head(d, pay)} to {FT.tile_name(target)}"
        elif d == FT.ANUN_NAK:
            words.append(f"{_head(d, pay)} meeples {FT.tile_name(target)}")
        elif d in (FT.BOURAQ, FT.ENKI):
            piece = "palm" if d == FT.ENKI else "palace"
            words.append(f"{_head(d, pay)} {piece} {FT.tile_name(target)}")
        elif d in (FT.LETA, FT.UTUG):
            words.append(f"{_head(d, pay)} camel {FT.tile_name(target)}")
        elif d == FT.SIBITTIS:
            words.append(f"{_head(d, pay)} draws {target}")
        else:
            words.append(f"{_head(d, pay)} draws a card")
    return words


def _victim(kind: int, at: int, colour: int) -> str:
    if kind == FT.V_BOARD:
        return f"{FT.COLOURS[colour]}@{FT.tile_name(at)}"
    return f"p{at}'s {'vizier' if kind == FT.V_VIZIER else 'elder'}"


def _tribe(a: np.ndarray) -> str | None:
    colour = FT.COLOURS[a[FT.A_COLOUR]]
    fakirs = int(a[FT.A_FAKIRS])
    extra = f" (+{fakirs} fakir{'s' * (fakirs != 1)})" if fakirs else ""
    used = [u for u in _uses(a) if u[0] == FT.S_TRIBE]
    head = f"{_head(used[0][1], used[0][2])}: " if used else ""
    if colour == "B":
        return f"{head}builders{extra}" if fakirs or used else None
    if colour != "R":
        return None
    victim = a[FT.A_VICTIM]
    if victim == FT.V_NONE:
        return "no kill"
    victims = [_victim(victim, a[FT.A_VICTIM_AT], a[FT.A_VICTIM_COLOUR])]
    if a[FT.A_VICTIM2] not in (FT.V_NONE, -1):
        victims.append(_victim(a[FT.A_VICTIM2], a[FT.A_VICTIM2_AT], a[FT.A_VICTIM2_COLOUR]))
    claim = f", camel {FT.tile_name(a[FT.A_VICTIM_AT])}" if a[FT.A_CLAIM2] == 1 else ""
    return f"{head}kill {', '.join(victims)}{extra}{claim}"


def _tile(a: np.ndarray, tile_type: str) -> str | None:
    action = a[FT.A_TILE_ACTION]
    if action in (FT.TA_PALM, FT.TA_PALACE):
        word = "palm" if action == FT.TA_PALM else "palace"
        return ", ".join([word] + [f"{_head(d, pay)} to {FT.tile_name(target)}"
                                   for step, d, pay, target in _uses(a) if step == FT.S_TILE])
    if action == FT.TA_BUY:
        cards = [f"{CARDS[a[FT.A_KIND1]]}@{a[FT.A_CARD1] + 1}"]
        if a[FT.A_CARD2] >= 0:
            cards.append(f"{CARDS[a[FT.A_KIND2]]}@{a[FT.A_CARD2] + 1}")
        return "buy " + "+".join(cards)
    if action == FT.TA_DJINN:
        pay = "elder+fakir" if a[FT.A_DJINN_FAKIR] else "2 elders"
        return f"djinn {djinn_word(a[FT.A_DJINN_ID])} ({pay})"
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


def _sowing(a: np.ndarray) -> str | None:
    n = int(a[FT.A_LEN])
    return sowing_label(a[FT.A_START], a[FT.A_PATH:FT.A_PATH + n],
                        a[FT.A_COLOURS:FT.A_COLOURS + n]) if n else None


def sowing_labels(actions: np.ndarray) -> list[str | None]:
    """``sowing_label`` of every row of ``actions`` (None: no sowing), worded once per
    distinct sowing."""
    return _worded(actions, slice(FT.A_START, FT.A_TILE), _sowing)


def _sowing_take(a: np.ndarray) -> str:
    n = int(a[FT.A_LEN])
    if n == 0:
        return "no sowing"
    return "; ".join((sowing_label(a[FT.A_START], a[FT.A_PATH:FT.A_PATH + n],
                                   a[FT.A_COLOURS:FT.A_COLOURS + n]), _take(a)))


def turn_labels(actions: np.ndarray, tile_types: tuple[str, ...]) -> list[str]:
    """``turn_label`` of every row of ``actions``: each part is worded once per distinct
    value (a table has tens of thousands of rows sharing a few thousand sowings)."""
    end = actions[:, FT.A_END]
    sown = actions[:, FT.A_LEN] > 0
    uses = slice(FT.A_NUSES, FT.ACTION_SIZE)
    parts = [
        _worded(actions, uses, lambda a: "; ".join(_window(_uses(a), FT.S_PRE)) or None),
        _worded(actions, slice(0, FT.A_FAKIRS), _sowing_take),
        _worded(actions, np.r_[FT.A_COLOUR:FT.A_TILE_ACTION, FT.A_VICTIM2:FT.ACTION_SIZE],
                _tribe),
        _worded(actions, np.r_[FT.A_TILE:FT.A_SALE, FT.A_NUSES:FT.ACTION_SIZE],
                lambda a: _tile(a, tile_types[a[FT.A_TILE]])),
        _worded(actions, uses, lambda a: "; ".join(_window(_uses(a), FT.S_POST)) or None),
        _worded(actions, slice(FT.A_SALE, FT.A_SALE + 1), lambda a: _sale(int(a[FT.A_SALE]))),
    ]
    out = []
    for pre, sow, tribe, tile, post, sale, s, e in zip(*parts, sown, end):
        reached = FT.S_DONE if e < 0 else e + (e in (FT.S_PRE, FT.S_POST))
        words = [pre, sow if reached > FT.S_SOW else None,
                 tribe if s and reached > FT.S_TRIBE else None,
                 tile if s and reached > FT.S_TILE else None,
                 post if reached > FT.S_POST else None,
                 sale if reached > FT.S_SALE else None, THEN_BEST if e >= 0 else None]
        out.append("; ".join(w for w in words if w))
    return out


def bid_label(bid: int) -> str:
    """``bid 18`` ... ``bid 0`` for a bid (``rounds`` code) on that turn-order-track space;
    with Kumarbi ``bid 18 kumarbi 2`` (2 Fakirs discarded, docs/games/five-tribes.md §20.7)."""
    k = int(FT.bid_fakirs(bid))
    kumarbi = f" kumarbi {k}" if k else ""
    return f"bid {FT.BID_COSTS[FT.bid_space(bid)]}{kumarbi}"
