"""Five Tribes turn pieces on hand-worked boards: the sowing applied (docs/games/five-tribes.md
§7.2 example 4), tile control (§8), the Builders' pay (§9, the seed's example) and the Assassins'
reach."""

from __future__ import annotations

import numpy as np
from oddsbot.kernels import five_tribes as FT

from naive_five_tribes import board as meeple_board


def state(stacks: dict[str, str], tiles: dict[str, str] | None = None,
          players: int = 3) -> np.ndarray:
    """A state with these meeples, every tile an oasis unless ``tiles`` says otherwise,
    8 camels each."""
    st = FT.empty_state()
    FT.meeples(st)[:] = meeple_board(stacks)
    st[FT.T_TYPE:FT.T_TYPE + FT.N_TILES] = FT.TILE_TYPES.index("oasis")
    for name, tile in (tiles or {}).items():
        st[FT.T_TYPE + 6 * int(name[1]) + int(name[3])] = FT.TILE_TYPES.index(tile)
    st[FT.N_PLAYERS] = players
    st[FT.P_CAMELS:FT.P_CAMELS + players] = 8
    return st


def tile(name: str) -> int:
    return 6 * int(name[1]) + int(name[3])


def test_the_rulebook_loop_gathers_three_merchants_and_claims_the_oasis():
    st = state({"r1c1": "GBRYG", "r1c2": "G"})
    path = np.array([tile(t) for t in ("r1c2", "r2c2", "r2c1", "r1c1", "r1c2")])
    colours = np.array(["YWBGR".index(c) for c in "GBRYG"])
    assert FT.sow(st, tile("r1c1"), path, colours, 5) == (tile("r1c2"), 3, 3)
    after = FT.meeples(st)
    assert list(after[tile("r1c1")]) == [1, 0, 0, 0, 0]  # the yellow dropped on step 4
    assert list(after[tile("r2c2")]) == [0, 0, 1, 0, 0]
    assert list(after[tile("r2c1")]) == [0, 0, 0, 0, 1]
    assert after[tile("r1c2")].sum() == 0
    assert after.sum() == 3  # 6 meeples: the 3 greens gathered on r1c2 were taken
    assert FT.claim(st, 1, tile("r1c2"))
    assert st[FT.T_OWNER + tile("r1c2")] == 1 and st[FT.P_CAMELS + 1] == 7


def test_tile_control_needs_an_empty_unowned_tile_and_a_camel():
    st = state({"r0c0": "Y"})
    assert not FT.claim(st, 0, tile("r0c0"))  # meeples left on it
    assert FT.claim(st, 0, tile("r0c1"))
    assert not FT.claim(st, 2, tile("r0c1"))  # a camel is there already (anyone's)
    st[FT.P_CAMELS + 2] = 0
    assert not FT.claim(st, 2, tile("r0c2"))  # no camel left
    assert st[FT.T_OWNER + tile("r0c2")] == -1 and st[FT.P_CAMELS] == 7


def test_builders_pay_as_in_the_rulebook_example():
    # a red final tile (oasis) r2c2 with 4 blue tiles in its 3 x 3 block
    blue = {"r1c1": "village", "r1c3": "sacred-place", "r3c1": "village", "r2c3": "village"}
    st = state({}, blue)
    assert FT.blue_around(st, tile("r2c2")) == 4
    assert FT.builder_gold(st, tile("r2c2"), 3, 2) == 20  # (3 builders + 2 fakirs) x 4
    st[FT.T_TYPE + tile("r2c2")] = FT.TILE_TYPES.index("village")
    assert FT.builder_gold(st, tile("r2c2"), 3, 2) == 25  # the tile itself counts: 5 x 5
    assert FT.builder_gold(st, tile("r2c2"), 3, 0) == 15


def test_blue_tiles_are_counted_in_the_clipped_block_only():
    st = state({}, {"r0c1": "village", "r1c1": "sacred-place", "r2c2": "village",
                    "r0c2": "small-market"})
    assert FT.blue_around(st, tile("r0c0")) == 2  # r0c1, r1c1; r2c2 is two rows away
    assert FT.blue_around(st, tile("r4c5")) == 0


def test_assassins_reach_counts_orthogonal_steps_from_the_final_tile():
    st = state({"r2c2": "R", "r2c4": "WY", "r0c0": "G", "r4c2": "B"})
    out = np.zeros((FT.N_TILES * FT.N_COLOURS, 2), dtype=np.int64)
    n = FT.victims_on_board(st, tile("r2c2"), 2, out)
    assert sorted(map(tuple, out[:n])) == [(tile("r2c2"), 4), (tile("r2c4"), 0),
                                           (tile("r2c4"), 1), (tile("r4c2"), 2)]
    n = FT.victims_on_board(st, tile("r2c2"), 4, out)
    assert (tile("r0c0"), 3) in set(map(tuple, out[:n]))  # 2 + 2 = 4 steps away
    assert FT.in_reach(tile("r0c0"), tile("r0c0"), 0)
    assert not FT.in_reach(tile("r0c0"), tile("r1c1"), 1)  # diagonal is 2 steps


def with_row(st: np.ndarray, cards: str) -> np.ndarray:
    """Put face-up cards on the resource row: two-letter codes, front first."""
    codes = ("iv", "je", "go", "pa", "si", "sp", "fi", "wh", "po", "fa")
    for i, code in enumerate(cards.split()):
        st[FT.ROW + i] = codes.index(code)
    return st


def test_merchants_take_the_front_of_the_row_and_the_rest_moves_up():
    st = with_row(state({}), "fi fa po iv")
    assert FT.row_length(st) == 4
    assert FT.merchants_take(st, 1, 3) == 3
    goods = st[FT.P_GOODS + 9:FT.P_GOODS + 18]
    assert goods[FT.GOODS.index("fish")] == 1 and goods[FT.GOODS.index("pottery")] == 1
    assert st[FT.P_FAKIRS + 1] == 1 and goods.sum() == 2
    assert list(st[FT.ROW:FT.ROW + 2]) == [FT.GOODS.index("ivory"), -1]
    assert FT.merchants_take(st, 0, 5) == 1  # a short row gives what it has
    assert FT.row_length(st) == 0 and FT.merchants_take(st, 0, 2) == 0


def test_a_market_pick_from_the_middle_closes_the_gap():
    st = with_row(state({}), "si sp wh je")
    assert FT.take_card(st, 2, 1) == FT.GOODS.index("spice")
    assert [FT.GOODS[c] for c in st[FT.ROW:FT.ROW + 3]] == ["silk", "wheat", "jewels"]
    assert st[FT.P_GOODS + 2 * 9 + FT.GOODS.index("spice")] == 1


def test_palms_and_palaces_run_out():
    st = state({})
    st[FT.T_PALMS + 3] = 11
    assert FT.place_palm(st, 5) and st[FT.T_PALMS + 5] == 1
    assert not FT.place_palm(st, 5)  # all 12 palms are out
    st[FT.T_PALACES + 0] = 9
    assert FT.place_palace(st, 7) and not FT.place_palace(st, 7)
    assert st[FT.T_PALACES + 7] == 1


def test_a_djinn_costs_two_elders_or_an_elder_and_a_fakir():
    st = state({})
    names = [name for name, _, _ in FT.DJINNS]
    st[FT.DJINN_ROW:FT.DJINN_ROW + 3] = [names.index("Jafaar"), names.index("Enki"),
                                         names.index("Boaz")]
    st[FT.P_ELDERS + 0] = 3
    st[FT.P_FAKIRS + 0] = 1
    assert FT.take_djinn(st, 0, 1, False) == names.index("Enki")
    assert st[FT.P_ELDERS] == 1 and st[FT.BAG + 1] == 2 and st[FT.P_FAKIRS] == 1
    assert FT.take_djinn(st, 0, 0, True) == names.index("Jafaar")
    assert st[FT.P_ELDERS] == 0 and st[FT.BAG + 1] == 3 and st[FT.P_FAKIRS] == 0
    assert st[FT.RES_DISCARD + FT.FAKIR_CARD] == 1
    assert st[FT.P_DJINNS] == (1 << names.index("Enki")) | (1 << names.index("Jafaar"))
    assert list(st[FT.DJINN_ROW:FT.DJINN_ROW + 3]) == [names.index("Boaz"), -1, -1]
