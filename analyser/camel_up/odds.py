"""Leg odds (exact enumeration) and race odds (Monte Carlo) of a Camel Up position."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...kernels import camel_up as K
from .. import montecarlo
from .encode import encode, tile_array
from .position import Position, Tile

RACE_POLICY = ("rest of this leg with the spectator tiles now on the track; later legs "
               "with no spectator tiles and dice only (no player actions move camels)")


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
    """Overall winner / loser probabilities with standard errors (camel order)."""

    win: np.ndarray
    win_se: np.ndarray
    lose: np.ndarray
    lose_se: np.ndarray
    samples: int
    seed: int


def race_inputs(pos: Position) -> tuple[np.ndarray, np.ndarray, int, int, int]:
    """(track, tiles, pyramid mask, dice left at leg end, full pyramid mask): the first
    five arguments of the kernel's ``race_counts``."""
    st = encode(pos)
    return (st[:K.TRACK_SIZE].copy(), tile_array(pos.tiles), int(K.pyramid_mask(st)),
            pos.rules.leg_left, int(K.full_mask(st)))


def race_odds(pos: Position, plan: montecarlo.Plan, seed: int,
              progress: Callable[[int, int], None] | None = None) -> RaceOdds:
    """Monte Carlo of the race to its end under ``RACE_POLICY``."""
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
    }
