"""Kingdom Run's face (``GameFace`` of ``analyser/face.py``, declared in ``__init__.py``):
``parse``, ``Position``, ``validate``, ``legal_actions``, ``moves``, ``advise``, ``odds``,
``new_position``, ``simulate``, ``play`` and ``with_rules``."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ...errors import OddsbotError, quote
from ...inputs import read_position
from ..table import Table
from . import GAME, record
from . import advise as _advise
from .encode import rules_vector, state_vector
from .notation import NOTATION_KEYS, parse_notation
from .odds import odds as _odds
from .position import Position
from .simulate import POLICIES, final, new_position, play, simulate
from .turns import keep_choices, over, phase, sequences
from .validate import validate
from .variants import variant_of

NAME = GAME.name
VARIANTS = GAME.variants

__all__ = ["NAME", "VARIANTS", "NOTATION_KEYS",
           "POLICIES", "Position", "advise", "advise_caption",
           "counts_line", "final_result", "legal_actions", "moves", "new_position", "odds",
           "odds_view", "parse", "parse_as", "play", "record", "simulate", "table_view",
           "validate", "warm_up", "with_rules"]


def parse(text: str) -> Position:
    """A position from its JSON text or one-line notation."""
    return read_position(text, Position.from_json, parse_notation)


def parse_as(text: str, variant: str) -> Position:
    """A position read under rules ``variant``: its rules must be the variant's."""
    pos = parse(text)
    if variant_of(pos.rules) != variant:
        raise OddsbotError(f"variant: the position's rules are {quote(pos.variant)} but "
                           f"--variant is {variant!r}")
    return pos


def with_rules(pos: Position, given: Mapping[str, str]) -> Position:
    """``pos`` with rule parameters set (``--rule NAME=VALUE``)."""
    return pos.with_(rules=pos.rules.with_(given, "--rule"))


def final_result(pos: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(scores, winners) of a finished position (§9)."""
    return final(state_vector(pos), rules_vector(pos.rules))


def legal_actions(pos: Position) -> list[str]:
    """The decision's choices: the keep-sets of a roll not yet re-rolled, else every
    distinct action sequence (the best ``turns.LIST_MOST`` where there are more)."""
    validate(pos)
    if over(pos):
        return []
    if phase(pos) == "roll":
        raise OddsbotError("roll: the position has no roll yet; the choices depend on it "
                           "(give it with 'advise --roll')")
    if phase(pos) == "keep":
        return [label for label, _ in keep_choices(pos)]
    return sequences(pos).labels


def moves(pos: Position) -> tuple[dict[str, int], list[str]]:
    """The decision's choices and how many there are."""
    validate(pos)
    if over(pos):
        raise _advise.game_over(pos)
    labels = legal_actions(pos)
    if phase(pos) == "act" and not over(pos):
        return {"sequences": sequences(pos).total, "listed": len(labels)}, labels
    return {"keep-sets": len(labels)}, labels


def counts_line(counts: dict[str, int]) -> str:
    """``moves``' counts in words."""
    if "keep-sets" in counts:
        return f"{counts['keep-sets']} keep-sets"
    more = "" if counts["listed"] == counts["sequences"] else \
        f" (the best {counts['listed']:,} listed)"
    return f"{counts['sequences']:,} distinct turns{more}"


def advise(pos: Position, *, samples: int | None = None, seed: int = 0,
           target_se: float | None = None,
           progress: Callable[[int, int], None] | None = None, roll: str = "",
           rollouts: int | None = None, policy: str | None = None,
           candidates: int | None = None, rollout_target_se: float | None = None) -> Table:
    """The EV table (``advise.advise``): exact values (nothing is sampled; ``--samples``
    does not apply), or with ``--rollouts N`` rollout equity."""
    return _advise.advise(pos, samples=rollouts, seed=seed, roll=roll, policy=policy,
                          candidates=candidates, progress=progress)


def advise_caption(pos: Position, prov: dict) -> str:
    """The caption of the terminal EV table."""
    head = f"p{pos.to_move + 1} ({pos.clans[pos.to_move]}) to move"
    if prov["method"] == "monte-carlo":
        return (f"{head} · ev: expected final margin over the best other player · "
                f"{prov['rollouts']:,} rollouts a choice, every seat {prov['policy']}, "
                f"seed {prov['seed']}")
    what = "ev: score minus the best other's after the turn"
    if prov["decision"] == "keep":
        greedy = prov.get("greedy_rows", 0)
        how = ("exact over every re-roll, the best sequence of each" +
               ("" if not greedy else f"; {greedy} of {prov['rows']} rows rest on final "
                f"rolls with too many sequences to search, valued by the greedy one "
                f"(method greedy, --wide)"))
        return f"{head} · re-roll · {what}, expected · {how}"
    listed = ("" if prov["listed"] == prov["positions"] else
              f", the best {prov['listed']:,} listed")
    return f"{head} · {what} · {prov['positions']:,} distinct turns{listed}"


def table_view(table: Table, wide: bool = False) -> Table:
    """The EV table as people read it in 80 columns: action, ev, se (empty when exact or
    greedy), gap; with rollouts action, ev, se, win_p; ``wide``: every column."""
    sampled = [m == "monte-carlo" for m in table["method"]]
    se = [v if x else None for x, v in zip(sampled, table["se"])]
    if "win_p" in table.columns and not wide:
        return Table.from_columns({"action": table["action"], "ev": table["ev"], "se": se,
                                   "win_p": table["win_p"]})
    columns = {"action": table["action"], "ev": table["ev"], "se": se, "gap": table["gap"]}
    if wide:
        columns["method"] = table["method"]
        for name in ("win_p", "win_se", "gap_se", "p_best", "evaluation"):
            if name in table.columns:
                columns[name] = table[name]
    return Table.from_columns(columns)


def odds(pos: Position, *, samples: int | None = None, seed: int = 0,
         target_se: float | None = None,
         progress: Callable[[int, int], None] | None = None) -> dict:
    """Every player's chance to win and expected final score (``odds.odds``)."""
    return _odds(pos, samples=samples, seed=seed, progress=progress)


def odds_view(result: dict, wide: bool = False, people: bool = True) -> tuple[Table, str]:
    """One row per player: win probability and expected score (``wide``: their SEs)."""
    rows = result["players"]
    names = ["player", "win_p", "score"] + (["win_se", "score_se"] if wide else [])
    table = Table.from_dicts(rows, names)
    prov = result["provenance"]
    return table, (f"win_p: wins (a shared win 1/k) · score: expected final score · "
                   f"{prov['policy']} · {prov['samples']:,} sampled games, seed "
                   f"{prov['seed']}")


def warm_up() -> None:
    """Compile (or load from the cache) every kernel the commands use."""
    pos = new_position(4, 1, NAME)
    advise(pos, seed=1)
    advise(pos, seed=1, rollouts=4)
    odds(pos, samples=8, seed=1)
    for policy in POLICIES:
        play(3, 1, NAME, policy)
    late = simulate(new_position(2, 3, NAME), seed=3, policy="heuristic").turns[-2]
    advise(late.after, seed=1, roll="SCBY")
    record.warm_up()
