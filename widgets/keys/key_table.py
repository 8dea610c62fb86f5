"""Table model of the keys Triadic can use: each provider, and each server address with a stored key (or
added in the dialog), with its variable and where its key comes from.

Rows are `KeyState`s (never a key); `set_states` replaces them in one reset (a few dozen rows). A missing
key is drawn in red, one from the keyring or the environment in green (mid-tones that read on light and
dark themes alike).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from widgets.keys.key_access import ENVIRONMENT, KEYRING, MISSING, SERVER, KeyState

Index = QModelIndex | QPersistentModelIndex
HEADERS = ("Provider or server", "Variable", "Key from")
_COLORS = {MISSING: "#d9534f", KEYRING: "#2e9d57", ENVIRONMENT: "#2e9d57"}
_SERVER_VARIABLE = "— (this server's own key, keyring only)"


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

    def row_of(self, target: str | None) -> int:
        return next((i for i, s in enumerate(self.states) if s.target == target), -1)

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
            variable = _SERVER_VARIABLE if s.kind == SERVER else s.env_var
            return (s.target, variable, s.source)[column]
        if role == Qt.ItemDataRole.ForegroundRole and column == 2 and s.source in _COLORS:
            return QColor(_COLORS[s.source])
        return None
