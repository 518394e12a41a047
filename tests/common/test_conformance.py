"""One conformance test that every registered game must pass: the common face of DESIGN.md."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from oddsbot.analyser import registry
from oddsbot.errors import PositionError

GAMES = sorted(registry.games())
REQUIRED_COLUMNS = ["action", "ev", "se", "method", "gap"]


@pytest.mark.parametrize("name", GAMES)
def test_common_face(name):
    module = registry.game(name)
    for attr in ("NAME", "VARIANTS", "Position", "parse", "validate", "legal_actions",
                 "moves", "advise", "advise_caption", "odds", "odds_view", "new_position",
                 "parse_as", "simulate", "play", "table_view"):
        assert hasattr(module, attr), f"{name} lacks {attr}"
    assert module.NAME == name
    for variant in module.VARIANTS:
        assert registry.game(variant) is module
        players = 4
        pos = module.new_position(players, 3, variant)
        module.validate(pos)
        # notation and JSON round-trip, and both parse through the registry
        assert module.parse(pos.to_notation()) == pos
        assert module.Position.from_json(pos.to_json()) == pos
        assert registry.parse(json.dumps(pos.to_json())) == pos
        assert registry.parse(pos.to_notation()) == pos
        # the EV table: one row per legal action, best first, required columns
        actions = module.legal_actions(pos)
        assert actions and len(set(actions)) == len(actions)
        df = module.advise(pos, samples=8192, seed=1)
        assert isinstance(df, pd.DataFrame)
        assert list(df.columns[:5]) == REQUIRED_COLUMNS
        assert sorted(df["action"]) == sorted(actions)
        assert df["ev"].is_monotonic_decreasing
        assert df["gap"].iloc[0] == 0 and (df["gap"] >= 0).all()
        assert set(df["method"]) <= {"exact", "monte-carlo", "greedy"}
        assert df.loc[df["method"] == "greedy", "se"].isna().all()  # a model, not a sample
        assert (df.loc[df["method"] == "exact", "se"] == 0).all()
        assert (df.loc[df["method"] == "monte-carlo", "se"] > 0).all()
        prov = df.attrs["provenance"]
        for key in ("game", "variant", "oddsbot"):
            assert key in prov
        assert prov["variant"] == variant
        # the same seed gives the same table
        pd.testing.assert_frame_equal(df, module.advise(pos, samples=8192, seed=1))
        # a whole game under a policy ends with a result
        result = module.simulate(pos, seed=2)
        assert result.turns and result.text().startswith("start ")


@pytest.mark.parametrize("name", GAMES)
def test_bad_positions_raise_position_error(name):
    module = registry.game(name)
    with pytest.raises(PositionError):
        module.parse("{not json")
    with pytest.raises(PositionError):
        module.parse(json.dumps({"game": name}))
