"""The Verdicts dock: every critic's and verifier's verdict of a run, the artifact judged and its diff."""

from __future__ import annotations

from widgets.verdicts.verdicts_panel import VerdictsPanel

__all__ = ["VerdictsPanel"]
