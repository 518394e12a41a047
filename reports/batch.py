"""A designer report's run folder: start or resume a run, simulate what is missing, write
the report.

The folder holds ``run.json`` (the run's spec and every session that worked on it),
``run.lock`` (``lock.py``), ``blocks/`` (finished blocks of games, kept so that
``--resume`` continues), the raw per-game file ``games.parquet`` (or ``games.csv``),
``report.html``, ``report.md``, ``charts/`` and ``tables/``. Every file is written whole
or not at all (``outputs.replacing``).

A session is recorded in ``run.json`` from its start and after every saved block:
``started``, ``ended`` (UTC), ``outcome`` (``running`` while it runs, then ``finished``,
``interrupted`` or ``failed: <why>``; a session found ``running`` by a later one, which
holds the lock, is marked ``LOST``), ``games`` simulated, where (``how``), timings and the
host.
"""

from __future__ import annotations

import json
import os
import platform
from contextlib import suppress
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

from .. import __version__
from ..errors import OddsbotError
from ..outputs import cannot_write, make_folder, remove_partials, replacing, write_text
from . import designer, document, numbers, runner
from .lock import LOCK_FILE
from .spec import RunSpec

RUN_FILE = "run.json"
RAW_FORMATS = ("parquet", "csv")
RUNNING = "running"
LOST = "did not record its end (killed or crashed)"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _write_state(out: Path, state: dict) -> None:
    write_text(out / RUN_FILE, json.dumps(state, indent=2) + "\n")


def check_new(out: Path) -> None:
    """``out`` can hold a new run: it does not exist (its parent does) or is empty (an
    unheld ``run.lock`` of a run that never started counts as empty)."""
    if (out / RUN_FILE).exists():
        raise OddsbotError(f"--out: {str(out)!r} already holds a report run; continue or "
                           f"repair it with --resume {out}, or choose another folder")
    check_empty(out, f"use --resume {out} to continue a run there, or another folder",
                ignore=LOCK_FILE)


def check_empty(out: Path, fix: str, ignore: str | None = None) -> None:
    """``--out``: ``out`` does not exist and its parent does, or it is an empty folder
    (a file named ``ignore`` aside); else one line that ends with ``fix``. Nothing of the
    user's is overwritten."""
    try:
        used = out.exists() and (not out.is_dir() or
                                 any(p.name != ignore for p in out.iterdir()))
    except OSError as exc:
        raise OddsbotError(f"--out: cannot read {out}: {exc.strerror}") from None
    if used:
        raise OddsbotError(f"--out: {str(out)!r} exists and is not an empty folder; {fix}")
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
    make_folder(out)
    state = {"spec": spec.to_json(), "raw": raw, "oddsbot": __version__, "created": _now(),
             "rules_version": designer(spec.game).RULES_VERSION, "complete": False, "runs": []}
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
        if state["raw"] not in RAW_FORMATS or not isinstance(state["runs"], list) \
                or not all(isinstance(run, dict) for run in state["runs"]):
            raise ValueError(f"raw {state['raw']!r}, runs {state['runs']!r}")
    except OSError as exc:
        raise OddsbotError(f"--resume: cannot read {path}: {exc.strerror}") from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise OddsbotError(f"--resume: {path}: damaged run file ({exc})") from None
    check_spec(spec, f"--resume: {path}")
    made, plays = state.get("rules_version", 1), designer(spec.game).RULES_VERSION
    if made != plays:
        raise OddsbotError(f"--resume: {path}: its games follow {spec.game} rules version "
                           f"{made!r}, this oddsbot plays version {plays}; start a new "
                           f"folder with --out")
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


def recover(spec: RunSpec, out: Path, state: dict) -> list[str]:
    """Before a resumed run continues, holding the folder's lock: remove the temporary
    files a killed run left, mark its sessions that never recorded their end ``LOST``,
    and remove damaged blocks so that they are computed again (a block's games depend on
    the seed and their numbers only: the same rows as before). Returns the damaged
    blocks, each as ``path (what was wrong)``."""
    remove_partials(out)
    for run in state["runs"]:
        if run.get("outcome") == RUNNING:
            run["outcome"] = LOST
    found = []
    for block, problem in runner.damaged(spec, out):
        path = block.path(out)
        try:
            path.unlink()
        except OSError as exc:
            raise cannot_write(path, exc) from None
        found.append(f"{path.relative_to(out)} ({problem})")
    return found


def _figures(done: runner.Executed) -> dict[str, object]:
    """A session's figures so far, as ``run.json`` records them."""
    return {"how": done.how, "games": done.games, "seconds": round(done.seconds, 3),
            "games_per_second": round(done.games_per_second) if done.games else None,
            "warm_up_seconds": round(done.warm_up_seconds, 3)}


def _outcome(exc: BaseException) -> str:
    """How a session that raised ``exc`` ended, in words."""
    if isinstance(exc, KeyboardInterrupt):
        return "interrupted"
    return f"failed: {exc}" if isinstance(exc, OddsbotError) else \
        f"failed: {type(exc).__name__}: {exc}"


def simulate(spec: RunSpec, out: Path, state: dict, *, client=None,
             progress: runner.Progress | None = None) -> runner.Executed:
    """Run every missing block, recording the session in ``run.json`` (module docstring)
    from its start, after every saved block and at its end however it ends; a session
    with nothing to simulate is not recorded."""
    if next(runner.missing(spec, out), None) is None:
        state["complete"] = True
        _write_state(out, state)
        return runner.Executed("nothing to simulate", 0, 0.0, 0.0)
    pending = list(runner.missing(spec, out))  # the blocks this session is to make
    session: dict[str, object] = {"started": _now(), "ended": None, "outcome": RUNNING,
                                  "how": "", "games": 0, "host": platform.node(),
                                  "pid": os.getpid()}
    state["runs"].append(session)
    state["complete"] = False
    _write_state(out, state)

    def saved(now: runner.Executed) -> None:
        session.update(_figures(now), ended=_now())
        _write_state(out, state)

    try:
        done = runner.execute(spec, out, client=client, progress=progress, saved=saved)
    except BaseException as exc:
        # the games of the blocks saved, counted on disk: Ctrl-C may land between a
        # block's save and its ``saved`` call
        session.update(ended=_now(), outcome=_outcome(exc),
                       games=sum(b.n for b in pending if b.path(out).exists()))
        with suppress(OddsbotError):  # a full disk may refuse this record too
            _write_state(out, state)
        raise
    session.update(_figures(done), ended=_now(), outcome="finished")
    state["complete"] = True
    _write_state(out, state)
    return done


def raw_path(out: Path, raw: str) -> Path:
    return out / f"games.{raw}"


def write_raw(df: pd.DataFrame, path: Path) -> None:
    """The per-game table as ``path`` (CSV or Parquet by its suffix), whole or not at all."""
    with replacing(path) as f:
        if path.suffix == ".csv":
            df.to_csv(f, index=False)
        else:
            df.to_parquet(f, index=False)


def title(spec: RunSpec) -> str:
    """The report's title: the game or the variants compared, games and players."""
    what = spec.game if spec.variants == (spec.game,) else " vs ".join(spec.variants)
    each = " each" if len(spec.variants) > 1 else ""
    return (f"oddsbot designer report: {what} · {numbers.count(spec.games, 'game')}{each}, "
            f"{spec.players} players")


def blocks_text(spec: RunSpec) -> str:
    """How the games of a variant were cut into blocks, as they were (never a block
    larger than the run)."""
    count, first = spec.blocks_per_variant(), min(spec.block, spec.games)
    rest = spec.games - (count - 1) * spec.block
    last = f", the last of {rest:,}" if rest != first else ""
    return f"{count} per variant, of {numbers.count(first, 'game')}{last}"


SESSION_COLUMNS = ["started", "ended", "outcome", "games", "how", "seconds",
                   "games_per_second", "warm_up_seconds", "host"]


def _session_row(run: dict) -> dict[str, object]:
    """A session of ``run.json`` as a row of "How it ran" (a run file written before
    sessions recorded their outcome has ``finished`` for ``ended``, and finished)."""
    row = {name: run.get(name) for name in SESSION_COLUMNS}
    row["ended"] = run.get("ended", run.get("finished"))
    row["outcome"] = run.get("outcome", "finished")
    return row


def provenance(spec: RunSpec, state: dict) -> document.Section:
    """The last section: what the run was, what made it, and every session that
    simulated its games."""
    seats = ", ".join(f"seat {i}: {p}" for i, p in enumerate(spec.policies))
    facts = {
        "game": spec.game, "variants": ", ".join(spec.variants), "players": spec.players,
        "policies": seats, "seed": spec.seed, "games per variant": f"{spec.games:,}",
        **({"rule parameters": " ".join(f"{n}={v}" for n, v in spec.rules)}
           if spec.rules else {}),
        "blocks": blocks_text(spec), "raw per-game file": f"games.{state['raw']}",
        "run created": state["created"] + (f" by oddsbot {state['oddsbot']}"
                                           if "oddsbot" in state else ""),
        "report written by": f"oddsbot {__version__}",
    }
    runs = pd.DataFrame([_session_row(run) for run in state["runs"]], columns=SESSION_COLUMNS)
    text = ("The run's settings, then one row per session that had games to simulate for "
            "this report, however it ended (a resumed run has several). Throughput counts "
            "simulation only, after every worker's warm-up (numba compile or cache load). "
            "Results do not depend on where blocks ran.")
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
