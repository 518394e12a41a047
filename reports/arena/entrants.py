"""The policies of an arena as given on the command line (docs/strategies.md §1):
``--policies A,B,…``, each ``[NAME=]WHAT`` where WHAT is one of the game's compiled
policies, ``search`` (``search@BUDGET`` for a budget of its own) or a user's function
``package.module:function``. NAME (default: WHAT) heads the policy's row; to compare a
policy with itself, name both (``a=heuristic,b=heuristic``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...errors import OddsbotError, quote

SEARCH = "search"
_NAME = re.compile(r"[A-Za-z0-9_.@+-]{1,40}")


@dataclass(frozen=True)
class Entrant:
    """One policy of the arena: its row name, and what plays: ``kind`` "compiled" (the
    game's policy ``what``), "search" (``what`` = its budget text, "" for the default) or
    "user" (``what`` = ``package.module:function``)."""

    name: str
    kind: str
    what: str

    @property
    def compiled(self) -> bool:
        return self.kind == "compiled"


def read_entrants(items: tuple[str, ...], game_policies: tuple[str, ...]) -> tuple[Entrant, ...]:
    """The entrants of ``--policies`` (comma-split already), checked: known policies,
    well-formed names, no name twice, at least two."""
    out: list[Entrant] = []
    for item in items:
        name, eq, what = item.partition("=")
        if not eq:
            name, what = item, item
        name, what = name.strip(), what.strip()
        if not _NAME.fullmatch(name) and ":" not in name:
            raise OddsbotError(f"--policies: {quote(name)} is not a usable name (letters, "
                               f"digits and _.@+- only, at most 40)")
        if what in game_policies:
            out.append(Entrant(name, "compiled", what))
        elif what == SEARCH or what.startswith(SEARCH + "@"):
            out.append(Entrant(name, "search", what.removeprefix(SEARCH).lstrip("@")))
        elif ":" in what:
            out.append(Entrant(name, "user", what))
        else:
            raise OddsbotError(f"--policies: unknown policy {quote(what)} (known: "
                               f"{', '.join(game_policies)}, search, or "
                               f"package.module:function)")
    names = [e.name for e in out]
    for name in names:
        if names.count(name) > 1:
            raise OddsbotError(f"--policies: {quote(name)} is listed twice; to compare a "
                               f"policy with itself name each copy, e.g. "
                               f"a={name},b={name}")
    if len(out) < 2:
        raise OddsbotError("--policies: an arena needs at least two policies, e.g. "
                           "--policies heuristic,random")
    return tuple(out)
