"""Playing an arena's games (docs/strategies.md §2).

The work is cut into units of consecutive deals, each played in every seating
(``run_unit``, importable: Dask workers call it). Deal ``d`` is game ``d`` of the
designer run of that seating (kernel whole games, when every policy is compiled: the
fast path) or the game seeded ``derive(seed, d)`` played one decision at a time
(``analyser/seated.py``, when a ``search`` or user policy sits): either way it is the
same deal in every seating and the same wherever it is computed, so the same seed gives
the same games on any number of threads or workers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice

import numpy as np
import pandas as pd

from ...analyser.players import Compiled, UserPolicy, derive, load_function
from ...analyser.registry import spec as game_spec
from ...analyser.seated import play_seated
from .. import designer, runner
from ..spec import Block, RunSpec
from .entrants import Entrant
from .lineups import seatings

SEAT_COLUMNS = ("deal", "seating", "seat", "policy", "score", "win", "margin", "decisions",
                "seconds", "cpu_seconds", "forfeit", "why")
KERNEL_UNIT = 512  # deals per unit of the fast path
SEATED_UNIT = 1  # deals per unit played one decision at a time
TIMING_SECONDS = 0.5  # self-play time per compiled policy for its decision time
Progress = Callable[[int, int], None]  # (games done, games planned)


@dataclass(frozen=True)
class ArenaSpec:
    """An arena: ``deals`` deals of ``game`` (rules ``variant``) for ``players`` seats,
    each played in every seating of ``entrants``."""

    game: str
    variant: str
    players: int
    entrants: tuple[Entrant, ...]
    deals: int
    seed: int
    rules: tuple[tuple[str, str], ...] = ()
    decision_limit: float = 10.0  # seconds, for a user's function
    budget: str = "1s"  # the search player's default budget per decision

    @property
    def names(self) -> list[str]:
        return [e.name for e in self.entrants]

    @property
    def seatings(self) -> list[tuple[int, ...]]:
        return seatings(len(self.entrants), self.players)

    @property
    def in_kernel(self) -> bool:
        """Every policy compiled: whole games in the kernel (the fast path)."""
        return all(e.compiled for e in self.entrants)

    @property
    def games(self) -> int:
        return self.deals * len(self.seatings)

    def units(self) -> Iterator[tuple[int, int]]:
        """(first deal, deals) of every unit of work, in deal order."""
        size = KERNEL_UNIT if self.in_kernel else SEATED_UNIT
        return ((d, min(size, self.deals - d)) for d in range(0, self.deals, size))


def _margins(scores: np.ndarray) -> np.ndarray:
    """Each seat's score minus the best other seat's, rows of ``scores`` (games, seats)."""
    out = np.empty_like(scores)
    for s in range(scores.shape[1]):
        out[:, s] = scores[:, s] - np.delete(scores, s, axis=1).max(axis=1)
    return out


def _seat_rows(spec: ArenaSpec, deals: np.ndarray, seating: int, scores: np.ndarray,
               wins: np.ndarray, decisions: np.ndarray, seconds: np.ndarray,
               cpu: np.ndarray, forfeit: np.ndarray, why: np.ndarray | None = None
               ) -> pd.DataFrame:
    """The seat rows of games (one per deal) of one seating; arrays (games, seats);
    ``why``: the forfeit's one line on a forfeiting seat, "" elsewhere."""
    games, players = scores.shape
    lineup = spec.seatings[seating]
    return pd.DataFrame({
        "deal": np.repeat(deals, players), "seating": seating,
        "seat": np.tile(np.arange(players), games),
        "policy": np.tile([spec.names[i] for i in lineup], games),
        "score": scores.ravel(), "win": wins.ravel(), "margin": _margins(scores).ravel(),
        "decisions": decisions.ravel().astype(np.int64), "seconds": seconds.ravel(),
        "cpu_seconds": cpu.ravel(), "forfeit": forfeit.ravel(),
        "why": "" if why is None else why.ravel()})


def run_spec(spec: ArenaSpec, seating: int) -> RunSpec:
    """The designer run whose game ``d`` is deal ``d`` of ``seating`` (the fast path)."""
    lineup = tuple(spec.entrants[i].what for i in spec.seatings[seating])
    return RunSpec(spec.game, (spec.variant,), spec.players, lineup, spec.deals, spec.seed,
                   block=KERNEL_UNIT, rules=spec.rules)


def _kernel_unit(spec: ArenaSpec, d0: int, n: int, progress: Progress | None
                 ) -> pd.DataFrame:
    faces = designer(spec.game)
    frames = []
    for k in range(len(spec.seatings)):
        run = run_spec(spec, k)
        raw = runner.run_block(run, Block(spec.variant, d0, n, run.key()))
        scores, wins, decisions = faces.arena_results(raw, spec.variant, spec.players)
        zeros = np.zeros(scores.shape)
        frames.append(_seat_rows(spec, np.arange(d0, d0 + n), k, scores, wins, decisions,
                                 zeros, zeros, np.zeros(scores.shape, dtype=bool)))
        if progress is not None:
            progress(n, n * len(spec.seatings))
    return pd.concat(frames, ignore_index=True)


def players_of(spec: ArenaSpec, face) -> dict[str, object]:
    """Every entrant's player (``analyser/players.py``, ``analyser/search.py``)."""
    from ...analyser.search import Search, read_budget

    out: dict[str, object] = {}
    for e in spec.entrants:
        if e.kind == "compiled":
            out[e.name] = Compiled(e.name, e.what, face)
        elif e.kind == "search":
            out[e.name] = Search(e.name, face, read_budget(e.what or spec.budget))
        else:
            out[e.name] = UserPolicy(e.name, e.what, load_function(e.what, "--policies"),
                                     spec.decision_limit)
    return out


def _seated_unit(spec: ArenaSpec, d0: int, n: int, progress: Progress | None
                 ) -> pd.DataFrame:
    face = game_spec(spec.game).load()
    players = players_of(spec, face)
    frames = []
    for d in range(d0, d0 + n):
        for k, lineup in enumerate(spec.seatings):
            game = play_seated(face, [players[spec.names[i]] for i in lineup],
                               variant=spec.variant, deal_seed=derive(spec.seed, d, 0),
                               chance_seed=derive(spec.seed, d, 1), rules=dict(spec.rules))
            parts = game.seats
            cols = {name: np.array([[getattr(p, name) for p in parts]])
                    for name in ("score", "win", "decisions", "seconds", "cpu_seconds",
                                 "forfeit")}
            why = np.array([[f"deal {d}, seating {k}, {game.forfeit}" if p.forfeit else ""
                             for p in parts]])
            frames.append(_seat_rows(spec, np.array([d]), k, cols["score"], cols["win"],
                                     cols["decisions"], cols["seconds"],
                                     cols["cpu_seconds"], cols["forfeit"], why))
            if progress is not None:
                progress(1, n * len(spec.seatings))
    return pd.concat(frames, ignore_index=True)


def run_unit(spec: ArenaSpec, d0: int, n: int, progress: Progress | None = None
             ) -> pd.DataFrame:
    """The seat rows (``SEAT_COLUMNS``) of deals ``d0 .. d0 + n - 1`` in every seating;
    ``progress(games just finished, games of the unit)`` as they finish."""
    play = _kernel_unit if spec.in_kernel else _seated_unit
    rows = play(spec, d0, n, progress)
    return rows[list(SEAT_COLUMNS)]


def _on_cluster(client, spec: ArenaSpec, window: int) -> Iterator[pd.DataFrame]:
    """Every unit's rows computed on the Dask ``client``, as they come, with at most
    ``window`` units in flight."""
    from dask.distributed import as_completed

    todo = spec.units()
    pending = {}

    def submit(unit: tuple[int, int]):
        future = client.submit(run_unit, spec, *unit, pure=False)
        pending[future.key] = future
        return future

    running = as_completed([submit(u) for u in islice(todo, max(1, window))])
    try:
        for future in running:
            rows = future.result()
            pending.pop(future.key)
            for u in islice(todo, 1):
                running.add(submit(u))
            yield rows
    finally:
        client.cancel(list(pending.values()))


def play(spec: ArenaSpec, *, client=None, progress: Progress | None = None
         ) -> Iterator[pd.DataFrame]:
    """The seat rows of every unit, one unit at a time (in-process, or on the Dask
    ``client``); ``progress(games done, games planned)``. Stopping the iteration (Ctrl-C)
    keeps every unit already handed back."""
    done = 0
    total = spec.games

    def tell(games: int, _: int) -> None:
        nonlocal done
        done += games
        if progress is not None:
            progress(done, total)

    if client is None:
        for d0, n in spec.units():
            yield run_unit(spec, d0, n, tell)
        return
    threads = sum(w["nthreads"] for w in client.scheduler_info()["workers"].values())
    for rows in _on_cluster(client, spec, runner.IN_FLIGHT * max(1, threads)):
        tell(int(rows[["deal", "seating"]].drop_duplicates().shape[0]), 0)
        yield rows


def kernel_times(spec: ArenaSpec) -> dict[str, tuple[float, float]]:
    """Compiled policy -> (seconds, CPU seconds) per decision, timed on self-play games
    (every seat that policy, deals from 0) for about ``TIMING_SECONDS`` each, warm: whole
    games in the kernel do not time their decisions one by one."""
    faces = designer(spec.game)
    out = {}
    for e in spec.entrants:
        if not e.compiled or e.what in out:
            continue
        run = RunSpec(spec.game, (spec.variant,), spec.players, (e.what,) * spec.players,
                      1 << 20, spec.seed, block=KERNEL_UNIT, rules=spec.rules)
        runner.run_block(run, Block(spec.variant, 0, 1, run.key()))  # compiled, warm
        games, seconds, cpu, decisions = 1, 0.0, 0.0, 0
        while seconds < TIMING_SECONDS and games <= 4096:
            t0, c0 = time.perf_counter(), time.process_time()
            raw = runner.run_block(run, Block(spec.variant, 0, games, run.key()))
            seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
            decisions = int(faces.arena_results(raw, spec.variant, spec.players)[2].sum())
            games *= 4
        out[e.what] = (seconds / max(decisions, 1), cpu / max(decisions, 1))
    return {e.name: out[e.what] for e in spec.entrants if e.compiled}


def with_kernel_times(seats: pd.DataFrame, times: dict[str, tuple[float, float]]
                      ) -> pd.DataFrame:
    """``seats`` with the decision times of compiled policies filled in from ``times``."""
    seats = seats.copy()
    for name, (per, cpu) in times.items():
        mine = seats["policy"] == name
        seats.loc[mine, "seconds"] = seats.loc[mine, "decisions"] * per
        seats.loc[mine, "cpu_seconds"] = seats.loc[mine, "decisions"] * cpu
    return seats


