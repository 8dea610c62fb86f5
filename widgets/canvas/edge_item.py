"""An edge on the canvas: a curve from an output port to an input port, coloured by port type.

Invariants:
- the item only displays its `Edge`; `update_path()` is called by the scene when one of its two
  nodes moves or changes ports, and is the only place the path is recomputed;
- below `LOD_SIMPLE` or while the scene is in fast mode (a drag) it is drawn as a straight line;
- it is a `QGraphicsPathItem` without a pen, so Qt computes its bounds (the curve's control
  points) in C++ per frame; `shape` (a 10 px stroke, for clicks and rubber bands) is built lazily
  in Python only when a hit test needs it.
"""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, Qt
from PySide6.QtGui import QBrush, QPainter, QPainterPath, QPainterPathStroker, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QStyleOptionGraphicsItem, QWidget

from engine.graph.model import Edge
from widgets.canvas.node_item import PORT_RADIUS, NodeItem
from widgets.canvas.theme import LOD_LABELS, LOD_SIMPLE, theme_for
from widgets.role_style import port_color

_ARROW = 7.0
_REACH = 40.0  # how far an edge runs straight out of / into its port


class EdgeItem(QGraphicsPathItem):
    def __init__(self, edge: Edge, source: NodeItem, target: NodeItem) -> None:
        super().__init__()
        self.edge = edge
        self.edge_id = edge.id
        self.source = source
        self.target = target
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setZValue(-1)
        self.setPen(_NO_PEN)
        self._hit: QPainterPath | None = None
        self._line = QLineF()
        self.update_path()

    def update_path(self) -> None:
        """Recompute the curve from the current port positions of both nodes."""
        start = self.source.port_scene_pos(self.edge.source_port, True)
        end = self.target.port_scene_pos(self.edge.target_port, False)
        path = QPainterPath(start)
        if end.x() >= start.x() + 10:
            dx = max((end.x() - start.x()) / 2, min(_REACH, abs(end.y() - start.y()) / 2))
            path.cubicTo(QPointF(start.x() + dx, start.y()), QPointF(end.x() - dx, end.y()), end)
        else:  # a loop back (revise) or a target behind the source: go around under both nodes
            low = max(self.source.sceneBoundingRect().bottom(), self.target.sceneBoundingRect().bottom()) + 24
            out, back = QPointF(start.x() + _REACH, low), QPointF(end.x() - _REACH, low)
            path.cubicTo(QPointF(start.x() + _REACH, start.y()), QPointF(start.x() + _REACH, low), out)
            path.lineTo(back)
            path.cubicTo(QPointF(end.x() - _REACH, low), QPointF(end.x() - _REACH, end.y()), end)
        self._line = QLineF(start, end)
        self._path = path
        tip = end - QPointF(PORT_RADIUS, 0)
        self._arrow = QPolygonF([tip, QPointF(tip.x() - _ARROW - 1, tip.y() - _ARROW / 2 - 1),
                                 QPointF(tip.x() - _ARROW - 1, tip.y() + _ARROW / 2 + 1)])
        self._hit = None
        self.setPath(path)
        self._type = self.source.port_type(self.edge.source_port, True)

    def shape(self) -> QPainterPath:
        if self._hit is None:
            stroker = QPainterPathStroker()
            stroker.setWidth(10)
            self._hit = stroker.createStroke(self._path)
        return self._hit

    def line(self) -> QLineF:
        """The straight segment between the two ports (low level of detail, minimap)."""
        return self._line

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        scene = self.scene()
        pen, brush = _style(self._type, scene.theme.dark, self.isSelected())  # type: ignore[union-attr]
        painter.setPen(pen)
        painter.setBrush(_NO_BRUSH)
        lod = painter.worldTransform().m11()
        if lod < LOD_SIMPLE or scene.fast_mode:  # type: ignore[union-attr]
            painter.drawLine(self._line)
            return
        painter.drawPath(self._path)
        if lod >= LOD_LABELS:
            painter.setPen(_NO_PEN)
            painter.setBrush(brush)
            painter.drawConvexPolygon(self._arrow)


_NO_PEN = QPen(Qt.PenStyle.NoPen)
_NO_BRUSH = QBrush(Qt.BrushStyle.NoBrush)
_STYLES: dict[tuple[str, bool, bool], tuple[QPen, QBrush]] = {}


def _style(port_type: str, dark: bool, selected: bool) -> tuple[QPen, QBrush]:
    """Pen and arrow brush of an edge, cached (paint runs for every visible edge each frame)."""
    key = (port_type, dark, selected)
    style = _STYLES.get(key)
    if style is None:
        color = theme_for(dark).selection if selected else port_color(port_type, dark)
        pen = QPen(color, 2.5 if selected else 1.0)
        pen.setCosmetic(True)  # a 1 px cosmetic pen takes Qt's fast stroker: ~6x faster on long curves
        style = _STYLES[key] = (pen, QBrush(color))
    return style
