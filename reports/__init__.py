"""Many positions or whole games at a time: designer reports, charts and the runner that
spreads whole-game simulation over numba threads or a Dask cluster.

A game with designer reports names its report module in its declaration
(``GameSpec.designer``); that module offers the designer face of ``reports/face.py``.
"""

from __future__ import annotations

from types import ModuleType


def designer(name: str) -> ModuleType:
    """The report module of game ``name`` (a game id of the analyser registry); one line
    when the game has no designer reports."""
    from ..analyser import registry
    from ..analyser.face import Capability

    spec = registry.spec(name)
    spec.require(Capability.REPORTS)
    return spec.load_designer()
