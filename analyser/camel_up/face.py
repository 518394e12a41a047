"""Camel Up's face (``GameFace`` of ``analyser/face.py``, declared in ``__init__.py``):
``parse``, ``Position``, ``validate``, ``legal_actions``, ``moves``, ``advise``, ``odds``,
``new_position``, ``simulate``, ``play``, game records (``record``), and play-along
(``apply``, ``outcomes``, ``record_text``, ``record_moves``, ``player_name``: ``play.py``)
and arena seats (``deal``, ``seat_view``, ``choose``, ``step``, ``game_result``,
``candidates``, ``playouts``: ``seats.py``)."""

from __future__ import annotations

from collections.abc import Callable

from ... import __version__
from ...errors import OddsbotError, quote
from ...inputs import read_position
from ...strict import load_json
from .. import montecarlo
from ..table import Table
from . import record
from .advise import (DECK_MODEL_WORDS, DECK_MODELS, advise, check_action, legal_actions,
                     table_view)
from ..play_common import seat_number as player_name
from .notation import NOTATION_KEYS, parse_notation
from .play import apply, outcomes, record_moves, record_text
from .seats import (candidates, choose, deal, game_result, playouts, seat_view,
                    seated_record, step)
from .odds import (EXACT_BUDGET, LEG_ASSUMPTION, RACE_POLICY, leg_odds, race_block,
                   race_odds)
from .position import Card, Position, Tile
from .variants import variant as rules_of
from .rollouts import HIDDEN_MODELS
from .simulate import POLICIES, new_position, simulate
from .validate import validate
from . import GAME

NAME = GAME.name
VARIANTS = GAME.variants

__all__ = ["NAME", "VARIANTS", "NOTATION_KEYS",
           "record", "DECK_MODELS", "POLICIES", "Card", "Position",
           "Tile", "advise", "advise_caption", "check_action", "counts_line", "legal_actions",
           "moves", "new_position", "odds", "odds_view", "parse", "parse_as", "play", "simulate",
           "table_view", "validate", "warm_up",
           "apply", "outcomes", "player_name", "record_moves", "record_text",
           "candidates", "choose", "deal", "game_result", "playouts", "seat_view",
           "seated_record", "step"]


def parse(text: str) -> Position:
    """A position from its JSON text or one-line notation."""
    return read_position(text, Position.from_json, parse_notation)


def parse_as(text: str, variant: str) -> Position:
    """A position read under rules ``variant`` (the text may name only the base game or
    that variant)."""
    stripped = text.strip()
    if stripped.startswith("{"):
        data = load_json(stripped)
        given = data.get("variant")
        if given is not None and given != variant:
            raise OddsbotError(f"variant: the position says {quote(given)} but --variant "
                               f"is {variant!r}")
        return Position.from_json({**data, "variant": variant})
    first, _, rest = stripped.partition(" ")
    if first not in (NAME, variant):
        raise OddsbotError(f"variant: the position says {quote(first)} but --variant is "
                           f"{variant!r}")
    return parse_notation(f"{variant} {rest}")


def odds(pos: Position, *, samples: int | None = None, seed: int = 0,
         target_se: float | None = None, exact_budget: str = EXACT_BUDGET,
         progress: Callable[[int, int], None] | None = None) -> dict:
    """Exact leg odds, and race odds exact within ``exact_budget`` seconds, else Monte
    Carlo (the ``oddsbot odds`` JSON object)."""
    validate(pos)
    plan = montecarlo.Plan.of(samples, target_se, GAME.target_se["odds"])
    race = race_odds(pos, plan, seed, progress, exact_budget)
    target = ({"target_se": None} if race.method == "exact" else
              montecarlo.target_provenance(plan.target_se, race.worst_se()))
    return {
        "game": NAME,
        "leg": leg_odds(pos),
        "race": race_block(pos, race),
        "provenance": {
            "game": NAME, "variant": pos.variant, "oddsbot": __version__,
            "position": pos.to_notation(), "seed": seed, "samples": race.samples,
            "target_se": None, **target,
            "leg": "exact enumeration", "race": race.method, "race_states": race.states,
            "exact_budget": exact_budget, "race_policy": RACE_POLICY,
        },
    }


def play(players: int, seed: int, variant: str, policy: str) -> str:
    """A whole game from a new start under ``policy``, as a record (``record.play``)."""
    return record.play(players, seed, variant, policy)


def warm_up() -> None:
    """Compile (or load from the cache) every kernel the commands use, on small inputs:
    the EV table under every deck model and with rollouts under every rollout policy and
    hidden-card model, the odds, a whole game under every policy and its record replayed,
    and the odds of a 2014 start, whose race always fits the default budget: the exact
    race's solver, which a race over budget never calls (docs/games/camel-up.md §9.1;
    ``oddsbot warm-up``)."""
    pos = new_position(4, 1, NAME)
    for model in DECK_MODELS:
        advise(pos, samples=1024, seed=1, deck_model=model)
    for policy in GAME.rollout_policies:
        for hidden in HIDDEN_MODELS:
            advise(pos, samples=1024, seed=1, rollouts=16, policy=policy, hidden=hidden)
    odds(pos, samples=1024)
    for policy in POLICIES:
        text = record.play(4, 1, NAME, policy)
    record.annotate(record.load_record(text)[1][:2], samples=1024)
    odds(new_position(4, 1, "camel-up-2014"))


def moves(pos: Position) -> tuple[dict[str, int], list[str]]:
    """The legal actions of the player to move, and how many there are."""
    labels = legal_actions(pos)
    return {"actions": len(labels)}, labels


def counts_line(counts: dict[str, int]) -> str:
    """``moves``' count in words: ``38 legal actions``."""
    return f"{counts['actions']:,} legal actions"


def race_words(variant_name: str) -> str:
    """``RACE_POLICY`` as a caption says it, in the variant's word for the tiles."""
    return f"race: later legs dice only, no {rules_of(variant_name).tile_word} tiles"


def advise_caption(pos: Position, prov: dict) -> str:
    """The caption of the terminal EV table: the leg's, the race's and the hidden
    cards' models (``deck_model``, ``--hidden``), the samples."""
    return (f"{prov['variant']} · player {player_name(pos, pos.to_move)} to move · EV in EP "
            f"· leg exact, {LEG_ASSUMPTION}"
            + (f" · race MC {prov['samples']:,} samples, seed {prov['seed']}"
               + montecarlo.target_words(prov) if "samples" in prov else "")
            + (f" · race exact ({prov['race_states']:,} states)"
               if "race_states" in prov else "")
            + (f" · {race_words(pos.variant)} · bets: {DECK_MODEL_WORDS[prov['deck_model']]}"
               " (--deck-model)" if "deck_model" in prov else "")
            + (f" · {prov['rollouts']:,} rollouts, {prov['policy']} policy, hidden cards "
               f"{prov['hidden_cards']} (--hidden), margin in EP" if "rollouts" in prov
               else ""))


PLACES = ("1st", "2nd", "3rd", "4th", "5th")  # leg places as people read them
PLACE_COLUMNS = ("leg_1", "leg_2", "leg_3", "leg_4", "leg_5")  # as CSV has them for tools


def odds_view(result: dict, wide: bool = False, people: bool = True
              ) -> tuple[Table, str]:
    """The ``odds`` result as a table (one row per camel: its chance of each place at the
    end of this leg, of winning and of losing the race) and its caption. Compact: the
    race SEs are summed up in the caption; ``wide``: a column each. Places are ``1st`` …
    for ``people``, else ``leg_1`` … (the CSV's stable names)."""
    leg, race = result["leg"], result["race"]
    rows = []
    for colour, places in leg["rank_probabilities"].items():
        row = {"camel": colour}
        row.update(dict(zip(PLACES if people else PLACE_COLUMNS, places)))
        row.update(race_win=race["winner"][colour]["p"], win_se=race["winner"][colour]["se"],
                   race_lose=race["loser"][colour]["p"], lose_se=race["loser"][colour]["se"])
        rows.append(row)
    table = Table.from_dicts(rows, list(rows[0]))
    landings = ", ".join(f"{s}: {x:.3f}" for s, x in leg["tile_landings"].items())
    worst_se = max(table["win_se"] + table["lose_se"])
    exact = race["method"] == "exact"
    caption = (f"1st-5th: places at the end of this leg (exact, {LEG_ASSUMPTION}) · "
               "race_win, race_lose: winning and losing the race"
               + ("" if wide or exact else f" (SE at most {worst_se:.4f})")
               + f" · game ends this leg: {leg['ends_game']:.4f}"
               + (f" · tile landings {landings}" if landings else "")
               + (f" · race exact, {race['states']:,} states" if exact else
                  f" · race MC {race['samples']:,} samples, seed "
                  f"{result['provenance']['seed']}"
                  + montecarlo.target_words(result["provenance"]))
               + f" · {race_words(result['provenance']['variant'])}")
    shown = [c for c in table.columns if wide or c not in ("win_se", "lose_se")]
    return table.select(shown), caption
