"""A position as the kernel's state vector and its rules as the rules vector, and back
(``kernels/kingdom_run/layout.py``; docs/games/kingdom-run.md §11, §12)."""

from __future__ import annotations

import numpy as np

from ...kernels.kingdom_run import layout as L
from .position import CLANS, RUNNERS, Position
from .rules import Rules

_CHOICES = {"two_player_end": ("first_of", "own_runners_only"),
            "same_turn_order": ("free", "chronological"),
            "surplus_finishers": ("score_zero", "stay"),
            "tie_rule": ("best_podium", "shared")}


def rules_vector(rules: Rules) -> np.ndarray:
    """The rules vector ``R`` of ``layout``."""
    R = np.zeros(L.R_SIZE, dtype=np.int64)
    n = rules.spaces()
    R[L.R_NSP] = n
    R[L.R_CAP] = rules.capacity
    R[L.R_NPLACES] = rules.places()
    R[L.R_TOKV] = rules.victory_token_value
    R[L.R_LIMIT] = rules.per_action_limit
    R[L.R_MAND] = int(rules.mandatory_dice)
    R[L.R_TWOEND] = _CHOICES["two_player_end"].index(rules.two_player_end)
    R[L.R_ORDER] = _CHOICES["same_turn_order"].index(rules.same_turn_order)
    R[L.R_SURPLUS] = _CHOICES["surplus_finishers"].index(rules.surplus_finishers)
    R[L.R_TIE] = _CHOICES["tie_rule"].index(rules.tie_rule)
    R[L.R_NDICE] = rules.dice
    R[L.R_NFACES] = len(rules.die_faces)
    R[L.R_FACES:L.R_FACES + len(rules.die_faces)] = rules.die_faces
    R[L.R_TOKPP:L.R_TOKPP + 3] = rules.victory_tokens
    R[L.R_PODV:L.R_PODV + rules.places()] = rules.podium_values
    lakes = set(rules.lake_spaces())
    zones = rules.zone_of_space()
    tokens = set(rules.token_spaces())
    exact = rules.zone_mode == "exact"
    nearest = -1
    for s in range(n - 1, -1, -1):
        R[L.R_LAKE + s] = s in lakes
        R[L.R_SCOREV + s] = zones[s] if not exact or s in tokens else 0
        R[L.R_NEXTLAKE + s] = nearest
        if s in lakes:
            nearest = s
    return R


def state_vector(pos: Position) -> np.ndarray:
    """The state vector ``S`` of ``layout`` (the position validated)."""
    S = np.zeros(L.S_SIZE, dtype=np.int64)
    S[L.S_LOC:L.S_LOC + RUNNERS] = pos.where
    S[L.S_PLACE:L.S_PLACE + RUNNERS] = L.NO_PLACE
    for r in pos.asleep:
        S[L.S_SLEEP + r] = 1
    for s in pos.where:
        if s >= 0:
            S[L.S_OCC + s] += 1
    for place, r in enumerate(pos.podium):
        S[L.S_PLACE + r] = place
    S[L.S_NPOD] = len(pos.podium)
    for order, (r, action, src) in enumerate(pos.crossed):
        S[L.S_PLACE + r] = L.PENDING
        S[L.S_CACT + r] = action
        S[L.S_CFROM + r] = src
        S[L.S_CORD + r] = order
    S[L.S_NPEND] = len(pos.crossed)
    for r in pos.out:
        S[L.S_PLACE + r] = L.OUT
    S[L.S_PLAYERS] = pos.players
    S[L.S_TO_MOVE] = pos.to_move
    S[L.S_OWNER:L.S_OWNER + L.CLANS] = -1
    for p, clan in enumerate(pos.clans):
        S[L.S_TOK + p] = pos.tokens[p]
        S[L.S_CLAN + p] = CLANS.index(clan)
        S[L.S_OWNER + CLANS.index(clan)] = p
    S[L.S_ROLL:L.S_ROLL + L.MAX_DICE] = -1
    if pos.roll is not None:
        S[L.S_HAS_ROLL] = 1
        S[L.S_ROLL:L.S_ROLL + len(pos.roll)] = pos.roll
    S[L.S_REROLLED] = int(pos.rerolled)
    left = list(pos.roll or ())
    for face, action in pos.used:
        d = next(i for i, f in enumerate(left) if f == face)
        left[d] = -1
        S[L.S_USED] |= 1 << d
        S[L.S_UCOUNT + action] += 1
    S[L.S_NUSED] = len(pos.used)
    return S


def position_of(S: np.ndarray, like: Position, used: tuple = ()) -> Position:
    """The position of state ``S`` (players, clans and rules as ``like``); ``used``: the
    turn's resolved dice when ``S`` is mid-turn."""
    where = tuple(int(x) for x in S[L.S_LOC:L.S_LOC + RUNNERS])
    place = S[L.S_PLACE:L.S_PLACE + RUNNERS]
    podium = tuple(sorted((r for r in range(RUNNERS) if place[r] >= 0),
                          key=lambda r: place[r]))
    crossed = tuple(sorted(((r, int(S[L.S_CACT + r]), int(S[L.S_CFROM + r]))
                            for r in range(RUNNERS) if place[r] == L.PENDING),
                           key=lambda c: S[L.S_CORD + c[0]]))
    roll = None
    if S[L.S_HAS_ROLL]:
        roll = tuple(int(f) for f in S[L.S_ROLL:L.S_ROLL + like.rules.dice])
    return like.with_(
        to_move=int(S[L.S_TO_MOVE]), where=where,
        asleep=tuple(r for r in range(RUNNERS) if S[L.S_SLEEP + r] and where[r] >= 0),
        podium=podium, crossed=crossed,
        out=tuple(r for r in range(RUNNERS) if place[r] == L.OUT),
        tokens=tuple(int(S[L.S_TOK + p]) for p in range(like.players)), roll=roll,
        rerolled=bool(S[L.S_REROLLED]), used=tuple(used))
