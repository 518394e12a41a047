"""``search``'s successive halving (analyser/search.py), on a face whose playouts are
draws of known win chances: it ends on every budget and picks by the rule it states."""

from __future__ import annotations

import numpy as np
import pytest

from oddsbot.analyser.search import Search, read_budget

CHANCES = {"a": 0.10, "b": 0.50, "c": 0.60, "d": 0.90, "e": 0.20}  # win chance per action


class Coins:
    """Two seats; the searching seat 0 wins a playout of action x with chance
    CHANCES[x]; playout i of every action draws the same uniform number (common random
    numbers), as the games' playouts do."""

    POLICIES = ("heuristic",)

    def __init__(self, incumbent: str) -> None:
        self.incumbent = incumbent
        self.calls = 0

    def candidates(self, view, k, seed):
        return [a for a in CHANCES if a != self.incumbent][:k]

    def choose(self, view, policy, seed):
        return self.incumbent

    def playouts(self, view, actions, *, n, seed, policy):
        self.calls += 1
        if self.calls > 200:  # a search that does not end
            raise AssertionError("search: more than 200 batches of playouts")
        u = np.random.default_rng(seed).random(n)
        wins = np.zeros((len(actions), n, 2))
        for i, a in enumerate(actions):
            wins[i, :, 0] = u < CHANCES[a]
            wins[i, :, 1] = 1 - wins[i, :, 0]
        return wins * 10, wins


class View:
    to_move = 0


@pytest.mark.parametrize("budget", ["9p", "40p", "400p", "4000p", "30ms"])
@pytest.mark.parametrize("incumbent", ["a", "e", "b"])
def test_halving_ends_and_keeps_the_incumbent_until_beaten(budget, incumbent):
    """However the incumbent ranks, each round keeps at most half of the candidates
    (rounded up) with the incumbent among them, so the search ends; the incumbent is
    left only for a candidate 2 SE ahead of it, which with 400 playouts or more is the
    best action, d (0.9 against at most 0.5)."""
    face = Coins(incumbent)
    player = Search("search", face, read_budget(budget))
    chosen = player.act(View(), lambda: list(CHANCES), seed=7)
    assert chosen in CHANCES
    if budget in ("400p", "4000p"):
        assert chosen == "d"
    kept = [r["action"] for r in player.last if r["playouts"] == player.last[0]["playouts"]]
    assert incumbent in [r["action"] for r in player.last]
    assert chosen in kept


def test_a_small_budget_stays_with_the_incumbent_without_evidence():
    """Nine playouts (two a candidate in the first round) cannot put a candidate 2 SE
    ahead of the incumbent unless every paired playout says so."""
    player = Search("search", Coins("b"), read_budget("9p"))
    assert player.act(View(), lambda: list(CHANCES), seed=3) in ("b", "d")
