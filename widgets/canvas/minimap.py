"""The minimap: the whole graph downscaled, with the view's visible rectangle; click or drag to go.

Invariants:
- the graph image is redrawn at most every `REDRAW_MS` (scene changes only mark it stale), so a
  drag on 5,000 nodes does not repaint the minimap per frame; the viewport rectangle is cheap and
  follows every scroll and zoom at once;
- it draws nodes as role-coloured boxes (a node with a validation mark in the mark's colour) (and edges as thin lines up to `MAX_EDGES`) straight from
  the scene's items — it never renders the scene itself;
- clicking or dragging only calls `view.centerOn`.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPainterPath, QPaintEvent, QPen, QResizeEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from widgets.canvas.view import CanvasView

REDRAW_MS = 250
MAX_EDGES = 4000


class Minimap(QWidget):
    def __init__(self, view: CanvasView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = view
        self.setMinimumSize(160, 110)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self._image = QImage()
        self._world = QRectF()  # the scene rectangle the image shows
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REDRAW_MS)
        self._timer.timeout.connect(self.redraw)
        scene = view.canvas_scene()
        scene.changed.connect(self._schedule)
        scene.theme_changed.connect(self.redraw)
        scene.workflow_replaced.connect(self.redraw)
        view.viewport_changed.connect(self.update)
        self.redraw_count = 0

    def sizeHint(self) -> QSize:
        return QSize(240, 160)

    def _schedule(self) -> None:
        if not self._timer.isActive():
            self._timer.start()

    # -- drawing -----------------------------------------------------------------------------
    def _transform(self) -> tuple[float, float, float]:
        """(scale, dx, dy) mapping scene coordinates into the widget, aspect kept and centred."""
        world = self._world
        if not world.isValid() or world.width() <= 0 or world.height() <= 0:
            return 1.0, 0.0, 0.0
        scale = min(self.width() / world.width(), self.height() / world.height())
        dx = (self.width() - world.width() * scale) / 2 - world.left() * scale
        dy = (self.height() - world.height() * scale) / 2 - world.top() * scale
        return scale, dx, dy

    def redraw(self) -> None:
        """Re-render the graph image from the scene's items."""
        scene = self.view.canvas_scene()
        self._world = scene.content_rect().adjusted(-60, -60, 60, 60)
        self._image = QImage(self.size(), QImage.Format.Format_ARGB32_Premultiplied)
        self._image.fill(scene.theme.background)
        scale, dx, dy = self._transform()
        painter = QPainter(self._image)
        painter.translate(dx, dy)
        painter.scale(scale, scale)
        if len(scene.edge_items) <= MAX_EDGES:
            painter.setPen(QPen(scene.theme.edge, 0))
            painter.drawLines([e.line() for e in scene.edge_items.values()])
        theme = scene.theme
        for item in scene.comment_items.values():
            painter.fillRect(item.sceneBoundingRect(), item.color)
        for node in scene.node_items.values():
            painter.fillRect(node.sceneBoundingRect(), node.flat_color(theme))
        painter.end()
        self.redraw_count += 1
        self.update()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.redraw()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        if not self._image.isNull():
            painter.drawImage(0, 0, self._image)
        scale, dx, dy = self._transform()
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
        scale, dx, dy = self._transform()
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
