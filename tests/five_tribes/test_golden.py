"""A golden Five Tribes playthrough: a whole seeded 4-player game under the greedy
exact-value policy (checked byte for byte by tests/common/test_goldens.py), replayed
line by line: every bid is legal and priced as recorded, every turn is the greedy choice
at that moment, checked against the exact turn table (docs/games/five-tribes.md §20.9:
its two stages; a turn chosen for the expectation of a draw plays as recorded with the
game's draws), the totals after each
line are the naive scorer's, and the final scores are the naive reference's
(``naive_five_tribes_scoring``)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import naive_five_tribes_scoring as naive
from kernel_five_tribes_turns import check_greedy
from oddsbot.analyser.five_tribes import face as ft
from oddsbot.analyser.five_tribes.encode import decode, encode
from oddsbot.analyser.five_tribes.labels import bid_label, turn_labels
from oddsbot.kernels import five_tribes as FT
from oddsbot.kernels.rng import stream

GOLDEN = Path(__file__).parent / "golden" / "five-tribes-4p-seed5.txt"
SEED = 5
LINE = re.compile(r"round +(\d+) p(\d) (.*) \| value ([+-][\d.e+-]+) \| totals ([\d,-]+)")


def naive_totals(pos: ft.Position) -> list[int]:
    end = naive.EndState(
        gold=[p.gold for p in pos.players], viziers=[p.viziers for p in pos.players],
        elders=[p.elders for p in pos.players], djinns=[list(p.djinns) for p in pos.players],
        owner=[-1 if c.owner is None else c.owner for _, _, c in pos.cells()],
        tile_vp=[c.vp for _, _, c in pos.cells()], palms=[c.palms for _, _, c in pos.cells()],
        palaces=[c.palaces for _, _, c in pos.cells()],
        goods=[list(p.goods) for p in pos.players], fakirs=[p.fakirs for p in pos.players])
    return [part["total"] for part in naive.final_scores(end)]


def test_the_record_replays_as_legal_best_moves():
    lines = GOLDEN.read_text().splitlines()
    start = ft.parse(lines[0].removeprefix("start "))
    assert start == ft.new_position(4, SEED)
    st = encode(start)
    types = tuple(c.tile for _, _, c in start.cells())
    chance = stream(np.uint64(SEED), 1)
    draws = stream(np.uint64(SEED), 2)  # a djinn power's draws (analyser/five_tribes/simulate.py)
    body = [m for m in map(LINE.fullmatch, lines[1:]) if m]
    assert len(body) == sum(1 for line in lines if line.startswith("round"))
    rounds = 1
    for m in body:
        assert int(m[1]) == rounds and int(m[2]) == st[FT.TO_MOVE]
        action, value = m[3], float(m[4])
        if action.startswith("bid "):
            pos = decode(st)
            assert action in ft.legal_actions(pos)
            bids = ft.advise(pos).frame()
            assert value == bids["ev"].max() == bids.set_index("action").loc[action, "ev"]
            scratch = np.zeros(FT.MAX_BIDS, dtype=np.int64)
            codes = {bid_label(b): b for b in scratch[:FT.legal_bids(st, scratch)]}
            FT.place_bid(st, codes[action])
        else:
            actions, parts, _ = FT.complete_turns(st)
            chosen, worth = FT.greedy_turn(st)
            check_greedy(st, actions, parts, chosen, worth)  # its two stages (§20.9)
            label = turn_labels(chosen[None, :], types)[0]
            if chosen[FT.A_END] < 0:  # a turn without a draw: as chosen
                assert label == action and value == worth[-1]
                FT.apply_turn(st, chosen)
            else:  # chosen for its expectation (a 'then best' row), then drawn and played
                assert label.endswith("then best")
                assert value == pytest.approx(worth[-1], rel=1e-5)
                played, _ = FT.play_greedy_turn(st, draws)
                assert turn_labels(played[None, :], types)[0] == action
        assert [int(x) for x in m[5].split(",")] == naive_totals(decode(st))
        if st[FT.TO_MOVE] < 0:
            FT.cleanup(st, chance)
            if not FT.game_over(st):
                rounds += 1
    assert FT.game_over(st)
    end = decode(st)
    scores = [line for line in lines if line.startswith("score ")]
    assert [int(line.rsplit(" ", 1)[1]) for line in scores] == naive_totals(end)
    best = max(naive_totals(end))
    assert lines[-1] == "winner " + ",".join(f"p{p}" for p, t in
                                               enumerate(naive_totals(end)) if t == best)
