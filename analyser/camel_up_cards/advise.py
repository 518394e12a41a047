"""The EV table of Camel Up Cards: every legal turn of the player to move
(docs/games/camel-up-cards.md §14.1).

A turn is (bet, race action, bet) with at most one bet (§4); its label joins the parts
with `` + ``: ``reveal``, ``hand <colour>``, ``fox <space>``, ``palm <space>``,
``leader <colour>``, ``midfield <colour>``, ``winner <colour>``, ``loser <colour>``, e.g.
``leader orange + reveal``, ``reveal + midfield blue``. Both orders of a bet and a race action are
listed where they differ: around a reveal (or a hand card that may end the race); else
the bet comes first. In the middle of a turn only what is left is listed (phase ``bet``: the race actions; phase ``race``: the bets and
``no bet``).

``ev`` is the expected change of the player's money by this leg's payout (with the 1 EP
floor, §7) given the rest of the leg (``outcomes.leg_outcomes``: nobody places a figure
or plays a hand card from now on), plus for a winner or loser card its expected final
payout by the sampled race odds (less that of the card it returns), counted only when the
turn keeps the bet: a bet after a reveal is lost when that card ends the leg or the race.
Sampled legs and races: ``DEFAULT_SAMPLES`` a race action, or with ``--target-se`` each
race action's in batches until every sampled place probability has at most that standard
error (``--samples``, else ``MAX_SAMPLES``, at most; ``outcomes``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ... import __version__
from .. import montecarlo
from ...kernels.camel_up_cards import game, track
from ...kernels.camel_up_cards.leg import HIST_SHAPE
from ...kernels.camel_up_cards.leg import orders as deck_orders
from ..table import Table
from .encode import Deck, colour_index, deck_of, track_of
from .labels import BET_KINDS, COLOUR_NAMES
from .outcomes import LegOutcomes, RacePlaces, exact_allowed, leg_outcomes, race_places
from .position import COLOURS, Position
from .state import known_state

DEFAULT_SAMPLES = 20_000
MAX_SAMPLES = 200_000  # legs and races a race action at most with --target-se alone
FINAL_RANGE = 8  # of a final card's payout: the floor of a sampled value's uncertainty


@dataclass(frozen=True)
class Bet:
    kind: str  # leader, midfield, winner, loser
    colour: int

    @property
    def label(self) -> str:
        return f"{self.kind} {COLOUR_NAMES[self.colour]}"

    @property
    def kernel_code(self) -> int:
        return BET_KINDS.index(self.kind) * track.N_CAMELS + self.colour


@dataclass(frozen=True)
class RaceAction:
    code: str  # reveal, hand, fox, palm
    space: int = 0
    colour: int = -1  # the hand card's colour

    @property
    def kernel_code(self) -> int:
        """The kernel's race action code (``game.RACE_*``, ``FOX_BASE``, ``PALM_BASE``)."""
        if self.code in ("fox", "palm"):
            return (game.FOX_BASE if self.code == "fox" else game.PALM_BASE) + self.space
        return game.RACE_HAND if self.code == "hand" else game.RACE_REVEAL

    @property
    def label(self) -> str:
        if self.code == "hand":
            return f"hand {COLOUR_NAMES[self.colour]}"
        return self.code if self.code == "reveal" else f"{self.code} {self.space}"


@lru_cache(maxsize=1)
def _orders() -> np.ndarray:
    """``_orders()[rank]``: the camels 1st to 5th of each ranking (``track.rank_index``)."""
    return track.perm_orders()


def leg_gains(st: np.ndarray, seat: int) -> np.ndarray:
    """Seat ``seat``'s money change by this leg's payout in state ``st``, by
    ``[rank, fox_on, palm_on]`` (the kernel's ``game.leg_gain_table``)."""
    out = np.empty((120, 2, 2))
    game.leg_gain_table(st, seat, _orders(), out)
    return out


def legal_bets(pos: Position) -> list[Bet]:
    """Every bet the player to move may take (§4 D, E)."""
    out = []
    for c, colour in enumerate(COLOURS):
        if pos.leader_stack(colour):
            out.append(Bet("leader", c))
    for c, colour in enumerate(COLOURS):
        if pos.midfield_available(colour):
            out.append(Bet("midfield", c))
    for kind, held in (("winner", pos.winner), ("loser", pos.loser)):
        for c, colour in enumerate(COLOURS):
            if colour not in held:  # held by nobody (taking one's own again is no action)
                out.append(Bet(kind, c))
    return out


def legal_race_actions(pos: Position, tr: np.ndarray) -> list[RaceAction]:
    """Every race action of the player to move (§4 A-C)."""
    out = [RaceAction("reveal")]
    if pos.own_hand is not None:
        out.append(RaceAction("hand", colour=colour_index(pos.own_hand[0])))
    for code, fig in (("fox", pos.fox), ("palm", pos.palm)):
        if fig is None:
            out += [RaceAction(code, s) for s in range(1, pos.last + 1)
                    if track.figure_space_ok(tr, s)]
    return out


def after(tr: np.ndarray, action: RaceAction, seat: int) -> tuple[np.ndarray, bool]:
    """The board after a race action other than a reveal; True if it ended the race."""
    out = tr.copy()
    if action.code == "hand":
        return out, bool(track.move(out, action.colour, 1))
    at, holder = (track.FOX, track.FOX_HOLDER) if action.code == "fox" else \
        (track.PALM, track.PALM_HOLDER)
    out[at], out[holder] = action.space, seat
    return out, False


def _moments(prob: np.ndarray, values: np.ndarray) -> tuple[float, float]:
    mean = float((prob * values).sum())
    return mean, float((prob * (values - mean) ** 2).sum())


def final_value(race: RacePlaces, bet: Bet, held: int | None) -> tuple[float, float]:
    """(expected final payout gained, its variance per race): a winner or loser card on
    ``bet.colour`` in place of the card of colour ``held`` (§8 step 3)."""
    pay = game.FINAL_PAY if bet.kind == "winner" else game.FINAL_PAY[::-1]
    x = (pay[:, None] * race.p).sum(axis=0)  # by camel
    x2 = (pay[:, None] ** 2 * race.p).sum(axis=0)
    var = x2 - x ** 2
    if held is None:
        return float(x[bet.colour]), float(var[bet.colour])
    # the two cards' payouts are not independent; their variances added bound the
    # variance of the difference when they move in opposite ways, as places do
    return float(x[bet.colour] - x[held]), float(var[bet.colour] + var[held])


@dataclass
class Row:
    action: str
    ev: float
    var: float  # of the estimate (0 when exact)
    method: str
    why: str


def _leg_ev(leg: LegOutcomes, gain_k: np.ndarray, gain_l: np.ndarray
            ) -> tuple[float, float, bool]:
    """Expected money change of the leg payout (``leg_gains`` tables): cells where the
    first card ended the leg pay ``gain_l`` (the bet after it was not taken), the others
    ``gain_k``; the variance of that estimate; and whether the payout is the same in every
    outcome (then the value is exact whatever was sampled)."""
    prob = leg.prob.sum(axis=1)  # [first, rank, fox, palm]
    values = np.stack([gain_k, gain_l])
    mean, var = _moments(prob, values)
    spread = float(values.max() - values.min())
    if spread == 0.0 or not leg.samples:
        return mean, 0.0, spread == 0.0
    # samples that all paid the same still leave the value uncertain: at least one
    # sample's worth of the payout's range (the outcome not seen may have a chance ~1/n)
    return mean, max(var / leg.samples, (spread / leg.samples) ** 2), False


def _why(bet: Bet | None, leg: LegOutcomes, race: RacePlaces | None,
         action: RaceAction | None) -> str:
    if bet is None:
        if action is None:
            return ""
        if action.code in ("fox", "palm"):
            on = leg.prob.sum(axis=(0, 1, 2))
            stays = on[1].sum() if action.code == "fox" else on[:, 1].sum()
            return f"stays {stays:.2f}"
        return f"race ends {leg.race_ends:.2f}"
    if bet.kind in ("winner", "loser"):
        place = 0 if bet.kind == "winner" else 4
        return f"{'wins' if place == 0 else 'loses'} {race.p[place, bet.colour]:.3f}"
    places = leg.places()[bet.colour]
    if bet.kind == "leader":
        return f"1st {places[0]:.3f}, 2nd {places[1]:.3f}"
    return f"3rd {places[2]:.3f}, 2/4th {places[1] + places[3]:.3f}"


@dataclass(frozen=True)
class Plan:
    """One race action of the turn (None in phase ``race``), the board after it (the
    board now for a reveal, whose card is the first of the rest of the leg) and whether
    it ended the race."""

    action: RaceAction | None
    board: np.ndarray
    ended: bool

    def orders(self) -> tuple[bool, ...]:
        """Where a bet may go: before the race action (True), and after it (False) when
        that can differ: a bet after a reveal or a race-ending hand card is lost (§4)."""
        if self.action is None:
            return (True,)
        return (True, False) if self.action.code == "reveal" or self.ended else (True,)

    def label(self, bet: Bet | None, before: bool) -> str:
        if self.action is None:
            return "no bet" if bet is None else bet.label
        if bet is None:
            return self.action.label
        return (f"{bet.label} + {self.action.label}" if before
                else f"{self.action.label} + {bet.label}")


def plans(pos: Position, tr: np.ndarray) -> list[Plan]:
    """The race actions of the turn still to take (§4; none in phase ``race``)."""
    if pos.phase == "race":
        return [Plan(None, tr, False)]
    out = []
    for action in legal_race_actions(pos, tr):
        if action.code == "reveal":
            out.append(Plan(action, tr, False))
        else:
            out.append(Plan(action, *after(tr, action, pos.to_move)))
    return out


def turn_labels(pos: Position) -> list[str]:
    """Every legal turn of the player to move, as ``advise`` labels its rows."""
    tr = track_of(pos)
    bets = legal_bets(pos) if pos.phase != "bet" else []
    return [plan.label(bet, before) for plan in plans(pos, tr)
            for bet, before in [(None, True)] + [(b, o) for b in bets for o in plan.orders()]]


def _leg_of(plan: Plan, deck: Deck, samples: int, seed: int, exact: bool,
            target_se: float | None) -> LegOutcomes:
    """The rest of the leg after the plan's race action (``outcomes.leg_outcomes``)."""
    if plan.ended:
        hist = np.zeros(HIST_SHAPE)
        hist[1, 1, track.rank_index(plan.board), int(bool(plan.board[track.FOX])),
             int(bool(plan.board[track.PALM]))] = 1.0
        return LegOutcomes(hist, 0)
    leg = leg_outcomes(plan.board, deck, samples, seed, exact, target_se)
    if plan.action is not None and plan.action.code == "reveal":
        return leg
    # the race action itself ended nothing: a bet after it is always kept
    return LegOutcomes(np.stack([leg.prob.sum(axis=0), np.zeros_like(leg.prob[0])]),
                       leg.samples)


def advise(pos: Position, *, samples: int | None, seed: int, target_se: float | None = None,
           progress=None, exact_orders: float | None = None) -> Table:
    """The EV table of ``pos`` (module doc); ``samples`` legs and races per race action
    where sampled (fewer once ``target_se`` is reached); with ``exact_orders``, the rest
    of the leg is exact only where the deck has at most that many orders left
    (``outcomes.exact_allowed`` otherwise)."""
    n_samples = montecarlo.sampling(samples, target_se, DEFAULT_SAMPLES, MAX_SAMPLES)
    tr = track_of(pos)
    deck = deck_of(pos)
    me = pos.to_move
    state = known_state(pos)[0]
    bets = legal_bets(pos) if pos.phase != "bet" else []
    rows: list[Row] = []
    todo = plans(pos, tr)
    exact = exact_allowed(deck) if exact_orders is None else \
        deck_orders(deck.m) <= exact_orders
    legs: set[str] = set()
    # (samples, largest SE) of each sampled leg and race
    drawn: dict[str, list[tuple[int, float]]] = {"legs": [], "races": []}
    per_plan = 2 * n_samples  # at most: legs and races sampled for each race action
    for i, plan in enumerate(todo):
        if progress is not None:
            progress(i * per_plan, len(todo) * per_plan)
        leg = _leg_of(plan, deck, n_samples, seed, exact, target_se)
        legs.add(leg.method)
        if leg.samples:
            drawn["legs"].append((leg.samples, leg.worst_se()))
        mine = state.copy()
        if plan.action is not None and plan.action.code in ("fox", "palm"):
            game.apply_race(mine, me, plan.action.kernel_code)  # the figure's card is mine
        gain = leg_gains(mine, me)
        race = None
        if any(b.kind in ("winner", "loser") for b in bets):
            race = _finished(plan.board) if plan.ended else \
                race_places(plan.board, deck, pos.deck_size, n_samples, seed,
                            target_se=target_se)
            if not plan.ended:
                drawn["races"].append((race.samples, float(race.se().max())))
        ev, var, constant = _leg_ev(leg, gain, gain)
        method = "exact" if constant else leg.method
        rows.append(Row(plan.label(None, True), ev, var, method,
                        _why(None, leg, race, plan.action)))
        p_kept = 1.0 - float(leg.prob[1].sum())
        for bet in bets:
            if bet.kind in ("leader", "midfield"):
                with_bet = mine.copy()
                game.apply_bet(with_bet, me, bet.kernel_code)
                gain_bet = leg_gains(with_bet, me)
            else:  # a final card changes no leg payout
                gain_bet = gain
            for before in plan.orders():
                ev_b, var_b, constant = _leg_ev(leg, gain_bet, gain_bet if before else gain)
                method = "exact" if constant else leg.method
                if bet.kind in ("winner", "loser"):
                    held = pos.winner[me] if bet.kind == "winner" else pos.loser[me]
                    final, var_x = final_value(race, bet,
                                               None if held is None else colour_index(held))
                    keep = 1.0 if before else p_kept
                    ev_b += keep * final
                    var_b += keep ** 2 * max(var_x / race.samples,
                                             (FINAL_RANGE / race.samples) ** 2)
                    method = "exact" if plan.ended else "monte-carlo"
                rows.append(Row(plan.label(bet, before), ev_b, var_b, method,
                                _why(bet, leg, race, plan.action)))
    if progress is not None:
        progress(len(todo) * per_plan, len(todo) * per_plan)
    leg_method = legs.pop() if len(legs) == 1 else "mixed"
    return _table(pos, rows, seed, deck, leg_method, drawn, target_se)


def _finished(board: np.ndarray) -> RacePlaces:
    """The race's places when it has just ended on ``board``."""
    p = np.zeros((5, track.N_CAMELS))
    order = np.empty(track.N_CAMELS, dtype=np.int64)
    track.ranking(board, order)
    p[np.arange(5), order] = 1.0
    return RacePlaces(p, 1, 1.0, 1.0)


def _table(pos: Position, rows: list[Row], seed: int, deck: Deck, leg_method: str,
           drawn: dict[str, list[tuple[int, float]]],
           target_se: float | None) -> Table:
    """The sorted EV table; ``drawn``: the samples and largest SE of each sampled leg and
    race (the provenance gives the most samples a race action took)."""
    rows.sort(key=lambda r: (-r.ev, r.action))
    every = drawn["legs"] + drawn["races"]
    best = rows[0].ev if rows else 0.0
    methods = {r.method for r in rows}
    data = {
        "action": [r.action for r in rows],
        "ev": [round(r.ev, 12) for r in rows],
        "se": [0.0 if r.method == "exact" else float(np.sqrt(r.var)) for r in rows],
        "method": [r.method for r in rows],
        "gap": [round(best - r.ev, 12) for r in rows],
        "why": [r.why for r in rows],
    }
    prov = {"game": "camel-up-cards", "variant": pos.variant, "oddsbot": __version__,
            "position": pos.to_notation(), "seed": seed,
            "samples": max((n for n, _ in every), default=0) if "monte-carlo" in methods
            else 0,
            "leg": leg_method,  # exact, monte-carlo, or mixed (by race action)
            "race_samples": max((n for n, _ in drawn["races"]), default=0),
            "deck_left": deck.left, "candidate_decks": int(len(deck.m)),
            "to_move": pos.to_move, "phase": pos.phase,
            **montecarlo.target_provenance(
                target_se, max((se for _, se in every), default=None))}
    return Table.from_columns(data, prov)
