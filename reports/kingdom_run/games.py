"""Kingdom Run whole games from a fresh set-up as a per-game table (the report's raw file).

Seats play ``heuristic`` (the default), ``greedy`` or ``random`` (docs/games/kingdom-run.md
§14). Player p plays clan ``KWFG[p]`` and player 0 moves first; play goes 0, 1, 2, ...
(§3 step 5, KR-30). All 16 runners race whatever the number of players; a clan no player
controls is neutral (§0). Each variant is the default rules with its preset
(``analyser.kingdom_run.variants.VARIANT_RULES``), then the run's ``--rule`` values. The
set-up draws nothing, so the games of one seed differ by the dice and the policies' draws.

Columns of ``simulate_block`` (one row per game; seats 0..P-1):

- ``game``: the game's number r in the run (its chance streams are (seed, 3r..3r+2));
- ``variant``; ``score_<seat>``: final score (§9);
- ``won_<seat>``: 1 if the seat wins or shares the win (§9, ``tie_rule``), else 0;
- ``podium_<seat>``: points of its runners' podium places; ``track_<seat>``: points of its
  runners left on the track (their spaces' zone values, §9); ``token_points_<seat>``: the
  points of its victory tokens (the score less the other two); ``tokens_<seat>``: victory
  tokens held at the end; ``finished_<seat>``: its runners on the podium (0..4);
- ``rerolls_<seat>``: dice it rolled again over the game (§4 step 2);
- ``use_<action>_<seat>`` for the actions scatter, catchup, bath, steal, sleepwake: the
  actions of that type it took (a Copy counted as the action it copied, §6.6);
  ``use_copy_<seat>``: the Copies it used (each is also counted under its action);
- ``turns``; ``rounds``: turns divided by the players, rounded up (with 3-4 players a
  player whose runners have all crossed takes no more turns, §4 step 6);
- ``end``: how the game ended (§8): "podium full", "2-player rule" (one player's four
  runners across, 2 players), "nobody to move" (every player's runners across) or "turn
  limit" (stopped at ``K.MAX_TURNS`` turns, KR-28).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from ...analyser.kingdom_run import GAME as SPEC
from ...analyser.kingdom_run.encode import rules_vector
from ...analyser.kingdom_run.rules import FACE_NAMES
from ...analyser.kingdom_run.variants import rules_of
from ...kernels.kingdom_run import game as K
from ...kernels.kingdom_run import layout as L
from ...kernels.kingdom_run import policies as P
from ..raw import block_simulator, game_columns, seat_columns, seat_part_columns
from ..spec import check_game_run, policy_codes, repeat_policies

GAME = SPEC.name
RAW_FIELDS = K.N_FIELDS  # columns of a row of simulate_raw
RULES_VERSION = 1  # the rules the games are played by (a run folder records it)
CHUNK_GAMES = 64  # games a numba thread takes at a time (does not change any result)
POLICIES = P.POLICY_NAMES
DEFAULT_POLICY = "heuristic"
VARIANTS = tuple(SPEC.variants)
MIN_PLAYERS, MAX_PLAYERS = SPEC.players
CLANS = "KWFG"  # player p plays clan CLANS[p]
CLAN_NAMES = ("Knights", "Wizards", "Forest folk", "Gnomes")
ACTIONS = FACE_NAMES  # use_<action>_<seat>: the five actions, then copy (Copies used)
PODIUM, OWN_RUNNERS, NOBODY, STOPPED = ("podium full", "2-player rule", "nobody to move",
                                        "turn limit")
END_CONDITIONS = (PODIUM, OWN_RUNNERS, NOBODY, STOPPED)  # index = the kernel's K.END_*
SEAT_FIELDS = (("score", K.F_SCORE), ("won", K.F_WIN), ("podium", K.F_PODIUM),
               ("track", K.F_ZONE), ("tokens", K.F_TOKENS), ("finished", K.F_FINISHED),
               ("rerolls", K.F_REROLLS))

assert (K.END_PODIUM, K.END_OWN_RUNNERS, K.END_NOBODY, K.END_STOPPED) == (0, 1, 2, 3)


def check_run(variants: tuple[str, ...], players: int, policies: tuple[str, ...]) -> None:
    """One-line errors for a run that cannot be made (``spec.check_game_run``)."""
    check_game_run(GAME, variants, VARIANTS, players, (MIN_PLAYERS, MAX_PLAYERS),
                   policies, POLICIES)


def seat_policies(policies: tuple[str, ...], players: int) -> tuple[str, ...]:
    """The policy of every seat: ``policies`` repeated in seat order (default
    ``heuristic`` for all)."""
    return repeat_policies(policies, players, DEFAULT_POLICY)


def rules(variant_id: str, given: dict[str, str] | None = None) -> np.ndarray:
    """The kernel's rules vector of a variant: the defaults, the variant's preset, then
    the run's ``--rule`` values."""
    return rules_vector(rules_of(variant_id, given))


def simulate_raw(variant_id: str, players: int, policies: tuple[str, ...], seed: int,
                 game0: int, n: int, progress: Callable[[int], None] | None = None,
                 rules_given: dict[str, str] | None = None) -> np.ndarray:
    """Games ``game0 .. game0 + n - 1`` of the run as the kernel's compact rows
    (``record_games``: int16, one row per game; ``progress(games done)`` as they finish);
    ``raw_table`` turns them into the table. Player 0 moves first."""
    codes = np.zeros(L.MAX_PLAYERS, dtype=np.int64)  # seats beyond the players never move
    codes[:players] = policy_codes(seat_policies(policies, players), POLICIES)
    return K.record_games(rules(variant_id, rules_given), players, codes, np.uint64(seed),
                          game0, n, CHUNK_GAMES, progress)


def raw_table(raw: np.ndarray, variant_id: str, players: int, game0: int) -> pd.DataFrame:
    """The per-game table (module docstring) of the rows ``raw`` of ``simulate_raw``."""
    cols = game_columns(variant_id, VARIANTS, game0, len(raw))
    for name, field in SEAT_FIELDS:
        cols |= seat_columns(raw, name, field, players)
    for p in range(players):
        cols[f"token_points_{p}"] = (raw[:, K.F_SCORE + p] - raw[:, K.F_PODIUM + p]
                                     - raw[:, K.F_ZONE + p])
    cols |= seat_part_columns(raw, "use_", ACTIONS, K.F_USE, players)
    turns = raw[:, K.F_TURNS]
    cols["turns"] = turns
    cols["rounds"] = -(-turns.astype(np.int64) // players)
    cols["end"] = pd.Categorical.from_codes(raw[:, K.F_END].astype(np.int64),
                                            categories=END_CONDITIONS)
    return pd.DataFrame(cols)


def arena_results(raw: np.ndarray, variant_id: str, players: int
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(scores, wins, decisions) of ``simulate_raw``'s rows, (n, players) each: final
    scores (float64, §9), win shares (float64: 1, or 1/k for each of k winners after the
    tie rule; rows sum to 1) and the decisions each seat's policy made (int64: two a
    turn, its keep-set and its sequence; the roll is no choice, §17)."""
    scores = raw[:, K.F_SCORE:K.F_SCORE + players].astype(np.float64)
    won = raw[:, K.F_WIN:K.F_WIN + players].astype(np.float64)
    decisions = 2 * raw[:, K.F_SEAT_TURNS:K.F_SEAT_TURNS + players].astype(np.int64)
    return scores, won / won.sum(axis=1, keepdims=True), decisions


simulate_block = block_simulator(simulate_raw, raw_table)
