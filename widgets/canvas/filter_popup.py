"""A small keyboard-driven popup: a filter line above a list; Enter picks the current row.

Base of the node search (Ctrl+K) and quick-insert (Tab) popups.

Invariants: typing filters immediately; Up/Down move in the list without leaving the filter;
Enter or a click emits `picked(data)` once and closes; Escape closes without picking; at most
`MAX_ROWS` rows are listed (the search stays instant on 5,000 nodes).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QColor, QIcon, QKeyEvent, QPixmap
from PySide6.QtWidgets import QFrame, QLineEdit, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

MAX_ROWS = 200
Row = tuple[str, Any, QColor | None]  # text, data, colour swatch


class FilterPopup(QFrame):
    picked = Signal(object)

    def __init__(self, parent: QWidget | None, placeholder: str) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.resize(380, 320)
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText(placeholder)
        self.filter.setClearButtonEnabled(True)
        self.list = QListWidget(self)
        self.list.setUniformItemSizes(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.filter)
        layout.addWidget(self.list)
        self.filter.textChanged.connect(self.refilter)
        self.filter.installEventFilter(self)
        self.list.itemActivated.connect(self._pick)
        self.list.itemClicked.connect(self._pick)
        self._icons: dict[str, QIcon] = {}

    def rows(self, text: str) -> list[Row]:
        """The rows matching the filter text (subclasses implement it)."""
        raise NotImplementedError

    def refilter(self) -> None:
        self.list.clear()
        for text, data, color in self.rows(self.filter.text().strip().lower())[:MAX_ROWS]:
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, data)
            if color is not None:
                item.setIcon(self._swatch(color))
            self.list.addItem(item)
        if self.list.count():
            self.list.setCurrentRow(0)

    def _swatch(self, color: QColor) -> QIcon:
        key = color.name()
        if key not in self._icons:
            pixmap = QPixmap(12, 12)
            pixmap.fill(color)
            self._icons[key] = QIcon(pixmap)
        return self._icons[key]

    def focus_filter(self) -> None:
        self.refilter()
        self.filter.setFocus()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.filter and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            key = event.key()
            if key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
                step = -1 if key == Qt.Key.Key_Up else 1
                row = min(max(self.list.currentRow() + step, 0), self.list.count() - 1)
                self.list.setCurrentRow(row)
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                current = self.list.currentItem()
                if current is not None:
                    self._pick(current)
                return True
            if key == Qt.Key.Key_Escape:
                self.close()
                return True
        return super().eventFilter(watched, event)

    def _pick(self, item: QListWidgetItem) -> None:
        data = item.data(Qt.ItemDataRole.UserRole)
        self.close()
        self.picked.emit(data)
