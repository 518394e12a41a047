"""Leg starts found too large, kept from one process to the next (``race_memo``,
docs/games/camel-up.md §9.1 "The count comes first"): a later process refuses the same
race from the file without counting its states again, with the same answer; a file that
is not ours is ignored; a folder that cannot be written is left alone; the file stays
bounded."""

from __future__ import annotations

import json

import numpy as np
import pytest

from oddsbot.analyser.camel_up import face as cu
from oddsbot.analyser.camel_up import odds as O
from oddsbot.analyser.camel_up import race_memo
from oddsbot.kernels.camel_up import race_size

START = "examples/camel-up-start-4p.json"
REVEAL = race_size._reveal


def new_process(monkeypatch) -> None:
    """``odds`` as a process starts it: nothing known, nothing solved, the file not read."""
    O._exact.cache_clear()
    monkeypatch.setattr(O, "_TOO_BIG", {})
    monkeypatch.setattr(O, "_kept_read", False)
    monkeypatch.setattr(O, "_last_fitted", False)


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """The first-run marks' folder (where the file lives) in ``tmp_path``; ``odds`` fresh
    before and after."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    new_process(monkeypatch)
    yield tmp_path / "oddsbot-compiled"
    O._exact.cache_clear()


def levels_revealed(monkeypatch) -> list[int]:
    """A list that grows by one for each level of nodes the count reveals."""
    calls: list[int] = []

    def counted(*args):
        calls.append(1)
        return REVEAL(*args)

    monkeypatch.setattr(race_size, "_reveal", counted)
    return calls


def test_a_later_process_refuses_the_race_without_counting_it(folder, monkeypatch):
    start = cu.parse(open(START).read())
    first = levels_revealed(monkeypatch)
    assert O.exact_race_odds(start) is None
    rows = json.loads((folder / race_memo.FILE).read_text())
    _, _, _, leg_left, full = O.race_inputs(start)
    assert rows and all(r[:3] == [leg_left, full, O.budget_states(O.EXACT_BUDGET)]
                        for r in rows)
    dice = bin(O.race_inputs(start)[2]).count("1")

    new_process(monkeypatch)
    later = levels_revealed(monkeypatch)
    assert O.exact_race_odds(start) is None  # the same answer
    assert len(first) > 2 * dice  # the first process listed states past the leg
    assert len(later) <= dice  # the later one only the current leg's reveals

    new_process(monkeypatch)
    (folder / race_memo.FILE).unlink()
    again = levels_revealed(monkeypatch)
    assert O.exact_race_odds(start) is None
    assert len(again) == len(first)  # without the file, it counts again


NOT_OURS = {
    "not json": "not json", "an object": "{}", "3 columns": "[[1, 2, 3]]",
    "a string": '[[1, 2, 3, "4"]]', "a bool": "[[1, 2, 3, true]]",
    "negative": "[[1, 2, 3, -4]]", "a float": "[[1, 2, 3, 1e3]]",
    "2**63": "[[1, 2, 3, 9223372036854775808]]",
    "over 1 MB": "[" + "[0, 0, 0, 0], " * (race_memo.MAX_BYTES // 12) + "[0, 0, 0, 0]]"}


@pytest.mark.parametrize("text", NOT_OURS.values(), ids=NOT_OURS.keys())
def test_a_file_that_is_not_ours_is_ignored(folder, text):
    folder.mkdir(parents=True)
    (folder / race_memo.FILE).write_text(text)
    assert race_memo.load() == {}
    assert O.exact_race_odds(cu.parse(open(START).read())) is None
    assert race_memo.load()  # replaced by what this process found


def test_a_folder_that_cannot_be_written_is_left_alone(folder):
    folder.write_text("a file where the folder would be")
    assert O.exact_race_odds(cu.parse(open(START).read())) is None
    assert folder.read_text() == "a file where the folder would be"
    assert list(folder.parent.iterdir()) == [folder]  # no file left behind


def test_the_file_keeps_what_each_process_found_up_to_its_bound(folder, monkeypatch):
    monkeypatch.setattr(race_memo, "MAX_ROWS", 10)
    race_memo.save({(1, 31, 400): np.arange(4, dtype=np.int64)})
    race_memo.save({(0, 31, 400): np.arange(3, dtype=np.int64) + 7})
    kept = race_memo.load()
    assert sorted(kept) == [(0, 31, 400), (1, 31, 400)]
    assert kept[(1, 31, 400)].tolist() == [0, 1, 2, 3]
    assert kept[(0, 31, 400)].tolist() == [7, 8, 9]
    race_memo.save({(2, 31, 400): np.arange(50, dtype=np.int64)})
    rows = json.loads((folder / race_memo.FILE).read_text())
    assert len(rows) == 10 and [0, 31, 400, 7] in rows and [1, 31, 400, 3] in rows
    assert [p.name for p in folder.iterdir()] == [race_memo.FILE]  # no temporary left


def test_a_full_file_is_not_written_again(folder, monkeypatch):
    monkeypatch.setattr(race_memo, "MAX_ROWS", 3)
    race_memo.save({(0, 31, 400): np.arange(3, dtype=np.int64)})
    before = (folder / race_memo.FILE).stat()
    race_memo.save({(1, 31, 400): np.arange(5, dtype=np.int64)})  # past the bound
    race_memo.save({(0, 31, 400): np.array([10])})  # its row would be the 4th
    after = (folder / race_memo.FILE).stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert {b: k.tolist() for b, k in race_memo.load().items()} == {(0, 31, 400): [0, 1, 2]}
