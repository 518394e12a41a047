"""The Kingdom Run kernel behind the naive reference's position dicts, so that the kernel
can be checked against the reference (``naive_kingdom_run``, written from the rules).

A reference position goes through the analyser's position layer: the dict becomes a
``Position`` (rules from the dict's params, as the text values ``Rules().with_`` reads),
then ``state_vector`` / ``rules_vector``; kernel states come back through ``position_of``.
``validate`` is not called: the reference builds positions (e.g. a whole clan asleep with
none crossed) that validation refuses but that the kernel plays like any other.

Positions are compared in a canonical form (runners of one clan are interchangeable,
§13, KR-38): per space the sorted multiset of (clan, asleep); this turn's crossers as
(clan, from, action) in crossing order; the podium's clans in place order; the out clans
sorted; the tokens; the player to move; whether the game is over.
"""

from __future__ import annotations

import copy

import numpy as np

import naive_kingdom_run as kr
from oddsbot.analyser.kingdom_run.encode import position_of, rules_vector, state_vector
from oddsbot.analyser.kingdom_run.position import OFF, RUNNER_NAMES, Position
from oddsbot.analyser.kingdom_run.rules import Rules
from oddsbot.kernels.kingdom_run import actions as A
from oddsbot.kernels.kingdom_run import layout as L
from oddsbot.kernels.kingdom_run import reroll, turns

FACE = {f: i for i, f in enumerate(kr.FACES)}
RID = {name: r for r, name in enumerate(RUNNER_NAMES)}


class Near(float):
    """A kernel float equal to an exact Fraction to 1e-12."""

    def __eq__(self, other) -> bool:
        return abs(float(self) - float(other)) <= 1e-12

    __hash__ = float.__hash__


# ----------------------------------------------------------------------- encoding
def rule_texts(params: dict, dice: int | None = None) -> dict[str, str]:
    """The reference's params as rule parameter texts (§11)."""
    layout = "/".join(f"{n}:{','.join(map(str, lakes))}" if lakes else f"{n}"
                      for _name, n, lakes in params["layout"])
    tie = params["tie_rule"]
    return {
        "die_faces": ",".join(params["die_faces"]),
        "dice": str(params["dice"] if dice is None else dice),
        "per_action_limit": str(params["per_action_limit"]),
        "mandatory_dice": "true" if params["mandatory_dice"] else "false",
        "capacity": str(params["capacity"]),
        "layout": layout,
        "lakes": str(sum(len(lakes) for _name, _n, lakes in params["layout"])),
        "zone_values": ",".join(map(str, params["zone_values"])),
        "zone_mode": params["zone_mode"],
        "podium_values": ",".join(map(str, params["podium_values"])),
        "victory_tokens": "/".join(str(params["victory_tokens"][n]) for n in (2, 3, 4)),
        "victory_token_value": str(params["victory_token_value"]),
        "two_player_end": params["two_player_end"],
        "same_turn_order": params["same_turn_order"],
        "surplus_finishers": params["surplus_finishers"],
        "tie_rule": "shared" if tie == "shared" else "best_podium",
    }


def rules_of(pos: dict) -> Rules:
    roll = pos["roll"]
    dice = len(roll) if roll is not None else None
    if dice is not None and dice != pos["params"]["dice"]:
        raise ValueError(f"a roll of {dice} dice but params dice={pos['params']['dice']}")
    return Rules().with_(rule_texts(pos["params"], dice))


def position(pos: dict) -> Position:
    """The analyser's ``Position`` of a reference dict (not validated)."""
    where = [OFF] * 16
    asleep = []
    for s, sp in enumerate(pos["track"]):
        for name, a in sp["runners"]:
            assert where[RID[name]] == OFF, name
            where[RID[name]] = s
            if a:
                asleep.append(RID[name])
    return Position(
        players=len(pos["players"]), clans=tuple(pos["players"]), to_move=pos["to_move"],
        where=tuple(where), asleep=tuple(asleep),
        podium=tuple(RID[r] for r in pos["podium"]),
        crossed=tuple((RID[r], n, s) for r, s, n in pos["pending"]),
        out=tuple(RID[r] for r in pos["out"]), tokens=tuple(pos["tokens"]),
        roll=None if pos["roll"] is None else tuple(FACE[f] for f in pos["roll"]),
        rerolled=bool(pos["rerolled"]),
        used=tuple((FACE[f], FACE[t]) for f, t in pos["used"]), rules=rules_of(pos))


def encode(pos: dict):
    """(Position, S, R) of a reference dict."""
    p = position(pos)
    return p, state_vector(p), rules_vector(p.rules)


# ----------------------------------------------------------------------- canonical forms
def canon_naive(pos: dict) -> tuple:
    track = tuple(tuple(sorted((r[0], bool(a)) for r, a in sp["runners"]))
                  for sp in pos["track"])
    return (track, tuple((r[0], s, n) for r, s, n in pos["pending"]),
            tuple(r[0] for r in pos["podium"]), tuple(sorted(r[0] for r in pos["out"])),
            tuple(pos["tokens"]), pos["to_move"], bool(kr.ended(pos)))


def canon_position(p: Position, over: bool) -> tuple:
    clan = "KWFG"
    track = [[] for _ in range(p.rules.spaces())]
    for r, s in enumerate(p.where):
        if s != OFF:
            track[s].append((clan[r // 4], r in p.asleep))
    return (tuple(tuple(sorted(t)) for t in track),
            tuple((clan[r // 4], s, n) for r, n, s in p.crossed),
            tuple(clan[r // 4] for r in p.podium), tuple(sorted(clan[r // 4] for r in p.out)),
            tuple(p.tokens), p.to_move, over)


def canon_kernel(S: np.ndarray, like: Position) -> tuple:
    """The canonical form of kernel state S (decoded by the analyser's ``position_of``).
    A turn not ended yet counts as over when the end test holds (as the reference's)."""
    p = position_of(S, like)
    R = rules_vector(like.rules)
    over = bool(S[L.S_OVER]) or bool(L.ended(S, R))
    return canon_position(p, over)


# ----------------------------------------------------------------------- whole turns
def kernel_final_states(pos: dict):
    """(like, R, {canonical form: (final state S, mover's default evaluation)}, best):
    every distinct end-of-turn position the kernel's ``turns.search`` finds."""
    like, S, R = encode(pos)
    me = pos["to_move"]
    paths, values, count, _, best, _ = turns.search(S, R, 1 << 30, 0)
    assert count == len(paths) == len(values)
    found = {}
    for i in range(count):
        F = S.copy()
        assert turns.apply_path(F, R, paths[i]) >= 0, f"path {i} does not replay"
        key = canon_kernel(F, like)
        assert key not in found, f"two paths reach {key}"
        assert int(L.evaluation(F, R, me)) == int(values[i])
        found[key] = (F, int(values[i]))
    return like, S, R, found, best


def final_scores(F: np.ndarray, R: np.ndarray) -> list[int]:
    """Every player's score on kernel state F (``layout.score``)."""
    return [int(L.score(F, R, p)) for p in range(F[L.S_PLAYERS])]


def kernel_finals(pos: dict) -> tuple[dict, int]:
    """Every distinct end-of-turn position the kernel's ``turns.search`` finds, as
    {canonical form: mover's default evaluation}, and the best evaluation. Checks on the
    way: every path replays (``apply_path``) to a position of that value, no two paths
    reach the same position, and the search without ``keep_all`` finds the same best."""
    _like, S, R, states, best = kernel_final_states(pos)
    me = pos["to_move"]
    count = len(states)
    found = {key: v for key, (_F, v) in states.items()}
    assert count == 0 or best == max(found.values())
    p1, v1, c1, _, best1, _ = turns.search(S, R, 0, 0)
    assert best1 == best and (count == 0 or (c1 == 1 and v1[0] == best))
    F = S.copy()
    if count:
        assert turns.apply_path(F, R, p1[0]) >= 0 and int(L.evaluation(F, R, me)) == best
    return found, int(best)


def _naive_key(pos: dict) -> str:
    """What the rest of a turn depends on (the used dice as a multiset)."""
    return repr((pos["track"], pos["podium"], pos["pending"], pos["out"], pos["tokens"],
                 pos["to_move"], sorted(pos["used"])))


def naive_finals(pos: dict, memo: bool = True) -> tuple[dict, int]:
    """The reference's distinct end-of-turn positions {canonical form: evaluation} and
    the best. ``memo=False``: straight from ``legal_sequences``; ``memo=True``: the same
    depth-first search over ``legal_actions`` / ``podium_choices`` with states reached
    twice searched once (the rest of a turn depends only on the state and the multiset of
    dice used), which keeps the reference affordable on crowded positions."""
    me = pos["to_move"]
    out = {}
    if not memo:
        for _label, new in kr.legal_sequences(pos):
            out[canon_naive(new)] = kr._eval_int(new, me)
        return out, max(out.values())
    mandatory = pos["params"]["mandatory_dice"]
    seen = set()
    stack = [copy.deepcopy(pos)]
    while stack:
        p = stack.pop()
        key = _naive_key(p)
        if key in seen:
            continue
        seen.add(key)
        acts = kr.legal_actions(p)
        if not acts or not mandatory:
            for _label, new in kr.podium_choices(p):
                out[canon_naive(new)] = kr._eval_int(new, me)
        for _label, act in acts:
            stack.append(kr._apply(p, act))
    return out, max(out.values())


# ----------------------------------------------------------------------- single actions
def action_row(action) -> np.ndarray:
    """A reference action tuple as a kernel action row (``actions.A_COLS``)."""
    a = np.zeros(A.A_COLS, dtype=np.int64)
    face = L.COPY if action[0] == "copy" else FACE[action[0]]
    act = action[1] if action[0] == "copy" else action
    a[A.A_FACE] = face
    a[A.A_TYPE] = FACE[act[0]]
    if act[0] == "scatter":
        a[A.A_TARGET] = act[1]
        a[A.A_K] = len(act[2])
        for i, r in enumerate(act[2]):
            a[A.A_R + i] = RID[r]
    elif act[0] == "steal":
        a[A.A_TARGET] = act[1]
    else:
        a[A.A_TARGET] = RID[act[1]]
    return a


def kernel_steps(pos: dict, actions) -> tuple | None:
    """Play reference actions one after another on the kernel (``action_legal`` then
    ``apply_action``): the canonical mid-turn form reached, None if one is illegal."""
    like, S, R = encode(pos)
    for action in actions:
        a = action_row(action)
        if not A.action_legal(S, R, a):
            return None
        A.apply_action(S, R, a)
    return canon_kernel(S, like)


def kernel_where(pos: dict, actions) -> dict[str, int]:
    """Runner name -> space (or -1 off the track) after the kernel plays ``actions``."""
    like, S, R = encode(pos)
    for action in actions:
        a = action_row(action)
        assert A.action_legal(S, R, a), action
        A.apply_action(S, R, a)
    return {name: int(S[L.S_LOC + r]) for r, name in enumerate(RUNNER_NAMES)}


def kernel_n_legal(pos: dict) -> int:
    """How many legal actions (one per distinct effect) the kernel lists."""
    _like, S, R = encode(pos)
    out = np.zeros((turns.MAX_ACTIONS, A.A_COLS), dtype=np.int64)
    return int(A.legal_actions(S, R, out))


# ----------------------------------------------------------------------- scores, re-roll
def kernel_scores_and_wins(pos: dict) -> tuple[list[int], list[int]]:
    """The kernel's scores and winners (``layout.scores_and_wins``) of a position."""
    _like, S, R = encode(pos)
    scores = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    wins = np.zeros(L.MAX_PLAYERS, dtype=np.float64)
    L.scores_and_wins(S, R, scores, wins)
    n = len(pos["players"])
    return [int(v) for v in scores[:n]], [p for p in range(n) if wins[p] == 1.0]


def keeps_array(keep_faces_list) -> np.ndarray:
    """Keep-sets (each a list of face names kept) as ``keeps[i, f]`` counts."""
    keeps = np.zeros((len(keep_faces_list), L.N_FACES), dtype=np.int64)
    for i, faces in enumerate(keep_faces_list):
        for f in faces:
            keeps[i, FACE[f]] += 1
    return keeps


def kernel_keep_values(pos: dict, keep_faces_list) -> list[Near]:
    """The kernel's value of each keep-set (``reroll.keep_values``)."""
    _like, S, R = encode(pos)
    values, exact, _, _ = reroll.keep_values(S, R, keeps_array(keep_faces_list), 0)
    assert exact.all()
    return [Near(v) for v in values]


def faces_of_label(label: str) -> list[str]:
    """The faces a re-roll table row keeps (``keep a,b`` / ``reroll all``)."""
    return [] if label == "reroll all" else label[len("keep "):].split(",")


def kernel_reroll_table(pos: dict, labels) -> list[tuple[str, Near]]:
    """Rows ``labels`` of a re-roll table (``keep a,b`` / ``reroll all``, as the
    reference's ``reroll_table``) with the kernel's values."""
    values = kernel_keep_values(pos, [faces_of_label(lab) for lab in labels])
    return list(zip(labels, values))


def same_turns(pos: dict, memo: bool = True) -> dict:
    """Assert that the kernel and the reference reach the same set of distinct
    end-of-turn positions with the same evaluations (hence the same best); returns
    {canonical form: evaluation}."""
    kern, kbest = kernel_finals(pos)
    naive, nbest = naive_finals(pos, memo=memo)
    only_n = sorted(set(naive) - set(kern), key=repr)[:3]
    only_k = sorted(set(kern) - set(naive), key=repr)[:3]
    assert not only_n and not only_k, (
        f"end-of-turn positions differ ({len(naive)} reference, {len(kern)} kernel); "
        f"reference only: {only_n}; kernel only: {only_k}")
    assert kern == naive, "evaluations differ"
    assert kbest == nbest
    return kern


def podiums(finals) -> set:
    """The podium (clans in place order) of each canonical final position."""
    return {key[2] for key in finals}


def spaces_of(key: tuple, clan: str) -> list[int]:
    """The spaces of a clan's runners on the track in a canonical form (ascending)."""
    return sorted(s for s, t in enumerate(key[0]) for c, _a in t if c == clan)
