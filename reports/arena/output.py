"""The arena's answer (docs/strategies.md §3): the table for people (80 columns), JSON,
CSV and Markdown, and the files of ``--out``: ``games.parquet`` (one row per seat of
each game, ``run.SEAT_COLUMNS``), ``table.csv`` and ``table.json`` (the JSON answer)."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pandas as pd

from ... import __version__
from ...analyser import render
from ...analyser.table import Table
from ...outputs import make_folder, write_bytes, write_text
from .run import ArenaSpec
from .stats import complete_deals, paired_difference, per_deal, table_rows

COLUMNS = ("policy", "seats", "win", "win_lo", "win_hi", "score", "score_lo", "score_hi",
           "margin", "margin_lo", "margin_hi", "rating", "rating_lo", "rating_hi",
           "decisions", "ms_per_decision", "cpu_ms_per_decision", "forfeits")


def complete(frames: list[pd.DataFrame], spec: ArenaSpec) -> pd.DataFrame | None:
    """The seat rows of the deals played in every seating, in deal order; None if none."""
    if not frames:
        return None
    seats = complete_deals(pd.concat(frames, ignore_index=True), len(spec.seatings))
    if seats.empty:
        return None
    return seats.sort_values(["deal", "seating", "seat"], ignore_index=True)


def forfeits(seats: pd.DataFrame | None) -> list[str]:
    """Every forfeit's one line, in deal order."""
    return [] if seats is None else [w for w in seats["why"] if w]


def result(spec: ArenaSpec, seats: pd.DataFrame) -> dict:
    """The JSON answer: what was played, one row per policy, and for two policies their
    paired difference in win rate."""
    names = spec.names
    deals = int(seats["deal"].nunique())
    answer: dict = {
        "game": spec.game, "variant": spec.variant, "players": spec.players,
        "seed": spec.seed, "deals": deals, "seatings": len(spec.seatings),
        "games": deals * len(spec.seatings), "par": 1 / spec.players,
        "policies": table_rows(seats, names, spec.players, spec.seed)}
    if len(names) == 2:
        answer["paired"] = {"first": names[0], "second": names[1],
                            **paired_difference(per_deal(seats, names)["win"])}
    answer["provenance"] = {
        "oddsbot": __version__, "entrants": {e.name: f"{e.kind} {e.what}".strip()
                                             for e in spec.entrants},
        "rules": dict(spec.rules), "how": ("whole games in the kernel" if spec.in_kernel
                                           else "one decision at a time"),
        "decision_budget": spec.budget, "decision_limit": spec.decision_limit,
        "intervals": "95 %, normal, over deals; ratings: Bradley-Terry on finishing "
                     "order, Elo scale, mean 0, 2.5-97.5 percentiles of a bootstrap "
                     "over deals"}
    return answer


def _table(answer: dict) -> Table:
    have = answer["policies"][0]
    return Table.from_dicts(answer["policies"], [c for c in COLUMNS if c in have])


def _pct(x: float) -> str:
    return "" if x is None or math.isnan(x) else f"{100 * x:.1f}"


def _num(x: float, digits: int = 1) -> str:
    return "" if x is None or math.isnan(x) else f"{x:.{digits}f}"


def _ms(x: float) -> str:
    """A decision time in ms: one decimal from 1 ms, three below, and ``<0.001`` under a
    microsecond (a compiled policy's; ``0.000`` read as no time at all). Six characters
    at most below 1,000 ms, so the table keeps its width (the JSON has every digit)."""
    if x >= 1:
        return _num(x)
    return "<0.001" if 0 < x < 0.0005 else _num(x, 3)


def _interval(lo: float, hi: float, show=_num) -> str:
    return "" if math.isnan(lo) else f"{show(lo)} – {show(hi)}"


def people_table(answer: dict) -> Table:
    """The table for people: win % with its interval, score and margin, rating with its
    interval, decision time."""
    rows = []
    for r in answer["policies"]:
        rows.append({"policy": r["policy"], "win %": _pct(r["win"]),
                     "95 % CI": _interval(r["win_lo"], r["win_hi"], _pct),
                     "score": _num(r["score"]), "margin": _num(r["margin"]),
                     "rating": _num(r["rating"], 0),
                     "95 % CI ": _interval(r["rating_lo"], r["rating_hi"],
                                            lambda x: _num(x, 0)),
                     "ms/dec": _ms(r["ms_per_decision"]) if "ms_per_decision" in r else None,
                     "forfeits": r["forfeits"] or None})
    return Table.from_dicts(rows, ("policy", "win %", "95 % CI", "score", "margin",
                                   "rating", "95 % CI ", "ms/dec", "forfeits"))


def _p(p: float) -> str:
    return "p < 0.0001" if p < 1e-4 else f"p = {p:.2g}"


def caption(answer: dict) -> str:
    """What was played and how to read it, in lines of at most 80 columns."""
    variant = f" ({answer['variant']})" if answer["variant"] != answer["game"] else ""
    deals = f"{answer['deals']:,} deal" + ("" if answer["deals"] == 1 else "s")
    lines = [f"{answer['game']}{variant}, {answer['players']} players, seed {answer['seed']}: "
             f"{answer['games']:,} games = {deals} × "
             f"{answer['seatings']} seatings"]
    if "paired" in answer:
        p = answer["paired"]
        gap = f"{p['first']} − {p['second']}: {100 * p['difference']:+.1f} points of win %"
        if math.isnan(p["lo"]):  # one deal: no spread over deals to measure
            lines.append(f"{gap} (one deal: no interval)")
        else:
            lines.append(f"{gap}, 95 % CI {_interval(p['lo'], p['hi'], _pct)}, "
                         f"{_p(p['p_value'])}")
    lines.append(f"par {100 * answer['par']:.1f} % · intervals 95 %, over deals · rating: "
                 f"Bradley-Terry, Elo scale")
    return "\n".join(lines)


TIMES = ("ms_per_decision", "cpu_ms_per_decision")


def without_times(answer: dict) -> dict:
    """The answer without the decision times (which differ from run to run)."""
    return answer | {"policies": [{k: v for k, v in r.items() if k not in TIMES}
                                  for r in answer["policies"]]}


def show(answer: dict, fmt: str) -> None:
    """Print the answer on stdout in ``fmt`` (rows without times leave the column out)."""
    import sys

    if fmt == "json":
        print(render.to_json(answer))
    elif fmt == "csv":
        sys.stdout.write(render.csv(_table(answer)))
    elif fmt == "markdown":
        sys.stdout.write(render.markdown(_table(answer)))
    else:
        render.print_table(render.rich_table(people_table(answer), caption=caption(answer)))


def write(out: Path, seats: pd.DataFrame, answer: dict) -> None:
    """``--out``: games.parquet, table.csv, table.json (each written whole or not at all)."""
    make_folder(out)
    buf = io.BytesIO()
    seats.to_parquet(buf, index=False)
    write_bytes(out / "games.parquet", buf.getvalue())
    write_text(out / "table.csv", render.csv(_table(answer)))
    write_text(out / "table.json", render.to_json(answer) + "\n")
