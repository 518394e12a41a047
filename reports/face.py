"""The designer face: what a game's report module offers (``GameSpec.designer``).

Capability REPORTS (every member below but the charts); capabilities POSITION_CHART and
REPLAY_CHART add ``position_chart`` and ``replay_chart``. The conformance test checks every
registered game's designer module against these protocols.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from collections.abc import Callable

    import numpy as np
    import pandas as pd
    from matplotlib.figure import Figure

    from .document import Section
    from .spec import RunSpec


@runtime_checkable
class DesignerFace(Protocol):
    """Whole games in blocks, and the report sections of a finished run."""

    RAW_FIELDS: int  # columns of ``simulate_raw``'s rows (int16, one row per game)
    RULES_VERSION: int  # raised whenever the games played change; run folders record it

    def check_run(self, variants: tuple[str, ...], players: int,
                  policies: tuple[str, ...]) -> None: ...

    def seat_policies(self, policies: tuple[str, ...], players: int) -> tuple[str, ...]: ...

    def simulate_raw(self, variant_id: str, players: int, policies: tuple[str, ...],
                     seed: int, game0: int, n: int,
                     progress: Callable[[int], None] | None = None) -> np.ndarray: ...

    def raw_table(self, raw: np.ndarray, variant_id: str, players: int,
                  game0: int) -> pd.DataFrame: ...

    def simulate_block(self, variant_id: str, players: int, policies: tuple[str, ...],
                       seed: int, game0: int, n: int) -> pd.DataFrame: ...

    def report_sections(self, df: pd.DataFrame, spec: RunSpec) -> list[Section]: ...

    # ``oddsbot arena`` (docs/strategies.md): (scores, win shares, decisions per seat) of
    # ``simulate_raw``'s rows, arrays (games, players): float64, float64 (1, or 1/k for k
    # tied winners; rows sum to 1), int64
    def arena_results(self, raw: np.ndarray, variant_id: str, players: int
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...


@runtime_checkable
class PositionChartFace(Protocol):
    """Capability POSITION_CHART: ``oddsbot chart``."""

    def position_chart(self, pos: Any, *, samples: int | None, seed: int,
                       target_se: float) -> Figure: ...


@runtime_checkable
class ReplayChartFace(Protocol):
    """Capability REPLAY_CHART: ``oddsbot replay --chart``."""

    def replay_chart(self, steps: Any, *, samples: int, seed: int, title: str) -> Figure: ...
