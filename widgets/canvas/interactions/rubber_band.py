"""Rubber-band selection: dragging on empty canvas selects what the band touches.

Invariants: Ctrl or Shift adds to the selection present at the press; otherwise the band
replaces it; the band item is removed when the gesture ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QMouseEvent, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsRectItem

from widgets.canvas.interactions.base import Interaction

if TYPE_CHECKING:
    from widgets.canvas.view import CanvasView


class RubberBandInteraction(Interaction):
    def __init__(self, view: CanvasView, press_view_pos: QPointF, add: bool) -> None:
        super().__init__(view)
        self._origin = view.mapToScene(press_view_pos.toPoint())
        self._keep = list(self.scene.selectedItems()) if add else []
        if not add:
            self.scene.clearSelection()
        self._band = QGraphicsRectItem()
        theme = self.scene.theme
        self._band.setPen(QPen(theme.selection, 0))
        self._band.setBrush(theme.rubber_band)
        self._band.setZValue(100)
        self.scene.addItem(self._band)

    def mouse_move(self, event: QMouseEvent) -> None:
        rect = QRectF(self._origin, self.view.mapToScene(event.position().toPoint())).normalized()
        self._band.setRect(rect)
        path = QPainterPath()
        path.addRect(rect)
        self.scene.setSelectionArea(path, Qt.ItemSelectionOperation.ReplaceSelection,
                                    Qt.ItemSelectionMode.IntersectsItemShape, self.view.viewportTransform())
        self._band.setSelected(False)
        for item in self._keep:
            item.setSelected(True)

    def finish(self) -> None:
        self.scene.removeItem(self._band)
        super().finish()
