"""``--rollouts N`` plays exactly N rollouts of every candidate (issue 34, item 8): the
provenance says N, not N rounded up to the kernels' chunks (it said 32 for 20 in Camel Up,
208 for 200 in Five Tribes), for every game that rolls out; and the rollouts kept are the
first N of the seed's, so asking for more only adds rows (``equity.batches``)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from checks import ok
from oddsbot.analyser import equity, registry
from oddsbot.analyser.face import Capability

POSITIONS = {  # a position of each game with rollouts, and options that keep it quick
    "camel-up": ["examples/camel-up-mid-leg.json", "--samples", "512"],
    "camel-up-cards": ["examples/camel-up-cards-late.json", "--samples", "512"],
    "five-tribes": ["examples/five-tribes-opening-4p.json", "--candidates", "2"],
    "kingdom-run": ["examples/kingdom-run-mid-4p.json", "--top", "3"],
    "mumia": ["examples/mumia-mid-4p.json", "--roll", "4,PM", "--samples", "64"],
}


def test_every_game_with_rollouts_is_covered():
    assert set(POSITIONS) == {name for name, spec in registry.specs().items()
                              if spec.has(Capability.ROLLOUTS)}


@pytest.mark.parametrize("game", sorted(POSITIONS))
def test_rollouts_are_exactly_as_many_as_asked(game, oddsbot_cli):
    data = json.loads(ok(oddsbot_cli("advise", *POSITIONS[game], "--rollouts", 21,
                                     "-f", "json")).out)
    prov = data["provenance"]
    assert prov.get("rollouts", prov.get("samples")) == 21  # Mumia: its rollouts are samples


def test_batches_keep_the_first_rollouts_of_the_seed():
    """Rows are a function of the rollout's index: 21 rollouts are the first 21 of 64,
    whatever the chunks and batches; progress counts to the number asked."""
    def kernel(first: int, count: int) -> np.ndarray:
        return np.arange(first, first + count, dtype=float)[:, None]

    told = []
    rows = equity.batches(kernel, 21, 8, 2, progress=lambda done, planned: told.append(
        (done, planned)))
    assert rows[:, 0].tolist() == list(range(21))
    assert told == [(16, 21), (21, 21)]
    assert np.array_equal(equity.batches(kernel, 64, 8, 3)[:21], rows)
    seen = []
    equity.batches(kernel, 21, 8, 2, stop=lambda r: seen.append(len(r)) or False)
    assert seen == [16, 21]  # the stop rule sees only the rollouts asked for
