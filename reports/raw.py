"""The per-game table (a run's raw file) every game builds from its kernel's rows: the
columns all games share and ``simulate_block``, written once.

Shared columns: ``game``, the game's number r in the run (its chance streams are
(seed, 3r..3r+2): ``kernels.batch``); ``variant``, a categorical over the game's
variants; per-seat columns ``<name>_<seat>`` for seats 0..P-1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

SimulateRaw = Callable[[str, int, tuple[str, ...], int, int, int], np.ndarray]
RawTable = Callable[[np.ndarray, str, int, int], pd.DataFrame]
SimulateBlock = Callable[[str, int, tuple[str, ...], int, int, int], pd.DataFrame]


def game_columns(variant_id: str, variants: Sequence[str], game0: int, n: int
                 ) -> dict[str, object]:
    """``game`` (game0 .. game0 + n - 1) and ``variant`` (``variant_id`` on every row, a
    categorical over ``variants``)."""
    return {"game": np.arange(game0, game0 + n, dtype=np.int64),
            "variant": pd.Categorical([variant_id] * n, categories=tuple(variants))}


def seat_columns(raw: np.ndarray, name: str, field: int, players: int
                 ) -> dict[str, np.ndarray]:
    """``<name>_<seat>``: the kernel's per-seat field at offsets ``field + seat``."""
    return {f"{name}_{p}": raw[:, field + p] for p in range(players)}


def seat_part_columns(raw: np.ndarray, prefix: str, parts: Sequence[str], field: int,
                      players: int) -> dict[str, np.ndarray]:
    """``<prefix><part>_<seat>``, seat by seat: the kernel's seat-major block at ``field``
    (offset ``field + seat * len(parts) + i`` for part ``i``)."""
    return {f"{prefix}{part}_{p}": raw[:, field + p * len(parts) + i]
            for p in range(players) for i, part in enumerate(parts)}


def block_simulator(simulate_raw: SimulateRaw, raw_table: RawTable) -> SimulateBlock:
    """A game's ``simulate_block``: ``simulate_raw`` then ``raw_table``."""

    def simulate_block(variant_id: str, players: int, policies: tuple[str, ...], seed: int,
                       game0: int, n: int) -> pd.DataFrame:
        """Games ``game0 .. game0 + n - 1`` of the run as the per-game table."""
        return raw_table(simulate_raw(variant_id, players, policies, seed, game0, n),
                         variant_id, players, game0)

    return simulate_block
