"""Seatings of an arena: which policy sits in which seat.

Every deal (a seeded start and its chance) is played once per seating, so the luck of
the deal and the order of the seats fall on every policy alike. With ``K`` policies for
``P`` seats, the seatings are every distinct order of the seats filled ``A, B, …, A, …``
in turn, starting once from each policy (so no policy holds the spare seats more often
than another): ``K = P`` gives the ``P!`` permutations; ``A, B`` in 4 seats gives the 6
orders of ``AABB``; three policies in 4 seats give 36. Past ``MAX_SEATINGS`` the
seatings are the ``P`` rotations of each filling and of its reverse instead, which still
give every policy every seat equally often, and each policy both neighbours' turns
before its own (docs/strategies.md §2).
"""

from __future__ import annotations

from itertools import permutations

MAX_SEATINGS = 120  # 5 policies in 5 seats; 6 distinct policies in 6 seats take rotations


def _fillings(k: int, players: int) -> list[tuple[int, ...]]:
    """The seat fillings ``r, r+1, …`` (policy indices mod ``k``), one per first policy."""
    return list(dict.fromkeys(tuple((r + s) % k for s in range(players)) for r in range(k)))


def seatings(k: int, players: int) -> list[tuple[int, ...]]:
    """Every seating of ``k`` policies (indices 0..k-1) in ``players`` seats, as the
    policy index of each seat, in a fixed order; each policy holds every seat equally
    often over them."""
    if not 1 <= k <= players:
        raise ValueError(f"{k} policies for {players} seats")
    fills = _fillings(k, players)
    full = sorted({p for f in fills for p in permutations(f)})
    if len(full) <= MAX_SEATINGS:
        return full
    turned = [g[i:] + g[:i] for f in fills for g in (f, f[::-1]) for i in range(players)]
    return list(dict.fromkeys(turned))
