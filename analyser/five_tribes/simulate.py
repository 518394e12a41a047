"""Whole Five Tribes games, seeded, every marker following one policy (``POLICIES``).

- ``greedy``: every marker makes the bid with the best ``advise`` bid value (best exact
  turn value there minus its cost; Kumarbi bids included; ties to the cheaper bid, then to
  fewer Fakirs) and plays its best exact complete turn (chosen in two stages,
  docs/games/five-tribes.md §20.9: the first, in enumeration order, of the largest change
  in its own final score among the turns that use no window power, then the best use of
  the window after its tile action). A turn that makes a draw (a djinn power, Kandicha)
  plays its best expected turn and draws from chance stream (seed, 2), then plays the best
  rest for what was drawn (the line shows the turn as played and the value it was chosen
  for).
- ``heuristic`` and ``random``: the kernel's whole-game policies (``FT.choose_bid``,
  ``FT.play_turn``; docs/games/five-tribes.md §21.1, §19.5), their choices from chance
  stream (seed, 2); a line's value is the exact change of the mover's final score it made.

Clean-up refills draw from chance stream (seed, 1); nothing else is random. The record
(``GameResult.text``) says what every draw gave, so that it replays (``record``).
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
from .names import CARD_CODES, DJINN_NAMES, djinn_token
from .position import Position
from .record import drawn_as, realised, turn_draws
from .validate import validate

POLICIES = ("greedy", "heuristic", "random")
MAX_ROUNDS = 200  # a sowing takes at least 2 meeples off the board: 45 rounds at most


@dataclass(frozen=True)
class Turn:
    round: int
    player: int
    action: str  # a bid or a complete turn, as ``labels`` words them
    value: float  # greedy: the bid's value (turn value - cost) or the turn's value (exact or
    # expected); the kernel's policies: the exact change of the mover's final score
    totals: tuple[int, ...]  # everyone's final score if the game ended now
    drew: tuple[str, ...] = ()  # what the turn's draws gave (``record.Draw.text``)


@dataclass(frozen=True)
class Refill:
    """The resource row (card codes, front first) and djinn display after a clean-up."""

    round: int
    resources: tuple[str, ...]
    djinns: tuple[str, ...]

    def text(self) -> str:
        return (f"refill res={','.join(self.resources) or '-'} "
                f"dj={','.join(self.djinns) or '-'}")


@dataclass(frozen=True)
class GameResult:
    start: Position
    turns: tuple[Turn, ...]
    scores: tuple[tuple[int, ...], ...]  # per player, ``FT.SCORE_PARTS``
    winners: tuple[int, ...]
    refills: tuple[Refill, ...] = ()  # one per clean-up, in round order
    over: bool = True  # False: stopped after ``simulate``'s ``rounds``

    def text(self) -> str:
        """A readable record: the start, one line per bid or turn (with a ``drew`` line per
        draw), the clean-up's refill after each round's last turn, the final scores and
        the winners (a game that is over)."""
        lines = [f"start {self.start.to_notation()}"]
        refills = {r.round: r for r in self.refills}
        for i, t in enumerate(self.turns):
            lines.append(f"round {t.round:2d} p{t.player} {t.action} | value {t.value:+g} "
                         f"| totals {','.join(map(str, t.totals))}")
            lines.extend(f"drew {d}" for d in t.drew)
            last = i + 1 == len(self.turns) or self.turns[i + 1].round != t.round
            if last and t.round in refills:
                lines.append(refills[t.round].text())
        if self.over:
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


def _refill(st: np.ndarray, round_no: int) -> Refill:
    return Refill(round_no, tuple(CARD_CODES[c] for c in st[FT.ROW:FT.ROW + 9] if c >= 0),
                  tuple(djinn_token(DJINN_NAMES[d]) for d in st[FT.DJINN_ROW:FT.DJINN_ROW + 3]
                        if d >= 0))


class _Kernel:
    """A kernel policy's bids and turns (``FT.choose_bid``, ``FT.play_turn``)."""

    def __init__(self, policy: str, rng: np.ndarray) -> None:
        self.policy, self.rng = FT.POLICY_NAMES.index(policy), rng
        self.spaces = np.zeros(FT.MAX_BIDS, dtype=np.int64)
        self.tables, self.ws = FT.walk_tables_once(), FT.turn_workspace()

    def bid(self, st: np.ndarray) -> int:
        return int(FT.choose_bid(st, self.policy, self.rng, self.spaces))

    def turn(self, st: np.ndarray) -> np.ndarray:
        return FT.play_turn(st, self.policy, self.rng, self.tables, self.ws,
                            FT.HEURISTIC_PARAMS).copy()


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
    kernel = None if policy == "greedy" else _Kernel(policy, draws)
    types = tuple(cell.tile for _, _, cell in pos.cells())
    turns: list[Turn] = []
    refills: list[Refill] = []
    over = False
    round_no = 1
    while round_no <= (rounds or MAX_ROUNDS):
        player = int(st[FT.TO_MOVE])
        before = st.copy()
        drew: tuple[str, ...] = ()
        if st[FT.PHASE] == FT.BIDDING:
            bid, value = _bid(st) if kernel is None else (kernel.bid(st), None)
            FT.place_bid(st, bid)
            label = bid_label(bid)
        elif kernel is None:
            again = draws.copy()  # the stream as the turn starts: its draws made again
            action, parts = FT.play_greedy_turn(st, draws)
            label, value = turn_label(action, types), float(parts[-1])
            drew = turn_draws(before, label, st, realised(again))
        else:
            label, value = turn_label(kernel.turn(st), types), None
            drew = turn_draws(before, label, st, drawn_as(st))
        totals = _totals(st)
        if value is None:
            value = totals[player] - _totals(before)[player]
        turns.append(Turn(round_no, player, label, value, totals, drew))
        if st[FT.PHASE] == FT.TURNS and st[FT.TO_MOVE] < 0:  # every marker has played
            FT.cleanup(st, chance)
            refills.append(_refill(st, round_no))
            over = bool(FT.game_over(st))
            if over:
                break
            round_no += 1
    else:
        if rounds is None:
            raise OddsbotError(f"simulate: no end after {MAX_ROUNDS} rounds")
    scores = FT.state_scores(st)
    totals = scores[:, -1]
    return GameResult(pos, tuple(turns), tuple(tuple(int(x) for x in row) for row in scores),
                      tuple(int(p) for p in np.flatnonzero(totals == totals.max())),
                      tuple(refills), over)


def after_bids(pos: Position) -> Position:
    """``pos`` (bidding) once every marker has placed its greedy bid: the first turn."""
    validate(pos)
    st = encode(pos)
    while st[FT.PHASE] == FT.BIDDING:
        FT.place_bid(st, _bid(st)[0])
    return decode(st)
