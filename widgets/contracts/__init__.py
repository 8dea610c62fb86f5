"""The Contracts dock (each trace contract of a run: holds or broken, where and why) and the inspector's
contracts editor."""

from __future__ import annotations

from widgets.contracts.contracts_editor import ContractsEditor
from widgets.contracts.contracts_panel import ContractsPanel

__all__ = ["ContractsEditor", "ContractsPanel"]
