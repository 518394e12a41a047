"""Chunked Monte Carlo runs that stop at a target standard error, reproducibly.

Work is cut into fixed-size chunks; chunk ``k`` always uses the random stream
(seed, k), and results are integer counts that add up, so a run's answer depends only on
the seed and the number of chunks, never on threads or workers. Stopping is decided
after whole batches of chunks, from the counts alone.

``--target-se`` and ``--samples`` read together, for every game (``sampling``): with a
target, batches of samples are drawn until the largest standard error of the sampled
probabilities shown is at most the target, ``--samples`` (else the game's cap) at most;
without one, exactly ``--samples`` or the game's default. ``until`` is the batch loop of
the games whose sample i always uses the stream (seed, i), so the answer depends on the
seed, the target and the cap alone; ``target_provenance`` and ``target_words`` say in
the provenance and the caption whether the target was reached.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

CHUNK_SIZE = 4096
BATCH_CHUNKS = 16
MAX_SAMPLES = 4_000_000


@dataclass(frozen=True)
class Plan:
    """How many samples to draw: exactly ``samples``, or batches until ``target_se``."""

    samples: int | None = None
    target_se: float | None = 0.002
    max_samples: int = MAX_SAMPLES

    @classmethod
    def of(cls, samples: int | None, target_se: float | None,
           default_se: float = 0.002) -> Plan:
        """The plan of ``--samples`` and ``--target-se`` (``sampling``): with a target,
        batches until it, ``samples`` at most; ``samples`` alone, exactly that many;
        neither, batches until ``default_se``."""
        if target_se is not None:
            return cls(None, target_se, samples or MAX_SAMPLES)
        return cls(samples, None) if samples else cls(None, default_se)

    def chunk_size(self) -> int:
        return min(CHUNK_SIZE, self.samples or self.max_samples)


def binomial_se(hits: np.ndarray, n: int) -> np.ndarray:
    """Standard error of the proportions hits / n."""
    p = hits / n
    return np.sqrt(p * (1.0 - p) / n)


def run(kernel: Callable[[int, int, int], np.ndarray], plan: Plan,
        worst_se: Callable[[np.ndarray, int], float],
        progress: Callable[[int, int], None] | None = None) -> tuple[np.ndarray, int]:
    """Call ``kernel(chunk0, n_chunks, chunk_size)`` (returns counts per chunk on axis 0)
    batch by batch; return the summed counts and the number of samples.

    With ``plan.samples`` the run draws that many samples (rounded up to whole chunks).
    Otherwise it stops once ``worst_se(counts, n) <= plan.target_se`` or at
    ``plan.max_samples``. ``progress(done, planned)`` is told after every batch.
    """
    size = plan.chunk_size()
    if plan.samples:
        total_chunks = math.ceil(plan.samples / size)
    else:
        total_chunks = math.ceil(plan.max_samples / size)
    total = None
    done = 0
    while done < total_chunks:
        n_chunks = min(BATCH_CHUNKS, total_chunks - done)
        counts = kernel(done, n_chunks, size).sum(axis=0)
        total = counts if total is None else total + counts
        done += n_chunks
        if progress is not None:
            progress(done * size, total_chunks * size)
        if not plan.samples and worst_se(total, done * size) <= plan.target_se:
            break
    return total, done * size


T = TypeVar("T")


def sampling(samples: int | None, target_se: float | None, default: int,
             cap: int) -> int:
    """How many samples a run draws at most: ``samples`` if given; else ``cap`` when it
    stops at ``target_se``, or the game's fixed ``default`` without a target."""
    return samples or (default if target_se is None else cap)


def until(draw: Callable[[int, int, Callable[[int], None] | None], T],
          add: Callable[[T, T], T], worst_se: Callable[[T, int], float], most: int,
          target_se: float | None, batch: int,
          progress: Callable[[int, int], None] | None = None) -> tuple[T, int]:
    """``draw(first, count, told)``: the results of samples ``first .. first+count-1``
    (sample i from the stream (seed, i)), ``told(done)`` as they come; ``add`` joins two
    results. Without ``target_se``, one draw of ``most``; with it, batches of ``batch``
    until ``worst_se(result, n) <= target_se`` or ``most`` samples. Returns the result
    and the samples drawn; the same for any threads and batch timing."""
    step = most if target_se is None else batch
    total, n = None, 0
    while n < most:
        count = min(step, most - n)
        told = None if progress is None else (lambda done, at=n: progress(at + done, most))
        part = draw(n, count, told)
        total = part if total is None else add(total, part)
        n += count
        if target_se is not None and worst_se(total, n) <= target_se:
            break
    return total, n


def target_provenance(target_se: float | None, worst: float | None) -> dict:
    """The provenance keys of a run asked to stop at ``target_se``: the target and
    whether it was reached (``worst``: the largest SE of the sampled probabilities; None
    when nothing was sampled: the answer is exact)."""
    if target_se is None:
        return {}
    return {"target_se": target_se,
            "target_reached": None if worst is None else bool(worst <= target_se)}


def target_words(prov: dict) -> str:
    """The caption's words for ``target_provenance``: '' without a target."""
    target = prov.get("target_se")
    if target is None or "target_reached" not in prov:
        return ""
    if prov["target_reached"] is None:
        return f" · --target-se {target:g}: exact, no sampling"
    if prov["target_reached"]:
        return f" · every sampled probability's SE at most {target:g} (--target-se)"
    return f" · --target-se {target:g} not reached: stopped at the sample cap"
