"""Reading what the user gives: a position or a game record, from a file, stdin or inline.

Limits (docs/input-limits.md): a position is at most ``POSITION_LIMIT`` bytes, a record
``RECORD_LIMIT``, a line of either ``LINE_LIMIT``; at most the limit plus one byte is ever
read, so an endless or huge input is refused in bounded memory. Text is UTF-8 (a leading
byte-order mark is skipped). A FIFO or device named as the input is read without
blocking: one that stays silent (no writer) for ``IDLE_SECONDS`` is refused. Standard
input (``-``) is read as it comes, however slowly (``cat x | oddsbot validate -``).

``examples/NAME`` that is no file here names the example of that name shipped with
oddsbot (``EXAMPLES``), so the commands in ``--help`` and the docs run in any folder; a
file of that name here always wins.
"""

from __future__ import annotations

import os
import select
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .errors import OddsbotError, quote
from .strict import BOM, load_json

POSITION_LIMIT = 1 << 20  # bytes: 1 MiB
RECORD_LIMIT = 16 << 20  # bytes: 16 MiB
LINE_LIMIT = 64 << 10  # bytes: 64 KiB
IDLE_SECONDS = 30.0  # how long a FIFO or device may stay silent
NAME_MAX, PATH_MAX = 255, 4095  # bytes of one part of a file name, of the whole name
CHUNK = 1 << 16
EXAMPLES = Path(__file__).resolve().parent / "examples"  # in a clone: a link to examples/


def size_text(n: int) -> str:
    """``n`` bytes for people: ``1 MiB`` (whole units), ``3.2 GiB``, else ``70,001 bytes``."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n / (1 << 30):.1f} GiB" if n >= 1 << 30 else f"{n:,} bytes"


def could_be_path(source: str) -> bool:
    """Whether ``source`` may name a file at all (no NUL or newline, no part longer than
    ``NAME_MAX`` bytes, ``PATH_MAX`` in all), so that asking the system cannot fail on
    the name itself; longer text is inline."""
    raw = os.fsencode(source)
    return (0 < len(raw) <= PATH_MAX and b"\0" not in raw and b"\n" not in raw
            and all(len(part) <= NAME_MAX for part in raw.split(b"/")))


def _file_kind(source: str) -> str | None:
    """``file``, ``directory`` or ``other`` (a FIFO, device, socket) for an existing
    name, None for none."""
    try:
        mode = os.stat(source).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError:  # no permission to look, a symlink loop: the read will say
        return "other"
    if stat.S_ISDIR(mode):
        return "directory"
    return "file" if stat.S_ISREG(mode) else "other"


def _check_size(data: bytes, what: str, name: str, limit: int) -> None:
    if len(data) > limit:
        raise OddsbotError(f"{what}: {name} is more than a {what} may be "
                           f"({size_text(limit)})")


def _check_lines(data: bytes, what: str, name: str) -> None:
    """Refuse a line longer than ``LINE_LIMIT``. Such a line covers a whole aligned
    block of half that length, so only blocks without a newline are looked at."""
    block = LINE_LIMIT // 2
    for low in range(0, len(data), block):
        if data.find(b"\n", low, low + block) >= 0:
            continue
        start = data.rfind(b"\n", 0, low) + 1
        end = data.find(b"\n", low)
        end = len(data) if end < 0 else end
        if end - start > LINE_LIMIT:
            line = data.count(b"\n", 0, start) + 1
            raise OddsbotError(f"{what}: line {line} of {name} is {size_text(end - start)} "
                               f"long (a line is at most {size_text(LINE_LIMIT)})")


def decode(data: bytes, what: str, name: str, limit: int) -> str:
    """``data`` as text within the limits (module doc), or one line saying why not."""
    _check_size(data, what, name, limit)
    _check_lines(data, what, name)
    try:
        return data.decode("utf-8").removeprefix(BOM)
    except UnicodeDecodeError as exc:
        raise OddsbotError(f"{what}: {name} is not UTF-8 text (byte "
                           f"0x{data[exc.start]:02x} at offset {exc.start:,})") from None


def _read_stdin(limit: int) -> bytes:
    stream = getattr(sys.stdin, "buffer", sys.stdin)  # a text stream in tests
    data = stream.read(limit + 1)
    return data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data


def _read_fd(fd: int, what: str, name: str, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of ``fd`` (opened non-blocking), waiting at most
    ``IDLE_SECONDS`` for each chunk."""
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        ready, _, _ = select.select([fd], [], [], IDLE_SECONDS)
        if not ready:
            raise OddsbotError(f"{what}: nothing came from {name} for {IDLE_SECONDS:g} s "
                               f"(a FIFO or device with no writer?)")
        try:
            chunk = os.read(fd, min(CHUNK, limit + 1 - size))
        except BlockingIOError:
            continue
        except OSError as exc:
            raise OddsbotError(f"{what}: cannot read {name}: {exc.strerror}") from None
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _read_path(source: str, name: str, what: str, limit: int) -> bytes:
    """The bytes of the file, FIFO or device ``source`` (at most ``limit + 1``)."""
    try:  # non-blocking: opening a FIFO must not wait for a writer
        fd = os.open(source, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise OddsbotError(f"{what}: cannot read {name}: {exc.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise OddsbotError(f"{what}: {name} is a directory, not a {what} file")
        if stat.S_ISREG(mode) and (size := os.fstat(fd).st_size) > limit:
            raise OddsbotError(f"{what}: {name} is {size_text(size)}, more than a {what} "
                               f"may be ({size_text(limit)})")
        return _read_fd(fd, what, name, limit)
    finally:
        os.close(fd)


def _read(source: str, what: str, limit: int, path: str | None = None) -> str:
    """The text of stdin ('-') or of the file, FIFO or device ``source`` (read from
    ``path`` when given: a shipped example)."""
    if source == "-":
        return decode(_read_stdin(limit), what, "stdin", limit)
    name = quote(source, tail=True)
    return decode(_read_path(path or source, name, what, limit), what, name, limit)


def shipped_example(source: str) -> Path | None:
    """The example shipped with oddsbot that ``source`` names as ``examples/NAME``, if
    there is one (whether or not a file ``source`` exists here)."""
    parts = Path(source).parts if could_be_path(source) else ()
    if len(parts) == 2 and parts[0] == "examples" and (EXAMPLES / parts[1]).is_file():
        return EXAMPLES / parts[1]
    return None


def _no_such_file(what: str, source: str, hint: str = "") -> OddsbotError:
    """``no such file``, and for ``examples/NAME`` where to find the shipped ones."""
    if could_be_path(source) and Path(source).parts[:1] == ("examples",):
        hint = " (nor an example shipped with oddsbot: 'oddsbot examples' lists them)"
    return OddsbotError(f"{what}: no such file {quote(source, tail=True)}{hint}")


def _read_given(source: str, what: str, limit: int) -> str | None:
    """The text of stdin, of the file ``source`` or of the shipped example it names;
    None if it names none of these."""
    if source == "-" or (could_be_path(source) and _file_kind(source) is not None):
        return _read(source, what, limit)
    shipped = shipped_example(source)
    return None if shipped is None else _read(source, what, limit, str(shipped))


def read_position_text(source: str) -> str:
    """The text of POSITION: stdin for '-', a file's content (or a shipped example's), or
    the argument itself (inline notation or JSON) if no file has that name."""
    if (text := _read_given(source, "position", POSITION_LIMIT)) is not None:
        return text
    path = Path(source) if could_be_path(source) else None
    if path is not None and (path.suffix.lower() == ".json" or (
            path.parent != Path(".") and not path.parent.is_dir() and " " not in source)):
        raise _no_such_file("position", source)
    return decode(os.fsencode(source), "position", "the argument", POSITION_LIMIT)


def read_record_text(source: str) -> str:
    """The text of RECORD: stdin for '-', else a file's content (or a shipped example's)."""
    if (text := _read_given(source, "record", RECORD_LIMIT)) is None:
        raise _no_such_file("record", source, " (a record is a file, or '-' for stdin)")
    return text


def input_files(source: str) -> list[Path]:
    """POSITION or RECORD as a file an output must not overwrite: its path, or for '-'
    the file standard input is redirected from (none for a pipe, a terminal or inline
    text)."""
    if source == "-":
        path = Path("/dev/stdin")
        return [path] if path.is_file() else []
    return [Path(source)] if could_be_path(source) and _file_kind(source) == "file" else []


def lines(text: str) -> Iterator[str]:
    """The lines of ``text``, one at a time (split at '\\n', a trailing '\\r' dropped)."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        yield text[start:end].removesuffix("\r")
        start = end + 1


def read_position(text: str, from_json: Callable[[Any], Any],
                  from_notation: Callable[[str], Any]) -> Any:
    """A position from its JSON text (``from_json`` of the loaded object) or its one-line
    notation (``from_notation``)."""
    stripped = text.strip()
    if is_json(stripped):
        return from_json(load_json(stripped))
    return from_notation(stripped)


def is_json(text: str) -> bool:
    """Whether a position text is JSON (an object), not one-line notation."""
    return text.lstrip().startswith("{")
