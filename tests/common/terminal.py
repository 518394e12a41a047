"""Reading what a process writes to a pseudo-terminal (the tests' and benches' one reader)."""

from __future__ import annotations

import os
import select
import subprocess
import time


def read_until_exit(master: int, proc: subprocess.Popen, timeout: float | None = None
                    ) -> tuple[str, bool]:
    """Everything ``proc`` writes to the terminal whose master end is ``master``, until it
    closes the terminal or exits; and whether it ended within ``timeout`` seconds (None:
    no limit). Undecodable bytes are replaced."""
    out = []
    deadline = None if timeout is None else time.monotonic() + timeout
    while deadline is None or time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            out.append(data)
        elif proc.poll() is not None:
            break
    else:
        return b"".join(out).decode("utf-8", "replace"), False
    return b"".join(out).decode("utf-8", "replace"), True
