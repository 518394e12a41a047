"""Leg and race odds of a Camel Up Cards position (docs/games/camel-up-cards.md §14.2):
each camel's places at the end of this leg (exact or sampled, ``outcomes``), its chance of
winning and of losing the race with standard errors, and the chance that the race ends in
this leg, under ``outcomes.RACE_MODEL``: ``DEFAULT_LEGS`` and ``DEFAULT_RACES`` samples, or
with ``--target-se`` batches until every sampled place probability has at most that
standard error (``--samples``, else ``MAX_SAMPLES``, at most)."""

from __future__ import annotations

from typing import Any

from ... import __version__
from .. import montecarlo
from .encode import deck_of, track_of
from .outcomes import RACE_MODEL, leg_outcomes, race_places
from .position import COLOURS, Position

DEFAULT_RACES = 100_000
DEFAULT_LEGS = 100_000
MAX_SAMPLES = 1_000_000  # legs and races at most when stopping at --target-se alone


def odds(pos: Position, *, samples: int | None, seed: int, target_se: float | None = None,
         progress=None) -> dict[str, Any]:
    """{camels: [{camel, leg places p1..p5, p_se (their SEs; None when exact), race_win,
    win_se, race_lose, lose_se}], race_ends_this_leg, race_ends_se (None when exact),
    legs_left, legs_left_se (None from a single range of races), provenance}."""
    tr = track_of(pos)
    deck = deck_of(pos)
    legs = montecarlo.sampling(samples, target_se, DEFAULT_LEGS, MAX_SAMPLES)
    races = montecarlo.sampling(samples, target_se, DEFAULT_RACES, MAX_SAMPLES)
    leg = leg_outcomes(tr, deck, legs, seed, target_se=target_se)
    done = leg.samples  # 0 when exact
    if progress is not None:
        progress(done, done + races)
    told = None if progress is None else (lambda n: progress(done + n, done + races))
    race = race_places(tr, deck, pos.deck_size, races, seed, told, target_se)
    places, place_se = leg.places(), leg.place_se()
    se = race.se()
    camels = [{"camel": colour,
               **{f"p{k + 1}": float(places[c, k]) for k in range(5)},
               "p_se": None if place_se is None else [float(x) for x in place_se[c]],
               "race_win": float(race.p[0, c]), "win_se": float(se[0, c]),
               "race_lose": float(race.p[4, c]), "lose_se": float(se[4, c])}
              for c, colour in enumerate(COLOURS)]
    return {"camels": camels, "race_ends_this_leg": leg.race_ends,
            "race_ends_se": leg.race_ends_se(),
            "legs_left": race.legs, "legs_left_se": race.legs_se,
            "provenance": {"game": "camel-up-cards", "variant": pos.variant,
                           "oddsbot": __version__, "position": pos.to_notation(),
                           "seed": seed, "leg": leg.method,
                           "leg_samples": leg.samples, "race_samples": race.samples,
                           "deck_left": deck.left, "candidate_decks": int(len(deck.m)),
                           "race_model": RACE_MODEL,
                           **montecarlo.target_provenance(
                               target_se, max(leg.worst_se() or 0.0, float(se.max())))}}
