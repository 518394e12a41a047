"""The distribution installs one top-level package, ``oddsbot`` (DESIGN.md, import names)."""

from __future__ import annotations

from importlib import metadata


def test_only_oddsbot_is_a_top_level_package():
    tops = {name for name, dists in metadata.packages_distributions().items()
            if "oddsbot" in dists and not name.startswith("__editable__")}
    assert tops == {"oddsbot"}


def test_subpackages_import_under_oddsbot():
    import oddsbot
    import oddsbot.analyser.cli
    import oddsbot.kernels.camel_up
    import oddsbot.reports

    assert oddsbot.kernels.camel_up.__name__ == "oddsbot.kernels.camel_up"
    assert oddsbot.__version__ == metadata.version("oddsbot")
    entry = [e for e in metadata.entry_points(group="console_scripts") if e.name == "oddsbot"]
    assert entry and entry[0].value == "oddsbot.analyser.cli:console"


def test_every_source_package_is_installed():
    """Every package folder of the three layers (a folder holding an ``__init__.py``)
    imports as ``oddsbot.<layer>.<...>``: a package that discovery missed installs in
    editable mode but not from a wheel, which is what CI installs."""
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    found = []
    for folder in ("kernels", "analyser", "reports"):
        for init in (root / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(root / folder).parts
            found.append(".".join(("oddsbot", folder, *rel)))
    assert len(found) >= 9
    missing = [name for name in found if importlib.util.find_spec(name) is None]
    assert missing == []


def test_the_examples_are_installed():
    """The example files ship with the package (CI installs a wheel): the installed
    folder holds every file of the clone's ``examples/``, byte for byte."""
    from pathlib import Path

    from oddsbot.inputs import EXAMPLES

    root = Path(__file__).resolve().parents[2] / "examples"
    ours = {p.name: p.read_bytes() for p in root.iterdir() if p.suffix in (".json", ".record")}
    shipped = {p.name: p.read_bytes() for p in EXAMPLES.iterdir()
               if p.suffix in (".json", ".record")}
    assert len(ours) >= 15 and shipped == ours
