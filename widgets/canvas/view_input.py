"""Mouse and keyboard input of the canvas view: picks the gesture, maps keys to intents.

Mixed into `CanvasView`; kept apart so the view stays about display and navigation.

Invariants: at most one interaction runs at a time; keys and menus only emit the view's intent
signals or change the view (zoom, selection, popups), never the model.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QCursor, QKeyEvent, QMouseEvent

from widgets.canvas.comment_item import CommentEditor, CommentItem
from widgets.canvas.edge_item import EdgeItem
from widgets.canvas.interactions import (
    ConnectInteraction,
    Interaction,
    MoveInteraction,
    PanInteraction,
    ResizeCommentInteraction,
    RubberBandInteraction,
)
from widgets.canvas.node_item import NodeItem
from widgets.canvas.quick_insert import QuickInsertPopup
from widgets.canvas.search_popup import SearchPopup
from widgets.canvas.view_popups import ViewPopupsMixin

_CTRL = Qt.KeyboardModifier.ControlModifier
_SHIFT = Qt.KeyboardModifier.ShiftModifier


class ViewInputMixin(ViewPopupsMixin):
    """Input handling for CanvasView (`self` is the view)."""

    def init_input(self: Any) -> None:
        self._interaction: Interaction | None = None
        self._space_held = False
        self.popup: SearchPopup | QuickInsertPopup | None = None
        self._editor: CommentEditor | None = None

    def end_interaction(self: Any, interaction: Interaction) -> None:
        if self._interaction is interaction:
            self._interaction = None

    # -- mouse -------------------------------------------------------------------------------
    def on_mouse_press(self: Any, event: QMouseEvent) -> bool:
        self.setFocus()
        if self._interaction is not None:
            return True
        pos = event.position()
        button = event.button()
        if button == Qt.MouseButton.MiddleButton or (button == Qt.MouseButton.LeftButton and self._space_held):
            self._interaction = PanInteraction(self, pos)
            return True
        item = self.item_at_view(pos)
        if button == Qt.MouseButton.RightButton:
            if item is not None and not item.isSelected():
                self.canvas_scene().clearSelection()
                item.setSelected(True)
            return False
        if button != Qt.MouseButton.LeftButton:
            return False
        mods = event.modifiers()
        if isinstance(item, NodeItem):
            port = item.port_at(item.mapFromScene(self.mapToScene(pos.toPoint())))
            if port is not None:
                self._interaction = ConnectInteraction(self, item, port[0], port[1])
                return True
        if item is None:
            self._interaction = RubberBandInteraction(self, pos, add=bool(mods & (_CTRL | _SHIFT)))
            return True
        if mods & _CTRL:
            item.setSelected(not item.isSelected())
        elif mods & _SHIFT:
            item.setSelected(True)
        elif not item.isSelected():
            self.canvas_scene().clearSelection()
            item.setSelected(True)
        if isinstance(item, CommentItem) and item.isSelected():
            scene_pos = self.mapToScene(pos.toPoint())
            if item.in_resize_grip(scene_pos.x(), scene_pos.y()):
                self._interaction = ResizeCommentInteraction(self, item)
                return True
        if not isinstance(item, EdgeItem) and item.isSelected():
            self._interaction = MoveInteraction(self, pos)
        return True

    def on_mouse_move(self: Any, event: QMouseEvent) -> bool:
        if self._interaction is None:
            return False
        self._interaction.mouse_move(event)
        return True

    def on_mouse_release(self: Any, event: QMouseEvent) -> bool:
        interaction = self._interaction
        if interaction is None:
            return False
        was_click = isinstance(interaction, MoveInteraction) and not interaction.dragging
        interaction.mouse_release(event)
        if was_click and not event.modifiers() & (_CTRL | _SHIFT):
            item = self.item_at_view(event.position())  # a plain click on a selection selects one item
            if item is not None:
                self.canvas_scene().clearSelection()
                item.setSelected(True)
        return True

    def on_double_click(self: Any, event: QMouseEvent) -> bool:
        item = self.item_at_view(event.position())
        if isinstance(item, NodeItem):
            self.node_activated.emit(item.node_id)
        elif isinstance(item, CommentItem):
            self.edit_comment(item)
        elif item is None:
            self.open_quick_insert(self.mapToScene(event.position().toPoint()))
        return True

    def edit_comment(self: Any, item: CommentItem) -> None:
        """Edit a comment's text in place; the result leaves as `comment_edit_requested`."""
        comment_id = item.comment_id

        def done(text: str | None) -> None:
            self._editor = None
            if text is not None and text != item.text:
                self.comment_edit_requested.emit(comment_id, {"text": text})

        self._editor = CommentEditor(item, done)
        self.canvas_scene().addItem(self._editor)
        self._editor.setFocus()

    # -- keyboard ----------------------------------------------------------------------------
    def on_tab(self: Any, event: QKeyEvent) -> bool:
        if event.key() != Qt.Key.Key_Tab or self.canvas_scene().focusItem() is not None:
            return False
        self.open_quick_insert(self.cursor_scene_pos())
        return True

    def on_key_press(self: Any, event: QKeyEvent) -> bool:
        if self.canvas_scene().focusItem() is not None:
            return False  # a comment editor has the keyboard
        key, mods = event.key(), event.modifiers()
        if key == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_held = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            return True
        if key == Qt.Key.Key_Escape:
            if self._interaction is not None:
                self._interaction.cancel()
            else:
                self.canvas_scene().clearSelection()
            return True
        if key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            self.request_delete()
            return True
        action = _KEYS.get((key, bool(mods & _CTRL)))
        if action is None:
            return False
        action(self)
        return True

    def on_key_release(self: Any, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_held = False
            self.viewport().unsetCursor()
            return True
        return False

    def request_delete(self: Any) -> None:
        nodes, edges = self.selected_node_ids(), self.selected_edge_ids()
        for comment_id in self.selected_comment_ids():
            self.comment_delete_requested.emit(comment_id)
        if nodes or edges:
            self.delete_requested.emit(nodes, edges)

    def cursor_scene_pos(self: Any) -> QPointF:
        """The pointer's scene position, or the view centre when the pointer is elsewhere."""
        local = self.viewport().mapFromGlobal(QCursor.pos())
        if not self.viewport().rect().contains(local):
            local = self.viewport().rect().center()
        return self.mapToScene(local)


def _select_all(view: Any) -> None:
    view.select_nodes(list(view.canvas_scene().node_items))


_KEYS: dict[tuple[Any, bool], Any] = {
    (Qt.Key.Key_C, True): lambda v: v.copy_requested.emit(),
    (Qt.Key.Key_X, True): lambda v: v.cut_requested.emit(),
    (Qt.Key.Key_V, True): lambda v: v.paste_requested.emit(v.cursor_scene_pos()),
    (Qt.Key.Key_D, True): lambda v: v.duplicate_requested.emit(),
    (Qt.Key.Key_A, True): _select_all,
    (Qt.Key.Key_Equal, True): lambda v: v.zoom_in(),
    (Qt.Key.Key_Plus, True): lambda v: v.zoom_in(),
    (Qt.Key.Key_Minus, True): lambda v: v.zoom_out(),
    (Qt.Key.Key_0, True): lambda v: v.zoom_reset(),
    (Qt.Key.Key_1, True): lambda v: v.fit_to_view(),
    (Qt.Key.Key_F, False): lambda v: v.fit_to_view(),
    (Qt.Key.Key_K, True): lambda v: v.open_search(),
}

__all__ = ["ViewInputMixin"]
