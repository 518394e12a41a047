"""Position <-> kernel state vector, and action labels <-> kernel action codes.

``decode`` is for tests, ``new`` and showing sampled positions, never a hot path.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from ...kernels import camel_up as K
from ...errors import ActionError, quote
from ...strict import read_int
from .json_form import build
from .position import N_SPACES, Card, Position, Tile
from .variants import SIDES, Variant, variant

HIDDEN = K.HIDDEN  # colour code of a hidden finish card in the kernel's decks


def rules_state(v: Variant, players: int, final_clamp: str = "card") -> np.ndarray:
    """An empty kernel state carrying the edition's rules parameters."""
    return K.new_state(players, int(v.crazy), v.leg_left, np.array(v.tickets, dtype=np.int64),
                       int(v.partnerships and players >= 6), int(final_clamp == "net"))


def encode(pos: Position) -> np.ndarray:
    """The kernel state (int64 vector, layout in ``kernels.camel_up.game``) of ``pos``."""
    v = pos.rules
    st = rules_state(v, pos.players, pos.final_clamp)
    for s, stack in enumerate(pos.track, start=1):
        for camel in stack:
            K.place_camel(st, v.camels.index(camel), s)
    for t in pos.tiles:
        st[K.TILE + t.space] = 1 if t.side == "cheer" else -1
        st[K.TOWNER + t.space] = t.owner
    for d, name in enumerate(v.dice):
        st[K.PYR + d] = int(name in pos.pyramid)
    for c, stack in enumerate(pos.ticket_stacks):
        st[K.TSTACK + c] = len(stack)
    for p, held in enumerate(pos.leg_tickets):
        for colour, value in held:
            c = v.colours.index(colour)
            st[K.LT_COUNT + p * K.N_RACING + c] += 1
            st[K.LT_VALUE + p * K.N_RACING + c] += value
            st[K.LT_MAX + p * K.N_RACING + c] = max(st[K.LT_MAX + p * K.N_RACING + c], value)
    for p in range(pos.players):
        st[K.PTIX + p] = pos.pyramid_tickets[p]
        st[K.MONEY + p] = pos.money[p]
        partner = pos.partnership[p] if pos.partnership else None
        st[K.PARTNER + p] = -1 if partner is None else partner
        hand = pos.finish_hand[p]
        st[K.HAND + p] = 0 if hand is None else sum(1 << v.colours.index(c) for c in hand)
    for deck, length, cards in ((K.WDECK, K.WLEN, pos.winner_deck),
                                (K.LDECK, K.LLEN, pos.loser_deck)):
        for i, card in enumerate(cards):
            colour = HIDDEN if card.colour is None else v.colours.index(card.colour)
            st[deck + i] = card.owner * 8 + colour
        st[length] = len(cards)
    st[K.TO_MOVE] = pos.to_move
    st[K.LEG_START] = pos.leg_start
    return st


def tile_array(tiles: tuple[Tile, ...]) -> np.ndarray:
    arr = np.zeros(N_SPACES + 2, dtype=np.int64)
    for t in tiles:
        arr[t.space] = 1 if t.side == "cheer" else -1
    return arr


def decode(st: np.ndarray, variant_id: str, players: int) -> Position:
    """The Position of a running kernel state (every card's colour is known)."""
    v = variant(variant_id)
    track: list[list[str]] = [[] for _ in range(N_SPACES)]
    for c, name in enumerate(v.camels):
        s = int(st[K.SP + c])
        if 1 <= s <= N_SPACES:
            track[s - 1].append(name)
    for s in range(N_SPACES):
        track[s].sort(key=lambda name: st[K.HT + v.camels.index(name)])
    tiles = tuple(Tile(int(st[K.TOWNER + s]), s, "cheer" if st[K.TILE + s] > 0 else "boo")
                  for s in range(2, N_SPACES + 1) if st[K.TILE + s] != 0)
    leg_tickets = []
    for p in range(players):
        held = []
        for c, colour in enumerate(v.colours):
            k = int(st[K.LT_COUNT + p * K.N_RACING + c])
            taken = len(v.tickets) - int(st[K.TSTACK + c])
            held_values = _split_held(st, v, c, p, k, taken)
            held.extend((colour, val) for val in held_values)
        leg_tickets.append(tuple(held))
    decks = []
    for deck, length in ((K.WDECK, K.WLEN), (K.LDECK, K.LLEN)):
        decks.append(tuple(Card(int(st[deck + i]) // 8,
                                None if st[deck + i] % 8 == HIDDEN
                                else v.colours[int(st[deck + i]) % 8])
                           for i in range(int(st[length]))))
    fields = {
        "players": players,
        "track": tuple(tuple(s) for s in track),
        "tiles": tiles,
        "pyramid": tuple(d for i, d in enumerate(v.dice) if st[K.PYR + i]),
        "leg_tickets": tuple(leg_tickets),
        "pyramid_tickets": tuple(int(st[K.PTIX + p]) for p in range(players)),
        "winner_deck": decks[0],
        "loser_deck": decks[1],
        "finish_hand": tuple(tuple(c for i, c in enumerate(v.colours)
                                   if (st[K.HAND + p] >> i) & 1) for p in range(players)),
        "money": tuple(int(st[K.MONEY + p]) for p in range(players)),
        "to_move": int(st[K.TO_MOVE]),
        "leg_start": int(st[K.LEG_START]),
        "final_clamp": "net" if st[K.R_FINAL_NET] else "card",
    }
    if v.partnerships and players >= 6:
        fields["partnership"] = tuple(None if st[K.PARTNER + p] < 0 else int(st[K.PARTNER + p])
                                      for p in range(players))
    return build(v, fields)


def _split_held(st: np.ndarray, v: Variant, c: int, p: int, k: int, taken: int) -> list[int]:
    """Values of player p's ``k`` tickets of colour c, from their count, sum and maximum
    (that triple identifies a subset of a colour's stack uniquely)."""
    if k == 0:
        return []
    total = int(st[K.LT_VALUE + p * K.N_RACING + c])
    top = int(st[K.LT_MAX + p * K.N_RACING + c])
    pool = list(v.tickets[:taken])
    pool.remove(top)
    rest = total - top
    for combo in combinations(pool, k - 1):
        if sum(combo) == rest and all(x <= top for x in combo):
            return sorted([top, *combo], reverse=True)
    raise AssertionError("inconsistent ticket record in kernel state")


# ------------------------------------------------------------------- action labels
# The labels are made and read here only, in the edition's words (docs/games/camel-up.md
# §4; the 1st edition's desert tiles: Appendix A).


def tile_action(code: int) -> tuple[int, str]:
    """(space, side) of a tile action code."""
    k = code - K.A_SPECTATOR
    return k // 2 + 2, SIDES[k % 2]


def action_label(v: Variant, code: int) -> str:
    """The label of a kernel action code (see ``kernels.camel_up.game``)."""
    if code < K.A_PYRAMID:
        return f"ticket {v.colours[code - K.A_TICKET]}"
    if code == K.A_PYRAMID:
        return "pyramid"
    if code < K.A_WINNER:
        space, side = tile_action(code)
        return f"{v.tile_word} {space} {v.side_word(side)}"
    if code < K.A_LOSER:
        return f"winner {v.colours[code - K.A_WINNER]}"
    if code < K.A_PARTNER:
        return f"loser {v.colours[code - K.A_LOSER]}"
    return f"partner {code - K.A_PARTNER}"


def action_grammar(v: Variant) -> str:
    """Every label form of the edition, for error messages."""
    return (f"ticket <colour>, pyramid, {v.tile_word} <space> {'|'.join(v.side_words)}, "
            f"winner <colour>, loser <colour>, partner <seat>")


def action_code(v: Variant, label: str) -> int:
    """The kernel action code of a label such as ``ticket blue`` or ``spectator 7 boo``;
    a tile action may also use the 2nd edition's words (``Variant.side``)."""
    words = label.split()
    try:
        kind = words[0].lower()
        if kind == "ticket" and len(words) == 2:
            return K.A_TICKET + v.colours.index(v.colour(words[1], "action"))
        if kind == "pyramid" and len(words) == 1:
            return K.A_PYRAMID
        if v.is_tile_word(kind) and len(words) == 3:
            space = read_int(words[1], "action", 2, N_SPACES)
            return K.A_SPECTATOR + (space - 2) * 2 + SIDES.index(v.side(words[2], "action"))
        if kind in ("winner", "loser") and len(words) == 2:
            base = K.A_WINNER if kind == "winner" else K.A_LOSER
            return base + v.colours.index(v.colour(words[1], "action"))
        if kind == "partner" and len(words) == 2:
            return K.A_PARTNER + read_int(words[1], "action", 0, K.MAX_PLAYERS - 1)
    except (IndexError, ValueError):  # a PositionError is a ValueError
        pass
    raise ActionError(f"action: {quote(label)} is not an action ({action_grammar(v)})")
