"""Camel Up Cards' designer face: whole-game batches, report sections and the position
chart."""

from .charts import position_chart
from .games import (
    RAW_FIELDS, RULES_VERSION, check_run, raw_table, seat_policies, simulate_block, simulate_raw,
)
from .report import report_sections

__all__ = ["RAW_FIELDS", "RULES_VERSION", "check_run", "position_chart", "raw_table",
           "report_sections", "seat_policies", "simulate_block", "simulate_raw"]
