"""The Camel Up board in the browser (tests/common/test_page.py): edits by clicks from a
``new`` start, and one edit the rules refuse (docs/games/camel-up.md §3)."""

from __future__ import annotations

from board_steps import click, edit, position, press


def empty_space(pos: dict, beside: set[int] = frozenset()) -> int:
    """A space from 4 on with no camel and no tile on it or next to it."""
    taken = {int(s) for s in pos["track"]} | {t["space"] for t in pos.get("tiles", [])}
    near = taken | {s + d for s in beside for d in (-1, 0, 1)}
    return next(s for s in range(4, 17) if s not in near and s not in taken)


def build(page) -> None:
    """Move a camel (with the camels on it), take a leg ticket, place a boo tile, set a
    player's money: four kinds of edit."""
    pos = position(page)
    stack = next(iter(pos["track"].values()))
    target = empty_space(pos)
    edit(page, click(page, f"camel-{stack[0]}"), click(page, f"space-{target}"))
    assert position(page)["track"][str(target)] == stack
    colour = next(iter(position(page)["ticket_stacks"]))
    edit(page, click(page, f"stack-{colour}"))
    pos = position(page)
    assert pos["leg_tickets"][pos["to_move"]] == [[colour, 5]]
    tile_space = empty_space(pos)
    edit(page, press(page, f"space-{tile_space}"), click(page, "tile-boo"))
    assert position(page)["tiles"] == [{"owner": pos["to_move"], "space": tile_space,
                                         "side": "boo"}]
    edit(page, lambda: page.fill("[data-testid='money-1']", "7"),
         lambda: page.press("[data-testid='money-1']", "Tab"))
    assert position(page)["money"][1] == 7


def break_it(page) -> str:
    """A spectator tile on a space holding camels (§3: never on a camel)."""
    space = next(iter(position(page)["track"]))
    edit(page, press(page, f"space-{space}"), click(page, "tile-cheer"))
    return "holds camels"
