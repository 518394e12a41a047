"""The turn table of the player to move within budgets (docs/games/five-tribes.md §19.1.1).

Exact when the board has at most ``EXACT_SOWINGS`` full sowing sequences and the table
at most ``TABLE_ROWS`` distinct complete turns: every turn, its exact value and count.
Otherwise sampled: ``samples`` sowings (default ``SAMPLES``) drawn uniformly within each
stratum (start, final tile, colour taken), one per stratum per round, in whole rounds,
seeded; every choice after each drawn sowing enumerated and valued exactly. A turn's
``ev`` is then still exact; its ``count`` is a stratified estimate with a standard
error; turns that no drawn sowing reaches are missing. Rounds stop early once the next
would take the table past ``TABLE_ROWS`` rows.

Both fill one store of ``TABLE_ROWS`` rows (``kernels.five_tribes.turn_table``) a chunk at
a time: progress shows and Ctrl-C stops between chunks; memory is the stores' (two at
most, below).

Two cores: only work whose result is the same whatever the threads and their timing runs
beside the caller, on a daemon thread (``nogil`` kernels). Within the budget of sowings
the sampled table is built on a thread while the exact attempt runs here (speculation:
dropped at its next chunk once the exact table has made every row and so fits, used if
the exact attempt is dropped); in a sampled table the draws of the turns that end before
the sowing are valued on a thread while the drawn sowings are added. Progress is shown
from the calling thread; Ctrl-C stops its wait at once.

The speculation also ends the exact attempt sooner, neither deciding otherwise nor
changing a table (``_Speculation``): every row of the sampled table is a row of the exact
one, so once the rows of both, told apart by their merge keys' hashes, pass
``TABLE_ROWS``, the exact table cannot fit and its attempt is given up; and an attempt
whose rows so far, scaled to all its outcome groups, pass ``TABLE_ROWS`` lets the turns
before the sowing be valued before it walks on (three threads on two cores: the work
kept if it fails goes first).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...kernels import five_tribes as FT
from ...kernels.rng import stream
from .sowings import Census, census

EXACT_SOWINGS = 100_000  # exact up to this many full sowing sequences ...
TABLE_ROWS = 100_000  # ... and this many distinct complete turns (the store's rows)
SAMPLES = 8_192  # sowings drawn when sampling (fewer if the rows would pass TABLE_ROWS)
OUTCOMES_PER_CHUNK = 256  # exact: outcome groups per kernel call
DRAWS_PER_CHUNK = 64  # sampled: sowings per kernel call

Progress = Callable[[int, int], None] | None


@dataclass(frozen=True)
class TurnRows:
    """The table's rows in the kernel's order: ``actions``, ``parts`` (change of the
    mover's final score by part), ``count`` and ``count_se`` (0 when exact). Sampled:
    ``rounds`` draws per stratum over ``strata`` strata, ``full`` if the store filled
    (some turns drawn are not listed); ``sowings`` the board's full sequences."""

    actions: np.ndarray
    parts: np.ndarray
    count: np.ndarray
    count_se: np.ndarray
    sowings: int
    sampled: bool = False
    rounds: int = 0
    strata: int = 0
    full: bool = False

    @property
    def drawn(self) -> int:
        """Sowings drawn (0 when exact)."""
        return self.rounds * self.strata


def turn_rows(st: np.ndarray, *, samples: int | None = None, seed: int = 0,
              progress: Progress = None) -> TurnRows:
    """The rows of the table of ``st``'s player to move (module doc); ``progress(done,
    planned)`` after each chunk."""
    found = _census(st)
    samples = samples or SAMPLES
    if found.total > EXACT_SOWINGS:
        return _sampled(st, found, samples, seed, progress)
    if found.total == 0:  # no sowing to draw: nothing to speculate
        return _exact(st, found, progress) or _sampled(st, found, samples, seed, progress)
    spec, seen = _Speculation(), _Seen()
    sampled = _Thread(_sampled, st.copy(), found, samples, seed, seen.record, spec)
    try:
        rows = _exact(st, found, progress, spec)
        return rows or sampled.result(lambda: seen.report(progress))
    finally:
        spec.fits.set()  # the speculative sampled table: dropped at its next chunk


def exact_rows(st: np.ndarray) -> TurnRows | None:
    """The exact rows of ``turn_rows``, or None when the position is beyond the budgets."""
    found = _census(st)
    return _exact(st, found, None) if found.total <= EXACT_SOWINGS else None


def _census(st: np.ndarray) -> Census:
    return census(FT.meeples(st), int(st[FT.END_RULE]))


def _report(progress: Progress, done: int, planned: int) -> None:
    if progress is not None:
        progress(done, planned)


class _Thread:
    """``fn(*args)`` run on a daemon thread (``nogil`` kernels: beside the caller); its
    result, or its error, comes from ``result``. Daemon: the CLI leaves with ``os._exit``
    and a thread given up ends at its next chunk (or kernel call)."""

    def __init__(self, fn: Callable[..., Any], *args: Any) -> None:
        self._done = threading.Event()
        self._out: Any = None
        self._error: BaseException | None = None
        threading.Thread(target=self._run, args=(fn, args), daemon=True,
                         name="turn-table").start()

    def _run(self, fn: Callable[..., Any], args: tuple) -> None:
        try:
            self._out = fn(*args)
        except BaseException as error:  # handed to the caller of ``result``
            self._error = error
        finally:
            self._done.set()

    def result(self, poll: Callable[[], None] | None = None) -> Any:
        """Wait for the result (Ctrl-C stops the wait at once); ``poll()`` every 50 ms
        meanwhile (progress)."""
        while not self._done.wait(0.05):
            if poll is not None:
                poll()
        if poll is not None:
            poll()
        if self._error is not None:
            raise self._error
        return self._out


class _Seen:
    """The last progress of a table built on another thread, shown from the caller's."""

    def __init__(self) -> None:
        self.last: tuple[int, int] | None = None
        self.shown: tuple[int, int] | None = None

    def record(self, done: int, planned: int) -> None:
        self.last = (done, planned)

    def report(self, progress: Progress) -> None:
        last = self.last
        if last is not None and last != self.shown:
            self.shown = last
            _report(progress, *last)


class _Speculation:
    """What the exact attempt (the calling thread) and the sampled table speculated beside
    it share: ``fits``, set once the exact table has made every row (the sampled one is
    then dropped); ``before``, set once the turns before the sowing are valued, or none
    are to be; the exact attempt's ``store`` and ``known``, the hashes of the merge keys of
    its rows made so far (whole chunks)."""

    CHECK_EVERY = TABLE_ROWS // 16  # sampled rows made between two checks (``prove``)

    def __init__(self) -> None:
        self.fits, self.before = threading.Event(), threading.Event()
        self.store = FT.new_store(TABLE_ROWS)
        self.known: np.ndarray | None = None
        self.checked = (None, -self.CHECK_EVERY)

    def publish(self, rows: int) -> None:
        """The exact attempt's rows made so far: its store's first ``rows``."""
        self.known = self.store[4][:rows].copy()

    def wait_before(self) -> None:
        """Wait until the turns before the sowing are valued (Ctrl-C stops the wait)."""
        while not self.before.wait(0.05):
            pass

    def prove(self, sampled: tuple, last: bool = False) -> None:
        """Give the exact attempt up (its store full: it stops at its next step) if the
        rows of the sampled table ``sampled`` and those ``known`` pass ``TABLE_ROWS``: the
        sampled table's rows are turns of the exact table (the same merge keys: a drawn
        sowing walks the choices of its outcome group, docs/games/five-tribes.md §19.1.1),
        and distinct hashes are distinct keys, so the exact table has more rows than its
        store holds. Checked at most every ``CHECK_EVERY`` rows made, and at the ``last``."""
        known, rows = self.known, int(sampled[10][FT.M_ROWS])
        if known is None or self.fits.is_set() or self.store[10][FT.M_FULL] \
                or len(known) + rows <= TABLE_ROWS:
            return
        if not last and known is self.checked[0] and rows < self.checked[1] + self.CHECK_EVERY:
            return
        self.checked = (known, rows)
        if len(np.union1d(known, sampled[4][:rows])) > TABLE_ROWS:
            self.store[10][FT.M_FULL] = 1


def _kept(store: tuple, rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Copies of the store's first ``rows`` actions, parts and counts."""
    return store[0][:rows].copy(), store[1][:rows].copy(), store[2][:rows].copy()


def _exact(st: np.ndarray, found: Census, progress: Progress,
           spec: _Speculation | None = None) -> TurnRows | None:
    """Every turn, or None once the table passes ``TABLE_ROWS`` rows (or ``spec`` proves
    it would: module doc): the rows made and counted first, then, if it fits
    (``spec.fits`` set), the expectations of its draws (``FT.DEFER_*``); progress counts
    both sweeps, the second skipped when no row ends in a draw."""
    sowings = FT.list_sowings(FT.meeples(st), st[FT.END_RULE], np.int64(found.total))
    first, mult = FT.sowing_outcomes(st, *sowings)
    groups = max(len(first), 1)  # no legal sowing: one turn, the marker move
    store = FT.new_store(TABLE_ROWS) if spec is None else spec.store
    ws = FT.workspace()
    for sweep, defer in enumerate((FT.DEFER_COUNT, FT.DEFER_VALUE)):
        for o0 in range(0, groups, OUTCOMES_PER_CHUNK):
            o1 = min(o0 + OUTCOMES_PER_CHUNK, groups)
            FT.add_outcomes(st, sowings, first, mult, o0, o1, store, ws, defer)
            if store[10][FT.M_FULL]:
                return None
            _report(progress, sweep * groups + o1, 2 * groups)
            rows = int(store[10][FT.M_ROWS])
            if spec is not None and sweep == 0 and o1 < groups:
                spec.publish(rows)
                if rows * groups > TABLE_ROWS * o1:  # looks too large (module doc)
                    spec.wait_before()
                    if store[10][FT.M_FULL]:
                        return None
        if spec is not None:
            spec.fits.set()  # every row made: the second sweep only values them
        if sweep == 0 and not np.isnan(store[1][:int(store[10][FT.M_ROWS]), 0]).any():
            _report(progress, 2 * groups, 2 * groups)
            break  # no draw to value
    actions, parts, counts = _kept(store, int(store[10][FT.M_ROWS]))
    return TurnRows(actions, parts, counts, np.zeros(len(counts)), found.total)


def _sampled(st: np.ndarray, found: Census, samples: int, seed: int, progress: Progress,
             spec: _Speculation | None = None) -> TurnRows | None:
    """Turns after sowings drawn in rounds over the strata (module doc); speculated
    (``spec``): None once ``spec.fits`` is set (checked between chunks)."""
    try:
        return _drawn(st, found, samples, seed, progress, spec)
    finally:
        if spec is not None:
            spec.before.set()  # (no exact attempt waits for a table that has ended)


def _drawn(st: np.ndarray, found: Census, samples: int, seed: int, progress: Progress,
           spec: _Speculation | None) -> TurnRows | None:
    """The table of ``_sampled`` (which sets ``spec.before`` once it ends)."""
    stop = None if spec is None else spec.fits
    strata = len(found.strata)
    weights = FT.stratum_weights(found.terms)
    planned = max(1, math.ceil(samples / strata))
    rng = stream(np.uint64(seed), np.int64(0))
    store, ws = FT.new_store(TABLE_ROWS), FT.workspace()
    meta, walks = store[10], FT.walk_tables_once()[0]
    best = FT.board_sowings(st, *FT.walk_tables_once())  # where a draw's best rest is sought
    before = _BeforeSowing(st, best, store, ws, None if spec is None else spec.before)
    rounds = 0
    while rounds < planned:
        rows = int(meta[FT.M_ROWS])
        if rounds and (meta[FT.M_FULL] or rows + rows / rounds > TABLE_ROWS):
            break  # the next round would not fit
        for d0 in range(rounds * strata, (rounds + 1) * strata, DRAWS_PER_CHUNK):
            if stop is not None and stop.is_set():
                return None
            d1 = min(d0 + DRAWS_PER_CHUNK, (rounds + 1) * strata)
            FT.add_draws(st, found.strata, weights, walks, rng, d0, d1, store, ws, best)
            _report(progress, d1, planned * strata)
            if spec is not None:
                spec.prove(store)
        rounds += 1
    if stop is not None and stop.is_set():
        return None
    if spec is not None:
        spec.prove(store, last=True)
    before.value(store)
    rows = int(meta[FT.M_ROWS])
    actions, parts, _ = _kept(store, rows)
    count, se = _estimates(store, rows, weights.sum(axis=1), rounds)
    return TurnRows(actions, parts, count, se, found.total, sampled=True, rounds=rounds,
                    strata=strata, full=bool(meta[FT.M_FULL]))


class _BeforeSowing:
    """The turns that end before the sowing (exactly: no outcome group gives those
    alone), made and counted in a sampled table's store first, their draws left unvalued
    (``FT.DEFER_COUNT``); the same turns with their draws valued (``FT.DEFER_NONE``) are
    made meanwhile on a thread in a store of their own, their parts then copied in
    (``value``). Draws added meanwhile never read a row's parts, so the table is the one
    made with those draws valued at once. ``done`` (if given) is set once they are valued,
    or at once when none is to be."""

    def __init__(self, st: np.ndarray, best: tuple, store: tuple, ws: tuple,
                 done: threading.Event | None = None) -> None:
        FT.add_outcomes(st, best[:4], best[4], best[5], 0, 0, store, ws, FT.DEFER_COUNT)
        rows = int(store[10][FT.M_ROWS])
        self.keys = store[3][:rows].copy()
        unvalued = bool(np.isnan(store[1][:rows, 0]).any())
        self.st, self.best, self.done = st.copy(), tuple(a.copy() for a in best), done
        self.valued = _Thread(self._parts) if unvalued else None
        if not unvalued and done is not None:
            done.set()

    def _parts(self) -> np.ndarray:
        try:
            store = FT.new_store(TABLE_ROWS)
            FT.add_outcomes(self.st, self.best[:4], self.best[4], self.best[5], 0, 0, store,
                            FT.workspace(), FT.DEFER_NONE)
        finally:
            if self.done is not None:
                self.done.set()
        rows = int(store[10][FT.M_ROWS])
        assert np.array_equal(store[3][:rows], self.keys), "not the same turns"
        return store[1][:rows].copy()

    def value(self, store: tuple) -> None:
        """The valued parts into the first rows of ``store`` (waits for them)."""
        if self.valued is not None:
            parts = self.valued.result()
            store[1][:len(parts)] = parts


def _estimates(store: tuple, rows: int, sizes: np.ndarray, n: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """Each row's count, estimated from ``n`` draws per stratum (``sizes``: sequences per
    stratum, T_h), and its standard error: the stratified estimate sum_h T_h/n sum y;
    its variance, for the row's home stratum, T_h**2 s**2 / n with s**2 the sample
    variance of its y over the n draws (T_h**2 y**2 when n is 1), plus, for any other
    stratum that reached it, the bound T_h**2 sum y**2 / n**2 (its mean term left out,
    so the error is never understated). A row that ends before the sowing is counted
    exactly (``add_outcomes`` with no group): its own count, error 0."""
    stats, home, counts = store[6][:rows], store[7][:rows], store[2][:rows]
    exact = home == FT.EXACT_HOME  # a turn that ends before the sowing: counted exactly
    size = sizes[np.where(exact, 0, home)]
    a1, a2 = stats[:, FT.S_HOME], stats[:, FT.S_HOME2]
    # the spread of the n draws with two more, one that missed the row and one that hit it
    # as often as the draws that did (a1 > 0: the home stratum reached it): few hits, or
    # hits in every draw, then still show how little the draws say
    with np.errstate(invalid="ignore", divide="ignore"):
        hit = np.where(exact, 0.0, a2 / a1)
    a1, a2, m = a1 + hit, a2 + hit ** 2, n + 2
    spread = np.maximum(a2 - a1 ** 2 / m, 0.0) / (m - 1)
    own = np.where(size > 1, size ** 2 * spread / n, 0.0)  # a stratum of one: exact
    se = np.where(exact, 0.0, np.sqrt(own + stats[:, FT.S_OTHER] / n ** 2))
    return np.where(exact, counts, stats[:, FT.S_EST] / n), se
