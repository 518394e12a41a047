"""The rest of this leg and of the race from a board, exact or sampled
(docs/games/camel-up-cards.md §9, §14.1).

``leg_outcomes`` is exact (``method`` ``exact``) when the deck has at most
``EXACT_CARDS`` cards left or the viewer's candidate decks have at most ``EXACT_ORDERS``
orders in all, and the exact pass holds at most ``MAX_STATES`` states at once; otherwise
it draws ``samples`` legs (``monte-carlo``). ``race_places`` always samples. Sample i of a seed
uses the stream (seed, i) whatever the board, so boards compared under one seed share
their decks (common random numbers), and the counts do not depend on threads. With
``target_se``, both sample in batches of ``PIECE`` until every place probability has at
most that standard error, ``samples`` at most (``montecarlo.until``). The SE of the
mean legs left is that of batch means: the kernel sums the legs of a range of races, so
the spread of the ranges' means (``PIECE`` races each, the last one fewer) gives the
variance of a race's legs (none from a single range). The ranges are those the races were
always drawn in: a range carries the kernel's deck of later legs from race to race, so
other ranges would draw other races.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .. import montecarlo
from ...kernels import threads
from ...kernels.camel_up_cards import leg as K
from ...kernels.camel_up_cards import track
from .encode import Deck

EXACT_CARDS = 8
EXACT_ORDERS = 200_000
MAX_STATES = 2_000_000
PIECE = 4096  # samples per thread range
BATCH_SQUARES, BATCHES = 2, 3  # race counts' out[5, 2]: sum of (a range's legs)^2 / its
# races, out[5, 3]: the ranges (the kernel fills out[5, 0] and out[5, 1] only)
RACE_MODEL = ("the rest of this leg from the race deck as the viewer knows it; every "
              "later leg a deck of uniformly chosen cards; no figures placed and no hand "
              "cards played from now on")
RACE_MODEL_SHORT = ("later legs of uniformly chosen cards, no figures placed and no hand "
                    "cards played")  # RACE_MODEL as a caption says it


@lru_cache(maxsize=1)
def place_of() -> np.ndarray:
    """``place_of()[rank, camel]``: the place 0..4 of camel in ranking ``rank``."""
    orders = track.perm_orders()
    places = np.empty_like(orders)
    for idx, order in enumerate(orders):
        places[idx, order] = np.arange(track.N_CAMELS)
    return places


@dataclass(frozen=True)
class LegOutcomes:
    """``prob[first, ended, rank, fox_on, palm_on]`` (``kernels.camel_up_cards.leg``),
    summing to 1; ``samples`` 0 when exact."""

    prob: np.ndarray
    samples: int

    @property
    def method(self) -> str:
        return "exact" if self.samples == 0 else "monte-carlo"

    def places(self) -> np.ndarray:
        """``[camel, place]``: each camel's chance of each place at the leg's end."""
        by_rank = self.prob.sum(axis=(0, 1, 3, 4))
        out = np.zeros((track.N_CAMELS, track.N_CAMELS))
        for camel in range(track.N_CAMELS):
            np.add.at(out[camel], place_of()[:, camel], by_rank)
        return out

    @property
    def race_ends(self) -> float:
        return float(self.prob[:, 1].sum())

    def race_ends_se(self) -> float | None:
        """The SE of ``race_ends`` (a share of independent sampled legs); None when
        exact."""
        return None if self.samples == 0 else _binomial_se(self.race_ends, self.samples)

    def place_se(self) -> np.ndarray | None:
        """``[camel, place]``: the SE of each of ``places()``; None when exact."""
        return None if self.samples == 0 else _binomial_se(self.places(), self.samples)

    def worst_se(self) -> float | None:
        """The largest SE of the place probabilities; None when exact."""
        se = self.place_se()
        return None if se is None else float(se.max())


def _binomial_se(p: float | np.ndarray, n: int) -> float | np.ndarray:
    """The SE of proportions ``p`` (a float or an array) of ``n`` independent samples."""
    return np.sqrt(p * (1 - p) / n)


def _summed(part: Callable[[int, int], np.ndarray], samples: int,
            progress: Callable[[int], None] | None = None) -> np.ndarray:
    """``part(first, count)`` summed over ``samples`` in ranges of ``PIECE`` spread over
    the threads (``threads.rows``); a single range runs on the calling thread, as short a
    run as its hand-off to a thread (the arena's cheap rankings, ``seats.candidates``)."""
    if samples > PIECE:
        return threads.rows(part, samples, PIECE, progress).sum(axis=0)
    out = part(0, samples).sum(axis=0)
    if progress is not None:
        progress(samples)
    return out


def exact_allowed(deck: Deck) -> bool:
    """Whether the rest of the leg is tried exactly (module doc); the same for every
    board, so a caller with many boards asks once."""
    return deck.left <= EXACT_CARDS or K.orders(deck.m) <= EXACT_ORDERS


def leg_outcomes(tr: np.ndarray, deck: Deck, samples: int, seed: int,
                 exact: bool | None = None, target_se: float | None = None) -> LegOutcomes:
    """The rest of the leg from the board ``tr`` with the race deck as the viewer knows
    it; ``exact``: ``exact_allowed(deck)`` if the caller knows it; sampled: ``samples``
    legs, or fewer once ``target_se`` is reached (module doc)."""
    if exact_allowed(deck) if exact is None else exact:
        hist = np.zeros(K.HIST_SHAPE)
        k = deck.knowledge
        if K.leg_exact(tr, k.known, k.pool, k.unknown, k.revealed, MAX_STATES, hist):
            return LegOutcomes(hist / hist.sum(), 0)
    m, cum = deck.m, deck.cum

    def draw(first: int, count: int, _: object) -> np.ndarray:
        def part(at: int, n: int) -> np.ndarray:
            hist = np.zeros(K.HIST_SHAPE)
            K.leg_samples(tr, m, cum, np.uint64(seed), first + at, n, hist)
            return hist[None]
        return _summed(part, count)

    hist, n = montecarlo.until(draw, np.add, lambda h, n: LegOutcomes(h / n, n).worst_se(),
                               samples, target_se, PIECE)
    return LegOutcomes(hist / n, n)


@dataclass(frozen=True)
class RacePlaces:
    """``p[place, camel]``: each camel's chance of each final place of the race (sampled,
    ``samples`` races), ``ends_this_leg``, the mean ``legs`` left including this one and
    its SE ``legs_se`` (batch means, module doc; None from a single range)."""

    p: np.ndarray
    samples: int
    ends_this_leg: float
    legs: float
    legs_se: float | None = None

    def se(self) -> np.ndarray:
        return np.sqrt(self.p * (1 - self.p) / self.samples)


def race_places(tr: np.ndarray, deck: Deck, deck_size: int, samples: int, seed: int,
                progress: Callable[[int], None] | None = None,
                target_se: float | None = None) -> RacePlaces:
    """The race from the board ``tr`` under ``RACE_MODEL``; later legs have decks of
    ``deck_size`` cards; ``progress(races done)`` as they are; ``samples`` races, or
    fewer once ``target_se`` is reached (module doc)."""
    m, cum = deck.m, deck.cum

    def draw(first: int, count: int, told: Callable[[int], None] | None) -> np.ndarray:
        def part(at: int, n: int) -> np.ndarray:
            out = np.zeros((6, track.N_CAMELS))
            K.race_samples(tr, m, cum, deck_size, np.uint64(seed), first + at, n, out)
            out[5, BATCH_SQUARES] = out[5, 1] ** 2 / n
            out[5, BATCHES] = 1
            return out[None]
        return _summed(part, count, told)

    out, n = montecarlo.until(draw, np.add, lambda o, n: float(_race(o, n).se().max()),
                              samples, target_se, PIECE,
                              None if progress is None else lambda done, _: progress(done))
    return _race(out, n)


def _race(out: np.ndarray, n: int) -> RacePlaces:
    """``RacePlaces`` of the summed counts ``out`` of ``n`` races."""
    legs, batches = out[5, 1] / n, out[5, BATCHES]
    spread = (out[5, BATCH_SQUARES] - n * legs ** 2) / (batches - 1) if batches > 1 else None
    return RacePlaces(out[:5] / n, n, out[5, 0] / n, legs,
                      None if spread is None else float(np.sqrt(max(spread, 0.0) / n)))
