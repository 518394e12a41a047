"""The exact race's states counted without its kernel, with the leg kernel's reveal step
and numpy only (docs/games/camel-up.md §9.1, "The count comes first").

``exact_race.race_exact`` gives up when ``closure`` reaches more than ``max_states``
states. It is the costliest kernel of Camel Up to compile, and on most 2nd-edition
positions it only finds out that it must give up. ``race_states`` lists the states that
search lists, in the same order of leg starts: the leg starts of the current leg, then,
breadth first, every state dice alone reach from the likeliest, then from them all, each
state named by ``exact_race.canonical``'s key (``canonical_keys``). Every state listed is
one ``closure`` counts, so once more than ``max_states`` are listed the search is proven
to give up and the count stops; otherwise every state is listed and the count is the
kernel's.

A reveal is ``leg._level`` (compiled for the leg table, which every command that values a
position builds) from a level of nodes, each a packed configuration (``leg._pack``) and
its dice inside; finished races are dropped, as ``closure`` drops them. Plain Python: no
kernel of its own to compile.
"""

from __future__ import annotations

import numpy as np

from .exact_race import CRAZY_KIND, GREY_BIT
from .leg import _level, _pack
from .track import (ABSENT, GREY, MAX_INCOME, N_CAMELS, N_PERMS, N_RACING, N_SPACES, SP,
                    TRACK_SIZE, WHITE)

CHUNK = 1 << 14  # nodes revealed per ``_level`` call (its tables: 21 children a node)
_DICE = np.array([bin(m).count("1") for m in range(1 << 6)], dtype=np.int64)  # popcount


def canonical_keys(packed: np.ndarray, masks: np.ndarray, ncam: int) -> np.ndarray:
    """``exact_race.canonical`` of each node (``leg._pack`` configuration, dice mask) of a
    race with ``ncam`` camels on the board: 7 bits a camel from the front, (space << 2) |
    kind (0 racing with its die inside, 1 racing with it out, 2 crazy), grey die bit 49."""
    codes = []  # a column a camel
    for c in range(ncam):  # packed byte (space - ABSENT) * 8 + height orders as the kernel
        kind = 1 - ((masks >> c) & 1) if c < N_RACING else CRAZY_KIND
        codes.append(((packed >> (8 * c)) & 255) * 4 + kind)
    for i in range(1, ncam):  # back to front, each row: an insertion network of whole
        for j in range(i, 0, -1):  # columns (numpy sorts short rows slowly)
            codes[j - 1], codes[j] = (np.minimum(codes[j - 1], codes[j]),
                                      np.maximum(codes[j - 1], codes[j]))
    keys = ((masks >> GREY) & 1) << GREY_BIT
    for i in range(ncam):
        space = (codes[i] >> 5) + ABSENT
        keys |= ((space << 2) | (codes[i] & 3)) << (7 * i)
    return keys


def _reveal(packed: np.ndarray, masks: np.ndarray, weights: np.ndarray, tile: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every outcome of one more reveal from each node (all with the same number of dice
    inside) on ``tile``, equal nodes merged: (packed, masks, integer weights, as ``leg``'s:
    zero weights stay zero). Finished races are dropped."""
    n = len(packed)
    m = int(_DICE[masks[0]]) if n else 1
    cap = 1  # room for every child, the hash table twice as large (as ``leg._fill``)
    while cap < n * (3 * m + 3):
        cap *= 2
    keys = np.empty((n, 2), dtype=np.int64)
    keys[:, 0] = packed
    keys[:, 1] = masks
    out_keys = np.empty((cap, 2), dtype=np.int64)
    out_weights = np.empty(cap, dtype=np.int64)
    no_tiles = np.zeros(N_SPACES + 2, dtype=np.int64)  # nobody's: no landings counted
    n_out = _level(keys, np.ascontiguousarray(weights), n, m, False, tile, no_tiles,
                   np.zeros((2, N_PERMS, MAX_INCOME), dtype=np.int64),
                   np.zeros(N_SPACES + 2, dtype=np.int64),
                   np.zeros(TRACK_SIZE, dtype=np.int64), out_keys, out_weights,
                   np.full(2 * cap, -1, dtype=np.int64))
    return out_keys[:n_out, 0].copy(), out_keys[:n_out, 1].copy(), out_weights[:n_out].copy()


def leg_starts(track: np.ndarray, tile: np.ndarray, mask: int, leg_left: int, full: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """The configurations (``leg._pack``) the current leg can end in without ending the
    race, as ``exact_race.current_leg`` lists them, and the chance of each."""
    if _DICE[mask] <= leg_left:
        mask = full
    packed = np.array([_pack(track)], dtype=np.int64)
    masks = np.array([mask], dtype=np.int64)
    m = int(_DICE[mask])
    total = 1
    for k in range(m, leg_left, -1):
        total *= 6 * k
    weights = np.array([total], dtype=np.int64)
    while m > leg_left and len(packed):
        packed, masks, weights = _reveal(packed, masks, weights, tile)
        m -= 1
    configs, which = np.unique(packed, return_inverse=True)
    return configs, np.bincount(which, weights, len(configs)) / total


def _add_new(seen: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(``seen`` with ``keys`` added, sorted; the index of one node of each key that was
    not in ``seen``)."""
    found, first = np.unique(keys, return_index=True)
    at = np.searchsorted(seen, found)
    new = (at == len(seen)) | (seen[np.minimum(at, len(seen) - 1)] != found)
    return np.sort(np.concatenate([seen, found[new]]), kind="stable"), first[new]


def race_states(track: np.ndarray, tile: np.ndarray, mask: int, leg_left: int, full: int,
                max_states: int, too_big: np.ndarray) -> tuple[int, int]:
    """(states, culprit) as ``race_exact`` returns them for these arguments: the number of
    states its search lists, -1 if more than ``max_states`` (or a leg start is in
    ``too_big``, sorted canonical keys of leg starts known to reach that many);
    ``culprit`` a leg start found to reach that many on its own, else -1. As ``closure``,
    the search runs from the likeliest leg start first, then from them all, and stops as
    soon as it has listed more than ``max_states`` states."""
    ncam = N_CAMELS if track[SP + WHITE] != ABSENT else N_RACING
    configs, chances = leg_starts(track, tile, mask, leg_left, full)
    masks = np.full(len(configs), full, dtype=np.int64)
    roots = canonical_keys(configs, masks, ncam)
    if np.isin(roots, too_big).any():
        return -1, -1
    if not len(roots):
        return 0, -1
    first = int(np.argmax(chances))
    seen = roots[first:first + 1]
    nodes, node_masks = configs[first:first + 1], masks[first:first + 1]
    alone = True
    no_tiles = np.zeros(N_SPACES + 2, dtype=np.int64)
    while len(nodes) or alone:
        if not len(nodes):  # all that the likeliest leg start reaches is listed
            alone = False
            seen, new = _add_new(seen, roots)
            nodes, node_masks = configs[new], masks[new]
            continue
        found, found_masks = [], []
        for s in range(0, len(nodes), CHUNK):
            if len(seen) > max_states:
                return -1, int(roots[first]) if alone else -1
            part = slice(s, s + CHUNK)
            kids, kid_masks, _ = _reveal(nodes[part], node_masks[part],
                                         np.zeros(len(nodes[part]), np.int64), no_tiles)
            kid_masks[_DICE[kid_masks] == leg_left] = full  # the leg ends: dice go back
            seen, new = _add_new(seen, canonical_keys(kids, kid_masks, ncam))
            found.append(kids[new])
            found_masks.append(kid_masks[new])
        nodes, node_masks = np.concatenate(found), np.concatenate(found_masks)
    return len(seen), -1
