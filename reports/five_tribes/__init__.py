"""Five Tribes' designer face: whole-game batches, report sections, and the position and
replay charts (``charts``)."""

from .charts import position_chart, replay_chart
from .games import (
    RAW_FIELDS, RULES_VERSION, arena_results, check_run, raw_table, seat_policies,
    simulate_block, simulate_raw,
)
from .report import report_sections

__all__ = ["RAW_FIELDS", "RULES_VERSION", "arena_results", "check_run", "position_chart",
           "raw_table", "replay_chart", "report_sections", "seat_policies", "simulate_block", "simulate_raw"]
