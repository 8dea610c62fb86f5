"""The overview's frame without Qt's walk over the node and edge items that draw nothing there.

In overview mode (zoomed out below `LOD_SIMPLE`) the node items are flagged `ItemHasNoContents`,
edge items always are, the `EdgeLayer` and the `RunLayer` return at once, and `OverviewPainter`
draws every node and edge in the scene's foreground. Yet for every paint Qt gathers from its index
each item meeting the exposed area, sorts them by stacking order and visits each: at fit on
5,000 nodes ~20,000 items that draw nothing, 3-6 ms of a frame (most of it the sort, more when
the CPU's caches are cold after a pause, as they are when a person presses F).

So in overview mode, with the view's background cached (as it always is), the view gives Qt's
paint only the part of the exposed region where an item that draws lies (`drawn_region`): the
comments, and whatever a gesture adds (the rubber band, a connection's line, a comment's editor),
i.e. every item of the scene's `drawn_items`. Qt still paints the whole background (its cached
pixmap covers the viewport), an item there as before (unclipped), and the foreground, the
overview, is painted for the real exposed area (`CanvasView.drawForeground`). Painting is all this
changes: every item stays in the index, so clicks, hovers, tooltips, menus, rubber bands and drags
find the nodes and edges as before.

Invariants: in overview mode node, edge, `EdgeLayer` and `RunLayer` items paint nothing (the two
layers cover the whole scene, so they are always gathered, and return at once); every other item
the scene holds is one of its `drawn_items` (items come through `CanvasScene.addItem`, none has
children), and the region given to Qt holds the exposed part of each visible one's bounds in view
pixels, grown by 2 px (Qt grows an item's painted rect by as much).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QRegion

if TYPE_CHECKING:
    from widgets.canvas.view import CanvasView

GROW = 2  # px: Qt's `rectAdjust` for antialiased items, added around each drawn item's rect


def drawn_region(view: CanvasView, exposed: QRegion) -> QRegion:
    """The part of `exposed` (view pixels) where an item that draws in overview mode lies."""
    transform = view.viewportTransform()
    region = QRegion()
    for item in view.canvas_scene().drawn_items():
        if item.isVisible():
            rect = transform.mapRect(item.sceneBoundingRect()).toAlignedRect()
            region += rect.adjusted(-GROW, -GROW, GROW, GROW)
    return region & exposed
