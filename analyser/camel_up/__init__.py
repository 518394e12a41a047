"""Camel Up (2nd edition; the 2014 1st edition as variant ``camel-up-2014``), declared once.

The rules as implemented: docs/games/camel-up.md. The face (``face.py``) loads the kernels.
"""

from ..face import Capability, GameOption, GameSpec
from .variants import VARIANTS

GAME = GameSpec(
    name="camel-up",
    title="Camel Up",
    variants={v.id: v.description for v in VARIANTS.values()},
    players=(min(v.min_players for v in VARIANTS.values()),
             max(v.max_players for v in VARIANTS.values())),
    face=f"{__name__}.face",
    docs="docs/games/camel-up.md",
    capabilities=frozenset(Capability),
    options=(
        GameOption("deck_model", "How hidden finish cards already on a deck are modelled "
                   "in the winner / loser bet values.", "uniform",
                   ("uniform", "race", "optimistic"), ("advise", "replay")),
        GameOption("hidden", "Model of opponents' hidden finish cards in rollouts.",
                   "uniform", ("uniform", "informed"), ("advise",)),
    ),
    designer="oddsbot.reports.camel_up",
    warm_up=f"{__name__}.warm",
)
