"""Moving the selection (nodes and comments) by dragging one of its items.

Invariants:
- items move visually while dragging (edges of moved nodes follow; the scene is in fast mode);
- on release ONE `nodes_move_requested(old, new)` ({node_id: (x, y)}) is emitted for the nodes
  and one `comment_edit_requested(id, {"x", "y"})` per moved comment; then every moved item is
  put back where the model says — if the app applied the move that is the new place, if not the
  canvas snaps back: the canvas follows the model, never its own drag;
- a press without a drag changes nothing in the model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from widgets.canvas.comment_item import CommentItem
from widgets.canvas.interactions.base import Interaction
from widgets.canvas.node_item import NodeItem

if TYPE_CHECKING:
    from widgets.canvas.view import CanvasView


class MoveInteraction(Interaction):
    def __init__(self, view: CanvasView, press_view_pos: QPointF) -> None:
        super().__init__(view)
        self._press = press_view_pos
        self._start = view.mapToScene(press_view_pos.toPoint())
        selected = self.scene.selectedItems()
        self.nodes = {i.node_id: (i.pos().x(), i.pos().y()) for i in selected if isinstance(i, NodeItem)}
        self.comments = {i.comment_id: (i.pos().x(), i.pos().y()) for i in selected if isinstance(i, CommentItem)}
        self.dragging = False

    def mouse_move(self, event: QMouseEvent) -> None:
        if not self.dragging:
            if (event.position() - self._press).manhattanLength() < QApplication.startDragDistance():
                return
            self.dragging = True
            self.view.set_fast(True)
        delta = self.view.mapToScene(event.position().toPoint()) - self._start
        self._place(delta.x(), delta.y())

    def _place(self, dx: float, dy: float) -> None:
        items = self.scene.node_items
        for node_id, (x, y) in self.nodes.items():
            items[node_id].setPos(x + dx, y + dy)
        for comment_id, (x, y) in self.comments.items():
            self.scene.comment_items[comment_id].setPos(x + dx, y + dy)
        self.scene.update_edges(self.nodes)

    def mouse_release(self, event: QMouseEvent) -> None:
        if self.dragging:
            delta = self.view.mapToScene(event.position().toPoint()) - self._start
            dx, dy = round(delta.x()), round(delta.y())
            if (dx, dy) != (0, 0):
                self._emit(dx, dy)
        self.finish()

    def _emit(self, dx: float, dy: float) -> None:
        if self.nodes:
            new = {node_id: (x + dx, y + dy) for node_id, (x, y) in self.nodes.items()}
            self.view.nodes_move_requested.emit(dict(self.nodes), new)
        for comment_id, (x, y) in self.comments.items():
            self.view.comment_edit_requested.emit(comment_id, {"x": x + dx, "y": y + dy})

    def finish(self) -> None:
        if self.dragging:
            self.view.set_fast(False)
        self.scene.sync_node_positions(self.nodes)
        if self.comments:
            self.scene.resync_comments()
        super().finish()
