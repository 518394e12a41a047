"""Charts of one position."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ...inputs import input_files
from ..face import Capability
from .helptext import SAMPLES_HELP, target_se_defaults
from .common import (
    POSITION_HELP, VARIANT_HELP, Variant, app, check_positive, err, first_run, load,
    rule_option, seed_option,
)


@app.command()
def chart(
    position: str = typer.Argument(..., help=POSITION_HELP),
    out: str = typer.Option(..., "--out", help="Image to write: a .png or .svg file."),
    samples: Optional[int] = typer.Option(None, help=SAMPLES_HELP),
    seed: int = seed_option("Random seed; the same seed gives the same chart."),
    target_se: Optional[float] = typer.Option(
        None, "--target-se", help="Sample until every sampled probability has at most "
        f"this standard error, --samples at most ({target_se_defaults('chart')})."),
    variant: Optional[Variant] = typer.Option(None, help=VARIANT_HELP),
    rule: Optional[list[str]] = rule_option(),
) -> None:
    """Chart a position's odds: exact where the game computes them exactly, Monte Carlo
    with error bars otherwise."""
    from ...reports import figures

    check_positive("--samples", samples)
    check_positive("--target-se", target_se)
    path = Path(out)
    fmt = figures.check_out(path, input_files(position), "--out")
    spec, face, pos = load(position, variant, rule)
    spec.require(Capability.POSITION_CHART)
    with first_run(spec, "chart"):
        fig = spec.load_designer().position_chart(
            pos, samples=samples, seed=seed,
            **({} if target_se is None else {"target_se": target_se}))
    figures.save(fig, path)
    err.print(f"wrote {out} ({fmt.upper()}): the odds of {pos.to_notation()}",
              markup=False, highlight=False, soft_wrap=True)
