"""The choices of one step of a Five Tribes turn with djinn powers (docs/games/five-tribes.md
§20.4), listed in enumeration order as option rows, and playing one (``turn_walk`` walks
them).

An option row has ``OPT_SIZE`` int64 fields, by step:

- a window of powers (before the sowing, after the tile action): (``O_STOP``), (``O_KEEP``,
  djinn) for Sibittis' keep, or (``O_USE``, djinn, payment, target, Lamia/Hagis payment or
  -1, its tile);
- the tribe action: (``O_TRIBE``, fakirs, victim kind, tile or seat, colour, second victim
  kind, tile or seat, colour, Echidna/Iblis payment or -1);
- the tile action: (``O_TILE``, ``TA_*``, card place, second card place, djinn place, paid
  with a fakir, Lamia/Hagis payment or -1, its tile).

Payments are ``djinn_powers`` codes. Playing an option returns the step to go on with and
the draw it makes first (``OP_*``), which ``turn_walk`` resolves.
"""

import numpy as np
from ..arrays import copy_into
from ..jit import njit

from .board import N_COLOURS, N_TILES
from .complete_turns import (
    A_CARD1, A_CARD2, A_CLAIM2, A_COLOUR, A_DJINN, A_DJINN_FAKIR, A_DJINN_ID, A_FAKIRS,
    A_KIND1, A_KIND2, A_NUSES, A_TAKEN, A_TILE, A_TILE_ACTION, A_USES, A_VICTIM, A_VICTIM2,
    A_VICTIM2_AT, A_VICTIM2_COLOUR, A_VICTIM_AT, A_VICTIM_COLOUR, MAX_USES, S_POST, S_PRE,
    S_SALE, S_SOW, S_TILE, S_TRIBE, TA_BUY, TA_DJINN, TA_NONE, TA_PALACE, TA_PALM, TA_SKIP,
    U_DJINN, U_PAY, U_SIZE, U_STEP, U_TARGET, V_BOARD, V_ELDER, V_NONE, V_VIZIER,
)
from .data import LARGE_MARKET, OASIS, SACRED_PLACE, SMALL_MARKET, VILLAGE
from .djinn_powers import (
    ANUN_NAK, BOAZ, BOURAQ, ECHIDNA, ENKI, HAGIS, IBLIS, KANDICHA, LAMIA, LETA, NEKIR,
    PAY_KEEP, SIBITTIS, SLOAR, UTUG, WINDOW, N_DJINNS, acquire, around, bare, cards_left,
    djinns_left, income, keep_djinn, pay, payments, place_camel, put_piece, supply_left,
    utug_target,
)
from .state import (
    ASSASSIN_OPTIONAL, BAG, DJINN_NEIGHBOUR, DJINN_ROW, DRAWN, FAKIR_CARD, NEKIR_PER_MEEPLE,
    N_PLAYERS, P_CAMELS, P_DJINNS, P_ELDERS, P_FAKIRS, P_GOLD, P_VIZIERS, RES_DISCARD, ROW,
    T_MEEPLES, T_TYPE,
)
from .turn_steps import blue_around, claim, in_reach, merchants_take, row_length, take_card

OPT_SIZE = 9
O_STOP, O_KEEP, O_USE, O_TRIBE, O_TILE = range(5)
# draws an option makes (``turn_walk``): cards (arg: how many), meeples (arg: 4 x tile +
# how many), Sibittis (arg: how many)
OP_NONE, OP_CARDS, OP_MEEPLES, OP_SIBITTIS = range(4)

_Y, _W, _B, _G, _R = range(N_COLOURS)


@njit(cache=True)
def _add(out, n, kind, a, b, c, d, e, f, g, h):
    """Append one option row (growing ``out`` when full); returns (out, n + 1)."""
    if n == len(out):
        bigger = np.empty((2 * len(out), OPT_SIZE), dtype=np.int64)
        for i in range(n):
            copy_into(bigger[i], out[i])
        out = bigger
    out[n, 0], out[n, 1], out[n, 2], out[n, 3], out[n, 4] = kind, a, b, c, d
    out[n, 5], out[n, 6], out[n, 7], out[n, 8] = e, f, g, h
    return out, n + 1


# --------------------------------------------------------------------------- windows


@njit(cache=True)
def window_options(s, mover, step):
    """A window's choices: keep one of Sibittis' djinns; or stop, then every power use
    (djinns in §20.4 order, payments, targets; a palm or palace as intended, then
    redirected by Lamia or Hagis for each payment and tile around)."""
    out = np.empty((16, OPT_SIZE), dtype=np.int64)
    n = 0
    if s[DRAWN]:
        for d in range(N_DJINNS):
            if (s[DRAWN] >> d) & 1:
                out, n = _add(out, n, O_KEEP, d, -1, -1, -1, -1, -1, -1, -1)
        return out[:n]
    out, n = _add(out, n, O_STOP, -1, -1, -1, -1, -1, -1, -1, -1)
    codes = np.empty(2, dtype=np.int64)
    codes2 = np.empty(2, dtype=np.int64)
    near = np.empty(8, dtype=np.int64)
    for w in range(len(WINDOW)):
        d = WINDOW[w]
        for ci in range(payments(s, mover, d, codes)):
            paid = s.copy()
            pay(paid, mover, d, codes[ci])
            if d == ANUN_NAK:
                if paid[BAG:BAG + N_COLOURS].sum() > 0:
                    for t in range(N_TILES):
                        if bare(paid, t):
                            out, n = _add(out, n, O_USE, d, codes[ci], t, -1, -1, -1, -1, -1)
            elif d == BOURAQ or d == ENKI:
                palm = d == ENKI
                if not supply_left(paid, palm):
                    continue
                modifier = LAMIA if palm else HAGIS
                for t in range(N_TILES):
                    if paid[T_TYPE + t] != (OASIS if palm else VILLAGE):
                        continue
                    out, n = _add(out, n, O_USE, d, codes[ci], t, -1, -1, -1, -1, -1)
                    for cj in range(payments(paid, mover, modifier, codes2)):
                        for j in range(around(t, s[DJINN_NEIGHBOUR], near)):
                            out, n = _add(out, n, O_USE, d, codes[ci], t, codes2[cj], near[j],
                                          -1, -1, -1)
            elif d == LETA or d == UTUG:
                if paid[P_CAMELS + mover] > 0:
                    for t in range(N_TILES):
                        if bare(paid, t) if d == LETA else utug_target(paid, t):
                            out, n = _add(out, n, O_USE, d, codes[ci], t, -1, -1, -1, -1, -1)
            elif d == SIBITTIS:
                if djinns_left(paid) > 0:
                    out, n = _add(out, n, O_USE, d, codes[ci], min(3, djinns_left(paid)),
                                  -1, -1, -1, -1, -1)
            elif cards_left(paid) > 0:  # Sloar
                out, n = _add(out, n, O_USE, d, codes[ci], -1, -1, -1, -1, -1, -1)
    return out[:n]


@njit(cache=True)
def _use(act, step, djinn, code, target):
    """Append a power use to ``act`` (at most ``MAX_USES`` are recorded)."""
    u = act[A_NUSES]
    if u < MAX_USES:
        base = A_USES + u * U_SIZE
        act[base + U_STEP], act[base + U_DJINN] = step, djinn
        act[base + U_PAY], act[base + U_TARGET] = code, target
        act[A_NUSES] = u + 1


@njit(cache=True)
def play_window(s, act, mover, step, opt):
    """Play a window option on ``s``, recording it in ``act``: (next step, draw, its
    argument)."""
    if opt[0] == O_STOP:
        return (S_SOW if step == S_PRE else S_SALE), OP_NONE, 0
    d = opt[1]
    if opt[0] == O_KEEP:
        keep_djinn(s, mover, d)
        _use(act, step, d, PAY_KEEP, -1)
        return step, OP_NONE, 0
    pay(s, mover, d, opt[2])
    _use(act, step, d, opt[2], opt[3])
    if d == ANUN_NAK:
        return step, OP_MEEPLES, 4 * opt[3] + min(3, s[BAG:BAG + N_COLOURS].sum())
    if d == SIBITTIS:
        return step, OP_SIBITTIS, opt[3]
    if d == SLOAR:
        return step, OP_CARDS, 1
    if d == LETA or d == UTUG:
        place_camel(s, mover, opt[3])
        return step, OP_NONE, 0
    palm = d == ENKI
    if opt[4] < 0:
        put_piece(s, mover, opt[3], palm)
    else:
        modifier = LAMIA if palm else HAGIS
        pay(s, mover, modifier, opt[4])
        _use(act, step, modifier, opt[4], opt[5])
        put_piece(s, mover, opt[5], palm)
    return step, OP_NONE, 0


# --------------------------------------------------------------------------- tribe action


@njit(cache=True)
def tribe_choices(s, act, mover):
    """The tribe action's choices after the sowing recorded in ``act`` (§9, §14.3, §20.4):
    Builders: each fakir count, plain then with Echidna by payment; Assassins: each fakir
    count with one victim (board by tile then colour, then held ones by seat, vizier
    first), then with Iblis by payment (pairs on a tile, then pairs of one opponent), and
    last no kill where allowed; one row for the other tribes."""
    out = np.empty((16, OPT_SIZE), dtype=np.int64)
    n = 0
    colour, tile, k = act[A_COLOUR], act[A_TILE], act[A_TAKEN]
    if colour != _B and colour != _R:
        out, n = _add(out, n, O_TRIBE, 0, V_NONE, -1, -1, V_NONE, -1, -1, -1)
        return out[:n]
    codes = np.empty(2, dtype=np.int64)
    fakirs = s[P_FAKIRS + mover]
    if colour == _B:
        for f in range(fakirs + 1):
            out, n = _add(out, n, O_TRIBE, f, V_NONE, -1, -1, V_NONE, -1, -1, -1)
            spent = s.copy()
            spent[P_FAKIRS + mover] -= f
            for ci in range(payments(spent, mover, ECHIDNA, codes)):
                out, n = _add(out, n, O_TRIBE, f, V_NONE, -1, -1, V_NONE, -1, -1, codes[ci])
        return out[:n]
    close = False
    held = False
    for f in range(fakirs + 1):
        for t in range(N_TILES):
            if in_reach(tile, t, k + f):
                for c in range(N_COLOURS):
                    if s[T_MEEPLES + t * N_COLOURS + c]:
                        close = close or f == 0
                        out, n = _add(out, n, O_TRIBE, f, V_BOARD, t, c, V_NONE, -1, -1, -1)
        for q in range(s[N_PLAYERS]):
            if q == mover or (s[P_DJINNS + q] >> BOAZ) & 1:
                continue
            if s[P_VIZIERS + q] > 0:
                held = True
                out, n = _add(out, n, O_TRIBE, f, V_VIZIER, q, -1, V_NONE, -1, -1, -1)
            if s[P_ELDERS + q] > 0:
                held = True
                out, n = _add(out, n, O_TRIBE, f, V_ELDER, q, -1, V_NONE, -1, -1, -1)
        spent = s.copy()
        spent[P_FAKIRS + mover] -= f
        for ci in range(payments(spent, mover, IBLIS, codes)):
            for t in range(N_TILES):
                if not in_reach(tile, t, k + f):
                    continue
                for a in range(N_COLOURS):
                    for c in range(a, N_COLOURS):
                        have_a = s[T_MEEPLES + t * N_COLOURS + a]
                        if have_a >= 1 + (a == c) and s[T_MEEPLES + t * N_COLOURS + c] >= 1:
                            out, n = _add(out, n, O_TRIBE, f, V_BOARD, t, a, V_BOARD, t, c,
                                          codes[ci])
            for q in range(s[N_PLAYERS]):
                if q == mover or (s[P_DJINNS + q] >> BOAZ) & 1:
                    continue
                v, e = s[P_VIZIERS + q], s[P_ELDERS + q]
                if v >= 2:
                    out, n = _add(out, n, O_TRIBE, f, V_VIZIER, q, -1, V_VIZIER, q, -1, codes[ci])
                if v >= 1 and e >= 1:
                    out, n = _add(out, n, O_TRIBE, f, V_VIZIER, q, -1, V_ELDER, q, -1, codes[ci])
                if e >= 2:
                    out, n = _add(out, n, O_TRIBE, f, V_ELDER, q, -1, V_ELDER, q, -1, codes[ci])
    if s[ASSASSIN_OPTIONAL] or not (close or held):
        out, n = _add(out, n, O_TRIBE, 0, V_NONE, -1, -1, V_NONE, -1, -1, -1)
    return out[:n]


@njit(cache=True)
def kill(s, mover, kind, at, colour, kind2, at2, colour2):
    """The Assassins' victims die (§9; §20.2 Kandicha, Nekir): one victim, and a second
    when ``kind2`` is not V_NONE (Iblis). Returns (Merchants Kandicha draws a card for, 1
    if the emptied board tile was claimed)."""
    kandicha = (s[P_DJINNS + mover] >> KANDICHA) & 1
    merchants = 0
    dead = 0
    for v in range(2):
        k, a, c = (kind, at, colour) if v == 0 else (kind2, at2, colour2)
        if k == V_NONE:
            continue
        dead += 1
        if k == V_BOARD:
            s[T_MEEPLES + a * N_COLOURS + c] -= 1
            if kandicha and c == _Y:
                s[P_VIZIERS + mover] += 1
            elif kandicha and c == _W:
                s[P_ELDERS + mover] += 1
            else:
                s[BAG + c] += 1
                if kandicha and c == _B:
                    s[P_GOLD + mover] += blue_around(s, a)
                elif kandicha and c == _G:
                    merchants += 1
        else:
            field = P_VIZIERS if k == V_VIZIER else P_ELDERS
            s[field + a] -= 1
            if kandicha:
                s[field + mover] += 1
            else:
                s[BAG + (_Y if k == V_VIZIER else _W)] += 1
    claimed = 1 if kind == V_BOARD and claim(s, mover, at) else 0
    income(s, mover, NEKIR, dead if s[NEKIR_PER_MEEPLE] else 1)
    return merchants, claimed


@njit(cache=True)
def play_tribe_choice(s, act, mover, opt):
    """Play a ``tribe_choices`` row on ``s`` (taken meeples to the hand or the bag, the
    action, Echidna or Iblis paid), recording it in ``act``: (next step, draw, argument)."""
    colour, tile, k = act[A_COLOUR], act[A_TILE], act[A_TAKEN]
    f, power = opt[1], opt[8]
    act[A_FAKIRS], act[A_VICTIM], act[A_VICTIM_AT], act[A_VICTIM_COLOUR] = f, opt[2], opt[3], opt[4]
    act[A_VICTIM2], act[A_VICTIM2_AT], act[A_VICTIM2_COLOUR] = opt[5], opt[6], opt[7]
    act[A_CLAIM2] = 0
    if colour == _Y or colour == _W:
        s[(P_VIZIERS if colour == _Y else P_ELDERS) + mover] += k
        return S_TILE, OP_NONE, 0
    s[BAG + colour] += k
    if colour == _G:
        merchants_take(s, mover, k)
        return S_TILE, OP_NONE, 0
    s[P_FAKIRS + mover] -= f
    s[RES_DISCARD + FAKIR_CARD] += f
    if power >= 0:
        djinn = ECHIDNA if colour == _B else IBLIS
        pay(s, mover, djinn, power)
        _use(act, S_TRIBE, djinn, power, -1)
    if colour == _B:
        s[P_GOLD + mover] += (2 if power >= 0 else 1) * (k + f) * blue_around(s, tile)
        return S_TILE, OP_NONE, 0
    if opt[2] == V_NONE:
        return S_TILE, OP_NONE, 0
    merchants, claimed = kill(s, mover, opt[2], opt[3], opt[4], opt[5], opt[6], opt[7])
    act[A_CLAIM2] = claimed
    return S_TILE, (OP_CARDS if merchants else OP_NONE), merchants


# --------------------------------------------------------------------------- tile action


@njit(cache=True)
def tile_choices(s, act, mover):
    """The final tile's action choices (§10, §14.8, §20.4): a palm or palace as intended,
    then redirected by Lamia or Hagis (payment, tile around); or skip, then market cards
    or a djinn and its payment."""
    out = np.empty((16, OPT_SIZE), dtype=np.int64)
    n = 0
    tile = act[A_TILE]
    kind = s[T_TYPE + tile]
    if kind == OASIS or kind == VILLAGE:
        palm = kind == OASIS
        if not supply_left(s, palm):
            out, n = _add(out, n, O_TILE, TA_NONE, -1, -1, -1, -1, -1, -1, -1)
            return out[:n]
        action = TA_PALM if palm else TA_PALACE
        out, n = _add(out, n, O_TILE, action, -1, -1, -1, -1, -1, -1, -1)
        codes = np.empty(2, dtype=np.int64)
        near = np.empty(8, dtype=np.int64)
        for ci in range(payments(s, mover, LAMIA if palm else HAGIS, codes)):
            for j in range(around(tile, s[DJINN_NEIGHBOUR], near)):
                out, n = _add(out, n, O_TILE, action, -1, -1, -1, -1, codes[ci], near[j], -1)
        return out[:n]
    out, n = _add(out, n, O_TILE, TA_SKIP, -1, -1, -1, -1, -1, -1, -1)
    gold = s[P_GOLD + mover]
    cards = row_length(s)
    if kind == SMALL_MARKET and gold >= 3:
        for i in range(min(3, cards)):
            out, n = _add(out, n, O_TILE, TA_BUY, i, -1, -1, -1, -1, -1, -1)
    elif kind == LARGE_MARKET and gold >= 6:
        if cards == 1:
            out, n = _add(out, n, O_TILE, TA_BUY, 0, -1, -1, -1, -1, -1, -1)
        for i in range(min(6, cards)):
            for j in range(i + 1, min(6, cards)):
                out, n = _add(out, n, O_TILE, TA_BUY, i, j, -1, -1, -1, -1, -1)
    elif kind == SACRED_PLACE:
        elders, fakirs = s[P_ELDERS + mover], s[P_FAKIRS + mover]
        for d in range(3):
            if s[DJINN_ROW + d] < 0:
                break
            if elders >= 2:
                out, n = _add(out, n, O_TILE, TA_DJINN, -1, -1, d, 0, -1, -1, -1)
            if elders >= 1 and fakirs >= 1:
                out, n = _add(out, n, O_TILE, TA_DJINN, -1, -1, d, 1, -1, -1, -1)
    return out[:n]


@njit(cache=True)
def play_tile_choice(s, act, mover, opt):
    """Play a ``tile_choices`` row on ``s`` (Monkir and Ba'al pay), recording it in
    ``act``; returns the next step."""
    action, c1, c2, d, with_fakir = opt[1], opt[2], opt[3], opt[4], opt[5]
    act[A_TILE_ACTION], act[A_CARD1], act[A_CARD2] = action, c1, c2
    act[A_KIND1] = s[ROW + c1] if c1 >= 0 else -1
    act[A_KIND2] = s[ROW + c2] if c2 >= 0 else -1
    act[A_DJINN], act[A_DJINN_FAKIR] = d, with_fakir
    act[A_DJINN_ID] = s[DJINN_ROW + d] if d >= 0 else -1
    mover_tile = act[A_TILE]
    if action == TA_PALM or action == TA_PALACE:
        palm = action == TA_PALM
        if opt[6] >= 0:
            modifier = LAMIA if palm else HAGIS
            pay(s, mover, modifier, opt[6])
            _use(act, S_TILE, modifier, opt[6], opt[7])
            mover_tile = opt[7]
        put_piece(s, mover, mover_tile, palm)
    elif action == TA_BUY:
        s[P_GOLD + mover] -= 3 if s[T_TYPE + act[A_TILE]] == SMALL_MARKET else 6
        if c2 >= 0:
            take_card(s, mover, c2)  # the later place first: the earlier one stays put
        take_card(s, mover, c1)
    elif action == TA_DJINN:
        djinn = s[DJINN_ROW + d]
        for j in range(d, 2):
            s[DJINN_ROW + j] = s[DJINN_ROW + j + 1]
        s[DJINN_ROW + 2] = -1
        s[P_ELDERS + mover] -= 2 - with_fakir
        s[BAG + _W] += 2 - with_fakir
        s[P_FAKIRS + mover] -= with_fakir
        s[RES_DISCARD + FAKIR_CARD] += with_fakir
        acquire(s, mover, djinn)
    return S_POST
