"""Naive reference implementation of Kingdom Run / Królewski Wyścig, written from the
rules alone (the project states them in docs/games/kingdom-run.md, written with the game's
kernel, issue 18), never from a kernel.  Obviously-correct over fast: plain lists and
dicts, ``copy.deepcopy`` on every step, exhaustive enumeration, exact ``Fraction``s.

Position dict
-------------
::

    pos = {
        "track":   [ {"runners": [(runner, asleep), ...],   # in arrival order
                      "lake": bool, "zone": int, "token": bool}, ... ],   # index 0 = START
        "podium":  [runner, ...],        # confirmed finishers, arrival order (place 1 first)
        "pending": [(runner, from_space, action_no), ...],  # crossed during THIS turn,
                                         # places not handed out yet (see "same_turn_order")
        "out":     [runner, ...],        # surplus finishers (off the track, score 0)
        "tokens":  [int, ...],           # victory tokens per player
        "players": [clan, ...],          # clan of each player, in turn order
                                         # (index order = counter-clockwise order)
        "to_move": int,                  # index of the active player
        "roll":    [face, face, face, face] or None,   # the final (or current) roll
        "rerolled": bool,
        "used":    [(die_face, action_type), ...],     # dice resolved this turn
        "params":  {...},                # see DEFAULT_PARAMS
    }

A runner is named ``<clan letter><1-4>`` (``"K1"``, ``"W3"``); the clan is the first letter
(K Knights, W Wizards, F Forest folk, G Gnomes).  The brief's "(clan, asleep)" pairs carry
the runner's name instead of the bare clan so that labels can name runners; the clan is
``runner[0]``.  Likewise the podium lists runner names (clan = first letter).  A runner on a
lake space is *in the lake* (every movement that ends on a lake puts it in the water; passing
or overflowing past one does not), so no separate flag is stored.

Die faces / action types: ``"scatter" "catchup" "bath" "steal" "sleepwake" "copy"``.

Actions (``apply_action``)
--------------------------
``("scatter", space, [r1, r2, ...])`` drop order;  ``("catchup", r)``;  ``("bath", r)`` (in if
``r`` is not in a lake, out if it is);  ``("steal", player_index)``;  ``("sleepwake", r)``;
``("copy", inner)`` where ``inner`` is one of the above (resolved as it, counted as it).

Copy (reading of the rules' Copy example "Bath, Bath, Copy, Steal: Copy cannot become a third
Bath; it must become a second Steal if possible, otherwise it is discarded"): a Copy may be
used as action X only when no unused real X die is left in the roll, so it never displaces a
real die; any order of a real X and a Copy-as-X reaches the same outcome.

Label grammar (``legal_sequences``)
-----------------------------------
::

    sequence := "pass" | step (" > " step)*
    step     := action | "copy:" action | podium
    action   := "scatter " SPACE " [" RUNNER ("," RUNNER)* "]"   # drop order
              | "catchup " RUNNER
              | "bath " RUNNER                # bath in (a) or out (b), by where RUNNER is
              | "steal p" PLAYER              # PLAYER is 1-based
              | "sleep " RUNNER | "wake " RUNNER
    podium   := "podium [" RUNNER ("," RUNNER)* "]"   # last step, only if runners crossed
                                              # this turn: who takes this turn's places, in
                                              # place order (surplus finishers not listed;
                                              # "podium []" if none gets a place)

e.g. ``scatter 5 [W1,K1] > catchup G2 > bath W3 > steal p2``.  ``"pass"`` = no die usable.
Discarded dice are not written.  Each label is a distinct sequence; two labels may reach
equal positions (e.g. different orders of independent actions).

After a full sequence the turn is over: podium places handed out, ``to_move`` = next player
(skipping, in 3-4 player games, players whose four runners have all crossed), ``roll`` None,
``rerolled`` False, ``used`` [].  If the game ended, the rest of the dice are lost.

Evaluation (``evaluate``)
-------------------------
Default: ``score(player) - max(score(other players))`` (neutral clans not counted), from
``scores(pos)``; no look-ahead.

Simplifications / not implemented:

* ``surplus_finishers="stay"`` puts a surplus runner back on the space it left even if that
  space has meanwhile filled up (capacity is not re-checked there);
* ``lakes`` and ``dice`` are recorded, not enforced (the layout and the roll decide);
* score tokens for ``zone_mode="exact"`` are ASSUMED on each board's first space.
"""

from __future__ import annotations

import copy
import itertools
from fractions import Fraction

FACES = ["scatter", "catchup", "bath", "steal", "sleepwake", "copy"]
CLANS = ["K", "W", "F", "G"]

# Layout D0 (an assumed layout, a rule parameter): boards as (name, spaces, lake offsets within the board).
# Score tokens: one per board, ASSUMED on the board's first space (matters only for
# zone_mode "exact").
LAYOUT_D0 = [("START", 4, []), ("A", 6, [3]), ("B", 6, [3]), ("C", 6, [3]), ("FINISH", 4, [])]

DEFAULT_PARAMS = {
    "die_faces": list(FACES),
    "dice": 4,
    "rerolls": 1,                       # one re-roll of any subset
    "per_action_limit": 2,
    "mandatory_dice": True,
    "capacity": 4,
    "layout": LAYOUT_D0,
    "lakes": 3,
    "zone_values": [1, 2, 3, 4, 5],
    "zone_mode": "zone",                # or "exact"
    "podium_values": [13, 10, 8, 6, 5, 4, 3, 2],
    "victory_tokens": {2: 6, 3: 4, 4: 3},
    "victory_token_value": 2,
    "two_player_end": "first_of",       # or "own_runners_only"
    "same_turn_order": "free",          # or "chronological"
    "surplus_finishers": "score_zero",  # or "stay"
    "tie_rule": "best_podium",          # or "shared" (§9, KR-16)
}


def make_params(**overrides):
    p = copy.deepcopy(DEFAULT_PARAMS)
    for k, v in overrides.items():
        if k not in p:
            raise KeyError(k)
        p[k] = v
    return p


def build_track(params):
    track = []
    for b, (_name, n, lakes) in enumerate(params["layout"]):
        for i in range(n):
            track.append({"runners": [], "lake": i in lakes,
                          "zone": params["zone_values"][b], "token": i == 0})
    return track


def new_game(players, params=None, roll=None):
    """Setup (§3): one runner of each clan on each of the 4 START spaces."""
    params = params or make_params()
    track = build_track(params)
    for s in range(4):
        track[s]["runners"] = [(c + str(s + 1), False) for c in CLANS]
    n = len(players)
    return {"track": track, "podium": [], "pending": [], "out": [],
            "tokens": [params["victory_tokens"][n]] * n, "players": list(players),
            "to_move": 0, "roll": list(roll) if roll else None, "rerolled": False,
            "used": [], "params": params}


def position_from(placement, players, roll, *, tokens=None, podium=(), asleep=(),
                  params=None, to_move=0, rerolled=False):
    """Convenience builder: ``placement`` = {space: [runner, ...]}."""
    params = params or make_params()
    track = build_track(params)
    for s, names in placement.items():
        track[s]["runners"] = [(r, r in asleep) for r in names]
    n = len(players)
    return {"track": track, "podium": list(podium), "pending": [], "out": [],
            "tokens": list(tokens) if tokens is not None else [params["victory_tokens"][n]] * n,
            "players": list(players), "to_move": to_move,
            "roll": list(roll) if roll is not None else None, "rerolled": rerolled,
            "used": [], "params": params}


# ----------------------------------------------------------------------------- helpers

def find(pos, runner):
    """(space, index) of a runner on the track, or None."""
    for s, sp in enumerate(pos["track"]):
        for i, (r, _a) in enumerate(sp["runners"]):
            if r == runner:
                return s, i
    return None


def all_runners(pos):
    on = [r for sp in pos["track"] for r, _a in sp["runners"]]
    return on + list(pos["podium"]) + [r for r, _s, _n in pos["pending"]] + list(pos["out"])


def crossed_count(pos, clan):
    return 4 - sum(1 for sp in pos["track"] for r, _a in sp["runners"] if r[0] == clan)


def player_finished(pos, p):
    return crossed_count(pos, pos["players"][p]) >= 4


def podium_size(pos):
    return len(pos["params"]["podium_values"])


def _place(pos, runner, asleep, dest, action_no, from_space):
    """Put a runner (already lifted from ``from_space``) at ``dest`` with overflow; beyond
    the track = crossed.  Returns the space reached, or None if it crossed."""
    cap = pos["params"]["capacity"]
    track = pos["track"]
    s = dest
    while s < len(track) and len(track[s]["runners"]) >= cap:
        s += 1
    if s >= len(track):
        pos["pending"].append((runner, from_space, action_no))
        return None
    track[s]["runners"].append((runner, asleep))
    return s


def _lift(pos, runner):
    s, i = find(pos, runner)
    _r, a = pos["track"][s]["runners"].pop(i)
    return s, a


def remaining_dice(pos):
    rest = list(pos["roll"] or [])
    for face, _t in pos["used"]:
        rest.remove(face)
    return rest


def used_count(pos, action_type):
    return sum(1 for _f, t in pos["used"] if t == action_type)


def ended(pos):
    """End condition (§7), counting this turn's finishers as finished."""
    n_fin = len(pos["podium"]) + len(pos["pending"])
    full = n_fin >= podium_size(pos)
    if len(pos["players"]) >= 3:
        # the podium is full, or nobody is left to take a turn (every player's four
        # runners across: docs/games/kingdom-run.md §8, KR-28)
        return full or all(player_finished(pos, p) for p in range(len(pos["players"])))
    four = any(player_finished(pos, p) for p in range(len(pos["players"])))
    if pos["params"]["two_player_end"] == "own_runners_only":
        return four
    return full or four


def is_over(pos):
    return ended(pos)


# ----------------------------------------------------------------------------- actions

def _targets(pos, t):
    """Legal (label, action) for action type t (ignoring dice)."""
    track = pos["track"]
    out = []
    if t == "scatter":
        for s, sp in enumerate(track):
            if sp["lake"]:
                continue
            awake = [r for r, a in sp["runners"] if not a]
            for k in range(1, min(4, len(awake)) + 1):
                for order in itertools.permutations(awake, k):
                    out.append(("scatter %d [%s]" % (s, ",".join(order)),
                                ("scatter", s, list(order))))
    elif t == "catchup":
        anyone_finished = bool(pos["podium"] or pos["pending"] or pos["out"])
        for s, sp in enumerate(track):
            if sp["lake"]:
                continue
            ahead = any(track[j]["runners"] for j in range(s + 1, len(track))) or anyone_finished
            if not ahead:
                continue
            for r, a in sp["runners"]:
                if not a:
                    out.append(("catchup " + r, ("catchup", r)))
    elif t == "bath":
        for s, sp in enumerate(track):
            for r, a in sp["runners"]:
                if a:
                    continue
                if sp["lake"]:
                    out.append(("bath " + r, ("bath", r)))
                elif any(track[j]["lake"] for j in range(s + 1, len(track))):
                    out.append(("bath " + r, ("bath", r)))
    elif t == "steal":
        me = pos["to_move"]
        for p in range(len(pos["players"])):
            if p != me and pos["tokens"][p] >= 1 and not player_finished(pos, p):
                out.append(("steal p%d" % (p + 1), ("steal", p)))
    elif t == "sleepwake":
        for sp in track:
            for r, a in sp["runners"]:
                if a:
                    out.append(("wake " + r, ("sleepwake", r)))
                else:
                    awake_same = sum(1 for sp2 in track for r2, a2 in sp2["runners"]
                                     if r2[0] == r[0] and not a2)
                    if awake_same >= 2:
                        out.append(("sleep " + r, ("sleepwake", r)))
    return out


def legal_actions(pos):
    """Every legal single step for the remaining dice: list of (label, action)."""
    if ended(pos) or pos["roll"] is None:
        return []
    limit = pos["params"]["per_action_limit"]
    rest = remaining_dice(pos)
    out = []
    for face in sorted(set(rest), key=FACES.index):
        if face == "copy":
            copyable = sorted(set(f for f in pos["roll"] if f != "copy"), key=FACES.index)
            for t in copyable:
                # a Copy becomes action t only once every real t die has been resolved:
                # it never displaces a real die (the rules' Copy example)
                if used_count(pos, t) < limit and t not in rest:
                    out += [("copy:" + lab, ("copy", act)) for lab, act in _targets(pos, t)]
        elif used_count(pos, face) < limit:
            out += _targets(pos, face)
    return out


def apply_action(pos, action):
    """Resolve one die (checked against ``legal_actions``): returns a new position; the
    turn is not finished (this turn's finishers wait in "pending", see podium_choices)."""
    if action not in [a for _l, a in legal_actions(pos)]:
        raise ValueError("illegal action %r" % (action,))
    return _apply(pos, action)


def _apply(pos, action):
    pos = copy.deepcopy(pos)
    face = "copy" if action[0] == "copy" else action[0]
    act = action[1] if action[0] == "copy" else action
    t = act[0]
    action_no = len(pos["used"])
    pos["used"].append((face, t))
    track = pos["track"]
    if t == "scatter":
        _s, order = act[1], act[2]
        src = act[1]
        lifted = [(r, _lift(pos, r)[1]) for r in order]
        prev = src
        for r, a in lifted:
            if prev is None:        # an earlier runner crossed: all later ones cross too
                pos["pending"].append((r, src, action_no))
                continue
            prev = _place(pos, r, a, prev + 1, action_no, src)
    elif t == "catchup":
        r = act[1]
        s, a = _lift(pos, r)
        ahead = [j for j in range(s + 1, len(track)) if track[j]["runners"]]
        if ahead:
            _place(pos, r, a, ahead[0], action_no, s)
        else:
            pos["pending"].append((r, s, action_no))
    elif t == "bath":
        r = act[1]
        s, a = _lift(pos, r)
        if track[s]["lake"]:
            _place(pos, r, a, s + 1, action_no, s)
        else:
            lake = min(j for j in range(s + 1, len(track)) if track[j]["lake"])
            _place(pos, r, a, lake, action_no, s)
    elif t == "steal":
        p = act[1]
        pos["tokens"][p] -= 1
        pos["tokens"][pos["to_move"]] += 1
    elif t == "sleepwake":
        s, i = find(pos, act[1])
        r, a = track[s]["runners"][i]
        track[s]["runners"][i] = (r, not a)
    return pos


# ----------------------------------------------------------------------------- end of turn

def podium_choices(pos):
    """Ways to hand out this turn's podium places: list of (label, new_pos), turn ended."""
    pending = pos["pending"]
    free = podium_size(pos) - len(pos["podium"])
    mode = pos["params"]["same_turn_order"]
    two_own = (len(pos["players"]) == 2
               and pos["params"]["two_player_end"] == "own_runners_only")
    options = []
    if not pending:
        options.append(None)
    elif mode == "free":
        k = max(0, min(free, len(pending)))
        options = [list(c) for c in itertools.permutations(range(len(pending)), k)]
    else:   # chronological
        last = max(n for _r, _s, n in pending)
        early = [i for i, (_r, _s, n) in enumerate(pending) if n != last]
        late = [i for i, (_r, _s, n) in enumerate(pending) if n == last]
        # earlier actions' crossers keep their places in crossing order, as long as places
        # are left (2 players, own_runners_only: none may be left, KR-32)
        k = max(0, min(free - len(early), len(late)))
        options = [early[:max(free, 0)] + list(c) for c in itertools.combinations(late, k)]
    results, seen = [], []
    for choice in options:
        new = copy.deepcopy(pos)
        label = None
        if choice is not None:
            label = "podium [%s]" % ",".join(pending[i][0] for i in choice)
            new["podium"] += [pending[i][0] for i in choice]
            for i, (r, s, _n) in enumerate(pending):
                if i in choice:
                    continue
                if pos["params"]["surplus_finishers"] == "stay" and not two_own \
                        and s is not None:
                    new["track"][s]["runners"].append((r, False))
                else:
                    new["out"].append(r)
        new["pending"] = []
        _next_turn(new)
        key = _key(new)
        if key in seen:
            continue
        seen.append(key)
        results.append((label, new))
    return results


def _next_turn(pos):
    n = len(pos["players"])
    p = pos["to_move"]
    if not ended(pos):
        for _ in range(n):
            p = (p + 1) % n
            if n == 2 or not player_finished(pos, p):
                break
    pos["to_move"] = p
    pos["roll"] = None
    pos["rerolled"] = False
    pos["used"] = []


def _key(pos):
    return repr(({k: v for k, v in pos.items() if k != "params"},))


def legal_sequences(pos):
    """Every distinct legal sequence of actions for the current dice: [(label, new_pos)]."""
    results = []
    mandatory = pos["params"]["mandatory_dice"]

    def finish(steps, p):
        for plabel, new in podium_choices(p):
            labs = steps + ([plabel] if plabel else [])
            results.append((" > ".join(labs) if labs else "pass", new))

    def dfs(steps, p):
        acts = legal_actions(p)
        if not acts or not mandatory:
            finish(steps, p)
        for lab, act in acts:
            dfs(steps + [lab], _apply(p, act))

    dfs([], copy.deepcopy(pos))
    return results


# ----------------------------------------------------------------------------- scoring

def scores(pos):
    """Score per player (§8): podium values + zone values on the track + token value x tokens.
    Runners in ``pending`` are not scored (positions between turns have none)."""
    prm = pos["params"]
    out = []
    for p, clan in enumerate(pos["players"]):
        s = prm["victory_token_value"] * pos["tokens"][p]
        for place, r in enumerate(pos["podium"]):
            if r[0] == clan and place < len(prm["podium_values"]):
                s += prm["podium_values"][place]
        for sp in pos["track"]:
            for r, _a in sp["runners"]:
                if r[0] == clan and (prm["zone_mode"] == "zone" or sp["token"]):
                    s += sp["zone"]
        out.append(s)
    return out


def winners(pos):
    """The winners (§9): the highest score; ties by ``tie_rule``: ``best_podium`` -- among
    the tied, the player whose runner stands highest on the podium wins alone, and if none
    of them has a podium runner they share; ``shared`` -- every tied player shares."""
    sc = scores(pos)
    top = max(sc)
    tied = [p for p, v in enumerate(sc) if v == top]
    if pos["params"]["tie_rule"] == "shared" or len(tied) == 1:
        return tied
    best = {}
    for place, r in enumerate(pos["podium"]):
        for p in tied:
            if r[0] == pos["players"][p] and p not in best:
                best[p] = place
    if not best:
        return tied
    return [min(best, key=best.get)]


def _eval_int(pos, player):
    sc = scores(pos)
    return sc[player] - max(v for i, v in enumerate(sc) if i != player)


def evaluate(pos, player):
    """Default evaluation: player's current score minus the best opponent's score."""
    return float(_eval_int(pos, player))


# ----------------------------------------------------------------------------- re-roll

def reroll_outcomes(pos, keep):
    """``keep`` = indices of pos["roll"] kept; the others are re-rolled.  Exact: all 6^k
    ordered outcomes, merged by the resulting multiset of faces (sorted tuple)."""
    faces = pos["params"]["die_faces"]
    kept = [pos["roll"][i] for i in keep]
    k = len(pos["roll"]) - len(kept)
    total = len(faces) ** k
    acc = {}
    for new in itertools.product(faces, repeat=k):
        roll = tuple(sorted(kept + list(new), key=FACES.index))
        acc[roll] = acc.get(roll, 0) + 1
    return [(roll, Fraction(c, total)) for roll, c in acc.items()]


def best_value(pos):
    """Best evaluation for the mover over legal_sequences of pos (exact int)."""
    me = pos["to_move"]
    return max(_eval_int(new, me) for _l, new in legal_sequences(pos))


def reroll_table(pos):
    """One row per distinct keep-set (sub-multiset of the roll): label ``keep f1,f2`` or
    ``reroll all``; value = expected best evaluation after the re-roll (keeping all = no
    re-roll, value of the current roll)."""
    if pos["rerolled"]:
        raise ValueError("already re-rolled")
    roll = pos["roll"]
    seen, rows = set(), []
    for k in range(len(roll), -1, -1):
        for keep in itertools.combinations(range(len(roll)), k):
            faces = tuple(sorted((roll[i] for i in keep), key=FACES.index))
            if faces in seen:
                continue
            seen.add(faces)
            value = Fraction(0)
            for new_roll, prob in reroll_outcomes(pos, keep):
                q = copy.deepcopy(pos)
                q["roll"] = list(new_roll)
                q["rerolled"] = k < len(roll)
                value += prob * best_value(q)
            rows.append(("keep " + ",".join(faces) if faces else "reroll all", value))
    return rows
