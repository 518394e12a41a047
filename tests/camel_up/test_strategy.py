"""Camel Up strategy: policies, whole games, hidden-card sampling and rollout equity.

* policies choose legal actions only, the heuristic is a function of what its seat may see;
* rollout equity of a position one reveal from a certain finish matches the exact answer;
* common random numbers make the paired gap's error smaller than independent samples';
* hidden finish cards are sampled over exactly the consistent assignments, uniformly;
* a seed fixes rollouts, whole games and the advise table whatever the thread count;
* the advise rollout columns.
"""

from __future__ import annotations

from itertools import permutations, product

import numba
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oddsbot.analyser.camel_up import face as cu
from oddsbot.analyser.camel_up.advise import legal_codes
from oddsbot.analyser.camel_up.encode import action_label, encode, rules_state
from oddsbot.analyser.camel_up.rollouts import rollout_equity
from oddsbot.analyser.camel_up.variants import variant
from oddsbot.errors import OddsbotError
from oddsbot.kernels import camel_up as K
from oddsbot.kernels.rng import stream
from positions import random_position

GAMES = st.one_of(st.tuples(st.just("camel-up"), st.integers(3, 8)),
                  st.tuples(st.just("camel-up-2014"), st.integers(2, 8)))
POLICY = {name: i for i, name in enumerate(K.POLICY_NAMES)}
DECKS = ((K.WDECK, K.WLEN), (K.LDECK, K.LLEN))
# finish bets considered everywhere, whatever their estimate: the deck-reading branch
EAGER = np.array([0.0, 1.0, -100.0])
# spectator tiles worth a lot, finish bets everywhere: the tile and bet branches
TILES = np.array([0.0, 50.0, -100.0])
PARAMS = (K.HEURISTIC_PARAMS, EAGER, TILES)


def legal(st_: np.ndarray) -> set[int]:
    return {int(a) for a in K.legal_actions(st_)}


def cards(st_: np.ndarray) -> list[tuple[int, int, int]]:
    """(deck offset, owner, colour) of every placed finish card, winner deck first."""
    return [(deck + i, int(st_[deck + i]) // 8, int(st_[deck + i]) % 8)
            for deck, length in DECKS for i in range(int(st_[length]))]


def hide_opponents(st_: np.ndarray) -> np.ndarray:
    """The viewer's (player to move's) view: every opponent's card colour hidden and
    their hand unknown (0), as ``encode`` writes it; the viewer's own cards unchanged."""
    out = st_.copy()
    viewer = int(out[K.TO_MOVE])
    for where, owner, _ in cards(out):
        if owner != viewer:
            out[where] = owner * 8 + K.HIDDEN
            out[K.HAND + owner] = 0
    return out


def colourings(st_: np.ndarray):
    """Every consistent completion of the hidden cards of ``st_`` (each equally likely
    under the uniform model): per owner an ordered choice of the colours not seen on
    their visible cards, in winner-then-loser placement order; the hand is the rest."""
    per_owner = []
    for owner in range(int(st_[K.N_PLAYERS])):
        mine = [(w, c) for w, o, c in cards(st_) if o == owner]
        hidden = [w for w, c in mine if c == K.HIDDEN]
        if not hidden:
            continue
        free = [c for c in range(K.N_RACING) if c not in {c for _, c in mine}]
        per_owner.append([(owner, hidden, choice, set(free) - set(choice))
                          for choice in permutations(free, len(hidden))])
    for combo in product(*per_owner):
        out = st_.copy()
        for owner, hidden, choice, rest in combo:
            for where, colour in zip(hidden, choice):
                out[where] = owner * 8 + colour
            out[K.HAND + owner] = sum(1 << c for c in rest)
        yield out


def win_margin(st_: np.ndarray, viewer: int) -> tuple[float, int]:
    """Win credit (1/k among k richest) and margin over the richest opponent, from the
    definition, on a finished state."""
    money = [int(st_[K.MONEY + p]) for p in range(int(st_[K.N_PLAYERS]))]
    best = max(money)
    win = 1 / money.count(best) if money[viewer] == best else 0.0
    return win, money[viewer] - max(m for p, m in enumerate(money) if p != viewer)


def exact_reveal(pos: cu.Position) -> tuple[float, float]:
    """Exact (win, margin) of the player to move revealing a die, by enumerating every
    hidden-card completion (uniform), die (uniform over the pyramid) and face (uniform);
    every outcome must end the game."""
    st0 = encode(pos)
    viewer = pos.to_move
    dice = [d for d in range(K.N_DICE) if st0[K.PYR + d]]
    win = margin = 0.0
    n = 0
    for filled in colourings(st0):
        n += 1
        for die in dice:
            faces = 6 if die == K.GREY else 3
            for face in range(faces):
                s = filled.copy()
                K.apply_action(s, K.A_PYRAMID, die, face)
                assert s[K.STATUS] == 1, (die, face)
                w, m = win_margin(s, viewer)
                p = 1 / len(dice) / faces
                win += p * w
                margin += p * m
    return win / n, margin / n


# ----------------------------------------------------------------- 1. policies are legal


@settings(max_examples=60)
@given(seed=st.integers(0, 10**6), game=GAMES)
def test_every_policy_chooses_a_legal_action(seed, game):
    variant_id, players = game
    pos = random_position(seed, players, variant_id)
    s = encode(pos)
    allowed = legal(s)
    for i, name in enumerate(K.POLICY_NAMES):  # random, heuristic, greedy, ...
        for params in PARAMS:
            before = s.copy()
            action = K.choose(s, i, params, stream(seed, 1), K.workspace())
            assert int(action) in allowed, (name, params, pos.to_notation(), action)
            assert np.array_equal(s, before), f"{name} changed the state"
    # the random policy follows its stream and still only picks legal actions
    picks = {int(K.choose(s, POLICY["random"], K.HEURISTIC_PARAMS, stream(seed, k),
                          K.workspace())) for k in range(40)}
    assert picks <= allowed
    assert len(picks) > 1 or len(allowed) == 1


@settings(max_examples=25)
@given(seed=st.integers(0, 10**6), game=GAMES, data=st.data())
def test_whole_games_log_only_legal_actions(seed, game, data):
    variant_id, players = game
    pos = random_position(seed, players, variant_id)
    policies = np.array(data.draw(st.lists(st.sampled_from(range(len(K.POLICY_NAMES))),
                                           min_size=players, max_size=players)), np.int64)
    st0 = encode(pos)
    played = st0.copy()
    log = np.full((K.MAX_TURNS, 3), -7, dtype=np.int64)
    turns = K.play_out(played, policies, K.HEURISTIC_PARAMS, stream(seed, 1), stream(seed, 2),
                       K.workspace(), log)
    assert 0 < turns < K.MAX_TURNS
    assert played[K.STATUS] == 1
    assert (log[turns:] == -7).all()
    replay = st0.copy()
    for t, (action, die, face) in enumerate(log[:turns]):
        assert replay[K.STATUS] == 0, t
        assert int(action) in legal(replay), (t, action, pos.to_notation())
        if action == K.A_PYRAMID:
            assert replay[K.PYR + die] == 1, (t, die)
            assert 0 <= face < (6 if die == K.GREY else 3)
        else:
            assert die == -1 and face == -1
        K.apply_action(replay, action, die, face)
    assert np.array_equal(replay, played)
    # the same streams replay the same game
    again = st0.copy()
    assert K.play_out(again, policies, K.HEURISTIC_PARAMS, stream(seed, 1), stream(seed, 2),
                      K.workspace(), np.zeros((0, 3), np.int64)) == turns
    assert np.array_equal(again, played)


@settings(max_examples=40)
@given(seed=st.integers(0, 10**6), game=GAMES)
def test_heuristic_is_a_function_of_the_state(seed, game):
    variant_id, players = game
    s = encode(random_position(seed, players, variant_id))
    other = encode(random_position(seed + 1, players, variant_id))
    h = POLICY["heuristic"]
    first = K.choose(s, h, K.HEURISTIC_PARAMS, stream(seed, 0), K.workspace())
    # another policy stream, a workspace that was used on another state then reset, and
    # the same workspace asked twice in a row all give the same answer
    ws = K.workspace()
    K.choose(other, h, K.HEURISTIC_PARAMS, stream(seed, 9), ws)
    K.forget(ws)
    assert K.choose(s, h, K.HEURISTIC_PARAMS, stream(seed, 5), ws) == first
    assert K.choose(s, h, K.HEURISTIC_PARAMS, stream(seed, 6), ws) == first
    assert K.choose(s.copy(), h, K.HEURISTIC_PARAMS, stream(seed, 7), K.workspace()) == first


@pytest.mark.parametrize("variant_id, players", [("camel-up", 4), ("camel-up", 6),
                                                 ("camel-up-2014", 3)])
def test_heuristic_in_a_played_game_is_a_function_of_the_state(variant_id, players):
    """Every action a deterministic policy took in a played game (one workspace carried
    from turn to turn, as ``play_out`` and ``rollouts`` do) is the action it takes in that
    state with a fresh workspace: the workspace may only cache, never change a choice."""
    mismatches = []
    for seed in range(12):
        st0 = encode(random_position(seed, players, variant_id))
        policies = np.array([POLICY["heuristic"]] * players, np.int64)
        policies[seed % players] = POLICY.get("greedy", POLICY["heuristic"])
        log = np.zeros((K.MAX_TURNS, 3), np.int64)
        played = st0.copy()
        turns = K.play_out(played, policies, K.HEURISTIC_PARAMS, stream(seed, 1),
                           stream(seed, 2), K.workspace(), log)
        replay = st0.copy()
        for t, (action, die, face) in enumerate(log[:turns]):
            seat = int(replay[K.TO_MOVE])
            fresh = K.choose(replay, policies[seat], K.HEURISTIC_PARAMS, stream(0, 0),
                             K.workspace())
            if fresh != action:
                mismatches.append((seed, t, int(action), int(fresh)))
            K.apply_action(replay, action, die, face)
    assert not mismatches, f"{len(mismatches)} choices depend on the workspace: " \
                           f"(seed, turn, played, fresh) {mismatches[:5]}"


def test_heuristic_sees_a_tile_placed_since_its_last_estimate():
    # seat 0 places a booing tile on 3, in front of the stack on 2; the pyramid is the
    # same, so a workspace carried over from seat 0's decision must not be reused as is
    pos = cu.parse("camel-up Y/GBRP/11/K/1/W BGYRPX n=3 to=0")
    s = encode(pos)
    ws = K.workspace()
    K.choose(s, POLICY["heuristic"], K.HEURISTIC_PARAMS, stream(0, 0), ws)
    K.apply_action(s, cu.check_action(pos, "spectator 3 boo"), -1, -1)
    fresh = K.choose(s, POLICY["heuristic"], K.HEURISTIC_PARAMS, stream(0, 0), K.workspace())
    carried = K.choose(s, POLICY["heuristic"], K.HEURISTIC_PARAMS, stream(0, 0), ws)
    assert action_label(pos.rules, int(carried)) == action_label(pos.rules, int(fresh))


def _opponent_cards(s: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``s`` with extra finish cards placed by opponents (at most 5 each, distinct colours),
    appended in a random interleaving to random decks."""
    s = s.copy()
    viewer = int(s[K.TO_MOVE])
    placed = {o: {c for _, ow, c in cards(s) if ow == o} for o in range(int(s[K.N_PLAYERS]))}
    todo = []
    for o, seen in placed.items():
        if o == viewer:
            continue
        free = [c for c in range(K.N_RACING) if c not in seen]
        k = int(rng.integers(0, len(free) + 1))
        todo += [(o, c) for c in rng.permutation(free)[:k]]
    for i in rng.permutation(len(todo)):
        o, c = todo[i]
        deck, length = DECKS[int(rng.integers(2))]
        s[deck + s[length]] = o * 8 + c
        s[length] += 1
        s[K.HAND + o] &= ~(1 << int(c))
    return s


DETERMINISTIC_POLICIES = [n for n in K.POLICY_NAMES if n != "random"]


@settings(max_examples=40)
@given(seed=st.integers(0, 10**6), game=GAMES)
def test_heuristic_never_reads_opponents_hidden_colours(seed, game):
    variant_id, players = game
    rng = np.random.default_rng(seed)
    true_state = _opponent_cards(encode(random_position(seed, players, variant_id)), rng)
    view = hide_opponents(true_state)
    completions = [true_state] + [
        _sampled(view, stream(seed, k)) for k in range(4)]
    for c in completions:  # the viewer's own cards and hand are the same in every copy
        assert c[K.HAND + view[K.TO_MOVE]] == view[K.HAND + view[K.TO_MOVE]]
        mine = [(w, col) for w, o, col in cards(c) if o == view[K.TO_MOVE]]
        assert mine == [(w, col) for w, o, col in cards(view) if o == view[K.TO_MOVE]]
    for name in DETERMINISTIC_POLICIES:
        for params in PARAMS:
            expected = K.choose(view, POLICY[name], params, stream(0, 0), K.workspace())
            for c in completions:
                got = K.choose(c, POLICY[name], params, stream(0, 0), K.workspace())
                assert got == expected, (name, params)


def _sampled(view: np.ndarray, s: np.ndarray) -> np.ndarray:
    out = view.copy()
    K.sample_hidden(out, s, np.empty(5, np.int64))
    return out


@pytest.mark.parametrize("text, expected", [
    ("camel-up W/12/BGYR/P/K BGYRPX n=3 to=0 win=1?,2?,1? lose=2?,0B", "winner purple"),
    ("camel-up-2014 13/BGOY/W/1 BGOYW n=3 to=0 win=1?,2?,1? lose=2?,0B", "winner white"),
])
def test_heuristic_finish_bet_is_the_same_for_every_colouring_of_hidden_cards(text, expected):
    pos = cu.parse(text)
    view = encode(pos)
    h = POLICY["heuristic"]
    n = 0
    for filled in colourings(view):
        action = K.choose(filled, h, K.HEURISTIC_PARAMS, stream(0, 0), K.workspace())
        assert action_label(pos.rules, int(action)) == expected
        n += 1
    assert n == 20 * 20  # seat 1: 2 hidden of 5 colours; seat 2: 2 hidden of 5
    assert action_label(pos.rules, int(K.choose(view, h, K.HEURISTIC_PARAMS, stream(0, 0),
                                                K.workspace()))) == expected


# ------------------------------------------------------ 2. rollouts of decided positions


DETERMINISTIC = [
    # one stack on 16, only dice of that stack inside: any reveal ends the game with
    # P 1st, R 2nd, Y, G, B last. Seat 0: 5 + P5 (+5) + pyramid (+1) = 11, winner P +8 -> 19.
    # Seat 1: 6 + R5 (+1) + pt 1 = 8, loser B +8 -> 16. Seats 2, 3: 0 + pt 1 = 1.
    ("camel-up 4/K/4/W/5/BGYRP BGY n=4 to=0 money=5,6,0,0 bets=P5,R5,, win=0P lose=1B",
     1.0, 3.0),
    # 2014: W 1st, Y 2nd, ..., B last. Seat 0: 3 + W5 + 2 pt = 10, winner W +8 -> 18;
    # seat 1: 3 + Y5 (+1) + 1 pt = 5, wrong winner -1 -> 4; seat 2: 3 + 2 pt = 5, loser B +8 -> 13.
    ("camel-up-2014 15/BGOYW B n=3 to=0 money=3,3,3 bets=W5,Y5, win=0W,1Y lose=2B", 1.0, 5.0),
    # seat 2 to move: 0 + 1 pt + 8 (winner P) = 9; seat 1: 20 + 1 pt - 1 (wrong winner) = 20
    ("camel-up 4/K/4/W/5/BGYRP BGY n=4 to=2 money=0,20,0,0 win=2P,1B", 0.0, -11.0),
]


@pytest.mark.parametrize("text, win, margin", DETERMINISTIC)
@pytest.mark.parametrize("policy", ("random", "heuristic"))
def test_rollout_of_a_decided_reveal_is_exact(text, win, margin, policy):
    pos = cu.parse(text)
    assert exact_reveal(pos) == pytest.approx((win, margin), abs=1e-12)  # hand computation
    eq = rollout_equity(pos, [K.A_PYRAMID, K.A_TICKET + 1], rollouts=96, policy=policy, seed=4)
    assert eq.rollouts == 96
    assert eq.win[0] == win and eq.win_se[0] == 0.0
    assert eq.margin[0] == margin and eq.margin_se[0] == 0.0


# one die of three decides the loser: R or P die -> G last (R,P cross forward); grey die
# -> white carries B backwards over the line, B last. Seat 1's hidden loser card shows a
# uniformly random colour. After the reveal seats 0 and 1 have 11 EP each.
# G last (2/3): seat 1 shows G (1/5): 19 vs viewer 16 -> lose, margin -3;
#               otherwise: viewer 19, seat 1 10 -> win, margin +9.
# B last (1/3): viewer -1 -> 10; seat 1 shows B (1/5): 19 -> lose, margin -9;
#               otherwise 10 each -> tie, win 1/2, margin 0.
CHANCE = "camel-up GWB/6/K/7/YRP RPX n=4 to=0 money=10,10,0,0 lose=1?,0G"
CHANCE_WIN = 2 / 3 * 4 / 5 + 1 / 3 * 4 / 5 * 0.5
CHANCE_MARGIN = 2 / 3 * (-3 / 5 + 9 * 4 / 5) + 1 / 3 * (-9 / 5)


def test_exact_enumeration_of_the_chance_case_matches_the_hand_computation():
    win, margin = exact_reveal(cu.parse(CHANCE))
    assert win == pytest.approx(CHANCE_WIN, abs=1e-12)
    assert margin == pytest.approx(CHANCE_MARGIN, abs=1e-12)


@pytest.mark.parametrize("seed", [0, 1])
def test_rollout_equity_of_a_reveal_within_four_se_of_exact(seed):
    pos = cu.parse(CHANCE)
    eq = rollout_equity(pos, [K.A_PYRAMID, K.A_TICKET], rollouts=3000, policy="heuristic",
                        seed=seed)
    assert eq.rollouts == 3000  # exactly as asked (the last chunk of 16 cut short)
    assert 0 < eq.win_se[0] < 0.02 and 0 < eq.margin_se[0] < 0.3
    assert abs(eq.win[0] - CHANCE_WIN) <= 4 * eq.win_se[0], (eq.win[0], eq.win_se[0])
    assert abs(eq.margin[0] - CHANCE_MARGIN) <= 4 * eq.margin_se[0], (eq.margin[0],
                                                                      eq.margin_se[0])
    # the reveal ends the game, so the policy cannot matter: same hidden cards and dice
    rnd = rollout_equity(pos, [K.A_PYRAMID, K.A_TICKET], rollouts=3000, policy="random",
                         seed=seed)
    assert rnd.win[0] == eq.win[0] and rnd.margin[0] == eq.margin[0]


# ------------------------------------------------------------ 3. common random numbers


def test_common_random_numbers_shrink_the_gap_error():
    # late race, finish decks full of hidden cards, nobody has money: the race decides
    pos = cu.parse("camel-up W/11/BG/Y/RP/K BGYRPX n=3 to=0 money=0,0,0 "
                   "win=1?,2?,0B,1?,2? lose=1?,2?,0P")
    codes = legal_codes(pos)
    eq = rollout_equity(pos, codes, rollouts=400, policy="heuristic", seed=0)
    best = int(np.argmax(eq.win))
    others = np.arange(len(codes)) != best
    independent = np.sqrt(eq.win_se ** 2 + eq.win_se[best] ** 2)[others]
    ratio = eq.gap_se[others] / independent
    assert np.isfinite(ratio).all()
    assert np.median(ratio) < 0.8, np.median(ratio)
    assert (ratio < 1).mean() >= 0.75, ratio


def test_identical_candidates_get_identical_rollouts():
    pos = random_position(17, 5, "camel-up")
    codes = legal_codes(pos)[:4] + [legal_codes(pos)[0]]
    out = K.rollouts(encode(pos), np.array(codes, np.int64), np.ones(5, np.int64),
                     K.HEURISTIC_PARAMS, 8, 0, 4, 16)
    assert np.array_equal(out[:, 0], out[:, -1])
    eq = rollout_equity(pos, [K.A_PYRAMID, K.A_PYRAMID], rollouts=64, policy="random", seed=8)
    assert eq.win[0] == eq.win[1] and eq.margin[0] == eq.margin[1]
    assert (eq.gap_se == 0).all()
    assert eq.p_best.sum() == pytest.approx(1.0)
    assert abs(eq.p_best[0] - 0.5) < 0.05  # exact ties split evenly


# ----------------------------------------------------------------- 4. hidden cards


@st.composite
def decks(draw):
    """A state whose decks hold random cards: owners, hidden or visible, distinct colours
    per owner, random interleaving; hands and unused deck slots hold junk."""
    variant_id, players = draw(GAMES)
    s = rules_state(variant(variant_id), players)
    placed = []
    for owner in range(players):
        colours = draw(st.permutations(range(K.N_RACING)))
        k = draw(st.integers(0, K.N_RACING))
        for c in colours[:k]:
            placed.append((owner, c, draw(st.booleans()), draw(st.integers(0, 1))))
    order = draw(st.permutations(range(len(placed))))
    s[K.WDECK:K.LLEN + 1] = 99  # junk in unused slots
    s[K.WLEN] = s[K.LLEN] = 0
    for i in order:
        owner, c, hidden, which = placed[i]
        deck, length = DECKS[which]
        s[deck + s[length]] = owner * 8 + (K.HIDDEN if hidden else c)
        s[length] += 1
    for p in range(players):
        s[K.HAND + p] = draw(st.integers(0, 31))
    s[K.TO_MOVE] = draw(st.integers(0, players - 1))
    return s


@settings(max_examples=150)
@given(state=decks(), seed=st.integers(0, 2**32))
def test_sample_hidden_respects_every_constraint(state, seed):
    s0 = state
    s = s0.copy()
    K.sample_hidden(s, stream(seed, 0), np.empty(5, np.int64))
    players = int(s0[K.N_PLAYERS])
    owners_hidden = {o for _, o, c in cards(s0) if c == K.HIDDEN}
    changed = set(np.flatnonzero(s != s0))
    allowed = {w for w, _, c in cards(s0) if c == K.HIDDEN} | \
        {K.HAND + o for o in owners_hidden}
    assert changed <= allowed  # visible cards, unused slots, others' hands untouched
    assert [(w, o) for w, o, _ in cards(s)] == [(w, o) for w, o, _ in cards(s0)]
    for w, o, c in cards(s):
        assert 0 <= c < K.N_RACING, (w, o, c)
    for o in range(players):
        mine = [c for _, ow, c in cards(s) if ow == o]
        assert len(set(mine)) == len(mine), (o, mine)
        if o in owners_hidden:
            assert s[K.HAND + o] == sum(1 << c for c in range(K.N_RACING) if c not in mine)
        else:
            assert s[K.HAND + o] == s0[K.HAND + o]


def test_sample_hidden_is_uniform_over_ordered_colour_choices():
    # seat 1: hidden winner card, visible yellow loser card, hidden loser card (in that
    # placement order); seat 2: one hidden card
    s0 = rules_state(variant("camel-up"), 4)
    s0[K.WDECK] = 1 * 8 + K.HIDDEN
    s0[K.WDECK + 1] = 2 * 8 + K.HIDDEN
    s0[K.WLEN] = 2
    s0[K.LDECK] = 1 * 8 + 2
    s0[K.LDECK + 1] = 1 * 8 + K.HIDDEN
    s0[K.LLEN] = 2
    s0[K.HAND + 1] = s0[K.HAND + 2] = 0
    n = 20_000
    rng = stream(2024, 0)
    free = np.empty(5, np.int64)
    pairs = np.zeros((5, 5))
    single = np.zeros(5)
    s = s0.copy()
    for _ in range(n):
        s[:] = s0
        K.sample_hidden(s, rng, free)
        a, b = int(s[K.WDECK]) % 8, int(s[K.LDECK + 1]) % 8
        pairs[a, b] += 1
        single[int(s[K.WDECK + 1]) % 8] += 1
        assert s[K.HAND + 1] == 31 & ~(1 << a) & ~(1 << b) & ~(1 << 2)
        assert s[K.HAND + 2] == 31 & ~(1 << int(s[K.WDECK + 1]) % 8)
    allowed = [(a, b) for a in (0, 1, 3, 4) for b in (0, 1, 3, 4) if a != b]
    assert pairs.sum() == sum(pairs[a, b] for a, b in allowed) == n
    se = np.sqrt(1 / 12 * 11 / 12 / n)
    for a, b in allowed:
        assert abs(pairs[a, b] / n - 1 / 12) <= 4 * se, (a, b, pairs[a, b])
    se5 = np.sqrt(0.2 * 0.8 / n)
    assert np.all(np.abs(single / n - 0.2) <= 4 * se5), single


# ----------------------------------------------------------------- 5. reproducibility


def _each_thread_count(fn):
    before = numba.get_num_threads()
    try:
        results = []
        for threads in (1, before):
            numba.set_num_threads(threads)
            results.append(fn())
    finally:
        numba.set_num_threads(before)
    return results


def test_rollouts_and_games_do_not_depend_on_threads():
    pos = cu.parse("camel-up BG/Y/RP/10/K/1/W BGYRPX n=4 to=0 win=1?,2? lose=3?")
    s = encode(pos)
    acts = K.legal_actions(s)[:6]
    mixed = np.array([1, 0, 1, 0], np.int64)

    def run():
        return (K.rollouts(s, acts, mixed, K.HEURISTIC_PARAMS, 77, 0, 6, 8),
                K.simulate_games(s, mixed, K.HEURISTIC_PARAMS, 77, 0, 6, 8))

    (r1, g1), (r2, g2) = _each_thread_count(run)
    assert r1.shape == (48, 6, 2) and g1.shape == (48, K.MAX_PLAYERS + 1)
    assert np.array_equal(r1, r2) and np.array_equal(g1, g2)
    assert len(np.unique(g1[:, K.MAX_PLAYERS])) > 1  # games really differ
    # chunks are independent of how the run is cut
    r3 = np.concatenate([K.rollouts(s, acts, mixed, K.HEURISTIC_PARAMS, 77, 0, 2, 8),
                         K.rollouts(s, acts, mixed, K.HEURISTIC_PARAMS, 77, 2, 4, 8)])
    g3 = np.concatenate([K.simulate_games(s, mixed, K.HEURISTIC_PARAMS, 77, 0, 5, 8),
                         K.simulate_games(s, mixed, K.HEURISTIC_PARAMS, 77, 5, 1, 8)])
    assert np.array_equal(r1, r3) and np.array_equal(g1, g3)
    other = K.rollouts(s, acts, mixed, K.HEURISTIC_PARAMS, 78, 0, 6, 8)
    assert not np.array_equal(r1, other)


def test_advise_with_rollouts_is_reproducible():
    pos = cu.parse("camel-up BG/Y/RP/10/K/1/W BGYRPX n=4 to=1 win=0?,2? lose=3?")
    a, b = _each_thread_count(lambda: cu.advise(pos, samples=4096, seed=9, rollouts=64).frame())
    pd.testing.assert_frame_equal(a, b)
    c = cu.advise(pos, samples=4096, seed=9, rollouts=64).frame()
    pd.testing.assert_frame_equal(a, c)
    assert a.attrs["provenance"] == c.attrs["provenance"]
    d = cu.advise(pos, samples=4096, seed=10, rollouts=64).frame()
    assert not np.array_equal(a.set_index("action")["win_p"].sort_index().to_numpy(),
                              d.set_index("action")["win_p"].sort_index().to_numpy())


# ----------------------------------------------------------------- 6. advise columns


MID_GAME = "camel-up BG/Y/RP/10/K/1/W BGYRPX n=4 to=0 money=3,5,2,4 win=1?"
NEAR_END = "camel-up GWB/6/K/7/YRP RPX n=4 to=0 money=10,10,0,0 lose=1?,0G bets=,R5,,"


@pytest.mark.parametrize("policy, text", [
    *[(p, MID_GAME) for p in ("random", "heuristic")],
    *[(p, NEAR_END) for p in ("random", "heuristic")],
])
def test_advise_rollout_columns(policy, text):
    pos = cu.parse(text)
    df = cu.advise(pos, samples=4096, seed=3, rollouts=64, policy=policy).frame()
    for col in ("win_p", "win_se", "margin", "margin_se", "gap_se", "p_best"):
        assert col in df.columns, col
        assert df[col].notna().all(), col
    assert sorted(df["action"]) == sorted(cu.legal_actions(pos))
    assert list(df["win_p"]) == sorted(df["win_p"], reverse=True)
    assert ((df["win_p"] >= 0) & (df["win_p"] <= 1)).all()
    assert (df["win_se"] >= 0).all() and (df["margin_se"] >= 0).all()
    assert (df["win_se"] > 0).any()
    assert df["gap_se"].iloc[0] == 0
    assert (df["gap_se"].iloc[1:] >= 0).all()
    assert df["p_best"].sum() == pytest.approx(1.0, abs=1e-9)
    assert ((df["p_best"] >= 0) & (df["p_best"] <= 1)).all()
    prov = df.attrs["provenance"]
    assert prov["rollouts"] == 64 and prov["policy"] == policy
    # the table agrees with rollout_equity run directly on the same seed
    codes = legal_codes(pos)
    eq = rollout_equity(pos, codes, rollouts=64, policy=policy, seed=3)
    direct = dict(zip([action_label(pos.rules, c) for c in codes], eq.win))
    assert dict(zip(df["action"], df["win_p"])) == direct


def test_advise_rollout_options_are_checked():
    pos = cu.parse("camel-up BG/Y/RP/10/K/1/W BGYRPX n=4 to=0")
    with pytest.raises(OddsbotError, match="policy"):
        cu.advise(pos, samples=4096, rollouts=64, policy="nonsense")
    with pytest.raises(OddsbotError, match="rollouts"):
        cu.advise(pos, samples=4096, rollouts=1)
    with pytest.raises(OddsbotError, match="policy"):
        rollout_equity(pos, [K.A_PYRAMID], rollouts=16, policy="nobody")
    with pytest.raises(OddsbotError, match="rollouts"):
        rollout_equity(pos, [K.A_PYRAMID], rollouts=0, policy="random")


def test_greedy_cannot_drive_rollouts():
    with pytest.raises(OddsbotError, match="tournaments"):
        cu.advise(cu.parse(NEAR_END), samples=4096, rollouts=64, policy="greedy")
