"""Camel Up Cards whole games from a new deal as a per-game table (the report's raw file).

Seats play ``heuristic`` (the default) or ``random`` (``kernels.camel_up_cards.policy``).
Seat 0 is the youngest player, so it starts leg 1 (docs/games/camel-up-cards.md §2 step 7)
and play goes 0, 1, 2, ...; later legs start with the player with the least money (§3
step 9). The leg setup numbers and the last space are the defaults for the player count
(§2).

Columns of ``simulate_block`` (one row per game; seats 0..P-1):

- ``game``: the game's number r in the run (its chance streams are (seed, 3r..3r+2));
- ``variant``; ``money_<seat>``: final money in EP (the richest seats win, §8.4);
- ``turns``; ``legs``: legs played, the one in which the race ended included;
- ``winner``, ``loser``: the race's winning and losing camel (colour names);
- ``start_order``: the camels' ranking after the set-up reveals, leading camel first
  (letters W G O B Y, e.g. ``OYBWG``);
- ``first_player``: the seat that started leg 1 (the youngest); ``last_start``: the seat
  that started the leg in which the race ended (the least money, then the youngest);
- ``end_trigger``: the race action that ended the race: "revealed card" or "hand card"
  ("turn cap": the kernel's safety cap, never seen);
- ``<kind>_<seat>``: turns in which the seat took that race action (reveal, hand, fox,
  palm) or bet (leader, midfield, winner, loser);
- ``hand_legs_<seat>``: legs in which the seat took a turn (with its hand card: its
  chances to play one); ``legs_started_<seat>``: legs the seat started;
- ``<figure>_<fate>_<seat>``: foxes and palms the seat placed that were triggered (a
  unit ended its move on it), passed (every camel went beyond it) or paid for (still on
  the track when the leg or race ended: 1 EP), ``kernels.camel_up_cards.batch_games``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from ...analyser.camel_up_cards.advise import COLOUR_NAMES
from ...analyser.camel_up_cards.position import COLOURS, GAME, MAX_PLAYERS, MIN_PLAYERS
from ...kernels.camel_up_cards import batch_games as K
from ...kernels.camel_up_cards import game as G
from ...kernels.camel_up_cards import policy as P
from ...kernels.camel_up_cards.track import perm_orders
from ..raw import block_simulator, game_columns, seat_columns, seat_part_columns
from ..spec import check_game_run, policy_codes, repeat_policies

RAW_FIELDS = K.N_FIELDS  # columns of a row of simulate_raw
RULES_VERSION = 1  # the rules the games are played by (a run folder records it)
CHUNK_GAMES = 64  # games a numba thread takes at a time (does not change any result)
POLICIES = P.POLICY_NAMES
DEFAULT_POLICY = "heuristic"
VARIANTS = (GAME,)
END_TRIGGERS = (*K.END_NAMES, "turn cap")  # F_END 0, 1, then -1 (the cap)
KINDS = K.KIND_NAMES
RACE_KINDS = KINDS[:4]  # reveal, hand, fox, palm
BET_KINDS = KINDS[4:]  # leader, midfield, winner, loser
FIGURES = ("fox", "palm")
FATES = K.FIGURE_FATES  # triggered, passed, paid


def check_run(variants: tuple[str, ...], players: int, policies: tuple[str, ...]) -> None:
    """One-line errors for a run that cannot be made (``spec.check_game_run``)."""
    check_game_run(GAME, variants, tuple(VARIANTS), players, (MIN_PLAYERS, MAX_PLAYERS),
                   policies, POLICIES)


def seat_policies(policies: tuple[str, ...], players: int) -> tuple[str, ...]:
    """The policy of every seat: ``policies`` repeated in seat order (default
    ``heuristic`` for all)."""
    return repeat_policies(policies, players, DEFAULT_POLICY)


def simulate_raw(variant_id: str, players: int, policies: tuple[str, ...], seed: int,
                 game0: int, n: int, progress: Callable[[int], None] | None = None
                 ) -> np.ndarray:
    """Games ``game0 .. game0 + n - 1`` of the run as the kernel's compact rows
    (``record_games``: int16, one row per game; ``progress(games done)`` as they finish);
    ``raw_table`` turns them into the table. Seat 0 is the youngest (module docstring)."""
    codes = policy_codes(seat_policies(policies, players), POLICIES)
    return K.record_games(players, np.arange(players, dtype=np.int64), G.SETUP[players],
                          G.LAST_SPACE[players], codes, np.uint64(seed), game0, n,
                          CHUNK_GAMES, progress)


def _colours(codes: np.ndarray) -> pd.Categorical:
    """Camel indices 0..4 as a categorical of colour names."""
    return pd.Categorical.from_codes(codes.astype(np.int64), categories=COLOUR_NAMES)


def _start_orders(ranks: np.ndarray) -> pd.Categorical:
    """Ranking indices (``track.rank_index``) as categorical letter strings of the camels,
    leading first, over the 120 orders."""
    names = ["".join(COLOURS[c] for c in order) for order in perm_orders()]
    return pd.Categorical.from_codes(ranks.astype(np.int64), categories=names)


def _end_triggers(codes: np.ndarray) -> pd.Categorical:
    """``F_END`` (0, 1, -1) as a categorical over ``END_TRIGGERS``."""
    codes = codes.astype(np.int64)
    return pd.Categorical.from_codes(np.where(codes < 0, len(END_TRIGGERS) - 1, codes),
                                     categories=END_TRIGGERS)


def raw_table(raw: np.ndarray, variant_id: str, players: int, game0: int) -> pd.DataFrame:
    """The per-game table (module docstring) of the rows ``raw`` of ``simulate_raw``."""
    cols = game_columns(variant_id, VARIANTS, game0, len(raw))
    cols |= seat_columns(raw, "money", K.F_MONEY, players)
    cols["turns"] = raw[:, K.F_TURNS]
    cols["legs"] = raw[:, K.F_LEGS]
    cols["winner"] = _colours(raw[:, K.F_WINNER])
    cols["loser"] = _colours(raw[:, K.F_LOSER])
    cols["start_order"] = _start_orders(raw[:, K.F_START_RANK])
    cols["first_player"] = raw[:, K.F_FIRST]
    cols["last_start"] = raw[:, K.F_LAST_START]
    cols["end_trigger"] = _end_triggers(raw[:, K.F_END])
    cols |= seat_part_columns(raw, "", KINDS, K.F_KINDS, players)
    cols |= seat_part_columns(raw, "", K.SEAT_FACTS, K.F_SEAT_FACTS, players)
    return pd.DataFrame(cols)


def arena_results(raw: np.ndarray, variant_id: str, players: int
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(scores, wins, decisions) of ``simulate_raw``'s rows: float64 ``(n, players)`` final
    money in EP, float64 ``(n, players)`` win shares (the richest seats share the victory,
    §8: 1/k each of k tied), int64 ``(n, players)`` the turns each seat took (one decision
    of its policy each: one race action a turn, ``F_KINDS``)."""
    scores = raw[:, K.F_MONEY:K.F_MONEY + players].astype(np.float64)
    best = scores == scores.max(axis=1, keepdims=True)
    wins = best / best.sum(axis=1, keepdims=True)
    kinds = raw[:, K.F_KINDS:K.F_KINDS + players * K.N_KINDS].reshape(len(raw), players,
                                                                       K.N_KINDS)
    decisions = kinds[:, :, :len(RACE_KINDS)].sum(axis=2, dtype=np.int64)
    return scores, wins, decisions


simulate_block = block_simulator(simulate_raw, raw_table)
