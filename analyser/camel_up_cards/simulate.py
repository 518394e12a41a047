"""Whole games of Camel Up Cards: new deals and seeded playthroughs under a policy
(docs/games/camel-up-cards.md §2, §3, §14.4).

``new_position`` deals a new game (stream (seed, 0)) and shows it to the player to move.
``simulate`` completes a position with what its viewer cannot see, drawn from the model of
§9 (stream (seed, 1)): the rest of the race deck from the viewer's candidate decks, then
each opponent's hand card uniformly from the cards left unseen. It then plays to the end,
deals from stream (seed, 0) and choices from stream (seed, 2).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from ...errors import OddsbotError
from ...kernels.camel_up_cards import batch_games as B
from ...kernels.camel_up_cards import game as K
from ...kernels.camel_up_cards import leg as L
from ...kernels.camel_up_cards import policy as P
from ...kernels.camel_up_cards import track as T
from ...kernels.rng import below, stream
from .advise import COLOUR_NAMES
from .encode import candidates, colour_index, deck_knowledge, track_of, type_counts
from .position import (CARD_TYPES, COLOURS, DEFAULT_LAST, DEFAULT_SETUP, GAME, MAX_PLAYERS,
                       MIN_PLAYERS, Figure, Position)
from .validate import validate

POLICIES = P.POLICY_NAMES


def _seat(p: int, field: int) -> int:
    return K.PLAYER + p * K.PB + field


def decode(st: np.ndarray, viewer: int | None = None) -> Position:
    """The position of game state ``st`` as seat ``viewer`` (default: the seat to move)
    knows it, at the start of a turn."""
    n = int(st[K.N_PLAYERS])
    me = int(st[K.TO_MOVE]) if viewer is None else viewer
    last = int(st[T.LAST])
    stacks: list[list[str]] = [[] for _ in range(last)]
    line: list[tuple[int, str]] = []
    for c, colour in enumerate(COLOURS):
        s, h = int(st[T.SP + c]), int(st[T.HT + c])
        if s == 0:
            line.append((h, colour))
        elif s <= last:
            stacks[s - 1].append((h, colour))
    figs = []
    for at, holder in ((T.FOX, T.FOX_HOLDER), (T.PALM, T.PALM_HOLDER)):
        figs.append(Figure(int(st[at]), int(st[holder])) if st[at] else None)
    put = int(st[K.INTO_DECK]) + int(st[K.BLUE])
    first = int(st[K.DISCARDED])
    cards = [int(st[_seat(me, K.CARDS + i)]) for i in range(int(st[K.DEALT]))]
    blue = tuple(CARD_TYPES[st[_seat(p, K.CARDS + first + put - 1)]] if st[K.BLUE] else None
                 for p in range(n))
    hand = int(st[_seat(me, K.HAND)])
    played = tuple((p, CARD_TYPES[st[_seat(p, K.PLAYED)]]) for p in range(n)
                   if st[_seat(p, K.PLAYED)] >= 0)
    leader = []
    for p in range(n):
        held = []
        for c, colour in enumerate(COLOURS):
            k, total = int(st[_seat(p, K.LEAD_N + c)]), int(st[_seat(p, K.LEAD_SUM + c)])
            held += [(colour, v) for v in _leader_values(k, total)]
        leader.append(tuple(held))
    ages = tuple(sorted(range(n), key=lambda p: int(st[_seat(p, K.AGE)])))
    return Position(
        players=n, ages=ages, setup=(int(st[K.DEALT]), int(st[K.DISCARDED]),
                                     int(st[K.INTO_DECK])),
        last=last, cards=tuple(int(x) for x in st[T.CARD:T.CARD + st[T.N_CARDS]]),
        start_line=tuple(c for _, c in sorted(line, reverse=True)),
        stacks=tuple(tuple(c for _, c in sorted(s)) for s in stacks),
        fox=figs[0], palm=figs[1], viewer=me,
        revealed=tuple(CARD_TYPES[t] for t in st[K.DECK:K.DECK + st[K.DRAWN]]),
        played=played, blue=blue,
        own_discarded=tuple(CARD_TYPES[t] for t in cards[:first]),
        own_deck=tuple(CARD_TYPES[t] for t in cards[first:first + int(st[K.INTO_DECK])]),
        own_hand=CARD_TYPES[hand] if hand >= 0 else None,
        hands=tuple(bool(st[_seat(p, K.HAND)] >= 0) for p in range(n)),
        leader=tuple(leader),
        midfield=tuple(tuple(colour for c, colour in enumerate(COLOURS)
                             if st[K.MID_HOLDER + c] == p) for p in range(n)),
        winner=tuple(COLOURS[st[_seat(p, K.WINNER)]] if st[_seat(p, K.WINNER)] >= 0 else None
                     for p in range(n)),
        loser=tuple(COLOURS[st[_seat(p, K.LOSER)]] if st[_seat(p, K.LOSER)] >= 0 else None
                    for p in range(n)),
        money=tuple(int(st[_seat(p, K.MONEY)]) for p in range(n)),
        to_move=int(st[K.TO_MOVE]), leg=int(st[K.LEG]))


def _leader_values(k: int, total: int) -> tuple[int, ...]:
    """The leader cards of one colour a seat holds, from their count and sum (the kernel
    keeps only those): one subset of 5 3 2 2 fits each pair."""
    return next(v for v in combinations((5, 3, 2, 2), k) if sum(v) == total)


def new_position(players: int = 4, seed: int = 0, variant_id: str = GAME) -> Position:
    """A new game for ``players`` (§2) dealt from stream (seed, 0), at the first turn of
    leg 1, as the player to move sees it. Seat 0 is the youngest."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OddsbotError(f"players: {GAME} is for {MIN_PLAYERS}-{MAX_PLAYERS} players, "
                           f"got {players}")
    st = K.new_game(players, stream(np.uint64(seed), 0), np.arange(players),
                    np.array(DEFAULT_SETUP[players]), DEFAULT_LAST[players])
    return decode(st)


def complete(pos: Position, s: np.ndarray) -> np.ndarray:
    """A full game state consistent with what ``pos``'s viewer knows, the hidden cards
    drawn from stream ``s`` (module doc)."""
    validate(pos)
    n = pos.players
    st = np.zeros(K.STATE_SIZE, dtype=np.int64)
    st[:T.TRACK_SIZE] = track_of(pos)
    m, w = candidates(pos)
    deck = np.empty(32, dtype=np.int64)
    j_deck = L.draw_deck(m, np.cumsum(w), s, deck)
    rest = deck[:j_deck]
    drawn = type_counts(pos.revealed)
    know = deck_knowledge(pos)
    in_deck = type_counts(CARD_TYPES[t] for t in rest) + drawn  # this leg's whole deck
    unseen = know.pool - (in_deck - know.known)  # neither in the deck nor seen
    left = [t for t in range(T.N_TYPES) for _ in range(int(unseen[t]))]
    st[K.N_PLAYERS] = n
    st[K.TO_MOVE] = pos.to_move
    st[K.LEG] = pos.leg
    st[K.DEALT], st[K.DISCARDED], st[K.INTO_DECK] = pos.setup
    st[K.BLUE] = 1 if n >= 3 else 0
    st[K.DECK_SIZE] = pos.deck_size
    st[K.DRAWN] = len(pos.revealed)
    for i, card in enumerate(pos.revealed):
        st[K.DECK + i] = CARD_TYPES.index(card)
    st[K.DECK + len(pos.revealed):K.DECK + pos.deck_size] = rest
    for c, colour in enumerate(COLOURS):
        st[K.LEADER_LEFT + c] = len(pos.leader_stack(colour))
        holder = [p for p in range(n) if colour in pos.midfield[p]]
        st[K.MID_HOLDER + c] = holder[0] if holder else -1
    for p in range(n):
        st[_seat(p, K.MONEY)] = pos.money[p]
        st[_seat(p, K.AGE)] = pos.ages.index(p)
        st[_seat(p, K.WINNER)] = colour_index(pos.winner[p]) if pos.winner[p] else -1
        st[_seat(p, K.LOSER)] = colour_index(pos.loser[p]) if pos.loser[p] else -1
        for colour, value in pos.leader[p]:
            st[_seat(p, K.LEAD_N + colour_index(colour))] += 1
            st[_seat(p, K.LEAD_SUM + colour_index(colour))] += value
        played = pos.played_card(p)
        st[_seat(p, K.PLAYED)] = CARD_TYPES.index(played) if played else -1
        st[_seat(p, K.CARDS):_seat(p, K.CARDS) + K.MAX_DEALT] = -1
        if p == pos.viewer:
            hand = CARD_TYPES.index(pos.own_hand) if pos.own_hand else -1
        elif pos.hands[p]:
            hand = left.pop(below(s, len(left)))
        else:
            hand = -1
        st[_seat(p, K.HAND)] = hand
    return st


@dataclass(frozen=True)
class Turn:
    player: int
    action: str
    card: str | None  # the card revealed or played
    leg_end: str | None  # "leg" or "race" when the turn ended one
    money: tuple[int, ...]  # everyone's money after the turn (and payouts)


@dataclass(frozen=True)
class GameResult:
    start: Position
    turns: tuple[Turn, ...]
    winner: str
    loser: str
    money: tuple[int, ...]

    def text(self) -> str:
        """A readable record: the start, one line per turn, then the result."""
        lines = [f"start {self.start.to_notation()}"]
        for i, t in enumerate(self.turns, start=1):
            card = f" -> {t.card}" if t.card else ""
            end = f" | {t.leg_end} ends" if t.leg_end else ""
            lines.append(f"{i:4d} p{t.player} {t.action}{card}{end} | money "
                         f"{','.join(map(str, t.money))}")
        lines.append(f"winner {self.winner} loser {self.loser} money "
                     f"{','.join(map(str, self.money))}")
        return "\n".join(lines) + "\n"


def turn_label(bet1: int, race: int, bet2: int, hand_colour: int) -> str:
    """A kernel turn as the EV table labels it (§14.1)."""
    parts = []
    if bet1 != K.NO_BET:
        parts.append(bet_label(bet1))
    if race == K.RACE_REVEAL:
        parts.append("reveal")
    elif race == K.RACE_HAND:
        parts.append(f"hand {COLOUR_NAMES[hand_colour]}")
    elif race < K.PALM_BASE:
        parts.append(f"fox {race - K.FOX_BASE}")
    else:
        parts.append(f"palm {race - K.PALM_BASE}")
    if bet2 != K.NO_BET:
        parts.append(bet_label(bet2))
    return " + ".join(parts)


def bet_label(b: int) -> str:
    kind = ("leader", "midfield", "winner", "loser")[b // T.N_CAMELS]
    return f"{kind} {COLOUR_NAMES[b % T.N_CAMELS]}"


def simulate(pos: Position, *, seed: int = 0, policy: str = "heuristic") -> GameResult:
    """Play ``pos`` to the end, every seat following ``policy`` (module doc). A position
    in the middle of a turn is first brought to the turn's end: the race action the
    policy picks (phase ``bet``) or no bet (phase ``race``)."""
    if policy not in POLICIES:
        raise OddsbotError(f"policy: unknown policy {policy!r} (known: {', '.join(POLICIES)})")
    st = complete(pos, stream(np.uint64(seed), 1))
    deal, pol = stream(np.uint64(seed), 0), stream(np.uint64(seed), 2)
    code = POLICIES.index(policy)
    turns: list[Turn] = []
    if pos.phase == "race":
        st[K.TO_MOVE] = (pos.to_move + 1) % pos.players
    elif pos.phase == "bet":
        _, race, _ = P.choose(st, pol, code)
        turns.append(_turn(st, deal, K.NO_BET, race, K.NO_BET))
    return _play_out(st, pos, turns, deal, pol, code)


def play(players: int, seed: int, variant: str = GAME, policy: str = "heuristic") -> str:
    """A whole new game (deal and race deck from stream (seed, 0), as dealt: nothing is
    resampled), every seat following ``policy``, as its record text."""
    if policy not in POLICIES:
        raise OddsbotError(f"policy: unknown policy {policy!r} (known: {', '.join(POLICIES)})")
    start = new_position(players, seed, variant)
    deal = stream(np.uint64(seed), 0)
    st = K.new_game(players, deal, np.arange(players), np.array(DEFAULT_SETUP[players]),
                    DEFAULT_LAST[players])
    return _play_out(st, start, [], deal, stream(np.uint64(seed), 2),
                     POLICIES.index(policy)).text()


def _play_out(st: np.ndarray, start: Position, turns: list[Turn], deal: np.ndarray,
              pol: np.ndarray, code: int) -> GameResult:
    """Turns from ``st`` to the end of the game (after ``turns`` already played)."""
    n = start.players
    while st[K.STATUS] == 0 and len(turns) < B.MAX_TURNS:
        bet1, race, bet2 = P.choose(st, pol, code)
        turns.append(_turn(st, deal, bet1, race, bet2))
    order = np.empty(T.N_CAMELS, dtype=np.int64)
    T.ranking(st, order)
    money = tuple(int(st[_seat(p, K.MONEY)]) for p in range(n))
    return GameResult(start, tuple(turns), COLOURS[order[0]], COLOURS[order[-1]], money)


def _turn(st: np.ndarray, deal: np.ndarray, bet1: int, race: int, bet2: int) -> Turn:
    p = int(st[K.TO_MOVE])
    hand = int(st[_seat(p, K.HAND)])
    ended, card = K.play_turn(st, deal, bet1, race, bet2)
    n = int(st[K.N_PLAYERS])
    return Turn(p, turn_label(bet1, race, bet2, T.card_colour(hand) if hand >= 0 else -1),
                CARD_TYPES[card] if card >= 0 else None, (None, "leg", "race")[ended],
                tuple(int(st[_seat(q, K.MONEY)]) for q in range(n)))
