"""``oddsbot arena``: policies play each other on paired deals in every seating, and the
table ranks them with 95 % intervals (docs/strategies.md)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Optional

import typer
from rich.progress import (
    BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn,
    TimeRemainingColumn,
)

from ...errors import Interrupted, OddsbotError
from .. import registry
from .common import (
    app, check_positive, choices, err, first_run, guarded, read_rules, rule_option,
    seed_option,
)
from .reports import _split

ArenaFormat = choices("ArenaFormat", ("table", "json", "csv", "markdown"))
MAX_ARENA_GAMES = 10_000_000
SHOWN_FORFEITS = 5  # forfeit lines on stderr; games.parquet (--out) has every one


@contextmanager
def games_progress() -> Iterator:
    """A progress callback ``(games done, games planned)`` on stderr (a terminal only)."""
    if not err.is_terminal:
        yield None
        return
    with Progress(TextColumn("playing"), BarColumn(), TaskProgressColumn(),
                  TextColumn("{task.fields[games]}"), TimeElapsedColumn(),
                  TimeRemainingColumn(), console=err, transient=True) as bar:
        task = bar.add_task("playing", total=None, games="")

        def update(done: int, planned: int) -> None:
            bar.update(task, completed=done, total=planned,
                       games=f"{done:,}/{planned:,} games")

        yield guarded(update)


def _say_forfeits(lines: list[str]) -> None:
    """One line on stderr per forfeit (the first few, then how many more)."""
    for line in lines[:SHOWN_FORFEITS]:
        err.print(f"oddsbot: forfeit: {line}", markup=False, highlight=False, soft_wrap=True)
    if len(lines) > SHOWN_FORFEITS:
        err.print(f"oddsbot: forfeit: {len(lines) - SHOWN_FORFEITS} more (the why column "
                  f"of games.parquet, with --out, has every one)", markup=False,
                  highlight=False, soft_wrap=True)


def _players(spec, variant: str, given: Optional[int], policies: int) -> int:
    """``--players``, or the fewest seats of ``variant`` that hold every policy (the
    designer's ``check_run`` says what a variant deals for)."""
    from ...reports import designer

    check = designer(spec.name).check_run
    if given is None:
        for players in range(max(policies, spec.players[0]), spec.players[1] + 1):
            try:
                check((variant,), players, ())
                return players
            except OddsbotError:
                continue
        given = spec.players[1]
    check((variant,), given, ())
    if policies > given:
        raise OddsbotError(f"--policies: {policies} policies for {given} seats")
    return given


def _variant(spec, given: Optional[str]) -> str:
    if given is None:
        return spec.name
    if given not in spec.variants:
        raise OddsbotError(f"--variant: unknown variant {given!r} of {spec.name} (known: "
                           f"{', '.join(spec.variants)})")
    return given


@app.command()
def arena(
    game: str = typer.Argument(..., help="Game id (see 'oddsbot games')."),
    policies: list[str] = typer.Option(
        ..., "--policies", help="The policies, comma-separated: the game's own (new "
                                "--play lists them), search (search@20ms: a budget of its "
                                "own), or your function package.module:function; "
                                "NAME=POLICY names one (a=heuristic,b=heuristic)."),
    n_games: int = typer.Option(1000, "--games", help="Games in all, rounded up to whole "
                                                      "deals (each deal is played in every "
                                                      "seating)."),
    players: Optional[int] = typer.Option(None, help="Players (default: one per policy, "
                                                     "within the game's range)."),
    variant: Optional[str] = typer.Option(None, help="Rules variant (see 'oddsbot games')."),
    seed: int = seed_option("Random seed; the same seed gives the same table anywhere."),
    rule: Optional[list[str]] = rule_option(),
    out: Optional[Path] = typer.Option(None, help="New (or empty) folder for games.parquet "
                                                  "(one row per seat of each game), "
                                                  "table.csv and table.json."),
    decision_budget: str = typer.Option("1s", help="The search player's budget per "
                                                   "decision: 20ms, 1s, or 2000p "
                                                   "(playouts, reproducible anywhere)."),
    decision_limit: float = typer.Option(10.0, help="Seconds a user's function may take "
                                                    "for one decision; past it the game "
                                                    "is its forfeit."),
    scheduler: Optional[str] = typer.Option(None, help="Send the work to this Dask "
                                                       "scheduler, tcp://HOST:PORT."),
    workers: Optional[int] = typer.Option(None, help="Start a local Dask cluster of N "
                                                     "worker processes."),
    fmt: ArenaFormat = typer.Option("table", "--format", "-f", help="Output format."),
    times: bool = typer.Option(True, "--times/--no-times", help="Show the decision times "
                                                               "(wall clock: they differ "
                                                               "from run to run)."),
) -> None:
    """Rank policies by playing them against each other: every deal in every seating, so
    the luck of the deal and the seat order fall on all alike; win rate, score and margin
    with 95 % intervals, a rating, and for two policies their paired difference."""
    from ...reports import runner
    from ...reports.arena import output
    from ...reports.arena.entrants import read_entrants
    from ...reports.arena.run import ArenaSpec, kernel_times, play, with_kernel_times

    spec = registry.spec(game)
    if game != spec.name:
        raise OddsbotError(f"game: {game} is a variant of {spec.name}; write 'oddsbot arena "
                           f"{spec.name} --variant {game} ...'")
    if scheduler is not None and workers is not None:
        raise OddsbotError("--workers: a local cluster or --scheduler, not both")
    if scheduler is not None and not scheduler.startswith(("tcp://", "tls://")):
        raise OddsbotError(f"--scheduler: expected tcp://HOST:PORT, got {scheduler!r}")
    check_positive("--workers", workers)
    check_positive("--games", n_games)
    check_positive("--decision-limit", decision_limit)
    if n_games > MAX_ARENA_GAMES:
        raise OddsbotError(f"--games: at most {MAX_ARENA_GAMES:,}, got {n_games:,}")
    entrants = read_entrants(_split(policies), spec.policies)
    variant_id = _variant(spec, variant)
    seats = _players(spec, variant_id, players, len(entrants))
    rules = read_rules(spec, rule)
    from ...analyser.search import read_budget

    read_budget(decision_budget)  # one line if malformed, before anything runs
    if any(not e.compiled for e in entrants):
        from ..face import Capability

        spec.require(Capability.SEATS, "--policies")
    if out is not None:
        from ...reports.batch import check_empty

        check_empty(out, "choose a new one")
    from ...reports.arena.lineups import seatings

    per_deal = len(seatings(len(entrants), seats))
    arena_spec = ArenaSpec(spec.name, variant_id, seats, entrants, -(-n_games // per_deal),
                           seed, tuple(rules.items()), decision_limit, decision_budget)
    if not arena_spec.in_kernel:  # load every user function now: one line if one fails
        from ...reports.arena.run import players_of

        players_of(arena_spec, spec.load())
    frames = []
    interrupted = False
    with first_run(spec, "report"), runner.dask_client(scheduler, workers) as client, \
            games_progress() as progress:
        try:
            for rows in play(arena_spec, client=client, progress=progress):
                frames.append(rows)
        except KeyboardInterrupt:
            interrupted = True
    seat_rows = output.complete(frames, arena_spec)
    _say_forfeits(output.forfeits(seat_rows))
    if seat_rows is None:
        if interrupted:
            raise Interrupted("interrupted before any deal was played in every seating; "
                              "nothing was written")
        raise OddsbotError("arena: no games were played")
    if arena_spec.in_kernel:
        seat_rows = with_kernel_times(seat_rows, kernel_times(arena_spec))
    result = output.result(arena_spec, seat_rows)
    if out is not None:
        output.write(out, seat_rows, result)
    output.show(result if times else output.without_times(result), str(fmt))
    if interrupted:
        kept = f"; written to {out}" if out is not None else ""
        raise Interrupted(f"interrupted: the table is of the {result['deals']:,} deals "
                          f"played in every seating{kept}")
