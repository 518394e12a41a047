"""Camel Up whole games from random starts as a per-game table (the report's raw file).

Columns of ``simulate_block`` (one row per game; seats 0..P-1, seat 0 moves first):

- ``game``: the game's number r in the run (its chance streams are (seed, 3r..3r+2));
- ``variant``; ``money_<seat>``: final money in EP;
- ``turns``; ``legs``: legs played, the one in which the race ended included;
- ``winner``, ``loser``: the race's winning and losing camel (colour names);
- ``start_order``: the racing camels at the start, leading camel first (letters);
- ``leader_leg_<k>``, k = 1..12: the leading camel after leg k was scored, empty where
  the race ended during or before leg k;
- ``crazy_lead_changes``: grey-die moves that changed the leading camel;
- ``crazy_decided``: the eventual winner took the lead for the last time on a grey-die
  move (the crazy camels decided the race);
- ``<kind>_<seat>``: actions of that kind (ticket, pyramid, spectator, winner_bet,
  loser_bet, partner) the seat took.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations

import numpy as np
import pandas as pd

from ...analyser.camel_up.encode import rules_state
from ...analyser.camel_up.variants import VARIANTS, variant
from ...errors import OddsbotError
from ...kernels import camel_up as K
from ..raw import block_simulator, game_columns, seat_columns, seat_part_columns
from ..spec import check_policies, policy_codes, repeat_policies

RAW_FIELDS = K.N_FIELDS  # columns of a row of simulate_raw
RULES_VERSION = 1  # the rules the games are played by (a run folder records it)
CHUNK_GAMES = 64  # games a numba thread takes at a time (does not change any result)
POLICIES = K.POLICY_NAMES
DEFAULT_POLICY = "heuristic"
COLOURS = tuple(dict.fromkeys(c for v in VARIANTS.values() for c in v.colours))


def check_run(variants: tuple[str, ...], players: int, policies: tuple[str, ...]) -> None:
    """One-line errors for a run that cannot be made: an unknown variant or policy, a
    player count outside a variant's range, more policies than players."""
    for vid in variants:
        if vid not in VARIANTS:
            raise OddsbotError(f"--variant: unknown variant {vid!r} of camel-up (known: "
                               f"{', '.join(VARIANTS)})")
        v = VARIANTS[vid]
        if not v.min_players <= players <= v.max_players:
            raise OddsbotError(f"--players: {vid} is for {v.min_players}-{v.max_players} "
                               f"players, got {players}")
    check_policies(policies, POLICIES, players)


def seat_policies(policies: tuple[str, ...], players: int) -> tuple[str, ...]:
    """The policy of every seat: ``policies`` repeated in seat order (default
    ``heuristic`` for all)."""
    return repeat_policies(policies, players, DEFAULT_POLICY)


def _colour_column(codes: np.ndarray, colours: tuple[str, ...]) -> pd.Categorical:
    """Camel indices (-1 = none) as a categorical of colour names over ``COLOURS``."""
    lookup = np.array([COLOURS.index(c) for c in colours] + [-1])
    return pd.Categorical.from_codes(lookup[codes], categories=COLOURS)


def _start_orders(start: np.ndarray, letters: tuple[str, ...]) -> pd.Categorical:
    """Rows of start places (0 = leading, camel order) as categorical letter strings of
    the camels from leading to last, over the 120 orders of ``letters``."""
    n = len(letters)
    weights = n ** np.arange(n)
    orders = list(permutations(range(n)))
    lookup = np.full(n ** n, -1)
    lookup[[int(np.dot(o, weights)) for o in orders]] = np.arange(len(orders))
    codes = lookup[np.argsort(start, axis=1) @ weights]
    names = ["".join(letters[c] for c in o) for o in orders]
    return pd.Categorical.from_codes(codes, categories=names)


def simulate_raw(variant_id: str, players: int, policies: tuple[str, ...], seed: int,
                 game0: int, n: int, progress: Callable[[int], None] | None = None
                 ) -> np.ndarray:
    """Games ``game0 .. game0 + n - 1`` of the run as the kernel's compact rows
    (``record_games``: int16, one row per game; ``progress(games done)`` as they finish);
    ``raw_table`` turns them into the table."""
    codes = policy_codes(seat_policies(policies, players), POLICIES)
    return K.record_games(rules_state(variant(variant_id), players), codes,
                          K.HEURISTIC_PARAMS, np.uint64(seed), game0, n, CHUNK_GAMES, progress)


def raw_table(raw: np.ndarray, variant_id: str, players: int, game0: int) -> pd.DataFrame:
    """The per-game table (module docstring) of the rows ``raw`` of ``simulate_raw``."""
    v = variant(variant_id)
    cols = game_columns(variant_id, tuple(VARIANTS), game0, len(raw))
    cols |= seat_columns(raw, "money", K.F_MONEY, players)
    cols["turns"] = raw[:, K.F_TURNS]
    cols["legs"] = raw[:, K.F_LEGS]
    cols["winner"] = _colour_column(raw[:, K.F_WINNER], v.colours)
    cols["loser"] = _colour_column(raw[:, K.F_LOSER], v.colours)
    cols["start_order"] = _start_orders(raw[:, K.F_START:K.F_START + K.N_RACING], v.letters)
    for k in range(K.MAX_LEGS_LOGGED):
        cols[f"leader_leg_{k + 1}"] = _colour_column(raw[:, K.F_LEADER + k], v.colours)
    cols["crazy_lead_changes"] = raw[:, K.F_CRAZY_CHANGES]
    cols["crazy_decided"] = raw[:, K.F_CRAZY_DECIDED].astype(bool)
    cols |= seat_part_columns(raw, "", K.KIND_NAMES, K.F_ACTIONS, players)
    return pd.DataFrame(cols)


def arena_results(raw: np.ndarray, variant_id: str, players: int
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(scores, wins, decisions) of ``simulate_raw``'s rows: float64 (n, players) final
    money, float64 (n, players) win shares (the richest win; k tied share 1/k each,
    docs/games/camel-up.md §8 step 6), int64 (n, players) turns each seat played (every
    turn is one decision of its policy)."""
    variant(variant_id)  # an unknown variant is refused
    scores = raw[:, K.F_MONEY:K.F_MONEY + players].astype(np.float64)
    top = scores == scores.max(axis=1, keepdims=True)
    wins = top / top.sum(axis=1, keepdims=True)
    kinds = raw[:, K.F_ACTIONS:K.F_ACTIONS + players * K.N_KINDS].astype(np.int64)
    return scores, wins, kinds.reshape(len(raw), players, K.N_KINDS).sum(axis=2)


simulate_block = block_simulator(simulate_raw, raw_table)
