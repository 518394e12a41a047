"""``oddsbot serve`` as a person runs it: a real process on a free port, answering, and
gone within a second of Ctrl-C; a port in use is one line and exit code 2."""

from __future__ import annotations

import json
import socket
import urllib.request

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
