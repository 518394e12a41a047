"""Five Tribes game records: ``oddsbot new five-tribes --play POLICY`` and ``oddsbot replay``
(docs/games/five-tribes.md §19.4, §19.6).

Covered:

* the golden records of ``golden/`` (greedy, heuristic, random) replay: every line legal,
  the final scores and winners those of the record, the kernel's positions; fresh
  ``--play heuristic`` and ``--play random`` records of 2, 3 and 4 players replay, each
  line's value the exact change of the mover's score;
* turns that draw: greedy's Sibittis draw written and replayed, hand-written records of
  each kind of draw (cards, meeples, djinns);
* every kind of bad line, made by mutating a real record (a wrong player, an illegal
  sowing, bid or choice, wrong totals, an impossible refill or draw, a truncated record, a
  garbage line, a bad winner or score, a second start, a turn after the end, ...): exit 2
  with exactly one line ``oddsbot: error: line N: ...`` naming the right line N;
* the sowing check of a record against the kernel's enumeration of sowings;
* the annotation: a greedy record's values are its ``ev_taken``; the invariants, every
  output format, ``--rollouts`` on a short record, and the CLI in a pseudo-terminal (its
  progress display) and piped.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from checks import bad_line, ok
from oddsbot.analyser.five_tribes import face as ft
from oddsbot.analyser.five_tribes import record as rec
from oddsbot.analyser.five_tribes.encode import encode
from oddsbot.analyser.five_tribes.simulate import simulate
from oddsbot.analyser.records_common import ROLLOUT_COLUMNS, SE_COLUMNS
from oddsbot.kernels import five_tribes as FT
from terminal import in_terminal

GOLDEN = Path(__file__).parent / "golden"
GREEDY = GOLDEN / "five-tribes-4p-seed5.txt"
RANDOM = GOLDEN / "five-tribes-3p-seed31-random.txt"  # 3 players, Kandicha draws cards
LINE = re.compile(r"round +(\d+) p(\d) (.*) \| value ([+-][\d.e+-]+) \| totals ([\d,-]+)")
# a late-game position of the greedy golden (round 7, player 2 to move), its player 2's
# holdings left out: each test gives them what it needs
LATE = ("five-tribes D6:,V5:WG@1+P1,O8:@3,L4:B@3,S6:B,V5:@0+P2/S6:BR,S6:G@3,D6:B@2,D6:G@2,"
        "O8:G@2+p1,O8:/O8:@3,V5:GG@1+P2,S6:,L4:W@0,S6:@3,O8:@3+p1/D15:@0,D12:@1,L4:RR,"
        "S6:@3,S6:YBBG,S6:/D10:@0,D6:,V5:,L4:@0,V5:,O8:WWB n=4 turn=1:2,0:3,0:0,0:1 "
        "res=fa,pa,fa,fa,wh,fa,fa,fi,si dj=Jafaar,Leta,Monkir p0=gc62,v7 "
        "p1=gc59,e4,je1,go1,pa1,si1,fi3,wh1,po1,Baal,Marid p2=gc70,v3,{} p3=v5,e2 rd=fa")


def turn_lines(text: str) -> list[re.Match]:
    return [m for m in map(LINE.fullmatch, text.splitlines()) if m]


# --------------------------------------------------------------------------- good records


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("five-tribes*.txt")), ids=lambda p: p.stem)
def test_golden_records_replay(path):
    text = path.read_text()
    record, steps = rec.load_record(text)
    assert steps.over and steps.to_move is None
    lines = text.splitlines()
    assert len(steps) == len(turn_lines(text))
    assert sum(line.startswith("refill ") for line in lines) == steps.round
    assert lines[-1] == "winner " + ",".join(f"p{p}" for p in steps.winners)
    scores = [line.split()[2:] for line in lines if line.startswith("score ")]
    assert [tuple(int(v) for v in s[1::2]) for s in scores] == list(steps.scores)
    assert steps[0][0] == record.start
    for (before, played), m in zip(steps, turn_lines(text)):
        assert (played.round, played.player, played.action) == (int(m[1]), int(m[2]), m[3])
        assert played.player == before.to_move
    assert rec.status(steps).startswith("game over after round ")
    assert rec.result(steps)["winners"] == list(steps.winners)


def test_replay_positions_are_the_kernels():
    """Each position is the one before its line; the lines' totals are the kernel's
    scores after it; a line's gain is the change of its mover's total."""
    text = RANDOM.read_text()
    _, steps = rec.load_record(text)
    after = [pos for pos, _ in steps[1:]] + [steps.final]
    cleanups = 0
    for (before, played), nxt, m in zip(steps, after, turn_lines(text)):
        totals = [int(x) for x in FT.state_scores(encode(nxt))[:, -1]]
        if nxt.phase == "bidding" and before.phase == "turns":  # a clean-up came between
            cleanups += 1
        else:
            assert totals == [int(x) for x in m[5].split(",")]
        mover = played.player
        gain = [int(x) for x in m[5].split(",")][mover] - int(
            FT.state_scores(encode(before))[mover, -1])
        assert played.gain == gain == float(m[4])  # the kernel policies' value: exact
    assert cleanups == steps.round  # the last clean-up's included


@pytest.mark.parametrize("policy", ["heuristic", "random"])
@pytest.mark.parametrize("players,seed", [(2, 3), (3, 4), (4, 5)])
def test_new_play_writes_a_record_that_replays(oddsbot_cli, policy, players, seed):
    text = ok(oddsbot_cli("new", "five-tribes", "--play", policy, "--players", players,
                          "--seed", seed)).out
    record, steps = rec.load_record(text)
    assert record.start == ft.new_position(players, seed)
    assert steps.over and len(steps) == len(turn_lines(text))
    assert text == simulate(record.start, seed=seed, policy=policy).text()
    for (_, played), m in zip(steps, turn_lines(text)):
        assert played.gain == float(m[4])


def test_new_play_premove_variant_replays(oddsbot_cli):
    text = ok(oddsbot_cli("new", "five-tribes-premove", "--play", "random", "--players", 3,
                          "--seed", 8)).out
    record, steps = rec.load_record(text)
    assert record.start.end_rule == "premove" and steps.over


def test_unknown_policy_is_refused(oddsbot_cli):
    run = oddsbot_cli("new", "five-tribes", "--play", "clever")
    assert run.code == 2 and run.out == "" and len(run.err.splitlines()) == 1
    assert "--play" in run.err and all(p in run.err for p in ft.POLICIES)
    assert ft.POLICIES == ("greedy", "heuristic", "random")


# --------------------------------------------------------------------------- draws


def late(holdings: str) -> ft.Position:
    pos = ft.parse(LATE.format(holdings))
    ft.validate(pos)
    return pos


def test_greedy_draw_is_written_and_replays():
    """Greedy uses Sibittis after its tile action (docs/games/five-tribes.md §20.9): the
    record says which djinns it drew, and replays to the same position."""
    pos = late("e6,fa1,Haurvatat,Sibittis")
    result = simulate(pos, seed=3, rounds=1)
    text = result.text()
    drew = [line for line in text.splitlines() if line.startswith("drew ")]
    assert drew == ["drew djinns Hagis,Kumarbi,Nekir"]
    turn = next(t for t in result.turns if t.drew)
    assert "djinn Sibittis (2 elders) draws 3; keep Hagis" in turn.action
    _, steps = rec.load_record(text)
    played = next(p for _, p in steps if p.drew)
    assert played.drew == ("djinns Hagis,Kumarbi,Nekir",)
    assert played.decision.endswith("djinn Sibittis (2 elders) draws 3; then best")
    # another possible draw replays to another position; an impossible one is refused
    other = text.replace("drew djinns Hagis,Kumarbi,Nekir", "drew djinns Hagis,Nekir,Sloar")
    assert rec.load_record(other)[1].final != steps.final
    line = text.splitlines().index(drew[0]) + 1
    with pytest.raises(rec.RecordError, match=f"line {line}: 'drew djinns Hagis,Jafaar,"
                                             f"Nekir' is impossible"):
        rec.load_record(text.replace(drew[0], "drew djinns Nekir,Jafaar,Hagis"))


HAND_MADE = [  # (holdings of player 2, the turn, its drew lines)
    ("e2,fa3,Sloar", "r1c0>r1c1:R>r1c2:B; take 2B; builders (+2 fakirs); djinn Jafaar "
     "(2 elders); djinn Sloar (fakir) draws a card", ["drew cards fi"]),
    ("e3,fa1,Anun-Nak", "r1c0>r1c1:R>r1c2:B; take 2B; builders (+1 fakir); djinn Jafaar "
     "(2 elders); djinn Anun-Nak (elder) meeples r0c0", ["drew meeples RBW"]),
    ("e4,Sibittis", "djinn Sibittis (2 elders) draws 3; keep Boaz; r1c0>r1c1:R>r1c2:B; "
     "take 2B; djinn Jafaar (2 elders)", ["drew djinns boaz, sloar, nekir"]),
]


@pytest.mark.parametrize("holdings,turn,drew", HAND_MADE, ids=["cards", "meeples", "djinns"])
def test_hand_made_draws(holdings, turn, drew, oddsbot_cli):
    pos = late(holdings)
    text = "\n".join([f"start {pos.to_notation()}", f"p2 {turn}", *drew]) + "\n"
    _, steps = rec.load_record(text)
    played = steps[0][1]
    assert len(played.drew) == 1 and played.drew[0].split()[0] == drew[0].split()[1]
    assert played.decision.endswith("; then best") and f"{turn}; ".startswith(
        played.decision.removesuffix("then best"))
    lines = text.splitlines()
    bad_line(oddsbot_cli("replay", "-", stdin="\n".join(lines[:2])), 2, "the turn draws",
             "drew")
    kind = drew[0].split()[1]
    wrong = "drew cards fi" if kind != "cards" else "drew meeples Y"
    bad_line(oddsbot_cli("replay", "-", stdin="\n".join(lines[:2] + [wrong])), 3,
             f"is of {kind}")
    bad_line(oddsbot_cli("replay", "-", stdin="\n".join(lines + lines[2:])), 4,
             "a drew line, but the turn made 1 draw")


def test_a_certain_draw_is_not_written():
    """Sibittis with 3 djinns left in deck and discard draws them all: nothing to say."""
    pos = late("e4,Sibittis")
    pos = pos.with_(djinn_discard=tuple(d for d in pos.djinn_deck if d not in
                                        ("Boaz", "Sloar", "Nekir")))
    ft.validate(pos)
    turn = ("djinn Sibittis (2 elders) draws 3; keep Boaz; r1c0>r1c1:R>r1c2:B; take 2B; "
            "djinn Jafaar (2 elders)")
    _, steps = rec.load_record(f"start {pos.to_notation()}\np2 {turn}\n")
    assert steps[0][1].drew == () and steps[0][1].decision == turn


# --------------------------------------------------------------------------- bad lines


def _replace(n: int, old: str, new: str):
    def edit(lines: list[str]) -> list[str]:
        assert old in lines[n - 1], (n, old, lines[n - 1])
        return lines[:n - 1] + [lines[n - 1].replace(old, new, 1)] + lines[n:]
    return edit


def _insert(n: int, text: str):
    """``text`` as line ``n`` (the lines from ``n`` on move down)."""
    return lambda lines: lines[:n - 1] + [text] + lines[n - 1:]


def _delete(n: int):
    return lambda lines: lines[:n - 1] + lines[n:]


def _end(lines: list[str]) -> int:
    """The number of the last refill line."""
    return max(i for i, line in enumerate(lines, 1) if line.startswith("refill "))


# mutations of the random golden (3 players: p2, p0, p1 bid in round 1; line 5 is p1's
# first turn, ending on a sacred place for p0 at line 6; line 8 the first refill; line 35
# kills a Merchant for Kandicha, its card on line 36): (id, edit, bad line, words)
BAD = [
    ("wrong-seat-bid", _replace(3, "p0 bid 5", "p1 bid 5"), 3, "wrong seat", "p0's turn"),
    ("wrong-seat-turn", _replace(5, " p1 ", " p2 "), 5, "p2 is not to move"),
    ("seat-beyond-table", _replace(2, " p2 ", " p7 "), 2, "p7 is not to move"),
    ("bid-space-taken", _replace(4, "bid 8", "bid 5"), 4, "'bid 5' is not a legal bid",
     "bid 18"),
    ("bid-unknown", _replace(2, "bid 0", "bid 7"), 2, "not a legal bid"),
    ("bid-kumarbi-without-it", _replace(2, "bid 0", "bid 18 kumarbi 1"), 2,
     "not a legal bid"),
    ("bid-in-the-turns", _replace(5, "r3c2>r3c3:Y>r3c4:G>r2c4:W; take 3W; buy wheat@2+fakir@4",
                                  "bid 0"), 5, "play a turn", "bids of round 1 are over"),
    ("turn-while-bidding", _replace(2, "bid 0", "r3c2>r3c3:Y>r3c4:G>r2c4:W; take 3W"), 2,
     "p2 is to bid"),
    ("sowing-not-adjacent", _replace(5, "r3c2>r3c3:Y", "r3c2>r3c4:Y"), 5,
     "illegal sowing", "r3c4 is not next to r3c2"),
    ("sowing-straight-back", _replace(5, "r3c3:Y>r3c4:G>r2c4:W", "r3c3:Y>r3c2:G>r2c2:W"), 5,
     "goes straight back"),
    ("sowing-wrong-meeples", _replace(5, "r3c4:G", "r3c4:Y"), 5, "holds YWG"),
    ("sowing-last-meeple", _replace(5, "r3c3:Y>r3c4:G>r2c4:W; take 3W",
                                    "r3c3:Y>r3c4:W>r2c4:G; take 3G"), 5,
     "last meeple G lands on r2c4, which held no G"),
    ("sowing-unreadable", _replace(5, "r3c2>r3c3:Y", "r9c2>r3c3:Y"), 5,
     "cannot read the sowing 'r9c2>"),
    ("sowing-start-empty", _replace(5, "r3c2>r3c3:Y>r3c4:G>r2c4:W; take 3W",
                                    "r2c2>r2c3:B"), 5, "illegal sowing"),
    ("take-miscounted", _replace(5, "take 3W", "take 4W"), 5, "gives 'take 3W'"),
    ("no-sowing-while-one-is-legal", _replace(5, "r3c2>r3c3:Y>r3c4:G>r2c4:W; take 3W; buy "
                                                 "wheat@2+fakir@4", "no sowing"), 5,
     "has a legal sowing"),
    ("tile-action-wrong", _replace(6, "skip sacred-place", "palace"), 6,
     "no legal choice reads 'palace'", "skip sacred-place"),
    ("turn-not-over", _replace(6, "; skip sacred-place", ""), 6, "the turn is not over"),
    ("card-not-in-row-place", _replace(5, "wheat@2", "silk@2"), 5, "no legal choice reads"),
    ("totals-wrong", _replace(5, "totals 45,43,50", "totals 45,44,50"), 5,
     "totals mismatch", "45,44,50", "45,43,50"),
    ("totals-entries", _replace(5, "totals 45,43,50", "totals 45,43"), 5,
     "2 entries for 3 players"),
    ("value-not-a-number", _replace(5, "value +1", "value one"), 5, "cannot read"),
    ("round-wrong", _replace(9, "round  2", "round  3"), 9, "round 3, but this is round 2"),
    ("refill-missing", _delete(8), 8, "round 1's turns are over", "must follow line 7"),
    ("record-ends-before-refill", lambda lines: lines[:7], 7,
     "round 1's last turn, and the record ends"),
    ("garbage-instead-of-refill", lambda lines: lines[:7] + ["garbage"], 8, "cannot read"),
    ("refill-too-early", _insert(3, "refill res=go,si dj=-"), 3, "a refill line",
     "p0 is to bid"),
    ("refill-reordered", _replace(8, "res=go,si", "res=si,go"), 8,
     "keeps the cards left (go,si)"),
    ("refill-impossible-card", _replace(8, "res=go,si,fa", "res=go,si,go"), 8,
     "cannot refill the row with go"),
    ("refill-short", _replace(8, ",pa,fa,fi dj", ",pa,fa dj"), 8, "refilled to 9"),
    ("refill-impossible-djinn", _replace(22, "Lamia", "Kandicha"), 22,
     "cannot show Kandicha"),
    ("refill-unreadable", _replace(8, "res=", "cards="), 8, "cannot read"),
    ("drew-missing", _delete(36), 35, "the turn draws cards"),
    ("drew-impossible", _replace(36, "cards je", "cards go"), 36, "impossible",
     "it could draw"),
    ("drew-two-cards", _replace(36, "cards je", "cards je,fi"), 36, "impossible"),
    ("drew-wrong-kind", _replace(36, "cards je", "djinns Boaz"), 36, "of cards, not djinns"),
    ("drew-without-draw", _insert(6, "drew cards iv"), 6, "a drew line, but the turn made 0"),
    ("drew-after-a-bid", _insert(3, "drew cards iv"), 3, "a drew line, but the bid made 0"),
    ("drew-first", _insert(2, "drew cards iv"), 2, "must follow the turn line"),
    ("drew-unreadable", _replace(36, "cards je", "cards xx"), 36, "cannot read",
     "unknown resource card"),
    ("garbage", _insert(4, "hello world"), 4, "cannot read", "hello world"),
    ("second-start", lambda lines: lines[:3] + [lines[0]] + lines[3:], 4,
     "a second start line"),
    ("score-line-mid-game", _insert(5, "score p0 total 45"), 5, "score line, but the game "
                                                                "is not over"),
    ("truncated-mid-line", lambda lines: lines[:5] + [lines[5][:28]], 6,
     "cannot read the sowing 'r3c3>r2c3:W>r2c4'"),
    ("bad-winner", lambda lines: lines[:-1] + ["winner p1"], -1, "winner mismatch", "p2"),
    ("bad-score", lambda lines: lines[:-4] + [lines[-4].replace("total 66", "total 67")]
     + lines[-3:], -4, "score mismatch for p0", "total 67", "66"),
    ("score-unknown-part", lambda lines: lines[:-4] + ["score p0 cash 8"] + lines[-3:], -4,
     "'cash' is not a part"),
    ("score-twice", lambda lines: lines[:-1] + [lines[-2]] + lines[-1:], -2,
     "a second score line for p2"),
    ("after-the-winner", lambda lines: lines + ["score p0 total 62"], 0,
     "nothing may follow the winner line"),
]


def _after_end(lines: list[str]) -> tuple[list[str], int, str]:
    """A turn after the last clean-up (the game is over)."""
    end = _end(lines)
    return lines[:end] + ["round 10 p0 bid 0"] + lines[end:], end + 1, f"ended at line {end}"


def _truncated(lines: list[str]) -> tuple[list[str], int, str]:
    """The record's last rounds cut off, its score and winner lines kept."""
    cut = lines[:37] + lines[_end(lines):][1:]
    return cut, 38, "score line, but the game is not over"


@pytest.mark.parametrize("edit,line,words", [(c[1], c[2], c[3:]) for c in BAD],
                         ids=[c[0] for c in BAD])
def test_bad_line_exits_2_naming_its_line(oddsbot_cli, edit, line, words):
    lines = RANDOM.read_text().splitlines()
    changed = edit(lines)
    n = line if line > 0 else len(changed) + line if line < 0 else len(changed)
    n += line < 0  # -1: the last line
    bad_line(oddsbot_cli("replay", "-", stdin="\n".join(changed) + "\n"), n, *words)


@pytest.mark.parametrize("make", [_after_end, _truncated], ids=["turn-after-end", "truncated"])
def test_bad_ends(oddsbot_cli, make):
    changed, line, words = make(RANDOM.read_text().splitlines())
    bad_line(oddsbot_cli("replay", "-", stdin="\n".join(changed)), line, words)


@pytest.mark.parametrize("text,line,words", [
    ("", 1, "empty"),
    ("# nothing\n\n", 2, "empty"),
    ("p0 bid 0\n", 1, "start"),
    ("start five-tribes S6:YYR n=4\n", 1, "bad start position"),
    ("start five-tribes\n", 1, "bad start position"),
    ("start\np0 bid 0\n", 1, "start <position notation>"),
], ids=["empty", "comments-only", "no-start", "bad-start", "no-board", "start-alone"])
def test_bad_starts(oddsbot_cli, text, line, words):
    bad_line(oddsbot_cli("replay", "-", stdin=text), line, words)


def test_first_bad_line_is_reported(oddsbot_cli):
    """An illegal line before an unreadable one is the one reported, and vice versa."""
    lines = RANDOM.read_text().splitlines()
    early = _replace(3, " p0 ", " p1 ")(lines)
    bad_line(oddsbot_cli("replay", "-", stdin="\n".join(early[:5] + ["garbage"])), 3,
             "wrong seat")
    bad_line(oddsbot_cli("replay", "-", stdin="\n".join(lines[:2] + ["garbage"] +
                                                       early[2:5])), 3, "cannot read")


def test_lenient_lines_replay_as_written():
    """Rounds, values and totals may be left out; comments and spacing are free; drew
    items in any order and case."""
    lines = RANDOM.read_text().splitlines()[:40]
    loose = [lines[0] + "   # the deal"]
    for line in lines[1:]:
        m = LINE.fullmatch(line)
        loose.append(f"  p{m[2]}   {'  '.join(m[3].split(' '))}  # no numbers" if m
                     else line.upper().replace("REFILL RES", "refill res").replace(
                         " DJ=", " dj=").replace("DREW CARDS", "drew cards"))
    a, b = rec.load_record("\n".join(lines)), rec.load_record("\n\n".join(loose))
    assert [(p, t.action, t.drew) for p, t in a[1]] == [(p, t.action, t.drew) for p, t in b[1]]
    assert b[1].final == a[1].final and not b[1].over and b[1].to_move == a[1].to_move


# --------------------------------------------------------------------------- the sowing rule


@pytest.mark.parametrize("seed,end_rule", [(0, "live"), (1, "premove"), (2, "live")])
def test_sowing_check_agrees_with_the_kernel(seed, end_rule):
    """Every sowing the kernel lists passes ``sowing_fault``; walks and orders drawn at
    random pass it exactly when the kernel lists them (loops included: a tall stack)."""
    st = encode(ft.new_position(3, seed).with_(end_rule=end_rule))
    counts = FT.meeples(st)  # a view of the state
    counts[14] = [2, 1, 1, 1, 1]  # r2c2: a stack of 6, loops that end on visited tiles
    starts, paths, colours, lengths = FT.sowings(counts.copy(), FT.END_RULES.index(end_rule))
    listed = {(int(s), tuple(p[:n]), tuple(c[:n])) for s, p, c, n in
              zip(starts, paths, colours, lengths)}
    for s, p, c in list(listed)[:3000]:
        assert rec.sowing_fault(st, s, list(p), list(c)) is None
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(20000):
        s = int(rng.choice([t for t in range(FT.N_TILES) if counts[t].sum()]))
        hand = [c for c in range(FT.N_COLOURS) for _ in range(counts[s, c])]
        order = [int(x) for x in rng.permutation(hand)]
        path, here, prev = [], s, -1
        for _ in order:
            nxt = [int(t) for t in FT.NEIGHBOURS[here] if t >= 0 and t != prev]
            prev, here = here, int(rng.choice(nxt))
            path.append(here)
        legal = (s, tuple(path), tuple(order)) in listed
        hits += legal
        assert (rec.sowing_fault(st, s, path, order) is None) == legal, (s, path, order)
    assert hits > 100


# --------------------------------------------------------------------------- annotation


def mid_game_record(lines: int) -> str:
    """The greedy golden's round 6 from its start (a mid-game position: small tables),
    its first ``lines`` lines."""
    text = GREEDY.read_text()
    _, steps = rec.load_record(text)
    k = next(i for i, (_, p) in enumerate(steps) if p.round == 6)
    body = [line for line in text.splitlines() if line.startswith("round  6 ")]
    return "\n".join([f"start {steps[k][0].to_notation()}"] + body[:lines]) + "\n"


def test_greedy_values_are_the_annotation():
    """A greedy record's values are the advise table's: the bid model's for bids, the
    exact turn values for turns; greedy's choices lose nothing by them."""
    text = mid_game_record(6)
    _, steps = rec.load_record(text)
    table = rec.annotate(steps, samples=2000, seed=0)
    assert list(table.columns) == rec.ANNOTATION_COLUMNS + SE_COLUMNS
    values = [float(m[4]) for m in turn_lines(text)]
    assert table["ev_taken"] == pytest.approx(values, abs=1e-9)
    assert table["ev_lost"] == [0.0] * 6 and table["round"] == [6] * 6
    assert table["action"] == table["best"] == [m[3] for m in turn_lines(text)]
    assert rec.ev_lost_by_player(table, 4) == [0.0] * 4


def test_annotation_of_a_draw_and_of_a_loss():
    """A turn that drew is valued as chosen (its 'then best' row); a worse turn loses the
    difference to the best of the table."""
    pos = late("e6,fa1,Haurvatat,Sibittis")
    text = simulate(pos, seed=3, rounds=1).text().splitlines()
    drawn = "\n".join(text[:next(i for i, line in enumerate(text) if line.startswith("drew"))
                           + 1])
    _, steps = rec.load_record(drawn)
    df = rec.annotate(steps, samples=2000, seed=0).frame()
    table = ft.advise(steps[-1][0]).frame().set_index("action")
    played = steps[-1][1]
    assert df["ev_taken"].iloc[-1] == table.loc[played.decision, "ev"]
    assert df["ev_taken"].iloc[-1] == pytest.approx(float(turn_lines(drawn)[-1][4]), abs=1e-4)
    assert df["drew"].iloc[-1] == "djinns Hagis,Kumarbi,Nekir"
    weak = f"start {pos.to_notation()}\np2 r1c0>r1c1:R>r1c2:B; take 2B; skip sacred-place\n"
    _, steps = rec.load_record(weak)
    row = rec.annotate(steps, samples=2000, seed=0).dicts()[0]
    best = ft.advise(steps[0][0]).frame().iloc[0]
    assert row["ev_taken"] == steps[0][1].gain and row["best_ev"] == best["ev"]
    assert row["ev_lost"] == best["ev"] - row["ev_taken"] > 0
    assert row["best"] == best["action"]


def test_output_formats(oddsbot_cli):
    text = mid_game_record(5)
    data = json.loads(ok(oddsbot_cli("replay", "-", "-f", "json", "--seed", "2",
                                     stdin=text)).out)
    assert set(data) == {"game", "start", "position", "turns", "result", "ev_lost",
                         "provenance"}
    assert data["game"] == "five-tribes" and data["result"] is None
    assert [t["turn"] for t in data["turns"]] == [1, 2, 3, 4, 5]
    assert set(data["turns"][0]) == set(rec.ANNOTATION_COLUMNS + SE_COLUMNS)
    assert len(data["ev_lost"]) == 4 and data["provenance"]["seed"] == 2
    csv = ok(oddsbot_cli("replay", "-", "-f", "csv", stdin=text)).out
    assert csv.splitlines()[0] == ",".join(rec.ANNOTATION_COLUMNS + SE_COLUMNS)
    table = ok(oddsbot_cli("replay", "-", stdin=text))
    assert "VP lost: p0" in " ".join(table.out.split())
    assert table.err.startswith("record OK: 5 turns · game not over: round 6, p0 to play")


def test_rollout_annotation(oddsbot_cli):
    """``--rollouts``: the equity columns; the action taken is rolled out even when the
    table's candidates leave it out (a bid: every bid is a candidate)."""
    text = mid_game_record(5)
    data = json.loads(ok(oddsbot_cli("replay", "-", "-f", "json", "--rollouts", "16",
                                     "--seed", "1", stdin=text)).out)
    assert data["provenance"]["rollouts"] == 16 and data["provenance"]["policy"] == "heuristic"
    for t in data["turns"]:
        assert set(ROLLOUT_COLUMNS) <= set(t)
        assert 0.0 <= t["win_p"] <= t["best_win_p"] <= 1.0
        assert t["equity_lost"] == pytest.approx(t["best_win_p"] - t["win_p"])
    compact = ok(oddsbot_cli("replay", "-", "--rollouts", "16", "--policy", "random",
                             stdin=text))
    assert "equity_lost" in compact.out and "win_p" in compact.out
    # a turn far from the best 12 by ev: rolled out on its own, on the same random numbers
    pos = late("e2")
    weak = "r1c0>r1c1:R>r1c2:B; take 2B; skip sacred-place"
    _, steps = rec.load_record(f"start {pos.to_notation()}\np2 {weak}\n")
    row = rec.annotate(steps, samples=2000, seed=1, rollouts=16).dicts()[0]
    table = ft.advise(pos, rollouts=16, seed=1).frame()
    assert weak not in set(table.loc[table["win_p"].notna(), "action"])
    assert 0.0 <= row["win_p"] <= row["best_win_p"] == table["win_p"].max()
    assert row["equity_lost"] == pytest.approx(row["best_win_p"] - row["win_p"])


def test_replay_in_a_terminal_and_piped(tmp_path, oddsbot_cli):
    path = tmp_path / "short.record"
    path.write_text(mid_game_record(3))
    code, screen = in_terminal(["replay", str(path)], 80)
    assert code == 0 and "Traceback" not in screen, screen[-3000:]
    assert "annotating" in screen and "record OK: 3 turns" in screen
    assert "ev_taken" in screen and "VP lost: p0" in screen
    piped = ok(oddsbot_cli("replay", path))
    assert "annotating" not in piped.err and piped.err.startswith("record OK: 3 turns")
    bad = tmp_path / "bad.record"
    bad.write_text(mid_game_record(3).replace("p0 bid 0", "p0 bid 7"))
    code, screen = in_terminal(["replay", str(bad)], 80)
    assert code == 2 and "line 4: 'bid 7' is not a legal bid" in screen, screen
