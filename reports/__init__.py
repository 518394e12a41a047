"""Many positions or whole games at a time: designer reports, charts and the runner that
spreads whole-game simulation over numba threads or a Dask cluster.

Every game with a designer face registers a module here (``designer(name)``) offering
``check_run`` and ``seat_policies`` (options of a run), ``simulate_raw`` (whole games ->
the kernel's compact per-game rows), ``raw_table`` (those rows -> the per-game
DataFrame), ``simulate_block`` (both), ``report_sections`` (tables and charts of a
finished run), ``position_chart`` and ``replay_chart``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

_DESIGNERS = {"camel-up": "camel_up", "five-tribes": "five_tribes"}


def designer(name: str) -> ModuleType:
    """The report module of game ``name`` (a game id of the analyser registry)."""
    from ..errors import OddsbotError

    if name not in _DESIGNERS:
        raise OddsbotError(f"game: no designer reports for {name!r} yet (available: "
                           f"{', '.join(sorted(_DESIGNERS))})")
    return importlib.import_module(f"{__name__}.{_DESIGNERS[name]}")
