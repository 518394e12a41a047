"""What the play-along faces (``Capability.PLAY``, ``PlayFace`` of ``analyser/face.py``)
share: short one-line lists of the legal choices, and the checks of a chance outcome
against the ones an action has (missing, unknown, or where none is needed)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..errors import OddsbotError, quote

SHORT = 60  # characters of one kind's choices before they are only counted


def seat_number(pos: Any, seat: int) -> str:
    """``player_name`` of the games whose notation and records name a seat by its number
    (``to=2``; ``p2`` on a record's turn line), whatever the position: Camel Up and Camel
    Up Cards."""
    return str(seat)


def _grouped(names: Iterable[str]) -> dict[str, list[str]]:
    """Names by all their words but the last, in first-seen order."""
    groups: dict[str, list[str]] = {}
    for name in names:
        head, _, last = name.rpartition(" ")
        groups.setdefault(head, []).append(last)
    return groups


def short_list(names: Iterable[str]) -> str:
    """Names in one short line: ``blue 1|2|3, grey white 1|2|3``; a long group is
    counted (``spectator 7 … (28)``)."""
    parts = []
    for head, lasts in _grouped(names).items():
        words = "|".join(lasts)
        if len(words) > SHORT:
            words = f"{lasts[0]} … ({len(lasts)})"
        parts.append(f"{head} {words}" if head else words)
    return ", ".join(parts)


def short_actions(labels: Iterable[str]) -> str:
    """Action labels in one short line, by their first word: ``ticket blue|green,
    pyramid, spectator (28)``."""
    kinds: dict[str, list[str]] = {}
    for label in labels:
        kind, _, rest = label.partition(" ")
        kinds.setdefault(kind, []).append(rest)
    parts = []
    for kind, rests in kinds.items():
        words = "|".join(r for r in rests if r)
        if not words:
            parts.append(kind)
        elif len(words) > SHORT or any(" " in r for r in rests):
            parts.append(f"{kind} … ({len(rests)})")
        else:
            parts.append(f"{kind} {words}")
    return ", ".join(parts)


def refuse_action(action: str, player: str, legal: list[str]) -> OddsbotError:
    """The one line for an action that is not legal: it and the legal choices."""
    return OddsbotError(f"action: {quote(action)} is not legal for player {player} here "
                        f"(legal: {short_actions(legal)}; oddsbot moves lists them all)")


def choose_outcome(action: str, listed: list[tuple[str, float]], outcome: str | None,
                   canonical: Callable[[str], str]) -> str | None:
    """The outcome of ``action`` the table saw, as ``listed`` names it (``canonical``
    reads another spelling, raising ``OddsbotError`` if it cannot); refused in one line
    when missing, unknown, or given where ``action`` has no chance."""
    names = [name for name, _ in listed]
    if not names:
        if outcome is not None:
            raise OddsbotError(f"outcome: {quote(action)} has no chance outcome, got "
                               f"{quote(outcome)}")
        return None
    if outcome is None:
        raise OddsbotError(f"outcome: {quote(action)} needs its chance outcome "
                           f"({short_list(names)})")
    try:
        name = canonical(outcome)
    except OddsbotError:
        name = None
    if name not in names:
        raise OddsbotError(f"outcome: {quote(outcome)} is not an outcome of {quote(action)} "
                           f"here ({short_list(names)})")
    return name


def policy_code(policy: str, policies: Sequence[str], game: str) -> int:
    """The kernel's code of ``policy``: its index in the game's ``policies``; refused in
    one line naming the known ones."""
    if policy not in policies:
        raise OddsbotError(f"policy: {game} has no policy {quote(policy)} (known: "
                           f"{', '.join(policies)})")
    return list(policies).index(policy)
