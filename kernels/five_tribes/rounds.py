"""The round around the turns (docs/games/five-tribes.md §3-§5, §13) on the state vector (layout:
``state``): set-up, bidding for turn order, markers moving to the bid order track, clean-up and the
end check. Spaces are indices into ``BID_COSTS`` (18, 12, 8, 5, 3, 1, 0, 0, 0); a zero bid
is ``BID_ZERO``. A bid is a code ``space + TRACK_SPACES * k``: the space taken and the
Fakirs discarded with Kumarbi (k = 0: a plain bid), paying the price of the space k steps
cheaper (docs/games/five-tribes.md §20.7). Randomness comes from a ``rng`` stream
(``kernels.rng``). The face-up djinns are kept in ``DJINNS`` order (their order has no
effect), the resource row front first."""

import numpy as np
from ..jit import njit

from ..arrays import copy_into
from ..rng import below
from .board import N_COLOURS, N_TILES
from .data import (
    BID_COSTS, CAMELS, DJINNS, FAKIRS, GOODS_COUNTS, MARKERS, MEEPLE_TOTALS, RESOURCE_ROW,
    SACRED_PLACE, SACRED_VPS, START_GOLD, TILE_COUNTS, TILE_VP, VISIBLE_DJINNS, ZERO_SPACES,
)
from .sowing_count import sowing_exists, walk_tables
from .state import (
    ASSASSIN_OPTIONAL, BID_ORDER, BIDDING, DJINN_DECK, DJINN_DISCARD, DJINN_PER_ROUND,
    DJINN_ROW, END_RULE, FAKIR_CARD, MAX_MARKERS, MAX_PLAYERS, N_CARD_KINDS, N_PLAYERS,
    P_CAMELS, P_DJINNS, P_FAKIRS, P_GOLD, P_USED, PHASE, RES_DECK, RES_DISCARD, ROW, T_MEEPLES,
    T_TYPE, T_VP, TO_MOVE, TRACK_SPACES, TURN_TRACK, TURNS, meeples,
)
from .turn_steps import row_length

BID_ZERO = 6  # the first zero space of the turn order track
START_STACK = 3  # meeples dealt on every tile (§3)
N_DJINNS = len(DJINNS)
KUMARBI = [name for name, _, _ in DJINNS].index("Kumarbi")
# the most legal bids: each priced space plainly and with 1 .. (steps to a price of 0)
# Fakirs, and the zero bid
MAX_BIDS = sum(BID_ZERO - space + 1 for space in range(BID_ZERO)) + 1
BOX_TILES = np.array([  # (type, VP) of the 30 tiles
    (kind, vp) for kind, count in enumerate(TILE_COUNTS)
    for vp in (SACRED_VPS if kind == SACRED_PLACE else (TILE_VP[kind],) * count)],
    dtype=np.int64)
BOX_MEEPLES = np.repeat(np.arange(N_COLOURS), MEEPLE_TOTALS).astype(np.int64)
BOX_CARDS = np.repeat(np.arange(N_CARD_KINDS), np.append(GOODS_COUNTS, FAKIRS)).astype(np.int64)
CAMELS_OF = np.array([CAMELS.get(n, 0) for n in range(MAX_PLAYERS + 1)], dtype=np.int64)
MARKERS_OF = np.array([MARKERS.get(n, 0) for n in range(MAX_PLAYERS + 1)], dtype=np.int64)


@njit(cache=True)
def _first_on_turn_track(st):
    """Owner of the first marker on the turn order track (the next to play), -1 if none."""
    for i in range(TRACK_SPACES):
        if st[TURN_TRACK + i] >= 0:
            return st[TURN_TRACK + i]
    return -1


@njit(cache=True)
def bid_space(bid):
    """The turn order track space a bid (code, module doc) takes."""
    return bid % TRACK_SPACES


@njit(cache=True)
def bid_fakirs(bid):
    """The Fakirs a bid discards with Kumarbi (0: a plain bid)."""
    return bid // TRACK_SPACES


@njit(cache=True)
def bid_price(bid):
    """The gold a bid costs: the price of the space ``bid_fakirs`` steps cheaper (§20.7)
    (a broke bidder pays less, §14.7: see ``place_bid``)."""
    return BID_COSTS[min(bid_space(bid) + bid_fakirs(bid), BID_ZERO)]


@njit(cache=True)
def kumarbi_fakirs(st, player):
    """The most Fakirs ``player`` may discard with Kumarbi in a bid now: the Fakirs held if
    they hold Kumarbi and have not used it (``P_USED``), else 0."""
    bit = np.int64(1) << KUMARBI
    if st[P_DJINNS + player] & bit and not st[P_USED + player] & bit:
        return st[P_FAKIRS + player]
    return 0


@njit(cache=True)
def legal_bids(st, out):
    """Fill ``out`` (room for ``MAX_BIDS``) with the bids (codes, module doc) the bid order
    track's front marker may make: for each free priced space, dearest first, the plain bid
    if its owner can pay it, then Kumarbi with k = 1, 2, ... Fakirs (at most those held, to
    a price of 0 at most) where the price can be paid; then ``BID_ZERO`` if a zero space is
    free. None of those (§14.7): the cheapest free priced space alone, plain. Returns how
    many."""
    player = st[BID_ORDER]
    gold = st[P_GOLD + player]
    fakirs = kumarbi_fakirs(st, player)
    n = 0
    for space in range(BID_ZERO):
        if st[TURN_TRACK + space] >= 0:
            continue
        for k in range(min(fakirs, BID_ZERO - space) + 1):
            bid = space + TRACK_SPACES * k
            if gold >= bid_price(bid):
                out[n] = bid
                n += 1
    if st[TURN_TRACK + BID_ZERO + ZERO_SPACES - 1] < 0:
        out[n] = BID_ZERO
        n += 1
    if n == 0:
        space = BID_ZERO - 1
        while st[TURN_TRACK + space] >= 0:
            space -= 1
        out[0] = space
        n = 1
    return n


@njit(cache=True)
def landing(bid):
    """The turn order track index a bid (a code, or a space) takes: its space, or the
    first zero space for a zero bid (which pushes the earlier zero bids back)."""
    return min(bid_space(bid), BID_ZERO)


@njit(cache=True)
def markers_before(st, bid):
    """Markers already on the turn order track that would play before a marker making
    ``bid`` (a code, or a space) now."""
    n = 0
    for i in range(landing(bid)):
        if st[TURN_TRACK + i] >= 0:
            n += 1
    return n


@njit(cache=True)
def place_bid(st, bid):
    """The bid order track's front marker makes ``bid`` (one of ``legal_bids``): its owner
    pays the price (all its gold if that is less, §14.7) and discards the bid's Fakirs to
    the resource discard pile (Kumarbi, §20.7; marked used for the round under
    ``DJINN_PER_ROUND``); a zero bid enters the first zero space and pushes the others back
    (the latest zero bidder plays first). The track moves up; once it is empty the turns
    begin with the first marker on the turn order track."""
    owner = st[BID_ORDER]
    st[P_GOLD + owner] -= min(bid_price(bid), st[P_GOLD + owner])
    k = bid_fakirs(bid)
    if k > 0:
        st[P_FAKIRS + owner] -= k
        st[RES_DISCARD + FAKIR_CARD] += k
        if st[DJINN_PER_ROUND]:
            st[P_USED + owner] |= np.int64(1) << KUMARBI
    at = landing(bid)
    if bid_space(bid) >= BID_ZERO:
        for i in range(TRACK_SPACES - 1, at, -1):
            st[TURN_TRACK + i] = st[TURN_TRACK + i - 1]
    st[TURN_TRACK + at] = owner
    for i in range(MAX_MARKERS - 1):
        st[BID_ORDER + i] = st[BID_ORDER + i + 1]
    st[BID_ORDER + MAX_MARKERS - 1] = -1
    if st[BID_ORDER] >= 0:
        st[TO_MOVE] = st[BID_ORDER]
    else:
        st[PHASE] = TURNS
        st[TO_MOVE] = _first_on_turn_track(st)


@njit(cache=True)
def marker_to_bid_track(st):
    """Step 1 of a turn (§6.1): the first marker on the turn order track moves to the first
    empty place of the bid order track (zero spaces stay filled from the first). Returns
    its owner; ``TO_MOVE`` becomes the next marker's owner, -1 when the round's turns are
    over."""
    space = 0
    while st[TURN_TRACK + space] < 0:
        space += 1
    owner = st[TURN_TRACK + space]
    st[TURN_TRACK + space] = -1
    if space >= BID_ZERO:
        for i in range(space, TRACK_SPACES - 1):
            st[TURN_TRACK + i] = st[TURN_TRACK + i + 1]
        st[TURN_TRACK + TRACK_SPACES - 1] = -1
    place = 0
    while st[BID_ORDER + place] >= 0:
        place += 1
    st[BID_ORDER + place] = owner
    st[TO_MOVE] = _first_on_turn_track(st)
    return owner


@njit(cache=True)
def _draw_card(st, rng):
    """One card drawn uniformly from the resource deck (the discard pile reshuffled into it
    when it is empty), -1 if both are empty."""
    total = st[RES_DECK:RES_DECK + N_CARD_KINDS].sum()
    if total == 0:
        copy_into(st[RES_DECK:RES_DECK + N_CARD_KINDS], st[RES_DISCARD:RES_DISCARD + N_CARD_KINDS])
        st[RES_DISCARD:RES_DISCARD + N_CARD_KINDS] = 0
        total = st[RES_DECK:RES_DECK + N_CARD_KINDS].sum()
        if total == 0:
            return -1
    k = below(rng, total)
    card = 0
    while k >= st[RES_DECK + card]:
        k -= st[RES_DECK + card]
        card += 1
    st[RES_DECK + card] -= 1
    return card


@njit(cache=True)
def _draw_djinn(st, rng):
    """One djinn drawn uniformly from the djinn deck (the discards reshuffled into it when
    it is empty), -1 if both are empty."""
    if st[DJINN_DECK] == 0:
        st[DJINN_DECK] = st[DJINN_DISCARD]
        st[DJINN_DISCARD] = 0
    mask = st[DJINN_DECK]
    total = np.int64(0)
    for d in range(N_DJINNS):
        total += (mask >> d) & 1
    if total == 0:
        return -1
    k = below(rng, total)
    d = 0
    while k > 0 or not (mask >> d) & 1:
        k -= (mask >> d) & 1
        d += 1
    st[DJINN_DECK] = mask & ~(1 << d)
    return d


@njit(cache=True)
def _show_djinn(st, djinn):
    """Put ``djinn`` face up in the djinn display (it has room), kept in ``DJINNS`` order."""
    i = 0
    while st[DJINN_ROW + i] >= 0:
        i += 1
    while i > 0 and st[DJINN_ROW + i - 1] > djinn:
        st[DJINN_ROW + i] = st[DJINN_ROW + i - 1]
        i -= 1
    st[DJINN_ROW + i] = djinn


@njit(cache=True)
def cleanup(st, rng):
    """Clean-up (§4.3): refill the resource row to 9 and the djinn display to 3, drawing one
    at a time at random (a row stays short once deck and discards are both empty), clear
    every player's powers used (``P_USED``, §20.8), then start the next round's bidding."""
    n = row_length(st)
    while n < RESOURCE_ROW:
        card = _draw_card(st, rng)
        if card < 0:
            break
        st[ROW + n] = card
        n += 1
    n = 0
    while n < VISIBLE_DJINNS and st[DJINN_ROW + n] >= 0:
        n += 1
    while n < VISIBLE_DJINNS:
        djinn = _draw_djinn(st, rng)
        if djinn < 0:
            break
        _show_djinn(st, djinn)
        n += 1
    st[P_USED:P_USED + MAX_PLAYERS] = 0
    st[PHASE] = BIDDING
    st[TO_MOVE] = st[BID_ORDER]


@njit(cache=True)
def game_over(st):
    """The end check after clean-up (§13): a player has placed every camel, or no legal
    sowing is left on the board (under the state's end rule)."""
    for p in range(st[N_PLAYERS]):
        if st[P_CAMELS + p] == 0:
            return True
    return not sowing_exists(meeples(st), st[END_RULE], walk_tables()[1])


@njit(cache=True)
def _shuffle(a, rng):
    """Fisher-Yates shuffle of ``a`` in place."""
    for i in range(len(a) - 1, 0, -1):
        j = below(rng, i + 1)
        a[i], a[j] = a[j], a[i]


@njit(cache=True)
def deal(st, players, end_rule, assassin_optional, rng):
    """Set-up (§3) into a fresh ``empty_state()``: shuffled tiles with 3 random meeples each
    (the bag ends empty), 50 gold and the camels per player, 9 resources and 3 djinns face
    up (the rest in the decks), the markers in random order on the bid order track."""
    tiles = np.arange(N_TILES)
    _shuffle(tiles, rng)
    for t in range(N_TILES):
        st[T_TYPE + t] = BOX_TILES[tiles[t], 0]
        st[T_VP + t] = BOX_TILES[tiles[t], 1]
    bag = BOX_MEEPLES.copy()
    _shuffle(bag, rng)
    for i in range(len(bag)):
        st[T_MEEPLES + (i // START_STACK) * N_COLOURS + bag[i]] += 1
    for p in range(players):
        st[P_GOLD + p] = START_GOLD
        st[P_CAMELS + p] = CAMELS_OF[players]
    cards = BOX_CARDS.copy()
    _shuffle(cards, rng)
    copy_into(st[ROW:ROW + RESOURCE_ROW], cards[:RESOURCE_ROW])
    for card in cards[RESOURCE_ROW:]:
        st[RES_DECK + card] += 1
    djinns = np.arange(N_DJINNS)
    _shuffle(djinns, rng)
    for djinn in djinns[:VISIBLE_DJINNS]:
        _show_djinn(st, djinn)
    for d in djinns[VISIBLE_DJINNS:]:
        st[DJINN_DECK] |= 1 << d
    markers = np.arange(MARKERS_OF[players] * players) % players
    _shuffle(markers, rng)
    copy_into(st[BID_ORDER:BID_ORDER + len(markers)], markers)
    st[PHASE] = BIDDING
    st[TO_MOVE] = st[BID_ORDER]
    st[N_PLAYERS] = players
    st[END_RULE] = end_rule
    st[ASSASSIN_OPTIONAL] = 1 if assassin_optional else 0
