"""What a designer run simulates, and how its games are cut into blocks.

Game ``r`` of a variant draws its chance from streams derived from (seed, r) only, so
a block of games [game0, game0 + n) has the same rows wherever and in whatever order it
is computed; blocks are the unit of work sent to threads or Dask workers and of the
files a run leaves behind (``--resume`` keeps every finished block).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ..errors import OddsbotError
from ..kernels.rng import MAX_SEED

BLOCK_GAMES = 50_000
# Games per variant at most: the report is built in memory from every game, 330 to 430 bytes
# each at the peak (measured: docs/report-folders.md), so that memory is bounded.
MAX_GAMES = 10_000_000


@dataclass(frozen=True)
class Block:
    variant: str
    game0: int
    n: int
    key: str  # ``RunSpec.key`` of the run the block belongs to

    def path(self, out: Path) -> Path:
        """The block's file (the kernel's rows, NumPy ``.npy``) inside run folder ``out``:
        games of another seed, player count or policy list never share a name with these."""
        return (out / "blocks" / self.key / self.variant
                / f"games-{self.game0:010d}-{self.n}.npy")


@dataclass(frozen=True)
class RunSpec:
    """A designer run: ``games`` whole games of every variant, seat ``i`` playing
    ``policies[i]``, from random starts, seeded ``seed``."""

    game: str
    variants: tuple[str, ...]
    players: int
    policies: tuple[str, ...]  # one per seat
    games: int
    seed: int
    block: int = BLOCK_GAMES
    rules: tuple[tuple[str, str], ...] = ()  # --rule NAME=VALUE, for games with parameters

    def key(self) -> str:
        """A short fingerprint of what decides a game's row: game, players, seat
        policies, seed and rule parameters (not the number of games: a run may grow)."""
        what = json.dumps([self.game, self.players, list(self.policies), self.seed]
                          + ([[list(r) for r in self.rules]] if self.rules else []))
        return hashlib.sha256(what.encode()).hexdigest()[:12]

    def blocks(self) -> Iterator[Block]:
        """Every block of the run, variant by variant in game order, one at a time (a
        run's memory does not grow with its number of blocks)."""
        key = self.key()
        return (Block(v, g, min(self.block, self.games - g), key)
                for v in self.variants for g in range(0, self.games, self.block))

    def blocks_per_variant(self) -> int:
        """How many blocks each variant's games are cut into (the last may be short)."""
        return -(-self.games // self.block)

    def problems(self) -> list[str]:
        """What makes this spec impossible to run, as ``field: reason`` texts (the
        game-specific checks are the designer's ``check_run``)."""
        out = []
        if not 1 <= self.games <= MAX_GAMES:
            out.append(f"games: must be 1 to {MAX_GAMES:,}, got {self.games:,}")
        if not 1 <= self.block <= BLOCK_GAMES:
            out.append(f"block: must be 1 to {BLOCK_GAMES:,}, got {self.block:,}")
        if not self.variants:
            out.append("variants: none given")
        if len(set(self.variants)) != len(self.variants):
            out.append(f"variants: listed twice in {list(self.variants)}")
        if len(self.policies) != self.players:
            out.append(f"policies: {len(self.policies)} for {self.players} seats")
        if not 0 <= self.seed <= MAX_SEED:
            out.append(f"seed: must be in 0..2**64-1, got {self.seed}")
        return out

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        if not self.rules:  # a game without rule parameters keeps the run file it had
            del data["rules"]
        return data

    @classmethod
    def from_json(cls, data: dict) -> RunSpec:
        return cls(game=data["game"], variants=tuple(data["variants"]),
                   players=int(data["players"]), policies=tuple(data["policies"]),
                   games=int(data["games"]), seed=int(data["seed"]),
                   block=int(data["block"]),
                   rules=tuple((str(n), str(v)) for n, v in data.get("rules", [])))


def check_game_run(game: str, variants: tuple[str, ...], known_variants: tuple[str, ...],
                   players: int, player_range: tuple[int, int], policies: tuple[str, ...],
                   known_policies: tuple[str, ...]) -> None:
    """One-line errors for a run of ``game`` that cannot be made: an unknown variant or
    policy, a player count outside ``player_range``, more policies than players."""
    for vid in variants:
        if vid not in known_variants:
            raise OddsbotError(f"--variant: unknown variant {vid!r} of {game} (known: "
                               f"{', '.join(known_variants)})")
    low, high = player_range
    if not low <= players <= high:
        raise OddsbotError(f"--players: {game} is for {low}-{high} players, got {players}")
    check_policies(policies, known_policies, players)


def check_policies(policies: tuple[str, ...], known: tuple[str, ...], players: int) -> None:
    """One-line errors for ``--policies``: an unknown policy, more policies than seats."""
    for name in policies:
        if name not in known:
            raise OddsbotError(f"--policies: unknown policy {name!r} (known: "
                               f"{', '.join(known)})")
    if len(policies) > players:
        raise OddsbotError(f"--policies: {len(policies)} policies for {players} seats")


def repeat_policies(policies: tuple[str, ...], players: int, default: str) -> tuple[str, ...]:
    """The policy of every seat: ``policies`` repeated in seat order (``default`` for
    every seat when none is given)."""
    policies = policies or (default,)
    return tuple(policies[s % len(policies)] for s in range(players))


def policy_codes(seats: tuple[str, ...], known: tuple[str, ...]) -> np.ndarray:
    """The kernel's code of every seat's policy (its index in ``known``), int64."""
    return np.array([known.index(p) for p in seats], dtype=np.int64)
