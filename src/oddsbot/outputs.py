"""Writing files under the user's paths, for every command that writes one.

- An output never lands on an input: :func:`check_not_input` compares files by identity
  (device and inode, symlinks followed), so a hard link or a symlink to an input is
  refused as surely as its own name.
- An output is never seen half-written: it is written to a hidden temporary file beside
  it (``.<name>.<random>.partial``) and renamed over the named path when complete; the
  temporary file is removed when the write fails or is interrupted.
- The named path is replaced, not written through: a symlink there becomes the new file
  (its target is left alone) and the other names of a hard-linked file keep their
  content.
- A failed write (full disk, no permission, a read-only file system) is a
  :class:`WriteError`, one line naming the file.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from .errors import OddsbotError

PARTIAL = ".partial"  # the suffix of temporary files; a leftover one is never a result


class WriteError(OddsbotError):
    """A file or folder that could not be written; the message names it and why."""


def cannot_write(path: Path, exc: OSError) -> WriteError:
    """``exc``, raised while writing ``path``, as one line."""
    return WriteError(f"cannot write {path}: {exc.strerror or exc}")


def same_file(a: Path, b: Path) -> bool:
    """``a`` and ``b`` are one file: the same device and inode, symlinks followed (False
    when either does not exist)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_not_input(path: Path, inputs: Iterable[Path], option: str) -> None:
    """Refuse, in one line naming ``option``, an output ``path`` that is one of the
    ``inputs`` by file identity (its own name, a symlink or a hard link to it)."""
    for src in inputs:
        if same_file(path, src):
            same = "" if os.path.abspath(path) == os.path.abspath(src) else \
                f" (the same file as {str(src)!r})"
            raise OddsbotError(f"{option}: {str(path)!r} is an input file{same}; refusing "
                               f"to overwrite it")


def make_folder(path: Path) -> None:
    """``path`` and its missing parents as folders (a :class:`WriteError` if it cannot)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise cannot_write(path, exc) from None


@contextmanager
def replacing(path: Path) -> Iterator[BinaryIO]:
    """A binary file to write; on leaving the block without error it replaces ``path``
    (flushed to disk first), otherwise it is removed. A failure to write is a
    :class:`WriteError` naming ``path``."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}{PARTIAL}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as exc:
        raise cannot_write(path, exc) from None
    try:
        with open(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise cannot_write(path, exc) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_bytes(path: Path, data: bytes) -> None:
    """``data`` as the whole content of ``path`` (:func:`replacing`)."""
    with replacing(path) as f:
        f.write(data)


def write_text(path: Path, text: str) -> None:
    """``text`` as UTF-8, the whole content of ``path`` (:func:`replacing`)."""
    write_bytes(path, text.encode("utf-8"))


def remove_partials(folder: Path) -> list[Path]:
    """Remove the temporary files that writes interrupted by a killed process left under
    ``folder`` (call only where no other writer is at work); returns them."""
    found = sorted(folder.rglob(f"*{PARTIAL}"))
    for path in found:
        try:
            path.unlink()
        except OSError as exc:
            raise cannot_write(path, exc) from None
    return found
