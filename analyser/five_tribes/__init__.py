"""Five Tribes (base game, 2-4 players; ``five-tribes-premove`` for the pre-move end rule of
docs/games/five-tribes.md §7.4), declared once.

The rules as implemented: docs/games/five-tribes.md. The face (``face.py``) loads the
kernels.
"""

from ..face import Capability, GameSpec

GAME = GameSpec(
    name="five-tribes",
    title="Five Tribes",
    variants={
        "five-tribes": "Five Tribes base game, 2-4 players; a sowing's last meeple matches "
                       "the final tile as it is then (live rule, §7.4)",
        "five-tribes-premove": "Five Tribes base game, 2-4 players; a sowing's last meeple "
                               "matches the final tile as it was before the sowing (§7.4)",
    },
    players=(2, 4),
    face=f"{__name__}.face",
    docs="docs/games/five-tribes.md",
    capabilities=frozenset({Capability.REPORTS}),
    designer="oddsbot.reports.five_tribes",
    warm_up=f"{__name__}.warm",
    default_top=20,
)
