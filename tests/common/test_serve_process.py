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
    """The live worker processes' ids (multiprocessing's resource tracker left out)."""
    found = set()
    for child in server.children():
        try:
            if child.status() != psutil.STATUS_ZOMBIE and \
                    "resource_tracker" not in " ".join(child.cmdline()):
                found.add(child.pid)
        except psutil.Error:  # gone, or going, meanwhile
            continue
    return found


def ask_and_leave(port: int, body: dict, until: bytes | None) -> None:
    """POST ``body`` to /api/advise and close the connection: once ``until`` has come
    (a streamed progress line), else two seconds after sending."""
    data = json.dumps(body).encode()
    with socket.create_connection(("127.0.0.1", port)) as client:
        client.sendall(b"POST /api/advise HTTP/1.1\r\nHost: x\r\nContent-Length: "
                       + str(len(data)).encode() + b"\r\n\r\n" + data)
        if until is None:
            time.sleep(2)
            return
        client.settimeout(300)
        seen = b""
        while until not in seen:
            chunk = client.recv(4096)
            assert chunk, f"the stream ended before {until!r}: {seen[-500:]!r}"
            seen += chunk


def replaced(server: subprocess.Popen, before: set[int]) -> set[int]:
    """The workers, once one of ``before`` has been killed and replaced."""
    deadline = time.monotonic() + 60
    while True:
        now = workers_of(psutil.Process(server.pid))
        if len(before - now) == 1 and len(now) == len(before):
            return now
        assert time.monotonic() < deadline, f"no worker replaced: {before} -> {now}"
        time.sleep(0.1)


def test_a_client_that_goes_away_cancels_its_computation():
    port = free_port()
    server = subprocess.Popen([oddsbot_script(), "serve", "--port", str(port), "--workers",
                               "1"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              encoding="utf-8")
    try:
        assert f"127.0.0.1:{port}" in server.stdout.readline()
        long = {"position": "camel-up BGP/Y/R/11/W/K BGYRPX n=4 to=0", "samples": 10**9}
        before = workers_of(psutil.Process(server.pid))
        assert len(before) == 2  # one of long computations, one of quick ones
        ask_and_leave(port, {**long, "stream": True}, until=b'"progress"')
        after = replaced(server, before)
        ask_and_leave(port, long, until=None)  # not streamed: cancelled all the same
        replaced(server, after)
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


def test_serving_to_the_network_is_said_on_start():
    server = subprocess.Popen([oddsbot_script(), "serve", "--host", "0.0.0.0", "--port", "0",
                               "--workers", "1"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, encoding="utf-8")
    try:
        warning = server.stderr.readline()
        assert "oddsbot serving on http://0.0.0.0:" in server.stdout.readline()
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)
    assert warning == ("warning: listening on 0.0.0.0: the server is reachable from the "
                       "network; anyone who can reach it may run computations\n")


def test_another_host_than_loopback_is_said_to_be_reachable():
    from oddsbot.analyser.cli.serve import is_loopback

    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2")
