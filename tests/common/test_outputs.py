"""``oddsbot.outputs``, the one way every command writes a file: an input is recognised by
file identity (its name, a hard link, a symlink), a file is replaced whole or left as it
was, and a failed write is one line naming the file.

The commands' own cases (chart, replay --chart, report folders) are in
``camel_up/test_charts.py`` and ``test_report_faults.py``.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from faults import write_faults
from oddsbot import outputs
from oddsbot.errors import OddsbotError


def linked(tmp_path: Path) -> dict[str, Path]:
    """A file and its other names: ``file``, ``hard`` (a hard link), ``soft`` (a symlink),
    ``other`` (another file with the same bytes) and ``missing`` (no file)."""
    file = tmp_path / "input.txt"
    file.write_text("the user's data\n")
    os.link(file, tmp_path / "hard.txt")
    os.symlink(file, tmp_path / "soft.txt")
    (tmp_path / "other.txt").write_text("the user's data\n")
    return {"file": file, "hard": tmp_path / "hard.txt", "soft": tmp_path / "soft.txt",
            "other": tmp_path / "other.txt", "missing": tmp_path / "missing.txt"}


@pytest.mark.parametrize("name, same", [("file", True), ("hard", True), ("soft", True),
                                        ("other", False), ("missing", False)])
def test_same_file_is_identity_not_name(tmp_path, name, same):
    paths = linked(tmp_path)
    assert outputs.same_file(paths[name], paths["file"]) is same
    assert outputs.same_file(paths["file"], paths[name]) is same
    relative = Path(os.path.relpath(paths[name]))  # another spelling of the same name
    assert outputs.same_file(relative, paths["file"]) is same


@pytest.mark.parametrize("name", ["file", "hard", "soft"])
def test_check_not_input_refuses_every_name_of_an_input(tmp_path, name):
    paths = linked(tmp_path)
    with pytest.raises(OddsbotError, match=r"^--out: .* is an input file"):
        outputs.check_not_input(paths[name], [paths["file"]], "--out")
    outputs.check_not_input(paths["other"], [paths["file"]], "--out")  # not refused


@pytest.mark.parametrize("name", ["hard", "soft", "other", "missing"])
def test_replacing_replaces_the_named_path_only(tmp_path, name):
    """The new content is at the named path; the user's file behind a hard link or a
    symlink keeps its bytes."""
    paths = linked(tmp_path)
    outputs.write_text(paths[name], "new\n")
    assert paths[name].read_text() == "new\n" and not paths[name].is_symlink()
    assert paths["file"].read_text() == "the user's data\n"
    assert sorted(p.name for p in tmp_path.iterdir() if outputs.PARTIAL in p.name) == []


@pytest.mark.parametrize("fault", [KeyboardInterrupt(), OSError(errno.ENOSPC, "full"),
                                   ValueError("bad data")])
def test_a_write_that_fails_leaves_the_old_file_and_no_partial(tmp_path, fault):
    path = tmp_path / "kept.txt"
    path.write_text("old\n")
    with pytest.raises(type(fault) if not isinstance(fault, OSError) else OddsbotError):
        with outputs.replacing(path) as f:
            f.write(b"half of the new")
            raise fault
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["kept.txt"]


# --------------------------------------------------------------------------- faults


@pytest.mark.parametrize("code, words", [(errno.ENOSPC, "No space left on device"),
                                         (errno.EACCES, "Permission denied")])
def test_write_faults_are_one_line_naming_the_file(monkeypatch, tmp_path, code, words):
    path = tmp_path / "out.bin"
    with write_faults(monkeypatch, lambda name: name == "out.bin", code) as refused:
        with pytest.raises(outputs.WriteError) as caught:
            outputs.write_bytes(path, b"x" * 1000)
        outputs.write_bytes(tmp_path / "fine.bin", b"x" * 1000)
    assert refused == ["out.bin"]
    assert str(caught.value) == f"cannot write {path}: {words}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fine.bin"]
