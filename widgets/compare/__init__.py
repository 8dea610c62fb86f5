"""The Compare dock: two runs side by side (`ComparePanel`, over an `engine.compare.RunDiff`)."""

from widgets.compare.compare_panel import ComparePanel

__all__ = ["ComparePanel"]
