"""``oddsbot serve`` as a person runs it: a real process on a free port, answering, and
gone within a second of Ctrl-C; a port in use is one line and exit code 2."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import time
import urllib.request

import psutil
from docs_blocks import oddsbot_script
from terminal import interrupted


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_answers_then_stops_within_a_second_of_ctrl_c():
    port = free_port()
    answers = []

    def ask() -> None:  # while it serves: /api/games and a validate
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=30) as r:
            answers.append(json.load(r))

    code, screen, took = interrupted(["serve", "--port", str(port), "--workers", "1"],
                                     when=f"http://127.0.0.1:{port}/", after=0.5,
                                     before_signal=ask)
    assert f"oddsbot serving on http://127.0.0.1:{port}/" in screen
    assert answers and "camel-up" in {g["name"] for g in answers[0]}
    assert took < 1.0, f"{took:.2f} s from Ctrl-C to the exit"
    assert "Traceback" not in screen
    assert code in (0, 130), screen


def workers_of(server: psutil.Process) -> set[int]:
    """The worker processes' ids (multiprocessing's resource tracker left out)."""
    return {p.pid for p in server.children()
            if "resource_tracker" not in " ".join(p.cmdline())}


def test_a_client_that_goes_away_cancels_its_computation():
    port = free_port()
    server = subprocess.Popen([oddsbot_script(), "serve", "--port", str(port), "--workers",
                               "1"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              encoding="utf-8")
    try:
        assert f"127.0.0.1:{port}" in server.stdout.readline()
        notation = "camel-up BGP/Y/R/11/W/K BGYRPX n=4 to=0"
        before = workers_of(psutil.Process(server.pid))
        assert len(before) == 2  # one of long computations, one of quick ones
        body = json.dumps({"position": notation, "samples": 10**9}).encode()
        with socket.create_connection(("127.0.0.1", port)) as client:
            client.sendall(b"POST /api/advise HTTP/1.1\r\nHost: x\r\nContent-Length: "
                           + str(len(body)).encode() + b"\r\n\r\n" + body)
            time.sleep(2)  # it computes
        deadline = time.monotonic() + 30
        while workers_of(psutil.Process(server.pid)) & before == before:
            assert time.monotonic() < deadline, "the computation's worker still runs"
            time.sleep(0.1)
        after = workers_of(psutil.Process(server.pid))
        assert len(before - after) == 1  # killed, and replaced:
        assert len(after) == 2
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)


def test_a_port_in_use_is_one_line(oddsbot_cli):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        run = oddsbot_cli("serve", "--port", port)
    assert run.code == 2
    assert run.err == (f"oddsbot: error: --port: {port} is in use on 127.0.0.1 (another "
                       f"server?); pick another with --port\n")


def test_another_host_than_loopback_is_said_to_be_reachable():
    from oddsbot.analyser.cli.serve import is_loopback

    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2")
