"""Random legal positions for property tests: a random start, then random legal turns
played through the kernel, decoded back into a Position."""

from __future__ import annotations

import numpy as np

from oddsbot.analyser.camel_up import face as cu
from oddsbot.analyser.camel_up.encode import decode, encode
from oddsbot.kernels import camel_up as K


def random_position(seed: int, players: int = 4, variant: str = "camel-up",
                    turns: int | None = None, max_pyramid: int | None = None) -> cu.Position:
    """Play ``turns`` random legal turns (random count if None) from a random start;
    with ``max_pyramid``, keep playing until the pyramid holds at most that many dice.
    Returns the position reached (re-dealt if the game happened to end)."""
    rng = np.random.default_rng(seed)
    while True:
        st = encode(cu.new_position(players, int(rng.integers(1 << 30)), variant))
        target = int(rng.integers(0, 60)) if turns is None else turns
        played = 0
        while st[K.STATUS] == 0:
            enough = played >= target
            small = max_pyramid is None or K.die_count(K.pyramid_mask(st)) <= max_pyramid
            if enough and small:
                return decode(st, variant, players)
            actions = K.legal_actions(st)
            if max_pyramid is not None and enough:
                action = K.A_PYRAMID  # shrink the pyramid
            else:
                action = int(actions[rng.integers(len(actions))])
            play(st, action, rng)
            played += 1


def play(st: np.ndarray, action: int, rng: np.random.Generator) -> None:
    """Apply ``action`` to the kernel state; a pyramid action reveals a random die and
    face."""
    die, face = -1, -1
    if action == K.A_PYRAMID:
        mask = K.pyramid_mask(st)
        dice = [d for d in range(K.N_DICE) if (mask >> d) & 1]
        die = dice[rng.integers(len(dice))]
        face = int(rng.integers(6 if die == K.GREY else 3))
    K.apply_action(st, action, die, face)


def late_race_position(seed: int, players: int = 4, variant: str = "camel-up",
                       leader: int = 13) -> cu.Position:
    """Random legal turns from a random start, half of them pyramid reveals, until the
    leading racing camel stands on ``leader`` or beyond (re-dealt if the game ends)."""
    rng = np.random.default_rng(seed)
    while True:
        st = encode(cu.new_position(players, int(rng.integers(1 << 30)), variant))
        while st[K.STATUS] == 0:
            if max(st[K.SP + c] for c in range(K.N_RACING)) >= leader:
                return decode(st, variant, players)
            actions = K.legal_actions(st)
            play(st, K.A_PYRAMID if rng.random() < 0.5
                 else int(actions[rng.integers(len(actions))]), rng)
