"""Golden playthroughs (whole seeded games, checked byte for byte by
tests/common/test_goldens.py) replayed by the naive reference rules
(tests/camel_up/naive_camel_up.py) turn by turn, money included."""

from __future__ import annotations

from pathlib import Path

import pytest

import naive_camel_up as naive
from oddsbot.analyser.camel_up import face as cu

GOLDEN = Path(__file__).parent / "golden"
CASES = [("camel-up-4p-seed1", 4, 1, "camel-up"),
         ("camel-up-6p-seed2", 6, 2, "camel-up"),
         ("camel-up-2014-3p-seed3", 3, 3, "camel-up-2014")]


class NaiveGame:
    """The whole game on plain Python structures, from the rules (docs/games/camel-up.md §4, §5,
    §7, §8)."""

    def __init__(self, pos: cu.Position) -> None:
        v = pos.rules
        self.v = v
        self.letter = {c: naive.RACING[i] for i, c in enumerate(v.colours)}
        if v.crazy:
            self.letter.update(white="W", black="K")
        self.track = {s: [self.letter[c] for c in pos.stack(s)] for s in range(1, 17)
                      if pos.stack(s)}
        self.tiles: dict[int, tuple[int, str]] = {}
        self.full_pyramid = [naive.RACING[i] for i in range(5)] + (["grey"] if v.crazy else [])
        self.pyramid = list(self.full_pyramid)
        self.n = pos.players
        self.stacks = {naive.RACING[i]: list(v.tickets) for i in range(5)}
        self.held: list[list[tuple[str, int]]] = [[] for _ in range(self.n)]
        self.ptix = [0] * self.n
        self.money = [3] * self.n
        self.partner: list[int | None] = [None] * self.n
        self.hand = [set(naive.RACING) for _ in range(self.n)]
        self.decks: dict[str, list[tuple[int, str]]] = {"winner": [], "loser": []}
        self.to_move = 0
        self.over = False
        self.final_rank: list[str] = []

    def leg_scoring(self, rank: list[str]) -> None:
        self.money = naive.leg_scoring(rank, self.held, self.ptix, self.money,
                                       self.partner if self.v.partnerships else None)
        self.stacks = {c: list(self.v.tickets) for c in naive.RACING}
        self.held = [[] for _ in range(self.n)]
        self.ptix = [0] * self.n
        self.tiles = {}
        self.partner = [None] * self.n
        self.pyramid = list(self.full_pyramid)

    def play(self, player: int, action: str, roll: str | None) -> None:
        assert player == self.to_move and not self.over
        words = action.split()
        tile = naive.tile_label(action, self.v.id)
        if words[0] == "ticket":
            c = self.letter[words[1]]
            self.held[player].append((c, self.stacks[c].pop(0)))
        elif tile is not None:
            space, side = tile
            self.tiles = {s: t for s, t in self.tiles.items() if t[0] != player}
            assert 2 <= space <= 16 and not self.track.get(space) and space not in self.tiles
            for other in (space - 1, space + 1):
                assert other not in self.tiles
            self.tiles[space] = (player, side)
        elif words[0] in ("winner", "loser"):
            c = self.letter[words[1]]
            assert c in self.hand[player]
            self.hand[player].discard(c)
            self.decks[words[0]].append((player, c))
        elif words[0] == "partner":
            q = int(words[1])
            assert self.partner[player] is None and self.partner[q] is None and q != player
            self.partner[player], self.partner[q] = q, player
        else:
            assert words == ["pyramid"] and roll is not None
            self.reveal(player, roll)
        self.to_move = (player + 1) % self.n

    def reveal(self, player: int, roll: str) -> None:
        parts = roll.split()
        if parts[0] == "grey":
            die, face = "grey", (parts[1], int(parts[2]))
        else:
            die, face = self.letter[parts[0]], int(parts[1])
        self.pyramid.remove(die)
        self.ptix[player] += 1
        self.track, landed, crossing = naive.move(self.track, self.tiles, die, face)
        if landed is not None:
            self.money[self.tiles[landed][0]] += 1
        if crossing is not None:
            rank = naive.ranking(self.track, crossing)
            self.leg_scoring(rank)
            self.money = naive.final_scoring(rank, self.decks["winner"], self.decks["loser"],
                                             self.money)
            self.over = True
            self.final_rank = rank
        elif len(self.pyramid) == self.v.leg_left:
            self.leg_scoring(naive.ranking(self.track))


@pytest.mark.parametrize("name,players,seed,variant", CASES)
def test_golden_record_replays_under_naive_rules(name, players, seed, variant):
    lines = (GOLDEN / f"{name}.txt").read_text().splitlines()
    pos = cu.parse(lines[0].removeprefix("start "))
    assert pos.variant == variant and pos.players == players
    game = NaiveGame(pos)
    for line in lines[1:-1]:
        head, _, money = line.partition(" | money ")
        _, player, rest = head.split(maxsplit=2)
        action, _, roll = rest.partition(" -> ")
        game.play(int(player[1:]), action, roll or None)
        assert game.money == [int(x) for x in money.split(",")], line
    assert game.over
    back = {naive.RACING[i]: c for i, c in enumerate(pos.rules.colours)}
    words = lines[-1].split()
    assert words[1] == back[game.final_rank[0]] and words[3] == back[game.final_rank[-1]]
    assert [int(x) for x in words[5].split(",")] == game.money
