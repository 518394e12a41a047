"""Mumia's rule parameters (docs/games/mumia.md §13): their values read from text, and the
rules vector the kernel reads (``kernels/mumia/layout.py``).

A position keeps only the parameters that differ from their defaults (JSON ``rules``);
``--rule NAME=VALUE`` sets one on any command. The declaration (names, defaults, meaning)
is ``GAME.rules`` in ``__init__.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

import numpy as np

from ...errors import OddsbotError, quote
from ...kernels.mumia import layout as L
from . import GAME
from .tiles import STANDARD_LAYOUT, parse_tile, tile_name

TOKEN_KINDS = L.TOKEN_NAMES
FACE_NAMES = ("P", "M", "PM")


@dataclass(frozen=True)
class Rules:
    """Every parameter's value (§13), defaults as the rules say."""

    picture_faces: tuple[int, int, int] = (2, 2, 2)
    tile_values: tuple[int, ...] = STANDARD_LAYOUT  # tile codes, in the first layout's order
    first_layout: str = "standard"
    mummy_tokens: tuple[int, ...] = (4, 3, 2, 1)
    tokens_per_pass: str = "each"
    sudden_end: bool = False
    sudden_end_pair_alone: bool = False
    tiebreak: str = "shared"
    hat_values: tuple[int, int] = (10, -10)
    hat_tie: str = "reroll"
    luck_hat_last_out: bool = False
    e3_removed: tuple[int, ...] = tuple(parse_tile(t) for t in
                                        ("+1", "+2", "+3", "+4", "-5", "-6", "-7", "camel"))
    e3_e1_keep_e1_removal: bool = False
    camels_flip_risk: bool = False
    action_token_mix: tuple[int, int, int, int] = (3, 3, 2, 2)
    unused_token_value: int = 1
    tokens_on_start_finish: bool = False
    exchange_positions: tuple[int, int, int, int] = (10, 15, 20, 25)

    def changed(self) -> dict[str, str]:
        """The parameters that differ from the defaults, as text (JSON ``rules``)."""
        default = Rules()
        return {f.name: show(f.name, getattr(self, f.name)) for f in fields(self)
                if getattr(self, f.name) != getattr(default, f.name)}

    def with_(self, given: Mapping[str, str], where: str = "rules") -> Rules:
        """These rules with ``given`` (name -> text) set; one line for a bad one."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        for name, text in given.items():
            if name not in values:
                raise OddsbotError(f"{where}: unknown rule parameter {quote(name)} ('oddsbot "
                                   f"rules mumia' lists them)")
            values[name] = read(name, str(text), where)
        return Rules(**values)


def _bool(text: str) -> bool:
    if text in ("true", "false"):
        return text == "true"
    raise ValueError("must be true or false")


def _ints(text: str, count: int | None, low: int, high: int) -> tuple[int, ...]:
    try:
        values = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise ValueError("must be whole numbers separated by commas") from None
    if count is not None and len(values) != count:
        raise ValueError(f"must be {count} whole numbers separated by commas")
    if not all(low <= v <= high for v in values):
        raise ValueError(f"every number must be from {low} to {high}")
    return values


def _choice(text: str, allowed: tuple[str, ...]) -> str:
    if text not in allowed:
        raise ValueError(f"must be one of {', '.join(allowed)}")
    return text


def _tiles(text: str, low: int, high: int) -> tuple[int, ...]:
    if text == "standard":
        return STANDARD_LAYOUT
    codes = tuple(parse_tile(t) for t in text.split(","))
    if any(L.kind_of(c) in (L.RISK, L.EXCHANGE) for c in codes):
        raise ValueError("only danger, treasure and camel tiles")
    if not low <= len(codes) <= high:
        raise ValueError(f"must list {low} to {high} tiles")
    return codes


def _faces(text: str) -> tuple[int, int, int]:
    values = _ints(text.replace("/", ","), 3, 0, 6)
    if sum(values) != 6 or values[0] + values[2] == 0:
        raise ValueError("three face counts P/M/PM adding up to 6, with a face that lets "
                         "a pawn move")
    return values  # type: ignore[return-value]


def _mix(text: str) -> tuple[int, int, int, int]:
    counts = dict.fromkeys(TOKEN_KINDS, 0)
    for part in text.split(","):
        kind, _, count = part.partition(":")
        if kind not in counts:
            raise ValueError(f"kinds are {', '.join(TOKEN_KINDS)} (as kind:count)")
        counts[kind] = _ints(count, 1, 0, 10)[0]
    if sum(counts.values()) > 20:
        raise ValueError("at most 20 tokens in all")
    return tuple(counts.values())  # type: ignore[return-value]


def _mummy(text: str) -> tuple[int, ...]:
    values = _ints(text, None, 0, 20)
    if len(values) > L.MAX_MUMMY:
        raise ValueError(f"at most {L.MAX_MUMMY} tokens")
    return values


def _positions(text: str) -> tuple[int, int, int, int]:
    values = _ints(text, 4, 1, 36)
    if len(set(values)) != 4:
        raise ValueError("four different positions")
    return tuple(sorted(values))  # type: ignore[return-value]


READERS = {
    "picture_faces": _faces,
    "tile_values": lambda t: _tiles(t, 8, 32),
    "first_layout": lambda t: _choice(t, ("standard", "random")),
    "mummy_tokens": _mummy,
    "tokens_per_pass": lambda t: _choice(t, ("each", "one")),
    "sudden_end": _bool,
    "sudden_end_pair_alone": _bool,
    "tiebreak": lambda t: _choice(t, ("shared", "fewer_camels")),
    "hat_values": lambda t: _ints(t, 2, -50, 50),
    "hat_tie": lambda t: _choice(t, ("reroll", "first_seat")),
    "luck_hat_last_out": _bool,
    "e3_removed": lambda t: _tiles(t, 0, 12),
    "e3_e1_keep_e1_removal": _bool,
    "camels_flip_risk": _bool,
    "action_token_mix": _mix,
    "unused_token_value": lambda t: _ints(t, 1, -10, 10)[0],
    "tokens_on_start_finish": _bool,
    "exchange_positions": _positions,
}


def read(name: str, text: str, where: str = "rules") -> object:
    """The value of parameter ``name`` written as ``text``; one line if it is not one."""
    try:
        return READERS[name](text)
    except (ValueError, OddsbotError) as exc:
        raise OddsbotError(f"{where}: {name}={quote(text)}: {exc}") from None


def show(name: str, value: object) -> str:
    """``value`` of parameter ``name`` as text ``read`` reads back."""
    if name in ("tile_values", "e3_removed"):
        return ("standard" if value == STANDARD_LAYOUT and name == "tile_values"
                else ",".join(tile_name(c) for c in value))
    if name == "picture_faces":
        return "/".join(str(v) for v in value)
    if name == "action_token_mix":
        return ",".join(f"{k}:{v}" for k, v in zip(TOKEN_KINDS, value))
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def pawns_per_seat(players: int) -> int:
    """§2: three pawns each with 2–4 players, two with 5–6."""
    return 3 if players <= 4 else 2


def rules_vector(rules: Rules, players: int, expansions: frozenset[str]) -> np.ndarray:
    """The kernel's rules vector (``layout.R_*``)."""
    R = np.zeros(L.R_SIZE, dtype=np.int64)
    R[L.R_PLAYERS] = players
    R[L.R_PAWNS] = pawns_per_seat(players)
    R[L.R_FACES:L.R_FACES + 3] = rules.picture_faces
    R[L.R_ONE_PER_ROLL] = rules.tokens_per_pass == "one"
    R[L.R_SUDDEN] = rules.sudden_end
    R[L.R_PAIR_ALONE] = rules.sudden_end_pair_alone
    R[L.R_FEWER_CAMELS] = rules.tiebreak == "fewer_camels"
    R[L.R_HAT_LUCK], R[L.R_HAT_BAD] = rules.hat_values
    R[L.R_LUCK_LAST] = rules.luck_hat_last_out
    R[L.R_FLIP_RISK] = rules.camels_flip_risk
    R[L.R_UNUSED] = rules.unused_token_value
    R[L.R_TOKENS_SF] = rules.tokens_on_start_finish
    for i, e in enumerate(("e1", "e2", "e3", "e4")):
        R[L.R_E1 + i] = e in expansions
    R[L.R_N_MUMMY] = len(rules.mummy_tokens)
    R[L.R_MUMMY:L.R_MUMMY + len(rules.mummy_tokens)] = rules.mummy_tokens
    R[L.R_MIX:L.R_MIX + 4] = rules.action_token_mix
    R[L.R_RANDOM_LAYOUT] = rules.first_layout == "random"
    R[L.R_KEEP_E1_REMOVAL] = rules.e3_e1_keep_e1_removal
    R[L.R_HAT_REROLL] = rules.hat_tie == "reroll"
    R[L.R_EXCH_POS:L.R_EXCH_POS + 4] = rules.exchange_positions
    R[L.R_N_POOL] = len(rules.tile_values)
    R[L.R_POOL:L.R_POOL + len(rules.tile_values)] = rules.tile_values
    R[L.R_N_E3OUT] = len(rules.e3_removed)
    R[L.R_E3OUT:L.R_E3OUT + len(rules.e3_removed)] = rules.e3_removed
    return R


def declared_names() -> tuple[str, ...]:
    """The parameters ``GAME.rules`` declares (a test checks they are ``Rules``' fields)."""
    return tuple(p.name for p in GAME.rules)
