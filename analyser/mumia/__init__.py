"""Mumia – Wyścig w bandażach (the Verflixxt! / That's Life! family with the mummy and
four expansions), declared once.

The rules as implemented: docs/games/mumia.md. The face (``face.py``) loads the kernels.
"""

from ..face import Capability, GameOption, GameSpec, RuleParam

_B = "true or false"

GAME = GameSpec(
    name="mumia",
    title="Mumia",
    variants={
        "mumia": "Mumia (Egmont 2014; That's Life! with the mummy), 2-6 players, base game "
                 "(any expansions the position names)",
        "mumia-e1": "with the exchange tiles (expansion 1)",
        "mumia-e2": "with the hats of luck and bad luck (expansion 2)",
        "mumia-e3": "with the risk tiles (expansion 3)",
        "mumia-e4": "with the action tokens (expansion 4)",
        "mumia-all": "with all four expansions",
        "mumia-sudden": "base game, the game ends when the first player is home "
                        "(sudden_end=true)",
    },
    players=(2, 6),
    face=f"{__name__}.face",
    docs="docs/games/mumia.md",
    board="board.js",  # the board of the oddsbot serve page (docs/serve.md)
    capabilities=frozenset(Capability),
    designer="oddsbot.reports.mumia",
    default_top=None,
    policies=("heuristic", "greedy", "random"),  # = kernels choices.POLICY_NAMES (tested)
    rollout_policies=("heuristic", "greedy", "random"),
    options=(
        GameOption("roll", "The roll to advise on: the number die, and while the mummy "
                   "is in play the picture die: P (it shows a pawn: move an own pawn or a "
                   "guardian), M (the mummy) or PM (both: either), as N,P / N,M / N,PM or in "
                   "words: pawn or pyramid (P: the pawn's cone reads as a pyramid), mummy "
                   "(M), both, pawn+mummy or pyramid+mummy (PM), e.g. 4,pyramid. Without "
                   "it: the value before rolling and a table per roll.", "", (),
                   ("advise",)),
        GameOption("expansions", "Expansions of a new game: any of e1,e2,e3,e4 (or all; "
                   "none for the base game). Default: the variant's.", "", (), ("new",)),
    ),
    advise_columns={
        "on": "the field the piece the row moves stands on now, before the move, counted "
              "along the track from START = 0 (docs/games/mumia.md §0); empty when no "
              "piece moves",
        "win_p": "the mover's chance to win or share the win with that choice",
        "roll": "the roll the row is for (without --roll: every roll, with its chance)",
    },
    odds_columns={
        "win_p": "each player's chance to win or share the win",
        "score": "each player's expected final score",
    },
    examples=(
        "oddsbot advise examples/mumia-mid-4p.json --roll 4,PM",
        "oddsbot advise examples/mumia-endgame.json --roll 3",
        "oddsbot odds examples/mumia-mid-4p.json",
        "oddsbot new mumia --players 4 --seed 7 --expansions e1,e4 -f notation",
        "oddsbot rules mumia",
        "oddsbot replay examples/mumia-game-4p.record --samples 200",
        "oddsbot report mumia --games 20000 --out mumia-report",
    ),
    aliases=("thats-life",),
    rules=(
        RuleParam("picture_faces", "2/2/2", "P/M/PM face counts adding up to 6",
                  "faces of the picture die showing P, M and PM (§1, M-AMB-1)"),
        RuleParam("tile_values", "standard", "standard, or the path tiles in the first "
                  "layout's order, e.g. -1,-2,camel,+8", "the base game's path tiles "
                  "(§1, M-AMB-2)"),
        RuleParam("first_layout", "standard", "standard or random",
                  "lay the tiles as in the first game, or shuffled (§2, M-AMB-3)"),
        RuleParam("mummy_tokens", "4,3,2,1", "token values, top first",
                  "the mummy-token stack (§5)"),
        RuleParam("tokens_per_pass", "each", "each or one",
                  "a mummy token for each pass of FINISH in one roll, or at most one "
                  "(§5, M-AMB-6)"),
        RuleParam("sudden_end", "false", _B,
                  "the game ends as soon as one player is home (§6, M-AMB-8)"),
        RuleParam("sudden_end_pair_alone", "false", _B,
                  "at a sudden end two own pawns on a tile count as alone (§6, M-AMB-9)"),
        RuleParam("tiebreak", "shared", "shared or fewer_camels",
                  "tied players share the win, or fewer camels wins (§7, M-AMB-10)"),
        RuleParam("hat_values", "10,-10", "luck,bad", "what the hats score at FINISH (§9)"),
        RuleParam("hat_tie", "reroll", "reroll or first_seat",
                  "ties when rolling for the hats (§9, M-AMB-12)"),
        RuleParam("luck_hat_last_out", "false", _B,
                  "the lucky pawn must be its player's last pawn home (§9, M-AMB-13)"),
        RuleParam("e3_removed", "+1,+2,+3,+4,-5,-6,-7,camel", "tiles, comma separated",
                  "base tiles expansion 3 returns to the box (§10, M-AMB-15)"),
        RuleParam("e3_e1_keep_e1_removal", "false", _B,
                  "with expansions 1 and 3 also remove -1,-1,-2,-2 (§10, M-AMB-17)"),
        RuleParam("camels_flip_risk", "false", _B,
                  "camels may flip risk tiles too (§10, M-AMB-18)"),
        RuleParam("action_token_mix", "extra:3,swap:3,push:2,bottom:2", "kind:count,...",
                  "the action tokens of expansion 4 (§11, M-AMB-19)"),
        RuleParam("unused_token_value", "1", "a whole number",
                  "points for each unused action token at the end (§11)"),
        RuleParam("tokens_on_start_finish", "false", _B,
                  "Swap and Push may use START (§11, M-AMB-23)"),
        RuleParam("exchange_positions", "10,15,20,25", "four track positions",
                  "where the exchange tiles lie (§8)"),
    ),
)
