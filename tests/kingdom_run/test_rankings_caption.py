"""Kingdom Run's two rankings say which they are (issue 34, item 6): the table without
rollouts ranks by this turn (``turn ev``), a greedy lower bound where the caption says so
first; ``--rollouts`` ranks by the end of the game (``final ev``). The JSON key stays
``ev``; the docs say which ranking to trust when they differ."""

from __future__ import annotations

from pathlib import Path

import pytest

from checks import ok
from oddsbot.analyser.kingdom_run import advise

ROLL = "examples/kingdom-run-roll-4p.json"
# 2 players, early: every keep-set rests on a final roll past a table budget of 10,000
# states (and 12 of its 16 rows past advise.SEARCH_BUDGET itself)
PAST = ("kingdom-run p2 K,W to=2 t=0:W1,F1,G1/1:K2,W2,F2,G2/2:K3,W3,F3,G3/"
        "3:K4,W4,F4,G4/8:K1 tok=8,4 roll=SCBZ rr=0")
ALL_EXACT = ("kingdom-run p2 K,W to=2 t=6:G4/7:F4,G1,G2/13:F2,F3,G3/20:W2/24:K3 "
             "pod=K4,W1,W4,W3,F1,K1,K2 tok=4,8 roll=- rr=0")
SOME_GREEDY = ("kingdom-run p4 K,W,F,G to=1 t=0:K1,W1,F1,G1/1:K2,W2,F2,G2/2:K3,W3,F3,G3/"
               "3:K4,W4,F4,G4 tok=3,3,3,3 roll=TTYY rr=0")  # some rows past 50,000 states


def budget(monkeypatch: pytest.MonkeyPatch, states: int) -> None:
    """Positions past the table's search budget, found deliberately: a small budget."""
    monkeypatch.setattr(advise, "SEARCH_BUDGET", states)


def how_large(data: dict) -> str:
    """What the caption says of the final rolls past the budget (from the provenance)."""
    prov = data["provenance"]
    assert 0 < prov["greedy_rolls"] <= prov["final_rolls"]
    return (f"({prov['greedy_rolls']} of {prov['final_rolls']} final rolls need more than "
            f"the table's {prov['search_budget']:,} states of search; method greedy, --wide)")


def words(text: str) -> str:
    return " ".join(text.split())


def header(out: str) -> list[str]:
    line = next(line for line in out.splitlines() if line.startswith("┃"))
    return [cell.strip() for cell in line.split("┃")[1:-1]]


def caption(out: str) -> str:
    """The caption: the lines after the table's bottom border, as one line."""
    lines = out.splitlines()
    bottom = max(i for i, line in enumerate(lines) if line.startswith("└"))
    return words("\n".join(lines[bottom + 1:]))


def test_greedy_rows_put_lower_bound_first(oddsbot_cli, monkeypatch):
    budget(monkeypatch, 10_000)
    out = ok(oddsbot_cli("advise", PAST)).out
    data = ok(oddsbot_cli("advise", PAST, "-f", "json")).json()
    assert all(row["method"] == "greedy" for row in data["actions"])
    assert caption(out).startswith("lower bound: every row values some final rolls by the "
                                   "greedy sequence")
    assert data["provenance"]["search_budget"] == 10_000
    assert how_large(data) in caption(out)
    assert "exact over every re-roll" not in caption(out)
    assert header(out)[:2] == ["action", "turn ev"]
    assert "turn ev: score minus the best other's after this turn" in caption(out)
    assert "ev" in data["actions"][0] and "turn ev" not in data["actions"][0]


def test_some_greedy_rows_are_counted_first(oddsbot_cli, monkeypatch):
    budget(monkeypatch, 50_000)
    data = ok(oddsbot_cli("advise", SOME_GREEDY, "-f", "json")).json()
    greedy = sum(row["method"] == "greedy" for row in data["actions"])
    assert 0 < greedy < len(data["actions"])
    out = caption(ok(oddsbot_cli("advise", SOME_GREEDY)).out)
    assert out.startswith(f"lower bound on {greedy} of {len(data['actions'])} rows: they "
                          f"value some final rolls by the greedy sequence")
    assert how_large(data) in out


def test_no_greedy_row_no_lower_bound(oddsbot_cli):
    data = ok(oddsbot_cli("advise", ALL_EXACT, "--roll", "TTZZ", "-f", "json")).json()
    assert {row["method"] for row in data["actions"]} == {"exact"}
    out = caption(ok(oddsbot_cli("advise", ALL_EXACT, "--roll", "TTZZ")).out)
    assert "lower bound" not in out
    assert "exact over every re-roll, the best sequence of each" in out


def test_rollouts_head_the_final_margin(oddsbot_cli):
    args = ("advise", ROLL, "--rollouts", "8")
    out = ok(oddsbot_cli(*args)).out
    assert header(out)[:2] == ["action", "final ev"]
    assert "final ev: expected final margin over the best other player" in caption(out)
    row = ok(oddsbot_cli(*args, "-f", "json")).json()["actions"][0]
    assert "ev" in row and "final ev" not in row


def test_the_docs_say_which_ranking_to_trust():
    text = words(Path("docs/games/kingdom-run.md").read_text())
    assert "**When the two rankings differ.**" in text
    assert "Trust the rollouts when their errors separate the rows" in text
    assert "the JSON key stays `ev`" in text


def test_replay_searches_within_its_own_budget(oddsbot_cli, monkeypatch, tmp_path):
    """``replay`` values its re-roll decisions within ``advise.REPLAY_BUDGET`` states a
    table (docs/games/kingdom-run.md, ``oddsbot replay``), ``advise`` within
    ``SEARCH_BUDGET``: the budget each re-roll table is searched with, seen by the table."""
    record = tmp_path / "first-turns.record"
    lines = Path("examples/kingdom-run-game-4p.record").read_text().splitlines()
    record.write_text("\n".join(lines[:3]) + "\n")
    seen: list[int] = []
    table = advise.reroll_table

    def spy(pos, budget):
        seen.append(budget)
        return table(pos, budget)

    monkeypatch.setattr(advise, "reroll_table", spy)
    ok(oddsbot_cli("replay", record, "-f", "json"))
    assert seen == [advise.REPLAY_BUDGET] * 2 and advise.REPLAY_BUDGET < advise.SEARCH_BUDGET
    seen.clear()
    ok(oddsbot_cli("advise", ROLL, "-f", "json"))
    assert seen == [advise.SEARCH_BUDGET]
