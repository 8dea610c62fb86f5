"""`DiffView`: a line diff shown as a virtual table — unified or side by side, coloured, any size.

`DiffModel` is a `QAbstractTableModel` over a `TextDiff` (engine.projection.text_diff): unified
columns old no., new no., line (prefixed " ", "-", "+"); side-by-side columns old no., old line,
new no., new line. Backgrounds mark removed and added lines, hunk headers and skipped stretches are
muted. A table (fixed row heights, a monospace font) shows 20,000 lines as cheaply as 20.
`DiffView` holds the table and the mode switch; it does not compute diffs (the details pane does,
off the GUI thread for large artifacts).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from engine.projection.text_diff import TextDiff
from widgets.verdicts.look import look_for, mono_font

AnyIndex = QModelIndex | QPersistentModelIndex
UNIFIED, SIDE_BY_SIDE = "unified", "side_by_side"
_MARK = {" ": " ", "-": "−", "+": "+", "@": "", "~": ""}


class DiffModel(QAbstractTableModel):
    def __init__(self, owner: QWidget | None = None) -> None:
        super().__init__(owner)
        self._owner = owner
        self.diff = TextDiff()
        self.mode = UNIFIED

    def set_diff(self, diff: TextDiff, mode: str | None = None) -> None:
        self.beginResetModel()
        self.diff = diff
        self.mode = mode or self.mode
        self.endResetModel()

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:
        if parent.isValid():
            return 0
        return len(self.diff.unified if self.mode == UNIFIED else self.diff.side_by_side)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else (3 if self.mode == UNIFIED else 4)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole or orientation != Qt.Orientation.Horizontal:
            return None
        return (("old", "new", "line") if self.mode == UNIFIED else ("old", "previous round", "new", "this round"))[section]

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, column = index.row(), index.column()
        if role == Qt.ItemDataRole.ToolTipRole:  # a long line is cut in its cell: the tip shows it whole
            text = self.data(index, Qt.ItemDataRole.DisplayRole)
            return text if isinstance(text, str) and len(text) > 60 else None
        if self.mode == UNIFIED:
            line = self.diff.unified[row]
            if role == Qt.ItemDataRole.DisplayRole:
                if column == 0:
                    return "" if line.old_no is None else str(line.old_no)
                if column == 1:
                    return "" if line.new_no is None else str(line.new_no)
                return f"{_MARK[line.tag]} {line.text}" if _MARK[line.tag] else line.text
            return self._style(role, {"-": "delete", "+": "insert", "@": "hunk", "~": "skip"}.get(line.tag, ""),
                               column in (0, 1))
        side = self.diff.side_by_side[row]
        if role == Qt.ItemDataRole.DisplayRole:
            if column in (0, 2):
                number = side.old_no if column == 0 else side.new_no
                return "" if number is None else str(number)
            return side.old if column == 1 else side.new
        tag = side.tag
        if tag == "replace":
            tag = "delete" if column in (0, 1) else "insert"
        elif (tag == "delete" and column in (2, 3)) or (tag == "insert" and column in (0, 1)):
            tag = "blank"
        return self._style(role, tag, column in (0, 2))

    def _style(self, role: int, tag: str, number_column: bool) -> Any:
        look = look_for(self._owner)
        if role == Qt.ItemDataRole.BackgroundRole:
            return {"delete": look.removed_bg, "insert": look.added_bg}.get(tag)
        if role == Qt.ItemDataRole.ForegroundRole:
            if tag == "hunk":
                return look.hunk
            if tag == "skip" or number_column:
                return look.muted
        if role == Qt.ItemDataRole.TextAlignmentRole and number_column:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class DiffView(QTableView):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.diff_model = DiffModel(self)
        self.setModel(self.diff_model)
        self.setFont(mono_font())
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.verticalHeader().hide()
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 2)
        self.diff_model.modelReset.connect(self._on_model_reset)

    def show_diff(self, diff: TextDiff, mode: str | None = None) -> None:
        self.diff_model.set_diff(diff, mode)

    def set_mode(self, mode: str) -> None:
        self.diff_model.set_diff(self.diff_model.diff, mode)

    def _on_model_reset(self) -> None:
        header = self.horizontalHeader()
        number_width = self.fontMetrics().horizontalAdvance("00000") + 8
        text_columns = (2,) if self.diff_model.mode == UNIFIED else (1, 3)
        for column in range(self.diff_model.columnCount()):
            if column in text_columns:
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
            else:
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
                header.resizeSection(column, number_width)
