"""`StoreHousekeeping`: the Runs dock's bottom bar (a child widget of the panel) — the store's size above Prune… and Compact database.

It keeps no reference to the panel (its parent): a cycle of Qt wrappers collected by a worker thread's
garbage collection would destroy widgets off the GUI thread. Every store access (size, prune plan,
prune, VACUUM) runs in the loop's executor through the panel
(`RunsPanel.in_worker`, `RunsPanel.store`), never on the GUI thread. Prune… opens the non-modal
`PruneDialog`; its rules are planned by `engine.store.housekeeping.plan_prune` (the CLI's rules: live
runs and sources of kept replays / forks stay) and the dialog shows the count before anything goes.
After a prune or a compaction the list is reloaded and the size read again.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtWidgets import QDialog, QHBoxLayout, QPushButton, QVBoxLayout, QWidget
from shiboken6 import isValid

from widgets.compact_rows import compact_buttons
from widgets.elided_label import ElidedLabel
from widgets.runs.prune_dialog import PruneDialog

if TYPE_CHECKING:
    from widgets.runs.runs_panel import RunsPanel


class StoreHousekeeping(QWidget):
    def __init__(self, panel: RunsPanel) -> None:
        super().__init__(panel)  # the panel is its parent, never an attribute: no reference cycle
        self.size_label = ElidedLabel("", self)
        self.prune_button = QPushButton("Prune…", self)
        self.prune_button.setToolTip("Remove old runs (a preview says how many first)")
        self.compact_button = QPushButton("Compact database", self)
        self.compact_button.setToolTip("Give the space of removed runs back to the disk (SQLite VACUUM)")
        rows = QVBoxLayout(self)  # the size above the buttons: both readable in a narrow left column
        rows.setContentsMargins(0, 0, 0, 0)
        rows.addWidget(self.size_label)
        self.bar = QHBoxLayout()
        self.bar.addWidget(self.prune_button)
        self.bar.addWidget(self.compact_button)
        self.bar.addStretch(1)
        rows.addLayout(self.bar)
        compact_buttons(self.prune_button, self.compact_button)
        self.dialog: PruneDialog | None = None
        self.note = ""  # what the last prune or compaction did, beside the size
        self.prune_button.clicked.connect(self.open_prune)
        self.compact_button.clicked.connect(self.compact)

    @property
    def panel(self) -> RunsPanel:
        return cast("RunsPanel", self.parentWidget())

    def refresh_size(self) -> None:
        self._spawn(self._show_size())

    def open_prune(self) -> PruneDialog:
        dialog = PruneDialog(self.panel)
        dialog.rules_changed.connect(lambda older, keep: self._spawn(self._preview(dialog, older, keep)))
        dialog.finished.connect(lambda result: self._on_prune_answered(dialog, result))
        self.dialog = dialog
        dialog.open()
        self._spawn(self._preview(dialog, *dialog.rules()))
        return dialog

    def compact(self) -> None:
        self.compact_button.setEnabled(False)
        self._spawn(self._compact())

    # -- work in the executor --------------------------------------------------------------------
    def _spawn(self, work: Any) -> None:
        asyncio.get_event_loop().create_task(work)

    async def _show_size(self) -> None:
        from engine.store.housekeeping import fmt_size

        try:
            size = await self.panel.in_worker(lambda: self.panel.store().size_bytes())
        except Exception:  # the panel already says why the store cannot be read
            return
        if isValid(self.size_label):
            self.size_label.setText(f"Database: {fmt_size(size)}" + (f" · {self.note}" if self.note else ""))
            self.size_label.setToolTip(str(self.panel.store().path))

    async def _preview(self, dialog: PruneDialog, older: float | None, keep: int | None) -> None:
        from engine.store.housekeeping import plan_prune

        try:
            plan = await self.panel.in_worker(lambda: plan_prune(self.panel.store(), older_than_days=older, keep=keep))
            text, count = plan.describe(), len(plan.delete)
        except Exception as exc:
            text, count = f"Cannot plan the prune: {exc}", 0
        if isValid(dialog):
            dialog.show_preview((older, keep), text, count)

    def _on_prune_answered(self, dialog: PruneDialog, result: int) -> None:
        older, keep = dialog.rules()
        self.dialog = None
        dialog.deleteLater()
        if result == QDialog.DialogCode.Accepted:
            self._spawn(self._prune(older, keep))

    async def _prune(self, older: float | None, keep: int | None) -> None:
        from engine.store.housekeeping import apply_prune, plan_prune

        def work() -> tuple[int, str]:
            store = self.panel.store()
            plan = plan_prune(store, older_than_days=older, keep=keep)  # planned again: runs may have ended
            return apply_prune(store, plan), plan.describe()

        try:
            removed, described = await self.panel.in_worker(work)
            self.note = f"pruned {removed} run{'s' if removed != 1 else ''}: compact to free the space"
            self.prune_button.setToolTip(described)
        except Exception as exc:
            self.note = f"could not prune: {exc}"
        if isValid(self.panel):
            self.panel.refresh()

    async def _compact(self) -> None:
        try:
            await self.panel.in_worker(lambda: self.panel.store().vacuum())
            self.note = "compacted"
        except Exception as exc:
            self.note = f"could not compact: {exc}"
        if isValid(self.compact_button):
            self.compact_button.setEnabled(True)
            self.refresh_size()
