"""Kingdom Run's board (analyser/kingdom_run/board.js) driven by clicks, for the shared
browser test of `oddsbot serve` (tests/common/test_page.py): `build` makes edits of four
kinds from a `new` start, `break_it` one that validation refuses (docs/games/kingdom-run.md
§12.1)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect


def _hook(page: Page, testid: str):
    return page.get_by_test_id(testid)


def build(page: Page) -> None:
    """Move a runner, put one to sleep, give a victory token, change a die of the roll."""
    _hook(page, "runner-K4").click()
    expect(_hook(page, "runner-K4")).to_have_attribute("aria-label", re.compile(", picked$"))
    _hook(page, "space-5").click()
    expect(_hook(page, "runner-K4")).to_have_attribute("aria-label",
                                                       re.compile("on space 5"))
    _hook(page, "runner-W4").click()
    _hook(page, "sleep").click()
    expect(_hook(page, "runner-W4")).to_have_attribute("aria-label", re.compile("asleep"))
    before = _hook(page, "tokens-0").inner_text()
    _hook(page, "token-give-0").click()
    expect(_hook(page, "tokens-0")).not_to_have_text(before)
    die = _hook(page, "die-0").get_attribute("aria-label")
    _hook(page, "die-0").click()
    expect(_hook(page, "die-0")).not_to_have_attribute("aria-label", die)


def break_it(page: Page) -> str:
    """A fifth runner onto space 0, which the start fills with four (capacity 4)."""
    if _hook(page, "unpick").count():
        _hook(page, "unpick").click()
    _hook(page, "runner-G4").click()
    expect(_hook(page, "runner-G4")).to_have_attribute("aria-label", re.compile(", picked$"))
    _hook(page, "space-0").click()
    return "holds 5 runners"
