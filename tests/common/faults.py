"""Fault injection for the tests of writes: a full disk or a folder one may not write to,
for the files ``oddsbot.outputs`` writes (every file a command writes under the user's
paths), chosen by name. Linux: a file is recognised by its temporary name in
``/proc/self/fd``."""

from __future__ import annotations

import builtins
import errno
import io
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from oddsbot import outputs


class _Failing(io.BufferedWriter):
    """A file whose first write past ``room`` bytes fails with ``code`` (a full disk)."""

    def __init__(self, fd: int, code: int, room: int) -> None:
        super().__init__(io.FileIO(fd, "wb"))
        self.code, self.room = code, room

    def write(self, data) -> int:
        if len(data) > self.room:
            super().write(bytes(memoryview(data)[:self.room]))
            self.room = 0
            self.flush()
            raise OSError(self.code, os.strerror(self.code))
        self.room -= len(data)
        return super().write(data)


@contextmanager
def write_faults(monkeypatch, fails: Callable[[str], bool], code: int = errno.ENOSPC
                 ) -> Iterator[list[str]]:
    """While the block runs, every file ``outputs.replacing`` writes whose final name
    ``fails(name)`` is refused with ``code``: ``ENOSPC`` after a few bytes, as a disk
    filling up mid-file; any other code (``EACCES``) when it is created, as a folder one
    cannot write to. Yields the names refused."""
    refused: list[str] = []

    def faulty_open(fd, mode="r", *args, **kwargs):
        temp = os.path.basename(os.readlink(f"/proc/self/fd/{fd}"))
        name = temp[1:].rsplit(".", 2)[0]  # ".<name>.<random>.partial"
        if not fails(name):
            return builtins.open(fd, mode, *args, **kwargs)
        refused.append(name)
        if code != errno.ENOSPC:
            os.close(fd)
            raise OSError(code, os.strerror(code))
        return _Failing(fd, code, room=100)

    monkeypatch.setattr(outputs, "open", faulty_open, raising=False)
    yield refused
    monkeypatch.delattr(outputs, "open")
