"""The legal choices of a roll, applying one, and the policies that pick one
(docs/games/mumia.md §3, §9, §11, §16).

A choice is a row of ``N_COLS`` int64: ``[kind, a, b, c, d, extra]``:

- ``C_PAWN``: ``a`` the pawn slot, ``b`` its number K counted from the back (the label's
  ``pawn K``), ``c`` the hat action after the move (``moves.HAT_*``), ``d`` its partner seat;
- ``C_GUARDIAN``: ``a`` the guardian, ``b`` its field; ``C_MUMMY``;
- ``C_PUSH``: ``a`` the field (E4, replaces the move);
- ``C_SWAP``: ``a`` the mover's pawn slot, ``b`` the adjacent field, ``c`` the partner
  piece (a seat, ``moves.PIECE_GUARDIAN`` or ``PIECE_MUMMY``); ``C_BOTTOM`` (E4, before
  the move: ``token_choices``);
- ``C_PASS``: no move is legal (§11.7), the label ``pass``;
- ``extra``: 1 when the label adds ``+ token extra`` (an Extra move right after).

Rows come in the canonical order of the labels (§16.1), which is also the policies'
tie-break order.
"""

import numpy as np
from ..arrays import copy_into
from ..jit import njit

from ..rng import below
from .layout import (
    BOTTOM, CAMEL, DANGER, EXCHANGE, EXTRA, FIN, MAX_GUARDS, MAX_PAWNS, MAX_TILES,
    N_TOKEN_KINDS, PUSH, R_E2, R_E4, R_HAT_BAD, R_HAT_LUCK, R_LUCK_LAST, R_PAWNS, R_PLAYERS,
    R_SUDDEN, R_TOKENS_SF, R_UNUSED, S_BAD, S_GUARD, S_HAND, S_LUCK, S_MOVED, S_MPTS,
    S_MUMMY, S_OVER, S_PAWN, S_PILE_N, S_PRESENT, S_STACK, S_STACK_N, S_SWAPPED, S_T,
    S_TILE, S_TO_MOVE, START, SWAP, SYM_M, SYM_NONE, SYM_P, TREASURE, field_mask, has_bit,
    hat_code, home, is_tile, kind_of, magnitude_of, next_field, pawns_of_on, pieces_on,
    previous_field, score, score_with, step,
)
from .moves import (
    GIVE_BAD, GIVE_LUCK, HAT_NONE, PIECE_GUARDIAN, PIECE_MUMMY, SWAP_HATS, TAKE_BAD,
    TAKE_LUCK, bottom, hat_action, move_guardian, move_mummy, move_pawn, partner, push,
    spend_token, swap, usable,
)

C_PAWN, C_GUARDIAN, C_MUMMY, C_PUSH, C_SWAP, C_BOTTOM, C_PASS = 0, 1, 2, 3, 4, 5, 6
N_COLS = 6
MAX_CHOICES = 256
POLICY_NAMES = ("heuristic", "greedy", "random")  # ids 0, 1, 2
HEURISTIC, GREEDY, RANDOM = 0, 1, 2
CAMEL_WORTH = 5  # a camel tile's worth to the heuristic (§16.4)


@njit(cache=True)
def pawn_order(S, R, p, out, last, first):
    """Seat ``p``'s pawn slots off FIN from the back: by field, then hats (none, luck,
    bad, both), then among pawns alike the slots with their bit set in ``last`` after
    the others and those set in ``first`` before them (§16.1): ``out[:m]``. Returns m."""
    m = 0
    for k in range(R[R_PAWNS]):
        slot = p * MAX_PAWNS + k
        if S[S_PAWN + slot] == FIN:
            continue
        key = _order_key(S, slot, last, first)
        j = m
        while j > 0 and _order_key(S, out[j - 1], last, first) > key:
            out[j] = out[j - 1]
            j -= 1
        out[j] = slot
        m += 1
    return m


@njit(cache=True, inline="always")
def _order_key(S, slot, last, first):
    return (((S[S_PAWN + slot] * 4 + hat_code(S, slot)) * 2 + ((last >> slot) & 1)) * 2
            + 1 - ((first >> slot) & 1))


@njit(cache=True, inline="always")
def _row(out, m, kind, a, b, c, d, extra):
    out[m, 0] = kind
    out[m, 1] = a
    out[m, 2] = b
    out[m, 3] = c
    out[m, 4] = d
    out[m, 5] = extra
    return m + 1


@njit(cache=True)
def _luck_blocked(S, R, p, slot, n):
    """``luck_hat_last_out`` (M-AMB-13): the lucky pawn may not reach FIN while another
    of its seat's pawns is off FIN."""
    if R[R_LUCK_LAST] == 0 or S[S_LUCK] != slot:
        return False
    if step(S, S[S_PAWN + slot], n) != FIN:
        return False
    for k in range(R[R_PAWNS]):
        other = p * MAX_PAWNS + k
        if other != slot and S[S_PAWN + other] != FIN:
            return True
    return False


@njit(cache=True)
def _hat_rows(S, R, p, slot, n, number, out, m):
    """The hat actions open after pawn ``slot`` moves ``n`` (§9): take luck, take bad,
    give luck, give bad, swap hats, each with the opponent seats in play order; swap
    hats only where it is none of the others (both pawns wear a hat, or one wears
    both)."""
    if R[R_E2] == 0:
        return m
    to = step(S, S[S_PAWN + slot], n)
    if not is_tile(to):
        return m
    players = R[R_PLAYERS]
    mine = hat_code(S, slot)
    for op in range(TAKE_LUCK, SWAP_HATS + 1):
        for i in range(1, players):
            q = (p + i) % players
            if pawns_of_on(S, R, q, to) == 0:
                continue
            luck = S[S_LUCK] >= 0 and S[S_LUCK] // MAX_PAWNS == q \
                and S[S_PAWN + S[S_LUCK]] == to
            bad = S[S_BAD] >= 0 and S[S_BAD] // MAX_PAWNS == q and S[S_PAWN + S[S_BAD]] == to
            if (op == TAKE_LUCK and luck) or (op == TAKE_BAD and bad) \
                    or (op == GIVE_LUCK and mine & 1) or (op == GIVE_BAD and mine & 2) \
                    or (op == SWAP_HATS and _swap_differs(S, R, mine, q, to)):
                m = _row(out, m, C_PAWN, slot, number, op, q, 0)
    return m


@njit(cache=True)
def _swap_differs(S, R, mine, q, to):
    """A swap of hats with seat ``q``'s pawn on ``to`` is none of the takes and gives:
    both pawns wear a hat, or one of them wears both (§9.3)."""
    worn = partner(S, R, q, to, True)
    theirs = hat_code(S, worn) if worn >= 0 else 0
    return (mine != 0 and theirs != 0) or mine == 3 or theirs == 3


@njit(cache=True)
def _guardian_rows(S, R, out, m):
    """One row per field holding a movable guardian, fields in track order."""
    first = m
    movable = field_mask(S, R, -1, False)  # §3: a pawn or the mummy shares the field
    for g in range(MAX_GUARDS):
        f = S[S_GUARD + g]
        if f < 0 or not has_bit(movable, f):
            continue
        j = m
        seen = False
        for i in range(first, m):
            if out[i, 2] == f:
                seen = True
        if seen:
            continue
        while j > first and out[j - 1, 2] > f:
            copy_into(out[j], out[j - 1])
            j -= 1
        _row(out, j, C_GUARDIAN, g, f, 0, 0, 0)
        m += 1
    return m


@njit(cache=True)
def _pushes(S, R, p, f):
    """§11.5: a Push on field ``f`` moves something: an opponent's pawn off FIN, a
    guardian or the mummy stands there beside one of the mover's pawns."""
    mine = pawns_of_on(S, R, p, f)
    if mine == 0:
        return False
    if f == FIN:
        return S[S_MUMMY] == FIN  # finished pawns never move; no guardian stands there
    return pieces_on(S, R, f) > mine


@njit(cache=True)
def move_choices(S, R, n, sym, out, extra_rows):
    """The move choices of roll (``n``, ``sym``) for the seat to move in canonical
    order, or the one row ``C_PASS`` when there is none (§11.7); with ``extra_rows``
    each move after which the seat still takes turns is listed again with ``+ token
    extra`` when the seat holds a usable Extra move token (§11.3). Returns the count."""
    p = S[S_TO_MOVE]
    m = 0
    order = out[out.shape[0] - 1]  # scratch: choices never fill the last row
    if sym != SYM_M:
        # of pawns alike, one moved already goes: the others stay free to be swapped
        count = pawn_order(S, R, p, order, S[S_SWAPPED], S[S_MOVED])
        for i in range(count):
            slot = order[i]
            if (S[S_SWAPPED] >> slot) & 1:
                continue  # a pawn swapped this turn is not moved in it (§11.4)
            if i > 0 and S[S_PAWN + slot] == S[S_PAWN + order[i - 1]] \
                    and hat_code(S, slot) == hat_code(S, order[i - 1]):
                continue
            if _luck_blocked(S, R, p, slot, n):
                continue
            m = _row(out, m, C_PAWN, slot, i + 1, HAT_NONE, -1, 0)
            m = _hat_rows(S, R, p, slot, n, i + 1, out, m)
        m = _guardian_rows(S, R, out, m)
    if sym != SYM_P and S[S_MUMMY] >= 0:
        m = _row(out, m, C_MUMMY, 0, 0, 0, 0, 0)
    if R[R_E4] != 0 and usable(S, p, PUSH) > 0:
        for f in range(START, FIN + 1):
            if f == START or f == FIN:
                if R[R_TOKENS_SF] == 0:
                    continue
            elif f > S[S_T] or S[S_PRESENT + f - 1] == 0:
                continue
            if _pushes(S, R, p, f):
                m = _row(out, m, C_PUSH, f, 0, 0, 0, 0)
    if m == 0:
        return _row(out, 0, C_PASS, 0, 0, 0, 0, 0)
    if extra_rows and R[R_E4] != 0 and usable(S, p, EXTRA) > 0:
        # with two pawns out and no sudden end, no move ends the game or the seat's turns
        sure = R[R_SUDDEN] == 0 and R[R_PAWNS] - pawns_of_on(S, R, p, FIN) >= 2
        work = np.empty(0 if sure else S.shape[0], dtype=np.int64)
        plain = m
        for i in range(plain):
            if not sure:
                copy_into(work, S)
                apply_choice(work, R, out[i], n)
                if work[S_OVER] != 0 or home(work, R, p):
                    continue
            m = _row(out, m, out[i, 0], out[i, 1], out[i, 2], out[i, 3], out[i, 4], 1)
    return m


@njit(cache=True)
def _swap_partners(S, R, p, slot, g, out, m):
    """The Swaps of pawn ``slot`` with a piece on field ``g`` (§11.4)."""
    if g == START and R[R_TOKENS_SF] == 0:
        return m
    if g == FIN:  # only the mummy can be swapped there, and only by M-AMB-23
        if R[R_TOKENS_SF] != 0 and S[S_MUMMY] == FIN:
            m = _row(out, m, C_SWAP, slot, g, PIECE_MUMMY, 0, 0)
        return m
    players = R[R_PLAYERS]
    for i in range(1, players):
        q = (p + i) % players
        if pawns_of_on(S, R, q, g) > 0:
            m = _row(out, m, C_SWAP, slot, g, q, 0, 0)
    for h in range(MAX_GUARDS):
        if S[S_GUARD + h] == g:
            m = _row(out, m, C_SWAP, slot, g, PIECE_GUARDIAN, 0, 0)
            break
    if S[S_MUMMY] == g:
        m = _row(out, m, C_SWAP, slot, g, PIECE_MUMMY, 0, 0)
    return m


@njit(cache=True)
def token_choices(S, R, n, sym, out):
    """E4 tokens the seat to move may use before its move of roll (``n``, ``sym``)
    (§11): every Swap (its pawn on field F not moved this turn, the partner on F-1 or
    F+1) after which a move is still legal (moving is compulsory, §11.4), then Bottom.
    Returns the count."""
    p = S[S_TO_MOVE]
    m = 0
    if R[R_E4] == 0:
        return 0
    if usable(S, p, SWAP) > 0:
        moved = S[S_MOVED]
        order = np.empty(MAX_PAWNS, dtype=np.int64)
        # of pawns alike, one swapped already is swapped: the others stay free to move
        count = pawn_order(S, R, p, order, moved, S[S_SWAPPED])
        last = -1
        for i in range(count):
            slot = order[i]
            f = S[S_PAWN + slot]
            if (moved >> slot) & 1 or f == last:
                continue  # a moved pawn is not swapped; one Swap per field (§11.4)
            last = f
            if f == START and R[R_TOKENS_SF] == 0:
                continue
            first = m
            if f != START:
                m = _swap_partners(S, R, p, slot, previous_field(S, f), out, m)
            m = _swap_partners(S, R, p, slot, next_field(S, f), out, m)
            m = _keep_with_move(S, R, n, sym, out, first, m)
    if usable(S, p, BOTTOM) > 0 and S[S_STACK_N + p] >= 1:
        m = _row(out, m, C_BOTTOM, 0, 0, 0, 0, 0)
    return m


@njit(cache=True, inline="always")  # one caller, token_choices
def _keep_with_move(S, R, n, sym, out, first, m):
    """Keep of ``out[first:m]`` (Swaps) those after which a move is legal or the game
    is over; returns the new count."""
    if sym != SYM_P and sym != SYM_NONE and S[S_MUMMY] >= 0:
        return m  # the mummy may move whatever is swapped (a Swap never removes it)
    work = np.empty(S.shape[0], dtype=np.int64)
    rows = np.empty((MAX_CHOICES, N_COLS), dtype=np.int64)
    kept = first
    for i in range(first, m):
        copy_into(work, S)
        apply_choice(work, R, out[i], n)
        if work[S_OVER] != 0 or move_choices(work, R, n, sym, rows, False) > 1 \
                or rows[0, 0] != C_PASS:
            copy_into(out[kept], out[i])
            kept += 1
    return kept


@njit(cache=True)
def apply_choice(S, R, row, n):
    """Apply choice ``row`` of the seat to move with number ``n`` (the Extra move of
    ``row[5]`` is the turn's business: ``game.play_move``); ``C_PASS`` changes
    nothing."""
    p = S[S_TO_MOVE]
    kind = row[0]
    if kind == C_PAWN:
        move_pawn(S, R, row[1], n)
        if row[3] != HAT_NONE:
            hat_action(S, R, row[1], row[3], row[4])
    elif kind == C_GUARDIAN:
        move_guardian(S, R, row[1], n)
    elif kind == C_MUMMY:
        move_mummy(S, R, p, n)
    elif kind == C_PUSH:
        spend_token(S, p, PUSH)
        push(S, R, p, row[1], n)
    elif kind == C_SWAP:
        spend_token(S, p, SWAP)
        swap(S, R, row[1], row[2], row[3])
    elif kind == C_BOTTOM:
        spend_token(S, p, BOTTOM)
        bottom(S, p)


@njit(cache=True)
def held_worth(S, R, p):
    """The heuristic's worth of the tiles only seat ``p``'s pawns stand on (§16.4)."""
    return held_with(S, R, p, -1, 0, field_mask(S, R, p, True))


@njit(cache=True)
def held_with(S, R, p, slot, to, others):
    """``held_worth`` with pawn ``slot`` (-1: none) on field ``to`` and ``others`` the
    fields holding a piece that is not one of ``p``'s pawns (``layout.field_mask``)."""
    total = 0
    seen = np.uint64(0)
    for k in range(R[R_PAWNS]):
        s = p * MAX_PAWNS + k
        f = to if s == slot else S[S_PAWN + s]
        if not is_tile(f) or has_bit(others, f) or has_bit(seen, f):
            continue
        seen |= np.uint64(1) << np.uint64(f)
        code = S[S_TILE + f - 1]
        kind = kind_of(code)
        if kind == DANGER:
            total -= magnitude_of(code)
        elif kind == TREASURE:
            total += magnitude_of(code)
        elif kind == CAMEL:
            total += CAMEL_WORTH
    return total


@njit(cache=True)
def pawn_gain(S, R, p, slot, to):
    """The mover's score change from moving its pawn ``slot`` ``n`` steps (no hat
    action), without making the move: the tile it takes if it was the last piece there
    (an exchange tile's pass instead, §8; an action token with a danger tile, §11) and a
    hat locked at FIN (§9). ``to``: where the pawn ends."""
    f = S[S_PAWN + slot]
    gain = 0
    if is_tile(f) and pieces_on(S, R, f) == 1:
        code = S[S_TILE + f - 1]
        if kind_of(code) == EXCHANGE:
            if S[S_STACK_N + p] > 0:
                gain = score_with(S, R, p, -1, True) - score(S, R, p)
        else:
            gain = score_with(S, R, p, code, False) - score(S, R, p)
            if kind_of(code) == DANGER and R[R_E4] != 0 and S[S_PILE_N] > 0:
                gain += R[R_UNUSED]
    if to == FIN:
        gain += hat_worth(S, R, slot)
    return gain


@njit(cache=True)
def holdings_changed(S, work, p):
    """False when seat ``p``'s score cannot differ between ``S`` and ``work``: the same
    tiles, mummy tokens, action tokens and hats (a cheap test before ``score``)."""
    if S[S_STACK_N + p] != work[S_STACK_N + p] or S[S_MPTS + p] != work[S_MPTS + p] \
            or S[S_LUCK] != work[S_LUCK] or S[S_BAD] != work[S_BAD]:
        return True
    for j in range(N_TOKEN_KINDS):
        if S[S_HAND + p * N_TOKEN_KINDS + j] != work[S_HAND + p * N_TOKEN_KINDS + j]:
            return True
    for hat in (S[S_LUCK], S[S_BAD]):
        if hat >= 0 and (S[S_PAWN + hat] == FIN) != (work[S_PAWN + hat] == FIN):
            return True
    return False


@njit(cache=True)
def hat_worth(S, R, slot):
    return ((R[R_HAT_LUCK] if S[S_LUCK] == slot else 0)
            + (R[R_HAT_BAD] if S[S_BAD] == slot else 0))


@njit(cache=True)
def copy_for_eval(S, work, p):
    """``work`` = ``S`` as far as a choice of seat ``p`` and ``score(work, p)`` read it:
    everything but the other seats' stacks (a move adds to or takes from the mover's own
    stack; an exchange pass puts a tile on the left neighbour's, never read here)."""
    copy_into(work[:S_STACK], S[:S_STACK])
    copy_into(work[S_MPTS:], S[S_MPTS:])
    base = S_STACK + p * MAX_TILES
    for i in range(S[S_STACK_N + p]):
        work[base + i] = S[base + i]


@njit(cache=True)
def _pick_hat(S, R, rows, m, i, n, work):
    """The hat rule (§16.4): among row ``i`` (no hat action) and the hat actions that
    follow it, the one that most raises the moved pawn's hat worth; ties: the first."""
    best = i
    best_v = -(1 << 30)
    j = i
    while j < m and rows[j, 0] == C_PAWN and rows[j, 1] == rows[i, 1] \
            and rows[j, 5] == rows[i, 5]:
        copy_for_eval(S, work, S[S_TO_MOVE])
        apply_choice(work, R, rows[j], n)
        v = hat_worth(work, R, rows[j, 1])
        if v > best_v:
            best_v = v
            best = j
        j += 1
    return best


@njit(cache=True)
def choose(S, R, n, rows, m, policy, rng, work):
    """The row (index) ``policy`` picks among the ``m`` choices ``rows``: ``random``
    uniformly among them (hat actions aside; with E4 the rows hold the moves with
    ``+ token extra`` and the Swaps and Bottom too, ``game.play_move``), ``greedy`` (moves
    only) the largest score change, ``heuristic`` score change plus half the change of
    held worth; then the hat rule (§16.4)."""
    p = S[S_TO_MOVE]
    plain = 0
    for i in range(m):
        if rows[i, 0] != C_PAWN or rows[i, 3] == HAT_NONE:
            plain += 1
    if policy == RANDOM:
        target = below(rng, plain)
        for i in range(m):
            if rows[i, 0] != C_PAWN or rows[i, 3] == HAT_NONE:
                if target == 0:
                    return _pick_hat(S, R, rows, m, i, n, work) if rows[i, 0] == C_PAWN else i
                target -= 1
    if plain == 1:  # one move (and maybe its hat actions): nothing to weigh
        return _pick_hat(S, R, rows, m, 0, n, work) if rows[0, 0] == C_PAWN else 0
    heuristic = policy == HEURISTIC
    others = field_mask(S, R, p, True) if heuristic else np.uint64(0)
    held = held_with(S, R, p, -1, 0, others) if heuristic else 0
    best = 0
    best_v = -1e300
    for i in range(m):
        kind = rows[i, 0]
        if kind == C_PAWN and rows[i, 3] != HAT_NONE:
            continue
        if kind == C_PAWN:  # the common moves valued without making them
            slot = rows[i, 1]
            to = step(S, S[S_PAWN + slot], n)
            v = 2.0 * pawn_gain(S, R, p, slot, to)
            if heuristic:
                v += held_with(S, R, p, slot, to, others) - held
        elif kind == C_GUARDIAN:
            v = 0.0
            if heuristic:
                g = rows[i, 1]
                to = step(S, S[S_GUARD + g], n)
                moved = field_mask(S, R, p, False)  # pawns and the mummy, no guardian
                for h in range(MAX_GUARDS):
                    if h != g and S[S_GUARD + h] >= 0:
                        moved |= np.uint64(1) << np.uint64(S[S_GUARD + h])
                if to != FIN:
                    moved |= np.uint64(1) << np.uint64(to)
                v += held_with(S, R, p, -1, 0, moved) - held
        else:
            copy_for_eval(S, work, p)
            apply_choice(work, R, rows[i], n)
            v = 2.0 * (score(work, R, p) - score(S, R, p) if holdings_changed(S, work, p)
                       else 0)
            if heuristic:
                v += held_worth(work, R, p) - held
        if v > best_v + 1e-9:
            best_v = v
            best = i
    if rows[best, 0] == C_PAWN:
        return _pick_hat(S, R, rows, m, best, n, work)
    return best


@njit(cache=True)
def wants_extra(S, R, policy):
    """Greedy and heuristic use an Extra move token right after their move whenever they
    may and still have a pawn off FIN (random chooses its Extra moves with the move,
    ``game.play_move``; §16.4)."""
    p = S[S_TO_MOVE]
    return (policy != RANDOM and R[R_E4] != 0 and S[S_OVER] == 0 and usable(S, p, EXTRA) > 0
            and not home(S, R, p))
