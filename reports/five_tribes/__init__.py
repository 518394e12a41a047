"""Five Tribes' designer face: whole-game batches and report sections (no position or
replay charts yet: the game does not declare those capabilities)."""

from .games import (
    RAW_FIELDS, RULES_VERSION, check_run, raw_table, seat_policies, simulate_block, simulate_raw,
)
from .report import report_sections

__all__ = ["RAW_FIELDS", "RULES_VERSION", "check_run", "raw_table", "report_sections",
           "seat_policies", "simulate_block", "simulate_raw"]
