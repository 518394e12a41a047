"""The golden playthroughs (``tests/kingdom_run/golden``; ``tests/common/test_goldens.py``
checks they are what the game plays now, byte for byte) replayed line by line by the
naive reference (``naive_kingdom_run``, never the kernel): the player to move, the
keep-set kept from the first roll, the final roll holding the kept dice, the sequence a
legal turn of the final roll, and the final scores and winners of the result line.

A game's label names the lowest-numbered of interchangeable runners of a clan
(docs/games/kingdom-run.md §13), the reference enumerates every runner, so a game label
must be one of the reference's labels exactly. The reference's ``legal_sequences`` is
far too slow on crowded positions (two Scatters of four runners), so every turn is
checked step by step (each step among ``legal_actions``, no die left with a use at the
end, the podium step among ``podium_choices``: the reference's own definition of a legal
sequence), and where the whole turn is small enough, also by full enumeration."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import naive_kingdom_run as kr
from oddsbot.analyser.kingdom_run.face import parse
from oddsbot.analyser.kingdom_run.position import OFF, RUNNER_NAMES

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.txt"))
LETTERS = "SCBTZY"
ENUMERATE_BUDGET = 1_000  # reference nodes a full enumeration of one turn may expand
ENUMERATE_FIRST = 10  # ... tried only when at most this many first actions are legal


def naive_params(rules) -> dict:
    """The reference's params of the analyser's ``Rules``."""
    layout = [(f"b{i}", size, list(lakes)) for i, (size, lakes) in enumerate(rules.layout)]
    return kr.make_params(
        die_faces=[kr.FACES[f] for f in rules.die_faces], dice=rules.dice,
        per_action_limit=rules.per_action_limit, mandatory_dice=rules.mandatory_dice,
        capacity=rules.capacity, layout=layout, lakes=rules.lakes,
        zone_values=list(rules.zone_values), zone_mode=rules.zone_mode,
        podium_values=list(rules.podium_values),
        victory_tokens=dict(zip((2, 3, 4), rules.victory_tokens)),
        victory_token_value=rules.victory_token_value, two_player_end=rules.two_player_end,
        same_turn_order=rules.same_turn_order, surplus_finishers=rules.surplus_finishers,
        tie_rule=rules.tie_rule)


def naive_position(text: str) -> dict:
    """The reference's dict of a start position (parsed by the analyser, between turns)."""
    p = parse(text)
    assert p.roll is None and not p.crossed and not p.used, "a start between turns"
    params = naive_params(p.rules)
    track = kr.build_track(params)
    for r, s in enumerate(p.where):
        if s != OFF:
            track[s]["runners"].append((RUNNER_NAMES[r], r in p.asleep))
    return {"track": track, "podium": [RUNNER_NAMES[r] for r in p.podium], "pending": [],
            "out": [RUNNER_NAMES[r] for r in p.out], "tokens": list(p.tokens),
            "players": list(p.clans), "to_move": p.to_move, "roll": None,
            "rerolled": False, "used": [], "params": params}


def faces(letters: str) -> list[str]:
    return [kr.FACES[LETTERS.index(c)] for c in letters]


def kept_faces(label: str) -> list[str]:
    if label == "reroll all":
        return []
    assert label.startswith("keep "), label
    return label.removeprefix("keep ").split(",")


def within(part: list[str], whole: list[str]) -> bool:
    return not Counter(part) - Counter(whole)


def steps_of(label: str) -> tuple[list[str], str | None]:
    """(action steps, podium step or None) of a sequence label."""
    if label == "pass":
        return [], None
    steps = label.split(" > ")
    if steps[-1].startswith("podium ["):
        return steps[:-1], steps[-1]
    return steps, None


def play_steps(pos: dict, label: str) -> dict:
    """The turn ``label`` on the reference, step by step; the position after it."""
    steps, podium = steps_of(label)
    for step in steps:
        legal = dict(kr.legal_actions(pos))
        assert step in legal, f"{step!r} is not a legal action ({len(legal)} are)"
        pos = kr.apply_action(pos, legal[step])
    left = kr.legal_actions(pos)
    assert not left, f"a die still has a use after the turn: {left[0][0]!r}"
    ends = dict(kr.podium_choices(pos))
    assert podium in ends, f"{podium!r} is not a podium choice ({sorted(ends, key=str)})"
    return ends[podium]


def sequence_labels(pos: dict, budget: int) -> set[str] | None:
    """``legal_sequences``' labels (the same search), or None past ``budget`` nodes."""
    out: set[str] = set()
    nodes = 0
    if len(kr.legal_actions(pos)) > ENUMERATE_FIRST:
        return None

    def dfs(steps, p) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return False
        acts = kr.legal_actions(p)
        if not acts or not p["params"]["mandatory_dice"]:
            for plabel, _new in kr.podium_choices(p):
                labs = steps + ([plabel] if plabel else [])
                out.add(" > ".join(labs) if labs else "pass")
        return all(dfs(steps + [lab], kr._apply(p, act)) for lab, act in acts)

    return out if dfs([], pos) else None


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_replays_under_the_reference(path):
    lines = path.read_text().splitlines()
    assert lines[0].startswith("start ") and lines[-1].startswith("result ")
    pos = naive_position(lines[0].removeprefix("start "))
    dice = pos["params"]["dice"]
    enumerated = 0
    for line in lines[1:-1]:
        assert not kr.is_over(pos), f"a turn after the game ended: {line}"
        player, roll, keep, final, label = (part.strip() for part in line.split("|"))
        assert player == f"p{pos['to_move'] + 1}", line
        first, last, kept = faces(roll), faces(final), kept_faces(keep)
        assert len(first) == len(last) == dice, line
        assert list(kept) == sorted(kept, key=kr.FACES.index), line  # face-index order
        assert within(kept, first), f"keeps dice the first roll does not show: {line}"
        assert within(kept, last), f"the final roll lacks a kept die: {line}"
        if len(kept) == dice:
            assert roll == final, line
        pos["roll"], pos["rerolled"] = last, True
        small = sequence_labels(pos, ENUMERATE_BUDGET)
        if small is not None:
            enumerated += 1
            assert label in small, f"not among the reference's {len(small)} labels: {line}"
        try:
            pos = play_steps(pos, label)
        except AssertionError as exc:
            raise AssertionError(f"{line}: {exc}") from None
    assert kr.is_over(pos), "the record ends before the game does"
    assert enumerated > 0  # some turns were checked against the whole enumeration
    words = lines[-1].split()
    assert words[-2] == "winner"
    scores = [int(w.split(":")[1]) for w in words[1:-2]]
    winners = [int(w[1:]) - 1 for w in words[-1].split(",")]
    assert kr.scores(pos) == scores
    assert kr.winners(pos) == winners


def test_every_variant_and_policy_has_a_golden():
    from oddsbot.analyser.kingdom_run import GAME

    names = {p.stem for p in GOLDEN}
    for variant in GAME.variants:
        assert any(n.startswith(variant + "-") and n[len(variant) + 1].isdigit()
                   for n in names), variant
    for policy in GAME.policies:
        assert any(n.endswith("-" + policy) for n in names) or policy == "heuristic", policy
