"""Table model of the providers that need a key: provider, variable, where its key comes from.

Rows are `KeyState`s (never a key); `set_states` replaces them in one reset (a handful of rows).
A missing key is drawn in red, one from the keyring or the environment in green (mid-tones that
read on light and dark themes alike).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from widgets.keys.key_access import ENVIRONMENT, KEYRING, MISSING, KeyState

Index = QModelIndex | QPersistentModelIndex
HEADERS = ("Provider", "Variable", "Key from")
_COLORS = {MISSING: "#d9534f", KEYRING: "#2e9d57", ENVIRONMENT: "#2e9d57"}


class KeyTableModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.states: list[KeyState] = []

    def set_states(self, states: list[KeyState]) -> None:
        self.beginResetModel()
        self.states = states
        self.endResetModel()

    def state(self, row: int) -> KeyState | None:
        return self.states[row] if 0 <= row < len(self.states) else None

    def row_of(self, provider: str | None) -> int:
        return next((i for i, s in enumerate(self.states) if s.provider == provider), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.states)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return HEADERS[section] if 0 <= section < len(HEADERS) else None
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        s, column = self.states[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (s.provider, s.env_var, s.source)[column]
        if role == Qt.ItemDataRole.ForegroundRole and column == 2 and s.source in _COLORS:
            return QColor(_COLORS[s.source])
        if role == Qt.ItemDataRole.ToolTipRole and column == 2 and s.detail:
            return s.detail
        return None
