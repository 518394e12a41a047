"""Designer runs: the same seed gives the same games in-process and on a real Dask
``LocalCluster``; an interrupted run resumed gives the report of an uninterrupted one."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from checks import full_run, same_report
from oddsbot.reports import batch, runner
from oddsbot.reports.spec import RunSpec

SPEC = RunSpec("camel-up", ("camel-up", "camel-up-2014"), 4,
               ("heuristic", "random", "heuristic", "random"), 2_500, 17, block=1_000)


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "whole"
    done = full_run(SPEC, out)
    assert done.games == 2 * SPEC.games
    return out


def test_same_seed_same_games_on_a_local_cluster(uninterrupted, tmp_path):
    out = tmp_path / "cluster"
    with runner.dask_client(None, 2) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        assert client.scheduler.address.startswith("tcp://127.0.0.1:")
        done = full_run(SPEC, out, client)
    assert done.how.startswith("Dask scheduler tcp://127.0.0.1:") and "2 workers" in done.how
    same_report(uninterrupted, out)


def test_resume_after_an_interruption_equals_an_uninterrupted_run(uninterrupted, tmp_path):
    out = tmp_path / "stopped"
    state = batch.start(SPEC, out, "parquet")

    def stop_after_two_blocks(done: int, total: int, rate: float) -> None:
        if done > 2 * SPEC.block:  # told as the third block's games finish: it is dropped
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        batch.simulate(SPEC, out, state, progress=stop_after_two_blocks)
    kept = sorted((out / "blocks").rglob("*.npy"))
    assert len(kept) == 2 and not list(out.rglob("*.partial"))
    (stopped,) = batch.load_state(out)["runs"]
    assert (stopped["outcome"], stopped["games"]) == ("interrupted", 2 * SPEC.block)
    assert stopped["started"] <= stopped["ended"]
    spec, state = batch.resume(out, {})
    assert spec == SPEC
    done = batch.simulate(spec, out, state)
    assert done.games == 2 * SPEC.games - 2 * SPEC.block
    batch.build(spec, out, state)
    same_report(uninterrupted, out)
    # "How it ran" lists both sessions, and their games add up to the run's
    runs = pd.read_csv(out / "tables" / "runs.csv")
    assert runs["outcome"].tolist() == ["interrupted", "finished"]
    assert runs["games"].sum() == 2 * SPEC.games


def test_resume_may_grow_the_run_and_keeps_finished_blocks(uninterrupted, tmp_path):
    small = RunSpec(**{**SPEC.to_json(), "games": 1_500, "variants": SPEC.variants,
                       "policies": SPEC.policies})
    out = tmp_path / "grown"
    full_run(small, out)
    first = next(SPEC.blocks()).path(out).stat().st_mtime_ns
    spec, state = batch.resume(out, {"games": SPEC.games})
    assert spec == SPEC
    done = batch.simulate(spec, out, state)
    assert done.games == 2 * (SPEC.games - 1_000)  # the 500-game blocks are redone
    assert next(SPEC.blocks()).path(out).stat().st_mtime_ns == first
    batch.build(spec, out, state)
    same_report(uninterrupted, out)


def test_resume_refuses_a_changed_option(uninterrupted):
    from oddsbot.errors import OddsbotError

    with pytest.raises(OddsbotError, match="--seed: the run .* was made with 17"):
        batch.resume(uninterrupted, {"seed": 18})
    with pytest.raises(OddsbotError, match="--raw"):
        batch.resume(uninterrupted, {"raw": "csv"})


def test_progress_moves_within_a_block(tmp_path):
    """In-process, the games of the block under way are told as they finish: a block of
    slow games (greedy seats) moves the bar before it is saved."""
    spec = RunSpec("camel-up", ("camel-up",), 4, ("heuristic",) * 4, 1_000, 3, block=1_000)
    told: list[int] = []
    batch.simulate(spec, tmp_path / "run", batch.start(spec, tmp_path / "run", "parquet"),
                   progress=lambda done, total, rate: told.append(done))
    assert told[-1] == 1_000 and len(told) > 2 and told == sorted(told)
