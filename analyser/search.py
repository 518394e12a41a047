"""``search``: the strong player of every game (docs/strategies.md §4).

At each decision it takes the game's best candidates (``SeatsFace.candidates``: by the
game's own advise ranking, with what ``heuristic`` and ``greedy`` would do; every legal
action when few), plays each on to the end many times with the fast ``heuristic`` in
every seat (``playouts``, on common random numbers), and spends its budget where the
decision is close, by successive halving: the candidates share each round's playouts,
the better half by win chance goes on, until two are left or the budget is spent. The
heuristic's own choice (the *incumbent*) plays every round, and the candidate with the
best chance to win (its mean win share; the mean score breaks a tie; not the best
expected score) replaces it only when it is ahead by ``SWITCH`` standard errors of the
paired difference: a small budget cannot make the player worse than its playouts'
policy by chasing noise. It sees only its seat's view.

Every decision draws fresh streams (``derive(seed, batch)`` of the decision's own seed),
so the noise of one decision is not repeated at the next. A budget in playouts
(``2000p``) gives the same choice on any machine; a budget in time (``20ms``, ``1s``)
gives as many playouts as the machine plays in that time, so its choices depend on the
machine's speed (the arena's provenance says which).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import OddsbotError, quote
from .players import derive

CANDIDATES = 8  # actions considered, at most, besides heuristic's and greedy's choices
PLAYOUT_POLICY = "heuristic"  # the playouts' policy where the game has it (else its first)
FIRST_BATCH = 8  # playouts per candidate in a time-bounded search's first batch
SWITCH = 2.0  # standard errors by which a candidate must beat the incumbent to be chosen
_BUDGET = re.compile(r"(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>ms|s|p)")


@dataclass(frozen=True)
class Budget:
    """A decision's budget: ``seconds`` of wall time or ``playouts`` in all."""

    seconds: float | None = None
    playouts: int | None = None

    def __str__(self) -> str:
        if self.playouts is not None:
            return f"{self.playouts}p"
        return f"{self.seconds * 1000:g}ms" if self.seconds < 1 else f"{self.seconds:g}s"


def read_budget(text: str, where: str = "--decision-budget") -> Budget:
    """``20ms``, ``1s``, ``0.5s`` or ``2000p`` (playouts) as a :class:`Budget`; one line
    if malformed or out of range (1 ms to 1 hour; 1 to 10,000,000 playouts)."""
    m = _BUDGET.fullmatch(text.strip())
    if m is None:
        raise OddsbotError(f"{where}: expected a time such as 20ms or 1s, or a number of "
                           f"playouts such as 2000p, got {quote(text)}")
    n, unit = float(m["n"]), m["unit"]
    if unit == "p":
        if not (n.is_integer() and 1 <= n <= 10_000_000):
            raise OddsbotError(f"{where}: playouts must be a whole number from 1 to "
                               f"10,000,000, got {quote(text)}")
        return Budget(playouts=int(n))
    seconds = n / 1000 if unit == "ms" else n
    if not 0.001 <= seconds <= 3600:
        raise OddsbotError(f"{where}: a time from 1ms to 3600s, got {quote(text)}")
    return Budget(seconds=seconds)


@dataclass
class Tally:
    """Running sums of the candidates' playouts for the searching seat; every candidate
    still in has played the same batches (common random numbers), so each is compared
    with the incumbent playout by playout (``diff``, ``diff2``: sums of the paired
    differences in win share and of their squares)."""

    wins: np.ndarray
    scores: np.ndarray
    diff: np.ndarray
    diff2: np.ndarray
    n: int = 0  # playouts of each candidate still in

    @classmethod
    def of(cls, k: int) -> Tally:
        return cls(*(np.zeros(k) for _ in range(4)))

    def add(self, wins: np.ndarray, scores: np.ndarray, incumbent: int) -> None:
        d = wins - wins[incumbent]
        self.wins += wins.sum(axis=1)
        self.scores += scores.sum(axis=1)
        self.diff += d.sum(axis=1)
        self.diff2 += (d * d).sum(axis=1)
        self.n += wins.shape[1]

    def best(self, keep: int) -> np.ndarray:
        """The indices of the ``keep`` best candidates: mean win share, then mean score,
        then the order given."""
        return np.lexsort((np.arange(len(self.wins)), -self.scores, -self.wins))[:keep]

    def ahead(self, i: int) -> float:
        """How many standard errors candidate ``i`` is ahead of the incumbent in win
        share (paired playouts); 0 without evidence."""
        if self.n < 2:
            return 0.0
        mean = self.diff[i] / self.n
        var = max(self.diff2[i] / self.n - mean * mean, 0.0) * self.n / (self.n - 1)
        se = math.sqrt(var / self.n)
        return mean / se if se > 0 else (math.inf if mean > 0 else 0.0)

    def only(self, index: np.ndarray) -> Tally:
        return Tally(self.wins[index], self.scores[index], self.diff[index],
                     self.diff2[index], self.n)

    def rows(self, alive: list[str]) -> dict[str, dict[str, Any]]:
        """Each candidate's means so far (``Search.last``)."""
        return {a: {"action": a, "win": float(w / self.n), "score": float(x / self.n),
                    "playouts": self.n} for a, w, x in zip(alive, self.wins, self.scores)}


@dataclass
class Search:
    """The ``search`` player of the arena's seats (``analyser/players.py``)."""

    name: str
    face: Any = field(repr=False)
    budget: Budget
    # the last decision's candidates: action, mean win share and score of the searching
    # seat over its playouts, and how many (a candidate dropped early has fewer)
    last: list[dict[str, Any]] = field(default_factory=list, repr=False)
    # this decision's seconds a playout (one action), measured on its batches so far
    _pace: float | None = field(default=None, repr=False)

    @property
    def policy(self) -> str:
        """The playouts' policy, and the incumbent's."""
        policies = self.face.POLICIES
        return PLAYOUT_POLICY if PLAYOUT_POLICY in policies else policies[0]

    def act(self, view: Any, legal: Callable[[], list[str]], seed: int) -> str:
        deadline = (None if self.budget.seconds is None
                    else time.perf_counter() + self.budget.seconds)
        cands = self.face.candidates(view, CANDIDATES, derive(seed, 0))
        incumbent = self.face.choose(view, self.policy, derive(seed, 1))
        return self.decide(view, cands, incumbent, seed, deadline)

    def _batch(self, view: Any, alive: list[str], n: int, seed: int, seat: int
               ) -> tuple[np.ndarray, np.ndarray]:
        scores, wins = self.face.playouts(view, alive, n=n, seed=seed, policy=self.policy)
        return wins[:, :, seat], scores[:, :, seat]

    def _round(self, view: Any, alive: list[str], tally: Tally, seed: int, batch: int,
               seat: int, until: float | None, rounds: int, incumbent: int) -> int:
        """One round of playouts for every candidate still in: a share of a playout
        budget, or batches growing until ``until``; returns the batches played so far."""
        if until is None:
            per = max(2, self.budget.playouts // (rounds * len(alive)))
            tally.add(*self._batch(view, alive, per, derive(seed, batch + 2), seat),
                      incumbent)
            return batch + 1
        per = FIRST_BATCH if self._pace is None else max(1, min(FIRST_BATCH, self._fit(
            until - time.perf_counter(), len(alive))))
        while per >= 1:
            t0 = time.perf_counter()
            batch += 1
            tally.add(*self._batch(view, alive, per, derive(seed, batch + 1), seat),
                      incumbent)
            now = time.perf_counter()
            self._pace = max(now - t0, 1e-9) / (per * len(alive))
            per = min(4 * per, self._fit(until - now, len(alive)))
        return batch

    def _fit(self, seconds: float, alive: int) -> int:
        """Playouts a candidate that fit in ``seconds`` for ``alive`` candidates."""
        return int(seconds / (self._pace * alive))

    def decide(self, view: Any, cands: list[str], incumbent: str, seed: int,
               deadline: float | None) -> str:
        """Successive halving over ``cands`` (module docstring); the ``incumbent`` (the
        playout policy's own choice) stays in every round, and another candidate is
        chosen over it only when it is ``SWITCH`` standard errors ahead."""
        seat = view.to_move
        self._pace = None
        alive = list(dict.fromkeys([incumbent, *cands]))
        tally = Tally.of(len(alive))
        rounds = max(1, math.ceil(math.log2(len(alive))))
        batch, seen = 0, {}
        while len(alive) > 1:
            until = None
            if deadline is not None:
                left = max(1, math.ceil(math.log2(len(alive))))
                until = time.perf_counter() + (deadline - time.perf_counter()) / left
            batch = self._round(view, alive, tally, seed, batch, seat, until, rounds,
                                alive.index(incumbent))
            seen |= tally.rows(alive)
            out_of_time = deadline is not None and time.perf_counter() >= deadline
            if out_of_time or len(alive) <= 2:
                break
            keep = list(tally.best((len(alive) + 1) // 2))
            if alive.index(incumbent) not in keep:  # it takes the last place kept
                keep[-1] = alive.index(incumbent)
            alive, tally = [alive[i] for i in keep], tally.only(np.array(keep))
        best = alive[int(tally.best(1)[0])] if len(alive) > 1 else alive[0]
        if best != incumbent and tally.ahead(alive.index(best)) < SWITCH:
            best = incumbent
        blank = {"action": best, "win": None, "score": None, "playouts": 0}
        self.last = [seen.get(best, blank)] + sorted(
            (r for a, r in seen.items() if a != best),
            key=lambda r: (-r["playouts"], -r["win"], -r["score"]))
        return best


def search_choice(face: Any, pos: Any, budget: Budget, seed: int) -> dict[str, Any]:
    """What ``search`` would do at ``pos`` (the player to move's view), for ``advise
    --search``: the action, the budget, and every candidate's playouts (``Search.last``)."""
    player = Search("search", face, budget)
    action = player.act(pos, lambda: face.legal_actions(pos), derive(seed, 0))
    return {"action": action, "budget": str(budget),
            "playouts": sum(r["playouts"] for r in player.last), "candidates": player.last}
