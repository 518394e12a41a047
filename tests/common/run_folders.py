"""Report run folders in tests: the console script as a process, a folder's content as it
is, copies of a finished run."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from conftest import Run
from docs_blocks import oddsbot_script


def spawn(*args: object) -> subprocess.Popen:
    """Start the ``oddsbot`` console script, its stdout and stderr piped."""
    return subprocess.Popen([oddsbot_script(), *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def oddsbot(*args: object, timeout: float = 300) -> Run:
    """The ``oddsbot`` console script run to the end, as a :class:`Run`."""
    proc = spawn(*args)
    out, err = proc.communicate(timeout=timeout)
    return Run(proc.returncode, out, err)


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (``None``) under ``root``."""
    return {p.relative_to(root).as_posix(): p.read_bytes() if p.is_file() else None
            for p in sorted(root.rglob("*"))}


def assert_untouched(before: dict[str, bytes | None], after: dict[str, bytes | None]) -> None:
    assert sorted(after) == sorted(before), "files or folders were added or removed"
    changed = [name for name in before if after[name] != before[name]]
    assert not changed, f"changed: {changed}"


def run_file(folder: Path) -> dict:
    return json.loads((folder / "run.json").read_text())


def block_files(folder: Path) -> list[Path]:
    return sorted((folder / "blocks").rglob("*.npy"))


def copy_run(source: Path, to: Path) -> Path:
    shutil.copytree(source, to)
    return to
