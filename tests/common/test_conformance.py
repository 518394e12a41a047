"""One conformance test that every registered game must pass: its declaration
(``analyser/face.py``), the required face, one protocol per declared capability, the
CLI's one-line refusal of every capability it lacks, and the face's behaviour on a new
position of every variant."""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import pytest

from oddsbot.analyser import registry
from oddsbot.analyser.face import (Capability, GameFace, GameSpec, PlayFace, RecordFace,
                                   SeatsFace)
from oddsbot.analyser.table import Table
from oddsbot.errors import OddsbotError, PositionError
from oddsbot.reports.face import DesignerFace, PositionChartFace, ReplayChartFace

GAMES = sorted(registry.specs())
REQUIRED_COLUMNS = ["action", "ev", "se", "method", "gap"]


@pytest.mark.parametrize("name", GAMES)
def test_common_face(name):
    module = registry.game(name)
    assert isinstance(module, GameFace)
    assert module.NAME == name
    for variant in module.VARIANTS:
        assert registry.game(variant) is module
        players = 4
        pos = module.new_position(players, 3, variant)
        module.validate(pos)
        # notation and JSON round-trip, and both parse through the registry
        assert module.parse(pos.to_notation()) == pos
        assert module.Position.from_json(pos.to_json()) == pos
        assert registry.parse(json.dumps(pos.to_json())) == pos
        assert registry.parse(pos.to_notation()) == pos
        # the EV table: one row per legal action, best first, required columns
        actions = module.legal_actions(pos)
        assert actions and len(set(actions)) == len(actions)
        table = module.advise(pos, samples=1024, seed=1)
        assert isinstance(table, Table)
        df = table.frame()
        assert list(df.columns[:5]) == REQUIRED_COLUMNS
        assert sorted(df["action"]) == sorted(actions)
        assert df["ev"].is_monotonic_decreasing
        assert df["gap"].iloc[0] == 0 and (df["gap"] >= 0).all()
        assert set(df["method"]) <= {"exact", "monte-carlo", "greedy"}
        assert df.loc[df["method"] == "greedy", "se"].isna().all()  # a model, not a sample
        assert (df.loc[df["method"] == "exact", "se"] == 0).all()
        assert (df.loc[df["method"] == "monte-carlo", "se"] > 0).all()
        prov = df.attrs["provenance"]
        for key in ("game", "variant", "oddsbot"):
            assert key in prov
        assert prov["variant"] == variant
        # the same seed gives the same table
        assert table == module.advise(pos, samples=1024, seed=1)
        # terminal views: the compact one shows fewer or the same columns as the wide one
        compact, wide = module.table_view(table), module.table_view(table, True)
        assert isinstance(compact, Table) and isinstance(wide, Table)
        assert compact["action"] == wide["action"] == table["action"]
        assert set(compact.columns) <= set(wide.columns)
        counts, labels = module.moves(pos)
        assert isinstance(module.counts_line(counts), str) and labels
        # a whole game under a policy ends with a result: the quickest policy (every
        # default policy plays whole games in the goldens, tests/common/test_goldens.py)
        quick = "random" if "random" in module.POLICIES else module.POLICIES[0]
        result = module.simulate(pos, seed=2, policy=quick)
        assert result.turns and result.text().startswith("start ")


@pytest.mark.parametrize("name", GAMES)
def test_declared_policies_are_the_face_s(name, oddsbot_cli):
    """``new --play`` offers the declared policies: the face plays exactly those, and the
    CLI refuses any other in one line before loading the game."""
    spec, module = registry.spec(name), registry.game(name)
    assert spec.policies == tuple(module.POLICIES)
    with pytest.raises(OddsbotError):
        module.play(2, 0, name, "no-such-policy")
    others = {p for s in registry.specs().values() for p in s.policies} - set(spec.policies)
    for policy in sorted(others):
        run = oddsbot_cli("new", name, "--play", policy)
        assert (run.code, run.out) == (2, "")
        assert run.err.startswith(f"oddsbot: error: --play: {name} has no policy {policy!r}")


@pytest.mark.parametrize("name", GAMES)
def test_bad_positions_raise_position_error(name):
    module = registry.game(name)
    with pytest.raises(PositionError):
        module.parse("{not json")
    with pytest.raises(PositionError):
        module.parse(json.dumps({"game": name}))


# --------------------------------------------------------------------------- declaration


CAPABILITY_FACES = {Capability.REPORTS: DesignerFace, Capability.POSITION_CHART:
                    PositionChartFace, Capability.REPLAY_CHART: ReplayChartFace}


def _members(protocol: type) -> list[str]:
    return [n for n, v in vars(protocol).items() if inspect.isfunction(v) and n[0] != "_"]


def _keywords(fn, only: bool = False) -> set[str]:
    """Parameter names of ``fn`` (``only``: the keyword-only ones)."""
    return {p.name for p in inspect.signature(fn).parameters.values()
            if not only or p.kind is p.KEYWORD_ONLY}


@pytest.mark.parametrize("name", GAMES)
def test_declaration(name):
    spec = registry.spec(name)
    assert isinstance(spec, GameSpec) and spec.name == name
    assert (Path(__file__).resolve().parents[2] / spec.docs).is_file(), spec.docs
    assert name in spec.variants and all(registry.spec(v) is spec for v in spec.variants)
    low, high = spec.players
    assert 1 <= low <= high
    face = spec.load()
    assert isinstance(face, GameFace)
    assert face.NAME == name and dict(face.VARIANTS) == dict(spec.variants)
    for member in _members(GameFace):  # the keywords the CLI passes are taken
        wanted = _keywords(getattr(GameFace, member), only=True)
        assert wanted <= _keywords(getattr(face, member)), (name, member)
    for option in spec.options:
        assert (option.default in option.choices or not option.choices) and option.commands
        targets = {"advise": [face.advise], "odds": [face.odds],
                   "replay": [face.record.annotate] if spec.has(Capability.RECORDS) else [],
                   "new": [face.new_position, face.play]}
        for command in option.commands:
            assert command in targets, (name, option.name, command)
            for target in targets[command]:
                assert option.name in _keywords(target), (name, option.name)


@pytest.mark.parametrize("name", GAMES)
def test_capabilities(name):
    spec = registry.spec(name)
    face = spec.load()
    assert (Capability.RECORDS in spec.capabilities) == hasattr(face, "record")
    if spec.has(Capability.RECORDS):
        assert isinstance(face.record, RecordFace)
    if spec.has(Capability.ROLLOUTS):
        assert "rollouts" in _keywords(face.advise)
    assert spec.has(Capability.PLAY) == isinstance(face, PlayFace), name
    assert spec.has(Capability.SEATS) == isinstance(face, SeatsFace), name
    if spec.designer is not None:
        designer = spec.load_designer()
        for capability, protocol in CAPABILITY_FACES.items():
            assert spec.has(capability) == isinstance(designer, protocol), (name, capability)


CLI_OF = {
    Capability.RECORDS: lambda pos, tmp: ("replay", _record(pos, tmp)),
    Capability.ROLLOUTS: lambda pos, tmp: ("advise", pos, "--rollouts", "4"),
    Capability.POSITION_CHART: lambda pos, tmp: ("chart", pos, "--out", tmp / "c.png"),
    Capability.REPORTS: lambda pos, tmp: ("report", pos.split()[0], "--games", "10",
                                          "--out", tmp / "rep"),
}


def _record(pos: str, tmp) -> str:
    path = tmp / "game.record"
    path.write_text(f"start {pos}\n")
    return str(path)


@pytest.mark.parametrize("name", GAMES)
def test_missing_capabilities_are_refused_in_one_line(name, oddsbot_cli, tmp_path):
    spec = registry.spec(name)
    face = spec.load()
    low, high = spec.players
    pos = face.new_position(min(max(4, low), high), 0, name).to_notation()
    for capability, args in CLI_OF.items():
        if spec.has(capability):
            continue
        run = oddsbot_cli(*args(pos, tmp_path))
        assert run.exc is None and run.code == 2 and run.out == "", (capability, run.err)
        assert run.err.endswith(f"{name} has no {capability.value} yet\n"), run.err
        assert run.err.count("\n") == 1


def test_unknown_games_and_clashing_declarations():
    assert registry.spec("camel-up-2014") is registry.spec("camel-up")
    with pytest.raises(Exception, match="unknown game 'nope'"):
        registry.spec("nope")
    clash = GameSpec(name="clash", title="Clash", variants={"clash": "x", "camel-up": "y"},
                     players=(2, 2), face="x", docs="x")
    with pytest.raises(ValueError, match="camel-up: already names the game camel-up"):
        registry.register(clash)
    assert "clash" not in registry.specs()
    with pytest.raises(ValueError, match="designer"):
        GameSpec(name="x", title="X", variants={"x": ""}, players=(2, 2), face="x", docs="x",
                 capabilities=frozenset({Capability.REPORTS}))


def test_declarations_are_light():
    """Reading every declaration (what --help and every command do) loads no game face,
    numba or pandas: a game's face loads only when that game is used."""
    import subprocess
    import sys

    code = ("import sys; from oddsbot.analyser import registry; names = sorted(registry.specs());"
            "print(names, sorted(m for m in ('numba', 'pandas', 'oddsbot.analyser.cli') "
            "if m in sys.modules), [m for m in sys.modules if m.endswith('.face') and "
            "m.startswith('oddsbot.analyser.')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out == f"{sorted(registry.specs())} [] ['oddsbot.analyser.face']\n"


@pytest.mark.parametrize("name", GAMES)
def test_play_along(name):
    """Capability PLAY: from a new position, the best action of the EV table (the first
    legal action where advise refuses the position in one line) and each of its
    outcomes (probabilities summing to 1) give a legal position; a missing outcome where
    one is needed, an unknown outcome and an illegal action are refused in one line; the
    record of the moves reads back as the same moves."""
    spec = registry.spec(name)
    if not spec.has(Capability.PLAY):
        pytest.skip(f"{name} has no play-along yet")
    face = spec.load()
    low, high = spec.players
    start = face.new_position(min(max(4, low), high), 0, name)
    pos, moves = start, []
    for _ in range(3):
        try:
            table = face.advise(pos, samples=256, seed=0, target_se=None, progress=None)
            action = table.records()[0]["action"]
        except OddsbotError:  # a turn advise cannot value (an opponent's, seen by a viewer)
            action = face.legal_actions(pos)[0]
        outcomes = face.outcomes(pos, action)
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-12 if outcomes else True
        assert all(p > 0 for _, p in outcomes)
        for bad in (("no such action", None), (action, "no such outcome")):
            with pytest.raises(OddsbotError) as caught:
                face.apply(pos, *bad)
            assert "\n" not in str(caught.value)
        if outcomes:
            with pytest.raises(OddsbotError):
                face.apply(pos, action, None)
        outcome = outcomes[-1][0] if outcomes else None
        for other, _ in outcomes:
            face.validate(face.apply(pos, action, other))
        pos = face.apply(pos, action, outcome)
        moves.append((action, outcome))
    again, read = face.record_moves(face.record_text(start, moves))
    assert read == moves and again.to_notation() == start.to_notation()


@pytest.mark.parametrize("name", GAMES)
def test_advise_json_rows_carry_the_core_columns(name, oddsbot_cli):
    """Every game's ``advise -f json`` row starts with ``action, ev, se, method, gap``;
    ``se`` is null where ``ev`` was not sampled (exact, or a model) and positive where it
    was; csv leaves the same cells empty."""
    spec = registry.spec(name)
    low, high = spec.players
    pos = spec.load().new_position(min(max(4, low), high), 0, name).to_notation()
    rows = oddsbot_cli("advise", pos, "--samples", "1024", "-f", "json").json()["actions"]
    assert rows and all(list(row)[:5] == REQUIRED_COLUMNS for row in rows)
    for row in rows:
        assert (row["se"] > 0) if row["method"] == "monte-carlo" else row["se"] is None, row
    csv_rows = oddsbot_cli("advise", pos, "--samples", "1024", "-f", "csv").out.splitlines()
    assert csv_rows[0].startswith(",".join(REQUIRED_COLUMNS))
    assert len(csv_rows) == len(rows) + 1


@pytest.mark.parametrize("name", GAMES)
def test_declared_target_se_defaults_are_the_face_s(name):
    """``GameSpec.target_se`` (which ``--help`` shows) says what the face does: each
    command's function takes ``target_se=None`` by default (--target-se not given: the
    declared default, or a fixed number of samples where none is declared; ``--samples``
    alone: exactly that many); that a run without either stops at the declared default
    is checked in ``tests/common/test_target_se.py``."""
    spec = registry.spec(name)
    face = spec.load()
    functions = {"odds": face.odds}
    if spec.has(Capability.POSITION_CHART):
        functions["chart"] = spec.load_designer().position_chart
    for command, function in functions.items():
        default = inspect.signature(function).parameters["target_se"].default
        assert default is None, (name, command)
    advise_default = inspect.signature(face.advise).parameters["target_se"].default
    assert advise_default is None, name


def _assert_legal(face, view, action: str) -> None:
    """``action`` is legal at ``view``: its outcomes are listed (a list of legal actions
    may be cut short: Kingdom Run's best 20,000 turns), or, where they are too many to
    list (a Five Tribes refill), it is a legal action."""
    try:
        face.outcomes(view, action)
    except OddsbotError:
        assert action in face.legal_actions(view), action


def _seats_game(face, players: int, variant: str, seed: int, policy: str):
    """A whole game through the SEATS face, every seat by compiled ``policy`` choosing from
    its own view: (the true positions, the actions taken, the result)."""
    pos = face.deal(players, seed, variant, {})
    seen, taken = [pos], []
    for k in range(10_000):
        if (result := face.game_result(pos)) is not None:
            return seen, taken, result
        view = face.seat_view(pos, pos.to_move)
        action = face.choose(view, policy, seed * 10_007 + k)
        _assert_legal(face, view, action)
        pos, outcome = face.step(pos, action, seed * 10_009 + k)
        if face.game_result(pos) is None:  # a game's last position may not be analysable
            face.validate(pos)
        seen.append(pos)
        taken.append((action, outcome))
    raise AssertionError("no end after 10,000 decisions")


def _fewest(face, spec: GameSpec) -> int:
    """The fewest players the game's own id deals for (a variant may allow fewer:
    camel-up-2014 plays with 2, camel-up with 3)."""
    for players in range(spec.players[0], spec.players[1]):
        try:
            face.deal(players, 0, spec.name, {})
            return players
        except OddsbotError:
            continue
    return spec.players[1]


@pytest.mark.parametrize("name", GAMES)
def test_seats(name):
    """Capability SEATS: seeded whole games by every compiled policy end, every step legal
    and valid; the same seeds give the same game; win shares sum to 1 and go to the best
    scores; candidates are legal, distinct, at most k and hold the heuristic's choice;
    playouts have the stated shape, their win shares sum to 1 per game, and rollout i
    shares its chance across actions (an action compared with itself gives equal rows);
    ``seated_record`` writes a record that replays to the game's end."""
    spec = registry.spec(name)
    if not spec.has(Capability.SEATS):
        pytest.skip(f"{name} has no arena seats yet")
    face = spec.load()
    players = _fewest(face, spec)
    for policy in face.POLICIES:
        seen, taken, (scores, wins) = _seats_game(face, players, name, 7, policy)
        assert len(scores) == len(wins) == players
        assert abs(sum(wins) - 1) < 1e-12 and min(wins) >= 0
        assert all(scores[s] == max(scores) for s in range(players) if wins[s] > 0)
        again = _seats_game(face, players, name, 7, policy)
        assert again[1] == taken and again[2] == (scores, wins)
    if spec.has(Capability.RECORDS):  # the game's record of it replays to its end
        _, steps = face.record.load_record(face.seated_record(seen, taken))
        assert steps.over and face.record.result(steps) is not None
    view = face.seat_view(seen[len(seen) // 2], seen[len(seen) // 2].to_move)
    legal = face.legal_actions(view)
    cands = face.candidates(view, 3, 1)
    assert cands and len(cands) == len(set(cands)) and set(cands) <= set(legal)
    assert len(cands) <= 3 + 2 and face.choose(view, "heuristic", 1) in cands
    if len(legal) <= 3:
        assert sorted(cands) == sorted(legal)
    twice = [cands[0], cands[0]]
    scores, wins = face.playouts(view, twice, n=16, seed=5, policy="heuristic")
    assert scores.shape == wins.shape == (2, 16, players)
    assert (scores[0] == scores[1]).all() and (wins[0] == wins[1]).all()
    assert abs(wins.sum(axis=2) - 1).max() < 1e-12
