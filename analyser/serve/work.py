"""What each endpoint computes, from its checked body (``bodies.parse``) to its answer:
the JSON the CLI prints with ``-f json`` (``analyser/answers.py``), or PNG bytes for a
chart. These run in the worker processes (``jobs.py``); ``progress(done, planned)`` is
how a long computation reports.

The checks come in the CLI's order, so that a body with two faults gets the line the
command line with the same two faults gets: first what typer checks (the seed, the
choices), then the numbers, then the position.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any, Optional

from .. import answers, registry, render
from ..face import Capability, Progress
from .bodies import position_text, record_text

Answer = dict | list | bytes


def _choices(command: str, body: dict) -> dict[str, Any]:
    """The seed and every choice option of ``body`` checked as the CLI's parser checks
    them; returns the game options of ``command`` given."""
    answers.check_seed(body.get("seed"))
    answers.check_choice("--variant", body.get("variant"), answers.variant_names())
    if command != "new":
        answers.check_choice("--policy", body.get("policy"),
                             answers.policy_names("rollout_policies"))
    game = {}
    for name, (option, _) in answers.declared_options(command).items():
        if name in body:
            if option.choices:
                answers.check_choice(option.flag, body[name], option.choices)
            game[name] = body[name]
    return game


def _load(body: dict, field: str = "position") -> tuple:
    return answers.load_text(position_text(body[field], field), body.get("variant"),
                             body.get("rule"))


def _play(body: dict) -> tuple:
    """(spec, face, position) of a play-along request (refused for a game without it)."""
    spec, face, pos = _load(body)
    spec.require(Capability.PLAY)
    return spec, face, pos


def _placed(spec, face, pos) -> dict:
    return {"position": pos.to_json(), "notation": pos.to_notation(),
            "player": answers.player_name(spec, face, pos)}


def new(body: dict, progress: Progress) -> Answer:
    game = _choices("new", body)
    spec = registry.spec(body["game"])
    variant = answers.new_variant(spec, body["game"], body.get("variant"))
    setup = answers.new_setup(spec, game, body.get("rule"))
    pos = spec.load().new_position(body.get("players", 4), body.get("seed", 0), variant,
                                   **setup)
    return pos.to_json()


def validate(body: dict, progress: Progress) -> Answer:
    fmt = body.get("format", "json")
    answers.check_choice("format", fmt, ("json", "notation"))
    spec, face, pos = _load(body)
    face.validate(pos)
    if fmt == "json":
        return pos.to_json()
    return {"notation": pos.to_notation(), "player": answers.player_name(spec, face, pos)}


def moves(body: dict, progress: Progress) -> Answer:
    spec, face, pos = _load(body)
    return answers.moves_json(spec, face, pos)


def advise(body: dict, progress: Progress) -> Answer:
    game = _choices("advise", body)
    get = body.get
    answers.check_advise_numbers(get("samples"), get("target_se"), get("top"),
                                 get("rollouts"), get("candidates"))
    spec, face, pos = _load(body)
    options = answers.advise_options(spec, game, target_se=get("target_se"),
                                     rollouts=get("rollouts"), policy=get("policy"),
                                     candidates=get("candidates"))
    table = answers.run_advise(face, pos, samples=get("samples"), seed=get("seed", 0),
                               target_se=get("target_se"), options=options,
                               progress=progress)
    return answers.advise_json(spec, pos, table, get("top"))


def odds(body: dict, progress: Progress) -> Answer:
    game = _choices("odds", body)
    answers.check_positive("--samples", body.get("samples"))
    answers.check_positive("--target-se", body.get("target_se"))
    spec, face, pos = _load(body)
    options = answers.odds_options(spec, game, body.get("target_se"))
    return face.odds(pos, samples=body.get("samples"), seed=body.get("seed", 0),
                     progress=progress, **options)


def chart(body: dict, progress: Progress) -> Answer:
    """The PNG ``oddsbot chart --out X.png`` writes."""
    from ...reports import figures

    _choices("chart", body)
    answers.check_positive("--samples", body.get("samples"))
    answers.check_positive("--target-se", body.get("target_se"))
    spec, _, pos = _load(body)
    spec.require(Capability.POSITION_CHART)
    target = {} if body.get("target_se") is None else {"target_se": body["target_se"]}
    fig = spec.load_designer().position_chart(pos, samples=body.get("samples"),
                                              seed=body.get("seed", 0), **target)
    return figures.png_bytes(fig)


def replay(body: dict, progress: Progress) -> Answer:
    game = _choices("replay", body)
    samples = body.get("samples", 20000)
    answers.check_positive("--samples", samples)
    answers.check_positive("--rollouts", body.get("rollouts"))
    text = record_text(body["record"])
    spec = registry.spec_of_record(text)
    options = answers.replay_options(spec, game)
    policy = answers.rollout_policy(spec, body.get("rollouts"), body.get("policy"))
    rules = answers.read_rules(spec, body.get("rule"))
    run = answers.run_replay(spec, text, rules, samples=samples, seed=body.get("seed", 0),
                             rollouts=body.get("rollouts"), policy=policy, options=options,
                             progress=progress)
    return answers.replay_json(run)


def rules(body: dict, progress: Progress) -> Answer:
    return answers.rules_json(registry.spec(body["game"]))


def outcomes(body: dict, progress: Progress) -> Answer:
    _, face, pos = _play(body)
    return {"outcomes": [{"outcome": name, "p": p}
                         for name, p in face.outcomes(pos, body["action"])]}


def apply(body: dict, progress: Progress) -> Answer:
    spec, face, pos = _play(body)
    return _placed(spec, face, face.apply(pos, body["action"], body.get("outcome")))


def record(body: dict, progress: Progress) -> Answer:
    spec, face, start = _load(body, "start")
    spec.require(Capability.PLAY)
    moves = [(action, outcome) for action, outcome in body["moves"]]
    return {"record": face.record_text(start, moves)}


def record_moves(body: dict, progress: Progress) -> Answer:
    text = record_text(body["record"])
    spec = registry.spec_of_record(text)
    spec.require(Capability.PLAY)
    start, moves = spec.load().record_moves(text)
    return {"start": start.to_json(), "notation": start.to_notation(),
            "moves": [[action, outcome] for action, outcome in moves]}


ENDPOINTS: dict[str, Callable[[dict, Progress], Answer]] = {
    "new": new, "validate": validate, "moves": moves, "advise": advise, "odds": odds,
    "chart": chart, "replay": replay, "rules": rules, "outcomes": outcomes, "apply": apply,
    "record": record, "record/moves": record_moves,
}


def run(endpoint: str, body: dict, progress: Optional[Progress] = None) -> Answer:
    """The answer of ``endpoint`` to ``body`` (an ``OddsbotError`` for a refusal): JSON
    as the CLI prints it (numpy numbers as Python's, NaN as null), or image bytes."""
    answer = ENDPOINTS[endpoint](body, progress)
    return answer if isinstance(answer, bytes) else json.loads(render.to_json(answer))


def streamed(answer: Answer) -> Any:
    """An answer as a stream's ``result`` line carries it: JSON as it is, an image as a
    ``data:`` URL."""
    if isinstance(answer, bytes):
        return "data:image/png;base64," + base64.b64encode(answer).decode("ascii")
    return answer
