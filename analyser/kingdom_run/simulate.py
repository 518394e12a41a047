"""New Kingdom Run games and whole simulated games as records (docs/games/kingdom-run.md
§3, §15).

``new_position`` sets up a game and rolls the first player's dice from stream (seed, 1),
the stream ``play`` rolls every die from (policy choices from (seed, 2)): ``new --seed 7``
and ``new --seed 7 --play`` start with the same roll. A record has one line a turn:
``<player> | <roll> | <keep-set> | <final roll> | <sequence>`` (rolls as face letters,
``-`` for a keep-set already taken in the start position).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from ...errors import OddsbotError
from ...kernels.kingdom_run import game as G
from ...kernels.kingdom_run import layout as L
from ...kernels.kingdom_run import turns as T
from ...kernels.kingdom_run.policies import POLICY_NAMES
from ...kernels.rng import stream
from .advise import FACE_LETTERS
from .encode import position_of, rules_vector, state_vector
from .labels import keep_label, path_label
from .position import Position
from .position import new_position as set_up
from .validate import validate
from .variants import rules_of

POLICIES = POLICY_NAMES
MAX_LOG = G.MAX_TURNS


def roll_text(roll: tuple[int, ...] | None) -> str:
    return "".join(FACE_LETTERS[f] for f in sorted(roll)) if roll else "-"


@dataclass(frozen=True)
class GameLine:
    """One turn of a game: the position before it (its roll, if any, as it was), the
    first roll, the keep-set (``-``: taken before), the final roll and the sequence."""

    before: Position
    player: int
    roll: str
    keep: str
    final: str
    label: str
    after: Position

    def text(self) -> str:
        return turn_text(self.player, self.roll, self.keep, self.final, self.label)


def turn_text(player: int, *parts: str) -> str:
    """A record line: ``p1 | SCBY | keep scatter,bath | SBBT | <sequence>``, or the first
    parts of it for a turn still under way (``p1 | SCBY``)."""
    return " | ".join([f"p{player + 1}", *parts])


@dataclass
class SimulatedGame:
    start: Position
    turns: list[GameLine] = field(default_factory=list)
    scores: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()

    def text(self) -> str:
        lines = [f"start {self.start.to_notation()}"]
        lines += [t.text() for t in self.turns]
        lines.append(result_line(self.scores, self.winners))
        return "\n".join(lines) + "\n"


def result_line(scores: tuple[int, ...], winners: tuple[int, ...]) -> str:
    """``result p1:31 p2:32 p3:24 winner p2`` (tied winners: ``winner p1,p3``)."""
    return ("result " + " ".join(f"p{p + 1}:{s}" for p, s in enumerate(scores))
            + " winner " + ",".join(f"p{p + 1}" for p in winners))


def final(S: np.ndarray, R: np.ndarray) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(scores, winners) of a finished state (§9)."""
    n = int(S[L.S_PLAYERS])
    scores = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    wins = np.zeros(L.MAX_PLAYERS)
    L.scores_and_wins(S, R, scores, wins)
    return tuple(int(s) for s in scores[:n]), tuple(p for p in range(n) if wins[p])


def new_position(players: int = 4, seed: int = 0, variant: str = "kingdom-run",
                 rules: Mapping[str, str] | None = None) -> Position:
    """A new game (§3) with the first player's roll, not yet re-rolled."""
    chosen = rules_of(variant, rules)
    if not 2 <= players <= L.MAX_PLAYERS:
        raise OddsbotError(f"--players: Kingdom Run takes 2 to 4 players, not {players}")
    pos = set_up(players, rules=chosen)
    S, R = state_vector(pos), rules_vector(chosen)
    G.roll(S, R, stream(np.uint64(seed), 1))
    return position_of(S, pos)


def _turn_line(S: np.ndarray, R: np.ndarray, like: Position, entry: np.ndarray
               ) -> tuple[GameLine, np.ndarray]:
    """A logged turn (``game.LOG_FIELDS``) as a record line, played on a copy of S."""
    before = position_of(S, like, like.used if S[L.S_NUSED] else ())
    dice = like.rules.dice
    first = tuple(int(f) for f in entry[G.L_ROLL:G.L_ROLL + dice])
    final_roll = tuple(int(f) for f in entry[G.L_FINAL:G.L_FINAL + dice])
    keep = int(entry[G.L_KEEP])
    if S[L.S_REROLLED]:
        keep_text = "-"
    else:
        keep_text = keep_label(tuple(sorted(f for d, f in enumerate(first) if keep >> d & 1)))
    W = S.copy()
    W[L.S_ROLL:L.S_ROLL + dice] = final_roll
    W[L.S_HAS_ROLL] = 1
    W[L.S_REROLLED] = 1
    path = np.full(T.P_COLS, -1, dtype=np.int64)
    n = int(entry[G.L_N])
    path[T.P_N] = n
    path[T.P_ACT:T.P_ACT + n * G.A_COLS] = entry[G.L_ACT:G.L_ACT + n * G.A_COLS]
    k = int(entry[G.L_HAND])
    path[T.P_K] = k
    path[T.P_WIN:T.P_WIN + k] = entry[G.L_HAND + 1:G.L_HAND + 1 + k]
    asleep = tuple(r for r in range(L.RUNNERS) if W[L.S_SLEEP + r] and W[L.S_LOC + r] >= 0)
    crossed = T.apply_path(W, R, path)
    if crossed < 0:
        raise AssertionError(f"a logged turn does not replay: {entry}")
    path[T.P_CROSSED] = crossed
    label = path_label(path, asleep)
    after = position_of(W, like)
    line = GameLine(before, int(entry[G.L_PLAYER]), roll_text(first), keep_text,
                    roll_text(final_roll), label, after)
    return line, W


def simulate(pos: Position, *, seed: int = 0, policy: str = "heuristic") -> SimulatedGame:
    """``pos`` played to its end, every player by ``policy`` (dice from (seed, 1))."""
    if policy not in POLICIES:
        raise OddsbotError(f"policy: kingdom-run has no policy {policy!r} (known: "
                           f"{', '.join(POLICIES)})")
    validate(pos)
    S, R = state_vector(pos), rules_vector(pos.rules)
    policies = np.full(L.MAX_PLAYERS, POLICIES.index(policy), dtype=np.int64)
    end, log, _, _ = G.play_from(S, R, policies, np.uint64(seed), 0, MAX_LOG)
    game = SimulatedGame(pos)
    for entry in log:
        line, S = _turn_line(S, R, pos if not game.turns else game.turns[-1].after, entry)
        game.turns.append(line)
    if not np.array_equal(S, end):
        raise AssertionError("the replayed game differs from the kernel's")
    game.scores, game.winners = final(end, R)
    return game


def play(players: int, seed: int, variant: str, policy: str,
         rules: Mapping[str, str] | None = None) -> str:
    """A whole game from the set-up (the first roll as ``new_position``'s), every player
    by ``policy``, as a record."""
    if policy not in POLICIES:
        raise OddsbotError(f"policy: kingdom-run has no policy {policy!r} (known: "
                           f"{', '.join(POLICIES)})")
    start = set_up(players, rules=rules_of(variant, rules)) if 2 <= players <= 4 else \
        new_position(players, seed, variant, rules)
    return simulate(start, seed=seed, policy=policy).text()
