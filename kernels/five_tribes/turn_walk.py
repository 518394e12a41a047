"""Every combination of choices of a complete Five Tribes turn with its djinn powers
(docs/games/five-tribes.md §15, §20.4), walked depth first in the order of §20.4.

``walk`` visits the steps ``S_PRE`` (powers before the sowing), ``S_SOW``, ``S_TRIBE``,
``S_TILE``, ``S_POST`` (powers after the tile action) and ``S_SALE``; a window of powers
stays open after each use. The action row ``act`` records the choices as it goes (fields of
``complete_turns``; power uses appended at ``A_USES``). A combination ends at ``S_DONE``,
or at a draw with more than one possible outcome (§20.6): its value is then the exact
expectation, over the outcomes, of the best rest of the turn (``BEST`` walks from the step
the draw resumes at; best = most total, then the parts in ``SCORE_PARTS`` order).

Modes: ``TABLE`` keeps every combination in a store (``turn_table``: rows merged by
result), ``GREEDY`` keeps the first with the largest total among the combinations that
use no power before the sowing (docs §20.9: their cost), ``BEST`` only accumulates the
best value into ``acc`` (``acc[N_PARTS]`` = 1 once set); these two skip an Anun-Nak
use after the tile action that would be the mover's last window power (only the sale
follows and meeples score nothing: never better than stopping). With ``C_FIRST_STAGE``
set, ``GREEDY`` also stops at the window after the tile action, valued by the best sale,
and keeps such a combination with the draw ``OP_WINDOW`` (none: the window is chosen
next, from its state; docs §20.9). Values are changes of the mover's final score
(floats: draws make expectations).

``ctx`` = (store, before, sowings, first, mult, o0, o1, best sowings, best first,
best mult, counters): the base board's sowing groups to walk in ``TABLE``/``GREEDY``
(groups ``o0 .. o1 - 1``) and every group for ``BEST`` walks; ``counters`` at the ``C_*``
offsets. A board changed before the sowing (a certain Anun-Nak draw) lists its own.

Scratch: a step that plays a choice on a copy of its state, values a rest or copies the
action row for a draw's rests takes the next slot of the workspace's stacks (a state, a
value row and an action row: ``_take``) for as long as it walks on, instead of new arrays:
the stacks' arrays, like ``ctx``'s, count no references (``borrow``), so the walk allocates
nothing per choice and passes no counted array down (numba's atomic reference counts took
a fifth of a walk's time and a third of a draw's best rests).
"""

import numpy as np
from numba import types

from ..arrays import copy_into
from ..jit import njit

from ..rng import below
from ..unlinked import itself, unlinked
from .board import N_COLOURS, N_TILES
from .borrow import borrowed
from .complete_turns import (
    A_CARD1, A_CARD2, A_CLAIM, A_CLAIM2, A_COLOUR, A_COLOURS, A_DJINN, A_DJINN_FAKIR, A_END,
    A_FAKIRS, A_LEN, A_NUSES, A_PATH, A_SALE, A_SALE_GOLD, A_START, A_TAKEN, A_TILE,
    A_TILE_ACTION, A_USES, A_VICTIM, A_VICTIM2, A_VICTIM2_AT, A_VICTIM2_COLOUR, A_VICTIM_AT,
    A_VICTIM_COLOUR, MAX_USES, N_PARTS, S_DONE, S_POST, S_PRE, S_SALE, S_SOW, S_TILE,
    S_TRIBE, TA_NONE, U_DJINN, U_PAY, U_SIZE, U_STEP, U_TARGET, V_NONE, apply_sale,
    player_parts, suit_count,
)
from .djinn_powers import (
    ANUN_NAK, HAGIS, LAMIA, N_DJINNS, PAY_KEEP, WINDOW_MASK, bits, draw_cards, draw_meeples,
    gain_card, keep_djinn, marid_income, sibittis_draws,
)
from .rest_bounds import power_bound, rest_bound, sale_neutral, window_bound
from .sowing import _no_rows, _run, list_sowings
from .state import (
    BAG, DJINN_DECK, DJINN_DISCARD, DJINN_PER_ROUND, DRAWN, END_RULE, N_CARD_KINDS, P_DJINNS,
    P_USED, RES_DECK, RES_DISCARD, STATE_SIZE, T_MEEPLES, TO_MOVE, meeples,
)
from .turn_options import (
    O_KEEP, O_STOP, O_TILE, O_TRIBE, O_USE, OP_CARDS, OP_MEEPLES, OP_NONE, OP_SIBITTIS,
    OPT_SIZE, play_tile_choice, play_tribe_choice,
    play_window, tile_choices, tribe_choices, window_options,
)
from .rounds import marker_to_bid_track
from .turn_steps import claim, sow
from .turn_store import M_FULL, hit, key_hash, key_of, row_of, same_key, sowing_outcomes

TABLE, GREEDY, BEST = range(3)
# counters: pre-sowing combinations so far, the current one's index, the current sowing's
# first sequence, combinations since it began; the mover; whether to emit combinations that
# end before the sowing, and the sowing groups; 1 if sampled; 1 in the greedy choice's
# first stage (module doc); how a table values its draws (``DEFER_*``); the first free slot
# of the scratch stacks (slot 0: the first walk's value row); the sowing group that last
# raised a best rest (``BEST`` walks it first: the best is the same in any order, found
# early it lets ``_beaten`` pass over more of the others)
C_PRE, C_P, C_Q, C_REST, C_MOVER, C_EMIT_PRE, C_EMIT_SOWN, C_SAMPLED, C_FIRST_STAGE, \
    C_DEFER, C_DEPTH, C_LEAD = range(12)
N_COUNTERS = 12
# TABLE and its draws: valued as made; made and counted, left unvalued (parts NaN); the same
# walk again, counting nothing, valuing each unvalued row from its first combination (the
# one that made it: the same floats), the sale not walked. An exact table runs the last two
# in turn, so a table that will not fit is given up before its draws are valued.
DEFER_NONE, DEFER_COUNT, DEFER_VALUE = range(3)
OP_WINDOW = OP_SIBITTIS + 1  # GREEDY's first stage: the window after the tile action next
MEMO_ROWS = 1024  # best rests before the sowing kept (``memo_slot``)
MEMO_PROBES = 16  # slots looked at before one is given up as not kept
MEMO_FREE, MEMO_FOUND, MEMO_NEW, MEMO_NONE = range(4)  # a slot: free; its rest found;
# being found (new); found to have no combination

# slots of the scratch stacks (``_take``): a walk holds at most three per power use (the
# choice, its draw, the draw's best rest before the sowing) and eight more (the first
# walk's value row, sowing, tribe choice and its draw, tile choice, greedy first stage,
# sale, end of the turn)
STACK_DEPTH = 3 * MAX_USES + 16

_Y, _W, _B, _G, _R = range(N_COLOURS)


# --------------------------------------------------------------------------- helpers


@njit(cache=True)
def better(a, b):
    """True if the value ``a`` beats ``b``: more total, then larger parts in order."""
    if a[N_PARTS - 1] != b[N_PARTS - 1]:
        return a[N_PARTS - 1] > b[N_PARTS - 1]
    for i in range(N_PARTS - 1):
        if a[i] != b[i]:
            return a[i] > b[i]
    return False


@njit(cache=True)
def _offer(acc, value):
    """BEST: keep ``value`` in ``acc`` if it is the first or better."""
    if acc[N_PARTS] == 0 or better(value, acc[:N_PARTS]):
        copy_into(acc[:N_PARTS], value)
        acc[N_PARTS] = 1


@njit(cache=True)
def _take(counters):
    """The first free slot of the scratch stacks (module doc), taken: ``ctx[7]`` holds the
    states (6), value rows (7) and action rows (8); setting ``counters[C_DEPTH]`` back
    frees it and every later one. A helper that walks no further uses the first free slot
    without taking it, so one is always left free: past ``STACK_DEPTH`` the walk fails
    (numba checks no index). (Helpers are given the few arrays they use, not ``ctx``:
    numba passes every array of a tuple argument as its fields, about 300 words for
    ``ctx``.)"""
    d = counters[C_DEPTH]
    if d + 1 >= STACK_DEPTH:
        raise IndexError("turn walk deeper than its scratch stacks (STACK_DEPTH)")
    counters[C_DEPTH] = d + 1
    return d


@njit(cache=True)
def window_closed(s, mover):
    """True when a window of powers offers only 'stop': no Sibittis keep is pending and
    the mover has used every window power they hold."""
    return s[DRAWN] == 0 and s[P_DJINNS + mover] & WINDOW_MASK & ~s[P_USED + mover] == 0


@njit(cache=True)
def _last_window_power(s, mover, d):
    """True when ``d`` is the only window power the mover holds and has not used."""
    return s[P_DJINNS + mover] & WINDOW_MASK & ~s[P_USED + mover] == 1 << d


@njit(cache=True)
def leaf_value(s, mover, before):
    """The change of the mover's final score by part (floats)."""
    parts = np.zeros(N_PARTS, dtype=np.int64)
    player_parts(s, mover, parts)
    return parts.astype(np.float64) - before


@njit(cache=True)
def leaf_into(s, mover, before, out):
    """``leaf_value`` into the row ``out``, with no array made (the same floats: every part
    is a whole number, summed exactly)."""
    player_parts(s, mover, out)
    for i in range(N_PARTS):
        out[i] -= before[i]


@njit(cache=True)
def own_sowings(s):
    """The full sequences of ``s``'s board grouped by outcome (``sowing_outcomes``):
    (starts, paths, colours, lengths, first, mult), contiguous copies."""
    counts = meeples(s)
    total = _run(counts, s[END_RULE], *_no_rows())[0]
    starts, paths, colours, lengths = list_sowings(counts, s[END_RULE], total)
    first, mult = sowing_outcomes(s, starts, paths, colours, lengths)
    return starts.copy(), paths.copy(), colours.copy(), lengths.copy(), first.copy(), mult.copy()


# step fields of the action row (cleared where a draw ends a row, so that a row says
# nothing of the steps it did not reach)
@njit(cache=True)
def _clear_from(act, step):
    """Set the fields of ``step`` and every later step to their 'not played' values."""
    if step <= S_SOW:
        act[A_START:A_CLAIM + 1] = -1
        act[A_LEN] = 0
    if step <= S_TRIBE:
        act[A_FAKIRS:A_CLAIM2 + 1] = -1
        act[A_VICTIM2:A_VICTIM2_COLOUR + 1] = -1
    if step <= S_TILE:
        act[A_TILE_ACTION:A_DJINN_FAKIR + 1] = -1
        act[A_TILE_ACTION] = TA_NONE
    act[A_SALE] = 0
    act[A_SALE_GOLD] = 0


@njit(cache=True)
def _rank(counters, mode):
    """The current combination's rank (pre-sowing index, sowing, count since it)."""
    r0 = (counters[C_P] << 24) | (counters[C_Q] + 1)
    r1 = counters[C_REST]
    if mode == TABLE:
        counters[C_REST] += 1
    return r0, r1


@njit(cache=True, inline="always")
def _finish(s, act, weight, mode, acc, ctx):
    """A combination that reaches the end of the turn (the power-use marks of the turn
    cleared unless they last the round)."""
    store, before, counters, ws = ctx[0], ctx[1], ctx[5], ctx[7]
    mover = counters[C_MOVER]
    d = counters[C_DEPTH]
    t = s
    if not s[DJINN_PER_ROUND] and s[P_USED + mover]:
        t = ws[6][d]
        copy_into(t, s)
        t[P_USED + mover] = 0
    if mode != TABLE:
        value = ws[7][d]
        leaf_into(t, mover, before, value)
        if mode == BEST:
            _offer(acc, value[:N_PARTS])
        else:
            act[A_END] = -1
            _choose(store, ws, t, act, value[:N_PARTS], OP_NONE, 0, S_DONE)
        return
    act[A_END] = -1
    raw = ws[0]
    key_of(t, act, ws[3], raw)
    row, new = row_of(store, raw.view(np.uint64))
    if row < 0:
        return
    if new:
        leaf_into(t, mover, before, store[1][row])
    r0, r1 = _rank(counters, mode)
    hit(store, row, act, weight, counters[C_SAMPLED], r0, r1)


@njit(cache=True, inline="always")
def _sales(s, act, weight, mode, acc, ctx):
    """The sale step: every sale of whole suits (``complete_turns``), each a combination
    that ends the turn; ``BEST`` only the best one when ``sale_neutral``."""
    counters = ctx[5]
    if mode == TABLE and (ctx[0][10][M_FULL] or counters[C_DEFER] == DEFER_VALUE):
        return  # the store is full, or no draw is left to value
    mover = counters[C_MOVER]
    act[A_SALE] = 0
    act[A_SALE_GOLD] = 0
    masks = 1 << suit_count(s, mover)
    best_only = mode == BEST and masks > 1 and sale_neutral(s, mover)
    if not best_only:
        _finish(s, act, weight, mode, acc, ctx)  # no sale: ``s`` as it is
    if masks == 1:
        return
    d = _take(counters)
    n = ctx[7][6][d]
    for mask in range(masks - 1 if best_only else 1, masks):
        copy_into(n, s)
        act[A_SALE] = mask
        act[A_SALE_GOLD] = apply_sale(n, mover, mask)
        _finish(n, act, weight, mode, acc, ctx)
    counters[C_DEPTH] = d


@njit(cache=True, inline="always")
def _post_closed(s, act, weight, mode, acc, ctx):
    """``walk`` from the window after the tile action when it offers only 'stop': the
    sale, then the sale fields cleared."""
    if mode == TABLE and ctx[0][10][M_FULL]:
        return
    _sales(s, act, weight, mode, acc, ctx)
    _clear_from(act, S_SALE)


@njit(cache=True)
def _beaten(s, act, acc, mover, before, out):
    """BEST after a sowing: True when the rest of the turn cannot beat the best so far
    (``rest_bounds``: its bound strictly below, so ties are still walked)."""
    if not acc[N_PARTS] or act[A_LEN] == 0 or not sale_neutral(s, mover):
        return False
    return _now(s, mover, before, out) + rest_bound(s, act, mover) < acc[N_PARTS - 1]


@njit(cache=True)
def _now(s, mover, before, out):
    """The change of the mover's final score in total if the turn ended in ``s`` (its parts
    in the value row ``out``)."""
    leaf_into(s, mover, before, out)
    return out[N_PARTS - 1]


@njit(cache=True)
def _choose(store, ws, s, act, value, op, arg, step):
    """GREEDY: keep this combination in row 0 if it is the first or has more total; its
    state (before the draw, for a row ending in one) and draw in ``ws``."""
    meta = store[10]
    if meta[0] == 0 or value[N_PARTS - 1] > store[1][0, N_PARTS - 1]:
        copy_into(store[0][0], act)
        copy_into(store[1][0], value)
        meta[0] = 1
        copy_into(ws[1], s)
        ws[2][0], ws[2][1], ws[2][2] = op, arg, step


@njit(cache=True)
def _outcomes(s, mover, op, arg):
    """The distinct outcomes of the card or meeple draw ``op`` from ``s``: (states,
    probabilities)."""
    if op == OP_CARDS:
        cap = 10 ** arg
        states = np.empty((cap, STATE_SIZE), dtype=np.int64)
        probs = np.empty(cap)
        m = draw_cards(s, mover, arg, states, probs)
    else:
        n = arg % 4
        cap = 5 ** n
        states = np.empty((cap, STATE_SIZE), dtype=np.int64)
        probs = np.empty(cap)
        m = draw_meeples(s, arg // 4, n, states, probs)
    return states[:m], probs[:m]


@njit(cache=True)
def _pre_counted(counters, mode):
    """One more combination of choices before the sowing (its index: ``C_P``)."""
    if mode != BEST:
        counters[C_P] = counters[C_PRE]
        counters[C_PRE] += 1
        counters[C_Q] = -1
        counters[C_REST] = 0


@njit(cache=True)
def _sown(counters, mode, first):
    """The sowing with first sequence ``first`` (-1: none) begins."""
    if mode != BEST:
        counters[C_Q] = first
        counters[C_REST] = 0


@njit(cache=True)
def play_sowing_of(s, act, mover, start, path, colours, n):
    """Sow (Marid's income at each drop, owners as before), take, tile control; recorded
    in ``act``."""
    act[A_START], act[A_LEN] = start, n
    copy_into(act[A_PATH:A_PATH + n], path[:n])
    copy_into(act[A_COLOURS:A_COLOURS + n], colours[:n])
    marid_income(s, mover, path, n)
    tile, colour, k = sow(s, start, path, colours, n)
    act[A_TILE], act[A_COLOUR], act[A_TAKEN] = tile, colour, k
    act[A_CLAIM] = 1 if claim(s, mover, tile) else 0


@njit(cache=True)
def _sowings_of(s, mode, ctx):
    """(sowing groups, first, end) the sowing step walks: the chunk's of the base board
    for a table (none when this call does not emit them), every group for BEST; a board
    changed before the sowing lists its own (emitted with the turns before the sowing)."""
    counters = ctx[5]
    sw = ctx[2] if mode != BEST else ctx[3]
    o0, o1 = ctx[4][0], ctx[4][1]
    if mode == BEST:
        o0, o1 = 0, max(len(sw[4]), 1)
    base = ctx[6]
    for i in range(N_TILES * N_COLOURS):
        if s[T_MEEPLES + i] != base[i]:
            if mode != BEST and not counters[C_EMIT_PRE]:
                return sw, 0, 0
            own = own_sowings(s)
            return own, 0, max(len(own[4]), 1)
    if mode != BEST and not counters[C_EMIT_SOWN]:
        return sw, 0, 0
    return sw, o0, o1


@njit(cache=True)
def outcomes(s, mover, op, arg):
    """The distinct outcomes of a draw from ``s``: (states, probabilities, the djinn each
    state keeps, the draws). Cards and meeples: their states. Sibittis: all equally likely
    ``draws`` (djinn masks); a certain one gives its one state with the djinns drawn;
    otherwise one state per djinn that may be drawn, kept (``kept_by``), the value of a
    draw being that of its best djinn."""
    none = np.zeros(0, dtype=np.int64)
    if op != OP_SIBITTIS:
        states, probs = _outcomes(s, mover, op, arg)
        return states, probs, none, none
    drawn, decks, discards = sibittis_draws(s, arg)
    if len(drawn) == 1:
        one = s.copy()
        one[DRAWN], one[DJINN_DECK], one[DJINN_DISCARD] = drawn[0], decks[0], discards[0]
        return one.reshape((1, STATE_SIZE)), np.ones(1), none, none
    union = 0
    for x in drawn:
        union |= x
    states = np.empty((bits(union), STATE_SIZE), dtype=np.int64)
    kept_by = np.empty(bits(union), dtype=np.int64)
    k = 0
    for d in range(N_DJINNS):
        if (union >> d) & 1:
            copy_into(states[k], s)
            states[k, DJINN_DECK] = 0  # (where the others go changes no value)
            keep_djinn(states[k], mover, d)
            kept_by[k] = d
            k += 1
    return states, np.full(k, np.nan), kept_by, drawn


@njit(cache=True)
def _same_rest(op, step):
    """True when every outcome of the draw ``op`` made in the window ``step`` has the same
    best rest: Anun-Nak's meeples after the tile action. The outcomes differ only in the
    bag and in the colours on the target tile, which holds meeples in each; only the window
    (Anun-Nak used) and the sale follow, and no later choice or score part tells colours
    apart or counts meeples (Leta and Utug ask whether a tile holds any; no draw left takes
    from the bag). So the expectation is that one rest, summed with the outcomes'
    probabilities as before: the same floats as walking each outcome."""
    return op == OP_MEEPLES and step == S_POST


@njit(cache=True)
def memo_slot(s, act, ws):
    """BEST before the sowing: the slot of ``s``'s best rest among those kept in ``ws``
    (``turn_table.workspace``: keys ``ws[4]``, values ``ws[5]``: the parts, then
    ``MEMO_*``), made for it (``MEMO_NEW``) if new; -1 when not kept (no free slot within
    ``MEMO_PROBES``). From the window before the sowing the rest depends on the state
    alone, and states of one position with one merge key are the same state (the key holds
    every field a turn changes): powers used in either order, or a draw's outcome that
    another use reaches, are walked once."""
    raw = ws[0]
    key_of(s, act, ws[3], raw)
    key = raw.view(np.uint64)
    keys, values = ws[4], ws[5]
    mask = np.uint64(MEMO_ROWS - 1)
    slot = key_hash(key) & mask
    for _ in range(MEMO_PROBES):
        i = np.int64(slot)
        if values[i, N_PARTS] == MEMO_FREE:
            copy_into(keys[i], key)
            values[i, N_PARTS] = MEMO_NEW
            return i
        if same_key(keys[i], key):
            return i
        slot = (slot + np.uint64(1)) & mask
    return -1


@njit(cache=True)
def _expectation(best, probs, kept_by, drawn):
    """A draw's value from the best rest after each outcome (``best[i]``, ``outcomes``):
    summed with the outcomes' probabilities; Sibittis: each draw keeps its best djinn."""
    value = np.zeros(N_PARTS)
    if len(drawn):
        for x in range(len(drawn)):
            pick = -1
            for i in range(len(probs)):
                if (drawn[x] >> kept_by[i]) & 1 and (pick < 0 or better(best[i], best[pick])):
                    pick = i
            value += best[pick, :N_PARTS] / len(drawn)
    else:
        for i in range(len(probs)):
            value += probs[i] * best[i, :N_PARTS]
    return value


@njit(cache=True)
def memo_done(acc, memo, slot):
    """True if ``slot`` of the kept rests ``memo`` holds a rest found: then offered (BEST)."""
    if slot < 0 or memo[slot, N_PARTS] == MEMO_NEW:
        return False
    if memo[slot, N_PARTS] == MEMO_FOUND:
        _offer(acc, memo[slot, :N_PARTS])
    return True


@njit(cache=True)
def memo_keep(acc, memo, slot, rest):
    """Keep the rest just found (``walk``'s ``acc`` of it) in ``slot`` (-1: not kept) and
    offer it (BEST)."""
    if slot >= 0:
        copy_into(memo[slot, :N_PARTS], rest[:N_PARTS])
        memo[slot, N_PARTS] = MEMO_FOUND if rest[N_PARTS] else MEMO_NONE
    if rest[N_PARTS]:
        _offer(acc, rest[:N_PARTS])


@njit(cache=True)
def _one_meeple_draw(s, arg):
    """(one outcome of the meeple draw ``arg`` from ``s``: the bag's first colours, True
    if the draw has other outcomes)."""
    t = s.copy()
    tile, n = arg // 4, arg % 4
    colours = 0
    for c in range(N_COLOURS):
        colours += s[BAG + c] > 0
    for _ in range(n):
        c = 0
        while t[BAG + c] == 0:
            c += 1
        t[BAG + c] -= 1
        t[T_MEEPLES + tile * N_COLOURS + c] += 1
    return t, n > 0 and colours > 1


@njit(cache=True)
def _fresh(rest, sub, act):
    """A slot's value row ``rest`` zeroed and action row ``sub`` a copy of ``act``: the
    scratch of a best rest walked from here."""
    rest[:] = 0.0
    copy_into(sub, act)


@njit(cache=True)
def _draw_row(s, act, step, weight, mode, store, counters, ws, op, arg):
    """A combination ending in a draw: -2 if nothing more is to be done (not emitted in
    this call; a table row already made, or made unvalued (``DEFER_COUNT``): counted; valued
    already (``DEFER_VALUE``)), else its table row to value (-1 otherwise)."""
    if step == S_PRE and mode != BEST:
        _pre_counted(counters, mode)
        if not counters[C_EMIT_PRE]:
            return -2
    _clear_from(act, step + 1 if step == S_PRE or step == S_POST else step)
    act[A_END] = step
    if mode != TABLE:
        return -1
    draw = ws[3].copy()
    draw[0], draw[1], draw[2] = op, arg, step
    raw = ws[0]
    key_of(s, act, draw, raw)
    row, new = row_of(store, raw.view(np.uint64))
    if row < 0:
        return -2
    defer = counters[C_DEFER]
    if defer == DEFER_VALUE:
        return row if np.isnan(store[1][row, 0]) else -2
    if not new or defer == DEFER_COUNT:
        if new:
            store[1][row, :] = np.nan  # valued by the DEFER_VALUE walk
        r0, r1 = _rank(counters, mode)
        hit(store, row, act, weight, counters[C_SAMPLED], r0, r1)
        return -2
    return row


@njit(cache=True)
def _draw_value(s, act, step, weight, mode, acc, store, counters, ws, op, arg, row, value):
    """Keep a draw's combination with its expected ``value`` as the mode says."""
    act[A_END] = step
    if mode == BEST:
        _offer(acc, value)
    elif mode == GREEDY:
        _choose(store, ws, s, act, value, op, arg, step)
    else:
        copy_into(store[1][row], value)
        if counters[C_DEFER] != DEFER_VALUE:
            r0, r1 = _rank(counters, mode)
            hit(store, row, act, weight, counters[C_SAMPLED], r0, r1)


@njit(cache=True)
def realise(s, mover, op, arg, rng):
    """Make the draw ``op``/``arg`` (``walk``) on ``s``, one card, meeple or djinn at a time
    from the stream ``rng`` (§20.6)."""
    if op == OP_CARDS:
        for _ in range(arg):
            if s[RES_DECK:RES_DECK + N_CARD_KINDS].sum() == 0:
                for c in range(N_CARD_KINDS):
                    s[RES_DECK + c] += s[RES_DISCARD + c]
                    s[RES_DISCARD + c] = 0
            total = s[RES_DECK:RES_DECK + N_CARD_KINDS].sum()
            if total == 0:
                return
            r = below(rng, total)
            c = 0
            while r >= s[RES_DECK + c]:
                r -= s[RES_DECK + c]
                c += 1
            gain_card(s, mover, c)
    elif op == OP_MEEPLES:
        tile = arg // 4
        for _ in range(arg % 4):
            r = below(rng, s[BAG:BAG + N_COLOURS].sum())
            c = 0
            while r >= s[BAG + c]:
                r -= s[BAG + c]
                c += 1
            s[BAG + c] -= 1
            s[T_MEEPLES + tile * N_COLOURS + c] += 1
    else:
        for _ in range(arg):
            if s[DJINN_DECK] == 0:
                s[DJINN_DECK], s[DJINN_DISCARD] = s[DJINN_DISCARD], 0
            r = below(rng, bits(s[DJINN_DECK]))
            for d in range(N_DJINNS):
                if (s[DJINN_DECK] >> d) & 1:
                    if r == 0:
                        s[DJINN_DECK] &= ~(1 << d)
                        s[DRAWN] |= 1 << d
                        break
                    r -= 1


@njit(cache=True)
def _replay_window(st, act, mover, step, action):
    """Play the power uses ``action`` records for the window ``step`` (a certain draw
    drawn as it must fall)."""
    opt = np.full(OPT_SIZE, -1, dtype=np.int64)
    uses = action[A_NUSES]
    for j in range(uses):
        u = A_USES + j * U_SIZE
        d, code, target = action[u + U_DJINN], action[u + U_PAY], action[u + U_TARGET]
        if action[u + U_STEP] != step or d == LAMIA or d == HAGIS:
            continue
        opt[:] = -1
        opt[0], opt[1] = (O_KEEP, d) if code == PAY_KEEP else (O_USE, d)
        opt[2], opt[3] = code, target
        if j + 1 < uses and action[u + U_SIZE + U_DJINN] in (LAMIA, HAGIS) \
                and action[u + U_SIZE + U_STEP] == step:
            opt[4], opt[5] = action[u + U_SIZE + U_PAY], action[u + U_SIZE + U_TARGET]
        _, op, arg = play_window(st, act, mover, step, opt)
        if op != OP_NONE:
            states, _, _, _ = outcomes(st, mover, op, arg)
            copy_into(st, states[0])


@njit(cache=True)
def apply_turn(st, action):
    """Play the complete turn ``action`` (a table row that does not end in a draw: a draw
    it makes has one outcome) of the player to move on ``st``."""
    play_turn_drawing(st, action, np.zeros(4, dtype=np.uint64))


@njit(cache=True)
def play_turn_drawing(st, action, rng):
    """Play the complete turn ``action`` of the player to move on ``st``, a draw its tribe
    action makes (Kandicha's card on a Merchant, §20.6) drawn from the stream ``rng``: a
    policy's turn, chosen before the draw."""
    mover = st[TO_MOVE]
    marker_to_bid_track(st)
    act = action.copy()
    act[A_NUSES] = 0
    _replay_window(st, act, mover, S_PRE, action)
    n = action[A_LEN]
    if n > 0:
        play_sowing_of(st, act, mover, action[A_START], action[A_PATH:A_PATH + n].copy(),
                       action[A_COLOURS:A_COLOURS + n].copy(), n)
        opt = np.full(OPT_SIZE, -1, dtype=np.int64)
        opt[0], opt[1] = O_TRIBE, max(action[A_FAKIRS], 0)
        opt[2], opt[3], opt[4] = max(action[A_VICTIM], V_NONE), action[A_VICTIM_AT], \
            action[A_VICTIM_COLOUR]
        opt[5], opt[6], opt[7] = max(action[A_VICTIM2], V_NONE), action[A_VICTIM2_AT], \
            action[A_VICTIM2_COLOUR]
        for j in range(action[A_NUSES]):
            u = A_USES + j * U_SIZE
            if action[u + U_STEP] == S_TRIBE:
                opt[8] = action[u + U_PAY]
        _, op, arg = play_tribe_choice(st, act, mover, opt)
        if op != OP_NONE:
            realise(st, mover, op, arg, rng)
        opt[:] = -1
        opt[0], opt[1], opt[2], opt[3] = O_TILE, action[A_TILE_ACTION], action[A_CARD1], \
            action[A_CARD2]
        opt[4], opt[5] = action[A_DJINN], action[A_DJINN_FAKIR]
        for j in range(action[A_NUSES]):
            u = A_USES + j * U_SIZE
            if action[u + U_STEP] == S_TILE:
                opt[6], opt[7] = action[u + U_PAY], action[u + U_TARGET]
        play_tile_choice(st, act, mover, opt)
    _replay_window(st, act, mover, S_POST, action)
    apply_sale(st, mover, action[A_SALE])
    if not st[DJINN_PER_ROUND]:
        st[P_USED + mover] = 0


def _signature():
    """``walk``'s type, given explicitly: it calls itself, and its callers call it,
    with this type (``unlinked.itself``, ``unlinked.unlinked``)."""
    i64, f64 = types.int64, types.float64
    a1, a2 = types.Array(i64, 1, "C"), types.Array(i64, 2, "C")
    f1, f2 = types.Array(f64, 1, "C"), types.Array(f64, 2, "C")
    u1, u2 = types.Array(types.uint64, 1, "C"), types.Array(types.uint64, 2, "C")
    store = types.Tuple((a2, f2, a1, u2, u1, a1, f2, a1, a1, a1, a1, a2))
    sowings = types.Tuple((a1, a2, a2, a1, a1, a1))
    scratch = types.Tuple((types.Array(types.uint8, 1, "C"), a1, a1, a1, u2, f2, a2, f2, a2))
    ctx = types.Tuple((store, f1, sowings, sowings, a1, a1, a1, scratch))
    return types.void(a1, a1, i64, i64, i64, f1, ctx, i64, i64)


walk_again = itself(_signature(), lambda *args: walk(*args))  # (numba types no recursion)


@njit(_signature(), cache=True)
def walk(s, act, step, weight, mode, acc, ctx, op, arg):
    """Every combination from ``step`` on in state ``s`` (read only), ``weight`` sowing
    sequences each (module doc); ``op``/``arg``: a draw to make first (``OP_*`` of
    ``turn_options``), the walk resuming at ``step`` after it; with ``OP_NONE``, ``arg`` 1
    when the best rest before the sowing is not to be sought among those kept
    (``memo_slot``: it is being found). It calls itself as ``walk_again``, a call that
    numba does not type as a recursion (``unlinked.itself``)."""
    if mode == TABLE and ctx[0][10][M_FULL]:
        return  # the store is full: the caller gives up this table (turn_table)
    counters = ctx[5]
    mover = counters[C_MOVER]
    # the ints every recursive call passes, typed as walk's signature takes them
    none, zero, one, tribe = np.int64(OP_NONE), np.int64(0), np.int64(1), np.int64(S_TRIBE)
    if op != OP_NONE:
        # a draw: certain -> go on; else the combination ends here, valued by expectation
        if op == OP_MEEPLES and step == S_POST and window_closed(s, mover):
            # only the sale is left, and no score part counts meeples (on the board or
            # in the bag): every outcome has the same best rest, that of any one
            t, several = _one_meeple_draw(s, arg)
            if not several:
                walk_again(t, act, step, weight, mode, acc, ctx, none, zero)
                return
            row = _draw_row(s, act, step, weight, mode, ctx[0], counters, ctx[7], op, arg)
            if row == -2:
                return
            d = _take(counters)
            rest, sub = ctx[7][7][d], ctx[7][8][d]
            _fresh(rest, sub, act)
            walk_again(t, sub, step, one, np.int64(BEST), rest, ctx, none, zero)
            counters[C_DEPTH] = d
            _draw_value(s, act, step, weight, mode, acc, ctx[0], counters, ctx[7], op, arg,
                        row, rest[:N_PARTS])
            return
        states, probs, kept_by, drawn = outcomes(s, mover, op, arg)
        if len(probs) == 1:
            walk_again(states[0], act, step, weight, mode, acc, ctx, none, zero)
            return
        row = _draw_row(s, act, step, weight, mode, ctx[0], counters, ctx[7], op, arg)
        if row == -2:
            return
        best = np.zeros((len(probs), N_PARTS + 1))
        rests = borrowed(best)  # (``best`` lives on: read below)
        d = _take(counters)
        sub = ctx[7][8][d]
        for i in range(len(probs)):
            if i and _same_rest(op, step):
                copy_into(rests[i], rests[0])
            else:
                copy_into(sub, act)
                walk_again(states[i], sub, step, one, np.int64(BEST), rests[i], ctx, none, zero)
        counters[C_DEPTH] = d
        _draw_value(s, act, step, weight, mode, acc, ctx[0], counters, ctx[7], op, arg, row,
                    _expectation(best, probs, kept_by, drawn))
        return
    if mode == BEST and step == S_PRE and arg == 0:
        slot = memo_slot(s, act, ctx[7])
        if not memo_done(acc, ctx[7][5], slot):
            d = _take(counters)
            rest = ctx[7][7][d]
            rest[:] = 0.0
            walk_again(s, act, step, weight, mode, rest, ctx, none, one)
            counters[C_DEPTH] = d
            memo_keep(acc, ctx[7][5], slot, rest)
        return
    if mode == BEST and step == S_TRIBE and _beaten(s, act, acc, mover, ctx[1],
                                                   ctx[7][7][counters[C_DEPTH]]):
        return
    if step == S_SOW:
        sw, o0, o1 = _sowings_of(s, mode, ctx)
        starts, paths, colours, lengths, first, mult = sw
        if o1 == 0:
            return
        if len(first) == 0:  # no legal sowing
            _clear_from(act, S_SOW)
            _sown(counters, mode, -1)
            walk_again(s, act, tribe, weight, mode, acc, ctx, none, zero)
            return
        d = _take(counters)
        s1 = ctx[7][6][d]
        o1 = min(o1, len(first))
        lead = counters[C_LEAD] if mode == BEST and o0 <= counters[C_LEAD] < o1 else -1
        for k in range(o0 - 1 if lead >= 0 else o0, o1):
            o = lead if k < o0 else k
            if k >= o0 and o == lead:
                continue  # walked first
            copy_into(s1, s)
            i = first[o]
            play_sowing_of(s1, act, mover, starts[i], paths[i], colours[i], lengths[i])
            _sown(counters, mode, i)
            top = acc[N_PARTS - 1] if acc[N_PARTS] else -np.inf
            walk_again(s1, act, tribe, weight * mult[o], mode, acc, ctx, none, zero)
            if mode == BEST and acc[N_PARTS] and acc[N_PARTS - 1] > top:
                counters[C_LEAD] = o
        counters[C_DEPTH] = d
        return
    if step == S_SALE:
        _sales(s, act, weight, mode, acc, ctx)
        return
    if (step == S_TRIBE or step == S_TILE) and act[A_LEN] == 0:
        walk_again(s, act, step + 1, weight, mode, acc, ctx, none, zero)
        return
    if step == S_POST and mode == GREEDY and counters[C_FIRST_STAGE] \
            and not window_closed(s, mover):
        # the first stage stops here, valued by its best sale (module doc)
        d = _take(counters)
        rest, sub = ctx[7][7][d], ctx[7][8][d]
        _fresh(rest, sub, act)
        walk_again(s, sub, np.int64(S_SALE), one, np.int64(BEST), rest, ctx, none, zero)
        counters[C_DEPTH] = d
        act[A_END] = -1
        _choose(ctx[0], ctx[7], s, act, rest[:N_PARTS], OP_WINDOW, 0, S_POST)
        return
    if (step == S_PRE or step == S_POST) and window_closed(s, mover) \
            or step == S_PRE and mode == GREEDY:
        # the window's one choice: stop (the greedy choice uses no power before the sowing)
        if step == S_PRE:
            _pre_counted(counters, mode)
            walk_again(s, act, step + 1, weight, mode, acc, ctx, none, zero)
        else:
            _sales(s, act, weight, mode, acc, ctx)
        _clear_from(act, step + 1)
        return
    if step == S_TRIBE:
        options = tribe_choices(s, act, mover)
    elif step == S_TILE:
        options = tile_choices(s, act, mover)
    else:
        options = window_options(s, mover, step)
    uses = act[A_NUSES]
    # BEST after the tile action: a use that cannot beat the best so far is not walked
    # (its bound over stopping, strictly below: ``rest_bounds``)
    bound = mode == BEST and step == S_POST and sale_neutral(s, mover)
    stop = _now(s, mover, ctx[1], ctx[7][7][counters[C_DEPTH]]) if bound else 0.0
    d = _take(counters)
    n = ctx[7][6][d]
    for i in range(len(options)):
        if mode != TABLE and step == S_POST and options[i, 0] == O_USE \
                and options[i, 1] == ANUN_NAK and _last_window_power(s, mover, ANUN_NAK):
            continue  # only the sale follows, meeples score nothing: not better than stop
        if bound and options[i, 0] == O_USE and acc[N_PARTS] and stop + power_bound(
                s, options[i, 1], options[i, 3]) + window_bound(s, mover, options[i, 1]) \
                < acc[N_PARTS - 1]:
            continue
        copy_into(n, s)
        if step == S_TRIBE:
            nxt, op2, arg2 = play_tribe_choice(n, act, mover, options[i])
        elif step == S_TILE:
            nxt, op2, arg2 = play_tile_choice(n, act, mover, options[i]), none, zero
        else:
            nxt, op2, arg2 = play_window(n, act, mover, step, options[i])
            if options[i, 0] == O_STOP and step == S_PRE:
                _pre_counted(counters, mode)
        if nxt == S_POST and op2 == OP_NONE and window_closed(n, mover):
            _post_closed(n, act, weight, mode, acc, ctx)  # (as walk would: no recursion)
        else:
            walk_again(n, act, nxt, weight, mode, acc, ctx, op2, arg2)
        if act[A_NUSES] != uses:  # forget the uses this choice recorded
            act[A_USES + uses * U_SIZE:] = -1
            act[A_NUSES] = uses
    counters[C_DEPTH] = d
    _clear_from(act, step if step != S_PRE and step != S_POST else step + 1)


call_walk = unlinked(walk, "oddsbot.five_tribes.walk")  # (its callers hold a call, not a copy)
