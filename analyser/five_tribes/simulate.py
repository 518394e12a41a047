"""Whole Five Tribes games under the greedy exact-value policy, seeded.

Every marker makes the bid with the best ``advise`` bid value (best exact turn value there
minus its cost; Kumarbi bids included; ties to the cheaper bid, then to fewer Fakirs) and
plays its best exact complete turn
(chosen in two stages, docs/games/five-tribes.md §20.9: the first, in enumeration order, of
the largest change in its own final score among the turns that use no window power, then
the best use of the window after its tile action).
A turn that makes a draw (a djinn power, Kandicha) plays its best expected turn and draws
from chance stream (seed, 2), then plays the best rest for what was drawn (the line shows
the turn as played and the value it was chosen for). Clean-up refills draw from chance
stream (seed, 1); nothing else is random.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...kernels import five_tribes as FT
from ...kernels.rng import stream
from ...errors import OddsbotError
from .advise import bid_values
from .encode import decode, encode
from .labels import bid_label, turn_label
from .position import Position
from .validate import validate

POLICIES = ("greedy",)
MAX_ROUNDS = 200  # a sowing takes at least 2 meeples off the board: 45 rounds at most


@dataclass(frozen=True)
class Turn:
    round: int
    player: int
    action: str  # a bid or a complete turn, as ``labels`` words them
    value: float  # the bid's value (turn value - cost) or the turn's value (exact or expected)
    totals: tuple[int, ...]  # everyone's final score if the game ended now


@dataclass(frozen=True)
class GameResult:
    start: Position
    turns: tuple[Turn, ...]
    scores: tuple[tuple[int, ...], ...]  # per player, ``FT.SCORE_PARTS``
    winners: tuple[int, ...]

    def text(self) -> str:
        """A readable record: the start, one line per bid or turn, the final scores."""
        lines = [f"start {self.start.to_notation()}"]
        for t in self.turns:
            lines.append(f"round {t.round:2d} p{t.player} {t.action} | value {t.value:+g} "
                         f"| totals {','.join(map(str, t.totals))}")
        for p, parts in enumerate(self.scores):
            named = " ".join(f"{k} {v}" for k, v in zip(FT.SCORE_PARTS, parts))
            lines.append(f"score p{p} {named}")
        lines.append("winner " + ",".join(f"p{p}" for p in self.winners))
        return "\n".join(lines) + "\n"


def _totals(st: np.ndarray) -> tuple[int, ...]:
    return tuple(int(x) for x in FT.state_scores(st)[:, -1])


def _bid(st: np.ndarray) -> tuple[int, int]:
    """The greedy bid: (bid code, its ev)."""
    values = bid_values(decode(st))
    bid = max(values, key=lambda b: (values[b].ev, -values[b].cost, -values[b].fakirs))
    return bid, values[bid].ev


def simulate(pos: Position, *, seed: int = 0, policy: str = "greedy",
             rounds: int | None = None) -> GameResult:
    """Play ``pos`` to the end of the game with every marker following ``policy``; with
    ``rounds``, stop after that many rounds (an unfinished game: ``oddsbot warm-up``)."""
    if policy not in POLICIES:
        raise OddsbotError(f"policy: unknown policy {policy!r} (known: {', '.join(POLICIES)})")
    validate(pos)
    st = encode(pos)
    chance = stream(np.uint64(seed), 1)
    draws = stream(np.uint64(seed), 2)
    types = tuple(cell.tile for _, _, cell in pos.cells())
    turns: list[Turn] = []
    round_no = 1
    while round_no <= (rounds or MAX_ROUNDS):
        player = int(st[FT.TO_MOVE])
        if st[FT.PHASE] == FT.BIDDING:
            bid, value = _bid(st)
            FT.place_bid(st, bid)
            label = bid_label(bid)
        else:
            action, parts = FT.play_greedy_turn(st, draws)
            label, value = turn_label(action, types), float(parts[-1])
        turns.append(Turn(round_no, player, label, value, _totals(st)))
        if st[FT.PHASE] == FT.TURNS and st[FT.TO_MOVE] < 0:  # every marker has played
            FT.cleanup(st, chance)
            if FT.game_over(st):
                break
            round_no += 1
    else:
        if rounds is None:
            raise OddsbotError(f"simulate: no end after {MAX_ROUNDS} rounds")
    scores = FT.state_scores(st)
    totals = scores[:, -1]
    return GameResult(pos, tuple(turns), tuple(tuple(int(x) for x in row) for row in scores),
                      tuple(int(p) for p in np.flatnonzero(totals == totals.max())))


def after_bids(pos: Position) -> Position:
    """``pos`` (bidding) once every marker has placed its greedy bid: the first turn."""
    validate(pos)
    st = encode(pos)
    while st[FT.PHASE] == FT.BIDDING:
        FT.place_bid(st, _bid(st)[0])
    return decode(st)
