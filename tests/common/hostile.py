"""Hostile input for every registered game: a seed corpus, mutations of it, and an
in-process run of the CLI that names the outcome's class.

The corpus (:func:`corpus`) holds, for every game of ``registry.specs()``, a new
position (JSON and notation), every example position and record (``examples/``) and every
test record or position (``tests/*/data``, ``tests/*/golden``) that the registry
recognises as the game's: a record only for a game that replays records, cut to its first
``RECORD_TURNS`` turns so that a valid one replays quickly. A new game is covered without
an edit here.

:func:`mutate` applies one to three mutations chosen by a ``random.Random`` (hypothesis
hands one in, ``bench/fuzz_summary.py`` seeds one): byte flips, truncation, duplication,
huge and non-ASCII-digit numbers, inserted and duplicated keys, a byte-order mark, deep
nesting, very long lines, NaN, swapped JSON types, stray newlines and NUL bytes.
:func:`run_case` gives the case to ``oddsbot`` by one of three channels (a file, stdin,
inline) and classifies what happened (:data:`GOOD`: ``ok`` or ``refused``; anything
else is a fault).
"""

from __future__ import annotations

import io
import json
import random
import re
import sys
import traceback
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

from oddsbot.analyser import registry
from oddsbot.analyser.face import Capability
from oddsbot.errors import OddsbotError

ROOT = Path(__file__).resolve().parents[2]
RECORD_TURNS = 4  # turn lines kept of a record
SAMPLES = "64"  # Monte Carlo samples of the runs that get past validation
MESSAGE_LIMIT = 400  # characters of the one error line (a message quotes <= ~80 of input)
GOOD = ("ok", "refused")
BOM = b"\xef\xbb\xbf"
HUGE = (b"9" * 5000, str(2**63).encode(), b"1000000", b"-1", b"0" * 40 + b"7",
        b"18446744073709551616")
DIGITS = ("\u00b2", "\u0663", "\uff11", "\U0001d7d7", "\u07c3")  # ², ٣, １, 𝟗, ߃


@dataclass(frozen=True)
class Seed:
    game: str
    kind: str  # "position" or "record"
    name: str  # where it comes from
    data: bytes


def _record_head(text: str) -> str:
    """A record's first comment line, start line and first ``RECORD_TURNS`` turns
    (mutations of a long header would hit comments mostly)."""
    kept, turns, comments = [], 0, 0
    for line in text.splitlines():
        body = line.split("#", 1)[0].strip()
        if not body:
            comments += 1
            if comments > 1:
                continue
        elif not body.startswith("start"):
            turns += 1
            if turns > RECORD_TURNS:
                break
        kept.append(line)
    return "\n".join(kept) + "\n"


def _classify(path: Path) -> list[tuple[str, str, str]]:
    """(game, kind, text) of what ``path`` holds for the registry, if anything."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    try:
        if text.lstrip().startswith("{"):
            return [(registry.spec_of_text(text).name, "position", text)]
        spec = registry.spec_of_record(text)
    except OddsbotError:
        return []
    start = next(line for line in text.splitlines() if line.startswith("start "))
    found = [(spec.name, "position", start.removeprefix("start "))]
    if spec.has(Capability.RECORDS):
        found.append((spec.name, "record", _record_head(text)))
    return found


def corpus() -> list[Seed]:
    """Every seed of every registered game (module doc)."""
    seeds = []
    for spec in registry.specs().values():
        pos = spec.load().new_position(max(spec.players[0], 3), 0, spec.name)
        seeds += [Seed(spec.name, "position", "new (json)",
                       json.dumps(pos.to_json(), indent=1).encode()),
                  Seed(spec.name, "position", "new (notation)", pos.to_notation().encode())]
    files = [p for pattern in ("examples/*", "tests/*/data/*", "tests/*/golden/*")
             for p in sorted(ROOT.glob(pattern)) if p.is_file()]
    for path in files:
        for game, kind, text in _classify(path):
            if game in registry.specs():
                seeds.append(Seed(game, kind, str(path.relative_to(ROOT)), text.encode()))
    return seeds


# --------------------------------------------------------------------------- mutations


def _spot(rng: random.Random, data: bytes) -> int:
    return rng.randrange(len(data) + 1)


def _runs(data: bytes, pattern: bytes) -> list[re.Match]:
    return list(re.finditer(pattern, data))


def flip(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if out:
            i = rng.randrange(len(out))
            out[i] = rng.randrange(256) if rng.random() < 0.5 else out[i] ^ (1 << rng.randrange(8))
    return bytes(out)


def truncate(rng: random.Random, data: bytes) -> bytes:
    return data[:_spot(rng, data)]


def duplicate(rng: random.Random, data: bytes) -> bytes:
    i = _spot(rng, data)
    j = min(len(data), i + rng.randint(1, 200))
    return data[:j] + data[i:j] * rng.randint(1, 3) + data[j:]


def huge_number(rng: random.Random, data: bytes) -> bytes:
    runs = _runs(data, rb"[0-9]+")
    if not runs:
        return data + b" " + rng.choice(HUGE)
    m = rng.choice(runs)
    return data[:m.start()] + rng.choice(HUGE) + data[m.end():]


def unicode_digit(rng: random.Random, data: bytes) -> bytes:
    runs = _runs(data, rb"[0-9]")
    i = rng.choice(runs).start() if runs else _spot(rng, data)
    return data[:i] + rng.choice(DIGITS).encode() + data[i + 1:]


def insert_key(rng: random.Random, data: bytes) -> bytes:
    """A key the object does not have, or one it has, given twice (JSON); an unknown
    field or line (text)."""
    braces = _runs(data, rb"\{")
    if not braces:
        return data.rstrip(b"\n") + rng.choice([b" bogus=1", b" n=3", b"\nbogus line\n"])
    i = rng.choice(braces).end()
    first = re.compile(rb'\s*("[^"]*")\s*:').match(data, i)
    key = first.group(1) if first and rng.random() < 0.5 else b'"bogus"'
    return data[:i] + key + b": 0, " + data[i:]


def bom(rng: random.Random, data: bytes) -> bytes:
    return BOM + data if rng.random() < 0.8 else data[:_spot(rng, data)] + BOM + data


def deep(rng: random.Random, data: bytes) -> bytes:
    n = rng.choice([17, 40, 1000, 100_000])
    nest = b"[" * n + b"]" * n
    colons = _runs(data, rb":\s*")
    i = rng.choice(colons).end() if colons else _spot(rng, data)
    return data[:i] + nest + (b", " if colons else b"") + data[i:]


def long_line(rng: random.Random, data: bytes) -> bytes:
    size = rng.choice([100, 5000, 60_000, 70_000, 300_000])
    i = _spot(rng, data)
    return data[:i] + rng.choice([b"x", b"9", b"Y", b"/", b"\""]) * size + data[i:]


def not_a_number(rng: random.Random, data: bytes) -> bytes:
    runs = _runs(data, rb"-?[0-9]+")
    word = rng.choice([b"NaN", b"Infinity", b"-Infinity", b"1e999", b"nan", b"1.5"])
    if not runs:
        return data + word
    m = rng.choice(runs)
    return data[:m.start()] + word + data[m.end():]


def swap_type(rng: random.Random, data: bytes) -> bytes:
    """A JSON value (after a ':' or in a list) replaced by one of another type."""
    spots = _runs(data, rb'(?<=[:\[,])\s*("[^"]*"|-?[0-9]+|true|false|null)')
    other = rng.choice([b"[]", b"{}", b'"x"', b"null", b"true", b"0", b"[1, 2]", b'{"a": 1}'])
    if not spots:
        return data + other
    m = rng.choice(spots)
    return data[:m.start(1)] + other + data[m.end(1):]


def stray(rng: random.Random, data: bytes) -> bytes:
    i = _spot(rng, data)
    return data[:i] + rng.choice([b"\n", b"\0", b"\r", b"#", b"\t", b"\xff", b" "]) + data[i:]


MUTATIONS = {f.__name__: f for f in (flip, truncate, duplicate, huge_number, unicode_digit,
                                     insert_key, bom, deep, long_line, not_a_number,
                                     swap_type, stray)}


def mutate(rng: random.Random, data: bytes) -> tuple[bytes, tuple[str, ...]]:
    """``data`` after one to three random mutations, and their names."""
    names = tuple(rng.choice(sorted(MUTATIONS)) for _ in range(rng.randint(1, 3)))
    for name in names:
        data = MUTATIONS[name](rng, data)
    return data, names


# --------------------------------------------------------------------------- running


@dataclass(frozen=True)
class Outcome:
    code: int | None  # exit code; None if an exception escaped main()
    out: str
    err: str
    tb: str = ""


def run_cli(args: list[str], stdin: bytes = b"") -> Outcome:
    """``oddsbot ARGS`` in this process (``cli.main``), stdin given as bytes."""
    from oddsbot.analyser import cli

    out, err = io.StringIO(), io.StringIO()
    stream = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    code: int | None = 0
    tb = ""
    with mock.patch.object(sys, "argv", ["oddsbot", *args]), \
            mock.patch.object(sys, "stdin", stream), redirect_stdout(out), redirect_stderr(err):
        try:
            cli.main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:  # noqa: BLE001 - a traceback the user would see
            code, tb = None, traceback.format_exc()
    return Outcome(code, out.getvalue(), err.getvalue(), tb)


def outcome_class(run: Outcome) -> str:
    """``ok`` (exit 0), ``refused`` (exit 2, nothing on stdout, one short error line) or
    the fault: ``traceback``, ``exit N``, ``stdout on error``, ``not one line``,
    ``long message``."""
    if run.code is None or "Traceback" in run.err:
        return "traceback"
    if run.code == 0:
        return "ok"
    if run.code != 2:
        return f"exit {run.code}"
    if run.out:
        return "stdout on error"
    lines = run.err.splitlines()
    if len(lines) != 1 or not lines[0].startswith("oddsbot: error: "):
        return "not one line"
    return "long message" if len(lines[0]) > MESSAGE_LIMIT else "refused"


def commands(kind: str) -> list[list[str]]:
    """The commands a case of ``kind`` is given to: validation first; a position that
    passes it is also given to ``odds`` (which encodes it for the kernels)."""
    if kind == "record":
        return [["replay", "{}", "--samples", SAMPLES]]
    return [["validate", "{}"], ["odds", "{}", "--samples", SAMPLES]]


def arguments(command: list[str], channel: str, path: Path, data: bytes
              ) -> tuple[list[str], bytes]:
    """``command`` (``{}`` for the input) given ``data`` by ``channel``: ``file`` (at
    ``path``), ``stdin`` or ``inline`` (the argument itself, NUL bytes dropped as argv
    cannot hold them); the arguments and the bytes for stdin."""
    if channel == "file":
        return [a.replace("{}", str(path)) for a in command], b""
    if channel == "stdin":
        return [a.replace("{}", "-") for a in command], data
    inline = data.replace(b"\0", b"").decode("utf-8", "surrogateescape")
    return [inline if a == "{}" else a for a in command], b""


def run_case(kind: str, data: bytes, channel: str, folder: Path) -> tuple[str, Outcome]:
    """Give ``data`` to every command of ``kind`` through ``channel`` (``arguments``) until
    one does not answer; the outcome's class and the last run. A file given must be left
    unchanged (class ``input changed`` otherwise)."""
    path = folder / ("case.record" if kind == "record" else "case.txt")
    path.write_bytes(data)
    run = Outcome(0, "", "")
    for command in commands(kind):
        run = run_cli(*arguments(command, channel, path, data))
        found = outcome_class(run)
        if path.read_bytes() != data:
            return "input changed", run
        if found != "ok":
            return found, run
    return "ok", run
