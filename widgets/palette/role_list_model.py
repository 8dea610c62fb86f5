"""A list model over the role catalog: label, summary tooltip, role colour; drags role names.

Colours come from `widgets.role_style`, shared with the canvas.
Invariant: the rows are exactly `engine.graph.roles.ROLES` in catalog order; dragging a row yields
mime `application/x-triadic-role` with the role name as UTF-8 bytes (what the canvas accepts).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QMimeData, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QIcon, QPixmap

from engine.graph.roles import ROLES
from engine.graph.specs import Role
from widgets.role_style import role_color

ROLE_MIME = "application/x-triadic-role"
ROLE_NAME = Qt.ItemDataRole.UserRole + 1
AnyIndex = QModelIndex | QPersistentModelIndex


def _swatch(color: QColor) -> QIcon:
    pixmap = QPixmap(14, 14)
    pixmap.fill(color)
    return QIcon(pixmap)


class RoleListModel(QAbstractListModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._roles: list[Role] = list(ROLES)
        self._icons: dict[Role, QIcon] = {}
        self._dark = False

    def set_dark(self, dark: bool) -> None:
        """Use the dark-theme role colours (the same ones the canvas uses)."""
        if dark != self._dark:
            self._dark = dark
            self._icons.clear()
            if self._roles:
                self.dataChanged.emit(self.index(0), self.index(len(self._roles) - 1))

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._roles)

    def role_at(self, row: int) -> str:
        return self._roles[row].value

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        spec = ROLES[self._roles[index.row()]]
        if role == Qt.ItemDataRole.DisplayRole:
            return spec.label
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"<b>{spec.label}</b><br>{spec.summary}<br><i>Drag onto the canvas or press Enter</i>"
        if role == Qt.ItemDataRole.StatusTipRole:
            return spec.summary
        if role == Qt.ItemDataRole.DecorationRole:
            if spec.role not in self._icons:
                self._icons[spec.role] = _swatch(role_color(spec.role.value, self._dark))
            return self._icons[spec.role]
        if role == ROLE_NAME:
            return spec.role.value
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        base = super().flags(index)
        return base | Qt.ItemFlag.ItemIsDragEnabled if index.isValid() else base

    def mimeTypes(self) -> list[str]:
        return [ROLE_MIME]

    def mimeData(self, indexes: Any) -> QMimeData:
        mime = QMimeData()
        valid = [i for i in indexes if i.isValid()]
        if valid:
            mime.setData(ROLE_MIME, self.role_at(valid[0].row()).encode("utf-8"))
        return mime
