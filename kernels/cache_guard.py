"""Keep numba's on-disk caches consistent across kernel modules.

numba checks a cached function against its own source file only. A kernel that calls a
function of another module (``rollout.play_out`` calls ``policy.choose``) keeps its old
machine code after that other module changes. Before any kernel is loaded, this guard
fingerprints the kernel sources (their bytes, and the modification times numba checks);
when a fingerprint differs from the one stored next to the caches, it deletes those
cached kernels so that they compile afresh.

The unit is a game package (``camel_up``, ``five_tribes``: they never call each other)
together with the shared modules at the top (``rng``, ``batch``, ``threads``), which every
game uses: a change in one game recompiles that game only, a change in a shared module
recompiles everything.
With ``NUMBA_CACHE_DIR`` set, numba keeps every cache in that folder (in one sub-folder per
source folder): all kernels are one unit, stamped in that folder, and the caches beside
the sources, which numba does not use then, are left as they are.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

STAMP = "oddsbot-kernels.sha256"
MARKS = "oddsbot-compiled"  # a file per command of a game whose kernels are compiled here


def _cache_dirs(root: Path) -> list[Path]:
    return [p / "__pycache__" for p in [root, *root.rglob("*")] if p.is_dir()
            and p.name != "__pycache__"]


def _digest(root: Path, sources: list[Path]) -> str:
    """The sources' names, bytes and numba stamps (modification time and size: numba
    drops a cached kernel whose source file has another, so a reinstall of the same bytes
    empties its caches too, and the first-run marks must go with them)."""
    digest = hashlib.sha256()
    for path in sources:
        stat = path.stat()
        digest.update(str(path.relative_to(root)).encode())
        digest.update(f"{stat.st_mtime_ns}:{stat.st_size}".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def fingerprint(root: Path) -> str:
    """One fingerprint of every kernel source under ``root``."""
    return _digest(root, sorted(root.rglob("*.py")))


def _units(root: Path) -> list[tuple[Path, list[Path], list[Path]]]:
    """(stamp file, sources, cache folders) of every cache unit."""
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom:
        return [(Path(custom) / STAMP, sorted(root.rglob("*.py")), [Path(custom)])]
    shared = sorted(root.glob("*.py"))
    units = [(root / "__pycache__" / STAMP, shared, [root / "__pycache__"])]
    for package in sorted(p for p in root.iterdir() if (p / "__init__.py").is_file()):
        units.append((package / "__pycache__" / STAMP, shared + sorted(package.rglob("*.py")),
                      _cache_dirs(package)))
    return units


def _purge_unit(root: Path, stamp_file: Path, sources: list[Path], caches: list[Path]) -> bool:
    current = _digest(root, sources)
    try:
        if stamp_file.read_text() == current:
            return False
    except OSError:
        pass
    try:
        for cache in caches:
            for f in cache.rglob("*") if cache.is_dir() else ():
                if f.suffix in (".nbi", ".nbc"):
                    f.unlink()
        stamp_file.parent.mkdir(parents=True, exist_ok=True)
        stamp_file.write_text(current)
    except OSError:
        return False
    return True


def marks_folder(root: Path | None = None) -> Path:
    """Where the first-run marks live: beside the caches (``NUMBA_CACHE_DIR`` if set)."""
    root = Path(__file__).resolve().parent if root is None else root
    custom = os.environ.get("NUMBA_CACHE_DIR")
    return (Path(custom) if custom else root / "__pycache__") / MARKS


def purge_stale_caches(root: Path | None = None) -> bool:
    """Delete the numba cache files of every unit (module doc) whose sources changed
    since they were written, and with them every first-run mark (``marks_folder``).
    Returns True if anything was purged. Read-only installs are left alone."""
    root = Path(__file__).resolve().parent if root is None else root
    purged = False
    for stamp_file, sources, caches in _units(root):
        purged |= _purge_unit(root, stamp_file, sources, caches)
    if purged:
        for mark in marks_folder(root).glob("*"):
            try:
                mark.unlink()
            except OSError:
                pass
    return purged
