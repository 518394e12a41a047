"""Each edition's words for the tile action (docs/games/camel-up.md §4 action 2, Appendix A).

Covered:

* ``camel-up-2014`` prints ``desert <space> oasis|mirage`` everywhere an action label is
  printed (``moves``, ``advise`` in every format, ``new --play`` records, ``replay``
  annotations) and never ``spectator``/``cheer``/``boo``; ``camel-up`` prints
  ``spectator <space> cheer|boo`` and never the 1st edition's words;
* ``camel-up-2014`` reads both spellings (mixed too, any case): the record written before
  the change (``data/camel-up-game-2014-3p-spectator.record``, the shipped example as it
  was) replays to the same turns and the same annotations as the shipped example now;
  ``camel-up`` reads only its own words;
* a bad label gets one stderr line, exit 2, naming the label grammar in the edition's
  words;
* JSON positions keep ``"side": "cheer"|"boo"`` (2014 also reads ``oasis``/``mirage``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from checks import assert_bad_input, ok
from oddsbot.analyser.camel_up import face as cu
from oddsbot.analyser.camel_up import record as rec
from oddsbot.errors import OddsbotError

ROOT = Path(__file__).resolve().parents[2]
OLD_RECORD = Path(__file__).parent / "data" / "camel-up-game-2014-3p-spectator.record"
NEW_RECORD = ROOT / "examples" / "camel-up-game-2014-3p.record"
POSITION_2014 = ROOT / "examples" / "camel-up-2014.json"
POSITION_2ND = ROOT / "examples" / "camel-up-mid-leg.json"
START_2014 = "start camel-up-2014 GWBO/Y/14 BGOYW n=3 to=0"
START_2ND = "start camel-up YG/RB/P/10/WK/2 BGYRPX n=4 to=0"
WORDS_2014 = {"desert", "oasis", "mirage"}
WORDS_2ND = {"spectator", "cheer", "boo"}
GRAMMAR_2014 = "desert <space> oasis|mirage"
GRAMMAR_2ND = "spectator <space> cheer|boo"


def words(labels: list[str]) -> set[str]:
    return {w for label in labels for w in label.split()}


def tile_labels(labels: list[str]) -> list[str]:
    return [a for a in labels if a.split()[0] in ("desert", "spectator")]


# --------------------------------------------------------------------------- printed


@pytest.mark.parametrize("path,own,other", [(POSITION_2014, WORDS_2014, WORDS_2ND),
                                            (POSITION_2ND, WORDS_2ND, WORDS_2014)],
                         ids=["2014", "2nd"])
def test_moves_and_advise_print_the_editions_words(oddsbot_cli, path, own, other):
    moves = ok(oddsbot_cli("moves", path)).out.splitlines()
    tiles = tile_labels(moves)
    assert tiles and own <= words(tiles) and not other & words(moves)
    assert ok(oddsbot_cli("moves", path, "-f", "json")).json()["moves"] == moves
    data = ok(oddsbot_cli("advise", path, "--samples", "4096", "-f", "json")).json()
    assert sorted(a["action"] for a in data["actions"]) == sorted(moves)
    for fmt in ("table", "csv", "markdown"):
        out = ok(oddsbot_cli("advise", path, "--samples", "4096", "-f", fmt)).out
        assert not other & set(out.replace("│", " ").replace("|", " ").replace(",", " ")
                               .split()), fmt
        assert all(label in out for label in tiles), fmt


def test_2014_records_and_annotations_use_desert_words(oddsbot_cli):
    played = ok(oddsbot_cli("new", "camel-up-2014", "--players", "3", "--play", "random",
                            "--seed", "11")).out
    assert played == "".join(line + "\n" for line in NEW_RECORD.read_text().splitlines()
                             if line and not line.startswith("#"))
    assert " desert " in played and not {"spectator", "cheer", "boo"} & set(played.split())
    data = ok(oddsbot_cli("replay", "-", "-f", "json", "--samples", "2048",
                          stdin="".join(played.splitlines(keepends=True)[:12]))).json()
    shown = [t["action"] for t in data["turns"]] + [t["best"] for t in data["turns"]]
    assert tile_labels(shown) and not WORDS_2ND & words(shown)


# --------------------------------------------------------------------------- read


def test_old_2014_record_replays_like_the_new_one(oddsbot_cli):
    """The 2014 example as written before the desert words still replays, turn for turn,
    to the same annotations as the shipped example."""
    old_text = OLD_RECORD.read_text()
    turns = words([line for line in old_text.splitlines() if not line.startswith("#")])
    assert WORDS_2ND <= turns and not WORDS_2014 & turns
    old, new = rec.load_record(old_text), rec.load_record(NEW_RECORD.read_text())
    assert [(p, t.code, t.action, t.roll, t.money) for p, t in old[1]] == \
           [(p, t.code, t.action, t.roll, t.money) for p, t in new[1]]
    assert (old[1].winner, old[1].loser, old[1].money) == \
           (new[1].winner, new[1].loser, new[1].money)
    args = ("-f", "csv", "--samples", "2048", "--seed", "1")
    annotated = ok(oddsbot_cli("replay", OLD_RECORD, *args))
    assert annotated.out == ok(oddsbot_cli("replay", NEW_RECORD, *args)).out
    assert " desert " in annotated.out.replace(",", " ")


@pytest.mark.parametrize("label", ["desert 5 oasis", "spectator 5 cheer", "spectator 5 oasis",
                                   "desert 5 cheer", "DESERT 5 Oasis"])
def test_2014_reads_either_editions_words(label):
    _, steps = rec.load_record(f"{START_2014}\np0 {label}\np1 spectator 9 boo\n"
                               f"p2 desert 12 mirage\n")
    assert [t.action for _, t in steps] == ["desert 5 oasis", "desert 9 mirage",
                                            "desert 12 mirage"]
    pos = cu.parse(START_2014.removeprefix("start "))
    assert cu.check_action(pos, label) == cu.check_action(pos, "desert 5 oasis")


@pytest.mark.parametrize("label", ["desert 5 oasis", "desert 5 cheer", "spectator 5 mirage"])
def test_2nd_edition_reads_only_its_own_words(oddsbot_cli, label):
    line = assert_bad_input(oddsbot_cli("replay", "-", stdin=f"{START_2ND}\np0 {label}\n"),
                            "line 2", "unknown action", GRAMMAR_2ND)
    assert "desert" not in line.replace(label, "") and "oasis" not in line.replace(label, "")
    with pytest.raises(OddsbotError, match=GRAMMAR_2ND.replace("|", r"\|")):
        cu.check_action(cu.parse(START_2ND.removeprefix("start ")), label)


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("label", ["desert 5 oaziz", "spectator 5 boooo", "desert 1 oasis",
                                   "desert five mirage"])
def test_bad_2014_label_names_the_2014_grammar(oddsbot_cli, label):
    line = assert_bad_input(oddsbot_cli("replay", "-", stdin=f"{START_2014}\np0 {label}\n"),
                            "line 2", "unknown action", GRAMMAR_2014)
    assert "spectator <space>" not in line and "cheer|boo" not in line
    with pytest.raises(OddsbotError, match=GRAMMAR_2014.replace("|", r"\|")) as caught:
        cu.check_action(cu.parse(START_2014.removeprefix("start ")), label)
    assert "cheer|boo" not in str(caught.value)


def test_illegal_2014_tile_is_explained_in_2014_words(oddsbot_cli):
    line = assert_bad_input(oddsbot_cli("replay", "-", stdin=f"{START_2014}\np0 desert 5 oasis\n"
                                                              f"p1 spectator 6 boo\n"),
                            "line 3", "'desert 6 mirage' is not legal", "desert tiles may go")
    assert "spectator" not in line


# --------------------------------------------------------------------------- JSON positions


def test_json_positions_keep_cheer_and_boo(oddsbot_cli):
    data = json.loads(POSITION_2014.read_text())
    data["tiles"] = [{"owner": 1, "space": 5, "side": "mirage"},
                     {"owner": 2, "space": 9, "side": "cheer"}]
    out = ok(oddsbot_cli("validate", "-", "-f", "json", stdin=json.dumps(data))).json()
    assert out["tiles"] == [{"owner": 1, "space": 5, "side": "boo"},
                            {"owner": 2, "space": 9, "side": "cheer"}]
    data["tiles"] = [{"owner": 1, "space": 5, "side": "sideways"}]
    assert_bad_input(oddsbot_cli("validate", "-", stdin=json.dumps(data)), "tiles[0].side",
                     "'oasis' or 'mirage'", "'cheer' or 'boo'", "sideways")
