"""Timing helpers shared by the bench scripts (run as ``python bench/<script>.py``, so this
folder is on the import path)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def process_seconds(*args: str, runs: int = 3) -> float:
    """Best wall-clock of ``oddsbot ARGS`` as a whole process, after one warm-up run."""
    command = [str(Path(sys.executable).parent / "oddsbot"), *args]
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
        best = min(best, time.perf_counter() - start)
    return best
