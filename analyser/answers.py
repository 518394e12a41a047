"""What a command answers, built once for the CLI (``-f json``) and the server
(``oddsbot serve``, docs/serve.md): the checks of every option, reading a position's text
as its game, and the JSON answer of each command.

Every refusal is an ``OddsbotError`` whose one line names the option as the CLI spells it
(``--samples: must be greater than 0, got 0``), so the CLI prints it after ``oddsbot:
error:`` and the server answers it as ``{"error": ...}``. Nothing here reads a file: the
CLI reads its POSITION or RECORD argument (``inputs``) and hands over the text.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Optional

from ..errors import OddsbotError, quote
from ..inputs import is_json
from . import registry
from .face import Capability, GameFace, GameOption, GameSpec, Progress
from .notation_errors import in_notation_words
from .records_common import turn_records
from .table import Table

MAX_SEED = 2**64 - 1  # = kernels.rng.MAX_SEED; not imported: the CLI loads numba late
MAX_OPTION = 10**9  # the most samples, rollouts, games, rows... an option may ask for


# --------------------------------------------------------------------------- option checks


def check_positive(name: str, value: Optional[float]) -> None:
    """A numeric option, if given: a finite number greater than 0 and at most
    ``MAX_OPTION`` (NaN and infinities refused: they would run to a cap or forever)."""
    if value is None:
        return
    if not math.isfinite(value):
        raise OddsbotError(f"{name}: must be a finite number, got {value}")
    if value <= 0:
        raise OddsbotError(f"{name}: must be greater than 0, got {value}")
    if value > MAX_OPTION:
        raise OddsbotError(f"{name}: must be at most {MAX_OPTION:,}, got {value:,}")


def seed_problem(value: Optional[int]) -> Optional[str]:
    """What is wrong with a seed (the kernels' seeds are uint64), or None."""
    if value is not None and not 0 <= value <= MAX_SEED:
        return f"must be a whole number from 0 to 2**64-1, got {value}"
    return None


def check_seed(value: Optional[int], name: str = "--seed") -> None:
    if (problem := seed_problem(value)) is not None:
        raise OddsbotError(f"{name}: {problem}")


def check_choice(flag: str, value: Optional[str], known: tuple[str, ...]) -> None:
    """A choice option, if given, among ``known`` (the CLI's words for a bad one)."""
    if value is not None and value not in known:
        raise OddsbotError(f"{flag}: {quote(value)} is not one of "
                           f"{', '.join(map(repr, known))}.")


def policy_names(declared: str) -> tuple[str, ...]:
    """Every registered game's policies of one kind (``policies``, ``rollout_policies``)."""
    names = [p for spec in registry.specs().values() for p in getattr(spec, declared)]
    return tuple(dict.fromkeys(names))


def variant_names() -> tuple[str, ...]:
    """Every registered game's rules variants."""
    return tuple(v for spec in registry.specs().values() for v in spec.variants)


def check_policy(flag: str, spec: GameSpec, known: tuple[str, ...],
                 policy: Optional[Enum | str]) -> Optional[str]:
    """The policy's name if ``spec``'s game has it (one line otherwise)."""
    if policy is None:
        return None
    name = _text(policy)
    if name not in known:
        raise OddsbotError(f"{flag}: {spec.name} has no policy {name!r} "
                           f"(known: {', '.join(known) or 'none'})")
    return name


def declared_options(command: str) -> dict[str, tuple[GameOption, list[str]]]:
    """Every registered game's options of ``command``: name -> (option, game titles); an
    option several games declare keeps each game's help, under its title."""
    found: dict[str, list[tuple[GameOption, str]]] = {}
    for spec in registry.specs().values():
        for option in spec.options:
            if command in option.commands:
                found.setdefault(option.name, []).append((option, spec.title))
    merged = {}
    for name, declared in found.items():
        first, titles = declared[0][0], [title for _, title in declared]
        if len(declared) > 1:
            first = replace(first, help=" ".join(f"{title}: {o.help}"
                                                 for o, title in declared))
        merged[name] = (first, titles)
    return merged


def game_options(spec: GameSpec, command: str, given: Mapping[str, Optional[Enum | str]]
                 ) -> dict[str, str]:
    """The game's options of ``command`` (given, or their defaults); one line for an
    option given that the game does not have."""
    for name, value in given.items():
        option = spec.option(name)
        if value is not None and (option is None or command not in option.commands):
            titles = declared_options(command)[name][1]
            raise OddsbotError(f"--{name.replace('_', '-')}: a {' / '.join(titles)} option; "
                               f"{spec.name} has no such option")
    return {o.name: o.default if given.get(o.name) is None else _text(given[o.name])
            for o in spec.options if command in o.commands}


def _text(value: Enum | str) -> str:
    return str(value.value) if isinstance(value, Enum) else value


def read_rules(spec: GameSpec, given: Optional[list[str]]) -> dict[str, str]:
    """``--rule`` values as {name: text}: one line for a game without rule parameters, a
    malformed one, an unknown name or a name given twice (the game reads the values)."""
    if not given:
        return {}
    if not spec.rules:
        raise OddsbotError(f"--rule: {spec.name} has no rule parameters (its variants: "
                           f"'oddsbot games')")
    known = [r.name for r in spec.rules]
    out: dict[str, str] = {}
    for item in given:
        name, eq, value = item.partition("=")
        if not eq or not name or not value:
            raise OddsbotError(f"--rule: expected NAME=VALUE, got {quote(item)}")
        if name not in known:
            raise OddsbotError(f"--rule: {spec.name} has no rule parameter {quote(name)} "
                               f"('oddsbot rules {spec.name}' lists them)")
        if name in out:
            raise OddsbotError(f"--rule: {name} is given twice")
        out[name] = value
    return out


# --------------------------------------------------------------------------- positions


def load_text(text: str, variant: Optional[str], rule: Optional[list[str]] = None
              ) -> tuple[GameSpec, GameFace, Any]:
    """(declaration, face, position) of a position's text (notation, JSON or a game
    record: the position after its last line), optionally read as rules ``variant``, with
    the rule parameters of ``--rule`` set. A notation position is validated here, its
    complaints in the notation's words (``analyser/notation_errors.py``)."""
    if registry.is_record(text):
        return _reached(text, variant, rule)
    spec = registry.spec_of_text(text)
    rules = read_rules(spec, rule)
    face = spec.load()
    keys = None if is_json(text) else face.NOTATION_KEYS
    with in_notation_words(keys):
        pos = _read(spec, face, text, variant)
    pos = face.with_rules(pos, rules) if rules else pos
    if keys is not None:  # checked now, so that every complaint names what the user typed
        with in_notation_words(keys, validating=True):
            face.validate(pos)
    return spec, face, pos


def _reached(text: str, variant: Optional[str], rule: Optional[list[str]]
             ) -> tuple[GameSpec, GameFace, Any]:
    """(declaration, face, position after the last line) of the game record ``text``."""
    spec = registry.spec_of_record(text)
    if not spec.has(Capability.RECORDS):
        raise OddsbotError(f"position: a game record (a 'start' line), but {spec.name} has no "
                           f"records: give a position (notation or JSON)")
    if variant is not None:
        raise OddsbotError("--variant: a game record's start line sets its variant")
    face = spec.load()
    steps = record_going_on(face.record, text, read_rules(spec, rule), "record",
                            "; give a record that stops before the end, or a position")
    return spec, face, steps.final


def record_going_on(game_record: Any, text: str, rules: dict, field: str, fix: str = ""
                    ) -> Any:
    """The replay of the record ``text`` (``--rule`` values ``rules``), refused in one
    line naming ``field`` (and ``fix``) when its game is over: nothing to go on from."""
    _, steps = game_record.load_record(text, **({"rules": rules} if rules else {}))
    if steps.over or steps.final is None:
        raise OddsbotError(f"{field}: {game_record.status(steps)}: no one is to move{fix}")
    return steps


def _read(spec: GameSpec, face: GameFace, text: str, variant: Optional[str]) -> Any:
    if variant is None:
        return face.parse(text)
    variant = str(variant)  # a Variant choice: its plain string
    if variant not in spec.variants:
        raise OddsbotError(f"variant: {variant!r} is not a variant of {spec.name} "
                           f"(known: {', '.join(spec.variants)})")
    return face.parse_as(text, variant)


def player_name(spec: GameSpec, face: GameFace, pos: Any, seat: Optional[int] = None) -> str:
    """How the game names a seat (the mover's by default), as its notation and records
    do: ``face.player_name``."""
    return face.player_name(pos, pos.to_move if seat is None else seat)


# --------------------------------------------------------------------------- answers


def moves_json(spec: GameSpec, face: GameFace, pos: Any) -> dict:
    """``moves -f json``."""
    counts, labels = face.moves(pos)
    return {"game": spec.name, "player": pos.to_move, "counts": counts, "moves": labels}


def check_advise_numbers(samples: Optional[int], target_se: Optional[float],
                         top: Optional[int], rollouts: Optional[int],
                         candidates: Optional[int]) -> None:
    for name, value in (("--samples", samples), ("--target-se", target_se), ("--top", top),
                        ("--rollouts", rollouts), ("--candidates", candidates)):
        check_positive(name, value)


def advise_options(spec: GameSpec, game: Mapping[str, Any], *, target_se: Optional[float],
                   rollouts: Optional[int], policy: Optional[Enum | str],
                   candidates: Optional[int]) -> dict[str, Any]:
    """The keywords of ``face.advise`` beyond samples, seed and target SE: the game's
    options and the rollouts' (one line for a mismatch)."""
    options: dict[str, Any] = game_options(spec, "advise", game)
    if rollouts is not None:
        spec.require(Capability.ROLLOUTS, "--rollouts")
        options.update(rollouts=rollouts, rollout_target_se=target_se)
        if policy is not None:
            options["policy"] = check_policy("--policy", spec, spec.rollout_policies, policy)
        if candidates is not None:
            options["candidates"] = candidates
    elif policy is not None or candidates is not None:
        raise OddsbotError(f"{'--policy' if policy is not None else '--candidates'}: only "
                           f"used with --rollouts")
    return options


def run_advise(face: GameFace, pos: Any, *, samples: Optional[int], seed: int,
               target_se: Optional[float], options: Mapping[str, Any],
               progress: Optional[Progress]) -> Table:
    """The EV table (``face.advise``), with the game's declared default target SE
    (``GameSpec.target_se``) unless one or ``samples`` is given (``samples`` alone draws
    exactly that many; with a target it is the cap: ``montecarlo.sampling``)."""
    if target_se is None and samples is None:
        target_se = registry.spec(face.NAME).target_se.get("advise")
    return face.advise(pos, samples=samples, seed=seed, target_se=target_se,
                       progress=progress, **options)


def search_budget(spec: GameSpec, text: Optional[str]) -> Any:
    """``advise --search BUDGET`` read (None when not asked); one line for a game without
    arena seats or a malformed budget."""
    if text is None:
        return None
    from .face import Capability
    from .search import read_budget

    spec.require(Capability.SEATS, "--search")
    return read_budget(text, "--search")


def run_search(face: GameFace, pos: Any, budget: Any, seed: int) -> dict:
    """What the search player would choose at ``pos`` (``advise --search``)."""
    from .search import search_choice

    return search_choice(face, pos, budget, seed)


def play_budget(spec: GameSpec, setup: Mapping[str, Any], text: str) -> Any:
    """``new --play search``: its budget, once the game is known to have arena seats and
    play-along records, and no set-up option but the rules is given."""
    from .face import Capability
    from .search import read_budget

    spec.require(Capability.SEATS, "--play search")
    spec.require(Capability.PLAY, "--play search")
    other = sorted(name for name, value in setup.items() if name != "rules"
                   and str(value) != spec.option(name).default)
    if other:
        raise OddsbotError(f"--play search: deals {spec.name}'s default set-up; "
                           f"--{other[0].replace('_', '-')} is for the compiled policies")
    return read_budget(text)


def searched_record(face: GameFace, players: int, seed: int, variant: str, budget: Any,
                    rules: Mapping[str, str]) -> str:
    """The record of a whole game from the deal seeded ``seed``, every seat played by
    ``search`` (``new --play search``), as the play-along writes records."""
    from .players import derive
    from .search import Search
    from .seated import play_seated

    player = Search("search", face, budget)
    game = play_seated(face, [player] * players, variant=variant, deal_seed=seed,
                       chance_seed=derive(seed, 1), rules=dict(rules))
    return face.seated_record(game.positions, game.moves)


def search_line(chosen: dict) -> str:
    """The caption's words for ``advise --search``."""
    best = chosen["candidates"][0]
    chance = "" if best["win"] is None else f", wins {best['win']:.3f}"
    return (f"search ({chosen['budget']}, {chosen['playouts']:,} playouts) chooses "
            f"{chosen['action']}{chance}")


CORE_COLUMNS = ("action", "ev", "se", "method", "gap")  # first in every game's EV table


def advise_shown(table: Table, top: Optional[int]) -> Table:
    """The rows ``advise`` gives tools (``-f json``, csv, markdown): the best ``top`` (every
    row if None), with ``se`` empty wherever ``ev`` was not sampled (exact, or a model such
    as the greedy one), as the terminal table shows it."""
    shown = table.head(top) if top else table
    se, method = shown.columns.index("se"), shown.columns.index("method")

    def sampled(row: tuple) -> Any:
        value = row[se]
        return None if row[method] == "exact" or value is None or value != value else value

    rows = tuple(row[:se] + (sampled(row),) + row[se + 1:] for row in shown.rows)
    return Table(shown.columns, rows, shown.provenance)


def advise_json(spec: GameSpec, pos: Any, table: Table, top: Optional[int]) -> dict:
    """``advise -f json``: every row, or the best ``top``; each row has the core columns
    (``CORE_COLUMNS``, ``se`` null where not sampled), then the game's own that apply."""
    shown = advise_shown(table, top)
    rows = [{c: v for c, v in zip(shown.columns, row) if v is not None or c in CORE_COLUMNS}
            for row in shown.rows]
    return {"game": spec.name, "player": pos.to_move, "actions": rows,
            "provenance": table.provenance}


def odds_options(spec: GameSpec, game: Mapping[str, Any], target_se: Optional[float]
                 ) -> dict[str, Any]:
    """The keywords of ``face.odds`` beyond samples, seed and progress."""
    options: dict[str, Any] = game_options(spec, "odds", game)
    return options if target_se is None else {**options, "target_se": target_se}


def new_variant(spec: GameSpec, game: str, variant: Optional[str]) -> str:
    """The variant a new position is dealt in: the one asked for, or the one ``game``
    names, or the game's own."""
    chosen = str(variant or (game if game in spec.variants else spec.name))
    if chosen not in spec.variants:
        raise OddsbotError(f"variant: {chosen!r} is not a variant of {spec.name}")
    return chosen


def new_setup(spec: GameSpec, options: Mapping[str, Any], rule: Optional[list[str]]
              ) -> dict[str, Any]:
    """The keywords of ``face.new_position`` and ``face.play`` beyond players, seed and
    variant: the game's ``new`` options and the rule parameters."""
    setup: dict[str, Any] = game_options(spec, "new", options)
    rules = read_rules(spec, rule)
    if rules:
        setup["rules"] = rules
    return setup


def rules_json(spec: GameSpec) -> dict:
    """``rules GAME -f json``."""
    return {"game": spec.name, "docs": spec.docs, "rules": [
        {"name": r.name, "default": r.default, "values": r.values, "meaning": r.meaning}
        for r in spec.rules]}


@dataclass(frozen=True)
class Replay:
    """A record replayed and annotated (``oddsbot replay``)."""

    spec: GameSpec
    record: Any  # the game's record module
    parsed: Any
    steps: Any
    table: Table
    lost: list[float]


def replay_options(spec: GameSpec, game: Mapping[str, Any]) -> dict[str, Any]:
    """The game's options of replay, once the game is known to have records."""
    spec.require(Capability.RECORDS)
    return game_options(spec, "replay", game)


def rollout_policy(spec: GameSpec, rollouts: Optional[int], policy: Optional[Enum | str]
                   ) -> Optional[str]:
    """Replay's rollout policy (None: the game's first), once the options agree."""
    if rollouts is not None:
        spec.require(Capability.ROLLOUTS, "--rollouts")
    if policy is not None and rollouts is None:
        raise OddsbotError("--policy: only used with --rollouts")
    return check_policy("--policy", spec, spec.rollout_policies, policy)


def run_replay(spec: GameSpec, text: str, rules: dict, *, samples: int, seed: int,
               rollouts: Optional[int], policy: Optional[str], options: Mapping[str, Any],
               progress: Optional[Callable[[int, int], None]] = None) -> Replay:
    """Replay the record ``text`` and annotate every turn."""
    game_record = spec.load().record
    parsed, steps = game_record.load_record(text, **({"rules": rules} if rules else {}))
    annotate = dict(samples=samples, seed=seed, rollouts=rollouts, policy=policy, **options)
    if progress is not None:
        annotate["progress"] = progress
    table = game_record.annotate(steps, **annotate)
    players = parsed.start.players  # a count, or the players themselves (Five Tribes)
    lost = game_record.ev_lost_by_player(table, players if isinstance(players, int)
                                         else len(players))
    return Replay(spec, game_record, parsed, steps, table, lost)


def replay_json(run: Replay) -> dict:
    """``replay -f json``."""
    steps = run.steps
    reached = None if steps.over or steps.final is None else steps.final.to_notation()
    prov = dict(run.table.provenance, start=run.parsed.start.to_notation())
    return {"game": run.spec.name, "start": run.parsed.start.to_notation(),
            "position": reached, "turns": turn_records(run.table),
            "result": run.record.result(steps), "ev_lost": run.lost, "provenance": prov}
