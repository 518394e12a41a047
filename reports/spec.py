"""What a designer run simulates, and how its games are cut into blocks.

Game ``r`` of a variant draws its chance from streams derived from (seed, r) only, so
a block of games [game0, game0 + n) has the same rows wherever and in whatever order it
is computed; blocks are the unit of work sent to threads or Dask workers and of the
files a run leaves behind (``--resume`` keeps every finished block).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

BLOCK_GAMES = 50_000


@dataclass(frozen=True)
class Block:
    variant: str
    game0: int
    n: int

    def path(self, out: Path) -> Path:
        """The block's Parquet file inside run folder ``out``."""
        return out / "blocks" / self.variant / f"games-{self.game0:010d}-{self.n}.parquet"


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

    def blocks(self) -> list[Block]:
        """Every block of the run, variant by variant in game order."""
        return [Block(v, g, min(self.block, self.games - g))
                for v in self.variants for g in range(0, self.games, self.block)]

    def to_json(self) -> dict[str, object]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> RunSpec:
        return cls(game=data["game"], variants=tuple(data["variants"]),
                   players=int(data["players"]), policies=tuple(data["policies"]),
                   games=int(data["games"]), seed=int(data["seed"]),
                   block=int(data["block"]))
