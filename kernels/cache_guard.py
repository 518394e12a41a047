"""Keep numba's on-disk caches consistent across kernel modules.

numba checks a cached function against its own source file only. A kernel that calls a
function of another module (``rollout.play_out`` calls ``policy.choose``) keeps its old
machine code after that other module changes. Before any kernel is loaded, this guard
fingerprints every kernel source; when the fingerprint differs from the one stored next
to the caches, it deletes the cached kernels so that all of them compile afresh.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

STAMP = "oddsbot-kernels.sha256"


def _cache_dirs(root: Path) -> list[Path]:
    dirs = [p / "__pycache__" for p in [root, *root.rglob("*")] if p.is_dir()
            and p.name != "__pycache__"]
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom:
        dirs.append(Path(custom))
    return dirs


def fingerprint(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def purge_stale_caches(root: Path | None = None) -> bool:
    """Delete numba cache files of the kernels if any kernel source changed since they
    were written. Returns True if it purged. Read-only installs are left alone."""
    root = Path(__file__).resolve().parent if root is None else root
    stamp_file = root / "__pycache__" / STAMP
    current = fingerprint(root)
    try:
        if stamp_file.read_text() == current:
            return False
    except OSError:
        pass
    try:
        for cache in _cache_dirs(root):
            if cache.is_dir():
                for f in cache.iterdir():
                    if f.suffix in (".nbi", ".nbc"):
                        f.unlink()
        stamp_file.parent.mkdir(exist_ok=True)
        stamp_file.write_text(current)
    except OSError:
        return False
    return True
