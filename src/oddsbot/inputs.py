"""Reading what the user gives: a position or a game record, from a file, stdin or inline."""

from __future__ import annotations

import sys
from pathlib import Path

from .errors import OddsbotError


def read_position_text(source: str) -> str:
    """The text of POSITION: stdin for '-', a file's content, or the argument itself."""
    if source == "-":
        return sys.stdin.read()
    path = Path(source)
    if path.is_file():
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise OddsbotError(f"position: cannot read {source}: {exc}") from None
    if path.suffix.lower() == ".json" or (path.parent != Path(".") and not path.parent.is_dir()
                                          and " " not in source):
        raise OddsbotError(f"position: no such file {source}")
    return source


def read_record_text(source: str) -> str:
    """The text of RECORD: stdin for '-', else a file's content."""
    if source == "-":
        return sys.stdin.read()
    try:
        return Path(source).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise OddsbotError(f"record: no such file {source}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise OddsbotError(f"record: cannot read {source}: {exc}") from None


def input_files(source: str) -> list[Path]:
    """POSITION or RECORD as a file an output must not overwrite: its path, or for '-'
    the file standard input is redirected from (none for a pipe, a terminal or inline
    text)."""
    path = Path("/dev/stdin" if source == "-" else source)
    return [path] if path.is_file() else []
