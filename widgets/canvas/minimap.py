"""The minimap: the whole graph downscaled, with the view's visible rectangle; click or drag to go.

Invariants:
- it follows the scene's `contents_changed` (nodes or edges added, removed, recoloured: the whole
  image is redrawn, at most every `REDRAW_MS`) and `nodes_changed(ids)` (nodes moved or changed,
  e.g. every step of a drag: only the area those nodes and their edges covered before and cover
  now is redrawn — a dirty rectangle — at most every `PARTIAL_MS`); a pan or zoom of the view
  never redraws the image, only the cheap viewport rectangle, which follows every scroll and zoom;
- it draws nodes as flat boxes (`NodeItem.flat_color`: mark, run state or role colour), batched
  per colour, and edges as thin lines up to `MAX_EDGES` — straight from the scene's items, never
  rendering the scene itself;
- while the scene builds another workflow in slices it shows nothing (the old picture goes at
  `build_started`) and is drawn whole in the turn after the build ends (`workflow_replaced`);
- clicking or dragging only calls `view.centerOn`.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPainterPath, QPaintEvent, QPen, QResizeEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from widgets.canvas.minimap_paint import MinimapPicture
from widgets.canvas.view import CanvasView

REDRAW_MS = 250
PARTIAL_MS = 40


class Minimap(QWidget):
    def __init__(self, view: CanvasView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = view
        self.setMinimumSize(160, 70)  # a short right column still fits a 700 px high window
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.picture = MinimapPicture(view.canvas_scene())
        self._full = False  # a whole redraw is due
        self._dirty: set[str] = set()  # nodes whose area is due for a partial redraw
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._on_timer)
        scene = view.canvas_scene()
        scene.contents_changed.connect(self._schedule_full)
        scene.nodes_changed.connect(self._schedule_nodes)
        scene.theme_changed.connect(self.redraw)
        scene.workflow_replaced.connect(self._redraw_soon)  # in a turn of its own: the open's end is long enough
        scene.build_started.connect(self._forget)
        view.viewport_changed.connect(self.update)

    @property
    def redraw_count(self) -> int:
        return self.picture.full_redraws

    def sizeHint(self) -> QSize:
        return QSize(240, 160)

    def _schedule_full(self) -> None:
        self._full = True
        if not self._timer.isActive() or self._timer.remainingTime() > REDRAW_MS:
            self._timer.start(REDRAW_MS)

    def _forget(self) -> None:
        """Another workflow is being built: the old one's picture goes at once, the new one comes when it is built."""
        self._timer.stop()
        self._full, self._dirty = False, set()
        self.picture.image = QImage()
        self.update()

    def _redraw_soon(self) -> None:
        self._full = True
        self._timer.start(0)

    def _schedule_nodes(self, node_ids: list[str]) -> None:
        self._dirty.update(node_ids)
        if not self._timer.isActive():
            self._timer.start(PARTIAL_MS)

    def _on_timer(self) -> None:
        if self.view.canvas_scene().building:  # drawn whole once it is built (`workflow_replaced`)
            self._dirty.clear()
            return
        if self._full or self.picture.image.isNull():
            self.redraw()
        elif self._dirty:
            self.update(self.picture.redraw_nodes(self._dirty).toAlignedRect())
        self._dirty.clear()

    def redraw(self) -> None:
        """Re-render the whole graph image from the scene's items."""
        self._full = False
        self._dirty.clear()
        self.picture.redraw(self.size())
        self.update()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.redraw()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        if not self.picture.image.isNull():
            painter.drawImage(0, 0, self.picture.image)
        scale, dx, dy = self.picture.transform()
        visible = self.view.visible_scene_rect()
        box = QRectF(visible.left() * scale + dx, visible.top() * scale + dy,
                     visible.width() * scale, visible.height() * scale)
        theme = self.view.canvas_scene().theme
        box = box.intersected(QRectF(self.rect()).adjusted(1, 1, -1, -1))
        shade = QPainterPath()
        shade.setFillRule(Qt.FillRule.OddEvenFill)
        shade.addRect(QRectF(self.rect()))
        shade.addRect(box)
        painter.fillPath(shade, QColor(0, 0, 0, 70 if theme.dark else 45))  # dim what is off-screen
        painter.setPen(QPen(theme.text, 2))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(box)

    # -- navigation --------------------------------------------------------------------------
    def scene_pos_at(self, pos: QPointF) -> QPointF:
        scale, dx, dy = self.picture.transform()
        return QPointF((pos.x() - dx) / scale, (pos.y() - dy) / scale)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._go(event.position())

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._go(event.position())

    def _go(self, pos: QPointF) -> None:
        self.view.centerOn(self.scene_pos_at(pos))
        self.view.viewport_changed.emit()

