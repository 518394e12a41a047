"""The Kingdom Run designer report (``oddsbot.reports.kingdom_run``).

A small report (300 four-player games of each of the three variants) is written through
the CLI; its sections, tables and charts are checked to exist and its numbers to agree with
each other and with the raw per-game file: every game has a winner, the win rates by seat
share each game's win, the end conditions' shares make every game, a score is its podium,
track and token points, the podium pays its places' points, the actions and re-rolls per
turn are the raw counts'. A second, in-process 2-player run with mixed policies checks the
2-player end rule and the report of one variant. The raw rows are the kernel's fields, and
a game's row depends on (seed, game) only.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.image
import numpy as np
import pandas as pd
import pytest

from oddsbot.analyser import registry
from oddsbot.analyser.face import Capability
from oddsbot.errors import OddsbotError
from oddsbot.kernels.kingdom_run import game as K
from oddsbot.reports.kingdom_run import games, report
from oddsbot.reports.spec import RunSpec

GAMES = 300
VARIANTS = ("kingdom-run", "kingdom-run-linear-podium", "kingdom-run-exact-zones")
PLAYERS = 4
SECTIONS = ["Summary", "Game length", "End of the game", "Seat advantage", "Final scores",
            "What each action is worth", "Where the points come from", "Re-rolls",
            "Assumed parameters", "Variants side by side", "Provenance"]
CHARTS = ["rounds", "turns", "end", "seats", "spread", "actions", "action_wins", "points",
          "rerolls", "parameters"]
TABLES = ["summary", "rounds", "length", "end", "seats", "seat_test", "spread", "actions",
          "action_wins", "points", "podium", "rerolls", "parameters", "variants", "runs"]
PODIUM_POINTS = {"kingdom-run": 13 + 10 + 8 + 6 + 5 + 4 + 3 + 2,
                 "kingdom-run-exact-zones": 51, "kingdom-run-linear-podium": 36}
TOKENS = 12  # victory tokens in every game (§3), worth 2 each


def seats_of(prefix: str, players: int = PLAYERS) -> list[str]:
    return [f"{prefix}_{s}" for s in range(players)]


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """The report folder of ``oddsbot report kingdom-run --games 300`` with the three
    variants, written in-process (the CLI's ``main``)."""
    import io
    import sys

    from oddsbot.analyser import cli

    out = tmp_path_factory.mktemp("kingdom_run") / "rep"
    argv, stdout, stderr = sys.argv, sys.stdout, sys.stderr
    sys.argv = ["oddsbot", "report", "kingdom-run", "--games", str(GAMES), "--variant",
                ",".join(VARIANTS), "--out", str(out)]
    sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
    try:
        try:
            cli.main()
        except SystemExit as exc:
            assert exc.code in (0, None), sys.stderr.getvalue()
    finally:
        sys.argv, sys.stdout, sys.stderr = argv, stdout, stderr
    return out


def table(run: Path, name: str) -> pd.DataFrame:
    return pd.read_csv(run / "tables" / f"{name}.csv")


@pytest.fixture(scope="module")
def raw(run) -> pd.DataFrame:
    return pd.read_parquet(run / "games.parquet")


def test_sections_tables_and_charts_exist(run):
    md = (run / "report.md").read_text()
    assert md.startswith("# oddsbot designer report: kingdom-run vs kingdom-run-linear-podium"
                         f" vs kingdom-run-exact-zones · {GAMES} games each, {PLAYERS} "
                         "players\n")
    titles = [line[3:] for line in md.splitlines() if line.startswith("## ")]
    assert titles == SECTIONS
    html = (run / "report.html").read_text()
    assert all(f"<h2>{t}</h2>" in html for t in SECTIONS)
    assert sorted(p.stem for p in (run / "tables").iterdir()) == sorted(TABLES)
    assert sorted(p.stem for p in (run / "charts").iterdir()) == sorted(CHARTS)
    for name in CHARTS:
        image = matplotlib.image.imread(run / "charts" / f"{name}.png")
        assert image.shape[1] == 800 and image.shape[2] == 4, name
    assert html.count("<img ") == len(CHARTS)
    assert "seat 0 (Knights, moves first) wins" in md


def test_raw_games_are_whole_and_consistent(raw):
    assert len(raw) == GAMES * len(VARIANTS)
    assert list(raw.groupby("variant", observed=True).size()) == [GAMES] * len(VARIANTS)
    scores = raw[seats_of("score")].to_numpy()
    won = raw[seats_of("won")].to_numpy()
    assert set(np.unique(won)) <= {0, 1}
    assert (won.sum(axis=1) >= 1).all()  # every game has a winner
    top = scores == scores.max(axis=1, keepdims=True)
    assert (won <= top).all()  # a winner has the top score (best_podium breaks ties)
    parts = sum(raw[seats_of(k)].to_numpy() for k in ("podium", "track", "token_points"))
    np.testing.assert_array_equal(parts, scores)
    tokens = raw[seats_of("tokens")].to_numpy()
    np.testing.assert_array_equal(raw[seats_of("token_points")].to_numpy(), 2 * tokens)
    assert (tokens.sum(axis=1) == TOKENS).all()  # a Steal moves a token (KR-37)
    finished = raw[seats_of("finished")].to_numpy()
    assert (finished.sum(axis=1) <= 8).all() and (finished <= 4).all()
    podium = raw[seats_of("podium")].to_numpy()
    for v, g in raw.groupby("variant", observed=True):
        full = g.end == games.PODIUM
        assert podium[g.index][full.to_numpy()].sum(axis=1).tolist() == \
            [PODIUM_POINTS[v]] * int(full.sum())
    assert (raw.end == games.PODIUM).all()  # 4 players: the podium ends every game
    assert (raw.rounds == -(-raw.turns // PLAYERS)).all()
    uses = sum(raw[seats_of(f"use_{a}")].to_numpy() for a in report.REAL)
    assert (uses.sum(axis=1) <= 4 * raw.turns).all()  # at most the dice of each turn
    assert (raw[seats_of("use_copy")].to_numpy() <= uses).all()
    assert (raw[seats_of("rerolls")].to_numpy().sum(axis=1) <= 4 * raw.turns).all()


def test_win_rates_share_every_game(run, raw):
    seats = table(run, "seats")
    for v, g in seats.groupby("variant"):
        assert g.p.sum() == pytest.approx(1)  # ties shared: the shares make one win
        assert (g.games == GAMES).all()
        assert ((g.lo95 <= g.p) & (g.p <= g.hi95)).all()
        won = raw[raw.variant == v][seats_of("won")].to_numpy()
        credit = won / won.sum(axis=1, keepdims=True)
        np.testing.assert_allclose(g.sort_values("seat").wins, credit.sum(axis=0))
    test = table(run, "seat_test")
    assert list(test.variant) == list(VARIANTS) and (test.df == PLAYERS - 1).all()
    assert ((0 <= test.p_value) & (test.p_value <= 1)).all()
    summary = table(run, "summary")
    first = summary[summary.finding == "seat 0 (Knights, moves first) wins"]
    np.testing.assert_allclose(first.p, seats[seats.seat == 0].p)


def test_end_and_length(run, raw):
    end = table(run, "end")
    for v, g in end.groupby("variant"):
        assert list(g.end) == list(games.END_CONDITIONS)
        assert g.p.sum() == pytest.approx(1) and g.games.sum() == GAMES
        mine = raw[raw.variant == v]
        np.testing.assert_array_equal(
            g.games, [(mine.end == c).sum() for c in games.END_CONDITIONS])
    length = table(run, "length").set_index(["variant", "measure", "statistic"])
    for v in VARIANTS:
        assert length.loc[(v, "turns", "mean")].value == \
            pytest.approx(raw[raw.variant == v].turns.mean())


def test_spread_table(run, raw):
    spread = table(run, "spread").set_index(["variant", "measure", "statistic"])
    for v in VARIANTS:
        scores = raw[raw.variant == v][seats_of("score")].to_numpy()
        ordered = np.sort(scores, axis=1)
        assert spread.loc[(v, report.SCORE, "mean")].value == pytest.approx(scores.mean())
        win = spread.loc[(v, report.WINNING, "mean")]
        assert win.value == pytest.approx(ordered[:, -1].mean())
        margin = spread.loc[(v, report.MARGIN, "mean")]
        assert margin.value == pytest.approx((ordered[:, -1] - ordered[:, -2]).mean())
        assert win.value >= spread.loc[(v, report.SCORE, "mean")].value \
            >= spread.loc[(v, report.LOSING, "mean")].value


def test_points_tables(run, raw):
    points = table(run, "points").set_index(["variant", "seat", "source"])
    for v in VARIANTS:
        g = raw[raw.variant == v]
        every = points.loc[(v, "all", "podium places")]
        assert every["mean"] == pytest.approx(PODIUM_POINTS[v] / PLAYERS)  # every place
        assert points.loc[(v, "all", "victory tokens")]["mean"] == \
            pytest.approx(2 * TOKENS / PLAYERS)
        shares = sum(points.loc[(v, "all", name)].share for name in report.SOURCE_NAMES)
        assert shares == pytest.approx(1)
        for s in range(PLAYERS):
            row = points.loc[(v, str(s), "runners on the track")]
            assert row["mean"] == pytest.approx(g[f"track_{s}"].mean())
            assert row.lo95 <= row["mean"] <= row.hi95
            assert points.loc[(v, str(s), report.TOTAL)]["mean"] == \
                pytest.approx(g[f"score_{s}"].mean())
    podium = table(run, "podium")
    for v, g in podium.groupby("variant"):
        assert g.runners.sum() == pytest.approx(8)  # the podium is full in every game


def test_action_tables(run, raw):
    actions = table(run, "actions").set_index(["variant", "action"])
    wins = table(run, "action_wins")
    for v in VARIANTS:
        g = raw[raw.variant == v]
        turns = g.turns.sum()
        every = 0
        for a in games.ACTIONS:
            used = g[seats_of(f"use_{a}")].to_numpy()
            row = actions.loc[(v, a)]
            assert row.uses == used.sum()
            assert row.per_player_game == pytest.approx(used.mean())
            assert row.per_turn == pytest.approx(used.sum() / turns)
            every += used.sum() if a != "copy" else 0
            mine = wins[(wins.variant == v) & (wins.action == a)]
            assert mine.player_games.sum() == GAMES * PLAYERS
            assert mine.wins.sum() == pytest.approx(GAMES)  # every game's one win, shared
            assert ((mine.lo95 <= mine.p) & (mine.p <= mine.hi95)).all()
            assert (mine["median"] == np.median(used)).all()
        assert actions.loc[(v, report.ALL_ACTIONS)].uses == every
        assert actions.loc[(v, report.ALL_ACTIONS)].share == pytest.approx(1)
        assert actions.loc[(v, report.ALL_ACTIONS)].per_turn <= 4


def test_reroll_table(run, raw):
    rerolls = table(run, "rerolls").set_index(["variant", "seat", "measure"])
    for v in VARIANTS:
        g = raw[raw.variant == v]
        dice = g[seats_of("rerolls")].to_numpy()
        per = rerolls.loc[(v, "all", report.REROLLS_PER_TURN)]
        assert per.value == pytest.approx(dice.sum() / g.turns.sum())
        assert per.lo95 <= per.value <= per.hi95
        assert rerolls.loc[(v, "all", report.REROLL_SHARE)].value == \
            pytest.approx(per.value / 4)
        assert rerolls.loc[(v, "0", "dice re-rolled per game")].value == \
            pytest.approx(dice[:, 0].mean())


def test_parameters_and_variants_side_by_side(run):
    params = table(run, "parameters")
    assert list(dict.fromkeys(params.variant)) == list(VARIANTS)
    assert params[params.variant == "kingdom-run-linear-podium"].parameters.iloc[0] \
        .startswith("podium 8,7,6,5,4,3,2,1;")
    assert "(exact)" in params[params.variant == "kingdom-run-exact-zones"].parameters.iloc[0]
    side = pd.read_csv(run / "tables" / "variants.csv", keep_default_na=False)
    assert list(side.columns) == ["measure", *VARIANTS]
    rows = dict(zip(side.measure, side["kingdom-run"]))
    assert rows["P(podium full ends the game)"].startswith("1 [")
    assert all(f"P(seat {s} wins)" in rows for s in range(PLAYERS))
    for v in VARIANTS:  # every figure lies in its interval
        for text in side[v]:
            value, _, rest = text.partition(" [")
            lo, hi = (float(x) for x in rest.rstrip("]").split(", "))
            assert lo <= float(value) <= hi, text


# --------------------------------------------------------------------------- in process


TWO = RunSpec("kingdom-run", ("kingdom-run",), 2, ("heuristic", "random"), 150, 9)


@pytest.fixture(scope="module")
def two_players():
    df = games.simulate_block("kingdom-run", TWO.players, TWO.policies, TWO.seed, 0,
                              TWO.games)
    return df, {s.title: s for s in report.report_sections(df, TWO)}


def test_two_players(two_players):
    df, sections = two_players
    assert "Variants side by side" not in sections  # one variant
    assert "run kingdom-run-linear-podium" in sections["Assumed parameters"].text
    end = sections["End of the game"].tables[0].frame.set_index("end")
    assert end.p.sum() == pytest.approx(1)
    runners = df[seats_of("finished", 2)].to_numpy()
    rule = (df.end == games.OWN_RUNNERS).to_numpy()
    assert rule.any() and (runners[rule].max(axis=1) == 4).all()  # four runners across
    assert end.loc[games.OWN_RUNNERS, "games"] == rule.sum()
    assert (df.rounds == -(-df.turns // 2)).all()
    wins = sections["What each action is worth"].tables[1].frame
    assert set(wins.equal_share) == {0.5}
    summary = sections["Summary"].tables[0].frame
    assert "the seats playing" not in " ".join(summary.finding)  # one seat per policy
    assert "the seat playing random (1) wins" in list(summary.finding)


def test_raw_rows_agree_with_the_kernel():
    """The table's columns are the kernel's fields, seat by seat; seats beyond the
    players hold -1; a game's row depends on (seed, game) only."""
    rows = games.simulate_raw("kingdom-run-exact-zones", 3, ("random",), 4, 10, 25)
    assert rows.shape == (25, games.RAW_FIELDS) and rows.dtype == np.int16
    t = games.raw_table(rows, "kingdom-run-exact-zones", 3, 10)
    assert list(t.game) == list(range(10, 35))
    for name, field in games.SEAT_FIELDS:
        for s in range(3):
            np.testing.assert_array_equal(t[f"{name}_{s}"], rows[:, field + s])
        assert (rows[:, field + 3] == -1).all()
    for s in range(3):
        for i, a in enumerate(games.ACTIONS):
            np.testing.assert_array_equal(t[f"use_{a}_{s}"], rows[:, K.F_USE + 6 * s + i])
    np.testing.assert_array_equal(t.turns, rows[:, K.F_TURNS])
    assert list(t.end.cat.codes) == list(rows[:, K.F_END])
    again = games.simulate_raw("kingdom-run-exact-zones", 3, ("random",), 4, 20, 5)
    np.testing.assert_array_equal(again, rows[10:15])
    other = games.simulate_raw("kingdom-run-exact-zones", 3, ("random",), 5, 10, 25)
    assert not np.array_equal(other, rows)  # another seed, other games


def test_report_is_deterministic(two_players):
    df, sections = two_players
    again = games.simulate_block("kingdom-run", TWO.players, TWO.policies, TWO.seed, 0,
                                 TWO.games)
    pd.testing.assert_frame_equal(df, again)
    redo = {s.title: s for s in report.report_sections(again, TWO)}
    for title, section in sections.items():
        for a, b in zip(section.tables, redo[title].tables):
            pd.testing.assert_frame_equal(a.frame, b.frame)


def test_check_run_refuses_in_one_line():
    with pytest.raises(OddsbotError, match="--players: kingdom-run is for 2-4"):
        games.check_run(("kingdom-run",), 5, ())
    with pytest.raises(OddsbotError, match="--variant: unknown variant 'mumia'"):
        games.check_run(("mumia",), 4, ())
    with pytest.raises(OddsbotError, match="--policies"):
        games.check_run(("kingdom-run",), 4, ("clever",))
    assert games.seat_policies((), 3) == ("heuristic",) * 3
    assert games.seat_policies(("random", "greedy"), 3) == ("random", "greedy", "random")


def test_declared():
    assert registry.spec("kingdom-run").has(Capability.REPORTS)
