"""How the canvas scene paints while something moves: drags, pans and zooms (mixed into CanvasScene).

- `fast_mode` (a drag): straight edges without antialiasing;
- `moving` (the view pans or zooms, cleared by the view after a short idle): no antialiasing on
  edges, which come from a cached picture (`LayerCache`); nodes away from zoom 1 are drawn from
  their zoom-1 snapshots (kept between gestures by `SnapshotCache`, within a byte budget);
- `zooming` (the zoom changes, not only the scroll): the unselected node and edge items are
  paused (`ItemPause`) and the edge layer's picture holds the nodes too; the same pause applies
  while moving in overview mode, where `OverviewPainter`'s picture draws everything.

- about to rest (`prepare_rest`, input quiet a while): the edge layer and the overview paint the
  view at rest ahead on a worker (`RestPicture`); `cancel_rest` on any input.

Invariants: at rest (`moving` false) nothing is paused, no gesture picture is kept (node snapshots
are, up to their budget, but only drawn while moving; a rest picture only for the very view and
content it shows), and the scene repaints at full quality.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QPainter, QTransform


class SceneMotionMixin:
    def set_fast_mode(self: Any, fast: bool) -> None:
        """Straight edges and no antialiasing while something is dragged."""
        if fast != self.fast_mode:
            self.fast_mode = fast
            self.overview.invalidate_boxes(())  # the dragged nodes are drawn live, or back in the batch
            self.follow_gesture()
            self.update()

    def set_moving(self: Any, moving: bool) -> None:
        """Cheaper painting while the view pans or zooms; at rest everything is redrawn smooth."""
        if moving != self.moving:
            self.moving = moving
            if not moving:
                self.zooming = False
                self.overview.cache.invalidate()  # the pictures only serve gestures: free them
                self.edge_layer.cache.invalidate()
                self.snapshots.settle()  # repainted for real; kept for the next gesture, within the budget
                self.update()
            self.follow_gesture()

    def set_zooming(self: Any) -> None:
        """The view zooms: moving, with nodes and edges drawn from one scaled picture."""
        self.set_moving(True)
        self.zooming = True
        self.follow_gesture()

    def set_panning(self: Any) -> None:
        """The view scrolls at a fixed zoom: node items paint themselves (from Qt's device cache)."""
        if self.zooming:
            self.zooming = False
            self.follow_gesture()

    def follow_gesture(self: Any) -> None:
        """Pause the items while a batched picture draws them: zooming (unless something is
        dragged: the edge layer then paints directly), or moving in overview mode."""
        if self.moving and (self.overview.active or (self.zooming and not self.fast_mode)):
            self.paused.pause()
        else:
            self.paused.resume()

    def prepare_rest(self: Any, transform: QTransform, size: tuple[int, int], hints: QPainter.RenderHint,
                     ratio: float) -> None:
        """The view is about to rest at `transform` (input went quiet): the edge layer and the overview
        paint their pictures of it ahead on a worker (each only in its own mode)."""
        self.edge_layer.prepare_rest(transform, size, hints, ratio)
        self.overview.prepare_rest(transform, size, hints, ratio)

    def rest_pending(self: Any) -> bool:
        """A picture of the view at rest is still being painted on the worker."""
        return bool(self.edge_layer.rest.pending() or self.overview.rest.pending())

    def cancel_rest(self: Any) -> None:
        """Input came: no picture painted ahead is wanted any more."""
        self.edge_layer.rest.cancel()
        self.overview.rest.cancel()
