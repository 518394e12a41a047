"""Labels of keep-sets and action sequences, written from the kernel's rows and read
back into them (docs/games/kingdom-run.md §13).

``keep scatter,bath`` / ``reroll all``; ``scatter 5 [W1,K1] > catchup G2 > bath W3 >
steal p2 > sleep F1 > copy:wake G4 > podium [K1]``; ``pass`` when no die has a use.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np

from ...errors import OddsbotError, quote
from ...kernels.kingdom_run import actions as A
from ...kernels.kingdom_run import turns as T
from .position import RUNNER_NAMES
from .rules import COPY, FACE_NAMES, SCATTER, SLEEPWAKE, STEAL

SEP = " > "
PASS = "pass"
REROLL_ALL = "reroll all"
_RUNNER = {name: r for r, name in enumerate(RUNNER_NAMES)}
_STEP = re.compile(r"(copy:)?(?:(scatter) ([0-9]{1,2}) \[([A-Z0-9,]*)\]|(catchup|bath|sleep|wake)"
                   r" ([KWFG][1-4])|(steal) p([1-4]))")
_PODIUM = re.compile(r"podium \[([A-Z0-9,]*)\]")


# ------------------------------------------------------------------ keep-sets
def keep_sets(roll: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every distinct sub-multiset of the roll (faces in face order): more dice kept
    first, then by faces (§13)."""
    counts = Counter(roll)
    faces = sorted(counts)
    out: set[tuple[int, ...]] = {()}
    for f in faces:
        out = {k + (f,) * i for k in out for i in range(counts[f] + 1)}
    return sorted(out, key=lambda k: (-len(k), k))


def keep_label(kept: tuple[int, ...]) -> str:
    return "keep " + ",".join(FACE_NAMES[f] for f in kept) if kept else REROLL_ALL


def read_keep(label: str, roll: tuple[int, ...], where: str) -> tuple[int, ...]:
    """The faces a keep label keeps, checked against the roll."""
    for kept in keep_sets(roll):
        if keep_label(kept) == label.strip():
            return kept
    raise OddsbotError(f"{where}: {quote(label)} is not a keep-set of the roll "
                       f"{','.join(FACE_NAMES[f] for f in roll)} ('keep F,F' or "
                       f"'{REROLL_ALL}')")


def keep_mask(roll: tuple[int, ...], kept: tuple[int, ...]) -> int:
    """The dice (bitmask over ``roll``) a keep-set keeps: the first dice of each face."""
    left = Counter(kept)
    mask = 0
    for d, f in enumerate(roll):
        if left[f]:
            left[f] -= 1
            mask |= 1 << d
    return mask


# ------------------------------------------------------------------ sequences
def step_text(row: np.ndarray, asleep: set[int]) -> str:
    """One action row as text; ``asleep``: the runners asleep before it (updated)."""
    face, kind, target = int(row[A.A_FACE]), int(row[A.A_TYPE]), int(row[A.A_TARGET])
    head = "copy:" if face == COPY else ""
    if kind == SCATTER:
        names = ",".join(RUNNER_NAMES[int(r)] for r in row[A.A_R:A.A_R + int(row[A.A_K])])
        return f"{head}scatter {target} [{names}]"
    if kind == STEAL:
        return f"{head}steal p{target + 1}"
    if kind == SLEEPWAKE:
        word = "wake" if target in asleep else "sleep"
        asleep ^= {target}
        return f"{head}{word} {RUNNER_NAMES[target]}"
    return f"{head}{FACE_NAMES[kind]} {RUNNER_NAMES[target]}"


def path_label(path: np.ndarray, asleep: tuple[int, ...]) -> str:
    """A search path row (``turns.search``) as a label."""
    sleepers = set(asleep)
    steps = [step_text(path[T.P_ACT + d * A.A_COLS:T.P_ACT + (d + 1) * A.A_COLS], sleepers)
             for d in range(int(path[T.P_N]))]
    if path[T.P_CROSSED] > 0:
        k = int(path[T.P_K])
        steps.append("podium [" + ",".join(RUNNER_NAMES[int(r)]
                                           for r in path[T.P_WIN:T.P_WIN + k]) + "]")
    return SEP.join(steps) if steps else PASS


def _runner(text: str, where: str) -> int:
    if text not in _RUNNER:
        raise OddsbotError(f"{where}: no runner {quote(text)} (K1..G4)")
    return _RUNNER[text]


def read_path(label: str, where: str) -> np.ndarray:
    """A label as a path row (``turns.P_COLS``), not yet checked against a position."""
    path = np.full(T.P_COLS, -1, dtype=np.int64)
    path[T.P_N] = 0
    path[T.P_K] = 0
    text = label.strip()
    if text == PASS:
        return path
    parts = text.split(SEP)
    if len(parts) > 7:
        raise OddsbotError(f"{where}: {quote(label)} has too many steps")
    for i, part in enumerate(parts):
        podium = _PODIUM.fullmatch(part.strip())
        if podium and i == len(parts) - 1:
            names = [n for n in podium.group(1).split(",") if n]
            if len(names) > len(path) - T.P_WIN - 1:
                raise OddsbotError(f"{where}: too many runners in {quote(part)}")
            path[T.P_K] = len(names)
            for j, name in enumerate(names):
                path[T.P_WIN + j] = _runner(name, where)
            path[T.P_CROSSED] = 1
            continue
        m = _STEP.fullmatch(part.strip())
        d = int(path[T.P_N])
        if m is None or d >= (T.P_K - T.P_ACT) // A.A_COLS:
            raise OddsbotError(f"{where}: cannot read step {quote(part)} (e.g. 'scatter 5 "
                               f"[W1,K1]', 'catchup G2', 'bath W3', 'steal p2', 'sleep F1', "
                               f"'copy:wake G4', 'podium [K1]')")
        row = path[T.P_ACT + d * A.A_COLS:T.P_ACT + (d + 1) * A.A_COLS]
        copy, _, space, names, word, runner, _, player = m.groups()
        if space is not None:
            kind = SCATTER
            runners = [n for n in names.split(",") if n]
            if not 1 <= len(runners) <= A.MAX_SCATTER:
                raise OddsbotError(f"{where}: a Scatter picks up 1 to 4 runners: "
                                   f"{quote(part)}")
            row[A.A_TARGET] = int(space)
            row[A.A_K] = len(runners)
            for j, name in enumerate(runners):
                row[A.A_R + j] = _runner(name, where)
        elif player is not None:
            kind = STEAL
            row[A.A_TARGET] = int(player) - 1
            row[A.A_K] = 0
        else:
            kind = SLEEPWAKE if word in ("sleep", "wake") else FACE_NAMES.index(word)
            row[A.A_TARGET] = _runner(runner, where)
            row[A.A_K] = 0
        row[A.A_TYPE] = kind
        row[A.A_FACE] = COPY if copy else kind
        path[T.P_N] = d + 1
    return path


def wrapped(label: str, width: int = 46) -> str:
    """A label on lines of at most ``width`` characters, broken before its `` > `` (as the
    terminal tables show a long label; the label itself is one line)."""
    lines = [""]
    for i, step in enumerate(label.split(SEP)):
        piece = step if i == 0 else SEP.lstrip() + step
        if lines[-1] and len(lines[-1]) + 1 + len(piece) > width:
            lines.append("  " + piece)
        else:
            lines[-1] = f"{lines[-1]} {piece}" if lines[-1] else piece
    return "\n".join(lines)
