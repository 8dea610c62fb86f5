"""What a dock shows, read for comparison in tests: every row and cell of its tables and trees (all rows
read, `fetchMore` until done), the text of its labels and the items of its boxes."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QComboBox, QLabel, QWidget


def model_rows(model: QAbstractItemModel, parent: QModelIndex | None = None, depth: int = 0) -> list[tuple[Any, ...]]:
    """Every row of `model` (read in full), each cell's text, a row's children after it."""
    parent = parent if parent is not None else QModelIndex()
    while model.canFetchMore(parent):
        model.fetchMore(parent)
    rows: list[tuple[Any, ...]] = []
    for row in range(model.rowCount(parent)):
        cells = tuple(model.data(model.index(row, column, parent), Qt.ItemDataRole.DisplayRole)
                      for column in range(model.columnCount(parent)))
        rows.append((depth, *cells))
        index = model.index(row, 0, parent)
        if index.isValid() and model.rowCount(index):
            rows.extend(model_rows(model, index, depth + 1))
    return rows


def what_it_shows(panel: QWidget) -> dict[str, Any]:
    """A dock's tables and trees (all rows), labels and boxes, by widget type in the order they are found."""
    views = [v.model() for v in panel.findChildren(QAbstractItemView) if v.model() is not None]
    return {
        "rows": [model_rows(model) for model in views if not isinstance(model.parent(), QComboBox)],
        "labels": [label.text() for label in panel.findChildren(QLabel)],
        "boxes": [[box.itemText(i) for i in range(box.count())] for box in panel.findChildren(QComboBox)],
    }
