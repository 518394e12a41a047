"""The ``oddsbot`` command line on Five Tribes positions, end to end (in-process).

Covered:

* ``new five-tribes``: a dealt opening (docs/games/five-tribes.md §3) for 2, 3 and 4 players, its
  JSON and notation forms (round trip through ``validate``), reproducibility by ``--seed``, and the
  bad player counts and seeds;
* ``moves``: the JSON shape, docs/games/five-tribes.md §7.2 worked examples (example 1 exactly,
  example 3 under the live and pre-move end rules, as JSON, notation and stdin), every §7.3 count
  recomputed from the listed sowings, the one-per-line table; Camel Up still answers;
* ``advise`` in the turns phase: hand-checked rows (viziers with the 10-VP comparisons,
  elders, builders with a fakir), the EV-table invariants, JSON / CSV / table agreement,
  ``--top`` and the default 20-row table, ``legal_actions`` agreement; in the bidding
  phase: one row per legal bid, the greedy bid model hand-checked, poor players;
* ``odds``: the exact standings and the sowing counts;
* a whole greedy game record (the golden one): its shape; ``replay -f json`` annotates its
  last round to the end of the game;
* a matrix of bad inputs (JSON files and notation): each exits 2 with exactly one line
  ``oddsbot: error: ...`` naming the field, nothing on stdout; input files are never
  changed.

Positions are built here from the rules' numbers (a fixed legal layout of the 30 tiles),
not through the analyser's writers, so the parsers are tested too.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from pathlib import Path

import pytest
from checks import assert_bad_input, ok
from oddsbot.analyser.five_tribes import face as ft
from oddsbot.analyser.five_tribes import record as rec

# --------------------------------------------------------------------------- positions

# A legal layout of the box's 30 tiles (6 oases, 8 small markets, 4 large markets,
# 5 villages, 7 sacred places worth 6, 6, 6, 6, 10, 12, 15), row by row.
LAYOUT = (
    ("O8", "S6", "L4", "V5", "D6", "S6"),
    ("D10", "O8", "S6", "V5", "L4", "D6"),
    ("S6", "V5", "D15", "O8", "S6", "L4"),
    ("O8", "D12", "S6", "V5", "O8", "D6"),
    ("L4", "S6", "V5", "O8", "D6", "S6"),
)
TILE = {"O": "oasis", "S": "small-market", "L": "large-market", "V": "village",
        "D": "sacred-place"}
PARTS = ("gold", "viziers", "elders", "tiles", "palms", "palaces", "djinns", "goods")
COUNT_NAMES = ("full_sequences", "distinct_outcomes", "distinct_paths",
               "distinct_path_endcolour", "distinct_start_end_colour",
               "start_tiles_with_a_move")
BIDS = ("bid 18", "bid 12", "bid 8", "bid 5", "bid 3", "bid 1", "bid 0")

# docs/games/five-tribes.md §7.2 example 1 and example 3 (every other tile empty)
EXAMPLE_1 = {"r2c2": "YW", "r2c4": "W", "r1c3": "Y"}
EXAMPLE_1_MOVES = ["r2c2>r1c2:W>r1c3:Y", "r2c2>r2c3:W>r1c3:Y", "r2c2>r2c3:Y>r2c4:W"]
EXAMPLE_3 = {"r1c1": "GGBRY"}
EXAMPLE_3_LOOP = "r1c1>r0c1:G>r0c0:B>r1c0:R>r1c1:Y>r0c1:G"  # legal only under the live rule

# 80 distinct complete turns for player 2 (more than the 20-row default table)
WIDE = {"r2c2": "YWBG", "r2c3": "W", "r1c2": "Y", "r3c2": "B", "r2c1": "G", "r1c3": "G",
        "r3c3": "Y", "r0c0": "RR", "r0c1": "W"}


def board(meeples: dict[str, str], **owners: int) -> list[list[dict]]:
    """The JSON board of ``LAYOUT`` with ``meeples`` by ``r{row}c{col}`` (others "")."""
    return [[{"tile": TILE[code[0]], "vp": int(code[1:]),
              "meeples": meeples.get(f"r{r}c{c}", ""),
              **({"owner": owners[f"r{r}c{c}"]} if f"r{r}c{c}" in owners else {})}
             for c, code in enumerate(row)] for r, row in enumerate(LAYOUT)]


def position(meeples: dict[str, str], **fields) -> dict:
    """A JSON position on ``LAYOUT`` (defaults for every field not given)."""
    return {"game": "five-tribes", "board": board(meeples), **fields}


def notation(meeples: dict[str, str], *fields: str) -> str:
    """The same position in one-line notation."""
    rows = "/".join(",".join(f"{code}:{meeples.get(f'r{r}c{c}', '')}"
                             for c, code in enumerate(row)) for r, row in enumerate(LAYOUT))
    return " ".join(("five-tribes", rows, *fields))


def write(tmp_path: Path, data: dict | str, name: str = "position.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=1),
                    encoding="utf-8")
    return path


def run_file(oddsbot_cli, path: Path, command: str, *args: str):
    """``oddsbot COMMAND PATH ARGS...``, checking the file's bytes are unchanged."""
    before = path.read_bytes()
    result = oddsbot_cli(command, str(path), *args)
    assert path.read_bytes() == before, f"{command} changed the input file {path}"
    return result


def turns_phase(data: dict) -> dict:
    """An opening from ``new`` with every marker placed on the priced spaces in bid
    order, so that it is in the turns phase (the first bidder plays first)."""
    data = dict(data)
    data["turn_track"] = {str(cost): p for cost, p in zip((18, 12, 8, 5), data["bid_track"])}
    data["bid_track"] = []
    data["phase"] = "turns"
    del data["to_move"]
    return data


def counts_from_labels(moves: list[str]) -> dict[str, int]:
    """The docs/games/five-tribes.md §7.3 counts, recomputed from sowing labels
    ``start>tile:C>...`` (every move listed), and ``listed``."""
    sets: dict[str, set] = {name: set() for name in COUNT_NAMES}
    for label in moves:
        start, *steps = label.split(">")
        tiles = tuple(s.split(":")[0] for s in steps)
        colours = tuple(s.split(":")[1] for s in steps)
        sets["full_sequences"].add((start, tiles, colours))
        sets["distinct_outcomes"].add((start, tiles[-1], colours[-1],
                                       tuple(sorted(zip(tiles, colours)))))
        sets["distinct_paths"].add((start, tiles))
        sets["distinct_path_endcolour"].add((start, tiles, colours[-1]))
        sets["distinct_start_end_colour"].add((start, tiles[-1], colours[-1]))
        sets["start_tiles_with_a_move"].add(start)
    return {**{name: len(s) for name, s in sets.items()}, "listed": len(moves)}


def table_rows(out: str) -> list[str]:
    """The first column of every body row of a rich table on stdout (a label wrapped over
    several lines, the other cells blank on the later ones, joined at its spaces)."""
    lines = out.splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith("┡"))
    bottom = next(i for i, line in enumerate(lines) if line.startswith("└"))
    body = lines[top + 1:bottom]
    assert all(line.startswith("│") for line in body), body
    rows: list[str] = []
    for line in body:
        first, *rest = (cell.strip() for cell in line.split("│")[1:-1])
        if rows and not any(rest):
            rows[-1] += f" {first}"
        else:
            rows.append(first)
    return rows


def check_turn_rows(rows: list[dict]) -> None:
    """The EV-table invariants of the turns phase."""
    assert rows
    best = rows[0]["ev"]
    for row in rows:
        assert {"action", "ev", "se", "method", "gap", "count", *PARTS} <= set(row), row
        assert row["ev"] == sum(row[p] for p in PARTS), row
        assert row["gap"] == best - row["ev"], row
        assert row["method"] == "exact" and row["se"] is None, row
        assert isinstance(row["count"], int) and row["count"] >= 1, row
    evs = [row["ev"] for row in rows]
    assert evs == sorted(evs, reverse=True)
    labels = [row["action"] for row in rows]
    assert len(set(labels)) == len(labels), [k for k, v in Counter(labels).items() if v > 1]


# --------------------------------------------------------------------------- new


@pytest.mark.parametrize("players, seed", [(2, 3), (3, 1), (4, 7)])
def test_new_deals_a_legal_opening(oddsbot_cli, players, seed):
    data = ok(oddsbot_cli("new", "five-tribes", "--players", players, "--seed", seed)).json()
    pos = ft.Position.from_json(data)
    assert ft.validate(pos) is pos
    assert pos.n_players == players and len(data["players"]) == players
    cells = [cell for _, _, cell in pos.cells()]
    assert len(cells) == 30 and all(len(cell.meeples) == 3 for cell in cells)
    # docs/games/five-tribes.md §3: all 90 meeples on the board, the bag empty; every tile of the
    # box once
    assert Counter("".join(c.meeples for c in cells)) == {"Y": 16, "W": 20, "B": 18,
                                                          "G": 18, "R": 18}
    assert pos.bag == (0, 0, 0, 0, 0)
    assert Counter(c.tile for c in cells) == {"oasis": 6, "small-market": 8,
                                              "large-market": 4, "village": 5,
                                              "sacred-place": 7}
    assert sorted(c.vp for c in cells if c.tile == "sacred-place") == [6, 6, 6, 6, 10, 12, 15]
    assert all(c.owner is None and c.palms == 0 and c.palaces == 0 for c in cells)
    assert len(pos.resources) == 9 and len(data["resources"]) == 9
    assert len(pos.djinns) == 3 and len(set(pos.djinns)) == 3
    assert data["phase"] == "bidding" and pos.phase == "bidding"
    assert data["turn_track"] == {}
    markers = 2 if players == 2 else 1
    assert sorted(data["bid_track"]) == sorted(list(range(players)) * markers)
    assert data["to_move"] == data["bid_track"][0]
    camels = 11 if players == 2 else 8
    assert [(p["gold"], p["camels"], p["viziers"], p["elders"]) for p in data["players"]] \
        == [(50, camels, 0, 0)] * players
    assert data["rules"] == {"end_rule": "live", "assassin_optional": False}
    assert data == pos.to_json()  # already canonical


@pytest.mark.parametrize("players, seed", [(2, 3), (3, 1), (4, 7)])
def test_new_notation_round_trips_through_validate(oddsbot_cli, players, seed):
    text = ok(oddsbot_cli("new", "five-tribes", "--players", players, "--seed", seed,
                          "-f", "notation")).out
    assert text.endswith("\n") and text.count("\n") == 1
    line = text.strip()
    assert line.startswith("five-tribes ") and f" n={players}" in line
    checked = ok(oddsbot_cli("validate", line))
    assert checked.out == text
    assert checked.err.strip() == (f"valid five-tribes position, player "
                                   f"{ft.parse(line).to_move} to move")
    # the notation and the JSON of one seed are one position
    as_json = ok(oddsbot_cli("validate", line, "-f", "json")).json()
    assert as_json == ok(oddsbot_cli("new", "five-tribes", "--players", players,
                                     "--seed", seed)).json()


@pytest.mark.parametrize("fmt", ["json", "notation"])
def test_new_is_reproducible_by_seed(oddsbot_cli, fmt):
    def deal(seed):
        return ok(oddsbot_cli("new", "five-tribes", "--players", 3, "--seed", seed,
                              "-f", fmt)).out

    first = deal(11)
    assert deal(11) == first  # byte-identical
    assert deal(12) != first


def test_new_premove_variant(oddsbot_cli):
    line = ok(oddsbot_cli("new", "five-tribes-premove", "--players", 2, "--seed", 3,
                          "-f", "notation")).out.strip()
    assert line.endswith(" end=premove")
    assert ft.parse(line).end_rule == "premove"


@pytest.mark.parametrize("players", [5, 1, 0])
def test_new_bad_player_count(oddsbot_cli, players):
    assert_bad_input(oddsbot_cli("new", "five-tribes", "--players", players), "players")


def test_new_negative_seed(oddsbot_cli):
    assert_bad_input(oddsbot_cli("new", "five-tribes", "--seed", "-1"), "--seed")


# --------------------------------------------------------------------------- moves


def test_moves_example_1_json(oddsbot_cli, tmp_path):
    path = write(tmp_path, position(EXAMPLE_1))
    data = ok(run_file(oddsbot_cli, path, "moves", "-f", "json")).json()
    assert set(data) == {"game", "player", "counts", "moves"}
    assert data["game"] == "five-tribes" and data["player"] == 0
    assert list(data["counts"]) == [*COUNT_NAMES, "listed"]
    assert sorted(data["moves"]) == EXAMPLE_1_MOVES
    assert data["counts"] == {"full_sequences": 3, "distinct_outcomes": 3,
                              "distinct_paths": 3, "distinct_path_endcolour": 3,
                              "distinct_start_end_colour": 2, "start_tiles_with_a_move": 1,
                              "listed": 3}
    assert len(data["moves"]) == data["counts"]["full_sequences"]


def test_moves_example_1_table(oddsbot_cli):
    result = ok(oddsbot_cli("moves", notation(EXAMPLE_1, "n=3")))
    assert sorted(result.out.splitlines()) == EXAMPLE_1_MOVES
    assert result.out.endswith("\n") and result.out.count("\n") == 3
    counts = " ".join(result.err.split())
    assert counts == ("3 moves · 3 distinct outcomes · 3 walks · 3 walks by last colour · "
                      "2 (start, end, colour) choices · 1 start tiles with a move")


def test_moves_example_3_live(oddsbot_cli, tmp_path):
    path = write(tmp_path, position(EXAMPLE_3))
    data = ok(run_file(oddsbot_cli, path, "moves", "-f", "json")).json()
    moves = data["moves"]
    assert data["counts"]["full_sequences"] == 96 == len(moves) == len(set(moves))
    assert data["counts"] == counts_from_labels(moves)
    assert EXAMPLE_3_LOOP in moves
    assert all(m.startswith("r1c1>") and m.count(">") == 5 for m in moves)


@pytest.mark.parametrize("how", ["json", "notation", "stdin"])
def test_moves_example_3_premove(oddsbot_cli, tmp_path, how):
    if how == "json":
        path = write(tmp_path, position(EXAMPLE_3, rules={"end_rule": "premove"}))
        result = run_file(oddsbot_cli, path, "moves", "-f", "json")
    elif how == "notation":
        result = oddsbot_cli("moves", notation(EXAMPLE_3, "n=4", "end=premove"), "-f", "json")
    else:
        result = oddsbot_cli("moves", "-", "-f", "json",
                             stdin=json.dumps(position(EXAMPLE_3,
                                                       rules={"end_rule": "premove"})))
    data = ok(result).json()
    assert data["counts"] == dict.fromkeys((*COUNT_NAMES, "listed"), 0)
    assert data["moves"] == []


def test_moves_live_rule_from_notation_and_stdin_agree(oddsbot_cli):
    by_notation = ok(oddsbot_cli("moves", notation(EXAMPLE_3, "n=2"), "-f", "json")).json()
    by_stdin = ok(oddsbot_cli("moves", "-", "-f", "json",
                              stdin=json.dumps(position(EXAMPLE_3, players=2)))).json()
    assert by_notation == by_stdin
    assert by_notation["counts"]["full_sequences"] == 96


def test_moves_on_an_opening_board(oddsbot_cli):
    line = ok(oddsbot_cli("new", "five-tribes", "--players", 4, "--seed", 2,
                          "-f", "notation")).out.strip()
    data = ok(oddsbot_cli("moves", line, "-f", "json")).json()
    moves = data["moves"]
    assert data["player"] == ft.parse(line).to_move
    assert len(moves) == data["counts"]["full_sequences"] == len(set(moves))
    # docs/games/five-tribes.md §7.3: 800-1,636 on random openings
    assert 800 <= len(moves) <= 1700
    assert data["counts"] == counts_from_labels(moves)
    table = ok(oddsbot_cli("moves", line))
    assert table.out.splitlines() == moves


def test_moves_table_with_no_sowing_prints_no_lines(oddsbot_cli):
    result = ok(oddsbot_cli("moves", notation(EXAMPLE_3, "n=4", "end=premove")))
    assert result.out == ""


@pytest.mark.parametrize("how, variant, expected", [
    ("json", "five-tribes-premove", 0), ("notation", "five-tribes-premove", 0),
    ("json", "five-tribes", 96)])
def test_moves_variant_reads_the_end_rule(oddsbot_cli, tmp_path, how, variant, expected):
    source = (str(write(tmp_path, position(EXAMPLE_3))) if how == "json"
              else notation(EXAMPLE_3, "n=4"))
    data = ok(oddsbot_cli("moves", source, "--variant", variant, "-f", "json")).json()
    assert data["counts"]["full_sequences"] == expected


def test_variant_conflicting_with_the_positions_end_rule_is_bad_input(oddsbot_cli):
    line = notation(EXAMPLE_3, "n=4", "end=premove")
    assert_bad_input(oddsbot_cli("moves", line, "--variant", "five-tribes"), "variant",
                     "premove")


def test_moves_camel_up_still_answers(oddsbot_cli):
    line = ok(oddsbot_cli("new", "camel-up", "-f", "notation")).out.strip()
    assert line.startswith("camel-up ")
    data = ok(oddsbot_cli("moves", line, "-f", "json")).json()
    assert data["game"] == "camel-up"
    assert set(data["counts"]) == {"actions"}
    assert data["counts"]["actions"] == len(data["moves"]) > 0
    assert "pyramid" in data["moves"]


# --------------------------------------------------------------------------- advise: turns

# Example 1 on LAYOUT (r1c3 a village, r2c4 a small market), 3 players, player 0 to move
# first with 0 viziers while the opponents hold 1 and 3.
HAND = position(EXAMPLE_1, players=[{}, {"viziers": 1}, {"viziers": 3}],
                turn_track={"18": 0, "12": 1, "8": 2})


def test_advise_hand_checked_viziers_and_elders(oddsbot_cli, tmp_path):
    """Spec §13 by hand. Taking 2 viziers at r1c3 (a 5-VP village, emptied, so a camel):
    viziers 0 -> 2 = +2 VP, and 2 beats player 1's 1 vizier (not player 2's 3) = +10;
    the tile +5; the compulsory palace on the mover's own village +5: 22 VP. Taking 2
    elders at r2c4 (a 6-VP small market, emptied; no card to buy): 2 x 2 + 6 = 10 VP."""
    path = write(tmp_path, HAND)
    data = ok(run_file(oddsbot_cli, path, "advise", "-f", "json")).json()
    assert data["game"] == "five-tribes" and data["player"] == 0
    rows = data["actions"]
    check_turn_rows(rows)
    assert [r["action"] for r in rows] == [
        "r2c2>r1c2:W>r1c3:Y; take 2Y, camel r1c3; palace",
        "r2c2>r2c3:W>r1c3:Y; take 2Y, camel r1c3; palace",
        "r2c2>r2c3:Y>r2c4:W; take 2W, camel r2c4; skip small-market"]
    vizier_parts = {"gold": 0, "viziers": 12, "elders": 0, "tiles": 5, "palms": 0,
                    "palaces": 5, "djinns": 0, "goods": 0}
    for row in rows[:2]:
        assert row["ev"] == 22.0 and row["gap"] == 0.0 and row["count"] == 1
        assert {p: row[p] for p in PARTS} == vizier_parts
        assert (row["final_tile"], row["taken"]) == ("r1c3", "2Y")
    elder = rows[2]
    assert elder["ev"] == 10.0 and elder["gap"] == 12.0
    assert {p: elder[p] for p in PARTS} == dict(vizier_parts, viziers=0, elders=4, tiles=6,
                                                palaces=0)
    assert (elder["final_tile"], elder["taken"]) == ("r2c4", "2W")
    assert data["provenance"]["phase"] == "turns"


def test_advise_hand_checked_builders_with_a_fakir(oddsbot_cli):
    """Spec §9: 2 builders at r4c3 (an 8-VP oasis) whose 3x3 block holds 3 blue tiles
    (villages r3c3, r4c2, sacred place r4c4): (2 + f) x 3 gold; discarding the one fakir
    (worth 0 VP) gives 9 gold, keeping it 6; the tile +8, the compulsory palm on the
    mover's own oasis +3. Two paths (via r3c3 or r4c4) each: 20, 20, 17, 17 VP."""
    line = notation({"r3c4": "YB", "r4c3": "B"}, "n=2", "turn=18:0,12:1,8:1,5:0",
                    "p0=fa1")
    rows = ok(oddsbot_cli("advise", line, "-f", "json")).json()["actions"]
    check_turn_rows(rows)
    assert [(r["ev"], r["gold"], r["tiles"], r["palms"], r["fakirs"]) for r in rows] == \
        [(20.0, 9, 8, 3, 1)] * 2 + [(17.0, 6, 8, 3, 0)] * 2
    assert all("builders (+1 fakir)" in r["action"] for r in rows[:2])
    assert all("fakir" not in r["action"] for r in rows[2:])
    assert {r["sowing"] for r in rows} == {"r3c4>r3c3:Y>r4c3:B", "r3c4>r4c4:Y>r4c3:B"}


def test_advise_json_every_row_and_legal_actions(oddsbot_cli, tmp_path):
    data = position(WIDE, players=3, turn_track={"18": 2, "12": 1, "8": 0},
                    resources=["fish", "silk", "fakir", "wheat", "ivory", "pottery"],
                    djinns=["Jafaar", "Enki", "Sloar"])
    path = write(tmp_path, data)
    out = ok(run_file(oddsbot_cli, path, "advise", "-f", "json")).json()
    assert out["player"] == 2
    rows = out["actions"]
    check_turn_rows(rows)
    legal = ft.legal_actions(ft.parse(path.read_text()))
    assert len(rows) == len(legal) == 80
    assert sorted(r["action"] for r in rows) == sorted(legal)
    # player 2 holds no vizier and neither do the others: 2 viziers = 2 + 2 x 10 VP
    assert rows[0]["ev"] == 32.0 and rows[0]["viziers"] == 22


def test_advise_csv_json_and_table_agree(oddsbot_cli, tmp_path):
    data = position(WIDE, players=3, turn_track={"18": 2, "12": 1, "8": 0},
                    resources=["fish", "silk", "fakir", "wheat", "ivory", "pottery"])
    path = write(tmp_path, data)
    rows = ok(run_file(oddsbot_cli, path, "advise", "-f", "json")).json()["actions"]
    assert len(rows) > 20
    table = list(csv.DictReader(io.StringIO(
        ok(run_file(oddsbot_cli, path, "advise", "-f", "csv")).out)))
    assert [r["action"] for r in table] == [r["action"] for r in rows]
    assert [float(r["ev"]) for r in table] == [r["ev"] for r in rows]
    assert [float(r["gap"]) for r in table] == [r["gap"] for r in rows]

    default = ok(run_file(oddsbot_cli, path, "advise"))
    shown = table_rows(default.out)
    assert shown == [r["action"] for r in rows[:20]]
    assert f"best 20 of {len(rows)} rows" in " ".join(default.out.split())
    top5 = ok(run_file(oddsbot_cli, path, "advise", "--top", "5"))
    assert table_rows(top5.out) == [r["action"] for r in rows[:5]]


def test_advise_same_answer_from_file_notation_and_stdin(oddsbot_cli, tmp_path):
    path = write(tmp_path, HAND)
    by_file = ok(run_file(oddsbot_cli, path, "advise", "-f", "json")).json()
    line = notation(EXAMPLE_1, "n=3", "turn=18:0,12:1,8:2", "p1=v1", "p2=v3")
    by_notation = ok(oddsbot_cli("advise", line, "-f", "json")).json()
    by_stdin = ok(oddsbot_cli("advise", "-", "-f", "json", stdin=json.dumps(HAND))).json()
    assert by_file == by_notation == by_stdin
    assert by_file["provenance"]["position"] == line


def test_advise_full_opening_in_the_turns_phase(oddsbot_cli):
    """One full board (tens of thousands of turns): every row in JSON, the invariants."""
    opening = ok(oddsbot_cli("new", "five-tribes", "--players", 4, "--seed", 0)).json()
    text = json.dumps(turns_phase(opening))
    out = ok(oddsbot_cli("advise", "-", "-f", "json", stdin=text)).json()
    pos = ft.parse(text)
    assert out["player"] == pos.to_move == opening["bid_track"][0]
    rows = out["actions"]
    assert len(rows) > 20
    assert len(rows) == len(ft.legal_actions(pos))
    check_turn_rows(rows)


# --------------------------------------------------------------------------- advise: bids


def test_advise_bidding_opening(oddsbot_cli, tmp_path):
    path = write(tmp_path, ok(oddsbot_cli("new", "five-tribes", "--players", 3,
                                          "--seed", 1)).out)
    data = ok(run_file(oddsbot_cli, path, "advise", "-f", "json")).json()
    rows = data["actions"]
    assert sorted(r["action"] for r in rows) == sorted(BIDS)
    assert data["provenance"]["phase"] == "bidding"
    for row in rows:
        assert row["method"] == "greedy"
        assert row["cost"] == int(row["action"].removeprefix("bid "))
        assert row["ev"] == row["turn_value"] - row["cost"]
        assert row["gap"] == rows[0]["ev"] - row["ev"]
        assert "count" not in row and "earlier_turns" not in row
    # nobody is on the turn order track yet: every place acts first, same turn value
    assert len({r["turn_value"] for r in rows}) == 1
    assert [r["action"] for r in rows] == ["bid 0", "bid 1", "bid 3", "bid 5", "bid 8",
                                           "bid 12", "bid 18"]
    csv_rows = list(csv.DictReader(io.StringIO(
        ok(run_file(oddsbot_cli, path, "advise", "-f", "csv")).out)))
    assert [(r["action"], float(r["ev"])) for r in csv_rows] == \
        [(r["action"], r["ev"]) for r in rows]


@pytest.mark.parametrize("gold, legal", [(4, {"bid 3", "bid 1", "bid 0"}),
                                         (5, {"bid 5", "bid 3", "bid 1", "bid 0"}),
                                         (0, {"bid 0"})])
def test_advise_bidding_poor_player(oddsbot_cli, tmp_path, gold, legal):
    data = ok(oddsbot_cli("new", "five-tribes", "--players", 3, "--seed", 1)).json()
    data["players"][data["to_move"]]["gold"] = gold
    path = write(tmp_path, data)
    rows = ok(run_file(oddsbot_cli, path, "advise", "-f", "json")).json()["actions"]
    assert {r["action"] for r in rows} == legal
    assert all(r["ev"] == r["turn_value"] - r["cost"] for r in rows)


def test_advise_bidding_greedy_model_by_hand(oddsbot_cli):
    """Player 1 already bid 5. Player 0 acting before it (bid 8, 12, 18) takes the 2
    viziers at r1c3: 2 + 2 x 10 (both opponents hold none) + the 5-VP village + its
    palace = 32. Acting after it (bid 3, 1, 0), player 1 has taken them first and the
    lone white left has no legal sowing: 0."""
    line = notation({"r2c2": "YW", "r1c3": "Y"}, "n=3", "turn=5:1")
    data = ok(oddsbot_cli("advise", line, "-f", "json")).json()
    assert data["player"] == 0
    got = {r["action"]: (r["turn_value"], r["ev"]) for r in data["actions"]}
    assert got == {"bid 18": (32, 14.0), "bid 12": (32, 20.0), "bid 8": (32, 24.0),
                   "bid 3": (0, -3.0), "bid 1": (0, -1.0), "bid 0": (0, 0.0)}
    assert data["actions"][0]["action"] == "bid 8"
    for row in data["actions"]:
        if row["cost"] < 5:
            assert row["earlier_turns"].startswith("p1: r2c2>")
            assert "take 2Y, camel r1c3; palace" in row["earlier_turns"]
        else:
            assert "earlier_turns" not in row
    top = ok(oddsbot_cli("advise", line, "--top", "2"))
    assert table_rows(top.out) == ["bid 8", "bid 12"]


# --------------------------------------------------------------------------- odds


def test_odds_standings_and_sowings(oddsbot_cli, tmp_path):
    path = write(tmp_path, HAND)
    data = ok(run_file(oddsbot_cli, path, "odds", "-f", "json")).json()
    assert set(data) == {"game", "standings", "sowings", "provenance"}
    assert data["game"] == "five-tribes"
    zero = dict.fromkeys(PARTS, 0)
    # viziers: 1 + 10 (beats player 0's none); 3 + 2 x 10
    exact = [{"player": 0, **zero, "gold": 50, "total": 50},
             {"player": 1, **zero, "gold": 50, "viziers": 11, "total": 61},
             {"player": 2, **zero, "gold": 50, "viziers": 23, "total": 73}]
    rolled = ("win_p", "win_se", "final", "final_se")  # rollouts (docs §21.5)
    assert [{k: v for k, v in row.items() if k not in rolled}
            for row in data["standings"]] == exact
    assert abs(sum(row["win_p"] for row in data["standings"]) - 1) < 1e-9
    assert data["provenance"]["rollouts"] >= 256
    for row in data["standings"]:
        assert row["total"] == sum(row[p] for p in PARTS)
    moves = ok(run_file(oddsbot_cli, path, "moves", "-f", "json")).json()["counts"]
    assert data["sowings"] == {k: v for k, v in moves.items() if k != "listed"}
    assert data["sowings"]["full_sequences"] == 3
    table = ok(run_file(oddsbot_cli, path, "odds", "-f", "csv")).out.splitlines()
    assert table[0] == "player," + ",".join(PARTS) + ",total," + ",".join(rolled)
    assert [",".join(line.split(",")[:10]) for line in table[1:]] == [
        "0,50,0,0,0,0,0,0,0,50", "1,50,11,0,0,0,0,0,0,61", "2,50,23,0,0,0,0,0,0,73"]


def test_odds_on_a_scored_board(oddsbot_cli):
    """Owned tiles with palms and palaces, held elders, goods and a djinn (docs/games/five-tribes.md
    §13)."""
    cells = {"r0c0": "", "r0c3": "", "r1c0": "W"}
    rows = [[f"{code}:{cells.get(f'r{r}c{c}', '')}" for c, code in enumerate(row)]
            for r, row in enumerate(LAYOUT)]
    rows[0][0] = "O8:@0+p2"   # player 0: oasis 8 + 2 palms x 3
    rows[0][3] = "V5:@1+P1"   # player 1: village 5 + 1 palace x 5
    rows[1][0] = "D10:W@1"    # player 1: sacred place 10
    line = " ".join(("five-tribes", "/".join(",".join(r) for r in rows), "n=2",
                     "p0=gc40,e3,si1,fi1,sp1,Jafaar", "p1=gc12,v2,fa3"))
    data = ok(oddsbot_cli("odds", line, "-f", "json")).json()
    zero = dict.fromkeys(PARTS, 0)
    assert [{k: v for k, v in row.items() if k in ("player", *PARTS, "total")}
            for row in data["standings"]] == [
        # 3 elders x 2; 3 distinct goods = a suit of 3 = 7; Jafaar 6 VP
        {"player": 0, **zero, "gold": 40, "elders": 6, "tiles": 8, "palms": 6,
         "djinns": 6, "goods": 7, "total": 73},
        # 2 viziers + 10 (player 0 has none); fakirs score 0
        {"player": 1, **zero, "gold": 12, "viziers": 12, "tiles": 15, "palaces": 5,
         "total": 44}]


# --------------------------------------------------------------------------- whole games


GOLDEN = Path(__file__).parent / "golden"


def test_a_greedy_game_record_and_its_replay(oddsbot_cli, tmp_path):
    """The record of a whole greedy game (``new five-tribes --play greedy --seed 5``, the
    golden ``five-tribes-4p-seed5.txt``, equal to it byte for byte by
    tests/common/test_goldens.py; played again here it would take a minute): its start, one
    line per bid and turn, a refill after every round, the scores and the winner; then
    ``replay -f json`` of its last round annotates every bid and turn and gives the
    record's result."""
    lines = (GOLDEN / "five-tribes-4p-seed5.txt").read_text().splitlines()
    start = ok(oddsbot_cli("new", "five-tribes", "--seed", 5, "-f", "notation")).out.strip()
    assert lines[0] == f"start {start}"
    assert lines[-1].startswith("winner p")
    scores = [line.split() for line in lines if line.startswith("score ")]
    assert [s[1] for s in scores] == ["p0", "p1", "p2", "p3"]
    totals = []
    for s in scores:
        named = dict(zip(s[2::2], map(int, s[3::2])))
        assert list(named) == [*PARTS, "total"]
        assert named["total"] == sum(named[p] for p in PARTS)
        totals.append(named["total"])
    best = max(totals)
    assert lines[-1] == "winner " + ",".join(f"p{p}" for p, t in enumerate(totals)
                                             if t == best)
    turns = [line for line in lines if line.startswith("round ")]
    refills = [line for line in lines if line.startswith("refill ")]
    drew = [line for line in lines if line.startswith("drew ")]
    per_round = Counter(int(t.split()[1]) for t in turns)
    assert turns and len(refills) == len(per_round)  # one refill after every round
    assert len(lines) == 1 + len(turns) + len(drew) + len(refills) + 4 + 1
    assert turns[-1].endswith("totals " + ",".join(map(str, totals)))
    assert list(per_round) == list(range(1, len(per_round) + 1))
    assert set(per_round.values()) == {8}  # 4 bids and 4 turns a round

    # its last round from the position it starts at, replayed as JSON: every bid and
    # turn checked and annotated, the result the record's
    _, steps = rec.load_record("\n".join(lines))
    k = next(i for i, (_, played) in enumerate(steps) if played.round == len(per_round))
    first = lines.index(next(t for t in turns if int(t.split()[1]) == len(per_round)))
    record = write(tmp_path, "\n".join([f"start {steps[k][0].to_notation()}", *lines[first:]]),
                   "last-round.txt")
    replayed = ok(run_file(oddsbot_cli, record, "replay", "-f", "json")).json()
    assert len(replayed["turns"]) == 8
    assert replayed["result"]["winners"] == [p for p, t in enumerate(totals) if t == best]
    assert [s["total"] for s in replayed["result"]["scores"]] == totals


def test_new_play_unknown_policy(oddsbot_cli):
    assert_bad_input(oddsbot_cli("new", "five-tribes", "--play", "clever"), "--play",
                     "clever")


# --------------------------------------------------------------------------- bad input


def _cell(data: dict, r: int, c: int) -> dict:
    return data["board"][r][c]


def _bad_json_cases() -> list:
    def case(name, change, *words):
        return pytest.param(change, words, id=name)

    def four_rows(d):
        d["board"] = d["board"][:4]

    def five_cells(d):
        d["board"][2] = d["board"][2][:5]

    def tile(d):
        _cell(d, 1, 2)["tile"] = "castle"

    def colour(d):
        _cell(d, 3, 4)["meeples"] = "YWX"

    def yellow(d):
        _cell(d, 0, 0)["meeples"] = "Y" * 9  # with the 2 already there: 17
        _cell(d, 4, 5)["meeples"] = "Y" * 6

    def held_viziers(d):
        _cell(d, 0, 0)["meeples"] = "Y" * 14
        d["players"] = [{"viziers": 2}, {"viziers": 1}]

    def gold(d):
        d["players"] = [{}, {"gold": -3}, {}]

    def owner(d):
        d["players"] = 3
        _cell(d, 2, 3)["owner"] = 3

    def field(d):
        d["colour"] = "red"

    def cell_field(d):
        _cell(d, 0, 1)["camel"] = 0

    def djinns(*held, **more):  # 2 players, per_round: used marks allowed while bidding
        def change(d):
            d["players"] = [{"djinns": list(h), **more.get(f"p{i}", {})}
                            for i, h in enumerate(held)]
            d["rules"] = {"two_player_djinn": "per_round"}
        return change

    def displayed(d):
        djinns(["Enki"], [])(d)
        d["djinns"] = ["Enki", "Utug"]

    return [
        case("4 rows", four_rows, "board", "4 rows"),
        case("row of 5 cells", five_cells, "board[2]", "5 cells"),
        case("unknown tile", tile, "board[1][2].tile", "castle"),
        case("unknown colour", colour, "board[3][4].meeples", "X"),
        case("17 yellow on the board", yellow, "board", "17 yellow", "16"),
        case("17 yellow with held viziers", held_viziers, "players", "yellow", "16"),
        case("negative gold", gold, "players[1].gold", "-3"),
        case("owner not a player", owner, "board[2][3].owner", "3"),
        case("unknown top field", field, "colour", "unknown key"),
        case("unknown cell field", cell_field, "board[0][1].camel", "unknown key"),
        case("unknown djinn used", djinns(["Enki"], [], p0={"djinns_used": ["Enky"]}),
             "players[0].djinns_used[0]", "unknown djinn 'Enky'"),
        case("djinn held by two players", djinns(["Enki"], ["enki"]), "players[1].djinns",
             "Enki", "also in players[0].djinns"),
        case("djinn held and face up", displayed, "players[0].djinns", "Enki",
             "also in djinns"),
        case("used by a player not holding it",
             djinns(["Enki"], ["Utug"], p1={"djinns_used": ["Enki"]}),
             "players[1].djinns_used", "Enki", "does not hold"),
        case("used twice", djinns(["Enki"], [], p0={"djinns_used": ["Enki", "Enki"]}),
             "players[0].djinns_used", "Enki is listed twice"),
        case("passive djinn used", djinns(["Boaz"], [], p0={"djinns_used": ["Boaz"]}),
             "players[0].djinns_used", "Boaz has no power"),
    ]


@pytest.mark.parametrize("change, words", _bad_json_cases())
@pytest.mark.parametrize("command", ["validate", "advise"])
def test_bad_json_position(oddsbot_cli, tmp_path, command, change, words):
    data = position({"r2c2": "YW", "r1c3": "Y"}, players=2)
    change(data)
    path = write(tmp_path, data)
    assert_bad_input(run_file(oddsbot_cli, path, command), *words)


LINE = notation(EXAMPLE_1, "n=3", "turn=18:0,12:1,8:2")


def _swap(old: str, new: str) -> str:
    assert old in LINE
    return LINE.replace(old, new, 1)


BOARD_ROWS = LINE.split()[1].split("/")


@pytest.mark.parametrize("text, words", [
    pytest.param(" ".join(["five-tribes", "/".join(BOARD_ROWS[:4]), "n=3"]),
                 ("board", "4 rows"), id="4 rows"),
    pytest.param(" ".join(["five-tribes", "/".join(BOARD_ROWS[:2] + [
        ",".join(BOARD_ROWS[2].split(",")[:5])] + BOARD_ROWS[3:]), "n=3"]),
                 ("board[2]", "5 cells"), id="row of 5 cells"),
    pytest.param(_swap("D10:", "X10:"), ("r1c0", "tile", "X"), id="unknown tile"),
    pytest.param(_swap("D15:YW", "D15:YQ"), ("r2c2.meeples", "Q"),
                 id="unknown colour"),
    pytest.param(_swap("D15:YW", "D15:" + "Y" * 16 + "W"), ("board", "yellow", "16"),
                 id="17 yellow"),
    pytest.param(LINE + " p0=gc-4", ("p0 gc", "-4"), id="negative gold"),
    pytest.param(_swap("O8:,S6:", "O8:@3,S6:"), ("r0c0 @owner", "3"),
                 id="owner not a player"),
    pytest.param(LINE + " foo=1", ("unknown field", "foo"), id="unknown field"),
    pytest.param(LINE + " p3=v1", ("p3", "no player 3"), id="player 3 of 3"),
    pytest.param(LINE.replace("n=3", "n=5"), ("players", "5"), id="5 players"),
    pytest.param(LINE + " p0=Enki p1=Enki", ("p1.djinns", "also in p0.djinns"),
                 id="djinn held twice"),
    pytest.param(LINE + " p0=Boaz*", ("p0 (a djinn marked *)", "no power"),
                 id="passive djinn used"),
    pytest.param(LINE + " p1=Enki*", ("p1 (a djinn marked *)", "not playing a turn"),
                 id="used by a player not to move"),
    pytest.param(LINE + " limit=per_round", ("limit", "3 players"),
                 id="per_round with 3 players"),
    pytest.param(LINE + " around=6", ("around", "8 or 4"), id="around 6"),
])
@pytest.mark.parametrize("command", ["validate", "moves", "odds"])
def test_bad_notation(oddsbot_cli, command, text, words):
    assert_bad_input(oddsbot_cli(command, text), *words)


def test_malformed_json_file(oddsbot_cli, tmp_path):
    path = write(tmp_path, '{"game": "five-tribes", "board": [', "broken.json")
    for command in ("validate", "moves", "advise", "odds"):
        assert_bad_input(run_file(oddsbot_cli, path, command), "malformed JSON", "line 1")
    assert_bad_input(oddsbot_cli("moves", "-", stdin=path.read_text()), "malformed JSON")


def test_advise_camel_up_options_refused(oddsbot_cli, tmp_path):
    path = write(tmp_path, HAND)
    assert_bad_input(run_file(oddsbot_cli, path, "advise", "--deck-model", "race"),
                     "--deck-model")
    assert_bad_input(run_file(oddsbot_cli, path, "advise", "--hidden", "informed"),
                     "--hidden")


@pytest.mark.parametrize("args, words", [
    (("--rollouts", "1"), ("rollouts", "at least 2")),
    (("--rollouts", "8", "--policy", "greedy"), ("--policy", "greedy")),
    (("--candidates", "3"), ("--candidates", "only used with --rollouts")),
    (("--policy", "random"), ("--policy", "only used with --rollouts")),
    (("--rollouts", "8", "--candidates", "0"), ("--candidates",)),
])
def test_advise_rollout_options_checked(oddsbot_cli, tmp_path, args, words):
    path = write(tmp_path, HAND)
    assert_bad_input(run_file(oddsbot_cli, path, "advise", *args), *words)


def test_advise_rollouts_from_the_command_line(oddsbot_cli, tmp_path):
    path = write(tmp_path, HAND)
    data = ok(run_file(oddsbot_cli, path, "advise", "--rollouts", "16", "--candidates", "2",
                       "-f", "json")).json()
    rolled = [row for row in data["actions"] if "win_p" in row]  # None cells are left out
    assert len(rolled) == 2 and data["provenance"]["candidates"] == 2
    assert all(0 <= row["win_p"] <= 1 and row["win_se"] >= 0 for row in rolled)


def test_report_five_tribes_runs(oddsbot_cli, tmp_path):
    out = tmp_path / "report"
    result = ok(oddsbot_cli("report", "five-tribes", "--games", 10, "--out", out))
    assert result.out.splitlines() == [str(out / name) for name in
                                       ("games.parquet", "report.html", "report.md")]


def test_the_shipped_example(oddsbot_cli):
    path = Path(__file__).resolve().parents[2] / "examples" / "five-tribes-opening-4p.json"
    before = path.read_bytes()
    line = ok(oddsbot_cli("validate", str(path))).out
    assert line.startswith("five-tribes ") and "turn=18:2,12:0,0:3,0:1" in line
    data = ok(oddsbot_cli("advise", str(path), "-f", "json")).json()
    assert data["player"] == 2 and len(data["actions"]) == 41266
    assert data["actions"][0]["ev"] == 33 and data["actions"][0]["viziers"] == 33
    assert path.read_bytes() == before


# --------------------------------------------------------------------------- number ranges


def test_gold_at_its_limit_is_analysed(oddsbot_cli, tmp_path):
    """Gold of 2**63 passed validation and crashed advise and odds; the range is
    0-999,999 GC (docs/games/five-tribes.md §18.3) and its top is analysed."""
    data = position(EXAMPLE_1, players=[{"gold": 999_999}, {}, {"gold": 999_999}],
                    turn_track={"18": 2, "12": 1, "8": 0})
    path = write(tmp_path, data)
    for command in ("advise", "odds"):
        ok(run_file(oddsbot_cli, path, command, "-f", "json"))
    line = notation(EXAMPLE_1, "n=3", "turn=18:2,12:1,8:0", "p2=gc999999")
    ok(oddsbot_cli("odds", line))


@pytest.mark.parametrize("gold", ["1000000", str(2**63), "9" * 4400])
def test_gold_beyond_its_limit_is_refused(oddsbot_cli, tmp_path, gold):
    data = json.dumps(position(EXAMPLE_1, players=[{}, {"gold": "@"}, {}]))
    assert_bad_input(run_file(oddsbot_cli, write(tmp_path, data.replace('"@"', gold)),
                              "validate"), "players[1].gold")
    line = notation(EXAMPLE_1, "n=3", f"p1=gc{gold}")
    assert_bad_input(oddsbot_cli("validate", line), "p1 gc")  # the key the user typed


def test_bid_rows_have_the_core_columns_first():
    """A bid row's first columns are the core ``action, ev, se, method, gap`` of every EV
    table, its ``se`` empty (a model's value, no standard error)."""
    table = ft.advise(ft.new_position(4, 3, "five-tribes"))
    assert list(table.columns[:5]) == ["action", "ev", "se", "method", "gap"]
    assert set(table["se"]) == {None} and set(table["method"]) == {"greedy"}


def test_bid_rows_carry_se_in_json(oddsbot_cli):
    line = ok(oddsbot_cli("new", "five-tribes", "--seed", 3, "-f", "notation")).out.strip()
    rows = ok(oddsbot_cli("advise", line, "-f", "json")).json()["actions"]
    assert all(list(r)[:5] == ["action", "ev", "se", "method", "gap"] and r["se"] is None
               for r in rows)
