"""Node and edge items taken out of Qt's item gathering while a batched layer draws them.

For every frame Qt gathers, sorts and prepares each item that meets the viewport, even one that
paints nothing (~1 µs an item: ~15 ms a frame for the 15,000 items of a 5,000-node graph seen
whole). While the view zooms, or moves in overview mode, a batched picture (`EdgeLayer` with
node snapshots, or `OverviewPainter`) draws the nodes and edges instead, so the unselected items
in view are hidden for the gesture and shown again when it ends. Only the items in view, and a
margin around it, are hidden (`cover`, whenever the view leaves what was covered): Qt never
gathers the others, and hiding all 20,000 at the first notch out from zoom 0.87, where ~2,000 are
in view, cost ~6 ms of a 35 ms frame.

Invariants: selected items are never hidden (hiding would deselect them); while paused, every
unselected node and edge item meeting the area last covered (which holds the view) is hidden, and a picture
draws every unselected node it covers (`nodes_in`); `resume` runs when the view comes to rest
and before any click or selection (hit tests always see every item) and shows exactly the items
`cover` hid; no item is left hidden when the interpreter exits (PySide's teardown of a scene with
hidden items crashed the process at exit now and then), so every live pause is resumed by an
`atexit` hook, and a scene resumes before it drops its items.
"""

from __future__ import annotations

import atexit
import weakref
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import QGraphicsItem

from widgets.canvas.edge_item import EdgeItem
from widgets.canvas.node_item import NodeItem

if TYPE_CHECKING:
    from widgets.canvas.scene import CanvasScene

_KINDS = (NodeItem, EdgeItem)
EVERYTHING_SHARE = 0.2  # a view showing this share of the graph's area hides every item at once
COVER_MARGIN = 0.25  # of the view's width / height, hidden beyond each side at once


class ItemPause:
    def __init__(self, scene: CanvasScene) -> None:
        self.scene = scene
        self.active = False
        self._hidden: list[QGraphicsItem] = []
        self._everything = False  # every unselected item is hidden: nothing more to cover
        self._covered = QRectF()  # every unselected item meeting it is hidden

    def pause(self) -> None:
        """A batched picture draws the items from now on; `cover` hides those in view."""
        if not self.active:
            self.active = True
            _LIVE.add(self)

    def cover(self, area: QRectF) -> None:
        """Hide the unselected node and edge items meeting scene `area` (the view's) that are still shown:
        those meeting `area` grown by `COVER_MARGIN` a side, so the next steps of a pan or notches of a zoom
        that stay inside need no look-up."""
        if not self.active or self._everything or self._covered.contains(area):
            return
        dx, dy = area.width() * COVER_MARGIN, area.height() * COVER_MARGIN
        area = self._covered = area.adjusted(-dx, -dy, dx, dy)
        scene = self.scene
        candidates: Iterable[QGraphicsItem]
        content = scene.content_rect()
        seen = area.intersected(content)
        if seen.width() * seen.height() >= EVERYTHING_SHARE * content.width() * content.height():
            # most of the graph: hiding everything costs less than listing the shown items from the index
            self._everything = True
            self._hidden.clear()  # `resume` shows them all
            candidates = chain(scene.node_items.values(), scene.edge_items.values())
        else:  # the index gives the shown items only: each is hidden once
            candidates = [item for item in scene.items(area, Qt.ItemSelectionMode.IntersectsItemBoundingRect)
                          if type(item) in _KINDS]
        selected = set(scene.selectedItems())  # one look-up, not an `isSelected` call per item
        hide = QGraphicsItem.setVisible
        hidden = self._hidden
        for item in candidates:
            if item not in selected:
                hide(item, False)
                if not self._everything:
                    hidden.append(item)

    def resume(self) -> None:
        """Show every item `cover` hid (showing a shown item changes nothing)."""
        if not self.active:
            return
        self.active = False
        _LIVE.discard(self)
        scene = self.scene
        show = QGraphicsItem.setVisible
        items: Iterable[QGraphicsItem] = self._hidden
        if self._everything:
            items = chain(scene.node_items.values(), scene.edge_items.values())
        for item in items:
            show(item, True)
        self._hidden = []
        self._everything = False
        self._covered = QRectF()

    def nodes_in(self, area: QRectF) -> Iterator[NodeItem]:
        """The unselected node items meeting scene `area`, which a picture draws (none when not paused)."""
        if not self.active:
            return iter(())
        return (item for item in self.scene.nodes_meeting(area) if not item.isSelected())


_LIVE: weakref.WeakSet[ItemPause] = weakref.WeakSet()


@atexit.register
def _resume_all() -> None:
    for pause in list(_LIVE):
        try:
            pause.resume()
        except RuntimeError:  # the scene's C++ side is already gone: nothing is left to show
            pass
