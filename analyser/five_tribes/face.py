"""Five Tribes' face (``GameFace`` of ``analyser/face.py``, declared in ``__init__.py``):
``parse``, ``Position``, ``validate``, ``legal_actions``, ``moves``, ``advise``, ``odds``,
``new_position``, ``simulate`` and ``play``; and the play-along (``PlayFace``, ``play.py``):
``outcomes``, ``apply``, ``record_text``, ``record_moves``, ``player_name``; and the arena
seats (``SeatsFace``, ``seats.py``): ``deal``, ``seat_view``, ``choose``, ``step``,
``game_result``, ``candidates``, ``playouts``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pandas as pd

from ... import __version__
from ...kernels import five_tribes as FT
from ...kernels.rng import stream
from ...errors import OddsbotError
from ...inputs import read_position
from .. import equity, montecarlo
from ..table import Table
from . import play as play_along, record, rollouts, sowings
from .advise import advise, check_action, legal_actions, table_view
from .encode import encode
from .labels import sowing_label
from .play import apply, outcomes, player_name, record_moves, record_text
from .seats import (candidates, choose, deal, game_result, playouts, seat_view,
                    seated_record, step)
from .notation import NOTATION_KEYS, parse_notation
from .position import NAME, Position
from .setup import END_RULE_OF, VARIANTS, new_position
from .simulate import POLICIES, after_bids, simulate
from .validate import validate

__all__ = ["NAME", "VARIANTS", "NOTATION_KEYS",
           "POLICIES", "Position", "advise", "advise_caption", "apply", "candidates",
           "check_action", "choose", "counts_line", "deal", "game_result", "legal_actions",
           "moves", "new_position", "odds", "odds_view", "outcomes", "parse", "parse_as",
           "play", "player_name", "playouts", "record", "record_moves", "record_text",
           "seat_view", "seated_record", "simulate", "step", "table_view", "validate",
           "warm_up"]


def parse(text: str) -> Position:
    """A position from its JSON text or one-line notation."""
    return read_position(text, Position.from_json, parse_notation)


def parse_as(text: str, variant: str) -> Position:
    """A position read under rules ``variant``: its end rule (a position that states the
    other non-default rule is refused)."""
    pos = parse(text)
    wanted = END_RULE_OF[variant]
    if pos.end_rule not in ("live", wanted):
        raise OddsbotError(f"variant: the position says end rule {pos.end_rule!r} but "
                           f"--variant is {variant!r}")
    return pos.with_(end_rule=wanted)


def play(players: int, seed: int, variant: str, policy: str) -> str:
    """A whole game from ``new_position(players, seed, variant)`` under ``policy``, as a
    readable record (``GameResult.text``)."""
    return simulate(new_position(players, seed, variant), seed=seed, policy=policy).text()


def warm_up() -> None:
    """Compile (or load from the cache) every kernel the commands use, on a new deal:
    the bids' and the first turn's EV tables, the sowings, the scores, rollouts under every
    rollout policy (odds, advise --rollouts), the greedy policy's bids, turns and
    clean-up, the records' replay (``record.warm_up``), a ``then best`` row's rest played
    along (``play.warm_up``) and the kernels of the report's
    greedy-check section (``oddsbot warm-up``); and, on the same board with
    a stack past every budget, the sampled turn table (docs/games/five-tribes.md §19.1.1)."""
    pos = new_position(4, 1, NAME)
    moves(pos)
    odds(pos, samples=16)
    advise(pos)
    first = after_bids(pos)
    advise(first)
    for policy in rollouts.ROLLOUT_POLICIES:
        advise(first, rollouts=8, candidates=2, policy=policy)
    simulate(pos, seed=1, rounds=1)
    advise(_tall_stack(first), samples=1)
    record.warm_up()
    play_along.warm_up(first)
    _report_section_kernels(pos, first)


def _report_section_kernels(pos: Position, first: Position) -> None:
    """The kernels the designer report's "greedy turn against rollouts" section calls from
    Python (docs/games/five-tribes.md §19.5): a round played by heuristic seats, a complete
    turn played."""
    st = encode(first)
    FT.apply_turn(st.copy(), FT.greedy_turn(st)[0])
    FT.play_round(encode(pos), np.full(pos.n_players, FT.POLICY_NAMES.index("heuristic")),
                  FT.HEURISTIC_PARAMS, stream(np.uint64(1), 0), stream(np.uint64(1), 1),
                  np.zeros(3, dtype=np.int64), np.uint64(1), FT.walk_tables_once(),
                  FT.turn_workspace(), np.zeros(FT.MAX_BIDS, dtype=np.int64),
                  np.zeros(FT.N_FIELDS, dtype=np.int64))


def _tall_stack(pos: Position) -> Position:
    """``pos``, a dealt board (3 meeples a tile), with every meeple of its top row on
    r0c0: a stack of 18, past every budget."""
    top = [replace(cell, meeples="") for cell in pos.board[0]]
    gathered = "".join(cell.meeples for cell in pos.board[0])
    top[0] = replace(top[0], meeples="".join(sorted(gathered, key=FT.COLOURS.index)))
    return validate(replace(pos, board=(tuple(top), *pos.board[1:])))


def _sowing_counts(pos: Position) -> dict[str, int | None]:
    """The six counts of docs/games/five-tribes.md §7.3 for the board (``sowings.counts``:
    ``distinct_outcomes`` None beyond its budget)."""
    return sowings.counts(FT.meeples(encode(pos)), FT.END_RULES.index(pos.end_rule))


def moves(pos: Position) -> tuple[dict[str, int | None], list[str]]:
    """Every legal sowing on the board: the counts of docs/games/five-tribes.md §7.3 and
    ``listed``, and each full sequence in words, ``r2c2>r2c3:Y>r2c4:W``, in enumeration
    order up to ``sowings.MOVES_LISTED`` (§19.3)."""
    validate(pos)
    names = _sowing_counts(pos)
    starts, paths, colours, lengths = sowings.listed(
        FT.meeples(encode(pos)), FT.END_RULES.index(pos.end_rule), names["full_sequences"])
    labels = [sowing_label(s, p[:n], c[:n]) for s, p, c, n in zip(starts, paths, colours, lengths)]
    return {**names, "listed": len(labels)}, labels


def odds(pos: Position, *, samples: int | None = None, seed: int = 0,
         target_se: float | None = None, policy: str = "heuristic",
         progress: Callable[[int, int], None] | None = None) -> dict:
    """The standings now, exactly: every player's final score by part if the game ended
    here (docs/games/five-tribes.md §13), and the sowing counts of the board; beside them,
    by rollouts of the whole game under ``policy`` in every seat (§21): every player's
    chance to win and expected final score with standard errors: ``samples`` rollouts, or
    until every win probability's SE is at most ``target_se`` (``samples`` at most:
    ``rollouts.standings``)."""
    validate(pos)
    st = encode(pos)
    scores = FT.state_scores(st)
    ahead = rollouts.standings(pos, rollouts=samples, policy=policy, seed=seed,
                               target_se=target_se, progress=progress)
    return {
        "game": NAME,
        "standings": [{"player": p, **{k: int(v) for k, v in zip(FT.SCORE_PARTS, row)},
                       "win_p": float(ahead.win[p]), "win_se": float(ahead.win_se[p]),
                       "final": float(ahead.score[p]), "final_se": float(ahead.score_se[p])}
                      for p, row in enumerate(scores)],
        "sowings": _sowing_counts(pos),
        "provenance": {"game": NAME, "variant": pos.variant, "oddsbot": __version__,
                       "position": pos.to_notation(),
                       "standings": "exact: final scores if the game ended now"
                                    + _secret_words(pos),
                       "win_p": "rollouts: the chance to win (most VP; ties share), and "
                                "final: the expected final score (VP)",
                       "seed": seed, "rollouts": ahead.rollouts,
                       "target_se": None,
                       **montecarlo.target_provenance(ahead.target_se,
                                                      float(ahead.win_se.max())),
                       "policy": policy, "rollout_policy": rollouts.POLICY_WORDS[policy],
                       "secret_gold": rollouts.SECRET_GOLD_WORDS,
                       "unseen": rollouts.UNSEEN_WORDS},
    }


def _secret_words(pos: Position) -> str:
    """How the standings count secret gold (docs/games/five-tribes.md §14.13), if any."""
    secret = [f"p{p} {lo}-{hi}" for p, player in enumerate(pos.players)
              if player.gold_range is not None for lo, hi in [player.gold_range]]
    return ("; secret gold counted at its interval's midpoint (" + ", ".join(secret) + ")"
            if secret else "")


COUNT_WORDS = {  # the sowing counts of docs/games/five-tribes.md §7.3, in table words
    "full_sequences": "moves", "distinct_outcomes": "distinct outcomes",
    "distinct_paths": "walks", "distinct_path_endcolour": "walks by last colour",
    "distinct_start_end_colour": "(start, end, colour) choices",
    "start_tiles_with_a_move": "start tiles with a move"}


def counts_line(counts: dict[str, int | None]) -> str:
    """The sowing counts of ``moves`` or ``odds`` in words: ``1,174 moves · 1,174
    distinct outcomes · …``, and how many moves are listed when not all are."""
    words = [f"distinct outcomes not counted (over {sowings.OUTCOME_WALKS:,} walks)"
             if v is None else f"{v:,} {COUNT_WORDS[k]}"
             for k, v in counts.items() if k in COUNT_WORDS]
    listed = counts.get("listed", counts["full_sequences"])
    if listed < counts["full_sequences"]:
        words.append(f"listing the first {listed:,} (the limit)")
    return " · ".join(words)


def odds_view(result: dict, wide: bool = False, people: bool = True
              ) -> tuple[Table, str]:
    """The ``odds`` result as a table and its caption: every player's final score by part
    if the game ended now, then the rollouts' chance to win and expected final score.
    Compact: a row per part and a column per player (fits 80 columns); ``wide``: a row per
    player with the standard errors (the names are the same for ``people`` and tools)."""
    df = pd.DataFrame(result["standings"])
    prov = result["provenance"]
    caption = (f"gold ... total: final scores if the game ended now · win_p, final: "
               f"{prov['rollouts']:,} rollouts, every seat {prov['policy']}, seed "
               f"{prov['seed']}" + ("" if wide else
                                    f" (SE at most: win_p {df['win_se'].max():.4f}, final "
                                    f"{df['final_se'].max():.2f})")
               + montecarlo.target_words(prov)
               + f" · sowings: {counts_line(result['sowings'])}"
               + "".join(f" · {part.strip()}" for part in
                         prov["standings"].split(";")[1:]))
    if wide:
        return Table.from_frame(df), caption
    shown = [c for c in df.columns if c not in ("player", "win_se", "final_se")]
    rows = [{"part": name, **{f"player {p}": row[name] for p, row in enumerate(
        result["standings"])}} for name in shown]
    return Table.from_dicts(rows, ["part"] + [f"player {p}" for p in df["player"]]), caption


def rollout_words(pos: Position, prov: dict) -> str:
    """The caption's words on the rollouts: the columns shown, those ``--wide`` adds (the
    compact turn table leaves out the gap), and which rows were rolled out."""
    bidding = pos.phase == "bidding"
    rolled = "every bid" if bidding else f"{prov['candidates']} turns (--candidates)"
    return (f" · win_p (±: its SE), p_best: {prov['rollouts']:,} rollouts of {rolled}, "
            f"every seat {prov['policy']}, seed {prov['rollout_seed']} · --wide adds "
            + ("" if bidding else "gap (exact, as ev is), ")
            + "gap_se (the SE of win_p's gap to the best), margin (final VP over the best "
              "other) and margin_se"
            + ("; ev and gap are the bid model's, no SE" if bidding else
               f" · {equity.candidates_words(prov, 'turns')}"))


def advise_caption(pos: Position, prov: dict) -> str:
    """The caption of the terminal EV table."""
    rolled = rollout_words(pos, prov) if "rollouts" in prov else ""
    if pos.phase == "bidding":
        return (f"{prov['variant']} · player {player_name(pos, pos.to_move)} bids · ev = best exact turn value "
                f"at that place - cost, in VP (earlier markers play greedily; later bidders "
                f"not modelled)" + rolled)
    caption = (f"{prov['variant']} · player {player_name(pos, pos.to_move)} to move · exact change in final "
               f"score (VP) if the game ended after the turn · --wide: by part, and count = "
               f"sowings and choices of equal effect merged")
    sampling = prov.get("sampling")
    if sampling:
        caption += (f" · sampled: only the turns of {sampling['drawn']:,} of "
                    f"{sampling['sowings']:,} sowings drawn (seed {sampling['seed']}; "
                    f"docs/games/five-tribes.md §19.1.1), count estimated")
    return caption + rolled
