"""Camel Up Cards game records: ``oddsbot new camel-up-cards --play POLICY`` and ``oddsbot
replay RECORD`` (docs/games/camel-up-cards.md §14.5).

Covered:

* whole games of every player count and both policies, and games simulated from positions
  in the middle of a leg and of a turn, replay to the end they were played to;
* ``simulate.complete`` deals every seat's cards consistently with what the viewer knows;
* the goldens (``golden/*.txt``, byte for byte in ``tests/common/test_goldens.py``)
  replayed turn by turn: each turn is among ``legal_actions`` of the mover's view, and the
  cards revealed, played and the money follow from the lines before;
* every kind of bad line (unreadable, illegal turn of each kind, a card not in the race
  deck, the wrong seat, money or a leg's end that do not match, a deal that does not fit
  the setup numbers, reuses cards or disagrees with the start, a deal line out of place or
  missing, a truncated record, a bad result line) is refused in one line ``line N: ...``
  naming the right line N, and from the CLI exits 2 with that line alone (the CLI tests
  run once the GameSpec declares records);
* the annotation: ``ev_taken`` is ``advise``'s value from the mover's view, ``ev_lost`` =
  best_ev - ev_taken >= 0; with rollouts, the rollout columns;
* the shipped example is what its header's command prints, and replays from the CLI.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import numpy as np
import pytest
from checks import bad_line, ok
from oddsbot.analyser.records_common import ROLLOUT_COLUMNS, ROLLOUT_SE_COLUMNS, SE_COLUMNS
from oddsbot.analyser import registry
from oddsbot.analyser.camel_up_cards import face as cuc
from oddsbot.analyser.camel_up_cards import record as rec
from oddsbot.analyser.camel_up_cards import simulate as sim
from oddsbot.analyser.camel_up_cards.rollouts import rollout_equity
from oddsbot.analyser.face import Capability
from oddsbot.analyser.camel_up_cards.position import CARD_TYPES
from oddsbot.errors import OddsbotError
from oddsbot.kernels.camel_up_cards import game as K
from oddsbot.kernels.rng import stream

ROOT = Path(__file__).resolve().parents[2]
CLI = pytest.mark.skipif(not registry.spec("camel-up-cards").has(Capability.RECORDS),
                         reason="the GameSpec does not declare records (replay) yet")
GOLDEN = Path(__file__).parent / "golden"
EXAMPLE = ROOT / "examples" / "camel-up-cards-game-4p.record"


def body(path: Path) -> list[str]:
    """A record file's lines without its comment header."""
    return [line for line in path.read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def turn_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"\s*[0-9]+ p[0-9]", line)]


def swapped(label: str) -> str:
    """``race + bet`` as ``bet + race`` (the EV table lists a bet after a race action only
    where it can differ from the bet before)."""
    parts = label.split(" + ")
    return " + ".join(parts[::-1])


# --------------------------------------------------------------------------- good records


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("policy", cuc.POLICIES)
def test_played_games_replay_to_their_end(players, policy):
    for seed in range(1, 11):
        text = cuc.play(players, seed, cuc.NAME, policy)
        record, steps = rec.load_record(text)
        assert record.start == cuc.new_position(players, seed, cuc.NAME)
        assert steps.over and record.result is not None
        assert (steps.winner, steps.loser, steps.money) == (
            record.result.winner, record.result.loser, record.result.money)
        assert len(steps) == len(turn_lines(text)) == len(steps.states)
        assert steps.leg == 1 + text.count("| leg ends")
        assert text.count("\ndeal leg=") == steps.leg


def _mid_game_positions(players: int, seed: int):
    """Positions of a random game as the mover saw them, every fifth turn."""
    _, steps = rec.load_record(cuc.play(players, seed, cuc.NAME, "random"))
    return [pos for pos, _ in steps[::5]]


@pytest.mark.parametrize("players", [2, 3, 6])
def test_simulated_games_replay_from_the_middle_of_a_leg_and_of_a_turn(players):
    """``simulate`` draws what its position's viewer cannot see: the record's first deal
    agrees with the position, and the game replays from it, in every phase of a turn."""
    for k, pos in enumerate(_mid_game_positions(players, 3)):
        for phase in ("start", "bet", "race"):
            start = pos.with_(phase=phase)
            result = cuc.simulate(start, seed=k, policy=cuc.POLICIES[k % 2])
            record, steps = rec.load_record(result.text())
            assert record.start == start and steps.over
            assert len(steps) == len(result.turns)
            if phase == "bet":
                assert steps[0][0].phase == "bet" and not steps[0][1].bets
            if phase == "race":
                assert steps[0][1].player == (start.to_move + 1) % players


@pytest.mark.parametrize("players", [2, 4, 5])
def test_complete_deals_what_the_viewer_knows(players):
    """The completed state shows the viewer exactly its position; its deal fits the setup
    and the 30 cards (a replay of it checks both)."""
    for k, pos in enumerate(_mid_game_positions(players, 8)):
        st = sim.complete(pos, stream(np.uint64(k), 1))
        assert sim.decode(st, pos.viewer) == pos
        deal = sim.deal_of(st)
        rec.load_record(f"start {pos.to_notation()}\n{deal.text()}\n")  # fits and agrees
        assert list(st[K.DECK:K.DECK + len(pos.revealed)]) == \
            [CARD_TYPES.index(c) for c in pos.revealed]


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.txt")), ids=lambda p: p.stem)
def test_goldens_replay_turn_by_turn(path):
    """Each turn is legal in the mover's view (``legal_actions``: the EV table's labels,
    independent of the kernel's legality); the next position shows its card, the money
    after it, and after a leg's end the next leg."""
    text = path.read_text()
    _, steps = rec.load_record(text)
    assert steps.over and len(steps) == len(turn_lines(text))
    for (pos, turn), (after, _) in zip(steps, steps[1:] + [(None, None)]):
        cuc.validate(pos)
        assert turn.player == pos.to_move == pos.viewer
        legal = cuc.legal_actions(pos)
        assert turn.action in legal or swapped(turn.action) in legal, turn
        if turn.race == K.RACE_HAND:
            assert turn.card == pos.own_hand
        if after is None:
            assert turn.end == "race"
            continue
        assert after.money == turn.money
        if turn.end == "leg":
            assert after.leg == pos.leg + 1 and after.revealed == () and all(after.hands)
            continue
        assert after.leg == pos.leg
        if turn.race == K.RACE_REVEAL:
            assert after.revealed == pos.revealed + (turn.card,)
        elif turn.race == K.RACE_HAND:
            assert after.played_card(turn.player) == turn.card


def test_lenient_input_reads_like_the_canonical_form():
    """Turn numbers, leg ends, money, a hand card's card and the result line are optional;
    colours by letter, cards in any case, seats in any order, comments anywhere."""
    lines = body(EXAMPLE)
    loose = [lines[0] + "  # the start"]
    deal = lines[1].split()
    loose.append(" ".join(deal[:2] + deal[2:][::-1]).lower())
    for line in lines[2:]:
        if line.startswith(("deal", "winner")):
            loose.append(line)
            continue
        head = line.split(" | ")[0].split(None, 1)[1]  # no number, end or money
        if " hand " in f" {head} ":
            head = head.split(" -> ")[0]
        loose.append(head.replace("orange", "O").replace("blue", "b") + "   # note")
    a = rec.load_record("\n".join(lines))[1]
    b = rec.load_record("\n\n".join(loose[:-1]))[1]
    assert [(p, t.action, t.card) for p, t in a] == [(p, t.action, t.card) for p, t in b]
    assert b.over and b.money == a.money


def test_a_record_may_stop_between_turns():
    lines = body(EXAMPLE)
    _, steps = rec.load_record("\n".join(lines[:12]))
    assert not steps.over and len(steps) == 10 and steps.to_move == 10 % 4
    assert rec.status(steps) == "game not over: leg 1, p2 to move"
    assert rec.result(steps) is None


# --------------------------------------------------------------------------- bad lines

LINES = body(EXAMPLE)
START, DEAL = LINES[0], LINES[1]  # the example's deal: p0 holds Y1; the race deck holds
HEAD = f"{START}\n{DEAL}\n"  # W2, G1 x4, O1 x2, B1 x3, Y1 x2; camels O B Y on the start card
LEG_END = next(i for i, line in enumerate(LINES) if "| leg ends" in line)  # 0-based
LAST_TURN = max(i for i, line in enumerate(LINES) if "| race ends" in line)


def _lines(upto: int, *more: str) -> str:
    return "\n".join(LINES[:upto] + list(more)) + "\n"


def _deal(**seats: str) -> str:
    """The example's deal line with some seats' cards replaced."""
    words = DEAL.split()
    return " ".join(f"{w.split('=')[0]}={seats[w[:2]]}" if w[:2] in seats else w
                    for w in words)


REVEALS = ["p1 reveal -> G1", "p2 reveal -> O1", "p3 reveal -> B1"]
BAD_LINES = [
    # unreadable lines
    ("garbage", HEAD + "hello world\n", 3, "cannot read"),
    ("cut-off-turn", HEAD + "   1 p0 pa\n", 3, "race action"),
    ("two-race-actions", HEAD + "p0 reveal + hand yellow -> Y1\n", 3, "one race action"),
    ("two-bets", HEAD + "p0 leader blue + winner blue\n", 3, "one race action"),
    ("unknown-bet", HEAD + "p0 jackpot blue + reveal -> G1\n", 3, "cannot read the bet"),
    ("unknown-colour", HEAD + "p0 leader pink + reveal -> G1\n", 3, "unknown colour",
     "pink"),
    ("reveal-without-card", HEAD + "p0 reveal\n", 3, "without the card"),
    ("card-on-figure", HEAD + "p0 fox 9 -> G1\n", 3, "only a reveal or a hand card"),
    ("not-a-card", HEAD + "p0 reveal -> X9\n", 3, "not a racing card", "X9"),
    ("hand-card-of-another-colour", HEAD + "p0 hand green -> Y1\n", 3, "another colour"),
    ("after-bar", HEAD + "p0 palm 8 | cash 3\n", 3, "after '|'"),
    ("money-entries", HEAD + "p0 palm 8 | money 3,3,3\n", 3, "3 entries for 4 players"),
    ("fox-space-past-any-track", HEAD + "p0 fox 61\n", 3, "fox space", "60"),
    ("turn-number", HEAD + "2 p0 palm 8\n", 3, "turn number 2", "expected 1"),
    # illegal turns
    ("wrong-seat", HEAD + "p1 reveal -> G1\n", 3, "p1 is not to move", "p0"),
    ("hand-not-held", HEAD + "p0 hand green\n", 3, "not legal", "hand card is Y1"),
    ("hand-card-value", HEAD + "p0 hand yellow -> Y2\n", 3, "hand card is Y1"),
    ("hand-twice", HEAD + "\n".join(["p0 hand yellow", *REVEALS, "p0 hand yellow"]), 7,
     "no hand card left", "played Y1"),
    ("fox-on-camels", HEAD + "p0 fox 2\n", 3, "space 2 holds camels"),
    ("fox-beyond-L", HEAD + "p0 fox 18\n", 3, "beyond the last space", "17"),
    ("fox-twice", HEAD + "p0 fox 9\np1 fox 10\n", 4, "fox is already on space 9"),
    ("fox-on-palm", HEAD + "p0 palm 9\np1 fox 9\n", 4, "holds the palm"),
    ("leader-stack-empty", HEAD + "\n".join(
        f"p{p} leader blue + reveal -> {c}" for p, c in enumerate(["G1", "O1", "B1", "Y1"])
    ) + "\np0 leader blue + reveal -> W2\n", 7, "no blue leader card"),
    ("midfield-taken", HEAD + "p0 midfield blue + reveal -> G1\np1 reveal + midfield blue "
     "-> G1\n", 4, "midfield card is taken (by p0)"),
    ("winner-held", HEAD + "p0 winner blue + palm 8\np1 winner B + reveal -> G1\n", 4,
     "blue winner card is held by p0"),
    ("card-not-in-deck", HEAD + "p0 reveal -> W1\n", 3, "W1 is not in the race deck",
     "W2"),
    ("card-used-up", HEAD + "\n".join(f"p{i % 4} reveal -> W2" for i in range(2)), 4,
     "W2 is not in the race deck"),
    # money and the end of a leg
    ("money-mismatch", HEAD + "p0 palm 8 | money 3,3,3,4\n", 3, "money mismatch",
     "3,3,3,4", "3,3,3,3"),
    ("leg-does-not-end", HEAD + "p0 reveal -> G1 | leg ends\n", 3, "says the leg ends",
     "11 cards left"),
    ("race-does-not-end", _lines(LEG_END, LINES[LEG_END].replace("leg ends", "race ends")),
     LEG_END + 1, "says the race ends", "ends the leg"),
    ("money-at-leg-end", _lines(LEG_END, re.sub(r"money \S+", "money 3,3,3,3",
                                                LINES[LEG_END])), LEG_END + 1,
     "money mismatch"),
    # deal lines
    ("deal-discards", f"{START}\n{_deal(p0='O2.B1/G1.Y1/O1/Y1')}\n", 2, "p0 discards 2",
     "says 3"),
    ("deal-deck", f"{START}\n{_deal(p2='W1.O1.B2/W2/O1/W1')}\n", 2,
     "p2 puts into the race deck 1", "says 2"),
    ("deal-no-blue", f"{START}\n{_deal(p3='G1.B1.Y2/G1.G1/-/Y1')}\n", 2,
     "every seat reveals one"),
    ("deal-reuses-a-card", f"{START}\n{_deal(p3='G1.B1.W2/G1.G1/B1/Y1')}\n", 2,
     "2 W2 cards are dealt", "only 1"),
    ("deal-six-of-five", f"{START}\n{_deal(p1='W1.G1.O1/B1.Y1/G1/W1')}\n", 2,
     "6 G1 cards are dealt", "only 5"),
    ("deal-disagrees-with-start", f"{START}\n{_deal(p1='W1.G2.O1/B1.Y1/O1/W1')}\n", 2,
     "disagrees with the start position (line 1)", "p1's blue card is G1 there, O1 here"),
    ("deal-own-cards", f"{START}\n{_deal(p0='O2.B1.Y1/G1.Y1/O1/W1')}\n", 2,
     "p0's hand card is Y1 there, W1 here"),
    ("deal-missing-seat", f"{START}\n{' '.join(DEAL.split()[:-1])}\n", 2,
     "no cards for p3"),
    ("deal-seat-twice", f"{START}\n{DEAL} p0=O2.B1.Y1/G1.Y1/O1/Y1\n", 2,
     "p0 is given twice"),
    ("deal-no-seat-5", f"{START}\n{DEAL} p5=O2.B1.Y1/G1.Y1/O1/Y1\n", 2, "deal seat"),
    ("deal-wrong-leg", f"{START}\n{DEAL.replace('leg=1', 'leg=2')}\n", 2,
     "deal leg=2, but this is leg 1's deal"),
    ("deal-no-leg", f"{START}\n{DEAL.replace('leg=1 ', '')}\n", 2, "no leg="),
    ("deal-shape", f"{START}\n{_deal(p2='W1.O1.B2/W2.B1/O1')}\n", 2,
     "p2='W1.O1.B2/W2.B1/O1' is not <discarded>/<deck>/<blue>/<hand>"),
    ("deal-empty-part", f"{START}\n{_deal(p2='W1.O1.B2//O1/W1')}\n", 2, "empty"),
    ("turn-before-the-deal", f"{START}\np0 palm 8\n{DEAL}\n", 2,
     "leg 1's deal line must come first"),
    ("deal-before-the-leg-ends", HEAD + f"p0 palm 8\n{DEAL}\n", 4,
     "leg 1 has not ended", "12 cards left"),
    ("turn-where-a-deal-is-due", _lines(LEG_END + 1, "p2 reveal -> G1"), LEG_END + 2,
     f"leg 1 ended at line {LEG_END + 1}", "deal leg=2"),
    ("second-deal-for-leg-1", _lines(LEG_END + 1, DEAL), LEG_END + 2,
     "deal leg=1, but this is leg 2's deal"),
    # truncated records
    ("only-the-start", f"{START}\n", 1, "stops after its start line", "deal leg=1"),
    ("stops-where-a-deal-is-due", _lines(LEG_END + 1, "# and then nothing"), LEG_END + 1,
     "leg 1 ended here and the record stops", "deal leg=2"),
    ("cut-off-deal", _lines(LEG_END + 1, "deal leg=2 p0=G1.O1"), LEG_END + 2,
     "p0='G1.O1' is not"),
    # the end of the race
    ("turn-after-race-end", _lines(LAST_TURN + 1, "p1 reveal -> G1"), LAST_TURN + 2,
     f"the race ended at line {LAST_TURN + 1}"),
    ("result-too-early", HEAD + "p0 palm 8\nwinner green loser white\n", 4, "not over",
     "p1 is to move"),
    ("result-mismatch", _lines(LAST_TURN + 1, "winner blue loser white"), LAST_TURN + 2,
     "result mismatch", "winner green"),
    ("result-money", _lines(LAST_TURN + 1, "winner green loser white money 1,2,3,4"),
     LAST_TURN + 2, "money mismatch", "2,1,7,19"),
    ("result-unreadable", _lines(LAST_TURN + 1, "winner green"), LAST_TURN + 2,
     "cannot read"),
    ("after-the-result", "\n".join(LINES + ["p1 reveal -> G1"]), len(LINES) + 1,
     "nothing may follow the result line"),
    # the start line
    ("no-start-line", f"{DEAL}\n", 1, "start"),
    ("empty", "# nothing here\n\n", 2, "empty"),
    ("bad-start", "start camel-up-cards n=4 line=OBY money=3,3\n", 1, "bad start position",
     "money"),
    ("second-start", HEAD + f"{START}\n", 3, "second start", "line 1"),
]


BAD = pytest.mark.parametrize("text,line,words", [(c[1], c[2], c[3:]) for c in BAD_LINES],
                              ids=[c[0] for c in BAD_LINES])


@BAD
def test_bad_line_is_refused_naming_its_line(text, line, words):
    with pytest.raises(OddsbotError) as refused:
        rec.load_record(text)
    message = str(refused.value)
    assert message.startswith(f"line {line}: ") and "\n" not in message, message
    for word in words:
        assert word.lower() in message.lower(), (word, message)


@CLI
@BAD
def test_bad_line_exits_2_naming_its_line(oddsbot_cli, text, line, words):
    bad_line(oddsbot_cli("replay", "-", stdin=text), line, *words)


def test_the_first_bad_line_is_reported():
    """An illegal turn before an unreadable line is the one reported, and vice versa."""
    for text, line, words in [
        (HEAD + "p1 reveal -> G1\ngarbage\n", 3, "not to move"),
        (HEAD + "garbage\np1 reveal -> G1\n", 3, "cannot read"),
        (HEAD + "p0 reveal -> W1\np1 reveal -> X9\n", 3, "not in the race deck"),
        (f"{START}\n{_deal(p0='O2/G1.Y1/O1/Y1')}\nhello\n", 2, "p0 discards 1"),
    ]:
        with pytest.raises(OddsbotError, match=f"^line {line}: .*{words}"):
            rec.load_record(text)


# --------------------------------------------------------------------------- annotation


SHORT = "\n".join(LINES[:12]) + "\n"  # start, deal and 10 turns: figures, hand, bets after


def test_annotation_is_advise_from_the_movers_view():
    _, steps = rec.load_record(SHORT)
    table = rec.annotate(steps, samples=512, seed=3)
    assert list(table.columns) == rec.ANNOTATION_COLUMNS + SE_COLUMNS
    for (pos, turn), row in zip(steps, table.dicts()):
        advised = cuc.advise(pos, samples=512, seed=3)
        ev = dict(zip(advised["action"], advised["ev"]))
        taken = turn.action if turn.action in ev else swapped(turn.action)
        assert row["ev_taken"] == ev[taken] and row["best_ev"] == max(ev.values())
        assert ev[row["best"]] == row["best_ev"]
        assert row["ev_lost"] == row["best_ev"] - row["ev_taken"] >= 0
        assert (row["action"], row["player"], row["leg"]) == (turn.action, turn.player, 1)
        assert row["card"] == (turn.card or "")
    assert any(" + " in a and a.split(" + ")[0] in ("reveal", "palm", "fox")
               for a in table["action"])  # a bet after the race action was valued


def test_rollout_annotation():
    """With rollouts: the table's win probabilities, and the turn taken rolled out on its
    own (on the same random numbers) where the table did not roll it out."""
    _, steps = rec.load_record(SHORT)
    table = rec.annotate(steps[:3], samples=256, seed=1, rollouts=24, policy="random")
    assert list(table.columns) == (rec.ANNOTATION_COLUMNS + SE_COLUMNS + ROLLOUT_COLUMNS
                                   + ROLLOUT_SE_COLUMNS)
    assert table.provenance["rollouts"] == 24 and table.provenance["policy"] == "random"
    alone = 0
    for (pos, turn), row in zip(steps, table.dicts()):
        advised = cuc.advise(pos, samples=256, seed=1, rollouts=24, policy="random")
        win = {a: w for a, w in zip(advised["action"], advised["win_p"]) if w is not None}
        taken = turn.action if turn.action in advised["action"] else swapped(turn.action)
        if taken not in win:
            alone += 1
            win[taken] = rollout_equity(pos, [taken], rollouts=24, policy="random",
                                        seed=1).win[0]
        assert row["win_p"] == win[taken] and row["best_win_p"] == max(win.values())
        assert win[row["best_rollout"]] == row["best_win_p"]
        assert row["equity_lost"] == pytest.approx(row["best_win_p"] - row["win_p"])
        assert 0 <= row["win_p"] <= row["best_win_p"] <= 1
    assert alone  # the first turn (a palm) is not among the best turns by EV
    pos, turn = steps[1]  # a rolled-out turn alone meets the same random numbers
    advised = cuc.advise(pos, samples=256, seed=1, rollouts=24, policy="random")
    first = advised["action"][0]
    assert rollout_equity(pos, [first], rollouts=24, policy="random", seed=1).win[0] == \
        pytest.approx(advised["win_p"][0])


def test_example_record_is_what_its_command_prints():
    made = re.search(r"Produced by:\s+oddsbot (.+)$", EXAMPLE.read_text(), re.M)[1]
    args = shlex.split(made)
    assert args[:2] == ["new", "camel-up-cards"]
    opts = dict(zip(args[2::2], args[3::2]))
    text = cuc.play(int(opts.get("--players", 4)), int(opts["--seed"]), cuc.NAME,
                    opts["--play"])
    assert text == "\n".join(body(EXAMPLE)) + "\n"


@CLI
def test_replay_of_the_example_from_the_cli(oddsbot_cli):
    run = ok(oddsbot_cli("replay", EXAMPLE, "--samples", "512"))
    turns = len(turn_lines(EXAMPLE.read_text()))
    assert run.err == f"record OK: {turns} turns · game over after leg 3: winner green, " \
                      f"loser white\n"
    flat = " ".join(run.out.split())
    assert "best: " in flat and "EV lost: p0" in flat and "money 2,1,7,19" in flat
    data = json.loads(ok(oddsbot_cli("replay", "-", "--format", "json", "--samples", "256",
                                     stdin=SHORT)).out)
    assert data["result"] is None and len(data["ev_lost"]) == 4
    assert [t["turn"] for t in data["turns"]] == list(range(1, 11))
    assert abs(sum(data["ev_lost"]) - sum(t["ev_lost"] for t in data["turns"])) < 1e-9
    assert data["start"] == START.removeprefix("start ")
