"""The workflow canvas: a scene that follows a `Workflow`, a view that emits the user's intents,
and the minimap, search and quick-insert widgets around them.

`CanvasScene(workflow)` / `CanvasView(scene)` / `Minimap(view)`; see the contract in each module.
"""

from __future__ import annotations

from widgets.canvas.minimap import Minimap
from widgets.canvas.scene import CanvasScene
from widgets.canvas.view import ROLE_MIME, CanvasView

__all__ = ["ROLE_MIME", "CanvasScene", "CanvasView", "Minimap"]
