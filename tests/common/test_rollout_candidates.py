"""Rollout candidates are chosen across distinct resulting positions, not by the table's
order (issue 34, item 5): one per position, value by value from the best, a tie wider
than the places left spread evenly over it; the caption says how many were rolled out of
how many tied. ``equity.pick_candidates`` against a naive choice, then through the CLI."""

from __future__ import annotations

import random

from checks import ok
from oddsbot.analyser.equity import pick_candidates


def words(text: str) -> str:
    return " ".join(text.split())


def naive(values: list[float], keys: list[object], most: int) -> list[int]:
    """Group the rows by value, best first; keep each key's first row; take a whole group
    while it fits, else ``room`` rows at the middles of equal stretches of it."""
    chosen: list[int] = []
    seen: set[object] = set()
    for value in sorted(set(values), reverse=True):
        firsts = []
        for i, (v, key) in enumerate(zip(values, keys)):
            if v == value and key not in seen:
                seen.add(key)
                firsts.append(i)
        room = most - len(chosen)
        if room <= 0:
            break
        if len(firsts) <= room:
            chosen += firsts
        else:
            step = len(firsts) / room
            chosen += [firsts[int((j + 0.5) * step)] for j in range(room)]
    return chosen


def test_pick_candidates_matches_a_naive_choice():
    rng = random.Random(34)
    for _ in range(300):
        n = rng.randint(1, 60)
        values = sorted((float(rng.randint(0, 4)) for _ in range(n)), reverse=True)
        keys = [(v, rng.randint(0, 12)) for v in values]  # one position has one value
        most = rng.randint(1, 15)
        got = pick_candidates(values, keys.__getitem__, most)
        assert got.chosen == naive(values, keys, most), (values, keys, most)
        assert len({keys[i] for i in got.chosen}) == len(got.chosen)  # distinct positions
        assert got.tied == values.count(values[0])
        assert got.distinct == len({k for v, k in zip(values, keys) if v == values[0]})


def test_a_wide_tie_is_spread_not_taken_from_the_top():
    values = [5.0] * 100 + [4.0] * 10
    got = pick_candidates(values, lambda i: i, 4)
    assert got.chosen == [12, 37, 62, 87]
    assert (got.tied, got.distinct) == (100, 100)


def test_rows_reaching_one_position_are_rolled_out_once():
    values = [3.0] * 6 + [2.0] * 4
    keys = ["a", "a", "b", "b", "b", "c", "d", "d", "e", "f"]
    got = pick_candidates(values, keys.__getitem__, 5)
    # the three positions at 3.0, then 2 places for d, e, f: the middles of two halves
    assert [keys[i] for i in got.chosen] == ["a", "b", "c", "d", "f"]
    assert (got.tied, got.distinct) == (6, 3)


KINGDOM = "examples/kingdom-run-mid-4p.json"


def test_kingdom_run_rolls_out_a_spread_of_the_tied_sequences(oddsbot_cli):
    rows = ok(oddsbot_cli("advise", KINGDOM, "-f", "json")).json()["actions"]
    best = rows[0]["ev"]
    tied = [row["action"] for row in rows if row["ev"] == best]  # distinct positions
    assert len(tied) > 12
    expected = {tied[int((j + 0.5) * len(tied) / 12)] for j in range(12)}
    data = ok(oddsbot_cli("advise", KINGDOM, "--rollouts", "4", "-f", "json")).json()
    assert {row["action"] for row in data["actions"]} == expected
    assert expected != set(tied[:12])  # not the table's first rows
    prov = data["provenance"]
    assert (prov["candidates"], prov["tied"], prov["distinct_tied"]) == (12, len(tied),
                                                                         len(tied))
    out = words(ok(oddsbot_cli("advise", KINGDOM, "--rollouts", "4")).out)
    assert (f"12 rolled out of {len(tied):,} sequences tied at the best ev ({len(tied):,} "
            f"distinct positions, spread evenly over them)") in out


def test_five_tribes_caption_names_the_tie_and_the_rolled(oddsbot_cli):
    args = ("advise", "examples/five-tribes-opening-4p.json")
    rows = ok(oddsbot_cli(*args, "-f", "json")).json()["actions"]
    eligible = [row for row in rows if "then best" not in row["action"]]
    best = max(row["ev"] for row in eligible)
    tied = [row["action"] for row in eligible if row["ev"] == best]
    data = ok(oddsbot_cli(*args, "--rollouts", "2", "--candidates", "3", "-f", "json")).json()
    prov = data["provenance"]
    assert (prov["candidates"], prov["tied"]) == (3, len(tied))
    assert 3 <= prov["distinct_tied"] <= len(tied)
    rolled = [row["action"] for row in data["actions"] if row.get("win_p") is not None]
    assert len(rolled) == 3 and set(rolled) <= set(tied)
    assert set(rolled) != set(tied[:3])
    out = words(ok(oddsbot_cli(*args, "--rollouts", "2", "--candidates", "3")).out)
    assert (f"3 rolled out of {len(tied):,} turns tied at the best ev "
            f"({prov['distinct_tied']:,} distinct positions, spread evenly over them)") in out
