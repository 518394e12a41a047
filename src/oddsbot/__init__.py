"""oddsbot: exact and Monte Carlo odds for board games.

The code lives in three sub-packages, installed under this name:
``oddsbot.kernels`` (numba, arrays only), ``oddsbot.analyser`` (positions, validation,
EV tables, the CLI) and ``oddsbot.reports`` (batch runs and charts).
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("oddsbot")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"
