"""Seeds cover 0..2**64-1 in every game, in one process: numba must not keep an int64
signature from a small seed and then overflow on a large one (kernels.rng.MAX_SEED)."""

from __future__ import annotations

import pytest

from oddsbot.analyser import registry
from oddsbot.kernels.rng import MAX_SEED


@pytest.mark.parametrize("name", sorted(registry.specs()))
def test_small_then_largest_seed_deal_different_starts(name):
    """Every variant deals from the largest seed, the same start each time; a variant
    whose set-up draws lots (every game has one) deals another start from seed 1. (A
    set-up may draw nothing: Mumia's base game lays the first game's tiles.)"""
    module = registry.game(name)
    differs = []
    for variant in module.VARIANTS:
        small = module.new_position(4, 1, variant)
        large = module.new_position(4, MAX_SEED, variant)
        module.validate(large)
        assert module.new_position(4, MAX_SEED, variant) == large
        differs.append(large != small)
    assert any(differs)


def test_camel_up_monte_carlo_and_games_take_the_largest_seed():
    cu = registry.game("camel-up")
    pos = cu.new_position(4, 1)
    cu.odds(pos, samples=512, seed=1)
    high = cu.odds(pos, samples=512, seed=MAX_SEED)
    assert high["provenance"]["seed"] == MAX_SEED
    assert cu.simulate(pos, seed=MAX_SEED).text() == cu.simulate(pos, seed=MAX_SEED).text()
