"""oddsbot: exact and Monte Carlo odds for board games.

The code lives in three sub-packages, installed under this name:
``oddsbot.kernels`` (numba, arrays only), ``oddsbot.analyser`` (positions, validation,
EV tables, the CLI) and ``oddsbot.reports`` (batch runs and charts).
"""



def __getattr__(name: str) -> str:
    """``__version__``, read from the installed metadata on first use (importlib.metadata
    costs 35 ms, which ``--help`` need not pay)."""
    if name != "__version__":
        raise AttributeError(f"module 'oddsbot' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("oddsbot")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0.0.0+unknown"
