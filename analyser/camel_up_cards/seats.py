"""Arena seats (``Capability.SEATS``, ``SeatsFace`` of ``analyser/face.py``;
docs/games/camel-up-cards.md §16): whole games run on the referee's true position, each
seat deciding from what it may know.

The true position (``TruePosition``) is the kernel's whole-game state: every seat's cards
of the leg and the race deck in drawing order. ``step`` plays a whole turn on it by the
kernel's own ``game.play_turn`` (a leg's end deals the next leg from the step's seed, as
whole simulated games do). A seat's view is that state decoded for the seat
(``simulate.decode``): the public facts and its own cards, the position ``advise``
accepts from it. Everything a seat decides is computed from its view alone: ``choose``
runs the kernel's policy on the view's public state (the policies read no hidden card:
``kernels.camel_up_cards.policy``), ``candidates`` ranks by ``advise``, and ``playouts``
draws the rest of the race deck and the opponents' hand cards for every rollout from the
viewer's model of §9 (``kernels.camel_up_cards.rollouts.playouts``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...errors import OddsbotError, quote
from ...kernels import threads
from ...kernels.camel_up_cards import game as K
from ...kernels.camel_up_cards import policy as P
from ...kernels.camel_up_cards import rollouts as R
from ...kernels.camel_up_cards import track as T
from ...kernels.rng import stream
from ..play_common import policy_code
from . import advise as _advise
from .labels import parse_turn, turn_codes, turn_label
from .play import _canonical
from .position import CARD_TYPES, DEFAULT_LAST, DEFAULT_SETUP, GAME, MAX_PLAYERS, \
    MIN_PLAYERS, Position
from .simulate import POLICIES, Turn, decode, deal_of, result_of
from .state import PHASE_CODES, HiddenModel, known_state, public_state, seat_field
from .validate import validate

CANDIDATE_SAMPLES = 64  # legs and races per race action of the cheap advise ranking
CANDIDATE_EXACT_ORDERS = 720  # the rest of the leg exact up to this many deck orders
PLAYOUT_CHUNK = 32  # rollouts a kernel thread takes at a time (no result depends on it)


@dataclass(frozen=True, eq=False)
class TruePosition:
    """The referee's position: the kernel's game state (``kernels.camel_up_cards.game``,
    read-only) between two turns, with every seat's cards and the race deck's order."""

    state: np.ndarray

    @property
    def players(self) -> int:
        return int(self.state[K.N_PLAYERS])

    @property
    def to_move(self) -> int:
        return int(self.state[K.TO_MOVE])

    @property
    def over(self) -> bool:
        return bool(self.state[K.STATUS])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TruePosition) and np.array_equal(self.state, other.state)

    def __hash__(self) -> int:
        return hash(self.state.tobytes())


def _true(st: np.ndarray) -> TruePosition:
    st = st.copy()
    st.flags.writeable = False
    return TruePosition(st)


def deal(players: int, seed: int, variant: str = GAME,
         rules: Mapping[str, str] | None = None) -> TruePosition:
    """The true start of a new game (§2): the deal of game 0 of a designer run seeded
    ``seed`` (stream (seed, 0)), the position ``new_position`` shows the player to move.
    Seat 0 is the youngest."""
    if variant != GAME:
        raise OddsbotError(f"variant: {GAME} has one rules variant, {GAME!r}; got "
                           f"{quote(variant)}")
    if rules:
        raise OddsbotError(f"rule: {GAME} has no rule parameters (got "
                           f"{', '.join(map(quote, rules))})")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OddsbotError(f"players: {GAME} is for {MIN_PLAYERS}-{MAX_PLAYERS} players, "
                           f"got {players}")
    return _true(K.new_game(players, stream(np.uint64(seed), 0), np.arange(players),
                            np.array(DEFAULT_SETUP[players]), DEFAULT_LAST[players]))


def seat_view(pos: TruePosition, seat: int) -> Position:
    """What ``seat`` knows (§9): the public facts and its own cards of this leg."""
    if pos.over:
        raise OddsbotError("position: the race is over; a position shows a running leg "
                           "(docs/games/camel-up-cards.md §6)")
    return decode(pos.state, seat)


def validate_true(pos: TruePosition) -> TruePosition:
    """Check a true position: every seat's view is a valid position (§6) while the race
    runs, the race deck is the seats' deck and blue cards, and a seat holding a hand card
    holds the card it kept."""
    st, n = pos.state, pos.players
    if pos.over:
        return pos
    for p in range(n):
        validate(seat_view(pos, p))
    d = deal_of(st)
    deck = [CARD_TYPES[t] for t in st[K.DECK:K.DECK + int(st[K.DECK_SIZE])]]
    if Counter(deck) != Counter(d.race_deck()):
        raise OddsbotError("position: the race deck is not the seats' deck and blue cards")
    for p, cards in enumerate(d.seats):
        hand = int(st[seat_field(p, K.HAND)])
        if hand >= 0 and CARD_TYPES[hand] != cards.hand:
            raise OddsbotError(f"position: seat {p} holds {CARD_TYPES[hand]} but kept "
                               f"{cards.hand}")
    return pos


def _label(st: np.ndarray, colour: int, bet1: int, race: int, bet2: int) -> str:
    """The kernel's turn in state ``st`` (``colour``: the hand card's) as
    ``legal_actions`` labels it: a bet after the race action is listed first where the
    order cannot matter, i.e. unless the action is a reveal or a hand card that ends the
    race (§14.1, ``advise.Plan.orders``)."""
    if bet2 != K.NO_BET and race != K.RACE_REVEAL and not (
            race == K.RACE_HAND and T.move(st[:T.TRACK_SIZE].copy(), colour, 1)):
        bet1, bet2 = bet2, K.NO_BET
    return turn_label(bet1, race, bet2, colour)


def _check_mover(view: Position) -> None:
    if view.viewer != view.to_move:
        raise OddsbotError(f"viewer: the view is seat {view.viewer}'s but seat "
                           f"{view.to_move} is to move; a seat decides from its own view")


def choose(view: Position, policy: str, seed: int) -> str:
    """The turn compiled ``policy`` takes for the player to move (the viewer), from the
    view's public state: the kernel's policy reads no hidden card (module doc); its random
    choices from stream (seed, 0)."""
    code = policy_code(policy, POLICIES, GAME)
    _check_mover(view)
    st = public_state(view)
    bet1, race, bet2 = P.choose(st, stream(np.uint64(seed), 0), code)
    colour = T.card_colour(CARD_TYPES.index(view.own_hand)) if view.own_hand else -1
    return _label(st, colour, int(bet1), int(race), int(bet2))


def step(pos: TruePosition, action: str, seed: int) -> tuple[TruePosition, str | None]:
    """The true position after the player to move takes the whole turn ``action`` (a
    label of ``legal_actions`` of their view), by the kernel's ``game.play_turn``; a leg's
    end deals the next leg from stream (seed, 0). The outcome: the card revealed or
    played (``Y1``, as ``outcomes`` names it), else None."""
    if pos.over:
        raise OddsbotError(f"action: {quote(action)}: the race is over")
    st = pos.state.copy()
    codes = _listed_codes(st, action)
    if codes is None:  # another spelling, or illegal: read as play-along reads it
        codes = _canonical(seat_view(pos, pos.to_move), action)[1]
    bet1, race, bet2, _ = codes
    _, card = K.play_turn(st, stream(np.uint64(seed), 0), bet1, race, bet2)
    return _true(st), CARD_TYPES[card] if card >= 0 else None


def _listed_codes(st: np.ndarray, action: str) -> tuple[int, int, int, int] | None:
    """The kernel codes of ``action`` when it is written exactly as ``legal_actions``
    lists it and the kernel finds it legal for the seat to move (``game.race_ok``,
    ``game.bet_ok``: the rules ``advise`` lists by), else None."""
    try:
        bet1, race, bet2, colour = parse_turn(action)
    except OddsbotError:
        return None
    p = int(st[K.TO_MOVE])
    hand = int(st[seat_field(p, K.HAND)])
    if not K.race_ok(st, p, race) or (race == K.RACE_HAND and T.card_colour(hand) != colour):
        return None
    if any(b != K.NO_BET and not K.bet_ok(st, p, b) for b in (bet1, bet2)):
        return None
    if _label(st, colour, bet1, race, bet2) != action:
        return None
    return bet1, race, bet2, colour


def game_result(pos: TruePosition) -> tuple[tuple[float, ...], tuple[float, ...]] | None:
    """None while the race runs; then every seat's final money (EP) and win share: the
    richest seats share the victory (§8)."""
    if not pos.over:
        return None
    mark = np.zeros(pos.players, dtype=np.int64)
    tied = K.winners(pos.state, mark)
    return (tuple(float(pos.state[seat_field(p, K.MONEY)]) for p in range(pos.players)),
            tuple(float(m) / tied for m in mark))


def candidates(view: Position, k: int, seed: int) -> list[str]:
    """At most ``k`` turns best first by ``advise``'s EV (the rest of the leg exact where
    the deck has at most ``CANDIDATE_EXACT_ORDERS`` orders left, else
    ``CANDIDATE_SAMPLES`` sampled legs, and as many sampled races, per race action), every
    legal turn when there are at most ``k``, and ``heuristic``'s turn if not among them."""
    table = _advise.advise(view, samples=CANDIDATE_SAMPLES, seed=seed,
                           exact_orders=CANDIDATE_EXACT_ORDERS)
    best = list(table["action"])
    out = best if len(best) <= k else best[:k]
    mine = choose(view, "heuristic", seed)
    return out if mine in out else out + [mine]


@lru_cache(maxsize=64)
def _known(view: Position) -> tuple[np.ndarray, HiddenModel]:
    """``known_state`` of a view, kept for the search's many calls on one decision."""
    return known_state(validate(view))


def _turn_codes(st: np.ndarray, view: Position, action: str) -> tuple[int, int, int]:
    """The kernel's (bet before, race action, bet after) of a legal ``action`` of the
    view's seat (state ``st``, its ``known_state``); refused in one line if illegal."""
    listed = _listed_codes(st, action) if view.phase == "start" else None
    if listed is not None:
        return listed[:3]
    return turn_codes(_canonical(view, action)[0], view.phase)


def playouts(view: Position, actions: list[str], *, n: int, seed: int, policy: str
             ) -> tuple[np.ndarray, np.ndarray]:
    """``(scores, wins)``, float64 ``(len(actions), n, players)``: ``n`` games played on
    from the view after each turn of ``actions``, every seat by ``policy``; rollout i
    draws the hidden cards (§9), the later deals and the policies' choices from the same
    streams for every action (``kernels.camel_up_cards.rollouts``)."""
    code = policy_code(policy, POLICIES, GAME)
    _check_mover(view)
    st, h = _known(view)
    turns = np.array([_turn_codes(st, view, a) for a in actions],
                     dtype=np.int64).reshape(len(actions), 3)
    policies = np.full(view.players, code, dtype=np.int64)
    phase = PHASE_CODES[view.phase]

    def part(first: int, count: int) -> np.ndarray:
        return R.playouts(st, h.m, h.cum, h.pool, h.known, h.revealed, h.hidden_hands,
                          turns, phase, policies, np.uint64(seed), first, count)

    # one range runs on the calling thread: a small batch costs less than its hand-off
    out = threads.rows(part, n, PLAYOUT_CHUNK) if n > PLAYOUT_CHUNK else part(0, n)
    return (np.ascontiguousarray(out[:, :, 0].transpose(1, 0, 2)),
            np.ascontiguousarray(out[:, :, 1].transpose(1, 0, 2)))


def seated_record(positions: list[TruePosition], moves: list[tuple[str, str | None]]
                  ) -> str:
    """The omniscient record (§14.5) of a game played by seats (``new --play search``), as
    ``new --play POLICY`` writes one: the start as seat 0 sees it, every leg's deal, and
    each turn labelled as the legal list labels it, with its card, the leg's or race's
    end and everyone's money."""
    turns = []
    for (action, card), before, after in zip(moves, positions, positions[1:]):
        mover = before.to_move
        label = _canonical(decode(before.state, mover), action)[0]
        st = after.state
        end = "race" if after.over else "leg" if st[K.LEG] != before.state[K.LEG] else None
        turns.append(Turn(mover, label, card, end,
                          tuple(int(st[seat_field(p, K.MONEY)]) for p in range(after.players)),
                          deal_of(st) if end == "leg" else None))
    first = positions[0].state
    return result_of(positions[-1].state, decode(first), deal_of(first), turns).text()
