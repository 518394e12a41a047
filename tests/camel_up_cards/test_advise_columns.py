"""Every row of ``oddsbot advise -f json`` carries the core columns ``action, ev, se,
method, gap`` first (what scripts and the ``serve`` page read), with and without
``--rollouts``; ``se`` is 0 where the value is exact (docs/games/camel-up-cards.md §14.1)."""

from __future__ import annotations

from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CORE = ["action", "ev", "se", "method", "gap"]


@pytest.mark.parametrize("args", [
    ("camel-up-cards-4p.json", "--samples", "500"),
    ("camel-up-cards-late.json", "--samples", "300", "--rollouts", "20", "--top", "3"),
], ids=["plain", "rollouts"])
def test_every_json_row_carries_the_core_columns(oddsbot_cli, args):
    rows = oddsbot_cli("advise", EXAMPLES / args[0], *args[1:], "-f", "json").json()["actions"]
    assert rows and all(list(row)[:5] == CORE for row in rows)
    assert {row["method"] for row in rows} <= {"exact", "monte-carlo"}
    assert all(row["se"] == 0 for row in rows if row["method"] == "exact")
    assert all(row["se"] > 0 for row in rows if row["method"] == "monte-carlo")
    assert rows[0]["gap"] == 0 and all(row["gap"] >= 0 for row in rows)
