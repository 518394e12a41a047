"""Whole games of Camel Up Cards, one at a time with their turns, or many in ranges with
the per-game facts a designer report reads (docs/games/camel-up-cards.md §14).

Game ``r`` of a run seeded ``seed`` deals from stream (seed, 3r) (the camels' start, every
leg's deal and race deck) and takes policy choices from (seed, 3r + 2), so its row
depends on (seed, r) only (``kernels.batch``).

One row (int16) per game, fields in this order:

- ``F_MONEY``: money of seats 0..5 (-1 for seats not in the game); ``F_TURNS``; ``F_LEGS``
  (the leg in which the race ended included); ``F_WINNER``, ``F_LOSER``: the race's
  winning and losing camel (0..4 = W G O B Y); ``F_FIRST``: the first leg's start player;
- ``F_KINDS``: every seat's turns by kind of race action and of bet (``KIND_NAMES``,
  seat-major: seat p's kind i at ``F_KINDS + p * N_KINDS + i``);
- ``F_START_RANK``: the camels' ranking after the set-up reveals, before leg 1, as
  ``track.rank_index`` (``track.perm_orders`` decodes it);
- ``F_END``: the race action that ended the race: 0 a revealed card, 1 a hand card
  (``END_NAMES``); -1 if the game was cut at ``MAX_TURNS`` (never seen);
- ``F_LAST_START``: the start player of the leg in which the race ended (§3.9: the least
  money, then the youngest);
- ``F_SEAT_FACTS``: per seat (seat-major, ``SEAT_FACTS``): ``hand_legs``, the legs in
  which the seat took at least one turn (it holds its hand card at its first turn of a
  leg: its chances to play one); ``legs_started``, the legs the seat started; then the
  fate of every fox and palm the seat placed (``<figure>_<fate>``): ``triggered`` (a
  moving unit ended its move on it, §5.1 step 4), ``passed`` (every camel went beyond it,
  §5.1 step 5) or ``paid`` (still on the track when the leg or the race ended: its card
  cost the seat 1 EP, §7.3). Every placed figure has exactly one fate (unless the game is
  cut at ``MAX_TURNS``).
"""

import numpy as np
from ..jit import njit

from ..batch import record_chunk
from ..threads import rows
from .game import (
    BET_LOSER, BET_MIDFIELD, BET_WINNER, DECK, DRAWN, FOX_BASE, HAND, LEG, MAX_PLAYERS,
    MONEY, NO_BET, N_PLAYERS, PALM_BASE, RACE_HAND, STATUS, TO_MOVE, apply_race, new_game,
    play_turn, seat,
)
from .policy import choose
from .track import (
    FOX, FOX_HOLDER, LAST, N_CAMELS, PALM, PALM_HOLDER, SP, card_colour, card_value,
    rank_index, ranking,
)

MAX_TURNS = 2000  # far more than a game takes (a leg ends when its deck of <= 12 is empty)
LOG_FIELDS = 7  # seat, bet before, race action, bet after, card, ended, leg
KIND_NAMES = ("reveal", "hand", "fox", "palm", "leader", "midfield", "winner", "loser")
N_KINDS = len(KIND_NAMES)

F_MONEY = 0
F_TURNS = F_MONEY + MAX_PLAYERS
F_LEGS = F_TURNS + 1
F_WINNER = F_LEGS + 1
F_LOSER = F_WINNER + 1
F_FIRST = F_LOSER + 1
F_KINDS = F_FIRST + 1
END_NAMES = ("revealed card", "hand card")  # F_END codes 0, 1
FIGURE_FATES = ("triggered", "passed", "paid")
SEAT_FACTS = ("hand_legs", "legs_started") + tuple(
    f"{figure}_{fate}" for figure in ("fox", "palm") for fate in FIGURE_FATES)
N_SEAT_FACTS = len(SEAT_FACTS)
F_START_RANK = F_KINDS + MAX_PLAYERS * N_KINDS
F_END = F_START_RANK + 1
F_LAST_START = F_END + 1
F_SEAT_FACTS = F_LAST_START + 1
N_FIELDS = F_SEAT_FACTS + MAX_PLAYERS * N_SEAT_FACTS
HAND_LEGS, LEGS_STARTED = 0, 1  # SEAT_FACTS indices
FATE_FOX = 2  # SEAT_FACTS index of fox_triggered; fox_passed, fox_paid follow
FATE_PALM = FATE_FOX + len(FIGURE_FATES)  # palm_triggered, palm_passed, palm_paid


@njit(cache=True, inline="always")
def race_kind(r):
    if r < FOX_BASE:
        return r  # reveal 0, hand 1
    return 2 if r < PALM_BASE else 3


@njit(cache=True, inline="always")
def bet_kind(b):
    if b < BET_MIDFIELD:
        return 4
    if b < BET_WINNER:
        return 5
    return 6 if b < BET_LOSER else 7


@njit(cache=True)
def landed_figures(st, camel, steps):
    """The figures a move of ``camel`` by ``steps`` ends on (§5.1 step 4, chained,
    C-AMB-3), as bits: 1 the fox, 2 the palm. It follows the unit's target space as
    ``track.move`` does, without moving anything."""
    t = st[SP + camel] + steps
    fox, palm = st[FOX], st[PALM]
    out = 0
    while 0 < t <= st[LAST]:  # beyond: the finish; 0: back on the start card
        if palm != 0 and t == palm:
            out |= 2
            palm = 0
            t += 1
        elif fox != 0 and t == fox:
            out |= 1
            fox = 0
            t -= 1
        else:
            break
    return out


@njit(cache=True)
def figure_fates(st, p, race, row):
    """Before seat ``p`` takes race action ``race`` (a reveal or its hand card) with a
    figure on the track: count in ``row`` the fate this move gives each figure on the
    track (``SEAT_FACTS``, for the seat that placed it), if it has one yet."""
    if race == RACE_HAND:
        card = st[seat(p, HAND)]
        landed = landed_figures(st, card_colour(card), 1)
    else:
        landed = landed_figures(st, card_colour(st[DECK + st[DRAWN]]),
                                card_value(st[DECK + st[DRAWN]]))
    after = st.copy()
    ended, _ = apply_race(after, p, race)
    for k in range(2):
        where, holder, base = (FOX, FOX_HOLDER, FATE_FOX) if k == 0 else \
            (PALM, PALM_HOLDER, FATE_PALM)
        if st[where] == 0:
            continue
        at = F_SEAT_FACTS + st[holder] * N_SEAT_FACTS + base
        if landed & (1 << k):
            row[at] += 1  # triggered
        elif after[where] == 0:
            row[at + 1] += 1  # passed
        elif ended != 0:
            row[at + 2] += 1  # paid: on the track at the leg's (or the race's) end


@njit(cache=True)
def play_game(st, deal, pol, policies, log, row):
    """Play ``st`` to the end, seat i following ``policies[i]``: deals from stream
    ``deal``, choices from ``pol``. Writes each turn to ``log`` (``LOG_FIELDS``; when it
    has rows) and the per-game facts to ``row`` (``N_FIELDS``, zeroed; when it has any:
    every field but ``F_FIRST`` and ``F_START_RANK``, which ``record_game`` fills; the
    facts take ``st`` to be at the first turn of a leg). Returns the number of turns."""
    turns = 0
    seen = np.zeros(MAX_PLAYERS, dtype=np.int64)  # per seat: the last leg it took a turn in
    started = 0  # the last leg whose start player is counted
    if row.shape[0] > 0:
        row[F_END] = -1
    while st[STATUS] == 0 and turns < MAX_TURNS:
        p = st[TO_MOVE]
        leg = st[LEG]
        bet1, race, bet2 = choose(st, pol, policies[p])
        if row.shape[0] > 0:
            if started != leg:  # the leg's first turn: p is its start player
                started = leg
                row[F_LAST_START] = p
                row[F_SEAT_FACTS + p * N_SEAT_FACTS + LEGS_STARTED] += 1
            if seen[p] != leg:
                seen[p] = leg
                row[F_SEAT_FACTS + p * N_SEAT_FACTS + HAND_LEGS] += 1
            if race < FOX_BASE and (st[FOX] != 0 or st[PALM] != 0):
                figure_fates(st, p, race, row)
        ended, card = play_turn(st, deal, bet1, race, bet2)
        if turns < log.shape[0]:
            log[turns, 0] = p
            log[turns, 1] = bet1
            log[turns, 2] = race
            log[turns, 3] = bet2 if ended == 0 else NO_BET
            log[turns, 4] = card
            log[turns, 5] = ended
            log[turns, 6] = leg
        if row.shape[0] > 0:
            row[F_KINDS + p * N_KINDS + race_kind(race)] += 1
            bet = bet1 if bet1 != NO_BET else (bet2 if ended == 0 else NO_BET)
            if bet != NO_BET:
                row[F_KINDS + p * N_KINDS + bet_kind(bet)] += 1
            if ended == 2:
                row[F_END] = race_kind(race)
        turns += 1
    if row.shape[0] > 0:
        for p in range(MAX_PLAYERS):
            row[F_MONEY + p] = st[seat(p, MONEY)] if p < st[N_PLAYERS] else -1
        row[F_TURNS] = turns
        row[F_LEGS] = st[LEG]
        order = np.empty(N_CAMELS, dtype=np.int64)
        ranking(st, order)
        row[F_WINNER] = order[0]
        row[F_LOSER] = order[N_CAMELS - 1]
    return turns


@njit(cache=True)
def record_game(context, scratch, streams, row):
    """``record_chunk``'s game: a new game of ``context`` = (players, ages, setup, last,
    policies) dealt from stream 0, played with choices from stream 2."""
    n, ages, setup, last, policies = context
    st = new_game(n, streams[0], ages, setup, last)
    row[F_FIRST] = st[TO_MOVE]
    row[F_START_RANK] = rank_index(st)
    play_game(st, streams[0], streams[2], policies, scratch, row)


@njit(cache=True)
def _scratch(context):
    return np.zeros((0, LOG_FIELDS), dtype=np.int64)  # no turn log in batches


@njit(cache=True, nogil=True)
def record_range(n, ages, setup, last, policies, seed, game0, n_games):
    """``record_games`` for games ``game0 .. game0 + n_games - 1`` on this thread."""
    return record_chunk(record_game, _scratch, (n, ages, setup, last, policies), N_FIELDS,
                        seed, game0, n_games)


def record_games(n, ages, setup, last, policies, seed, game0, n_games, chunk_size,
                 progress=None):
    """Games ``game0 .. game0 + n_games - 1`` of ``n`` players (``ages``, ``setup``,
    ``last`` as ``game.new_game``), seat i following ``policies[i]``:
    ``out[game, N_FIELDS]`` (int16, layout in the module docstring), the same for any
    ``chunk_size`` and number of threads."""
    return rows(lambda g, k: record_range(n, ages, setup, last, policies, np.uint64(seed),
                                          game0 + g, k), n_games, chunk_size, progress)
