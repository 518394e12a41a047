"""Leg starts known to reach more race states than a budget, kept from one process to the
next (docs/games/camel-up.md §9.1, "The count comes first").

``odds._exact`` remembers each leg start whose race alone reaches more than the budget's
states, so that a later position that can reach it is sampled at once rather than counted
again (about 0.1 s on a 2nd-edition start). This file keeps them for the next command as
well: one row ``[dice left at leg end, full pyramid mask, budget in states, the leg
start's canonical key]`` each, at most ``MAX_ROWS``, in the folder of the first-run marks
(``analyser/first_run.py``), which goes with the kernel caches when a kernel source
changes. It is a cache: a file that cannot be read or parsed is ignored, one that cannot
be written is not written, and no answer depends on it (a leg start it names is one the
count would find too large again).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ...kernels.cache_guard import marks_folder
from ...outputs import WriteError, make_folder, write_text

FILE = "camel-up.race-too-big.json"
MAX_ROWS = 4096  # about 150 kB; past it, further leg starts are counted each time
MAX_BYTES = 1 << 20  # a larger file is not ours: ignored

Budget = tuple[int, int, int]  # (dice left at leg end, full pyramid mask, states)


def _path() -> Path:
    return marks_folder() / FILE


def load() -> dict[Budget, np.ndarray]:
    """The leg starts kept, by budget (sorted canonical keys); empty if none can be read."""
    try:
        path = _path()
        if path.stat().st_size > MAX_BYTES:
            return {}
        rows = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(rows, list) or not all(
            isinstance(r, list) and len(r) == 4 and all(type(v) is int and 0 <= v < 2**63
                                                        for v in r) for r in rows):
        return {}
    table: dict[Budget, list[int]] = {}
    for leg_left, full, states, key in rows[:MAX_ROWS]:
        table.setdefault((leg_left, full, states), []).append(key)
    return {b: np.unique(np.array(keys, dtype=np.int64)) for b, keys in table.items()}


def save(table: dict[Budget, np.ndarray]) -> None:
    """Keep ``table``'s leg starts with those already kept (the first ``MAX_ROWS``),
    replacing the file whole (``outputs.write_text``); nothing if it cannot be written."""
    kept = load()
    merged = dict(kept)
    for budget, keys in table.items():
        merged[budget] = np.union1d(merged.get(budget, np.zeros(0, np.int64)), keys)
    rows = _rows(merged)[:MAX_ROWS]
    if rows == _rows(kept):
        return  # nothing new is kept (a full file): not written again
    try:
        make_folder(_path().parent)
        write_text(_path(), json.dumps(rows))
    except WriteError:
        pass


def _rows(table: dict[Budget, np.ndarray]) -> list[list[int]]:
    """``table`` as the file's rows, in order of budget then key."""
    return [[*budget, int(k)] for budget, keys in sorted(table.items()) for k in keys]
