"""Each command's ``--help`` text, composed from its docstring and the declarations: the
columns each game adds to the command's table and the example command lines the games
declare (``GameSpec.advise_columns``, ``odds_columns``, ``examples``), so the CLI names no
game. ``tests/common/test_help.py`` runs every example shown.
"""

from __future__ import annotations

from rich.markup import escape

from .. import registry

# examples of commands that concern no game
OWN_EXAMPLES = ("oddsbot games", "oddsbot examples", "oddsbot warm-up five-tribes",
                "oddsbot serve --port 0",
                "oddsbot arena camel-up --policies heuristic,random --games 600")
COLUMNS_OF = {"advise": "advise_columns", "odds": "odds_columns"}
SAMPLES_HELP = ("Monte Carlo samples: exactly this many, or with --target-se at most this "
                "many (default: see --target-se).")


def examples(command: str) -> list[str]:
    """The example command lines of ``command``: the CLI's own, then every game's."""
    lines = [*OWN_EXAMPLES, *(e for spec in registry.specs().values() for e in spec.examples)]
    return [line for line in lines if line.split()[1:2] == [command]]


def _columns(command: str) -> list[str]:
    """'Title · name: meaning' for every game's own columns of ``command``'s table."""
    field = COLUMNS_OF.get(command)
    if field is None:
        return []
    return [f"{spec.title} · {name}: {meaning}."
            for spec in registry.specs().values()
            for name, meaning in getattr(spec, field).items()]


def _notes(command: str) -> list[str]:
    """'Title: note' for every game's note on ``command`` (``new``: where a deal starts)."""
    if command != "new":
        return []
    return [f"{spec.title}: {spec.new_note}" for spec in registry.specs().values()
            if spec.new_note]


def overview(summary: str) -> str:
    """``oddsbot --help``'s text: the summary, then the first example of every game."""
    first = [spec.examples[0] for spec in registry.specs().values() if spec.examples]
    lines = [*OWN_EXAMPLES, *first, "oddsbot advise --help"]
    return escape(summary + "\n\nExamples:\n" + "\n".join(f"  {line}" for line in lines))


def compose(command: str, doc: str) -> str:
    """The help text of ``command``: its docstring's paragraphs, each on one line (the
    terminal wraps them), then the games' columns or notes and the examples, one per
    line."""
    parts = [" ".join(p.split()) for p in doc.split("\n\n") if p.strip()]
    for lines in (_columns(command), _notes(command)):
        if lines:
            parts.append("\n".join(lines))
    shown = examples(command)
    if shown:
        parts.append("Examples:\n" + "\n".join(f"  {line}" for line in shown))
    return escape("\n\n".join(parts))


def target_se_defaults(command: str) -> str:
    """``--target-se``'s default for ``command``, game by game, from the declarations."""
    specs = [registry.spec(name) for name in registry.specs()]
    given = [f"{s.title} {s.target_se[command]:g}" for s in specs if command in s.target_se]
    fixed = [s.title for s in specs if command not in s.target_se]
    return (f"default: the game's: {', '.join(given) or 'none'}"
            + (f"; {', '.join(fixed)}: a fixed number of samples" if fixed else ""))
