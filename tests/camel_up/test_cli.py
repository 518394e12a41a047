"""The ``oddsbot`` command line, end to end.

Most tests run the CLI in-process (``oddsbot.analyser.cli.main()`` with a patched
``sys.argv``, output read with ``capsys``); a few run the real console script in a
subprocess to prove the entry point, the stdout/stderr separation and exit code 2.

Covered:

* every command: ``advise``, ``odds``, ``validate``, ``moves``, ``new``, ``games``;
* every output format of ``advise`` and ``odds`` (table, json, csv, markdown), with the JSON
  shapes checked exactly and the EV-table invariants (labels, sort order, gap, exact vs
  Monte Carlo rows, probabilities);
* POSITION as a file path, ``-`` (stdin) and inline notation; JSON and notation of one
  position give the same answer; ``--variant camel-up-2014``; the shipped examples;
* reproducibility (``--seed``, ``--samples``, ``--target-se``);
* a matrix of bad inputs: each must exit 2, print exactly one line ``oddsbot: error: ...``
  on stderr naming what is wrong, nothing on stdout, and never a traceback;
* the user's input file is never modified.

Monte Carlo is kept cheap with ``--samples 20000``.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import os
import re
import subprocess
from pathlib import Path

import pytest
from checks import assert_bad_input, ok
from docs_blocks import oddsbot_script

import oddsbot

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
START = EXAMPLES / "camel-up-start-4p.json"
MID = EXAMPLES / "camel-up-mid-leg.json"
OLD = EXAMPLES / "camel-up-2014.json"
EXAMPLE_FILES = sorted(p for p in EXAMPLES.glob("camel-up*.json")
                       if not p.name.startswith("camel-up-cards"))  # another game

MC = ("--samples", "20000")
COLOURS = ("blue", "green", "yellow", "red", "purple")
COLOURS_2014 = ("blue", "green", "orange", "yellow", "white")
FORMATS = ("table", "json", "csv", "markdown")

# A legal 2nd-edition start in notation (spaces: 1 R, 2 YP, 3 GB, 4-13 empty, 14 W, 15 K, 16).
START_NOTATION = "camel-up R/YP/GB/10/W/K/1 BGYRPX n=4 to=0"
# The 2014 example in notation, read under --variant camel-up-2014.
OLD_NOTATION_AS_NEW = "camel-up O/WB/GY/13 BGOYW n=3"

LABEL = re.compile(r"^(?:ticket (?P<ticket>[a-z]+)|pyramid"
                   r"|(?P<tile>spectator|desert) (?P<space>\d+) (?P<side>cheer|boo|oasis|mirage)"
                   r"|winner (?P<winner>[a-z]+)|loser (?P<loser>[a-z]+)"
                   r"|partner (?P<partner>\d+))$")
# Each edition's tile action words: docs/games/camel-up.md §4 action 2, Appendix A.
TILE_WORDS = {"camel-up": ("spectator", ("cheer", "boo")),
              "camel-up-2014": ("desert", ("oasis", "mirage"))}
ACTION_KEYS = {"action", "ev", "se", "method", "gap"}
OPTIONAL_ACTION_KEYS = {"p_first", "p_second", "p_rest", "landings", "p_race", "cards_ahead"}


# --------------------------------------------------------------------------- helpers


def mid_json(**changes) -> str:
    """The mid-leg example as JSON text with fields changed (``...`` deletes a field)."""
    data = json.loads(MID.read_text())
    for key, value in changes.items():
        if value is ...:
            data.pop(key, None)
        else:
            data[key] = value
    return json.dumps(data)


def six_player_json(**changes) -> str:
    data = {"game": "camel-up", "players": 6,
            "track": {"1": ["green", "blue"], "2": ["yellow"], "3": ["purple", "red"],
                      "15": ["white", "black"]},
            "pyramid": "BGYRPX"}
    data.update(changes)
    return json.dumps(data)


def check_probability(p: float, what: str) -> None:
    assert isinstance(p, float | int), what
    assert 0.0 <= p <= 1.0, f"{what} = {p} is not a probability"


def check_odds_json(data: dict, colours=COLOURS, tile_spaces=(), min_samples=1) -> None:
    """The exact shape of ``oddsbot odds --format json`` and its invariants."""
    assert set(data) == {"game", "leg", "race", "provenance"}
    assert data["game"] == "camel-up"
    leg, race = data["leg"], data["race"]
    assert set(leg) == {"rank_probabilities", "ends_game", "tile_landings"}
    assert list(leg["rank_probabilities"]) == list(colours)
    for places in range(5):
        assert math.isclose(sum(leg["rank_probabilities"][c][places] for c in colours), 1.0,
                            abs_tol=1e-9), f"leg place {places + 1} over camels"
    for colour, places in leg["rank_probabilities"].items():
        assert isinstance(places, list) and len(places) == 5, colour
        for p in places:
            check_probability(p, f"leg {colour}")
        assert math.isclose(sum(places), 1.0, abs_tol=1e-9), f"{colour} leg places sum"
    check_probability(leg["ends_game"], "ends_game")
    assert set(leg["tile_landings"]) == {str(s) for s in tile_spaces}
    for space, x in leg["tile_landings"].items():
        assert x >= 0.0, space
    assert set(race) == {"winner", "loser", "samples", "method", "states"}
    exact = race["method"] == "exact"  # docs/games/camel-up.md §9.1
    assert race["method"] in ("exact", "monte-carlo")
    if exact:
        assert race["samples"] == 0 and race["states"] >= 0
    else:
        assert isinstance(race["samples"], int) and race["samples"] >= min_samples
        assert race["states"] == 0
    for end in ("winner", "loser"):
        assert list(race[end]) == list(colours)
        for colour, est in race[end].items():
            assert set(est) == {"p", "se"}, (end, colour)
            check_probability(est["p"], f"{end} {colour}")
            assert est["se"] >= 0.0
            if exact:
                assert est["se"] == 0.0
            elif 0.0 < est["p"] < 1.0:
                assert est["se"] > 0.0
        assert math.isclose(sum(e["p"] for e in race[end].values()), 1.0, abs_tol=1e-9), end
    prov = data["provenance"]
    assert prov["game"] == "camel-up"
    assert prov["oddsbot"] == oddsbot.__version__
    assert prov["samples"] == race["samples"]
    assert {"variant", "seed", "samples", "position"} <= set(prov)


def check_advise_json(data: dict, colours=COLOURS, player=None, players=4) -> list[dict]:
    """The exact shape of ``oddsbot advise --format json`` and the EV-table invariants."""
    assert set(data) == {"game", "player", "actions", "provenance"}
    assert data["game"] == "camel-up"
    if player is not None:
        assert data["player"] == player
    actions = data["actions"]
    assert actions, "no actions"
    labels = [a["action"] for a in actions]
    assert len(set(labels)) == len(labels), "an action is listed twice"
    best = actions[0]["ev"]
    for prev, row in itertools.pairwise(actions):
        assert prev["ev"] >= row["ev"], f"not sorted best first at {row['action']}"
    for row in actions:
        assert ACTION_KEYS <= set(row) <= ACTION_KEYS | OPTIONAL_ACTION_KEYS, row
        m = LABEL.match(row["action"])
        assert m, f"bad action label {row['action']!r}"
        for key in ("ticket", "winner", "loser"):
            if m[key]:
                assert m[key] in colours, row["action"]
        if m["space"]:
            assert 2 <= int(m["space"]) <= 16, row["action"]
            word, sides = TILE_WORDS[data["provenance"]["variant"]]
            assert m["tile"] == word and m["side"] in sides, row["action"]
        if m["partner"]:
            assert 0 <= int(m["partner"]) < players and int(m["partner"]) != data["player"]
        assert math.isclose(row["gap"], best - row["ev"], abs_tol=1e-9), row
        assert row["gap"] >= -1e-12
        if m["winner"] or m["loser"]:
            assert row["method"] == data["provenance"]["race"], row
            assert (row["se"] is None) if row["method"] == "exact" else (row["se"] > 0.0), row
            check_probability(row["p_race"], row["action"])
            assert row["cards_ahead"] >= 0.0
        else:
            assert row["method"] == "exact", row
            assert row["se"] is None, row
        if m["ticket"]:
            for key in ("p_first", "p_second", "p_rest"):
                check_probability(row[key], f"{row['action']} {key}")
            assert math.isclose(row["p_first"] + row["p_second"] + row["p_rest"], 1.0,
                                abs_tol=1e-9)
        if m["space"]:
            assert row["landings"] >= 0.0
    prov = data["provenance"]
    assert prov["game"] == "camel-up"
    assert prov["oddsbot"] == oddsbot.__version__
    assert "variant" in prov
    return actions


# --------------------------------------------------------------------------- games / new


def test_games_lists_every_game_and_variant(oddsbot_cli):
    r = ok(oddsbot_cli("games"))
    rows = [line.split("\t") for line in r.out.splitlines()]
    assert all(len(row) == 3 and row[2] for row in rows), rows
    assert [row[:2] for row in rows] == [["camel-up", "camel-up"],
                                         ["camel-up", "camel-up-2014"],
                                         ["camel-up-cards", "camel-up-cards"],
                                         ["five-tribes", "five-tribes"],
                                         ["five-tribes", "five-tribes-premove"],
                                         *[["kingdom-run", v] for v in (
                                             "kingdom-run", "kingdom-run-linear-podium",
                                             "kingdom-run-exact-zones")],
                                         *[["mumia", v] for v in (
                                             "mumia", "mumia-e1", "mumia-e2", "mumia-e3",
                                             "mumia-e4", "mumia-all", "mumia-sudden")]]


def test_new_default_is_a_legal_start_in_json(oddsbot_cli):
    data = ok(oddsbot_cli("new", "camel-up")).json()
    assert data["game"] == "camel-up" and data["variant"] == "camel-up"
    assert data["players"] == 4 and data["to_move"] == 0
    assert data["money"] == [3, 3, 3, 3]
    assert data["pyramid"] == ["blue", "green", "yellow", "red", "purple", "grey"]
    where = {camel: int(space) for space, stack in data["track"].items() for camel in stack}
    assert sorted(where) == sorted(COLOURS + ("white", "black"))
    assert all(1 <= where[c] <= 3 for c in COLOURS)
    assert all(14 <= where[c] <= 16 for c in ("white", "black"))
    # the JSON it prints is accepted back as a position
    ok(oddsbot_cli("validate", "-", stdin=json.dumps(data)))


def test_new_notation_is_canonical_and_matches_json(oddsbot_cli):
    text = ok(oddsbot_cli("new", "camel-up", "--seed", "5", "--format", "notation")).out
    assert len(text.splitlines()) == 1 and text.startswith("camel-up ")
    assert ok(oddsbot_cli("validate", text.strip())).out == text
    as_json = ok(oddsbot_cli("new", "camel-up", "--seed", "5", "--format", "json")).out
    assert ok(oddsbot_cli("validate", "-", stdin=as_json)).out == text


def test_new_seed_is_reproducible_and_matters(oddsbot_cli):
    first = ok(oddsbot_cli("new", "camel-up", "--seed", "11", "-f", "notation")).out
    again = ok(oddsbot_cli("new", "camel-up", "--seed", "11", "-f", "notation")).out
    assert first == again
    starts = {ok(oddsbot_cli("new", "camel-up", "--seed", s, "-f", "notation")).out
              for s in range(8)}
    assert len(starts) > 1


def test_new_six_players_has_partnerships(oddsbot_cli):
    data = ok(oddsbot_cli("new", "camel-up", "--players", "6", "--seed", "3")).json()
    assert data["players"] == 6
    assert data["partnership"] == [None] * 6
    labels = ok(oddsbot_cli("moves", "-", stdin=json.dumps(data))).out.splitlines()
    assert [x for x in labels if x.startswith("partner ")] == [f"partner {p}"
                                                               for p in range(1, 6)]


@pytest.mark.parametrize("args", [
    ("new", "camel-up", "--variant", "camel-up-2014", "--players", "2"),
    ("new", "camel-up-2014", "--players", "2"),
])
def test_new_2014(oddsbot_cli, args):
    data = ok(oddsbot_cli(*args, "--seed", "4")).json()
    assert data["variant"] == "camel-up-2014" and data["players"] == 2
    assert data["pyramid"] == list(COLOURS_2014)
    camels = sorted(c for stack in data["track"].values() for c in stack)
    assert camels == sorted(COLOURS_2014)
    assert all(1 <= int(s) <= 3 for s in data["track"])
    ok(oddsbot_cli("validate", "-", stdin=json.dumps(data)))


def test_new_2014_same_either_way(oddsbot_cli):
    a = ok(oddsbot_cli("new", "camel-up", "--variant", "camel-up-2014", "--seed", "9")).out
    b = ok(oddsbot_cli("new", "camel-up-2014", "--seed", "9")).out
    assert a == b


# --------------------------------------------------------------------------- validate / moves


def test_validate_prints_canonical_notation_and_message_on_stderr(oddsbot_cli):
    r = ok(oddsbot_cli("validate", str(MID)))
    assert r.out == ("camel-up 3/RY/B/1/GWP/1/-1/2/K/4 BYPX n=4 to=2 money=4,2,5,3 "
                     "bets=P5,G5P3,, pt=1,0,0,1 win=0?\n")
    assert "valid" in r.err and "player 2" in r.err
    # the canonical notation is a fixed point
    assert ok(oddsbot_cli("validate", r.out.strip())).out == r.out


def test_validate_json_round_trips(oddsbot_cli):
    data = ok(oddsbot_cli("validate", str(MID), "--format", "json")).json()
    original = json.loads(MID.read_text())
    assert data["to_move"] == 2 and data["money"] == [4, 2, 5, 3]
    assert data["track"] == {k: v for k, v in original["track"].items()}
    assert data["tiles"] == original["tiles"]
    assert data["ticket_stacks"]["purple"] == [2, 2]
    assert data["ticket_stacks"]["green"] == [3, 2, 2]
    assert data["winner_deck"] == [{"owner": 0, "colour": None}]
    again = ok(oddsbot_cli("validate", "-", "--format", "json", stdin=json.dumps(data))).json()
    assert again == data
    notation = ok(oddsbot_cli("validate", str(MID))).out.strip()
    from_notation = ok(oddsbot_cli("validate", notation, "-f", "json")).json()
    assert from_notation == data


def test_moves_lists_legal_actions(oddsbot_cli):
    labels = ok(oddsbot_cli("moves", str(MID))).out.splitlines()
    assert all(LABEL.match(x) for x in labels), labels
    assert labels[:6] == ["ticket blue", "ticket green", "ticket yellow", "ticket red",
                          "ticket purple", "pyramid"]
    spectator = [x for x in labels if x.startswith("spectator")]
    spaces = {int(x.split()[1]) for x in spectator}
    # camels on 4, 5, 7, 12; player 1's tile on 9 blocks 8, 9, 10; never space 1
    assert spaces == {2, 3, 6, 11, 13, 14, 15, 16}
    assert len(spectator) == 2 * len(spaces)
    assert [x for x in labels if x.startswith(("winner", "loser"))] == \
        [f"winner {c}" for c in COLOURS] + [f"loser {c}" for c in COLOURS]
    assert not any(x.startswith("partner") for x in labels)


def test_moves_json(oddsbot_cli):
    data = ok(oddsbot_cli("moves", str(MID), "--format", "json")).json()
    assert set(data) == {"game", "player", "counts", "moves"}
    assert data["game"] == "camel-up" and data["player"] == 2
    assert data["counts"] == {"actions": len(data["moves"])}
    assert data["moves"] == ok(oddsbot_cli("moves", str(MID))).out.splitlines()


# --------------------------------------------------------------------------- odds


def test_odds_json_shape(oddsbot_cli):
    data = ok(oddsbot_cli("odds", str(MID), *MC, "--format", "json")).json()
    check_odds_json(data, tile_spaces=(9,), min_samples=20000)
    prov = data["provenance"]
    assert prov["variant"] == "camel-up" and prov["seed"] == 0
    assert prov["position"] == ok(oddsbot_cli("validate", str(MID))).out.strip()


def test_odds_start_position(oddsbot_cli):
    data = ok(oddsbot_cli("odds", str(START), *MC, "-f", "json")).json()
    check_odds_json(data, min_samples=20000)
    assert data["leg"]["ends_game"] == 0.0  # nobody can cross the line in the first leg


@pytest.mark.parametrize("fmt", ["csv", "markdown", "table"])
def test_odds_other_formats_agree_with_json(oddsbot_cli, fmt):
    data = ok(oddsbot_cli("odds", str(MID), *MC, "-f", "json")).json()
    r = ok(oddsbot_cli("odds", str(MID), *MC, "--format", fmt))
    if fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(r.out)))
        assert list(rows[0]) == ["camel", "leg_1", "leg_2", "leg_3", "leg_4", "leg_5",
                                 "race_win", "win_se", "race_lose", "lose_se"]
        assert [row["camel"] for row in rows] == list(COLOURS)
        for row in rows:
            c = row["camel"]
            for i in range(5):
                assert math.isclose(float(row[f"leg_{i + 1}"]),
                                    data["leg"]["rank_probabilities"][c][i], abs_tol=1e-9)
            assert math.isclose(float(row["race_win"]), data["race"]["winner"][c]["p"],
                                abs_tol=1e-9)
            assert math.isclose(float(row["lose_se"]), data["race"]["loser"][c]["se"],
                                rel_tol=1e-8)
    elif fmt == "markdown":
        lines = r.out.splitlines()
        assert lines[0] == ("| camel | 1st | 2nd | 3rd | 4th | 5th | race_win | "
                            "win_se | race_lose | lose_se |")  # for people: places named
        assert set(lines[1].replace("|", "").split()) == {"---"}
        assert [line.split("|")[1].strip() for line in lines[2:]] == list(COLOURS)
    else:
        assert "camel" in r.out and "race_win" in r.out
        for c in COLOURS:
            assert c in r.out
        flat = " ".join(r.out.split())
        assert "20,480 samples" in flat and "seed 0" in flat
    assert "Traceback" not in r.err


# --------------------------------------------------------------------------- advise


@pytest.mark.parametrize("path,colours,player,players", [
    (MID, COLOURS, 2, 4),
    (START, COLOURS, 0, 4),
    (OLD, COLOURS_2014, 0, 3),
], ids=["mid-leg", "start-4p", "2014"])
def test_advise_json_shape(oddsbot_cli, path, colours, player, players):
    data = ok(oddsbot_cli("advise", str(path), *MC, "--format", "json")).json()
    actions = check_advise_json(data, colours=colours, player=player, players=players)
    labels = [a["action"] for a in actions]
    assert sorted(labels) == sorted(ok(oddsbot_cli("moves", str(path))).out.splitlines())
    assert "pyramid" in labels
    prov = data["provenance"]
    if path == OLD:  # every 2014 race is solved exactly (docs/games/camel-up.md §9.1)
        assert prov["race"] == "exact" and prov["race_states"] > 0 and "samples" not in prov
    else:
        assert prov["race"] == "monte-carlo"
        assert prov["seed"] == 0 and prov["samples"] >= 20000
    assert prov["variant"] == ("camel-up-2014" if path == OLD else "camel-up")


def test_advise_agrees_with_odds(oddsbot_cli):
    """Ticket rows carry the exact leg odds; winner/loser rows the race odds (same seed)."""
    advice = ok(oddsbot_cli("advise", str(MID), *MC, "--seed", "3", "-f", "json")).json()
    odds = ok(oddsbot_cli("odds", str(MID), *MC, "--seed", "3", "-f", "json")).json()
    rows = {a["action"]: a for a in advice["actions"]}
    for c in COLOURS:
        ranks = odds["leg"]["rank_probabilities"][c]
        t = rows[f"ticket {c}"]
        assert math.isclose(t["p_first"], ranks[0], abs_tol=1e-12)
        assert math.isclose(t["p_second"], ranks[1], abs_tol=1e-12)
        assert rows[f"winner {c}"]["p_race"] == odds["race"]["winner"][c]["p"]
        assert rows[f"loser {c}"]["p_race"] == odds["race"]["loser"][c]["p"]
    assert rows["spectator 6 boo"]["landings"] >= 0.0
    # player 2 holds no tickets and has 5 EP: a pyramid ticket is worth exactly +1 EP
    assert math.isclose(rows["pyramid"]["ev"], 1.0, abs_tol=1e-12)


def test_advise_partner_rows(oddsbot_cli):
    pos = ok(oddsbot_cli("new", "camel-up", "--players", "6", "--seed", "3",
                         "-f", "notation")).out.strip()
    data = ok(oddsbot_cli("advise", pos, *MC, "-f", "json")).json()
    actions = check_advise_json(data, player=0, players=6)
    partner = [a for a in actions if a["action"].startswith("partner ")]
    assert sorted(a["action"] for a in partner) == [f"partner {p}" for p in range(1, 6)]
    assert all(a["method"] == "exact" and a["se"] is None for a in partner)


def test_advise_csv_has_the_same_actions(oddsbot_cli):
    data = ok(oddsbot_cli("advise", str(MID), *MC, "-f", "json")).json()
    r = ok(oddsbot_cli("advise", str(MID), *MC, "--format", "csv"))
    rows = list(csv.DictReader(io.StringIO(r.out)))
    assert list(rows[0])[:5] == ["action", "ev", "se", "method", "gap"]
    assert [row["action"] for row in rows] == [a["action"] for a in data["actions"]]
    for row, a in zip(rows, data["actions"]):
        assert math.isclose(float(row["ev"]), a["ev"], rel_tol=1e-8, abs_tol=1e-9)
        assert math.isclose(float(row["gap"]), a["gap"], rel_tol=1e-8, abs_tol=1e-9)
        assert row["method"] == a["method"]
        assert row["se"] == "" if a["method"] == "exact" else float(row["se"]) > 0


def test_advise_markdown_has_header_row(oddsbot_cli):
    data = ok(oddsbot_cli("advise", str(MID), *MC, "-f", "json")).json()
    lines = ok(oddsbot_cli("advise", str(MID), *MC, "--format", "markdown")).out.splitlines()
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    assert header[:5] == ["action", "ev", "se", "method", "gap"]
    assert set(lines[1].replace("|", "").split()) == {"---"}
    assert len(lines) == 2 + len(data["actions"])
    assert [line.split("|")[1].strip() for line in lines[2:]] == \
        [a["action"] for a in data["actions"]]


def test_advise_table_is_the_default(oddsbot_cli):
    data = ok(oddsbot_cli("advise", str(MID), *MC, "-f", "json")).json()
    r = ok(oddsbot_cli("advise", str(MID), *MC))
    for word in ("action", "ev", "se", "gap", "why"):
        assert word in r.out
    assert "method" not in r.out and "method" in ok(oddsbot_cli("advise", str(MID), *MC,
                                                                "--wide")).out
    for a in data["actions"]:
        assert a["action"] in r.out
    flat = " ".join(r.out.split())
    assert "player 2 to move" in flat and "seed 0" in flat
    assert r.out == ok(oddsbot_cli("advise", str(MID), *MC, "--format", "table")).out


def test_advise_policy_without_rollouts_is_refused(oddsbot_cli):
    assert_bad_input(oddsbot_cli("advise", str(START), *MC, "--policy", "random"),
                     "--policy", "--rollouts")


def test_advise_top(oddsbot_cli):
    data = ok(oddsbot_cli("advise", str(START), *MC, "-f", "json")).json()
    out = ok(oddsbot_cli("advise", str(START), *MC, "--top", "3")).out
    labels = [a["action"] for a in data["actions"]]
    shown = [x for x in labels if re.search(rf"│ {re.escape(x)} +│", out)]
    assert shown == labels[:3]


@pytest.mark.parametrize("fmt", ["json", "csv", "markdown"])
def test_an_explicit_top_applies_to_every_format(oddsbot_cli, fmt):
    every = ok(oddsbot_cli("advise", str(START), *MC, "-f", "json")).json()["actions"]
    out = ok(oddsbot_cli("advise", str(START), *MC, "--top", "3", "-f", fmt)).out
    if fmt == "json":
        assert json.loads(out)["actions"] == every[:3]
    else:
        rows = [line for line in out.splitlines()
                if any(a["action"] in line for a in every)]
        assert [next(a["action"] for a in every if a["action"] in r) for r in rows] == [
            a["action"] for a in every[:3]]


@pytest.mark.parametrize("command", ["validate", "moves"])
@pytest.mark.parametrize("fmt", ["csv", "markdown"])
def test_a_format_a_command_cannot_write_is_refused(oddsbot_cli, command, fmt):
    assert_bad_input(oddsbot_cli(command, str(START), "-f", fmt), "--format", fmt,
                     "'table', 'json'")


@pytest.mark.parametrize("model", ["uniform", "race", "optimistic"])
def test_advise_deck_models(oddsbot_cli, model):
    data = ok(oddsbot_cli("advise", str(MID), *MC, "--deck-model", model, "-f", "json")).json()
    check_advise_json(data, player=2)
    assert data["provenance"]["deck_model"] == model
    # player 0 has one hidden card on the winner deck
    ahead = [a["cards_ahead"] for a in data["actions"] if a["action"].startswith("winner")]
    if model == "optimistic":
        assert all(x == 0.0 for x in ahead)
    else:
        assert all(x > 0.0 for x in ahead)
    losers = [a["cards_ahead"] for a in data["actions"] if a["action"].startswith("loser")]
    assert all(x == 0.0 for x in losers)


# --------------------------------------------------------------------------- position sources


def test_position_from_file_stdin_and_inline_agree(oddsbot_cli, tmp_path):
    notation = ok(oddsbot_cli("validate", str(MID))).out
    text_file = tmp_path / "mid.txt"
    text_file.write_text(notation)
    args = (*MC, "--seed", "7", "-f", "json")
    results = {
        "json file": oddsbot_cli("advise", str(MID), *args),
        "json stdin": oddsbot_cli("advise", "-", *args, stdin=MID.read_text()),
        "notation inline": oddsbot_cli("advise", notation.strip(), *args),
        "notation stdin": oddsbot_cli("advise", "-", *args, stdin=notation),
        "notation file": oddsbot_cli("advise", str(text_file), *args),
    }
    outs = {name: ok(r).out for name, r in results.items()}
    first = outs["json file"]
    check_advise_json(json.loads(first), player=2)
    for name, out in outs.items():
        assert out == first, f"{name} differs from the JSON file"


def test_relative_file_path(oddsbot_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    r = ok(oddsbot_cli("validate", "examples/camel-up-start-4p.json"))
    assert r.out == START_NOTATION + "\n"


def test_inline_notation_with_defaults(oddsbot_cli):
    r = ok(oddsbot_cli("validate", "camel-up R/YP/GB/10/W/K/1 BGYRPX"))
    assert r.out == START_NOTATION + "\n"
    odds_a = ok(oddsbot_cli("odds", START_NOTATION, *MC, "-f", "json")).json()
    odds_b = ok(oddsbot_cli("odds", str(START), *MC, "-f", "json")).json()
    assert odds_a == odds_b


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=[p.stem for p in EXAMPLE_FILES])
def test_examples(oddsbot_cli, path):
    colours = COLOURS_2014 if "2014" in path.name else COLOURS
    notation = ok(oddsbot_cli("validate", str(path))).out
    assert notation.startswith("camel-up-2014 " if "2014" in path.name else "camel-up ")
    moves = ok(oddsbot_cli("moves", str(path))).out.splitlines()
    assert moves
    advice = ok(oddsbot_cli("advise", str(path), *MC, "-f", "json")).json()
    check_advise_json(advice, colours=colours)
    assert sorted(a["action"] for a in advice["actions"]) == sorted(moves)
    data = json.loads(path.read_text())
    odds = ok(oddsbot_cli("odds", str(path), *MC, "-f", "json")).json()
    check_odds_json(odds, colours=colours,
                    tile_spaces=[t["space"] for t in data.get("tiles", [])], min_samples=20000)


# --------------------------------------------------------------------------- variants


def test_variant_2014_on_notation(oddsbot_cli):
    r = ok(oddsbot_cli("validate", OLD_NOTATION_AS_NEW, "--variant", "camel-up-2014"))
    assert r.out == "camel-up-2014 O/WB/GY/13 BGOYW n=3 to=0\n"
    assert r.out == ok(oddsbot_cli("validate", str(OLD))).out
    args = (*MC, "--seed", "2", "-f", "json")
    a = ok(oddsbot_cli("advise", OLD_NOTATION_AS_NEW, "--variant", "camel-up-2014", *args))
    b = ok(oddsbot_cli("advise", str(OLD), *args))
    assert a.out == b.out
    check_advise_json(json.loads(a.out), colours=COLOURS_2014, players=3)


def test_variant_2014_on_json_without_variant(oddsbot_cli):
    data = json.loads(OLD.read_text())
    del data["variant"]
    text = json.dumps(data)
    # without --variant it is read as the 2nd edition, which has no orange camel
    assert_bad_input(oddsbot_cli("validate", "-", stdin=text), "orange")
    r = ok(oddsbot_cli("validate", "-", "--variant", "camel-up-2014", "-f", "json", stdin=text))
    assert json.loads(r.out)["variant"] == "camel-up-2014"
    odds = ok(oddsbot_cli("odds", "-", "--variant", "camel-up-2014", *MC, "-f", "json",
                          stdin=text)).json()
    check_odds_json(odds, colours=COLOURS_2014, min_samples=20000)
    assert odds["provenance"]["variant"] == "camel-up-2014"
    labels = ok(oddsbot_cli("moves", "-", "--variant", "camel-up-2014", stdin=text)).out
    assert "orange" in labels and "purple" not in labels


def test_variant_2014_matching_is_accepted(oddsbot_cli):
    r = ok(oddsbot_cli("validate", str(OLD), "--variant", "camel-up-2014"))
    assert r.out.startswith("camel-up-2014 ")


# --------------------------------------------------------------------------- reproducibility


def test_same_seed_same_json(oddsbot_cli):
    for cmd in ("advise", "odds"):
        a = ok(oddsbot_cli(cmd, str(MID), *MC, "--seed", "42", "-f", "json")).out
        b = ok(oddsbot_cli(cmd, str(MID), *MC, "--seed", "42", "-f", "json")).out
        assert a == b, cmd


def test_different_seeds_change_race_numbers_only(oddsbot_cli):
    a = ok(oddsbot_cli("odds", str(MID), *MC, "--seed", "1", "-f", "json")).json()
    b = ok(oddsbot_cli("odds", str(MID), *MC, "--seed", "2", "-f", "json")).json()
    assert a["leg"] == b["leg"]  # exact
    assert a["race"]["winner"] != b["race"]["winner"]
    assert a["race"]["loser"] != b["race"]["loser"]
    assert (a["provenance"]["seed"], b["provenance"]["seed"]) == (1, 2)
    x = ok(oddsbot_cli("advise", str(MID), *MC, "--seed", "1", "-f", "json")).json()
    y = ok(oddsbot_cli("advise", str(MID), *MC, "--seed", "2", "-f", "json")).json()
    ex = {r["action"]: r["ev"] for r in x["actions"]}
    ey = {r["action"]: r["ev"] for r in y["actions"]}
    mc = [k for k in ex if k.startswith(("winner", "loser"))]
    assert any(ex[k] != ey[k] for k in mc)
    assert all(ex[k] == ey[k] for k in ex if k not in mc)


@pytest.mark.parametrize("n", [1000, 5000, 20000])
def test_samples_reported_at_least_requested(oddsbot_cli, n):
    odds = ok(oddsbot_cli("odds", str(START), "--samples", n, "-f", "json")).json()
    assert odds["race"]["samples"] >= n
    assert odds["provenance"]["samples"] == odds["race"]["samples"]
    advice = ok(oddsbot_cli("advise", str(START), "--samples", n, "-f", "json")).json()
    assert advice["provenance"]["samples"] >= n


def test_target_se_stops_when_reached(oddsbot_cli):
    odds = ok(oddsbot_cli("odds", str(START), "--target-se", "0.01", "-f", "json")).json()
    for end in ("winner", "loser"):
        assert all(e["se"] <= 0.01 for e in odds["race"][end].values())
    assert odds["provenance"]["target_se"] == 0.01
    assert 0 < odds["race"]["samples"] < 1_000_000


# --------------------------------------------------------------------------- bad input

# (id, position text, words the error line must contain). JSON goes through a file,
# notation inline; every one runs under `validate`.
BAD_POSITIONS = [
    ("malformed JSON", '{"game": "camel-up", "track": ', ["malformed JSON"]),
    ("JSON without game", "{}", ["game"]),
    ("deeply nested JSON", '{"game": ' + "[" * 100_000, ["JSON"]),
    ("unknown camel",
     mid_json(track={"4": ["red", "yellow"], "5": ["blue"], "7": ["green", "white", "purple"],
                     "12": ["black"], "1": ["pink"]}),
     ["track[1]", "pink"]),
    ("camel twice",
     mid_json(track={"4": ["red", "yellow"], "5": ["blue"], "7": ["green", "white", "purple"],
                     "12": ["black", "blue"]}),
     ["track", "blue", "twice"]),
    ("camel missing",
     mid_json(track={"4": ["red", "yellow"], "5": ["blue"], "7": ["green", "white", "purple"]}),
     ["track", "black", "missing"]),
    ("tile next to another player's tile",
     mid_json(tiles=[{"owner": 1, "space": 9, "side": "boo"},
                     {"owner": 0, "space": 10, "side": "cheer"}]),
     ["tiles[", "next to"]),
    ("tile on another player's tile",
     mid_json(tiles=[{"owner": 1, "space": 9, "side": "boo"},
                     {"owner": 0, "space": 9, "side": "cheer"}]),
     ["tiles[", "same space"]),
    ("camel on a tile's space", mid_json(tiles=[{"owner": 1, "space": 5, "side": "boo"}]),
     ["tiles[0]", "space 5", "camel"]),
    ("tile on space 1", mid_json(tiles=[{"owner": 1, "space": 1, "side": "cheer"}]),
     ["tiles[0]", "space 1"]),
    ("tile of a player who does not exist",
     mid_json(tiles=[{"owner": 7, "space": 9, "side": "cheer"}]), ["tiles[0]", "owner 7"]),
    ("bad tile side", mid_json(tiles=[{"owner": 1, "space": 9, "side": "sideways"}]),
     ["tiles[0].side", "sideways"]),
    ("pyramid with 1 die", mid_json(pyramid=["blue"], pyramid_tickets=...), ["pyramid", "1"]),
    ("die listed twice", mid_json(pyramid=["blue", "blue", "grey"]), ["pyramid", "twice"]),
    ("unknown die", mid_json(pyramid=["blue", "pink"]), ["pyramid[1]", "pink"]),
    ("ticket stack inconsistent with held tickets",
     mid_json(ticket_stacks={"blue": [3, 2, 2]}), ["ticket_stacks.blue"]),
    ("held tickets not the top of the stack",
     mid_json(leg_tickets=[[["purple", 3]], [["green", 5]], [], []]),
     ["leg_tickets", "purple"]),
    ("pyramid tickets do not match revealed dice", mid_json(pyramid_tickets=[0, 0, 0, 0]),
     ["pyramid_tickets", "revealed"]),
    ("to_move out of range", mid_json(to_move=4), ["to_move"]),
    ("to_move negative", mid_json(to_move=-1), ["to_move"]),
    ("too few money entries", mid_json(money=[3, 3, 3]), ["money", "3 entries"]),
    ("too many money entries", mid_json(money=[3, 3, 3, 3, 3]), ["money", "5 entries"]),
    ("negative money", mid_json(money=[3, -1, 3, 3]), ["money[1]"]),
    ("money not a number", mid_json(money=[3, "lots", 3, 3]), ["money[1]"]),
    ("unknown JSON field", mid_json(colour_of_sky="blue"), ["colour_of_sky", "unknown"]),
    ("missing track", mid_json(track=...), ["track", "missing"]),
    ("unknown game", mid_json(game="chess"), ["chess"]),
    ("unknown variant in JSON", mid_json(variant="camel-up-2099"),
     ["variant", "camel-up-2099"]),
    ("partnership not symmetric", six_player_json(partnership=[3, None, None, None, None, None]),
     ["partnership[0]", "3"]),
    ("partnership with 4 players", mid_json(partnership=[1, 0, None, None]), ["partnership"]),
    ("finish cards: two cards of one colour",
     mid_json(winner_deck=[{"owner": 1, "colour": "blue"}],
              loser_deck=[{"owner": 1, "colour": "blue"}]),
     ["loser_deck[0]", "player 1", "two blue"]),
    ("finish cards: own card hidden", mid_json(winner_deck=[{"owner": 2, "colour": None}]),
     ["winner_deck[0]"]),
    ("too many players", mid_json(players=9, money=...), ["players"]),
    # notation
    ("notation: too few track spaces", "camel-up R/YP/GB/10/W/K BGYRPX n=4 to=0",
     ["track", "15 spaces"]),
    ("notation: too many track spaces", "camel-up R/YP/GB/10/W/K/2 BGYRPX", ["track", "17"]),
    ("notation: absurdly long empty run", "camel-up 99999999999999999999/R/YP/GB/W/K BGYRPX",
     ["track"]),
    ("notation: unknown key", START_NOTATION + " zz=1", ["zz=1"]),
    ("notation: key without value", START_NOTATION + " money", ["money"]),
    ("notation: key given twice", START_NOTATION + " to=1", ["to", "twice"]),
    ("notation: too few tokens", "camel-up R/YP/GB/10/W/K/1", ["notation"]),
    ("notation: unknown camel letter", "camel-up R/YZ/GB/10/W/K/1 BGYRPX", ["track", "Z"]),
    ("notation: camel twice", "camel-up R/YR/GB/10/W/K/1 BGYRPX", ["track", "red", "twice"]),
    ("notation: camel missing", "camel-up R/Y/GB/10/W/K/1 BGYRPX", ["track", "purple"]),
    ("notation: die twice", "camel-up R/YP/GB/10/W/K/1 BBGYRP", ["pyramid", "twice"]),
    ("notation: pyramid with 1 die", "camel-up R/YP/GB/10/W/K/1 B", ["pyramid"]),
    ("notation: tile next to another tile", "camel-up R/YP/GB/2/+0/-1/6/W/K/1 BGYRPX",
     ["track (a tile)", "next to"]),  # the notation's words (tiles[i] in JSON)
    ("notation: tile on space 1", "camel-up +0/R/YP/GB/9/W/K/1 BGYRPX", ["space 1"]),
    ("notation: to out of range", START_NOTATION.replace("to=0", "to=4"), ["to:", "0..3"]),
    ("notation: money entries", START_NOTATION + " money=3,3,3", ["money", "3 entries"]),
    ("notation: negative money", START_NOTATION + " money=3,-1,3,3", ["money[1]"]),
    ("notation: bad number", START_NOTATION.replace("n=4", "n=four"), ["n", "four"]),
    ("notation: held ticket not top of stack", START_NOTATION + " bets=B3,,,",
     ["bets:", "blue"]),
    ("notation: pyramid tickets", "camel-up R/YP/GB/10/W/K/1 GYRPX n=4 pt=0,0,0,0",
     ["pt:", "pyramid tickets"]),
    ("notation: two cards of one colour", START_NOTATION + " win=1B lose=1B",
     ["player 1", "two blue"]),
    ("notation: partnership with 4 players", START_NOTATION + " part=0-1", ["partnership"]),
    ("notation: bad partnership pair", "camel-up R/YP/GB/10/W/K/1 BGYRPX n=6 part=0-9",
     ["part", "0-9"]),
    ("notation: unknown variant", "camel-up-2099 R/YP/GB/10/W/K/1 BGYRPX", ["camel-up-2099"]),
    ("empty input", "   \n", ["empty"]),
]


def _position_arg(text: str, tmp_path: Path) -> str:
    if text.lstrip().startswith("{"):
        path = tmp_path / "position.json"
        path.write_text(text)
        return str(path)
    return text


@pytest.mark.parametrize("text,words", [pytest.param(t, w, id=i) for i, t, w in BAD_POSITIONS])
def test_bad_position(oddsbot_cli, tmp_path, text, words):
    arg = _position_arg(text, tmp_path)
    if not arg.strip():
        result = oddsbot_cli("validate", "-", stdin=text)
    else:
        result = oddsbot_cli("validate", arg)
    assert_bad_input(result, *words)


@pytest.mark.parametrize("text", [
    pytest.param(mid_json(track={"4": ["red", "yellow"], "5": ["blue"],
                                 "7": ["green", "white", "purple"], "12": ["black", "blue"]}),
                 id="invalid (camel twice)"),
    pytest.param("camel-up R/YP/GB/10/W/K BGYRPX", id="unparsable (15 spaces)"),
])
@pytest.mark.parametrize("command", ["validate", "moves", "advise", "odds"])
def test_bad_position_every_command(oddsbot_cli, tmp_path, command, text):
    """Whatever the command, a bad position is one line on stderr and exit 2 (advise and
    odds validate inside their progress bar: it must not leave anything on stderr)."""
    extra = MC if command in ("advise", "odds") else ()
    for via_stdin in (False, True):
        if via_stdin:
            result = oddsbot_cli(command, "-", *extra, stdin=text)
        else:
            result = oddsbot_cli(command, _position_arg(text, tmp_path), *extra)
        assert_bad_input(result, "track")


@pytest.mark.parametrize("args,words", [
    pytest.param(("validate", "{tmp}/no-such-position.json"), ["no such file", ".json"],
                 id="nonexistent absolute .json path"),
    pytest.param(("advise", "missing.json", *MC), ["no such file", "missing.json"],
                 id="nonexistent relative .json path"),
    pytest.param(("odds", "nowhere/at/all.json", *MC), ["no such file"],
                 id="nonexistent .json path in a missing folder"),
    pytest.param(("advise", str(START), "--format", "xml"), ["--format", "xml"],
                 id="advise --format xml"),
    pytest.param(("odds", str(START), "--format", "xml"), ["--format", "xml"],
                 id="odds --format xml"),
    pytest.param(("validate", str(START), "-f", "xml"), ["--format", "xml"],
                 id="validate --format xml"),
    pytest.param(("moves", str(START), "-f", "xml"), ["--format", "xml"],
                 id="moves --format xml"),
    pytest.param(("new", "camel-up", "--format", "xml"), ["--format", "xml"],
                 id="new --format xml"),
    pytest.param(("advise", str(START), "--samples", "0"), ["--samples"],
                 id="advise --samples 0"),
    pytest.param(("odds", str(START), "--samples", "0"), ["--samples"], id="odds --samples 0"),
    pytest.param(("odds", str(START), "--samples", "-5"), ["--samples"],
                 id="odds --samples -5"),
    pytest.param(("advise", str(START), "--target-se", "-1"), ["--target-se"],
                 id="advise --target-se -1"),
    pytest.param(("odds", str(START), "--target-se", "-1"), ["--target-se"],
                 id="odds --target-se -1"),
    pytest.param(("odds", str(START), "--target-se", "0"), ["--target-se"],
                 id="odds --target-se 0"),
    pytest.param(("advise", str(START), "--top", "0", *MC), ["--top"], id="advise --top 0"),
    pytest.param(("advise", str(START), "--deck-model", "bogus", *MC),
                 ["deck-model", "bogus"], id="advise --deck-model bogus"),
    pytest.param(("new", "camel-up", "--players", "9"), ["players", "9"],
                 id="new --players 9"),
    pytest.param(("new", "camel-up", "--players", "2"), ["players", "2"],
                 id="new --players 2"),
    pytest.param(("new", "camel-up-2014", "--players", "1"), ["players"],
                 id="new camel-up-2014 --players 1"),
    pytest.param(("new", "chess"), ["game", "chess"], id="new unknown game"),
    pytest.param(("new", "camel-up", "--variant", "bogus"), ["variant", "bogus"],
                 id="new unknown variant"),
    pytest.param(("validate", str(START), "--variant", "bogus"), ["variant", "bogus"],
                 id="--variant bogus"),
    pytest.param(("advise", str(START), "--variant", "camel-up-2099", *MC),
                 ["variant", "camel-up-2099"], id="advise --variant unknown"),
    pytest.param(("validate", str(OLD), "--variant", "camel-up"), ["variant", "camel-up-2014"],
                 id="JSON variant contradicts --variant"),
    pytest.param(("validate", "camel-up-2014 O/WB/GY/13 BGOYW", "--variant", "camel-up"),
                 ["variant"], id="notation variant contradicts --variant"),
    pytest.param(("validate", str(START), "--variant", "camel-up-2014"), ["red"],
                 id="2nd-edition camels under --variant camel-up-2014"),
])
def test_bad_arguments(oddsbot_cli, tmp_path, args, words):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    assert_bad_input(oddsbot_cli(*args), *words)


def test_option_type_errors_are_one_line(oddsbot_cli):
    """cli.py promises: bad input *of any kind* is one line on stderr and exit 2."""
    assert_bad_input(oddsbot_cli("odds", str(START), "--samples", "abc"), "--samples")


# --------------------------------------------------------------------------- input file untouched


def test_input_file_is_not_modified(oddsbot_cli, tmp_path):
    # deliberately non-canonical: odd spacing, short forms, no variant field
    text = ('{ "game":"camel-up",  "players":4, "to_move":2,\n'
            '  "track":{"4":["R","yellow"],"5":"blue","7":["green","white","purple"],'
            '"12":["black"]},\n  "pyramid":"BYPX",\n'
            '  "tiles":[{"owner":1,"space":9,"side":"boo"}],\n'
            '  "leg_tickets":[[["purple",5]],[["green",5],["purple",3]],[],[]],\n'
            '  "pyramid_tickets":[1,0,0,1], "winner_deck":[[0,null]], "money":[4,2,5,3] }\n')
    path = tmp_path / "mine.json"
    path.write_bytes(text.encode())
    before = path.stat()
    assert ok(oddsbot_cli("validate", str(path))).out == \
        ok(oddsbot_cli("validate", str(MID))).out
    ok(oddsbot_cli("validate", str(path), "-f", "json"))
    ok(oddsbot_cli("validate", str(path), "--variant", "camel-up"))
    ok(oddsbot_cli("moves", str(path)))
    ok(oddsbot_cli("advise", str(path), *MC, "--variant", "camel-up", "-f", "json"))
    ok(oddsbot_cli("odds", str(path), *MC))
    assert path.read_bytes() == text.encode()
    after = path.stat()
    assert after.st_mtime_ns == before.st_mtime_ns and after.st_size == before.st_size
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.json"]


def test_bad_input_file_is_not_modified(oddsbot_cli, tmp_path):
    text = mid_json(money=[3, -1, 3, 3])
    path = tmp_path / "bad.json"
    path.write_text(text)
    assert_bad_input(oddsbot_cli("validate", str(path), "--variant", "camel-up"), "money[1]")
    assert path.read_text() == text


# --------------------------------------------------------------------------- real subprocesses


def _oddsbot(*args, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="200")
    return subprocess.run([oddsbot_script(), *map(str, args)], input=stdin,
                          capture_output=True, check=False, text=True, timeout=600, env=env,
                          cwd=ROOT)


def test_console_script_games():
    p = _oddsbot("games")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("camel-up\tcamel-up\t")
    assert "camel-up\tcamel-up-2014\t" in p.stdout
    assert p.stderr == ""


def test_console_script_odds_json_on_stdout_only():
    p = _oddsbot("odds", "-", *MC, "--seed", "5", "--format", "json",
                 stdin=MID.read_text())
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)  # nothing but the JSON on stdout
    check_odds_json(data, tile_spaces=(9,), min_samples=20000)
    assert "Traceback" not in p.stderr


@pytest.mark.parametrize("command", ["validate", "advise"])
def test_console_script_bad_input(command, tmp_path):
    # a position that parses but breaks an invariant (caught by validation)
    bad = tmp_path / "bad.json"
    bad.write_text(mid_json(track={"4": ["red", "yellow"], "5": ["blue"],
                                   "7": ["green", "white", "purple"], "12": ["black", "blue"]}))
    extra = MC if command == "advise" else ()
    p = _oddsbot(command, bad, *extra)
    assert p.returncode == 2, p.stderr
    assert p.stdout == ""
    assert "Traceback" not in p.stderr
    assert p.stderr.splitlines() == \
        ["oddsbot: error: track: camel blue appears twice (spaces 5 and 12)"], repr(p.stderr)


def test_seed_range_is_the_kernels(oddsbot_cli):
    from oddsbot.analyser.cli.common import MAX_SEED
    from oddsbot.kernels.rng import MAX_SEED as KERNEL_MAX_SEED

    assert MAX_SEED == KERNEL_MAX_SEED
    assert_bad_input(oddsbot_cli("odds", "examples/camel-up-start-4p.json", "--seed",
                                 MAX_SEED + 1), "--seed")
    assert_bad_input(oddsbot_cli("odds", "examples/camel-up-start-4p.json", "--seed", -1),
                     "--seed")


# --------------------------------------------------------------------------- number ranges


@pytest.mark.parametrize("money", [999_999])
def test_money_at_its_limit_is_analysed(oddsbot_cli, tmp_path, money):
    """Money of 2**63 passed validation and crashed advise, odds and replay; the range is
    0-999,999 EP (docs/games/camel-up.md §13.3) and its top is analysed like any other."""
    text = START_NOTATION + f" money={money},3,3,{money}"
    for command in ("advise", "odds"):
        ok(oddsbot_cli(command, text, "--samples", "2000", "-f", "json"))
    record = tmp_path / "rich.record"
    record.write_text(f"start {text}\np0 ticket blue\n")
    assert ok(oddsbot_cli("replay", str(record), "--samples", "2000", "-f", "json")
              ).json()["start"] == text


@pytest.mark.parametrize("money", ["1000000", str(2**63), "9" * 4400])
def test_money_beyond_its_limit_is_refused(oddsbot_cli, tmp_path, money):
    assert_bad_input(oddsbot_cli("validate", START_NOTATION + f" money={money},3,3,3"),
                     "money[0]")
    text = mid_json(money=[3, "@", 3, 3]).replace('"@"', money)
    assert_bad_input(oddsbot_cli("validate", text), "money[1]")
    record = tmp_path / "rich.record"
    record.write_text(f"start {START_NOTATION}\np0 ticket blue | money {money},3,3,3\n")
    assert_bad_input(oddsbot_cli("replay", str(record)), "line 2", "money[0]")
