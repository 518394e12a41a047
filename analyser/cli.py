"""The ``oddsbot`` command: the roof over kernels, analyser and reports.

Data goes to stdout, messages and progress to stderr. Bad input of any kind prints one
line ``oddsbot: error: <what is wrong and where>`` on stderr and exits with code 2.
"""

from __future__ import annotations

import importlib.abc
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

import typer
from rich.console import Console
from rich.progress import (
    BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn,
    TimeRemainingColumn,
)

from . import registry, render
from ..errors import OddsbotError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Exact and Monte Carlo odds for board games: what is each action worth?")
err = Console(stderr=True)

POSITION_HELP = "A position: a file path, '-' for stdin, or the one-line notation inline."
FORMAT_HELP = "Output format: table, json, csv or markdown."
MAX_SEED = 2**64 - 1  # = kernels.rng.MAX_SEED; not imported: the CLI loads numba late


def read_position_text(source: str) -> str:
    """The text of POSITION: stdin for '-', a file's content, or the argument itself."""
    if source == "-":
        return sys.stdin.read()
    path = Path(source)
    if path.is_file():
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise OddsbotError(f"position: cannot read {source}: {exc}") from None
    if path.suffix.lower() == ".json" or (path.parent != Path(".") and not path.parent.is_dir()
                                          and " " not in source):
        raise OddsbotError(f"position: no such file {source}")
    return source


def load(source: str, variant: Optional[str]):
    """(game module, position) for POSITION, optionally read as rules ``variant``."""
    text = read_position_text(source)
    module = registry.game_of_text(text)
    if variant is None:
        return module, module.parse(text)
    if variant not in module.VARIANTS:
        raise OddsbotError(f"variant: {variant!r} is not a variant of {module.NAME} "
                           f"(known: {', '.join(module.VARIANTS)})")
    return module, module.parse_as(text, variant)


def check_format(fmt: str) -> str:
    if fmt not in render.FORMATS:
        raise OddsbotError(f"--format: {fmt!r} is not one of {', '.join(render.FORMATS)}")
    return fmt


def check_positive(name: str, value: Optional[float]) -> None:
    if value is not None and value <= 0:
        raise OddsbotError(f"{name}: must be greater than 0, got {value}")


@contextmanager
def progress_bar(label: str) -> Iterator:
    """A progress callback ``(done, planned)`` drawing on stderr; silent unless stderr is
    a terminal, so piped output and logs stay clean."""
    if not err.is_terminal:
        yield None
        return
    with Progress(TextColumn(label), BarColumn(), TextColumn("{task.completed:,} samples"),
                  TimeElapsedColumn(), console=err, transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, planned: int) -> None:
            bar.update(task, completed=done, total=planned)

        yield update


@app.command()
def advise(
    position: str = typer.Argument(..., help=POSITION_HELP),
    samples: Optional[int] = typer.Option(None, help="Monte Carlo samples (default: until "
                                                     "--target-se is reached)."),
    seed: int = typer.Option(0, min=0, max=MAX_SEED,
                             help="Random seed; the same seed gives the same numbers."),
    target_se: Optional[float] = typer.Option(
        None, "--target-se", help="Stop the race Monte Carlo once every race probability "
        "has at most this standard error (default 0.002); with --rollouts, also stop the "
        "rollouts once the leading action is separated from the rest (every gap > 2.5 SE "
        "or its SE below this)."),
    deck_model: str = typer.Option("uniform", "--deck-model", help="How hidden finish cards "
                                   "already on a deck are modelled: uniform, race, optimistic."),
    rollouts: Optional[int] = typer.Option(None, help="Also play every action to the end "
                                           "of the game this many times (at most) and "
                                           "report win probability and final margin."),
    policy: str = typer.Option("heuristic", help="Policy of every seat in rollouts: "
                               "heuristic or random."),
    hidden: str = typer.Option("uniform", help="Model of opponents' hidden finish cards in "
                               "rollouts: uniform or informed."),
    variant: Optional[str] = typer.Option(None, help="Read the position under this rules "
                                          "variant, e.g. camel-up-2014."),
    top: Optional[int] = typer.Option(None, help="Show only the best K actions in the table."),
    fmt: str = typer.Option("table", "--format", "-f", help=FORMAT_HELP),
) -> None:
    """The EV table: every legal action of the player to move, best first."""
    check_format(fmt)
    check_positive("--samples", samples)
    check_positive("--target-se", target_se)
    check_positive("--top", top)
    check_positive("--rollouts", rollouts)
    module, pos = load(position, variant)
    options = {}
    if rollouts is not None:
        options = {"rollouts": rollouts, "policy": policy, "rollout_target_se": target_se,
                   "hidden": hidden}
    with progress_bar("rollouts" if rollouts else "race odds") as update:
        df = module.advise(pos, samples=samples, seed=seed,
                           target_se=0.002 if target_se is None else target_se,
                           deck_model=deck_model, progress=update, **options)
    prov = df.attrs["provenance"]
    if fmt == "json":
        print(render.to_json({"game": module.NAME, "player": pos.to_move,
                              "actions": render.records(df), "provenance": prov}))
    elif fmt == "csv":
        sys.stdout.write(render.csv(df))
    elif fmt == "markdown":
        sys.stdout.write(render.markdown(df))
    else:
        top = top or getattr(module, "DEFAULT_TOP", None)
        shown = module.table_view(df.head(top) if top else df)
        caption = module.advise_caption(pos, prov)
        if top and len(df) > top:
            caption += f" · best {top} of {len(df):,} rows (--top K; every row with -f json/csv)"
        render.print_table(render.rich_table(shown, title=pos.to_notation(), caption=caption))


@app.command()
def odds(
    position: str = typer.Argument(..., help=POSITION_HELP),
    samples: Optional[int] = typer.Option(None, help="Race Monte Carlo samples."),
    seed: int = typer.Option(0, min=0, max=MAX_SEED,
                             help="Random seed."),
    target_se: float = typer.Option(0.002, "--target-se", help="Target standard error."),
    variant: Optional[str] = typer.Option(None, help="Rules variant, e.g. camel-up-2014."),
    fmt: str = typer.Option("table", "--format", "-f", help=FORMAT_HELP),
) -> None:
    """Leg odds (exact) and race odds (Monte Carlo, with standard errors)."""
    check_format(fmt)
    check_positive("--samples", samples)
    check_positive("--target-se", target_se)
    module, pos = load(position, variant)
    with progress_bar("race odds") as update:
        result = module.odds(pos, samples=samples, seed=seed, target_se=target_se,
                             progress=update)
    if fmt == "json":
        print(render.to_json(result))
        return
    df, caption = module.odds_view(result)
    if fmt == "csv":
        sys.stdout.write(render.csv(df))
    elif fmt == "markdown":
        sys.stdout.write(render.markdown(df))
    else:
        render.print_table(render.rich_table(df, title=result["provenance"]["position"],
                                             caption=caption, digits=4))


@app.command()
def validate(
    position: str = typer.Argument(..., help=POSITION_HELP),
    variant: Optional[str] = typer.Option(None, help="Rules variant."),
    fmt: str = typer.Option("table", "--format", "-f", help="table (notation) or json."),
) -> None:
    """Check a position; print its canonical notation (or JSON) if it is legal."""
    check_format(fmt)
    module, pos = load(position, variant)
    module.validate(pos)
    if fmt == "json":
        print(render.to_json(pos.to_json()))
    else:
        print(pos.to_notation())
        err.print(f"valid {pos.variant} position, player {pos.to_move} to move")


@app.command()
def moves(
    position: str = typer.Argument(..., help=POSITION_HELP),
    variant: Optional[str] = typer.Option(None, help="Rules variant."),
    fmt: str = typer.Option("table", "--format", "-f", help="table (one per line) or json."),
) -> None:
    """The legal actions of the player to move."""
    check_format(fmt)
    module, pos = load(position, variant)
    counts, labels = module.moves(pos)
    if fmt == "json":
        print(render.to_json({"game": module.NAME, "player": pos.to_move,
                              "counts": counts, "moves": labels}))
    else:
        if labels:
            print("\n".join(labels))
        err.print(" · ".join(f"{k} {v:,}" for k, v in counts.items()))


@app.command()
def new(
    game: str = typer.Argument(..., help="Game id, e.g. camel-up."),
    players: int = typer.Option(4, help="Number of players."),
    seed: int = typer.Option(0, min=0, max=MAX_SEED,
                             help="Random seed of the set-up."),
    variant: Optional[str] = typer.Option(None, help="Rules variant, e.g. camel-up-2014."),
    fmt: str = typer.Option("json", "--format", "-f", help="json or notation."),
    play: Optional[str] = typer.Option(None, "--play", help="Play the start out with every "
                                       "seat following this policy and print the game "
                                       "record (see 'oddsbot replay')."),
) -> None:
    """A random legal start position, per the game's set-up rules (with --play: a whole
    simulated game record)."""
    if fmt not in ("json", "notation"):
        raise OddsbotError(f"--format: {fmt!r} is not json or notation")
    module = registry.game(game)
    chosen = variant or (game if game in module.VARIANTS else module.NAME)
    if chosen not in module.VARIANTS:
        raise OddsbotError(f"variant: {chosen!r} is not a variant of {module.NAME}")
    if play is not None:
        sys.stdout.write(module.play(players, seed, chosen, play))
        return
    pos = module.new_position(players, seed, chosen)
    print(pos.to_notation() if fmt == "notation" else render.to_json(pos.to_json()))


def input_files(source: str) -> list[Path]:
    """POSITION or RECORD as a file an output must not overwrite (none for stdin or
    inline text)."""
    return [Path(source)] if source != "-" and Path(source).is_file() else []


@app.command()
def chart(
    position: str = typer.Argument(..., help=POSITION_HELP),
    out: str = typer.Option(..., "--out", help="Image to write: a .png or .svg file."),
    samples: Optional[int] = typer.Option(None, help="Race Monte Carlo samples (default: "
                                                     "until --target-se is reached)."),
    seed: int = typer.Option(0, min=0, max=MAX_SEED,
                             help="Random seed; the same seed gives the same chart."),
    target_se: float = typer.Option(0.002, "--target-se", help="Target standard error of "
                                    "the race odds."),
    variant: Optional[str] = typer.Option(None, help="Rules variant, e.g. camel-up-2014."),
) -> None:
    """Chart a position: each camel's leg places (exact) and race winner / loser odds
    (Monte Carlo, with error bars)."""
    from ..reports import designer, figures

    check_positive("--samples", samples)
    check_positive("--target-se", target_se)
    path = Path(out)
    fmt = figures.check_out(path, input_files(position), "--out")
    module, pos = load(position, variant)
    fig = designer(module.NAME).position_chart(pos, samples=samples, seed=seed,
                                               target_se=target_se)
    figures.save(fig, path)
    err.print(f"wrote {out} ({fmt.upper()}): leg and race odds of {pos.to_notation()}",
              markup=False, highlight=False, soft_wrap=True)


def read_record_text(source: str) -> str:
    """The text of RECORD: stdin for '-', else a file's content."""
    if source == "-":
        return sys.stdin.read()
    try:
        return Path(source).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise OddsbotError(f"record: no such file {source}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise OddsbotError(f"record: cannot read {source}: {exc}") from None


@app.command()
def replay(
    record: str = typer.Argument(..., help="A game record: a file path, or '-' for stdin."),
    samples: int = typer.Option(20000, help="Race Monte Carlo samples per turn (for the "
                                            "winner / loser rows)."),
    seed: int = typer.Option(0, min=0, max=MAX_SEED,
                             help="Random seed, the same for every turn."),
    rollouts: Optional[int] = typer.Option(None, help="Also value every action by N "
                                           "rollouts of the whole game (rollout equity)."),
    policy: Optional[str] = typer.Option(None, help="Policy of the rollouts."),
    deck_model: str = typer.Option("uniform", "--deck-model", help="Hidden finish cards "
                                   "model: uniform, race, optimistic."),
    fmt: str = typer.Option("table", "--format", "-f", help=FORMAT_HELP),
    chart: Optional[str] = typer.Option(None, "--chart", help="Also draw every camel's "
                                        "race-win probability turn by turn to this .png "
                                        "or .svg file (--samples races per turn)."),
) -> None:
    """Check a game record against the rules and annotate every turn: the action taken,
    the best action by one-turn EV (and by rollout equity with --rollouts), what it lost."""
    check_format(fmt)
    check_positive("--samples", samples)
    check_positive("--rollouts", rollouts)
    if chart is not None:
        from ..reports import designer, figures

        figures.check_out(Path(chart), input_files(record), "--chart")
    text = read_record_text(record)
    game = registry.game_of_record(text)
    if not hasattr(game, "record"):
        raise OddsbotError(f"replay: {game.NAME} records cannot be replayed yet")
    game_record = game.record
    if policy is not None:
        if rollouts is None:
            raise OddsbotError("--policy: only used with --rollouts")
        if policy not in game_record.policies():
            raise OddsbotError(f"--policy: unknown policy {policy!r} (known: "
                               f"{', '.join(game_record.policies())})")
    parsed, steps = game_record.load_record(text)
    done = f" · game over: winner {steps.winner}, loser {steps.loser}" if steps.over else \
        f" · game not over: p{steps.to_move} to move"
    err.print(f"record OK: {len(steps)} turns{done}", markup=False, highlight=False)
    if chart is not None:
        name = "stdin" if record == "-" else Path(record).name
        fig = designer(game.NAME).replay_chart(steps, samples=samples, seed=seed,
                                               title=f"record {name}")
        figures.save(fig, Path(chart))
        err.print(f"wrote {chart}: race-win probability over {len(steps)} turns",
                  markup=False, highlight=False, soft_wrap=True)
    if err.is_terminal:
        with Progress(TextColumn("annotating"), BarColumn(),
                      TextColumn("{task.completed}/{task.total} turns"), TimeElapsedColumn(),
                      console=err, transient=True) as bar:
            task = bar.add_task("annotating", total=len(steps))
            df = game_record.annotate(steps, samples=samples, seed=seed, deck_model=deck_model,
                                      rollouts=rollouts, policy=policy,
                                      progress=lambda i, n: bar.update(task, completed=i))
    else:
        df = game_record.annotate(steps, samples=samples, seed=seed, deck_model=deck_model,
                                  rollouts=rollouts, policy=policy)
    prov = dict(df.attrs["provenance"], start=parsed.start.to_notation())
    lost = game_record.ev_lost_by_player(df, parsed.start.players)
    result = ({"winner": steps.winner, "loser": steps.loser, "money": list(steps.money)}
              if steps.over else None)
    if fmt == "json":
        print(render.to_json({"game": "camel-up", "start": parsed.start.to_notation(),
                              "turns": render.records(df), "result": result,
                              "ev_lost": lost, "provenance": prov}))
    elif fmt == "csv":
        sys.stdout.write(render.csv(df))
    elif fmt == "markdown":
        sys.stdout.write(render.markdown(df))
    else:
        caption = (f"EV in EP, one turn, the mover's view · race MC {samples:,} samples, seed "
                   f"{seed}" + (f" · {rollouts:,} rollouts" if rollouts else "")
                   + " · EV lost: " + ", ".join(f"p{p} {x:.2f}" for p, x in enumerate(lost))
                   + (f" · winner {steps.winner}, loser {steps.loser}, money "
                      f"{','.join(map(str, steps.money))}" if steps.over else ""))
        render.print_table(render.rich_table(df, title=parsed.start.to_notation(),
                                             caption=caption))


def _split(values: Optional[list[str]]) -> tuple[str, ...]:
    """Repeated and comma-separated option values as one tuple (blanks dropped)."""
    return tuple(v.strip() for value in values or () for v in value.split(",") if v.strip())


@contextmanager
def games_progress() -> Iterator:
    """A progress callback ``(done, planned, games/s)`` for report runs, on stderr (a
    terminal only)."""
    if not err.is_terminal:
        yield None
        return
    with Progress(TextColumn("simulating"), BarColumn(), TaskProgressColumn(),
                  TextColumn("{task.completed:,}/{task.total:,} games"),
                  TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TimeRemainingColumn(),
                  console=err, transient=True) as bar:
        task = bar.add_task("simulating", total=None, rate="")

        def update(done: int, planned: int, rate: float) -> None:
            bar.update(task, completed=done, total=planned, rate=f"{rate:,.0f} games/s")

        yield update


@app.command()
def report(
    game: Optional[str] = typer.Argument(None, help="Game id (see 'oddsbot games'); not "
                                                    "needed with --resume."),
    n_games: Optional[int] = typer.Option(None, "--games", help="Whole games per variant."),
    players: Optional[int] = typer.Option(None, help="Players [default: 4]."),
    policies: Optional[list[str]] = typer.Option(
        None, "--policies", help="Policy of each seat, comma-separated, repeated over the "
                                 "seats [default: heuristic]."),
    variants: Optional[list[str]] = typer.Option(
        None, "--variant", help="Rules variant; repeat it or comma-separate to compare "
                                "variants side by side [default: the game itself]."),
    seed: Optional[int] = typer.Option(None, min=0, max=MAX_SEED,
                                        help="Random seed [default: 0]; the same seed "
                                                  "gives the same games anywhere."),
    raw: Optional[str] = typer.Option(None, help="Raw per-game file: parquet or csv "
                                                 "[default: parquet]."),
    out: Optional[Path] = typer.Option(None, help="New (or empty) folder for the report."),
    resume: Optional[Path] = typer.Option(None, help="Continue (or rebuild) the run in this "
                                                     "folder; --games may change it."),
    scheduler: Optional[str] = typer.Option(None, help="Send the work to this Dask "
                                                       "scheduler, tcp://HOST:PORT."),
    workers: Optional[int] = typer.Option(None, help="Start a local Dask cluster of N "
                                                     "worker processes."),
) -> None:
    """Simulate whole games per variant and write a designer report: report.html
    (self-contained), report.md, charts/, tables/ and the raw per-game file."""
    from ..reports import batch, designer, runner
    from ..reports.spec import RunSpec

    if (out is None) == (resume is None):
        raise OddsbotError("--out: give a new folder with --out, or a run to continue with "
                           "--resume (not both)")
    if scheduler is not None and workers is not None:
        raise OddsbotError("--workers: a local cluster or --scheduler, not both")
    if scheduler is not None and not scheduler.startswith(("tcp://", "tls://")):
        raise OddsbotError(f"--scheduler: expected tcp://HOST:PORT, got {scheduler!r}")
    check_positive("--workers", workers)
    check_positive("--games", n_games)
    check_positive("--players", players)
    if raw is not None and raw not in batch.RAW_FORMATS:
        raise OddsbotError(f"--raw: expected parquet or csv, got {raw!r}")
    module = registry.game(game) if game is not None else None
    chosen = tuple(dict.fromkeys(_split(variants)))  # each variant once, in order
    if module is not None and game != module.NAME:  # a variant id stands for its game
        if chosen:
            raise OddsbotError(f"game: {game} is a variant of {module.NAME}; write 'oddsbot "
                               f"report {module.NAME} --variant ...'")
        chosen = (game,)
    if resume is not None:
        state = batch.load_state(resume)
        have = RunSpec.from_json(state["spec"])
        faces = designer(have.game)
        given = {"game": module.NAME if module else None, "variants": chosen or None,
                 "players": players, "seed": seed, "raw": raw, "games": n_games,
                 "policies": (faces.seat_policies(_split(policies), players or have.players)
                              if policies else None)}
        spec, state = batch.resume(resume, given)
        folder = resume
    else:
        if module is None:
            raise OddsbotError("game: which game? e.g. 'oddsbot report camel-up --games "
                               "100000 --out DIR'")
        if n_games is None:
            raise OddsbotError("--games: how many games per variant?")
        faces = designer(module.NAME)
        players = 4 if players is None else players
        faces.check_run(chosen or (module.NAME,), players, _split(policies))
        spec = RunSpec(module.NAME, chosen or (module.NAME,), players,
                       faces.seat_policies(_split(policies), players), n_games,
                       0 if seed is None else seed)
        batch.check_new(out)
        folder = out
    try:  # the cluster is up before anything is written
        with runner.dask_client(scheduler, workers) as client, games_progress() as progress:
            if resume is None:
                state = batch.start(spec, out, raw or "parquet")
            done = batch.simulate(spec, folder, state, client=client, progress=progress)
    except KeyboardInterrupt:
        kept = (f"finished blocks are kept in {folder}/blocks. Continue with: oddsbot "
                f"report --resume {folder}") if (folder / batch.RUN_FILE).exists() else \
            "nothing was written"
        err.print(f"oddsbot: stopped; {kept}", markup=False, highlight=False, soft_wrap=True)
        raise
    written = batch.build(spec, folder, state)
    rate = f", {done.games_per_second:,.0f} games/s ({done.how})" if done.games else \
        " (no games left to simulate)"
    err.print(f"report: {folder / 'report.html'} · {spec.games:,} games per variant{rate}",
              markup=False, highlight=False, soft_wrap=True)
    print("\n".join(str(p) for p in written if p.parent == folder))


@app.command()
def games() -> None:
    """The games and rules variants oddsbot knows."""
    for name, module in registry.games().items():
        for variant, description in module.VARIANTS.items():
            print(f"{name}\t{variant}\t{description}")


class _NoScipy(importlib.abc.MetaPathFinder):
    """Refuses ``scipy`` imports while numba probes for BLAS (see ``skip_blas_probe``)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "scipy" or fullname.startswith("scipy."):
            raise ImportError("hidden from numba's BLAS probe")
        return None


def skip_blas_probe() -> None:
    """Save half a second of start-up: numba's first compile or cache load imports
    ``numba.np.arraymath``, which imports ``scipy.linalg`` only to check for BLAS. The
    kernels use no linear algebra, so the CLI lets that probe fail fast. Only the probe is
    affected (scipy imports normally afterwards); numba's ``np.dot`` and ``np.linalg``
    become unavailable to kernels in this process, which oddsbot does not use."""
    if "numba.np.arraymath" in sys.modules or "scipy" in sys.modules:
        return
    blocker = _NoScipy()
    sys.meta_path.insert(0, blocker)
    try:
        import numba.np.arraymath  # noqa: F401  (runs the probe now, without scipy)
    finally:
        sys.meta_path.remove(blocker)


def main() -> None:
    """Console entry point: bad input of any kind (a position, an option, a usage slip)
    becomes one line on stderr and exit code 2."""
    skip_blas_probe()
    if len(sys.argv) == 1:
        sys.argv.append("--help")
    try:
        code = app(standalone_mode=False)
    except OddsbotError as exc:
        _fail(str(exc), 2)
    except (KeyboardInterrupt, EOFError):
        _fail("interrupted", 130)
    except Exception as exc:
        # typer's usage errors (bad option value, missing argument) carry a message and
        # an exit code; anything else is a bug and keeps its traceback
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
            _fail(" ".join(exc.format_message().split()), exc.exit_code)
        if exc.__class__.__name__ == "Abort":
            _fail("interrupted", 130)
        raise
    if isinstance(code, int) and code:  # typer hands back Ctrl-C inside a command as 130
        sys.exit(code)


def console() -> None:
    """The ``oddsbot`` console script: ``main``, then flush and leave at once. Tearing down
    the interpreter (numba's thread pool, the large module graph) costs about 0.4 s that
    a finished command does not need; output is flushed first, so nothing is lost."""
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, ValueError):  # reader went away, or stream closed
            pass
    os._exit(code)


def _fail(message: str, code: int) -> None:
    err.print(f"oddsbot: error: {message}", markup=False, highlight=False, soft_wrap=True)
    sys.exit(code)


if __name__ == "__main__":
    main()
