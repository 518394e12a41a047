"""The kernel against the naive reference (``naive_mumia``, written from the rules) on
positions met in random games under every combination of expansions: the legal choices
of every roll, the position after every choice, scores and winners, the greedy and
heuristic policies' choices, and exact values of small endgames (to 1e-12)."""

from __future__ import annotations

import itertools
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oddsbot.analyser.mumia.advise import exact_values, outcomes
from oddsbot.analyser.mumia.encode import decode, encode
from oddsbot.analyser.mumia.labels import SYMBOLS
from oddsbot.analyser.mumia.odds import odds
from oddsbot.analyser.mumia.position import EXPANSIONS, Position
from oddsbot.analyser.mumia.rules import Rules, rules_vector
from oddsbot.analyser.mumia.turns import choices, take
from oddsbot.kernels.mumia import choices as C
from oddsbot.kernels.mumia import layout as L
from oddsbot.kernels.mumia.setup import new_game
from oddsbot.kernels.rng import stream

from . import naive_mumia as ref

COMBOS = [tuple(c) for k in range(5) for c in itertools.combinations(EXPANSIONS, k)]
RULE_SETS = [{}, {"sudden_end": "true"}, {"tokens_per_pass": "one", "tiebreak": "fewer_camels"},
             {"sudden_end": "true", "sudden_end_pair_alone": "true", "camels_flip_risk": "true",
              "tokens_on_start_finish": "true", "picture_faces": "3/1/2"},
             {"hat_values": "7,-4", "unused_token_value": "2", "first_layout": "random"}]


def plain(pos: Position | dict) -> dict:
    """A position's JSON, in a form both implementations share."""
    obj = pos.to_json() if isinstance(pos, Position) else dict(pos)
    obj.pop("over", None)
    obj["track"] = [{k: v for k, v in f.items() if v not in ([], 0, False)}
                    for f in obj["track"]]
    obj["mummy_taken"] = [sorted(t) for t in obj["mummy_taken"]]
    obj.setdefault("rules", {})
    if "action_tokens" in obj:
        tokens = obj["action_tokens"]
        obj["action_tokens"] = {"hands": [sorted(h) for h in tokens["hands"]],
                                "pile": list(tokens["pile"])}
    return obj


def symbol_of(sym: int) -> str | None:
    return None if sym == L.SYM_NONE else SYMBOLS[sym]


def game_states(players: int, expansions: tuple[str, ...], seed: int, rules: dict,
                steps: int, policy: str = "random"):
    """(S, R, Position with every token shown) at every turn start of a game played
    ``steps`` turns by ``policy`` from a new set-up: the kernel's own choices and dice."""
    chosen = Rules().with_(rules)
    R = rules_vector(chosen, players, frozenset(expansions))
    S = new_game(R, stream(np.uint64(seed), 0))
    rng = np.random.default_rng(seed)
    taken = [[] for _ in range(players)]
    out = []
    for _ in range(steps):
        if S[L.S_OVER]:
            break
        out.append((S.copy(), decode(S, R, chosen, expansions,
                                     taken_by=tuple(tuple(t) for t in taken))))
        while True:  # one turn: random choices, tokens included
            n = int(rng.integers(1, 7))
            sym = L.SYM_NONE if S[L.S_MUMMY] < 0 else int(rng.integers(0, 3))
            if sym != L.SYM_NONE and chosen.picture_faces[sym] == 0:
                sym = 0
            rows, labels = choices(S, R, n, sym)
            step = take(S, R, rows[int(rng.integers(len(rows)))], n)
            taken[out[-1][1].to_move].extend(step.mummy)
            if not (step.extra or step.same_roll):
                break
    return out, R, chosen


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(players=st.integers(2, 6), combo=st.sampled_from(COMBOS), seed=st.integers(0, 2**32),
       rules=st.sampled_from(RULE_SETS))
def test_choices_and_moves_match_the_reference(players, combo, seed, rules):
    """At sampled turn starts of a random game: every roll's move labels, and the
    position after each of them (the turn passed), equal the reference's."""
    states, R, chosen = game_states(players, combo, seed, rules, 400)
    picks = np.random.default_rng(seed + 1).choice(len(states), min(4, len(states)),
                                                   replace=False)
    for i in picks:
        S, pos = states[i]
        mine = plain(pos)
        assert ref.scores(mine) == [L.score(S, R, p) for p in range(players)]
        enc = encode(pos)
        assert np.array_equal(enc.S, S) or plain(decode(enc.S, R, chosen, combo,
                                                        taken_by=pos.mummy_taken)) == mine
        for n, sym, _ in outcomes(enc):
            rows, labels = choices(S, R, n, sym, tokens=False)
            plain_labels = [lab for lab, r in zip(labels, rows) if not r[5]]
            assert plain_labels == ref.legal(mine, n, symbol_of(sym))
            for row, lab in zip(rows, labels):
                after = S.copy()
                taken = [list(t) for t in pos.mummy_taken]
                step = take(after, R, row, n)
                taken[pos.to_move].extend(step.mummy)
                got = plain(decode(after, R, chosen, combo, taken_by=tuple(map(tuple, taken))))
                want, _ = ref.move_ex(mine, n, symbol_of(sym), lab)
                if not step.extra:
                    want = ref.end_turn(want)
                assert got == plain(want), lab
                assert bool(after[L.S_OVER]) == bool(want.get("over", False)), lab


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(players=st.integers(2, 6), combo=st.sampled_from(COMBOS), seed=st.integers(0, 2**32))
def test_token_choices_match_the_reference(players, combo, seed):
    """Swap and Bottom before the move: the labels and the position after each."""
    if "e4" not in combo:
        combo = (*combo, "e4")
    states, R, chosen = game_states(players, tuple(sorted(combo)), seed, {}, 400)
    for S, pos in states[::7]:
        mine = plain(pos)
        sym = L.SYM_P if S[L.S_MUMMY] >= 0 else L.SYM_NONE
        rows, labels = choices(S, R, 1, sym)
        tokens = [(r, lab) for r, lab in zip(rows, labels) if r[0] in (C.C_SWAP, C.C_BOTTOM)]
        assert [lab for _, lab in tokens] == ref.token_labels(mine, n=1, symbol=symbol_of(sym))
        for row, lab in tokens:
            after = S.copy()
            take(after, R, row, 1)
            got = plain(decode(after, R, chosen, pos.expansions, taken_by=pos.mummy_taken))
            assert got == plain(ref.use_token(mine, lab, n=1, symbol=symbol_of(sym))), lab


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(players=st.integers(2, 6), combo=st.sampled_from(COMBOS), seed=st.integers(0, 2**32),
       policy=st.sampled_from(["greedy", "heuristic"]))
def test_policies_match_the_reference(players, combo, seed, policy):
    """The greedy and heuristic choice (and Extra move) of every roll."""
    states, R, _ = game_states(players, combo, seed, {}, 400)
    work = np.empty(L.S_SIZE, dtype=np.int64)
    dummy = np.ones(4, dtype=np.uint64)
    for S, pos in states[::5]:
        mine = plain(pos)
        for n, sym, _ in outcomes(encode(pos)):
            rows = np.empty((C.MAX_CHOICES, C.N_COLS), dtype=np.int64)
            m = C.move_choices(S, R, n, sym, rows, False)
            i = C.choose(S, R, n, rows, m, C.POLICY_NAMES.index(policy), dummy, work)
            after = S.copy()
            C.apply_choice(after, R, rows[i], n)
            label = choices(S, R, n, sym, tokens=False)[1][i]
            if C.wants_extra(after, R, C.POLICY_NAMES.index(policy)):
                label += " + token extra"
            assert label == ref.choose(mine, n, symbol_of(sym), policy)


def _endgame(players, seed, rules) -> tuple[np.ndarray, np.ndarray, Position] | None:
    """A late turn start of a random game without expansion 4 (small enough for both)."""
    states, R, _ = game_states(players, (), seed, rules, 1000, policy="random")
    for S, pos in reversed(states[-12:]):
        pawns_left = sum(1 for f in pos.track[:-1] for _ in f.pawns)
        if pawns_left <= 2 and not any(f.mummy for f in pos.track):
            return S, R, pos
    return None


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(players=st.integers(2, 3), seed=st.integers(0, 2**32),
       rules=st.sampled_from([{}, {"sudden_end": "true"}, {"tiebreak": "fewer_camels"}]))
def test_exact_values_match_the_reference(players, seed, rules):
    """Expectimax values (the mover at its best, the others greedy) and the all-policy
    odds of small endgames equal the reference's Fractions to 1e-12."""
    found = _endgame(players, seed, rules)
    if found is None:
        return
    S, R, pos = found
    enc = encode(pos)
    mine = plain(pos)
    ev, win = ref.exact(mine, others="greedy")
    p = pos.to_move
    values, _ = exact_values(enc, outcomes(enc), C.POLICY_NAMES.index("greedy"))
    assert values is not None
    value = sum(rv.weight * float(rv.ev.max()) for rv in values if len(rv.labels))
    chance = sum(rv.weight * float(rv.win[int(np.argmax(rv.ev))]) for rv in values
                 if len(rv.labels))
    assert value + L.score(S, R, p) == pytest.approx(float(ev[p]), abs=1e-12)
    assert chance == pytest.approx(float(win[p]), abs=1e-12)
    assert odds(pos)["provenance"]["method"] == "exact"


def test_every_combination_sets_up_legally():
    """New games of every combination of expansions and player count validate, and
    the tiles, guardians and hats are as §2, §8–§11 say."""
    from oddsbot.analyser.mumia.simulate import new_position
    from oddsbot.analyser.mumia.validate import validate
    for players in range(2, 7):
        for combo in COMBOS:
            pos = new_position(players, players * 31 + len(combo), "mumia", ",".join(combo)
                               or "none")
            validate(pos)
            tiles = [f.tile for f in pos.track[1:-1]]
            assert len(tiles) == 32
            camels = tiles.count("camel")
            assert sum(f.guardians for f in pos.track) == camels + 2
            if "e1" in combo:
                assert [i for i, t in enumerate(tiles, 1) if t == "exchange"] == [10, 15, 20, 25]
            if "e3" in combo:
                assert sorted(t for t in tiles if t.startswith("risk")) == sorted(
                    ["risk3", "risk4", "risk4", "risk5", "risk5", "risk6", "risk6", "risk7"])
            assert (pos.luck is not None) == ("e2" in combo)
            if "e2" in combo:
                assert pos.luck.seat != pos.bad.seat


def test_hidden_tokens_are_dealt_by_the_model():
    """§15: the tokens the mover cannot see are a uniformly random arrangement of the
    mix less what it sees: each unseen place holds each kind with probability (unseen of
    that kind) / (unseen tokens), within 5 SE over 20,000 deals."""
    from oddsbot.analyser.mumia.face import parse
    from oddsbot.kernels.mumia.rollouts import deal_hidden
    from oddsbot.kernels.rng import stream as rng_stream
    pos = parse("mumia 3p A e4 | S:AAABBBCCCM -1 -2 -3 c:g +8:g -4 F | A:- B:- C:- | "
                "mummy 4,3,2,1 taken - | tokens A:swap B:? C:?,? pile ?,?,?,?,?,push")
    enc = encode(pos)
    assert list(enc.pool) == [3, 2, 1, 2] and list(enc.unseen) == [0, 1, 2]
    deals = 20_000
    b_kind = np.zeros(4)
    top = np.zeros(4)
    for d in range(deals):
        S = enc.S.copy()
        deal_hidden(S, enc.pool, enc.unseen, rng_stream(np.uint64(7), d))
        hand_b = S[L.S_HAND + 4:L.S_HAND + 8]
        assert hand_b.sum() == 1 and S[L.S_HAND + 8:L.S_HAND + 12].sum() == 2
        assert S[L.S_PILE + 5] == L.PUSH  # the seen token stays where it is
        b_kind += hand_b
        top[S[L.S_PILE]] += 1
    expected = enc.pool / enc.pool.sum()
    for counts in (b_kind, top):
        se = np.sqrt(expected * (1 - expected) / deals)
        assert np.all(np.abs(counts / deals - expected) <= 5 * se), counts / deals
