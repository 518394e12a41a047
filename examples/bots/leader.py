"""A policy of your own for ``oddsbot arena`` (docs/strategies.md §5): in Camel Up, take
the leading camel's leg ticket while one is left, else roll the pyramid."""

RACING = ("blue", "green", "yellow", "red", "purple")


def leader(position) -> str:
    """The racing camel in front: on the furthest space, highest in its stack (a stack
    is listed bottom first; the crazy camels run the other way and are skipped)."""
    for stack in reversed(position.track):
        for camel in reversed(stack):
            if camel in RACING:
                return camel
    raise ValueError("no racing camel on the track")


def choose(position, legal, rng):
    ticket = f"ticket {leader(position)}"
    return ticket if ticket in legal else "pyramid"
