"""``oddsbot serve``: a local web server with the page, the game boards and a JSON API
that answers what the CLI prints with ``-f json`` (docs/serve.md).

``app`` builds the Starlette app, ``bodies`` checks request bodies, ``work`` computes the
answers (in worker processes: ``jobs``). Like the CLI, the server is a roof over the
analyser: it names no game.
"""
