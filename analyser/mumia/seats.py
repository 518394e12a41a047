"""Mumia's arena seats (``SeatsFace`` of ``analyser/face.py``; docs/games/mumia.md §18).

A true position holds the roll the player to move has drawn (``roll``) and, with E4,
every action token shown and the turn under way (``turn``: after ``token swap``,
``token bottom`` or ``+ token extra`` the same seat goes on). A decision is one step of
a record (§16.3): the dice come first, then the mover picks among that roll's labels.
``step`` is the record replay's own kernel step (``turns.step``), then draws the next
roll. A seat's view hides the pile and the other seats' tokens (§15).

Streams: ``deal`` sets up from (seed, 0) and draws the first roll from (seed, 1), as
game 0 of a designer run seeded ``seed``; ``step`` draws the next roll from (seed, 1);
``choose`` deals the unseen tokens from (seed, 0) and takes the policy's random choices
from (seed, 2).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ...errors import OddsbotError, quote
from ...kernels.mumia import choices as C
from ...kernels.mumia import game as G
from ...kernels.mumia import layout as L
from ...kernels.mumia.rollouts import choice_games, choice_games_range, deal_hidden
from ...kernels.rng import stream
from ..play_common import policy_code
from .advise import exact_values, policy_id
from .encode import Encoded, decode, encode
from .labels import label, read_roll, roll_text
from .play import record_text
from .position import UNSEEN, Position, Turn
from .simulate import POLICIES, start_state
from .turns import choices, step as kernel_step
from .validate import over, validate

__all__ = ["candidates", "choose", "deal", "game_result", "playouts", "seat_view",
           "seated_record", "step"]

RANK_SAMPLES = 4       # rollouts per choice that rank the candidates where not exact
RANK_EXACT_PAWNS = 3   # the exact ranking is tried with at most this many pawns off FINISH
RANK_EXACT_BUDGET = 2_000  # ...and gives up (to sampling) past this many positions
CHUNK = 32            # rollouts a thread takes at a time (does not change any result)
_ROWS = np.empty((C.MAX_CHOICES, C.N_COLS), dtype=np.int64)
_WORK = np.empty(L.S_SIZE, dtype=np.int64)


def _draw_roll(S: np.ndarray, R: np.ndarray, seed: int) -> str | None:
    """The roll of the seat to move in ``S`` from stream (seed, 1) (§3); None once the
    game is over."""
    if S[L.S_OVER]:
        return None
    return roll_text(*G.roll(S, R, stream(np.uint64(seed), 1)))


def deal(players: int, seed: int, variant: str, rules: Mapping[str, str]) -> Position:
    """The true start of a new game: game 0 of a designer run seeded ``seed`` (the set-up
    from stream (seed, 0), every token shown), with seat 0's first roll drawn."""
    _, S, R, chosen, exp = start_state(players, seed, variant, "", dict(rules))
    start = decode(S, R, chosen, exp, taken_by=tuple(() for _ in range(players)))
    return start.with_(roll=_draw_roll(S, R, seed))


def seat_view(pos: Position, seat: int) -> Position:
    """What ``seat`` may know (§15): the token pile and the other seats' tokens unseen
    (``?``; the view does not follow a used token round the pile), and the tokens the
    mover gained this turn only for the mover. Without E4 nothing is hidden."""
    if not pos.has("e4"):
        return pos
    hands = tuple(h if p == seat else (UNSEEN,) * len(h) for p, h in enumerate(pos.hands))
    turn = pos.turn
    if turn is not None and seat != pos.to_move and turn.fresh:
        turn = Turn((), turn.swapped, turn.moved)
        turn = None if turn == Turn() else turn
    return pos.with_(hands=hands, pile=(UNSEEN,) * len(pos.pile), turn=turn)


def _rolled(pos: Position) -> tuple[Encoded, int, int]:
    """The kernel's arrays of a valid position with its roll (one line without)."""
    validate(pos)
    if over(pos):
        raise OddsbotError("position: the game is over")
    if pos.roll is None:
        raise OddsbotError("position: no roll drawn; arena seats play positions that "
                           "hold the mover's roll (§18)")
    enc = encode(pos)
    n, sym = read_roll(pos.roll, bool(enc.S[L.S_MUMMY] >= 0))
    return enc, n, sym


def choose(view: Position, policy: str, seed: int) -> str:
    """The step the kernel's ``policy`` takes for the view's roll, as whole games take it
    (``game.play_move``): the unseen tokens dealt from a sample of §15's model (the
    policies read only the mover's own tokens), then ``+ token extra`` where the policy
    wants an Extra move after its move."""
    enc, n, sym = _rolled(view)
    pid = policy_code(policy, POLICIES, "mumia")
    S = enc.S
    deal_hidden(S, enc.pool, enc.unseen, stream(np.uint64(seed), 0))
    i = int(G.policy_choice(S, enc.R, n, sym, pid, stream(np.uint64(seed), 2), _ROWS,
                            _WORK))
    row = _ROWS[i].copy()
    if row[0] not in (C.C_SWAP, C.C_BOTTOM) and not (pid == C.RANDOM and enc.R[L.R_E4]):
        # whole games decide the Extra move after the move (game.play_move)
        after = S.copy()
        C.apply_choice(after, enc.R, row, n)
        row[5] = int(C.wants_extra(after, enc.R, pid))
    return f"{view.roll} {label(S, row)}"


def step(pos: Position, action: str, seed: int) -> tuple[Position, str | None]:
    """The true position after the mover's step ``action`` (``4,PM pawn 2``): the record
    replay's kernel step, then, unless the same roll goes on (after ``token swap`` or
    ``token bottom``) or the game is over, the next roll (the same seat's after ``+ token
    extra``) drawn from stream (seed, 1): the outcome, as ``--roll`` writes it."""
    enc, _, _ = _rolled(pos)
    if enc.hidden:
        raise OddsbotError("position: it hides action tokens ('?'); arena steps take true "
                           "positions, every token shown (§18)")
    roll, _, choice = action.strip().partition(" ")
    if roll != pos.roll:
        raise OddsbotError(f"action: {quote(action)} is not of the roll drawn, {pos.roll} "
                           f"(legal: {', '.join(_labels(enc, pos.roll))})")
    S = enc.S.copy()
    try:
        taken = kernel_step(S, enc.R, roll, choice.strip())
    except OddsbotError as exc:
        raise OddsbotError(f"action: {exc}") from None
    mummy = [tuple(t) for t in pos.mummy_taken]
    mummy[pos.to_move] += taken.mummy
    after = decode(S, enc.R, pos.rules, pos.expansions, taken_by=tuple(mummy), turn=True)
    drawn = pos.roll if taken.same_roll else _draw_roll(S, enc.R, seed)
    return after.with_(roll=drawn), None if taken.same_roll else drawn


def _labels(enc: Encoded, roll: str) -> list[str]:
    n, sym = read_roll(roll, bool(enc.S[L.S_MUMMY] >= 0))
    return [f"{roll} {x}" for x in choices(enc.S, enc.R, n, sym)[1]]


def game_result(pos: Position) -> tuple[tuple[float, ...], tuple[float, ...]] | None:
    """None while the game goes on; else every seat's final score (§7) and win share (1/k
    for each of k winners after the ``tiebreak``)."""
    if not over(pos):
        return None
    enc = encode(pos)
    scores = np.zeros(L.MAX_SEATS, dtype=np.int64)
    wins = np.zeros(L.MAX_SEATS)
    L.scores_and_wins(enc.S, enc.R, scores, wins)
    shares = wins[:pos.players] / wins[:pos.players].sum()
    return (tuple(float(s) for s in scores[:pos.players]),
            tuple(float(w) for w in shares))


def _rows_of(enc: Encoded, n: int, sym: int, roll: str, actions: list[str]) -> np.ndarray:
    """The kernel's rows of ``actions`` (labels of roll ``roll``; one line if not)."""
    rows, labels = choices(enc.S, enc.R, n, sym)
    named = {f"{roll} {x}": i for i, x in enumerate(labels)}
    for a in actions:
        if a not in named:
            raise OddsbotError(f"action: {quote(a)} is not legal here (legal: "
                               f"{', '.join(named)})")
    return rows[[named[a] for a in actions]]


def playouts(view: Position, actions: list[str], *, n: int, seed: int, policy: str
             ) -> tuple[np.ndarray, np.ndarray]:
    """(scores, wins), float64 ``(len(actions), n, players)``: ``n`` games from the view
    after each action, every seat by ``policy``; rollout i deals the unseen tokens (§15)
    and rolls the dice from streams (seed, 3i ..), the same for every action."""
    enc, num, sym = _rolled(view)
    cand = _rows_of(enc, num, sym, view.roll, actions)
    games = _games(enc, num, sym, cand, n, seed, policy_code(policy, POLICIES, "mumia"))
    players = view.players
    scores = games[:, :, 0, :players].transpose(1, 0, 2).copy()
    wins = games[:, :, 1, :players].transpose(1, 0, 2)
    return scores, wins / wins.sum(axis=2, keepdims=True)


def _games(enc: Encoded, num: int, sym: int, cand: np.ndarray, n: int, seed: int,
           pid: int) -> np.ndarray:
    policies = np.full(L.MAX_SEATS, pid, dtype=np.int64)
    if n <= CHUNK:  # one range: no thread hand-over
        return choice_games_range(enc.S, enc.R, num, sym, cand, policies, enc.pool,
                                  enc.unseen, np.uint64(seed), 0, n)
    return choice_games(enc.S, enc.R, num, sym, cand, policies, enc.pool, enc.unseen, seed,
                        n, CHUNK)


def candidates(view: Position, k: int, seed: int) -> list[str]:
    """At most ``k`` of the roll's steps best first by ``advise``'s ranking (expected
    final score; exact where advise is and the rest of the game is small, else
    ``RANK_SAMPLES`` rollouts a choice by ``heuristic`` on common random numbers), then
    ``heuristic``'s and ``greedy``'s choices where not among them. With at most ``k``
    steps they all come, ranked only where the exact ranking may be tried."""
    enc, num, sym = _rolled(view)
    rows, labels = choices(enc.S, enc.R, num, sym)
    names = [f"{view.roll} {x}" for x in labels]
    if len(names) > k or _off_finish(enc) <= RANK_EXACT_PAWNS:
        order = np.argsort(-_values(enc, num, sym, rows, seed), kind="stable")
        names = [names[i] for i in order]
    out = names[:k]
    for policy in ("heuristic", "greedy"):
        pick = choose(view, policy, seed)
        if pick not in out:
            out.append(pick)
    return out


def _off_finish(enc: Encoded) -> int:
    """Pawns not yet on FINISH."""
    R = enc.R
    pawns = enc.S[L.S_PAWN:L.S_PAWN + R[L.R_PLAYERS] * L.MAX_PAWNS].reshape(-1, L.MAX_PAWNS)
    return int((pawns[:, :R[L.R_PAWNS]] != L.FIN).sum())


def _values(enc: Encoded, num: int, sym: int, rows: np.ndarray, seed: int) -> np.ndarray:
    """Each row's expected final score of the mover, as ``advise`` ranks them."""
    if _off_finish(enc) <= RANK_EXACT_PAWNS:
        exact, _ = exact_values(enc, [(num, sym, 1.0)], policy_id(None), RANK_EXACT_BUDGET)
        if exact is not None:
            return exact[0].ev
    games = _games(enc, num, sym, rows, RANK_SAMPLES, seed, C.HEURISTIC)
    return games[:, :, 0, int(enc.S[L.S_TO_MOVE])].mean(axis=0)


def seated_record(positions: list[Position], moves: list[tuple[str, str | None]]) -> str:
    """The record (§16.3) of a game played by seats (``new --play search``): the roll is
    in each action, so ``step``'s outcome (the next roll drawn) is not written."""
    return record_text(positions[0], [(action, None) for action, _ in moves])
