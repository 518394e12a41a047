"""Print the version pip resolved for each direct dependency (and test extra) of oddsbot.

Usage: python .ci/resolved.py pyproject.toml REPORT.json, where REPORT.json is the output of
``pip install --dry-run --report REPORT.json '.[test]'``.
"""

from __future__ import annotations

import json
import re
import sys
import tomllib


def direct_names(pyproject: str) -> list[str]:
    """The distribution names of the dependencies and every optional extra."""
    with open(pyproject, "rb") as f:
        project = tomllib.load(f)["project"]
    specs = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        specs += extra
    return [re.split(r"[\s\[<>=!~;]", s, maxsplit=1)[0] for s in specs]


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def main(pyproject: str, report: str) -> None:
    with open(report) as f:
        resolved = {canonical(item["metadata"]["name"]): item["metadata"]["version"]
                    for item in json.load(f)["install"]}
    print("ci: resolved direct dependencies")
    for name in direct_names(pyproject):
        print(f"ci:   {name:<12} {resolved.get(canonical(name), 'NOT RESOLVED')}")


if __name__ == "__main__":
    main(*sys.argv[1:])
