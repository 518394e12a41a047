"""The Five Tribes EV tables: every complete turn valued exactly, and every legal bid.

Turns (phase "turns"): one row per distinct complete turn (``kernels.five_tribes.complete_turns``:
sowing outcome x tribe choice x tile choice x sale, identical results merged with a
``count``), valued exactly as the change in the mover's final score if the game ended
after this turn (docs/games/five-tribes.md §13), in VP, split into its parts.

Beyond the budgets of ``turns`` the turn table is sampled: every listed turn still valued
exactly, its count estimated (``count_se``), turns of sowings not drawn missing.

Bids (phase "bidding"): one row per legal bid (a space, plainly or with k Fakirs
discarded for Kumarbi, docs/games/five-tribes.md §20.7): its ``cost`` (gold), ``fakirs``
and ``turn_value``, the best exact turn value the bidder would have when acting at that
place with the Fakirs left after the bid, given the markers already on the turn order
track that would act earlier, each playing the greedy exact-value policy (its best complete
turn, chosen in two stages: window powers after the tile action only, §20.9) first.
Markers still to bid are not modelled. ``ev`` = turn_value - cost - the end-score worth
of the Fakirs discarded (0 unless Al-Amin makes pairs of them goods; coins are VP at the
end).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from ... import __version__
from ...kernels import five_tribes as FT
from ...kernels.rng import stream
from ...errors import ActionError, OddsbotError
from . import turns
from .encode import encode
from .labels import bid_label, sowing_labels, turn_label, turn_labels
from .. import equity
from ..table import Table
from .position import Position
from .rollouts import GREEDY_HINT, POLICY_WORDS, ROLLOUT_POLICIES, SECRET_GOLD_WORDS
from .rollouts import turn_equity as rollout_equity
from .turns import TurnRows, exact_rows, turn_rows
from .validate import validate

ROLLOUT_CANDIDATES = 12  # turns rolled out by default (--candidates; equity.pick_candidates)
PARTS = FT.SCORE_PARTS[:-1]  # the parts of a turn's value; their sum is ``ev``
TURN_METHOD = ("exact: change in the mover's final score if the game ended after the turn "
               "(docs/games/five-tribes.md §13), every distinct complete turn enumerated; a "
               "turn ending in a draw ('then best', method 'expectation') is the exact "
               "expectation over the draw of the best rest of the turn (§20.6)")
UNSEEN = ("the bag, the resource deck and the djinn deck hold the box's composition minus "
          "everything visible (board, hands, rows, discard piles); draws are uniform from "
          "them (docs/games/five-tribes.md §20.6)")


def _bid_method() -> str:
    """The bid rows' method (a function: the budgets are the turn walk's, loaded on use)."""
    return ("greedy model: markers already on the turn order track that act earlier play "
            "their greedy complete turn first (window powers after the tile action only); "
            "later bidders are not modelled; "
            f"ev = best exact turn value at that place - cost (on boards of more than "
            f"{FT.GREEDY_SOWINGS:,} full sowing sequences: the best after "
            f"{FT.GREEDY_DRAWS:,} sampled sowings)")


def _tile_types(pos: Position) -> tuple[str, ...]:
    return tuple(cell.tile for _, _, cell in pos.cells())


def sampled_method(rows: TurnRows, seed: int) -> str:
    """How a sampled turn table was made, in words (provenance ``method``)."""
    full = (f"; the table reached its budget of {turns.TABLE_ROWS:,} rows, so some turns "
            f"drawn are not listed") if rows.full else ""
    return (f"sampled: {rows.drawn:,} of {rows.sowings:,} full sowing sequences drawn "
            f"(over the exact budget of {turns.EXACT_SOWINGS:,} sequences and "
            f"{turns.TABLE_ROWS:,} turns), {rows.rounds:,} in each of {rows.strata:,} "
            f"(start, final tile, colour) strata, seed {seed}, every choice after each "
            f"enumerated; each listed turn's ev is exact (se 0), its count a stratified "
            f"estimate with standard error count_se; turns of sowings not drawn are "
            f"missing{full}")


def turn_table(pos: Position, rows: TurnRows) -> pd.DataFrame:
    """One row per distinct complete turn of ``rows`` (``turns.turn_rows`` of ``pos``), in
    the kernel's order (not yet sorted)."""
    actions, parts = rows.actions, rows.parts
    sown = actions[:, FT.A_LEN] > 0
    labels = turn_labels(actions, _tile_types(pos))
    method = np.where(actions[:, FT.A_END] >= 0, "expectation",
                      "sampled" if rows.sampled else "exact")
    columns: dict[str, object] = {
        "action": labels, "ev": parts[:, -1].astype(float), "se": 0.0,
        "method": method, "count": rows.count, "count_se": rows.count_se}
    columns.update({part: parts[:, i] for i, part in enumerate(PARTS)})
    columns.update(
        sowing=sowing_labels(actions),
        final_tile=_named(np.where(sown, actions[:, FT.A_TILE], -1), FT.tile_name),
        taken=_named(np.where(sown, actions[:, FT.A_TAKEN] * FT.N_COLOURS
                              + actions[:, FT.A_COLOUR], -1), _taken),
        fakirs=np.where(sown, actions[:, FT.A_FAKIRS], 0),
        sale_gold=actions[:, FT.A_SALE_GOLD])
    return pd.DataFrame(columns)


def _named(codes: np.ndarray, name: Callable[[int], str]) -> np.ndarray:
    """``name(code)`` of every code (None for -1), named once per distinct code."""
    distinct, inverse = np.unique(codes, return_inverse=True)
    words = np.empty(len(distinct), dtype=object)
    words[:] = [None if c < 0 else name(int(c)) for c in distinct]
    return words[inverse.reshape(-1)]


def _taken(code: int) -> str:
    """``2W`` for the code ``k * N_COLOURS + colour`` (k meeples of that colour taken)."""
    return f"{code // FT.N_COLOURS}{FT.COLOURS[code % FT.N_COLOURS]}"


def _acting(st: np.ndarray, owners: list[int]) -> np.ndarray:
    """A copy of ``st`` in the turns phase with exactly ``owners``' markers on the turn
    order track, in this play order."""
    s = st.copy()
    s[FT.TURN_TRACK:FT.TURN_TRACK + FT.TRACK_SPACES] = -1
    s[FT.TURN_TRACK:FT.TURN_TRACK + len(owners)] = owners
    s[FT.BID_ORDER:FT.BID_ORDER + FT.MAX_MARKERS] = -1
    s[FT.PHASE] = FT.TURNS
    s[FT.TO_MOVE] = owners[0]
    return s


def _legal_bids(st: np.ndarray) -> list[int]:
    bids = np.zeros(FT.MAX_BIDS, dtype=np.int64)
    return [int(b) for b in bids[:FT.legal_bids(st, bids)]]


def _discarding(st: np.ndarray, player: int, fakirs: int) -> np.ndarray:
    """A copy of ``st`` where ``player`` has discarded ``fakirs`` Fakirs (Kumarbi)."""
    s = st.copy()
    s[FT.P_FAKIRS + player] -= fakirs
    s[FT.RES_DISCARD + FT.FAKIR_CARD] += fakirs
    return s


def _total(st: np.ndarray, player: int) -> int:
    """``player``'s final score if the game ended on ``st``."""
    return int(FT.state_scores(st)[player, -1])


class BidValue(NamedTuple):
    """A legal bid as the greedy model values it (module doc); gold and VP."""

    cost: int
    fakirs: int
    turn_value: int
    ev: int
    earlier_turns: str


def bid_values(pos: Position) -> dict[int, BidValue]:
    """Per legal bid (a ``rounds`` code), in ``legal_bids`` order: its value under the
    greedy model (module doc), with the greedy turns played before it, in words."""
    st = encode(pos)
    me = pos.to_move
    placed = [p for p in pos.turn_track if p is not None]
    types = _tile_types(pos)
    boards, words = [st], []  # boards[i]: once the first i placed markers have played
    for owner in placed:
        s = _acting(boards[-1], [owner])
        action, _ = FT.play_greedy_turn(s, stream(np.uint64(0), 2))  # its draws: fixed
        words.append(f"p{owner}: {turn_label(action, types)}")
        boards.append(s)
    turn_values: dict[tuple[int, int], float] = {}  # (markers before, fakirs) -> value
    out = {}
    for bid in _legal_bids(st):
        i, k = int(FT.markers_before(st, bid)), int(FT.bid_fakirs(bid))
        if (i, k) not in turn_values:
            _, parts = FT.greedy_turn(_acting(_discarding(boards[i], me, k), [me]))
            turn_values[i, k] = float(parts[-1])
        cost = int(FT.bid_price(bid))
        worth = _total(st, me) - _total(_discarding(st, me, k), me)  # the Fakirs at the end
        out[bid] = BidValue(cost, k, turn_values[i, k], turn_values[i, k] - cost - worth,
                            "; ".join(words[:i]))
    return out


def bid_table(pos: Position) -> pd.DataFrame:
    rows = [{"action": bid_label(bid), "ev": float(v.ev), "se": np.nan, "method": "greedy",
             "cost": v.cost, "fakirs": v.fakirs, "turn_value": v.turn_value,
             "earlier_turns": v.earlier_turns or None}
            for bid, v in bid_values(pos).items()]
    return pd.DataFrame(rows)


class TurnLabels(Sequence[str]):
    """The complete turns of a position (turns phase), labelled as ``advise`` labels them:
    listed as the exact table lists them (``exact_rows``: one label per distinct result,
    computed on first use; refused in one line beyond the budgets of §19.1.1). ``label in``
    it holds for every legal turn, however worded (another sowing of the same outcome, a
    turn as a record writes it), without listing them: the label is played as the record
    replay plays it (``play``), so it also answers beyond the budgets."""

    def __init__(self, pos: Position) -> None:
        self.pos, self.st, self._labels = pos, encode(pos), None

    def _listed(self) -> list[str]:
        if self._labels is None:
            rows = exact_rows(self.st)
            if rows is None:
                raise OddsbotError(
                    f"actions: player {self.pos.to_move} has more complete turns than "
                    f"oddsbot lists (over {turns.EXACT_SOWINGS:,} full sowing sequences or "
                    f"{turns.TABLE_ROWS:,} distinct turns)")
            self._labels = turn_labels(rows.actions, _tile_types(self.pos))
        return self._labels

    def __getitem__(self, i):  # type: ignore[override]
        return self._listed()[i]

    def __len__(self) -> int:
        return len(self._listed())

    def __contains__(self, label: object) -> bool:
        if not isinstance(label, str):
            return False
        from .play import _draw_paths  # play imports this module
        try:
            return next(_draw_paths(self.st, label), None) is not None
        except OddsbotError:
            return False


def legal_actions(pos: Position) -> list[str] | TurnLabels:
    """Labels of every legal action: the bids while bidding, else the complete turns
    (``TurnLabels``)."""
    validate(pos)
    if pos.phase == "bidding":
        return [bid_label(b) for b in _legal_bids(encode(pos))]
    return TurnLabels(pos)


def check_action(pos: Position, label: str) -> str:
    """``label`` if it is a legal action here (ActionError otherwise)."""
    if label not in legal_actions(pos):
        raise ActionError(f"action: {label!r} is not legal for player {pos.to_move} here")
    return label


def advise(pos: Position, *, samples: int | None = None, seed: int = 0,
           target_se: float | None = None,
           progress: Callable[[int, int], None] | None = None, rollouts: int | None = None,
           policy: str = "heuristic", candidates: int | None = None,
           rollout_target_se: float | None = None) -> Table:
    """The EV table of the player to move, best first (module doc). ``samples`` and
    ``seed``: the sowings drawn, and their seed, when the turn table is sampled;
    ``progress(done, planned)`` after each chunk of it; ``target_se`` (no probability is
    sampled: every value is exact, a sampled table draws a fixed number of sowings) is
    refused without ``rollouts``, whose stop is ``rollout_target_se``.

    Columns: ``action``, ``ev`` (VP), ``se`` (0: exact; empty for the bid model),
    ``method`` (``exact``, ``sampled`` or ``greedy``), ``gap`` (VP behind the best); turns
    add ``count`` (sowings and choices merged into the row; estimated when sampled) and
    ``count_se`` (its standard error, 0 when exact), the parts of ``ev`` (gold,
    viziers incl. the 10-VP comparisons, elders, tiles, palms, palaces, djinns, goods),
    ``sowing``, ``final_tile``, ``taken``, ``fakirs`` and ``sale_gold``; bids add ``cost``,
    ``fakirs`` (discarded with Kumarbi), ``turn_value`` and ``earlier_turns``.

    With ``rollouts``: up to ``candidates`` turns (default ``ROLLOUT_CANDIDATES``), one
    per distinct resulting position, the best by ``ev`` and a tie at the best spread
    evenly (``equity.pick_candidates``; turns ending in a draw are not rolled out), or
    every legal bid, are also played to the end of the game that many times at most
    (``rollouts`` module) under ``policy`` in every seat, on common random numbers,
    adding ``win_p``, ``win_se``, ``margin``, ``margin_se``, ``gap_se`` and ``p_best``
    (empty for the rows not rolled out); the rows rolled out come first, by ``win_p``."""
    validate(pos)
    if rollouts is None and target_se is not None:
        raise OddsbotError("--target-se: five-tribes advise samples no probability without "
                           "--rollouts (every value is exact; a sampled table draws "
                           "--samples sowings)")
    if rollouts is not None:
        equity.check_rollouts(rollouts, policy, ROLLOUT_POLICIES, GREEDY_HINT)
    rows = None if pos.phase == "bidding" else turn_rows(encode(pos), samples=samples, seed=seed,
                                                          progress=None if rollouts else progress)
    df = bid_table(pos) if rows is None else turn_table(pos, rows)
    kinds, cands = _candidates(rows, pos)
    df["_candidate"] = np.arange(len(df))
    df = df.sort_values("ev", ascending=False, kind="stable").reset_index(drop=True)
    df.insert(4, "gap", df["ev"].iloc[0] - df["ev"])
    prov = provenance(pos, rows, seed)
    if rollouts is not None:
        df = _with_rollouts(pos, df, kinds, cands, prov, rollouts=rollouts, policy=policy,
                            candidates=candidates or ROLLOUT_CANDIDATES, seed=seed,
                            target_se=rollout_target_se, progress=progress)
    df = df.drop(columns="_candidate")
    df.attrs["provenance"] = prov
    return Table.from_frame(df)


def _candidates(rows: TurnRows | None, pos: Position) -> tuple[np.ndarray, np.ndarray]:
    """(kinds, rows) of every row of the unsorted table as rollout candidates
    (``FT.CAND_*``): a turn row, or a bid code in column 0."""
    if rows is not None:
        return np.full(len(rows.actions), FT.CAND_TURN), rows.actions
    bids = _legal_bids(encode(pos))
    cands = np.zeros((len(bids), FT.ACTION_SIZE), dtype=np.int64)
    cands[:, 0] = bids
    return np.full(len(bids), FT.CAND_BID), cands


def _with_rollouts(pos: Position, df: pd.DataFrame, kinds: np.ndarray, cands: np.ndarray,
                   prov: dict, *, rollouts: int, policy: str, candidates: int, seed: int,
                   target_se: float | None,
                   progress: Callable[[int, int], None] | None) -> pd.DataFrame:
    """``df`` (sorted by ev) with the rollout columns of up to ``candidates`` rows that end
    in no draw, one per distinct resulting position (``equity.pick_candidates``; every bid
    while bidding), those rows first by ``win_p``."""
    order = df["_candidate"].to_numpy()
    if pos.phase == "bidding":
        chosen = order
    else:
        chosen = _turn_candidates(pos, df, cands, candidates, prov)
    eq = rollout_equity(pos, kinds[chosen], cands[chosen], rollouts=rollouts, policy=policy,
                        seed=seed, target_se=target_se, progress=progress)
    at = {int(i): k for k, i in enumerate(chosen)}
    picked = [at.get(int(i)) for i in order]
    for col, values in equity.columns(eq).items():
        df[col] = [None if k is None else float(values[k]) for k in picked]
    prov.update(rollouts=eq.rollouts, policy=policy, rollout_policy=POLICY_WORDS[policy],
                rollout_seed=seed, rollout_target_se=target_se, candidates=len(chosen),
                secret_gold=SECRET_GOLD_WORDS, unseen=UNSEEN,
                win="1 for the player with the most VP, shared among ties (§13)")
    rolled = df["win_p"].notna()
    return pd.concat([df[rolled].sort_values("win_p", ascending=False, kind="stable"),
                      df[~rolled]]).reset_index(drop=True)


def _turn_candidates(pos: Position, df: pd.DataFrame, cands: np.ndarray, most: int,
                     prov: dict) -> list[int]:
    """The turn rows to roll out (``equity.pick_candidates`` over the rows of ``df``, best
    first, that end in no draw, keyed by the state after the turn); the choice goes into
    ``prov``."""
    st = encode(pos)
    rows = [(int(i), ev) for i, ev in zip(df["_candidate"], df["ev"])
            if cands[i, FT.A_END] < 0]

    def after(k: int) -> bytes:
        state = st.copy()
        FT.apply_turn(state, cands[rows[k][0]])
        return state.tobytes()

    picked = equity.pick_candidates([ev for _, ev in rows], after, most)
    prov.update(picked.provenance())
    return [rows[k][0] for k in picked.chosen]


def provenance(pos: Position, rows: TurnRows | None = None, seed: int = 0) -> dict:
    """``advise``'s provenance; ``rows``: the turn table's rows (None while bidding)."""
    prov = {"game": "five-tribes", "variant": pos.variant, "oddsbot": __version__,
            "position": pos.to_notation(), "player": pos.to_move, "phase": pos.phase,
            "ev_units": "VP", "end_rule": pos.end_rule,
            "assassin_optional": pos.assassin_optional,
            "method": _bid_method() if rows is None else TURN_METHOD}
    if rows is not None:
        prov["unseen"] = UNSEEN
    if rows is not None and rows.sampled:
        prov["method"] = sampled_method(rows, seed)
        prov["sampling"] = {"sowings": rows.sowings, "drawn": rows.drawn,
                            "per_stratum": rows.rounds, "strata": rows.strata, "seed": seed,
                            "table_rows": turns.TABLE_ROWS, "table_full": rows.full}
    return prov


def table_view(table: Table, wide: bool = False) -> Table:
    """The EV table as people read it: action, EV and gap (bids: also cost and turn
    value); ``wide`` adds the count of merged sowings (and its standard error when
    sampled) and the value's non-zero parts. With rollouts: the win probability, its SE
    (``±``) and P(best) (``wide``: also ``gap_se`` and the margin with its SE; the
    compact table leaves out the gap to fit 80 columns)."""
    rolled = ["win_p", "win_se", "p_best"] if "win_p" in table else []
    if rolled and wide:
        rolled += ["gap_se", "margin", "margin_se"]
    if "cost" in table:
        view = table.select(["action"] + rolled + ["ev", "gap", "cost", "turn_value"])
    elif not wide:  # 80 columns: the long turn labels need the room
        view = table.select(["action"] + rolled + ["ev"] + ([] if rolled else ["gap"]))
    else:
        sampled = any(v != 0 for v in table["count_se"])  # the count is an estimate
        view = table.select(["action"] + rolled + ["ev", "gap", "count"]
                            + (["count_se"] if sampled else [])
                            + [part for part in PARTS if any(v != 0 for v in table[part])])
    if not rolled:
        return view
    return Table(tuple("±" if c == "win_se" else c for c in view.columns), view.rows)
