"""A toy game declared through the registration point alone: the coin race.

Each player has a pawn on a track of ``GOAL`` spaces. On a turn the player to move
either walks (1 space) or flips a fair coin (heads 3 spaces, tails none); the first pawn
on the goal wins. Plain Python, no kernel: it exists to prove that a game needs no edit
of any shared file (``tests/common/test_toy_game.py``), and gives the arena a game whose
win chances are known exactly (``tests/common/test_arena.py``). Notation: ``toy-race
0/2/1 to=1``; a pawn on the goal ends the game. Policies: ``random`` (either action,
evenly), ``walker`` (always walks), ``flipper`` (always flips).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from oddsbot import __version__
from oddsbot.analyser.face import Capability, GameSpec
from oddsbot.analyser.notation_errors import NotationKeys
from oddsbot.analyser.table import Table as ResultTable
from oddsbot.errors import OddsbotError, PositionError
from oddsbot.strict import load_json
from oddsbot.reports.document import Section, Table

NAME = "toy-race"
GOAL = 5
STEPS = {"walk": ((1, 1.0),), "flip": ((3, 0.5), (0, 0.5))}  # action -> (spaces, P)
POLICIES = ("random", "walker", "flipper")
GAME = GameSpec(name=NAME, title="Coin race", variants={NAME: "the coin race to 5"},
                players=(2, 4), face=__name__, docs="tests/common/toy_race.py",
                capabilities=frozenset({Capability.REPORTS, Capability.SEATS}),
                designer=__name__, policies=POLICIES)
VARIANTS = GAME.variants
NOTATION_KEYS = NotationKeys({})  # its complaints name the pawns, as its notation does


@dataclass(frozen=True)
class Position:
    pawns: tuple[int, ...]
    to_move: int = 0
    variant: str = NAME

    @property
    def players(self) -> int:
        return len(self.pawns)

    def to_notation(self) -> str:
        return f"{NAME} {'/'.join(map(str, self.pawns))} to={self.to_move}"

    def to_json(self) -> dict:
        return {"game": NAME, "pawns": list(self.pawns), "to_move": self.to_move}

    @classmethod
    def from_json(cls, data: dict) -> Position:
        if not isinstance(data, dict) or not isinstance(data.get("pawns"), list):
            raise PositionError("pawns", "required list missing")
        return cls(tuple(data["pawns"]), data.get("to_move", 0))


def parse(text: str) -> Position:
    text = text.strip()
    if text.startswith("{"):
        return Position.from_json(load_json(text))
    try:
        _, pawns, to = text.split()
        return Position(tuple(int(x) for x in pawns.split("/")), int(to.removeprefix("to=")))
    except ValueError:
        raise PositionError("position", f"not a {NAME} notation: {text!r}") from None


def parse_as(text: str, variant: str) -> Position:
    return parse(text)


def validate(pos: Position) -> None:
    if not 2 <= pos.players <= 4 or not 0 <= pos.to_move < pos.players:
        raise PositionError("pawns", "2-4 players, to_move one of them")
    if any(not 0 <= p <= GOAL for p in pos.pawns) or sorted(pos.pawns)[-2:] == [GOAL] * 2:
        raise PositionError("pawns", f"every pawn on 0..{GOAL}, one at most on the goal")


def legal_actions(pos: Position) -> list[str]:
    validate(pos)
    return [] if GOAL in pos.pawns else list(STEPS)


def player_name(pos: Position, seat: int) -> str:
    return str(seat)


def moves(pos: Position) -> tuple[dict[str, int], list[str]]:
    return {"actions": len(STEPS)}, legal_actions(pos)


def warm_up() -> None:
    """Nothing to compile: the toy game is plain Python."""


def counts_line(counts: dict[str, int]) -> str:
    return f"{counts['actions']} actions"


def advise(pos: Position, *, samples=None, seed=0, target_se=None, progress=None
           ) -> ResultTable:
    """EV = expected spaces gained this turn (exact)."""
    rows = [{"action": a, "ev": sum(s * p for s, p in out), "se": 0.0, "method": "exact"}
            for a, out in STEPS.items() if a in legal_actions(pos)]
    best = max(r["ev"] for r in rows)
    rows = [r | {"gap": best - r["ev"]} for r in rows]
    return ResultTable.from_dicts(rows, ["action", "ev", "se", "method", "gap"], {
        "game": NAME, "variant": pos.variant, "oddsbot": __version__}).sorted_by("ev")


def advise_caption(pos: Position, prov: dict) -> str:
    return f"{NAME} · player {pos.to_move} to move · EV in spaces"


def table_view(table: ResultTable, wide: bool = False) -> ResultTable:
    return table if wide else table.select(["action", "ev", "gap"])


def odds(pos: Position, *, samples=None, seed=0, target_se=None, progress=None) -> dict:
    validate(pos)
    return {"game": NAME, "to_goal": [GOAL - p for p in pos.pawns],
            "provenance": {"game": NAME, "position": pos.to_notation()}}


def odds_view(result: dict, wide: bool = False, people: bool = True
              ) -> tuple[ResultTable, str]:
    return ResultTable.from_columns({"player": range(len(result["to_goal"])),
                                     "to_goal": result["to_goal"]}), "spaces left"


def new_position(players: int, seed: int, variant: str) -> Position:
    if not 2 <= players <= 4:
        raise OddsbotError(f"players: {NAME} is for 2-4 players, got {players}")
    return Position((0,) * players)


@dataclass
class GameResult:
    start: Position
    turns: list[str]
    winner: int

    def text(self) -> str:
        return "\n".join([f"start {self.start.to_notation()}", *self.turns,
                          f"winner p{self.winner}"]) + "\n"


def _choice(policy: str, rng: np.random.Generator) -> str:
    if policy == "random":
        return ("walk", "flip")[rng.integers(2)]
    return "walk" if policy == "walker" else "flip"


def _moved(pos: Position, action: str, heads: bool) -> Position:
    pawns = list(pos.pawns)
    pawns[pos.to_move] = min(GOAL, pawns[pos.to_move] + (1 if action == "walk" else 3 * heads))
    return replace(pos, pawns=tuple(pawns), to_move=(pos.to_move + 1) % pos.players)


def _played(pos: Position, seats: tuple[str, ...], rng: np.random.Generator
            ) -> tuple[Position, list[str]]:
    turns = []
    while GOAL not in pos.pawns:
        action = _choice(seats[pos.to_move], rng)
        after = _moved(pos, action, bool(rng.integers(2)) if action == "flip" else False)
        turns.append(f"p{pos.to_move} {action} +{after.pawns[pos.to_move] - pos.pawns[pos.to_move]}")
        pos = after
    return pos, turns


def simulate(pos: Position, *, seed: int = 0, policy: str = "random") -> GameResult:
    end, turns = _played(pos, (policy,) * pos.players, np.random.default_rng(seed))
    return GameResult(pos, turns, end.pawns.index(GOAL))


def play(players: int, seed: int, variant: str, policy: str) -> str:
    if policy not in POLICIES:
        raise OddsbotError(f"--play: unknown policy {policy!r} (known: random)")
    return simulate(new_position(players, seed, variant), seed=seed, policy=policy).text()


# --------------------------------------------------------------------------- designer face


def check_run(variants: tuple[str, ...], players: int, policies: tuple[str, ...]) -> None:
    if not 2 <= players <= 4:
        raise OddsbotError(f"--players: {NAME} is for 2-4 players, got {players}")


def seat_policies(policies: tuple[str, ...], players: int) -> tuple[str, ...]:
    return tuple((policies or ("random",))[s % len(policies or ("random",))]
                 for s in range(players))


RAW_FIELDS = 6  # (winner, turns, pawn of seat 0..3; -1 past the players)
RULES_VERSION = 1


def simulate_raw(variant_id, players, policies, seed, game0, n, progress=None) -> np.ndarray:
    """Game r from seed (seed, r), seat s playing ``policies[s]`` (random by default):
    rows (winner, turns, final pawns); ``progress(games done)`` at the end (games this
    small need no more)."""
    seats = tuple(policies) if policies else ("random",) * players
    rows = []
    for r in range(game0, game0 + n):
        end, turns = _played(new_position(players, 0, variant_id), seats,
                             np.random.default_rng([seed, r]))
        rows.append((end.pawns.index(GOAL), len(turns), *end.pawns, *[-1] * (4 - players)))
    if progress is not None:
        progress(n)
    return np.array(rows, dtype=np.int16).reshape(-1, RAW_FIELDS)


def arena_results(raw: np.ndarray, variant_id: str, players: int
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(scores: final pawns, wins, decisions: turns taken per seat)."""
    scores = raw[:, 2:2 + players].astype(float)
    wins = (np.arange(players)[None, :] == raw[:, :1]).astype(float)
    turns = raw[:, 1:2].astype(np.int64)
    decisions = turns // players + (np.arange(players)[None, :] < turns % players)
    return scores, wins, decisions


def raw_table(raw: np.ndarray, variant_id: str, players: int, game0: int) -> pd.DataFrame:
    return pd.DataFrame({"game": np.arange(game0, game0 + len(raw)), "variant": variant_id,
                         "winner": raw[:, 0], "turns": raw[:, 1]})


def simulate_block(variant_id, players, policies, seed, game0, n) -> pd.DataFrame:
    return raw_table(simulate_raw(variant_id, players, policies, seed, game0, n), variant_id,
                     players, game0)


def report_sections(df: pd.DataFrame, spec) -> list[Section]:
    wins = df.groupby("winner").size().rename("games").reset_index()
    return [Section("Seats", "Games won by seat.", [Table("seats", "Wins by seat", wins)])]



# --------------------------------------------------------------------------- arena seats
# Nothing is hidden: a seat's view is the position.


def deal(players: int, seed: int, variant: str, rules: dict) -> Position:
    return new_position(players, seed, variant)


def seat_view(pos: Position, seat: int) -> Position:
    return pos


def choose(view: Position, policy: str, seed: int) -> str:
    return _choice(policy, np.random.default_rng(seed))


def step(pos: Position, action: str, seed: int) -> tuple[Position, str | None]:
    if action not in legal_actions(pos):
        raise OddsbotError(f"action: {action!r} is not legal here")
    if action == "walk":
        return _moved(pos, action, False), None
    heads = bool(np.random.default_rng(seed).integers(2))
    return _moved(pos, action, heads), "heads" if heads else "tails"


def game_result(pos: Position) -> tuple[tuple[float, ...], tuple[float, ...]] | None:
    if GOAL not in pos.pawns:
        return None
    return (tuple(float(p) for p in pos.pawns),
            tuple(float(p == GOAL) for p in pos.pawns))


def candidates(view: Position, k: int, seed: int) -> list[str]:
    return [r["action"] for r in advise(view).records()]


def playouts(view: Position, actions: list[str], *, n: int, seed: int, policy: str
             ) -> tuple[np.ndarray, np.ndarray]:
    """Rollout i of every action flips its coins from the stream (seed, i)."""
    scores = np.zeros((len(actions), n, view.players))
    wins = np.zeros_like(scores)
    for a, action in enumerate(actions):
        for i in range(n):
            rng = np.random.default_rng([seed, i])
            pos = _moved(view, action, bool(rng.integers(2)) if action == "flip" else False)
            end, _ = _played(pos, (policy,) * view.players, rng)
            scores[a, i] = end.pawns
            wins[a, i] = [p == GOAL for p in end.pawns]
    return scores, wins
