"""Exact race winner / loser odds of Camel Up, a naive reference for tests only.

Written from the rules (``docs/games/camel-up.md`` §5, §6, §7.1, §9 and Appendix A), on top
of the movement of ``naive_camel_up`` (``move``, ``ranking``, ``faces_of``), *not* from the
fast implementation.

Race model (§9, "race policy"): the rest of the current leg is played with the spectator
tiles now on the track; when it ends (``leg_left`` dice left in the pyramid: 1 in the 2nd
edition, 0 in the 1st) the tiles leave, every die goes back into the pyramid
(``all_dice``) and every later leg is played with dice only. The race ends at the first
crossing, either direction (§5.3): the winner is the 1st of the final ranking, the loser
the last.

Method: the reachable states ``(track, pyramid, in_current_leg)`` are enumerated by
breadth-first search; every state's chance moves give a row ``x_s = sum_t P[s,t] x_t + b_s``
where ``b_s`` collects the probability of ending the race at once with each
(winner, loser) pair. In the 1st edition the graph is acyclic; in the 2nd edition crazy
camels can carry racing camels back, so cycles are not ruled out (none was found in the
positions tried; ``has_cycle`` checks a closure). Either way the system is solved
exactly over ``Fraction`` by Gaussian elimination (sparse rows, states eliminated in
depth-first post-order, so an acyclic graph needs no fill-in), then back-substitution.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction

from naive_camel_up import DICE, RACING, faces_of, move, ranking

Key = tuple  # a frozen track: ((space, (bottom, ..., top)), ...) sorted by space
State = tuple  # (Key, pyramid as a sorted tuple, in_current_leg: bool)
Outcome = tuple  # (winner, loser)


def freeze(track: dict) -> Key:
    """Hashable form of a track (empty spaces dropped)."""
    return tuple(sorted((s, tuple(stack)) for s, stack in track.items() if stack))


def thaw(key: Key) -> dict:
    return {s: list(stack) for s, stack in key}


def _arrive(key: Key, pyramid: tuple, in_leg: bool, leg_left: int, all_dice) -> State:
    """The state after a reveal that did not end the race: a new leg (all dice back, no
    tiles) when only ``leg_left`` dice remain in the pyramid."""
    if len(pyramid) <= leg_left:
        return key, tuple(sorted(all_dice)), False
    return key, pyramid, in_leg


def chance(state: State, tiles: dict, leg_left: int, all_dice):
    """One reveal from ``state``: (``{next_state: p}``, ``{(winner, loser): p}``)."""
    key, pyramid, in_leg = state
    track = thaw(key)
    current_tiles = tiles if in_leg else {}
    nxt: dict = {}
    ends: dict = {}
    p_die = Fraction(1, len(pyramid))
    for die in pyramid:
        rest = tuple(d for d in pyramid if d != die)
        for face, p_face in faces_of(die):
            p = p_die * p_face
            new_track, _landed, crossing = move(track, current_tiles, die, face)
            if crossing is not None:
                order = ranking(new_track, crossing)
                outcome = (order[0], order[-1])
                ends[outcome] = ends.get(outcome, 0) + p
            else:
                s = _arrive(freeze(new_track), rest, in_leg, leg_left, all_dice)
                nxt[s] = nxt.get(s, 0) + p
    return nxt, ends


def closure(track, tiles, pyramid, leg_left, all_dice, max_states=20000):
    """Breadth-first closure from the given position.

    Returns ``(start, rows)`` with ``rows[state] = (next_states, ends)`` as in ``chance``.
    Raises ValueError when more than ``max_states`` states are reachable.
    """
    start = _arrive(freeze(track), tuple(sorted(pyramid)), True, leg_left, all_dice)
    rows = {}
    queue = deque([start])
    seen = {start}
    while queue:
        state = queue.popleft()
        rows[state] = chance(state, tiles, leg_left, all_dice)
        for t in rows[state][0]:
            if t not in seen:
                seen.add(t)
                if len(seen) > max_states:
                    raise ValueError(f"more than {max_states} reachable states")
                queue.append(t)
    return start, rows


def _postorder(start, rows) -> list:
    """Depth-first post-order of the states (successors before their predecessors when
    the graph is acyclic)."""
    order, visited = [], {start}
    stack = [(start, iter(rows[start][0]))]
    while stack:
        node, it = stack[-1]
        for t in it:
            if t not in visited:
                visited.add(t)
                stack.append((t, iter(rows[t][0])))
                break
        else:
            stack.pop()
            order.append(node)
    return order


def _add(into: dict, src: dict, c) -> None:
    for k, v in src.items():
        into[k] = into.get(k, 0) + c * v


def solve(start, rows) -> dict:
    """Exact absorption probabilities ``{(winner, loser): p}`` from ``start``.

    Solves ``x = P x + b`` (x and b valued in outcome -> probability) by Gaussian
    elimination. Eliminating state s: its self-loop a gives ``x_s = (rest of row)/(1 - a)``
    (a < 1 as every state is transient), which is substituted into every not yet eliminated
    row that mentions s. Afterwards each row mentions only states eliminated later, so
    back-substitution in reverse order gives every x.
    """
    coef = {s: dict(nxt) for s, (nxt, _ends) in rows.items()}
    rhs = {s: dict(ends) for s, (_nxt, ends) in rows.items()}
    users = {s: set() for s in rows}  # users[t]: live rows that mention t
    for s, row in coef.items():
        for t in row:
            users[t].add(s)
    order = _postorder(start, rows)
    for s in order:
        row = coef[s]
        a = row.pop(s, 0)
        users[s].discard(s)
        scale = 1 / (1 - Fraction(a))
        for t in row:
            row[t] *= scale
            users[t].discard(s)  # s is no longer a live row
        for o in rhs[s]:
            rhs[s][o] *= scale
        for r in users[s]:
            c = coef[r].pop(s)
            _add(coef[r], row, c)
            for t in row:
                users[t].add(r)
            _add(rhs[r], rhs[s], c)
        users[s] = set()
    value = {}
    for s in reversed(order):
        x = dict(rhs[s])
        for t, c in coef[s].items():
            _add(x, value[t], c)
        value[s] = x
    return value[start]


def race_odds(track, tiles, pyramid, leg_left, all_dice, max_states=20000):
    """(P(camel wins the race), P(camel loses the race)) for each racing camel on the track,
    as exact ``Fraction``s, under the race model of the module docstring."""
    start, rows = closure(track, tiles, pyramid, leg_left, all_dice, max_states)
    racers = [c for c in RACING if any(c in stack for stack in track.values())]
    win = {c: Fraction(0) for c in racers}
    lose = {c: Fraction(0) for c in racers}
    for (w, l), p in solve(start, rows).items():
        win[w] += p
        lose[l] += p
    return win, lose


def n_states(track, tiles, pyramid, leg_left, all_dice, max_states=20000) -> int:
    """Size of the reachable closure (for reports and tests)."""
    return len(closure(track, tiles, pyramid, leg_left, all_dice, max_states)[1])


# ---------------------------------------------------------------------------------------------
# test positions

ED2 = ("camel-up", 1, list(DICE))  # variant, leg_left, all dice
ED1 = ("camel-up-2014", 0, list(RACING))


def small_positions() -> list:
    """About a dozen small legal positions ``(variant, track, tiles, pyramid, leg_left,
    all_dice)``: racing camels near the finish, few dice in the pyramid, some tiles; the
    2nd-edition ones have racing camels standing on crazy camels, which can carry them back
    (closures of 62..2640 states). No position tried, these included, gave a cyclic state
    graph (a leg cannot bring every camel back where it was); ``solve`` still allows cycles."""
    def pos(ed, track, tiles, pyramid):
        variant, leg_left, all_dice = ed
        return variant, track, tiles, list(pyramid), leg_left, list(all_dice)

    return [
        # 1st edition (acyclic)
        pos(ED1, {12: ["B"], 13: ["G"], 14: ["Y", "R"], 16: ["P"]}, {}, ["B", "R"]),
        pos(ED1, {13: ["B", "G"], 14: ["Y"], 15: ["R", "P"]}, {16: (0, "boo")}, ["G", "Y", "P"]),
        pos(ED1, {14: ["B", "G", "Y"], 15: ["R"], 16: ["P"]}, {}, ["B", "G"]),
        pos(ED1, {13: ["B"], 14: ["G"], 15: ["Y", "R", "P"]}, {16: (1, "cheer")}, ["B", "Y"]),
        pos(ED1, {14: ["B", "G", "Y", "R", "P"]}, {15: (0, "boo")}, ["B", "G", "Y"]),
        # 2nd edition, no racing camel on a crazy camel (yet)
        pos(ED2, {1: ["W"], 15: ["B", "G"], 16: ["Y", "R", "P", "K"]}, {}, ["G", "grey"]),
        pos(ED2, {2: ["K"], 3: ["W"], 14: ["B"], 15: ["G", "Y"], 16: ["R", "P"]},
            {13: (0, "cheer")}, ["B", "R", "grey"]),
        # 2nd edition, racing camels standing on crazy camels: they can be carried back
        pos(ED2, {14: ["W", "K", "B", "P"], 15: ["G"], 16: ["Y", "R"]}, {}, ["R", "grey"]),
        pos(ED2, {15: ["R", "K", "W", "G", "B"], 16: ["Y", "P"]}, {}, ["R", "Y", "grey"]),
        pos(ED2, {14: ["G", "K", "B"], 15: ["W", "Y"], 16: ["R", "P"]}, {}, ["B", "grey"]),
        pos(ED2, {16: ["R", "G", "W", "Y", "B", "P", "K"]}, {}, ["G", "Y", "grey"]),
        pos(ED2, {14: ["W", "G"], 15: ["K", "P"], 16: ["R", "Y", "B"]}, {13: (1, "boo")},
            ["Y", "grey"]),
    ]


def has_cycle(rows) -> bool:
    """Whether the state graph of a closure has a cycle (Kahn's peeling leaves states)."""
    indegree = {s: 0 for s in rows}
    for nxt, _ends in rows.values():
        for t in nxt:
            indegree[t] += 1
    ready = [s for s, d in indegree.items() if d == 0]
    peeled = 0
    while ready:
        s = ready.pop()
        peeled += 1
        for t in rows[s][0]:
            indegree[t] -= 1
            if indegree[t] == 0:
                ready.append(t)
    return peeled < len(rows)
