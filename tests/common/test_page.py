"""The `oddsbot serve` page in a browser (docs/serve.md: The page, Board modules),
for every game (each declares its ``board`` module and play-along).

One server (uvicorn in a thread, on a free port) and one browser (Debian's chromium) for
the module; one page per game. Per game: ``#new`` with a seed, the game's
``tests/<game>/board_script.py`` ``build(page)`` edits the board by clicks, then the page
must agree with the CLI: the notation box with ``oddsbot validate``, the EV table with
``oddsbot advise -f json``, the position after playing the best action (and its first
outcome) with the face's ``apply``; ``#undo``/``#redo`` walk back and forth;
``#save-record`` downloads a record ``oddsbot replay`` accepts, and ``#open-record``
steps through it (``#turn-prev``/``#turn-next``); ``break_it(page)``'s
refused edit shows its message in ``#message``. Keyboard: Tab reaches every control.
Screenshots at 1280x800 and 390x844 go to ``$ODDSBOT_SHOTS`` (else a temporary folder),
and the phone width must not scroll sideways."""

from __future__ import annotations

import importlib
import json
import os
import socket
import threading
import time
from pathlib import Path

import pytest
from oddsbot.analyser import registry
from oddsbot.analyser.face import Capability

playwright_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

pytestmark = pytest.mark.xdist_group("browser")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SEED = 1
TIMEOUT_MS = 120_000  # a first advise may load a game's kernels in a worker
SIZES = ((1280, 800), (390, 844))
# every control a keyboard user must reach (visible and enabled)
FOCUSABLE = ("button:not([disabled]), input:not([disabled]), select:not([disabled]), "
             "textarea:not([disabled]), [tabindex='0']")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    """The serve app under uvicorn in a background thread; yields its base URL (or the
    URL of a running ``oddsbot serve`` in ``$ODDSBOT_SERVE_URL``)."""
    if os.environ.get("ODDSBOT_SERVE_URL"):
        yield os.environ["ODDSBOT_SERVE_URL"]
        return
    from oddsbot.analyser.serve import app as serve_app

    port = free_port()
    config = uvicorn.Config(serve_app.create_app(workers=2), host="127.0.0.1", port=port,
                            log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    srv.should_exit = True
    thread.join(timeout=30)


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no {CHROMIUM}")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = os.environ.get("ODDSBOT_SHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("shots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def settle(page) -> None:
    """Wait until no request of the page is in flight and the EV table is computed."""
    page.wait_for_function(
        "document.body.dataset.busy === '0' && "
        "document.querySelector('#ev-table').dataset.state !== 'loading'",
        timeout=TIMEOUT_MS)


def open_game(browser, server, game: str):
    page = browser.new_page(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server)
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=TIMEOUT_MS)
    page.select_option("#game", game)
    settle(page)
    page.fill("#seed", str(SEED))
    page.click("#new")
    settle(page)
    assert page.text_content("#message") == ""
    return page, errors


def position(page) -> dict:
    return page.evaluate("window.oddsbot.position()")


def ev_rows(page) -> list[tuple[str, float | None, float | None]]:
    """(action, ev, se) of each EV table row, from the cells' exact data-value (None for
    a null or a column the table lacks)."""
    return page.evaluate("""() => {
      const table = document.querySelector('#ev-table');
      const cols = [...table.tHead.rows[0].cells].map((th) => th.textContent);
      const value = (tr, col) => {
        const td = tr.cells[cols.indexOf(col)];
        return td && td.dataset.value !== undefined ? JSON.parse(td.dataset.value) : null;
      };
      return [...table.tBodies[0].rows].map((tr) => [tr.dataset.action,
        value(tr, 'ev'), value(tr, 'se')]);
    }""")


def same(got: float | None, want: float | None) -> bool:
    return got == want if want is None else got == pytest.approx(want, rel=1e-9, abs=1e-12)


def board_script(game: str):
    return importlib.import_module(f"{registry.spec(game).name.replace('-', '_')}"
                                   ".board_script")


def check_notation(page, oddsbot_cli) -> dict:
    """The notation box is the line ``oddsbot validate`` prints for the page's position."""
    pos = position(page)
    run = oddsbot_cli("validate", "-", stdin=json.dumps(pos))
    assert run.code == 0, run.err
    assert page.input_value("#notation") == run.out.strip()
    return pos


def check_ev_table(page, oddsbot_cli, pos: dict) -> list:
    """The EV table is ``oddsbot advise -f json`` (same default seed), best first."""
    want = oddsbot_cli("advise", "-", "-f", "json", stdin=json.dumps(pos)).json()
    got = ev_rows(page)
    assert [r[0] for r in got] == [a["action"] for a in want["actions"]]
    for (action, ev, se), row in zip(got, want["actions"]):
        assert same(ev, row.get("ev")), (action, ev, row.get("ev"))
        assert same(se, row.get("se")), (action, se, row.get("se"))
    return got


def check_play(page, oddsbot_cli, game: str, pos: dict, best: str) -> dict:
    """Playing the best row (and its first outcome) gives the face's ``apply``."""
    face = registry.spec(game).load()
    start = face.Position.from_json(pos)
    outcomes = face.outcomes(start, best)
    page.click(f"#ev-table tbody tr[data-action='{best}']")
    if outcomes:
        page.wait_for_selector("#outcome", state="visible")
        page.select_option("#outcome", index=0)
        page.click("#play")
    settle(page)
    assert page.text_content("#message") == ""
    after = face.apply(start, best, outcomes[0][0] if outcomes else None)
    want = oddsbot_cli("validate", "-", "-f", "json",
                       stdin=json.dumps(after.to_json())).json()
    got = position(page)
    assert got == want
    return got


def check_record(page, oddsbot_cli, tmp_path: Path, pos: dict, after: dict) -> None:
    """``#save-record`` downloads the game from the last new start (one move), which
    ``oddsbot replay`` reads; ``#open-record`` shows it again, turn by turn."""
    with page.expect_download() as info:
        page.click("#save-record")
    download = info.value
    assert download.suggested_filename == "game.record"
    path = tmp_path / "game.record"
    download.save_as(path)
    run = oddsbot_cli("replay", str(path), "--samples", "256", "-f", "json")
    assert run.code == 0, run.err
    turns = run.json()["turns"]
    page.set_input_files("#open-record", str(path))
    page.wait_for_function("['ready', 'error'].includes("
                           "document.querySelector('#replay').dataset.state)",
                           timeout=TIMEOUT_MS)
    assert page.get_attribute("#replay", "data-state") == "ready", \
        page.text_content("#replay-caption")
    assert page.locator("#replay-table tbody tr").count() == len(turns)
    assert position(page) == pos
    page.click("#turn-next")
    assert position(page) == after
    page.click("#turn-prev")
    assert position(page) == pos
    page.click("#turn-next")  # the board goes on from after the move, as before
    settle(page)


def check_keyboard(page) -> None:
    """Tab from the top of the page reaches every visible, enabled control."""
    count = page.evaluate(f"""() => {{
      const all = [...document.querySelectorAll("{FOCUSABLE}")]
        .filter((el) => el.getClientRects().length > 0);
      all.forEach((el, i) => el.setAttribute('data-kb', String(i)));
      return all.length;
    }}""")
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.focus("body")
    seen: set[str] = set()
    for _ in range(count + 10):
        page.keyboard.press("Tab")
        mark = page.evaluate("document.activeElement.getAttribute('data-kb')")
        if mark is not None:
            seen.add(mark)
        if len(seen) == count:
            break
    missed = page.evaluate("""(seen) => [...document.querySelectorAll('[data-kb]')]
      .filter((el) => !seen.includes(el.getAttribute('data-kb')))
      .map((el) => el.id || el.dataset.testid || el.outerHTML.slice(0, 80))""",
                           sorted(seen))
    assert not missed, f"Tab never reaches: {missed}"


def screenshot(page, shots: Path, game: str) -> None:
    """The board at both sizes; at phone width nothing scrolls sideways."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)
        page.screenshot(path=str(shots / f"{game}-{width}x{height}.png"), full_page=True)
        overflow = page.evaluate("document.documentElement.scrollWidth")
        assert overflow <= width, f"{game} at {width}px is {overflow}px wide"
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})


@pytest.mark.parametrize("game", sorted(registry.specs()))
def test_board_page(game, server, browser, shots, oddsbot_cli, tmp_path):
    assert registry.spec(game).board and registry.spec(game).has(Capability.PLAY)
    script = board_script(game)
    page, errors = open_game(browser, server, game)
    try:
        script.build(page)
        settle(page)
        assert page.text_content("#message") == "", "build(page) made a refused edit"
        pos = check_notation(page, oddsbot_cli)
        best = check_ev_table(page, oddsbot_cli, pos)[0][0]
        screenshot(page, shots, game)
        check_keyboard(page)
        after = check_play(page, oddsbot_cli, game, pos, best)
        page.click("#undo")  # the history moves at once; an analysis waits a moment
        assert position(page) == pos
        page.click("#redo")
        assert position(page) == after
        settle(page)
        check_record(page, oddsbot_cli, tmp_path, pos, after)
        expected = script.break_it(page)
        page.wait_for_function("document.querySelector('#message').textContent !== ''",
                               timeout=TIMEOUT_MS)
        assert expected in page.text_content("#message")
        assert position(page) == after, "a refused edit changed the position"
        assert not errors, errors
    finally:
        page.close()


def test_a_typed_action_and_outcome(server, browser, oddsbot_cli):
    """An action typed into ``#action`` with its outcome typed into ``#outcome-typed`` (as
    where the outcomes are too many to list) moves the game on as the face's ``apply``; a
    bad outcome is refused in ``#message`` and changes nothing."""
    page, errors = open_game(browser, server, "camel-up")
    try:
        face = registry.spec("camel-up").load()
        start = position(page)
        page.fill("#action", "pyramid")
        page.fill("#outcome-typed", "no such die")
        page.click("#play")
        page.wait_for_function("document.querySelector('#message').textContent !== ''",
                               timeout=TIMEOUT_MS)
        assert "no such die" in page.text_content("#message") and position(page) == start
        page.fill("#outcome-typed", "blue 2")
        page.click("#play")
        settle(page)
        want = face.apply(face.Position.from_json(start), "pyramid", "blue 2").to_json()
        assert page.text_content("#message") == ""
        assert position(page) == oddsbot_cli("validate", "-", "-f", "json",
                                             stdin=json.dumps(want)).json()
        assert page.input_value("#outcome-typed") == ""
        assert not errors, errors
    finally:
        page.close()
