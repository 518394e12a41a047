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

Internally a position is "loaded": each field keeps its pawns as mutable ``[seat, hats]``
entries (hats = "", "L", "B" or "LB"), so that hats travel with their pawn and fields are
followed by identity while tiles are removed from the track.
"""

from __future__ import annotations

import copy
import json
import re
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
        track.append({"tile": f["tile"], "pawns": [[s, ""] for s in f.get("pawns", [])],
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
    """The seat's pawns off FINISH as (field, hat rank, entry), in §16.1 order."""
    out = []
    for i, f in enumerate(S["track"][:_fin(S)]):
        for p in f["pawns"]:
            if p[0] == seat:
                out.append((i, HAT_RANK[p[1]], p))
    out.sort(key=lambda t: (t[0], t[1]))
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
    """Move the seat's pawn number K (§16.1) n steps; returns the moved pawn entry."""
    f, _, pawn = _pawn_list(S, seat)[K - 1]
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
    labels, prev = [], None
    fin = _fin(S)
    for idx, (f, rank, pawn) in enumerate(_pawn_list(S, seat)):
        if (f, rank) == prev:
            continue
        prev = (f, rank)
        K = idx + 1
        labels.append(f"pawn {K}")
        dest = min(f + n, fin)
        if not has(S, "e2") or dest == fin:
            continue
        there = S["track"][dest]["pawns"]
        opps = [o for o in _opponents(S, seat) if any(p[0] == o for p in there)]
        worn = {o: "".join(p[1] for p in there if p[0] == o) for o in opps}
        for kind in HAT_KINDS:
            for o in opps:
                ok = {"take luck from": "L" in worn[o], "take bad from": "B" in worn[o],
                      "give luck to": "L" in pawn[1], "give bad to": "B" in pawn[1],
                      "swap hats with": bool(pawn[1] or worn[o])}[kind]
                if ok:
                    labels.append(f"pawn {K}, {kind} {LETTERS[o]}")
    return labels


def _push_fields(S, seat, fresh) -> list[int]:
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


def legal(pos: dict, n: int, symbol, fresh=()) -> list[str]:
    """Design §4 move labels for roll n and picture symbol (None once the mummy is gone), in
    canonical order: pawn K (+ hat variants), guardian F, mummy, token push F. ``fresh``:
    indices in the mover's hand of tokens gained this turn (not usable)."""
    if pos.get("over"):
        return []
    S = _load(pos)
    symbol = _check_symbol(S, symbol)
    seat = S["to_move"]
    labels = []
    if symbol in ("P", "PM", None):
        labels += _pawn_labels(S, seat, n)
        for F, f in enumerate(S["track"][:_fin(S)]):
            if f["guardians"] and (f["pawns"] or f["mummy"]):
                labels.append(f"guardian {F}")
    if symbol in ("M", "PM"):
        labels.append("mummy")
    labels += [f"token push {F}" for F in _push_fields(S, seat, set(fresh))]
    return labels


def token_labels(pos: dict, fresh=(), moved_field=None) -> list[str]:
    """E4 ``token swap F G X`` and ``token bottom`` labels usable now (before or after the
    move). ``moved_field``: where the pawn moved this turn stands (it may not be swapped
    unless another of the seat's pawns stands there too)."""
    if pos.get("over") or not has(pos, "e4"):
        return []
    S = _load(pos)
    seat = S["to_move"]
    fresh = set(fresh)
    fin = _fin(S)
    labels = []
    if _usable(S, seat, "swap", fresh) is not None:
        lo, hi = (0, fin) if rule(S, "tokens_on_start_finish") else (1, fin - 1)
        for F in range(lo, min(hi, fin - 1) + 1):  # own pawns on FINISH are out of play
            mine = [p for p in S["track"][F]["pawns"] if p[0] == seat]
            if not mine or (F == moved_field and len(mine) == 1):
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
    if _usable(S, seat, "bottom", fresh) is not None and S["collected"][seat]:
        labels.append("token bottom")
    return labels


# ---------------------------------------------------------------------------------------------
# applying moves


def move_ex(pos: dict, n: int, symbol, label: str, fresh=()) -> tuple[dict, frozenset]:
    """Apply one move label; the same seat stays to move. Returns the new position and the
    indices of the mover's fresh tokens (gained this turn)."""
    if pos.get("over"):
        raise ValueError("the game is over")
    extra = label.endswith(EXTRA)
    base = label[: -len(EXTRA)] if extra else label
    if base not in legal(pos, n, symbol, fresh):
        raise ValueError(f"illegal move {label!r} for roll {n} {symbol}: "
                         f"{legal(pos, n, symbol, fresh)}")
    S = _load(pos)
    seat = S["to_move"]
    fresh = set(fresh)
    m = PAWN_RE.match(base)
    if m:
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
        raise ValueError(label)
    _check_end(S)
    if extra:
        if S.get("over"):
            raise ValueError("no Extra move: the game is over")
        fresh = _spend(S, seat, "extra", fresh)
    return _dump(S), frozenset(fresh)


def move(pos: dict, n: int, symbol, label: str, fresh=()) -> dict:
    return move_ex(pos, n, symbol, label, fresh)[0]


def use_token_ex(pos: dict, label: str, fresh=(), moved_field=None) -> tuple[dict, frozenset]:
    if label not in token_labels(pos, fresh, moved_field):
        raise ValueError(f"token {label!r} not usable: {token_labels(pos, fresh, moved_field)}")
    S = _load(pos)
    seat = S["to_move"]
    fresh = set(fresh)
    if label == "token bottom":
        fresh = _spend(S, seat, "bottom", fresh)
        stack = S["collected"][seat]
        stack.insert(0, stack.pop())
    else:
        F, G, X = SWAP_RE.match(label).groups()
        F, G = int(F), int(G)
        fresh = _spend(S, seat, "swap", fresh)
        a, b = S["track"][F], S["track"][G]
        mine = _canon([p for p in a["pawns"] if p[0] == seat])[0]
        _take_out(a, mine)
        b["pawns"].append(mine)
        if X == "guardian":
            b["guardians"] -= 1
            a["guardians"] += 1
        elif X == "mummy":
            b["mummy"], a["mummy"] = False, True
        else:
            opp = LETTERS.index(X)
            theirs = _canon([p for p in b["pawns"] if p[0] == opp and p is not mine])[0]
            _take_out(b, theirs)
            a["pawns"].append(theirs)
        _check_end(S)
    return _dump(S), frozenset(fresh)


def use_token(pos: dict, label: str, fresh=(), moved_field=None) -> dict:
    return use_token_ex(pos, label, fresh, moved_field)[0]


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


def _moved_pawn_hats(pos, n, symbol, label, fresh) -> str:
    S = _load(pos)
    m = PAWN_RE.match(label)
    hat = (m.group(2), m.group(3)) if m.group(2) else None
    return _move_pawn(S, S["to_move"], int(m.group(1)), n, hat, set(fresh))[1]


def choose(pos: dict, n: int, symbol, policy: str, fresh=()) -> str:
    """The label policy "greedy" or "heuristic" plays (deterministic)."""
    seat = pos["to_move"]
    labels = legal(pos, n, symbol, fresh)
    plain = [lab for lab in labels if "," not in lab]
    before = scores(pos)[seat]
    held = held_worth(pos, seat)
    best, best_v = None, None
    for lab in plain:
        after = move(pos, n, symbol, lab, fresh)
        v = Fraction(scores(after)[seat] - before)
        if policy == "heuristic":
            v += Fraction(1, 2) * (held_worth(after, seat) - held)
        elif policy != "greedy":
            raise ValueError(policy)
        if best_v is None or v > best_v:
            best, best_v = lab, v
    if best.startswith("pawn "):  # hat rule: most hat worth on the moved pawn, ties: none
        luck, bad = rule(pos, "hat_values")
        worth = lambda h: (luck if "L" in h else 0) + (bad if "B" in h else 0)  # noqa: E731
        cands = [best] + [lab for lab in labels if lab.startswith(best + ",")]
        vals = [worth(_moved_pawn_hats(pos, n, symbol, lab, fresh)) for lab in cands]
        best = cands[vals.index(max(vals))]
    after, fresh2 = move_ex(pos, n, symbol, best, fresh)
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
