"""Five Tribes arena seats (``SeatsFace`` of ``analyser/face.py``; docs/games/five-tribes.md
§22.1): whole games one decision at a time, each seat by a compiled policy.

A true position is a ``Position``: it holds the decks and the bag as what they contain,
never their order (§18); a card, djinn or meeple is drawn uniformly from what is left at
the moment it is drawn (§4.3, §20.6), the same law as a shuffled pile nobody has seen.
Every gold flow is public, so every seat knows every gold (§14.13). A seat's view is
therefore the position itself; what no seat may know, the future draws, comes from the
``step`` seed alone.

Policies are the kernel's (``batch_games``, the designer runs' and ``simulate_raw``'s):
``choose_bid`` and ``play_turn`` for ``heuristic`` and ``random``, ``choose_bid`` and
``greedy_turn`` (the turn up to its first draw, ``then best`` after it) for ``greedy``. A
kernel turn is labelled as ``advise`` labels its row: its sowing replaced by the first
sequence of its outcome group (the table's representative, ``FT.sowing_outcomes``).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ...errors import OddsbotError
from ...kernels import five_tribes as FT
from ...kernels.rng import stream
from . import record, turns
from .advise import _legal_bids
from .encode import encode
from .labels import THEN_BEST, bid_label, turn_label
from .play import _round_over, _state, apply, record_text
from .position import Position
from .rollouts import CHUNK, ROLLOUT_POLICIES, gold_bounds, shares
from .setup import new_position
from .simulate import POLICIES, _Kernel, _refill

CANDIDATE_DRAWS = 48  # sowings drawn (each with its heuristic choices) to rank candidates
_NO_DRAW = np.zeros(4, dtype=np.uint64)  # a stream for rows whose draw has one outcome


def deal(players: int, seed: int, variant: str, rules: Mapping[str, str]) -> Position:
    """The start of game 0 of a designer run seeded ``seed`` (``new_position``: the deal
    from chance stream (seed, 0), as ``simulate_raw`` deals it); Five Tribes has no
    ``--rule`` parameters."""
    if rules:
        raise OddsbotError(f"--rule: five-tribes has no rule parameters (got "
                           f"{', '.join(rules)})")
    return new_position(players, seed, variant)


def seat_view(pos: Position, seat: int) -> Position:
    """What ``seat`` may know: the whole position (module doc: nothing in it is hidden)."""
    return pos


# --------------------------------------------------------------------------- choose


def _types(st: np.ndarray) -> tuple[str, ...]:
    return tuple(FT.TILE_TYPES[k] for k in st[FT.T_TYPE:FT.T_TYPE + FT.N_TILES])


def _canonical(st: np.ndarray, act: np.ndarray) -> np.ndarray:
    """``act`` with its sowing replaced by the first full sequence (enumeration order) that
    leaves the same board and takes the same meeples: the sowing the turn table lists."""
    n = int(act[FT.A_LEN])
    total = turns._census(st).total
    if n == 0 or total > turns.EXACT_SOWINGS:
        return act
    starts, paths, colours, lengths = FT.list_sowings(FT.meeples(st), st[FT.END_RULE],
                                                      np.int64(total))
    mine = _sown(st, act[FT.A_START], act[FT.A_PATH:FT.A_PATH + n],
                 act[FT.A_COLOURS:FT.A_COLOURS + n])
    same = np.flatnonzero((starts == act[FT.A_START]) & (lengths == n)
                          & (paths[:, n - 1] == act[FT.A_PATH + n - 1])
                          & (colours[:, n - 1] == act[FT.A_COLOURS + n - 1]))
    for i in same:
        if np.array_equal(_sown(st, starts[i], paths[i, :n], colours[i, :n]), mine):
            out = act.copy()
            out[FT.A_PATH:FT.A_PATH + n] = paths[i, :n]
            out[FT.A_COLOURS:FT.A_COLOURS + n] = colours[i, :n]
            return out
    return act


def _sown(st: np.ndarray, start: int, path: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """The board's meeples after the sowing (start, path, colours)."""
    s = st.copy()
    FT.sow(s, np.int64(start), np.asarray(path, dtype=np.int64),
           np.asarray(colours, dtype=np.int64), np.int64(len(path)))
    return FT.meeples(s).copy()


def _policy_row(st: np.ndarray, policy: str, seed: int) -> np.ndarray | int:
    """The kernel policy's bid (a code) or turn row (before any draw) from ``st``."""
    rng = stream(np.uint64(seed), 0)
    if policy == "greedy":
        if st[FT.PHASE] == FT.BIDDING:
            return int(FT.choose_bid(st, FT.P_GREEDY, rng, np.zeros(FT.MAX_BIDS, np.int64)))
        return FT.greedy_turn(st)[0]
    kernel = _Kernel(policy, rng)
    return kernel.bid(st) if st[FT.PHASE] == FT.BIDDING else kernel.turn(st.copy())


def _check_policy(policy: str) -> None:
    if policy not in POLICIES:
        raise OddsbotError(f"policy: unknown policy {policy!r} (known: "
                           f"{', '.join(POLICIES)})")


def choose(view: Position, policy: str, seed: int) -> str:
    """The action ``policy`` (the kernel's, module doc) takes for the player to move in
    ``view``, its random choices from chance stream (seed, 0)."""
    _check_policy(policy)
    st = encode(view)  # a view of ``step``'s positions: validated there
    got = _policy_row(st, policy, seed)
    if isinstance(got, int):
        return bid_label(got)
    return turn_label(_canonical(st, got), _types(st))


# --------------------------------------------------------------------------- step, result


def step(pos: Position, action: str, seed: int) -> tuple[Position, str | None]:
    """The position after the player to move takes ``action``: its draws (§20.6) and, after
    the round's last turn, the clean-up (§4.3) drawn by the kernel from chance stream (seed,
    0), then played by ``apply`` with that outcome (``None`` where there is none)."""
    st = _state(pos)
    words: tuple[str, ...] = ()
    if st[FT.PHASE] == FT.TURNS:
        rng = stream(np.uint64(seed), 0)
        turn = record.RecordTurn(0, 1, int(st[FT.TO_MOVE]), action, None, None, ())
        try:
            words, _, _ = record.play_line(st, turn, record.realised(rng), 1, then_best=True)
        except record.RecordError:
            apply(pos, action)  # refuses the action in one line, as playing along does
            raise
        if _round_over(st):
            FT.cleanup(st, rng)
            words = (*words, _refill(st, 0).text())
    outcome = "; ".join(words) or None
    return apply(pos, action, outcome), outcome


def game_result(pos: Position) -> tuple[tuple[float, ...], tuple[float, ...]] | None:
    """None while the game goes on; once over (§13: the end check after clean-up), every
    seat's final score and win share (most VP; tied players share the victory)."""
    st = encode(pos)
    if pos.phase != "bidding" or not FT.game_over(st):
        return None
    scores = FT.state_scores(st)[:, -1].astype(float)
    return tuple(float(x) for x in scores), tuple(float(x) for x in shares(scores))


# --------------------------------------------------------------------------- candidates


def _value(st: np.ndarray, act: np.ndarray) -> float:
    """The turn's exact change of the mover's final score (advise's ``ev``)."""
    mover = int(st[FT.TO_MOVE])
    s = st.copy()
    FT.play_turn_drawing(s, act, _NO_DRAW)
    return float(FT.state_scores(s)[mover, -1] - FT.state_scores(st)[mover, -1])


def candidates(view: Position, k: int, seed: int) -> list[str]:
    """At most ``k`` actions best first, plus ``heuristic``'s and ``greedy``'s choices where
    missing (module doc of docs/games/five-tribes.md §22.1). Bids: every legal bid, the
    cheapest first (advise's bid model needs a greedy turn per place: too costly), greedy's
    and heuristic's bid being the cheapest. Turns: ``CANDIDATE_DRAWS`` sowings drawn from
    stream (seed, 1), each completed by the heuristic's best tribe then tile choice, ranked
    by exact ``ev`` as advise ranks them (ties: first drawn); greedy's turn is not added
    (a whole-table search)."""
    st = _state(view)
    mine = choose(view, "heuristic", seed)
    if st[FT.PHASE] == FT.BIDDING:
        bids = sorted(_legal_bids(st), key=lambda b: (FT.bid_price(b), FT.bid_fakirs(b)))
        out = [bid_label(b) for b in bids][:k]
    else:
        out = _ranked_turns(st, k, seed)
    return out + [mine] * (mine not in out)


def _ranked_turns(st: np.ndarray, k: int, seed: int) -> list[str]:
    """The best ``k`` distinct turns by exact value among the heuristic completions of
    ``CANDIDATE_DRAWS`` drawn sowings."""
    params = FT.HEURISTIC_PARAMS.copy()
    params[FT.H_SOWINGS], params[FT.H_TOP] = 1, 0  # one uniform draw, no screened target
    tables, hw = FT.walk_tables_once(), FT.heuristic_workspace()
    rng = stream(np.uint64(seed), 1)
    found: dict[bytes, tuple[float, int, np.ndarray]] = {}
    for i in range(CANDIDATE_DRAWS):
        act = FT.heuristic_turn(st, rng, params, tables, hw)
        key = act.tobytes()
        if key not in found:
            found[key] = (_value(st, act), i, act.copy())
    best = sorted(found.values(), key=lambda v: (-v[0], v[1]))[:k]
    types = _types(st)
    labels = [turn_label(_canonical(st, act), types) for _, _, act in best]
    return list(dict.fromkeys(labels))


# --------------------------------------------------------------------------- playouts


def _candidate(st: np.ndarray, action: str) -> tuple[int, np.ndarray] | None:
    """The rollout kernel's candidate (kind, row) of ``action``; None for a ``then best``
    row (its rest depends on its draw)."""
    row = np.zeros(FT.ACTION_SIZE, dtype=np.int64)
    if st[FT.PHASE] == FT.BIDDING:
        legal = {bid_label(b): b for b in _legal_bids(st)}
        if action not in legal:
            raise OddsbotError(f"action: {action!r} is not a legal bid here (legal: "
                               f"{', '.join(legal)})")
        row[0] = legal[action]
        return FT.CAND_BID, row
    if action.endswith("; " + THEN_BEST):
        return None
    try:
        played = record.play_label(st, action, record.realised(_NO_DRAW.copy()))
    except record.TurnRefused as exc:
        raise OddsbotError(f"action: {action!r} is not a legal turn here: {exc}") from None
    return FT.CAND_TURN, played.row


def playouts(view: Position, actions: list[str], *, n: int, seed: int, policy: str
             ) -> tuple[np.ndarray, np.ndarray]:
    """``(scores, wins)`` of shape ``(len(actions), n, players)``: ``n`` games played on
    from ``view`` after each action by ``policy`` in every seat (``FT.rollouts``: rollout
    ``i`` of every action on the same streams, a secret gold drawn from its interval, every
    unseen card, djinn and meeple drawn as it falls). A ``then best`` row's draw and rest
    are played by ``step`` from stream (seed, i), then rollout ``i`` from there."""
    if policy not in ROLLOUT_POLICIES:
        raise OddsbotError(f"policy: playouts take {' or '.join(ROLLOUT_POLICIES)}, not "
                           f"{policy!r} (greedy searches the whole turn table every turn)")
    st = _state(view)
    lo, hi = gold_bounds(view)
    seats = np.full(view.n_players, FT.POLICY_NAMES.index(policy), dtype=np.int64)
    scores = np.zeros((len(actions), n, view.n_players))
    plain = [(a, c) for a, c in enumerate(_candidate(st, x) for x in actions) if c]
    if plain:
        kinds = [c[0] for _, c in plain]
        rows = np.stack([c[1] for _, c in plain])
        out = FT.rollouts(st, kinds, rows, lo, hi, seats, seed, 0, n, CHUNK)
        scores[[a for a, _ in plain]] = out.transpose(1, 0, 2)
    for a, action in enumerate(actions):
        if action.endswith("; " + THEN_BEST) and st[FT.PHASE] == FT.TURNS:
            scores[a] = _then_best(view, action, n, seed, lo, hi, seats)
    return scores, shares(scores)


def _then_best(view: Position, action: str, n: int, seed: int, lo: np.ndarray,
               hi: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """Rollouts ``0 .. n - 1`` after a ``then best`` row: its draw and rest by ``step``."""
    none = np.zeros((1, FT.ACTION_SIZE), dtype=np.int64)
    out = np.zeros((n, view.n_players))
    for i in range(n):
        after, _ = step(view, action, int(stream(np.uint64(seed), i)[0]))
        out[i] = FT.rollouts(encode(after), [FT.CAND_NONE], none, lo, hi, seats, seed, i,
                             1, 1)[0, 0]
    return out


def seated_record(positions: list[Position], moves: list[tuple[str, str | None]]) -> str:
    """The play-along record of a game played by seats (``new --play search``): ``step``'s
    outcomes are play-along's, so it is ``record_text`` of the start and the moves."""
    return record_text(positions[0], moves)
