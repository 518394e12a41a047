"""``oddsbot serve`` benchmark (docs/benchmarks.md, "Serving"): figures only, no targets.

    python bench/bench_serve.py                 # the whole run (60 s of load)
    python bench/bench_serve.py --seconds 20    # a shorter load test

One process: the server (uvicorn, its worker processes) runs in a thread of this script,
on a free port, and is asked over HTTP, as the page asks it.

1. page load on a warm server: GET /, the page's scripts, the Camel Up board module,
   POST /api/new and POST /api/advise, one after the other, to the EV table (best of 5);
2. each game's ``advise`` through the API against in-process ``face.advise`` on the same
   position, samples and seed (best of 3 each): the API's cost in ms;
3. 20 concurrent clients for ``--seconds`` mixing requests (games, validate, moves, a
   small advise, odds): requests, failures, latency, and the server's RSS (its process
   and its workers) at the start and the end.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import statistics
import threading
import time

import httpx
import psutil
import uvicorn

from oddsbot.analyser import registry
from oddsbot.analyser.answers import DEFAULT_TARGET_SE, load_text
from oddsbot.analyser.serve.app import STATIC, create_app

SAMPLES = 4000  # of the per-game advise comparison
CLIENTS = 20


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(workers: int | None) -> tuple[uvicorn.Server, str]:
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(workers), host="127.0.0.1", port=port,
                                           log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    base = f"http://127.0.0.1:{port}"
    while not server.started:
        time.sleep(0.05)
    return server, base


def rss_mb() -> float:
    """Resident memory of this process and its children (the workers), in MB."""
    me = psutil.Process()
    return sum(p.memory_info().rss for p in [me, *me.children(recursive=True)]) / 1e6


def best_of(n: int, fn) -> float:
    best = float("inf")
    for _ in range(n):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def starts(client: httpx.Client) -> dict[str, dict]:
    return {g: client.post("/api/new", json={"game": g, "seed": 1}).raise_for_status().json()
            for g in registry.specs()}


def warm(client: httpx.Client, positions: dict[str, dict], workers: int) -> None:
    """Every worker loads every game's advise kernels (requests in parallel, so that each
    worker takes one)."""
    def one(game: str) -> None:
        client.post("/api/advise", json={"position": positions[game], "samples": 500},
                    timeout=None).raise_for_status()

    for game in positions:
        threads = [threading.Thread(target=one, args=(game,)) for _ in range(workers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()


def page_load(client: httpx.Client) -> float:
    scripts = [f"/static/{p.name}" for p in STATIC.iterdir() if p.name.endswith(".js")]
    board = next(g for g in client.get("/api/games").json() if g["name"] == "camel-up")["board"]

    def load() -> None:
        client.get("/").raise_for_status()
        for path in scripts + ([board] if board else []):
            client.get(path).raise_for_status()
        pos = client.post("/api/new", json={"game": "camel-up", "seed": 1}).json()
        table = client.post("/api/advise", json={"position": pos}).raise_for_status().json()
        assert table["actions"]

    return best_of(5, load)


def api_against_face(client: httpx.Client, positions: dict[str, dict]) -> None:
    for game, pos_json in positions.items():
        face = registry.spec(game).load()
        _, _, pos = load_text(json.dumps(pos_json), None)
        body = {"position": pos_json, "samples": SAMPLES, "seed": 1}

        def api(body: dict = body) -> None:
            client.post("/api/advise", json=body, timeout=None).raise_for_status()

        def direct(face=face, pos=pos) -> None:
            face.advise(pos, samples=SAMPLES, seed=1, target_se=DEFAULT_TARGET_SE,
                        progress=None)

        direct()  # compiled or loaded in this process too
        through, inside = best_of(3, api), best_of(3, direct)
        print(f"  {game:15} API {through * 1e3:8.1f} ms   face.advise {inside * 1e3:8.1f} ms"
              f"   difference {(through - inside) * 1e3:+8.1f} ms")


def load_test(base: str, positions: dict[str, dict], seconds: float) -> None:
    notations = {g: httpx.post(f"{base}/api/validate", json={"position": p, "format":
                                                             "notation"}).json()["notation"]
                 for g, p in positions.items()}
    games = list(positions)
    counts = {"requests": 0, "failures": 0}
    latencies: dict[str, list[float]] = {}
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def ask(client: httpx.Client, rng: random.Random, kind: str) -> httpx.Response:
        game = rng.choice(games)
        if kind == "games":
            return client.get("/api/games")
        body = {"position": notations[game]}
        if kind in ("advise", "odds"):
            body.update(samples=1000, seed=rng.randrange(1000), top=5 if kind == "advise"
                        else None)
            body = {k: v for k, v in body.items() if v is not None}
        return client.post(f"/api/{kind}", json=body)

    def client_loop(n: int) -> None:
        rng = random.Random(n)
        with httpx.Client(base_url=base, timeout=120) as client:
            while time.monotonic() < stop:
                kind = rng.choice(("games", "validate", "moves", "advise", "odds"))
                start = time.perf_counter()
                try:
                    ok = ask(client, rng, kind).status_code == 200
                except httpx.HTTPError:
                    ok = False
                with lock:
                    counts["requests"] += 1
                    counts["failures"] += not ok
                    latencies.setdefault(kind, []).append(time.perf_counter() - start)

    before = rss_mb()
    threads = [threading.Thread(target=client_loop, args=(n,)) for n in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    after = rss_mb()
    print(f"3. {CLIENTS} clients for {seconds:g} s (each finishes its last request): "
          f"{counts['requests']:,} requests, {counts['failures']} failures; RSS (server and "
          f"workers) {before:,.0f} MB at the start, {after:,.0f} MB at the end")
    for kind, took in sorted(latencies.items()):
        print(f"  {kind:9} {len(took):5,} requests, latency median "
              f"{statistics.median(took):7.3f} s, longest {max(took):7.3f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--workers", type=int, default=None,
                    help="worker processes of long computations (default: cores)")
    args = ap.parse_args()
    server, base = start_server(args.workers)
    api = server.config.app.state.api
    with httpx.Client(base_url=base, timeout=None) as client:
        started = time.perf_counter()
        positions = starts(client)
        warm(client, positions, api.workers)
        print(f"warm-up (every worker, every game's advise): "
              f"{time.perf_counter() - started:.1f} s")
        print(f"1. page load to the Camel Up EV table, warm server: "
              f"{page_load(client) * 1e3:.0f} ms (best of 5)")
        print(f"2. advise through the API against in-process face.advise "
              f"({SAMPLES:,} samples, seed 1, best of 3):")
        api_against_face(client, positions)
    load_test(base, positions, args.seconds)
    server.should_exit = True


if __name__ == "__main__":
    main()
