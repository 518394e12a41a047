"""Camel Up Cards (2016), declared once.

The rules as implemented: docs/games/camel-up-cards.md. The face (``face.py``) loads the
kernels.
"""

from ..face import Capability, GameSpec

GAME = GameSpec(
    name="camel-up-cards",
    title="Camel Up Cards",
    variants={"camel-up-cards": "Camel Up Cards (2016), 2-6 players: a race deck the "
                                "players build each leg, fox and palm"},
    players=(2, 6),
    face=f"{__name__}.face",
    board="board.js",  # the page of oddsbot serve (docs/serve.md)
    docs="docs/games/camel-up-cards.md",
    capabilities=frozenset(Capability),
    designer="oddsbot.reports.camel_up_cards",
    default_top=15,
    policies=("heuristic", "random"),  # = kernels policy.POLICY_NAMES (tested)
    rollout_policies=("heuristic", "random"),  # = rollouts.ROLLOUT_POLICIES (tested)
    advise_columns={
        "why": "the chances behind the value: a leader card's 1st and 2nd place, a "
               "midfield card's 3rd and 2nd or 4th (2/4th), a winner or loser card's race "
               "odds, the chance a placed figure is still on the track at the leg's end, "
               "or the chance the race ends this leg",
    },
    odds_columns={
        "1st-5th": "each camel's chance of each place at the end of this leg (exact, or "
                   "sampled with a large deck: see the caption)",
        "race_win, race_lose": "its chance of winning and of losing the whole race "
                               "(sampled; with --wide their standard errors)",
    },
    examples=(
        "oddsbot advise examples/camel-up-cards-4p.json --top 10",
        "oddsbot advise examples/camel-up-cards-late.json --rollouts 500 --top 5",
        "oddsbot odds examples/camel-up-cards-4p.json",
        "oddsbot new camel-up-cards --players 3 --seed 7 -f notation",
        "oddsbot replay examples/camel-up-cards-game-4p.record --samples 2000",
        "oddsbot chart examples/camel-up-cards-4p.json --out cards-odds.png",
        "oddsbot report camel-up-cards --games 20000 --out cards-report",
    ),
)
