"""Hostile input, class by class, for every registered game (issue 13): each class of
fault the tester found has a test that tries every member of the class the seed corpus
offers (``hostile.corpus``), not one case.

1. numbers: every JSON number replaced by a huge, NaN or infinite one; every digit run
   of a notation or record by a huge number, a non-ASCII digit or a negative count;
2. size: endless stdin, devices, huge and sparse files, over-long lines, FIFOs with and
   without a writer, over-long inline text, a directory: all refused in one line, read
   in bounded memory, never a hang;
3. strict JSON: unknown and duplicate keys at every depth, named by their path; a
   byte-order mark read;
4. options: NaN and infinities refused for every float option of every command; options
   a game checks refused before any output;
5. messages: one line quoting at most ~80 characters of what the user gave.
"""

from __future__ import annotations

import inspect
import io
import json
import os
import re
import subprocess
import sys
import threading
import typing
from pathlib import Path

import pytest

import hostile
from checks import assert_bad_input
from oddsbot import inputs
from oddsbot.analyser import registry
from oddsbot.errors import QUOTE_LIMIT, quote
from oddsbot.strict import MAX_DEPTH

SEEDS = hostile.corpus()
POSITIONS = [s for s in SEEDS if s.kind == "position"]
JSON_SEEDS = [s for s in POSITIONS if s.data.lstrip().startswith(b"{")]
NOTATIONS = [s for s in POSITIONS if not s.data.lstrip().startswith(b"{")]
RECORDS = [s for s in SEEDS if s.kind == "record"]
NON_ASCII_DIGITS = hostile.DIGITS
SHORT = hostile.MESSAGE_LIMIT


def ids(seeds) -> list[str]:
    return [f"{s.game}:{s.kind}:{s.name}" for s in seeds]


def test_the_corpus_covers_every_game_and_kind():
    """A new game brings its own seeds: a new position in both forms at least."""
    for name in registry.specs():
        kinds = {(s.kind, s.data.lstrip()[:1] == b"{") for s in SEEDS if s.game == name}
        assert {("position", True), ("position", False)} <= kinds, name
    assert RECORDS, "no record seeds: replay is not fuzzed"


def _run(oddsbot_cli, tmp_path: Path, seed, data: bytes, *extra: str):
    """Validate (a position) or replay (a record) ``data`` from a file."""
    path = tmp_path / ("case.record" if seed.kind == "record" else "case.txt")
    path.write_bytes(data)
    command = ["replay", str(path), "--samples", hostile.SAMPLES] if seed.kind == "record" \
        else ["validate", str(path)]
    return oddsbot_cli(*command, *extra)


def _numbers(value, where=""):
    """(path, number) of every number in a JSON value, depth first."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _numbers(item, f"{where}.{key}" if where else key)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _numbers(item, f"{where}[{i}]")
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield where, value


def _objects(value, where=""):
    """(path, object) of every JSON object in a value, the whole value included."""
    if isinstance(value, dict):
        yield where, value
        for key, item in value.items():
            yield from _objects(item, f"{where}.{key}" if where else key)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _objects(item, f"{where}[{i}]")


MARK = "@@@"  # stands for the value under test while a JSON text is built


def _with_value(data, where: str, raw: str) -> str:
    """The JSON text of ``data`` with the number at ``where`` written as ``raw``."""
    def put(value, here):
        if here == where:
            return MARK
        if isinstance(value, dict):
            return {k: put(v, f"{here}.{k}" if here else k) for k, v in value.items()}
        if isinstance(value, list):
            return [put(v, f"{here}[{i}]") for i, v in enumerate(value)]
        return value
    return json.dumps(put(data, "")).replace(json.dumps(MARK), raw)


# --------------------------------------------------------------------------- 1. numbers

BAD_NUMBERS = ("9" * 5000, str(2**63), "NaN", "Infinity", "-Infinity", "1e999",
               "-" + "9" * 19)


NUMBERED = [s for s in JSON_SEEDS if any(_numbers(json.loads(s.data)))]


@pytest.mark.parametrize("seed", NUMBERED, ids=ids(NUMBERED))
def test_every_json_number_refuses_huge_nan_and_infinite_values(oddsbot_cli, tmp_path, seed):
    data = json.loads(seed.data)
    for i, (where, _) in enumerate(_numbers(data)):
        raw = BAD_NUMBERS[i % len(BAD_NUMBERS)]
        line = assert_bad_input(_run(oddsbot_cli, tmp_path, seed,
                                     _with_value(data, where, raw).encode()))
        assert f"error: {where}:" in line, (raw, line)
        assert len(line) <= SHORT


def _outside_comments(pattern: str, text: str) -> list[re.Match]:
    """Every match of ``pattern`` in ``text`` but those in a '#' comment."""
    return [m for m in re.finditer(pattern, text)
            if "#" not in text[text.rfind("\n", 0, m.start()) + 1:m.start()]]


def _digit_runs(text: str) -> list[re.Match]:
    return _outside_comments(r"[0-9]+", text)


WITH_DIGITS = [s for s in NOTATIONS + RECORDS if _digit_runs(s.data.decode())]


@pytest.mark.parametrize("seed", WITH_DIGITS, ids=ids(WITH_DIGITS))
def test_every_number_of_a_notation_or_record_refuses_huge_and_non_ascii_digits(
        oddsbot_cli, tmp_path, seed):
    """``int()`` takes '٣' and chokes on '²' and on 4,300 digits: every number written
    in a notation or record is ASCII digits, at most 18 of them."""
    text = seed.data.decode()
    for i, m in enumerate(_digit_runs(text)):
        for bad in ("9" * 5000, NON_ASCII_DIGITS[i % len(NON_ASCII_DIGITS)] * len(m[0])):
            mutated = text[:m.start()] + bad + text[m.end():]
            line = assert_bad_input(_run(oddsbot_cli, tmp_path, seed, mutated.encode()))
            assert len(line) <= SHORT, line


NEGATIVE_COUNTS = [  # (notation, field): a count per player or per cell, made negative
    ("camel-up BG/Y/RP/10/K/1/W BGYRPX n=4 to=0 pt=-1,1,0,0", "pt[0]"),
    ("camel-up BG/Y/RP/10/K/1/W BGYRPX n=4 to=0 money=3,-1,3,3", "money[1]"),
    ("camel-up BG/Y/RP/10/K/1/W BGYRPX n=4 to=0 bets=B-5,,,", "bets"),
]


@pytest.mark.parametrize("text, field", NEGATIVE_COUNTS)
def test_negative_counts_in_notation_are_refused(oddsbot_cli, text, field):
    """JSON refuses them; the notation must too (``pt=-1,1,0,0`` passed: the sum was
    right)."""
    assert_bad_input(oddsbot_cli("validate", text), field)


# --------------------------------------------------------------------------- 2. size


class _Endless(io.RawIOBase):
    """A stream that never ends, counting the bytes taken from it."""

    def __init__(self, line: bytes) -> None:
        self.line, self.taken = line, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = len(buffer)
        buffer[:n] = (self.line * (n // len(self.line) + 1))[:n]
        self.taken += n
        return n


def _main(monkeypatch, capsys, args, stdin) -> tuple[int, str, str]:
    from oddsbot.analyser import cli

    monkeypatch.setattr(sys, "argv", ["oddsbot", *args])
    monkeypatch.setattr(sys, "stdin", stdin)
    capsys.readouterr()
    with pytest.raises(SystemExit) as done:
        cli.main()
    out, err = capsys.readouterr()
    return done.value.code, out, err


@pytest.mark.parametrize("args, limit", [(["validate", "-"], inputs.POSITION_LIMIT),
                                         (["replay", "-"], inputs.RECORD_LIMIT)])
@pytest.mark.parametrize("line", [b"camel-up\n", b"\0", b"start camel-up x\n#"])
def test_endless_stdin_is_refused_after_the_limit(monkeypatch, capsys, args, limit, line):
    """``yes camel-up | oddsbot validate -`` grew to gigabytes: at most the limit and a
    read-ahead buffer are taken from the stream."""
    raw = _Endless(line)
    stdin = io.TextIOWrapper(io.BufferedReader(raw), encoding="utf-8")
    code, out, err = _main(monkeypatch, capsys, args, stdin)
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    assert "more than" in err and "stdin" in err
    assert raw.taken <= limit + 1 + io.DEFAULT_BUFFER_SIZE


@pytest.mark.parametrize("command", ["validate", "replay"])
def test_a_device_is_read_no_further_than_the_limit(oddsbot_cli, command):
    assert_bad_input(oddsbot_cli(command, "/dev/zero"), "/dev/zero", "more than")
    assert_bad_input(oddsbot_cli(command, "/dev/null"), "empty")


@pytest.mark.parametrize("command, limit", [("validate", inputs.POSITION_LIMIT),
                                            ("replay", inputs.RECORD_LIMIT)])
def test_a_file_over_the_limit_is_refused_by_its_size(oddsbot_cli, tmp_path, command, limit):
    """A 1 GiB file took 3.2 GB to refuse; a sparse one is refused from its size."""
    big = tmp_path / "big.json"
    with big.open("wb") as f:
        f.truncate(1 << 30)
    assert_bad_input(oddsbot_cli(command, str(big)), "big.json", "1 GiB")
    just = tmp_path / "just-over"
    just.write_bytes(b"\n" * (limit + 1))
    assert_bad_input(oddsbot_cli(command, str(just)), "just-over", f"{limit + 1:,} bytes",
                     "more than")


@pytest.mark.parametrize("seed, size", [(POSITIONS[0], inputs.LINE_LIMIT + 1),
                                        (RECORDS[0], inputs.LINE_LIMIT + 1),
                                        (RECORDS[0], 5 << 20)],
                         ids=["position", "record", "record, 5 MiB"])
def test_a_line_over_64_kib_is_refused_naming_it(oddsbot_cli, tmp_path, seed, size):
    """A 5 MB record line was echoed whole in the message."""
    text = seed.data.decode().rstrip("\n") + "\n" + "x" * size + "\n"
    line = assert_bad_input(_run(oddsbot_cli, tmp_path, seed, text.encode()),
                            f"line {text.count(chr(10))}", "64 KiB")
    assert len(line) <= SHORT


def test_a_directory_is_named_as_one(oddsbot_cli, tmp_path):
    for command in ("validate", "replay"):
        assert_bad_input(oddsbot_cli(command, str(tmp_path)), "is a directory")


def _fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("command", ["validate", "replay"])
def test_a_fifo_without_a_writer_is_refused_not_waited_for(oddsbot_cli, tmp_path,
                                                           monkeypatch, command):
    monkeypatch.setattr(inputs, "IDLE_SECONDS", 0.2)
    assert_bad_input(oddsbot_cli(command, str(_fifo(tmp_path))), "fifo", "nothing came",
                     "no writer")


@pytest.mark.parametrize("seed", POSITIONS[:1] + RECORDS[:1], ids=ids(POSITIONS[:1] + RECORDS[:1]))
def test_a_fifo_with_a_writer_is_read(oddsbot_cli, tmp_path, seed):
    """``oddsbot validate <(cat x)``: a pipe named as the input is read as it comes."""
    fifo = _fifo(tmp_path)
    writer = threading.Thread(target=fifo.write_bytes, args=(seed.data,))
    writer.start()
    got = oddsbot_cli(*(["replay", str(fifo), "--samples", hostile.SAMPLES]
                        if seed.kind == "record" else ["validate", str(fifo)]))
    writer.join()
    direct = _run(oddsbot_cli, tmp_path, seed, seed.data)
    assert (got.code, got.out) == (direct.code, direct.out), got.err


@pytest.mark.parametrize("text", [
    pytest.param("a" * 300 + "/b", id="a 300-byte first part"),
    pytest.param("camel-up " + "x/" * 2500, id="5000 bytes with slashes"),
    pytest.param("a " * 3000, id="6000 bytes"),
    pytest.param("x" * 256, id="one 256-byte name"),
    pytest.param("five-tribes\n" + "O8:/" * 100, id="a newline"),
])
@pytest.mark.parametrize("command", ["validate", "odds"])
def test_over_long_inline_text_is_never_probed_as_a_path(oddsbot_cli, command, text):
    """'File name too long' came from asking the system about inline text."""
    assert len(assert_bad_input(oddsbot_cli(command, text))) <= SHORT


# --------------------------------------------------------------------------- 3. strict JSON


@pytest.mark.parametrize("seed", JSON_SEEDS, ids=ids(JSON_SEEDS))
def test_unknown_keys_are_refused_at_every_depth(oddsbot_cli, tmp_path, seed):
    """Every object of the position gains a key it does not have: refused, named by
    the object's path (a mapping such as a track or goods names the key it cannot
    read)."""
    data = json.loads(seed.data)
    for where, obj in list(_objects(data)):
        obj["bogus"] = 1
        line = assert_bad_input(_run(oddsbot_cli, tmp_path, seed, json.dumps(data).encode()),
                                "bogus")
        assert f"error: {where}" in line, line
        del obj["bogus"]


@pytest.mark.parametrize("seed", JSON_SEEDS, ids=ids(JSON_SEEDS))
def test_duplicate_keys_are_refused_at_every_depth(oddsbot_cli, tmp_path, seed):
    """A key given twice kept its last value silently; now it is named."""
    data = json.loads(seed.data)
    for where, obj in list(_objects(data)):
        if not obj:
            continue
        key = next(iter(obj))
        text = _with_value(data, where, "{" + f"{json.dumps(key)}: null, "
                           + json.dumps(obj)[1:])
        here = f"{where}.{key}" if where else key
        line = assert_bad_input(_run(oddsbot_cli, tmp_path, seed, text.encode()),
                                "duplicate key")
        assert f"error: {here}: duplicate key" in line, line


def test_json_nested_too_deeply_is_refused(oddsbot_cli, tmp_path):
    seed = JSON_SEEDS[0]
    for depth in (MAX_DEPTH + 1, 100_000):
        text = seed.data.decode().replace("{", '{"x": ' + "[" * depth + "]" * depth + ", ", 1)
        assert_bad_input(_run(oddsbot_cli, tmp_path, seed, text.encode()), "nested")


@pytest.mark.parametrize("seed", SEEDS, ids=ids(SEEDS))
def test_a_byte_order_mark_is_read(oddsbot_cli, tmp_path, seed):
    """A UTF-8 BOM was refused as ``unknown game '\\ufeff{'``. A record is read to its
    last line and every step applied (``replay --position``: the position it reaches,
    or for a finished game the one line saying so), without the analysis of each turn,
    which reads nothing more of the file."""
    extra = ("--position",) if seed.kind == "record" else ()
    plain = _run(oddsbot_cli, tmp_path, seed, seed.data, *extra)
    marked = _run(oddsbot_cli, tmp_path, seed, hostile.BOM + seed.data, *extra)
    assert (marked.code, marked.out, marked.err) == (plain.code, plain.out, plain.err)


def test_text_that_is_not_utf8_is_refused(oddsbot_cli, tmp_path):
    for seed in (POSITIONS[0], RECORDS[0]):
        line = assert_bad_input(_run(oddsbot_cli, tmp_path, seed, b"\xff\xfe" + seed.data),
                                "not UTF-8", "0xff")
        assert len(line) <= SHORT


# --------------------------------------------------------------------------- 4. options


def _float_options() -> list[tuple[str, str]]:
    """(command, flag) of every float option of every command, from the signatures."""
    from oddsbot.analyser.cli import app

    found = []
    for command in app.registered_commands:
        fn = command.callback
        hints = typing.get_type_hints(fn)
        for name, param in inspect.signature(fn).parameters.items():
            if float in (hints.get(name), *typing.get_args(hints.get(name))):
                decls = getattr(param.default, "param_decls", None) or ()
                found.append((command.name or fn.__name__.replace("_", "-"),
                              next((d for d in decls if d.startswith("--")),
                                   "--" + name.replace("_", "-"))))
    return found


def _arguments(command: str, tmp_path: Path) -> list[str]:
    """Arguments that would be accepted, for ``command`` (an option under test aside)."""
    position = str(hostile.ROOT / "examples" / "camel-up-mid-leg.json")
    return {"chart": [position, "--out", str(tmp_path / "c.png")],
            "replay": [str(hostile.ROOT / "examples" / "camel-up-game-4p.record")],
            "report": ["camel-up", "--games", "10", "--out", str(tmp_path / "r")],
            "new": ["camel-up"],
            "arena": ["camel-up", "--policies", "heuristic,random", "--games", "12"]
            }.get(command, [position])


FLOAT_OPTIONS = _float_options()


def test_there_are_float_options_to_check():
    assert ("odds", "--target-se") in FLOAT_OPTIONS and ("advise", "--target-se") in FLOAT_OPTIONS


@pytest.mark.parametrize("command, flag", FLOAT_OPTIONS)
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN", "1e999"])
def test_no_float_option_takes_nan_or_infinity(oddsbot_cli, tmp_path, command, flag, value):
    """``--target-se nan`` ran to the 4M-sample cap."""
    assert_bad_input(oddsbot_cli(command, *_arguments(command, tmp_path), f"{flag}={value}"),
                     flag, "finite")


@pytest.mark.parametrize("command, flag", [("advise", "--samples"), ("odds", "--samples"),
                                           ("replay", "--samples"), ("advise", "--rollouts"),
                                           ("replay", "--rollouts"), ("advise", "--top")])
def test_counts_beyond_any_sense_are_refused(oddsbot_cli, tmp_path, command, flag):
    """``--samples 10**25`` ran for ever."""
    assert_bad_input(oddsbot_cli(command, *_arguments(command, tmp_path), flag, str(10**25)),
                     flag, "at most")


def test_replay_options_the_game_checks_are_refused_before_any_output(oddsbot_cli):
    """A result line came before the error: nothing is printed until the work is done."""
    record = str(hostile.ROOT / "examples" / "camel-up-game-4p.record")
    assert_bad_input(oddsbot_cli("replay", record, "--rollouts", "1", "--samples", "64"),
                     "rollouts")


# --------------------------------------------------------------------------- 5. messages


def test_quote_shows_at_most_the_limit():
    assert quote("abc") == "'abc'"
    long = "x" * 10_000 + "\n"
    assert quote(long).startswith(repr("x" * QUOTE_LIMIT)) and "10,001 characters" in quote(long)
    name = "y" * 500 + ".json"
    assert quote(name, tail=True) == f"…{name[-QUOTE_LIMIT:]!r} (505 characters)"
    assert "\n" not in quote("a\nb") and len(quote(list(range(10_000)))) < 2 * QUOTE_LIMIT
    assert len(quote({"k" * 1000: ["v" * 1000] * 100})) < 6 * QUOTE_LIMIT


@pytest.mark.parametrize("seed", SEEDS, ids=ids(SEEDS))
def test_a_long_bad_token_is_quoted_not_echoed(oddsbot_cli, tmp_path, seed):
    """Whatever a 60 KiB word replaces, the message quotes at most ~80 characters."""
    text = seed.data.decode()
    words = _outside_comments(r"[A-Za-z]+", text)
    for m in words[::max(1, len(words) // 12)]:
        mutated = text[:m.start()] + "Q" * 60_000 + text[m.end():]
        assert len(assert_bad_input(_run(oddsbot_cli, tmp_path, seed, mutated.encode()))) \
            <= SHORT


def test_a_long_option_value_is_quoted(oddsbot_cli):
    line = assert_bad_input(oddsbot_cli("validate", "x", "--format", "z" * 10_000), "--format")
    assert len(line) <= SHORT


# --------------------------------------------------------------------------- real processes


def _console(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    exe = os.path.join(os.path.dirname(sys.executable), "oddsbot")
    return subprocess.run([exe, *args], input=stdin, capture_output=True, timeout=300,
                          cwd=hostile.ROOT, check=False)


@pytest.mark.parametrize("args, stdin", [
    pytest.param(["validate", "-"], b"camel-up\n" * 200_000, id="yes camel-up | validate -"),
    pytest.param(["replay", "/dev/zero"], None, id="replay /dev/zero"),
    pytest.param(["validate", "camel-up R/YP/GB/\u00b2/W/K/1 BGYRPX n=4 to=0"], None,
                 id="a superscript digit"),
])
def test_console_script_refuses_in_one_line(args, stdin):
    done = _console(*args, stdin=stdin)
    assert done.returncode == 2 and done.stdout == b"", done.stderr[-2000:]
    assert len(done.stderr.decode().splitlines()) == 1, done.stderr[-2000:]


def test_console_script_reads_a_pipe_it_is_given():
    """``cat x | oddsbot validate -``: stdin however it comes."""
    path = hostile.ROOT / "examples" / "camel-up-mid-leg.json"
    done = _console("validate", "-", stdin=path.read_bytes())
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().startswith("camel-up ")
