"""`ElidedLabel`: a one-line plain-text label that may be narrower than its text, so a dock row or a bar
compresses instead of widening the window.

Its preferred width is its text's (or, after `set_width_text(sample)`, a sample's — a steady width
that does not follow each new text); its minimum width is a few characters. When the label is
narrower than its text it draws the text elided ("…") and shows the full text as its tooltip; when the
text fits it is an ordinary QLabel (selectable if asked). `text()` is always the full text.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QLabel, QStyleOption, QWidget

MIN_CHARS = 6  # the narrowest the label gets: about this many average characters


class ElidedLabel(QLabel):
    def __init__(self, text: str = "", parent: QWidget | None = None, *, min_chars: int = MIN_CHARS) -> None:
        super().__init__(text, parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self._min_chars = min_chars
        self._width_text: str | None = None
        self._own_tip = ""
        self._update_tip()

    def setText(self, text: str) -> None:
        super().setText(text)
        self._update_tip()

    def set_width_text(self, sample: str | None) -> None:
        """Prefer the width of `sample` whatever the text (None: the text's own width)."""
        if sample != self._width_text:
            self._width_text = sample
            self.updateGeometry()
            self._update_tip()

    def setToolTip(self, tip: str) -> None:
        self._own_tip = tip  # shown when the text fits; the full text is shown when it is cut
        self._update_tip()

    def is_elided(self) -> bool:
        return self.fontMetrics().horizontalAdvance(self.text()) > self.contentsRect().width()

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        if self._width_text is not None:
            margins = self.contentsMargins()
            hint.setWidth(self.fontMetrics().horizontalAdvance(self._width_text) + margins.left()
                          + margins.right() + 2)
        return hint

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()  # the height; the width is steady whatever the text (even none)
        margins = self.contentsMargins()
        hint.setWidth(self.fontMetrics().averageCharWidth() * self._min_chars + margins.left() + margins.right())
        return hint

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._update_tip()

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self.is_elided():
            super().paintEvent(event)
            return
        rect = self.contentsRect()
        shown = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, rect.width())
        painter = QPainter(self)
        option = QStyleOption()
        option.initFrom(self)
        self.style().drawItemText(painter, rect, int(self.alignment()), option.palette, self.isEnabled(), shown,
                                  self.foregroundRole())
        painter.end()

    def _update_tip(self) -> None:
        super().setToolTip(self.text() if self.is_elided() else self._own_tip)


__all__ = ["ElidedLabel"]
