"""The rest of a leg: exact over the race deck's orders, or Monte Carlo
(docs/games/camel-up-cards.md §9, §14).

What the viewer knows of the race deck (§9) comes in two forms. Sampling takes the
*candidates*: count vectors ``m[j]`` (cards of each type still in the deck) with weights
``w[j]`` summing to 1 (``posterior.deck_candidates``). The exact pass takes the knowledge
itself: counts per type of the known deck cards ``known``, of the unseen ``pool`` and of the
cards ``revealed``, and the size ``k`` of the unknown part. Nobody places a figure or plays
a hand card in what is enumerated: the deck alone moves camels until it is empty (the leg
ends) or a unit finishes (the race ends).

The outcome of a leg is a cell of ``hist[first, ended, ranking, fox_on, palm_on]``:
whether the first card drawn already ended the leg or the race (a bet taken after a
reveal is then lost, §4), whether the race ended, the ranking (``track.rank_index``), and
whether each figure is still on the track (its holder pays 1 EP, §7).

Exact: a forward pass over (board, cards drawn so far), merging equal states. The chance of
drawing type t next, given the counts ``d`` drawn since, is ``F(d + e_t) / F(d) / (M - D)``
(M cards left now, D drawn since), where ``F(d)`` is, up to a constant, the posterior
chance of the drawn counts: the sum over compositions u of the unknown part of
``prod_t C(pool_t, u_t) (known_t + u_t)! / (known_t + u_t - r_t - d_t)!`` (the prior times
the falling factorials of the reveals and the draws). That sum over u with sum(u) = k is
the coefficient of z^k in a product of one polynomial per type, so each ``F(d)`` costs a
few hundred operations however many candidate decks there are; it is computed once per
``d``. The states the last card is drawn from are not merged (the widest level, ~200,000
states in the hardest 8-card case): the last card's chance is summed by board instead, and
each board moves once per type. A pass that would hold more than ``max_states`` states at
once gives up (returns False) and the caller samples instead.
"""

import numpy as np
from ..arrays import copy_into
from ..jit import njit

from ..merge import doubled, level, put
from ..rng import below, next_u64, reseed
from .track import (
    CNT, FOX, HT, N_CAMELS, N_TYPES, PALM, SP, TRACK_SIZE, card_colour,
    card_value, extend, move, rank_index, ranking, sandstorm,
)

N_RANKS = 120
HIST_SHAPE = (2, 2, N_RANKS, 2, 2)
_D_BASE = 8  # counts drawn per type are below 8: a type has at most 5 cards in a deck


@njit(cache=True, inline="always")
def _board_key(tr):
    """The camels' positions and heights and the figures' spaces as one integer."""
    k = 0
    for c in range(N_CAMELS):
        k = (k << 9) | (tr[SP + c] << 3) | tr[HT + c]
    return (((k << 6) | tr[FOX]) << 6) | tr[PALM]


@njit(cache=True, inline="always")
def _set_board(tr, key):
    """Write the board of ``key`` into ``tr``, which holds a board already (its other
    fields are left as they are)."""
    tr[PALM] = key & 63
    key >>= 6
    tr[FOX] = key & 63
    key >>= 6
    for c in range(N_CAMELS):  # ``tr`` holds a board: only its camels' spaces are counted
        tr[CNT + tr[SP + c]] = 0
    for c in range(N_CAMELS - 1, -1, -1):
        tr[HT + c] = key & 7
        tr[SP + c] = (key >> 3) & 63
        tr[CNT + tr[SP + c]] += 1
        key >>= 9


MAX_COUNT = 6  # more cards of one type than a deck can hold (5 of a "+1")


@njit(cache=True)
def _falling(n, r):
    """n (n - 1) ... (n - r + 1), 0 when r > n."""
    if r > n:
        return 0.0
    out = 1.0
    for i in range(r):
        out *= n - i
    return out


@njit(cache=True)
def _polys(known, pool, k, revealed):
    """``g[t, d, u]`` = C(pool_t, u) (known_t + u)! / (known_t + u - r_t - d)!: type t's
    factor of ``F`` for u unknown cards of it and d drawn (module doc)."""
    g = np.zeros((N_TYPES, MAX_COUNT + 1, k + 1))
    for t in range(N_TYPES):
        for d in range(MAX_COUNT + 1):
            choose = 1.0
            for u in range(min(pool[t], k) + 1):
                if u > 0:
                    choose = choose * (pool[t] - u + 1) / u
                g[t, d, u] = choose * _falling(known[t] + u, revealed[t] + d)
    return g


@njit(cache=True, inline="always")
def _chance(g, d, k, acc):
    """``F(d)`` (module doc): the z^k coefficient of prod_t g[t, d_t, :] (``acc``: room
    for k + 1 coefficients)."""
    for u in range(k + 1):
        acc[u] = g[0, d[0], u]
    for t in range(1, N_TYPES):
        for i in range(k, -1, -1):  # in place: acc[i - u] for u > 0 is not updated yet
            total = 0.0
            for u in range(i + 1):
                total += acc[i - u] * g[t, d[t], u]
            acc[i] = total
    return acc[k]


@njit(cache=True, inline="always")
def _cell(hist, tr, first, ended, p):
    hist[1 if first else 0, 1 if ended else 0, rank_index(tr), 1 if tr[FOX] else 0,
         1 if tr[PALM] else 0] += p


@njit(cache=True, inline="always")
def _outcome_code(tr, ended):
    """The cell of ``hist`` but ``first`` (``_cell``) as one number: ended, ranking, fox
    on, palm on."""
    return ((((1 if ended else 0) * N_RANKS + rank_index(tr)) * 2 + (1 if tr[FOX] else 0))
            * 2 + (1 if tr[PALM] else 0))


_MOVED = 4 * N_RANKS * 2  # above every outcome code (``_expand``)


@njit(cache=True, inline="always")
def _add(hist, first, c, p):
    """Add ``p`` to the cell of outcome code ``c`` (``_outcome_code``)."""
    hist[first, c // (4 * N_RANKS), c // 4 % N_RANKS, c // 2 % 2, c % 2] += p


@njit(cache=True)
def _counts_after(g, k, dkeys, ns, f, left, d, acc):
    """The counts drawn after one more card, from a level's counts (rows ``j < ns`` of
    ``dkeys``, ``F`` of each in ``f``; ``left`` cards left): (q, dnext, keys, rows, F).
    ``q[j, t]``: the chance that the next card is of type t (module doc); ``dnext[j, t]``:
    the row of row j's counts and a card of type t among the next level's counts ``keys``
    (a ``merge`` level of ``rows`` rows, ``F`` of each in the last array). ``F`` is
    computed once per counts, in line (``d``, ``acc``: scratch)."""
    dk, dv, di = level(_room(ns * N_TYPES))
    fn = np.empty(dk.shape[0])
    q = np.zeros((ns, N_TYPES))
    dnext = np.full((ns, N_TYPES), -1, dtype=np.int64)
    nn = 0
    for j in range(ns):
        if f[j] == 0.0:
            continue
        rest = dkeys[j, 0]
        for t in range(N_TYPES):
            d[t] = rest % _D_BASE
            rest //= _D_BASE
        step = 1
        for t in range(N_TYPES):
            if d[t] < MAX_COUNT:
                new = nn
                nn, r = put(dk, dv, di, nn, dkeys[j, 0] + step, 0, 0.0)
                if nn > new:
                    d[t] += 1
                    fn[r] = _chance(g, d, k, acc)
                    d[t] -= 1
                dnext[j, t] = r
                q[j, t] = fn[r] / f[j] / left
            step *= _D_BASE
    return q, dnext, dk, nn, fn


@njit(cache=True)
def _expand(sk, sv, n, row, bkeys, q, moves, dnext, first, tr, hist, nxt, nn, boards, nb,
            max_states, qn, last):
    """Draw the next card from the states ``row, row + 1, ...`` of a level (rows of
    ``sk`` / ``sv``: board row in ``bkeys``, row of the counts drawn in ``q`` and
    ``dnext``, and chance), into ``hist`` (the race ended) or into the next level ``nxt``
    (``merge`` arrays, ``nn`` rows; its boards in ``boards``, ``nb`` rows), until every
    state is done, one of those two has room for fewer than ``N_TYPES`` more rows or the
    next level holds more than ``max_states``. Each board moves once per card type:
    ``moves[b, t]`` is the outcome code (``_outcome_code``, below ``_MOVED``) of board row
    b moved by type t plus ``_MOVED`` times the row of the board reached, -1 not yet.

    Before the last card (``last`` has a row per row of ``boards``), the next level is not
    merged: ``last[b, t]`` sums the chance of reaching board row b and then drawing type
    t, the last card (``qn``: its chances by row of ``dnext``; ``_finish``).

    Returns (row reached, nn, nb). Its arrays never change inside, and no helper takes
    them: arrays reassigned in a loop, or passed on through a helper, cost reference
    counting on every call (see ``merge.put``)."""
    nk, nv, ni = nxt
    bk, bv, bi = boards
    project = last.shape[0] > 0
    while (row < n and nn + N_TYPES <= nk.shape[0] and nb + N_TYPES <= bk.shape[0]
           and nn <= max_states):
        b = sk[row, 0]
        j = sk[row, 1]
        p = sv[row]
        for t in range(N_TYPES):
            if q[j, t] > 0.0:
                if moves[b, t] < 0:
                    _set_board(tr, bkeys[b, 0])
                    ended = move(tr, card_colour(t), card_value(t))
                    r = 0
                    if not ended:
                        nb, r = put(bk, bv, bi, nb, _board_key(tr), 0, 0.0)
                    moves[b, t] = _outcome_code(tr, ended) + _MOVED * r
                c = moves[b, t] % _MOVED
                to = moves[b, t] // _MOVED
                pt = p * q[j, t]
                if c >= 4 * N_RANKS:  # the race ended
                    _add(hist, first, c, pt)
                elif project:
                    jn = dnext[j, t]
                    for u in range(N_TYPES):
                        last[to, u] += pt * qn[jn, u]
                else:
                    nn, _ = put(nk, nv, ni, nn, to, dnext[j, t], pt)
        row += 1
    return row, nn, nb


@njit(cache=True)
def _finish(last, bkeys, nb, tr, first, hist):
    """Draw the last card: ``last[b, t]`` (``_expand``) into ``hist`` by the outcome of
    board row b (of ``bkeys``) moved by type t."""
    for b in range(nb):
        for t in range(N_TYPES):
            if last[b, t] > 0.0:
                _set_board(tr, bkeys[b, 0])
                ended = move(tr, card_colour(t), card_value(t))
                _add(hist, first, _outcome_code(tr, ended), last[b, t])


@njit(cache=True, inline="always")
def _room(rows):
    """The capacity of a ``merge`` level for ``rows`` rows (a power of two)."""
    cap = 1024
    while cap < rows:
        cap *= 2
    return cap


@njit(cache=True)
def leg_exact(tr0, known, pool, k, revealed, max_states, hist):
    """Add the exact outcome distribution of the rest of the leg to ``hist`` (module doc).
    Returns False (``hist`` then partly filled: discard it) if more than ``max_states``
    states would be held at once. A level's states are keyed by (board row, row of the
    counts drawn): its distinct boards and counts are tables of their own (``_expand``).
    The states after the last card but one are not merged (``_expand``)."""
    n_left = k
    for t in range(N_TYPES):
        n_left += known[t] - revealed[t]
    tr = tr0.copy()
    if n_left == 0:
        _cell(hist, tr, False, False, 1.0)
        return True
    g = _polys(known, pool, k, revealed)
    acc = np.empty(k + 1)
    d = np.zeros(N_TYPES, dtype=np.int64)
    sk, sv, si = level(1024)
    n, _ = put(sk, sv, si, 0, 0, 0, 1.0)
    bkeys, bv, bi = level(1024)
    nb, _ = put(bkeys, bv, bi, 0, _board_key(tr0), 0, 0.0)
    f = np.full(1, _chance(g, d, k, acc))  # F of the root's counts: none drawn
    q, dnext, dkeys, ns, f = _counts_after(g, k, np.zeros((1, 2), dtype=np.int64), 1, f,
                                           n_left, d, acc)
    last = np.zeros((0, N_TYPES))  # the last card's chances by board (``_expand``)
    nb_was = n_was = 1
    for depth in range(n_left - 1):
        qn, dn, dkeys, ns, f = _counts_after(g, k, dkeys, ns, f, n_left - depth - 1, d, acc)
        moves = np.full((nb, N_TYPES), -1, dtype=np.int64)
        first = 1 if depth == 0 else 0
        # the next level's boards and states, sized as the last level grew, a little
        # less (levels grow slower and slower): doubling tables costs fresh memory
        boards = level(_room(nb * nb // max(nb_was, 1) * 4 // 5))
        nxt = level(_room(n * n // max(n_was, 1) * 4 // 5 if depth < n_left - 2 else 0))
        if depth == n_left - 2:
            last = np.zeros((boards[0].shape[0], N_TYPES))
        nb_was, n_was = nb, n
        nb = row = nn = 0
        while True:
            row, nn, nb = _expand(sk, sv, n, row, bkeys, q, moves, dnext, first, tr, hist,
                                  nxt, nn, boards, nb, max_states, qn, last)
            if nn > max_states:
                return False
            if row == n:
                break
            if nn + N_TYPES > nxt[0].shape[0]:
                nxt = doubled(nxt[0], nxt[1], nn)
            if nb + N_TYPES > boards[0].shape[0]:
                boards = doubled(boards[0], boards[1], nb)
                if depth == n_left - 2:
                    grown = np.zeros((boards[0].shape[0], N_TYPES))
                    for i in range(nb):
                        copy_into(grown[i], last[i])
                    last = grown
        sk, sv, n = nxt[0], nxt[1], nn
        bkeys = boards[0]
        q, dnext = qn, dn
    if n_left == 1:
        last = q  # the root: one board row, one row of counts, chance 1
    _finish(last, bkeys, nb, tr, 1 if n_left == 1 else 0, hist)
    return True


def orders(m):
    """The number of distinct orders the viewer thinks the deck may be in: the sum of the
    candidates' multinomial coefficients (a float; plain numpy)."""
    from math import factorial, prod
    return float(sum(factorial(int(row.sum())) // prod(factorial(int(x)) for x in row)
                     for row in m))


@njit(cache=True, inline="always")  # one caller, draw_deck
def _pick(cum, s):
    """A candidate index drawn from stream ``s`` by the cumulative weights ``cum``."""
    u = (next_u64(s) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * cum[-1]
    j = np.searchsorted(cum, u, side="right")
    return min(j, cum.shape[0] - 1)


@njit(cache=True)
def draw_deck(m, cum, s, deck):
    """A deck order: a candidate drawn by weight (``cum``: the cumulative weights), its
    cards shuffled. Returns its size."""
    j = _pick(cum, s)
    n = 0
    for t in range(N_TYPES):
        for _ in range(m[j, t]):
            deck[n] = t
            n += 1
    for i in range(n - 1, 0, -1):
        k = below(s, i + 1)
        deck[i], deck[k] = deck[k], deck[i]
    return n


@njit(cache=True, inline="always")  # tiny: two callers
def play_deck(tr, deck, n):
    """Reveal ``deck[0:n]`` in order on ``tr``: (True if the race ended, cards drawn)."""
    for i in range(n):
        if move(tr, card_colour(deck[i]), card_value(deck[i])):
            return True, i + 1
    return False, n


@njit(cache=True, nogil=True)
def leg_samples(tr0, m, cum, seed, first, count, hist):
    """Monte Carlo legs ``first .. first + count - 1``: leg i draws its deck from stream
    (seed, i) (common random numbers for every board given the same seed); adds each
    leg's outcome (weight 1) to ``hist``."""
    s = np.empty(4, dtype=np.uint64)
    deck = np.empty(32, dtype=np.int64)
    tr = np.empty(TRACK_SIZE, dtype=np.int64)
    for i in range(first, first + count):
        reseed(s, seed, i)
        n = draw_deck(m, cum, s, deck)
        copy_into(tr, tr0)
        ended, drawn = play_deck(tr, deck, n)
        _cell(hist, tr, drawn == 1 and n > 0, ended, 1.0)


ALL_CARDS = np.array([t for t in range(N_TYPES) for _ in range(5 if t % 2 == 0 else 1)],
                     dtype=np.int64)  # the 30 racing cards as types
MAX_LEGS = 64  # a race ends long before: L grows by at most 3 a leg up to MAX_L (§5.5)


@njit(cache=True, inline="always")  # one caller, race_samples
def random_deck(s, deck, size, cards):
    """``size`` of the 30 racing cards, uniformly chosen and shuffled, into ``deck``
    (``cards``: a work copy of ``ALL_CARDS``)."""
    for i in range(size):
        k = i + below(s, cards.shape[0] - i)
        cards[i], cards[k] = cards[k], cards[i]
        deck[i] = cards[i]


@njit(cache=True, nogil=True)
def race_samples(tr0, m, cum, deck_size, seed, first, count, out):
    """Races ``first .. first + count - 1`` from the board ``tr0``: the rest of this leg
    draws its deck as ``leg_samples`` does (stream (seed, i)), every later leg a deck of
    ``deck_size`` cards chosen uniformly from the 30 (what players who choose uniformly
    build, §9), with the track's extension and sandstorm between legs (§5.5, §5.4); nobody
    places a figure or plays a hand card. Adds to ``out[place, camel]`` the races camel
    finished in place 0..4, to ``out[5, 0]`` the races that ended in this leg and to
    ``out[5, 1]`` the legs played."""
    s = np.empty(4, dtype=np.uint64)
    deck = np.empty(32, dtype=np.int64)
    cards = ALL_CARDS.copy()
    tr = np.empty(TRACK_SIZE, dtype=np.int64)
    order = np.empty(N_CAMELS, dtype=np.int64)
    for i in range(first, first + count):
        reseed(s, seed, i)
        n = draw_deck(m, cum, s, deck)
        copy_into(tr, tr0)
        ended, _ = play_deck(tr, deck, n)
        legs = 1
        if ended:
            out[5, 0] += 1
        while not ended and legs < MAX_LEGS:
            tr[FOX] = 0
            tr[PALM] = 0
            extend(tr)
            sandstorm(tr)
            random_deck(s, deck, deck_size, cards)
            ended, _ = play_deck(tr, deck, deck_size)
            legs += 1
        ranking(tr, order)
        for place in range(N_CAMELS):
            out[place, order[place]] += 1
        out[5, 1] += legs
