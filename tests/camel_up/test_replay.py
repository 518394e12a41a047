"""Game records: ``oddsbot replay RECORD`` and ``oddsbot new camel-up --play POLICY``.

Covered:

* every kind of bad line (unreadable, unknown action, illegal action of each kind, wrong
  seat, die results missing / misplaced / not in the pyramid / bad face, a turn after the
  game ended, money mismatch, turn number out of sequence, bad start line, result line
  too early or wrong) exits 2 with one line ``oddsbot: error: line N: ...`` naming the
  right line N, and the first bad line of the file is the one reported;
* both shipped example records replay cleanly and are exactly what the command in their
  header comment prints; the golden playthroughs of ``golden/*.txt`` here replay too;
* a golden annotated replay, byte for byte:
  ``oddsbot replay examples/camel-up-game-4p.record --format csv --seed 1 --samples 20000``;
* the annotation's invariants and every output format on a short record;
* ``new --play`` output parses and replays, for both editions and with partnerships;
* ``--rollouts`` (run only once ``advise`` takes a ``rollouts`` argument).
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from checks import bad_line, ok
from oddsbot.analyser.records_common import ROLLOUT_COLUMNS, ROLLOUT_SE_COLUMNS, SE_COLUMNS
from oddsbot.analyser.camel_up import face as cu
from oddsbot.analyser.camel_up import record as rec
from oddsbot.analyser.table import Table

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
GOLDEN = Path(__file__).parent / "golden"
GAME_4P = EXAMPLES / "camel-up-game-4p.record"
GAME_2014 = EXAMPLES / "camel-up-game-2014-3p.record"
REPLAY_GOLDEN = GOLDEN / "camel-up-game-4p.replay.csv"

START = "start camel-up YG/RB/P/10/WK/2 BGYRPX n=4 to=0"  # the 4p example's start
START_6P = "start camel-up RGPBY/12/K/1/W BGYRPX n=6 to=0"
START_2014 = "start camel-up-2014 GWBO/Y/14 BGOYW n=3 to=0"  # the 2014 example's start


def example_lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def body(path: Path) -> str:
    """A record file without its comment header."""
    return "".join(line + "\n" for line in example_lines(path)
                   if line.strip() and not line.startswith("#"))


# --------------------------------------------------------------------------- bad lines

# (id, record text, bad line number, words the message must contain)
BAD_LINES = [
    # unreadable lines
    ("unparseable", f"{START}\np0 ticket blue\nhello world\n", 3, "cannot read"),
    ("unparseable-seat", f"{START}\nplayer0 ticket blue\n", 2, "cannot read"),
    ("unparseable-after-bar", f"{START}\np0 ticket blue | cash 3\n", 2, "money"),
    ("money-not-numbers", f"{START}\np0 ticket blue | money 3,3,x,3\n", 2, "money", "3,3,x,3"),
    ("money-entries", f"{START}\np0 ticket blue | money 3,3,3\n", 2, "money",
     "3 entries for 4 players"),
    # unknown actions
    ("unknown-action", f"{START}\n1 p0 tickt blue\n", 2, "unknown action", "tickt blue"),
    ("unknown-colour", f"{START}\np0 ticket pink\n", 2, "unknown action", "pink"),
    ("crazy-colour-ticket", f"{START}\np0 ticket white\n", 2, "unknown action"),
    ("spectator-space-1", f"{START}\np0 spectator 1 cheer\n", 2, "unknown action"),
    ("spectator-no-side", f"{START}\np0 spectator 7\n", 2, "unknown action"),
    ("partner-negative", f"{START_6P}\np0 partner -1\n", 2, "unknown action"),
    ("partner-beyond-any-table", f"{START_6P}\np0 partner 9\n", 2, "unknown action"),
    # actions the kernel refuses here
    ("ticket-stack-empty",
     f"{START}\np0 ticket blue\np1 ticket blue\np2 ticket blue\np3 ticket blue\n"
     f"p0 ticket blue\n", 6, "not legal", "ticket blue", "no blue betting ticket left"),
    ("ticket-stack-empty-2014",
     f"{START_2014}\np0 ticket green\np1 ticket green\np2 ticket green\np0 ticket green\n", 5,
     "not legal", "ticket green"),
    ("spectator-next-to-other-tile",
     f"{START}\np0 spectator 5 boo\np1 spectator 6 cheer\n", 3, "not legal",
     "spectator 6 cheer", "another player's tile"),
    ("spectator-on-camel", f"{START}\np0 spectator 3 cheer\n", 2, "not legal",
     "spectator 3 cheer"),
    ("spectator-on-tile", f"{START}\np0 spectator 5 boo\np1 spectator 5 boo\n", 3,
     "not legal"),
    ("spectator-flip-in-place",
     f"{START}\np0 spectator 5 boo\np1 ticket red\np2 ticket red\np3 ticket red\n"
     f"p0 spectator 5 cheer\n", 6, "not legal", "spectator 5 cheer"),
    ("winner-card-placed",
     f"{START}\np0 winner blue\np1 ticket red\np2 ticket red\np3 ticket red\n"
     f"p0 winner blue\n", 6, "not legal", "already placed their blue finish card"),
    ("loser-card-placed-as-winner",
     f"{START}\np0 winner blue\np1 ticket red\np2 ticket red\np3 ticket red\n"
     f"p0 loser blue\n", 6, "not legal", "loser blue"),
    ("partner-4-players", f"{START}\np0 partner 1\n", 2, "not legal", "6-8 players"),
    ("partner-2014", f"{START_2014}\np0 partner 1\n", 2, "not legal", "partner 1"),
    ("partner-taken", f"{START_6P}\np0 partner 1\np1 partner 2\n", 3, "already the partner",
     "partner 2"),
    ("partner-with-taken-player", f"{START_6P}\np0 partner 1\np1 ticket red\np2 partner 1\n",
     4, "not legal", "partners available to p2: 3, 4, 5"),
    ("partner-oneself", f"{START_6P}\np0 partner 0\n", 2, "not legal", "partner 0"),
    ("partner-empty-seat", f"{START_6P}\np0 partner 7\n", 2, "not legal", "partner 7"),
    # wrong seat
    ("wrong-seat", f"{START}\n1 p1 ticket blue\n", 2, "p1 is not to move", "p0"),
    ("wrong-seat-later", f"{START}\np0 ticket blue\np2 ticket blue\n", 3, "p2", "p1"),
    ("seat-beyond-table", f"{START}\np9 ticket blue\n", 2, "p9"),
    # die results
    ("pyramid-without-die", f"{START}\np0 ticket blue\np1 pyramid\n", 3, "pyramid without"),
    ("pyramid-empty-die", f"{START}\np0 pyramid ->\n", 2, "die result"),
    ("die-on-ticket", f"{START}\np0 ticket blue -> blue 2\n", 2, "die result",
     "ticket blue"),
    ("die-on-spectator", f"{START}\np0 spectator 7 boo -> grey white 1\n", 2, "die result"),
    ("die-not-in-pyramid", f"{START}\np0 pyramid -> blue 1\np1 pyramid -> blue 2\n", 3,
     "blue die is not in the pyramid"),
    ("grey-die-not-in-pyramid",
     f"{START}\np0 pyramid -> grey white 1\np1 ticket red\np2 pyramid -> grey black 3\n", 4,
     "grey die is not in the pyramid"),
    ("bad-face-4", f"{START}\np0 pyramid -> blue 4\n", 2, "bad die face", "4"),
    ("bad-face-0", f"{START}\np0 pyramid -> green 0\n", 2, "bad die face"),
    ("bad-face-word", f"{START}\np0 pyramid -> green two\n", 2, "bad die face"),
    ("grey-without-colour", f"{START}\np0 pyramid -> grey 2\n", 2, "grey white|black"),
    ("grey-wrong-colour", f"{START}\np0 pyramid -> grey red 2\n", 2, "bad die face"),
    ("racing-die-extra-word", f"{START}\np0 pyramid -> blue white 2\n", 2, "blue <1-3>"),
    ("unknown-die", f"{START}\np0 pyramid -> pink 2\n", 2, "unknown die", "pink"),
    ("grey-die-in-2014", f"{START_2014}\np0 pyramid -> grey white 1\n", 2, "unknown die"),
    # money and turn numbers
    ("money-mismatch", f"{START}\n1 p0 spectator 5 boo | money 3,3,3,4\n", 2,
     "money mismatch", "3,3,3,4", "3,3,3,3"),
    ("turn-number-skipped", f"{START}\n1 p0 ticket blue\n3 p1 ticket blue\n", 3,
     "turn number 3", "expected 2"),
    ("turn-number-not-from-1", f"{START}\n0 p0 ticket blue\n", 2, "turn number 0",
     "expected 1"),
    # start line
    ("no-start-line", "p0 ticket blue\n", 1, "start"),
    ("start-after-comments", "# a record\n\n  # indented comment\nstart camel-up XX BGYRPX\n",
     4, "bad start position"),
    ("start-alone", "start\np0 ticket blue\n", 1, "start <position notation>"),
    ("start-invalid", "start camel-up YG/RB/P/10/WK/2 BGYRPX n=4 to=0 money=3,3\n", 1,
     "bad start position", "money"),
    ("start-hidden-cards", "start camel-up YG/RB/P/10/WK/2 BGYRPX n=4 to=1 win=0?\n", 1,
     "finish card"),
    ("second-start", f"{START}\np0 ticket blue\n{START}\n", 3, "second start", "line 1"),
    ("empty-record", "# nothing here\n\n", 2, "empty"),
    ("really-empty", "", 1, "empty"),
    # the end of the game
    ("result-before-game-over", f"{START}\np0 ticket blue\nwinner blue loser red\n", 3,
     "not over", "p1"),
    ("result-bad-colour", f"{START}\np0 ticket blue\nwinner pink loser red\n", 3,
     "result line", "pink"),
]


@pytest.mark.parametrize("text,line,words", [(c[1], c[2], c[3:]) for c in BAD_LINES],
                         ids=[c[0] for c in BAD_LINES])
def test_bad_line_exits_2_naming_its_line(oddsbot_cli, text, line, words):
    bad_line(oddsbot_cli("replay", "-", stdin=text), line, *words)


def test_bad_line_in_a_file_same_as_stdin(oddsbot_cli, tmp_path):
    path = tmp_path / "game.record"
    path.write_text(f"{START}\n1 p0 ticket blue\n2 p1 partner 0\n")
    bad_line(oddsbot_cli("replay", path), 3, "6-8 players")
    assert path.read_text() == f"{START}\n1 p0 ticket blue\n2 p1 partner 0\n"


def _end_of_example() -> tuple[list[str], int]:
    lines = example_lines(GAME_4P)
    last_turn = max(i for i, line in enumerate(lines, 1) if re.match(r"\s*\d+ p\d", line))
    return lines, last_turn


def test_turn_after_game_over(oddsbot_cli):
    lines, last = _end_of_example()
    text = "\n".join(lines[:last] + ["p0 ticket blue"]) + "\n"
    bad_line(oddsbot_cli("replay", "-", stdin=text), last + 1, f"ended at line {last}")


def test_turn_after_result_line(oddsbot_cli):
    lines, last = _end_of_example()
    assert lines[last].startswith("winner ")
    text = "\n".join(lines + ["p0 ticket blue"]) + "\n"
    bad_line(oddsbot_cli("replay", "-", stdin=text), last + 2, "nothing may follow",
             f"line {last + 1}")


def test_result_line_mismatch(oddsbot_cli):
    lines, last = _end_of_example()
    assert lines[last].startswith("winner purple loser yellow money ")
    wrong = lines[:last] + [lines[last].replace("winner purple", "winner blue")]
    bad_line(oddsbot_cli("replay", "-", stdin="\n".join(wrong)), last + 1, "result mismatch",
             "winner blue", "winner purple")
    money = lines[:last] + ["winner purple loser yellow money 1,2,3,4"]
    bad_line(oddsbot_cli("replay", "-", stdin="\n".join(money)), last + 1, "money mismatch",
             "1,2,3,4")
    # the result line is optional; without money it checks the ranking only
    short = lines[:last] + ["winner purple loser yellow  # as it happened"]
    assert rec.load_record("\n".join(short))[1].over


def test_money_mismatch_deep_in_a_game(oddsbot_cli):
    """Tile landings pay at once and leg scoring after the leg's last die: a line whose
    money changed, given the previous line's money, is refused."""
    lines = example_lines(GAME_4P)
    money = [line.split("| money ")[1] if "| money " in line else None for line in lines]
    i = next(i for i in range(1, len(lines)) if money[i] and money[i - 1]
             and money[i] != money[i - 1])
    changed = lines[:i] + [lines[i].replace(money[i], money[i - 1])]
    bad_line(oddsbot_cli("replay", "-", stdin="\n".join(changed)), i + 1, "money mismatch",
             money[i - 1], money[i])


def test_first_bad_line_is_reported(oddsbot_cli):
    """An illegal move before an unreadable line is the one reported, and vice versa."""
    bad_line(oddsbot_cli("replay", "-", stdin=f"{START}\np1 ticket blue\ngarbage\n"), 2,
             "not to move")
    bad_line(oddsbot_cli("replay", "-", stdin=f"{START}\ngarbage\np1 ticket blue\n"), 2,
             "cannot read")
    bad_line(oddsbot_cli("replay", "-", stdin=f"{START}\np0 ticket blue\np1 pyramid -> "
                                              f"blue 9\n"), 3, "bad die face")


def test_missing_record_file_and_bad_options(oddsbot_cli, tmp_path):
    for run, words in [
        (oddsbot_cli("replay", tmp_path / "nope.record"), ("record", "no such file")),
        (oddsbot_cli("replay", GAME_4P, "--format", "xml"), ("--format", "xml")),
        (oddsbot_cli("replay", GAME_4P, "--samples", "0"), ("--samples",)),
        (oddsbot_cli("replay", GAME_4P, "--policy", "random"), ("--policy", "--rollouts")),
    ]:
        assert run.code == 2 and run.out == "", run
        assert len(run.err.splitlines()) == 1 and run.err.startswith("oddsbot: error: ")
        for word in words:
            assert word in run.err


# --------------------------------------------------------------------------- good records


@pytest.mark.parametrize("path,players,variant", [(GAME_4P, 4, "camel-up"),
                                                  (GAME_2014, 3, "camel-up-2014")])
def test_example_records_replay_cleanly(path, players, variant):
    record, steps = rec.load_record(path.read_text())
    assert record.start.players == players and record.start.variant == variant
    assert steps.over and record.result is not None
    assert (steps.winner, steps.loser, steps.money) == (record.result.winner,
                                                        record.result.loser,
                                                        record.result.money)
    assert len(steps) == len(record.turns) > 100
    assert all(t.money is not None for t in record.turns)
    # the header says how the record was made; the command prints exactly its body
    made = re.search(r"Produced by:\s+oddsbot (.+)$", path.read_text(), re.M)[1]
    args = shlex.split(made)
    assert args[:2] == ["new", variant]
    opts = dict(zip(args[2::2], args[3::2]))
    text = rec.play(int(opts.get("--players", 4)), int(opts["--seed"]), variant,
                    opts["--play"])
    assert text == body(path)


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("camel-up*.txt")), ids=lambda p: p.stem)
def test_golden_playthroughs_replay(path):
    """Every Camel Up ``GameResult.text()`` is a valid record."""
    _, steps = rec.load_record(path.read_text())
    assert steps.over and len(steps) == len(path.read_text().splitlines()) - 2


def test_lenient_input_is_read_like_the_canonical_form():
    """Turn numbers, money and the result line are optional; comments anywhere; die and
    tile aliases; any amount of spacing."""
    canonical = "".join(body(GAME_4P).splitlines(keepends=True)[:25])
    loose = [START + "   # the start"]
    for line in canonical.splitlines()[1:]:
        words = line.split(" | ")[0].split()[1:]  # drop number and money
        loose.append("  ".join(words) + "  # comment")
    a = rec.load_record(canonical)
    b = rec.load_record("\n\n".join(loose))
    assert [(p.to_notation(), t.action, t.roll) for p, t in a[1]] == \
           [(p.to_notation(), t.action, t.roll) for p, t in b[1]]
    assert b[1].money == a[1].money and not b[1].over and b[1].to_move == 0
    letters = rec.load_record(f"{START}\np0 pyramid -> G 2\np1 pyramid -> gray black 1\n")
    assert [t.roll for _, t in letters[1]] == ["green 2", "grey black 1"]
    oasis = rec.load_record(f"{START_2014}\np0 spectator 5 oasis\np1 spectator 9 mirage\n")
    assert [t.action for _, t in oasis[1]] == ["desert 5 oasis", "desert 9 mirage"]


def test_replay_positions_follow_the_kernel():
    """Each position is the one before its turn; pyramid dice leave the pyramid."""
    record, steps = rec.load_record(GAME_4P.read_text())
    assert steps[0][0] == record.start
    for (before, turn), (after, _) in zip(steps, steps[1:]):
        assert after.to_move == (before.to_move + 1) % 4
        assert turn.player == before.to_move
        assert turn.action in cu.legal_actions(before)
        if turn.action == "pyramid" and len(before.pyramid) > 2:
            assert set(before.pyramid) - set(after.pyramid) == {turn.roll.split()[0]}


# --------------------------------------------------------------------------- annotation


def test_golden_annotated_replay(oddsbot_cli):
    run = ok(oddsbot_cli("replay", GAME_4P, "--format", "csv", "--seed", "1",
                         "--samples", "20000"))
    assert run.out == REPLAY_GOLDEN.read_text()
    assert run.err.startswith("record OK: 184 turns")


def test_golden_annotation_invariants():
    import pandas as pd

    df = pd.read_csv(REPLAY_GOLDEN)
    assert list(df.columns) == rec.ANNOTATION_COLUMNS + SE_COLUMNS
    assert list(df["turn"]) == list(range(1, len(df) + 1))
    assert (df["ev_lost"] >= 0).all() and (df["best_ev"] >= df["ev"]).all()
    assert ((df["best_ev"] - df["ev"] - df["ev_lost"]).abs() < 1e-9).all()
    assert ((df["ev_lost"] == 0) == (df["ev"] == df["best_ev"])).all()
    assert (df.loc[df["action"] == "pyramid", "roll"].notna()).all()
    assert df.loc[df["action"] != "pyramid", "roll"].isna().all()


SHORT = "".join(body(GAME_4P).splitlines(keepends=True)[:13])  # start + 12 turns


def test_annotation_matches_advise_from_the_movers_view():
    _, steps = rec.load_record(SHORT)
    df = rec.annotate(steps, samples=4096, seed=3).frame()
    for (pos, turn), row in zip(steps, df.itertuples()):
        table = cu.advise(rec.viewpoint(pos), samples=4096, seed=3).frame()
        assert row.action == turn.action and row.player == turn.player
        assert row.ev == table.loc[table["action"] == turn.action, "ev"].iloc[0]
        assert row.best == table["action"].iloc[0] and row.best_ev == table["ev"].iloc[0]
    # the mover sees their own finish cards and nobody else's
    pos = steps[-1][0]
    seen = rec.viewpoint(pos)
    assert pos.loser_deck and all(c.colour is None for c in seen.loser_deck
                                  if c.owner != pos.to_move)
    assert all(c.colour is not None for c in seen.winner_deck + seen.loser_deck
               if c.owner == pos.to_move)
    cu.validate(seen)


def test_output_formats(oddsbot_cli):
    data = json.loads(ok(oddsbot_cli("replay", "-", "--format", "json", "--seed", "2",
                                     "--samples", "4096", stdin=SHORT)).out)
    assert set(data) == {"game", "start", "position", "turns", "result", "ev_lost",
                         "provenance"}
    assert data["start"] == START.split(" ", 1)[1] and data["result"] is None
    assert [t["turn"] for t in data["turns"]] == list(range(1, 13))
    assert data["turns"][11]["action"] == "pyramid" and data["turns"][11]["roll"] == "blue 1"
    assert len(data["ev_lost"]) == 4
    assert abs(sum(data["ev_lost"]) - sum(t["ev_lost"] for t in data["turns"])) < 1e-9
    assert data["provenance"]["seed"] == 2 and data["provenance"]["samples"] == 4096
    md = ok(oddsbot_cli("replay", "-", "--format", "markdown", "--samples", "4096",
                        stdin=SHORT)).out
    assert md.startswith("| turn | player | action | roll | ev | best | best_ev | ev_lost |")
    assert len(md.splitlines()) == 14
    table = ok(oddsbot_cli("replay", "-", "--samples", "4096", stdin=SHORT))
    flat = " ".join(table.out.split())
    assert "spectator 5 boo" in flat and "EV lost: p0" in flat
    assert "game not over: p0 to move" in table.err


def test_rollout_annotation(oddsbot_cli):
    short = "".join(SHORT.splitlines(keepends=True)[:4])  # start + 3 turns
    data = json.loads(ok(oddsbot_cli("replay", "-", "--format", "json", "--seed", "1",
                                     "--samples", "4096", "--rollouts", "64",
                                     stdin=short)).out)
    assert data["provenance"]["rollouts"] == 64
    for t in data["turns"]:
        assert set(ROLLOUT_COLUMNS) <= set(t)
        assert 0.0 <= t["win_p"] <= t["best_win_p"] <= 1.0
        assert abs(t["best_win_p"] - t["win_p"] - t["equity_lost"]) < 1e-12
        assert t["ev_lost"] >= 0


def test_rollout_columns_with_a_stand_in_advise(monkeypatch):
    """The rollout path of ``annotate`` on a stand-in for ``advise(rollouts=...)`` that
    returns the documented shape (extra columns, rows sorted by ``win_p``): the best
    action by rollout equity is the highest ``win_p``, the best by EV still the highest
    ``ev``, whatever the row order."""
    import importlib

    module = importlib.import_module("oddsbot.analyser.camel_up.advise")
    real = module.advise
    calls = []

    def stand_in(pos, *, rollouts=None, policy=None, **kw):
        calls.append((rollouts, policy))
        df = real(pos, **kw).frame()
        df["win_p"] = [(i * 7919 % 97) / 97 for i in range(len(df))]  # unrelated to ev
        for col in ("win_se", "margin", "margin_se", "gap_se", "p_best"):
            df[col] = 0.0
        return Table.from_frame(df.sort_values("win_p", ascending=False, kind="stable"))

    monkeypatch.setattr(module, "advise", stand_in)
    _, steps = rec.load_record(SHORT)
    df = rec.annotate(steps[:4], samples=2048, seed=1, rollouts=32, policy="random").frame()
    assert calls == [(32, "random")] * 4
    assert list(df.columns) == (rec.ANNOTATION_COLUMNS + SE_COLUMNS + ROLLOUT_COLUMNS
                                + ROLLOUT_SE_COLUMNS)
    for (pos, turn), row in zip(steps, df.itertuples()):
        table = stand_in(rec.viewpoint(pos), samples=2048, seed=1).frame()
        assert row.best == table.loc[table["ev"].idxmax(), "action"]
        assert row.best_rollout == table["action"].iloc[0]
        assert row.best_win_p == table["win_p"].max()
        assert row.win_p == table.loc[table["action"] == turn.action, "win_p"].iloc[0]
        assert row.equity_lost == row.best_win_p - row.win_p >= 0
        assert row.ev_lost == row.best_ev - row.ev >= 0


# --------------------------------------------------------------------------- new --play


@pytest.mark.parametrize("args,players,variant", [
    (("camel-up", "--seed", "4"), 4, "camel-up"),
    (("camel-up", "--players", "7", "--seed", "5"), 7, "camel-up"),
    (("camel-up-2014", "--players", "2", "--seed", "6"), 2, "camel-up-2014"),
    (("camel-up", "--variant", "camel-up-2014", "--players", "5", "--seed", "7"), 5,
     "camel-up-2014"),
])
def test_new_play_writes_a_record_that_replays(oddsbot_cli, args, players, variant):
    text = ok(oddsbot_cli("new", *args, "--play", "random")).out
    record, steps = rec.load_record(text)
    assert record.start.players == players and record.start.variant == variant
    assert steps.over and record.result.winner == steps.winner
    seed = int(args[args.index("--seed") + 1])
    assert text == cu.simulate(cu.new_position(players, seed, variant), seed=seed).text()
    if players >= 6 and variant == "camel-up":
        assert any(t.action.startswith("partner") for t in record.turns)


def test_new_play_unknown_policy(oddsbot_cli):
    run = oddsbot_cli("new", "camel-up", "--play", "clever-but-missing")
    assert run.code == 2 and run.out == ""
    assert run.err.startswith("oddsbot: error: --play:") and "random" in run.err
    assert set(rec.policies()) >= {"random"}
