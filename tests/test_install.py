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
