"""``oddsbot arena`` on the toy coin race (``toy_race.py``), whose win chances are known
exactly: seatings, paired deals, the table's intervals and ratings, both ways of playing
(whole games, one decision at a time), user policies and their forfeits, outputs."""

from __future__ import annotations

import json
import math
import sys
from functools import lru_cache

import pandas as pd
import pytest

from oddsbot.analyser import registry
from oddsbot.reports.arena.lineups import seatings

from test_toy_game import _load_toy

GOAL = 5


@pytest.fixture
def toy():
    module = _load_toy()
    registry.register(module.GAME)
    yield module
    registry.unregister(module.NAME)


@pytest.fixture
def bots(tmp_path, monkeypatch):
    """A user's module of policies, importable from the current folder."""
    (tmp_path / "toybots.py").write_text(
        "import time\n"
        "def flip(position, legal, rng):\n    return 'flip'\n"
        "def walk(position, legal, rng):\n    return 'walk'\n"
        "def coin(position, legal, rng):\n    return legal[int(rng.integers(len(legal)))]\n"
        "def other_coin(position, legal, rng):\n"
        "    return legal[-1 - int(rng.integers(len(legal)))]\n"
        "def broken(position, legal, rng):\n    raise ValueError('no idea')\n"
        "def cheat(position, legal, rng):\n    return 'jump'\n"
        "def slow(position, legal, rng):\n    while True:\n        time.sleep(0.01)\n"
        "calls = [0]\n"
        "def ctrl_c(position, legal, rng):\n    calls[0] += 1\n"
        "    if calls[0] == 40:\n        raise KeyboardInterrupt\n    return 'flip'\n")
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    sys.modules.pop("toybots", None)


@lru_cache(maxsize=None)
def exact_first_wins(me: int, other: int, mine: str, theirs: str, to_move: int) -> float:
    """P(seat 0 wins) of the 2-player coin race from pawns (me, other), seat 0 always
    playing ``mine``, seat 1 ``theirs`` (walker/flipper), written from the rules."""
    if me >= GOAL:
        return 1.0
    if other >= GOAL:
        return 0.0
    policy = mine if to_move == 0 else theirs
    steps = [(1, 1.0)] if policy == "walker" else [(3, 0.5), (0, 0.5)]
    total = 0.0
    for gain, p in steps:
        if to_move == 0:
            total += p * exact_first_wins(me + gain, other, mine, theirs, 1)
        else:
            total += p * exact_first_wins(me, other + gain, mine, theirs, 0)
    return total


def ok(run):
    assert run.exc is None, run.tb
    assert run.code == 0, run.err
    return run


def test_seatings_give_every_policy_every_seat_equally():
    for k, players in [(2, 2), (2, 3), (2, 4), (3, 4), (4, 4), (3, 5), (6, 6), (8, 8)]:
        lineups = seatings(k, players)
        assert len(set(lineups)) == len(lineups)
        for seat in range(players):
            counts = [sum(1 for s in lineups if s[seat] == p) for p in range(k)]
            assert len(set(counts)) == 1, (k, players, seat, counts)
    assert len(seatings(2, 2)) == 2 and len(seatings(3, 4)) == 36
    assert len(seatings(4, 4)) == 24 and len(seatings(6, 6)) == 12  # rotations past 120


def test_walker_against_flipper_matches_the_exact_chances(toy, oddsbot_cli):
    """Win rates within 4 standard errors of the exact ones: each policy's rate is the
    mean of its chance in seat 0 and in seat 1."""
    answer = ok(oddsbot_cli("arena", "toy-race", "--policies", "walker,flipper",
                            "--games", "4000", "-f", "json")).json()
    rows = {r["policy"]: r for r in answer["policies"]}
    flipper = (exact_first_wins(0, 0, "flipper", "walker", 0)
               + 1 - exact_first_wins(0, 0, "walker", "flipper", 0)) / 2
    assert answer["deals"] == 2000 and answer["seatings"] == 2 and answer["games"] == 4000
    se = (rows["flipper"]["win_hi"] - rows["flipper"]["win"]) / 1.959963984540054
    assert abs(rows["flipper"]["win"] - flipper) < 4 * se
    assert abs(rows["walker"]["win"] + rows["flipper"]["win"] - 1) < 1e-12
    paired = answer["paired"]
    assert paired["first"] == "walker" and paired["p_value"] < 1e-6
    assert paired["difference"] == pytest.approx(1 - 2 * rows["flipper"]["win"])
    assert rows["flipper"]["rating"] > rows["walker"]["rating"]
    assert rows["flipper"]["rating_lo"] > rows["walker"]["rating_hi"]


@pytest.mark.parametrize("policies", ["a=random,b=random", "a=toybots:coin,b=toybots:coin"])
def test_identical_policies_show_no_difference(toy, oddsbot_cli, bots, policies):
    """Two copies of one policy meet the same chance and the same decision streams in
    both seatings of a deal, so the paired difference is exactly 0 (p = 1)."""
    answer = ok(oddsbot_cli("arena", "toy-race", "--policies", policies, "--games", "400",
                            "-f", "json")).json()
    assert answer["paired"] | {"first": "a", "second": "b"} == {
        "first": "a", "second": "b", "difference": 0.0, "lo": 0.0, "hi": 0.0, "p_value": 1.0}


def test_equally_good_policies_show_no_significant_difference(toy, oddsbot_cli, bots):
    """Two policies that choose alike in law but not in fact (each action evenly, from
    the two ends of the list): their difference is chance, and its interval holds 0."""
    answer = ok(oddsbot_cli("arena", "toy-race", "--policies",
                            "a=toybots:coin,b=toybots:other_coin", "--games", "600",
                            "--seed", "3", "-f", "json")).json()
    paired = answer["paired"]
    assert paired["lo"] < 0 < paired["hi"] and paired["p_value"] > 0.05
    assert answer["provenance"]["how"] == "one decision at a time"


def test_both_ways_of_playing_agree(toy, oddsbot_cli, bots):
    """The same pairing played in whole games (compiled policies) and one decision at a
    time (the user's functions that do the same) gives win rates within their
    intervals of each other."""
    fast = ok(oddsbot_cli("arena", "toy-race", "--policies", "walker,flipper", "--games",
                          "2000", "-f", "json")).json()["policies"]
    slow = ok(oddsbot_cli("arena", "toy-race", "--policies", "w=toybots:walk,f=toybots:flip",
                          "--games", "2000", "-f", "json")).json()["policies"]
    d = fast[0]["win"] - slow[0]["win"]
    se = math.hypot(fast[0]["win_hi"] - fast[0]["win"], slow[0]["win_hi"] - slow[0]["win"])
    assert abs(d) < 2 * se  # each half-width is 1.96 SE: 2 x that is ~4 SE of the difference


def test_same_seed_same_table(toy, oddsbot_cli, bots):
    """Byte for byte, with --no-times (decision times differ from run to run), in every
    format; the times are there otherwise."""
    args = ("arena", "toy-race", "--policies", "random,f=toybots:flip", "--players", "3",
            "--games", "60", "--seed", "11", "--no-times")
    for fmt in ("json", "table", "csv"):
        first, again = ok(oddsbot_cli(*args, "-f", fmt)), ok(oddsbot_cli(*args, "-f", fmt))
        assert first.out == again.out
        assert "ms_per_decision" not in first.out and "ms/dec" not in first.out
    answer = ok(oddsbot_cli(*args, "-f", "json")).json()
    assert answer["seatings"] == 6 and answer["games"] == 60
    timed = ok(oddsbot_cli(*args[:-1], "-f", "json")).json()["policies"][0]
    assert timed["ms_per_decision"] > 0 and "ms/dec" in ok(oddsbot_cli(*args[:-1])).out


@pytest.mark.parametrize("bot, says", [
    ("broken", "raised ValueError: no idea"),
    ("cheat", "answered 'jump', not a legal action here"),
    ("slow", "took longer than the decision limit of 0.05 s"),
])
def test_a_failing_policy_forfeits_its_games(toy, oddsbot_cli, bots, bot, says):
    run = ok(oddsbot_cli("arena", "toy-race", "--policies", f"mine=toybots:{bot},walker",
                         "--games", "4", "--decision-limit", "0.05", "-f", "json"))
    rows = {r["policy"]: r for r in run.json()["policies"]}
    assert rows["mine"]["forfeits"] == 4 and rows["mine"]["win"] == 0
    assert rows["walker"]["win"] == 1 and rows["walker"]["forfeits"] == 0
    lines = run.err.splitlines()
    assert len(lines) == 4 and all(line.startswith("oddsbot: forfeit: deal ") for line in lines)
    assert says in lines[0] and f"mine (toybots:{bot})" in lines[0]


@pytest.mark.parametrize("args, says", [
    (("--policies", "walker"), "--policies: an arena needs at least two policies"),
    (("--policies", "walker,walker"), "--policies: 'walker' is listed twice; to compare"),
    (("--policies", "walker,hopper"), "--policies: unknown policy 'hopper'"),
    (("--policies", "walker,x=nomodule:f"), "--policies: cannot import nomodule"),
    (("--policies", "walker,x=toybots:nothing"), "--policies: toybots has no function"),
    (("--policies", "walker,flipper", "--players", "9"), "--players: toy-race is for 2-4"),
    (("--policies", "walker,flipper,random", "--players", "2"),
     "--policies: 3 policies for 2 seats"),
    (("--policies", "walker,flipper", "--games", "0"), "--games: must be greater than 0"),
    (("--policies", "walker,search", "--decision-budget", "fast"),
     "--decision-budget: expected a time such as 20ms"),
    (("--policies", "walker,flipper", "--variant", "nope"), "--variant: unknown variant"),
])
def test_bad_options_get_one_line(toy, oddsbot_cli, bots, args, says):
    run = oddsbot_cli("arena", "toy-race", *args)
    assert run.code == 2 and run.exc is None, run.tb
    assert run.err.startswith("oddsbot: error: " + says) and run.err.count("\n") == 1, run.err


def test_out_writes_games_and_table_and_keeps_what_exists(toy, oddsbot_cli, tmp_path):
    out = tmp_path / "arena"
    answer = ok(oddsbot_cli("arena", "toy-race", "--policies", "walker,flipper,random",
                            "--players", "3", "--games", "36", "--out", out, "-f", "json")
                ).json()
    games = pd.read_parquet(out / "games.parquet")
    assert len(games) == answer["games"] * 3
    assert (games.groupby(["deal", "seating"])["win"].sum() == 1).all()
    assert json.loads((out / "table.json").read_text()) == answer
    table = pd.read_csv(out / "table.csv")
    assert list(table["policy"]) == ["walker", "flipper", "random"]
    again = oddsbot_cli("arena", "toy-race", "--policies", "walker,flipper", "--out", out)
    assert again.code == 2 and "exists and is not an empty folder" in again.err
    assert json.loads((out / "table.json").read_text()) == answer


def test_the_table_fits_80_columns(toy, oddsbot_cli):
    run = ok(oddsbot_cli("arena", "toy-race", "--policies", "walker,flipper,random",
                         "--players", "3", "--games", "120"))
    assert max(len(line) for line in run.out.splitlines()) <= 80
    assert "walker" in run.out and "par 33.3 % · intervals 95 %" in run.out


def test_one_deal_has_no_interval_and_says_so(toy, oddsbot_cli):
    """Intervals are over deals: from one deal there is none. The caption says so (no
    ``nan``), and JSON holds null, never the non-standard ``NaN``."""
    args = ("arena", "toy-race", "--policies", "walker,flipper", "--games", "2")
    run = ok(oddsbot_cli(*args))
    assert "2 games = 1 deal × 2 seatings" in run.out
    assert "walker − flipper: " in run.out and "(one deal: no interval)" in run.out
    assert "nan" not in run.out.lower()

    def refuse(word: str):
        raise ValueError(f"{word} is not JSON")

    answer = json.loads(ok(oddsbot_cli(*args, "-f", "json")).out, parse_constant=refuse)
    assert answer["paired"]["lo"] is None and answer["paired"]["p_value"] is None
    assert all(r["win_lo"] is None for r in answer["policies"])


@lru_cache(maxsize=None)
def best_against(me: int, other: int, theirs: str, to_move: int) -> float:
    """P(seat 0 wins) with seat 0 playing perfectly against seat 1 always playing
    ``theirs`` (walker/flipper): the optimum, from the rules."""
    if me >= GOAL:
        return 1.0
    if other >= GOAL:
        return 0.0
    if to_move == 1:
        steps = [(1, 1.0)] if theirs == "walker" else [(3, 0.5), (0, 0.5)]
        return sum(p * best_against(me, min(GOAL, other + g), theirs, 0) for g, p in steps)
    walk = best_against(min(GOAL, me + 1), other, theirs, 1)
    flip = 0.5 * best_against(min(GOAL, me + 3), other, theirs, 1) + 0.5 * best_against(
        me, other, theirs, 1)
    return max(walk, flip)


def test_search_beats_walker_and_no_more_than_perfect_play_does(toy, oddsbot_cli):
    """``search`` on a playout budget against walker: reproducible; significantly ahead
    of walker, and not above perfect play's exact win rate (its playouts assume random
    play of both seats, so it need not reach it)."""
    args = ("arena", "toy-race", "--policies", "search,walker", "--decision-budget", "64p",
            "--seed", "2", "-f", "json")
    answer = ok(oddsbot_cli(*args, "--games", "300")).json()
    rows = {r["policy"]: r for r in answer["policies"]}
    perfect = (best_against(0, 0, "walker", 0) + 1 - _walker_first_against_best()) / 2
    se = (rows["search"]["win_hi"] - rows["search"]["win"]) / 1.959963984540054
    assert rows["search"]["win"] < perfect + 4 * se
    assert answer["paired"]["p_value"] < 0.01 and answer["paired"]["difference"] > 0
    few = [ok(oddsbot_cli(*args, "--games", "20")).json() for _ in range(2)]
    assert few[0]["policies"][0]["win"] == few[1]["policies"][0]["win"]


def _walker_first_against_best() -> float:
    """P(walker wins) when walker moves first against perfect play."""
    @lru_cache(maxsize=None)
    def value(walker: int, best: int, to_move: int) -> float:
        if walker >= GOAL:
            return 1.0
        if best >= GOAL:
            return 0.0
        if to_move == 0:
            return value(min(GOAL, walker + 1), best, 1)
        walk = value(walker, min(GOAL, best + 1), 0)
        flip = 0.5 * value(walker, min(GOAL, best + 3), 0) + 0.5 * value(walker, best, 0)
        return min(walk, flip)
    return value(0, 0, 0)


def test_ctrl_c_keeps_the_deals_played_in_every_seating(toy, oddsbot_cli, bots, tmp_path):
    """Ctrl-C mid-run: the table and --out cover the deals finished in every seating,
    and the command says so in one line, exit code 130."""
    out = tmp_path / "stopped"
    run = oddsbot_cli("arena", "toy-race", "--policies", "c=toybots:ctrl_c,walker",
                      "--games", "200", "--out", out, "-f", "json")
    assert run.code == 130 and run.exc is None, run.tb
    answer = json.loads(run.out)
    assert 0 < answer["deals"] < 100 and answer["games"] == 2 * answer["deals"]
    assert run.err.startswith("oddsbot: error: interrupted: the table is of the ")
    assert run.err.count("\n") == 1 and str(out) in run.err
    assert len(pd.read_parquet(out / "games.parquet")) == 2 * 2 * answer["deals"]


def test_advise_marks_the_search_choice(toy, oddsbot_cli):
    """``advise --search``: the row search chooses is marked, its playouts are named in
    the caption, and -f json gives every candidate's win share."""
    table = ok(oddsbot_cli("advise", "toy-race 0/2 to=1", "--search", "200p")).out
    marked = [line for line in table.splitlines() if "◀" in line]
    assert len(marked) == 1 and "search (200p, 200 playouts) chooses" in table
    answer = ok(oddsbot_cli("advise", "toy-race 0/2 to=1", "--search", "200p", "-f",
                            "json")).json()["search"]
    assert answer["action"] in marked[0] and answer["playouts"] == 200
    assert [c["action"] for c in answer["candidates"]][0] == answer["action"]
    assert answer["candidates"][0]["win"] >= answer["candidates"][1]["win"]
