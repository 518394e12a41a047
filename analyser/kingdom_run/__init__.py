"""Kingdom Run (Królewski Wyścig): four clans' runners race, moved by four action dice,
declared once.

The rules as implemented: docs/games/kingdom-run.md. The face (``face.py``) loads the
kernels.
"""

from ..face import Capability, GameOption, GameSpec, RuleParam

GAME = GameSpec(
    name="kingdom-run",
    title="Kingdom Run",
    variants={
        "kingdom-run": "Kingdom Run (Królewski Wyścig; Ankama 2018, Muduko), 2-4 players, "
                       "the rules' defaults (any parameters the position sets)",
        "kingdom-run-linear-podium": "podium places worth 8,7,...,1 instead of the assumed "
                                     "13,10,8,6,5,4,3,2",
        "kingdom-run-exact-zones": "a score token counts only for runners on its own "
                                   "space (zone_mode=exact)",
    },
    players=(2, 4),
    face=f"{__name__}.face",
    docs="docs/games/kingdom-run.md",
    board="board.js",  # the board of the oddsbot serve page (docs/serve.md)
    capabilities=frozenset(Capability),
    designer="oddsbot.reports.kingdom_run",
    default_top=20,
    policies=("heuristic", "greedy", "random"),  # = kernels policies.POLICY_NAMES (tested)
    rollout_policies=("heuristic", "greedy", "random"),
    options=(
        GameOption("roll", "The roll to advise on when the position has none: four faces, "
                   "e.g. scatter,catchup,bath,copy or SCBY (S scatter, C catch-up, B bath, "
                   "T steal, Z sleep/wake, Y copy).", "", (), ("advise",)),
    ),
    advise_columns={
        "turn ev": "the ev column's heading without --rollouts: the mover's score minus "
                   "the best other player's after this turn, expected (JSON key ev)",
        "final ev": "its heading with --rollouts: the expected final margin over the best "
                    "other player (JSON key ev); the two rankings may differ "
                    "(docs/games/kingdom-run.md)",
        "on": "where the runner of each catchup, bath, sleep or wake step stands (its "
              "space), in the order of the steps",
        "win_p": "with --rollouts: the mover's chance to win or share the win",
        "margin": "with --rollouts: the mover's expected final score minus the best "
                  "other player's",
    },
    odds_columns={
        "win_p": "each player's chance to win or share the win",
        "score": "each player's expected final score",
    },
    examples=(
        "oddsbot advise examples/kingdom-run-roll-4p.json",
        "oddsbot advise examples/kingdom-run-mid-4p.json --top 10",
        "oddsbot odds examples/kingdom-run-mid-4p.json",
        "oddsbot new kingdom-run --players 4 --seed 7 -f notation",
        "oddsbot rules kingdom-run",
        "oddsbot report kingdom-run --games 20000 --out kingdom-run-report",
    ),
    aliases=("krolewski-wyscig",),
    rules=(
        RuleParam("die_faces", "scatter,catchup,bath,steal,sleepwake,copy",
                  "2 to 12 faces, comma separated, repeats allowed",
                  "the faces of every action die (§1, KR-1)"),
        RuleParam("dice", "4", "1 to 5", "action dice rolled each turn, one re-roll (§4)"),
        RuleParam("per_action_limit", "2", "1 to 5",
                  "uses of one action per turn, a Copy counting as the action (§4)"),
        RuleParam("mandatory_dice", "true", "true or false",
                  "every die with a legal use must be used (§4, KR-8)"),
        RuleParam("capacity", "4", "4 to 8", "runners a space holds, lakes included (§5)"),
        RuleParam("layout", "4/6:3/6:3/6:3/4", "boards START first, each SIZE or "
                  "SIZE:LAKE,LAKE (lake offsets), '/' between",
                  "the track (§2, KR-7); the default is layout D0"),
        RuleParam("lakes", "3", "0 to 12", "lakes the layout must hold (§2)"),
        RuleParam("zone_values", "1,2,3,4,5", "one whole number per board",
                  "the score tokens from START to FINISH (§9, KR-5)"),
        RuleParam("zone_mode", "zone", "zone or exact",
                  "a runner scores its board's token, or only on the token's space "
                  "(§9, KR-6)"),
        RuleParam("podium_values", "13,10,8,6,5,4,3,2", "1 to 12 whole numbers",
                  "the podium places' points, 1st first (§7, KR-3, KR-4)"),
        RuleParam("victory_tokens", "6/4/3", "tokens each for 2/3/4 players",
                  "victory tokens dealt to each player (§3, KR-2)"),
        RuleParam("victory_token_value", "2", "a whole number", "points per victory token (§9)"),
        RuleParam("two_player_end", "first_of", "first_of or own_runners_only",
                  "2 players: the game ends when one player's runners are all across, "
                  "or also when the podium is full (§8, KR-14)"),
        RuleParam("same_turn_order", "free", "free or chronological",
                  "who takes the places filled in one turn (§7, KR-19)"),
        RuleParam("surplus_finishers", "score_zero", "score_zero or stay",
                  "runners crossing when no place is left (§7, KR-18)"),
        RuleParam("tie_rule", "best_podium", "best_podium or shared",
                  "ties: the best podium place among the tied wins, or all share (§9, KR-16)"),
    ),
)
