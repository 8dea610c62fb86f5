"""The base of every canvas gesture.

Invariants: an interaction lives from a mouse press to its release (or `cancel()` on Escape or
focus loss); it changes only the canvas's transient state (item positions while dragging,
highlights, a rubber line) and speaks to the rest of the app only through the view's intent
signals; `finish()` always restores what it changed and detaches it from the view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QMouseEvent

if TYPE_CHECKING:
    from widgets.canvas.scene import CanvasScene
    from widgets.canvas.view import CanvasView


class Interaction:
    def __init__(self, view: CanvasView) -> None:
        self.view = view
        self.scene: CanvasScene = view.canvas_scene()

    def mouse_move(self, event: QMouseEvent) -> None:
        """Follow the pointer while the button is held."""

    def mouse_release(self, event: QMouseEvent) -> None:
        self.finish()

    def cancel(self) -> None:
        """Abandon the gesture without emitting any intent."""
        self.finish()

    def finish(self) -> None:
        """Clean up and hand control back to the view."""
        self.view.end_interaction(self)
