"""Five Tribes' designer face: whole-game batches and report sections (no position or
replay charts yet: those raise a one-line error)."""

from .games import check_run, raw_table, seat_policies, simulate_block, simulate_raw
from .report import position_chart, replay_chart, report_sections

__all__ = ["check_run", "position_chart", "raw_table", "replay_chart", "report_sections",
           "seat_policies", "simulate_block", "simulate_raw"]
