"""The ``odds`` view of the games whose answer is a row per player (Mumia, Kingdom Run):
each player's chance to win and expected final score, each beside its standard error."""

from __future__ import annotations

from . import montecarlo
from .table import Table


def players_view(result: dict, win_rule: str, how: str, wide: bool = False
                 ) -> tuple[Table, str]:
    """(table, caption) of ``result["players"]``: player, win_p, win_se, score, score_se
    (the SEs empty where the figures are exact, provenance ``method`` ``exact``), fitting
    80 columns; ``wide``: then every other field of a row (a seat, a clan). The caption
    says how a win counts (``win_rule``), the seats' policy and ``how`` the figures were
    found."""
    rows = result["players"]
    prov = result["provenance"]
    exact = prov.get("method") == "exact"
    columns = {"player": [r["player"] for r in rows], "win_p": [r["win_p"] for r in rows],
               "win_se": [None if exact else r["win_se"] for r in rows],
               "score": [r["score"] for r in rows],
               "score_se": [None if exact else r["score_se"] for r in rows]}
    if wide:
        columns.update({k: [r[k] for r in rows] for k in rows[0] if k not in columns})
    return Table.from_columns(columns), (f"win_p: {win_rule} · score: expected final score "
                                         f"· {prov['policy']} · {how}"
                                         + montecarlo.target_words(prov))
