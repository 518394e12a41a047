"""Designer reports: whole games per variant, written to a report folder."""

from __future__ import annotations

from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Iterator, Optional

import typer
from rich.progress import (
    BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn,
    TimeRemainingColumn,
)

from ...errors import Interrupted, OddsbotError
from ...outputs import WriteError, make_folder
from .. import registry
from .common import (
    app, check_positive, choices, err, first_run, guarded, read_rules, rule_option, seed_option,
)

RawFormat = choices("RawFormat", ("parquet", "csv"))  # = reports.batch.RAW_FORMATS (tested)
MAX_GAMES = 10_000_000  # = reports.spec.MAX_GAMES (tested); not imported: numba loads late


def _split(values: Optional[list[str]]) -> tuple[str, ...]:
    """Repeated and comma-separated option values as one tuple (blanks dropped)."""
    return tuple(v.strip() for value in values or () for v in value.split(",") if v.strip())


@contextmanager
def games_progress() -> Iterator:
    """A progress callback ``(done, planned, games/s)`` for report runs, on stderr (a
    terminal only; ``common.guarded``: a drawing fault never stops the run)."""
    if not err.is_terminal:
        yield None
        return
    with Progress(TextColumn("simulating"), BarColumn(), TaskProgressColumn(),
                  TextColumn("{task.fields[games]}"), TextColumn("{task.fields[rate]}"),
                  TimeElapsedColumn(), TimeRemainingColumn(),
                  console=err, transient=True) as bar:
        task = bar.add_task("simulating", total=None, games="", rate="")

        def update(done: int, planned: int, rate: float) -> None:
            bar.update(task, completed=done, total=planned, games=f"{done:,}/{planned:,} games",
                       rate=f"{rate:,.0f} games/s")

        yield guarded(update)


def _say_damaged(found: list[str]) -> None:
    """One line on stderr naming the damaged blocks a resumed run computes again."""
    if not found:
        return
    shown = ", ".join(found[:3]) + (f" and {len(found) - 3} more" if len(found) > 3 else "")
    err.print(f"oddsbot: recomputing {len(found)} damaged block"
              f"{'' if len(found) == 1 else 's'}: {shown}", markup=False, highlight=False,
              soft_wrap=True)


@app.command()
def report(
    game: Optional[str] = typer.Argument(None, help="Game id (see 'oddsbot games'); not "
                                                    "needed with --resume."),
    n_games: Optional[int] = typer.Option(None, "--games", help=f"Whole games per variant "
                                                                f"(at most {MAX_GAMES:,})."),
    players: Optional[int] = typer.Option(None, help="Players (default: 4)."),
    policies: Optional[list[str]] = typer.Option(
        None, "--policies", help="Policy of each seat, comma-separated, repeated over the "
                                 "seats (default: the game's default policy)."),
    variants: Optional[list[str]] = typer.Option(
        None, "--variant", help="Rules variant; repeat it or comma-separate to compare "
                                "variants side by side (default: the game itself)."),
    seed: Optional[int] = seed_option("Random seed (default: 0); the same seed gives the "
                                      "same games anywhere.", default=None),
    raw: Optional[RawFormat] = typer.Option(None, help="Raw per-game file (default: "
                                                       "parquet)."),
    out: Optional[Path] = typer.Option(None, help="New (or empty) folder for the report; "
                                                  "locked while the run works in it."),
    resume: Optional[Path] = typer.Option(None, help="Continue (or rebuild, or repair) the "
                                                     "run in this folder; --games may "
                                                     "change it."),
    scheduler: Optional[str] = typer.Option(None, help="Send the work to this Dask "
                                                       "scheduler, tcp://HOST:PORT."),
    workers: Optional[int] = typer.Option(None, help="Start a local Dask cluster of N "
                                                     "worker processes."),
    rule: Optional[list[str]] = rule_option(),
) -> None:
    """Simulate whole games per variant and write a designer report: report.html
    (self-contained), report.md, charts/, tables/ and the raw per-game file."""
    from ...reports import batch, designer, lock, runner
    from ...reports.spec import RunSpec

    if (out is None) == (resume is None):
        raise OddsbotError("--out: give a new folder with --out, or a run to continue with "
                           "--resume (not both)")
    if scheduler is not None and workers is not None:
        raise OddsbotError("--workers: a local cluster or --scheduler, not both")
    if scheduler is not None and not scheduler.startswith(("tcp://", "tls://")):
        raise OddsbotError(f"--scheduler: expected tcp://HOST:PORT, got {scheduler!r}")
    check_positive("--workers", workers)
    if n_games is not None and n_games > MAX_GAMES:  # before the general cap of options
        raise OddsbotError(f"--games: at most {MAX_GAMES:,} per variant (the report is "
                           f"built in memory), got {n_games:,}")
    check_positive("--games", n_games)
    check_positive("--players", players)
    if "search" in _split(policies):
        raise OddsbotError("--policies: search plays one decision at a time (about a second "
                           "each), too slow for a report's whole games in the kernel; "
                           "measure it with 'oddsbot arena GAME --policies "
                           "search,heuristic' (docs/strategies.md)")
    raw = None if raw is None else str(raw)
    game_spec = registry.spec(game) if game is not None else None
    chosen = tuple(dict.fromkeys(_split(variants)))  # each variant once, in order
    if game_spec is not None and game != game_spec.name:  # a variant id stands for its game
        if chosen:
            raise OddsbotError(f"game: {game} is a variant of {game_spec.name}; write "
                               f"'oddsbot report {game_spec.name} --variant ...'")
        chosen = (game,)
    if resume is not None:
        if rule:
            raise OddsbotError("--rule: a resumed run keeps the rule parameters it was "
                               "started with (its run.json)")
        state = batch.load_state(resume)
        have = RunSpec.from_json(state["spec"])
        faces = designer(have.game)
        given = {"game": game_spec.name if game_spec else None, "variants": chosen or None,
                 "players": players, "seed": seed, "raw": raw, "games": n_games,
                 "policies": (faces.seat_policies(_split(policies), players or have.players)
                              if policies else None)}
        spec, state = batch.resume(resume, given)  # refused before the cluster starts
        folder, option = resume, "--resume"
    else:
        if game_spec is None:
            raise OddsbotError("game: which game? (see 'oddsbot games'), e.g. 'oddsbot "
                               "report GAME --games 100000 --out DIR'")
        if n_games is None:
            raise OddsbotError("--games: how many games per variant?")
        faces = designer(game_spec.name)
        players = 4 if players is None else players
        faces.check_run(chosen or (game_spec.name,), players, _split(policies))
        rules = read_rules(game_spec, rule)
        if rules:  # the values read as a position's would be: one line if one is bad
            face = game_spec.load()
            face.with_rules(face.new_position(players, 0, game_spec.name), rules)
        spec = RunSpec(game_spec.name, chosen or (game_spec.name,), players,
                       faces.seat_policies(_split(policies), players), n_games,
                       0 if seed is None else seed, rules=tuple(rules.items()))
        batch.check_new(out)
        folder, option = out, "--out"
    # the folder is locked once the cluster is up, before anything is written, until the
    # report is written (reports/lock.py)
    try:
        with ExitStack() as locked:
            with first_run(registry.spec(spec.game), "report"), \
                    runner.dask_client(scheduler, workers) as client, \
                    games_progress() as progress:
                if resume is None:
                    make_folder(out)
                locked.enter_context(lock.held(folder, option))
                if resume is None:
                    state = batch.start(spec, out, raw or "parquet")
                else:  # read again under the lock: another run may have changed it
                    spec, state = batch.resume(resume, given)
                    _say_damaged(batch.recover(spec, resume, state))
                done = batch.simulate(spec, folder, state, client=client, progress=progress)
            written = batch.build(spec, folder, state)
    except KeyboardInterrupt:  # one line: what was kept and how to go on
        kept = (f"finished blocks are kept in {folder}/blocks; continue with: oddsbot "
                f"report --resume {folder}") if (folder / batch.RUN_FILE).exists() else \
            "nothing was written"
        raise Interrupted(f"interrupted; {kept}") from None
    except WriteError as exc:
        kept = (f"; finished blocks are kept, continue with: oddsbot report --resume {folder}"
                if (folder / batch.RUN_FILE).exists() else "")
        raise OddsbotError(f"{option}: {exc}{kept}") from None
    rate = f", {done.games_per_second:,.0f} games/s ({done.how})" if done.games else \
        " (no games left to simulate)"
    games = f"{spec.games:,} game{'' if spec.games == 1 else 's'}"
    err.print(f"report: {folder / 'report.html'} · {games} per variant{rate}",
              markup=False, highlight=False, soft_wrap=True)
    print("\n".join(str(p) for p in written if p.parent == folder))
