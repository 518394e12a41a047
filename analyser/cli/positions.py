"""Commands on one position: advise, odds, validate, moves; new positions, the games and
the shipped examples."""

from __future__ import annotations

import re
import sys
from enum import Enum
from typing import Optional

import typer

from ...inputs import EXAMPLES
from .. import answers, registry, render
from ..table import Table
from .helptext import SAMPLES_HELP, target_se_defaults
from .common import (
    FORMAT_HELP, POSITION_HELP, VARIANT_HELP, WIDE_HELP, Format, TextFormat, Variant, app, busy,
    check_policy, check_positive, check_wide, choices, err, first_run, load, policy_choices,
    policy_names,
    print_frame, progress_bar, rule_option, seed_option, with_game_options,
)

Play = choices("Play", policy_names("policies") + ("search",))
RolloutPolicy = policy_choices("rollout_policies")
NewFormat = choices("NewFormat", ("json", "notation"))


@app.command()
@with_game_options("advise")
def advise(
    position: str = typer.Argument(..., help=POSITION_HELP),
    samples: Optional[int] = typer.Option(None, help=SAMPLES_HELP),
    seed: int = seed_option("Random seed; the same seed gives the same numbers."),
    target_se: Optional[float] = typer.Option(
        None, "--target-se", help="Stop the Monte Carlo once every sampled probability "
        f"has at most this standard error, --samples at most ({target_se_defaults('advise')}"
        "; refused where the game samples nothing without --rollouts); with --rollouts, "
        "also stop the "
        "rollouts once the leading action is separated from the rest (every gap > 2.5 SE "
        "or its SE below this)."),
    rollouts: Optional[int] = typer.Option(None, help="Also play every action to the end "
                                           "of the game this many times (at most) and "
                                           "report win probability and final margin."),
    policy: Optional[RolloutPolicy] = typer.Option(
        None, help="Policy of every seat in rollouts (default: the game's first)."),
    candidates: Optional[int] = typer.Option(
        None, help="With --rollouts, roll out only the best K actions by ev (default: the "
                   "game's: every action in Camel Up, 12 turns in Five Tribes)."),
    variant: Optional[Variant] = typer.Option(None, help=VARIANT_HELP),
    top: Optional[int] = typer.Option(None, help="Show only the best K actions (in every "
                                       "format)."),
    fmt: Format = typer.Option("table", "--format", "-f", help=FORMAT_HELP),
    wide: bool = typer.Option(False, "--wide", help=WIDE_HELP),
    rule: Optional[list[str]] = rule_option(),
    search: Optional[str] = typer.Option(
        None, "--search", metavar="BUDGET", help="Also mark what the search player would "
        "choose with this budget (20ms, 1s, or 2000p playouts; docs/strategies.md §4)."),
    **game: Optional[Enum],
) -> None:
    """The EV table: every legal action of the player to move, best first.

    Columns: action, the action as the game writes it (docs/games/<game>.md); ev, what it
    is worth to the mover, in the game's unit (EP, VP), headed by what it measures where a
    game has two meanings (Kingdom Run: turn ev, final ev); se, the standard error of a
    sampled ev (empty when exact); gap, how far its ev falls short of the best action's;
    method (with --wide), how ev was found: exact, monte-carlo or a named model. The
    table fits 80 columns; --wide shows every column, as -f json and csv always do."""
    check_wide(wide, fmt)
    answers.check_advise_numbers(samples, target_se, top, rollouts, candidates)
    spec, face, pos = load(position, variant, rule)
    options = answers.advise_options(spec, game, target_se=target_se, rollouts=rollouts,
                                     policy=policy, candidates=candidates)
    kind = "advise --rollouts" if rollouts else "advise"
    budget = answers.search_budget(spec, search)
    with first_run(spec, kind), progress_bar(*(("rollouts", "rollouts") if rollouts
                                               else ("odds",))) as update:
        table = answers.run_advise(face, pos, samples=samples, seed=seed,
                                   target_se=target_se, options=options, progress=update)
    chosen = None
    if budget is not None:
        with busy(f"searching for {budget}"):
            chosen = answers.run_search(face, pos, budget, seed)
    if fmt == "json":
        print(render.to_json(answers.advise_json(spec, pos, table, top)
                             | ({"search": chosen} if chosen else {})))
        return
    if fmt != "table":  # an explicit --top applies to every format
        print_frame(answers.advise_shown(table, top), fmt)
        return
    top = top or spec.default_top
    caption = face.advise_caption(pos, table.provenance)
    caption += _tie_words(table, caption)
    if top and len(table) > top:
        caption += (f" · best {top} of {len(table):,} rows (--top K; every row with -f json/csv"
                    " and no --top)")
    view = face.table_view(table.head(top) if top else table, wide)
    if chosen is not None:
        caption += " · " + answers.search_line(chosen)
        view = view.with_columns({"search": ["◀" if a == chosen["action"] else None
                                             for a in view["action"]]})
    print_frame(view, fmt, wide, title=pos.to_notation(), caption=caption)


def _tie_words(table: Table, caption: str) -> str:
    """The caption's words on the rows tied at the best ev, unless the game's caption
    counts them already (its rollout candidates: ``12 rolled out of 65 turns tied at the
    best ev``)."""
    best = max(table["ev"], default=None)
    ties = sum(ev == best for ev in table["ev"])
    if ties < 2 or re.search(rf"\b{ties:,} \w+ tied at the best ev", caption):
        return ""
    return f" · {ties:,} rows tie at the best ev"


@app.command()
@with_game_options("odds")
def odds(
    position: str = typer.Argument(..., help=POSITION_HELP),
    samples: Optional[int] = typer.Option(None, help=SAMPLES_HELP),
    seed: int = seed_option("Random seed."),
    target_se: Optional[float] = typer.Option(
        None, "--target-se", help="Sample until every sampled probability has at most "
        f"this standard error, --samples at most ({target_se_defaults('odds')})."),
    variant: Optional[Variant] = typer.Option(None, help=VARIANT_HELP),
    fmt: Format = typer.Option("table", "--format", "-f", help=FORMAT_HELP),
    wide: bool = typer.Option(False, "--wide", help=WIDE_HELP),
    rule: Optional[list[str]] = rule_option(),
    **game: Optional[Enum],
) -> None:
    """The odds of the position: exact where the chance tree is small, Monte Carlo
    (with standard errors) otherwise. The columns are the game's own (below); the table
    fits 80 columns, --wide shows every column, as -f json and csv always do."""
    check_wide(wide, fmt)
    check_positive("--samples", samples)
    check_positive("--target-se", target_se)
    spec, face, pos = load(position, variant, rule)
    options = answers.odds_options(spec, game, target_se)
    with first_run(spec, "odds"), progress_bar("odds") as update:
        result = face.odds(pos, samples=samples, seed=seed, progress=update, **options)
    if fmt == "json":
        print(render.to_json(result))
        return
    table, caption = face.odds_view(result, wide=wide or fmt != "table",
                                    people=fmt in ("table", "markdown"))
    print_frame(table, fmt, wide, title=result["provenance"]["position"], caption=caption,
                digits=4)


@app.command()
def validate(
    position: str = typer.Argument(..., help=POSITION_HELP),
    variant: Optional[Variant] = typer.Option(None, help=VARIANT_HELP),
    fmt: TextFormat = typer.Option("table", "--format", "-f",
                                   help="table (the notation) or json."),
    rule: Optional[list[str]] = rule_option(),
) -> None:
    """Check a position; print its canonical notation (or JSON) if it is legal."""
    spec, face, pos = load(position, variant, rule)
    with first_run(spec, "validate"):
        face.validate(pos)
    if fmt == "json":
        print(render.to_json(pos.to_json()))
    else:
        print(pos.to_notation())
        err.print(f"valid {pos.variant} position, player "
                  f"{answers.player_name(spec, face, pos)} to move")


@app.command()
def moves(
    position: str = typer.Argument(..., help=POSITION_HELP),
    variant: Optional[Variant] = typer.Option(None, help=VARIANT_HELP),
    fmt: TextFormat = typer.Option("table", "--format", "-f",
                                   help="table (one action per line) or json."),
    rule: Optional[list[str]] = rule_option(),
) -> None:
    """The legal actions of the player to move."""
    spec, face, pos = load(position, variant, rule)
    with first_run(spec, "moves"):
        counts, labels = face.moves(pos)
    if fmt == "json":
        print(render.to_json(answers.moves_json(spec, face, pos)))
    else:
        if labels:
            print("\n".join(labels))
        err.print(face.counts_line(counts), markup=False, highlight=False)


@app.command()
@with_game_options("new")
def new(
    game: str = typer.Argument(..., help="Game id or variant (see 'oddsbot games')."),
    players: int = typer.Option(4, help="Number of players."),
    seed: int = seed_option("Random seed of the set-up."),
    variant: Optional[Variant] = typer.Option(None, help="Rules variant (see 'oddsbot "
                                                         "games')."),
    fmt: NewFormat = typer.Option("json", "--format", "-f", help=FORMAT_HELP),
    play: Optional[Play] = typer.Option(None, "--play", help="Play the start out with "
                                        "every seat following this policy and print the "
                                        "game record (see 'oddsbot replay')."),
    rule: Optional[list[str]] = rule_option(),
    decision_budget: str = typer.Option("1s", help="With --play search: its budget per "
                                                   "decision (20ms, 1s, or 2000p playouts; "
                                                   "docs/strategies.md §4)."),
    **options: Optional[Enum],
) -> None:
    """A random legal start position, per the game's set-up rules (with --play: a whole
    simulated game record).

    A start position is where the set-up leaves the game, before anyone has bid or played.
    To go on from there, write what was played as a game record after a 'start' line
    with this position: advise, odds and moves take the record and answer for the
    position after its last line (see 'oddsbot replay --position')."""
    spec = registry.spec(game)
    chosen = answers.new_variant(spec, game, variant)
    searching = play is not None and str(play) == "search"
    policy = None if searching else check_policy("--play", spec, spec.policies, play)
    setup = answers.new_setup(spec, options, rule)
    face = spec.load()
    if searching:
        budget = answers.play_budget(spec, setup, decision_budget)
        with first_run(spec, "new --play"), busy(f"playing a whole {chosen} game, every "
                                                 f"seat search ({budget} a decision)"):
            record = answers.searched_record(face, players, seed, chosen, budget,
                                             setup.get("rules", {}))
        sys.stdout.write(record)
        return
    if policy is not None:
        with first_run(spec, "new --play"), busy(f"playing a whole {chosen} game, every "
                                                 f"seat {policy}"):
            record = face.play(players, seed, chosen, policy, **setup)
        sys.stdout.write(record)
        return
    with first_run(spec, "new"):
        pos = face.new_position(players, seed, chosen, **setup)
    print(pos.to_notation() if fmt == "notation" else render.to_json(pos.to_json()))


@app.command()
def rules(
    game: str = typer.Argument(..., help="Game id, variant or alias (see 'oddsbot games')."),
    fmt: TextFormat = typer.Option("table", "--format", "-f",
                                   help="table (one parameter a row) or json."),
) -> None:
    """The rule parameters of a game: where the rules leave a detail open, the
    resolution oddsbot takes by default, and what else --rule NAME=VALUE may set."""
    spec = registry.spec(game)
    if fmt == "json":
        print(render.to_json(answers.rules_json(spec)))
        return
    if not spec.rules:
        err.print(f"{spec.name} has no rule parameters; its variants: 'oddsbot games'",
                  markup=False, highlight=False, soft_wrap=True)
        return
    import textwrap

    lines = textwrap.wrap(f"{spec.title} rule parameters ({spec.docs}); set one with --rule "
                          f"NAME=VALUE on any command, or in the position's \"rules\":", 78)
    lines.append("")
    for r in spec.rules:
        lines.append(f"{r.name}={r.default}")
        lines += textwrap.wrap(f"{r.meaning}; values: {r.values}", 78,
                               initial_indent="    ", subsequent_indent="    ")
    print("\n".join(lines))


@app.command()
def games() -> None:
    """The games and rules variants oddsbot knows."""
    for name, spec in registry.specs().items():
        for variant, description in spec.variants.items():
            print(f"{name}\t{variant}\t{description}")


@app.command()
def examples() -> None:
    """The example positions and game records shipped with oddsbot: one line each, name,
    game and kind. Any command reads 'examples/NAME' from these when no such file exists
    in the current folder (a file there wins); to edit one, copy it from the folder
    named on stderr."""
    for path in sorted(p for p in EXAMPLES.iterdir() if p.suffix in (".json", ".record")):
        text = path.read_text(encoding="utf-8")
        kind = "record" if registry.is_record(text) else "position"
        spec = (registry.spec_of_record if kind == "record" else registry.spec_of_text)(text)
        print(f"examples/{path.name}\t{spec.name}\t{kind}")
    err.print(f"shipped in {EXAMPLES.resolve()}", markup=False, highlight=False,
              soft_wrap=True)
