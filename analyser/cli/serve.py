"""``oddsbot serve``: the page and the JSON API on a local web server (docs/serve.md)."""

from __future__ import annotations

import ipaddress
import socket
import webbrowser

import typer

from ...errors import OddsbotError
from .common import app, err

LOOPBACK = ("localhost",)


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable from this machine only."""
    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bound(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``; one line if it cannot be had."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    except socket.gaierror as exc:
        raise OddsbotError(f"--host: cannot resolve {host!r}: {exc.strerror}") from None
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == 98:  # EADDRINUSE
            raise OddsbotError(f"--port: {port} is in use on {host} (another server?); "
                               f"pick another with --port") from None
        raise OddsbotError(f"--host: cannot listen on {host}:{port}: {exc.strerror}"
                           ) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on; the default is this "
                             "machine only (anything else is reachable from the network)."),
    port: int = typer.Option(8765, min=0, max=65535, help="Port to listen on (0: any free one; "
                      "the line printed on start names it)."),
    open_browser: bool = typer.Option(False, "--open", help="Open the page in the web "
                                      "browser."),
    workers: int = typer.Option(0, min=0, help="Worker processes of long computations "
                                "(0: one per core)."),
) -> None:
    """Serve the page and the JSON API (docs/serve.md): the answers of advise, odds,
    moves, validate, new and replay as their -f json prints them. Ctrl-C stops it."""
    import uvicorn

    from ..serve.app import create_app

    sock = bound(host, port)
    port = sock.getsockname()[1]
    where = url(host, port)
    if not is_loopback(host):
        err.print(f"warning: listening on {host}: the server is reachable from the network; "
                  f"anyone who can reach it may run computations", markup=False,
                  highlight=False, soft_wrap=True)

    def ready() -> None:
        print(f"oddsbot serving on {where} (Ctrl-C stops it)", flush=True)
        if open_browser:
            webbrowser.open(where)

    config = uvicorn.Config(create_app(workers or None, ready), log_level="warning",
                            timeout_graceful_shutdown=0.5, lifespan="on")
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn hands Ctrl-C on once it has stopped: the way out
        pass
    err.print("oddsbot serve: stopped", markup=False, highlight=False)
