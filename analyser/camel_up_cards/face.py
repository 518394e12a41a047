"""Camel Up Cards' face (``GameFace`` of ``analyser/face.py``, declared in ``__init__.py``):
``parse``, ``Position``, ``validate``, ``legal_actions``, ``moves``, ``advise``, ``odds``,
``new_position``, ``simulate`` and ``play``; the arena seats (``SeatsFace``, ``seats.py``)."""

from __future__ import annotations

from collections.abc import Callable

from ...errors import OddsbotError, quote
from ...inputs import read_position
from .. import equity, montecarlo
from ..play_common import seat_number as player_name
from ..table import Table
from . import GAME, record
from . import advise as _advise
from .notation import NOTATION_KEYS, parse_notation
from .odds import odds as _odds
from .outcomes import RACE_MODEL_SHORT
from .play import apply, legal_turns, outcomes, record_moves, record_text
from .position import Position
from .simulate import POLICIES, new_position, play, simulate
from .rollouts import with_rollouts
from .seats import (TruePosition, candidates, choose, deal, game_result, playouts,
                    seat_view, seated_record, step, validate_true)
from .validate import validate as validate_view

NAME = GAME.name
VARIANTS = GAME.variants

__all__ = ["NAME", "VARIANTS", "NOTATION_KEYS",
           "POLICIES", "Position", "advise", "advise_caption",
           "counts_line", "legal_actions", "moves", "new_position", "odds", "odds_view",
           "parse", "parse_as", "play", "record", "simulate", "table_view", "validate",
           "warm_up", "player_name", "apply", "outcomes", "record_text", "record_moves",
           "deal", "seat_view", "choose", "step", "game_result", "candidates", "playouts",
           "seated_record"]


def parse(text: str) -> Position:
    """A position from its JSON text or one-line notation."""
    return read_position(text, Position.from_json, parse_notation)


def parse_as(text: str, variant: str) -> Position:
    """A position read under rules ``variant`` (Camel Up Cards has one)."""
    pos = parse(text)
    if variant != pos.variant:
        raise OddsbotError(f"variant: the position says {quote(pos.variant)} but --variant "
                           f"is {variant!r}")
    return pos


def _check_viewer(pos: Position) -> None:
    if pos.viewer != pos.to_move:
        raise OddsbotError(f"viewer: the position is seen by seat {pos.viewer} but seat "
                           f"{pos.to_move} is to move; advice is for the player to move, "
                           f"from what they know (docs/games/camel-up-cards.md §14.1)")


def validate(pos: Position | TruePosition) -> Position | TruePosition:
    """Check a position (§6), or the arena's true position (``seats.validate_true``)."""
    return validate_true(pos) if isinstance(pos, TruePosition) else validate_view(pos)


def legal_actions(pos: Position) -> list[str]:
    """Every legal turn of the player to move, as the EV table labels it (§14.1): a bet
    is listed after the race action only where that can differ (a reveal, or a hand card
    that ends the race); elsewhere the same turn is listed bet first. On an opponent's
    turn, the turns the viewer can see them take (§15: a ``hand <colour>`` for every
    colour their hidden hand card may have)."""
    return legal_turns(pos)


def moves(pos: Position) -> tuple[dict[str, int], list[str]]:
    """The legal turns of the player to move, and how many there are."""
    labels = legal_actions(pos)
    return {"turns": len(labels)}, labels


def counts_line(counts: dict[str, int]) -> str:
    """``moves``' count in words: ``1,312 legal turns``."""
    return f"{counts['turns']:,} legal turns"


def advise(pos: Position, *, samples: int | None = None, seed: int = 0,
           target_se: float | None = None,
           progress: Callable[[int, int], None] | None = None, rollouts: int | None = None,
           policy: str | None = None, candidates: int | None = None,
           rollout_target_se: float | None = None) -> Table:
    """The EV table of every legal turn (``advise.advise``: ``samples`` legs and races per
    race action where sampled); with ``rollouts``, the best ``candidates`` turns are also
    played to the end of the game (``rollouts.with_rollouts``; ``rollout_target_se`` stops
    them early)."""
    validate(pos)
    _check_viewer(pos)
    if rollouts is not None:
        equity.check_rollouts(rollouts, policy or POLICIES[0], POLICIES, "")
    table = _advise.advise(pos, samples=samples, seed=seed, target_se=target_se,
                           progress=None if rollouts else progress)
    if rollouts is None:
        return table
    return with_rollouts(table, pos, rollouts=rollouts, policy=policy, candidates=candidates,
                         seed=seed, target_se=rollout_target_se, progress=progress)


def advise_caption(pos: Position, prov: dict) -> str:
    """The caption of the terminal EV table."""
    deck = (f"race deck: {prov['deck_left']} cards left, {prov['candidate_decks']:,} "
            f"possible deck{'s' if prov['candidate_decks'] != 1 else ''}")
    leg = {"exact": "rest of the leg exact",
           "monte-carlo": f"rest of the leg sampled ({prov['samples']:,} legs a race action)",
           "mixed": f"rest of the leg exact or sampled ({prov['samples']:,} legs a race "
                    f"action)"}[prov["leg"]]
    race = (f" · winner/loser cards by {prov['race_samples']:,} sampled races a race action"
            if prov["race_samples"] else "")
    sampled = (f" · {leg}{race}" + (f", seed {prov['seed']}" if prov["samples"] else "")
               + montecarlo.target_words(prov))
    rolled = (f" · win_p, margin: {prov['rollouts']:,} rollouts of the best "
              f"{prov['candidates']} turns by ev (--candidates), every seat "
              f"{prov['policy']}, seed {prov['rollout_seed']}, margin in EP"
              if "rollouts" in prov else "")
    return (f"{prov['variant']} · player {player_name(pos, pos.to_move)} to move · EV in EP of "
            f"this leg's payout · {deck}{sampled}{rolled}")


def table_view(table: Table, wide: bool = False) -> Table:
    """The EV table as people read it: action, ev, se (empty when exact), gap, why;
    ``wide`` adds the method. With rollouts: action, win probability, its SE, P(best),
    margin, ev and gap (``wide``: every column)."""
    if "win_p" in table and not wide:
        return equity.compact_view(table)
    se = [None if m == "exact" else x for x, m in zip(table["se"], table["method"])]
    columns = {"action": table["action"]}
    if "win_p" in table:
        columns.update(equity.wide_columns(table))
    columns.update(ev=table["ev"], se=se)
    if wide:
        columns["method"] = table["method"]
    columns.update(gap=table["gap"], why=table["why"])
    return Table.from_columns(columns)


def odds(pos: Position, *, samples: int | None = None, seed: int = 0,
         target_se: float | None = None,
         progress: Callable[[int, int], None] | None = None) -> dict:
    """Leg places, race winner and loser odds, and the chance the race ends this leg."""
    validate(pos)
    return {"game": NAME, **_odds(pos, samples=samples, seed=seed, target_se=target_se,
                                  progress=progress)}


PLACES = ("1st", "2nd", "3rd", "4th", "5th")
PLACE_COLUMNS = ("leg_1", "leg_2", "leg_3", "leg_4", "leg_5")


def _camel_row(camel: dict, people: bool, with_se: bool) -> dict:
    """A camel's row: its leg places (``1st`` … for ``people``, else ``leg_1`` …), race
    odds and their SEs; with ``with_se``, each place's SE (``1st_se``) beside it for
    people, or (``leg_1_se`` …) after the columns the CSV always had."""
    names = PLACES if people else PLACE_COLUMNS
    places, ses = {}, {}
    for k, name in enumerate(names):
        places[name] = camel[f"p{k + 1}"]
        if with_se:
            (places if people else ses)[f"{name}_se"] = camel["p_se"][k]
    return {"camel": camel["camel"], **places,
            **{k: camel[k] for k in ("race_win", "win_se", "race_lose", "lose_se")}, **ses}


def _plus_minus(value: float, se: float | None, digits: int) -> str:
    """``value`` to ``digits`` places, with ``± se`` (to 4) when sampled."""
    return f"{value:.{digits}f}" + ("" if se is None else f" ± {se:.4f}")


def odds_view(result: dict, wide: bool = False, people: bool = True
              ) -> tuple[Table, str]:
    """One row per camel: its chance of each place at the end of this leg, of winning
    and of losing the race (``wide``: with their standard errors, each place's when
    sampled), and the caption (the SEs, the race model). Places are ``1st`` … for
    ``people``, else ``leg_1`` … (the CSV's stable names)."""
    prov = result["provenance"]
    sampled = prov["leg"] != "exact"
    rows = [_camel_row(c, people, wide and sampled) for c in result["camels"]]
    table = Table.from_dicts(rows, list(rows[0]))
    worst = max(table["win_se"] + table["lose_se"])
    if sampled:  # each place a binomial proportion of independent sampled legs
        leg = (f"sampled, {prov['leg_samples']:,} legs, SE at most "
               f"{max(se for c in result['camels'] for se in c['p_se']):.4f}")
    else:
        leg = "exact"
    caption = (f"1st-5th: places at the end of this leg ({leg}) · race_win, race_lose: "
               f"{prov['race_samples']:,} sampled races, seed {prov['seed']}"
               + ("" if wide else f" (SE at most {worst:.4f})")
               + " · race ends this leg: "
               + _plus_minus(result["race_ends_this_leg"], result["race_ends_se"], 4)
               + " · legs left: " + _plus_minus(result["legs_left"],
                                                result["legs_left_se"], 2)
               + f" · race model: {RACE_MODEL_SHORT}"
               + montecarlo.target_words(prov))
    shown = [c for c in table.columns if wide or c not in ("win_se", "lose_se")]
    return table.select(shown), caption


def warm_up() -> None:
    """Compile (or load from the cache) every kernel the commands use: the EV table and
    the odds of a new deal (sampled) and of a late leg (exact), rollouts and a whole game
    under every policy, a record replayed and annotated (``oddsbot warm-up``)."""
    pos = new_position(4, 1, NAME)
    advise(pos, samples=256, seed=1)
    odds(pos, samples=256, seed=1)
    late = late_position()  # exact, as at 8 cards, in a tenth of the time
    advise(late, samples=256, seed=1)
    for policy in POLICIES:
        advise(late, samples=256, seed=1, rollouts=16, candidates=2, policy=policy)
        play(3, 1, NAME, policy)
    record.warm_up()


def late_position(left: int = 6, seed: int = 1) -> Position:
    """A position of a game played out (4 players, the first policy) with at most
    ``left`` race cards left in the deck: one the exact pass values (for warming it)."""
    _, steps = record.load_record(play(4, seed, NAME, POLICIES[0]))
    return next(pos for pos, _ in steps if pos.deck_size - len(pos.revealed) <= left)


