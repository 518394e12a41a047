"""Whole games: random legal starts (docs/games/camel-up.md §2) and seeded playthroughs under a
policy."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...kernels import camel_up as K
from ...kernels.rng import stream
from ...errors import OddsbotError
from .encode import action_label, decode, encode, rules_state
from .position import Position
from .variants import Variant, variant

POLICIES = K.POLICY_NAMES
MAX_TURNS = 4000


def new_position(players: int = 4, seed: int = 0, variant_id: str = "camel-up") -> Position:
    """A random legal start for ``players`` (racing dice, random stacking order and crazy
    camel choice, AMB-9), seat 0 to move, from chance stream (seed, 0)."""
    v = variant(variant_id)
    if not v.min_players <= players <= v.max_players:
        raise OddsbotError(f"players: {v.id} is for {v.min_players}-{v.max_players} players, "
                           f"got {players}")
    st = rules_state(v, players)
    K.setup_camels(st, stream(np.uint64(seed), 0))
    return decode(st, v.id, players)


def die_text(v: Variant, die: int, face: int) -> str:
    """A chance outcome as words: ``green 2``, ``grey black 3``."""
    if die < K.GREY:
        return f"{v.colours[die]} {face + 1}"
    return f"grey {'white' if face < 3 else 'black'} {face % 3 + 1}"


@dataclass(frozen=True)
class Turn:
    player: int
    action: str
    roll: str | None  # the die revealed by a pyramid action
    money: tuple[int, ...]  # everyone's money after the turn


@dataclass(frozen=True)
class GameResult:
    start: Position
    turns: tuple[Turn, ...]
    winner: str | None  # None (and ``loser`` too) while the game is not over
    loser: str | None
    money: tuple[int, ...]

    def text(self) -> str:
        """A readable record: one line per turn, then the result if the game is over."""
        lines = [f"start {self.start.to_notation()}"]
        for i, t in enumerate(self.turns, start=1):
            roll = f" -> {t.roll}" if t.roll else ""
            lines.append(f"{i:4d} p{t.player} {t.action}{roll} | money "
                         f"{','.join(map(str, t.money))}")
        if self.winner is not None:
            lines.append(f"winner {self.winner} loser {self.loser} money "
                         f"{','.join(map(str, self.money))}")
        return "\n".join(lines) + "\n"


def simulate(pos: Position, *, seed: int = 0, policy: str = "random") -> GameResult:
    """Play ``pos`` to the end with every seat following ``policy`` (``POLICIES``) and
    chance drawn from stream (seed, 1). Hidden finish cards are first given colours
    (uniformly over the consistent assignments, stream (seed, 2)); the result starts
    from that completed position."""
    if policy not in POLICIES:
        raise OddsbotError(f"policy: unknown policy {policy!r} (known: {', '.join(POLICIES)})")
    v = pos.rules
    st = encode(pos)
    K.sample_hidden(st, stream(np.uint64(seed), 2), np.empty(K.N_RACING, dtype=np.int64))
    pos = decode(st, v.id, pos.players)  # the record starts from the sampled cards
    log = np.zeros((MAX_TURNS, 3), dtype=np.int64)
    chance = stream(np.uint64(seed), 1)  # dice and the policy's own choices share one stream
    policies = np.full(pos.players, POLICIES.index(policy), dtype=np.int64)
    played = K.play_out(st.copy(), policies, K.HEURISTIC_PARAMS, chance, chance,
                        K.workspace(), log)
    turns = []
    replay = st.copy()
    for action, die, face in log[:played]:
        player = int(replay[K.TO_MOVE])
        K.apply_action(replay, action, die, face)
        money = tuple(int(replay[K.MONEY + p]) for p in range(pos.players))
        turns.append(Turn(player, action_label(v, int(action)),
                          die_text(v, int(die), int(face)) if die >= 0 else None, money))
    order = np.empty(K.N_RACING, dtype=np.int64)
    K.ranking(replay, order)
    return GameResult(pos, tuple(turns), v.colours[order[0]], v.colours[order[-1]],
                      turns[-1].money)
