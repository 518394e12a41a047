"""The documentation's console examples print what the documents show.

Every ``$ oddsbot ...`` line of a ```` ```console ```` block in ``README.md`` and
``docs/**/*.md`` is one test case, named ``<document>:<line>``: the command runs
in-process (as the suite's other CLI tests; ``curl`` commands ask a served ``oddsbot
serve``) from the repository root, with a fixed environment (``COLUMNS=100``, ``LINES=50``,
``TERM=dumb``, ``NO_COLOR=1``; colour-forcing variables removed; ``PYTHONIOENCODING=utf-8``
and ``PYTHONHASHSEED=0`` apply to a process: ``python tests/common/docs_blocks.py`` runs
each example as the installed console script with them), and its stdout (followed by its
stderr when it exits non-zero) must equal the lines shown
below it, up to the next ``$`` line or the end of the block: exactly, numbers included,
ignoring only trailing whitespace and trailing blank lines. ``tests/common/docs_blocks.py``
holds the parser and the runner and describes the rules in full.

When an output changes on purpose, regenerate the documents' outputs and review the diff:

    python tests/common/docs_blocks.py --write
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs_blocks  # noqa: E402  (beside this file)

COMMANDS = docs_blocks.collect()


def test_the_readme_has_console_examples():
    assert any(c.doc.name == "README.md" for c in COMMANDS)


def test_the_docstrings_state_the_environment_applied():
    for doc in (__doc__, docs_blocks.__doc__):
        for name, value in docs_blocks.ENV_SET.items():
            assert f"{name}={value}" in doc
    for name in docs_blocks.ENV_UNSET:
        assert name in docs_blocks.__doc__


@pytest.fixture
def in_process(oddsbot_cli, monkeypatch):
    """``docs_blocks``' runner of ``oddsbot`` commands, in this process: its folder and
    environment applied here."""
    monkeypatch.chdir(docs_blocks.ROOT)
    for name in docs_blocks.ENV_UNSET:
        monkeypatch.delenv(name, raising=False)
    for name, value in docs_blocks.ENV_SET.items():
        monkeypatch.setenv(name, value)

    def run(argv: list[str]) -> tuple[int, str, str]:
        done = oddsbot_cli(*argv[1:])
        assert done.exc is None, done.tb
        return done.code, done.out, done.err

    return run


@pytest.mark.parametrize("command", COMMANDS, ids=[c.id for c in COMMANDS])
def test_console_example(command, in_process):
    actual = docs_blocks.run(command, in_process)
    assert actual == docs_blocks.shown(command), (
        f"{command.id}: `{command.text}` prints something else than the document shows; "
        f"if the change is intended, run `python tests/common/docs_blocks.py --write`\n"
        + docs_blocks.diff(command, actual))


SAMPLE = """# Title

```console
$ oddsbot games
old line 1
old line 2

$ oddsbot advise x.json \\
    --seed 1
$ printf 'x' | oddsbot replay -
piped output stays
```

```sh
$ oddsbot not-run
```

1. In a list:

   ~~~console
   $ oddsbot odds y.json --seed 2
   indented output
   ~~~
"""


def test_parser_finds_oddsbot_commands_of_console_blocks_only(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text(SAMPLE, encoding="utf-8")
    found = docs_blocks.commands(doc)
    assert [(c.line, c.text, c.shown) for c in found] == [
        (4, "oddsbot games", ("old line 1", "old line 2")),
        (8, "oddsbot advise x.json --seed 1", ()),
        (21, "oddsbot odds y.json --seed 2", ("indented output",)),
    ]


def test_write_replaces_only_output_lines(tmp_path, monkeypatch):
    doc = tmp_path / "doc.md"
    doc.write_text(SAMPLE, encoding="utf-8")
    printed = {"oddsbot games": "new 1\n\tnew 2", "oddsbot advise x.json --seed 1": "a",
               "oddsbot odds y.json --seed 2": "indented output"}
    monkeypatch.setattr(docs_blocks, "run", lambda c: printed[c.text])
    assert docs_blocks.write(doc, verbose=False) == 2
    expected = (SAMPLE.replace("old line 1\nold line 2\n", "new 1\n\tnew 2\n")
                .replace("    --seed 1\n", "    --seed 1\na\n"))
    assert doc.read_text(encoding="utf-8") == expected
    assert docs_blocks.write(doc, verbose=False) == 0
