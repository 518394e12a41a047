"""Mumia's board (analyser/mumia/board.js) driven by clicks, for the shared browser test of
`oddsbot serve` (tests/common/test_page.py): `build` makes edits of five kinds from a `new`
start, `break_it` one that validation refuses (docs/games/mumia.md §14.1)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect


def _first_guardian(page: Page) -> str:
    """The test hook of the first guardian on the track (layouts may be random)."""
    return page.locator('[data-testid^="guardian-"]').first.get_attribute("data-testid")


def _move(page: Page, piece: str, field: int) -> None:
    """Pick a piece by its test hook, then click the field it goes to (at its corner, where
    no piece stands)."""
    page.get_by_test_id(piece).click()
    expect(page.get_by_test_id(piece)).to_have_attribute("aria-label", re.compile(", picked$"))
    page.get_by_test_id(f"field-{field}").click(position={"x": 8, "y": 8})


def build(page: Page) -> None:
    """Move a pawn, a guardian and the mummy; play with the hats and put the hat of luck on
    another pawn; a seat takes the top mummy token."""
    _move(page, "pawn-0-A1", 3)
    expect(page.get_by_test_id("pawn-3-A1")).to_be_visible()
    _move(page, _first_guardian(page), 3)
    expect(page.get_by_test_id("guardian-3-1")).to_be_visible()
    _move(page, "mummy", 5)
    expect(page.get_by_test_id("mummy")).to_have_attribute("aria-label",
                                                           re.compile("field 5"))
    page.get_by_test_id("hats-toggle").click()
    expect(page.get_by_test_id("hats-toggle")).to_have_text("no hats")
    page.get_by_test_id("pawn-0-B1").click()
    page.get_by_test_id("hat-luck").click()
    expect(page.get_by_test_id("pawn-0-B1")).to_have_attribute("aria-label",
                                                               re.compile("hat of luck"))
    page.get_by_test_id("mummy-token-B").click()
    expect(page.get_by_test_id("mummy-stack")).to_contain_text("3, 2, 1")


def break_it(page: Page) -> str:
    """A guardian moved onto START, where guardians never stand."""
    if page.get_by_test_id("unpick").count():
        page.get_by_test_id("unpick").click()
    _move(page, _first_guardian(page), 0)
    return "guardians stand on path tiles only"
