"""A Mumia position as the kernel's arrays, and back (``kernels/mumia/layout.py``).

``encode`` gives the state vector, the rules vector and what the viewer cannot see (the
unseen tokens' kinds as a pool, and how many each seat holds unseen: §15); ``decode``
turns a state back into a position, hiding from ``viewer`` what that seat cannot see.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from ...kernels.mumia import layout as L
from .position import (
    FINISH, HAT_SETS, START, UNSEEN, Field, Hat, Position, Turn, pawn_word, read_pawn_word,
)
from .rules import TOKEN_KINDS, Rules, pawns_per_seat, rules_vector
from .tiles import parse_tile, tile_name


@dataclass(frozen=True)
class Encoded:
    S: np.ndarray        # the state (unseen tokens: -1 in the pile, left out of hands)
    R: np.ndarray        # the rules
    pool: np.ndarray     # unseen tokens by kind (int64[4])
    unseen: np.ndarray   # unseen tokens held by each seat (int64[players])

    @property
    def hidden(self) -> bool:
        return bool(self.pool.sum())


def field_id(pos: Position, index: int) -> int:
    """The kernel's field id of track index ``index`` (0 START, last FINISH)."""
    return L.FIN if index == len(pos.track) - 1 else index


def encode(pos: Position) -> Encoded:
    """The kernel's arrays of ``pos`` (a valid position: ``validate``)."""
    R = rules_vector(pos.rules, pos.players, frozenset(pos.expansions))
    S = np.zeros(L.S_SIZE, dtype=np.int64)
    S[L.S_TO_MOVE] = pos.to_move
    tiles = pos.track[1:-1]
    S[L.S_T] = len(tiles)
    for t, f in enumerate(tiles):
        S[L.S_TILE + t] = parse_tile(f.tile)
        S[L.S_PRESENT + t] = 1
    S[L.S_PAWN:L.S_PAWN + L.MAX_SEATS * L.MAX_PAWNS] = -2
    used = [0] * pos.players
    g = 0
    S[L.S_GUARD:L.S_GUARD + L.MAX_GUARDS] = -1
    S[L.S_MUMMY] = -1
    for i, f in enumerate(pos.track):
        fid = field_id(pos, i)
        for seat in f.pawns:
            S[L.S_PAWN + seat * L.MAX_PAWNS + used[seat]] = fid
            used[seat] += 1
        for _ in range(f.guardians):
            S[L.S_GUARD + g] = fid
            g += 1
        if f.mummy:
            S[L.S_MUMMY] = fid
    for name, hat in ((L.S_LUCK, pos.luck), (L.S_BAD, pos.bad)):
        skip = int(S[L.S_LUCK]) if name == L.S_BAD and pos.hats_split else -1
        S[name] = -1 if hat is None else _slot_at(S, hat, field_id(pos, hat.field), skip)
    for p, stack in enumerate(pos.collected):
        for i, t in enumerate(stack):
            S[L.S_STACK + p * L.MAX_TILES + i] = parse_tile(t)
        S[L.S_STACK_N + p] = len(stack)
    S[L.S_TAKEN] = len(pos.rules.mummy_tokens) - len(pos.mummy_tokens)
    for p, taken in enumerate(pos.mummy_taken):
        S[L.S_MPTS + p] = sum(taken)
    pool = np.array(pos.rules.action_token_mix, dtype=np.int64) if pos.has("e4") \
        else np.zeros(4, dtype=np.int64)
    unseen = np.zeros(pos.players, dtype=np.int64)
    for p, hand in enumerate(pos.hands):
        for kind in hand:
            if kind == UNSEEN:
                unseen[p] += 1
            else:
                j = TOKEN_KINDS.index(kind)
                S[L.S_HAND + p * L.N_TOKEN_KINDS + j] += 1
                pool[j] -= 1
    S[L.S_PILE_N] = len(pos.pile)
    for i, kind in enumerate(pos.pile):
        if kind == UNSEEN:
            S[L.S_PILE + i] = -1
        else:
            S[L.S_PILE + i] = TOKEN_KINDS.index(kind)
            pool[TOKEN_KINDS.index(kind)] -= 1
    if pos.turn is not None:
        _encode_turn(S, pos, pos.turn)
    return Encoded(S, R, pool, unseen)


def _slot_hats(S: np.ndarray | list[int], slot: int) -> str:
    """What pawn ``slot`` wears (``HAT_SETS``)."""
    return HAT_SETS[(S[L.S_LUCK] == slot) + 2 * (S[L.S_BAD] == slot)]


def _encode_turn(S: np.ndarray, pos: Position, turn: Turn) -> None:
    """The turn under way into ``S``: the fresh tokens, and each marked pawn's bit on a
    slot of the mover on its field wearing its hats, not marked yet (§18)."""
    for kind in turn.fresh:
        S[L.S_FRESH + TOKEN_KINDS.index(kind)] += 1
    p = pos.to_move
    for offset, words in ((L.S_SWAPPED, turn.swapped), (L.S_MOVED, turn.moved)):
        for w in words:
            index, hats = read_pawn_word(w, "turn")
            fid = field_id(pos, index)
            slot = next(s for s in range(p * L.MAX_PAWNS, (p + 1) * L.MAX_PAWNS)
                        if S[L.S_PAWN + s] == fid and _slot_hats(S, s) == hats
                        and not (S[L.S_SWAPPED] | S[L.S_MOVED]) >> s & 1)
            S[offset] |= 1 << slot


def _decode_turn(S: list[int], index: dict[int, int]) -> Turn | None:
    """The turn under way in ``S`` (None at a turn's start): the fresh tokens, and the
    mover's pawns off FINISH swapped or moved in it (§18)."""
    fresh = tuple(TOKEN_KINDS[j] for j in range(L.N_TOKEN_KINDS)
                  for _ in range(int(S[L.S_FRESH + j])))
    marks = []
    for offset in (L.S_SWAPPED, L.S_MOVED):
        slots = [s for s in range(L.MAX_SEATS * L.MAX_PAWNS) if int(S[offset]) >> s & 1
                 and S[L.S_PAWN + s] != L.FIN]
        marks.append(tuple(sorted(pawn_word(index[int(S[L.S_PAWN + s])], _slot_hats(S, s))
                                  for s in slots)))
    if not fresh and not marks[0] and not marks[1]:
        return None
    return Turn(fresh, marks[0], marks[1])


def _slot_at(S: np.ndarray, hat: Hat, fid: int, skip: int) -> int:
    """The first pawn slot of the hat's seat on field ``fid`` other than ``skip`` (the
    lucky pawn, when the hats are split between two pawns there: §14.1)."""
    for k in range(L.MAX_PAWNS):
        slot = hat.seat * L.MAX_PAWNS + k
        if S[L.S_PAWN + slot] == fid and slot != skip:
            return slot
    raise AssertionError("validate() checks that the hat's wearer stands there")


def decode(S: np.ndarray, R: np.ndarray, rules: Rules, expansions: tuple[str, ...],
           viewer: int | None = None, taken_by: tuple[tuple[int, ...], ...] | None = None,
           turn: bool = False) -> Position:
    """The position of state ``S``; with ``viewer``, the pile and the other seats'
    tokens unseen (§15). ``taken_by`` gives the mummy tokens each seat took (the state
    keeps only their sums); with ``turn``, the turn under way too (§18)."""
    S = S.tolist()  # a list's items read many times faster than an array's
    players = int(R[L.R_PLAYERS])
    pawns = pawns_per_seat(players)
    fields: list[int] = [L.START] + [t + 1 for t in range(int(S[L.S_T]))
                                     if S[L.S_PRESENT + t]] + [L.FIN]
    index = {fid: i for i, fid in enumerate(fields)}
    on: dict[int, list[int]] = {}  # field id -> the seat of each pawn there
    for slot in range(players * L.MAX_PAWNS):
        if slot % L.MAX_PAWNS < pawns:
            on.setdefault(S[L.S_PAWN + slot], []).append(slot // L.MAX_PAWNS)
    guards = Counter(S[L.S_GUARD:L.S_GUARD + L.MAX_GUARDS])
    track = []
    for fid in fields:
        tile = START if fid == L.START else (FINISH if fid == L.FIN
                                             else tile_name(S[L.S_TILE + fid - 1]))
        track.append(Field(tile, tuple(sorted(on.get(fid, ()))), guards[fid],
                           S[L.S_MUMMY] == fid))
    collected = tuple(tuple(tile_name(int(S[L.S_STACK + p * L.MAX_TILES + i]))
                            for i in range(int(S[L.S_STACK_N + p]))) for p in range(players))
    full = rules.mummy_tokens
    taken = int(S[L.S_TAKEN])
    if taken_by is None:
        taken_by = tuple(() if not S[L.S_MPTS + p] else (int(S[L.S_MPTS + p]),)
                         for p in range(players))

    def hat(slot: int) -> Hat | None:
        if slot < 0:
            return None
        return Hat(slot // L.MAX_PAWNS, index[int(S[L.S_PAWN + slot])])

    hands: tuple[tuple[str, ...], ...] = ()
    pile: tuple[str, ...] = ()
    if "e4" in expansions:
        hands = tuple(tuple(TOKEN_KINDS[j] if viewer is None or viewer == p else UNSEEN
                            for j in range(4)
                            for _ in range(int(S[L.S_HAND + p * L.N_TOKEN_KINDS + j])))
                      for p in range(players))
        pile = tuple(TOKEN_KINDS[int(S[L.S_PILE + i])] if viewer is None else UNSEEN
                     for i in range(int(S[L.S_PILE_N])))
    return Position(players=players, to_move=int(S[L.S_TO_MOVE]), expansions=expansions,
                    track=tuple(track), collected=collected, mummy_tokens=full[taken:],
                    mummy_taken=taken_by, luck=hat(int(S[L.S_LUCK])),
                    bad=hat(int(S[L.S_BAD])), hats_split=_split(S), hands=hands, pile=pile,
                    rules=rules, turn=_decode_turn(S, index) if turn else None)


def _split(S: list[int]) -> bool:
    """Both hats on two pawns of one seat on one field (§14.1)."""
    luck, bad = int(S[L.S_LUCK]), int(S[L.S_BAD])
    return (luck >= 0 and bad >= 0 and luck != bad and luck // L.MAX_PAWNS == bad // L.MAX_PAWNS
            and S[L.S_PAWN + luck] == S[L.S_PAWN + bad])
