"""Commands on one position: advise, odds, validate, moves; new positions and games."""

from __future__ import annotations

import sys
from enum import Enum
from typing import Optional

import typer

from ...errors import OddsbotError
from .. import registry, render
from ..face import Capability
from .common import (
    FORMAT_HELP, POSITION_HELP, VARIANT_HELP, app, busy, check_format, check_positive, err,
    game_options, load, print_frame, progress_bar, seed_option, with_game_options,
)


@app.command()
@with_game_options("advise")
def advise(
    position: str = typer.Argument(..., help=POSITION_HELP),
    samples: Optional[int] = typer.Option(None, help="Monte Carlo samples (default: until "
                                                     "--target-se is reached)."),
    seed: int = seed_option("Random seed; the same seed gives the same numbers."),
    target_se: Optional[float] = typer.Option(
        None, "--target-se", help="Stop the Monte Carlo once every sampled probability "
        "has at most this standard error (default 0.002); with --rollouts, also stop the "
        "rollouts once the leading action is separated from the rest (every gap > 2.5 SE "
        "or its SE below this)."),
    rollouts: Optional[int] = typer.Option(None, help="Also play every action to the end "
                                           "of the game this many times (at most) and "
                                           "report win probability and final margin."),
    policy: Optional[str] = typer.Option(None, help="Policy of every seat in rollouts "
                                         "(the game's policies; default: its rollout "
                                         "policy)."),
    variant: Optional[str] = typer.Option(None, help=VARIANT_HELP),
    top: Optional[int] = typer.Option(None, help="Show only the best K actions (in every "
                                       "format)."),
    fmt: str = typer.Option("table", "--format", "-f", help=FORMAT_HELP),
    **game: Optional[Enum],
) -> None:
    """The EV table: every legal action of the player to move, best first.

    Columns: ev, the action's value to the mover (in the game's unit: EP, VP); se, its standard error (empty
    when exact); method, how it was found (exact, monte-carlo, or a named model); gap, how
    far it falls short of the best action. Each game's own columns: docs/games/<game>.md.

    Example: oddsbot advise examples/camel-up-start-4p.json --top 10 --seed 1"""
    check_format(fmt)
    check_positive("--samples", samples)
    check_positive("--target-se", target_se)
    check_positive("--top", top)
    check_positive("--rollouts", rollouts)
    spec, face, pos = load(position, variant)
    options = game_options(spec, "advise", game)
    if rollouts is not None:
        spec.require(Capability.ROLLOUTS, "--rollouts")
        options.update(rollouts=rollouts, rollout_target_se=target_se)
        if policy is not None:
            options["policy"] = policy
    elif policy is not None:
        raise OddsbotError("--policy: only used with --rollouts")
    with progress_bar("rollouts" if rollouts else "odds") as update:
        df = face.advise(pos, samples=samples, seed=seed,
                         target_se=0.002 if target_se is None else target_se,
                         progress=update, **options)
    prov = df.attrs["provenance"]
    shown = df.head(top) if top else df  # an explicit --top applies to every format
    if fmt == "json":
        print(render.to_json({"game": spec.name, "player": pos.to_move,
                              "actions": render.records(shown), "provenance": prov}))
        return
    if fmt != "table":
        print_frame(shown, fmt)
        return
    top = top or spec.default_top
    caption = face.advise_caption(pos, prov)
    if top and len(df) > top:
        caption += (f" · best {top} of {len(df):,} rows (--top K; every row with -f json/csv"
                    " and no --top)")
    print_frame(face.table_view(df.head(top) if top else df), fmt, title=pos.to_notation(),
                caption=caption)


@app.command()
def odds(
    position: str = typer.Argument(..., help=POSITION_HELP),
    samples: Optional[int] = typer.Option(None, help="Monte Carlo samples (default: until "
                                                     "--target-se is reached)."),
    seed: int = seed_option("Random seed."),
    target_se: float = typer.Option(0.002, "--target-se", help="Target standard error."),
    variant: Optional[str] = typer.Option(None, help=VARIANT_HELP),
    fmt: str = typer.Option("table", "--format", "-f", help=FORMAT_HELP),
) -> None:
    """The odds of the position: exact where the chance tree is small, Monte Carlo
    (with standard errors) otherwise."""
    check_format(fmt)
    check_positive("--samples", samples)
    check_positive("--target-se", target_se)
    spec, face, pos = load(position, variant)
    with progress_bar("odds") as update:
        result = face.odds(pos, samples=samples, seed=seed, target_se=target_se,
                           progress=update)
    if fmt == "json":
        print(render.to_json(result))
        return
    df, caption = face.odds_view(result)
    print_frame(df, fmt, title=result["provenance"]["position"], caption=caption, digits=4)


@app.command()
def validate(
    position: str = typer.Argument(..., help=POSITION_HELP),
    variant: Optional[str] = typer.Option(None, help=VARIANT_HELP),
    fmt: str = typer.Option("table", "--format", "-f", help="table (notation) or json."),
) -> None:
    """Check a position; print its canonical notation (or JSON) if it is legal."""
    check_format(fmt, ("table", "json"))
    spec, face, pos = load(position, variant)
    face.validate(pos)
    if fmt == "json":
        print(render.to_json(pos.to_json()))
    else:
        print(pos.to_notation())
        err.print(f"valid {pos.variant} position, player {pos.to_move} to move")


@app.command()
def moves(
    position: str = typer.Argument(..., help=POSITION_HELP),
    variant: Optional[str] = typer.Option(None, help=VARIANT_HELP),
    fmt: str = typer.Option("table", "--format", "-f", help="table (one per line) or json."),
) -> None:
    """The legal actions of the player to move."""
    check_format(fmt, ("table", "json"))
    spec, face, pos = load(position, variant)
    counts, labels = face.moves(pos)
    if fmt == "json":
        print(render.to_json({"game": spec.name, "player": pos.to_move,
                              "counts": counts, "moves": labels}))
    else:
        if labels:
            print("\n".join(labels))
        err.print(" · ".join(f"{k} {v:,}" for k, v in counts.items()))


@app.command()
def new(
    game: str = typer.Argument(..., help="Game id or variant (see 'oddsbot games')."),
    players: int = typer.Option(4, help="Number of players."),
    seed: int = seed_option("Random seed of the set-up."),
    variant: Optional[str] = typer.Option(None, help="Rules variant (see 'oddsbot games')."),
    fmt: str = typer.Option("json", "--format", "-f", help="json or notation."),
    play: Optional[str] = typer.Option(None, "--play", help="Play the start out with every "
                                       "seat following this policy and print the game "
                                       "record (see 'oddsbot replay')."),
) -> None:
    """A random legal start position, per the game's set-up rules (with --play: a whole
    simulated game record)."""
    if fmt not in ("json", "notation"):
        raise OddsbotError(f"--format: {fmt!r} is not json or notation")
    spec = registry.spec(game)
    chosen = variant or (game if game in spec.variants else spec.name)
    if chosen not in spec.variants:
        raise OddsbotError(f"variant: {chosen!r} is not a variant of {spec.name}")
    face = spec.load()
    if play is not None:
        with busy(f"playing a whole {chosen} game, every seat {play}"):
            record = face.play(players, seed, chosen, play)
        sys.stdout.write(record)
        return
    pos = face.new_position(players, seed, chosen)
    print(pos.to_notation() if fmt == "notation" else render.to_json(pos.to_json()))


@app.command()
def games() -> None:
    """The games and rules variants oddsbot knows."""
    for name, spec in registry.specs().items():
        for variant, description in spec.variants.items():
            print(f"{name}\t{variant}\t{description}")
