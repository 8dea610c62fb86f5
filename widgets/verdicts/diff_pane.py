"""`DiffPane`: the change between two texts — a status line, "whole text" and unified / side-by-side
switches, and the `DiffView` — computed on the spot when small, in a worker thread when large.

`compare(old, new, against)` shows the diff of two texts (`against` names what `old` is: "round 0 of
report.result (seq 164)"); `clear(message)` shows none and says why. `diff_shown(TextDiff)` is emitted
each time a diff reaches the screen. Used by the verdicts dock (an artifact against the previous
round's) and the memory dock (a value against the key's previous write).

Invariant: texts above `INLINE_CHARS` are diffed by `Background` (difflib on 20,000 lines: ~175 ms); a
result for an earlier `compare` / `clear` arriving late is dropped.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from engine.projection.text_diff import TextDiff, diff_texts
from widgets.verdicts.background import Background
from widgets.verdicts.diff_view import SIDE_BY_SIDE, UNIFIED, DiffView

INLINE_CHARS = 40_000  # below this a diff takes well under a millisecond: computed on the spot


class DiffPane(QWidget):
    diff_shown = Signal(object)  # the TextDiff now on screen

    def __init__(self, whole_label: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._texts: tuple[str, str] | None = None
        self._against = ""
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.whole = QCheckBox(whole_label, self)
        self.mode = QComboBox(self)
        self.mode.addItem("Unified", UNIFIED)
        self.mode.addItem("Side by side", SIDE_BY_SIDE)
        self.view = DiffView(self)
        controls = QHBoxLayout()
        controls.addWidget(self.status, 1)
        controls.addWidget(self.whole)
        controls.addWidget(self.mode)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 0)
        layout.addLayout(controls)
        layout.addWidget(self.view)
        self.background = Background(self)
        self.background.finished.connect(self._on_background_finished)
        self.mode.currentIndexChanged.connect(self._on_mode_changed)
        self.whole.toggled.connect(self._on_whole_toggled)

    def compare(self, old: str, new: str, against: str) -> None:
        self._texts, self._against = (old, new), against
        self._compute()

    def clear(self, message: str = "") -> None:
        self.background.latest += 1
        self._texts = None
        self.view.show_diff(TextDiff())
        self.status.setText(message)

    def _compute(self) -> None:
        self.background.latest += 1  # whatever is still computing is for other texts
        if self._texts is None:
            return
        old, new = self._texts
        context = None if self.whole.isChecked() else 3
        if len(old) + len(new) <= INLINE_CHARS:
            self._show(diff_texts(old, new, context=context))
            return
        self.status.setText("Computing the diff…")
        self.background.submit(_diff, old, new, context)

    def _show(self, diff: TextDiff) -> None:
        self.view.show_diff(diff, self.mode.currentData())
        change = "unchanged" if diff.identical else f"+{diff.added} −{diff.removed} lines"
        self.status.setText(f"{change} against {self._against}")
        self.diff_shown.emit(diff)

    def _on_background_finished(self, ticket: int, result: Any) -> None:
        if ticket != self.background.latest:
            return
        if isinstance(result, TextDiff):
            self._show(result)
        else:
            self.status.setText(f"The diff could not be computed: {result}")

    def _on_mode_changed(self, _index: int) -> None:
        self.view.set_mode(self.mode.currentData())

    def _on_whole_toggled(self, _checked: bool) -> None:
        self._compute()


def _diff(old: str, new: str, context: int | None) -> TextDiff:
    return diff_texts(old, new, context=context)
