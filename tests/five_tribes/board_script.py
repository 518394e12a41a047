"""Five Tribes' board (analyser/five_tribes/board.js) driven by clicks, for the shared
browser test of `oddsbot serve` (tests/common/test_page.py): `build` makes edits of five
kinds from a `new` start, `break_it` one that validation refuses (docs/games/five-tribes.md
§18.1)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

_NOT_VIZIER = ("W", "B", "G", "R")  # build keeps every Vizier on the board for break_it


def _pick_tile_with_meeple(page: Page) -> str:
    """Pick the first tile holding a meeple other than a Vizier; its test hook."""
    for r in range(5):
        for c in range(6):
            tile = f"tile-{r}-{c}"
            page.get_by_test_id(tile).click()
            expect(page.get_by_test_id(tile)).to_have_attribute("aria-label",
                                                                re.compile(", picked$"))
            for colour in _NOT_VIZIER:
                minus = page.get_by_test_id(f"meeple-{colour}-minus")
                if minus.is_enabled():
                    return tile
    raise AssertionError("no tile holds a meeple other than a Vizier")


def build(page: Page) -> None:
    """Remove a meeple from a tile, put a camel and a palm on it, and change a player's
    gold and merchandise."""
    tile = _pick_tile_with_meeple(page)
    label = page.get_by_test_id(tile).get_attribute("aria-label")
    next(page.get_by_test_id(f"meeple-{c}-minus") for c in _NOT_VIZIER
         if page.get_by_test_id(f"meeple-{c}-minus").is_enabled()).click()
    expect(page.get_by_test_id(tile)).not_to_have_attribute("aria-label", label)
    page.get_by_test_id("owner-1").click()
    expect(page.get_by_test_id(tile)).to_have_attribute("aria-label",
                                                        re.compile("camel of player 1"))
    page.get_by_test_id("palm-plus").click()
    expect(page.get_by_test_id(tile)).to_have_attribute("aria-label", re.compile("1 palm"))
    gold = page.get_by_test_id("gold-0").inner_text()
    page.get_by_test_id("gold-0-minus").click()
    expect(page.get_by_test_id("gold-0")).to_have_text(str(int(gold) - 1))
    page.get_by_test_id("goods-pick-2").select_option("silk")
    page.get_by_test_id("goods-add-2").click()
    expect(page.get_by_test_id("goods-silk-2")).to_have_text("1")


def break_it(page: Page) -> str:
    """A Vizier for player 0 while all 16 are on the board."""
    page.get_by_test_id("viziers-0-plus").click()
    return "more meeples than the box holds"
