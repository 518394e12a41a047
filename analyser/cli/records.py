"""Game records: replay checks a record against the rules and annotates every turn."""

from __future__ import annotations

from pathlib import Path
from enum import Enum
from typing import Optional

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from ...errors import OddsbotError
from ...inputs import input_files, read_record_text
from .. import answers, registry, render
from ..face import Capability
from ..records_common import se_caption
from .common import (
    FORMAT_HELP, WIDE_HELP, Format, app, check_positive, check_wide, err,
    first_run, guarded, policy_choices, print_frame, read_rules,
    record_going_on, rule_option, seed_option, with_game_options,
)

RolloutPolicy = policy_choices("rollout_policies")


@app.command()
@with_game_options("replay")
def replay(
    record: str = typer.Argument(..., help="A game record: a file path, or '-' for stdin."),
    samples: int = typer.Option(20000, help="Monte Carlo samples per turn (for the actions "
                                            "valued by sampling)."),
    seed: int = seed_option("Random seed, the same for every turn."),
    rollouts: Optional[int] = typer.Option(None, help="Also value every action by N "
                                           "rollouts of the whole game (rollout equity)."),
    policy: Optional[RolloutPolicy] = typer.Option(
        None, help="Policy of every seat in rollouts (default: the game's first)."),
    fmt: Format = typer.Option("table", "--format", "-f", help=FORMAT_HELP),
    wide: bool = typer.Option(False, "--wide", help=WIDE_HELP),
    chart: Optional[str] = typer.Option(None, "--chart", help="Also chart the game turn by "
                                        "turn to this .png or .svg file (--samples per "
                                        "turn)."),
    position: bool = typer.Option(False, "--position", help="Print the position the record "
                                  "reaches instead of annotating it: notation, or JSON with "
                                  "-f json ('oddsbot advise RECORD' advises on it)."),
    rule: Optional[list[str]] = rule_option(),
    **game: Optional[Enum],
) -> None:
    """Check a game record against the rules and annotate every turn: the action taken,
    the best action by one-turn EV (and by rollout equity with --rollouts), what it lost.

    A record that stops before the end of the game goes on from where it stops: --position
    prints that position, and advise, odds, moves, validate and chart take the record in
    place of a position."""
    check_wide(wide, fmt)
    if position and fmt not in ("table", "json"):
        raise OddsbotError(f"--position: the notation (-f table) or -f json, not -f {fmt}")
    check_positive("--samples", samples)
    check_positive("--rollouts", rollouts)
    if chart is not None:
        from ...reports import figures

        figures.check_out(Path(chart), input_files(record), "--chart")
    text = read_record_text(record)
    spec = registry.spec_of_record(text)
    options = answers.replay_options(spec, game)
    if chart is not None:
        spec.require(Capability.REPLAY_CHART, "--chart")
    rollout_policy = answers.rollout_policy(spec, rollouts, policy)
    rules = read_rules(spec, rule)
    if position:
        _print_position(spec.load().record, text, rules, fmt)
        return
    # nothing is printed before the work is done: a refusal (of the record, an option the
    # game checks, the chart's file) is then the only line on stderr
    with first_run(spec, "replay"):  # the notice before a first run's compile
        run = _annotate(spec, text, rules, dict(samples=samples, seed=seed, rollouts=rollouts,
                                                policy=rollout_policy, options=options))
        if chart is not None:
            from ...reports import figures

            name = "stdin" if record == "-" else Path(record).name
            fig = spec.load_designer().replay_chart(run.steps, samples=samples, seed=seed,
                                                    title=f"record {name}")
            figures.save(fig, Path(chart), "--chart")
    steps, game_record = run.steps, run.record
    err.print(f"record OK: {len(steps)} turns · {game_record.status(steps)}", markup=False,
              highlight=False)
    if chart is not None:
        err.print(f"wrote {chart}: {len(steps)} turns", markup=False, highlight=False,
                  soft_wrap=True)
    if fmt == "json":
        print(render.to_json(answers.replay_json(run)))
        return
    print_frame(game_record.table_view(run.table, wide or fmt != "table"), fmt, wide,
                title=run.parsed.start.to_notation(),
                caption=game_record.caption(steps, run.lost, samples=samples, seed=seed,
                                            rollouts=rollouts) + se_caption(run.table))


def _print_position(game_record, text: str, rules: dict, fmt: str) -> None:
    """``replay --position``: the position after the record's last line (notation, or
    JSON), after the ``record OK`` line; refused in one line once the game is over."""
    steps = record_going_on(game_record, text, rules, "--position")
    err.print(f"record OK: {len(steps)} turns · {game_record.status(steps)}", markup=False,
              highlight=False)
    final = steps.final
    print(render.to_json(final.to_json()) if fmt == "json" else final.to_notation())


def _annotate(spec, text: str, rules: dict, annotate: dict) -> answers.Replay:
    """``answers.run_replay``, with a turns bar on a terminal (``guarded``)."""
    if not err.is_terminal:
        return answers.run_replay(spec, text, rules, **annotate)
    with Progress(TextColumn("annotating"), BarColumn(),
                  TextColumn("{task.completed}/{task.total} turns"), TimeElapsedColumn(),
                  console=err, transient=True) as bar:
        task = bar.add_task("annotating", total=None)
        return answers.run_replay(spec, text, rules, **annotate, progress=guarded(
            lambda i, n: bar.update(task, completed=i, total=n)))
