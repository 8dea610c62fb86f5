"""Drawing a new edge by dragging from a port to a port of the other direction.

Invariants:
- a live rubber curve follows the pointer and snaps to a port under it; while dragging, the
  ports of visible nodes that the types allow are highlighted and the others dimmed;
- on release over a port, `engine.graph.validate.can_connect` decides: None → ONE
  `edge_connect_requested(source, source_port, target, target_port)`; a reason → no intent, the
  reason is shown at the cursor and emitted as `status_message`; release elsewhere does nothing;
- starting from an input port works the same way, backwards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem

from engine.graph.specs import types_compatible
from engine.graph.validate import can_connect
from widgets.canvas.interactions.base import Interaction
from widgets.canvas.node_item import NodeItem
from widgets.role_style import port_color

if TYPE_CHECKING:
    from widgets.canvas.view import CanvasView


class ConnectInteraction(Interaction):
    def __init__(self, view: CanvasView, node: NodeItem, port: str, output: bool) -> None:
        super().__init__(view)
        self.node, self.port, self.output = node, port, output
        self._anchor = node.port_scene_pos(port, output)
        self._line = QGraphicsPathItem()
        port_type = node.port_type(port, output)
        self._line.setPen(QPen(port_color(port_type, self.scene.theme.dark), 2, Qt.PenStyle.DashLine))
        self._line.setZValue(100)
        self.scene.addItem(self._line)
        self._highlighted = self._highlight(port_type)

    def _highlight(self, port_type: str) -> list[NodeItem]:
        visible = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
        touched = []
        for item in self.scene.items(visible):
            if not isinstance(item, NodeItem):
                continue
            ports = item.inputs if self.output else item.outputs
            ok = {(p.name, not self.output) for p in ports if item is not self.node and (
                types_compatible(port_type, p.type) if self.output else types_compatible(p.type, port_type))}
            item.set_highlight(ok)
            touched.append(item)
        return touched

    def _target_at(self, view_pos: QPointF) -> tuple[NodeItem, str] | None:
        hit = self.view.port_at(view_pos)
        if hit is None or hit[2] == self.output or hit[0] is self.node:
            return None
        return hit[0], hit[1]

    def mouse_move(self, event: QMouseEvent) -> None:
        target = self._target_at(event.position())
        end = (target[0].port_scene_pos(target[1], not self.output) if target
               else self.view.mapToScene(event.position().toPoint()))
        start, stop = (self._anchor, end) if self.output else (end, self._anchor)
        dx = max(abs(stop.x() - start.x()) / 2, 40.0)
        path = QPainterPath(start)
        path.cubicTo(QPointF(start.x() + dx, start.y()), QPointF(stop.x() - dx, stop.y()), stop)
        self._line.setPath(path)

    def mouse_release(self, event: QMouseEvent) -> None:
        target = self._target_at(event.position())
        self.finish()
        if target is None:
            return
        other, other_port = target
        if self.output:
            ends = (self.node.node_id, self.port, other.node_id, other_port)
        else:
            ends = (other.node_id, other_port, self.node.node_id, self.port)
        reason = can_connect(self.scene.workflow, *ends)
        if reason is None:
            self.view.edge_connect_requested.emit(*ends)
        else:
            self.view.refuse(reason, event.position())

    def finish(self) -> None:
        for item in self._highlighted:
            item.set_highlight(None)
        self._highlighted = []
        if self._line.scene() is not None:
            self.scene.removeItem(self._line)
        super().finish()
