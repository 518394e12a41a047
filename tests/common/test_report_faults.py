"""Report folders under faults: a second run on the folder, a killed run, Ctrl-C in the
middle of a block, damaged block files, a full disk, a folder one may not write to, a
huge run, and files of the folder that are other names of the user's files.

Covered, through the command line:

* the folder's lock (``reports/lock.py``): a second run, ``--out`` or ``--resume``, is
  refused in one line naming the holder while a run is at work, also when two start
  together; a killed holder leaves no lock behind;
* every session is in ``run.json`` however it ends (finished, interrupted, failed, or
  killed: found by the next run) and in the report's "How it ran";
* a damaged block (truncated, empty, not NumPy, wrong schema) is named by ``--resume``
  and computed again, to the same bytes as an uninterrupted run's; ``--out`` on such a
  folder points to ``--resume``; loading one is one line, never a traceback;
* a write that fails at any file of a run (injected: a full disk, no permission; a real
  read-only folder when not root): one line, exit 2, no partial file, every finished block
  kept, and the folder continues to the report of an uninterrupted run;
* memory: blocks are made one at a time, whatever the number of games.
"""

from __future__ import annotations

import errno
import fcntl
import io
import json
import os
import platform
import signal
import stat
import threading
import time
import tracemalloc
from collections.abc import Callable
from fnmatch import fnmatch
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from checks import assert_bad_input, ok, same_report
from faults import write_faults
from oddsbot.errors import OddsbotError
from oddsbot.outputs import PARTIAL
from oddsbot.reports import batch, designer, lock, runner
from oddsbot.reports.spec import MAX_GAMES, RunSpec
from run_folders import (
    assert_untouched, block_files, copy_run, oddsbot, run_file, snapshot, spawn,
)

REF = ("camel-up", "--games", "1000", "--variant", "camel-up,camel-up-2014", "--seed", "7")
BIG_GAMES = 150_000  # three blocks of 50,000 games: time to see a block saved, then stop
# one block of the slow greedy policy: an hour's work, so a run stopped in it was
# stopped in the middle of a block
SLOW = ("camel-up", "--games", "50000", "--policies", "greedy")


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    """The REF run, uninterrupted, by the console script."""
    out = tmp_path_factory.mktemp("reference") / "run"
    result = oddsbot("report", *REF, "--out", out)
    assert result.code == 0, result.err
    return out


@pytest.fixture
def finished(reference, tmp_path) -> Path:
    return copy_run(reference, tmp_path / "finished")


def unstarted(reference: Path, to: Path) -> Path:
    """A folder holding the REF run before its first block: its run.json only."""
    to.mkdir()
    state = run_file(reference)
    state.update(runs=[], complete=False)
    (to / "run.json").write_text(json.dumps(state))
    return to


def wait_for(what: Callable[[], bool], proc, seconds: float = 180) -> None:
    """Poll until ``what()`` holds; fail if ``proc`` ends first or it takes ``seconds``
    (a first run may compile)."""
    deadline = time.monotonic() + seconds
    while not what():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"never happened (exit {proc.poll()}): {proc.communicate()[1]}")
        time.sleep(0.05)


def sessions(folder: Path) -> list[dict]:
    try:
        return run_file(folder)["runs"]
    except (OSError, ValueError):
        return []


def partials(folder: Path) -> list[Path]:
    return sorted(folder.rglob(f"*{PARTIAL}"))


def sound_blocks(folder: Path) -> list[Path]:
    """The block files under ``folder``, each checked sound."""
    spec = RunSpec.from_json(run_file(folder)["spec"])
    fields = designer(spec.game).RAW_FIELDS
    found = [b for b in spec.blocks() if b.path(folder).exists()]
    assert sorted(b.path(folder) for b in found) == block_files(folder)
    for block in found:
        assert runner.block_problem(block.path(folder), block.n, fields) is None
    return [b.path(folder) for b in found]


# --------------------------------------------------------------------------- the lock


@pytest.mark.parametrize("option", ["--out", "--resume"])
def test_a_folder_in_use_is_refused_naming_its_holder(finished, tmp_path, oddsbot_cli,
                                                      option):
    folder = finished if option == "--resume" else tmp_path / "empty"
    folder.mkdir(exist_ok=True)
    args = ("--resume", folder) if option == "--resume" else (*REF, "--out", folder)
    with lock.held(folder, "--held"):
        before = snapshot(folder)
        line = assert_bad_input(oddsbot_cli("report", *args), option, str(folder), "in use")
        assert f"(pid {os.getpid()} on {platform.node()}, since " in line
        assert_untouched(before, snapshot(folder))
    assert (folder / lock.LOCK_FILE).read_text() == ""  # released: emptied, not removed
    ok(oddsbot_cli("report", *args))


def test_a_holder_that_has_not_yet_named_itself_is_waited_for(tmp_path):
    """The window between taking the lock and writing the holder's name: a second run
    refused in it still names the holder once the name is written (within the wait)."""
    path = tmp_path / lock.LOCK_FILE
    fd = os.open(path, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # locked, the file still empty
    namer = threading.Timer(0.3, path.write_text,
                            ['{"pid": 41, "host": "h", "since": "s"}'])
    namer.start()
    try:
        with pytest.raises(OddsbotError) as refused, lock.held(tmp_path, "--resume"):
            pass
    finally:
        namer.join()
        os.close(fd)
    assert str(refused.value) == (f"--resume: {tmp_path} is in use by another oddsbot "
                                  "report (pid 41 on h, since s); wait for it to end or "
                                  "stop it")


@pytest.fixture(scope="module")
def slow_run(tmp_path_factory):
    """A run of SLOW by the console script, in the middle of its block: after warm-up,
    its session recorded as running. (its folder, the process)"""
    out = tmp_path_factory.mktemp("slow") / "run"
    proc = spawn("report", *SLOW, "--out", out)
    wait_for(lambda: any(s["outcome"] == "running" and s["how"] for s in sessions(out)),
             proc)
    yield out, proc
    proc.kill()


@pytest.mark.parametrize("option", ["--out", "--resume"])
def test_a_running_report_holds_its_folder(slow_run, oddsbot_cli, option):
    out, proc = slow_run
    args = ("--resume", out) if option == "--resume" else (*SLOW, "--out", out)
    before = {name: data for name, data in snapshot(out).items() if name != "run.json"}
    line = assert_bad_input(oddsbot_cli("report", *args), option, str(out))
    if option == "--resume":
        assert f"in use by another oddsbot report (pid {proc.pid} on {platform.node()}, " \
               f"since " in line, line
    else:  # refused before it looks at the lock: the folder holds a run
        assert "--resume" in line, line
    assert {name: data for name, data in snapshot(out).items() if name != "run.json"} \
        == before
    assert proc.poll() is None


def test_ctrl_c_in_the_middle_of_a_block_stops_at_once(slow_run):
    """SIGINT while the block's kernel runs: the process ends (within communicate's
    timeout, not the hour the block takes), exit 130, the session recorded as
    interrupted, the lock released, nothing partial left."""
    out, proc = slow_run
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and f"--resume {out}" in err
    (session,) = sessions(out)
    assert (session["outcome"], session["games"]) == ("interrupted", 0)
    assert session["ended"] is not None and session["pid"] == proc.pid
    assert block_files(out) == [] and partials(out) == []
    assert (out / lock.LOCK_FILE).read_text() == ""
    with lock.held(out, "--resume"):  # free
        pass


def test_two_new_runs_started_together_on_one_folder(reference, tmp_path):
    out = tmp_path / "new"
    procs = [spawn("report", *REF, "--out", out) for _ in range(2)]
    results = [(p.wait(timeout=300), *p.communicate()) for p in procs]
    assert sorted(code for code, _, _ in results) == [0, 2], results
    ((_, _, refused),) = [r for r in results if r[0] == 2]
    assert refused.startswith("oddsbot: error: --out: ") and str(out) in refused
    assert len(refused.splitlines()) == 1 and "Traceback" not in refused
    (session,) = run_file(out)["runs"]
    assert session["games"] == 2000
    same_report(reference, out)


def test_two_resumes_started_together_do_the_work_once(reference, tmp_path):
    """Each is refused (the other holds the folder) or runs; the games are simulated
    once: every session's games add up to the run's."""
    out = unstarted(reference, tmp_path / "unstarted")
    procs = [spawn("report", "--resume", out) for _ in range(2)]
    results = [(p.wait(timeout=300), *p.communicate()) for p in procs]
    assert 0 in [code for code, _, _ in results], results
    for code, stdout, err in results:
        assert "Traceback" not in err
        if code == 2:
            assert err.startswith(f"oddsbot: error: --resume: {out} is in use by another "
                                  f"oddsbot report (pid ") and len(err.splitlines()) == 1
        else:
            assert code == 0 and stdout, err
    assert [s["games"] for s in run_file(out)["runs"]] == [2000]
    same_report(reference, out)


def test_a_killed_run_leaves_no_lock_and_is_recorded(tmp_path, oddsbot_cli):
    """``kill -9`` after a block: the next ``--resume`` is not blocked, removes the
    temporary files of interrupted writes, records the killed session as such, and
    simulates only what is missing."""
    out = tmp_path / "killed"
    proc = spawn("report", "camel-up", "--games", BIG_GAMES, "--seed", 3, "--out", out)
    wait_for(lambda: any(s["games"] for s in sessions(out)), proc)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    kept = sum(int(p.stem.rsplit("-", 1)[1]) for p in block_files(out))
    stray = out / "blocks" / f".games-9-9.npy.dead{PARTIAL}"
    stray.write_bytes(b"a write the kill cut short")

    ok(oddsbot_cli("report", "--resume", out))
    killed, resumed = run_file(out)["runs"]
    assert killed["outcome"] == batch.LOST and 0 < killed["games"] <= kept
    assert (resumed["outcome"], resumed["games"]) == ("finished", BIG_GAMES - kept)
    assert not stray.exists() and partials(out) == []
    assert len(pd.read_parquet(out / "games.parquet")) == BIG_GAMES
    runs = pd.read_csv(out / "tables" / "runs.csv")
    assert runs["outcome"].tolist() == [batch.LOST, "finished"]


# --------------------------------------------------------------------------- damaged blocks


def _npy(array: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, array)
    return buf.getvalue()


# a damage: the new bytes of a sound block file, and words of its diagnosis
DAMAGE: dict[str, tuple[Callable[[bytes], bytes], str]] = {
    "truncated": (lambda data: data[:len(data) // 2], "truncated: "),
    "empty": (lambda data: b"", "empty"),
    "header only": (lambda data: data[:128], "truncated: 128 of "),
    "not NumPy": (lambda data: b"PK\x03\x04 a zip, say" * 40, "not a block file"),
    "too long": (lambda data: data + b"\0" * 158, "158 bytes too long"),
    "wrong dtype": (lambda data: _npy(np.zeros((1000, 79), np.int64)),
                    "wrong schema: int64"),
    "wrong columns": (lambda data: _npy(np.zeros((1000, 3), np.int16)),
                      "wrong schema: int16 C-order (1000, 3)"),
    "wrong rows": (lambda data: _npy(np.zeros((10, 79), np.int16)), "(10, 79)"),
    "Fortran order": (lambda data: _npy(np.zeros((1000, 79), np.int16, order="F")),
                      "Fortran-order"),
}


def damage(folder: Path, case: str, variant: str = "camel-up-2014") -> Path:
    """Damage the block of ``variant`` in ``folder`` as DAMAGE[case] says; its path."""
    (path,) = [p for p in block_files(folder) if p.parent.name == variant]
    path.write_bytes(DAMAGE[case][0](path.read_bytes()))
    return path


@pytest.mark.parametrize("case", list(DAMAGE))
def test_resume_names_a_damaged_block_and_recomputes_it(reference, finished, oddsbot_cli,
                                                        case):
    path = damage(finished, case)
    result = ok(oddsbot_cli("report", "--resume", finished))
    notice, summary = result.err.splitlines()
    assert notice.startswith(f"oddsbot: recomputing 1 damaged block: "
                             f"{path.relative_to(finished)} (")
    assert DAMAGE[case][1] in notice, notice
    assert summary.startswith("report: ") and "1,000 games per variant, " in summary
    # the same seed gives the same rows: byte for byte the uninterrupted run's block
    assert path.read_bytes() == (reference / path.relative_to(finished)).read_bytes()
    same_report(reference, finished)
    first, again = run_file(finished)["runs"]
    assert (again["outcome"], again["games"]) == ("finished", 1000)


def test_resume_names_every_damaged_block(reference, finished, oddsbot_cli):
    for variant, case in (("camel-up", "empty"), ("camel-up-2014", "truncated")):
        damage(finished, case, variant)
    notice = ok(oddsbot_cli("report", "--resume", finished)).err.splitlines()[0]
    assert notice.startswith("oddsbot: recomputing 2 damaged blocks: ")
    assert notice.count(".npy (") == 2 and "(empty)" in notice and "(truncated: " in notice
    same_report(reference, finished)


def test_a_plain_report_on_a_damaged_folder_points_to_resume(finished, oddsbot_cli):
    damage(finished, "truncated")
    before = snapshot(finished)
    assert_bad_input(oddsbot_cli("report", *REF, "--out", finished), "--out",
                     f"--resume {finished}")
    assert_untouched(before, snapshot(finished))


@pytest.mark.parametrize("case", list(DAMAGE))
def test_loading_a_damaged_block_is_one_line(finished, case):
    """The report is never built from a damaged block, nor does one raise NumPy's
    errors (a traceback, or "interrupted" for an empty file)."""
    path = damage(finished, case)
    spec = RunSpec.from_json(run_file(finished)["spec"])
    with pytest.raises(OddsbotError) as caught:
        runner.load_games(spec, finished)
    assert type(caught.value) is OddsbotError
    message = str(caught.value)
    assert message.startswith(f"{path}: damaged block (") and DAMAGE[case][1] in message
    assert message.endswith(f"recompute it with: oddsbot report --resume {finished}")


# --------------------------------------------------------------------------- failed writes


def nth(pattern: str, n: int) -> Callable[[str], bool]:
    """Refuse the ``n``-th write (from 0) of a file whose name matches ``pattern``, and
    only that one."""
    seen = []

    def fails(written: str) -> bool:
        if not fnmatch(written, pattern):
            return False
        seen.append(written)
        return len(seen) == n + 1

    return fails


# what fails -> (the name of the file refused, its n-th write); the run.json is written
# at the start, when the session starts, after warm-up, after each block and at the end
FAULTS: dict[str, tuple[str, int]] = {
    "run file at the start": ("run.json", 0),
    "run file when the session starts": ("run.json", 1),
    "first block": ("games-0000000000-1000.npy", 0),
    "second block": ("games-0000000000-1000.npy", 1),
    "run file after a block": ("run.json", 3),
    "raw file": ("games.parquet", 0),
    "a table": ("runs.csv", 0),
    "a chart": ("*.png", 0),
    "report.html": ("report.html", 0),
}
CODES = {"disk full": (errno.ENOSPC, "No space left on device"),
         "permission": (errno.EACCES, "Permission denied")}


@pytest.mark.parametrize("code", list(CODES))
@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_failed_write_loses_nothing(reference, tmp_path, monkeypatch, oddsbot_cli,
                                      fault, code):
    """A full disk or a file one may not write, at any step of a run: one line naming
    the file, exit 2; no partial file; every finished block kept and sound; the run
    recorded; the folder continues (``--resume``, or ``--out`` again when the run had
    not started) to the report of an uninterrupted run."""
    errno_, words = CODES[code]
    out = tmp_path / "run"
    with write_faults(monkeypatch, nth(*FAULTS[fault]), errno_) as refused:
        result = oddsbot_cli("report", *REF, "--out", out)
    (name,) = refused
    line = assert_bad_input(result, "--out: cannot write ", f"{name}: {words}")
    assert partials(out) == []
    started = (out / "run.json").exists()
    assert (f"continue with: oddsbot report --resume {out}" in line) == started
    if not started:  # nothing but the (free) lock: the folder is as new
        assert [p.name for p in out.iterdir()] == [lock.LOCK_FILE]
        ok(oddsbot_cli("report", *REF, "--out", out))
        same_report(reference, out)
        return
    kept = sound_blocks(out)
    for session in run_file(out)["runs"]:  # none if the session's start was refused
        outcome = session["outcome"]
        assert outcome == "finished" or (outcome.startswith("failed: cannot write ") and
                                         outcome.endswith(f"{name}: {words}")), outcome
        assert session["games"] == 1000 * len(kept)
    ok(oddsbot_cli("report", "--resume", out))
    assert partials(out) == [] and len(sound_blocks(out)) == 2
    assert sum(s["games"] for s in run_file(out)["runs"]) == 2000
    same_report(reference, out)


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write to a read-only folder; the "
                    "injected 'permission' cases of test_a_failed_write_loses_nothing "
                    "stand in")
@pytest.mark.parametrize("case", ["--out an empty folder", "--out in a folder",
                                  "--resume a finished run"])
def test_a_read_only_folder_is_one_line(finished, tmp_path, oddsbot_cli, case):
    if case == "--resume a finished run":
        folder, args = finished, ("--resume", finished)
    else:
        folder = tmp_path / "ro"
        folder.mkdir()
        args = (*REF, "--out", folder if case == "--out an empty folder" else folder / "new")
    modes = {p: p.stat().st_mode for p in [folder, *folder.rglob("*")]}
    for path in modes:
        path.chmod(stat.S_IMODE(modes[path]) & ~0o222)
    try:
        before = snapshot(folder)
        assert_bad_input(oddsbot_cli("report", *args), args[-2], "Permission denied")
        assert_untouched(before, snapshot(folder))
    finally:
        for path, mode in modes.items():
            path.chmod(mode)


def test_report_files_replace_other_names_not_the_users_files(finished, tmp_path,
                                                              oddsbot_cli):
    """A report file that is a hard link to, or a symlink to, a file of the user's is
    replaced in the folder; the user's file keeps its content."""
    mine_md, mine_html = tmp_path / "mine.md", tmp_path / "mine.html"
    mine_md.write_text("my notes\n")
    mine_html.write_text("<p>my page</p>\n")
    (finished / "report.md").unlink()
    os.link(mine_md, finished / "report.md")
    (finished / "report.html").unlink()
    os.symlink(mine_html, finished / "report.html")
    ok(oddsbot_cli("report", "--resume", finished))
    assert mine_md.read_text() == "my notes\n" and mine_html.read_text() == "<p>my page</p>\n"
    assert (finished / "report.md").read_text().startswith("# oddsbot designer report")
    assert not (finished / "report.html").is_symlink()


# --------------------------------------------------------------------------- memory


def test_blocks_are_made_one_at_a_time(tmp_path):
    """The largest run there can be, cut into the most blocks: starting on its blocks
    costs no memory that grows with their number."""
    spec = RunSpec("camel-up", ("camel-up", "camel-up-2014"), 4, ("heuristic",) * 4,
                   MAX_GAMES, 0, block=1)
    assert spec.problems() == [] and spec.blocks_per_variant() == MAX_GAMES
    tracemalloc.start()
    try:
        first = next(spec.blocks())
        todo = next(runner.missing(spec, tmp_path))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert first == todo and (first.game0, first.n) == (0, 1)
    assert peak < 100_000, f"{peak:,} bytes to start on {2 * MAX_GAMES:,} blocks"
