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
    board="board.js",  # the board of the oddsbot serve page (docs/serve.md)
    capabilities=frozenset(Capability),
    designer="oddsbot.reports.five_tribes",
    target_se={"odds": 0.01, "chart": 0.01},
    default_top=20,
    policies=("greedy", "heuristic", "random"),  # = simulate.POLICIES (tested)
    rollout_policies=("heuristic", "random"),  # = rollouts.ROLLOUT_POLICIES (tested)
    new_note="a deal starts in the bidding phase: no one has bid, and advise values the "
             "bids. For the first turn (the turns phase), write the bids made at the table "
             "as a record: a 'start' line with the deal, then 'round 1 pN bid K' for each "
             "bid, in bid order (docs/games/five-tribes.md §19.4); advise, odds and moves "
             "take the record, e.g. oddsbot advise examples/five-tribes-bids-4p.record.",
    advise_columns={
        "cost, turn_value": "(bids) the gold the bid space costs, and the best exact turn "
                            "value from that place in turn order",
        "count": "(--wide) how many sowings and choices of the same effect the row "
                 "stands for",
        "count_se": "(--wide, sampled tables of tall stacks) the standard error of the "
                    "estimated count (docs/games/five-tribes.md §19.1.1)",
        "gold ... goods": "(--wide) the turn's value by part of the final score",
        "win_p, ±": "(--rollouts) the chance of winning the game (most VP; ties shared) "
                    "after this action, and its standard error",
        "p_best": "(--rollouts) the chance that this action is truly the best",
        "margin": "(--rollouts) the expected final VP ahead of the best opponent",
        "gap_se": "(--rollouts --wide) the standard error of win_p's gap to the best",
    },
    odds_columns={
        "gold ... total": "each player's final score (VP) by part if the game ended now "
                          "(docs/games/five-tribes.md §13)",
        "win_p, final": "each player's chance to win and expected final score (VP) by "
                        "rollouts of the whole game (§21; with --wide their standard "
                        "errors win_se, final_se)",
    },
    examples=(
        "oddsbot advise examples/five-tribes-opening-4p.json --top 5",
        "oddsbot advise examples/five-tribes-opening-4p.json --rollouts 200 --top 5",
        "oddsbot advise examples/five-tribes-bids-4p.record --top 5",
        "oddsbot odds examples/five-tribes-opening-4p.json",
        "oddsbot chart examples/five-tribes-opening-4p.json --out odds.png",
        "oddsbot moves examples/five-tribes-opening-4p.json",
        "oddsbot new five-tribes --players 3 --seed 5 -f notation",
        "oddsbot report five-tribes --games 1000 --out tribes-report",
    ),
)
