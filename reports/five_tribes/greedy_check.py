"""How often the greedy turn is the rollout-best turn: a section of the Five Tribes report
(docs/games/five-tribes.md §19.5).

For each variant of the run, ``POSITIONS`` positions are taken from games played with
``heuristic`` seats from the run's seed: position i is the first turn of round
``ROUNDS[i % len(ROUNDS)]`` of game i (the game dealt as game i of a report run, its
earlier rounds and this round's bids played by the heuristic; the last round played if
the game ended sooner). There the best ``CANDIDATES`` turns by exact value and the greedy
turn (two stages, §20.9) are each rolled out ``ROLLOUTS`` times (heuristic seats, common
random numbers, §21.3). The greedy turn "is the rollout-best" when it has the highest win
probability; ``win_p_lost`` is the best candidate's win probability minus the greedy
turn's (0 when it is the best). Positions from heuristic games keep the section quick
whatever the run's seats; runs of fewer than ``MIN_GAMES`` games per variant leave it out.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...analyser.five_tribes.encode import END_RULES, decode
from ...analyser.five_tribes.rollouts import turn_equity
from ...analyser.five_tribes.setup import END_RULE_OF
from ...kernels import five_tribes as K
from ...kernels.rng import stream
from .. import stats
from ..document import Section, Table
from ..sections import proportion
from ..spec import RunSpec

POSITIONS = 12
ROUNDS = (1, 3, 5)
CANDIDATES = 8
ROLLOUTS = 128
TURN_ROWS = 200_000  # a position whose turn table is larger is skipped (none seen so far)
MIN_GAMES = 1_000  # runs of fewer games per variant (smoke runs) leave the check out


def _position(players: int, end_rule: int, seed: int, game: int, rounds: int) -> np.ndarray:
    """The state before the first turn of round ``rounds`` of game ``game`` (heuristic
    seats; the report's streams of that game: deal (seed, 3g), choices (seed, 3g + 1),
    refills (seed, 3g + 2))."""
    deal, choices, refills = (stream(np.uint64(seed), 3 * game + i) for i in range(3))
    st = K.empty_state()
    K.deal(st, players, end_rule, False, deal)
    policies = np.full(players, K.POLICY_NAMES.index("heuristic"), dtype=np.int64)
    tables, ws = K.walk_tables_once(), K.turn_workspace()
    spaces, row = np.zeros(K.MAX_BIDS, dtype=np.int64), np.zeros(K.N_FIELDS, dtype=np.int64)
    keys = np.zeros(3, dtype=np.int64)
    for _ in range(rounds - 1):
        before = st.copy()
        if K.play_round(st, policies, K.HEURISTIC_PARAMS, choices, refills, keys,
                        np.uint64(seed), tables, ws, spaces, row):
            st = before  # the game ended in that round: its last round instead
            break
    while st[K.PHASE] == K.BIDDING:
        K.place_bid(st, K.choose_bid(st, policies[st[K.TO_MOVE]], choices, spaces))
    return st


def _same_result(st: np.ndarray, a: np.ndarray, b: np.ndarray) -> bool:
    """True if the complete turns ``a`` and ``b`` leave the same state."""
    sa, sb = st.copy(), st.copy()
    K.apply_turn(sa, a)
    K.apply_turn(sb, b)
    return bool((sa == sb).all())


def check_position(st: np.ndarray, seed: int) -> tuple[bool, float] | None:
    """(greedy turn is the rollout-best, win probability it loses to the best) at ``st``,
    or None when the greedy turn ends in a draw or the table is too large."""
    table = K.complete_turns(st, TURN_ROWS)
    greedy, _ = K.greedy_turn(st)
    if table is None or greedy[K.A_END] >= 0:
        return None
    actions, parts, _ = table
    order = [i for i in np.argsort(-parts[:, -1], kind="stable")
             if actions[i, K.A_END] < 0][:CANDIDATES]
    cands = actions[order]
    found = [c for c in range(len(cands)) if _same_result(st, cands[c], greedy)]
    if found:
        g = found[0]
    else:
        cands, g = np.vstack([cands, greedy]), len(cands)
    eq = turn_equity(decode(st), np.full(len(cands), K.CAND_TURN), cands, rollouts=ROLLOUTS,
                     seed=seed)
    return bool(np.argmax(eq.win) == g), float(eq.win.max() - eq.win[g])


def greedy_check_table(spec: RunSpec) -> pd.DataFrame:
    """Per variant: positions checked, the share where the greedy turn is the rollout-best
    (Wilson 95 % interval) and the mean win probability it loses (normal interval)."""
    rows = []
    for variant in spec.variants:
        end_rule = END_RULES.index(END_RULE_OF[variant])
        results = [check_position(_position(spec.players, end_rule, spec.seed, i,
                                            ROUNDS[i % len(ROUNDS)]), spec.seed)
                   for i in range(POSITIONS)]
        done = [r for r in results if r is not None]
        best = sum(r[0] for r in done)
        lost = np.array([r[1] for r in done])
        mean, lo, hi = stats.mean_ci(lost) if len(lost) > 1 else (np.nan,) * 3
        rows.append({"variant": variant, "positions": len(done), "greedy_best": best,
                     **{f"{k}_rate" if k == "p" else k: v
                        for k, v in proportion(best, len(done)).items()},
                     "win_p_lost": mean, "lost_lo95": lo, "lost_hi95": hi})
    return pd.DataFrame(rows)


def greedy_check_section(spec: RunSpec) -> Section:
    """The report section (module doc); left out, in words, for a run of fewer than
    ``MIN_GAMES`` games per variant (the check takes about 20 s per variant)."""
    title = "Greedy turn against rollouts"
    if spec.games < MIN_GAMES:
        return Section(title, f"Left out: the check takes about 20 s per variant, and this "
                              f"run has {spec.games:,} games per variant (it runs from "
                              f"{MIN_GAMES:,}).")
    table = greedy_check_table(spec)
    return Section(
        title,
        f"How often the greedy turn (the best exact turn, two stages, "
        f"docs/games/five-tribes.md §20.9) is also the best by rollouts: in {POSITIONS} "
        f"positions per variant (the first turn of rounds {', '.join(map(str, ROUNDS))} "
        f"of games played by the heuristic policy from this run's seed), the best "
        f"{CANDIDATES} turns by exact value and the greedy turn were each rolled out "
        f"{ROLLOUTS} times with heuristic seats on common random numbers (§21.3). p_rate: "
        f"the share of positions where the greedy turn had the highest win probability "
        f"(95% Wilson interval); win_p_lost: the win probability the greedy turn gives "
        f"up to the best candidate (0 when it is the best; a candidate may lead by "
        f"chance, so this is an upper estimate of what the greedy player loses). "
        f"Positions whose greedy turn ends in a draw are left out.",
        [Table("greedy_check", "Greedy turn against the rollout-best turn", table)], [])
