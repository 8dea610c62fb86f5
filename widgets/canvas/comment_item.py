"""Comments (sticky notes) on the canvas, and the in-place text editor for one.

A comment is a dict in `workflow.ui["comments"]`: {"id","x","y","w","h","text","color"}.

Invariants:
- `CommentItem` only displays its dict; `apply(data)` is how it follows the model;
- `CommentEditor` edits a copy of the text; it reports the result through a callback (the view
  turns it into `comment_edit_requested`) and never writes to the model;
- a comment is never smaller than `MIN_SIZE`; the bottom-right `RESIZE_GRIP` square resizes it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFocusEvent, QFont, QKeyEvent, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsTextItem, QStyleOptionGraphicsItem, QWidget

MIN_SIZE = (80.0, 40.0)
RESIZE_GRIP = 14.0
DEFAULT_COLOR = "#fff3b0"
_FONT = QFont("DejaVu Sans", 9)


def _number(value: Any, default: float) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else default


class CommentItem(QGraphicsItem):
    Type = QGraphicsItem.UserType + 3

    def __init__(self, data: dict[str, Any]) -> None:
        super().__init__()
        self.comment_id = str(data.get("id", ""))
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setZValue(-2)
        self._rect = QRectF()
        self.apply(data)

    def type(self) -> int:
        return self.Type

    def apply(self, data: dict[str, Any]) -> None:
        """Follow the model's dict for this comment."""
        self.prepareGeometryChange()
        self.setPos(_number(data.get("x"), 0.0), _number(data.get("y"), 0.0))
        self.set_size(_number(data.get("w"), 200.0), _number(data.get("h"), 100.0))
        self.text = str(data.get("text", ""))
        color = QColor(str(data.get("color") or DEFAULT_COLOR))
        self.color = color if color.isValid() else QColor(DEFAULT_COLOR)
        self.update()

    def set_size(self, width: float, height: float) -> None:
        self.prepareGeometryChange()
        self._rect = QRectF(0, 0, max(MIN_SIZE[0], width), max(MIN_SIZE[1], height))

    def size(self) -> tuple[float, float]:
        return self._rect.width(), self._rect.height()

    def in_resize_grip(self, scene_x: float, scene_y: float) -> bool:
        local = self.mapFromScene(scene_x, scene_y)
        return local.x() >= self._rect.right() - RESIZE_GRIP and local.y() >= self._rect.bottom() - RESIZE_GRIP

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-2, -2, 2, 2)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        theme = self.scene().theme  # type: ignore[union-attr]
        fill = QColor(self.color)
        fill.setAlpha(150 if theme.dark else 220)
        painter.setBrush(fill)
        painter.setPen(QPen(theme.selection, 2) if self.isSelected() else QPen(fill.darker(130), 1))
        painter.drawRoundedRect(self._rect, 6, 6)
        painter.setPen(QColor("#1f2328"))
        painter.setFont(_FONT)
        flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap)
        painter.drawText(self._rect.adjusted(8, 6, -8, -6), flags, self.text)
        r = self._rect
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(fill.darker(140))
        painter.drawPolygon(QPolygonF([r.bottomRight(), r.bottomRight() - QPointF(RESIZE_GRIP, 0),
                                       r.bottomRight() - QPointF(0, RESIZE_GRIP)]))


class CommentEditor(QGraphicsTextItem):
    """Edits a comment's text in place; Ctrl+Enter or leaving commits, Escape cancels."""

    def __init__(self, comment: CommentItem, on_done: Callable[[str | None], None]) -> None:
        super().__init__(comment.text)
        self._on_done: Callable[[str | None], None] | None = on_done
        self.setFont(_FONT)
        self.setDefaultTextColor(QColor("#1f2328"))
        self.setTextWidth(comment.size()[0] - 12)
        self.setPos(comment.pos().x() + 4, comment.pos().y() + 2)
        self.setZValue(10)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextEditorInteraction)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.finish(None)
        elif event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.finish(self.toPlainText())
        else:
            super().keyPressEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.finish(self.toPlainText())

    def finish(self, text: str | None) -> None:
        """Report the edited text (None = cancelled) once and remove the editor."""
        callback, self._on_done = self._on_done, None
        if callback is None:
            return
        scene = self.scene()
        if scene is not None:
            scene.removeItem(self)
        callback(text)
