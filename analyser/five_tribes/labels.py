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


def _groups(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(first, inverse): the rows of ``key`` grouped by equal rows, ``first[g]`` the first
    row of group g, ``inverse[i]`` row i's group (grouped by a 64-bit mix of the columns,
    the grouping then checked exactly)."""
    weights = np.random.default_rng(key.shape[1]).integers(1, 2**62, key.shape[1]) | 1
    mixed = key @ weights  # wraps around: a hash, not a number
    _, first, inverse = np.unique(mixed, return_index=True, return_inverse=True)
    if not (key[first[inverse]] == key).all():  # a collision: group exactly instead
        _, first, inverse = np.unique(key, axis=0, return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)


def _worded(actions: np.ndarray, key: np.ndarray, word, groups=None
            ) -> tuple[np.ndarray, np.ndarray]:
    """(words, inverse): ``word(row)`` computed once per distinct row of ``key`` (columns
    of ``actions`` that settle the word; ``groups``: ``_groups(key)`` if made already),
    row i's word ``words[inverse[i]]`` (an object array: indexing it makes no loop)."""
    first, inverse = _groups(key) if groups is None else groups
    words = np.empty(len(first), dtype=object)
    words[:] = [word(actions[i]) for i in first]
    return words, inverse


def _sowing(a: np.ndarray) -> str | None:
    n = int(a[FT.A_LEN])
    return sowing_label(a[FT.A_START], a[FT.A_PATH:FT.A_PATH + n],
                        a[FT.A_COLOURS:FT.A_COLOURS + n]) if n else None


def sowing_labels(actions: np.ndarray) -> list[str | None]:
    """``sowing_label`` of every row of ``actions`` (None: no sowing), worded once per
    distinct sowing."""
    words, inverse = _worded(actions, actions[:, FT.A_START:FT.A_TILE], _sowing)
    return words[inverse].tolist()


def _sowing_take(a: np.ndarray) -> str:
    n = int(a[FT.A_LEN])
    if n == 0:
        return "no sowing"
    return "; ".join((sowing_label(a[FT.A_START], a[FT.A_PATH:FT.A_PATH + n],
                                   a[FT.A_COLOURS:FT.A_COLOURS + n]), _take(a)))


def turn_labels(actions: np.ndarray, tile_types: tuple[str, ...]) -> list[str]:
    """``turn_label`` of every row of ``actions``: each part is worded once per distinct
    value (a table has tens of thousands of rows sharing a few thousand sowings), then
    the parts a row shows are joined with numpy's object arrays (no loop per part)."""
    end = actions[:, FT.A_END]
    sown = actions[:, FT.A_LEN] > 0
    # the step a row reached: the end, or the step after the window its draw ends in
    reached = np.where(end < 0, FT.S_DONE, end + ((end == FT.S_PRE) | (end == FT.S_POST)))
    # rows grouped by their power uses first: the other parts' keys name the group
    uses = _groups(actions[:, FT.A_NUSES:])

    def with_uses(*cols: slice) -> np.ndarray:
        return np.column_stack((*(actions[:, c] for c in cols), uses[1]))

    parts = [  # (words, inverse, where shown)
        (*_worded(actions, None, lambda a: "; ".join(_window(_uses(a), FT.S_PRE)) or None,
                  uses), True),
        (*_worded(actions, actions[:, :FT.A_FAKIRS], _sowing_take), reached > FT.S_SOW),
        (*_worded(actions, with_uses(slice(FT.A_COLOUR, FT.A_TILE_ACTION),
                                     slice(FT.A_VICTIM2, FT.A_NUSES)), _tribe),
         sown & (reached > FT.S_TRIBE)),
        (*_worded(actions, with_uses(slice(FT.A_TILE, FT.A_SALE)),
                  lambda a: _tile(a, tile_types[a[FT.A_TILE]])), sown & (reached > FT.S_TILE)),
        (*_worded(actions, None, lambda a: "; ".join(_window(_uses(a), FT.S_POST)) or None,
                  uses), reached > FT.S_POST),
        (*_worded(actions, actions[:, FT.A_SALE:FT.A_SALE + 1],
                  lambda a: _sale(int(a[FT.A_SALE]))), reached > FT.S_SALE),
        (np.array([THEN_BEST], dtype=object), np.zeros(len(actions), dtype=np.int64),
         end >= 0),
    ]
    joined = np.full(len(actions), "", dtype=object)
    for words, inverse, shown in parts:
        # "; word" for a part shown (none for a part that says nothing), joined by +
        text = np.array([f"; {w}" if w else "" for w in words] + [""], dtype=object)
        joined += text[np.where(shown, inverse, len(words))]
    return [label[2:] for label in joined]  # the first "; " left out


def bid_label(bid: int) -> str:
    """``bid 18`` ... ``bid 0`` for a bid (``rounds`` code) on that turn-order-track space;
    with Kumarbi ``bid 18 kumarbi 2`` (2 Fakirs discarded, docs/games/five-tribes.md §20.7)."""
    k = int(FT.bid_fakirs(bid))
    kumarbi = f" kumarbi {k}" if k else ""
    return f"bid {FT.BID_COSTS[FT.bid_space(bid)]}{kumarbi}"
