"""``oddsbot arena`` on the real games: every game's arena runs in both ways of playing,
a handicapped copy of a policy is found worse, and a local Dask cluster gives the same
table as this process (docs/strategies.md)."""

from __future__ import annotations

import sys

import pytest

from oddsbot.analyser import registry
from oddsbot.analyser.face import Capability

GAMES = sorted(registry.specs())


def ok(run):
    assert run.exc is None, run.tb
    assert run.code == 0, run.err
    return run


@pytest.fixture
def handicapped(tmp_path, monkeypatch):
    """A user's policy: the game's heuristic, but the random policy's choice one decision
    in three (the handicap; the legal list is not read, so it is never made)."""
    (tmp_path / "handicap.py").write_text(
        "from oddsbot.analyser.registry import spec\n"
        "def play(position, legal, rng):\n"
        "    policy = 'random' if rng.random() < 1 / 3 else 'heuristic'\n"
        "    face = spec(position.variant).load()\n"
        "    return face.choose(position, policy, int(rng.integers(2**63)))\n")
    monkeypatch.chdir(tmp_path)
    yield
    sys.modules.pop("handicap", None)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_an_arena(name, oddsbot_cli):
    """Whole games in the kernel: the win shares of every game sum to 1 over its seats,
    and the table names both policies."""
    spec = registry.spec(name)
    answer = ok(oddsbot_cli("arena", name, "--policies", "heuristic,random", "--games", "12",
                            "--no-times", "-f", "json")).json()
    rows = {r["policy"]: r for r in answer["policies"]}
    assert set(rows) == {"heuristic", "random"}
    assert answer["players"] >= spec.players[0] and answer["provenance"]["how"] == \
        "whole games in the kernel"
    seats = {"heuristic": rows["heuristic"]["seats"], "random": rows["random"]["seats"]}
    total = sum(rows[p]["win"] * seats[p] for p in rows)
    assert abs(total - answer["games"]) < 1e-9 * answer["games"]


# games enough for the handicap to show: Five Tribes' games are long played one decision at
# a time (32 s of CPU for 120), and 40 already put the interval's low end at 0.64
HANDICAP_GAMES = {"five-tribes": 40}


@pytest.mark.parametrize("name", GAMES)
def test_a_handicapped_policy_is_found_worse(name, oddsbot_cli, handicapped):
    """The heuristic against itself with a random move one decision in three, played one
    decision at a time: worse by a significant margin (one-sided, the interval of the
    paired difference below 0)."""
    if not registry.spec(name).has(Capability.SEATS):
        pytest.skip(f"{name} has no arena seats yet")
    games = HANDICAP_GAMES.get(name, 120)
    answer = ok(oddsbot_cli("arena", name, "--policies", "heuristic,weak=handicap:play",
                            "--games", str(games), "--seed", "5", "-f", "json")).json()
    paired = answer["paired"]
    assert paired["difference"] > 0 and paired["lo"] > 0, paired
    assert answer["provenance"]["how"] == "one decision at a time"


def test_a_local_dask_cluster_gives_the_same_table(oddsbot_cli):
    args = ("arena", "camel-up", "--policies", "heuristic,random", "--games", "1200",
            "--seed", "3", "--no-times", "-f", "json")
    here = ok(oddsbot_cli(*args)).json()
    assert ok(oddsbot_cli(*args, "--workers", "2")).json() == here


def test_a_compiled_policy_s_decision_time_is_shown_not_rounded_to_zero(oddsbot_cli):
    """Policies played in the kernel decide in under a microsecond: the people's table
    shows ``<0.001`` ms (not ``0.000``, which reads as no time) in a column as narrow as
    before, and the JSON keeps the value."""
    from oddsbot.reports.arena.output import people_table

    args = ("arena", "camel-up", "--policies", "heuristic,random", "--games", "60")
    answer = ok(oddsbot_cli(*args, "-f", "json")).json()
    times = [r["ms_per_decision"] for r in answer["policies"]]
    assert all(t > 0 for t in times), times
    shown = people_table(answer)["ms/dec"]
    for t, cell in zip(times, shown):
        assert cell == ("<0.001" if t < 0.0005 else f"{t:.3f}" if t < 1 else f"{t:.1f}")
    assert "0.000 " not in ok(oddsbot_cli(*args)).out
    # the same answer timed otherwise (a loaded machine may time these above 0.5 µs)
    for t, want in ((0.0002, "<0.001"), (0.0007, "0.001"), (0.25, "0.250"), (3.21, "3.2")):
        timed = answer | {"policies": [r | {"ms_per_decision": t}
                                       for r in answer["policies"]]}
        assert people_table(timed)["ms/dec"] == [want] * len(times)
