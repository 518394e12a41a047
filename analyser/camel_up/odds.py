"""Leg odds (exact enumeration) and race odds (exact when the race's state space fits the
budget, else Monte Carlo) of a Camel Up position (docs/games/camel-up.md §9)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...errors import OddsbotError, quote
from ...kernels import camel_up as K
from ...kernels.camel_up.race_size import race_states
from ...kernels.threads import call
from .. import montecarlo
from . import race_memo
from .encode import encode, tile_array
from .position import Position, Tile

EXACT_BUDGET = "2"  # seconds, the --exact-budget default (docs/games/camel-up.md §9.1)
STATES_PER_SECOND = 200_000  # the budget in states: about the solver's rate here
SWEEP_TOLERANCE = 1e-15  # Gauss-Seidel stops once no probability moves by more
MAX_SWEEPS = 10_000
RACE_POLICY = ("rest of this leg with the spectator tiles now on the track; later legs "
               "with no spectator tiles and dice only (no player actions move camels)")
LEG_ASSUMPTION = "no other player acting until the leg ends"  # the leg's exact values


@lru_cache(maxsize=1)
def perm_orders() -> np.ndarray:
    """Ranking index -> camels from 1st to 5th (kernel numbering)."""
    return K.perm_orders()


@lru_cache(maxsize=1)
def place_of() -> np.ndarray:
    """``place_of()[index, camel]`` = place 0..4 of racing camel ``camel`` in a ranking."""
    orders = perm_orders()
    places = np.empty_like(orders)
    for idx, order in enumerate(orders):
        places[idx, order] = np.arange(K.N_RACING)
    return places


@dataclass(frozen=True)
class LegDistribution:
    """Exact distribution of the rest of the leg.

    ``prob[e, r, k]``: probability that the leg ends with ranking index ``r`` (see
    ``perm_orders``), ``e = 1`` if the game ended during it, and ``k`` landings on the
    tiles of ``viewer``. ``landings[s]``: expected landings on space ``s``.
    """

    prob: np.ndarray
    landings: np.ndarray
    viewer: int

    @property
    def rank_probabilities(self) -> np.ndarray:
        """``[camel, place]`` probabilities (kernel camel order, places 0..4)."""
        by_rank = self.prob.sum(axis=(0, 2))
        out = np.zeros((K.N_RACING, K.N_RACING))
        places = place_of()
        for camel in range(K.N_RACING):
            np.add.at(out[camel], places[:, camel], by_rank)
        return out

    @property
    def ends_game(self) -> float:
        return float(self.prob[1].sum())


def leg_distributions(pos: Position, layouts: list[tuple[Tile, ...]],
                      viewer: int | None = None) -> list[LegDistribution]:
    """Enumerate the rest of the leg exactly (docs/games/camel-up.md §9) once per tile layout, in
    parallel; landings on ``viewer``'s tile (default: the player to move) are counted per leaf."""
    viewer = pos.to_move if viewer is None else viewer
    st = encode(pos)
    tiles = np.array([tile_array(layout) for layout in layouts], dtype=np.int64)
    mines = np.zeros_like(tiles)
    for i, layout in enumerate(layouts):
        for t in layout:
            mines[i, t.space] = int(t.owner == viewer)
    hists, lands, total = K.leg_distributions(st[:K.TRACK_SIZE].copy(), tiles, mines,
                                              K.pyramid_mask(st), pos.rules.leg_left)
    return [LegDistribution(h / total, land / total, viewer) for h, land in zip(hists, lands)]


def leg_distribution(pos: Position, tiles: tuple[Tile, ...] | None = None,
                     viewer: int | None = None) -> LegDistribution:
    """``leg_distributions`` for one layout (default: the tiles on the track)."""
    return leg_distributions(pos, [pos.tiles if tiles is None else tiles], viewer)[0]


def leg_odds(pos: Position) -> dict:
    """The ``leg`` block of ``oddsbot odds``: rank probabilities per colour, probability
    the game ends this leg, expected landings per tile space."""
    dist = leg_distribution(pos)
    ranks = dist.rank_probabilities
    return {
        "rank_probabilities": {c: [float(x) for x in ranks[i]]
                               for i, c in enumerate(pos.rules.colours)},
        "ends_game": dist.ends_game,
        "tile_landings": {str(t.space): float(dist.landings[t.space]) for t in pos.tiles},
    }


@dataclass(frozen=True)
class RaceOdds:
    """Overall winner / loser probabilities with standard errors (camel order).

    ``method`` is ``exact`` (SEs 0, ``samples`` 0, ``states`` the race states solved) or
    ``monte-carlo`` (``states`` 0)."""

    win: np.ndarray
    win_se: np.ndarray
    lose: np.ndarray
    lose_se: np.ndarray
    samples: int
    seed: int
    method: str = "monte-carlo"
    states: int = 0

    def worst_se(self) -> float | None:
        """The largest SE of the winner and loser odds; None when exact."""
        if self.method == "exact":
            return None
        return float(max(self.win_se.max(), self.lose_se.max()))


def race_inputs(pos: Position) -> tuple[np.ndarray, np.ndarray, int, int, int]:
    """(track, tiles, pyramid mask, dice left at leg end, full pyramid mask): the first
    five arguments of the kernel's ``race_counts``."""
    st = encode(pos)
    return (st[:K.TRACK_SIZE].copy(), tile_array(pos.tiles), int(K.pyramid_mask(st)),
            pos.rules.leg_left, int(K.full_mask(st)))


def budget_states(exact_budget: str | float) -> int:
    """The largest race state space solved exactly for ``--exact-budget`` seconds (at
    ``STATES_PER_SECOND``, so the choice does not depend on the machine's load)."""
    try:
        seconds = float(exact_budget)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 3600:
        raise OddsbotError(f"--exact-budget: {quote(str(exact_budget))} is not a number of "
                           "seconds from 0 (never exact) to 3600")
    return int(seconds * STATES_PER_SECOND)


_TOO_BIG: dict[tuple[int, int, int], np.ndarray] = {}  # see _exact
_kept_read = False  # race_memo's leg starts added to _TOO_BIG
EXACT_CACHE = 512  # races _exact keeps: every turn of a long game, so a second pass over a
# record in one process (its chart after its replay) solves no race again
_last_fitted = False  # the last race _exact solved fitted its budget


@lru_cache(maxsize=EXACT_CACHE)
def _exact(track: bytes, tiles: bytes, mask: int, leg_left: int, full: int,
           max_states: int) -> tuple[np.ndarray, int]:
    """The kernel's ``race_exact`` (odds, states; states -1 if over ``max_states``), kept
    for positions that share their race (tickets and bets do not move camels).

    The race's states are first counted without that kernel (``race_size.race_states``,
    docs/games/camel-up.md §9.1): a race found over budget is refused with the same answer,
    and ``race_exact``, the costliest kernel of Camel Up to compile, never compiles for it.
    After a race that fitted, the next one is likely to fit too (a replay of the 2014
    edition), and the kernel runs at once. Leg starts found to reach more than
    ``max_states`` states on their own are remembered for the process (``_TOO_BIG``): a
    later position that can reach one is refused at once, so a replay pays for a hopeless
    search about once a leg, not once a turn; ``race_memo`` keeps them for later
    processes."""
    global _last_fitted, _kept_read
    if not _kept_read:
        _kept_read = True
        for kept, keys in race_memo.load().items():
            _TOO_BIG[kept] = np.union1d(_TOO_BIG.get(kept, np.zeros(0, np.int64)), keys)
    budget = (leg_left, full, max_states)
    known = _TOO_BIG.get(budget, np.zeros(0, dtype=np.int64))
    track_a = np.frombuffer(track, dtype=np.int64).copy()
    tiles_a = np.frombuffer(tiles, dtype=np.int64).copy()
    if not _last_fitted:
        states, culprit = race_states(track_a, tiles_a, mask, leg_left, full, max_states,
                                      known)
        _remember(budget, known, culprit)
        if states < 0:
            return np.zeros((2, K.N_RACING)), -1
    odds, states, sweeps, change, culprit = call(
        K.race_exact, track_a, tiles_a, mask, leg_left, full, max_states, SWEEP_TOLERANCE,
        MAX_SWEEPS, known)
    _remember(budget, known, culprit)
    if change > SWEEP_TOLERANCE:  # not converged: not exact
        states = -1
    _last_fitted = states >= 0
    return odds, states


def _remember(budget: tuple[int, int, int], known: np.ndarray, culprit: int) -> None:
    """Add leg start ``culprit`` (if >= 0) to the ones known too big for ``budget``, in
    this process and for later ones."""
    if culprit >= 0:
        _TOO_BIG[budget] = np.union1d(known, [culprit])
        race_memo.save({budget: _TOO_BIG[budget]})


def exact_race_odds(pos: Position, exact_budget: str | float = EXACT_BUDGET
                    ) -> RaceOdds | None:
    """The race odds solved exactly (docs/games/camel-up.md §9.1), or None when the race's
    state space is larger than the budget allows."""
    max_states = budget_states(exact_budget)
    if max_states == 0:
        return None
    track, tiles, mask, leg_left, full = race_inputs(pos)
    odds, states = _exact(track.tobytes(), tiles.tobytes(), mask, leg_left, full, max_states)
    if states < 0:
        return None
    zero = np.zeros(K.N_RACING)
    return RaceOdds(odds[0].copy(), zero, odds[1].copy(), zero, 0, 0, "exact", states)


def race_odds(pos: Position, plan: montecarlo.Plan, seed: int,
              progress: Callable[[int, int], None] | None = None,
              exact_budget: str | float = EXACT_BUDGET) -> RaceOdds:
    """The race odds under ``RACE_POLICY``: exact when they fit ``exact_budget`` (seconds),
    else Monte Carlo to ``plan``."""
    exact = exact_race_odds(pos, exact_budget)
    if exact is not None:
        return exact
    track, tiles, mask, leg_left, full = race_inputs(pos)

    def kernel(chunk0: int, n_chunks: int, size: int) -> np.ndarray:
        return K.race_counts(track, tiles, mask, leg_left, full, np.uint64(seed), chunk0,
                             n_chunks, size)

    def worst_se(counts: np.ndarray, n: int) -> float:
        ends = counts[:, [0, K.N_RACING - 1]]
        return float(montecarlo.binomial_se(ends, n).max())

    counts, n = montecarlo.run(kernel, plan, worst_se, progress)
    win = counts[:, 0] / n
    lose = counts[:, K.N_RACING - 1] / n
    return RaceOdds(win, montecarlo.binomial_se(counts[:, 0], n), lose,
                    montecarlo.binomial_se(counts[:, K.N_RACING - 1], n), n, seed)


def race_block(pos: Position, race: RaceOdds) -> dict:
    colours = pos.rules.colours
    return {
        "winner": {c: {"p": float(race.win[i]), "se": float(race.win_se[i])}
                   for i, c in enumerate(colours)},
        "loser": {c: {"p": float(race.lose[i]), "se": float(race.lose_se[i])}
                  for i, c in enumerate(colours)},
        "samples": race.samples,
        "method": race.method,
        "states": race.states,
    }
