"""The EV table's caption says how many rows tie at the best value (issue 34, item 5): a
player shown the first rows of thousands at 33.000 learns that the order among them means
nothing. Counted on the whole table (``-f json``), whatever ``--top`` shows."""

from __future__ import annotations

from checks import ok


def words(text: str) -> str:
    return " ".join(text.split())


def test_the_caption_counts_the_rows_tied_at_the_best(oddsbot_cli):
    record = "examples/five-tribes-bids-4p.record"
    rows = ok(oddsbot_cli("advise", record, "-f", "json")).json()["actions"]
    evs = [row["ev"] for row in rows]
    ties = evs.count(max(evs))
    assert ties > 1
    shown = ok(oddsbot_cli("advise", record, "--top", "3")).out
    assert f"· {ties:,} rows tie at the best ev ·" in words(shown)


def test_no_tie_no_words(oddsbot_cli):
    out = ok(oddsbot_cli("advise", "examples/mumia-mid-4p.json", "--roll", "4,PM",
                         "--samples", "64")).out
    assert "tie at the best" not in words(out)
