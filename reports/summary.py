"""The headline summary that opens every designer report: who wins how often, the test of
equal win rates by seat, and the largest imbalance found, every proportion with its
95 % interval beside the share it would have if nothing were imbalanced.

A game gives its win rates by seat and their test (``sections.seat_tables``), how it
names a seat, and ``Claim``s of its own (e.g. the first bidder's win rate); the summary
adds the win rate of each policy when the seats play more than one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import pandas as pd

from .document import Section, Table
from .numbers import count, p_value, percent, percent_interval, points
from .sections import proportion
from .spec import RunSpec

SeatName = Callable[[int], str]  # seat number -> how the report names it


class Claim(NamedTuple):
    """A headline proportion of games: ``label`` says it as a sentence's start ("the first
    bidder of round 1 wins"), ``rows`` hold it per variant (``variant``, ``p``, ``lo95``,
    ``hi95``; a variant without a row has no such figure) and ``equal`` is its value with
    no imbalance."""

    label: str
    rows: pd.DataFrame
    equal: float


def seat_name(seat: int) -> str:
    return f"seat {seat}"


def _seat_wins(name: SeatName, seat: int) -> str:
    return f"{name(seat)} wins"


def seat_claims(seats: pd.DataFrame, spec: RunSpec, name: SeatName = seat_name
                ) -> list[Claim]:
    """Each seat's win rate (a table of ``sections.seat_tables``) against 1/players."""
    return [Claim(_seat_wins(name, s), seats[seats.seat == s], 1 / spec.players)
            for s in range(spec.players)]


def policy_claims(seats: pd.DataFrame, spec: RunSpec) -> list[Claim]:
    """The share of games won by the seats playing each policy (their shared wins
    summed), against their share of the seats; none when every seat plays one policy."""
    policies = list(dict.fromkeys(spec.policies))
    if len(policies) < 2:
        return []
    out = []
    for policy in policies:
        mine = [s for s, p in enumerate(spec.policies) if p == policy]
        rows = []
        for v, g in seats[seats.seat.isin(mine)].groupby("variant", sort=False):
            rows.append(dict(variant=v, **proportion(g.wins.sum(), g.games.iloc[0])))
        label = (f"the seat{'s' if len(mine) > 1 else ''} playing {policy} "
                 f"({', '.join(map(str, mine))}) win{'' if len(mine) > 1 else 's'}")
        out.append(Claim(label, pd.DataFrame(rows), len(mine) / spec.players))
    return out


def headline_table(spec: RunSpec, claims: Sequence[Claim]) -> pd.DataFrame:
    """Every claim of every variant: ``p`` with its interval, ``equal_share`` and
    ``vs_equal``: whether the interval lies "above" or "below" the equal share or
    contains it ("within")."""
    rows = []
    for v in spec.variants:
        for claim in claims:
            hit = claim.rows[claim.rows.variant == v]
            if hit.empty:
                continue
            p, lo, hi = (float(hit[c].iloc[0]) for c in ("p", "lo95", "hi95"))
            side = "above" if lo > claim.equal else "below" if hi < claim.equal else "within"
            rows.append(dict(variant=v, finding=claim.label, p=p, lo95=lo, hi95=hi,
                             equal_share=claim.equal, vs_equal=side))
    return pd.DataFrame(rows, columns=["variant", "finding", "p", "lo95", "hi95",
                                       "equal_share", "vs_equal"])


def _policies(spec: RunSpec) -> str:
    if len(set(spec.policies)) == 1:
        return f"{spec.policies[0]} at every seat"
    return "seats playing " + ", ".join(spec.policies)


def _largest(found: pd.DataFrame) -> str:
    """The sentence on the largest imbalance: the largest edge (an interval above its
    equal share), or if there is none the largest shortfall (below it)."""
    beyond = found[found.vs_equal == "above"]
    if beyond.empty:
        beyond = found[found.vs_equal == "below"]
    if beyond.empty:
        return "No imbalance found: every interval contains its equal share."
    r = beyond.loc[(beyond.p - beyond.equal_share).abs().idxmax()]
    return (f"Largest imbalance: {r.finding} {percent_interval(r.p, r.lo95, r.hi95)} of "
            f"games against an equal share of {percent(r.equal_share)}, "
            f"{points(r.p - r.equal_share)} points "
            f"[{points(r.lo95 - r.equal_share)}, {points(r.hi95 - r.equal_share)}].")


def _sentence(r) -> str:
    """A headline row as a sentence."""
    return (f"{r.finding[0].upper()}{r.finding[1:]} {percent_interval(r.p, r.lo95, r.hi95)} "
            f"of games (equal share {percent(r.equal_share)}).")


def _p_text(p: float) -> str:
    text = p_value(p)
    return text if text.startswith("<") else f"= {text}"


def _paragraphs(v: str, spec: RunSpec, seats: pd.DataFrame, test: pd.Series,
                found: pd.DataFrame, name: SeatName) -> list[str]:
    """What variant ``v`` found (``found``: its rows of the headline table), in words:
    the largest imbalance, who wins, the seats' test, then the other claims."""
    mine = seats[seats.variant == v]
    rates = ", ".join(f"{name(int(r.seat))} {percent_interval(r.p, r.lo95, r.hi95)}"
                      for r in mine.itertuples())
    others = found[~found.finding.isin([_seat_wins(name, s) for s in mine.seat])]
    out = [f"{v} · {count(int(test.games), 'game')}, {spec.players} players, "
           f"{_policies(spec)}. "
           + _largest(found),
           f"Who wins (ties shared): {rates}; an equal share is {percent(1 / spec.players)}.",
           f"Seat advantage: Pearson's chi-square test of equal win rates by seat gives "
           f"χ² = {test.chi2:.1f} with {int(test.df)} degrees of freedom, "
           f"p {_p_text(test.p_value)}: {test.verdict}."]
    if not others.empty:
        out.append(" ".join(_sentence(r) for r in others.itertuples()))
    return out


def summary_section(spec: RunSpec, seats: pd.DataFrame, seat_test: pd.DataFrame,
                    claims: Sequence[Claim] = (), name: SeatName = seat_name) -> Section:
    """The "Summary" section: what each variant found, in words, and the table of
    headline figures (``headline_table``: every seat, every policy when there are
    several, then the game's ``claims``); ``seats`` and ``seat_test`` as
    ``sections.seat_tables`` makes them, ``name`` names a seat."""
    every = seat_claims(seats, spec, name) + policy_claims(seats, spec) + list(claims)
    table = headline_table(spec, every)
    intro = "Shares of games with their 95 % intervals in brackets; a tie shares a win equally."
    words = [p for v in spec.variants
             for p in _paragraphs(v, spec, seats, seat_test[seat_test.variant == v].iloc[0],
                                  table[table.variant == v], name)]
    legend = ("In the table, equal_share is what a share would be if nothing were "
              "imbalanced, and vs_equal says whether the interval lies above or below it or "
              "contains it (within).")
    return Section("Summary", "\n\n".join([intro, *words, legend]),
                   [Table("summary", "Headline figures", table)])
