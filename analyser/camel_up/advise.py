"""The EV table: what each legal action of the player to move is worth, in EP.

Leg actions (tickets, pyramid, spectator tiles, partnerships) are valued exactly over the
rest of the leg, assuming no other player acts (only dice are revealed). A value is the
change in the player's expected money after this leg's scoring, with the 0 EP floor
applied to the player's whole leg result as the rules do (§7.2 step 4). Winner / loser
bets are valued at the end of the race from the race odds (exact when the race fits the
``exact_budget``, else Monte Carlo), with the cards already on the deck modelled by
``deck_model`` (see ``DECK_MODELS``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ... import __version__
from ...kernels import camel_up as K
from .. import equity, montecarlo
from ..play_common import seat_number as player_name
from ..table import Table
from . import GAME
from .encode import action_code, action_label, encode, tile_action
from .odds import (
    EXACT_BUDGET, RACE_POLICY, LegDistribution, budget_states, leg_distributions, place_of,
    race_odds,
)
from .position import Card, Position, Tile
from .rollouts import HIDDEN_MODELS, rollout_equity
from .validate import validate

FINAL_PAYOUT = (8, 5, 3, 2, 1)  # then 1 EP for every further correct card
DECK_MODELS = {
    "uniform": "each opponent's hidden cards are a uniformly random set of the colours "
               "they may still hold (at most one card of a colour per player)",
    "race": "each hidden card shows a colour with that colour's current race probability "
            "(at most one card of a colour per player)",
    "optimistic": "hidden cards never show the colour bet on",
}
DECK_MODEL_WORDS = {  # DECK_MODELS as a caption says them
    "uniform": "hidden cards uniform",
    "race": "hidden cards by race odds",
    "optimistic": "hidden cards never the colour bet on",
}
COLUMNS = ["action", "ev", "se", "method", "gap", "p_first", "p_second", "p_rest",
           "landings", "p_race", "cards_ahead"]


def ticket_rewards(pos: Position, player: int) -> tuple[np.ndarray, np.ndarray]:
    """Per ranking index: the player's net leg result from the tickets they hold (betting
    and pyramid), and the best single reward among them (what a partner may copy)."""
    places = place_of()
    v = pos.rules
    net = np.full(len(places), pos.pyramid_tickets[player], dtype=np.int64)
    best = np.full(len(places), 1 if pos.pyramid_tickets[player] else -(1 << 30), np.int64)
    for colour, value in pos.leg_tickets[player]:
        place = places[:, v.colours.index(colour)]
        reward = np.where(place == 0, value, np.where(place == 1, 1, -1))
        net += reward
        best = np.maximum(best, reward)
    return net, best


class LegValuer:
    """Expected money of one player after this leg's scoring, for extra leg results."""

    def __init__(self, pos: Position, player: int) -> None:
        self.money = pos.money[player]
        net, _ = ticket_rewards(pos, player)
        partner = pos.partnership[player] if pos.partnership else None
        if partner is not None:
            net = net + np.maximum(0, ticket_rewards(pos, partner)[1])
        self.net = net

    def value(self, dist: LegDistribution, extra: np.ndarray | int = 0) -> float:
        """E[max(0, money + own-tile landings + net + extra)] under ``dist``;
        ``extra`` is a per-ranking-index array or a constant."""
        landings = np.arange(dist.prob.shape[2])
        total = self.money + self.net + extra  # per ranking index
        after = np.maximum(0, total[:, None] + landings[None, :])
        return float((dist.prob * after[None, :, :]).sum())


def _deck_matches(pos: Position, deck: tuple[Card, ...], colour: str, p_colour: float,
                  model: str) -> np.ndarray:
    """Distribution of how many cards already on ``deck`` show ``colour``."""
    v = pos.rules
    known = sum(1 for c in deck if c.colour == colour)
    dist = np.zeros(len(deck) + 1)
    dist[known] = 1.0
    if model == "optimistic":
        return dist
    owners = {c.owner for c in deck if c.colour is None}
    for owner in sorted(owners):
        hidden_here = sum(1 for c in deck if c.owner == owner and c.colour is None)
        placed = [c for c in pos.winner_deck + pos.loser_deck if c.owner == owner]
        if colour in {c.colour for c in placed}:
            continue  # they already showed their card of this colour
        if model == "uniform":
            free = len(v.colours) - sum(1 for c in placed if c.colour is not None)
            q = hidden_here / free
        else:
            q = 1.0 - (1.0 - p_colour) ** hidden_here
        dist = dist * (1 - q) + np.concatenate(([0.0], dist[:-1])) * q
    return dist


def final_bet_value(pos: Position, deck: tuple[Card, ...], colour: str, p: float, se: float,
                    model: str) -> tuple[float, float, float]:
    """(EV, SE, expected matching cards ahead) of putting ``colour`` on top of ``deck``
    when it is the deck's target with probability ``p``: the k-th correct card pays
    8, 5, 3, 2, 1, 1, ... and a wrong card costs 1 EP."""
    ahead = _deck_matches(pos, deck, colour, p, model)
    pays = np.array([FINAL_PAYOUT[k] if k < len(FINAL_PAYOUT) else 1 for k in range(len(ahead))])
    pay = float((ahead * pays).sum())
    return p * pay - (1 - p), (pay + 1) * se, float((ahead * np.arange(len(ahead))).sum())


def leg_action_ev(pos: Position, code: int, valuer: LegValuer, dist: LegDistribution,
                  base: float) -> float:
    """The exact EV (EP) of a ticket, the pyramid or a partnership (kernel ``code``) over
    the rest of the leg ``dist`` of the tiles on the track; ``base`` is
    ``valuer.value(dist)``."""
    if code < K.A_PYRAMID:
        c = code - K.A_TICKET
        places = place_of()[:, c]
        reward = np.where(places == 0, pos.ticket_stacks[c][0], np.where(places == 1, 1, -1))
        return valuer.value(dist, reward) - base
    if code == K.A_PYRAMID:
        return valuer.value(dist, 1) - base
    bonus = np.maximum(0, ticket_rewards(pos, code - K.A_PARTNER)[1])
    return valuer.value(dist, bonus) - base


def _moved_tiles(pos: Position, player: int, space: int, side: str) -> tuple[Tile, ...]:
    kept = tuple(t for t in pos.tiles if t.owner != player)
    return tuple(sorted(kept + (Tile(player, space, side),), key=lambda t: t.space))


def legal_codes(pos: Position) -> list[int]:
    return [int(a) for a in K.legal_actions(encode(pos))]


def legal_actions(pos: Position) -> list[str]:
    """Labels of the legal actions of the player to move (kernel order)."""
    validate(pos)
    return [action_label(pos.rules, a) for a in legal_codes(pos)]


def check_action(pos: Position, label: str) -> int:
    """The kernel code of ``label`` if it is legal here (ActionError otherwise)."""
    from ...errors import ActionError

    code = action_code(pos.rules, label)
    if code not in legal_codes(pos):
        raise ActionError(f"action: {label!r} is not legal for player "
                          f"{player_name(pos, pos.to_move)} here")
    return code


def advise(pos: Position, *, samples: int | None = None, seed: int = 0,
           target_se: float | None = None, deck_model: str = "uniform",
           exact: str = "auto", rollouts: int | None = None, policy: str = "heuristic",
           rollout_target_se: float | None = None, hidden: str = "uniform",
           candidates: int | None = None, exact_budget: str = EXACT_BUDGET,
           progress: Callable[[int, int], None] | None = None) -> Table:
    """The EV table of every legal action of the player to move, best first.

    Columns: ``action`` (label), ``ev`` (EP), ``se`` (0 when exact), ``method``
    (``exact`` / ``monte-carlo``), ``gap`` (EP behind the best), and the probabilities
    behind each estimate: ``p_first`` / ``p_second`` / ``p_rest`` (leg places of a
    ticket's camel), ``landings`` (expected landings on a placed tile this leg),
    ``p_race`` (probability the bet's colour wins / loses the race) and ``cards_ahead``
    (expected correct cards already on the deck); a probability that does not apply to
    the action is None. The table's ``provenance`` says how.
    With ``rollouts``, every action is also played to the end of the game that many
    times (at most; see ``rollouts.rollout_equity``) under ``policy`` for all seats, and
    the table gains ``win_p``, ``win_se``, ``margin``, ``margin_se`` (EP over the best
    opponent), ``gap_se`` (SE of the paired win-probability gap to the best action) and
    ``p_best``, and is sorted by ``win_p``; with ``candidates``, only the best K actions
    by ``ev`` are rolled out (the others' rollout columns empty, listed after them by ev).
    Leg actions are always enumerated exactly (``exact`` is accepted for the common face;
    ``"never"`` is refused because the leg is always small enough). Winner / loser bets
    are ``exact`` (se 0) when the race odds are solved within ``exact_budget`` seconds,
    else ``monte-carlo``.
    """
    from ...errors import OddsbotError

    if deck_model not in DECK_MODELS:
        raise OddsbotError(f"deck-model: unknown model {deck_model!r} "
                           f"(known: {', '.join(DECK_MODELS)})")
    if exact not in ("auto", "always"):
        raise OddsbotError(f"exact: {exact!r} is not supported for camel-up (the leg is "
                           "always enumerated exactly; use auto or always)")
    budget_states(exact_budget)  # a bad --exact-budget is refused even with no race bet
    validate(pos)
    v = pos.rules
    player = pos.to_move
    codes = legal_codes(pos)
    spectators = [c for c in codes if K.A_SPECTATOR <= c < K.A_WINNER]
    layouts = [pos.tiles] + [_moved_tiles(pos, player, *tile_action(c)) for c in spectators]
    dists = leg_distributions(pos, layouts)
    base_dist = dists[0]
    tile_dist = dict(zip(spectators, dists[1:]))
    valuer = LegValuer(pos, player)
    base = valuer.value(base_dist)
    ranks = base_dist.rank_probabilities
    race = None
    if any(c >= K.A_WINNER and c < K.A_PARTNER for c in codes) or \
            (rollouts is not None and hidden == "informed"):
        race = race_odds(pos, _plan(samples, target_se), seed, progress, exact_budget)
    rows = []
    for code in codes:
        row: dict = {"action": action_label(v, code), "se": 0.0, "method": "exact"}
        if code <= K.A_PYRAMID or code >= K.A_PARTNER:
            row["ev"] = leg_action_ev(pos, code, valuer, base_dist, base)
            if code < K.A_PYRAMID:
                c = code - K.A_TICKET
                row.update(p_first=ranks[c, 0], p_second=ranks[c, 1],
                           p_rest=ranks[c, 2:].sum())
        elif code < K.A_WINNER:
            dist = tile_dist[code]
            row["ev"] = valuer.value(dist) - base
            row["landings"] = float(dist.landings[tile_action(code)[0]])
        elif code < K.A_PARTNER:
            loser = code >= K.A_LOSER
            c = code - (K.A_LOSER if loser else K.A_WINNER)
            p, se = (race.lose[c], race.lose_se[c]) if loser else (race.win[c], race.win_se[c])
            deck = pos.loser_deck if loser else pos.winner_deck
            ev, ev_se, ahead = final_bet_value(pos, deck, v.colours[c], float(p), float(se),
                                               deck_model)
            row.update(ev=ev, se=ev_se, method=race.method, p_race=float(p),
                       cards_ahead=ahead)
        rows.append(row)
    best = max(float(row["ev"]) for row in rows)
    for row in rows:
        row["gap"] = best - row["ev"]
    prov = provenance(pos, race, seed, _plan(samples, target_se), deck_model)
    table = Table.from_dicts(rows, COLUMNS, prov)
    if rollouts is None:
        return table.sorted_by("ev")
    chosen = sorted(range(len(codes)), key=lambda i: -rows[i]["ev"])[:candidates]
    eq = rollout_equity(pos, [codes[i] for i in chosen], rollouts=rollouts, policy=policy,
                        seed=seed, target_se=rollout_target_se, hidden=hidden,
                        race_weights=None if race is None else
                        np.array([race.win, race.lose]), progress=progress)
    prov.update(rollouts=eq.rollouts, policy=policy, rollout_seed=seed, candidates=len(chosen),
                rollout_target_se=rollout_target_se, hidden_cards=hidden,
                hidden_cards_description=HIDDEN_MODELS[hidden],
                win="1 for the richest player, shared among ties")
    at = {i: k for k, i in enumerate(chosen)}
    table = table.with_columns({col: [float(v[at[i]]) if i in at else None
                                      for i in range(len(codes))]
                                for col, v in equity.columns(eq).items()})
    win, ev = table.columns.index("win_p"), table.columns.index("ev")
    ordered = sorted(table.rows, key=lambda r: (r[win] is None, -(r[ev] if r[win] is None
                                                                   else r[win])))
    return Table(table.columns, tuple(ordered), prov)


def _plan(samples: int | None, target_se: float | None) -> montecarlo.Plan:
    """The race's sampling: ``montecarlo.Plan.of``, the declared target by default."""
    return montecarlo.Plan.of(samples, target_se, GAME.target_se["advise"])


def _why(row: dict, short: bool) -> str:
    """The probabilities behind one row, in words (``short``: for the 80-column table)."""
    if row["p_first"] is not None:
        if short:  # 3rd-5th is what is left: 1 - 1st - 2nd
            return f"1st {row['p_first']:.3f}, 2nd {row['p_second']:.3f}"
        return (f"1st {row['p_first']:.3f} · 2nd {row['p_second']:.3f} · "
                f"3rd-5th {row['p_rest']:.3f}")
    if row["landings"] is not None:
        return f"{row['landings']:.3f} landings"
    if row["p_race"] is not None:
        target = "loses" if row["action"].startswith("loser") else "wins"
        if short:
            return f"{target} {row['p_race']:.3f}, {row['cards_ahead']:.2f} ahead"
        return f"P({target}) {row['p_race']:.3f} · {row['cards_ahead']:.2f} cards ahead"
    if row["action"] == "pyramid":
        return "+1 EP ticket"
    if row["action"].startswith("partner"):
        return "copy partner's best ticket"
    return ""


def table_view(table: Table, wide: bool = False) -> Table:
    """The EV table as people read it. Compact (fits 80 columns): action, EV, SE (empty
    when exact), gap and a short 'why'; with rollouts, action, win probability, its SE,
    P(best), margin, EV, its SE and gap (the longest labels wrap). ``wide``: every column,
    the method and the long 'why'."""
    se = [None if m == "exact" else se for se, m in zip(table["se"], table["method"])]
    rollouts = "win_p" in table
    if rollouts and not wide:
        return equity.compact_view(table, ev_se=True)
    rows = table.dicts()
    columns = {"action": table["action"]}
    if rollouts:
        columns.update(equity.wide_columns(table))
    columns.update(ev=table["ev"], se=se)
    if wide:
        columns["method"] = table["method"]
    columns.update(gap=table["gap"], why=[_why(row, short=not wide) for row in rows])
    return Table.from_columns(columns)


def provenance(pos: Position, race, seed: int, plan: montecarlo.Plan,
               deck_model: str) -> dict:
    out = {
        "game": "camel-up",
        "variant": pos.variant,
        "oddsbot": __version__,
        "position": pos.to_notation(),
        "player": pos.to_move,
        "leg": "exact enumeration of every remaining die and face (docs/games/camel-up.md §9); "
               "other players take no action for the rest of the leg",
        "ev_units": "EP",
        "final_clamp": pos.final_clamp,
    }
    if race is not None:
        out.update(race=race.method, race_policy=RACE_POLICY, deck_model=deck_model,
                   deck_model_description=DECK_MODELS[deck_model])
        if race.method == "exact":
            out.update(race_states=race.states)
        else:
            out.update(seed=seed, samples=race.samples, target_se=None,
                       chunk_size=plan.chunk_size())
            out.update(montecarlo.target_provenance(plan.target_se, race.worst_se()))
    return out
