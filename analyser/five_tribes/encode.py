"""Positions to kernel state vectors and back (layout: ``kernels.five_tribes.state``)."""

from __future__ import annotations

import numpy as np

from ...kernels import five_tribes as FT
from .json_form import TWO_PLAYER_DJINN  # index = the kernel's DJINN_PER_ROUND
from .names import CARDS, DJINN_NAMES
from .position import Cell, Player, Position

END_RULES = ("live", "premove")  # index = the kernel's end-rule code


def _mask(djinns: tuple[str, ...]) -> int:
    return sum(1 << DJINN_NAMES.index(d) for d in djinns)


def _djinns(mask: int) -> tuple[str, ...]:
    return tuple(d for i, d in enumerate(DJINN_NAMES) if (mask >> i) & 1)


def encode(pos: Position) -> np.ndarray:
    """The kernel state of ``pos`` (hidden parts as what they hold)."""
    st = FT.empty_state()
    counts = FT.meeples(st)
    for t, (_, _, cell) in enumerate(pos.cells()):
        st[FT.T_TYPE + t] = FT.TILE_TYPES.index(cell.tile)
        st[FT.T_VP + t] = cell.vp
        st[FT.T_OWNER + t] = -1 if cell.owner is None else cell.owner
        st[FT.T_PALMS + t] = cell.palms
        st[FT.T_PALACES + t] = cell.palaces
        for letter in cell.meeples:
            counts[t, FT.COLOURS.index(letter)] += 1
    for p, player in enumerate(pos.players):
        st[FT.P_GOLD + p] = player.gold
        st[FT.P_VIZIERS + p] = player.viziers
        st[FT.P_ELDERS + p] = player.elders
        st[FT.P_CAMELS + p] = player.camels
        st[FT.P_FAKIRS + p] = player.fakirs
        st[FT.P_GOODS + p * FT.N_GOODS:FT.P_GOODS + (p + 1) * FT.N_GOODS] = player.goods
        st[FT.P_DJINNS + p] = _mask(player.djinns)
        st[FT.P_USED + p] = _mask(player.djinns_used)
    for i, card in enumerate(pos.resources):
        st[FT.ROW + i] = CARDS.index(card)
    for i, djinn in enumerate(pos.djinns):
        st[FT.DJINN_ROW + i] = DJINN_NAMES.index(djinn)
    st[FT.RES_DECK:FT.RES_DECK + FT.N_CARD_KINDS] = pos.resource_deck
    for card in pos.resource_discard:
        st[FT.RES_DISCARD + CARDS.index(card)] += 1
    st[FT.DJINN_DECK] = _mask(pos.djinn_deck)
    st[FT.DJINN_DISCARD] = _mask(pos.djinn_discard)
    st[FT.BAG:FT.BAG + FT.N_COLOURS] = pos.bag
    st[FT.BID_ORDER:FT.BID_ORDER + len(pos.bid_track)] = pos.bid_track
    for i, owner in enumerate(pos.turn_track):
        st[FT.TURN_TRACK + i] = -1 if owner is None else owner
    st[FT.PHASE] = FT.TURNS if pos.phase == "turns" else FT.BIDDING
    st[FT.TO_MOVE] = pos.to_move
    st[FT.N_PLAYERS] = pos.n_players
    st[FT.END_RULE] = END_RULES.index(pos.end_rule)
    st[FT.ASSASSIN_OPTIONAL] = pos.assassin_optional
    st[FT.DJINN_NEIGHBOUR] = pos.djinn_neighbour
    st[FT.NEKIR_PER_MEEPLE] = pos.nekir_per_meeple
    st[FT.DJINN_PER_ROUND] = TWO_PLAYER_DJINN.index(pos.two_player_djinn)
    return st


def decode(st: np.ndarray) -> Position:
    """The position of kernel state ``st`` (the inverse of ``encode``)."""
    counts = FT.meeples(st)
    cells = []
    for t in range(FT.N_TILES):
        owner = int(st[FT.T_OWNER + t])
        cells.append(Cell(FT.TILE_TYPES[st[FT.T_TYPE + t]], int(st[FT.T_VP + t]),
                          "".join(FT.COLOURS[c] * int(counts[t, c]) for c in range(FT.N_COLOURS)),
                          None if owner < 0 else owner, int(st[FT.T_PALMS + t]),
                          int(st[FT.T_PALACES + t])))
    board = tuple(tuple(cells[r * FT.COLS:(r + 1) * FT.COLS]) for r in range(FT.ROWS))
    players = tuple(
        Player(camels=int(st[FT.P_CAMELS + p]), gold=int(st[FT.P_GOLD + p]),
               viziers=int(st[FT.P_VIZIERS + p]), elders=int(st[FT.P_ELDERS + p]),
               djinns=_djinns(int(st[FT.P_DJINNS + p])),
               djinns_used=_djinns(int(st[FT.P_USED + p])),
               goods=tuple(int(x) for x in st[FT.P_GOODS + p * FT.N_GOODS:
                                              FT.P_GOODS + (p + 1) * FT.N_GOODS]),
               fakirs=int(st[FT.P_FAKIRS + p]))
        for p in range(int(st[FT.N_PLAYERS])))
    discard = tuple(card for i, card in enumerate(CARDS)
                    for _ in range(int(st[FT.RES_DISCARD + i])))
    return Position(
        board=board, players=players,
        resources=tuple(CARDS[c] for c in st[FT.ROW:FT.ROW + 9] if c >= 0),
        djinns=tuple(DJINN_NAMES[d] for d in st[FT.DJINN_ROW:FT.DJINN_ROW + 3] if d >= 0),
        bid_track=tuple(int(p) for p in st[FT.BID_ORDER:FT.BID_ORDER + FT.MAX_MARKERS]
                        if p >= 0),
        turn_track=tuple(None if p < 0 else int(p)
                         for p in st[FT.TURN_TRACK:FT.TURN_TRACK + FT.TRACK_SPACES]),
        phase="turns" if st[FT.PHASE] == FT.TURNS else "bidding",
        to_move=int(st[FT.TO_MOVE]), resource_discard=discard,
        djinn_discard=_djinns(int(st[FT.DJINN_DISCARD])), end_rule=END_RULES[st[FT.END_RULE]],
        assassin_optional=bool(st[FT.ASSASSIN_OPTIONAL]),
        djinn_neighbour=int(st[FT.DJINN_NEIGHBOUR]),
        nekir_per_meeple=bool(st[FT.NEKIR_PER_MEEPLE]),
        two_player_djinn=TWO_PLAYER_DJINN[st[FT.DJINN_PER_ROUND]])
