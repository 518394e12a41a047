"""Mumia's face (``GameFace`` of ``analyser/face.py``, declared in ``__init__.py``):
``parse``, ``Position``, ``validate``, ``legal_actions``, ``moves``, ``advise``, ``odds``,
``new_position``, ``simulate``, ``play`` and ``with_rules``; play-along (``PlayFace``):
``outcomes``, ``apply``, ``record_text``, ``record_moves`` and ``player_name``; arena seats
(``SeatsFace``, ``seats.py``): ``deal``, ``seat_view``, ``choose``, ``step``,
``game_result``, ``candidates`` and ``playouts``."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ...errors import OddsbotError, quote
from ...inputs import read_position
from .. import montecarlo
from ..player_odds import players_view
from ..table import Table
from . import GAME, record
from . import advise as _advise
from .encode import encode
from .labels import roll_text
from .notation import NOTATION_KEYS, parse_notation
from .odds import odds as _odds
from .play import apply, outcomes, player_name, record_moves, record_text
from .seats import (candidates, choose, deal, game_result, playouts, seat_view,
                    seated_record, step)
from .position import VARIANT_SETS, Position
from .simulate import POLICIES, new_position, play, simulate
from .turns import choices
from .validate import over, validate

NAME = GAME.name
VARIANTS = GAME.variants

__all__ = ["NAME", "VARIANTS", "NOTATION_KEYS",
           "POLICIES", "Position", "advise", "advise_caption", "apply", "candidates",
           "choose", "counts_line", "deal", "game_result", "legal_actions", "moves",
           "new_position", "odds", "odds_view", "outcomes", "parse", "parse_as", "play",
           "player_name", "playouts", "record", "record_moves", "record_text", "seat_view",
           "seated_record",
           "simulate", "step", "table_view", "validate", "warm_up", "with_rules"]


def parse(text: str) -> Position:
    """A position from its JSON text or one-line notation."""
    return read_position(text, Position.from_json, parse_notation)


def parse_as(text: str, variant: str) -> Position:
    """A position read under rules ``variant``: its expansions (and end rule) must be
    the variant's."""
    pos = parse(text)
    if VARIANT_SETS[variant] != pos.expansions or \
            (variant == "mumia-sudden") != pos.rules.sudden_end:
        raise OddsbotError(f"variant: the position is {quote(pos.variant)} (expansions "
                           f"{','.join(pos.expansions) or 'none'}) but --variant is "
                           f"{variant!r}")
    return pos


def with_rules(pos: Position, given: Mapping[str, str]) -> Position:
    """``pos`` with rule parameters set (``--rule NAME=VALUE``)."""
    return pos.with_(rules=pos.rules.with_(given, "--rule"))


def legal_actions(pos: Position) -> list[str]:
    """Every roll's choices, each as ``<roll> <label>`` (``4,PM pawn 2``); where the
    position holds the roll drawn (§18), that roll's only."""
    validate(pos)
    if over(pos):
        return []
    enc = encode(pos)
    out = []
    for n, sym, _ in _advise.rolls(enc, pos.roll):
        out += [f"{roll_text(n, sym)} {label}" for label in choices(enc.S, enc.R, n, sym)[1]]
    return out


def moves(pos: Position) -> tuple[dict[str, int], list[str]]:
    """The choices of every roll, and how many rolls and choices there are."""
    labels = legal_actions(pos)
    return {"rolls": len({x.split()[0] for x in labels}), "choices": len(labels)}, labels


def counts_line(counts: dict[str, int]) -> str:
    """``moves``' counts in words: ``52 choices over 18 rolls``."""
    return f"{counts['choices']:,} choices over {counts['rolls']} rolls"


def advise(pos: Position, *, samples: int | None = None, seed: int = 0,
           target_se: float | None = None,
           progress: Callable[[int, int], None] | None = None, roll: str = "",
           rollouts: int | None = None, policy: str | None = None,
           candidates: int | None = None, rollout_target_se: float | None = None) -> Table:
    """The EV table (``advise.advise``); ``--rollouts N`` forces N rollouts per choice
    (``--policy`` for every seat), as ``--samples N`` does, ``--target-se`` stopping them
    as it stops ``--samples``."""
    if candidates is not None:
        raise OddsbotError("--candidates: Mumia rolls out every choice of a roll")
    if rollouts is not None:
        samples = rollouts
    return _advise.advise(pos, samples=samples, seed=seed, progress=progress, roll=roll,
                          policy=policy, target_se=target_se)


ON_WORDS = "on: the field the piece to move stands on now, counted from START = 0"


def advise_caption(pos: Position, prov: dict) -> str:
    """The caption of the terminal EV table: who moves, what ev is, where the ``on``
    column counts from, the roll and how the values were found."""
    how = ("exact: expectimax over the dice, the mover at its best, the others "
           f"{prov['policy']}" if prov["method"] == "exact" else
           f"{prov['samples']:,} rollouts a choice, every seat {prov['policy']}, "
           f"seed {prov['seed']}; --wide: gap_se, the SE of the gap (paired rollouts)"
           ) + montecarlo.target_words(prov)
    head = (f"player {player_name(pos, pos.to_move)} to move · ev: expected change of final "
            f"score · {ON_WORDS}")
    if prov["roll"]:
        return f"{head} · roll {prov['roll']} · {how}"
    value = prov["value_before_roll"]
    rolls = ("every roll" if prov.get("roll_chance") is None else
             f"every roll, each p_roll {prov['roll_chance']:.3f}")
    return (f"{head} · {rolls} · before rolling: ev {value['ev']:+.3f}, win "
            f"{value['win_p']:.3f} · {how}")


def table_view(table: Table, wide: bool = False) -> Table:
    """The EV table as people read it: action, the field its piece stands on (``on``),
    ev, se, gap, win_p and its SE (``±``, the JSON's ``win_se``; both SEs empty when
    exact); without --roll the roll's chance too, where the rolls' chances differ (else
    the caption gives it); ``wide``: also ``gap_se`` (the SE of the gap, beside it), the
    method and the roll."""
    exact = [m == "exact" for m in table["method"]]

    def sampled(name: str) -> list:
        return [None if x else v for x, v in zip(exact, table[name])]

    columns = {"action": table["action"], "on": table["on"], "ev": table["ev"],
               "se": sampled("se"), "gap": table["gap"]}
    if wide:
        columns["gap_se"] = sampled("gap_se")
    columns.update({"win_p": table["win_p"], "±": sampled("win_se")})
    if table.provenance.get("roll") is None and (
            wide or table.provenance.get("roll_chance") is None):
        columns["p_roll"] = table["p_roll"]
    if wide:
        columns.update(method=table["method"], roll=table["roll"])
    return Table.from_columns(columns)


def odds(pos: Position, *, samples: int | None = None, seed: int = 0,
         target_se: float | None = None,
         progress: Callable[[int, int], None] | None = None) -> dict:
    """Every player's chance to win and expected final score (``odds.odds``), before
    the mover's roll: a position holding its roll drawn (§18) is refused."""
    if pos.roll is not None:
        raise OddsbotError(f"position: it holds the roll drawn ({pos.roll}); odds values a "
                           f"position before its roll: advise values that roll (§18)")
    return _odds(pos, samples=samples, seed=seed, target_se=target_se, progress=progress)


def odds_view(result: dict, wide: bool = False, people: bool = True) -> tuple[Table, str]:
    """One row per player: win probability and expected score, each with its SE (none
    when exact; ``wide``: the seat too)."""
    prov = result["provenance"]
    how = ("exact over the dice" if prov["method"] == "exact" else
           f"{prov['samples']:,} sampled games, seed {prov['seed']}")
    return players_view(result, "wins or shares the win", how, wide)


def warm_up() -> None:
    """Compile (or load from the cache) every kernel the commands use."""
    for expansions in ("", "all"):
        pos = new_position(4, 1, NAME, expansions)
        advise(pos, samples=8, seed=1, roll="3,PM")
        odds(pos, samples=8, seed=1)
        for policy in POLICIES:
            play(3, 1, NAME, policy, expansions)
    late = simulate(new_position(2, 3, NAME), seed=3, policy="heuristic").turns[-3].before
    advise(late, seed=1)
    odds(late)
    record.warm_up()
