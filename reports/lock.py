"""The lock of a report folder: one run at a time works in it.

The lock is ``fcntl.flock`` on the folder's ``run.lock``, held open from before the run
writes anything until its report is written. The kernel releases it when the holder's
process ends, however it ends (Ctrl-C, a crash, ``kill -9``), so a lock is never stale:
a folder is in use exactly while its holder is alive. While held, the file names its
holder (pid, host, since when, UTC) for the one-line refusal of a second run; it is
emptied on release and stays in the folder (deleting it would let two runs lock two
different files of the same name). POSIX only (``fcntl``).
"""

from __future__ import annotations

import fcntl
import json
import os
import platform
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import datetime, timezone
from pathlib import Path

from ..errors import OddsbotError
from ..outputs import cannot_write

LOCK_FILE = "run.lock"


HOLDER_WAIT_S = 1.0  # how long a refused run waits for a new holder to name itself


def _named_holder(path: Path) -> str | None:
    """Who holds the lock at ``path``, as its file tells; None while it names nobody."""
    try:
        who = json.loads(path.read_text())
        return f"pid {who['pid']} on {who['host']}, since {who['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _holder(path: Path) -> str:
    """Who holds the lock at ``path``. A holder that has just taken the lock names itself
    a moment later, so an empty file is read again for up to ``HOLDER_WAIT_S`` seconds."""
    deadline = time.monotonic() + HOLDER_WAIT_S
    while (who := _named_holder(path)) is None and time.monotonic() < deadline:
        time.sleep(0.02)
    return who or "holder unknown"


@contextmanager
def held(folder: Path, option: str) -> Iterator[None]:
    """Hold the lock of the existing ``folder`` while the block runs; a second holder is
    refused in one line naming ``option`` and the first holder, and so is a folder where
    the lock cannot be written."""
    path = folder / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as exc:  # a read-only folder: nothing to say but that
        raise OddsbotError(f"{option}: {cannot_write(path, exc)}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OddsbotError(f"{option}: {folder} is in use by another oddsbot report "
                               f"({_holder(path)}); wait for it to end or stop it") from None
        except OSError as exc:  # a file system without locks
            raise OddsbotError(f"{option}: cannot lock {path}: {exc.strerror}") from None
        since = datetime.now(timezone.utc).isoformat(timespec="seconds")
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps({"pid": os.getpid(), "host": platform.node(),
                                      "since": since}).encode(), 0)
        except OSError as exc:
            raise OddsbotError(f"{option}: {cannot_write(path, exc)}") from None
        try:
            yield
        finally:
            with suppress(OSError):
                os.ftruncate(fd, 0)
    finally:
        os.close(fd)
