"""``oddsbot serve``'s JSON API answers what the CLI prints with ``-f json`` (docs/serve.md).

The app runs in-process (Starlette's TestClient, worker processes of its own); every
answer is compared with the CLI's for the same inputs and seed (``oddsbot_cli``), every
refusal with the CLI's one line.
"""

from __future__ import annotations

import json
import threading
import time

import pytest
from starlette.testclient import TestClient

from oddsbot.analyser import registry
from oddsbot.analyser.face import Capability
from oddsbot.analyser.serve.app import CANCELLED, create_app
from oddsbot.inputs import POSITION_LIMIT

GAMES = sorted(registry.specs())
SEED = 3
SAMPLES = 400  # enough for a table, little enough for a quick test


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=2)) as c:
        yield c


def post(client, endpoint: str, body: dict, **headers):
    return client.post(f"/api/{endpoint}", json=body, headers=headers)


@pytest.fixture(scope="module")
def starts(client):
    """Every game's start position (seed SEED): its JSON, as the API deals it."""
    out = {}
    for game in GAMES:
        answer = post(client, "new", {"game": game, "seed": SEED})
        assert answer.status_code == 200, answer.text
        out[game] = answer.json()
    return out


@pytest.mark.parametrize("game", GAMES)
def test_new_validate_moves_answer_the_cli_s_json(game, client, starts, oddsbot_cli):
    assert starts[game] == oddsbot_cli("new", game, "--seed", SEED, "-f", "json").json()
    text = json.dumps(starts[game])
    assert post(client, "validate", {"position": starts[game]}).json() == \
        oddsbot_cli("validate", text, "-f", "json").json()
    shown = oddsbot_cli("validate", text)
    assert shown.code == 0
    notation = post(client, "validate", {"position": text, "format": "notation"}).json()
    assert notation["notation"] == shown.out.strip()
    assert isinstance(notation["player"], str) and notation["player"]
    # the notation reads back the same
    assert post(client, "validate", {"position": notation["notation"]}).json() == \
        starts[game]
    assert post(client, "moves", {"position": starts[game]}).json() == \
        oddsbot_cli("moves", text, "-f", "json").json()


@pytest.mark.parametrize("game", GAMES)
def test_advise_and_odds_answer_the_cli_s_json(game, client, starts, oddsbot_cli):
    notation = post(client, "validate", {"position": starts[game],
                                         "format": "notation"}).json()["notation"]
    advice = post(client, "advise", {"position": notation, "samples": SAMPLES, "seed": 5,
                                     "top": 3})
    assert advice.status_code == 200, advice.text
    assert advice.json() == oddsbot_cli("advise", notation, "--samples", SAMPLES, "--seed",
                                        5, "--top", 3, "-f", "json").json()
    odds = post(client, "odds", {"position": notation, "samples": SAMPLES, "seed": 5})
    assert odds.status_code == 200, odds.text
    assert odds.json() == oddsbot_cli("odds", notation, "--samples", SAMPLES, "--seed", 5,
                                      "-f", "json").json()


def test_rules_answer_the_cli_s_json(client, oddsbot_cli):
    for game in GAMES:
        assert post(client, "rules", {"game": game}).json() == \
            oddsbot_cli("rules", game, "-f", "json").json()


def cli_error(run) -> str:
    assert run.code == 2, run.err
    assert run.err.startswith("oddsbot: error: ") and run.err.count("\n") == 1, run.err
    return run.err.removeprefix("oddsbot: error: ").strip()


@pytest.mark.parametrize("fields, args", [
    ({"samples": 0}, ["--samples", "0"]),
    ({"target_se": -1}, ["--target-se", "-1"]),
    ({"seed": -1}, ["--seed", "-1"]),
    ({"deck_model": "psychic"}, ["--deck-model", "psychic"]),
    ({"variant": "chess"}, ["--variant", "chess"]),
    ({"policy": "random"}, ["--policy", "random"]),
    ({"rule": ["nope=1"]}, ["--rule", "nope=1"]),
    ({"roll": "SCBY"}, ["--roll", "SCBY"]),
])
def test_a_bad_option_gets_the_cli_s_line(fields, args, client, oddsbot_cli):
    notation = oddsbot_cli("new", "camel-up", "-f", "notation").out.strip()
    answer = post(client, "advise", {"position": notation, **fields})
    assert answer.status_code == 400
    assert answer.json() == {"error": cli_error(oddsbot_cli("advise", notation, *args))}


@pytest.mark.parametrize("endpoint, command", [
    ("validate", "validate"), ("moves", "moves"), ("advise", "advise"), ("odds", "odds")])
def test_a_bad_position_gets_the_cli_s_line(endpoint, command, client, oddsbot_cli):
    notation = "camel-up BGP/Y/R/11/W/K BGYRPQ n=4 to=0"
    answer = post(client, endpoint, {"position": notation})
    assert answer.status_code == 400
    assert answer.json() == {"error": cli_error(oddsbot_cli(command, notation))}


def test_a_new_game_s_bad_option_gets_the_cli_s_line(client, oddsbot_cli):
    answer = post(client, "new", {"game": "camel-up", "rule": ["x"]})
    assert answer.json() == {"error": cli_error(oddsbot_cli("new", "camel-up", "--rule",
                                                            "x"))}
    answer = post(client, "new", {"game": "chess"})
    assert answer.status_code == 400
    assert answer.json() == {"error": cli_error(oddsbot_cli("new", "chess"))}


@pytest.mark.parametrize("position", ["examples/camel-up-start-4p.json", "-", "/etc/passwd",
                                      "game.json", "../x.record"])
def test_the_server_reads_no_file(position, client):
    answer = post(client, "validate", {"position": position})
    assert answer.status_code == 400
    line = answer.json()["error"]
    assert line.startswith("position: ") and "reads no files" in line and "\n" not in line


def test_a_record_names_no_file_either(client):
    answer = post(client, "replay", {"record": "examples/camel-up-game-4p.record"})
    assert answer.status_code == 400
    assert "reads no files" in answer.json()["error"]


def test_a_body_larger_than_the_cli_reads_is_413(client):
    answer = client.post("/api/validate", content=b"{" + b" " * (POSITION_LIMIT + 70_000)
                         + b"}")
    assert answer.status_code == 413
    assert answer.json()["error"].startswith("request: the body is more than a validate "
                                             "request may be")


@pytest.mark.parametrize("body, expected", [
    (b"{not json", "request: the body is not JSON"),
    (b"[1, 2]", "request: the body must be a JSON object"),
    (b'{"position": "x", "colour": "red"}', "'colour': unknown field (known: position,"),
    (b'{"position": "x", "samples": "many"}', "samples: must be a whole number, got 'many'"),
    (b'{"position": "x", "samples": true}', "samples: must be a whole number, got True"),
    (b'{"samples": 10}', "position: required field missing"),
    (b'{"position": 7}', "position: must be a string (notation or JSON) or a JSON object"),
])
def test_a_malformed_body_is_one_line(body, expected, client):
    answer = client.post("/api/advise", content=body)
    assert answer.status_code == 400
    line = answer.json()["error"]
    assert line.startswith(expected) and "\n" not in line


def test_games_lists_every_game(client):
    listed = {g["name"]: g for g in client.get("/api/games").json()}
    assert sorted(listed) == GAMES
    for name, spec in registry.specs().items():
        entry = listed[name]
        assert entry["variants"] == dict(spec.variants)
        assert entry["players"] == list(spec.players)
        assert set(entry["capabilities"]) == {c.value for c in spec.capabilities}
        assert entry["docs"] == spec.docs
        assert entry["board"] == (None if spec.board is None
                                  else f"/games/{name}/board.js")


@pytest.mark.parametrize("game", GAMES)
def test_each_game_s_board_module_is_served_from_its_package(game, client):
    from importlib import resources

    spec = registry.spec(game)
    answer = client.get(f"/games/{game}/board.js")
    if spec.board is None:
        assert answer.status_code == 404
        return
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    source = resources.files(spec.face.rpartition(".")[0]) / spec.board
    assert answer.content == source.read_bytes()


def test_the_page_is_served(client):
    answer = client.get("/")
    assert answer.status_code == 200 and "<html" in answer.text.lower()
    assert client.get("/games/chess/board.js").status_code == 404


def stream_lines(client, body: dict, **headers) -> list[dict]:
    with client.stream("POST", "/api/advise", json={**body, "stream": True},
                       headers=headers) as answer:
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("application/x-ndjson")
        return [json.loads(line) for line in answer.iter_lines() if line]


LONG = {"samples": 3_000_000, "seed": 1}  # a Camel Up advise of some seconds


def test_streaming_gives_progress_then_the_result(client, oddsbot_cli):
    notation = oddsbot_cli("new", "camel-up", "-f", "notation").out.strip()
    lines = stream_lines(client, {"position": notation, "samples": 200_000, "seed": 2})
    *progress, last = lines
    assert progress and all(set(p) == {"progress"} for p in progress)
    done = [p["progress"][0] for p in progress]
    assert done == sorted(done) and all(p["progress"][1] > 0 for p in progress)
    assert last == {"result": oddsbot_cli("advise", notation, "--samples", 200_000, "--seed",
                                          2, "-f", "json").json()}


def test_a_streamed_refusal_is_an_error_line(client):
    assert stream_lines(client, {"position": "camel-up nonsense"})[-1].keys() == {"error"}


def in_thread(fn) -> tuple[threading.Thread, list]:
    box: list = []
    thread = threading.Thread(target=lambda: box.append(fn()), daemon=True)
    thread.start()
    return thread, box


def test_a_newer_computation_of_the_same_tab_cancels_the_older(client, oddsbot_cli):
    notation = oddsbot_cli("new", "camel-up", "-f", "notation").out.strip()
    first, box = in_thread(lambda: stream_lines(client, {"position": notation, **LONG},
                                                **{"X-Oddsbot-Tab": "tab-1"}))
    time.sleep(1.0)  # the first is running
    second = post(client, "advise", {"position": notation, "samples": 500},
                  **{"X-Oddsbot-Tab": "tab-1"})
    first.join(60)
    assert box and box[0][-1] == {"error": CANCELLED}
    assert second.status_code == 200, second.text


def test_a_plain_request_is_cancelled_too(client, oddsbot_cli):
    notation = oddsbot_cli("new", "camel-up", "-f", "notation").out.strip()
    first, box = in_thread(lambda: post(client, "advise", {"position": notation, **LONG},
                                        **{"X-Oddsbot-Tab": "tab-2"}))
    time.sleep(1.0)
    post(client, "odds", {"position": notation, "samples": 500},
         **{"X-Oddsbot-Tab": "tab-2"})
    first.join(60)
    assert box[0].status_code == 409 and box[0].json() == {"error": CANCELLED}


def test_a_long_job_does_not_block_the_server(client, oddsbot_cli):
    notation = oddsbot_cli("new", "camel-up", "-f", "notation").out.strip()
    first, box = in_thread(lambda: stream_lines(client, {"position": notation, **LONG},
                                                **{"X-Oddsbot-Tab": "tab-3"}))
    time.sleep(1.0)
    started = time.monotonic()
    assert client.get("/api/games").status_code == 200
    assert post(client, "validate", {"position": notation}).status_code == 200
    assert time.monotonic() - started < 5  # the first still runs: seconds more
    assert first.is_alive()
    post(client, "advise", {"position": notation, "samples": 100},
         **{"X-Oddsbot-Tab": "tab-3"})  # cancels it
    first.join(60)
    assert box[0][-1] == {"error": CANCELLED}


# --------------------------------------------------------------------------- play-along

PLAYING = [g for g in GAMES if registry.spec(g).has(Capability.PLAY)]


def test_play_along_is_refused_for_a_game_without_it(client, starts):
    for game in GAMES:
        if game in PLAYING:
            continue
        answer = post(client, "outcomes", {"position": starts[game], "action": "x"})
        assert answer.json() == {"error": f"{game} has no play-along yet"}


@pytest.mark.parametrize("game", PLAYING or [pytest.param("none", marks=pytest.mark.skip(
    "no game has play-along yet"))])
def test_play_along_carries_a_game_forward(game, client, starts):
    start = starts[game]
    action = post(client, "moves", {"position": start}).json()["moves"][0]
    chances = post(client, "outcomes", {"position": start, "action": action}).json()
    outcomes = chances["outcomes"]
    assert abs(sum(o["p"] for o in outcomes) - 1) < 1e-9 if outcomes else outcomes == []
    outcome = outcomes[0]["outcome"] if outcomes else None
    placed = post(client, "apply", {"position": start, "action": action,
                                    "outcome": outcome}).json()
    assert set(placed) == {"position", "notation", "player"}
    assert post(client, "validate", {"position": placed["position"]}).json() == \
        placed["position"]
    moves = [[action, outcome]]
    record = post(client, "record", {"start": start, "moves": moves}).json()["record"]
    back = post(client, "record/moves", {"record": record}).json()
    assert back["start"] == start and back["moves"] == moves


def test_replay_answers_the_cli_s_json(client, oddsbot_cli):
    from oddsbot.inputs import EXAMPLES

    record = (EXAMPLES / "camel-up-game-4p.record").read_text(encoding="utf-8")
    answer = post(client, "replay", {"record": record, "samples": 300, "seed": 2})
    assert answer.status_code == 200, answer.text
    assert answer.json() == oddsbot_cli("replay", "-", "--samples", 300, "--seed", 2,
                                        "-f", "json", stdin=record).json()


def test_chart_is_the_png_the_cli_writes(client, oddsbot_cli, tmp_path):
    notation = "camel-up 8/P/K/W/B/GY/2/R BGYRPX n=4 to=0"
    answer = post(client, "chart", {"position": notation, "samples": 2000, "seed": 1})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "image/png"
    out = tmp_path / "odds.png"
    assert oddsbot_cli("chart", notation, "--samples", 2000, "--seed", 1, "--out",
                       out).code == 0
    assert answer.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert answer.content == out.read_bytes()
