"""Every piece movement of Mumia and what it sets off: collection, exchange passes, mummy
tokens, action-token draws, hat actions, the end tests (docs/games/mumia.md §4–§11).

Each function changes the state ``S`` in place under the rules ``R`` (``layout``). A move
is chosen elsewhere (``choices``); these functions assume it is legal.
"""

from ..jit import njit

from .layout import (
    DANGER, EXCHANGE, FIN, MAX_GUARDS, MAX_PAWNS, MAX_TILES, N_TOKEN_KINDS,
    R_E4, R_MUMMY, R_N_MUMMY, R_ONE_PER_ROLL, R_PAIR_ALONE, R_PAWNS, R_PLAYERS, R_SUDDEN,
    S_BAD, S_FRESH, S_GUARD, S_HAND, S_LUCK, S_MOVED, S_MPTS, S_MUMMY, S_OVER, S_PAWN,
    S_PILE, S_PILE_N, S_PRESENT, S_STACK, S_STACK_N, S_SWAPPED, S_TAKEN, S_TILE, S_TO_MOVE,
    hat_code, home, is_tile, kind_of, mummy_step, pawns_of_on, pieces_on, step,
)

# hat actions after a pawn move (§9), in the order the labels list them
HAT_NONE, TAKE_LUCK, TAKE_BAD, GIVE_LUCK, GIVE_BAD, SWAP_HATS = 0, 1, 2, 3, 4, 5
# a swap partner (§11): seats 0..5, or these
PIECE_GUARDIAN, PIECE_MUMMY = 6, 7


@njit(cache=True)
def push_tile(S, p, code):
    """Put tile ``code`` on top of seat ``p``'s stack."""
    n = S[S_STACK_N + p]
    S[S_STACK + p * MAX_TILES + n] = code
    S[S_STACK_N + p] = n + 1


@njit(cache=True)
def pop_tile(S, p):
    """Take the top tile off seat ``p``'s stack (its code, or -1 when empty)."""
    n = S[S_STACK_N + p]
    if n == 0:
        return -1
    S[S_STACK_N + p] = n - 1
    return S[S_STACK + p * MAX_TILES + n - 1]


@njit(cache=True)
def draw_token(S, p):
    """E4 (§11): seat ``p`` takes the top action token, if any; unusable this turn."""
    n = S[S_PILE_N]
    if n == 0:
        return
    kind = S[S_PILE]
    for i in range(n - 1):
        S[S_PILE + i] = S[S_PILE + i + 1]
    S[S_PILE_N] = n - 1
    S[S_HAND + p * N_TOKEN_KINDS + kind] += 1
    if S[S_TO_MOVE] == p:
        S[S_FRESH + kind] += 1


@njit(cache=True)
def spend_token(S, p, kind):
    """Seat ``p`` uses a token of ``kind``: it goes to the bottom of the pile (§11)."""
    S[S_HAND + p * N_TOKEN_KINDS + kind] -= 1
    S[S_PILE + S[S_PILE_N]] = kind
    S[S_PILE_N] += 1


@njit(cache=True)
def collect(S, R, p, f, from_track):
    """Seat ``p`` takes the tile of field ``f`` (§5), or, for an exchange tile, hands the
    top tile of its stack to the seat on its left (§8). A danger tile collected by a move
    draws an action token with E4 (§11; ``from_track`` false at a sudden end, M-AMB-20)."""
    t = f - 1
    code = S[S_TILE + t]
    if kind_of(code) == EXCHANGE:
        if from_track:
            top = pop_tile(S, p)
            if top >= 0:
                push_tile(S, (p + 1) % R[R_PLAYERS], top)
        return
    S[S_PRESENT + t] = 0
    push_tile(S, p, code)
    if from_track and kind_of(code) == DANGER and R[R_E4] != 0:
        draw_token(S, p)


@njit(cache=True)
def leave(S, R, p, f):
    """§5: the mover's own pawn or the mummy left field ``f``; the last one out takes it."""
    if is_tile(f) and pieces_on(S, R, f) == 0:
        collect(S, R, p, f, True)


@njit(cache=True)
def end_test(S, R):
    """§6, after every piece movement: the standard end (every pawn home) or, with
    ``sudden_end``, the first seat home ends the game and every other seat takes each
    tile where one of its pawns stands alone."""
    if S[S_OVER] != 0:
        return
    n = R[R_PLAYERS]
    done = 0
    for p in range(n):
        if home(S, R, p):
            done += 1
    if done == n:
        S[S_OVER] = 1
        return
    if R[R_SUDDEN] == 0 or done == 0:
        return
    S[S_OVER] = 1
    for p in range(n):
        for k in range(R[R_PAWNS]):
            f = S[S_PAWN + p * MAX_PAWNS + k]
            if not is_tile(f) or S[S_PRESENT + f - 1] == 0:
                continue
            mine = pawns_of_on(S, R, p, f)
            others = pieces_on(S, R, f) - mine
            alone = others == 0 and (mine == 1 or R[R_PAIR_ALONE] != 0)
            if alone:
                collect(S, R, p, f, False)


@njit(cache=True)
def pay_mummy(S, R, p, passes):
    """§5: one mummy token per pass (at most one per roll with ``tokens_per_pass =
    one``), while the stack lasts; the mummy leaves with the last one."""
    if R[R_ONE_PER_ROLL] != 0 and passes > 1:
        passes = 1
    for _ in range(passes):
        if S[S_TAKEN] >= R[R_N_MUMMY]:
            break
        S[S_MPTS + p] += R[R_MUMMY + S[S_TAKEN]]
        S[S_TAKEN] += 1


@njit(cache=True)
def retire_mummy(S, R):
    """§3: after the last token the mummy leaves the track (no collection: not a move)."""
    if S[S_MUMMY] >= 0 and S[S_TAKEN] >= R[R_N_MUMMY]:
        S[S_MUMMY] = -1


@njit(cache=True)
def move_pawn(S, R, slot, n):
    """The mover moves its pawn ``slot`` ``n`` steps (§4, §5)."""
    p = slot // MAX_PAWNS
    f = S[S_PAWN + slot]
    S[S_PAWN + slot] = step(S, f, n)
    S[S_MOVED] |= 1 << slot  # not swapped later in this turn (§11.4)
    leave(S, R, p, f)
    end_test(S, R)


@njit(cache=True)
def move_guardian(S, R, g, n):
    """A guardian moves ``n`` steps; at FIN it goes to the box; nothing is taken (§5)."""
    to = step(S, S[S_GUARD + g], n)
    S[S_GUARD + g] = -1 if to == FIN else to
    end_test(S, R)


@njit(cache=True)
def move_mummy(S, R, p, n):
    """Seat ``p`` moves the mummy ``n`` steps on its cycle (§4, §5)."""
    f = S[S_MUMMY]
    to, passes = mummy_step(S, f, n)
    S[S_MUMMY] = to
    pay_mummy(S, R, p, passes)
    leave(S, R, p, f)
    retire_mummy(S, R)
    end_test(S, R)


@njit(cache=True)
def partner(S, R, q, f, wearing):
    """The pawn slot of seat ``q`` on field ``f`` that a hat action or a Swap reaches
    (§9.3, §11.4; -1 if ``q`` has none there): with ``wearing`` the first wearing a hat,
    else one wearing none, else the first; "first" in hat order (luck, bad, both), so
    the answer never depends on which of two alike pawns holds which slot."""
    best = -1
    best_code = 4
    for k in range(R[R_PAWNS]):
        slot = q * MAX_PAWNS + k
        if S[S_PAWN + slot] != f:
            continue
        code = hat_code(S, slot)
        if wearing and code == 0:
            continue
        if code < best_code:
            best = slot
            best_code = code
    return best


@njit(cache=True)
def hat_action(S, R, slot, op, q):
    """§9: the pawn ``slot`` that just moved exchanges hats with a pawn of seat ``q`` on
    its field: take or give a hat, or swap every hat of the two pawns."""
    f = S[S_PAWN + slot]
    if op == TAKE_LUCK or op == TAKE_BAD:
        hat = S_LUCK if op == TAKE_LUCK else S_BAD
        S[hat] = slot
    elif op == GIVE_LUCK or op == GIVE_BAD:
        hat = S_LUCK if op == GIVE_LUCK else S_BAD
        S[hat] = partner(S, R, q, f, False)
    elif op == SWAP_HATS:
        other = partner(S, R, q, f, True)
        if other < 0:
            other = partner(S, R, q, f, False)
        for hat in (S_LUCK, S_BAD):
            if S[hat] == slot:
                S[hat] = other
            elif S[hat] == other:
                S[hat] = slot


@njit(cache=True)
def push(S, R, p, f, n):
    """E4 Push (§11): every opponent pawn, guardian and the mummy on field ``f`` moves
    ``n`` steps together; nothing is taken; mummy tokens go to the pusher ``p``."""
    for slot in range(R[R_PLAYERS] * MAX_PAWNS):
        if slot // MAX_PAWNS != p and slot % MAX_PAWNS < R[R_PAWNS] \
                and S[S_PAWN + slot] == f:
            S[S_PAWN + slot] = step(S, f, n)
    for g in range(MAX_GUARDS):
        if S[S_GUARD + g] == f:
            to = step(S, f, n)
            S[S_GUARD + g] = -1 if to == FIN else to
    if S[S_MUMMY] == f:
        to, passes = mummy_step(S, f, n)
        S[S_MUMMY] = to
        pay_mummy(S, R, p, passes)
        retire_mummy(S, R)
    end_test(S, R)


@njit(cache=True)
def swap(S, R, slot, g, piece):
    """E4 Swap (§11): pawn ``slot`` and ``piece`` on the adjacent field ``g`` (a seat's
    pawn, a guardian or the mummy) change places; nothing is taken."""
    f = S[S_PAWN + slot]
    if piece == PIECE_MUMMY:
        S[S_MUMMY] = f
    elif piece == PIECE_GUARDIAN:
        for i in range(MAX_GUARDS):
            if S[S_GUARD + i] == g:
                S[S_GUARD + i] = f
                break
    else:
        other = partner(S, R, piece, g, False)
        S[S_PAWN + other] = f
    S[S_PAWN + slot] = g
    S[S_SWAPPED] |= 1 << slot  # not moved later in this turn (§11.4)
    end_test(S, R)


@njit(cache=True)
def bottom(S, p):
    """E4 Bottom (§11): the top tile of seat ``p``'s stack goes to its bottom."""
    n = S[S_STACK_N + p]
    if n < 2:
        return
    base = S_STACK + p * MAX_TILES
    top = S[base + n - 1]
    for i in range(n - 1, 0, -1):
        S[base + i] = S[base + i - 1]
    S[base] = top


@njit(cache=True)
def usable(S, p, kind):
    """Tokens of ``kind`` seat ``p`` (the mover) may use now: not those gained this turn."""
    return S[S_HAND + p * N_TOKEN_KINDS + kind] - S[S_FRESH + kind]


@njit(cache=True)
def end_turn(S, R):
    """Pass the dice to the next seat that still has a pawn off FIN (§3)."""
    for j in range(N_TOKEN_KINDS):
        S[S_FRESH + j] = 0
    S[S_SWAPPED] = 0
    S[S_MOVED] = 0
    if S[S_OVER] != 0:
        return
    n = R[R_PLAYERS]
    p = S[S_TO_MOVE]
    for i in range(1, n + 1):
        q = (p + i) % n
        if not home(S, R, q):
            S[S_TO_MOVE] = q
            return

