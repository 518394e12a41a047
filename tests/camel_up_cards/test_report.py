"""The Camel Up Cards designer report (``oddsbot.reports.camel_up_cards``).

A small report (2,000 four-player games, two policies) is built from the kernel's raw rows
and written; every table CSV then agrees with a naive recount of the raw rows (the kernel's
int16 rows decoded here by hand, plain loops, exact ``Fraction`` sums, the estimators of
``naive_report``), the per-game facts the report added to the rows (hand-card chances,
legs started, the fate of every fox and palm, the end of the race, the set-up order)
agree with games replayed turn by turn on the naive movement reference (``naive_cards``),
and every chart is inspected before it is saved (size, title, text inside, legends clear,
bar heights and error bars equal to the tables) and read back as PNG.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path

import matplotlib.image
import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from matplotlib.container import BarContainer
from matplotlib.patches import Polygon

import naive_cards as N
from checks import ok
from figure_checks import (
    assert_legends_clear, assert_no_clipped_text, assert_titled, legend_labels, pixels,
)
from kernel_boards import TYPES, boards, from_track, new_board, to_track
from naive_report import chi2_sf, mean_interval, ratio_interval, summary, wilson
from oddsbot.analyser import registry
from oddsbot.analyser.face import Capability
from oddsbot.kernels.camel_up_cards import batch_games as B
from oddsbot.kernels.camel_up_cards import game as GM
from oddsbot.kernels.camel_up_cards import policy as P
from oddsbot.kernels.camel_up_cards import track as T
from oddsbot.kernels.rng import stream
from oddsbot.reports import batch, document, figures
from oddsbot.reports.camel_up_cards import games, report
from oddsbot.reports.document import Chart
from oddsbot.reports.spec import RunSpec

SPEC = RunSpec("camel-up-cards", ("camel-up-cards",), 4,
               ("heuristic", "random", "heuristic", "random"), 2_000, 5, block=1_000)
REL = 1e-9  # CSV floats are written with 10 significant digits
ABS = 1e-12
NAMES = ["white", "green", "orange", "blue", "yellow"]  # camel index -> colour name
RACE = ["reveal", "hand", "fox", "palm"]
BETS = ["leader", "midfield", "winner", "loser"]
FACTS = ["hand_legs", "legs_started", "fox_triggered", "fox_passed", "fox_paid",
         "palm_triggered", "palm_passed", "palm_paid"]
ENDS = {0: "revealed card", 1: "hand card", -1: "turn cap"}
BINS = ["0", "1", "2", "3", "4+"]
FIRST, LAST = "leg 1 (the youngest)", "last leg (the least money)"
OTHER_GAMES = min(SPEC.games, report.BY_PLAYERS_GAMES)

Row = dict[str, object]


# --------------------------------------------------------------------------- the run


@pytest.fixture(scope="module")
def raw() -> np.ndarray:
    """The kernel's rows of every game of the run, block by block."""
    return np.vstack([games.simulate_raw(b.variant, SPEC.players, SPEC.policies, SPEC.seed,
                                         b.game0, b.n) for b in SPEC.blocks()])


@pytest.fixture(scope="module")
def built(raw, tmp_path_factory) -> tuple[Path, dict[str, Chart]]:
    """The report written from the rows (tables as CSV, charts as PNG), and its charts."""
    df = pd.concat([games.raw_table(raw[b.game0:b.game0 + b.n], b.variant, SPEC.players,
                                    b.game0) for b in SPEC.blocks()], ignore_index=True)
    sections = report.report_sections(df, SPEC)
    out = tmp_path_factory.mktemp("report")
    document.write(document.Report(batch.title(SPEC), sections), out)
    return out, {c.name: c for s in sections for c in s.charts}


@pytest.fixture(scope="module")
def expected(raw) -> dict[str, list[Row]]:
    return naive_tables(raw, SPEC)


# --------------------------------------------------------------------------- naive recount


def start_order(rank: int) -> list[int]:
    """The camels from leading to last of ``track.rank_index`` ``rank``: the digits (camel
    c: how many of the camels after it are ahead) in the mixed radix 5, 4, 3, 2, camel 0's
    digit first; inserting camels 4, 3, ..., 0 at their digit rebuilds the order."""
    digits = []
    for base in (2, 3, 4, 5):
        digits.append(rank % base)
        rank //= base
    digits = [0] + digits  # camel 4 has no camel after it; now digits[4 - c] is camel c's
    order: list[int] = []
    for c in range(4, -1, -1):
        order.insert(digits[4 - c], c)
    return order


def decode(row: np.ndarray, players: int) -> dict:
    """One game from the kernel's row, by its documented layout."""
    def seat_block(first: int, names: list[str]) -> list[dict[str, int]]:
        return [{name: int(row[first + s * len(names) + i]) for i, name in enumerate(names)}
                for s in range(players)]

    return {"money": [int(row[B.F_MONEY + s]) for s in range(players)],
            "turns": int(row[B.F_TURNS]), "legs": int(row[B.F_LEGS]),
            "winner": NAMES[row[B.F_WINNER]], "loser": NAMES[row[B.F_LOSER]],
            "first": int(row[B.F_FIRST]), "last_start": int(row[B.F_LAST_START]),
            "end": ENDS[int(row[B.F_END])], "start": start_order(int(row[B.F_START_RANK])),
            "kinds": seat_block(B.F_KINDS, RACE + BETS),
            "facts": seat_block(B.F_SEAT_FACTS, FACTS)}


def credit(game: dict) -> list[Fraction]:
    """Each seat's share of the game's one win: the richest seats share it."""
    best = max(game["money"])
    rich = [m == best for m in game["money"]]
    return [Fraction(1, sum(rich)) if r else Fraction(0) for r in rich]


def prop(k, n: int) -> Row:
    """k / n with its Wilson interval; no estimate without games."""
    if n == 0:
        return {"p": None, "lo95": None, "hi95": None}
    lo, hi = wilson(k, n)
    return {"p": float(Fraction(k) / n), "lo95": lo, "hi95": hi}


def mean_row(values: list[int]) -> tuple:
    """(mean, lo, hi) of ``values``; no interval for one value, nothing for none."""
    if not values:
        return None, None, None
    if len(values) == 1:
        return float(values[0]), None, None
    return mean_interval(values)


def policy_seats(spec: RunSpec) -> list[tuple[str, list[int]]]:
    return [(p, [s for s in range(spec.players) if spec.policies[s] == p])
            for p in dict.fromkeys(spec.policies)]


def share_rows(mine: list[dict], spec: RunSpec, kinds: list[str], count, key: str
               ) -> list[Row]:
    """Each kind's share of the turns of every policy's seats: ``count(game, seat, kind)``."""
    out = []
    for policy, seats in policy_seats(spec):
        taken = {k: [sum(count(g, s, k) for s in seats) for g in mine] for k in kinds}
        totals = [sum(taken[k][i] for k in kinds) for i in range(len(mine))]
        for k in kinds:
            share, lo, hi = ratio_interval(taken[k], totals)
            out.append({"variant": spec.game, "policy": policy, key: k,
                        "turns": sum(taken[k]), "share": share, "lo95": lo, "hi95": hi})
    return out


def legs_tables(games_of: dict[int, tuple[str, list[dict]]], v: str
                ) -> tuple[list[Row], list[Row]]:
    dist, summ = [], []
    for players, (source, mine) in games_of.items():
        counts: dict[int, int] = {}
        for g in mine:
            counts[g["legs"]] = counts.get(g["legs"], 0) + 1
        for legs in sorted(counts):
            dist.append({"variant": v, "players": players, "source": source, "legs": legs,
                         "games": counts[legs], **prop(counts[legs], len(mine))})
        summ += summary([g["legs"] for g in mine], {"variant": v, "players": players,
                                                    "source": source, "games": len(mine)})
    return dist, summ


def naive_tables(raw: np.ndarray, spec: RunSpec) -> dict[str, list[Row]]:
    """Every table of the report, by CSV name, from the raw rows only (and, for the legs
    by player count, the raw rows of the other player counts)."""
    n_p, v = spec.players, spec.game
    mine = [decode(row, n_p) for row in raw]
    n = len(mine)
    out: dict[str, list[Row]] = {}
    wins = [sum(credit(g)[s] for g in mine) for s in range(n_p)]

    counts: dict[int, int] = {}
    for g in mine:
        counts[g["legs"]] = counts.get(g["legs"], 0) + 1
    out["legs"] = [{"variant": v, "legs": k, "games": counts[k], **prop(counts[k], n)}
                   for k in sorted(counts)]
    out["length"] = (summary([g["turns"] for g in mine], {"variant": v, "measure": "turns"})
                     + summary([g["legs"] for g in mine], {"variant": v, "measure": "legs"}))
    out["end_trigger"] = [{"variant": v, "end_trigger": e, "games": k, **prop(k, n)}
                          for e in ENDS.values()
                          for k in [sum(1 for g in mine if g["end"] == e)]]
    out["seats"] = [{"variant": v, "seat": s, "policy": spec.policies[s],
                     "wins": float(wins[s]), "games": n, **prop(wins[s], n)}
                    for s in range(n_p)]
    expected_wins = Fraction(n, n_p)
    chi2 = float(sum((w - expected_wins) ** 2 / expected_wins for w in wins))
    p_value = chi2_sf(chi2, n_p - 1)
    out["seat_test"] = [{"variant": v, "games": n, "chi2": chi2, "df": n_p - 1,
                         "p_value": p_value,
                         "verdict": "seat advantage (p < 0.05)" if p_value < 0.05
                         else "no evidence of a seat advantage"}]

    start_wins = {FIRST: sum(credit(g)[g["first"]] for g in mine),
                  LAST: sum(credit(g)[g["last_start"]] for g in mine)}
    out["start_player"] = [{"variant": v, "start_player": who, "games": n, "wins": float(k),
                            **prop(k, n), "equal_share": 1 / n_p}
                           for who, k in start_wins.items()]
    out["legs_started"] = []
    for s in range(n_p):
        started = [g["facts"][s]["legs_started"] for g in mine]
        mean, lo, hi = mean_interval(started)
        share, s_lo, s_hi = ratio_interval(started, [g["legs"] for g in mine])
        out["legs_started"].append({"variant": v, "seat": s, "policy": spec.policies[s],
                                    "mean": mean, "lo95": lo, "hi95": hi,
                                    "share_of_legs": share, "share_lo95": s_lo,
                                    "share_hi95": s_hi})

    by_players = {}
    for k in range(2, 7):
        if k == n_p:
            by_players[k] = ("this run", mine)
        else:
            policies = tuple(spec.policies[s % n_p] for s in range(k))
            rows = games.simulate_raw(v, k, policies, spec.seed, 0, min(n, OTHER_GAMES))
            by_players[k] = ("simulated", [decode(row, k) for row in rows])
    out["legs_by_players"], out["legs_by_players_summary"] = legs_tables(by_players, v)

    out["hand_use"], out["hand_value"] = [], []
    for policy, seats in policy_seats(spec):
        plays = [sum(g["kinds"][s]["hand"] for s in seats) for g in mine]
        chances = [sum(g["facts"][s]["hand_legs"] for s in seats) for g in mine]
        share, lo, hi = ratio_interval(plays, chances)
        mean, m_lo, m_hi = mean_interval([Fraction(x, len(seats)) for x in plays])
        out["hand_use"].append({"variant": v, "policy": policy, "seats": len(seats),
                                "hand_plays": sum(plays), "chances": sum(chances),
                                "share": share, "lo95": lo, "hi95": hi,
                                "per_seat_game": mean, "per_seat_game_lo95": m_lo,
                                "per_seat_game_hi95": m_hi})
        for label in BINS:
            won, money = Fraction(0), []
            for g in mine:
                for s in seats:
                    played = g["kinds"][s]["hand"]
                    if (str(played) if played < 4 else "4+") == label:
                        won += credit(g)[s]
                        money.append(g["money"][s])
            mean, lo, hi = mean_row(money)
            out["hand_value"].append({"variant": v, "policy": policy, "hand_played": label,
                                      "seat_games": len(money), "wins": float(won),
                                      **prop(won, len(money)), "money": mean,
                                      "money_lo95": lo, "money_hi95": hi})

    out["figure_use"] = []
    for figure in ("fox", "palm"):
        for s in range(n_p):
            placed = [g["kinds"][s][figure] for g in mine]
            mean, lo, hi = mean_interval(placed)
            out["figure_use"].append({"variant": v, "figure": figure, "seat": s,
                                      "policy": spec.policies[s], "placed": sum(placed),
                                      "mean": mean, "lo95": lo, "hi95": hi})
    out["figure_fates"] = []
    for policy, seats in policy_seats(spec):
        for figure in ("fox", "palm"):
            placed = [sum(g["kinds"][s][figure] for s in seats) for g in mine]
            if sum(placed) == 0:
                continue
            for fate in ("triggered", "passed", "paid"):
                count = [sum(g["facts"][s][f"{figure}_{fate}"] for s in seats) for g in mine]
                share, lo, hi = ratio_interval(count, placed)
                out["figure_fates"].append({"variant": v, "policy": policy, "figure": figure,
                                            "fate": fate, "placed": sum(placed),
                                            "count": sum(count), "share": share, "lo95": lo,
                                            "hi95": hi})

    out["race_camels"] = [{"variant": v, "role": role, "camel": camel, "games": k,
                           **prop(k, n)}
                          for role in ("winner", "loser") for camel in NAMES
                          for k in [sum(1 for g in mine if g[role] == camel)]]
    out["start_place"] = []
    for role in ("winner", "loser"):
        places = [g["start"].index(NAMES.index(g[role])) + 1 for g in mine]
        out["start_place"] += [{"variant": v, "role": role, "start_place": place,
                                "games": places.count(place), **prop(places.count(place), n)}
                               for place in range(1, 6)]
    out["winner_money"] = summary([max(g["money"]) for g in mine], {"variant": v})

    out["race_actions"] = share_rows(mine, spec, RACE, lambda g, s, k: g["kinds"][s][k],
                                     "action")

    def bet_count(g, s, k):
        kinds = g["kinds"][s]
        if k == "no bet":
            return sum(kinds[r] for r in RACE) - sum(kinds[b] for b in BETS)
        return kinds[k]

    out["bets"] = share_rows(mine, spec, BETS + ["no bet"], bet_count, "bet")

    claims = [(f"seat {s}{' (starts leg 1)' if s == 0 else ''} wins", wins[s],
               Fraction(1, n_p)) for s in range(n_p)]
    for policy, seats in policy_seats(spec):
        if len(policy_seats(spec)) > 1:
            many = len(seats) > 1
            claims.append((f"the seat{'s' if many else ''} playing {policy} "
                           f"({', '.join(map(str, seats))}) win{'' if many else 's'}",
                           sum(wins[s] for s in seats), Fraction(len(seats), n_p)))
    claims.append(("the start player of the last leg (the least money) wins", start_wins[LAST],
                   Fraction(1, n_p)))
    leading = sum(1 for g in mine if g["start"][0] == NAMES.index(g["winner"]))
    claims.append(("the camel leading after set-up wins the race", leading, Fraction(1, 5)))
    out["summary"] = []
    for finding, k, equal in claims:
        row = prop(k, n)
        side = ("above" if row["lo95"] > equal else "below" if row["hi95"] < equal
                else "within")
        out["summary"].append({"variant": v, "finding": finding, **row,
                               "equal_share": float(equal), "vs_equal": side})
    return out


# --------------------------------------------------------------------------- tables


def read_csv(path: Path) -> tuple[list[str], list[list[str]]]:
    with path.open(newline="") as f:
        header, *rows = list(csv.reader(f))
    return header, rows


def same_cell(cell: str, want: object) -> bool:
    """A CSV cell against a naive value: none as an empty cell, ints exactly, floats to
    REL (within ABS of an exact 0), text equal."""
    if want is None:
        return cell == ""
    if isinstance(want, float):
        got = float(cell)
        return abs(got) <= ABS if want == 0 else math.isclose(got, want, rel_tol=REL)
    return cell == str(want)


def test_the_report_writes_every_table(built, expected):
    out, _ = built
    assert {p.stem for p in (out / "tables").glob("*.csv")} == set(expected)


@pytest.mark.parametrize("name", ["summary", "legs", "length", "end_trigger", "seats",
                                  "seat_test", "start_player", "legs_started",
                                  "legs_by_players", "legs_by_players_summary", "hand_use",
                                  "hand_value", "figure_use", "figure_fates", "race_camels",
                                  "start_place", "winner_money", "race_actions", "bets"])
def test_table_agrees_with_a_naive_recount(built, expected, name):
    out, _ = built
    header, rows = read_csv(out / "tables" / f"{name}.csv")
    want = expected[name]
    assert want, f"naive {name} is empty: nothing would be compared"
    assert header == list(want[0])
    assert len(rows) == len(want)
    for i, (cells, row) in enumerate(zip(rows, want)):
        for col, cell in zip(header, cells):
            assert same_cell(cell, row[col]), f"{name} row {i} {col}: {cell} != {row[col]!r}"


def test_the_run_has_what_the_sections_need(expected):
    """The run is informative: both policies place figures or not, every fate and every
    end of the race occurs, and 5 or more legs are played somewhere."""
    fates = expected["figure_fates"]
    assert {r["policy"] for r in fates} == {"random"}  # heuristic seats never place one
    assert all(r["count"] > 0 for r in fates)
    assert all(r["games"] > 0 for r in expected["end_trigger"][:2])
    assert expected["end_trigger"][2]["games"] == 0  # the turn cap is never reached
    assert max(r["legs"] for r in expected["legs_by_players"]) >= 5
    assert sum(r["seat_games"] for r in expected["hand_value"]) == SPEC.games * SPEC.players


# --------------------------------------------------------------------------- row facts


@contextmanager
def landings() -> Iterator[list[str]]:
    """The figures ``naive_cards.move`` stops on inside the block (its step 4 asks
    ``figure_at`` for the figure on the unit's space)."""
    landed: list[str] = []
    real = N.figure_at

    def figure_at(board, space):
        fig = real(board, space)
        if fig is not None:
            landed.append(fig)
        return fig

    N.figure_at = figure_at
    try:
        yield landed
    finally:
        N.figure_at = real


def replay(players: int, policies: tuple[str, ...], seed: int, r: int) -> dict:
    """Game ``r`` of a run replayed turn by turn (the kernel's deal and choices, the
    streams of ``kernels.batch``), its per-game facts counted here: figures judged on the
    naive movement reference, a figure triggered when ``naive_cards.move`` stops on it
    (``landings``)."""
    deal, pol = stream(seed, 3 * r), stream(seed, 3 * r + 2)
    st = GM.new_game(players, deal, np.arange(players), GM.SETUP[players],
                     GM.LAST_SPACE[players])
    codes = [P.POLICY_NAMES.index(p) for p in policies]
    facts = [dict.fromkeys(FACTS, 0) for _ in range(players)]
    start = [N.CAMELS.index(c) for c in N.ranking(from_track(st[:T.TRACK_SIZE]))]
    seen: set[tuple[int, int]] = set()
    started: set[int] = set()
    last_start, end = -1, -1
    while st[GM.STATUS] == 0:
        p, leg = int(st[GM.TO_MOVE]), int(st[GM.LEG])
        if leg not in started:
            started.add(leg)
            last_start = p
            facts[p]["legs_started"] += 1
        if (p, leg) not in seen:
            seen.add((p, leg))
            facts[p]["hand_legs"] += 1
        bet1, race, bet2 = P.choose(st, pol, codes[p])
        board = from_track(st[:T.TRACK_SIZE])
        holder = {"fox": int(st[T.FOX_HOLDER]), "palm": int(st[T.PALM_HOLDER])}
        after = None
        if race in (GM.RACE_REVEAL, GM.RACE_HAND):
            card = TYPES[st[GM.DECK + st[GM.DRAWN]]] if race == GM.RACE_REVEAL else \
                TYPES[st[GM.PLAYER + p * GM.PB + GM.HAND]]
            with landings() as landed:
                after = N.move(board, card[0], int(card[1]) if race == GM.RACE_REVEAL else 1)
        ended, _ = GM.play_turn(st, deal, bet1, race, bet2)
        for fig in ("fox", "palm"):
            if after is None or board[fig] is None:
                continue
            if fig in landed:
                facts[holder[fig]][f"{fig}_triggered"] += 1
            elif after[fig] is None:
                facts[holder[fig]][f"{fig}_passed"] += 1
            elif ended:
                facts[holder[fig]][f"{fig}_paid"] += 1
        if ended == 2:
            end = race
    return {"start": start, "last_start": last_start, "end": ENDS[end], "facts": facts}


@pytest.mark.parametrize("players, policies, n", [
    (4, SPEC.policies, 40), (2, ("random", "random"), 15), (6, ("random",) * 6, 15)])
def test_row_facts_agree_with_a_replay_on_the_naive_reference(players, policies, n):
    rows = games.simulate_raw("camel-up-cards", players, policies, 11, 0, n)
    fates = 0
    for r, row in enumerate(rows):
        got, want = decode(row, players), replay(players, policies, 11, r)
        for key in ("start", "last_start", "end", "facts"):
            assert got[key] == want[key], (r, key)
        for s in range(players):
            kinds, facts = got["kinds"][s], got["facts"][s]
            for fig in ("fox", "palm"):  # every placed figure has exactly one fate
                assert kinds[fig] == sum(facts[f"{fig}_{f}"] for f in
                                         ("triggered", "passed", "paid"))
                fates += kinds[fig]
            assert kinds["hand"] <= facts["hand_legs"] <= got["legs"]
        assert sum(f["legs_started"] for f in got["facts"]) == got["legs"]
        assert got["first"] == 0  # the youngest starts leg 1
    assert fates > 0


def chain(fox: int, palm: int, camel_at: int) -> dict:
    """A board with W alone on ``camel_at``, the others on the start card, and the figures
    on ``fox`` and ``palm``."""
    board = new_board(15)
    board["start"] = ["G", "O", "B", "Y"]
    board["stacks"] = {camel_at: ["W"]}
    board["fox"], board["palm"] = fox, palm
    return board


@settings(max_examples=300)
@given(board=boards(), c=st.integers(0, 4), steps=st.integers(1, 2))
@example(board=chain(fox=6, palm=5, camel_at=3), c=0, steps=2)  # palm, then fox: back to 5
@example(board=chain(fox=5, palm=4, camel_at=3), c=0, steps=2)  # fox, then palm: on to 5
@example(board=chain(fox=1, palm=9, camel_at=0), c=1, steps=1)  # fox: G back to the start
@example(board=chain(fox=3, palm=15, camel_at=13), c=0, steps=2)  # palm: over the finish
def test_the_figures_a_move_lands_on_are_the_naive_reference_s(board, c, steps):
    """``batch_games.landed_figures`` against ``naive_cards.move``: the figures its
    step 4 stops on, chained, and none once the unit reached the finish."""
    with landings() as landed:
        N.move(board, N.CAMELS[c], steps)
    bits = B.landed_figures(to_track(board), c, steps)
    assert bits == ("fox" in landed) + 2 * ("palm" in landed)


def test_the_start_order_decodes_as_the_kernel_s():
    for rank in range(120):
        assert start_order(rank) == list(T.perm_orders()[rank])


# --------------------------------------------------------------------------- charts


DEFAULT = (8, 4.2)


def size_of(name: str, expected: dict[str, list[Row]]) -> tuple[float, float]:
    """The chart's size in inches: ``sections.chart``'s default, the hand-card chart's
    two panels, or a stacked chart's base and rows."""
    stacked = {"figure_fates": len({(r["policy"], r["figure"])
                                    for r in expected["figure_fates"]}),
               "race_actions": len(set(SPEC.policies)), "bets": len(set(SPEC.policies))}
    if name in stacked:
        return (8, 2.2 + 0.45 * stacked[name])
    return (10, 4.2) if name == "hand_value" else DEFAULT


CHARTS = ["legs", "turns", "end_trigger", "seats", "start_player", "legs_by_players",
          "hand_value", "figure_use", "figure_fates", "race_camels", "start_place",
          "race_actions", "bets"]


def test_every_chart_is_written_at_its_size(built, expected):
    out, charts = built
    assert sorted(charts) == sorted(CHARTS)
    written = {p.stem: p for p in (out / "charts").glob("*.png")}
    assert set(written) == set(CHARTS)
    for name, chart in charts.items():
        size = size_of(name, expected)
        h, w = pixels(size)
        fig = chart.figure
        assert fig.dpi == figures.DPI
        assert tuple(np.round(fig.get_size_inches() * fig.dpi)) == (w, h), name
        assert matplotlib.image.imread(written[name]).shape == (h, w, 4), name


@pytest.mark.parametrize("name", CHARTS)
def test_chart_is_titled_labelled_and_inside_the_figure(built, name):
    _, charts = built
    chart = charts[name]
    assert_titled(chart.figure, chart.caption, batch.title(SPEC))
    assert_no_clipped_text(chart.figure)
    assert_legends_clear(chart.figure)
    for ax in chart.figure.axes:
        assert ax.get_xlabel().strip() and ax.get_ylabel().strip()
        bars = [c for c in ax.containers if isinstance(c, BarContainer)]
        if "error bars" in chart.caption:
            assert bars and all(c.errorbar is not None for c in bars)


def bar_values(ax) -> dict[str, dict[str, tuple[float, float, float]]]:
    """Series label -> category (tick label) -> (bar height, error bar low, high) of the
    grouped bars of ``ax``."""
    out = {}
    containers = [c for c in ax.containers if isinstance(c, BarContainer)]
    upright = containers[0].orientation == "vertical"
    ticks = [t.get_text() for t in (ax.get_xticklabels() if upright else ax.get_yticklabels())]
    for container in containers:
        segments = container.errorbar.lines[2][0].get_segments()
        assert len(segments) == len(container.patches)
        values = {}
        for patch, seg in zip(container.patches, segments):
            if len(seg) == 0:  # no interval: no error bar
                seg = np.full((2, 2), np.nan)
            if upright:
                at, size, ends = patch.get_x() + patch.get_width() / 2, patch.get_height(), \
                    (seg[0][1], seg[1][1])
            else:
                at, size, ends = patch.get_y() + patch.get_height() / 2, patch.get_width(), \
                    (seg[0][0], seg[1][0])
            values[ticks[round(at)]] = (size, *ends)
        out[container.get_label()] = values
    return out


GROUPED = {  # chart: (table, category column, group column, value column, reference level)
    "legs": ("legs", "legs", "variant", "p", None),
    "end_trigger": ("end_trigger", "end_trigger", "variant", "p", None),
    "seats": ("seats", "seat", "variant", "p", 1 / SPEC.players),
    "start_player": ("start_player", "start_player", "variant", "p", 1 / SPEC.players),
    "legs_by_players": ("legs_by_players", "legs", "players", "p", None),
    "figure_use": ("figure_use", "seat", "figure", "mean", None),
    "race_camels": ("race_camels", "camel", "role", "p", 1 / 5),
    "start_place": ("start_place", "start_place", "role", "p", 1 / 5),
}


@pytest.mark.parametrize("name", GROUPED)
def test_grouped_bars_draw_their_table(built, expected, name):
    table, category, group, value, reference = GROUPED[name]
    _, charts = built
    (ax,) = charts[name].figure.axes
    rows = expected[table]
    groups = [str(g) for g in dict.fromkeys(r[group] for r in rows)]
    got = bar_values(ax)
    assert list(got) == groups
    if len(groups) > 1:
        assert legend_labels(ax.figure) == groups
    for g in groups:
        want = {str(r[category]): (r[value], r["lo95"], r["hi95"])
                for r in rows if str(r[group]) == g}
        assert got[g].keys() == want.keys(), (name, g)
        for key, values in want.items():
            assert got[g][key] == pytest.approx(values, rel=REL, abs=ABS), (name, g, key)
    caps = {id(line) for c in ax.containers if isinstance(c, BarContainer)
            for line in c.errorbar.lines[1]}
    levels = [line.get_ydata()[0] for line in ax.lines if id(line) not in caps]
    assert levels == ([] if reference is None else [pytest.approx(reference)])


def test_hand_value_chart_draws_win_rate_and_money(built, expected):
    _, charts = built
    win_ax, money_ax = charts["hand_value"].figure.axes
    rows = [r for r in expected["hand_value"] if r["seat_games"] > 0]
    policies = list(dict.fromkeys(SPEC.policies))
    for ax, value, lo, hi in ((win_ax, "p", "lo95", "hi95"),
                              (money_ax, "money", "money_lo95", "money_hi95")):
        got = bar_values(ax)
        assert list(got) == policies
        for policy in policies:
            want = {r["hand_played"]: (r[value], r[lo], r[hi]) for r in rows
                    if r["policy"] == policy}
            assert got[policy].keys() == want.keys()
            for key, (v, low, high) in want.items():
                size, g_lo, g_hi = got[policy][key]
                assert size == pytest.approx(v, rel=REL)
                if low is None:  # one seat-game: no interval, no error bar drawn
                    assert math.isnan(g_lo) and math.isnan(g_hi)
                else:
                    assert (g_lo, g_hi) == pytest.approx((low, high), rel=REL, abs=ABS)
    assert legend_labels(win_ax.figure) == policies


STACKED = {"figure_fates": ("figure_fates", "fate", lambda r: f"{r['policy']} · {r['figure']}"),
           "race_actions": ("race_actions", "action",
                            lambda r: f"{r['variant']} · {r['policy']}"),
           "bets": ("bets", "bet", lambda r: f"{r['variant']} · {r['policy']}")}


@pytest.mark.parametrize("name", STACKED)
def test_stacked_bars_draw_their_shares(built, expected, name):
    table, part, bar = STACKED[name]
    _, charts = built
    (ax,) = charts[name].figure.axes
    rows = expected[table]
    bars = list(dict.fromkeys(bar(r) for r in rows))
    parts = list(dict.fromkeys(r[part] for r in rows))
    assert [t.get_text() for t in ax.get_yticklabels()] == bars
    containers = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert [c.get_label() for c in containers] == parts == legend_labels(ax.figure)
    left = np.zeros(len(bars))
    for kind, container in zip(parts, containers):
        share = {bar(r): r["share"] for r in rows if r[part] == kind}
        widths = [p.get_width() for p in container.patches]
        assert widths == pytest.approx([share[b] for b in bars], rel=REL, abs=ABS), kind
        assert [p.get_x() for p in container.patches] == pytest.approx(left, abs=1e-12)
        left += widths
    assert left == pytest.approx(1)


def test_turns_histogram_draws_the_share_of_games_of_every_length(built, raw):
    _, charts = built
    (ax,) = charts["turns"].figure.axes
    (poly,) = [p for p in ax.patches if isinstance(p, Polygon)]
    turns = [int(t) for t in raw[:, B.F_TURNS]]
    xy = poly.get_xy()
    got = {round((x0 + x1) / 2): y0 for (x0, y0), (x1, y1) in zip(xy[:-1], xy[1:])
           if y0 == y1 and x1 > x0}
    assert list(got) == list(range(min(turns), max(turns) + 1))
    for x, y in got.items():
        assert y == pytest.approx(turns.count(x) / len(turns), rel=REL, abs=ABS), x


# --------------------------------------------------------------------------- small runs


def test_a_heuristic_run_without_figures_says_so():
    """Heuristic seats never place a figure: no fates table and no figure charts, and the
    section says why; one game gives estimates without intervals, not a crash."""
    spec = RunSpec("camel-up-cards", ("camel-up-cards",), 3, ("heuristic",) * 3, 1, 2)
    df = games.simulate_block("camel-up-cards", 3, spec.policies, 2, 0, 1)
    sections = {s.title: s for s in report.report_sections(df, spec)}
    figures_section = sections["Fox and palm"]
    assert [t.name for t in figures_section.tables] == ["figure_use"]
    assert figures_section.charts == []
    assert "No seat of this run placed a figure" in figures_section.text
    assert "Variants side by side" not in sections  # one variant only


def test_check_run_refuses_in_one_line():
    from oddsbot.errors import OddsbotError

    with pytest.raises(OddsbotError, match="--players: camel-up-cards is for 2-6"):
        games.check_run(("camel-up-cards",), 7, ())
    with pytest.raises(OddsbotError, match="--variant"):
        games.check_run(("camel-up",), 4, ())
    with pytest.raises(OddsbotError, match="--policies"):
        games.check_run(("camel-up-cards",), 4, ("greedy",))
    assert games.seat_policies((), 3) == ("heuristic",) * 3
    assert games.seat_policies(("random", "heuristic"), 3) == ("random", "heuristic", "random")


REPORTS = registry.spec("camel-up-cards").has(Capability.REPORTS)


@pytest.mark.skipif(not REPORTS, reason="the GameSpec does not declare designer reports yet")
def test_cli_report(oddsbot_cli, tmp_path):
    out = tmp_path / "rep"
    ok(oddsbot_cli("report", "camel-up-cards", "--games", 300, "--players", 3,
                   "--policies", "heuristic,random", "--seed", 4, "--out", out))
    assert (out / "report.md").is_file() and (out / "report.html").is_file()
    assert (out / "tables" / "figure_fates.csv").is_file()
    md = (out / "report.md").read_text()
    assert md.startswith("# oddsbot designer report: camel-up-cards · 300 games, 3 players\n")
