"""`TraceFilterProxy`: the Trace tree filtered by a text found in a row's name or status.

Recursive: a row shows when it or one of its descendants matches, so matches keep their path
(run → execution → call). The panel reads the whole model before it filters (`TraceModel.fetch_all`).
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel
from PySide6.QtWidgets import QWidget

from widgets.trace.trace_cells import NAME, STATUS


class TraceFilterProxy(QSortFilterProxyModel):
    """Keeps rows whose name or status contains the text (and their ancestors, recursively)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRecursiveFilteringEnabled(True)
        self.needle = ""

    def set_needle(self, text: str) -> None:
        self.needle = text.casefold()
        self.invalidateFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:  # type: ignore[override]
        if not self.needle:
            return True
        model = self.sourceModel()
        for column in (NAME, STATUS):
            text = model.index(source_row, column, source_parent).data()
            if text and self.needle in str(text).casefold():
                return True
        return False
