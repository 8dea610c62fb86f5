"""Resizing a comment by its bottom-right grip.

Invariants: the item is resized live; on release ONE `comment_edit_requested(id, {"w", "h"})` is
emitted and the item is put back to the model's size (the app's command then resizes it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QMouseEvent

from widgets.canvas.comment_item import CommentItem
from widgets.canvas.interactions.base import Interaction

if TYPE_CHECKING:
    from widgets.canvas.view import CanvasView


class ResizeCommentInteraction(Interaction):
    def __init__(self, view: CanvasView, comment: CommentItem) -> None:
        super().__init__(view)
        self.comment = comment
        self._old = comment.size()

    def mouse_move(self, event: QMouseEvent) -> None:
        local = self.comment.mapFromScene(self.view.mapToScene(event.position().toPoint()))
        self.comment.set_size(local.x(), local.y())

    def mouse_release(self, event: QMouseEvent) -> None:
        width, height = self.comment.size()
        if (width, height) != self._old:
            self.view.comment_edit_requested.emit(self.comment.comment_id, {"w": round(width), "h": round(height)})
        self.finish()

    def cancel(self) -> None:
        self.comment.set_size(*self._old)
        super().cancel()

    def finish(self) -> None:
        self.scene.resync_comments()
        super().finish()
