"""The djinn powers of the naive complete-turn reference (``naive_five_tribes_turns`` with
``naive_five_tribes_djinns``) on hand-worked positions (docs/games/five-tribes.md §20), so
that it can be trusted when it checks the kernel.

Positions come from ``test_naive_turns.position``: 3 players, the mover (player 0) on the
8-GC space, players 1 and 2 on the zero spaces; tiles not named are filled from the box in a
fixed order (with r0c2 fixed, r0c0, r0c1, r0c3-r0c5 and r1c0 are oases; r4c5 is the 15-VP
sacred place). Values are the mover's final-score parts after the turn minus before (only
the parts that change are written out); a row ending in a draw is an exact expectation.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_five_tribes_djinns as ND
from five_tribes.test_naive_turns import BLOCK, LONELY, cell, one_sowing, position
from five_tribes.test_turns import thinned
from naive_five_tribes_djinns import NO_POWERS, Bid, Rules, bids
from naive_five_tribes_scoring import PARTS
from naive_five_tribes_state import DJINNS, State
from naive_five_tribes_turns import (combinations_of, position_key, result_positions,
                                     turn_rows)
from oddsbot.analyser.five_tribes.position import Player, Position
from oddsbot.analyser.five_tribes.validate import validate

SOW_Y = "r0c0>r0c1:B>r0c2:Y; take 2Y, camel r0c2"  # one_sowing("Y"): 2 Viziers, r0c2 claimed
SOW_W = "r0c0>r0c1:B>r0c2:W; take 2W, camel r0c2"
SOW_B = "r2c1>r2c2:B; take 3B, camel r2c2"  # BLOCK: 3 Builders on r2c2, 4 blue tiles around
SOW_R = "r0c0>r0c1:W>r0c2:R; take 2R, camel r0c2"  # one_sowing("R", via="W"): reach 2
MARKET_Y = f"{SOW_Y}; skip small-market"


def players(mover: Player, p1: Player | None = None, p2: Player | None = None
            ) -> tuple[Player, ...]:
    return (mover, p1 or Player(camels=8), p2 or Player(camels=8))


def table(pos: Position, rules: Rules = Rules()) -> dict[str, tuple[dict, int]]:
    """label -> (changed score parts, count)."""
    return {label: ({k: v for k, v in zip(PARTS, delta) if v}, n)
            for label, (delta, n) in turn_rows(pos, rules).items()}


def result(pos: Position, label: str, rules: Rules = Rules()) -> Position:
    """The position a deterministic row leaves."""
    keys = dict(combinations_of(pos, rules))
    [q] = [q for q in result_positions(pos, rules) if position_key(q) == keys[label]]
    return q


def uses(rows: dict, djinn: str) -> dict[str, tuple[dict, int]]:
    return {label: row for label, row in rows.items() if f"djinn {djinn} (" in label}


# ----------------------------------------------------------------------- no powers

@pytest.mark.parametrize("stacks, tiles, mover", [
    ({"r2c2": "YW", "r2c4": "W", "r1c3": "Y"}, {"r2c4": "oasis", "r1c3": "village"},
     Player(camels=8)),  # §7.2 example 1
    ({"r2c1": "B", "r2c2": "BB"}, BLOCK, Player(camels=8, fakirs=2)),
    (one_sowing("R", via="W"), {"r0c2": "oasis"}, Player(camels=8, fakirs=1)),
])
def test_without_djinns_the_powers_change_nothing(stacks, tiles, mover):
    pos = position(stacks, tiles=tiles, players=players(mover, Player(camels=8, viziers=1)))
    assert turn_rows(pos, Rules()) == turn_rows(pos, NO_POWERS)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_without_djinns_random_turns_are_unchanged(seed):
    # random mid-game positions with every djinn moved to the discard pile
    pos = thinned(seed, 3, 6)
    held = tuple(d for p in pos.players for d in p.djinns)
    pos = validate(replace(pos, djinns=(), djinn_discard=(*pos.djinn_discard, *pos.djinns,
                                                            *held),
                           players=tuple(replace(p, djinns=()) for p in pos.players)))
    assert turn_rows(pos, Rules()) == turn_rows(pos, NO_POWERS)


def test_no_powers_plays_none_of_them():
    mover = Player(camels=8, elders=1, fakirs=1, djinns=("Enki",))
    pos = position(one_sowing("Y"), tiles={"r0c2": "small-market"}, players=players(mover))
    assert table(pos, NO_POWERS) == {MARKET_Y: ({"viziers": 22, "tiles": 6, "total": 28}, 1)}


# ----------------------------------------------------------------------- Enki: E|F

def test_enki_either_payment_before_or_after_and_once():
    # the mover owns the oasis r2c3; oases r0c0, r0c1, r0c3-r0c5 are nobody's. Sowing: 2
    # Viziers (2 + 2 x 10) and the small market r0c2 (6), skipped (empty row) = 28. Enki
    # puts a palm on any oasis, before the sowing or after the market (same result: one row,
    # count 2, named by the later use): on r2c3 +3 palms; paid with the Elder -2, the Fakir 0.
    mover = Player(camels=7, elders=1, fakirs=1, djinns=("Enki",))
    pos = position(one_sowing("Y"), tiles={"r0c2": "small-market", "r2c3": "oasis"},
                   players=players(mover), cells={"r2c3": {"owner": 0}})
    rows = table(pos)
    base = {"viziers": 22, "tiles": 6}
    want = {MARKET_Y: ({**base, "total": 28}, 1)}
    for oasis in ("r0c0", "r0c1", "r0c3", "r0c4", "r0c5", "r2c3"):
        palm = {"palms": 3} if oasis == "r2c3" else {}
        want[f"{MARKET_Y}; djinn Enki (elder) palm {oasis}"] = (
            {**base, "elders": -2, **palm, "total": 26 + 3 * bool(palm)}, 2)
        want[f"{MARKET_Y}; djinn Enki (fakir) palm {oasis}"] = (
            {**base, **palm, "total": 28 + 3 * bool(palm)}, 2)
    assert rows == want
    by_fakir = result(pos, f"{MARKET_Y}; djinn Enki (fakir) palm r2c3")
    assert cell(by_fakir, "r2c3").palms == 1 and by_fakir.players[0].fakirs == 0
    assert by_fakir.resource_discard == ("fakir",) and by_fakir.players[0].elders == 1
    by_elder = result(pos, f"{MARKET_Y}; djinn Enki (elder) palm r2c3")
    assert by_elder.players[0].elders == 0 and by_elder.bag[1] == pos.bag[1] + 1
    assert by_elder.resource_discard == ()


def test_a_power_is_used_once_per_turn_and_not_again_if_already_used():
    mover = Player(camels=8, fakirs=2, djinns=("Enki",))
    pos = position(one_sowing("Y"), tiles={"r0c2": "small-market"}, players=players(mover))
    assert len(uses(table(pos), "Enki")) == 6  # the 6 oases, 2 Fakirs but one use
    assert max(label.count("Enki") for label, _ in combinations_of(pos)) == 1
    assert table(pos, Rules(used=frozenset({"Enki"}))) == table(pos, NO_POWERS)


# ----------------------------------------------------------------------- Hagis, Lamia

def test_hagis_redirects_the_village_palace_to_a_tile_around():
    # the village r0c2 is claimed and gets its palace (5 + 5); Hagis (paid by the Fakir) puts
    # it instead on one of the 5 tiles around r0c2: on the mover's r1c2 it still scores 5
    mover = Player(camels=7, fakirs=1, djinns=("Hagis",))
    pos = position(one_sowing("Y"), tiles={"r0c2": "village", "r1c2": "small-market"},
                   players=players(mover), cells={"r1c2": {"owner": 0}})
    base = {"viziers": 22, "tiles": 5}
    want = {f"{SOW_Y}; palace": ({**base, "palaces": 5, "total": 32}, 1)}
    for u in ("r0c1", "r0c3", "r1c1", "r1c2", "r1c3"):
        on_mine = u == "r1c2"
        want[f"{SOW_Y}; palace, djinn Hagis (fakir) to {u}"] = (
            {**base, **({"palaces": 5} if on_mine else {}), "total": 32 if on_mine else 27}, 1)
    assert table(pos) == want
    q = result(pos, f"{SOW_Y}; palace, djinn Hagis (fakir) to r1c3")
    assert cell(q, "r0c2").palaces == 0 and cell(q, "r1c3").palaces == 1
    four = table(pos, Rules(neighbours=4))  # the switch of §20.3: edge neighbours only
    assert sorted(uses(four, "Hagis")) == [f"{SOW_Y}; palace, djinn Hagis (fakir) to {u}"
                                           for u in ("r0c1", "r0c3", "r1c2")]


def test_lamia_redirects_the_oasis_palm_paid_by_an_elder():
    mover = Player(camels=7, elders=1, djinns=("Lamia",))
    pos = position(one_sowing("Y"), tiles={"r0c2": "oasis", "r1c3": "small-market"},
                   players=players(mover), cells={"r1c3": {"owner": 0}})
    base = {"viziers": 22, "tiles": 8, "elders": -2}
    want = {f"{SOW_Y}; palm": ({"viziers": 22, "tiles": 8, "palms": 3, "total": 33}, 1)}
    for u in ("r0c1", "r0c3", "r1c1", "r1c2", "r1c3"):
        on_mine = u == "r1c3"
        want[f"{SOW_Y}; palm, djinn Lamia (elder) to {u}"] = (
            {**base, **({"palms": 3} if on_mine else {}), "total": 31 if on_mine else 28}, 1)
    assert table(pos) == want


def test_lamia_redirects_enkis_palm():
    # 2 Fakirs pay Enki and Lamia. The oases are r0c0, r0c1, r0c3-r0c5, r1c0; a palm sent by
    # Lamia onto a tile lands there whichever oasis around it Enki aimed at: one row per
    # tile, count 2 (before or after) x the oases around it, named by the first oasis.
    mover = Player(camels=7, fakirs=2, djinns=("Enki", "Lamia"))
    pos = position(one_sowing("Y"), tiles={"r0c2": "small-market", "r1c4": "small-market"},
                   players=players(mover), cells={"r1c4": {"owner": 0}})
    oases = [0, 1, 3, 4, 5, 6]
    for n in (8, 4):
        rows = uses(table(pos, Rules(neighbours=n)), "Lamia")
        targets = {u for o in oases for u in ND.around(o, n)}
        assert len(rows) == len(targets)
        for u in targets:
            aimed = [o for o in oases if u in ND.around(o, n)]
            label = (f"{MARKET_Y}; djinn Enki (fakir) palm {ND.tile_name(aimed[0])}, "
                     f"djinn Lamia (fakir) to {ND.tile_name(u)}")
            mine = {"palms": 3} if u in (2, 10) else {}  # the mover's r0c2 (claimed), r1c4
            assert rows[label] == ({"viziers": 22, "tiles": 6, **mine,
                                    "total": 28 + 3 * bool(mine)}, 2 * len(aimed))
    # r1c4 is around r0c3, r0c4 and r0c5, but edge-adjacent to r0c4 only
    assert rows[f"{MARKET_Y}; djinn Enki (fakir) palm r0c4, djinn Lamia (fakir) to r1c4"][1] == 2


# ----------------------------------------------------------------------- Bouraq, Monkir

def test_bouraq_puts_a_palace_on_any_village_and_monkir_pays():
    # villages r3c0-r3c4; the mover owns r3c0 (+5) and holds Monkir: +1 GC per palace
    mover = Player(camels=7, elders=1, djinns=("Bouraq", "Monkir"))
    pos = position(one_sowing("Y"), tiles={"r0c2": "small-market"}, players=players(mover),
                   cells={"r3c0": {"owner": 0}})
    rows = uses(table(pos), "Bouraq")
    base = {"gold": 1, "viziers": 22, "elders": -2, "tiles": 6}
    assert rows == {f"{MARKET_Y}; djinn Bouraq (elder) palace r3c{c}": (
        {**base, **({"palaces": 5} if c == 0 else {}), "total": 32 if c == 0 else 27}, 2)
        for c in range(5)}


def test_monkir_pays_an_opponent_two_for_the_movers_palace():
    p1 = Player(camels=8, djinns=("Monkir",))
    pos = position(one_sowing("Y"), tiles={"r0c2": "village"},
                   players=players(Player(camels=8), p1))
    assert table(pos) == {f"{SOW_Y}; palace": (
        {"viziers": 22, "tiles": 5, "palaces": 5, "total": 32}, 1)}
    assert result(pos, f"{SOW_Y}; palace").players[1].gold == 52


# ----------------------------------------------------------------------- Leta, Utug: E+(E|F)

def leta_utug(elders: int, fakirs: int) -> Position:
    """No sowing (LONELY: Y on the oasis r0c0, W on the 15-VP sacred place r4c5); the mover
    holds Leta and Utug."""
    mover = Player(camels=8, elders=elders, fakirs=fakirs, djinns=("Leta", "Utug"))
    return position(LONELY, players=players(mover), turn_track=(None,) * 6 + (0, 1, 2))


@pytest.mark.parametrize("elders, fakirs, word", [(1, 1, "elder+fakir"), (2, 0, "2 elders")])
def test_leta_and_utug_take_tiles_with_either_payment(elders, fakirs, word):
    # Leta: any of the 28 tiles with nothing on them (r4c4 = 12 VP); Utug: an unowned tile
    # with meeples (r0c0 = 8, r4c5 = 15). The payment leaves nothing for the other djinn.
    # Before or after the (absent) sowing: one row, count 2, named by the later use.
    pos = leta_utug(elders, fakirs)
    rows = table(pos)
    cost = 4 if word == "2 elders" else 2
    leta = uses(rows, "Leta")
    assert len(leta) == 28 and all(f"({word}) camel" in label for label in leta)
    assert rows[f"no sowing; djinn Leta ({word}) camel r4c4"] == (
        {"elders": -cost, "tiles": 12, "total": 12 - cost}, 2)
    assert uses(rows, "Utug") == {
        f"no sowing; djinn Utug ({word}) camel r0c0": (
            {"elders": -cost, "tiles": 8, "total": 8 - cost}, 2),
        f"no sowing; djinn Utug ({word}) camel r4c5": (
            {"elders": -cost, "tiles": 15, "total": 15 - cost}, 2)}
    assert len(rows) == 1 + 28 + 2
    q = result(pos, f"no sowing; djinn Utug ({word}) camel r0c0")
    assert cell(q, "r0c0").owner == 0 and cell(q, "r0c0").meeples == "Y"
    assert q.players[0].camels == 7 and q.players[0].elders == elders - cost // 2


@pytest.mark.parametrize("elders, fakirs", [(1, 0), (0, 2), (0, 0)])
def test_a_power_that_cannot_be_paid_is_absent(elders, fakirs):
    assert table(leta_utug(elders, fakirs)) == {"no sowing": ({}, 1)}


def test_leta_and_utug_in_one_turn():
    # 3 Elders + 1 Fakir pay both (2 Elders for one, Elder + Fakir for the other): both
    # assignments leave the same position, in 2 orders, both before, both after, or one
    # before and one after: 2 x 6 = 12 combinations
    rows = table(leta_utug(3, 1))
    assert rows["no sowing; djinn Leta (2 elders) camel r4c4; djinn Utug (elder+fakir) "
                "camel r4c5"] == ({"elders": -6, "tiles": 27, "total": 21}, 12)


# ----------------------------------------------------------------------- Echidna

def test_echidna_doubles_builder_gold_and_its_fakir_is_not_a_builder_fakir():
    # 3 Builders on the oasis r2c2 with 4 blue tiles around: (3 + f) x 4 GC; the oasis is
    # claimed (8) with a palm (3). 1 Fakir, 2 Elders: Echidna by 2 Elders (-4) for f = 0
    # or 1, or by Elder + the Fakir (-2) for f = 0 only.
    mover = Player(camels=8, elders=2, fakirs=1, djinns=("Echidna",))
    pos = position({"r2c1": "B", "r2c2": "BB"}, tiles=BLOCK, players=players(mover))
    tile = {"tiles": 8, "palms": 3}
    assert table(pos) == {
        f"{SOW_B}; palm": ({"gold": 12, **tile, "total": 23}, 1),
        f"{SOW_B}; djinn Echidna (2 elders): builders; palm": (
            {"gold": 24, "elders": -4, **tile, "total": 31}, 1),
        f"{SOW_B}; djinn Echidna (elder+fakir): builders; palm": (
            {"gold": 24, "elders": -2, **tile, "total": 33}, 1),
        f"{SOW_B}; builders (+1 fakir); palm": ({"gold": 16, **tile, "total": 27}, 1),
        f"{SOW_B}; djinn Echidna (2 elders): builders (+1 fakir); palm": (
            {"gold": 32, "elders": -4, **tile, "total": 39}, 1),
    }


# ----------------------------------------------------------------------- Iblis, Boaz

def iblis_position(**mover) -> Position:
    """2 Assassins end on the oasis r0c2 (reach 2). Victims: the W just dropped on the
    village r0c1, Y and W on the small market r1c2, player 1's Vizier and Elder; player 2's
    two Elders are protected by Boaz."""
    return position({"r0c0": "WR", "r0c2": "R", "r1c2": "YW"},
                    tiles={"r0c2": "oasis", "r0c1": "village", "r1c2": "small-market"},
                    players=players(Player(camels=8, **mover),
                                    Player(camels=8, viziers=1, elders=1),
                                    Player(camels=8, elders=2, djinns=("Boaz",))))


def test_iblis_kills_two_on_one_tile_or_two_of_one_opponent_and_boaz_protects():
    pos = iblis_position(elders=1, djinns=("Iblis",))
    base = {"tiles": 8, "palms": 3, "total": 11}  # the oasis claimed, its palm
    assert table(pos) == {
        f"{SOW_R}; kill W@r0c1, camel r0c1; palm": ({"tiles": 13, "palms": 3, "total": 16}, 1),
        f"{SOW_R}; kill Y@r1c2; palm": (base, 1),
        f"{SOW_R}; kill W@r1c2; palm": (base, 1),
        f"{SOW_R}; kill p1's vizier; palm": (base, 1),
        f"{SOW_R}; kill p1's elder; palm": (base, 1),
        # Iblis paid by the Elder (-2): both meeples of r1c2 (claimed, 6), or p1's two
        f"{SOW_R}; djinn Iblis (elder): kill Y@r1c2, W@r1c2, camel r1c2; palm": (
            {"elders": -2, "tiles": 14, "palms": 3, "total": 15}, 1),
        f"{SOW_R}; djinn Iblis (elder): kill p1's vizier, p1's elder; palm": (
            {"elders": -2, "tiles": 8, "palms": 3, "total": 9}, 1),
    }
    q = result(pos, f"{SOW_R}; djinn Iblis (elder): kill p1's vizier, p1's elder; palm")
    assert (q.players[1].viziers, q.players[1].elders, q.players[2].elders) == (0, 0, 2)
    assert q.bag[:2] == (pos.bag[0] + 1, pos.bag[1] + 2)  # both victims and the payment


def test_iblis_needs_two_victims_and_its_fakir_adds_no_reach():
    # a Fakir pays Iblis; with no Fakir left the reach stays 2: nothing at distance 3 dies
    pos = iblis_position(fakirs=1, djinns=("Iblis",))
    rows = uses(table(pos), "Iblis")
    assert sorted(rows) == [
        f"{SOW_R}; djinn Iblis (fakir): kill Y@r1c2, W@r1c2, camel r1c2; palm",
        f"{SOW_R}; djinn Iblis (fakir): kill p1's vizier, p1's elder; palm"]
    lone = position({"r0c0": "WR", "r0c2": "R", "r1c2": "Y"},
                    tiles={"r0c2": "oasis"},
                    players=players(Player(camels=8, fakirs=1, djinns=("Iblis",))))
    assert not uses(table(lone), "Iblis")  # one meeple per tile, no opponent's: no Iblis


def test_boaz_leaves_no_victim_so_the_assassins_kill_no_one():
    p1 = Player(camels=8, viziers=3, elders=2, djinns=("Boaz",))
    mover = Player(camels=8, elders=1, djinns=("Iblis",))
    pos = position(one_sowing("R"), tiles={"r0c2": "oasis"}, players=players(mover, p1))
    # the B dropped on r0c1 is the only meeple left, at distance 1 <= 2: it must die
    assert list(table(pos)) == [
        "r0c0>r0c1:B>r0c2:R; take 2R, camel r0c2; kill B@r0c1, camel r0c1; palm"]
    pos = position({"r0c0": "R", "r0c1": "R"}, tiles={"r0c0": "oasis", "r0c1": "oasis"},
                   players=players(mover, p1))
    assert sorted(table(pos)) == ["r0c0>r0c1:R; take 2R, camel r0c1; no kill; palm",
                                  "r0c1>r0c0:R; take 2R, camel r0c0; no kill; palm"]


# ----------------------------------------------------------------------- Kandicha, Nekir

def kandicha_position(mover: Player, p1: Player | None = None) -> Position:
    """2 Assassins on the oasis r0c2, reach 2: W on the village r0c1 (dropped), Y on the
    large market r0c3, G on the small market r1c2, B on the small market r2c2 (2 blue
    tiles around it: r1c1, r1c3; the other 6 are markets); player 1 holds an Elder."""
    markets = {name: "small-market" for name in ("r1c2", "r2c1", "r2c2", "r2c3", "r3c1",
                                                   "r3c2", "r3c3")}
    tiles = {"r0c2": "oasis", "r0c1": "village", "r0c3": "large-market", "r1c1": "village",
             "r1c3": "sacred-place", **markets}
    return position({"r0c0": "WR", "r0c2": "R", "r0c3": "Y", "r1c2": "G", "r2c2": "B"},
                    tiles=tiles, players=players(mover, p1 or Player(camels=8, elders=1)))


def test_kandicha_keeps_viziers_and_elders_pays_for_builders_draws_for_merchants():
    pos = kandicha_position(Player(camels=8, djinns=("Kandicha",)))
    oasis = {"tiles": 8, "palms": 3}
    assert table(pos) == {
        # the W is kept (2 VP), r0c1 claimed (5)
        f"{SOW_R}; kill W@r0c1, camel r0c1; palm": (
            {"elders": 2, "tiles": 13, "palms": 3, "total": 18}, 1),
        # the Y is kept: 1 Vizier beats both opponents (1 + 20); r0c3 claimed (4)
        f"{SOW_R}; kill Y@r0c3, camel r0c3; palm": (
            {"viziers": 21, "tiles": 12, "palms": 3, "total": 36}, 1),
        # a Merchant: a card drawn from the 54-card deck; a good (36/54) is sold for 1 GC
        # (equal to keeping it, and gold first), a Fakir (18/54) is worth nothing
        f"{SOW_R}; kill G@r1c2, camel r1c2; then best": (
            {"gold": Fraction(2, 3), "tiles": 14, "palms": 3, "total": Fraction(53, 3)}, 1),
        # a Builder: 1 GC per blue tile around r2c2 (2)
        f"{SOW_R}; kill B@r2c2, camel r2c2; palm": (
            {"gold": 2, "tiles": 14, "palms": 3, "total": 19}, 1),
        f"{SOW_R}; kill p1's elder; palm": ({"elders": 2, **oasis, "total": 13}, 1),
    }
    q = result(pos, f"{SOW_R}; kill p1's elder; palm")
    assert (q.players[0].elders, q.players[1].elders) == (1, 0)
    assert q.bag == (*pos.bag[:4], pos.bag[4] + 2)  # only the 2 Assassins went to the bag


def test_nekir_pays_once_per_kill_action():
    p1 = Player(camels=8, elders=1, djinns=("Nekir",))
    pos = kandicha_position(Player(camels=8), p1)
    for label, (delta, _) in table(pos).items():
        assert "gold" not in delta
        assert result(pos, label).players[1].gold == 52  # an opponent's kill: +2
    pos = iblis_position(elders=1, djinns=("Iblis", "Nekir"))
    two = f"{SOW_R}; djinn Iblis (elder): kill Y@r1c2, W@r1c2, camel r1c2; palm"
    assert table(pos)[two][0]["gold"] == 1  # the mover's own kill action: +1, once
    assert table(pos, Rules(nekir_per_meeple=True))[two][0]["gold"] == 2


# ----------------------------------------------------------------------- Marid, Ba'al

def test_marid_pays_for_each_meeple_dropped_on_its_owners_tiles():
    # the mover drops B on r0c1 and Y on r0c2 (the small market, claimed)
    mine = position(one_sowing("Y"), tiles={"r0c2": "small-market"},
                    players=players(Player(camels=7, djinns=("Marid",))),
                    cells={"r0c1": {"owner": 0}})
    assert table(mine) == {MARKET_Y: ({"gold": 1, "viziers": 22, "tiles": 6, "total": 29}, 1)}
    theirs = position(one_sowing("Y"), tiles={"r0c2": "small-market"},
                      players=players(Player(camels=8), Player(camels=6, djinns=("Marid",))),
                      cells={"r0c1": {"owner": 1}, "r0c2": {"owner": 1}})
    label = "r0c0>r0c1:B>r0c2:Y; take 2Y; skip small-market"  # r0c2 is player 1's already
    assert table(theirs) == {label: ({"viziers": 22, "total": 22}, 1)}
    assert result(theirs, label).players[1].gold == 54  # two drops on player 1's tiles


def test_baal_pays_for_each_djinn_taken_but_not_for_itself():
    # 2 Elders taken at the sacred place r0c2 (6); a djinn costs 2 Elders (the Fakir too)
    face_up = ("Ba'al", "Boaz", "Jafaar")
    mover = Player(camels=8)
    pos = position(one_sowing("W"), tiles={"r0c2": "sacred-place"}, players=players(mover),
                   djinns=face_up)
    rows = table(pos)
    assert rows[f"{SOW_W}; djinn Baal (2 elders)"] == ({"tiles": 6, "djinns": 6,
                                                        "total": 12}, 1)
    assert rows[f"{SOW_W}; djinn Boaz (2 elders)"] == ({"tiles": 6, "djinns": 6,
                                                        "total": 12}, 1)
    p1 = Player(camels=8, djinns=("Ba'al",))
    pos = position(one_sowing("W"), tiles={"r0c2": "sacred-place"},
                   players=players(Player(camels=8), p1),
                   djinns=("Boaz", "Jafaar"))
    assert result(pos, f"{SOW_W}; djinn Boaz (2 elders)").players[1].gold == 52
    mine = position(one_sowing("W"), tiles={"r0c2": "sacred-place"},
                    players=players(Player(camels=8, djinns=("Ba'al",))),
                    djinns=("Boaz", "Jafaar"))
    assert table(mine)[f"{SOW_W}; djinn Boaz (2 elders)"] == (
        {"gold": 1, "tiles": 6, "djinns": 6, "total": 13}, 1)


# ----------------------------------------------------------------------- end-game djinns

def test_end_game_djinns_change_the_value_of_what_a_turn_takes():
    def value(stacks, tiles, mover, **more):
        [(delta, _)] = table(position(stacks, tiles=tiles, players=players(mover),
                                      **more)).values()
        return delta
    # Jafaar: 2 Viziers score 3 each (+ the 2 x 10 comparisons)
    assert value(one_sowing("Y"), {"r0c2": "small-market"},
                 Player(camels=8, djinns=("Jafaar",)))["viziers"] == 26
    # Shamhat: 2 Elders score 4 each
    assert value(one_sowing("W"), {"r0c2": "small-market"},
                 Player(camels=8, djinns=("Shamhat",)))["elders"] == 8
    # Haurvatat: the palm on the claimed oasis scores 5
    assert value(one_sowing("Y"), {"r0c2": "oasis"},
                 Player(camels=8, djinns=("Haurvatat",)))["palms"] == 5
    # Al-Amin: 2 Merchants take 2 Fakirs: with the one held, one pair = one wild good (1)
    delta = value(one_sowing("G"), {"r0c2": "oasis"},
                  Player(camels=8, fakirs=1, djinns=("Al-Amin",)), resources=("fakir",) * 2)
    assert delta == {"tiles": 8, "palms": 3, "goods": 1, "total": 12}


# ----------------------------------------------------------------------- draws: Sloar

def test_sloar_draws_a_card_and_the_best_play_follows_each_card():
    # the Builders of BLOCK with 1 Fakir: f = 1 pays (3 + 1) x 4 = 16 GC, f = 0 12 GC.
    # Sloar (paid by that Fakir) before the sowing draws from the 53 cards left (36 goods,
    # 17 Fakirs): a good is then sold (1 GC), a Fakir fuels the Builders (16 GC):
    # gold = (36 x 13 + 17 x 16) / 53 = 740/53. After the palm, only the sale is left:
    # 12 + 36/53.
    mover = Player(camels=8, fakirs=1, djinns=("Sloar",))
    pos = position({"r2c1": "B", "r2c2": "BB"}, tiles=BLOCK, players=players(mover))
    tile = {"tiles": 8, "palms": 3}
    assert table(pos) == {
        f"{SOW_B}; palm": ({"gold": 12, **tile, "total": 23}, 1),
        f"{SOW_B}; palm; djinn Sloar (fakir) draws a card; then best": (
            {"gold": 12 + Fraction(36, 53), **tile, "total": 23 + Fraction(36, 53)}, 1),
        f"{SOW_B}; builders (+1 fakir); palm": ({"gold": 16, **tile, "total": 27}, 1),
        "djinn Sloar (fakir) draws a card; then best": (
            {"gold": Fraction(740, 53), **tile, "total": 11 + Fraction(740, 53)}, 1),
    }


def test_sloar_on_an_empty_deck_draws_from_the_reshuffled_discard():
    # every card is held or discarded: the deck is empty. Sloar's Fakir joins the 2
    # discarded Fakirs; reshuffled, the deck holds 3 Fakirs: the draw is certain
    goods = (2, 2, 2, 4, 4, 4, 6, 6, 6)
    pos = position(LONELY, players=players(Player(camels=8, fakirs=1, djinns=("Sloar",)),
                                           Player(camels=8, goods=goods, fakirs=15)),
                   turn_track=(None,) * 6 + (0, 1, 2), resource_discard=("fakir",) * 2)
    assert pos.resource_deck == (0,) * 10
    label = "no sowing; djinn Sloar (fakir) draws a card"
    assert table(pos) == {"no sowing": ({}, 1), label: ({}, 2)}
    q = result(pos, label)
    assert q.players[0].fakirs == 1 and q.resource_discard == ()
    assert q.resource_deck == (0,) * 9 + (2,)


# ----------------------------------------------------------------------- draws: Sibittis

def sibittis_position(deck: tuple[str, ...], palms: int = 1, **more) -> Position:
    """No sowing; the mover holds Sibittis, 3 Viziers, 2 Elders and owns the oasis r0c1
    with ``palms`` palms; the djinn deck is ``deck``: 3 djinns are face up, the rest are
    discarded (or as ``more`` says)."""
    up = ("Enki", "Bouraq", "Sloar")
    rest = tuple(d for d in DJINNS if d not in (*deck, *up, "Sibittis"))
    fields = {"djinns": up, "djinn_discard": rest, **more}
    mover = Player(camels=7, viziers=3, elders=2, djinns=("Sibittis",))
    return position(LONELY, players=players(mover), cells={"r0c1": {"owner": 0,
                                                                    "palms": palms}},
                    turn_track=(None,) * 6 + (0, 1, 2), **fields)


def test_sibittis_expectation_over_three_of_four_djinns():
    # docs/games/five-tribes.md §20.6: C(4, 3) = 4 draws of probability 1/4. Jafaar is worth
    # 6 + 3 x 2 (Viziers 3 instead of 1) = 12, Haurvatat 8 + 2 (the palm 5 instead of 3),
    # Boaz 6, Leta 4 (no Elder or Fakir left to use it). Jafaar is in 3 draws, kept; the
    # draw {Boaz, Leta, Haurvatat} keeps Haurvatat. Sibittis costs 2 Elders (-4).
    pos = sibittis_position(("Boaz", "Jafaar", "Leta", "Haurvatat"))
    assert pos.djinn_deck == ("Boaz", "Haurvatat", "Jafaar", "Leta")
    row = ({"viziers": Fraction(9, 2), "elders": -4, "palms": Fraction(1, 2),
            "djinns": Fraction(13, 2), "total": Fraction(15, 2)}, 1)
    assert table(pos) == {"no sowing": ({}, 1),
                          "djinn Sibittis (2 elders) draws 3; then best": row,
                          "no sowing; djinn Sibittis (2 elders) draws 3; then best": row}
    # the same by the hand formula: the mean over the 4 draws of the best keep
    worth = {"Boaz": 6, "Jafaar": 12, "Leta": 4, "Haurvatat": 10}
    draws = [("Boaz", "Jafaar", "Leta"), ("Boaz", "Jafaar", "Haurvatat"),
             ("Boaz", "Leta", "Haurvatat"), ("Jafaar", "Leta", "Haurvatat")]
    assert Fraction(sum(max(worth[d] for d in draw) for draw in draws), 4) - 4 == row[0]["total"]


def test_sibittis_equal_keeps_go_to_the_parts_order():
    # with 2 palms Haurvatat is worth 8 + 4 = 12 = Jafaar: the tie goes to the larger part
    # first in PARTS order (viziers before palms), so Jafaar is kept whenever drawn
    pos = sibittis_position(("Boaz", "Jafaar", "Leta", "Haurvatat"), palms=2)
    delta, _ = table(pos)["djinn Sibittis (2 elders) draws 3; then best"]
    assert delta == {"viziers": Fraction(9, 2), "elders": -4, "palms": 1,
                     "djinns": Fraction(13, 2), "total": 8}


def test_sibittis_certain_draw_reshuffles_and_keeps_one():
    # the deck holds Jafaar alone, the discard Boaz and Haurvatat, the other 15 djinns are
    # held by the opponents (player 1 with Ba'al): Jafaar, then the reshuffled discard
    up = ("Enki", "Bouraq", "Sloar")
    others = tuple(d for d in DJINNS if d not in ("Jafaar", "Boaz", "Haurvatat", "Sibittis",
                                                  *up))
    mover = Player(camels=7, viziers=3, elders=2, djinns=("Sibittis",))
    pos = position(LONELY, players=players(mover, Player(camels=8, djinns=others[:8]),
                                           Player(camels=8, djinns=others[8:])),
                   cells={"r0c1": {"owner": 0, "palms": 1}}, djinns=up,
                   djinn_discard=("Boaz", "Haurvatat"), turn_track=(None,) * 6 + (0, 1, 2))
    assert "Ba'al" in others[:8]
    head = "no sowing; djinn Sibittis (2 elders) draws 3; keep"
    assert table(pos) == {
        "no sowing": ({}, 1),
        f"{head} Boaz": ({"elders": -4, "djinns": 6, "total": 2}, 2),
        f"{head} Haurvatat": ({"elders": -4, "palms": 2, "djinns": 8, "total": 6}, 2),
        f"{head} Jafaar": ({"viziers": 6, "elders": -4, "djinns": 6, "total": 8}, 2),
    }
    q = result(pos, f"{head} Jafaar")
    assert q.djinn_discard == ("Boaz", "Haurvatat") and q.djinn_deck == ()
    assert q.players[0].djinns == ("Jafaar", "Sibittis") and q.players[1].gold == 52


def test_the_djinn_draw_is_uniform_over_every_set_of_three():
    s = State.of(sibittis_position(("Boaz", "Jafaar", "Leta", "Haurvatat", "Marid")))
    got = {o.drawn: p for p, o in ND.draw_djinns(s, 3)}
    assert len(got) == comb(5, 3) and set(got.values()) == {Fraction(1, 10)}


# ----------------------------------------------------------------------- draws: Anun-Nak

def test_anun_nak_meeples_from_the_bag_valued_over_every_draw():
    # r0c0 = Y alone: no sowing. Anun-Nak (the Fakir) puts 3 meeples from the bag
    # (89: Y 15, W 20, B 18, G 18, R 18) on the empty r0c1. With y Viziers among them:
    # y = 0: still no sowing (0); y = 1 or 2: the best is r0c1 > r1c1 > r1c0 > r0c0 with a
    # Y last: 2 Viziers (2 + 20) and r0c0 claimed (6) = 28; y = 3: r0c0 > r0c1 takes 4
    # Viziers and claims r0c1: 24 + 6 = 30. (Both markets are skipped: the row is empty.)
    mover = Player(camels=8, fakirs=1, djinns=("Anun-Nak",))
    pos = position({"r0c0": "Y"}, tiles={"r0c0": "small-market", "r0c1": "small-market"},
                   players=players(mover), turn_track=(None,) * 6 + (0, 1, 2))
    assert pos.bag == (15, 20, 18, 18, 18)
    p = [Fraction(comb(15, y) * comb(74, 3 - y), comb(89, 3)) for y in range(4)]
    row = {"viziers": 22 * (p[1] + p[2]) + 24 * p[3], "tiles": 6 * (1 - p[0]),
           "total": 28 * (p[1] + p[2]) + 30 * p[3]}
    rows = table(pos)
    assert rows["djinn Anun-Nak (fakir) meeples r0c1; then best"] == (row, 1)
    far = rows["djinn Anun-Nak (fakir) meeples r3c3; then best"]
    assert far == ({}, 1)  # nothing can reach r3c3's meeples, nor r3c3 anything
    assert len(rows) == 1 + 2 * 29  # no sowing; each empty tile, before or after


def test_the_meeple_draw_is_hypergeometric():
    s = State.of(position({"r0c0": "Y"}))
    bag = s.bag()
    got = {o.meeples[1]: p for p, o in ND.draw_meeples(s, 1, 3)}
    assert sum(got.values()) == 1 and len(got) == comb(5 + 2, 3)  # colour multisets
    for counts, p in got.items():
        want = Fraction(1, comb(sum(bag), 3))
        for c in range(5):
            want *= comb(bag[c], counts[c])
        assert p == want


# ----------------------------------------------------------------------- Kumarbi

def bidding(gold: int, fakirs: int, djinns: tuple[str, ...], turn_track) -> Position:
    pos = position({}, players=players(Player(camels=8, gold=gold, fakirs=fakirs,
                                              djinns=djinns)))
    return validate(replace(pos, phase="bidding", bid_track=(0,), turn_track=turn_track,
                            to_move=0))


def test_kumarbi_bid_prices():
    # 10 GC, 2 Fakirs; player 1 is on 12, player 2 on a zero. k Fakirs pay the price k
    # spaces cheaper on 18, 12, 8, 5, 3, 1, 0 (§20.7); never on a zero, never past 0
    track = (None, 1, None, None, None, None, 2, None, None)
    pos = bidding(10, 2, ("Kumarbi",), track)
    assert bids(pos) == {
        "bid 18 kumarbi 2": Bid(0, 8, 2),
        "bid 8": Bid(2, 8, 0), "bid 8 kumarbi 1": Bid(2, 5, 1), "bid 8 kumarbi 2": Bid(2, 3, 2),
        "bid 5": Bid(3, 5, 0), "bid 5 kumarbi 1": Bid(3, 3, 1), "bid 5 kumarbi 2": Bid(3, 1, 2),
        "bid 3": Bid(4, 3, 0), "bid 3 kumarbi 1": Bid(4, 1, 1), "bid 3 kumarbi 2": Bid(4, 0, 2),
        "bid 1": Bid(5, 1, 0), "bid 1 kumarbi 1": Bid(5, 0, 1),
        "bid 0": Bid(6, 0, 0),
    }
    assert bids(pos, NO_POWERS) == {label: b for label, b in bids(pos).items()
                                    if "kumarbi" not in label}
    assert bids(bidding(10, 2, (), track)) == bids(pos, NO_POWERS)
    assert bids(pos, Rules(used=frozenset({"Kumarbi"}))) == bids(pos, NO_POWERS)


def test_kumarbi_saves_a_broke_bidder_only_with_a_fakir():
    # every zero space taken, no gold: a Fakir buys the 1 space for 0; without one, the
    # broke rule (§14.7) takes the cheapest free space for all the gold (0)
    four = (Player(camels=8, gold=0, fakirs=1, djinns=("Kumarbi",)),
            Player(camels=8), Player(camels=8), Player(camels=8))
    pos = position({}, players=four, turn_track=(3, None, None, None, None, None, 0, 1, 2))
    pos = validate(replace(pos, phase="bidding", bid_track=(0,),
                           turn_track=(None,) * 6 + (1, 2, 3), to_move=0))
    assert bids(pos) == {"bid 1 kumarbi 1": Bid(5, 0, 1)}
    assert bids(pos, NO_POWERS) == {"bid 1": Bid(5, 0, 0)}


# ----------------------------------------------------------------------- the whole turn

def test_a_djinn_taken_is_usable_in_the_same_turn():
    # 2 Elders taken at the sacred place r0c2; Enki bought, then used with what is left: a
    # palm on the oasis r1c0, which the mover owns (+3). Bought with 2 Elders and used with
    # the Fakir, or bought with Elder + Fakir and used with the Elder: the same position,
    # one row of count 2 named by the first
    mover = Player(camels=7, fakirs=1)
    pos = position(one_sowing("W"), tiles={"r0c2": "sacred-place"}, players=players(mover),
                   cells={"r1c0": {"owner": 0}}, djinns=("Enki",))
    rows = table(pos)
    assert rows[f"{SOW_W}; djinn Enki (2 elders); djinn Enki (fakir) palm r1c0"] == (
        {"tiles": 6, "palms": 3, "djinns": 8, "total": 17}, 2)
    assert rows[f"{SOW_W}; djinn Enki (elder+fakir)"] == (
        {"elders": 2, "tiles": 6, "djinns": 8, "total": 16}, 1)
    assert len(uses(rows, "Enki")) == 2 + 6  # bought 2 ways; used on any of the 6 oases


def test_many_djinns_at_once_keep_every_row_consistent():
    # a village action with Hagis and Monkir; Bouraq, Leta, Sloar, Iblis-free; 2 Elders and
    # a Fakir to share between them
    mover = Player(camels=7, elders=2, fakirs=1,
                   djinns=("Bouraq", "Hagis", "Leta", "Monkir", "Sloar"))
    p1 = Player(camels=7, djinns=("Marid",))
    pos = position(one_sowing("Y"), tiles={"r0c2": "village"}, players=players(mover, p1),
                   cells={"r0c1": {"owner": 1}, "r3c3": {"owner": 0}})
    combos = combinations_of(pos)
    labels = [label for label, _ in combos]
    assert len(set(labels)) == len(labels)
    rows = turn_rows(pos)
    assert sum(n for _, n in rows.values()) == len(combos)
    assert len(rows) == len({key for _, key in combos})
    for label, (delta, _) in rows.items():
        assert delta[-1] == sum(delta[:-1]), label
        assert label.count("djinn Bouraq") <= 1 and label.count("djinn Hagis") <= 1
        assert ("then best" in label) == ("Sloar" in label)
    draws = [label for label in rows if "then best" in label]
    assert draws and all(label.endswith("draws a card; then best") for label in draws)
    for q in result_positions(pos, Rules()):
        validate(q)
        assert q.players[1].gold == 52  # Marid: the B dropped on player 1's r0c1
        assert q.players[0].elders >= 0 and q.players[0].fakirs >= 0
