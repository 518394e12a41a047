"""Kingdom Run's declared variants: the default rules and two presets of the assumed
parameters, so that reports can set them side by side (docs/games/kingdom-run.md §11)."""

from __future__ import annotations

from collections.abc import Mapping

from .rules import Rules

# variant id -> the rule parameters it sets (text, as ``--rule`` takes them)
VARIANT_RULES: dict[str, dict[str, str]] = {
    "kingdom-run": {},
    "kingdom-run-linear-podium": {"podium_values": "8,7,6,5,4,3,2,1"},
    "kingdom-run-exact-zones": {"zone_mode": "exact"},
}


def rules_of(variant: str, given: Mapping[str, str] | None = None) -> Rules:
    """The rules of ``variant`` with the ``--rule`` values ``given`` set on top."""
    rules = Rules().with_(VARIANT_RULES[variant], "variant")
    return rules.with_(dict(given or {}), "--rule") if given else rules


def variant_of(rules: Rules) -> str:
    """The variant whose preset these rules are (``kingdom-run`` otherwise)."""
    changed = rules.changed()
    for name, preset in VARIANT_RULES.items():
        if preset and changed == preset:
            return name
    return "kingdom-run"
