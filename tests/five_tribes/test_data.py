"""The Five Tribes component constants against the spec's data file (a copy is kept in
data/ here; when the spec folder is beside the repository, the copy must equal it)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from oddsbot.kernels import five_tribes as FT

HERE = Path(__file__).parent
COPY = HERE / "data" / "five-tribes-data.json"
SPEC = HERE.parents[2] / "shared" / "rules" / "five-tribes-data.json"


@pytest.fixture(scope="module")
def data() -> dict:
    return json.loads(COPY.read_text())


def test_the_copy_is_the_spec_file():
    if not SPEC.is_file():
        pytest.skip(f"no spec folder beside the repository ({SPEC})")
    assert COPY.read_bytes() == SPEC.read_bytes()


def test_tiles(data):
    by_type: dict[str, list[int]] = {}
    for row in data["tiles"]:
        by_type.setdefault(row["type"].replace("_", "-"), []).extend([row["vp"]] * row["count"])
    assert tuple(by_type) == FT.TILE_TYPES
    assert tuple(len(v) for v in by_type.values()) == FT.TILE_COUNTS
    assert tuple(sorted(by_type["sacred-place"])) == FT.SACRED_VPS
    for t, name in enumerate(FT.TILE_TYPES[:4]):
        assert set(by_type[name]) == {FT.TILE_VP[t]}
    blue = {row["type"].replace("_", "-") for row in data["tiles"] if row["value_colour"] == "blue"}
    assert blue == {n for n, b in zip(FT.TILE_TYPES, FT.BLUE_TILE) if b}
    assert sum(sum(v) for v in by_type.values()) == data["tiles_summary"]["total_tile_vp"]


def test_meeples_goods_and_track(data):
    assert [m["code"] for m in data["meeples"]] == list(FT.COLOURS)
    assert [m["count"] for m in data["meeples"]] == list(FT.MEEPLE_TOTALS)
    assert [g["name"] for g in data["resources"]["goods"]] == list(FT.GOODS)
    assert [g["count"] for g in data["resources"]["goods"]] == list(FT.GOODS_COUNTS)
    assert data["resources"]["fakirs"] == FT.FAKIRS
    assert data["resources"]["face_up_row"] == FT.RESOURCE_ROW
    assert sorted(data["bid_track"]["costs"], reverse=True) == list(FT.BID_COSTS)
    assert data["bid_track"]["zero_spaces"] == FT.ZERO_SPACES
    assert data["suit_values"]["as_list_index_is_size"] == list(FT.SUIT_VALUES)


def test_djinns_and_supplies(data):
    codes = {None: FT.COST_NONE, "elder_or_fakir": FT.COST_E_OR_F,
             "elder_plus_elder_or_fakir": FT.COST_E_AND_E_OR_F, "fakir": FT.COST_F,
             "one_or_more_fakirs": FT.COST_FAKIRS}
    assert [(d["name"], d["vp"], codes[d["cost"]]) for d in data["djinns"]] == list(FT.DJINNS)
    assert int(FT.DJINN_VP.sum()) == data["djinns_vp_total"]
    pieces = data["pieces"]
    assert (pieces["palms"], pieces["palaces"], pieces["starting_gold"]) == \
        (FT.PALMS, FT.PALACES, FT.START_GOLD)
    assert {int(k): v for k, v in pieces["camels_per_player"].items()} == FT.CAMELS
    assert {int(k): v for k, v in pieces["turn_markers_per_player"].items()} == FT.MARKERS
    assert pieces["visible_djinns"] == FT.VISIBLE_DJINNS
    assert np.array_equal(FT.MEEPLE_TOTALS.sum(), 90)
