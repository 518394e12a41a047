"""Chunked Monte Carlo runs that stop at a target standard error, reproducibly.

Work is cut into fixed-size chunks; chunk ``k`` always uses the random stream
(seed, k), and results are integer counts that add up, so a run's answer depends only on
the seed and the number of chunks, never on threads or workers. Stopping is decided
after whole batches of chunks, from the counts alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

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

    def chunk_size(self) -> int:
        return min(CHUNK_SIZE, self.samples) if self.samples else CHUNK_SIZE


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
