"""A designer report's run folder: start or resume a run, simulate what is missing, write
the report.

The folder holds ``run.json`` (the run's spec and every session that worked on it),
``blocks/`` (finished blocks of games, kept so that ``--resume`` continues), the raw
per-game file ``games.parquet`` (or ``games.csv``), ``report.html``, ``report.md``,
``charts/`` and ``tables/``.
"""

from __future__ import annotations

import json
import os
import platform
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

from .. import __version__
from ..errors import OddsbotError
from . import designer, document, numbers, runner
from .spec import RunSpec

RUN_FILE = "run.json"
RAW_FORMATS = ("parquet", "csv")


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _write_state(out: Path, state: dict) -> None:
    tmp = out / (RUN_FILE + ".partial")
    tmp.write_text(json.dumps(state, indent=2) + "\n")
    os.replace(tmp, out / RUN_FILE)


def check_new(out: Path) -> None:
    """``out`` can hold a new run: it does not exist (its parent does) or is empty."""
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise OddsbotError(f"--out: {str(out)!r} exists and is not an empty folder; use "
                           f"--resume {out} to continue a run there, or another folder")
    if not out.parent.is_dir():
        raise OddsbotError(f"--out: folder {str(out.parent)!r} does not exist")


def check_spec(spec: RunSpec, where: str) -> None:
    """A one-line error naming ``where`` for the first reason ``spec`` cannot run."""
    problems = spec.problems()
    if problems:
        raise OddsbotError(f"{where}: {problems[0]}")
    try:
        designer(spec.game).check_run(spec.variants, spec.players, spec.policies)
    except OddsbotError as exc:
        raise OddsbotError(f"{where}: {exc}") from None


def start(spec: RunSpec, out: Path, raw: str) -> dict:
    """Create the run folder ``out`` (new, or an empty folder) with its ``run.json``."""
    check_new(out)
    out.mkdir(exist_ok=True)
    state = {"spec": spec.to_json(), "raw": raw, "oddsbot": __version__, "created": _now(),
             "complete": False, "runs": []}
    _write_state(out, state)
    return state


def load_state(out: Path) -> dict:
    """The ``run.json`` of run folder ``out``, checked: readable, and a spec that can
    run."""
    path = out / RUN_FILE
    if not path.is_file():
        raise OddsbotError(f"--resume: {str(out)!r} is not a report run folder (no {RUN_FILE})")
    try:
        state = json.loads(path.read_text())
        spec = RunSpec.from_json(state["spec"])
        if state["raw"] not in RAW_FORMATS or not isinstance(state["runs"], list):
            raise ValueError(f"raw {state['raw']!r}")
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise OddsbotError(f"--resume: {path}: damaged run file ({exc})") from None
    check_spec(spec, f"--resume: {path}")
    return state


OPTIONS = {"variants": "--variant"}  # spec fields whose option has another name


def resume(out: Path, given: dict[str, object]) -> tuple[RunSpec, dict]:
    """The spec and state of the run in ``out``, nothing written yet. Options ``given``
    on the command line must agree with the run, except ``games``, which may grow or
    shrink it (finished blocks that still fit are kept)."""
    state = load_state(out)
    spec = RunSpec.from_json(state["spec"])
    for name, value in given.items():
        if value is None or name == "games":
            continue
        have = getattr(spec, name, state.get(name))
        if value != have:
            raise OddsbotError(f"{OPTIONS.get(name, '--' + name)}: the run in {out} was made "
                               f"with {have!r}, not {value!r}; leave the option out to "
                               f"continue it")
    if given.get("games") is not None and given["games"] != spec.games:
        spec = replace(spec, games=int(given["games"]))
        check_spec(spec, "--games")
        state["spec"] = spec.to_json()
        state["complete"] = False
    return spec, state


def simulate(spec: RunSpec, out: Path, state: dict, *, client=None,
             progress: runner.Progress | None = None) -> runner.Executed:
    """Run every missing block and record this session in ``run.json``."""
    began = _now()
    _write_state(out, state)
    done = runner.execute(spec, out, client=client, progress=progress)
    if done.games:
        state["runs"].append({
            "started": began, "finished": _now(), "how": done.how, "games": done.games,
            "seconds": round(done.seconds, 3), "games_per_second": round(done.games_per_second),
            "warm_up_seconds": round(done.warm_up_seconds, 3), "host": platform.node(),
        })
    state["complete"] = True
    _write_state(out, state)
    return done


def raw_path(out: Path, raw: str) -> Path:
    return out / f"games.{raw}"


def write_raw(df: pd.DataFrame, path: Path) -> None:
    tmp = path.with_name(path.name + ".partial")
    if path.suffix == ".csv":
        df.to_csv(tmp, index=False)
    else:
        df.to_parquet(tmp, index=False)
    os.replace(tmp, path)


def title(spec: RunSpec) -> str:
    """The report's title: the game or the variants compared, games and players."""
    what = spec.game if spec.variants == (spec.game,) else " vs ".join(spec.variants)
    each = " each" if len(spec.variants) > 1 else ""
    return (f"oddsbot designer report: {what} · {numbers.count(spec.games, 'game')}{each}, "
            f"{spec.players} players")


def blocks_text(spec: RunSpec) -> str:
    """How the games of a variant were cut into blocks, as they were (never a block
    larger than the run)."""
    sizes = [b.n for b in spec.blocks() if b.variant == spec.variants[0]]
    last = f", the last of {sizes[-1]:,}" if sizes[-1] != sizes[0] else ""
    return f"{len(sizes)} per variant, of {numbers.count(sizes[0], 'game')}{last}"


def provenance(spec: RunSpec, state: dict) -> document.Section:
    """The last section: what the run was, what made it, and every session that
    simulated its games."""
    seats = ", ".join(f"seat {i}: {p}" for i, p in enumerate(spec.policies))
    facts = {
        "game": spec.game, "variants": ", ".join(spec.variants), "players": spec.players,
        "policies": seats, "seed": spec.seed, "games per variant": f"{spec.games:,}",
        "blocks": blocks_text(spec), "raw per-game file": f"games.{state['raw']}",
        "run created": state["created"] + (f" by oddsbot {state['oddsbot']}"
                                           if "oddsbot" in state else ""),
        "report written by": f"oddsbot {__version__}",
    }
    runs = pd.DataFrame(state["runs"], columns=["started", "finished", "how", "games",
                                                "seconds", "games_per_second",
                                                "warm_up_seconds", "host"])
    text = ("The run's settings, then one row per session that simulated games for this "
            "report (a resumed run has several). Throughput counts simulation only, after "
            "every worker's warm-up (numba compile or cache load). Results do not depend "
            "on where blocks ran.")
    return document.Section("Provenance", text, facts=facts,
                            tables=[document.Table("runs", "How it ran", runs, digits=3)])


def build(spec: RunSpec, out: Path, state: dict) -> list[Path]:
    """Write the raw per-game file and the report from the finished blocks: the game's
    sections (its summary first), then the provenance."""
    df = runner.load_games(spec, out)
    raw = raw_path(out, state["raw"])
    write_raw(df, raw)
    sections = designer(spec.game).report_sections(df, spec)
    report = document.Report(title(spec), sections + [provenance(spec, state)])
    return [raw] + document.write(report, out)
