"""The Mumia designer report (``oddsbot.reports.mumia``).

A small report (300 four-player games of the base game and of all four expansions) is
written through the CLI; its sections, tables and charts are checked to exist and its
numbers to agree with each other and with the raw per-game file: every game has a winner,
the win rates by seat share each game's win, camels add points, the mummy pays its 10
points, the hats go home under the standard end. A second, in-process run adds the sudden
end and checks the section that compares the end rules. The raw rows' own facts (who won,
what the camels added) are recounted from the kernel's rows.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib.image
import numpy as np
import pandas as pd
import pytest

from checks import ok
from oddsbot.analyser import registry
from oddsbot.analyser.face import Capability
from oddsbot.errors import OddsbotError
from oddsbot.kernels.mumia import game as K
from oddsbot.reports.mumia import games, report
from oddsbot.reports.spec import RunSpec

GAMES = 300
VARIANTS = ("mumia", "mumia-all")
PLAYERS = 4
SECTIONS = ["Summary", "Game length", "End of the game", "Seat advantage",
            "Spread of final scores", "Value of a camel", "Mummy tokens", "Hats",
            "Variants side by side", "Provenance"]
CHARTS = ["rounds", "turns", "end", "seats", "scores", "spread", "camel_wins", "mummy",
          "hats"]
TABLES = ["summary", "rounds", "length", "end", "seats", "seat_test", "spread",
          "score_bins", "camels", "camel_wins", "mummy", "mummy_top", "hats", "variants",
          "runs"]
MUMMY_POINTS = 4 + 3 + 2 + 1


def seats_of(prefix: str, players: int = PLAYERS) -> list[str]:
    return [f"{prefix}_{s}" for s in range(players)]


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """The report folder of ``oddsbot report mumia --games 300 --variant mumia --variant
    mumia-all``, written in-process (the CLI's ``main``)."""
    import io
    import sys

    from oddsbot.analyser import cli

    out = tmp_path_factory.mktemp("mumia") / "rep"
    argv, stdout, stderr = sys.argv, sys.stdout, sys.stderr
    sys.argv = ["oddsbot", "report", "mumia", "--games", str(GAMES), "--variant",
                VARIANTS[0], "--variant", VARIANTS[1], "--out", str(out)]
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
    assert md.startswith(f"# oddsbot designer report: mumia vs mumia-all · {GAMES} games "
                         f"each, {PLAYERS} players\n")
    titles = [line[3:] for line in md.splitlines() if line.startswith("## ")]
    assert titles == SECTIONS
    assert "End rules compared" not in titles  # no mumia-sudden in this run
    html = (run / "report.html").read_text()
    assert all(f"<h2>{t}</h2>" in html for t in SECTIONS)
    assert sorted(p.stem for p in (run / "tables").iterdir()) == sorted(TABLES)
    assert sorted(p.stem for p in (run / "charts").iterdir()) == sorted(CHARTS)
    for name in CHARTS:
        image = matplotlib.image.imread(run / "charts" / f"{name}.png")
        assert image.shape[1] == 800 and image.shape[2] == 4, name
    assert html.count("<img ") == len(CHARTS)


def test_raw_games_are_whole_and_consistent(raw):
    assert len(raw) == GAMES * len(VARIANTS)
    assert list(raw.groupby("variant", observed=True).size()) == [GAMES] * len(VARIANTS)
    scores = raw[seats_of("score")].to_numpy()
    won = raw[seats_of("won")].to_numpy()
    assert set(np.unique(won)) <= {0, 1}
    assert (won.sum(axis=1) >= 1).all()  # every game has a winner
    top = scores == scores.max(axis=1, keepdims=True)
    assert (won == top).all()  # the default tiebreak: every top score shares the win
    assert (raw[seats_of("camel_gain")].to_numpy() >= 0).all()
    camels = raw[seats_of("camels")].to_numpy()
    gain = raw[seats_of("camel_gain")].to_numpy()
    assert ((camels == 0) <= (gain == 0)).all()  # no camels, no gain
    # a camel turns one danger tile (at most -10) into its positive: twice its magnitude
    assert (gain <= 20 * camels).all() and (gain % 2 == 0).all()
    assert (camels.sum(axis=1) <= 6).all()
    mummy = raw[seats_of("mummy")].to_numpy()
    assert (mummy >= 0).all() and (mummy.sum(axis=1) <= MUMMY_POINTS).all()
    assert (raw.moves >= raw.turns).all() and (raw.turns > 0).all()
    base, every = raw[raw.variant == "mumia"], raw[raw.variant == "mumia-all"]
    assert (base.moves == base.turns).all()  # no Extra move without E4
    assert (base.luck_home == -1).all() and (base.bad_home == -1).all()  # no hats
    # the standard end: every pawn home, so every hat's pawn took it home
    assert every.luck_home.between(0, PLAYERS - 1).all()
    assert every.bad_home.between(0, PLAYERS - 1).all()
    assert (raw.end == "all pawns home").all()
    assert (raw.rounds == -(-raw.turns // PLAYERS)).all()


def test_win_rates_share_every_game(run, raw):
    seats = table(run, "seats")
    for v, g in seats.groupby("variant"):
        assert g.p.sum() == pytest.approx(1)  # ties shared: the shares make one win
        assert (g.games == GAMES).all()
        assert ((g.lo95 <= g.p) & (g.p <= g.hi95)).all()
        won = raw[raw.variant == v][seats_of("won")].to_numpy()
        assert (won.sum(axis=0) / GAMES).sum() >= 1  # counted whole, a tie counts twice
        credit = won / won.sum(axis=1, keepdims=True)
        np.testing.assert_allclose(g.sort_values("seat").wins, credit.sum(axis=0))
    test = table(run, "seat_test")
    assert list(test.variant) == list(VARIANTS) and (test.df == PLAYERS - 1).all()
    assert ((0 <= test.p_value) & (test.p_value <= 1)).all()


def test_spread_table(run, raw):
    spread = table(run, "spread").set_index(["variant", "measure", "statistic"])
    for v in VARIANTS:
        scores = raw[raw.variant == v][seats_of("score")].to_numpy()
        ordered = np.sort(scores, axis=1)
        sd = spread.loc[(v, report.SCORE, "sd")]
        assert sd.value == pytest.approx(scores.ravel().std())  # pooled, population SD
        assert sd.lo95 < sd.value < sd.hi95
        assert spread.loc[(v, report.SCORE, "mean")].value == pytest.approx(scores.mean())
        win = spread.loc[(v, report.WINNING, "mean")]
        assert win.value == pytest.approx(ordered[:, -1].mean())
        margin = spread.loc[(v, report.MARGIN, "mean")]
        assert margin.value == pytest.approx((ordered[:, -1] - ordered[:, -2]).mean())
        assert margin.value >= 0 and spread.loc[(v, report.MARGIN, "p10")].value >= 0
        assert win.value >= spread.loc[(v, report.SCORE, "mean")].value \
            >= spread.loc[(v, report.LOSING, "mean")].value
        tie = spread.loc[(v, report.TIE, "share")]
        won = raw[raw.variant == v][seats_of("won")].to_numpy()
        assert tie.value == pytest.approx((won.sum(axis=1) > 1).mean())
        assert tie.lo95 <= tie.value <= tie.hi95
    bins = table(run, "score_bins")
    for v, g in bins.groupby("variant"):
        assert g.seat_games.sum() == GAMES * PLAYERS and g.p.sum() == pytest.approx(1)
        assert ((g.high - g.low) == report.SCORE_BIN - 1).all()


def test_camel_tables(run, raw):
    camels = table(run, "camels").set_index(["variant", "measure"])
    wins = table(run, "camel_wins")
    for v in VARIANTS:
        g = raw[raw.variant == v]
        held = g[seats_of("camels")].to_numpy()
        gain = g[seats_of("camel_gain")].to_numpy()
        per = camels.loc[(v, report.CAMEL_POINTS)]
        assert per.value == pytest.approx(gain.sum() / held.sum())
        assert 0 <= per.lo95 <= per.value <= per.hi95 <= 20
        idle = camels.loc[(v, report.IDLE)]
        assert 0 <= idle.lo95 <= idle.value <= idle.hi95 <= 1
        mine = wins[wins.variant == v]
        assert list(mine.camels_held) == list(report.CAMEL_BINS)
        assert mine.seat_games.sum() == GAMES * PLAYERS
        assert mine.wins.sum() == pytest.approx(GAMES)  # every game's one win, shared
        assert (mine[mine.camels_held == "0"].camel_gain.fillna(0) == 0).all()
        assert (mine.camel_gain.dropna() >= 0).all()


def test_mummy_tables(run, raw):
    mummy = table(run, "mummy")
    top = table(run, "mummy_top")
    for v in VARIANTS:
        g = raw[raw.variant == v]
        points = g[seats_of("mummy")].to_numpy()
        mine = mummy[mummy.variant == v].sort_values("seat")
        np.testing.assert_allclose(mine["mean"], points.mean(axis=0))
        # every token is taken in (almost) every game: the seats' means add up to 10
        assert mine["mean"].sum() == pytest.approx(points.sum(axis=1).mean())
        four = top[(top.variant == v) & (top.measure == report.TOP_FOUR)].iloc[0]
        assert four.games + four.open == GAMES and 0 <= four["count"] <= four.games
        assert four.lo95 <= four.p <= four.hi95 and four.equal_share == 1 / PLAYERS
        every = top[(top.variant == v) & (top.measure == report.ALL_TOKENS)].iloc[0]
        assert every["count"] == (points.sum(axis=1) == MUMMY_POINTS).sum()


def test_hat_table(run, raw):
    hats = table(run, "hats")
    assert list(hats.variant) == ["mumia-all", "mumia-all"] and list(hats.hat) == ["luck",
                                                                                 "bad"]
    g = raw[raw.variant == "mumia-all"]
    won = g[seats_of("won")].to_numpy()
    credit = won / won.sum(axis=1, keepdims=True)
    for row in hats.itertuples():
        seat = g[f"{row.hat}_home"].to_numpy()
        assert row.home == (seat >= 0).sum() == GAMES  # all pawns home: every hat too
        assert row.wins == pytest.approx(credit[np.arange(GAMES), seat].sum())
        assert row.lo95 <= row.p <= row.hi95


def test_variants_side_by_side(run):
    side = pd.read_csv(run / "tables" / "variants.csv", keep_default_na=False)
    assert list(side.columns) == ["measure", *VARIANTS]
    rows = dict(zip(side.measure, side["mumia"]))
    assert rows["P(the luck hat's seat wins)"] == "n/a"  # no hats in the base game
    assert rows["P(sudden end)"].startswith("0 [")
    assert all(f"P(seat {s} wins)" in rows for s in range(PLAYERS))
    assert side.set_index("measure").loc["P(the luck hat's seat wins)", "mumia-all"] != "n/a"


# --------------------------------------------------------------------------- in process


SUDDEN = RunSpec("mumia", ("mumia", "mumia-sudden"), 3, ("heuristic", "random", "greedy"),
                 120, 9)


@pytest.fixture(scope="module")
def sudden_sections():
    df = pd.concat([games.simulate_block(v, SUDDEN.players, SUDDEN.policies, SUDDEN.seed, 0,
                                         SUDDEN.games) for v in SUDDEN.variants],
                   ignore_index=True)
    return df, {s.title: s for s in report.report_sections(df, SUDDEN)}


def test_end_rules_compared(sudden_sections):
    df, sections = sudden_sections
    assert "Hats" not in sections  # no variant plays E2
    rules = sections["End rules compared"].tables[0].frame.set_index(["variant", "measure"])
    assert rules.loc[("mumia", "P(sudden end)")].value == 0
    assert rules.loc[("mumia-sudden", "P(sudden end)")].value == 1
    base, sudden = df[df.variant == "mumia"], df[df.variant == "mumia-sudden"]
    assert (sudden.end == "sudden end").all() and (base.end == "all pawns home").all()
    turns = rules.loc[("mumia-sudden", "mean turns")]
    assert turns.value == pytest.approx(sudden.turns.mean())
    # the same dice until the first seat is home: a sudden end only cuts a game short
    assert (sudden.turns.to_numpy() <= base.turns.to_numpy()).all()
    end = sections["End of the game"].tables[0].frame
    assert end.groupby("variant").p.sum().tolist() == pytest.approx([1, 1])


def test_raw_rows_agree_with_the_kernel():
    """The table's columns are the kernel's fields, seat by seat; seats beyond the
    players hold -1."""
    rows = games.simulate_raw("mumia-e2", 3, ("random",), 4, 10, 25)
    assert rows.shape == (25, games.RAW_FIELDS) and rows.dtype == np.int16
    t = games.raw_table(rows, "mumia-e2", 3, 10)
    assert list(t.game) == list(range(10, 35))
    for name, field in games.SEAT_FIELDS:
        for s in range(3):
            np.testing.assert_array_equal(t[f"{name}_{s}"], rows[:, field + s])
        assert (rows[:, field + 3:field + 6] == -1).all()
    np.testing.assert_array_equal(t.turns, rows[:, K.F_TURNS])
    np.testing.assert_array_equal(t.luck_home, rows[:, K.F_LUCK])
    again = games.simulate_raw("mumia-e2", 3, ("random",), 4, 20, 5)
    np.testing.assert_array_equal(again, rows[10:15])  # game r depends on (seed, r) only


def test_four_takers():
    tokens = (4, 3, 2, 1)
    assert report.four_takers((10, 0, 0, 0), tokens) == {0}
    assert report.four_takers((0, 0, 0), tokens) == {-1}
    assert report.four_takers((4, 6, 0, 0), tokens) == {0, 1}  # 4 | 3+2+1, or 3+1 | 4+2
    assert report.four_takers((3, 4, 3, 0), tokens) == {1}
    assert report.four_takers((7, 0), (4, 3, 2, 1)) == {0}  # 4+3 taken, 2 and 1 left
    assert report.four_takers((0, 4), (4, 3, 2, 1)) == {1}  # 4 only: 3+1 skips the 3


def test_sd_interval():
    rng = np.random.default_rng(3)
    x = rng.normal(5, 2, size=(4000, 4))
    sd, lo, hi = report.sd_ci(x)
    assert sd == pytest.approx(x.std())
    assert lo < 2 < hi and hi - lo < 0.2
    assert math.isnan(report.sd_ci(x[:1])[1])


def test_check_run_refuses_in_one_line():
    with pytest.raises(OddsbotError, match="--players: mumia is for 2-6"):
        games.check_run(("mumia",), 7, ())
    with pytest.raises(OddsbotError, match="--variant: unknown variant 'camel-up'"):
        games.check_run(("camel-up",), 4, ())
    with pytest.raises(OddsbotError, match="--policies"):
        games.check_run(("mumia",), 4, ("clever",))
    assert games.seat_policies((), 3) == ("heuristic",) * 3
    assert games.seat_policies(("random", "greedy"), 3) == ("random", "greedy", "random")


def test_declared():
    assert registry.spec("mumia").has(Capability.REPORTS)


def test_cli_small_run(oddsbot_cli, tmp_path):
    out = tmp_path / "tiny"
    ok(oddsbot_cli("report", "mumia", "--games", 3, "--players", 2, "--policies",
                   "random,greedy", "--variant", "mumia-sudden,mumia-e2", "--out", out))
    titles = [line[3:] for line in (out / "report.md").read_text().splitlines()
              if line.startswith("## ")]
    assert "End rules compared" in titles and "Hats" in titles
