"""Steps the games' browser scripts (``tests/<game>/board_script.py``) share: an edit by
clicks that waits for the page to take it (the notation box changes) or refuse it (the
message appears)."""

from __future__ import annotations

from collections.abc import Callable

TIMEOUT_MS = 60_000


def position(page) -> dict:
    """The position the page holds (validate's JSON)."""
    return page.evaluate("window.oddsbot.position()")


def edit(page, *steps: Callable[[], None]) -> None:
    """Run the clicks of one edit; wait until the page has validated it: the notation
    box shows the new position, or ``#message`` the refusal."""
    before = page.input_value("#notation")
    page.evaluate("document.querySelector('#message').textContent = ''")
    for step in steps:
        step()
    page.wait_for_function(
        """(before) => document.querySelector('#notation').value !== before
             || document.querySelector('#message').textContent !== ''""",
        arg=before, timeout=TIMEOUT_MS)


def press(page, testid: str, key: str = "Enter") -> Callable[[], None]:
    """A step: focus the board control ``data-testid=testid`` and press a key."""
    def step() -> None:
        page.focus(f"[data-testid='{testid}']")
        page.keyboard.press(key)
    return step


def click(page, testid: str) -> Callable[[], None]:
    """A step: click the board control ``data-testid=testid``."""
    return lambda: page.click(f"[data-testid='{testid}']")
