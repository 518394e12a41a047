"""Mumia whole games from a fresh set-up as a per-game table (the report's raw file).

Seats play ``heuristic`` (the default), ``greedy`` or ``random`` (docs/games/mumia.md
§16.4). Seat 0 moves first and play goes 0, 1, 2, ... (§2.1 step 5, §3). Each variant
plays its own expansions (``analyser.mumia.position.VARIANT_SETS``) under the default rule
parameters (§13), ``mumia-sudden`` with ``sudden_end=true``: the base game lays the
standard first layout, so its games differ only by the dice and the policies' draws;
every expansion lays its tiles at random (§2.2).

Columns of ``simulate_block`` (one row per game; seats 0..P-1):

- ``game``: the game's number r in the run (its chance streams are (seed, 3r..3r+2));
- ``variant``; ``score_<seat>``: final score (§7);
- ``won_<seat>``: 1 if the seat wins or shares the win (§7, ``tiebreak``), else 0;
- ``camels_<seat>``: camel tiles held at the end; ``camel_gain_<seat>``: the points its
  camels added (its score less its score without them, >= 0);
- ``mummy_<seat>``: points of the mummy tokens it took (§5.2);
- ``turns``; ``moves``: moves made, Extra moves (E4) included; ``rounds``: turns divided
  by the players, rounded up (seats whose pawns are all home stop taking turns, §3 step 4);
- ``end``: how the game ended: "all pawns home" (§6.1), "sudden end" (§6.2) or "turn
  cap" (the kernel's safety cap, ``game.MAX_TURNS`` turns: never expected);
- ``luck_home``, ``bad_home``: the seat whose pawn took that hat home to FINISH (E2, §9.4),
  -1 if none did (no E2, or the hat's pawn never got home).

``arena_results`` reads the rows for ``oddsbot arena``: scores, win shares and the steps
each seat's policy chose (``decisions_<seat>`` of the kernel's row, not a table column).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from ...analyser.mumia import GAME as SPEC
from ...analyser.mumia.position import VARIANT_SETS
from ...analyser.mumia.rules import rules_vector
from ...analyser.mumia.simulate import rules_of
from ...kernels.mumia import choices as C
from ...kernels.mumia import game as K
from ...kernels.mumia import layout as L
from ..raw import block_simulator, game_columns, seat_columns
from ..spec import check_game_run, policy_codes, repeat_policies

GAME = SPEC.name
RAW_FIELDS = K.N_FIELDS  # columns of a row of simulate_raw
RULES_VERSION = 1  # the rules the games are played by (a run folder records it)
CHUNK_GAMES = 64  # games a numba thread takes at a time (does not change any result)
POLICIES = C.POLICY_NAMES
DEFAULT_POLICY = "heuristic"
VARIANTS = tuple(SPEC.variants)
MIN_PLAYERS, MAX_PLAYERS = SPEC.players
ALL_HOME, SUDDEN, CAPPED = "all pawns home", "sudden end", "turn cap"
END_CONDITIONS = (ALL_HOME, SUDDEN, CAPPED)
SEAT_FIELDS = (("score", K.F_SCORE), ("won", K.F_WIN), ("camels", K.F_CAMELS),
               ("camel_gain", K.F_CAMEL_GAIN), ("mummy", K.F_MUMMY))


def has(variant_id: str, expansion: str) -> bool:
    """Whether variant ``variant_id`` plays ``expansion`` (``e1`` .. ``e4``)."""
    return expansion in VARIANT_SETS[variant_id]


def sudden(variant_id: str, given: dict[str, str] | None = None) -> bool:
    """Whether the variant (with the run's ``--rule`` values) ends at once when a seat is
    home (§6.2)."""
    return rules_of(variant_id, given).sudden_end


def check_run(variants: tuple[str, ...], players: int, policies: tuple[str, ...]) -> None:
    """One-line errors for a run that cannot be made (``spec.check_game_run``)."""
    check_game_run(GAME, variants, tuple(VARIANTS), players, (MIN_PLAYERS, MAX_PLAYERS),
                   policies, POLICIES)


def seat_policies(policies: tuple[str, ...], players: int) -> tuple[str, ...]:
    """The policy of every seat: ``policies`` repeated in seat order (default
    ``heuristic`` for all)."""
    return repeat_policies(policies, players, DEFAULT_POLICY)


def rules(variant_id: str, players: int, given: dict[str, str] | None = None
          ) -> np.ndarray:
    """The kernel's rules vector of a variant: its expansions, the default parameters,
    ``sudden_end`` for ``mumia-sudden``, then the run's ``--rule`` values."""
    return rules_vector(rules_of(variant_id, given), players,
                        frozenset(VARIANT_SETS[variant_id]))


def simulate_raw(variant_id: str, players: int, policies: tuple[str, ...], seed: int,
                 game0: int, n: int, progress: Callable[[int], None] | None = None,
                 rules_given: dict[str, str] | None = None) -> np.ndarray:
    """Games ``game0 .. game0 + n - 1`` of the run as the kernel's compact rows
    (``record_games``: int16, one row per game; ``progress(games done)`` as they finish);
    ``raw_table`` turns them into the table. Seat 0 moves first."""
    codes = np.zeros(L.MAX_SEATS, dtype=np.int64)  # seats beyond the players never move
    codes[:players] = policy_codes(seat_policies(policies, players), POLICIES)
    return K.record_games(rules(variant_id, players, rules_given), codes, np.uint64(seed),
                          game0, n, CHUNK_GAMES, progress)


def _ends(raw: np.ndarray, variant_id: str) -> pd.Categorical:
    """``end`` of every row: the cap where the turns reached it, else a sudden end where
    a seat had pawns off FINISH (only the sudden rule ends a game so, §6.2), else all
    home."""
    capped = raw[:, K.F_TURNS].astype(np.int64) >= K.MAX_TURNS
    off = raw[:, K.F_SUDDEN] == 1
    codes = np.where(capped, 2, np.where(off, 1, 0))
    return pd.Categorical.from_codes(codes, categories=END_CONDITIONS)


def raw_table(raw: np.ndarray, variant_id: str, players: int, game0: int) -> pd.DataFrame:
    """The per-game table (module docstring) of the rows ``raw`` of ``simulate_raw``."""
    cols = game_columns(variant_id, VARIANTS, game0, len(raw))
    for name, field in SEAT_FIELDS:
        cols |= seat_columns(raw, name, field, players)
    turns = raw[:, K.F_TURNS]
    cols["turns"] = turns
    cols["moves"] = raw[:, K.F_MOVES]
    cols["rounds"] = -(-turns.astype(np.int64) // players)
    cols["end"] = _ends(raw, variant_id)
    cols["luck_home"] = raw[:, K.F_LUCK]
    cols["bad_home"] = raw[:, K.F_BAD]
    return pd.DataFrame(cols)


def arena_results(raw: np.ndarray, variant_id: str, players: int
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(scores, wins, decisions) of ``simulate_raw``'s rows: float64 (n, players) final
    scores (§7), float64 (n, players) win shares (1/k for each of k winners after the
    ``tiebreak``), int64 (n, players) the steps each seat's policy chose (one a record
    line: moves, Extra moves, passes, random's Swaps and Bottoms; §18)."""
    seats = slice(0, players)
    scores = raw[:, K.F_SCORE:K.F_SCORE + K.MAX_SEATS][:, seats].astype(np.float64)
    won = raw[:, K.F_WIN:K.F_WIN + K.MAX_SEATS][:, seats].astype(np.float64)
    decisions = raw[:, K.F_DECISIONS:K.F_DECISIONS + K.MAX_SEATS][:, seats]
    return scores, won / won.sum(axis=1, keepdims=True), decisions.astype(np.int64)


simulate_block = block_simulator(simulate_raw, raw_table)
