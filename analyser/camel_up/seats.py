"""Arena seats (``Capability.SEATS``, ``SeatsFace`` of ``analyser/face.py``;
docs/games/camel-up.md §15.1): whole games played one decision at a time on true positions
(every finish card's colour filled in), each seat deciding from its own view.

A seat sees everything but the colours of the other players' finish cards on the decks
(and so the hands of those who placed any): ``record.viewpoint``. The kernel policies
never read those colours (``kernels/camel_up/policy.py``: only their owners and order), so
``choose`` runs the policy on the view itself; ``playouts`` give the hidden cards colours
per rollout from the ``uniform`` model of ``rollouts.HIDDEN_MODELS`` (the one ``advise
--rollouts`` uses by default).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ...errors import OddsbotError
from ...kernels import camel_up as K
from ...kernels.rng import stream
from .. import montecarlo
from ..play_common import policy_code
from . import record
from .advise import LegValuer, final_bet_value, leg_action_ev
from .encode import action_label, encode, tile_action
from .odds import leg_distribution, race_odds
from .play import apply, legal_code, outcomes, record_text
from .position import Position
from .rollouts import CHUNK
from .simulate import POLICIES, die_text, new_position
from .validate import validate

EXACT_LEG_DICE = 4  # candidates: exact leg values from at most this many dice inside
BET_SAMPLES = 128  # candidates: races simulated for the finish bets' values ...
BET_BUDGET = "0.01"  # ... unless the race is solved exactly within this many seconds


def deal(players: int, seed: int, variant: str, rules: Mapping[str, str]) -> Position:
    """The true start of a new game: ``new_position`` (every finish card in hand), the
    start ``simulate_raw`` deals game 0 of a run seeded ``seed``. Camel Up has no rule
    parameters, so ``rules`` must be empty."""
    if rules:
        raise OddsbotError(f"rules: camel-up has no rule parameters (got "
                           f"{', '.join(sorted(rules))})")
    return new_position(players, seed, variant)


def seat_view(pos: Position, seat: int) -> Position:
    """``pos`` as ``seat`` sees it: the other players' finish-card colours hidden."""
    return record.viewpoint(pos, seat)


def _mover_state(view: Position, what: str) -> np.ndarray:
    """The kernel state of a running view of the player to move (one line otherwise)."""
    if view.status != "running":
        raise OddsbotError(f"{what}: the game is over")
    if view.finish_hand[view.to_move] is None:
        raise OddsbotError(f"{what}: the view hides the hand of player {view.to_move}, who "
                           "is to move (give seat_view(pos, pos.to_move))")
    return encode(view)


def _kernel_choice(st: np.ndarray, policy: int, seed: int) -> int:
    return int(K.choose(st, policy, K.HEURISTIC_PARAMS, stream(np.uint64(seed), 0),
                        K.workspace()))


def choose(view: Position, policy: str, seed: int) -> str:
    """The kernel policy's action for the player to move, from the view alone (its random
    choices from stream (seed, 0))."""
    code = _kernel_choice(_mover_state(view, "choose"),
                          policy_code(policy, POLICIES, "camel-up"), seed)
    return action_label(view.rules, code)


def step(pos: Position, action: str, seed: int) -> tuple[Position, str | None]:
    """The position after the player to move takes ``action`` (``apply``); a pyramid
    action's die drawn by the kernel (``draw_reveal``) from stream (seed, 0)."""
    outcome = None
    if outcomes(pos, action):
        die, face = K.draw_reveal(encode(pos), stream(np.uint64(seed), 0))
        outcome = die_text(pos.rules, int(die), int(face))
    return apply(pos, action, outcome), outcome


def game_result(pos: Position) -> tuple[tuple[float, ...], tuple[float, ...]] | None:
    """None while the race runs; then every seat's money and win share (the richest
    win, tied players share the victory: §8 step 6)."""
    if pos.status == "running":
        return None
    scores = tuple(float(m) for m in pos.money)
    best = max(scores)
    tied = scores.count(best)
    return scores, tuple(1.0 / tied if s == best else 0.0 for s in scores)


def _leg_values(view: Position, st: np.ndarray, codes: list[int]) -> dict[int, float]:
    """Tickets, pyramid and partnerships: advise's exact EV when at most
    ``EXACT_LEG_DICE`` dice are inside; else from the heuristic's leg estimate (P(1st),
    P(2nd) of each camel): a ticket v P1 + P2 - (1 - P1 - P2), the pyramid 1, a
    partnership the best of the partner's ticket values v P1 + P2 (1 with a pyramid
    ticket)."""
    leg = [c for c in codes if c <= K.A_PYRAMID or c >= K.A_PARTNER]
    if len(view.pyramid) <= EXACT_LEG_DICE:
        dist = leg_distribution(view)
        valuer = LegValuer(view, view.to_move)
        base = valuer.value(dist)
        return {c: leg_action_ev(view, c, valuer, dist, base) for c in leg}
    ws = K.workspace()
    K.estimate_leg(st, ws)
    p1, p2 = ws[K.W_P1], ws[K.W_P2]
    colours = view.rules.colours

    def ticket(colour: str, value: int) -> float:
        c = colours.index(colour)
        return value * p1[c] + p2[c]

    out = {}
    for c in leg:
        if c < K.A_PYRAMID:
            out[c] = ticket(colours[c], view.ticket_stacks[c][0]) - (1 - p1[c] - p2[c])
        elif c == K.A_PYRAMID:
            out[c] = 1.0
        else:
            q = c - K.A_PARTNER
            out[c] = max([float(view.pyramid_tickets[q] > 0)]
                         + [ticket(*held) for held in view.leg_tickets[q]])
    return out


def _tile_values(view: Position, codes: list[int]) -> dict[int, float]:
    """Spectator tiles, as the heuristic estimates them: 1 EP a landing, a landing per
    racing camel whose die is inside and that stands 1-3 spaces behind, with chance
    (reveals left) / (dice inside) / 3; less what the seat's tile on the track would
    earn where it lies."""
    v = view.rules
    inside = [c for c in v.colours if c in view.pyramid]
    share = (len(view.pyramid) - v.leg_left) / len(view.pyramid) / 3
    behind = np.zeros(len(view.track) + 4)
    for colour in inside:
        behind[view.camel_space(colour)] += share

    def landings(space: int) -> float:
        return float(behind[max(space - 3, 0):space].sum())

    own = view.tile_of(view.to_move)
    lost = 0.0 if own is None else landings(own.space)
    return {c: landings(tile_action(c)[0]) - lost for c in codes
            if K.A_SPECTATOR <= c < K.A_WINNER}


def _bet_values(view: Position, codes: list[int], seed: int) -> dict[int, float]:
    """Winner and loser bets as advise values them (``final_bet_value``, ``uniform``
    deck model), on race odds solved exactly within ``BET_BUDGET`` else from
    ``BET_SAMPLES`` simulated races (seeded ``seed``)."""
    bets = [c for c in codes if K.A_WINNER <= c < K.A_PARTNER]
    if not bets:
        return {}
    race = race_odds(view, montecarlo.Plan(samples=BET_SAMPLES, target_se=None), seed,
                     None, BET_BUDGET)
    out = {}
    for c in bets:
        loser = c >= K.A_LOSER
        colour = c - (K.A_LOSER if loser else K.A_WINNER)
        p, se = (race.lose, race.lose_se) if loser else (race.win, race.win_se)
        out[c] = final_bet_value(view, view.loser_deck if loser else view.winner_deck,
                                 view.rules.colours[colour], float(p[colour]),
                                 float(se[colour]), "uniform")[0]
    return out


def candidates(view: Position, k: int, seed: int) -> list[str]:
    """At most ``k`` actions best first by one-turn EV as ``advise`` values them, computed
    cheaply (``_leg_values``, ``_tile_values``, ``_bet_values``); every legal action when
    there are at most ``k``; then the heuristic's choice and, where the leg is small
    enough to enumerate (at most ``EXACT_LEG_DICE`` dice inside), greedy's, if missing."""
    st = _mover_state(view, "candidates")
    validate(view)
    codes = [int(a) for a in K.legal_actions(st)]
    values = (_leg_values(view, st, codes) | _tile_values(view, codes)
              | _bet_values(view, codes, seed))
    chosen = sorted(codes, key=lambda c: -values[c])[:max(k, 0)]
    policies = ["heuristic"] + (["greedy"] if len(view.pyramid) <= EXACT_LEG_DICE else [])
    for policy in policies:
        code = _kernel_choice(st, policy_code(policy, POLICIES, "camel-up"), seed)
        if code not in chosen:
            chosen.append(code)
    return [action_label(view.rules, c) for c in chosen]


def playouts(view: Position, actions: list[str], *, n: int, seed: int, policy: str
             ) -> tuple[np.ndarray, np.ndarray]:
    """``(scores, wins)``, float64 ``[action, rollout, seat]``: final money and win share
    of ``n`` games played on from the view after each action, every seat by ``policy``.
    Rollout ``i`` gives the hidden finish cards colours (uniform model) from stream
    (seed, 3i) and draws dice and policy choices from (seed, 3i + 1), (seed, 3i + 2), the
    same for every action (``kernels.camel_up.playouts``)."""
    st = _mover_state(view, "playouts")
    codes = np.array([legal_code(view, a) for a in actions], dtype=np.int64)
    policies = np.full(view.players, policy_code(policy, POLICIES, "camel-up"), dtype=np.int64)
    return K.playouts(st, codes, policies, K.HEURISTIC_PARAMS, seed, n, CHUNK)


def seated_record(positions: list[Position], moves: list[tuple[str, str | None]]) -> str:
    """The play-along record of a game played by seats (``new --play search``): ``step``'s
    outcomes are play-along's, so it is ``record_text`` of the start and the moves."""
    return record_text(positions[0], moves)
