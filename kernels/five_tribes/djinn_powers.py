"""Djinn powers on the state vector (docs/games/five-tribes.md §20): who holds a djinn,
paying for a power, the passive incomes, placements, camels and the draws a power makes.

Payments are codes ``2 x elders + fakirs`` (§20.1): 2 = ``elder``, 1 = ``fakir`` (E|F and
F), 4 = ``2 elders``, 3 = ``elder+fakir`` (E+(E|F)); ``PAY_KEEP`` marks Sibittis' keep.
A draw is returned as distinct outcome states with their probabilities (``out_states``,
``out_probs``; states equal after the draw merged), every card, djinn or meeple drawn one
at a time, uniformly from what the deck or bag holds, a deck found empty first refilled
with its discard pile (§20.6).
"""

import numpy as np
from ..jit import njit

from ..arrays import copy_into
from .board import COLS, N_COLOURS, N_TILES, ROWS
from .data import (
    COST_E_AND_E_OR_F, COST_E_OR_F, COST_F, DJINNS, PALACES, PALMS,
)
from .state import (
    BAG, DJINN_DECK, DJINN_DISCARD, DRAWN, FAKIR_CARD, N_CARD_KINDS, N_PLAYERS, P_CAMELS,
    P_DJINNS, P_ELDERS, P_FAKIRS, P_GOLD, P_GOODS, P_USED, RES_DECK, RES_DISCARD,
    T_MEEPLES, T_OWNER, T_PALACES, T_PALMS,
)

_INDEX = {name: i for i, (name, _, _) in enumerate(DJINNS)}
AL_AMIN_D, ANUN_NAK, BAAL, BOAZ, BOURAQ, ECHIDNA, ENKI, HAGIS = (
    _INDEX[n] for n in ("Al-Amin", "Anun-Nak", "Ba'al", "Boaz", "Bouraq", "Echidna", "Enki",
                        "Hagis"))
IBLIS, KANDICHA, KUMARBI, LAMIA, LETA, MARID, MONKIR, NEKIR = (
    _INDEX[n] for n in ("Iblis", "Kandicha", "Kumarbi", "Lamia", "Leta", "Marid", "Monkir",
                        "Nekir"))
SIBITTIS, SLOAR, UTUG = (_INDEX[n] for n in ("Sibittis", "Sloar", "Utug"))
# the powers offered before the sowing and after the tile action, in §20.4 order
WINDOW = np.array([ANUN_NAK, BOURAQ, ENKI, LETA, SIBITTIS, SLOAR, UTUG], dtype=np.int64)
WINDOW_MASK = sum(1 << int(d) for d in WINDOW)  # the same djinns as a mask
COSTS = np.array([cost for _, _, cost in DJINNS], dtype=np.int64)
N_DJINNS = len(DJINNS)
PAY_KEEP = -1
MAX_OUTCOMES = 128  # distinct results of one draw: 5**3 meeple sequences at most

_Y, _W, _B, _G = 0, 1, 2, 3


@njit(cache=True)
def holder(st, djinn):
    """The seat holding ``djinn``, -1 if nobody."""
    for p in range(st[N_PLAYERS]):
        if (st[P_DJINNS + p] >> djinn) & 1:
            return p
    return -1


@njit(cache=True)
def payments(st, mover, djinn, out):
    """Fill ``out`` with the payment codes (module doc) ``mover`` can make now for
    ``djinn``'s power, in §20.4 order; none when not held or already used. Returns how
    many."""
    if not (st[P_DJINNS + mover] >> djinn) & 1 or (st[P_USED + mover] >> djinn) & 1:
        return 0
    elders, fakirs = st[P_ELDERS + mover], st[P_FAKIRS + mover]
    cost = COSTS[djinn]
    n = 0
    if cost == COST_E_OR_F:
        if elders >= 1:
            out[n] = 2
            n += 1
        if fakirs >= 1:
            out[n] = 1
            n += 1
    elif cost == COST_E_AND_E_OR_F:
        if elders >= 2:
            out[n] = 4
            n += 1
        if elders >= 1 and fakirs >= 1:
            out[n] = 3
            n += 1
    elif cost == COST_F and fakirs >= 1:
        out[n] = 1
        n += 1
    return n


@njit(cache=True)
def pay(st, mover, djinn, code):
    """Pay ``code`` for ``djinn``'s power: Elders to the bag, Fakirs to the discard pile,
    the power marked used (§20.1)."""
    elders, fakirs = code // 2, code % 2
    st[P_ELDERS + mover] -= elders
    st[BAG + _W] += elders
    st[P_FAKIRS + mover] -= fakirs
    st[RES_DISCARD + FAKIR_CARD] += fakirs
    st[P_USED + mover] |= 1 << djinn


@njit(cache=True)
def income(st, mover, djinn, times):
    """Ba'al, Marid, Monkir, Nekir (§20.2): the holder gains ``times`` x 1 GC if they are
    the mover, 2 GC if an opponent."""
    p = holder(st, djinn)
    if p >= 0:
        st[P_GOLD + p] += times * (1 if p == mover else 2)


@njit(cache=True)
def acquire(st, mover, djinn):
    """``mover`` takes ``djinn``; Ba'al pays for any other djinn taken (§20.2)."""
    st[P_DJINNS + mover] |= 1 << djinn
    if djinn != BAAL:
        income(st, mover, BAAL, 1)


@njit(cache=True)
def marid_income(st, mover, path, n):
    """Marid (§20.2): each of the ``n`` drops of a sowing on ``path`` onto a tile of
    Marid's holder pays them (owners as before the sowing's tile control)."""
    p = holder(st, MARID)
    if p < 0:
        return
    drops = 0
    for i in range(n):
        if st[T_OWNER + path[i]] == p:
            drops += 1
    st[P_GOLD + p] += drops * (1 if p == mover else 2)


@njit(cache=True)
def around(tile, n, out):
    """Fill ``out`` with the ``n`` = 8 surrounding tiles (diagonals included) or the 4 edge
    neighbours of ``tile``, clipped at the edges, in tile order (§20.3); returns how many."""
    r0, c0 = tile // COLS, tile % COLS
    k = 0
    for r in range(max(0, r0 - 1), min(ROWS, r0 + 2)):
        for c in range(max(0, c0 - 1), min(COLS, c0 + 2)):
            if (r, c) != (r0, c0) and (n == 8 or r == r0 or c == c0):
                out[k] = r * COLS + c
                k += 1
    return k


@njit(cache=True)
def supply_left(st, palm):
    """True if a palm (``palm``) or a palace is left in the supply."""
    if palm:
        return st[T_PALMS:T_PALMS + N_TILES].sum() < PALMS
    return st[T_PALACES:T_PALACES + N_TILES].sum() < PALACES


@njit(cache=True)
def put_piece(st, mover, tile, palm):
    """A palm or palace on ``tile`` (the supply checked by the caller); Monkir pays for a
    palace (§20.2)."""
    if palm:
        st[T_PALMS + tile] += 1
    else:
        st[T_PALACES + tile] += 1
        income(st, mover, MONKIR, 1)


@njit(cache=True)
def bare(st, tile):
    """No camel, meeple, palm or palace on ``tile`` (Anun-Nak's and Leta's targets)."""
    if st[T_OWNER + tile] >= 0 or st[T_PALMS + tile] or st[T_PALACES + tile]:
        return False
    for c in range(N_COLOURS):
        if st[T_MEEPLES + tile * N_COLOURS + c]:
            return False
    return True


@njit(cache=True)
def utug_target(st, tile):
    """An unowned tile with a meeple and no palm or palace (Utug's targets)."""
    if st[T_OWNER + tile] >= 0 or st[T_PALMS + tile] or st[T_PALACES + tile]:
        return False
    for c in range(N_COLOURS):
        if st[T_MEEPLES + tile * N_COLOURS + c]:
            return True
    return False


# --------------------------------------------------------------------------- draws


@njit(cache=True)
def _merge(states, probs, m, fields):
    """Merge equal states among the first ``m`` (probabilities added, first kept first);
    returns how many are left. The states differ at most at the indices ``fields``: only
    those are compared."""
    k = 0
    for i in range(m):
        found = -1
        for j in range(k):
            same = True
            for x in fields:
                if states[j, x] != states[i, x]:
                    same = False
                    break
            if same:
                found = j
                break
        if found >= 0:
            probs[found] += probs[i]
        else:
            if k != i:
                copy_into(states[k], states[i])
                probs[k] = probs[i]
            k += 1
    return k


@njit(cache=True)
def _copy_rows(states, probs, src_states, src_probs, m):
    """The first ``m`` states and probabilities of ``src_*`` into ``states``, ``probs``."""
    for i in range(m):
        copy_into(states[i], src_states[i])
        probs[i] = src_probs[i]


@njit(cache=True)
def gain_card(st, mover, kind):
    """``mover`` draws a card of ``kind`` from the resource deck."""
    st[RES_DECK + kind] -= 1
    if kind == FAKIR_CARD:
        st[P_FAKIRS + mover] += 1
    else:
        st[P_GOODS + mover * (N_CARD_KINDS - 1) + kind] += 1


@njit(cache=True)
def cards_left(st):
    """Cards in the resource deck and its discard pile."""
    return (st[RES_DECK:RES_DECK + N_CARD_KINDS].sum()
            + st[RES_DISCARD:RES_DISCARD + N_CARD_KINDS].sum())


@njit(cache=True)
def draw_cards(st, mover, n, out_states, out_probs):
    """``mover`` draws ``n`` resource cards (Sloar, Kandicha); returns the outcomes."""
    m = 1
    copy_into(out_states[0], st)
    out_probs[0] = 1.0
    nxt = np.empty_like(out_states)
    nxt_p = np.empty(len(out_probs))
    goods = P_GOODS + mover * (N_CARD_KINDS - 1)
    fields = np.concatenate((np.arange(RES_DECK, RES_DECK + N_CARD_KINDS),
                             np.arange(RES_DISCARD, RES_DISCARD + N_CARD_KINDS),
                             np.arange(goods, goods + N_CARD_KINDS - 1),
                             np.array([P_FAKIRS + mover])))
    for _ in range(n):
        k = 0
        for i in range(m):
            s = out_states[i]
            if s[RES_DECK:RES_DECK + N_CARD_KINDS].sum() == 0:
                for c in range(N_CARD_KINDS):  # the discard pile reshuffled into the deck
                    s[RES_DECK + c] += s[RES_DISCARD + c]
                    s[RES_DISCARD + c] = 0
            total = s[RES_DECK:RES_DECK + N_CARD_KINDS].sum()
            if total == 0:
                copy_into(nxt[k], s)
                nxt_p[k] = out_probs[i]
                k += 1
                continue
            for c in range(N_CARD_KINDS):
                if s[RES_DECK + c]:
                    copy_into(nxt[k], s)
                    gain_card(nxt[k], mover, c)
                    nxt_p[k] = out_probs[i] * s[RES_DECK + c] / total
                    k += 1
        m = _merge(nxt, nxt_p, k, fields) if m > 1 else k  # (one state's are distinct)
        _copy_rows(out_states, out_probs, nxt, nxt_p, m)
    return m


@njit(cache=True)
def draw_meeples(st, tile, n, out_states, out_probs):
    """``n`` meeples drawn from the bag onto ``tile`` (Anun-Nak); returns the outcomes."""
    m = 1
    copy_into(out_states[0], st)
    out_probs[0] = 1.0
    nxt = np.empty_like(out_states)
    nxt_p = np.empty(len(out_probs))
    fields = np.concatenate((np.arange(BAG, BAG + N_COLOURS),
                             np.arange(T_MEEPLES + tile * N_COLOURS,
                                       T_MEEPLES + (tile + 1) * N_COLOURS)))
    for _ in range(n):
        k = 0
        for i in range(m):
            s = out_states[i]
            total = s[BAG:BAG + N_COLOURS].sum()
            for c in range(N_COLOURS):
                if s[BAG + c]:
                    copy_into(nxt[k], s)
                    nxt[k, BAG + c] -= 1
                    nxt[k, T_MEEPLES + tile * N_COLOURS + c] += 1
                    nxt_p[k] = out_probs[i] * s[BAG + c] / total
                    k += 1
        m = _merge(nxt, nxt_p, k, fields) if m > 1 else k  # (one state's are distinct)
        _copy_rows(out_states, out_probs, nxt, nxt_p, m)
    return m


@njit(cache=True)
def bits(mask):
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@njit(cache=True)
def djinns_left(st):
    """Djinns in the djinn deck and its discard pile."""
    return bits(st[DJINN_DECK]) + bits(st[DJINN_DISCARD])


@njit(cache=True)
def _subsets(mask, size, out):
    """Every ``size``-subset of the bits of ``mask`` as masks into ``out``; returns how
    many."""
    members = np.empty(N_DJINNS, dtype=np.int64)
    m = 0
    for d in range(N_DJINNS):
        if (mask >> d) & 1:
            members[m] = d
            m += 1
    k = 0
    for sub in range(1 << m):
        if bits(sub) != size:
            continue
        chosen = 0
        for i in range(m):
            if (sub >> i) & 1:
                chosen |= 1 << members[i]
        out[k] = chosen
        k += 1
    return k


@njit(cache=True)
def sibittis_draws(st, n):
    """The possible draws of ``n`` djinns (Sibittis, §20.6) as (masks drawn, what stays in
    the deck afterwards, discard afterwards), all equally likely: ``n`` of the deck, or,
    when it holds fewer, the whole deck and the rest from the reshuffled discard pile."""
    deck, discard = st[DJINN_DECK], st[DJINN_DISCARD]
    have = bits(deck)
    if have >= n:
        subs = np.empty(1 << have, dtype=np.int64)
        k = _subsets(deck, n, subs)
        return subs[:k], deck & ~subs[:k], np.full(k, discard, dtype=np.int64)
    subs = np.empty(1 << bits(discard), dtype=np.int64)
    k = _subsets(discard, n - have, subs)
    return subs[:k] | deck, discard & ~subs[:k], np.zeros(k, dtype=np.int64)


@njit(cache=True)
def keep_djinn(st, mover, djinn):
    """Sibittis' keep: ``djinn`` is the mover's, the others drawn go to the discard pile."""
    st[DJINN_DISCARD] |= st[DRAWN] & ~(1 << djinn)
    st[DRAWN] = 0
    acquire(st, mover, djinn)


@njit(cache=True)
def place_camel(st, mover, tile):
    """Leta, Utug: one of ``mover``'s camels on ``tile``."""
    st[T_OWNER + tile] = mover
    st[P_CAMELS + mover] -= 1
