"""`JsonTreeModel`: a lazy tree over a JSON-able value (key | value | type), for large request / response records.

A node's children are made the first time the view asks for them (never eagerly: a 4 MB record
would build hundreds of thousands of items — ENGINEERING.md §6); a long string shows its first
`PREVIEW` characters in the cell and the whole text as its tooltip. Read-only.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt

PREVIEW = 200
Index = QModelIndex | QPersistentModelIndex


class _Node:
    __slots__ = ("children", "key", "parent", "row", "value")

    def __init__(self, key: str, value: Any, parent: _Node | None, row: int) -> None:
        self.key, self.value, self.parent, self.row = key, value, parent, row
        self.children: list[_Node] | None = None

    def kids(self) -> list[_Node]:
        if self.children is None:
            value = self.value
            if isinstance(value, dict):
                items = [(str(k), v) for k, v in value.items()]
            elif isinstance(value, list | tuple):
                items = [(f"[{i}]", v) for i, v in enumerate(value)]
            else:
                items = []
            self.children = [_Node(k, v, self, i) for i, (k, v) in enumerate(items)]
        return self.children


def preview(value: Any) -> str:
    if isinstance(value, dict):
        return f"{{{len(value)} key{'s' * (len(value) != 1)}}}"
    if isinstance(value, list | tuple):
        return f"[{len(value)} item{'s' * (len(value) != 1)}]"
    if value is None:
        return "null"
    text = value if isinstance(value, str) else repr(value)
    text = text.replace("\n", "⏎ ")
    return text if len(text) <= PREVIEW else text[:PREVIEW] + f"… ({len(text):,} chars)"


class JsonTreeModel(QAbstractItemModel):
    HEADERS = ("Key", "Value", "Type")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._root = _Node("", {}, None, 0)
        self._nodes: list[_Node] = []  # keeps the nodes an index points at alive (internal ids)
        self._ids: dict[int, int] = {}

    def set_value(self, value: Any) -> None:
        self.beginResetModel()
        self._root = _Node("", value if isinstance(value, dict | list) else {"value": value}, None, 0)
        self._nodes, self._ids = [], {}
        self.endResetModel()

    def _number(self, node: _Node) -> int:
        number = self._ids.get(id(node))
        if number is None:
            number = self._ids[id(node)] = len(self._nodes)
            self._nodes.append(node)
        return number

    def _node(self, index: Index) -> _Node:
        return self._nodes[index.internalId()] if index.isValid() else self._root

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:
        kids = self._node(parent).kids()
        if not 0 <= row < len(kids) or not 0 <= column < 3:
            return QModelIndex()
        return self.createIndex(row, column, self._number(kids[row]))

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        up = self._node(index).parent
        if up is None or up is self._root:
            return QModelIndex()
        return self.createIndex(up.row, 0, self._number(up))

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        if parent.column() > 0:
            return 0
        return len(self._node(parent).kids())

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:
        value = self._node(parent).value
        return parent.column() <= 0 and isinstance(value, dict | list | tuple) and len(value) > 0

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 3

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node = self._node(index)
        if role == Qt.ItemDataRole.DisplayRole:
            column = index.column()
            if column == 0:
                return node.key
            if column == 1:
                return preview(node.value)
            return type(node.value).__name__ if node.value is not None else "null"
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == 1 and isinstance(node.value, str) \
                and len(node.value) > 80:
            return node.value[:20_000]
        return None
