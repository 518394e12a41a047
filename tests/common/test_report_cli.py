"""``oddsbot report`` end to end, through the command line.

Covered:

* a run writes run.json, the blocks, the raw per-game file, report.html / report.md,
  charts/ and tables/; stdout lists the report files, stderr has one summary line;
* ``--raw csv``; ``--variant a --variant b`` equals ``--variant a,b``; ``--policies``
  repeated over the seats;
* ``--resume`` of a finished run (simulates nothing, rebuilds the same report), and with a
  larger ``--games`` (equals a fresh run of that size);
* ``--workers 2``: a real Dask ``LocalCluster`` on loopback gives the same games;
* a real Ctrl-C (SIGINT to the console script between blocks), then ``--resume`` to the end:
  the report of an uninterrupted run;
* ``--scheduler`` that nobody listens on: refused in one line within
  ``$ODDSBOT_SCHEDULER_TIMEOUT`` seconds (15 unset), as is a bad value of that setting;
* bad input of every kind: exit 2, one line ``oddsbot: error: ...``, no traceback, and
  every file and folder under the test's folder exactly as it was.

Game counts are small (1,000 per variant) except for the interruption, which needs
several of the CLI's fixed 50,000-game blocks.
"""

from __future__ import annotations

import json
import shutil
import signal
import time
from pathlib import Path

import pandas as pd
import pytest
from conftest import Run
from checks import assert_bad_input, ok, same_report
from oddsbot.reports.runner import SCHEDULER_TIMEOUT, scheduler_timeout
from oddsbot.reports.spec import RunSpec
from run_folders import (
    assert_untouched, block_files, copy_run, oddsbot, run_file, snapshot, spawn,
)

VARIANTS = ("camel-up", "camel-up-2014")
# the reference run: both variants, 1,000 games each (one block per variant)
REF = ("camel-up", "--games", "1000", "--variant", ",".join(VARIANTS), "--seed", "7")
REPORT_FILES = ("games.parquet", "report.html", "report.md")
UNREACHABLE = "tcp://127.0.0.1:1"
UNREACHABLE_SECONDS = 2  # its $ODDSBOT_SCHEDULER_TIMEOUT (the product waits 15 s unset)
BIG_GAMES = 120_000  # three blocks of the CLI's default 50,000 games: 50k, 50k, 20k


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> tuple[Path, Run]:
    """The REF run, by the console script: (its folder, the process's output)."""
    out = tmp_path_factory.mktemp("reference") / "run"
    result = oddsbot("report", *REF, "--out", out)
    assert result.code == 0, result.err
    return out, result


@pytest.fixture
def finished(reference, tmp_path) -> Path:
    """A private copy of the finished reference run."""
    return copy_run(reference[0], tmp_path / "finished")


# --------------------------------------------------------------------------- happy paths


def test_report_writes_every_file(reference):
    out, result = reference
    assert "Traceback" not in result.err
    assert result.out.splitlines() == [str(out / name) for name in REPORT_FILES]
    (line,) = result.err.splitlines()
    assert line.startswith(f"report: {out / 'report.html'} · 1,000 games per variant, "), line
    assert line.endswith("numba threads)") and " games/s (in-process, " in line, line

    state = run_file(out)
    assert state["spec"] == {"game": "camel-up", "variants": list(VARIANTS), "players": 4,
                             "policies": ["heuristic"] * 4, "games": 1000, "seed": 7,
                             "block": 50_000}
    assert state["raw"] == "parquet" and state["complete"] is True
    (session,) = state["runs"]
    assert session["games"] == 2000 and session["how"].startswith("in-process")

    key = RunSpec.from_json(state["spec"]).key()
    assert [p.relative_to(out).as_posix() for p in block_files(out)] == \
        [f"blocks/{key}/{v}/games-0000000000-1000.npy" for v in VARIANTS]
    games = pd.read_parquet(out / "games.parquet")
    assert len(games) == 2000
    assert games.groupby("variant", observed=True).size().to_dict() == \
        {v: 1000 for v in VARIANTS}
    assert not (out / "games.csv").exists()
    assert not list(out.rglob("*.partial"))

    md = (out / "report.md").read_text()
    html = (out / "report.html").read_text()
    charts = sorted(p.name for p in (out / "charts").iterdir())
    assert charts and all(p.suffix == ".png" for p in (out / "charts").iterdir())
    for name in charts:
        assert f"](charts/{name})" in md
        assert (out / "charts" / name).read_bytes().startswith(b"\x89PNG")
    # self-contained: every chart embedded, none linked
    assert html.count('src="data:image/png;base64,') == len(charts)
    assert 'src="charts/' not in html
    tables = sorted(p.name for p in (out / "tables").iterdir())
    assert "runs.csv" in tables and len(tables) > 1
    for name in tables:
        frame = pd.read_csv(out / "tables" / name)
        assert len(frame) > 0, name
    assert "camel-up-2014" in md and "How it ran" in md and "How it ran" in html
    # run facts as the run was made: one block of the 1,000 games, not the 50,000 allowed
    assert "- **blocks**: 1 per variant, of 1,000 games" in md and "block size" not in md


def test_raw_csv_into_an_existing_empty_folder(oddsbot_cli, tmp_path):
    out = tmp_path / "empty"
    out.mkdir()
    result = ok(oddsbot_cli("report", "camel-up", "--games", 600, "--raw", "csv",
                            "--out", out))
    assert result.out.splitlines() == [str(out / name)
                                       for name in ("games.csv", "report.html", "report.md")]
    assert not (out / "games.parquet").exists()
    assert len(pd.read_csv(out / "games.csv")) == 600
    assert run_file(out)["raw"] == "csv"
    assert "games.csv" in (out / "report.md").read_text()


def test_repeated_variant_equals_comma_separated(reference, oddsbot_cli, tmp_path):
    ref, _ = reference
    out = tmp_path / "repeated"
    args = [a for a in REF if a not in ("--variant", ",".join(VARIANTS))]
    ok(oddsbot_cli("report", *args, "--variant", VARIANTS[0], "--variant", VARIANTS[1],
                   "--out", out))
    assert run_file(out)["spec"] == run_file(ref)["spec"]
    same_report(ref, out)


def test_policies_repeat_over_the_seats(oddsbot_cli, tmp_path):
    out = tmp_path / "mixed"
    ok(oddsbot_cli("report", "camel-up", "--games", 600, "--players", 4,
                   "--policies", "random,heuristic", "--out", out))
    assert run_file(out)["spec"]["policies"] == ["random", "heuristic", "random", "heuristic"]
    assert "seat 0: random, seat 1: heuristic, seat 2: random, seat 3: heuristic" in \
        (out / "report.md").read_text()


def test_resume_of_a_finished_run_simulates_nothing(reference, finished, oddsbot_cli):
    ref, _ = reference
    blocks = {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in block_files(finished)}
    sessions = run_file(finished)["runs"]
    for name in ("tables", "charts"):
        shutil.rmtree(finished / name)
    for name in REPORT_FILES:
        (finished / name).unlink()

    result = ok(oddsbot_cli("report", "--resume", finished))
    assert result.out.splitlines() == [str(finished / name) for name in REPORT_FILES]
    assert result.err.splitlines() == [f"report: {finished / 'report.html'} · 1,000 games "
                                       f"per variant (no games left to simulate)"]
    assert {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in block_files(finished)} == blocks
    assert run_file(finished)["runs"] == sessions
    same_report(ref, finished)
    # no new session either, so even the "How it ran" table is the same
    assert (finished / "tables" / "runs.csv").read_bytes() == \
        (ref / "tables" / "runs.csv").read_bytes()


def test_resume_with_more_games_equals_a_fresh_run(reference, oddsbot_cli, tmp_path):
    ref, _ = reference
    out = tmp_path / "grown"
    smaller = [("600" if a == "1000" else a) for a in REF]
    ok(oddsbot_cli("report", *smaller, "--out", out))
    assert len(pd.read_parquet(out / "games.parquet")) == 1200

    result = ok(oddsbot_cli("report", "--resume", out, "--games", 1000))
    assert "1,000 games per variant" in result.err
    state = run_file(out)
    assert state["spec"] == run_file(ref)["spec"] and state["complete"] is True
    assert [s["games"] for s in state["runs"]] == [1200, 2000]  # 600-game blocks are redone
    same_report(ref, out)


def test_local_dask_cluster_gives_the_same_games(reference, oddsbot_cli, tmp_path):
    ref, _ = reference
    out = tmp_path / "cluster"
    result = ok(oddsbot_cli("report", *REF, "--workers", 2, "--out", out))
    assert "Traceback" not in result.err
    assert " games/s (Dask scheduler tcp://127.0.0.1:" in result.err.splitlines()[-1]
    (session,) = run_file(out)["runs"]
    assert session["how"].startswith("Dask scheduler tcp://127.0.0.1:"), session
    assert ", 2 workers (" in session["how"], session
    runs = pd.read_csv(out / "tables" / "runs.csv")
    assert runs["how"].tolist() == [session["how"]]
    assert session["how"] in (out / "report.html").read_text()
    same_report(ref, out)


def test_an_existing_scheduler_gives_the_same_games(reference, oddsbot_cli, tmp_path):
    """``--scheduler tcp://HOST:PORT``: a cluster this test starts on loopback, as a user's
    cluster would be, receives the blocks; the games equal the in-process run's."""
    from dask.distributed import LocalCluster

    ref, _ = reference
    out = tmp_path / "remote"
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        ok(oddsbot_cli("report", *REF, "--scheduler", cluster.scheduler_address,
                       "--out", out))
        address = cluster.scheduler_address
    (session,) = run_file(out)["runs"]
    assert session["how"].startswith(f"Dask scheduler {address}, 1 worker (2 threads)")
    same_report(ref, out)


def test_a_variant_id_as_game_runs_that_variant(oddsbot_cli, tmp_path):
    out = tmp_path / "old"
    ok(oddsbot_cli("report", "camel-up-2014", "--games", 300, "--out", out))
    spec = run_file(out)["spec"]
    assert (spec["game"], spec["variants"]) == ("camel-up", ["camel-up-2014"])
    both = tmp_path / "both"
    assert_bad_input(oddsbot_cli("report", "camel-up-2014", "--games", 300, "--variant",
                                 "camel-up", "--out", both), "camel-up-2014", "--variant")
    assert not both.exists()


def test_a_repeated_variant_is_counted_once(oddsbot_cli, tmp_path):
    out = tmp_path / "twice"
    ok(oddsbot_cli("report", "camel-up", "--games", 300, "--variant", "camel-up,camel-up",
                   "--variant", "camel-up", "--out", out))
    assert run_file(out)["spec"]["variants"] == ["camel-up"]
    assert len(pd.read_parquet(out / "games.parquet")) == 300


# --------------------------------------------------------------------------- a real Ctrl-C


@pytest.fixture(scope="module")
def interrupted(tmp_path_factory) -> tuple[Path, Run, dict[str, bytes | None]]:
    """A console-script run of BIG_GAMES games sent SIGINT once its first block is saved:
    (its folder, the process's output, the folder's content when it stopped)."""
    out = tmp_path_factory.mktemp("interrupted") / "run"
    proc = spawn("report", "camel-up", "--games", BIG_GAMES, "--seed", 3, "--out", out)
    deadline = time.monotonic() + 120  # the first run may load or compile numba caches
    while not block_files(out):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"no block saved (exit {proc.poll()}): {proc.communicate()[1]}")
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    return out, Run(proc.returncode, stdout, stderr), snapshot(out)


def test_ctrl_c_exits_130(interrupted):
    assert interrupted[1].code == 130


def test_ctrl_c_keeps_finished_blocks_and_says_how_to_continue(interrupted):
    out, result, content = interrupted
    assert "Traceback" not in result.err
    (line,) = result.err.strip().splitlines()  # one line: interrupted, and what to do
    assert line.startswith("oddsbot: error: interrupted; ") and f"--resume {out}" in line
    assert result.out == ""
    kept = [name for name in content if name.startswith("blocks/") and
            name.endswith(".npy")]
    assert 1 <= len(kept) < 3, f"not a real interruption: {sorted(content)}"
    assert not [name for name in content if name.endswith(".partial")]
    state = json.loads(content["run.json"])
    assert state["complete"] is False
    (session,) = state["runs"]  # recorded, though interrupted
    assert session["outcome"] == "interrupted"
    assert session["games"] == sum(int(Path(name).stem.rsplit("-", 1)[1]) for name in kept)
    assert state["spec"]["games"] == BIG_GAMES
    assert "report.html" not in content and "games.parquet" not in content


def test_resumed_interruption_equals_an_uninterrupted_run(interrupted, oddsbot_cli,
                                                          tmp_path):
    stopped = copy_run(interrupted[0], tmp_path / "stopped")
    kept = sum(int(p.stem.rsplit("-", 1)[1]) for p in block_files(stopped))
    ok(oddsbot_cli("report", "--resume", stopped))
    first, session = run_file(stopped)["runs"]
    assert (first["outcome"], first["games"]) == ("interrupted", kept)
    assert session["outcome"] == "finished"
    assert session["games"] == BIG_GAMES - kept  # only the missing blocks were simulated
    # the report's "How it ran" lists both sessions: every game is accounted for
    runs = pd.read_csv(stopped / "tables" / "runs.csv")
    assert runs["outcome"].tolist() == ["interrupted", "finished"]
    assert runs["games"].sum() == BIG_GAMES

    whole = tmp_path / "whole"
    ok(oddsbot_cli("report", "camel-up", "--games", BIG_GAMES, "--seed", 3, "--out", whole))
    assert run_file(stopped)["spec"] == run_file(whole)["spec"]
    same_report(whole, stopped)
    assert "- **blocks**: 3 per variant, of 50,000 games, the last of 20,000" in \
        (stopped / "report.md").read_text()


# --------------------------------------------------------------------------- bad input

# Each case runs in a fresh folder holding: run/ (a finished run), full/keep.txt (a
# folder with a file) and norun/notes.txt (a folder that is not a run).
BAD = {
    "neither --out nor --resume": (("camel-up", "--games", 600), ("--out", "--resume")),
    "both --out and --resume": (("camel-up", "--games", 600, "--out", "{tmp}/new",
                                 "--resume", "{tmp}/run"), ("--out", "--resume")),
    "--out a non-empty folder": (("camel-up", "--games", 600, "--out", "{tmp}/full"),
                                 ("--out", "full")),
    "--out a file": (("camel-up", "--games", 600, "--out", "{tmp}/full/keep.txt"),
                     ("--out", "keep.txt")),
    "--out in a missing folder": (("camel-up", "--games", 600, "--out", "{tmp}/gone/new"),
                                  ("--out", "gone")),
    "--out a finished run": (("camel-up", "--games", 600, "--out", "{tmp}/run"),
                             ("--out", "--resume")),
    "--resume a folder without run.json": (("--resume", "{tmp}/norun"),
                                           ("--resume", "norun", "run.json")),
    "--resume a missing folder": (("--resume", "{tmp}/gone"), ("--resume", "gone")),
    "--resume with another --seed": (("--resume", "{tmp}/run", "--seed", 8), ("--seed", "8")),
    "--resume with another --players": (("--resume", "{tmp}/run", "--players", 5),
                                        ("--players", "5")),
    "--resume with another --variant": (("--resume", "{tmp}/run", "--variant", "camel-up"),
                                        ("--variant",)),
    "--resume with another --raw": (("--resume", "{tmp}/run", "--raw", "csv"),
                                    ("--raw", "csv")),
    "--resume with other --policies": (("--resume", "{tmp}/run", "--policies", "random"),
                                       ("--policies", "random")),
    "--resume with another game": (("chess", "--resume", "{tmp}/run"), ("game", "chess")),
    "--resume with --games 0": (("--resume", "{tmp}/run", "--games", 0), ("--games",)),
    "unknown game": (("chess", "--games", 600, "--out", "{tmp}/new"), ("game", "chess")),
    "unknown variant": (("camel-up", "--games", 600, "--variant", "camel-up-2099",
                         "--out", "{tmp}/new"), ("--variant", "camel-up-2099")),
    # only camel-up is registered, so "another game's variant" is one camel-up lacks
    "variant of another game": (("camel-up", "--games", 600, "--variant", "camel-up,catan",
                                 "--out", "{tmp}/new"), ("--variant", "catan")),
    "--players 2": (("camel-up", "--games", 600, "--players", 2, "--out", "{tmp}/new"),
                    ("--players", "2")),
    "--players 9": (("camel-up", "--games", 600, "--players", 9, "--out", "{tmp}/new"),
                    ("--players", "9")),
    "--players 0": (("camel-up", "--games", 600, "--players", 0, "--out", "{tmp}/new"),
                    ("--players", "0")),
    "unknown policy": (("camel-up", "--games", 600, "--policies", "random,genius",
                        "--out", "{tmp}/new"), ("--policies", "genius")),
    "more policies than players": (("camel-up", "--games", 600, "--players", 3, "--policies",
                                    "random,heuristic,greedy,random", "--out", "{tmp}/new"),
                                   ("--policies", "4", "3")),
    "--games 0": (("camel-up", "--games", 0, "--out", "{tmp}/new"), ("--games", "0")),
    "--games -5": (("camel-up", "--games", -5, "--out", "{tmp}/new"), ("--games", "-5")),
    # memory: the report is built from every game, so their number is capped
    "--games beyond the cap": (("camel-up", "--games", 10**12, "--out", "{tmp}/new"),
                               ("--games", "10,000,000", "1,000,000,000,000")),
    "--resume with --games beyond the cap": (("--resume", "{tmp}/run", "--games",
                                              10_000_001), ("--games", "10,000,000")),
    "--games not a number": (("camel-up", "--games", "many", "--out", "{tmp}/new"),
                             ("--games", "integer")),
    "missing --games": (("camel-up", "--out", "{tmp}/new"), ("--games",)),
    "missing game": (("--games", 600, "--out", "{tmp}/new"), ("game",)),
    "--workers 0": (("camel-up", "--games", 600, "--workers", 0, "--out", "{tmp}/new"),
                    ("--workers", "0")),
    "--workers with --scheduler": (("camel-up", "--games", 600, "--workers", 2,
                                    "--scheduler", "tcp://127.0.0.1:8786",
                                    "--out", "{tmp}/new"), ("--workers", "--scheduler")),
    "--scheduler without tcp://": (("camel-up", "--games", 600, "--scheduler",
                                    "localhost:8786", "--out", "{tmp}/new"),
                                   ("--scheduler", "localhost:8786")),
    "--raw xml": (("camel-up", "--games", 600, "--raw", "xml", "--out", "{tmp}/new"),
                  ("--raw", "xml")),
    "--seed too large": (("camel-up", "--games", 600, "--seed", 2**64, "--out", "{tmp}/new"),
                         ("--seed",)),
}


@pytest.fixture
def playground(reference, tmp_path) -> Path:
    copy_run(reference[0], tmp_path / "run")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("mine\n")
    (tmp_path / "norun").mkdir()
    (tmp_path / "norun" / "notes.txt").write_text("not a run\n")
    return tmp_path


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input(case, playground, oddsbot_cli):
    args, words = BAD[case]
    before = snapshot(playground)
    result = oddsbot_cli("report", *(str(a).format(tmp=playground) for a in args))
    assert_bad_input(result, *words)
    assert_untouched(before, snapshot(playground))


def test_resume_conflict_names_the_variant_option(finished, oddsbot_cli):
    line = assert_bad_input(oddsbot_cli("report", "--resume", finished, "--variant",
                                        "camel-up"))
    assert line.startswith("oddsbot: error: --variant: "), line


# a run.json edit: its new text, or changes to its spec (None: the field dropped)
DAMAGED: dict[str, str | dict] = {
    "not JSON": '{"spec": ',
    "a JSON list": "[]",
    "spec without games": {"games": None},
    "seed not a number": {"seed": "abc"},
    "games 0": {"games": 0},
    "games beyond the cap": {"games": 10**12},
    "block 0": {"block": 0},
    "block beyond the largest": {"block": 10**9},
    "no variants": {"variants": []},
    "unknown variant": {"variants": ["camel-up-2099"]},
    "one policy for four seats": {"policies": ["random"]},
    "unknown policy": {"policies": ["genius"] * 4},
}


def damage(folder: Path, edit: str | dict) -> None:
    """Overwrite the run.json of ``folder`` as ``edit`` says (see DAMAGED)."""
    if isinstance(edit, dict):
        state = run_file(folder)
        for key, value in edit.items():
            if value is None:
                del state["spec"][key]
            else:
                state["spec"][key] = value
        edit = json.dumps(state, indent=2)
    (folder / "run.json").write_text(edit)


@pytest.mark.parametrize("case", list(DAMAGED))
def test_resume_a_damaged_run_file(case, finished, oddsbot_cli):
    damage(finished, DAMAGED[case])
    before = snapshot(finished)
    assert_bad_input(oddsbot_cli("report", "--resume", finished), "run.json")
    assert_untouched(before, snapshot(finished))


@pytest.mark.parametrize("players", [2, 9, 99])
def test_resume_a_run_file_with_an_impossible_player_count(players, reference, tmp_path):
    # a run stopped before its first block, so resuming it runs the kernel; in a
    # subprocess, since the kernel may crash the interpreter
    unstarted = tmp_path / "unstarted"
    unstarted.mkdir()
    shutil.copy(reference[0] / "run.json", unstarted)
    damage(unstarted, {"players": players, "policies": ["heuristic"] * players})
    before = snapshot(unstarted)
    assert_bad_input(oddsbot("report", "--resume", unstarted, timeout=120), "run.json")
    assert_untouched(before, snapshot(unstarted))


# --------------------------------------------------------------------------- unreachable


@pytest.fixture(scope="module")
def unreachable(reference, tmp_path_factory) -> dict[str, tuple[Run, float, bool]]:
    """A new run and a resumed one (growing to 1,500 games) sent to a scheduler nobody
    listens on, side by side: case -> (output, seconds, its folder as it was)."""
    root = tmp_path_factory.mktemp("unreachable")
    resumed = copy_run(reference[0], root / "resumed")
    kept = snapshot(resumed)
    cases = {"new run": ("camel-up", "--games", 600, "--out", root / "new"),
             "resume": ("--resume", resumed, "--games", 1500)}
    t0 = time.monotonic()
    with pytest.MonkeyPatch.context() as mp:  # the console scripts inherit it
        mp.setenv(SCHEDULER_TIMEOUT, str(UNREACHABLE_SECONDS))
        procs = {name: spawn("report", *args, "--scheduler", UNREACHABLE)
                 for name, args in cases.items()}
    results = {}
    for name, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=120)
        results[name] = Run(proc.returncode, stdout, stderr), time.monotonic() - t0
    as_was = {"new run": not (root / "new").exists(), "resume": snapshot(resumed) == kept}
    return {name: (*results[name], as_was[name]) for name in cases}


@pytest.mark.parametrize("case", ["new run", "resume"])
def test_unreachable_scheduler_fails_soon_with_one_line(case, unreachable):
    result, seconds, _ = unreachable[case]
    assert_bad_input(result, "--scheduler", UNREACHABLE)
    # the connect timeout is UNREACHABLE_SECONDS and a hang would run into communicate's
    # 120 s: 60 s tells the two apart on a loaded 2-core machine too (25 s did not, once)
    assert seconds < 60, f"took {seconds:.1f} s (console script start-up included)"


@pytest.mark.parametrize("case", ["new run", "resume"])
def test_unreachable_scheduler_leaves_everything_as_it_was(case, unreachable):
    assert unreachable[case][2]


def test_the_scheduler_timeout_is_15_s_unless_set(monkeypatch):
    monkeypatch.delenv(SCHEDULER_TIMEOUT, raising=False)
    assert scheduler_timeout() == 15
    monkeypatch.setenv(SCHEDULER_TIMEOUT, "2.5")
    assert scheduler_timeout() == 2.5


@pytest.mark.parametrize("value", ["soon", "", "0", "-1", "nan", "inf", "3601",
                                   pytest.param("9" * 5000, id="5000-digits"),
                                   "zwölf\tSekunden"])
def test_a_bad_scheduler_timeout_is_refused_before_anything_is_written(
        value, oddsbot_cli, monkeypatch, tmp_path):
    monkeypatch.setenv(SCHEDULER_TIMEOUT, value)
    result = oddsbot_cli("report", "camel-up", "--games", "1000", "--out", tmp_path / "new",
                         "--scheduler", UNREACHABLE)
    assert_bad_input(result, SCHEDULER_TIMEOUT, "seconds")
    assert len(result.err) < 300  # a long value is cut, not echoed whole
    assert not (tmp_path / "new").exists()
