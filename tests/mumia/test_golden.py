"""The golden playthroughs (``tests/mumia/golden``; ``tests/common/test_goldens.py``
checks they are what the game plays now, byte for byte) replayed line by line by the
naive reference: every choice legal for its roll, the turn order, and the final scores
and winners of the result line."""

from __future__ import annotations

from pathlib import Path

import pytest

from oddsbot.analyser.mumia.face import parse

from . import naive_mumia as ref

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.txt"))


def _roll(text: str) -> tuple[int, str | None]:
    number, _, symbol = text.partition(",")
    return int(number), symbol or None


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_replays_under_the_reference(path):
    lines = path.read_text().splitlines()
    assert lines[0].startswith("start ") and lines[-1].startswith("result ")
    pos = parse(lines[0].removeprefix("start ")).to_json()
    turn = ref.new_turn()
    for line in lines[1:-1]:
        seat, roll, label = line.split(" ", 2)
        assert "ABCDEF".index(seat) == pos["to_move"], line
        n, symbol = _roll(roll)
        assert label in ref.choices(pos, n, symbol, turn), line
        pos, turn, _ = ref.step(pos, n, symbol, label, turn)
    assert pos.get("over"), "the record ends before the game does"
    words = lines[-1].split()
    scores = [int(w.split(":")[1]) for w in words[1:-2]]
    winners = ["ABCDEF".index(w) for w in words[-1].split(",")]
    assert ref.scores(pos) == scores
    assert ref.winners(pos) == winners
