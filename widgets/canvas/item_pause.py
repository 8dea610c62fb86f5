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
from PySide6.QtWidgets import QGraphicsItem

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
        selected = set(scene.selectedItems())  # one look-up, not 20,000 `isSelected` calls
        hide = QGraphicsItem.setVisible
        for items in (scene.node_items.values(), scene.edge_items.values()):
            for item in items:
                if item not in selected:
                    hide(item, False)

    def resume(self) -> None:
        """Show every item `pause` hid (showing a shown item changes nothing)."""
        if not self.active:
            return
        self.active = False
        scene = self.scene
        show = QGraphicsItem.setVisible
        for items in (scene.node_items.values(), scene.edge_items.values()):
            for item in items:
                show(item, True)

    def nodes_in(self, area: QRectF) -> Iterator[NodeItem]:
        """The paused node items meeting scene `area` (none when not paused)."""
        if not self.active:
            return iter(())
        left, top, right, bottom = area.getCoords()
        return (item for x1, y1, x2, y2, item in self.scene.node_boxes()
                if x1 <= right and x2 >= left and y1 <= bottom and y2 >= top and not item.isVisible())


_LIVE: weakref.WeakSet[ItemPause] = weakref.WeakSet()


@atexit.register
def _resume_all() -> None:
    for pause in list(_LIVE):
        try:
            pause.resume()
        except RuntimeError:  # the scene's C++ side is already gone: nothing is left to show
            pass
