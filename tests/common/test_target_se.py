"""``--target-se`` is honoured or refused by every game and command that takes it
(``analyser/montecarlo.py``: ``sampling``, ``until``, ``target_provenance``).

Honoured: samples come in batches until every sampled probability shown has at most the
target's standard error, ``--samples`` at most; the provenance gives the samples drawn,
the target and whether it was reached, and the caption says so. The same seed and
target give the same numbers on one thread or two. Refused, in one line, where the
command samples nothing (Kingdom Run and Five Tribes ``advise`` without ``--rollouts``);
an exact answer on a position of a command that samples elsewhere says "exact, no
sampling". The serve API answers the same (``serve/work.py`` shares ``answers``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numba
import pytest

from oddsbot.analyser.camel_up_cards import advise as cuc_advise
from oddsbot.analyser.camel_up_cards import odds as cuc_odds
from oddsbot.analyser.kingdom_run import odds as kr_odds
from oddsbot.analyser.mumia import advise as mumia_advise
from oddsbot.analyser.mumia import odds as mumia_odds
from oddsbot.analyser.serve import work
from oddsbot.errors import OddsbotError

MUMIA_UNROLLED = ("mumia 3p A | S:AAABBBCCCM -1 -2 -3 -4 -5 -6 -7 -8 c:g c:g c:g c:g c:g "
                  "c:g +8:g +7:g +6 +5 +4 +3 +2 +1 -1 -2 -3 -4 -5 -6 -7 -8 -9 -10 F | A:- "
                  "B:- C:- | mummy 4,3,2,1 taken -")  # ``oddsbot new mumia --players 3``
TIGHT = 1e-4  # a target no cap below reaches


def _leg_ses(d: dict) -> list[float]:
    """Camel Up Cards odds: the SEs of the sampled leg places (binomial, as the caption's)
    and of the race's winner and loser odds."""
    n = d["provenance"]["leg_samples"]
    legs = [math.sqrt(c[f"p{k}"] * (1 - c[f"p{k}"]) / n) for c in d["camels"]
            for k in range(1, 6)] if n else []
    return legs + [c[k] for c in d["camels"] for k in ("win_se", "lose_se")]


@dataclass(frozen=True)
class Case:
    """A command of a game that honours --target-se: its arguments, the provenance key
    of the samples drawn, the SEs of the sampled probabilities in its JSON (None where
    the JSON shows none), the fixed default count (None: the default is a target) and a
    cap that no tight target reaches (``--samples``)."""

    args: tuple[str, ...]
    drawn: str
    ses: Callable[[dict], list[float]] | None
    default: int | None
    loose: float
    cap: int
    extra: tuple[str, ...] = field(default=())


CASES = {
    "camel-up odds": Case(("odds", "examples/camel-up-start-4p.json"), "samples",
                          lambda d: [v["se"] for side in ("winner", "loser")
                                     for v in d["race"][side].values()], None, 0.01, 4096),
    "camel-up advise": Case(("advise", "examples/camel-up-start-4p.json"), "samples", None,
                            None, 0.01, 4096),
    "camel-up-cards odds": Case(("odds", "examples/camel-up-cards-4p.json"), "race_samples",
                                _leg_ses, cuc_odds.DEFAULT_RACES, 0.01, 5000),
    "camel-up-cards advise": Case(("advise", "examples/camel-up-cards-4p.json"), "samples",
                                  None, cuc_advise.DEFAULT_SAMPLES, 0.02, 5000),
    "mumia odds": Case(("odds", "examples/mumia-mid-4p.json"), "samples",
                       lambda d: [p["win_se"] for p in d["players"]], mumia_odds.SAMPLES,
                       0.03, 700),
    "mumia advise": Case(("advise", MUMIA_UNROLLED, "--roll", "3,PM"), "samples",
                         lambda d: [a["win_se"] for a in d["actions"]],
                         mumia_advise.SAMPLES, 0.05, 700),
    "kingdom-run odds": Case(("odds", "examples/kingdom-run-mid-4p.json"), "samples",
                             lambda d: [p["win_se"] for p in d["players"]], kr_odds.SAMPLES,
                             0.03, 700),
    "five-tribes odds": Case(("odds", "examples/five-tribes-opening-4p.json"), "rollouts",
                             lambda d: [p["win_se"] for p in d["standings"]], None, 0.05,
                             300),
}


def _json(oddsbot_cli, case: Case, *options: object) -> dict:
    return oddsbot_cli(*case.args, "--seed", 1, *options, "-f", "json").json()


@pytest.mark.parametrize("name", CASES)
def test_a_loose_target_stops_early_and_says_so(name, oddsbot_cli):
    case = CASES[name]
    got = _json(oddsbot_cli, case, "--target-se", case.loose)
    prov = got["provenance"]
    assert prov["target_se"] == case.loose and prov["target_reached"] is True
    assert 0 < prov[case.drawn] < (case.default or math.inf)
    if case.ses is not None:
        assert max(case.ses(got)) <= case.loose
    shown = oddsbot_cli(*case.args, "--seed", 1, "--target-se", case.loose)
    assert shown.code == 0, shown.err
    assert f"{prov[case.drawn]:,}" in shown.out
    assert f"at most {case.loose:g} (--target-se)" in " ".join(shown.out.split())


@pytest.mark.parametrize("name", CASES)
def test_samples_cap_a_target_not_reached(name, oddsbot_cli):
    case = CASES[name]
    options = ("--target-se", TIGHT, "--samples", case.cap)
    prov = _json(oddsbot_cli, case, *options)["provenance"]
    assert prov[case.drawn] == case.cap
    assert prov["target_se"] == TIGHT and prov["target_reached"] is False
    shown = oddsbot_cli(*case.args, "--seed", 1, *options)
    assert f"--target-se {TIGHT:g} not reached" in " ".join(shown.out.split())


@pytest.mark.parametrize("name", CASES)
def test_the_same_seed_and_target_give_the_same_numbers_on_any_threads(name, oddsbot_cli):
    case = CASES[name]
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = _json(oddsbot_cli, case, "--target-se", case.loose)
        numba.set_num_threads(max(2, threads) if numba.config.NUMBA_NUM_THREADS > 1 else 1)
        other = _json(oddsbot_cli, case, "--target-se", case.loose)
    finally:
        numba.set_num_threads(threads)
    assert json.dumps(one, sort_keys=True) == json.dumps(other, sort_keys=True)


@pytest.mark.parametrize("name", ["camel-up-cards odds", "mumia odds", "five-tribes odds"])
def test_samples_alone_draw_exactly_that_many(name, oddsbot_cli):
    """Without --target-se, --samples is the count, as before; no target is recorded."""
    case = CASES[name]
    prov = _json(oddsbot_cli, case, "--samples", case.cap)["provenance"]
    assert prov[case.drawn] == case.cap
    assert prov.get("target_se") is None and "target_reached" not in prov


@pytest.mark.parametrize("name", ["camel-up odds", "five-tribes odds"])
def test_without_either_the_declared_target_applies(name, oddsbot_cli):
    """``GameSpec.target_se`` (``--help``'s default) is where a plain run stops."""
    from oddsbot.analyser import registry

    case = CASES[name]
    prov = _json(oddsbot_cli, case)["provenance"]
    game = name.split()[0]
    assert prov["target_se"] == registry.spec(game).target_se["odds"]
    assert prov["target_reached"] is True


def test_an_exact_answer_says_no_sampling(oddsbot_cli):
    """Mumia's odds sample elsewhere; on a small endgame they are exact: the target is
    recorded and the caption says nothing was sampled."""
    args = ("odds", "examples/mumia-endgame.json", "--target-se", "0.01")
    prov = oddsbot_cli(*args, "-f", "json").json()["provenance"]
    assert prov["method"] == "exact" and prov["target_se"] == 0.01
    assert prov["target_reached"] is None
    assert "--target-se 0.01: exact, no sampling" in " ".join(oddsbot_cli(*args).out.split())


@pytest.mark.parametrize("game, position", [
    ("kingdom-run", "examples/kingdom-run-roll-4p.json"),
    ("five-tribes", "examples/five-tribes-opening-4p.json"),
])
def test_advise_without_rollouts_refuses_a_target(game, position, oddsbot_cli):
    run = oddsbot_cli("advise", position, "--target-se", "0.01")
    assert run.code == 2 and run.out == ""
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"oddsbot: error: --target-se: {game} ")
    with pytest.raises(OddsbotError, match="^--target-se: "):
        work.run("advise", {"position": open(position).read(), "target_se": 0.01})


def test_kingdom_run_rollouts_stop_at_the_target(oddsbot_cli):
    """With --rollouts, --target-se stops them once the best choice is separated (as
    every game's rollouts), and the provenance gives the rollouts drawn."""
    args = ("advise", "examples/kingdom-run-roll-4p.json", "--rollouts", 4000, "--seed", 1)
    prov = oddsbot_cli(*args, "--target-se", 0.05, "-f", "json").json()["provenance"]
    assert prov["rollout_target_se"] == 0.05 and prov["rollouts"] < 4000


@pytest.mark.parametrize("name", ["camel-up-cards odds", "kingdom-run odds", "mumia advise"])
def test_the_serve_api_answers_the_same(name, oddsbot_cli):
    case = CASES[name]
    command, position, *rest = case.args
    text = open(position).read() if position.startswith("examples/") else position
    body = {"position": text, "seed": 1, "target_se": case.loose}
    if rest:
        body[rest[0].lstrip("-")] = rest[1]
    assert work.run(command, body) == _json(oddsbot_cli, case, "--target-se", case.loose)
