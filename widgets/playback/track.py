"""`ScrubTrack`: a run as a horizontal track — its marks (spans starting, verdicts, errors, human answers)
as ticks, the moment shown as a handle; pressing or dragging on it asks to show that moment.

It knows one scale from 0 to `extent`, given by its bar: seconds from the run's start (by time), or the
events' numbers (by event: each event the same width, so a burst of events in one instant spreads out
and can be dragged through); which event a value is, is the controller's business. Marks are drawn one
tick per pixel column per kind (a 5,000-span run costs what its width costs) into a cached image,
rebuilt only when the marks, the extent or the size change; a move repaints the handle.
Signals: `seek_requested(value)` on press and on every drag move (the controller coalesces them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPaintEvent, QPen, QResizeEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

# kind → (colour, the tick's rows as fractions of the track's height: top, bottom)
MARK_COLORS: dict[str, tuple[str, float, float]] = {
    "span": ("#7f8c9a", 0.55, 0.95),
    "verdict": ("#8e44ad", 0.05, 0.5),
    "human": ("#e67e22", 0.05, 0.5),
    "error": ("#e74c3c", 0.05, 0.95),
}
MARGIN = 6


class ScrubTrack(QWidget):
    seek_requested = Signal(float)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("playback_track")
        self.setMinimumHeight(26)
        self.setMinimumWidth(100)  # the bar compresses to fit a small window; the track takes what is left
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.extent = 0.0  # the scale's end: the run's duration (s), or its last event's number
        self.position = 0.0
        self.marks: Mapping[str, Sequence[float]] = {}
        self._image: QImage | None = None

    def set_run(self, extent: float, marks: Mapping[str, Sequence[float]]) -> None:
        """The scale's end and the marks' values on it by kind; the ticks are redrawn on the next paint."""
        self.extent, self.marks, self._image = max(0.0, extent), marks, None
        self.update()

    def set_position(self, value: float) -> None:
        if value != self.position:
            self.position = value
            self.update()

    # -- geometry --------------------------------------------------------------------------------
    def x_of(self, value: float) -> float:
        width = max(1, self.width() - 2 * MARGIN)
        return MARGIN + (value / self.extent * width if self.extent > 0 else 0.0)

    def value_at(self, x: float) -> float:
        width = max(1, self.width() - 2 * MARGIN)
        return max(0.0, min(self.extent, (x - MARGIN) / width * self.extent))

    # -- painting --------------------------------------------------------------------------------
    def _ticks(self) -> QImage:
        image = QImage(self.size(), QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        height = self.height()
        scale = max(1, self.width() - 2 * MARGIN) / self.extent if self.extent > 0 else 0.0
        for kind, values in self.marks.items():
            colour, top, bottom = MARK_COLORS.get(kind, ("#999999", 0.1, 0.9))
            painter.setPen(QPen(QColor(colour), 1))
            for x in sorted({int(MARGIN + v * scale) for v in values}):
                painter.drawLine(x, int(height * top), x, int(height * bottom))
        painter.end()
        return image

    def paintEvent(self, event: QPaintEvent) -> None:
        if self._image is None or self._image.size() != self.size():
            self._image = self._ticks()
        painter = QPainter(self)
        groove = QRectF(MARGIN, 2, self.width() - 2 * MARGIN, self.height() - 4)
        painter.fillRect(groove, self.palette().base())
        x = self.x_of(self.position)
        painter.fillRect(QRectF(MARGIN, 2, x - MARGIN, self.height() - 4), QColor(52, 152, 219, 45))
        painter.drawImage(0, 0, self._image)
        painter.setPen(QPen(self.palette().highlight().color(), 2))
        painter.drawLine(int(x), 0, int(x), self.height())
        painter.end()

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._image = None
        super().resizeEvent(event)

    # -- input -----------------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.seek_requested.emit(self.value_at(event.position().x()))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if event.buttons() & Qt.MouseButton.LeftButton:
            self.seek_requested.emit(self.value_at(event.position().x()))
