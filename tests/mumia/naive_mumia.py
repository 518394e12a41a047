"""Deliberately naive reference implementation of Mumia (Verflixxt! family), tests only.

Written from the rules (docs/games/mumia.md: "§N" its sections, "M-AMB-N" its
resolutions of the rulebook's gaps; positions §14.1, labels §16.1, policies §16.4), *not*
from the kernel, so that the two can be compared. Slow, readable and boring on purpose: plain lists
and dicts, ``copy.deepcopy``, exact ``Fraction`` expectations.

Positions are dicts in the JSON shape of §14.1 with every E4 token known (hands are
lists, the pile holds kinds, top first). Functions never modify their arguments; they return
new dicts. Extra keys this module may write:

* ``"over": True`` once the game has ended (§6);
* ``hats["split"] = True`` when both hats sit on the same seat's pawns on the same field but
  on two different pawns (the position JSON cannot tell this from one pawn wearing both;
  without the key, both hats on the same seat and field are read as worn by ONE pawn).

Internally a position is "loaded": each field keeps its pawns as mutable ``[seat, hats, mark]``
entries (hats = "", "L", "B" or "LB"; mark = "", "swapped" or "moved", for the mover's pawns
swapped or moved earlier in the turn), so that hats and marks travel with their pawn and
fields are followed by identity while tiles are removed from the track.

A turn (E4) is a sequence of steps with one roll: any number of ``token swap F G X`` /
``token bottom``, then one move; a move ``... + token extra`` is followed by a new roll and
another such sequence. ``Turn`` carries what the steps must remember: the fresh tokens and
the mover's pawns swapped / moved this turn, as multisets of (field, hats) on the position as
it stands (pawns of one seat with the same field and hats are interchangeable). ``choices``
lists every label of one step, ``step`` applies one. The turn rules (decided resolutions):

1. a pawn swapped this turn does not move this turn; a pawn moved this turn (by ``pawn K``,
   also in an earlier move of an Extra move turn) is not swapped this turn;
2. pawn numbers: field, hats (none, luck, bad, both), then not swapped before swapped;
   swapped pawns and all but the first of identical pawns are not listed;
3. a Swap is legal only if a move choice for the same roll is left after it;
4. a Swap moves the mover's first pawn on F (hat order; of identical ones, one swapped
   already, leaving the others free to move) not moved this turn, and seat X's
   pawn on G wearing no hat if there is one, else its first in hat order;
5. ``+ token extra`` only if after the move the game goes on and the mover has a pawn out;
6. no move choice: exactly ``pass`` (changes nothing, ends the turn);
7. a Push must move something (an opponent's pawn off FINISH, a guardian, the mummy);
8. ``swap hats`` only when it is neither a take nor a give; a give goes to a hatless pawn;
9. ``hats["split"]`` as above, written only when true.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

LETTERS = "ABCDEF"
HAT_RANK = {"": 0, "L": 1, "B": 2, "LB": 3}  # §16.1: no hat, luck, bad, both
HAT_KINDS = ["take luck from", "take bad from", "give luck to", "give bad to", "swap hats with"]

DEFAULT_RULES = {
    "picture_faces": {"P": 2, "M": 2, "PM": 2},
    "tokens_per_pass": "each",
    "sudden_end": False,
    "sudden_end_pair_alone": False,
    "tiebreak": "shared",
    "hat_values": (10, -10),
    "camels_flip_risk": False,
    "unused_token_value": 1,
    "tokens_on_start_finish": False,
}

PAWN_RE = re.compile(r"^pawn (\d+)(?:, (take luck from|take bad from|give luck to|give bad to"
                     r"|swap hats with) ([A-F]))?$")
SWAP_RE = re.compile(r"^token swap (\d+) (\d+) ([A-F]|guardian|mummy)$")
EXTRA = " + token extra"


# ---------------------------------------------------------------------------------------------
# rule parameters


def _bool(v) -> bool:
    if isinstance(v, str):
        return v.strip().lower() in ("1", "true", "yes", "on")
    return bool(v)


def rule(pos: dict, name: str):
    """The value of rule parameter ``name`` (§13), normalised."""
    v = (pos.get("rules") or {}).get(name, DEFAULT_RULES[name])
    if name == "picture_faces":
        if isinstance(v, str):
            v = [int(x) for x in v.split("/")]
        if isinstance(v, (list, tuple)):
            v = dict(zip(["P", "M", "PM"], v))
        return {s: int(v.get(s, 0)) for s in ("P", "M", "PM")}
    if name == "hat_values":
        if isinstance(v, str):
            v = [int(x) for x in v.split(",")]
        return int(v[0]), int(v[1])
    if name in ("sudden_end", "sudden_end_pair_alone", "camels_flip_risk",
                "tokens_on_start_finish"):
        return _bool(v)
    if name == "unused_token_value":
        return int(v)
    if name == "tokens_per_pass":
        return {"1": "each", "each": "each", "one": "one"}[str(v).strip().lower()]
    return v


def has(pos: dict, expansion: str) -> bool:
    return expansion in (pos.get("expansions") or [])


# ---------------------------------------------------------------------------------------------
# load / dump


def _load(pos: dict) -> dict:
    """A deep copy whose track fields are ``{"tile", "pawns": [[seat, hats]...], "guardians",
    "mummy"}``."""
    S = copy.deepcopy(pos)
    track = []
    for f in pos["track"]:
        track.append({"tile": f["tile"], "pawns": [[s, "", ""] for s in f.get("pawns", [])],
                      "guardians": int(f.get("guardians", 0)), "mummy": bool(f.get("mummy"))})
    S["track"] = track
    hats = pos.get("hats") or {}
    for key, code in (("luck", "L"), ("bad", "B")):
        h = hats.get(key)
        if not h:
            continue
        mine = [p for p in track[h["field"]]["pawns"] if p[0] == h["seat"]]
        if not mine:
            raise ValueError(f"hat {key}: no pawn of seat {h['seat']} on field {h['field']}")
        target = None
        if code == "B" and not hats.get("split"):
            target = next((p for p in mine if p[1] == "L"), None)
        if target is None:
            target = next((p for p in mine if p[1] == ""), None)
        if target is None:
            raise ValueError(f"hat {key}: no free pawn of seat {h['seat']} on field {h['field']}")
        target[1] = _hats(target[1] + code)
    S.setdefault("mummy_taken", [[] for _ in range(pos["players"])])
    S.setdefault("collected", [[] for _ in range(pos["players"])])
    S.setdefault("mummy_tokens", [])
    return S


def _dump(S: dict) -> dict:
    track, hats, wearers = [], {}, {}
    for i, f in enumerate(S["track"]):
        d = {"tile": f["tile"]}
        if f["pawns"]:
            d["pawns"] = sorted(p[0] for p in f["pawns"])
        if f["guardians"]:
            d["guardians"] = f["guardians"]
        if f["mummy"]:
            d["mummy"] = True
        track.append(d)
        for p in f["pawns"]:
            for code, key in (("L", "luck"), ("B", "bad")):
                if code in p[1]:
                    hats[key] = {"seat": p[0], "field": i}
                    wearers[key] = p
    if "luck" in wearers and "bad" in wearers and wearers["luck"] is not wearers["bad"] \
            and hats["luck"] == hats["bad"]:
        hats["split"] = True
    out = {}
    for k, v in S.items():
        out[k] = track if k == "track" else hats if k == "hats" else copy.deepcopy(v)
    return out


def _hats(h: str) -> str:
    return "".join(c for c in "LB" if c in h)


# ---------------------------------------------------------------------------------------------
# the turn state (E4: several steps in one turn)


@dataclass(frozen=True)
class Turn:
    """What the steps of one turn must remember, on the position as it stands now:

    * ``fresh``: indices in the mover's hand of the tokens gained this turn (not usable);
    * ``swapped``: the mover's pawns swapped this turn (they may not move this turn);
    * ``moved``: the mover's pawns moved this turn by a ``pawn K`` (they may not be swapped).

    ``swapped`` and ``moved`` are multisets of ``(field, hats)``, sorted tuples; pawns on
    FINISH are left out (they never move nor are swapped again)."""

    fresh: frozenset = frozenset()
    swapped: tuple = ()
    moved: tuple = ()


def new_turn() -> Turn:
    """The state at the start of a turn: nothing fresh, swapped or moved."""
    return Turn()


def _as_turn(fresh=(), turn=None) -> Turn:
    """The old ``fresh`` arguments and the new ``turn`` as one Turn."""
    if turn is None:
        return Turn(fresh=frozenset(fresh))
    return Turn(frozenset(turn.fresh) | frozenset(fresh), tuple(turn.swapped),
                tuple(turn.moved))


def _load_turn(pos: dict, turn: Turn) -> dict:
    """``_load``, then mark the mover's pawns swapped / moved this turn (any one of the
    interchangeable pawns with that field and those hats)."""
    S = _load(pos)
    seat = S["to_move"]
    for mark, pawns in (("swapped", turn.swapped), ("moved", turn.moved)):
        for f, h in pawns:
            free = [p for p in S["track"][f]["pawns"] if p[0] == seat and p[1] == h
                    and not p[2]] if 0 <= f < _fin(S) else []
            if not free:
                raise ValueError(f"turn state: no pawn of seat {seat} with hats {h!r} on "
                                 f"field {f} to mark {mark}")
            free[0][2] = mark
    return S


def _turn_of(S: dict, seat: int, fresh) -> Turn:
    """The Turn read back from the marks of a loaded position."""
    swapped, moved = [], []
    for i, f in enumerate(S["track"][:_fin(S)]):
        for p in f["pawns"]:
            if p[0] == seat and p[2] == "swapped":
                swapped.append((i, p[1]))
            elif p[0] == seat and p[2] == "moved":
                moved.append((i, p[1]))
    return Turn(frozenset(fresh), tuple(sorted(swapped, key=_field_hats)),
                tuple(sorted(moved, key=_field_hats)))


def _field_hats(t):
    return t[0], HAT_RANK[t[1]]


# ---------------------------------------------------------------------------------------------
# small helpers on loaded positions


def _fin(S) -> int:
    return len(S["track"]) - 1


def _index(S, field) -> int:
    return next(i for i, f in enumerate(S["track"]) if f is field)


def _mummy_index(S):
    return next((i for i, f in enumerate(S["track"]) if f["mummy"]), None)


def _opponents(S, seat) -> list[int]:
    n = S["players"]
    return [(seat + i) % n for i in range(1, n)]


def _pawn_list(S, seat) -> list[tuple[int, int, list]]:
    """The seat's pawns off FINISH as (field, hat rank, entry), in §16.1 order: field, hats
    (none, luck, bad, both), then the pawns not swapped this turn before the swapped ones.
    Pawn K is entry K - 1."""
    out = []
    for i, f in enumerate(S["track"][:_fin(S)]):
        for p in f["pawns"]:
            if p[0] == seat:
                out.append((i, HAT_RANK[p[1]], p))
    out.sort(key=lambda t: (t[0], t[1], t[2][2] == "swapped"))
    return out


def _take_out(field, pawn):
    """Remove this very pawn entry (by identity) from the field."""
    field["pawns"].pop(next(i for i, p in enumerate(field["pawns"]) if p is pawn))


def _canon(pawns: list) -> list:
    return sorted(pawns, key=lambda p: HAT_RANK[p[1]])


def _is_danger(tile: str) -> bool:
    return tile.startswith("-")


def _empty(field) -> bool:
    return not field["pawns"] and not field["guardians"] and not field["mummy"]


def _all_home(S, seat) -> bool:
    fin = _fin(S)
    return all(p[0] != seat for f in S["track"][:fin] for p in f["pawns"])


def _mummy_in_play(S) -> bool:
    return bool(S["mummy_tokens"])


def _usable(S, seat, kind, fresh) -> int | None:
    """Index in the seat's hand of a usable (not fresh) token of ``kind``, or None."""
    if not has(S, "e4") or "action_tokens" not in S:
        return None
    hand = S["action_tokens"]["hands"][seat]
    if not isinstance(hand, list):
        return None
    return next((i for i, t in enumerate(hand) if t == kind and i not in fresh), None)


def _spend(S, seat, kind, fresh) -> set:
    """Use a token: out of the hand, to the bottom of the pile. Returns the new fresh set."""
    i = _usable(S, seat, kind, fresh)
    if i is None:
        raise ValueError(f"seat {seat} holds no usable {kind} token")
    hand = S["action_tokens"]["hands"][seat]
    hand.pop(i)
    S["action_tokens"]["pile"].append(kind)
    return {j - 1 if j > i else j for j in fresh}


# ---------------------------------------------------------------------------------------------
# the pieces' movements (all on loaded positions, in place)


def _leave(S, mover, field, fresh: set):
    """Spec §5.2 / E1 / E4: ``mover`` moved an own pawn or the mummy off ``field``."""
    i = _index(S, field)
    if not (1 <= i <= _fin(S) - 1) or not _empty(field):
        return
    if field["tile"] == "exchange":  # E1: pass the top of the stack to the left
        stack = S["collected"][mover]
        if stack:
            S["collected"][(mover + 1) % S["players"]].append(stack.pop())
        return
    S["track"].pop(i)
    S["collected"][mover].append(field["tile"])
    if _is_danger(field["tile"]) and has(S, "e4") and "action_tokens" in S:
        pile = S["action_tokens"]["pile"]
        if pile:
            hand = S["action_tokens"]["hands"][mover]
            if not isinstance(hand, list):
                raise ValueError("hand of the mover is not known")
            hand.append(pile.pop(0))
            fresh.add(len(hand) - 1)


def _move_mummy(S, mover, n, collect: bool, fresh: set):
    """Spec §5.3: n steps on the cycle; tokens for each pass; removal after the last."""
    track = S["track"]
    p = _mummy_index(S)
    length = len(track)
    fin = length - 1
    passes = sum(1 for j in range(1, n + 1) if (p + j) % length == fin)
    if rule(S, "tokens_per_pass") == "one":
        passes = min(passes, 1)
    src, dst = track[p], track[(p + n) % length]
    src["mummy"] = False
    dst["mummy"] = True
    for _ in range(passes):
        if S["mummy_tokens"]:
            S["mummy_taken"][mover].append(S["mummy_tokens"].pop(0))
    if collect:
        _leave(S, mover, src, fresh)
    if not S["mummy_tokens"]:  # §4: lifting the mummy is not a move
        for f in S["track"]:
            f["mummy"] = False


def _move_guardian(S, F, n):
    fin = _fin(S)
    S["track"][F]["guardians"] -= 1
    dest = min(F + n, fin)
    if dest != fin:  # at FINISH a guardian goes back to the box
        S["track"][dest]["guardians"] += 1


def _hat_action(dst, pawn, kind, opp):
    theirs = _canon([p for p in dst["pawns"] if p[0] == opp and p is not pawn])
    if kind in ("take luck from", "take bad from"):
        code = "L" if "luck" in kind else "B"
        partner = next(p for p in theirs if code in p[1])
        partner[1] = _hats(partner[1].replace(code, ""))
        pawn[1] = _hats(pawn[1] + code)
    elif kind in ("give luck to", "give bad to"):
        code = "L" if "luck" in kind else "B"
        partner = theirs[0]  # their first pawn in canonical order (a hatless one if any)
        pawn[1] = _hats(pawn[1].replace(code, ""))
        partner[1] = _hats(partner[1] + code)
    else:  # swap: with their first hat-wearing pawn, else their first pawn
        hatted = [p for p in theirs if p[1]]
        partner = hatted[0] if hatted else theirs[0]
        pawn[1], partner[1] = partner[1], pawn[1]


def _move_pawn(S, seat, K, n, hat, fresh: set) -> list:
    """Move the seat's pawn number K (§16.1) n steps; returns the moved pawn entry, marked
    "moved". Of the pawns identical to pawn K (same field and hats, not swapped), one moved
    earlier in the turn goes if there is one: the others stay free to be swapped."""
    pawns = _pawn_list(S, seat)
    f, rank, pawn = pawns[K - 1]
    if pawn[2] == "swapped":
        raise ValueError(f"pawn {K} was swapped this turn and may not move")
    same = [p for g, r, p in pawns if g == f and r == rank and p[2] != "swapped"]
    pawn = next((p for p in same if p[2] == "moved"), pawn)
    pawn[2] = "moved"
    fin = _fin(S)
    src, dst = S["track"][f], S["track"][min(f + n, fin)]
    _take_out(src, pawn)
    dst["pawns"].append(pawn)
    if hat:
        _hat_action(dst, pawn, hat[0], LETTERS.index(hat[1]))
    _leave(S, seat, src, fresh)
    return pawn


def _push(S, mover, F, n, fresh: set):
    """E4 Push: opponents' pawns, the guardians and the mummy on F move n steps together."""
    fin = _fin(S)
    field = S["track"][F]
    dest = S["track"][min(F + n, fin)]
    if F != fin:
        moving = [p for p in field["pawns"] if p[0] != mover]
        field["pawns"] = [p for p in field["pawns"] if p[0] == mover]
        dest["pawns"].extend(moving)
        g = field["guardians"]
        field["guardians"] = 0
        if dest is not S["track"][fin]:
            dest["guardians"] += g
    if field["mummy"]:
        _move_mummy(S, mover, n, collect=False, fresh=fresh)


# ---------------------------------------------------------------------------------------------
# end of the game (§6)


def _check_end(S):
    if S.get("over"):
        return
    players = S["players"]
    home = [_all_home(S, s) for s in range(players)]
    if not rule(S, "sudden_end"):
        if all(home):
            S["over"] = True
        return
    if not any(home):
        return
    S["over"] = True
    pair = rule(S, "sudden_end_pair_alone")
    fin = _fin(S)
    grabs = []
    for f in S["track"][1:fin]:
        if f["guardians"] or f["mummy"] or not f["pawns"] or f["tile"] == "exchange":
            continue
        seats = {p[0] for p in f["pawns"]}
        if len(seats) == 1 and (len(f["pawns"]) == 1 or pair):
            grabs.append((f, seats.pop()))
    for f, s in grabs:  # field order; the tile leaves the track with its lone pawn(s)
        S["track"].pop(_index(S, f))
        S["collected"][s].append(f["tile"])


# ---------------------------------------------------------------------------------------------
# labels


def _check_symbol(S, symbol):
    if _mummy_in_play(S):
        if symbol not in ("P", "M", "PM"):
            raise ValueError(f"symbol {symbol!r} while the mummy is in play")
        return symbol
    return None


def _pawn_labels(S, seat, n) -> list[str]:
    """``pawn K`` and its hat variants: pawns swapped this turn are not listed, and of
    identical pawns (same field and hats, not swapped) only the first."""
    labels, prev = [], None
    fin = _fin(S)
    for idx, (f, rank, pawn) in enumerate(_pawn_list(S, seat)):
        if pawn[2] == "swapped" or (f, rank) == prev:
            continue
        prev = (f, rank)
        K = idx + 1
        labels.append(f"pawn {K}")
        dest = min(f + n, fin)
        if not has(S, "e2") or dest == fin:
            continue
        there = S["track"][dest]["pawns"]
        for kind in HAT_KINDS:
            for o in _opponents(S, seat):
                theirs = _canon([p for p in there if p[0] == o])
                if theirs and _hat_ok(kind, pawn[1], theirs):
                    labels.append(f"pawn {K}, {kind} {LETTERS[o]}")
    return labels


def _hat_ok(kind, mine: str, theirs: list) -> bool:
    """May the moved pawn (hats ``mine``) make hat action ``kind`` with seat B's pawns
    ``theirs`` (canonical order) on its new field?"""
    if kind == "take luck from":
        return any("L" in p[1] for p in theirs)
    if kind == "take bad from":
        return any("B" in p[1] for p in theirs)
    if kind == "give luck to":
        return "L" in mine
    if kind == "give bad to":
        return "B" in mine
    # swap hats: with B's pawn wearing a hat, else B's first pawn; listed only when it is
    # not the same as a take or a give (both wear a hat, or one of them wears both)
    hatted = [p for p in theirs if p[1]]
    other = (hatted[0] if hatted else theirs[0])[1]
    return bool(mine and other) or "LB" in (mine, other)


def _push_fields(S, seat, fresh) -> list[int]:
    """Fields F of a legal ``token push F``: an own pawn there (swapped or moved this turn
    or not) and something the Push moves (an opponent's pawn, not on FINISH; a guardian;
    the mummy)."""
    if _usable(S, seat, "push", fresh) is None:
        return []
    fin = _fin(S)
    lo, hi = (0, fin) if rule(S, "tokens_on_start_finish") else (1, fin - 1)
    out = []
    for F in range(lo, hi + 1):
        f = S["track"][F]
        if not any(p[0] == seat for p in f["pawns"]):
            continue
        others = (F != fin and any(p[0] != seat for p in f["pawns"])) or f["guardians"] \
            or f["mummy"]
        if others:
            out.append(F)
    return out


def _move_labels(S, seat, n, symbol, fresh) -> list[str]:
    """The move choices for the roll on a loaded, marked position (symbol checked); empty
    when there is none (then the mover passes)."""
    labels = []
    if symbol in ("P", "PM", None):
        labels += _pawn_labels(S, seat, n)
        for F, f in enumerate(S["track"][:_fin(S)]):
            if f["guardians"] and (f["pawns"] or f["mummy"]):
                labels.append(f"guardian {F}")
    if symbol in ("M", "PM"):
        labels.append("mummy")
    labels += [f"token push {F}" for F in _push_fields(S, seat, fresh)]
    return labels


def legal(pos: dict, n: int, symbol, fresh=(), turn: Turn | None = None) -> list[str]:
    """Design §4 move labels for roll n and picture symbol (None once the mummy is gone), in
    canonical order: pawn K (+ hat variants), guardian F, mummy, token push F; exactly
    ``["pass"]`` when there is none (a mover whose pawns off FINISH were all swapped this
    turn). ``fresh``: indices in the mover's hand of tokens gained this turn (not usable);
    ``turn``: the turn state (default: the start of a turn)."""
    if pos.get("over"):
        return []
    turn = _as_turn(fresh, turn)
    S = _load_turn(pos, turn)
    symbol = _check_symbol(S, symbol)
    return _move_labels(S, S["to_move"], n, symbol, set(turn.fresh)) or ["pass"]


def _swap_pawn(S, seat, F):
    """The own pawn a Swap from field F moves: the first in hat order (no hat, luck, bad,
    both; of identical ones, one swapped already) that was not moved this turn; None if
    there is none."""
    mine = [p for p in S["track"][F]["pawns"] if p[0] == seat and p[2] != "moved"]
    mine.sort(key=lambda p: (HAT_RANK[p[1]], p[2] != "swapped"))
    return mine[0] if mine else None


def _swap_candidates(S, seat) -> list[str]:
    """Every ``token swap F G X`` by the placement rules alone (not checking rule 3)."""
    fin = _fin(S)
    lo, hi = (0, fin) if rule(S, "tokens_on_start_finish") else (1, fin - 1)
    labels = []
    for F in range(lo, min(hi, fin - 1) + 1):  # own pawns on FINISH are out of play
        if _swap_pawn(S, seat, F) is None:
            continue
        for G in (F - 1, F + 1):
            if not lo <= G <= hi:
                continue
            g = S["track"][G]
            xs = [LETTERS[o] for o in _opponents(S, seat)
                  if G != fin and any(p[0] == o for p in g["pawns"])]
            if g["guardians"]:
                xs.append("guardian")
            if g["mummy"]:
                xs.append("mummy")
            labels += [f"token swap {F} {G} {x}" for x in xs]
    return labels


def _token_labels(S, seat, fresh, n, symbol) -> list[str]:
    """Swap and Bottom labels on a loaded, marked position. With a roll (n not None) a Swap
    is listed only when a move choice for that roll is left after it (moving is
    compulsory: no Swap escapes it)."""
    labels = []
    if _usable(S, seat, "swap", fresh) is not None:
        for lab in _swap_candidates(S, seat):
            if n is not None:
                S2 = copy.deepcopy(S)
                f2 = _apply_token(S2, seat, lab, set(fresh))
                if S2.get("over") or not _move_labels(S2, seat, n, symbol, f2):
                    continue
            labels.append(lab)
    if _usable(S, seat, "bottom", fresh) is not None and S["collected"][seat]:
        labels.append("token bottom")
    return labels


def _mark_moved_field(S, seat, moved_field):
    """The old ``moved_field`` argument: one of the seat's pawns there (the last in hat
    order) counts as moved this turn."""
    mine = _canon([p for p in S["track"][moved_field]["pawns"] if p[0] == seat and not p[2]])
    if mine:
        mine[-1][2] = "moved"


def token_labels(pos: dict, fresh=(), moved_field=None, n=None, symbol=None,
                 turn: Turn | None = None) -> list[str]:
    """E4 ``token swap F G X`` and ``token bottom`` labels usable now, before a move.
    ``n``, ``symbol``: the roll; when given, a Swap is listed only if a move choice for it
    is left afterwards (none given: that check is not made). ``turn``: the turn state
    (pawns moved this turn are not swapped). ``moved_field`` (old form): where a pawn moved
    this turn stands (it may not be swapped unless another of the seat's pawns stands there
    too)."""
    if pos.get("over") or not has(pos, "e4"):
        return []
    turn = _as_turn(fresh, turn)
    S = _load_turn(pos, turn)
    seat = S["to_move"]
    if moved_field is not None:
        _mark_moved_field(S, seat, moved_field)
    if n is not None:
        symbol = _check_symbol(S, symbol)
    return _token_labels(S, seat, set(turn.fresh), n, symbol)


# ---------------------------------------------------------------------------------------------
# applying moves


def _apply_move(S, seat, n, base: str, fresh: set) -> set:
    """Apply move label ``base`` (no ``+ token extra``) in place; returns the new fresh set.
    No end test."""
    m = PAWN_RE.match(base)
    if base == "pass":
        pass
    elif m:
        hat = (m.group(2), m.group(3)) if m.group(2) else None
        _move_pawn(S, seat, int(m.group(1)), n, hat, fresh)
    elif base.startswith("guardian "):
        _move_guardian(S, int(base.split()[1]), n)
    elif base == "mummy":
        _move_mummy(S, seat, n, collect=True, fresh=fresh)
    elif base.startswith("token push "):
        fresh = _spend(S, seat, "push", fresh)
        _push(S, seat, int(base.split()[2]), n, fresh)
    else:
        raise ValueError(base)
    return fresh


def _apply_token(S, seat, label: str, fresh: set) -> set:
    """Use a Swap or Bottom token in place (then the end tests); returns the new fresh set."""
    if label == "token bottom":
        fresh = _spend(S, seat, "bottom", fresh)
        stack = S["collected"][seat]
        stack.insert(0, stack.pop())
        return fresh
    F, G, X = SWAP_RE.match(label).groups()
    F, G = int(F), int(G)
    fresh = _spend(S, seat, "swap", fresh)
    a, b = S["track"][F], S["track"][G]
    mine = _swap_pawn(S, seat, F)
    _take_out(a, mine)
    b["pawns"].append(mine)
    mine[2] = "swapped"
    if X == "guardian":
        b["guardians"] -= 1
        a["guardians"] += 1
    elif X == "mummy":
        b["mummy"], a["mummy"] = False, True
    else:  # their pawn wearing no hat if they have one there, else the first in hat order
        opp = LETTERS.index(X)
        theirs = _canon([p for p in b["pawns"] if p[0] == opp and p is not mine])[0]
        _take_out(b, theirs)
        a["pawns"].append(theirs)
    _check_end(S)
    return fresh


def _extra_ok(S, seat, n, base, fresh) -> bool:
    """May ``base + token extra`` be played: a usable Extra token, and after the move (on a
    copy) the game goes on and the mover still has a pawn off FINISH."""
    if base == "pass" or _usable(S, seat, "extra", fresh) is None:
        return False
    S2 = copy.deepcopy(S)
    f2 = _apply_move(S2, seat, n, base, set(fresh))
    _check_end(S2)
    return not S2.get("over") and not _all_home(S2, seat) \
        and _usable(S2, seat, "extra", f2) is not None


def choices(pos: dict, n: int, symbol, turn: Turn | None = None) -> list[str]:
    """Every label legal now for the mover with roll (n, symbol) (symbol None once the
    mummy has left), in canonical order: the plain move choices (or exactly ``["pass"]``
    when there is none), then the same moves with ``+ token extra``, then
    ``token swap F G X``, then ``token bottom``."""
    if pos.get("over"):
        return []
    turn = turn if turn is not None else new_turn()
    S = _load_turn(pos, turn)
    seat = S["to_move"]
    symbol = _check_symbol(S, symbol)
    fresh = set(turn.fresh)
    moves = _move_labels(S, seat, n, symbol, fresh)
    if moves:
        labels = moves + [m + EXTRA for m in moves if _extra_ok(S, seat, n, m, fresh)]
    else:
        labels = ["pass"]
    if has(S, "e4"):
        labels += _token_labels(S, seat, fresh, n, symbol)
    return labels


def step(pos: dict, n: int, symbol, label: str, turn: Turn) -> tuple[dict, Turn, bool]:
    """Apply one label (one of ``choices(pos, n, symbol, turn)``, else ValueError). Returns
    (new position, new turn state, goes_on): goes_on is True after a Swap or Bottom (the
    same roll follows) and after a move with ``+ token extra`` (a new roll follows);
    otherwise the turn has ended: the position is after ``end_turn`` and the turn state is
    ``new_turn()``."""
    allowed = choices(pos, n, symbol, turn)
    if label not in allowed:
        raise ValueError(f"illegal step {label!r} for roll {n} {symbol}: {allowed}")
    S = _load_turn(pos, turn)
    seat = S["to_move"]
    fresh = set(turn.fresh)
    if label == "token bottom" or SWAP_RE.match(label):
        fresh = _apply_token(S, seat, label, fresh)
        return _dump(S), _turn_of(S, seat, fresh), True
    extra = label.endswith(EXTRA)
    base = label[: -len(EXTRA)] if extra else label
    fresh = _apply_move(S, seat, n, base, fresh)
    _check_end(S)
    if extra:
        fresh = _spend(S, seat, "extra", fresh)
        return _dump(S), _turn_of(S, seat, fresh), True
    return end_turn(_dump(S)), new_turn(), False


def move_ex(pos: dict, n: int, symbol, label: str, fresh=(),
            turn: Turn | None = None) -> tuple[dict, frozenset]:
    """Apply one move label; the same seat stays to move. Returns the new position and the
    indices of the mover's fresh tokens (gained this turn)."""
    if pos.get("over"):
        raise ValueError("the game is over")
    turn = _as_turn(fresh, turn)
    extra = label.endswith(EXTRA)
    base = label[: -len(EXTRA)] if extra else label
    moves = legal(pos, n, symbol, turn=turn)
    if base not in moves or (extra and base == "pass"):
        raise ValueError(f"illegal move {label!r} for roll {n} {symbol}: {moves}")
    S = _load_turn(pos, turn)
    seat = S["to_move"]
    fresh = _apply_move(S, seat, n, base, set(turn.fresh))
    _check_end(S)
    if extra:
        if S.get("over"):
            raise ValueError("no Extra move: the game is over")
        if _all_home(S, seat):
            raise ValueError("no Extra move: the mover's pawns are all home")
        fresh = _spend(S, seat, "extra", fresh)
    return _dump(S), frozenset(fresh)


def move(pos: dict, n: int, symbol, label: str, fresh=(), turn: Turn | None = None) -> dict:
    return move_ex(pos, n, symbol, label, fresh, turn)[0]


def use_token_ex(pos: dict, label: str, fresh=(), moved_field=None, n=None, symbol=None,
                 turn: Turn | None = None) -> tuple[dict, frozenset]:
    allowed = token_labels(pos, fresh, moved_field, n=n, symbol=symbol, turn=turn)
    if label not in allowed:
        raise ValueError(f"token {label!r} not usable: {allowed}")
    turn = _as_turn(fresh, turn)
    S = _load_turn(pos, turn)
    seat = S["to_move"]
    if moved_field is not None:
        _mark_moved_field(S, seat, moved_field)
    fresh = _apply_token(S, seat, label, set(turn.fresh))
    return _dump(S), frozenset(fresh)


def use_token(pos: dict, label: str, fresh=(), moved_field=None, n=None, symbol=None,
              turn: Turn | None = None) -> dict:
    return use_token_ex(pos, label, fresh, moved_field, n, symbol, turn)[0]


def end_turn(pos: dict) -> dict:
    """Pass to the next seat (increasing, wrapping) with a pawn off FINISH; end tests."""
    S = _load(pos)
    _check_end(S)
    if not S.get("over"):
        players = S["players"]
        for i in range(1, players + 1):
            s = (S["to_move"] + i) % players
            if not _all_home(S, s):
                S["to_move"] = s
                break
        else:
            S["over"] = True
    return _dump(S)


# ---------------------------------------------------------------------------------------------
# scoring (§7, §8-§11)


def _risk_score(mags: list[int]) -> int:
    return sum(mags) if len(mags) % 2 == 0 else -sum(mags)


def _tile_score(tiles: list[str], flip_risk: bool) -> int:
    treasure = sum(int(t) for t in tiles if t.startswith("+"))
    items = [("d", -int(t)) for t in tiles if t.startswith("-")]
    risks = [("r", int(t[4:])) for t in tiles if t.startswith("risk")]
    camels = tiles.count("camel")
    if flip_risk:
        items += risks
        risks_fixed = []
    else:
        risks_fixed = [m for _, m in risks]
    best = None
    for c in range(min(camels, len(items)) + 1):  # the owner covers the best choice of tiles
        for cover in combinations(range(len(items)), c):
            s = sum(items[i][1] for i in cover)
            s -= sum(m for i, (k, m) in enumerate(items) if i not in cover and k == "d")
            s += _risk_score([m for i, (k, m) in enumerate(items) if i not in cover and k == "r"]
                             + risks_fixed)
            best = s if best is None else max(best, s)
    return treasure + best


def scores(pos: dict) -> list[int]:
    S = _load(pos)
    fin = _fin(S)
    luck, bad = rule(S, "hat_values")
    flip = rule(S, "camels_flip_risk")
    out = []
    for s in range(S["players"]):
        v = _tile_score(S["collected"][s], flip) + sum(S["mummy_taken"][s])
        for p in S["track"][fin]["pawns"]:
            if p[0] == s:
                v += (luck if "L" in p[1] else 0) + (bad if "B" in p[1] else 0)
        if has(S, "e4") and "action_tokens" in S:
            hand = S["action_tokens"]["hands"][s]
            v += rule(S, "unused_token_value") * (len(hand) if isinstance(hand, list) else hand)
        out.append(v)
    return out


def winners(pos: dict) -> list[int]:
    sc = scores(pos)
    top = max(sc)
    tied = [s for s, v in enumerate(sc) if v == top]
    if rule(pos, "tiebreak") == "fewer_camels":
        camels = {s: pos["collected"][s].count("camel") for s in tied}
        least = min(camels.values())
        tied = [s for s in tied if camels[s] == least]
    return tied


# ---------------------------------------------------------------------------------------------
# policies (§16.4)


def held_worth(pos: dict, seat: int) -> int:
    """Sum of worth over path tiles where ``seat``'s pawns are the only pieces."""
    S = _load(pos)
    total = 0
    for f in S["track"][1:_fin(S)]:
        if f["pawns"] and not f["guardians"] and not f["mummy"] \
                and all(p[0] == seat for p in f["pawns"]):
            t = f["tile"]
            total += int(t) if t[0] in "+-" else 5 if t == "camel" else 0
    return total


def _moved_pawn_hats(pos, n, symbol, label, fresh, turn=None) -> str:
    S = _load_turn(pos, _as_turn(fresh, turn))
    m = PAWN_RE.match(label)
    hat = (m.group(2), m.group(3)) if m.group(2) else None
    return _move_pawn(S, S["to_move"], int(m.group(1)), n, hat, set(fresh))[1]


def choose(pos: dict, n: int, symbol, policy: str, fresh=(), turn: Turn | None = None) -> str:
    """The label policy "greedy" or "heuristic" plays (deterministic)."""
    turn = _as_turn(fresh, turn)
    seat = pos["to_move"]
    labels = legal(pos, n, symbol, turn=turn)
    if labels == ["pass"]:
        return "pass"
    plain = [lab for lab in labels if "," not in lab]
    before = scores(pos)[seat]
    held = held_worth(pos, seat)
    best, best_v = None, None
    for lab in plain:
        after = move(pos, n, symbol, lab, turn=turn)
        v = Fraction(scores(after)[seat] - before)
        if policy == "heuristic":
            v += Fraction(1, 2) * (held_worth(after, seat) - held)
        elif policy != "greedy":
            raise ValueError(policy)
        if best_v is None or v > best_v:
            best, best_v = lab, v
    if best.startswith("pawn "):  # hat rule: most hat worth on the moved pawn, ties: none
        luck, bad = rule(pos, "hat_values")
        worth = lambda h: (luck if "L" in h else 0) + (bad if "B" in h else 0)
        cands = [best] + [lab for lab in labels if lab.startswith(best + ",")]
        vals = [worth(_moved_pawn_hats(pos, n, symbol, lab, turn.fresh, turn)) for lab in cands]
        best = cands[vals.index(max(vals))]
    after, fresh2 = move_ex(pos, n, symbol, best, turn=turn)
    if not after.get("over") and not _all_home(_load(after), seat) \
            and _usable(_load(after), seat, "extra", fresh2) is not None:
        best += EXTRA
    return best


# ---------------------------------------------------------------------------------------------
# exact expectimax (§16.2), tiny positions without E4


def rolls(pos: dict) -> list[tuple[int, object, Fraction]]:
    """(n, symbol, probability) of every roll outcome now."""
    if pos["mummy_tokens"]:
        faces = rule(pos, "picture_faces")
        total = sum(faces.values())
        syms = [(s, Fraction(c, total)) for s, c in faces.items() if c]
    else:
        syms = [(None, Fraction(1))]
    return [(n, s, Fraction(1, 6) * p) for n in range(1, 7) for s, p in syms]


def exact(pos: dict, others: str = "greedy") -> tuple[list[Fraction], list[Fraction]]:
    """Expected final score of every seat and each seat's probability to win or share the
    win, the seat to move now maximising its own expected final score at each of its turns
    (ties: first label), every other seat playing ``others``."""
    if has(pos, "e4"):
        raise ValueError("exact: no E4")
    mover = pos["to_move"]
    players = pos["players"]
    memo = {}

    def value(p):
        key = json.dumps(p, sort_keys=True)
        if key in memo:
            return memo[key]
        if p.get("over"):
            w = winners(p)
            res = ([Fraction(v) for v in scores(p)],
                   [Fraction(1 if s in w else 0) for s in range(players)])
        else:
            ev = [Fraction(0)] * players
            win = [Fraction(0)] * players
            for n, sym, pr in rolls(p):
                if p["to_move"] == mover:
                    best = None
                    for lab in legal(p, n, sym):
                        r = value(end_turn(move(p, n, sym, lab)))
                        if best is None or r[0][mover] > best[0][mover]:
                            best = r
                else:
                    best = value(end_turn(move(p, n, sym, choose(p, n, sym, others))))
                ev = [a + pr * b for a, b in zip(ev, best[0])]
                win = [a + pr * b for a, b in zip(win, best[1])]
            res = (ev, win)
        memo[key] = res
        return res

    return value(pos)
