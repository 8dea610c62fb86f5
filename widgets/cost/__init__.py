"""The Cost & tokens dock: budget gauges, live usage plots and breakdowns of a run (`CostPanel`)."""

from widgets.cost.cost_panel import CostPanel

__all__ = ["CostPanel"]
