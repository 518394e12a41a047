"""Golden playthroughs of every registered game: a whole seeded game, byte for byte.

The games are those of ``oddsbot.analyser.registry.specs()``. The goldens of game ``G``
live in ``tests/<G with - as _>/golden/`` (``tests/camel_up/golden/``,
``tests/five_tribes/golden/``), one file per game record, named

    <variant>-<players>p-seed<seed>[-<policy>].txt     e.g. camel-up-2014-3p-seed3.txt

and each must equal ``face.play(players, seed, variant, policy)`` of the game's face,
``policy`` being the default policy of the face's ``simulate`` when the name has none.
Other files of a golden folder (``*.csv`` ...) are not game records and are left to the
game's own tests, as are each game's further checks of its goldens (the naive replays of
``tests/camel_up/test_golden.py`` and ``tests/five_tribes/test_golden.py``). A registered
game without any golden fails here.

Regenerate the goldens after a deliberate change of a game's rules or record format
(then review ``git diff``), or make a new one by naming an empty file as above:

    python tests/common/test_goldens.py --regenerate               # every game
    python tests/common/test_goldens.py --regenerate five-tribes   # one game
"""

from __future__ import annotations

import argparse
import inspect
import re
from pathlib import Path
from types import ModuleType

import pytest
from oddsbot.analyser.registry import game as face, specs

TESTS = Path(__file__).resolve().parents[1]
NAME = re.compile(r"(?P<variant>.+?)-(?P<players>\d+)p-seed(?P<seed>\d+)(?:-(?P<policy>.+))?")


def golden_folder(game: str) -> Path:
    return TESTS / game.replace("-", "_") / "golden"


def goldens(game: str) -> list[Path]:
    """The game record goldens of ``game``, by name."""
    return sorted(golden_folder(game).glob("*.txt"))


def play_args(module: ModuleType, path: Path) -> tuple[int, int, str, str]:
    """``(players, seed, variant, policy)`` of a golden, from its file name."""
    m = NAME.fullmatch(path.stem)
    assert m, f"{path.name}: not <variant>-<players>p-seed<seed>[-<policy>].txt"
    known = ", ".join(module.VARIANTS)
    assert m["variant"] in module.VARIANTS, \
        f"{path.name}: {m['variant']!r} is no variant of {module.NAME} ({known})"
    policy = m["policy"] or inspect.signature(module.simulate).parameters["policy"].default
    return int(m["players"]), int(m["seed"]), m["variant"], policy


def record(module: ModuleType, path: Path) -> str:
    """The game record the golden ``path`` must hold, played now."""
    return module.play(*play_args(module, path))


def cases() -> list:
    out = []
    for game in specs():
        paths = goldens(game) or [None]  # None: a game without goldens, which fails
        out += [pytest.param(game, p, id=f"{game}/{p.stem if p else 'none'}") for p in paths]
    return out


@pytest.mark.parametrize("game,path", cases())
def test_golden_record_is_byte_identical(game, path):
    assert path is not None, f"{game}: no golden game record in {golden_folder(game)}"
    assert record(face(game), path) == path.read_text()


def regenerate(names: list[str]) -> None:
    registered = specs()
    unknown = sorted(set(names) - set(registered))
    if unknown:
        raise SystemExit(f"unknown game(s) {', '.join(unknown)} (known: {', '.join(registered)})")
    for game in names or registered:
        for path in goldens(game):
            text = record(face(game), path)
            changed = path.read_text() != text
            path.write_text(text)
            print(f"{'rewrote' if changed else 'unchanged'} {path.relative_to(TESTS.parent)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--regenerate", action="store_true", required=True,
                        help="play every golden's game again and write it to its file")
    parser.add_argument("games", nargs="*", help="game ids (default: every registered game)")
    regenerate(parser.parse_args().games)
