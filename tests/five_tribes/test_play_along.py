"""Five Tribes played along (``PlayFace``, docs/games/five-tribes.md §22): whole games
walked through ``apply`` alone rebuild their records byte for byte, every step the
record replay's position, every outcome among ``outcomes`` with its probability; the
probabilities by hand; bad actions and outcomes refused in one line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from oddsbot.analyser.five_tribes import face as ft
from oddsbot.analyser.five_tribes.play import OUTCOMES_LIMIT
from oddsbot.errors import OddsbotError

GOLDEN = Path(__file__).parent / "golden"
VALUE = re.compile(r" \| value [^|]*")


def walk(text: str) -> None:
    """Walk the record ``text`` through ``apply``: each step's position is the replay's,
    each outcome is listed by ``outcomes`` (unless there are too many to list) with a
    probability > 0; the record rebuilt from the moves is ``text`` (heuristic and random
    records byte for byte; a greedy one apart from its values, §22)."""
    start, moves = ft.record_moves(text)
    _, steps = ft.record.load_record(text)
    assert start.to_notation() == steps[0][0].to_notation()
    pos = start
    for (before, _), (action, outcome) in zip(steps, moves):
        assert pos.to_notation() == before.to_notation()
        try:
            listed = dict(ft.outcomes(pos, action))
        except OddsbotError as exc:
            # a clean-up's refill ("over N ways"), or a draw together with it ("over N
            # outcomes"): too many to list
            assert "refill" in outcome and f"over {OUTCOMES_LIMIT:,} " in str(exc)
        else:
            assert (listed.get(outcome, 0) > 0) if outcome else listed == {}
            assert not listed or abs(sum(listed.values()) - 1) < 1e-9
        pos = ft.apply(pos, action, outcome)
    assert pos.to_notation() == steps.final.to_notation()
    rebuilt = ft.record_text(start, moves)
    greedy = "value +33" in text  # the greedy bid model's values (golden 4p seed 5)
    assert (VALUE.sub("", rebuilt) == VALUE.sub("", text)) if greedy else rebuilt == text


@pytest.mark.parametrize("name", ["five-tribes-2p-seed39-heuristic.txt",
                                  "five-tribes-3p-seed31-random.txt"])
def test_golden_records_walk(name):
    walk((GOLDEN / name).read_text())


def test_greedy_golden_walks_then_best_turns_included():
    """The greedy golden game; its values are the greedy bid model's and the
    expectations its turns were chosen for, so the rebuilt record differs only there."""
    walk((GOLDEN / "five-tribes-4p-seed5.txt").read_text())


@pytest.mark.parametrize("players, seed, variant, policy", [
    (2, 3, "five-tribes", "random"), (3, 8, "five-tribes-premove", "heuristic"),
    (4, 11, "five-tribes", "random"), (4, 2, "five-tribes-premove", "heuristic")])
def test_played_games_walk(players, seed, variant, policy):
    walk(ft.play(players, seed, variant, policy))


def _position_at(text: str, line_start: str) -> tuple[ft.Position, str, str | None]:
    """The position before the first move whose action starts ``line_start``."""
    start, moves = ft.record_moves(text)
    pos = start
    for action, outcome in moves:
        if action.startswith(line_start) or (outcome or "").startswith(line_start):
            return pos, action, outcome
        pos = ft.apply(pos, action, outcome)
    raise AssertionError(line_start)


def test_refill_of_one_djinn_is_uniform_over_the_djinn_deck():
    """The first clean-up of the 2-player heuristic golden that draws anything (round
    2's) follows a round with no card taken from the row and one djinn from the display:
    it shows one of the 19 djinns of the deck, each 1/19 (§4.3)."""
    text = (GOLDEN / "five-tribes-2p-seed39-heuristic.txt").read_text()
    start, moves = ft.record_moves(text)
    pos = start
    for action, outcome in moves:
        if outcome and outcome.startswith("refill") and len(ft.outcomes(pos, action)) > 1:
            break
        pos = ft.apply(pos, action, outcome)
    assert outcome.startswith("refill res=fa,go,si,wh,fa,sp,pa,fi,sp ")
    listed = ft.outcomes(pos, action)
    after = ft.apply(pos, action, outcome)
    assert len(ft.Position.djinn_deck.fget(pos)) == 19 == len(listed)
    assert all(abs(p - 1 / 19) < 1e-12 for _, p in listed)
    assert after.phase == "bidding" and len(after.djinns) == 3


LAST_TURN = ("five-tribes S6:WWB,L4:WRR,D10:WGR,S6:YYB,D6:YYG,S6:WBR/O8:WBR,S6:BBR,S6:YBG,"
             "O8:YYG,V5:YGR,D12:WRR/V5:WWR,S6:YWW,V5:WBR,S6:GRR,L4:GGR,O8:BGG/O8:WWG,V5:WBR,"
             "L4:YWB,S6:YWG,O8:WBR,D15:BBG/V5:YBR,L4:YBG,D6:WGG,O8:YBR,D6:YWG,D6:YBG n=4 "
             "turn=1:2 bid=3,0,1 phase=turns res={row} dj=Lamia,Shamhat,Utug p2=gc49")
QUIET = "r0c0>r0c1:W>r0c2:W>r0c3:B; take 2B; skip small-market"  # takes no card, no djinn


def test_refill_cards_by_hand():
    """Player 2's turn is the round's last and takes no card: the clean-up refills the
    row from the deck (54 cards less the row), one card at a time (§4.3). One card short:
    a kind's chance is its cards over the deck's 46 (fakir 18 - 3 in the row); two short:
    fakir then fakir 16/47 x 15/46, and ivory twice impossible (one ivory left)."""
    row = "fa,po,fa,je,iv,wh,wh,fa"
    listed = dict(ft.outcomes(ft.parse(LAST_TURN.format(row=row)), QUIET))
    deck = {"iv": 1, "je": 1, "go": 2, "pa": 4, "si": 4, "sp": 4, "fi": 6, "wh": 4,
            "po": 5, "fa": 15}
    assert listed == pytest.approx({f"refill res={row},{k} dj=Lamia,Shamhat,Utug": n / 46
                                    for k, n in deck.items()}, abs=1e-12)
    short = "fa,po,fa,je,iv,wh,wh"
    pos = ft.parse(LAST_TURN.format(row=short))
    listed = dict(ft.outcomes(pos, QUIET))
    words = f"refill res={short},{{}} dj=Lamia,Shamhat,Utug"
    assert len(listed) == 10 * 10 - 2  # ivory twice and jewels twice cannot be
    assert listed[words.format("fa,fa")] == pytest.approx(16 / 47 * 15 / 46, abs=1e-12)
    assert words.format("iv,iv") not in listed
    after = ft.apply(pos, QUIET, words.format("iv,fa"))
    assert after.phase == "bidding" and after.resources[-2:] == ("ivory", "fakir")


def test_bad_actions_and_outcomes_are_refused_in_one_line():
    pos = ft.new_position(4, 0, "five-tribes")
    cases = {("bid 7", None): "'bid 7' is not a legal bid for p",
             ("r0c0>r0c1:Y", None): "is to bid",
             ("bid 0", "cards fi"): "'bid 0' involves no chance here",
             ("", None): "action: empty"}
    for (action, outcome), words in cases.items():
        with pytest.raises(OddsbotError) as caught:
            ft.apply(pos, action, outcome)
        assert words in str(caught.value) and "\n" not in str(caught.value)
    assert "legal: bid 18, bid 12" in _refusal(pos, "bid 7", None)
    text = (GOLDEN / "five-tribes-2p-seed39-heuristic.txt").read_text()
    last, action, outcome = _position_at(text, "refill")
    assert "ends the round: name its clean-up" in _refusal(last, action, None)
    assert _refusal(last, action, "refill res=iv,iv,iv,iv,iv,iv,iv,iv,iv dj=Baal,Boaz,"
                                  "Leta").startswith("outcome: ")
    assert "outcome: cannot read" in _refusal(last, action, f"{outcome}; cards fi")


def _refusal(pos: ft.Position, action: str, outcome: str | None) -> str:
    with pytest.raises(OddsbotError) as caught:
        ft.apply(pos, action, outcome)
    assert "\n" not in str(caught.value)
    return str(caught.value)


def test_player_name_is_the_notation_seat():
    pos = ft.new_position(4, 0, "five-tribes")
    assert [ft.player_name(pos, s) for s in range(4)] == ["0", "1", "2", "3"]


KANDICHA = ("five-tribes S6:WWB,L4:WRR,D10:WGR,S6:YYB,D6:YYG,S6:WBR/O8:WBR,S6:BBR,S6:YBG,"
            "O8:YYG,V5:YGR,D12:WRR/V5:WWR,S6:YWW,V5:WBR,S6:GRR,L4:GGR,O8:BGG/O8:WWG,V5:WBR,"
            "L4:YWB,S6:YWG,O8:WBR,D15:BBG/V5:YBR,L4:YBG,D6:WGG,O8:YBR,D6:YWG,D6:YBG n=4 "
            "turn=1:2,0:3,0:0,0:1 res=fa,po,fa,je,iv,wh,wh,fa,si dj=Lamia,Shamhat,Utug "
            "p2=gc49,Kandicha")
KILL = "r0c2>r0c3:W>r1c3:G>r2c3:R; take 3R; kill G@r2c3, camel r2c3"


def test_then_best_row_by_hand():
    """Player 2 holds Kandicha and kills a Merchant: one card from the deck of 45 (54 less
    the 9 of the row), by kind its cards over 45 (ivory 2 - 1 in the row, fakir 18 - 3,
    ...: §20.6). The ``then best`` row plays the draw and the greedy rest (§20.9); the
    record writes the turn as played, which ``apply`` plays the same."""
    pos = ft.parse(KANDICHA)
    label = f"{KILL}; then best"
    listed = dict(ft.outcomes(pos, label))
    deck = {"iv": 1, "je": 1, "go": 2, "pa": 4, "si": 3, "sp": 4, "fi": 6, "wh": 4,
            "po": 5, "fa": 15}
    assert listed == pytest.approx({f"cards {k}": n / 45 for k, n in deck.items()}, abs=1e-12)
    for outcome in listed:
        after = ft.apply(pos, label, outcome)
        card = outcome.split()[1]
        assert f"{card}1" in after.to_notation().split("p2=")[1]
        (action, again), = ft.record_moves(ft.record_text(pos, [(label, outcome)]))[1]
        assert action.startswith(KILL + "; ") and again == outcome
        assert ft.apply(pos, action, outcome) == after
    assert "draws cards here: name them" in _refusal(pos, label, None)
    assert "makes 1 draw(s)" in _refusal(pos, label, "cards fi; cards fi")
    assert "draws cards here, not meeples" in _refusal(pos, label, "meeples Y")
    assert "unknown resource card 'xx'" in _refusal(pos, label, "cards xx")
