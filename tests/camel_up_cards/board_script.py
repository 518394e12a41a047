"""The Camel Up Cards board in the browser (tests/common/test_page.py): edits by clicks
from a ``new`` deal, and one edit the rules refuse (docs/games/camel-up-cards.md §6)."""

from __future__ import annotations

from board_steps import click, edit, position, press


def build(page) -> None:
    """Move a camel onto another stack, take a leader card, put the fox ahead of the
    camels, set a player's money: four kinds of edit."""
    pos = position(page)
    (_, under), (high, _) = sorted(pos["stacks"].items(), key=lambda kv: int(kv[0]))[:2]
    top = under[-1]
    edit(page, click(page, f"camel-{top}"), click(page, f"space-{high}"))
    assert position(page)["stacks"][high][-1] == top
    colour = next(iter(pos["leader_stacks"]))
    edit(page, click(page, f"leader-{colour}"))
    pos = position(page)
    assert pos["leg_cards"][pos["to_move"]]["leader"] == [[colour, 5]]
    ahead = max(int(s) for s in pos["stacks"]) + 3
    edit(page, press(page, f"space-{ahead}"), click(page, "fox-place"))
    assert position(page)["fox"] == {"space": ahead, "holder": pos["to_move"]}
    edit(page, lambda: page.fill("[data-testid='money-1']", "7"),
         lambda: page.press("[data-testid='money-1']", "Tab"))
    assert position(page)["money"][1] == 7


def break_it(page) -> str:
    """The palm on a space holding camels (§6: no camel stands on a figure's space)."""
    space = next(iter(position(page)["stacks"]))
    edit(page, press(page, f"space-{space}"), click(page, "palm-place"))
    return "holds camels"
