"""The kernel behind the naive reference's API, so that the reference's worked examples
(``test_naive_examples``) run against the kernel too (``test_kernel_examples``).

Positions are the reference's dicts; each call encodes one (``analyser/mumia/encode``),
applies the kernel and decodes the result. Tokens gained this turn are the reference's
``fresh`` argument (indices into the mover's hand), the kernel's ``S_FRESH`` counts by
kind; a finished game is ``over``, as in the reference.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from oddsbot.analyser.mumia.encode import decode, encode
from oddsbot.analyser.mumia.labels import SYMBOLS
from oddsbot.analyser.mumia.position import Position
from oddsbot.analyser.mumia.turns import choices
from oddsbot.kernels.mumia import choices as C
from oddsbot.kernels.mumia import exact as X
from oddsbot.kernels.mumia import layout as L
from oddsbot.kernels.mumia.moves import end_turn as kernel_end_turn
from oddsbot.kernels.mumia.moves import spend_token

EXTRA = " + token extra"


class Near(float):
    """A kernel's float that equals an exact Fraction to 1e-12 (``exact``)."""

    def __eq__(self, other) -> bool:
        return abs(float(self) - float(other)) <= 1e-12

    __hash__ = float.__hash__


def _rule_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "/".join(str(value.get(s, 0)) for s in ("P", "M", "PM"))
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def _state(pos: dict, fresh=()):
    obj = {k: v for k, v in pos.items() if k != "over"}
    obj["rules"] = {k: _rule_text(v) for k, v in (pos.get("rules") or {}).items()}
    position = Position.from_json(obj)
    enc = encode(position)
    S = enc.S.copy()
    hand = position.hands[position.to_move] if position.hands else ()
    for i in fresh:
        S[L.S_FRESH + L.TOKEN_NAMES.index(hand[i])] += 1
    S[L.S_OVER] = 1 if pos.get("over") else 0
    return position, S, enc.R


def _dict(position: Position, S: np.ndarray, R: np.ndarray, taken) -> dict:
    out = decode(S, R, position.rules, position.expansions,
                 taken_by=tuple(tuple(t) for t in taken)).to_json()
    out.setdefault("rules", {})
    if S[L.S_OVER]:
        out["over"] = True
    return out


def _fresh_of(out: dict, S: np.ndarray) -> frozenset:
    """The reference's ``fresh``: the indices of the mover's tokens gained this turn (the
    last ones of each kind in the hand as decoded)."""
    if "action_tokens" not in out:
        return frozenset()
    hand = out["action_tokens"]["hands"][out["to_move"]]
    found = set()
    for j, kind in enumerate(L.TOKEN_NAMES):
        places = [i for i, k in enumerate(hand) if k == kind]
        found.update(places[len(places) - int(S[L.S_FRESH + j]):] if S[L.S_FRESH + j] else [])
    return frozenset(found)


def _sym(S, symbol) -> int:
    return L.SYM_NONE if S[L.S_MUMMY] < 0 or symbol is None else SYMBOLS.index(symbol)


def legal(pos: dict, n: int, symbol, fresh=()) -> list[str]:
    if pos.get("over"):
        return []
    _, S, R = _state(pos, fresh)
    rows, labels = choices(S, R, n, _sym(S, symbol), tokens=False)
    return [lab for lab, r in zip(labels, rows) if not r[5]]


def token_labels(pos: dict, fresh=(), moved_field=None, n=None, symbol=None) -> list[str]:
    """Without a roll, that of a 1 with PM: the mummy, while in play, keeps every Swap
    legal, as the reference's check-free listing does."""
    _, S, R = _state(pos, fresh)
    rows, labels = choices(S, R, n or 1, _sym(S, "PM" if n is None else symbol))
    return [lab for lab, r in zip(labels, rows) if r[0] in (C.C_SWAP, C.C_BOTTOM)]


def _apply(pos: dict, n: int, symbol, label: str, fresh=()) -> tuple[dict, frozenset]:
    position, S, R = _state(pos, fresh)
    rows, labels = choices(S, R, n, _sym(S, symbol))
    row = rows[labels.index(label)]
    taken = [list(t) for t in position.mummy_taken]
    before = int(S[L.S_TAKEN])
    C.apply_choice(S, R, row, n)
    taken[position.to_move].extend(int(v) for v in R[L.R_MUMMY + before:L.R_MUMMY
                                                      + int(S[L.S_TAKEN])])
    if row[5] and not S[L.S_OVER]:
        spend_token(S, int(S[L.S_TO_MOVE]), L.EXTRA)
    out = _dict(position, S, R, taken)
    return out, _fresh_of(out, S)


def move(pos: dict, n: int, symbol, label: str, fresh=()) -> dict:
    return _apply(pos, n, symbol, label, fresh)[0]


def move_ex(pos: dict, n: int, symbol, label: str, fresh=()) -> tuple[dict, frozenset]:
    return _apply(pos, n, symbol, label, fresh)


def use_token(pos: dict, label: str, fresh=(), moved_field=None) -> dict:
    return _apply(pos, 1, "PM", label, fresh)[0]  # the roll of token_labels


def rolls(pos: dict) -> list[tuple[int, object, Fraction]]:
    """(n, symbol, probability) of every roll outcome, from the kernel's outcomes."""
    _, S, R = _state(pos)
    ns, syms, weights = (np.empty(18, dtype=np.int64), np.empty(18, dtype=np.int64),
                         np.empty(18))
    k = X.outcomes(S, R, ns, syms, weights)
    return [(int(ns[i]), None if syms[i] == L.SYM_NONE else SYMBOLS[syms[i]],
             Fraction(float(weights[i])).limit_denominator(10_000)) for i in range(k)]


def end_turn(pos: dict) -> dict:
    position, S, R = _state(pos)
    kernel_end_turn(S, R)
    return _dict(position, S, R, position.mummy_taken)


def scores(pos: dict) -> list[int]:
    position, S, R = _state(pos)
    return [int(L.score(S, R, p)) for p in range(position.players)]


def winners(pos: dict) -> list[int]:
    position, S, R = _state(pos)
    out_scores, wins = np.zeros(L.MAX_SEATS, dtype=np.int64), np.zeros(L.MAX_SEATS)
    L.scores_and_wins(S, R, out_scores, wins)
    return [p for p in range(position.players) if wins[p]]


def choose(pos: dict, n: int, symbol, policy: str, fresh=()) -> str:
    _, S, R = _state(pos)
    sym = _sym(S, symbol)
    rows = np.empty((C.MAX_CHOICES, C.N_COLS), dtype=np.int64)
    m = C.move_choices(S, R, n, sym, rows, False)
    pid = C.POLICY_NAMES.index(policy)
    i = C.choose(S, R, n, rows, m, pid, np.ones(4, dtype=np.uint64),
                 np.empty(L.S_SIZE, dtype=np.int64))
    label = choices(S, R, n, sym, tokens=False)[1][i]
    after = S.copy()
    C.apply_choice(after, R, rows[i], n)
    return label + (EXTRA if C.wants_extra(after, R, pid) else "")


def exact(pos: dict, others: str = "greedy"):
    position, S, R = _state(pos)
    memo = X.new_memo(1_000_000)
    out = np.zeros(X.N_VALUES)
    assert X.value(S, R, position.to_move, C.POLICY_NAMES.index(others), *memo, 1_000_000,
                   out) == 0
    players = position.players
    return ([Near(v) for v in out[:players]],
            [Near(v) for v in out[L.MAX_SEATS:L.MAX_SEATS + players]])
