"""A turn's decisions on a position: the keep-sets of the roll, every distinct action
sequence of the final roll, and taking either (docs/games/kingdom-run.md §4, §13)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import OddsbotError, quote
from ...kernels.kingdom_run import actions as A
from ...kernels.kingdom_run import layout as L
from ...kernels.kingdom_run import turns as T
from .encode import position_of, rules_vector, state_vector
from .labels import (
    PASS, SEP, keep_label, keep_mask, keep_sets, path_label, read_keep, read_path,
)
from .position import Position
from .rules import SCATTER, STEAL
from .validate import validate

ROLL = "roll"  # the action of a position with no roll yet: its outcomes are the dice
LIST_MOST = 20_000  # sequences listed at most (the best by the default evaluation)


@dataclass(frozen=True)
class Sequences:
    """The distinct end-of-turn positions of a position's remaining dice: one label per
    position (the first in canonical order), the mover's default evaluation after it, how
    many distinct positions there are (``total``; only the best ``LIST_MOST`` listed)."""

    labels: list[str]
    values: np.ndarray
    paths: np.ndarray
    total: int


def over(pos: Position) -> bool:
    """The game has ended (§8)."""
    S = state_vector(pos)
    return bool(S[L.S_OVER]) or bool(L.ended(S, rules_vector(pos.rules)))


def evaluation(pos: Position, player: int) -> float:
    """The default evaluation of ``pos`` for ``player`` (§14)."""
    return float(L.evaluation(state_vector(pos), rules_vector(pos.rules), player))


def scores_now(pos: Position) -> list[int]:
    """Every player's score on what the position holds now (§9): runners crossed this
    turn score nothing until they have their place."""
    S = state_vector(pos)
    scores = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    wins = np.zeros(L.MAX_PLAYERS)
    L.scores_and_wins(S, rules_vector(pos.rules), scores, wins)
    return [int(x) for x in scores[:pos.players]]


def phase(pos: Position) -> str:
    """``roll`` (no roll yet), ``keep`` (the re-roll decision) or ``act``."""
    if pos.roll is None:
        return "roll"
    return "act" if pos.rerolled else "keep"


def with_roll(pos: Position, roll: tuple[int, ...]) -> Position:
    """``pos`` with its turn's first roll ``roll`` (before the re-roll)."""
    new = pos.with_(roll=tuple(roll), rerolled=False, used=())
    validate(new)
    return new


def keep_choices(pos: Position) -> list[tuple[str, tuple[int, ...]]]:
    """(label, faces kept) of every keep-set of the roll (§13)."""
    return [(keep_label(k), k) for k in keep_sets(pos.roll or ())]


def sequences(pos: Position, most: int = LIST_MOST) -> Sequences:
    """Every distinct sequence of the remaining dice (``turns.search``), canonical order."""
    S, R = state_vector(pos), rules_vector(pos.rules)
    paths, values, rows, total, _, _ = T.search(S, R, most, 0)
    labels = [path_label(paths[i], pos.asleep) for i in range(rows)]
    return Sequences(labels, values.astype(np.float64), paths, int(total))


def take_keep(pos: Position, label: str, final: tuple[int, ...], where: str) -> Position:
    """The position after keeping ``label`` and re-rolling to ``final`` (the kept dice
    must be in ``final``)."""
    kept = read_keep(label, pos.roll or (), where)
    rest = list(final)
    for f in kept:
        if f not in rest:
            raise OddsbotError(f"{where}: the final roll must hold the kept dice")
        rest.remove(f)
    return pos.with_(roll=tuple(final), rerolled=True)


def take_sequence(pos: Position, label: str, where: str) -> Position:
    """The position after the sequence ``label`` (the turn ends); one line if illegal."""
    S, R = state_vector(pos), rules_vector(pos.rules)
    path = read_path(label, where)
    crossed = T.apply_path(S, R, path)
    if crossed < 0:
        raise OddsbotError(f"{where}: {quote(label)} is not a legal turn here (every die "
                           f"with a use must be used; 'oddsbot moves' lists the turns)")
    path[T.P_CROSSED] = crossed
    normal = SEP.join(part.strip() for part in label.strip().split(SEP))
    if label.strip() != PASS and path_label(path, pos.asleep) != normal:
        raise OddsbotError(f"{where}: {quote(label)} does not say what it does here (a "
                           f"sleeping runner is woken, an awake one put to sleep; a "
                           f"'podium [...]' step ends a turn in which runners crossed)")
    return position_of(S, pos)


def keep_rows(pos: Position) -> np.ndarray:
    """The keep-sets as the kernel's ``keeps`` array (dice kept per action type)."""
    choices = keep_choices(pos)
    keeps = np.zeros((len(choices), L.N_FACES), dtype=np.int64)
    for i, (_, kept) in enumerate(choices):
        for f in kept:
            keeps[i, f] += 1
    return keeps


def keep_masks(pos: Position) -> list[int]:
    return [keep_mask(pos.roll or (), kept) for _, kept in keep_choices(pos)]


def standing(pos: Position, paths: np.ndarray) -> list[str | None]:
    """For each path row: where the runner of each of its Catch-up, Bath, Sleep or Wake
    steps stands when the step is taken, in step order (``3,5``: the EV table's ``on``);
    None without such a step (a Scatter names its space, a Steal a player)."""
    S0, R = state_vector(pos), rules_vector(pos.rules)
    out = []
    for path in paths.astype(np.int64):
        S = S0.copy()
        spaces = []
        for d in range(int(path[T.P_N])):
            a = path[T.P_ACT + d * A.A_COLS:T.P_ACT + (d + 1) * A.A_COLS]
            if a[A.A_TYPE] != SCATTER and a[A.A_TYPE] != STEAL:
                spaces.append(str(S[L.S_LOC + a[A.A_TARGET]]))
            A.apply_action(S, R, a)
        out.append(",".join(spaces) or None)
    return out
