"""The numba cache guard purges exactly the caches a source change can make stale."""

from __future__ import annotations

from pathlib import Path

from oddsbot.kernels.cache_guard import purge_stale_caches


def tree(root: Path) -> dict[str, Path]:
    """A kernels folder: a shared module, two game packages, a cache file for each."""
    files = {"rng.py": "A = 1\n", "game_a/__init__.py": "", "game_a/move.py": "B = 1\n",
             "game_b/__init__.py": "", "game_b/score.py": "C = 1\n"}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    caches = {}
    for unit, module in (("shared", "."), ("a", "game_a"), ("b", "game_b")):
        cache = root / module / "__pycache__" / f"{unit}.f-1.py311.nbi"
        cache.parent.mkdir(exist_ok=True)
        cache.write_text("x")
        caches[unit] = cache
    return caches


def restore(caches: dict[str, Path]) -> None:
    for cache in caches.values():
        cache.write_text("x")


def test_a_change_in_one_game_purges_that_game_only(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    caches = tree(tmp_path)
    assert purge_stale_caches(tmp_path)  # first sight: no stamps yet
    restore(caches)
    assert not purge_stale_caches(tmp_path)
    assert all(c.exists() for c in caches.values())

    (tmp_path / "game_a" / "move.py").write_text("B = 2\n")
    assert purge_stale_caches(tmp_path)
    assert not caches["a"].exists() and caches["b"].exists() and caches["shared"].exists()

    restore(caches)
    (tmp_path / "rng.py").write_text("A = 2\n")
    assert purge_stale_caches(tmp_path)
    assert not any(c.exists() for c in caches.values())


def test_with_a_custom_cache_folder_everything_is_one_unit(tmp_path, monkeypatch):
    """numba keeps every cache in NUMBA_CACHE_DIR then, one sub-folder per source folder:
    a change anywhere purges them all, and the caches beside the sources (unused then)
    stay as they are."""
    custom = tmp_path / "custom"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(custom))
    kernels = tmp_path / "kernels"
    kernels.mkdir()
    caches = tree(kernels)
    elsewhere = custom / "game_b_1f2e" / "g.f-1.py311.nbc"
    elsewhere.parent.mkdir(parents=True)
    elsewhere.write_text("x")
    assert purge_stale_caches(kernels)  # first sight: the stamp goes into the folder
    assert (custom / "oddsbot-kernels.sha256").is_file()
    elsewhere.write_text("x")
    assert not purge_stale_caches(kernels) and elsewhere.exists()
    (kernels / "game_b" / "score.py").write_text("C = 2\n")
    assert purge_stale_caches(kernels)
    assert not elsewhere.exists() and all(c.exists() for c in caches.values())


def test_the_same_bytes_written_again_purge_too(tmp_path, monkeypatch):
    """A reinstall writes the same sources with a new modification time, which numba
    checks: its caches are stale then, so the guard purges them (and the first-run marks
    with them) rather than leave marks over caches numba will not load."""
    import os

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    caches = tree(tmp_path)
    purge_stale_caches(tmp_path)
    restore(caches)
    source = tmp_path / "game_b" / "score.py"
    stat = source.stat()
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert purge_stale_caches(tmp_path)
    assert caches["a"].exists() and caches["shared"].exists() and not caches["b"].exists()
