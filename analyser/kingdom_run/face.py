"""Kingdom Run's face (``GameFace`` of ``analyser/face.py``, declared in ``__init__.py``):
``parse``, ``Position``, ``validate``, ``legal_actions``, ``moves``, ``advise``, ``odds``,
``new_position``, ``simulate``, ``play`` and ``with_rules``; play-along (``PlayFace``):
``outcomes``, ``apply``, ``record_text``, ``record_moves`` and ``player_name``; arena
seats (``SeatsFace``, ``seats.py``): ``deal``, ``seat_view``, ``choose``, ``step``,
``game_result``, ``candidates`` and ``playouts``."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ...errors import OddsbotError, quote
from ...inputs import read_position
from ..equity import candidates_words
from ..player_odds import players_view
from ..table import Table
from . import GAME, record
from . import advise as _advise
from .encode import rules_vector, state_vector
from .labels import wrapped
from .notation import NOTATION_KEYS, parse_notation
from .odds import odds as _odds
from .play import apply, outcomes, player_name, record_moves, record_text
from .position import Position
from .seats import (candidates, choose, deal, game_result, playouts, seat_view,
                    seated_record, step)
from .simulate import POLICIES, final, new_position, play, simulate
from .turns import ROLL, keep_choices, over, phase, sequences
from .validate import validate
from .variants import variant_of

NAME = GAME.name
VARIANTS = GAME.variants

__all__ = ["NAME", "VARIANTS", "NOTATION_KEYS",
           "POLICIES", "Position", "advise", "advise_caption", "apply", "candidates",
           "choose", "counts_line", "deal", "final_result", "game_result", "legal_actions",
           "moves", "new_position", "odds", "odds_view", "outcomes", "parse", "parse_as",
           "play", "player_name", "playouts", "record", "record_moves", "record_text",
           "seat_view", "seated_record", "simulate", "step", "table_view", "validate", "warm_up",
           "with_rules"]


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
    """The decision's choices: ``roll`` before the dice (the one row ``advise`` offers,
    §17), the keep-sets of a roll not yet re-rolled, else every distinct action sequence
    (the best ``turns.LIST_MOST`` where there are more)."""
    validate(pos)
    if over(pos):
        return []
    if phase(pos) == "roll":
        return [ROLL]
    if phase(pos) == "keep":
        return [label for label, _ in keep_choices(pos)]
    return sequences(pos).labels


def moves(pos: Position) -> tuple[dict[str, int], list[str]]:
    """The decision's choices and how many there are."""
    validate(pos)
    if over(pos):
        raise _advise.game_over(pos)
    if phase(pos) == "roll":
        raise OddsbotError("roll: the position has no roll yet; the choices depend on it "
                           "(give it with 'advise --roll'; to play on, the action 'roll')")
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
    does not apply, and ``--target-se`` is refused), or with ``--rollouts N`` rollout
    equity (``--target-se`` stops it once the best choice is separated)."""
    if rollouts is None and target_se is not None:
        raise OddsbotError("--target-se: kingdom-run advise samples nothing without "
                           "--rollouts (its values are exact, or the greedy sequence's)")
    return _advise.advise(pos, samples=rollouts, seed=seed, roll=roll, policy=policy,
                          candidates=candidates, progress=progress,
                          target_se=rollout_target_se)


ON_WORDS = "on: where the runner of each catchup, bath, sleep or wake step stands"
TURN_EV = "turn ev"  # the terminal's header of ``ev`` valued on this turn (JSON: ``ev``)
FINAL_EV = "final ev"  # ... and of ``ev`` from rollouts, the final margin


def advise_caption(pos: Position, prov: dict) -> str:
    """The caption of the terminal EV table: first ``lower bound`` where rows rest on the
    greedy sequence, then what ``ev`` (headed ``turn ev`` or ``final ev``) measures."""
    head = f"p{player_name(pos, pos.to_move)} ({pos.clans[pos.to_move]}) to move"
    if prov["decision"] == "roll":
        return (f"{head} · no roll yet: the one action is 'roll', its outcomes the dice "
                f"(--roll ROLL: the choices of a roll) · {TURN_EV}: score minus the best "
                f"other's now")
    if prov["method"] == "monte-carlo":
        how = (f"{prov['rollouts']:,} rollouts a choice, every seat {prov['policy']}, "
               f"seed {prov['seed']}")
        if prov["decision"] == "act":
            how += f" · {ON_WORDS} · {candidates_words(prov, 'sequences')} (--candidates)"
        return (f"{head} · {FINAL_EV}: expected final margin over the best other player · "
                f"{how}")
    what = f"{TURN_EV}: score minus the best other's after this turn"
    if prov["decision"] == "keep":
        return _keep_caption(head, what, prov)
    listed = ("" if prov["listed"] == prov["positions"] else
              f", the best {prov['listed']:,} listed")
    return f"{head} · {what} · {ON_WORDS} · {prov['positions']:,} distinct turns{listed}"


def _keep_caption(head: str, what: str, prov: dict) -> str:
    """The re-roll table's caption: ``lower bound`` first where rows rest on the greedy
    sequence; the ranking is of this turn, --rollouts ranks by the final margin."""
    greedy, rows = prov.get("greedy_rows", 0), prov["rows"]
    if not greedy:
        how = "exact over every re-roll, the best sequence of each"
    else:
        which = (": every row values" if greedy == rows else
                 f" on {greedy} of {rows} rows: they value")
        how = (f"lower bound{which} some final rolls by the greedy sequence, not the best "
               f"({prov['greedy_rolls']} of {prov['final_rolls']} final rolls need more "
               f"than the table's {prov['search_budget']:,} states of search; method "
               f"greedy, --wide)")
    text = (f"{head} · re-roll · {what}, expected · ranks by this turn; --rollouts N ranks "
            f"by the final margin ({FINAL_EV})")
    return f"{how} · {text}" if greedy else f"{text} · {how}"


def table_view(table: Table, wide: bool = False) -> Table:
    """The EV table as people read it in 80 columns: action, where its runners stand
    (``on``, after the re-roll), ev headed ``turn ev`` (exact or greedy; se empty) or
    ``final ev`` (rollouts, with se, win_p and its SE ``±``, the JSON's ``win_se``), gap;
    a label too long for 80 columns broken before a `` > ``. ``wide``: every column, labels on one line. The JSON keeps
    the key ``ev`` for both."""
    sampled = [m == "monte-carlo" for m in table["method"]]
    se = [v if x else None for x, v in zip(sampled, table["se"])]
    columns = {"action": table["action"]}
    if "on" in table.columns:
        columns["on"] = table["on"]
    columns.update({FINAL_EV if any(sampled) else TURN_EV: table["ev"], "se": se})
    if "win_p" in table.columns and not wide:
        columns.update({"win_p": table["win_p"], "±": table["win_se"]})
    else:
        columns["gap"] = table["gap"]
    if not wide:
        return Table.from_columns(fitted(columns))
    columns["method"] = table["method"]
    for name in ("win_p", "win_se", "gap_se", "p_best", "evaluation"):
        if name in table.columns:
            columns["±" if name == "win_se" else name] = table[name]
    return Table.from_columns(columns)


def fitted(columns: dict[str, list], width: int = 80) -> dict[str, list]:
    """``columns`` with the labels broken before a `` > `` where the table would be wider
    than ``width`` (cells as the terminal writes them: 3 decimals; empty columns left
    out)."""
    def cell(v: object) -> str:
        return "" if v is None else f"{v:.3f}" if isinstance(v, float) else str(v)

    others = sum(max(len(name), *(len(cell(v)) for v in values)) + 3
                 for name, values in columns.items()
                 if name != "action" and any(v is not None for v in values))
    room = width - 4 - others
    return {**columns, "action": [a if len(a) <= room else wrapped(a, room)
                                  for a in columns["action"]]}


def odds(pos: Position, *, samples: int | None = None, seed: int = 0,
         target_se: float | None = None,
         progress: Callable[[int, int], None] | None = None) -> dict:
    """Every player's chance to win and expected final score (``odds.odds``)."""
    return _odds(pos, samples=samples, seed=seed, target_se=target_se, progress=progress)


def odds_view(result: dict, wide: bool = False, people: bool = True) -> tuple[Table, str]:
    """One row per player: win probability and expected score, each with its SE
    (``wide``: the clan too)."""
    prov = result["provenance"]
    return players_view(result, "wins (a shared win 1/k)",
                        f"{prov['samples']:,} sampled games, seed {prov['seed']}", wide)


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
