"""Package discovery: the top-level layers ``kernels/``, ``analyser/`` and ``reports/``
install, with every sub-package found below them, as ``oddsbot.kernels``,
``oddsbot.analyser`` and ``oddsbot.reports`` beside the root package ``src/oddsbot``,
which carries the example files (metadata and dependencies are in pyproject.toml)."""

from pathlib import Path

from setuptools import find_packages, setup

LAYERS = ("kernels", "analyser", "reports")

setup(
    packages=["oddsbot", *(f"oddsbot.{p}" for p in
                           find_packages(include=[f"{layer}*" for layer in LAYERS]))],
    package_dir={"oddsbot": "src/oddsbot", **{f"oddsbot.{layer}": layer for layer in LAYERS}},
    # the example positions and records (``examples/``, linked from src/oddsbot/examples)
    package_data={"oddsbot": ["examples/*.json", "examples/*.record"],
                  # the page of oddsbot serve and every game's board module (docs/serve.md)
                  "oddsbot.analyser.serve": ["static/*"],
                  **{f"oddsbot.analyser.{game.name}": ["board.js"]
                     for game in (Path(__file__).parent / "analyser").iterdir() if (game / "face.py").is_file()}},
)
