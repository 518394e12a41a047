"""The ``oddsbot`` console script on a new pseudo-terminal, as a person runs it: stdin,
stdout and stderr on the terminal, its window ``columns`` wide (set on the terminal
itself, no ``COLUMNS``), so that progress displays are drawn."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Callable
from pathlib import Path

from docs_blocks import oddsbot_script

ROOT = Path(__file__).resolve().parents[2]


def _start(args: list[str], columns: int) -> tuple[subprocess.Popen, int]:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "NO_COLOR", "TERM", "CI")}
    env["TERM"] = "xterm-256color"
    proc = subprocess.Popen([oddsbot_script(), *args], stdin=slave, stdout=slave,
                            stderr=slave, cwd=ROOT, env=env, start_new_session=True)
    os.close(slave)
    return proc, master


def read_terminal(proc: subprocess.Popen, master: int, out: list[bytes], deadline: float,
          until: str | None = None) -> bool:
    """Append what the terminal shows to ``out`` until ``until`` appears (True), or the
    process closes it or ends, or ``deadline`` passes (False)."""
    while time.monotonic() < deadline:
        if until is not None and until in b"".join(out).decode("utf-8", "replace"):
            return True
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                return False
            if not data:
                return False
            out.append(data)
        elif proc.poll() is not None:
            return False
    return False


def in_terminal(args: list[str], columns: int, timeout: float = 600) -> tuple[int, str]:
    """Run ``oddsbot ARGS`` to its end; (exit code, everything it wrote to the terminal)."""
    proc, master = _start(args, columns)
    out: list[bytes] = []
    read_terminal(proc, master, out, time.monotonic() + timeout)
    if proc.poll() is None:
        proc.kill()
    code = proc.wait(timeout=60)
    os.close(master)
    return code, b"".join(out).decode("utf-8", "replace")


def interrupted(args: list[str], when: str, after: float = 0.5, columns: int = 80,
                timeout: float = 300, before_signal: Callable[[], None] | None = None
                ) -> tuple[int, str, float]:
    """Run ``oddsbot ARGS`` and press Ctrl-C (SIGINT) ``after`` seconds after ``when``
    appears on the terminal (and after ``before_signal()``, e.g. a request to a server):
    (exit code, everything it wrote, seconds from the signal to the exit). Fails if
    ``when`` never appears while it runs."""
    proc, master = _start(args, columns)
    out: list[bytes] = []
    try:
        seen = read_terminal(proc, master, out, time.monotonic() + timeout, until=when)
        screen = b"".join(out).decode("utf-8", "replace")
        assert seen, f"{when!r} never appeared (exit {proc.poll()}): {screen[-2000:]}"
        time.sleep(after)
        if before_signal is not None:
            before_signal()
        assert proc.poll() is None, f"it ended before Ctrl-C: {screen[-2000:]}"
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        while proc.poll() is None and time.monotonic() < sent + 30:
            read_terminal(proc, master, out, min(sent + 30, time.monotonic() + 0.05))
        took = time.monotonic() - sent
        read_terminal(proc, master, out, time.monotonic() + 0.5)  # the last words, if any
    finally:
        if proc.poll() is None:
            proc.kill()
        code = proc.wait(timeout=60)
        os.close(master)
    return code, b"".join(out).decode("utf-8", "replace"), took
