"""The fitted overview of a large graph made ready again while the window is idle after an edit.

F on a 5,000-node graph is a blit of the overview's far picture (`OverviewPainter.far_picture`),
~10 ms. An edit made zoomed in (a node moved, a mark, a selection) drops that picture, and F right
after it had to do everything at once: list the 15,000 edge lines again and measure the changed
boxes (~5–7 ms), take the content's bounds again (~2 ms), paint the picture again (~10 ms: the
density image scaled and 5,000 boxes filled) from a density image of the edges before the edit,
and then rebuild that image on the worker, which holds the interpreter in numpy for a frame or
two: 21–32 ms for F's frame, with later frames of 68–86 ms.

`FitAhead` does that work once the window has been idle for `IDLE_MS` after the last change of the
overview's batch, while the view is zoomed in: the batch and the content's bounds on the GUI
thread, the edges' density image for the last fitted zoom on the worker, and, once that image is
built, the far picture painted again over the same area at the same zoom (`LayerCache.repaint_kept`),
so F right after an edit finds it and is a blit again, showing the graph as it is now.

Invariants: nothing happens while the overview shows (its own paint rebuilds what changed), while
the view moves, while nodes are dragged, while a workflow is being built, or on a graph whose far
zoom draws hairlines (no far picture); the far picture painted ahead is the one `draw` would paint
for that view, and is used only when F lands on that very zoom and area (else F paints as before).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QTimer

if TYPE_CHECKING:
    from widgets.canvas.overview import OverviewPainter

IDLE_MS = 150  # quiet after the last change before the work starts (each change restarts the wait)


class FitAhead:
    def __init__(self, overview: OverviewPainter, many: int) -> None:
        self.overview = overview
        self.many = many  # more edges than this: the far zoom draws a density image and a far picture
        self.pictures = 0  # far pictures painted ahead (tests, benchmarks)
        self._timer = QTimer()
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._run)

    def schedule(self, delay_ms: int = IDLE_MS) -> None:
        """The batch changed (or the density image it waits for is built): start again after `delay_ms`
        of quiet, when the overview is not what the view shows."""
        if not self.overview.active and len(self.overview.scene.edge_items) > self.many:
            self._timer.start(delay_ms)

    def _run(self) -> None:
        overview = self.overview
        scene = overview.scene
        if not shiboken6.isValid(scene) or overview.active:
            return
        if scene.moving or scene.fast_mode or scene.building:
            self._timer.start(IDLE_MS)  # after the gesture, the drag or the build
            return
        zoom = overview.far_picture.kept_zoom()
        if zoom is None:  # never fitted (nothing to paint ahead), or the picture is there already
            return
        overview.ensure_batch()
        scene.content_rect()
        if overview.density_ready(zoom):  # else it is being built: its arrival schedules this again
            overview.far_picture.repaint_kept(overview.far_key(), overview.paint_far)
            self.pictures += 1
