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
    _hook(page, "space-5").click(position={"x": 8, "y": 8})
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


def _full_space(page: Page) -> tuple[str, str] | None:
    """(a space that holds four runners, a runner elsewhere on the track), read from the
    runners' labels ("..., on space N"), or None."""
    spaces: dict[str, list[str]] = {}
    for runner in page.locator('[data-testid^="runner-"]').all():
        found = re.search(r"on space (\d+)", runner.get_attribute("aria-label"))
        if found:
            spaces.setdefault(found[1], []).append(runner.get_attribute("data-testid"))
    full = [s for s, runners in spaces.items() if len(runners) == 4]
    others = [r for s, runners in spaces.items() if s not in full for r in runners]
    return (full[0], others[0]) if full and others else None


def break_it(page: Page) -> str:
    """A fifth runner onto a space that holds four (capacity 4); the start fills space 0."""
    if _hook(page, "unpick").count():
        _hook(page, "unpick").click()
    space, runner = _full_space(page) or ("0", "runner-G4")
    _hook(page, runner).click()
    expect(_hook(page, runner)).to_have_attribute("aria-label", re.compile(", picked$"))
    _hook(page, f"space-{space}").click(position={"x": 8, "y": 8})
    return "runners, at most 4"
