"""Five Tribes whole games from a fresh deal as a per-game table (the report's raw file).

Seats play ``heuristic`` (the default: a few sampled sowings, each with its best choices
by a cheap evaluation, and the bid of the lowest gold price; docs/games/five-tribes.md
§21.1), ``random`` (uniformly random legal bids and complete turns) or ``greedy`` (the best
exact complete turn, and the bid of the lowest gold price, Kumarbi's included: not the
analyser's bid model), as ``kernels.five_tribes.batch_games`` describes.

Columns of ``simulate_block`` (one row per game; seats 0..P-1 are the players, the deal
shuffles the markers, so no seat bids first by its number):

- ``game``: the game's number r in the run (its chance streams are (seed, 3r..3r+2));
- ``variant``; ``score_<seat>``: final score in VP (docs/games/five-tribes.md §13);
- ``vp_<part>_<seat>``: that score's parts (gold, viziers, elders, tiles, palms, palaces,
  djinns, goods; they sum to the score);
- ``rounds``: rounds played (the last included); ``end_trigger``: "last camel" (a player
  placed his last camel), "no legal sowing" (none left on the board), "both", or "round
  cap" (the kernel's safety cap hit, ``capped``: never seen, the rules end a game within
  45 rounds);
- ``no_sowing_turns``: turns played without a legal sowing (the end of the game);
- ``first_bidder``: the seat whose marker bids first in round 1 (the deal's shuffle);
- ``bid_gold_<seat>``: gold paid for turn-order bids; ``camels_<seat>``: camels placed
  (tiles owned); ``djinns_<seat>``: djinns taken; ``turns_<seat>``: turns played (two a
  round per player in a 2-player game);
- ``took_<tribe>_<seat>``: turns in which the seat took that tribe's meeples (viziers,
  elders, builders, merchants, assassins);
- ``holder_<djinn>``: the seat holding that djinn at the end of the game, -1 if nobody
  does; djinns named as in labels, in ASCII (``holder_Baal``, ``holder_Anun-Nak``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from ...errors import OddsbotError
from ...analyser.five_tribes.encode import END_RULES
from ...analyser.five_tribes.names import DJINN_NAMES, djinn_token
from ...analyser.five_tribes.setup import END_RULE_OF, VARIANTS
from ...kernels import five_tribes as K
from ..raw import block_simulator, game_columns, seat_columns, seat_part_columns
from ..spec import check_policies, policy_codes, repeat_policies

POLICIES = K.POLICY_NAMES
# four-player games a second per thread: ``random`` about 1,600, ``heuristic`` about 650
# (bench/bench_five_tribes_strategy.py); ``greedy`` values every complete turn exactly in
# two stages (``turn_table.greedy``, playing): about 5 s per game and thread (8 games,
# seed 3: 22 s on 2 cores, numba cache warm). The heuristic is the default: thousands of
# times faster than greedy and far stronger than random (docs/benchmarks.md)
DEFAULT_POLICY = "heuristic"
RAW_FIELDS = K.N_FIELDS  # columns of a row of simulate_raw
# the rules the games are played by: 1 djinns scored but powerless, 2 every djinn power
# (docs/games/five-tribes.md §20), 3 the greedy turn chosen in two stages (§20.9), 4
# Kandicha's card drawn at random in random and heuristic turns (it was the first kind in
# the deck); a run folder of another version is not resumed
RULES_VERSION = 4
CHUNK_GAMES = 64  # games a numba thread takes at a time (does not change any result)
GREEDY_CHUNK_GAMES = 1  # greedy games are slow and uneven: one at a time keeps threads busy
MIN_PLAYERS, MAX_PLAYERS = 2, K.MAX_PLAYERS
PARTS = K.SCORE_PARTS[:K.N_SCORE]
TRIBES = ("viziers", "elders", "builders", "merchants", "assassins")  # kernel colours YWBGR
END_TRIGGERS = ("last camel", "no legal sowing", "both", "round cap")
_END_CODES = np.array([3, 0, 1, 2])  # the kernel's end bits (0..3) -> END_TRIGGERS index
SEAT_COUNTS = ("bid_gold", "camels", "djinns", "turns")
DJINNS = tuple(djinn_token(name) for name in DJINN_NAMES)  # ASCII, as labels write them


def check_run(variants: tuple[str, ...], players: int, policies: tuple[str, ...]) -> None:
    """One-line errors for a run that cannot be made: an unknown variant or policy, a
    player count outside 2-4, more policies than players."""
    for vid in variants:
        if vid not in VARIANTS:
            raise OddsbotError(f"--variant: unknown variant {vid!r} of five-tribes (known: "
                               f"{', '.join(VARIANTS)})")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OddsbotError(f"--players: five-tribes is for {MIN_PLAYERS}-{MAX_PLAYERS} "
                           f"players, got {players}")
    check_policies(policies, POLICIES, players)


def seat_policies(policies: tuple[str, ...], players: int) -> tuple[str, ...]:
    """The policy of every seat: ``policies`` repeated in seat order (default ``random``
    for all: fast enough for large runs)."""
    return repeat_policies(policies, players, DEFAULT_POLICY)


def simulate_raw(variant_id: str, players: int, policies: tuple[str, ...], seed: int,
                 game0: int, n: int, progress: Callable[[int], None] | None = None
                 ) -> np.ndarray:
    """Games ``game0 .. game0 + n - 1`` of the run as the kernel's compact rows
    (``record_games``: int16, one row per game; ``progress(games done)`` as they finish);
    ``raw_table`` turns them into the table."""
    seats = seat_policies(policies, players)
    chunk = GREEDY_CHUNK_GAMES if "greedy" in seats else CHUNK_GAMES
    return K.record_games(players, END_RULES.index(END_RULE_OF[variant_id]), False,
                          policy_codes(seats, POLICIES), np.uint64(seed), game0, n, chunk,
                          progress)


def raw_table(raw: np.ndarray, variant_id: str, players: int, game0: int) -> pd.DataFrame:
    """The per-game table (module docstring) of the rows ``raw`` of ``simulate_raw``."""
    cols = game_columns(variant_id, tuple(VARIANTS), game0, len(raw))
    cols |= seat_columns(raw, "score", K.F_TOTAL, players)
    cols |= seat_part_columns(raw, "vp_", PARTS, K.F_PARTS, players)
    cols["rounds"] = raw[:, K.F_ROUNDS]
    cols["end_trigger"] = pd.Categorical.from_codes(_END_CODES[raw[:, K.F_END]],
                                                    categories=END_TRIGGERS)
    cols["capped"] = raw[:, K.F_CAPPED].astype(bool)
    cols["no_sowing_turns"] = raw[:, K.F_NO_SOWING_TURNS]
    cols["first_bidder"] = raw[:, K.F_FIRST_BIDDER]
    for name, field in zip(SEAT_COUNTS, (K.F_BID_GOLD, K.F_CAMELS, K.F_DJINNS, K.F_TURNS)):
        cols |= seat_columns(raw, name, field, players)
    cols |= seat_part_columns(raw, "took_", TRIBES, K.F_TRIBES, players)
    cols |= {f"holder_{d}": raw[:, K.F_DJINN_HOLDER + i] for i, d in enumerate(DJINNS)}
    return pd.DataFrame(cols)


def arena_results(raw: np.ndarray, variant_id: str, players: int
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(scores, wins, decisions) of ``simulate_raw``'s rows: float64 (n, players) final
    scores (VP); float64 (n, players) win shares (the most VP wins, tied players share the
    victory, docs/games/five-tribes.md §13: 1/k each); int64 (n, players) decisions each
    seat made: its bids and its turns, one bid per turn (every marker bids once and plays
    once a round)."""
    scores = raw[:, K.F_TOTAL:K.F_TOTAL + players].astype(np.float64)
    top = scores == scores.max(axis=1, keepdims=True)
    turns = raw[:, K.F_TURNS:K.F_TURNS + players].astype(np.int64)
    return scores, top / top.sum(axis=1, keepdims=True), 2 * turns


simulate_block = block_simulator(simulate_raw, raw_table)
