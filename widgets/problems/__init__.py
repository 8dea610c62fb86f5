"""The problems dock: validation results of the open workflow, kept current as it changes."""

from __future__ import annotations

from widgets.problems.problems_model import ProblemsModel
from widgets.problems.problems_panel import ProblemsPanel

__all__ = ["ProblemsModel", "ProblemsPanel"]
