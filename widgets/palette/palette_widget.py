"""The palette panel: a filter box over the role list.

Double-click or Enter on a role emits `role_activated(role)` (the controller inserts it at the view
centre); dragging starts `application/x-triadic-role`. Enter in the filter box activates the first
match, so typing part of a name and pressing Enter adds that node.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QLineEdit, QListView, QVBoxLayout, QWidget

from widgets.palette.role_list_model import ROLE_MIME, ROLE_NAME, RoleListModel

__all__ = ["ROLE_MIME", "PaletteWidget"]


class PaletteWidget(QWidget):
    role_activated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("palette")
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setPlaceholderText("Filter roles…")
        self.filter_edit.setClearButtonEnabled(True)
        self.model = RoleListModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.proxy.setFilterRole(Qt.ItemDataRole.ToolTipRole)
        self.list_view = QListView(self)
        self.list_view.ensurePolished()  # styled before its rows are laid out: they take the sheet's item padding
        self.list_view.setModel(self.proxy)
        self.list_view.setDragEnabled(True)
        self.list_view.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.list_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.filter_edit)
        layout.addWidget(self.list_view)
        self.filter_edit.textChanged.connect(self.proxy.setFilterFixedString)
        self.filter_edit.returnPressed.connect(self._on_filter_return)
        self.list_view.activated.connect(self._on_index_activated)

    def set_dark(self, dark: bool) -> None:
        self.model.set_dark(dark)

    def visible_roles(self) -> list[str]:
        return [str(self.proxy.index(r, 0).data(ROLE_NAME)) for r in range(self.proxy.rowCount())]

    def _on_filter_return(self) -> None:
        if self.proxy.rowCount():
            self.role_activated.emit(str(self.proxy.index(0, 0).data(ROLE_NAME)))

    def _on_index_activated(self, index: QModelIndex) -> None:
        if index.isValid():
            self.role_activated.emit(str(index.data(ROLE_NAME)))
