"""New Mumia games and whole simulated games as records (docs/games/mumia.md §2, §16.3).

``new_position`` sets up a game from stream (seed, 0), the same set-up that ``play``
plays from dice (seed, 1) and policy choices (seed, 2): ``new --seed 7`` and ``new
--seed 7 --play`` start alike. A record is written from every seat's view at once (its
start line shows the token pile), one line a step: ``<seat> <roll> <label>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from ...errors import OddsbotError, quote
from ...kernels.mumia import choices as C
from ...kernels.mumia import layout as L
from ...kernels.mumia.rollouts import play_from
from ...kernels.mumia.setup import new_game
from ...kernels.rng import stream
from .encode import decode, encode
from .labels import roll_text
from .notation import seat_letter
from .position import EXPANSIONS, VARIANT_SETS, Position
from .rules import Rules, rules_vector
from .turns import choices, take

POLICIES = C.POLICY_NAMES
MAX_LOG = 20_000  # steps a record may hold (a game takes a few hundred)


def expansions_of(variant: str, text: str = "") -> tuple[str, ...]:
    """The expansions of ``--expansions`` text (``e1,e3``, ``all``, ``none``), or the
    variant's."""
    if not text:
        return VARIANT_SETS[variant]
    if text == "all":
        return EXPANSIONS
    if text == "none":
        return ()
    named = tuple(text.split(","))
    for e in named:
        if e not in EXPANSIONS:
            raise OddsbotError(f"--expansions: unknown expansion {quote(e)} (known: "
                               f"{', '.join(EXPANSIONS)}, all, none)")
    if len(set(named)) != len(named):
        raise OddsbotError("--expansions: an expansion is named twice")
    return tuple(sorted(named))


def rules_of(variant: str, given: Mapping[str, str] | None) -> Rules:
    """The variant's rules with ``--rule`` values set."""
    rules = Rules(sudden_end=variant == "mumia-sudden")
    return rules.with_(given or {}, "--rule")


def new_position(players: int = 4, seed: int = 0, variant: str = "mumia",
                 expansions: str = "", rules: Mapping[str, str] | None = None) -> Position:
    """A new game's start, seen by seat 0 (the token pile unseen)."""
    return start_state(players, seed, variant, expansions, rules)[0]


def start_state(players: int, seed: int, variant: str, expansions: str,
           rules: Mapping[str, str] | None) -> tuple[Position, np.ndarray, np.ndarray, Rules,
                                                     tuple[str, ...]]:
    if not 2 <= players <= 6:
        raise OddsbotError(f"--players: Mumia takes 2 to 6 players, got {players}")
    exp = expansions_of(variant, expansions)
    chosen = rules_of(variant, rules)
    R = rules_vector(chosen, players, frozenset(exp))
    S = new_game(R, stream(np.uint64(seed), 0))
    pos = decode(S, R, chosen, exp, viewer=0,
                 taken_by=tuple(() for _ in range(players)))
    return pos, S, R, chosen, exp


@dataclass
class GameLine:
    """One step of a simulated game: the position before it (seen by the mover), the
    seat, the roll and the label."""

    before: Position
    seat: int
    roll: str
    label: str

    def text(self) -> str:
        return f"{seat_letter(self.seat)} {self.roll} {self.label}"


@dataclass
class SimulatedGame:
    start: Position
    turns: list[GameLine] = field(default_factory=list)
    scores: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    start_text: str = ""

    def text(self) -> str:
        lines = [f"start {self.start_text}"]
        lines += [t.text() for t in self.turns]
        lines.append(result_line(self.scores, self.winners))
        return "\n".join(lines) + "\n"


def result_line(scores: tuple[int, ...], winners: tuple[int, ...]) -> str:
    """``result A:31 B:12 C:7 winner A`` (tied winners: ``winner A,C``)."""
    return ("result " + " ".join(f"{seat_letter(p)}:{s}" for p, s in enumerate(scores))
            + " winner " + ",".join(seat_letter(p) for p in winners))


def final(S: np.ndarray, R: np.ndarray) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(scores, winners) of a finished state."""
    players = int(R[L.R_PLAYERS])
    scores = np.zeros(L.MAX_SEATS, dtype=np.int64)
    wins = np.zeros(L.MAX_SEATS)
    L.scores_and_wins(S, R, scores, wins)
    return (tuple(int(s) for s in scores[:players]),
            tuple(p for p in range(players) if wins[p]))


def replay_log(start: np.ndarray, R: np.ndarray, log: np.ndarray, rules: Rules,
               exp: tuple[str, ...], taken: list[list[int]]) -> tuple[list[GameLine],
                                                                       np.ndarray]:
    """The kernel's move log as record lines, each with the position before it."""
    S = start.copy()
    lines = []
    for entry in log:
        seat, n, sym = int(entry[0]), int(entry[1]), int(entry[2])
        row = entry[3:3 + C.N_COLS]
        rows, labels = choices(S, R, n, sym)
        match = [i for i, r in enumerate(rows) if np.array_equal(r, row)]
        if not match:
            raise AssertionError(f"logged move {row} not among the choices {labels}")
        before = decode(S, R, rules, exp, viewer=seat,
                        taken_by=tuple(tuple(t) for t in taken))
        lines.append(GameLine(before, seat, roll_text(n, sym), labels[match[0]]))
        step = take(S, R, rows[match[0]], n)
        taken[seat].extend(step.mummy)
    return lines, S


def simulate(pos: Position, *, seed: int = 0, policy: str = "heuristic") -> SimulatedGame:
    """``pos`` played to its end, every seat by ``policy`` (unseen tokens dealt at random
    from stream (seed, 0))."""
    from .validate import validate
    if policy not in POLICIES:
        raise OddsbotError(f"policy: mumia has no policy {policy!r} (known: "
                           f"{', '.join(POLICIES)})")
    validate(pos)
    enc = encode(pos)
    policies = np.full(L.MAX_SEATS, POLICIES.index(policy), dtype=np.int64)
    start, S, log, _ = play_from(enc.S, enc.R, policies, enc.pool, enc.unseen,
                                 np.uint64(seed), MAX_LOG)
    taken = [list(t) for t in pos.mummy_taken]
    lines, end = replay_log(start, enc.R, log, pos.rules, pos.expansions, taken)
    scores, winners = final(end, enc.R)
    full = decode(start, enc.R, pos.rules, pos.expansions,
                  taken_by=tuple(tuple(t) for t in pos.mummy_taken))
    return SimulatedGame(pos, lines, scores, winners, full.to_notation())


def play(players: int, seed: int, variant: str, policy: str, expansions: str = "",
         rules: Mapping[str, str] | None = None) -> str:
    """A whole game from ``new_position(players, seed, ...)``, every seat by ``policy``,
    as a record."""
    pos, S, R, chosen, exp = start_state(players, seed, variant, expansions, rules)
    full = decode(S, R, chosen, exp, taken_by=tuple(() for _ in range(players)))
    game = simulate(full, seed=seed, policy=policy)
    return game.text()

