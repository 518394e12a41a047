"""Whole turns with E4's action tokens and E2's hats (docs/games/mumia.md §9, §11, §14,
§16.1): the five kinds of wrong choices once offered (a Swap leaving no move, a Swap of
the pawn moved this turn, an Extra move after the last pawn comes home, a Push that
pushes nothing, hats the position could not hold), ``pass``, every step of random games
against the naive reference, and generated records replayed."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oddsbot.analyser.mumia.encode import decode, encode
from oddsbot.analyser.mumia.face import parse, with_rules
from oddsbot.analyser.mumia.labels import read_roll, roll_text
from oddsbot.analyser.mumia.position import EXPANSIONS, Position
from oddsbot.analyser.mumia.record import load_record
from oddsbot.analyser.mumia.rules import Rules, rules_vector
from oddsbot.analyser.mumia.simulate import play, result_line, final
from oddsbot.analyser.mumia.turns import choices, take
from oddsbot.analyser.mumia.validate import validate
from oddsbot.analyser.records_common import RecordError
from oddsbot.kernels.mumia import choices as C
from oddsbot.kernels.mumia import layout as L
from oddsbot.kernels.mumia.setup import new_game
from oddsbot.kernels.rng import stream

from . import naive_mumia as ref
from .test_kernel import plain, symbol_of

COMBOS = [tuple(c) for k in range(5) for c in itertools.combinations(EXPANSIONS, k)]
DATA = Path(__file__).parent / "data"
PILE9 = "swap,swap,push,push,bottom,bottom,extra,extra,extra"


class Table:
    """A position being played through the analyser, one step at a time."""

    def __init__(self, text: str, **rules: str) -> None:
        pos = parse(text)
        self.pos = with_rules(pos, rules) if rules else pos
        validate(self.pos)
        enc = encode(self.pos)
        self.S, self.R = enc.S.copy(), enc.R
        self.roll = (0, L.SYM_NONE)

    def labels(self, roll: str | None = None) -> list[str]:
        if roll is not None:
            self.roll = read_roll(roll, bool(self.S[L.S_MUMMY] >= 0))
        return choices(self.S, self.R, *self.roll)[1]

    def take(self, label: str, roll: str | None = None):
        labels = self.labels(roll)
        rows = choices(self.S, self.R, *self.roll)[0]
        assert label in labels, labels
        return take(self.S, self.R, rows[labels.index(label)], self.roll[0])

    def position(self) -> Position:
        return decode(self.S, self.R, self.pos.rules, self.pos.expansions)


# ---------------------------------------------------------------- the five found cases

def test_a_swap_that_leaves_no_move_is_not_offered():
    """Found 1: A's only pawn off FINISH stands on field 2 beside C's pawn on 1. With P
    no guardian or mummy can move, so swapping that pawn away (it may then not move,
    §11.4) would leave no move: not offered. With PM the mummy can still move."""
    t = Table("mumia 5p A e4 | S:BBCDDEEM -1:C -2:A -3 -4 F:A | A:- B:- C:- D:- E:- | "
              f"mummy 4,3,2,1 taken - | tokens A:swap B:- C:- D:- E:- pile {PILE9}")
    assert t.labels("3,P") == ["pawn 1"]
    assert t.labels("3,PM") == ["pawn 1", "mummy", "token swap 2 1 C"]


def test_the_pawn_moved_this_turn_is_not_swapped():
    """Found 2: after `pawn 1 + token extra` the pawn that moved stands between B's
    pawns; the Extra move's choices hold no Swap of it. The next turn they do."""
    text = ("mumia 2p A e4 | S:AM -1:A -2:B -3 -4:B F:AB | A:- B:- | mummy 4,3,2,1 taken - "
            "| tokens A:swap,extra B:- pile swap,swap,push,push,bottom,bottom,extra,extra")
    t = Table(text)
    assert "pawn 2 + token extra" in t.labels("2,P")
    step = t.take("pawn 2 + token extra")  # to the -3, the -1 taken: the track closes up
    assert step.extra
    assert not [x for x in t.labels("1,P") if x.startswith("token swap")]
    pos = t.position()
    assert pos.track[2].pawns == (0,) and pos.track[1].pawns == (1,) == pos.track[3].pawns
    fresh = Table(pos.with_(to_move=0).to_notation())
    assert [x for x in fresh.labels("1,P") if x.startswith("token swap")] == [
        "token swap 2 1 B", "token swap 2 3 B"]


def test_no_extra_move_once_the_last_pawn_is_home():
    """Found 3: `+ token extra` is not offered on the move that brings the mover's last
    pawn home (it takes no more turns, §3), nor on a move that ends the game."""
    t = Table("mumia 3p A e4 | S:BBCCM -1 -2:A -3 F:AABC | A:- B:- C:- | mummy 4,3,2,1 "
              "taken - | tokens A:extra B:- C:- pile swap,swap,swap,push,push,bottom,bottom,"
              "extra,extra")
    assert t.labels("2,PM") == ["pawn 1", "mummy", "mummy + token extra"]
    last = Table("mumia 2p A e4 | S:M -1 -2:A -3 F:AABBB | A:- B:- | mummy 4,3,2,1 taken - "
                 f"| tokens A:extra B:- pile {PILE9.replace('extra,extra,extra', 'extra,extra')}"
                 ",swap")
    assert last.labels("2,PM") == ["pawn 1", "mummy", "mummy + token extra"]
    step = last.take("pawn 1")
    assert last.S[L.S_OVER] and not step.extra


def test_a_push_must_push_something():
    """Found 4: with `tokens_on_start_finish`, a Push on FINISH where only other seats'
    finished pawns stand is not offered; with the mummy there it is (§11.5)."""
    base = ("mumia 2p A e4 | S:B -1:A -2:AB -3:M F:AB | A:- B:- | mummy 4,3,2,1 taken - | "
            "tokens A:push B:- pile swap,swap,swap,push,bottom,bottom,extra,extra,extra")
    t = Table(base, tokens_on_start_finish="true")
    assert [x for x in t.labels("1,P") if "push" in x] == ["token push 2"]
    with_mummy = base.replace("-3:M F:AB", "-3 F:ABM")
    t = Table(with_mummy, tokens_on_start_finish="true")
    assert [x for x in t.labels("1,P") if "push" in x] == ["token push 2", "token push 4"]


def test_hats_on_two_pawns_of_one_field_round_trip():
    """Found 5: B's two pawns on the +3 wear one hat each (`split`, §14.1). The notation
    and the JSON keep it; it changes A's choices (taking either hat; one pawn wearing
    both gives one `take` per hat and `swap hats` taking both)."""
    split = ("mumia 2p A e2 | S:AM -1:AA -2 +3:BB -4 F:B | A:- B:- | mummy 4,3,2,1 taken - "
             "| hats luck B@3 bad B@3 split")
    t = Table(split)
    pos = t.position()
    assert pos.hats_split and pos.to_notation() == split
    assert Position.from_json(pos.to_json()) == pos
    assert pos.to_json()["hats"] == {"luck": {"seat": 1, "field": 3},
                                     "bad": {"seat": 1, "field": 3}, "split": True}
    assert t.labels("2,P") == ["pawn 1", "pawn 2", "pawn 2, take luck from B",
                               "pawn 2, take bad from B"]
    one = Table(split.removesuffix(" split"))
    assert one.labels("2,P") == ["pawn 1", "pawn 2", "pawn 2, take luck from B",
                                 "pawn 2, take bad from B", "pawn 2, swap hats with B"]


@pytest.mark.parametrize("bad", [
    "hats luck B@3 bad A@1 split",  # not one seat's field
    "hats luck B@5 bad B@5 split",  # B has one pawn there
])
def test_split_hats_are_refused_where_they_cannot_be(bad):
    from oddsbot.errors import OddsbotError
    text = ("mumia 2p A e2 | S:AM -1:AA -2 +3:BB -4 F:B | A:- B:- | mummy 4,3,2,1 taken - "
            f"| {bad}")
    with pytest.raises(OddsbotError, match="hats"):
        validate(parse(text))


# ---------------------------------------------------------------- pass

PASS_START = ("mumia 5p A e4 | S:BBCDDEEM -1:C -2:A -3 -4 F:A | A:- B:- C:- D:- E:- | "
              "mummy 4,3,2,1 taken - | tokens A:swap,extra B:- C:- D:- E:- pile "
              "swap,swap,push,push,bottom,bottom,extra,extra")


def test_pass_when_the_extra_move_finds_only_a_swapped_pawn():
    """§11.7: A swaps its only pawn off FINISH, moves the mummy with an Extra move, and
    rolls P: nothing may move, the only choice is `pass`, which ends the turn."""
    t = Table(PASS_START)
    assert t.take("token swap 2 1 C", "3,PM").same_roll
    assert "pawn 1" not in t.labels()  # swapped: not moved this turn
    assert t.take("mummy + token extra").extra
    assert t.labels("4,P") == ["pass"]
    step = t.take("pass")
    assert not step.extra and not step.same_roll and t.S[L.S_TO_MOVE] == 1


def test_a_record_with_pass_replays():
    record = "\n".join([f"start {PASS_START}", "A 3,PM token swap 2 1 C",
                        "A 3,PM mummy + token extra", "A 4,P pass", "B 2,P pawn 1"])
    _, steps = load_record(record)
    assert [turn.line.label for _, turn in steps][2] == "pass"
    assert steps.to_move == 2 and not steps.over
    with pytest.raises(RecordError, match="'pass' is not a legal choice"):
        load_record(record.replace("A 4,P pass", "A 4,PM pass"))


# ---------------------------------------------------------------- the found records

def complete(text: str, seed: int) -> str:
    """``text`` cut where ``replay`` refuses it, then played on to the end by uniformly
    random legal choices (seed ``seed``), with its result line."""
    from oddsbot.kernels.mumia.game import roll as kernel_roll
    lines = text.splitlines()
    cut = len(lines)
    while True:
        try:
            load_record("\n".join(lines[:cut]))
            break
        except RecordError:
            cut -= 1
    kept = lines[:cut]
    enc = encode(parse(kept[0].removeprefix("start ")))
    S, R = enc.S.copy(), enc.R
    goes_on = None
    for line in kept[1:]:
        _, roll, label = line.split(" ", 2)
        n, sym = read_roll(roll, bool(S[L.S_MUMMY] >= 0))
        rows, labels = choices(S, R, n, sym)
        goes_on = (n, sym) if take(S, R, rows[labels.index(label)], n).same_roll else None
    rng = np.random.default_rng(seed)
    dice = stream(np.uint64(seed), 1)
    while not S[L.S_OVER]:
        n, sym = goes_on if goes_on else kernel_roll(S, R, dice)
        rows, labels = choices(S, R, n, sym)
        i = int(rng.integers(len(rows)))
        kept.append(f"{'ABCDEF'[S[L.S_TO_MOVE]]} {roll_text(n, sym)} {labels[i]}")
        goes_on = (n, sym) if take(S, R, rows[i], n).same_roll else None
    kept.append(result_line(*final(S, R)))
    return "\n".join(kept)


@pytest.mark.parametrize("name, refused", [
    ("demo-swap-leaves-no-move", "line 77: 'token swap 4 3 C' is not a legal choice of A "
                                 "for roll 3 (legal: pawn 1)"),
    ("demo-extra-after-home", "line 100: 'pawn 1 + token extra' is not a legal choice of D "
                              "for roll 2 (legal: pawn 1)")])
def test_the_found_records_are_refused_where_wrong_and_replay_completed(name, refused):
    """The records once written by `new --play` (cut where `replay` used to refuse them)
    are refused at the choice that should never have been offered; completed from there
    by legal choices, they replay to the end."""
    text = (DATA / f"{name}.record").read_text()
    with pytest.raises(RecordError) as err:
        load_record(text)
    assert str(err.value) == refused
    for seed in range(3):
        _, steps = load_record(complete(text, seed))
        assert steps.over


# ---------------------------------------------------------------- whole games

def walk(players: int, combo: tuple[str, ...], seed: int, rules: dict, steps: int):
    """Random steps of a new game, every choice (tokens included) uniformly: yields
    (S, R, chosen rules, n, sym, rows, labels, i) before each step is taken."""
    chosen = Rules().with_(rules)
    R = rules_vector(chosen, players, frozenset(combo))
    S = new_game(R, stream(np.uint64(seed), 0))
    rng = np.random.default_rng(seed)
    goes_on = None
    for _ in range(steps):
        if S[L.S_OVER]:
            return
        if goes_on is None:
            n = int(rng.integers(1, 7))
            sym = L.SYM_NONE if S[L.S_MUMMY] < 0 else int(rng.integers(0, 3))
        else:
            n, sym = goes_on
        rows, labels = choices(S, R, n, sym)
        i = int(rng.integers(len(rows)))
        yield S, R, chosen, n, sym, rows, labels, i
        step = take(S, R, rows[i], n)
        goes_on = (n, sym) if step.same_roll else None


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(players=st.integers(2, 6), combo=st.sampled_from(COMBOS),
       seed=st.integers(0, 2**32), tsf=st.booleans())
def test_every_step_matches_the_reference(players, combo, seed, tsf):
    """Every step of a random game, mid-turn included (after Swaps, Bottoms and Extra
    moves), lists the reference's choices, and every step leads to its position."""
    combo = tuple(sorted({*combo, "e4"})) if seed % 3 else combo
    rules = {"tokens_on_start_finish": "true"} if tsf else {}
    taken = [[] for _ in range(players)]
    mine, turn = None, ref.new_turn()
    for S, R, chosen, n, sym, rows, labels, i in walk(players, combo, seed, rules, 250):
        if mine is None:
            mine = plain(decode(S, R, chosen, combo, taken_by=((),) * players))
        assert labels == ref.choices(mine, n, symbol_of(sym), turn)
        mover = int(S[L.S_TO_MOVE])
        after = S.copy()
        step = take(after, R, rows[i], n)
        taken[mover].extend(step.mummy)
        mine, turn, goes_on = ref.step(mine, n, symbol_of(sym), labels[i], turn)
        assert goes_on == (step.extra or step.same_roll), labels[i]
        got = plain(decode(after, R, chosen, combo, taken_by=tuple(map(tuple, taken))))
        assert got == plain(mine), labels[i]


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(players=st.integers(2, 6), combo=st.sampled_from([c for c in COMBOS if "e4" in c]),
       seed=st.integers(0, 2**32), tsf=st.booleans())
def test_every_choice_leaves_a_decision(players, combo, seed, tsf):
    """§3, §11.7: after every listed choice of a random E4 game the game is over, or the
    seat to move has a pawn off FINISH; a Swap leaves a move of the same roll; and
    `pass` is the only move choice, and only after a Swap in this turn."""
    rules = {"tokens_on_start_finish": "true"} if tsf else {}
    for S, R, _, n, sym, rows, labels, _ in walk(players, combo, seed, rules, 400):
        if "pass" in labels:  # a Bottom may still be used beside it
            assert labels.count("pass") == 1 and S[L.S_SWAPPED] != 0
            assert not [x for x in labels if x.startswith(("pawn", "guardian", "mummy"))]
        for row in rows:
            after = S.copy()
            take(after, R, row, n)
            if after[L.S_OVER]:
                continue
            assert not L.home(after, R, int(after[L.S_TO_MOVE]))
            if row[0] == C.C_SWAP:
                assert choices(after, R, n, sym, tokens=False)[1] != ["pass"]


def test_random_play_uses_every_token_and_every_record_replays():
    """The `random` policy with E4 chooses Swaps, Bottoms, Pushes and Extra moves
    (§16.4); every combination of expansions, 2-6 players and every policy give records
    that `replay` accepts."""
    used = dict.fromkeys(("token swap", "token bottom", "token push", "+ token extra"), 0)
    for k, combo in enumerate(COMBOS):
        for policy in ("random", "greedy", "heuristic"):
            players = 2 + (k + len(policy)) % 5
            text = play(players, 1000 + k, "mumia", policy, ",".join(combo) or "none")
            _, steps = load_record(text)
            assert steps.over
            if policy == "random":
                for word in used:
                    used[word] += text.count(word)
    assert all(used.values()), used


def test_positions_of_random_e2_games_round_trip():
    """§14: every turn start of random E2 games (hats moving about, sometimes two on one
    seat's field) reads back from its notation and its JSON to the same choices."""
    seen_split = 0
    for seed in range(12):
        combo = ("e2", "e4") if seed % 2 else ("e2",)
        for S, R, chosen, n, sym, _, labels, _ in walk(2 + seed % 5, combo, seed, {}, 300):
            if S[L.S_SWAPPED] or S[L.S_MOVED] or any(S[L.S_FRESH:L.S_FRESH + 4]):
                continue  # mid-turn: not a position (§14)
            pos = decode(S, R, chosen, combo)
            seen_split += pos.hats_split
            for back in (parse(pos.to_notation()), Position.from_json(pos.to_json())):
                assert back == pos
                enc = encode(back)
                assert choices(enc.S, enc.R, n, sym)[1] == labels
    assert seen_split


def test_a_games_move_count_leaves_out_swaps_and_bottoms():
    """The designer report's `moves` (``F_MOVES``) counts moves and Extra moves, not the
    Swaps and Bottoms `random` seats now use: it equals the logged steps less those."""
    from oddsbot.kernels.mumia import game as G
    R = rules_vector(Rules(), 4, frozenset(EXPANSIONS))
    policies = np.full(L.MAX_SEATS, C.RANDOM, dtype=np.int64)
    tokens_seen = 0
    for g in range(6):
        _, _, log, turns = G.one_game(R, policies, 7, g, 20_000)
        tokens = int(np.isin(log[:, 3], (C.C_SWAP, C.C_BOTTOM)).sum())
        tokens_seen += tokens
        row = G.record_range(R, policies, np.uint64(7), g, 1)[0]  # the same game
        assert row[G.F_TURNS] == turns
        assert row[G.F_MOVES] == len(log) - tokens
    assert tokens_seen
