"""Panning by dragging with the middle button, or the left button while Space is held.

Invariant: only the scroll bars change; the scene is untouched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from widgets.canvas.interactions.base import Interaction

if TYPE_CHECKING:
    from widgets.canvas.view import CanvasView


class PanInteraction(Interaction):
    def __init__(self, view: CanvasView, start: QPointF) -> None:
        super().__init__(view)
        self._last = start
        view.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)

    def mouse_move(self, event: QMouseEvent) -> None:
        delta = event.position() - self._last
        self._last = event.position()
        bars = self.view.horizontalScrollBar(), self.view.verticalScrollBar()
        bars[0].setValue(bars[0].value() - round(delta.x()))
        bars[1].setValue(bars[1].value() - round(delta.y()))

    def finish(self) -> None:
        self.view.viewport().unsetCursor()
        super().finish()
