"""Every rule parameter (docs/games/mumia.md §13): its default is what the rules say, and
a changed value has its effect. Positions are written in the notation (§14.2)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from oddsbot.analyser.mumia.advise import outcomes
from oddsbot.analyser.mumia.encode import decode, encode
from oddsbot.analyser.mumia.face import parse, with_rules
from oddsbot.analyser.mumia.labels import read_roll
from oddsbot.analyser.mumia.rules import Rules
from oddsbot.analyser.mumia.simulate import new_position, start_state
from oddsbot.analyser.mumia.turns import choices, take
from oddsbot.analyser.mumia.validate import validate
from oddsbot.errors import OddsbotError
from oddsbot.kernels.mumia import layout as L
from oddsbot.kernels.mumia.setup import deal_hats
from oddsbot.kernels.rng import stream

def pos_of(text: str, **rules: str):
    pos = parse(text)
    pos = with_rules(pos, rules) if rules else pos
    validate(pos)
    return pos


def after(pos, roll: str, label: str):
    """The position after ``label`` for ``roll`` (the turn passed unless it goes on)."""
    enc = encode(pos)
    S = enc.S.copy()
    n, sym = read_roll(roll, bool(S[L.S_MUMMY] >= 0))
    rows, labels = choices(S, enc.R, n, sym)
    assert label in labels, labels
    taken = [list(t) for t in pos.mummy_taken]
    step = take(S, enc.R, rows[labels.index(label)], n)
    taken[pos.to_move].extend(step.mummy)
    return decode(S, enc.R, pos.rules, pos.expansions, taken_by=tuple(map(tuple, taken))), S


def labels_of(pos, roll: str) -> list[str]:
    enc = encode(pos)
    return choices(enc.S, enc.R, *read_roll(roll, bool(enc.S[L.S_MUMMY] >= 0)))[1]


def score(pos, seat: int) -> int:
    enc = encode(pos)
    return int(L.score(enc.S, enc.R, seat))


def test_picture_faces():
    pos = new_position(2, 1)
    assert Counter(s for _, s, _ in outcomes(encode(pos))) == {0: 6, 1: 6, 2: 6}
    assert all(w == pytest.approx(1 / 18) for *_, w in outcomes(encode(pos)))
    changed = with_rules(pos, {"picture_faces": "3/1/2"})
    weights = {s: w for _, s, w in outcomes(encode(changed))}
    assert weights == {0: pytest.approx(3 / 36), 1: pytest.approx(1 / 36),
                       2: pytest.approx(2 / 36)}
    with pytest.raises(OddsbotError, match="picture_faces"):
        with_rules(pos, {"picture_faces": "0/6/0"})  # no face would move a pawn


def test_tile_values_and_first_layout():
    tiles = [f.tile for f in new_position(2, 1).track[1:-1]]
    assert tiles == ["-1", "-2", "-3", "-4", "-5", "-6", "-7", "-8", *["camel"] * 6,
                     "+8", "+7", "+6", "+5", "+4", "+3", "+2", "+1",
                     *[f"-{m}" for m in range(1, 11)]]
    values = "-3,camel,+8,-1,+7,+2,camel,-10"
    mine = new_position(2, 1, rules={"tile_values": values})
    assert [f.tile for f in mine.track[1:-1]] == values.split(",")
    assert [f.guardians for f in mine.track[1:-1]] == [0, 1, 1, 0, 1, 0, 1, 0]
    shuffled = [[f.tile for f in new_position(2, seed, rules={"first_layout": "random"})
                 .track[1:-1]] for seed in (1, 2)]
    assert shuffled[0] != shuffled[1] and sorted(shuffled[0]) == sorted(tiles)


def test_mummy_tokens_and_tokens_per_pass():
    """Two passes of FINISH in one roll (2 tiles left, the mummy on the second, roll 6)."""
    text = "mumia 2p A | S:AAABBB -1 -2:M F | A:- B:- | mummy 4,3,2,1 taken -"
    each, _ = after(pos_of(text), "6,M", "mummy")
    assert each.mummy_taken == ((4, 3), ()) and each.mummy_tokens == (2, 1)
    assert each.collected[0] == ("-2",)  # the mummy stood alone on -2
    one, _ = after(pos_of(text, tokens_per_pass="one"), "6,M", "mummy")
    assert one.mummy_taken == ((4,), ()) and one.mummy_tokens == (3, 2, 1)
    five = pos_of("mumia 2p A | S:AAABBB -1 -2:M F | A:- B:- | mummy 5,1 taken - | "
                  "rules mummy_tokens=5,1")
    done, S = after(five, "6,M", "mummy")
    assert done.mummy_taken == ((5, 1), ()) and not any(f.mummy for f in done.track)
    assert S[L.S_MUMMY] == -1  # the mummy left with its last token


def test_sudden_end_and_pair_alone():
    """B takes its last pawn home (leaving -5 empty: it takes -5); A has a pair of pawns
    on -4 and a lone pawn on +3."""
    text = "mumia 2p B | S -4:AA -5:B +3:A F:BB | A:- B:- | mummy - taken A:4,A:3,B:2,B:1"
    standard, S = after(pos_of(text), "6", "pawn 1")
    assert not S[L.S_OVER] and standard.collected == ((), ("-5",))
    sudden, S = after(pos_of(text, sudden_end="true"), "6", "pawn 1")
    assert S[L.S_OVER]
    assert sudden.collected == (("+3",), ("-5",))  # A's lone pawn takes +3, not its pair
    pair, _ = after(pos_of(text, sudden_end="true", sudden_end_pair_alone="true"), "6",
                    "pawn 1")
    assert sorted(pair.collected[0]) == ["+3", "-4"]


def test_tiebreak():
    tied = pos_of("mumia 2p A | S:A F:AABBB | A:+5 B:+2,c,-3 | mummy - taken A:4,B:4 | "
                  "rules mummy_tokens=4,4")
    assert score(tied, 0) == score(tied, 1) == 9
    S = encode(tied).S.copy()
    S[L.S_PAWN + 0] = L.FIN
    S[L.S_OVER] = 1
    scores, wins = np.zeros(6, dtype=np.int64), np.zeros(6)
    L.scores_and_wins(S, encode(tied).R, scores, wins)
    assert list(wins[:2]) == [1.0, 1.0]
    R = encode(with_rules(tied, {"tiebreak": "fewer_camels"})).R
    L.scores_and_wins(S, R, scores, wins)
    assert list(wins[:2]) == [1.0, 0.0]


HATS = ("mumia 2p A e2 | S:BB +3:A -2 +4:B F:AA | A:- B:- | mummy - taken A:4,A:3,B:2,B:1 | "
        "hats luck A@1 bad B@3")


def test_hat_values_and_luck_hat_last_out():
    pos = pos_of(HATS)
    assert score(pos, 0) == 4 + 3  # the hat is not locked yet
    home, _ = after(pos, "6", "pawn 1")
    assert score(home, 0) == 7 + 3 + 10  # +3 collected, the luck hat locked
    mine, _ = after(pos_of(HATS, hat_values="7,-4"), "6", "pawn 1")
    assert score(mine, 0) == 7 + 3 + 7
    assert "pawn 1" in labels_of(pos, "6")
    blocked = pos_of(HATS.replace("F:AA", "F:A").replace("S:BB", "S:BBA"),
                     luck_hat_last_out="true")
    assert "pawn 2" not in labels_of(blocked, "6") and "pawn 2" in labels_of(blocked, "1")


def test_hat_tie():
    R = encode(new_position(4, 1, expansions="e2")).R
    lucky = Counter(deal_hats(R, stream(np.uint64(s), 0))[0] for s in range(4000))
    assert all(900 < lucky[p] < 1100 for p in range(4))  # reroll: every seat alike
    R2 = encode(new_position(4, 1, expansions="e2", rules={"hat_tie": "first_seat"})).R
    first = Counter(deal_hats(R2, stream(np.uint64(s), 0))[0] for s in range(4000))
    assert first[0] > 1250 and first[3] < 800  # ties go to the first seat (1361, 694)


def test_e3_removals():
    def tiles(**rules):
        return Counter(f.tile for f in new_position(2, 3, "mumia", rules.pop("exp"),
                                                     rules=rules).track[1:-1])
    e3 = tiles(exp="e3")
    assert sum(e3.values()) == 32 and e3["camel"] == 5
    assert all(e3[t] == 0 for t in ("+1", "+2", "+3", "+4"))
    assert e3["-5"] == e3["-6"] == e3["-7"] == 1
    assert tiles(exp="e3", e3_removed="+1")["+2"] == 1
    assert sum(tiles(exp="e1,e3").values()) == 32
    assert sum(tiles(exp="e1,e3", e3_e1_keep_e1_removal="true").values()) == 28


def test_camels_flip_risk():
    text = ("mumia 2p A e3 | S:AAABBBM F | A:r5,c B:- | mummy 4,3,2,1 taken -")
    assert score(pos_of(text), 0) == -5
    assert score(pos_of(text, camels_flip_risk="true"), 0) == 5


def test_action_token_mix_and_unused_value():
    def pile(**rules):
        pos, S, R, chosen, exp = start_state(2, 1, "mumia", "e4", rules)
        assert pos.pile == ("?",) * len(pos.pile)  # nobody has seen the pile
        return Counter(decode(S, R, chosen, exp).pile)
    assert pile() == {"extra": 3, "swap": 3, "push": 2, "bottom": 2}
    assert pile(action_token_mix="extra:4,push:1") == {"extra": 4, "push": 1}
    text = ("mumia 2p A e4 | S:AAABBBM F | A:- B:- | mummy 4,3,2,1 taken - | tokens A:swap,push "
            "B:- pile extra,extra,extra,swap,swap,push,bottom,bottom")
    assert score(pos_of(text), 0) == 2
    assert score(pos_of(text, unused_token_value="3"), 0) == 6


def test_tokens_on_start_finish():
    text = ("mumia 2p A e4 | S:AAABM -1:BB F | A:- B:- | mummy 4,3,2,1 taken - | tokens A:push "
            "B:- pile extra,extra,extra,swap,swap,swap,push,bottom,bottom")
    assert "token push 0" not in labels_of(pos_of(text), "3,P")
    assert "token push 0" in labels_of(pos_of(text, tokens_on_start_finish="true"), "3,P")


def test_exchange_positions():
    tiles = [f.tile for f in new_position(2, 1, expansions="e1").track]
    assert [i for i, t in enumerate(tiles) if t == "exchange"] == [10, 15, 20, 25]
    mine = [f.tile for f in new_position(2, 1, expansions="e1",
                                         rules={"exchange_positions": "1,2,3,32"}).track]
    assert [i for i, t in enumerate(mine) if t == "exchange"] == [1, 2, 3, 32]


def test_every_parameter_has_a_test_and_its_default():
    """The parameters tested above are every field of Rules, and the declaration's
    defaults are Rules()' values as text."""
    from oddsbot.analyser.mumia import GAME
    from oddsbot.analyser.mumia.rules import show
    assert [p.name for p in GAME.rules] == list(Rules.__dataclass_fields__)
    for p in GAME.rules:
        assert show(p.name, getattr(Rules(), p.name)) == p.default, p.name


def test_a_pawn_swapped_is_not_moved_in_the_same_turn():
    """§11.4: after `token swap`, the swapped pawn leaves the turn's `pawn K` labels; the
    next turn it moves again."""
    text = ("mumia 2p A e4 | S:AABBM -1:A -2:B -3 F | A:- B:- | mummy 4,3,2,1 taken - | "
            "tokens A:swap B:- pile extra,extra,extra,swap,swap,push,push,bottom,bottom")
    pos = pos_of(text)
    assert labels_of(pos, "2,P")[:2] == ["pawn 1", "pawn 3"]
    enc = encode(pos)
    S = enc.S.copy()
    rows, labels = choices(S, enc.R, 2, 0)
    step = take(S, enc.R, rows[labels.index("token swap 1 2 B")], 2)
    assert step.same_roll
    after_swap = choices(S, enc.R, 2, 0, tokens=False)[1]
    assert "pawn 3" not in after_swap and "pawn 1" in after_swap  # pawn 3 now on field 2
    take(S, enc.R, choices(S, enc.R, 2, 0, tokens=False)[0][0], 2)  # pawn 1: turn over
    assert S[L.S_SWAPPED] == 0
    S[L.S_TO_MOVE] = 0  # A again: every pawn off FINISH is listed (pawns 2 and 3 alike)
    assert choices(S, enc.R, 2, 0, tokens=False)[1] == ["pawn 1", "pawn 2"]
