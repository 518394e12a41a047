"""Random legal Five Tribes positions for property tests: an opening dealt from the box
(docs/games/five-tribes.md §3) and mid-game states anywhere within the box's limits, and any
position with its meeples piled into tall stacks (``stacked``); one fixed opening
(``SCREENED``). Built straight from the
rules' numbers (``FT`` constants), not through the analyser's parsers."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np

from oddsbot.analyser.five_tribes.position import Cell, Player, Position
from oddsbot.kernels import five_tribes as FT

CARD_KINDS = (*FT.GOODS, "fakir")
# a 2-player opening whose heuristic turn, whatever its seed, is the screen's first target:
# r0c2 by a Vizier (docs/games/five-tribes.md §21.1), 1.3 % of the board's sowings
SCREENED = ("five-tribes D6:YWR,O8:YBB,D15:Y,S6:WRR,V5:WWG,L4:WWB/O8:YWB,D6:YBR,V5:YWB,"
            "O8:GRR,D12:BGR,S6:WWR/O8:GGR,V5:YBG,L4:BGG,D6:WBR,L4:BGR,S6:WGR/O8:YYB,V5:BGR,"
            "O8:WBG,S6:YWG,D10:YBR,S6:WWB/S6:WGR,S6:YRR,V5:YWB,L4:YGG,S6:YGG,D6:YBR n=2 "
            "turn=18:0,12:1,8:1,5:0 res=fa,go,si,wh,fa,sp,pa,fi,sp dj=Anun-Nak,Kandicha,Lamia")
DJINNS = tuple(name for name, _, _ in FT.DJINNS)


def box_tiles() -> list[tuple[str, int]]:
    """The 30 tiles as (type, VP)."""
    out: list[tuple[str, int]] = []
    for tile, count, vp in zip(FT.TILE_TYPES, FT.TILE_COUNTS, FT.TILE_VP):
        vps = FT.SACRED_VPS if tile == "sacred-place" else (vp,) * count
        out += [(tile, v) for v in vps]
    return out


def box_meeples() -> list[str]:
    return [c for c, k in zip(FT.COLOURS, FT.MEEPLE_TOTALS) for _ in range(int(k))]


def box_cards() -> list[str]:
    counts = (*(int(k) for k in FT.GOODS_COUNTS), FT.FAKIRS)
    return [kind for kind, k in zip(CARD_KINDS, counts) for _ in range(k)]


def _letters(meeples: list[str]) -> str:
    return "".join(sorted(meeples, key=FT.COLOURS.index))


def _djinns(names: list[str]) -> tuple[str, ...]:
    return tuple(sorted(names, key=DJINNS.index))


def _markers(players: int) -> list[int]:
    return [p for _ in range(FT.MARKERS[players]) for p in range(players)]


def _grid(cells: list[Cell]) -> tuple[tuple[Cell, ...], ...]:
    return tuple(tuple(cells[r * FT.COLS:(r + 1) * FT.COLS]) for r in range(FT.ROWS))


def random_opening(seed: int, players: int) -> Position:
    """Rules §3: 30 shuffled tiles, 3 meeples each from the 90, 9 resources, 3 djinns,
    markers in random order on the bid order track, no bids yet."""
    rng = random.Random(seed)
    tiles, bag, cards = box_tiles(), box_meeples(), box_cards()
    for pile in (tiles, bag, cards):
        rng.shuffle(pile)
    order = _markers(players)
    rng.shuffle(order)
    return Position(
        board=_grid([Cell(t, vp, _letters(bag[3 * i:3 * i + 3]))
                     for i, (t, vp) in enumerate(tiles)]),
        players=tuple(Player(camels=FT.CAMELS[players]) for _ in range(players)),
        resources=tuple(cards[:FT.RESOURCE_ROW]),
        djinns=_djinns(rng.sample(DJINNS, FT.VISIBLE_DJINNS)),
        bid_track=tuple(order), phase="bidding", to_move=order[0])


def _bid(rng: random.Random, bidders: list[int]) -> list[tuple[int, int]]:
    """Each bidder takes a free space; returns (cost, seat) in play order (a new zero
    bid plays before the earlier ones)."""
    free = [int(c) for c in FT.BID_COSTS if c]
    priced: list[tuple[int, int]] = []
    zeros: list[tuple[int, int]] = []
    for p in bidders:
        choices = free + ([0] if len(zeros) < FT.ZERO_SPACES else [])
        cost = rng.choice(choices)
        if cost:
            free.remove(cost)
            priced.append((cost, p))
        else:
            zeros.insert(0, (0, p))
    return sorted(priced, reverse=True) + zeros


def _track(bids: list[tuple[int, int]]) -> tuple[int | None, ...]:
    costs = [int(c) for c in FT.BID_COSTS]
    track: list[int | None] = [None] * len(costs)
    first_zero = costs.index(0)
    for cost, p in bids:
        if cost:
            track[costs.index(cost)] = p
        else:
            track[first_zero] = p
            first_zero += 1
    return tuple(track)


def _tracks(rng: random.Random, players: int) -> dict:
    order = _markers(players)
    rng.shuffle(order)
    if rng.random() < 0.5:  # bidding: the first k markers have bid
        k = rng.randrange(len(order))
        bid_track = order[k:]
        return {"bid_track": tuple(bid_track), "turn_track": _track(_bid(rng, order[:k])),
                "phase": "bidding", "to_move": bid_track[0]}
    bids = _bid(rng, order)  # turns: the first j markers in play order have played
    j = rng.randrange(len(bids))
    return {"bid_track": tuple(p for _, p in bids[:j]), "turn_track": _track(bids[j:]),
            "phase": "turns", "to_move": bids[j][1]}


def random_midgame(seed: int, players: int) -> Position:
    """Any state within the box's limits: meeples on the board and held, camels, palms and
    palaces, cards and djinns spread over row, hands and discards, bids under way."""
    rng = random.Random(seed)
    tiles, bag, cards = box_tiles(), box_meeples(), box_cards()
    for pile in (tiles, bag, cards):
        rng.shuffle(pile)
    on_tile = [[bag.pop() for _ in range(min(rng.choice((0, 0, 1, 2, 3, 4, 5)), len(bag)))]
               for _ in tiles]
    owner: list[int | None] = [None] * FT.N_TILES
    spots = list(range(FT.N_TILES))
    rng.shuffle(spots)
    camels_left = []
    for p in range(players):
        mine = [spots.pop() for _ in range(min(rng.randint(0, FT.CAMELS[players]), len(spots)))]
        for t in mine:
            owner[t] = p
            if rng.random() < 0.8:  # usually emptied; Utug owns tiles with meeples
                on_tile[t] = []
        slack = rng.randint(0, 2) if rng.random() < 0.2 else 0  # camels left only bounded
        camels_left.append(max(FT.CAMELS[players] - len(mine) - slack, 0))
    palms, palaces = [0] * FT.N_TILES, [0] * FT.N_TILES
    for _ in range(rng.randint(0, FT.PALMS)):
        palms[rng.randrange(FT.N_TILES)] += 1
    for _ in range(rng.randint(0, FT.PALACES)):
        palaces[rng.randrange(FT.N_TILES)] += 1
    board = _grid([Cell(t, vp, _letters(on_tile[i]), owner[i], palms[i], palaces[i])
                   for i, (t, vp) in enumerate(tiles)])
    left = {c: sum(m == c for m in bag) for c in "YW"}  # meeples in the bag after the board
    djinns = list(DJINNS)
    rng.shuffle(djinns)
    hands = []
    for p in range(players):
        viziers, elders = rng.randint(0, left["Y"]) // 2, rng.randint(0, left["W"]) // 2
        left["Y"] -= viziers
        left["W"] -= elders
        hand = [cards.pop() for _ in range(rng.randint(0, 7))]
        hands.append(Player(
            camels=camels_left[p], gold=rng.randint(0, 150), viziers=viziers, elders=elders,
            djinns=_djinns([djinns.pop() for _ in range(rng.randint(0, 3))]),
            goods=tuple(hand.count(g) for g in FT.GOODS), fakirs=hand.count("fakir")))
    return Position(
        board=board, players=tuple(hands),
        resources=tuple(cards.pop() for _ in range(rng.randint(0, FT.RESOURCE_ROW))),
        djinns=_djinns([djinns.pop() for _ in range(rng.randint(0, FT.VISIBLE_DJINNS))]),
        resource_discard=tuple(sorted((cards.pop() for _ in range(rng.randint(0, 6))),
                                      key=CARD_KINDS.index)),
        djinn_discard=_djinns([djinns.pop() for _ in range(rng.randint(0, 2))]),
        end_rule=rng.choice(("live", "premove")), assassin_optional=rng.random() < 0.3,
        **_tracks(rng, players))


def stacked(pos: Position, sizes: dict[int, int]) -> Position:
    """``pos`` with tile ``t`` holding ``sizes[t]`` meeples (a tall stack where meeples
    pile up in play): meeples are moved onto it from the other tiles, last tile first,
    emptying them as needed; nothing else changes, so the meeples' totals stay legal."""
    cells = [cell for _, _, cell in pos.cells()]
    for t, size in sizes.items():
        gathered = cells[t].meeples
        for s in reversed(range(FT.N_TILES)):
            need = size - len(gathered)
            if need <= 0:
                break
            if s not in sizes:
                gathered += cells[s].meeples[:need]
                cells[s] = replace(cells[s], meeples=cells[s].meeples[need:])
        assert len(gathered) == size, "not enough meeples on the board"
        cells[t] = replace(cells[t], meeples=_letters(list(gathered)))
    return replace(pos, board=_grid(cells))


def tall_boards(n: int, seed: int) -> list[np.ndarray]:
    """Random boards (``counts[30, 5]``) of 5-40 meeples thrown on the tiles, stacks up
    to 9."""
    rng = np.random.default_rng(seed)
    boards = []
    while len(boards) < n:
        b = np.zeros((FT.N_TILES, FT.N_COLOURS), dtype=np.int64)
        for _ in range(rng.integers(5, 40)):
            b[rng.integers(FT.N_TILES), rng.integers(FT.N_COLOURS)] += 1
        if b.sum(axis=1).max() <= 9:
            boards.append(b)
    return boards


def loop_board() -> np.ndarray:
    """Meeple counts of a small board with loops: a 5-stack (one of each colour) on tile 8
    and a few neighbours, for tests that list or draw every sowing of it."""
    board = np.zeros((FT.N_TILES, FT.N_COLOURS), dtype=np.int64)
    board[8] = [1, 1, 1, 1, 1]
    board[14] = [1, 0, 0, 1, 0]
    board[2] = [0, 1, 0, 0, 1]
    board[9] = [0, 2, 0, 0, 0]
    return board


def next_bidding(pos: Position) -> Position:
    """A turns-phase ``pos`` with every marker back on the bid order track, in play order:
    the next round's bidding."""
    order = [*pos.bid_track, *(p for p in pos.turn_track if p is not None)]
    return replace(pos, bid_track=tuple(order), turn_track=(None,) * 9, phase="bidding",
                   to_move=order[0])


PAID_DJINNS = tuple(name for name, _, cost in FT.DJINNS if cost != FT.COST_NONE)


def with_djinn_rules(pos: Position, seed: int) -> Position:
    """``pos`` with random djinn switches (docs/games/five-tribes.md §20.3) and powers
    marked used (§20.8) where a legal position may have them: held paid djinns of the player
    to move in the turns phase, or of any player under the 2-player ``per_round`` limit."""
    rng = random.Random(seed)
    limit = "per_round" if pos.n_players == 2 and rng.random() < 0.5 else "per_turn"
    players = list(pos.players)
    for i, p in enumerate(players):
        if limit == "per_round" or (pos.phase, pos.to_move) == ("turns", i):
            used = tuple(d for d in p.djinns if d in PAID_DJINNS and rng.random() < 0.6)
            players[i] = replace(p, djinns_used=used)
    return replace(pos, players=tuple(players), two_player_djinn=limit,
                   djinn_neighbour=rng.choice((8, 4)), nekir_per_meeple=rng.random() < 0.5)
