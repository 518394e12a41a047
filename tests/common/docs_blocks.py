"""Console examples of the documentation: find them, run them, rewrite their output.

The documents are ``README.md`` and every ``docs/**/*.md`` of the repository. In them, a
fenced block whose info string starts with ``console`` holds commands and their output::

    ```console
    $ oddsbot advise examples/camel-up-start-4p.json --top 10 --seed 1
    <what the command prints>
    ```

A line starting with ``$ `` starts a command; the output shown for it is every line up
to the next ``$ `` line or the end of the block. A command line ending in ``\\``
continues on the next line. Only commands starting with ``oddsbot `` are run, and
``curl`` commands that ask ``oddsbot serve`` at its default address (below); other ``$ ``
lines, e.g. pipes from ``printf``, are left alone and their output is not checked.

A ``curl`` command naming ``http://127.0.0.1:8765/`` (docs/serve.md) runs against an
``oddsbot serve`` the runner starts once, on a free port of its own (the address is
rewritten to it), and stops at exit; what is compared is curl's stdout, as for oddsbot.

How a command runs:

* the installed ``oddsbot`` console script (the one beside the running Python, else the
  one on ``PATH``), with the arguments split as a POSIX shell would (``shlex``) but with
  no shell: pipes, redirections and ``&&`` are refused;
* working directory: the repository root; standard input: empty;
* environment: the caller's, with ``COLUMNS=100``, ``LINES=50``, ``TERM=dumb``,
  ``NO_COLOR=1``, ``PYTHONIOENCODING=utf-8`` and ``PYTHONHASHSEED=0`` set, and
  ``FORCE_COLOR``, ``CLICOLOR_FORCE``, ``TTY_COMPATIBLE`` and ``TTY_INTERACTIVE``
  removed, so output has no colour codes and the same width everywhere;
* what is compared: its stdout; if it exits with a non-zero code, its stdout followed by
  its stderr (so an error example shows its one-line message). A command that samples
  must pass a fixed ``--seed``.

``tests/common/test_docs.py`` runs the same arguments in its own process instead (the
suite's other CLI tests do too; :func:`run`'s ``oddsbot``), in that environment and folder:
the same output, without a Python start and a kernel load per example.

The comparison is exact, numbers included, except that trailing whitespace of each line
and trailing blank lines are ignored (rich pads centred titles with spaces; a blank line
may separate two commands of a block). Show every output whole: a shortened output fails.

    python tests/common/docs_blocks.py            # check every document, print the diffs
    python tests/common/docs_blocks.py --write    # rewrite the outputs in place
    python tests/common/docs_blocks.py --write README.md   # only these documents

``--write`` replaces only the output lines of console blocks (it keeps a block's blank
separator lines); every other byte of a document is left as it is. The test
``tests/common/test_docs.py`` runs each command as its own test case.
"""

from __future__ import annotations

import argparse
import atexit
import difflib
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENV_SET = {
    "COLUMNS": "100",
    "LINES": "50",
    "TERM": "dumb",
    "NO_COLOR": "1",
    "PYTHONIOENCODING": "utf-8",
    "PYTHONHASHSEED": "0",
}
ENV_UNSET = ("FORCE_COLOR", "CLICOLOR_FORCE", "TTY_COMPATIBLE", "TTY_INTERACTIVE")
SHELL_TOKENS = {"|", "||", "&", "&&", ";", "<", ">", ">>", "2>", "2>&1"}
TIMEOUT_S = 900  # a first run compiles the numba kernels
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")


@dataclass(frozen=True)
class Command:
    """One ``$ oddsbot ...`` line of a console block and the output shown below it."""

    doc: Path  # the document
    line: int  # 1-based line number of the ``$`` line
    text: str  # the command as written, without ``$ `` (continuations joined)
    indent: str  # the block's indentation, re-applied to written output lines
    start: int  # 0-based index of the first output line in the document
    end: int  # 0-based index after the last output line (trailing blanks excluded)
    shown: tuple[str, ...]  # the output lines as shown, indentation removed

    @property
    def id(self) -> str:
        try:
            name = self.doc.relative_to(ROOT).as_posix()
        except ValueError:
            name = str(self.doc)
        return f"{name}:{self.line}"


def documents(root: Path = ROOT) -> list[Path]:
    """README.md and every Markdown file under docs/, in a stable order."""
    docs = [root / "README.md"] if (root / "README.md").is_file() else []
    return docs + sorted((root / "docs").glob("**/*.md"))


def console_blocks(lines: list[str]) -> list[tuple[int, int, str]]:
    """(first content line, end, indentation) of every ``console`` fenced block; an
    unclosed block runs to the end of the document, as in CommonMark."""
    blocks = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m or (m["fence"][0] == "`" and "`" in m["info"]):
            i += 1
            continue
        fence, indent = m["fence"], m["indent"]
        info = m["info"].strip().split()
        j = i + 1
        while j < len(lines):
            close = FENCE.match(lines[j])
            if (close and close["fence"][0] == fence[0] and len(close["fence"]) >= len(fence)
                    and not close["info"].strip()):
                break
            j += 1
        if info and info[0] == "console":
            blocks.append((i + 1, j, indent))
        i = j + 1
    return blocks


def _dedent(line: str, indent: str) -> str:
    return line[len(indent):] if line.startswith(indent) else line.lstrip(" ")


def commands(doc: Path) -> list[Command]:
    """Every ``$ oddsbot`` command of the document's console blocks, in order."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    found = []
    for first, end, indent in console_blocks(lines):
        i = first
        while i < end:
            text = _dedent(lines[i], indent)
            if not text.startswith("$ "):
                i += 1
                continue
            line_no = i + 1
            command = text[2:]
            while command.endswith("\\") and i + 1 < end:
                i += 1
                command = command[:-1].rstrip() + " " + _dedent(lines[i], indent).strip()
            i += 1
            start = i
            while i < end and not _dedent(lines[i], indent).startswith("$ "):
                i += 1
            stop = i
            while stop > start and not lines[stop - 1].strip():
                stop -= 1
            if _runnable(command):
                found.append(Command(doc, line_no, command, indent, start, stop,
                                     tuple(_dedent(x, indent) for x in lines[start:stop])))
    return found


SERVER = "http://127.0.0.1:8765/"  # the address of oddsbot serve in the documents


def _runnable(command: str) -> bool:
    first = command.split(maxsplit=1)[0] if command.strip() else ""
    return first == "oddsbot" or (first == "curl" and SERVER in command)


def collect(root: Path = ROOT) -> list[Command]:
    return [c for doc in documents(root) for c in commands(doc)]


def oddsbot_script() -> str:
    """The ``oddsbot`` console script of the running environment."""
    here = Path(sys.executable).parent / ("oddsbot.exe" if os.name == "nt" else "oddsbot")
    if here.is_file():
        return str(here)
    found = shutil.which("oddsbot")
    if found is None:
        raise RuntimeError("no oddsbot console script: install the package first")
    return found


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ENV_UNSET}
    env.update(ENV_SET)
    return env


Runner = Callable[[list[str]], tuple[int, str, str]]  # argv -> (exit code, stdout, stderr)


def run_program(argv: list[str]) -> tuple[int, str, str]:
    """``argv`` as a process from the repository root, in :func:`environment`, stdin empty
    (``oddsbot`` is the installed console script)."""
    program = argv[0] if argv[0] == "curl" else oddsbot_script()
    done = subprocess.run([program, *argv[1:]], cwd=ROOT, env=environment(),
                          stdin=subprocess.DEVNULL, capture_output=True, encoding="utf-8",
                          timeout=TIMEOUT_S)
    return done.returncode, done.stdout, done.stderr


def run(command: Command, oddsbot: Runner = run_program) -> str:
    """What the command prints (see the module docstring), lines right-stripped and
    trailing blank lines dropped; ``oddsbot`` runs an ``oddsbot`` command's argv (``curl``
    always runs as a process)."""
    argv = shlex.split(command.text)
    bad = [a for a in argv if a in SHELL_TOKENS]
    if bad:
        raise ValueError(f"{command.id}: console commands run without a shell; "
                         f"{' '.join(bad)} is not supported: {command.text}")
    if argv[0] == "curl":
        argv = [a.replace(SERVER, served()) for a in argv]
    code, out, err = (run_program if argv[0] == "curl" else oddsbot)(argv)
    text = out + (err if code else "")
    return "\n".join(normalise(text.splitlines()))


_SERVED: list[tuple[subprocess.Popen, str]] = []


def served() -> str:
    """The address of the ``oddsbot serve`` the ``curl`` commands ask: started on the
    first call, on a free port, stopped (Ctrl-C) when this process exits."""
    if not _SERVED:
        proc = subprocess.Popen([oddsbot_script(), "serve", "--port", "0", "--workers", "1"],
                                cwd=ROOT, env=environment(), stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, encoding="utf-8")
        line = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if found is None:
            proc.kill()
            raise RuntimeError(f"oddsbot serve did not say where it serves: {line!r}")
        _SERVED.append((proc, found[0]))
        atexit.register(_stop_server)
    return _SERVED[0][1]


def _stop_server() -> None:
    for proc, _ in _SERVED:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def normalise(lines) -> list[str]:
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    return out


def shown(command: Command) -> str:
    return "\n".join(normalise(command.shown))


def diff(command: Command, actual: str) -> str:
    return "\n".join(difflib.unified_diff(shown(command).splitlines(), actual.splitlines(),
                                          f"{command.id} (shown)", "printed", lineterm=""))


def write(doc: Path, verbose: bool = True) -> int:
    """Rewrite the output lines of the document's console commands; returns how many
    changed. Every other line keeps its bytes, line endings included."""
    raw = doc.read_text(encoding="utf-8")
    lines = raw.splitlines(keepends=True)
    changed = 0
    for command in reversed(commands(doc)):  # from the end: indices stay valid
        actual = run(command)
        if actual == shown(command):
            continue
        changed += 1
        if verbose:
            print(f"{command.id}: output rewritten")
        eol = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
        new = [command.indent + x + eol if x else eol for x in actual.splitlines()]
        lines[command.start:command.end] = new
    if changed:
        doc.write_text("".join(lines), encoding="utf-8", newline="")
    return changed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true",
                    help="rewrite the outputs in place (default: check and show diffs)")
    ap.add_argument("documents", nargs="*", type=Path,
                    help="documents to process (default: README.md and docs/**/*.md)")
    args = ap.parse_args(argv)
    docs = [p.resolve() for p in args.documents] or documents()
    try:
        oddsbot_script()
    except RuntimeError as exc:
        print(f"docs_blocks: {exc}", file=sys.stderr)
        return 2
    if args.write:
        total = sum(write(doc) for doc in docs)
        print(f"{total} output(s) rewritten")
        return 0
    failed = 0
    for doc in docs:
        for command in commands(doc):
            actual = run(command)
            if actual != shown(command):
                failed += 1
                print(diff(command, actual))
            else:
                print(f"{command.id}: ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
