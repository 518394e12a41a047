"""The Starlette app of ``oddsbot serve``: the page, the game boards and the JSON API
(docs/serve.md). It names no game: games come from the registry.

Every computation runs in a worker process (``jobs.py``): the long ones (advise, odds,
replay, chart) in a pool of one worker per core, the quick ones (new, validate, moves,
play-along) in a worker of their own, so that a long computation never holds them up.
A long computation is cancelled (its worker killed) when its client disconnects, or when a
newer one comes from the same tab (header ``X-Oddsbot-Tab``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ...errors import OddsbotError
from .. import registry, render
from ..face import GameSpec
from . import bodies, jobs, work

STATIC = resources.files(__package__) / "static"
TAB = "x-oddsbot-tab"
CANCELLED = "cancelled: a newer computation came from the same tab"
QUICK = ("new", "validate", "moves", "outcomes", "apply", "record", "record/moves")


class Refused(Exception):
    """A request answered with one line and an HTTP status."""

    def __init__(self, status: int, line: str) -> None:
        super().__init__(line)
        self.status = status


class CliJSON(JSONResponse):
    """JSON as the CLI prints it with ``-f json``: indented, one newline at the end (so
    ``curl`` shows the bytes ``oddsbot COMMAND -f json`` prints)."""

    def render(self, content: Any) -> bytes:
        return (render.to_json(content) + "\n").encode("utf-8")


def error(status: int, line: str) -> JSONResponse:
    return CliJSON({"error": line}, status_code=status)


def game_entry(spec: GameSpec) -> dict[str, Any]:
    """One game of ``/api/games``."""
    return {"name": spec.name, "title": spec.title, "variants": dict(spec.variants),
            "players": list(spec.players),
            "capabilities": sorted(c.value for c in spec.capabilities),
            "policies": list(spec.policies), "rollout_policies": list(spec.rollout_policies),
            "board": f"/games/{spec.name}/board.js" if spec.board else None,
            "docs": spec.docs}


async def games(request: Request) -> Response:
    return CliJSON([game_entry(spec) for spec in registry.specs().values()])


async def board(request: Request) -> Response:
    """A game's board module (``GameSpec.board``), from the game's package."""
    try:
        spec = registry.spec(request.path_params["game"])
    except OddsbotError as exc:
        return error(404, str(exc))
    if spec.board is None:
        return error(404, f"{spec.name} has no board module")
    package = spec.face.rpartition(".")[0]
    source = resources.files(package) / spec.board
    if not source.is_file():
        return error(404, f"{spec.name}: its board module {spec.board} is missing")
    return Response(source.read_bytes(), media_type="text/javascript")


async def page(request: Request) -> Response:
    index = STATIC / "index.html"
    if not index.is_file():
        return error(404, "the page is missing (analyser/serve/static/index.html)")
    return FileResponse(str(index))


async def read_body(request: Request, endpoint: str) -> bytes:
    """The body, refused (413) as soon as it is longer than ``endpoint`` may take."""
    most = bodies.limit(endpoint)
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > most:
        raise Refused(413, bodies.too_large(endpoint))
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > most:
            raise Refused(413, bodies.too_large(endpoint))
        chunks.append(chunk)
    return b"".join(chunks)


async def disconnected(request: Request) -> None:
    """Returns once the client has gone (the body must have been read)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


class Tabs:
    """The running long computation of each tab: a newer one cancels it."""

    def __init__(self) -> None:
        self.running: dict[str, asyncio.Event] = {}

    def start(self, tab: str | None) -> asyncio.Event:
        """An event set when a newer computation of ``tab`` starts."""
        superseded = asyncio.Event()
        if tab:
            if (older := self.running.get(tab)) is not None:
                older.set()
            self.running[tab] = superseded
        return superseded

    def end(self, tab: str | None, event: asyncio.Event) -> None:
        if tab and self.running.get(tab) is event:
            del self.running[tab]


def final_response(message: tuple) -> Response:
    kind, value = message[0], message[1]
    if kind == "result":
        if isinstance(value, bytes):
            return Response(value, media_type="image/png")
        return CliJSON(value)
    if kind == "error":
        return error(400, value)
    print(value, file=sys.stderr)  # a bug: its traceback in the server's log
    return error(500, "internal error: " + value.strip().splitlines()[-1])


def stream_line(message: tuple) -> str:
    kind, value = message[0], message[1:]
    if kind == "progress":
        return json.dumps({"progress": list(value)}) + "\n"
    if kind == "result":
        return json.dumps({"result": work.streamed(value[0])}) + "\n"
    if kind == "crash":
        print(value[0], file=sys.stderr)
        return json.dumps({"error": "internal error: "
                           + value[0].strip().splitlines()[-1]}) + "\n"
    return json.dumps({"error": value[0]}) + "\n"


async def _first(*awaitables: Any) -> Any:
    """The result of whichever awaitable finishes first (index, value); the others are
    cancelled."""
    tasks = [asyncio.ensure_future(a) for a in awaitables]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        first = next(t for t in tasks if t in done)
        return tasks.index(first), first.result()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


class Api:
    """The endpoints of ``/api/``: body checks, then a job in a worker."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or jobs.default_size()
        self.long: jobs.Pool | None = None
        self.quick: jobs.Pool | None = None
        self.tabs = Tabs()

    def open(self) -> None:
        self.long = jobs.Pool(self.workers)
        self.quick = jobs.Pool(1)

    def close(self) -> None:
        for pool in (self.long, self.quick):
            if pool is not None:
                pool.close()

    def route(self, endpoint: str) -> Route:
        async def answer(request: Request) -> Response:
            return await self.answer(endpoint, request)

        return Route(f"/api/{endpoint}", answer, methods=["POST"], name=endpoint)

    async def answer(self, endpoint: str, request: Request) -> Response:
        try:
            body = bodies.parse(endpoint, await read_body(request, endpoint))
        except Refused as exc:
            return error(exc.status, str(exc))
        except OddsbotError as exc:
            return error(400, str(exc))
        if endpoint == "rules":  # the declarations only: no worker needed
            try:
                return CliJSON(work.rules(body, None))
            except OddsbotError as exc:
                return error(400, str(exc))
        if endpoint in QUICK:
            return await self.quick_answer(endpoint, body, request)
        stream = body.pop("stream", False)
        tab = request.headers.get(TAB)
        superseded = self.tabs.start(tab)
        messages = self.long.run(endpoint, body)
        if stream:
            return StreamingResponse(self.lines(messages, superseded, tab),
                                     media_type="application/x-ndjson")
        try:
            async with contextlib.aclosing(messages):
                index, final = await _first(self.last(messages), superseded.wait(),
                                            disconnected(request))
        finally:
            self.tabs.end(tab, superseded)
        if index == 1:
            return error(409, CANCELLED)
        if index == 2:
            return Response(status_code=499)  # nobody reads it
        return final_response(final)

    async def quick_answer(self, endpoint: str, body: dict, request: Request) -> Response:
        async with contextlib.aclosing(self.quick.run(endpoint, body)) as messages:
            index, final = await _first(self.last(messages), disconnected(request))
        return final_response(final) if index == 0 else Response(status_code=499)

    @staticmethod
    async def last(messages: AsyncIterator[tuple]) -> tuple:
        async for message in messages:
            if message[0] != "progress":
                return message
        raise jobs.WorkerDied()

    async def lines(self, messages: AsyncIterator[tuple], superseded: asyncio.Event,
                    tab: str | None) -> AsyncIterator[str]:
        """The ndjson of a streamed computation: progress lines, then the final line; a
        ``cancelled`` error line if a newer computation of the tab came first."""
        try:
            async with contextlib.aclosing(messages):
                while True:
                    index, message = await _first(anext(messages), superseded.wait())
                    if index == 1:
                        yield json.dumps({"error": CANCELLED}) + "\n"
                        return
                    yield stream_line(message)
                    if message[0] != "progress":
                        return
        finally:
            self.tabs.end(tab, superseded)


ENDPOINTS = ("new", "validate", "moves", "advise", "odds", "rules", "outcomes", "apply",
             "record/moves", "record", "replay", "chart")


def create_app(workers: int | None = None, ready: Callable[[], None] | None = None
               ) -> Starlette:
    """The server's app; ``workers``: processes of long computations (default: cores);
    ``ready()`` is called once they are started."""
    api = Api(workers)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        api.open()
        if ready is not None:
            ready()
        try:
            yield
        finally:
            api.close()

    routes = [Route("/", page), Route("/api/games", games),
              Route("/games/{game}/board.js", board),
              *(api.route(name) for name in ENDPOINTS),
              Mount("/static", app=StaticFiles(directory=str(STATIC), check_dir=False),
                    name="static")]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.api = api
    return app
