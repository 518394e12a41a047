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
    board="board.js",  # the page of oddsbot serve (docs/serve.md)
    docs="docs/games/camel-up.md",
    capabilities=frozenset(Capability),
    options=(
        GameOption("deck_model", "How hidden finish cards already on a deck are modelled "
                   "in the winner / loser bet values.", "uniform",
                   ("uniform", "race", "optimistic"), ("advise", "replay")),
        GameOption("hidden", "Model of opponents' hidden finish cards in rollouts.",
                   "uniform", ("uniform", "informed"), ("advise",)),
        GameOption("exact_budget", "Seconds the exact race odds may take (counted in race "
                   "states, 200,000 a second, so the choice is the same on every machine); "
                   "a race with more states falls back to Monte Carlo; 0 = always Monte "
                   "Carlo (docs/games/camel-up.md §9.1).", "2", (),
                   ("advise", "odds", "replay")),
    ),
    designer="oddsbot.reports.camel_up",
    target_se={"advise": 0.002, "odds": 0.002, "chart": 0.002},
    policies=("random", "heuristic", "greedy"),  # = kernels policy.POLICY_NAMES (tested)
    rollout_policies=("heuristic", "random"),  # = rollouts.ROLLOUT_POLICIES (tested)
    advise_columns={
        "why": "the chances behind the value: a ticket's 1st and 2nd place (and 3rd-5th "
               "with --wide); a tile's expected landings; a winner or loser bet's chance "
               "and how many finish cards are expected ahead of yours on that deck (each "
               "one ahead pays the next smaller amount, docs/games/camel-up.md §8)",
        "win_p, ±": "(--rollouts) the chance of winning the game (most EP; ties "
                    "shared) after this action, and its standard error",
        "p_best": "(--rollouts) the chance that this action is truly the best",
        "margin": "(--rollouts) the expected final EP ahead of the best opponent",
        "gap_se": "(--rollouts --wide) the standard error of win_p's gap to the best",
    },
    odds_columns={
        "1st-5th": "each camel's chance of each place at the end of this leg (exact)",
        "race_win, race_lose": "its chance of winning and of losing the whole race (exact "
                               "when the race fits --exact-budget, else Monte Carlo; with "
                               "--wide their standard errors win_se, lose_se, 0 when "
                               "exact)",
    },
    examples=(
        "oddsbot advise examples/camel-up-start-4p.json --top 10",
        "oddsbot advise examples/camel-up-mid-leg.json --rollouts 1000 --top 5",
        "oddsbot odds examples/camel-up-mid-leg.json",
        "oddsbot validate examples/camel-up-2014.json",
        "oddsbot moves examples/camel-up-mid-leg.json",
        "oddsbot new camel-up --players 5 --seed 7 -f notation",
        "oddsbot new camel-up --play heuristic --seed 3",
        "oddsbot chart examples/camel-up-mid-leg.json --out odds.png",
        "oddsbot replay examples/camel-up-game-4p.record --samples 2000",
        "oddsbot report camel-up --games 20000 --out camel-report",
    ),
)
