"""The Five Tribes designer report: whole games in the kernel, the per-game facts, the
report tables and the command line.

Covered:

* sowing draws: the closed-form ``count_sowings`` equals the sowing kernel's count
  (``sowing_counts``) on every board of a few recorded games and on tall random stacks,
  under both end rules; ``random_sowing`` draws only rows of ``list_sowings``, every one
  about equally often (chi-square);
* ``record_games`` rows do not depend on the chunk size or on where a block starts;
* recorded games re-played move by move from Python with the kernel's functions (deal,
  the policies' choices, ``apply_turn``, clean-up, ``game_over``): every recorded fact is
  recomputed independently (scores and parts from ``state_scores`` of the end state,
  rounds, the end condition from camels and ``sowing_counts``, bid gold from the bid
  costs, camels from tile owners and claims, djinns taken and each djinn's holder at
  the end, turns, tribes); ``random`` turns
  are complete turns of ``complete_turns`` (same resulting state; every third turn of
  one game per player count), ``greedy`` bids the
  cheapest legal space;
* ``oddsbot report five-tribes`` end to end: the files, and the summary, seat-advantage,
  game-length and end tables against a naive recomputation from games.parquet
  (``naive_report``'s estimators), the summary first and the provenance last; the djinn
  table against pandas on games.parquet (pick and win rates, counts, Wilson intervals,
  ASCII names, the order), its intervals holding the rate and narrowing with more games;
  a run folder of the old record layout (no djinn holders) recomputed by ``--resume``; every
  chart's labels are inside its figure, it carries its title, its legend covers neither
  the plot nor its labels, and the stacked score chart has every part's interval;
* bad options and ``chart`` on a Five Tribes position: exit 2, one stderr line.
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.container import BarContainer

import naive_report as naive
from checks import assert_bad_input, ok
from figure_checks import (
    assert_legends_clear, assert_no_clipped_text, assert_titled, legend_labels,
)
from five_tribes_positions import loop_board, tall_boards
from oddsbot.analyser.five_tribes import face as ft
from oddsbot.analyser.five_tribes.encode import encode
from oddsbot.kernels import five_tribes as K
from oddsbot.kernels.rng import stream
from oddsbot.reports import batch, document
from oddsbot.reports.five_tribes import games, greedy_check, report
from oddsbot.reports.spec import RunSpec

LIVE, PREMOVE = 0, 1
RANDOM, GREEDY, HEURISTIC = (K.POLICY_NAMES.index(name) for name in ("random", "greedy",
                                                                   "heuristic"))
REL = 1e-9
CLI_RUN = ("report", "five-tribes", "--games", "1000", "--players", "3", "--seed", "1")
TABLES = {"summary", "rounds", "length", "end_trigger", "seats", "seat_test", "first_bidder",
          "score_composition", "winner_score", "bid_gold", "holdings", "tribe_mix", "djinns",
          "greedy_check", "runs"}
OLD_FIELDS = K.F_DJINN_HOLDER  # the record layout before the djinn holders were appended


@lru_cache(maxsize=1)
def tables():
    return K.walk_tables()


def record(players, end_rule, policies, seed, game0, n, chunk=64):
    return K.record_games(players, end_rule, False, np.array(policies, dtype=np.int64),
                          np.uint64(seed), game0, n, chunk)


# --------------------------------------------------------------------------- sowing draws


def sowing_count(counts: np.ndarray, end_rule: int) -> int:
    return int(K.sowing_counts(np.ascontiguousarray(counts), end_rule)[0])


def closed_count(counts: np.ndarray, end_rule: int) -> int:
    return int(K.count_sowings(np.ascontiguousarray(counts), end_rule, tables(),
                               np.zeros(K.N_TILES, dtype=np.int64),
                               np.zeros((K.N_COLOURS, K.MAX_STACK), dtype=np.int64)))


@pytest.mark.parametrize("end_rule", [LIVE, PREMOVE])
def test_closed_form_count_equals_the_sowing_kernel(end_rule):
    boards = tall_boards(150, seed=end_rule)
    opening = ft.encode(ft.new_position(4, seed=3))
    boards.append(K.meeples(opening).copy())
    loop = np.zeros((K.N_TILES, K.N_COLOURS), dtype=np.int64)
    # docs/games/five-tribes.md §7.2 example 3 (r1c1 = GGBRY): 96 live, 0 pre-move
    loop[7] = [1, 0, 1, 2, 1]
    boards.append(loop)
    for b in boards:
        assert closed_count(b, end_rule) == sowing_count(b, end_rule)
    assert closed_count(loop, LIVE) == 96 and closed_count(loop, PREMOVE) == 0


def draws(counts: np.ndarray, end_rule: int, n: int, seed: int) -> Counter:
    rng = stream(np.uint64(seed), 0)
    per_start = np.zeros(K.N_TILES, dtype=np.int64)
    tab = np.zeros((K.N_COLOURS, K.MAX_STACK), dtype=np.int64)
    path = np.zeros(K.MAX_STACK, dtype=np.int64)
    colours = np.zeros(K.MAX_STACK, dtype=np.int64)
    seen: Counter = Counter()
    for _ in range(n):
        start, k = K.random_sowing(counts, end_rule, tables(), rng, per_start, tab, path,
                                   colours)
        seen[(int(start), tuple(path[:k]), tuple(colours[:k]))] += 1
    return seen


def listed(counts: np.ndarray, end_rule: int) -> set:
    starts, paths, colours, lengths = K.sowings(counts, end_rule)
    return {(int(s), tuple(p[:k]), tuple(c[:k]))
            for s, p, c, k in zip(starts, paths, colours, lengths)}


@pytest.mark.parametrize("end_rule", [LIVE, PREMOVE])
def test_random_sowing_draws_every_listed_sequence_equally_often(end_rule):
    board = loop_board()
    board[20] = [0, 0, 1, 0, 0]
    rows = listed(board, end_rule)
    n = 60 * len(rows)
    seen = draws(board, end_rule, n, seed=11 + end_rule)
    assert set(seen) == rows  # only legal sequences, and each of them
    expected = n / len(rows)
    chi2 = sum((k - expected) ** 2 / expected for k in seen.values())
    assert naive.chi2_sf(chi2, len(rows) - 1) > 1e-3, (chi2, len(rows))


def test_random_sowing_with_no_legal_sowing():
    board = np.zeros((K.N_TILES, K.N_COLOURS), dtype=np.int64)
    board[7] = [1, 0, 1, 2, 1]
    assert draws(board, PREMOVE, 3, seed=0) == Counter({(-1, (), ()): 3})


# --------------------------------------------------------------------------- the rows


def test_rows_do_not_depend_on_chunks_or_block_starts():
    codes = [RANDOM] * 4
    whole = record(4, LIVE, codes, 9, 0, 48, chunk=64)
    assert whole.dtype == np.int16 and whole.shape == (48, K.N_FIELDS)
    for chunk in (1, 5, 16):
        np.testing.assert_array_equal(record(4, LIVE, codes, 9, 0, 48, chunk=chunk), whole)
    np.testing.assert_array_equal(record(4, LIVE, codes, 9, 17, 20, chunk=3), whole[17:37])
    assert not (whole == record(4, LIVE, codes, 10, 0, 48)).all()  # another seed


def sowing_turns(before: np.ndarray, act: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows of ``complete_turns(before)`` whose sowing is ``act``'s, written with that
    sowing: its outcome group alone, walked with every choice around it as the table walks
    each group (``add_outcomes``; the turns that end before the sowing come too). Draws
    are counted, not valued (their parts are NaN, as a realised change never is). The
    sowing must be one of the board's full sequences (checked against ``list_sowings``)."""
    n = int(act[K.A_LEN])
    path, dropped = act[K.A_PATH:K.A_PATH + n], act[K.A_COLOURS:K.A_COLOURS + n]
    counts, end_rule = K.meeples(before).copy(), int(before[K.END_RULE])
    starts, paths, colours, lengths = K.list_sowings(counts, end_rule,
                                                     sowing_count(counts, end_rule))
    legal = ((starts == act[K.A_START]) & (lengths == n)
             & (paths[:, :n] == path).all(axis=1) & (colours[:, :n] == dropped).all(axis=1))
    assert legal.any(), f"not a full sowing sequence of the board: {act[:K.A_TILE]}"
    one = np.zeros((1, K.MAX_STACK), dtype=np.int64) - 1
    one_path, one_colours = one.copy(), one.copy()
    one_path[0, :n], one_colours[0, :n] = path, dropped
    store, ws = K.new_store(200_000), K.workspace()
    K.add_outcomes(before, (np.array([act[K.A_START]]), one_path, one_colours, np.array([n])),
                   np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.int64), 0, 1, store, ws,
                   K.DEFER_COUNT)
    assert not store[10][K.M_FULL]
    rows = int(store[10][K.M_ROWS])
    return store[0][:rows], store[1][:rows]


def assert_a_complete_turn(before: np.ndarray, act: np.ndarray, after: np.ndarray) -> None:
    """``act`` played on ``before`` (giving ``after``) is one of the complete turns of
    ``complete_turns``: one of its rows of the same value by part leaves the same state.
    A turn with a sowing is looked for among the table's turns with that sowing
    (``sowing_turns``: the table is the union of such groups, and a whole table of a
    2-player mid-game runs to 3 million rows). Rows are merged by result (in the whole
    table a row may be written with another sowing of the same outcome), so a row is
    matched by its value and the state it leaves."""
    rows, parts = (sowing_turns(before, act) if act[K.A_LEN] else K.complete_turns(before)[:2])
    mover = int(before[K.TO_MOVE])
    change = K.state_scores(after)[mover] - K.state_scores(before)[mover]
    for row in rows[(parts == change).all(axis=1)]:
        s = before.copy()
        K.apply_turn(s, row)
        if (s == after).all():
            return
    raise AssertionError(f"not a complete turn: {act}")


def replay(players, end_rule, policies, seed, r, legal_turns=False) -> dict:
    """Game ``r`` of a run played again from Python with the kernel's pieces; every fact
    the row records, recomputed here."""
    deal, choices, refills = (stream(np.uint64(seed), 3 * r + i) for i in range(3))
    st = K.empty_state()
    K.deal(st, players, end_rule, False, deal)
    facts = {"first_bidder": int(st[K.BID_ORDER]), "bid_gold": [0] * players,
             "claims": [0] * players, "djinns": [0] * players, "turns": [0] * players,
             "tribes": [[0] * K.N_COLOURS for _ in range(players)], "no_sowing_turns": 0}
    ws = K.turn_workspace()
    spaces = np.zeros(K.MAX_BIDS, dtype=np.int64)
    rounds = played = 0
    while True:
        rounds += 1
        assert rounds <= K.MAX_ROUNDS
        while st[K.PHASE] == K.BIDDING:
            seat = int(st[K.TO_MOVE])
            legal = [int(s) for s in spaces[:K.legal_bids(st, spaces)]]
            space = int(K.choose_bid(st, policies[seat], choices, spaces))
            assert space in legal
            if policies[seat] == GREEDY:  # the lowest price, then the fewest Fakirs
                assert (K.bid_price(space), K.bid_fakirs(space)) == min(
                    (K.bid_price(s), K.bid_fakirs(s)) for s in legal)
            facts["bid_gold"][seat] += min(int(K.bid_price(space)), int(st[K.P_GOLD + seat]))
            K.place_bid(st, space)
        while st[K.TO_MOVE] >= 0:
            seat = int(st[K.TO_MOVE])
            board = K.meeples(st).copy()
            before = st.copy()
            act = K.play_turn(st, policies[seat], choices, tables(), ws,
                              K.HEURISTIC_PARAMS).copy()
            facts["turns"][seat] += 1
            if act[K.A_LEN] == 0:
                assert sowing_count(board, end_rule) == 0
                facts["no_sowing_turns"] += 1
            else:
                assert closed_count(board, end_rule) == sowing_count(board, end_rule)
                facts["tribes"][seat][act[K.A_COLOUR]] += 1
                facts["claims"][seat] += int(act[K.A_CLAIM] + act[K.A_CLAIM2])
                facts["djinns"][seat] += int(act[K.A_TILE_ACTION] == K.TA_DJINN)
            if policies[seat] == GREEDY:  # as chosen, unless a draw ended the choice
                chosen = K.greedy_turn(before)[0]
                if chosen[K.A_END] < 0:
                    np.testing.assert_array_equal(act, chosen)
            played += 1
            if legal_turns and policies[seat] != GREEDY and played % 3 == 1:
                assert_a_complete_turn(before, act, st)
        K.cleanup(st, refills)
        if K.game_over(st):
            break
    facts["rounds"] = rounds
    facts["scores"] = K.state_scores(st)
    facts["owned"] = [int((st[K.T_OWNER:K.T_OWNER + K.N_TILES] == p).sum())
                      for p in range(players)]
    facts["camels_left"] = [int(st[K.P_CAMELS + p]) for p in range(players)]
    facts["sowings_left"] = sowing_count(K.meeples(st), end_rule)
    facts["holders"] = djinn_holders(st, players)
    return facts


def djinn_holders(st: np.ndarray, players: int) -> list[int]:
    """Per djinn (``DJINNS`` order) the seat holding it in ``st``, -1 if none; a held
    djinn is held once and is not on display."""
    holders = [-1] * len(K.DJINNS)
    for p in range(players):
        for d in range(len(K.DJINNS)):
            if int(st[K.P_DJINNS + p]) >> d & 1:
                assert holders[d] == -1
                holders[d] = p
    shown = [int(d) for d in st[K.DJINN_ROW:K.DJINN_ROW + K.VISIBLE_DJINNS] if d >= 0]
    assert all(holders[d] == -1 for d in shown)
    return holders


def assert_row_is_the_game(row: np.ndarray, facts: dict, players: int) -> None:
    scores = facts["scores"]
    for p in range(K.MAX_PLAYERS):
        if p >= players:
            assert row[K.F_TOTAL + p] == -1
            continue
        assert row[K.F_TOTAL + p] == scores[p, -1] == scores[p, :-1].sum()
        np.testing.assert_array_equal(
            row[K.F_PARTS + p * K.N_SCORE:K.F_PARTS + (p + 1) * K.N_SCORE], scores[p, :-1])
        assert row[K.F_BID_GOLD + p] == facts["bid_gold"][p]
        assert row[K.F_CAMELS + p] == facts["claims"][p] == facts["owned"][p]
        assert row[K.F_DJINNS + p] == facts["djinns"][p]
        assert row[K.F_TURNS + p] == facts["turns"][p]
        np.testing.assert_array_equal(
            row[K.F_TRIBES + p * K.N_COLOURS:K.F_TRIBES + (p + 1) * K.N_COLOURS],
            facts["tribes"][p])
    np.testing.assert_array_equal(
        row[K.F_DJINN_HOLDER:K.F_DJINN_HOLDER + len(K.DJINNS)], facts["holders"])
    markers = 2 if players == 2 else 1
    assert sum(facts["turns"]) == markers * players * facts["rounds"]
    assert row[K.F_ROUNDS] == facts["rounds"]
    assert row[K.F_CAPPED] == 0
    assert row[K.F_NO_SOWING_TURNS] == facts["no_sowing_turns"]
    assert row[K.F_FIRST_BIDDER] == facts["first_bidder"]
    camels = K.END_CAMELS if min(facts["camels_left"]) == 0 else 0
    no_sowing = K.END_NO_SOWING if facts["sowings_left"] == 0 else 0
    assert camels | no_sowing != 0  # game_over ended the game: one of them holds
    assert row[K.F_END] == camels | no_sowing


@pytest.mark.parametrize("players, end_rule, seed", [(2, LIVE, 4), (3, PREMOVE, 5),
                                                     (4, LIVE, 6)])
def test_random_games_replayed_move_by_move(players, end_rule, seed):
    rows = record(players, end_rule, [RANDOM] * players, seed, 0, 6)
    for r in range(6):
        assert_row_is_the_game(rows[r], replay(players, end_rule, [RANDOM] * players, seed, r,
                                               legal_turns=r == 0), players)


@pytest.mark.parametrize("players, end_rule, seed", [(2, PREMOVE, 7), (3, LIVE, 8),
                                                     (4, LIVE, 9)])
def test_heuristic_games_replayed_move_by_move(players, end_rule, seed):
    """Whole games with heuristic seats (and a random one): the facts recorded are the
    game's, and every third heuristic or random turn of the first game is one of the
    complete turns of the exact table."""
    policies = [HEURISTIC] * (players - 1) + [RANDOM]
    rows = record(players, end_rule, policies, seed, 0, 3)
    for r in range(3):
        assert_row_is_the_game(rows[r], replay(players, end_rule, policies, seed, r,
                                               legal_turns=r == 0), players)


def test_a_game_with_a_greedy_seat_replayed_move_by_move():
    policies = [GREEDY, RANDOM, RANDOM]
    (row,) = record(3, LIVE, policies, 8, 2, 1, chunk=1)
    assert_row_is_the_game(row, replay(3, LIVE, policies, 8, 2), 3)


# --------------------------------------------------------------------------- the command line


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory) -> tuple[Path, str]:
    """``oddsbot report five-tribes`` (in-process, like ``oddsbot_cli``): (folder,
    stdout)."""
    import sys
    from contextlib import redirect_stderr, redirect_stdout
    from io import StringIO

    from oddsbot.analyser import cli

    out = tmp_path_factory.mktemp("five_tribes") / "run"
    stdout, stderr = StringIO(), StringIO()
    argv = sys.argv
    sys.argv = ["oddsbot", *CLI_RUN, "--out", str(out)]
    try:
        with redirect_stdout(stdout), redirect_stderr(stderr):
            cli.main()
    except SystemExit as exc:
        assert not exc.code, stderr.getvalue()
    finally:
        sys.argv = argv
    return out, stdout.getvalue()


def test_cli_run_writes_every_file(cli_run):
    out, stdout = cli_run
    assert stdout.splitlines() == [str(out / n) for n in ("games.parquet", "report.html",
                                                          "report.md")]
    assert {p.stem for p in (out / "tables").glob("*.csv")} == TABLES
    assert sorted(p.name for p in (out / "charts").iterdir()) == sorted(
        f"{n}.png" for n in ("rounds", "turns", "end_trigger", "seats", "score_composition",
                             "bid_gold", "tribe_mix", "djinns"))
    df = pd.read_parquet(out / "games.parquet")
    assert len(df) == 1000 and list(df["game"]) == list(range(1000))
    assert (df["variant"] == "five-tribes").all() and not df["capped"].any()
    parts = sum(df[f"vp_{part}_0"] for part in games.PARTS)
    assert (parts == df["score_0"]).all()
    html = (out / "report.html").read_text()
    assert "Seat advantage" in html and "Score composition" in html
    assert html.count('src="data:image/png;base64,') == 8
    headings = re.findall(r"<h2>(.+?)</h2>", html)
    assert headings[0] == "Summary" and headings[-1] == "Provenance"
    assert "the first bidder of round 1 wins" in html
    assert "<dt>blocks</dt><dd>1 per variant, of 1,000 games</dd>" in html


def read_csv(path: Path) -> tuple[list[str], list[list[str]]]:
    with path.open(newline="") as f:
        header, *rows = list(csv.reader(f))
    return header, rows


def same_cell(cell: str, want: object) -> bool:
    if isinstance(want, float):
        return abs(float(cell)) <= 1e-12 if want == 0 else math.isclose(float(cell), want,
                                                                          rel_tol=REL)
    return cell == str(want)


def naive_tables(run: Path) -> dict[str, list[dict]]:
    """The rounds, length, end, seat and first-bidder tables from games.parquet, game by
    game, with exact fractions and ``naive_report``'s estimators."""
    spec, rows = naive.load(run)
    players, policies = spec["players"], spec["policies"]
    out: dict[str, list[dict]] = {k: [] for k in ("summary", "rounds", "length", "end_trigger",
                                                  "seats", "seat_test", "first_bidder")}
    for v in spec["variants"]:
        mine = [g for g in rows if g["variant"] == v]
        n = len(mine)
        counts = Counter(int(g["rounds"]) for g in mine)
        for k in sorted(counts):
            out["rounds"].append({"variant": v, "rounds": k, "games": counts[k],
                                  **naive.proportion(counts[k], n)})
        out["length"] += naive.summary([int(g["rounds"]) for g in mine],
                                       {"variant": v, "measure": "rounds"})
        out["length"] += naive.summary([sum(int(g[f"turns_{p}"]) for p in range(players))
                                        for g in mine], {"variant": v, "measure": "turns"})
        ends = Counter(g["end_trigger"] for g in mine)
        for trigger in ("last camel", "no legal sowing", "both", "round cap"):
            out["end_trigger"].append({"variant": v, "end_trigger": trigger,
                                       "games": ends[trigger],
                                       **naive.proportion(ends[trigger], n)})
        wins = [Fraction(0)] * players
        first = Fraction(0)
        for g in mine:
            score = [int(g[f"score_{p}"]) for p in range(players)]
            best = [p for p in range(players) if score[p] == max(score)]
            for p in best:
                wins[p] += Fraction(1, len(best))
            if int(g["first_bidder"]) in best:
                first += Fraction(1, len(best))
        for seat, w in enumerate(wins):
            out["seats"].append({"variant": v, "seat": seat, "policy": policies[seat],
                                 "wins": float(w), "games": n, **naive.proportion(w, n)})
        expected = Fraction(n, players)
        chi2 = float(sum((w - expected) ** 2 / expected for w in wins))
        p_value = naive.chi2_sf(chi2, players - 1)
        out["seat_test"].append({
            "variant": v, "games": n, "chi2": chi2, "df": players - 1, "p_value": p_value,
            "verdict": "seat advantage (p < 0.05)" if p_value < 0.05
            else "no evidence of a seat advantage"})
        out["first_bidder"].append({"variant": v, "games": n, "wins": float(first),
                                    **naive.proportion(first, n), "equal_share": 1 / players})
        # one policy at every seat: the seats' win rates, then the first bidder's
        for finding, k in [*((f"seat {s} wins", w) for s, w in enumerate(wins)),
                           ("the first bidder of round 1 wins", first)]:
            row = naive.proportion(k, n)
            side = ("above" if row["lo95"] > 1 / players else "below"
                    if row["hi95"] < 1 / players else "within")
            out["summary"].append({"variant": v, "finding": finding, **row,
                                   "equal_share": 1 / players, "vs_equal": side})
    return out


def test_tables_agree_with_a_naive_recomputation(cli_run):
    out, _ = cli_run
    for name, want in naive_tables(out).items():
        header, rows = read_csv(out / "tables" / f"{name}.csv")
        assert want and header == list(want[0]), name
        assert len(rows) == len(want), name
        for i, (cells, row) in enumerate(zip(rows, want)):
            for col, cell in zip(header, cells):
                assert same_cell(cell, row[col]), f"{name} row {i} {col}: {cell} != {row[col]!r}"


def test_score_composition_adds_up(cli_run):
    out, _ = cli_run
    df = pd.read_parquet(out / "games.parquet")
    spec = RunSpec("five-tribes", ("five-tribes",), 3, ("random",) * 3, 200, 1)
    table = report.composition_table(df, spec)
    every = table[table.group == "all players"]
    mean_score = df[[f"score_{p}" for p in range(3)]].to_numpy().mean()
    assert every["mean"].sum() == pytest.approx(mean_score, rel=1e-12)
    assert every["share"].sum() == pytest.approx(1, rel=1e-12)
    for _, g in table.groupby("group"):
        assert ((g.lo95 <= g["mean"]) & (g["mean"] <= g.hi95)).all()


def test_charts_keep_their_text_inside(cli_run, tmp_path):
    """Every chart as ``document.write`` saves it: labelled, titled, its legend clear of
    the plot and its labels, nothing outside the figure; error bars where it says so."""
    out, _ = cli_run
    df = pd.read_parquet(out / "games.parquet")
    spec = RunSpec("five-tribes", ("five-tribes",), 3, ("random",) * 3, 200, 1)
    sections = report.report_sections(df, spec)
    document.write(document.Report(batch.title(spec), sections), tmp_path)
    for section in sections:
        for chart in section.charts:
            (ax, *_) = chart.figure.axes
            assert ax.get_xlabel().strip() and ax.get_ylabel().strip(), chart.name
            assert_no_clipped_text(chart.figure)
            assert_titled(chart.figure, chart.caption, batch.title(spec))
            assert_legends_clear(chart.figure)
            bars = [c for c in ax.containers if isinstance(c, BarContainer)]
            if "error bars" in chart.caption:
                assert bars and all(c.errorbar is not None for c in bars), chart.name


def test_score_composition_chart_has_every_interval(cli_run):
    """The stacked score chart: each part's segment as long as its mean, with an error
    bar from lo95 to hi95 about the segment's end."""
    out, _ = cli_run
    df = pd.read_parquet(out / "games.parquet")
    spec = RunSpec("five-tribes", ("five-tribes",), 3, ("random",) * 3, 200, 1)
    table = report.composition_table(df, spec)
    (chart,) = [c for s in report.report_sections(df, spec) for c in s.charts
                if c.name == "score_composition"]
    (ax,) = chart.figure.axes
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert [c.get_label() for c in bars] == list(games.PARTS) == legend_labels(chart.figure)
    groups = list(dict.fromkeys(table.group))
    for part, container in zip(games.PARTS, bars):
        rows = table[table.part == part].set_index("group").loc[groups]
        assert [p.get_width() for p in container.patches] == pytest.approx(rows["mean"])
        ends = np.array([p.get_x() + p.get_width() for p in container.patches])
        segments = container.errorbar.lines[2][0].get_segments()
        assert [s[0][0] for s in segments] == pytest.approx(ends - rows["mean"] + rows.lo95)
        assert [s[1][0] for s in segments] == pytest.approx(ends - rows["mean"] + rows.hi95)


def pandas_djinns(df: pd.DataFrame, players: int) -> pd.DataFrame:
    """Per djinn from the raw games: games held, games won by its holder (any seat with
    the best score wins), the two rates."""
    scores = df[[f"score_{p}" for p in range(players)]]
    best = scores.max(axis=1)
    rows = []
    for name, _, _ in K.DJINNS:
        d = name.replace("'", "")
        holder = df[f"holder_{d}"]
        held = holder >= 0
        won = pd.Series(dtype=bool)  # a djinn nobody held (apply on no rows: a frame)
        if held.any():
            won = df[held].apply(
                lambda g: g[f"score_{int(g[f'holder_{d}'])}"] == best[g.name], axis=1)
        rows.append({"djinn": d, "games": len(df), "held": int(held.sum()),
                     "pick_rate": held.mean(), "wins": int(won.sum()),
                     "win_rate": won.mean() if len(won) else math.nan})
    return pd.DataFrame(rows).set_index("djinn")


def test_djinn_table_agrees_with_pandas(cli_run):
    out, _ = cli_run
    df = pd.read_parquet(out / "games.parquet")
    table = pd.read_csv(out / "tables" / "djinns.csv")
    want = pandas_djinns(df, 3)
    assert list(table["djinn"]) and set(table["djinn"]) == set(want.index)
    assert {"Baal", "Anun-Nak", "Al-Amin"} <= set(table["djinn"])
    assert want["held"].sum() > 0 and want["wins"].sum() > 0  # djinns are taken and win
    got = table.set_index("djinn").loc[want.index]
    for col in ("games", "held", "wins"):
        assert (got[col] == want[col]).all(), col
    for col in ("pick_rate", "win_rate"):
        np.testing.assert_allclose(got[col], want[col], rtol=REL)
    for d, row in got.iterrows():
        for rate, k, n in (("pick", row.held, row.games), ("win", row.wins, row.held)):
            if n:
                ref = naive.proportion(int(k), int(n))
                assert row[f"{rate}_lo95"] == pytest.approx(ref["lo95"], rel=REL, abs=1e-12)
                assert row[f"{rate}_hi95"] == pytest.approx(ref["hi95"], rel=REL, abs=1e-12)
    rates = table["win_rate"].fillna(-1).to_numpy()
    assert (np.diff(rates) <= 0).all()  # sorted by win rate, highest first
    top = df[[f"score_{p}" for p in range(3)]]
    assert table["player_win_rate"].to_numpy() == pytest.approx(
        top.eq(top.max(axis=1), axis=0).to_numpy().mean())


def test_djinn_intervals_hold_the_rate_and_narrow_with_more_games(cli_run):
    out, _ = cli_run
    df = pd.read_parquet(out / "games.parquet")
    spec = RunSpec("five-tribes", ("five-tribes",), 3, ("random",) * 3, 200, 1)
    for rate in ("pick", "win"):
        t = report.djinn_table(df, spec).dropna(subset=[f"{rate}_rate"])
        assert ((t[f"{rate}_lo95"] <= t[f"{rate}_rate"])
                & (t[f"{rate}_rate"] <= t[f"{rate}_hi95"])).all()
    # the same games four times: the same rates from four times the games, narrower
    few = report.djinn_table(df, spec).set_index("djinn")
    many = report.djinn_table(pd.concat([df] * 4), spec).set_index("djinn").loc[few.index]
    for rate in ("pick", "win"):
        held = few[f"{rate}_rate"].notna()
        np.testing.assert_allclose(many[f"{rate}_rate"][held], few[f"{rate}_rate"][held])
        assert ((many[f"{rate}_hi95"] - many[f"{rate}_lo95"])[held]
                < (few[f"{rate}_hi95"] - few[f"{rate}_lo95"])[held]).all()
    # and fewer games (the first 50 of 200) give wider pick-rate intervals
    first = report.djinn_table(df[df.game < 50], spec).set_index("djinn").loc[few.index]
    assert ((first.pick_hi95 - first.pick_lo95) > (few.pick_hi95 - few.pick_lo95)).all()


def test_a_folder_of_the_old_record_layout_is_recomputed(oddsbot_cli, tmp_path):
    """Blocks of the layout before the djinn holders: ``--resume`` names each and makes
    it again; the report is the fresh run's, djinn table included."""
    out = tmp_path / "run"
    ok(oddsbot_cli("report", "five-tribes", "--games", 30, "--players", 3, "--seed", 4,
                   "--out", out))
    (block,) = (out / "blocks").rglob("*.npy")
    fresh, djinns = block.read_bytes(), (out / "tables" / "djinns.csv").read_text()
    np.save(block, np.load(block)[:, :OLD_FIELDS])
    assert_bad_input(oddsbot_cli("report", "five-tribes", "--games", 30, "--players", 3,
                                 "--seed", 4, "--out", out), "--out", f"--resume {out}")
    notice, summary = ok(oddsbot_cli("report", "--resume", out)).err.splitlines()
    assert notice.startswith(f"oddsbot: recomputing 1 damaged block: "
                             f"{block.relative_to(out)} (wrong schema: ")
    assert f"(30, {OLD_FIELDS})" in notice and "record layout of another oddsbot" in notice
    assert block.read_bytes() == fresh
    assert (out / "tables" / "djinns.csv").read_text() == djinns


def test_a_folder_of_games_without_djinn_powers_is_not_resumed(oddsbot_cli, tmp_path):
    """A run folder made before the djinn powers were played (its ``run.json`` has no
    ``rules_version``, read as 1): ``--resume`` refuses it in one line, exit 2, and
    changes no file in it; the folder's games would mix two rule sets otherwise."""
    out = tmp_path / "run"
    ok(oddsbot_cli("report", "five-tribes", "--games", 30, "--players", 3, "--seed", 4,
                   "--out", out))
    state = json.loads((out / "run.json").read_text())
    assert state["rules_version"] == games.RULES_VERSION == 4
    del state["rules_version"]
    (out / "run.json").write_text(json.dumps(state, indent=2) + "\n")
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert_bad_input(oddsbot_cli("report", "--resume", out), "--resume", "run.json",
                     "rules version 1", "version 4", "--out")
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("args, words", [
    (("--players", "5"), ("--players", "2-4", "5")),
    (("--players", "1"), ("--players", "1")),
    (("--policies", "foo"), ("--policies", "foo")),
    (("--policies", "random,greedy,random,random", "--players", "3"), ("--policies", "4")),
    (("--variant", "camel-up"), ("--variant", "camel-up")),
])
def test_bad_options(oddsbot_cli, tmp_path, args, words):
    out = tmp_path / "run"
    assert_bad_input(oddsbot_cli("report", "five-tribes", "--games", 10, *args, "--out", out),
                     *words)
    assert not out.exists()


def test_policies_default_and_repeat():
    assert games.seat_policies((), 3) == ("heuristic",) * 3
    assert games.seat_policies(("greedy", "random"), 3) == ("greedy", "random", "greedy")


def test_a_two_player_premove_report(oddsbot_cli, tmp_path):
    out = tmp_path / "run"
    ok(oddsbot_cli("report", "five-tribes", "--games", 50, "--players", 2, "--variant",
                   "five-tribes-premove", "--seed", 3, "--out", out))
    df = pd.read_parquet(out / "games.parquet")
    assert list(df["variant"]) == ["five-tribes-premove"] * 50
    assert (df["turns_0"] + df["turns_1"] == 4 * df["rounds"]).all()  # two markers each
    np.testing.assert_array_equal(
        df["score_1"], record(2, PREMOVE, [HEURISTIC] * 2, 3, 0, 50)[:, K.F_TOTAL + 1])


def test_greedy_check_table(cli_run):
    """The section "Greedy turn against rollouts": its positions, rates and intervals."""
    out, _ = cli_run
    table = pd.read_csv(out / "tables" / "greedy_check.csv")
    assert list(table["variant"]) == ["five-tribes"]
    (row,) = table.to_dict("records")
    assert 1 <= row["positions"] <= greedy_check.POSITIONS
    assert row["p_rate"] == row["greedy_best"] / row["positions"]
    assert row["lo95"] <= row["p_rate"] <= row["hi95"]
    assert 0 <= row["win_p_lost"] <= 1 and row["lost_lo95"] <= row["win_p_lost"]


def test_greedy_check_positions_are_the_heuristic_games_first_turns():
    """``_position`` is the state before the first turn of the asked round of the game a
    report run deals as game g, played by the heuristic with that game's streams: the same
    state as playing it here bid by bid and turn by turn."""
    seed, game, players = 1, 2, 3
    deal, choices, refills = (stream(np.uint64(seed), 3 * game + i) for i in range(3))
    st = K.empty_state()
    K.deal(st, players, LIVE, False, deal)
    ws, spaces = K.turn_workspace(), np.zeros(K.MAX_BIDS, dtype=np.int64)
    for round_no in (1, 2, 3):
        while st[K.PHASE] == K.BIDDING:
            K.place_bid(st, K.choose_bid(st, HEURISTIC, choices, spaces))
        if round_no == 3:
            break
        while st[K.TO_MOVE] >= 0:
            K.play_turn(st, HEURISTIC, choices, tables(), ws, K.HEURISTIC_PARAMS)
        K.cleanup(st, refills)
        assert not K.game_over(st)
    np.testing.assert_array_equal(greedy_check._position(players, LIVE, seed, game, 3), st)


def test_greedy_check_is_left_out_of_small_runs():
    spec = RunSpec("five-tribes", ("five-tribes",), 3, ("heuristic",) * 3, 999, 1)
    section = greedy_check.greedy_check_section(spec)
    assert not section.tables and "999 games per variant" in section.text


def test_greedy_check_of_a_position_with_one_turn():
    """No legal sowing: the one turn is the greedy one and the rollout-best, losing 0."""
    pos = ft.parse((Path(__file__).parents[2] / "examples" / "five-tribes-opening-4p.json")
                   .read_text())
    board = [[replace(cell, meeples="") for cell in row] for row in pos.board]
    board[0][0] = replace(board[0][0], meeples="Y")
    board[4][5] = replace(board[4][5], meeples="W")
    st = encode(pos.with_(board=tuple(map(tuple, board))))
    assert greedy_check.check_position(st, 1) == (True, 0.0)
