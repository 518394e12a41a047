"""A whole game played one decision at a time, each seat by its own player
(``analyser/players.py``) seeing only its own view (``SeatsFace``, docs/strategies.md).

Streams: the deal is seeded ``deal_seed``; decision ``k`` of the game draws its chance
from ``derive(chance_seed, k, 0)`` and hands its player ``derive(chance_seed, k, 1)``, so
the same deal played with other seatings meets the same chance wherever play coincides,
and every decision has a fresh stream (a player never meets its own earlier noise).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import OddsbotError
from .players import Forfeit, derive

MAX_DECISIONS = 100_000  # a game still going after this many decisions is a fault


class Player(Protocol):
    name: str

    def act(self, view: Any, legal: Callable[[], list[str]], seed: int) -> str: ...


@dataclass
class Seat:
    """One seat's part of a finished game."""

    score: float
    win: float  # its win share: 1, 1/k for k tied winners, 0
    forfeit: bool = False
    decisions: int = 0
    seconds: float = 0.0  # its players' decision time, wall clock
    cpu_seconds: float = 0.0  # ... and CPU time of this process (all its threads)


@dataclass
class SeatedGame:
    """A finished game: its true start, the moves (action, chance outcome), the true
    position before each move and after the last (``positions[0]`` is ``start``), every
    seat's part, and the forfeit's one line if a player forfeited."""

    start: Any
    moves: list[tuple[str, str | None]] = field(default_factory=list)
    positions: list[Any] = field(default_factory=list)
    seats: list[Seat] = field(default_factory=list)
    forfeit: str | None = None


def _forfeited(players: int, seat: int) -> list[Seat]:
    """The seats of a game that seat ``seat`` forfeited: no win for it, the win shared
    by the others; no scores (docs/strategies.md §1)."""
    return [Seat(math.nan, 0.0 if s == seat else 1 / (players - 1), forfeit=s == seat)
            for s in range(players)]


def play_seated(face: Any, players: list[Player], *, variant: str, deal_seed: int,
                chance_seed: int, rules: dict[str, str] | None = None) -> SeatedGame:
    """Play a game from ``face.deal(len(players), deal_seed, variant, rules)`` to its end,
    seat ``s`` by ``players[s]``."""
    pos = face.deal(len(players), deal_seed, variant, dict(rules or {}))
    game = SeatedGame(pos, positions=[pos])
    spent = [[0, 0.0, 0.0] for _ in players]  # decisions, seconds, cpu seconds
    for k in range(MAX_DECISIONS):
        result = face.game_result(pos)
        if result is not None:
            scores, wins = result
            game.seats = [Seat(float(x), float(w)) for x, w in zip(scores, wins)]
            break
        seat = pos.to_move
        view = face.seat_view(pos, seat)
        t0, c0 = time.perf_counter(), time.process_time()
        player = players[seat]
        try:
            try:
                action = player.act(view, lambda v=view: face.legal_actions(v),
                                    derive(chance_seed, k, 1))
            finally:
                spent[seat][0] += 1
                spent[seat][1] += time.perf_counter() - t0
                spent[seat][2] += time.process_time() - c0
            try:
                pos, outcome = face.step(pos, action, derive(chance_seed, k, 0))
            except OddsbotError:
                if not hasattr(player, "illegal"):  # a compiled player's: a fault
                    raise
                raise player.illegal(action) from None
        except Forfeit as exc:
            game.forfeit = f"seat {face.player_name(pos, seat)}: {exc}"
            game.seats = _forfeited(len(players), seat)
            break
        game.moves.append((action, outcome))
        game.positions.append(pos)
    else:
        raise OddsbotError(f"game: no end after {MAX_DECISIONS:,} decisions (a fault of "
                           f"{face.NAME}'s arena seats)")
    for part, (decisions, seconds, cpu) in zip(game.seats, spent):
        part.decisions, part.seconds, part.cpu_seconds = decisions, seconds, cpu
    return game
