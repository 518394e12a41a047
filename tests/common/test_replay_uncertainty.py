"""``oddsbot replay`` shows the standard error of every sampled value (issue 34, item 7):
the JSON turns carry ``ev_se``, ``best_ev_se`` and ``ev_lost_se`` (with rollouts also
``win_se``, ``best_win_se`` and ``equity_lost_se``), a positive number where the value is
sampled and null where it is exact; the compact table stays within 80 columns and its
caption gives the largest SE of each; ``--wide`` shows each SE."""

from __future__ import annotations

from pathlib import Path

import pytest

from checks import ok
from oddsbot.analyser.records_common import ROLLOUT_SE_COLUMNS, SE_COLUMNS

ROOT = Path(__file__).resolve().parents[2]


def head(path: str, lines: int) -> str:
    """The first ``lines`` lines of a record that say something (the start line and the
    first turns: a short game, quick to annotate)."""
    said = [line for line in (ROOT / path).read_text().splitlines()
            if line.split("#", 1)[0].strip()]
    return "\n".join(said[:lines]) + "\n"


# game: (a short record, replay's options); every one values some turn by sampling
SAMPLED = {
    "camel-up": (head("examples/camel-up-game-4p.record", 5), ("--samples", "300")),
    "camel-up-cards": (head("examples/camel-up-cards-opening-4p.record", 7),
                       ("--samples", "300")),
    "mumia": (head("examples/mumia-game-4p.record", 8), ("--samples", "10")),
    "mumia rollouts": (head("examples/mumia-game-4p.record", 6), ("--rollouts", "10")),
    "kingdom-run rollouts": (head("examples/kingdom-run-game-4p.record", 3),
                             ("--rollouts", "16")),
}


def words(text: str) -> str:
    """``text`` with the table's line breaks and padding folded to single spaces."""
    return " ".join(text.split())


def largest(turns: list[dict], *columns: str) -> float:
    return max(t[c] for t in turns for c in columns if t[c] is not None)


@pytest.mark.parametrize("game", SAMPLED)
def test_sampled_values_have_their_se(oddsbot_cli, game):
    record, options = SAMPLED[game]
    turns = ok(oddsbot_cli("replay", "-", *options, "-f", "json",
                           stdin=record)).json()["turns"]
    rolled = "--rollouts" in options
    for t in turns:
        assert set(SE_COLUMNS + (ROLLOUT_SE_COLUMNS if rolled else [])) <= set(t)
        for se in (t["ev_se"], t["best_ev_se"], t["ev_lost_se"]):
            assert se is None or se > 0 or (se == 0 and t["action"] == t["best"])
        if t.get("method") == "monte-carlo":  # Mumia, Kingdom Run: the table's method
            assert t["best_ev_se"] > 0
        if t.get("method") == "exact" or (t["ev_se"] is None and t["best_ev_se"] is None):
            assert t["ev_se"] is None and t["best_ev_se"] is None and t["ev_lost_se"] is None
        if t["ev_lost_se"] is not None and t["action"] == t["best"]:
            assert t["ev_lost_se"] == 0  # the same estimate
    assert any(t["ev_se"] is not None for t in turns)
    if game in ("camel-up", "camel-up-cards"):  # no paired SE of ev: the bound
        for t in turns:
            if t["ev_lost_se"] and t["action"] != t["best"]:
                assert t["ev_lost_se"] == pytest.approx((t["ev_se"] or 0)
                                                        + (t["best_ev_se"] or 0))
    if game == "camel-up":  # a pyramid action's value is exact (one die, one EP)
        assert all(t["ev_se"] is None for t in turns if t["action"] == "pyramid")
    if rolled:
        valued = [t for t in turns if t.get("win_p") is not None]
        # sampled, so never null (0 where every rollout ended alike, e.g. none won)
        assert valued and all(t[c] >= 0 for t in valued for c in ROLLOUT_SE_COLUMNS)
        assert any(t["win_se"] > 0 for t in valued)


@pytest.mark.parametrize("game", SAMPLED)
def test_caption_gives_the_largest_se(oddsbot_cli, game):
    record, options = SAMPLED[game]
    turns = ok(oddsbot_cli("replay", "-", *options, "-f", "json",
                           stdin=record)).json()["turns"]
    out = ok(oddsbot_cli("replay", "-", *options, stdin=record)).out
    assert max(map(len, out.splitlines())) <= 80
    shown = [f"ev {largest(turns, 'ev_se', 'best_ev_se'):.3f}",
             f"ev_lost {largest(turns, 'ev_lost_se'):.3f}"]
    if "--rollouts" in options:
        shown += [f"win_p {largest(turns, 'win_se', 'best_win_se'):.3f}",
                  f"equity_lost {largest(turns, 'equity_lost_se'):.3f}"]
    assert f"SE at most: {', '.join(shown)} (sampled values; each with --wide)" in words(out)


def test_wide_shows_each_se(oddsbot_cli):
    record, options = SAMPLED["camel-up"]
    wide = ok(oddsbot_cli("replay", "-", *options, "--wide", stdin=record)).out
    header = next(line for line in wide.splitlines() if "ev_lost" in line)
    assert [c for c in SE_COLUMNS if c in header] == SE_COLUMNS
    compact = ok(oddsbot_cli("replay", "-", *options, stdin=record)).out
    assert "ev_se" not in compact.split("SE at most")[0]


@pytest.mark.parametrize("record", [
    head("examples/kingdom-run-game-4p.record", 3),  # exact or greedy values
    head("tests/five_tribes/golden/five-tribes-4p-seed5.txt", 4),  # bids: the bid model
])
def test_exact_values_have_no_se(oddsbot_cli, record):
    turns = ok(oddsbot_cli("replay", "-", "-f", "json", stdin=record)).json()["turns"]
    assert turns and all(t[c] is None for t in turns for c in SE_COLUMNS)
    assert "SE at most" not in words(ok(oddsbot_cli("replay", "-", stdin=record)).out)
