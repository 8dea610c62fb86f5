"""Node and edge items taken out of Qt's item gathering while a batched layer draws them.

For every frame Qt gathers, sorts and prepares each item that meets the viewport, even one that
paints nothing (~1 µs an item: ~15 ms a frame for the 15,000 items of a 5,000-node graph seen
whole). While the view zooms, or moves in overview mode, a batched picture (`EdgeLayer` with
node snapshots, or `OverviewPainter`) draws the nodes and edges instead, so the unselected items
are hidden for the gesture and shown again when it ends.

Invariants: selected items are never hidden (hiding would deselect them); `resume` runs when the
view comes to rest and before any click or selection (hit tests always see every item); nothing
else hides node or edge items, so while paused the hidden ones are exactly the paused ones (no
list of them is kept: the scene's own maps are the only references to its items); no item is
left hidden when the interpreter exits (PySide's teardown of a scene with hidden items crashed
the process at exit now and then), so every live pause is resumed by an `atexit` hook.
"""

from __future__ import annotations

import atexit
import weakref
from collections.abc import Iterator
from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF

if TYPE_CHECKING:
    from widgets.canvas.node_item import NodeItem
    from widgets.canvas.scene import CanvasScene


class ItemPause:
    def __init__(self, scene: CanvasScene) -> None:
        self.scene = scene
        self.active = False
        _LIVE.add(self)

    def pause(self) -> None:
        """Hide the unselected node and edge items (nothing happens when already paused)."""
        if self.active:
            return
        self.active = True
        scene = self.scene
        for items in (scene.node_items.values(), scene.edge_items.values()):
            for item in items:
                if not item.isSelected():
                    item.setVisible(False)

    def resume(self) -> None:
        """Show every item `pause` hid."""
        if not self.active:
            return
        self.active = False
        scene = self.scene
        for items in (scene.node_items.values(), scene.edge_items.values()):
            for item in items:
                if not item.isVisible():
                    item.setVisible(True)

    def nodes_in(self, area: QRectF) -> Iterator[NodeItem]:
        """The paused node items meeting scene `area` (none when not paused)."""
        if self.active:
            return (item for item in self.scene.node_items.values()
                    if area.intersects(item.sceneBoundingRect()) and not item.isVisible())
        return iter(())


_LIVE: weakref.WeakSet[ItemPause] = weakref.WeakSet()


@atexit.register
def _resume_all() -> None:
    for pause in list(_LIVE):
        try:
            pause.resume()
        except RuntimeError:  # the scene's C++ side is already gone: nothing is left to show
            pass
