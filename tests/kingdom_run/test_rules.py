"""Every rule parameter of Kingdom Run (docs/games/kingdom-run.md §11): ``oddsbot rules``
lists it with its default, the default is the rules' behaviour, and a changed value (by
``--rule NAME=VALUE`` or a position's ``rules``) changes the answer where it should. The
positions are small (often ``dice=2`` or ``dice=1``), so each test takes a moment."""

from __future__ import annotations

from pathlib import Path

import pytest

from oddsbot.analyser.kingdom_run import GAME
from oddsbot.analyser.kingdom_run.face import (
    final_result, legal_actions, moves, new_position, parse, validate, with_rules,
)
from oddsbot.analyser.kingdom_run.rules import Rules, show
from oddsbot.analyser.kingdom_run.turns import over, take_sequence
from oddsbot.errors import OddsbotError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MID = EXAMPLES / "kingdom-run-mid-4p.json"
START = "t=0:K1,W1,F1,G1/1:K2,W2,F2,G2/2:K3,W3,F3,G3/3:K4,W4,F4,G4"
# §16.6: the podium full, Knights 31, Wizards 32, Forest 24
SCORING = ("kingdom-run p3 K,W,F to=2 t=0:G3,G4/4:K4/10:W4/16:K3,F3/17:F4/22:W3 "
           "pod=K1,W1,G1,K2,F1,W2,F2,G2 tok=3,5,4 roll=- rr=0")


def pos_of(text: str, **rules: str):
    pos = parse(text)
    pos = with_rules(pos, rules) if rules else pos
    validate(pos)
    return pos


def two_dice(roll: str, **rules: str):
    """The 2-player set-up, the Knights to act on a roll of two dice."""
    return pos_of(f"kingdom-run p2 K,W to=1 {START} tok=6,6 roll={roll} rr=1 "
                  f"rules=dice:2", **rules)


def after(pos, label: str):
    return take_sequence(pos, label, "test")


# ------------------------------------------------------------------------ the listing
def test_rules_command_lists_every_parameter_with_its_default(oddsbot_cli):
    listed = oddsbot_cli("rules", "kingdom-run", "-f", "json").json()
    assert listed["game"] == "kingdom-run"
    assert [(r["name"], r["default"]) for r in listed["rules"]] == \
        [(p.name, p.default) for p in GAME.rules]
    assert [p.name for p in GAME.rules] == list(Rules.__dataclass_fields__)
    for p in GAME.rules:  # the declared default is the rules' value, as text
        assert show(p.name, getattr(Rules(), p.name)) == p.default, p.name
        assert Rules().with_({p.name: p.default}) == Rules(), p.name
    table = oddsbot_cli("rules", "krolewski-wyscig")
    assert table.code == 0
    for p in GAME.rules:
        assert p.name in table.out, p.name


def test_every_default_given_changes_nothing(oddsbot_cli):
    """Every parameter set to its default on the command line: the same table, and no
    rules written into the position."""
    plain = oddsbot_cli("advise", MID, "--top", "20", "-f", "json").json()
    every = [a for p in GAME.rules for a in ("--rule", f"{p.name}={p.default}")]
    same = oddsbot_cli("advise", MID, "--top", "20", *every, "-f", "json").json()
    assert same["actions"] == plain["actions"]
    assert same["provenance"]["position"] == plain["provenance"]["position"]
    assert "rules=" not in same["provenance"]["position"]


# ------------------------------------------------------------------------ scoring
def test_zone_mode_zone_values_podium_values_token_value():
    assert final_result(pos_of(SCORING)) == ((31, 32, 24), (1,))
    assert final_result(pos_of(SCORING, zone_mode="exact")) == ((31, 32, 20), (1,))
    assert final_result(pos_of(SCORING, podium_values="8,7,6,5,4,3,2,1")) == \
        ((25, 28, 22), (1,))
    assert final_result(pos_of(SCORING, zone_values="0,0,0,0,0")) == ((25, 24, 16), (0,))
    assert final_result(pos_of(SCORING, victory_token_value="3")) == ((34, 37, 28), (1,))


def test_zone_mode_changes_odds(oddsbot_cli):
    args = ("odds", MID, "--samples", "60", "--seed", "1", "-f", "json")
    plain = oddsbot_cli(*args).json()["players"]
    exact = oddsbot_cli(*args, "--rule", "zone_mode=exact").json()["players"]
    assert all(e["score"] < p["score"] for e, p in zip(exact, plain))


def test_podium_values_sets_the_places():
    with pytest.raises(OddsbotError, match="podium"):
        pos_of(SCORING, podium_values="13,10,8")  # 8 runners for 3 places


def test_tie_rule():
    """Knights 28 (1st place), Wizards 28 (2nd place): the podium breaks the tie."""
    tied = ("kingdom-run p2 K,W to=1 t=0:K2,W4,G3,G4/1:K3/2:K4/4:W3/10:W2 "
            "pod=K1,W1,F1,F2,F3,F4,G1,G2 tok=6,6 roll=- rr=0")
    assert final_result(pos_of(tied)) == ((28, 28), (0,))
    assert final_result(pos_of(tied, tie_rule="shared")) == ((28, 28), (0, 1))


# ------------------------------------------------------------------------ set-up, dice
def test_victory_tokens_and_dice_on_new(oddsbot_cli):
    assert [new_position(n, 1).tokens for n in (2, 3, 4)] == [(6, 6), (4, 4, 4), (3,) * 4]
    mine = {"victory_tokens": "5/2/1"}
    assert [new_position(n, 1, rules=mine).tokens for n in (2, 3, 4)] == \
        [(5, 5), (2, 2, 2), (1,) * 4]
    data = oddsbot_cli("new", "kingdom-run", "--players", "3", "--rule",
                       "victory_tokens=6/7/3", "--rule", "dice=3", "-f", "json").json()
    assert data["tokens"] == [7, 7, 7] and len(data["roll"]) == 3
    assert len(oddsbot_cli("new", "kingdom-run", "-f", "json").json()["roll"]) == 4
    # a position's token total follows the parameter (§12.1)
    with pytest.raises(OddsbotError, match="tokens"):
        pos_of(f"kingdom-run p2 K,W to=1 {START} tok=6,6 roll=- rr=0",
               victory_tokens="5/4/3")
    rolled = oddsbot_cli("advise", f"kingdom-run p2 K,W to=1 {START} tok=6,6 roll=- rr=0",
                         "--rule", "dice=3", "--roll", "SCB", "-f", "json").json()
    assert len(rolled["actions"]) == 8  # three different faces: 2^3 keep-sets


def test_die_faces():
    assert set(new_position(2, 1, rules={"die_faces": "bath,steal"}).roll) <= {2, 3}
    with pytest.raises(OddsbotError, match="roll"):
        two_dice("SB", die_faces="bath,steal")  # scatter is no face of these dice
    with pytest.raises(OddsbotError, match="die_faces"):
        Rules().with_({"die_faces": "copy,copy"})


# ------------------------------------------------------------------------ the turn
def test_mandatory_dice():
    counts, labels = moves(two_dice("BT"))
    assert "pass" not in labels and all(" > steal p2" in lab for lab in labels)
    free_counts, free = moves(two_dice("BT", mandatory_dice="false"))
    assert free[0] == "pass" and "steal p2" in free and "bath K1" in free
    assert set(labels) < set(free) and free_counts["sequences"] > counts["sequences"]


def test_per_action_limit():
    labels = legal_actions(two_dice("BB"))
    assert "bath K1 > bath K1" in labels  # into the lake on 7 and out (§16.4)
    one = legal_actions(two_dice("BB", per_action_limit="1"))
    assert "bath K1" in one and not any(" > " in lab for lab in one)


def test_capacity():
    crowded = ("kingdom-run p2 K,W to=1 t=0:K1,K2,W1,F1,G1/1:W2,F2,G2/2:K3,W3,F3,G3/"
               "3:K4,W4,F4,G4 tok=6,6 roll=- rr=0")
    with pytest.raises(OddsbotError, match="5 runners"):
        pos_of(crowded)
    assert pos_of(crowded, capacity="5").to_notation().endswith("rules=capacity:5")
    # §16.2: G2 catches up to the full space 12 and overflows into the lake on 13
    chase = ("kingdom-run p2 K,W to=1 t=0:K2,W2,F2,G3/1:K3,W3,F3,G4/2:K4,W4,F4/9:G2/"
             "12:K1,W1,F1,G1 tok=6,6 roll=CT rr=1 rules=dice:2")
    assert "/13:G2 " in after(pos_of(chase), "catchup G2 > steal p2").to_notation()
    roomy = after(pos_of(chase, capacity="5"), "catchup G2 > steal p2").to_notation()
    assert "/12:K1,W1,F1,G1,G2 " in roomy


def test_layout_lakes_zone_values():
    d0 = after(two_dice("BT"), "bath K1 > steal p2").to_notation()
    assert "/7:K1 " in d0  # the first lake of D0
    short = dict(layout="4/6:1/4", lakes="1", zone_values="1,2,3")
    assert "/5:K1 " in after(two_dice("BT", **short), "bath K1 > steal p2").to_notation()
    dry = dict(layout="4/6/6/4", lakes="0", zone_values="1,2,3,4")
    assert moves(two_dice("BT", **dry))[1] == ["steal p2"]  # no lake: no bath
    with pytest.raises(OddsbotError, match="lakes"):
        two_dice("BT", layout="4/6:1/4")
    with pytest.raises(OddsbotError, match="zone_values"):
        two_dice("BT", layout="4/6:1/4", lakes="1")
    assert pos_of(f"kingdom-run p2 K,W to=1 {START} tok=6,6 roll=- rr=0",
                  **short).rules.spaces() == 14


def test_two_player_end():
    """Two players, the podium full of neutral runners: over by default, not with
    own_runners_only."""
    full = ("kingdom-run p2 K,W to=1 t=0:K1,W1/1:K2,W2/2:K3,W3/3:K4,W4 "
            "pod=F1,F2,F3,F4,G1,G2,G3,G4 tok=6,6 roll=- rr=0")
    assert over(pos_of(full))
    assert not over(pos_of(full, two_player_end="own_runners_only"))


def test_same_turn_order():
    """§16.3: K2 and W3 on 25, two places already given; a Scatter and a Catch-up take
    both across (dice=2)."""
    text = ("kingdom-run p2 K,W to=1 t=0:K3,W4,F1,G1/1:K4,F2,G2/2:F3,G3/3:F4,G4/24:W2/"
            "25:K2,W3 pod=K1,W1 tok=6,6 roll=SC rr=1 rules=dice:2")
    free = legal_actions(pos_of(text))
    assert "scatter 25 [K2] > catchup W3 > podium [W3,K2]" in free
    assert "scatter 25 [K2,W3] > catchup K3 > podium [W3,K2]" in free
    timed = legal_actions(pos_of(text, same_turn_order="chronological"))
    assert "scatter 25 [K2] > catchup W3 > podium [K2,W3]" in timed
    assert "scatter 25 [K2] > catchup W3 > podium [W3,K2]" not in timed
    assert "scatter 25 [K2,W3] > catchup K3 > podium [W3,K2]" not in timed
    assert "scatter 25 [K2,W3] > catchup K3 > podium [K2,W3]" in timed


def test_surplus_finishers():
    """§16.3 surplus: seven places given, K1 and W1 scattered over the line together
    (dice=1); the one left out scores 0, or goes back to 25 and scores 5."""
    text = ("kingdom-run p3 K,W,F to=1 t=0:K2,W2,G4/1:K3,W3/2:K4,W4/25:K1,W1 "
            "pod=F1,G1,F2,G2,F3,G3,F4 tok=4,4,4 roll=S rr=1 rules=dice:1")
    labels = legal_actions(pos_of(text))
    assert {"scatter 25 [K1,W1] > podium [K1]", "scatter 25 [K1,W1] > podium [W1]"} <= \
        set(labels)
    zero = after(pos_of(text), "scatter 25 [K1,W1] > podium [K1]")
    assert over(zero) and " out=W1" in zero.to_notation()
    assert final_result(zero)[0] == (13, 11, 37)
    stay = after(pos_of(text, surplus_finishers="stay"), "scatter 25 [K1,W1] > podium [K1]")
    assert over(stay) and "/25:W1 " in stay.to_notation()
    assert final_result(stay)[0] == (13, 16, 37)
