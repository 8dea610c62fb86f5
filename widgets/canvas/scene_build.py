"""Building a scene's items for a whole workflow in slices, between turns of the event loop.

A 5,000-node workflow has ~20,000 items, ~0.3 s of Python to create and ~0.2 s to drop; done in one
piece, the window would neither paint nor answer meanwhile. `SceneBuild` drops the items of the
workflow shown before, then creates the node items, then the edge items, a slice at a time: a slice
runs until `SLICE_MS` have passed, the event loop then gets a turn (the window paints, timers run,
input is read) and a zero timer starts the next slice. A build small enough to be done in a few
milliseconds (`SMALL`) is done whole inside `start()`, so its caller sees a built scene at once;
the end of a sliced build (followers told, what waited run) has a turn of its own. `finish_now()`
builds the rest in one piece (a scene made for a test, a headless use).

Invariants:
- the scene follows the workflow's signals from before the first item is built, so an edit made
  during the build is shown: each item is built from what the model says when its turn comes, the
  scene's handlers skip what is already built or is gone, and the edges are listed only once every
  node is built (an edge added meanwhile is among them);
- the scene rectangle is set before the first item from the model's own geometry
  (`expected_content`), so the scene's index takes each slice's items as they come instead of being
  rebuilt whole at the end (~40 ms at 20,000 items);
- a build ends exactly once: done (the scene completes it — `workflow_replaced` — and then runs
  what waited for it, `after`, in the order given) or `abandon` (another workflow took the scene, or
  the scene is gone: what waited is dropped — it was meant for the workflow being built); the zero
  timer is the build's own, not the scene's, so a build whose scene was deleted still ends;
- a graph whose far picture draws its edges as a density image (numpy, ~0.15 s to import) has numpy
  imported on a worker thread during the build, not in the first paint, and a sliced build of one
  the view will show that far out ends only once the image for the view's fit is built on the worker
  (or `FAR_PICTURE_WAIT_S` passed): the first fitted paint blits it;
- the cycle collector is paused from `start` until the build ends either way (done: after the
  scene's followers and what waited ran, so a window can set the new items aside first): thousands of
  new objects would otherwise trigger passes over everything between slices.
"""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QRectF, QTimer
from PySide6.QtWidgets import QGraphicsItem

from engine.gc_pause import gc_paused
from engine.graph.model import Workflow
from widgets.canvas.node_item import PORT_REACH, box_size
from widgets.canvas.overview import FAR_ZOOM, MAX_FAR_EDGES
from widgets.worker_thread import WorkerThread

if TYPE_CHECKING:
    from widgets.canvas.scene import CanvasScene

SLICE_MS = 12.0  # a slice's budget: with the index update and a repaint of the window it stays well under 50 ms
WAIT_MS = 4  # between looks at the worker building the far picture's image
FAR_PICTURE_WAIT_S = 1.0  # at most this long; then the first fitted paint builds what is missing
SMALL = 400  # items to drop and build done at once, inside `start` (~6 ms): the caller sees the scene built
Callback = Callable[[], None]
_WARM_UP = WorkerThread("canvas-warm-up")


def expected_content(workflow: Workflow, comments: Iterable[QRectF]) -> QRectF:
    """What `CanvasScene.content_rect` will measure once every item is built, from the model alone."""
    if not workflow.nodes:
        return content_around(list(comments), None)
    left = top = float("inf")
    right = bottom = float("-inf")
    for node in workflow.nodes.values():
        width, height = box_size(node)
        x, y = node.ui.x, node.ui.y
        left, top = min(left, x - PORT_REACH), min(top, y - 2)
        right, bottom = max(right, x + width + PORT_REACH), max(bottom, y + height + 2)
    return content_around(list(comments), QRectF(left, top, right - left, bottom - top))


def content_around(comments: list[QRectF], nodes: QRectF | None) -> QRectF:
    """What a canvas draws: the comments' rectangles and the node items' bounds `nodes` with the room
    their edges take (loop-backs run under the nodes); a fixed area when there is nothing."""
    rects = comments if nodes is None else [*comments, nodes.adjusted(-40, -40, 40, 60)]
    if not rects:
        return QRectF(-400, -300, 800, 600)
    united = rects[0]
    for rect in rects[1:]:
        united = united.united(rect)
    return united


class SceneBuild:
    def __init__(self, scene: CanvasScene, workflow: Workflow, old: list[QGraphicsItem]) -> None:
        self.scene = scene
        self.workflow = workflow
        self.old = old  # the items of the workflow shown before, dropped first (the last one first)
        self.total = len(old) + len(workflow.nodes) + len(workflow.edges)
        self.built = 0  # items dropped and made so far (progress; edits during the build may add or drop some)
        self.ended = False
        self._then: list[Callback] = []
        self._steps = self._items()
        self._pause = ExitStack()
        self._timer: QTimer | None = None
        self._sliced = False  # built over turns of the loop (not `finish_now`): it may wait for the far picture

    def start(self) -> None:
        """Build a small workflow now; a large one in slices from the next turn of the loop on."""
        self._pause.enter_context(gc_paused())
        if self.total <= SMALL:
            self.finish_now()
        else:
            self._sliced = True
            self.scene.build_progressed.emit(0, self.total)  # covered from the start (see `BuildCover`)
            if len(self.workflow.edges) > MAX_FAR_EDGES and "numpy" not in sys.modules:
                _WARM_UP.post(lambda: importlib.import_module("numpy"))  # the far picture's edges need it
            self._next_turn()

    def after(self, callback: Callback) -> None:
        """Run `callback` when this build is done (dropped if it is abandoned)."""
        self._then.append(callback)

    def finish_now(self) -> None:
        """Build what is left in one piece (the far picture's image is then built by its first paint)."""
        if not self.ended:
            self._sliced = False
            for _ in self._steps:
                pass
            self._done()

    def abandon(self) -> list[QGraphicsItem]:
        """Stop where it is (another workflow took the scene, or the scene is gone); returns the old items
        it had not dropped yet."""
        if not self.ended:
            self.ended = True
            self._then.clear()
            self._stop_timer()
            self._pause.close()
        old, self.old = self.old, []
        return old

    def _items(self) -> Iterator[bool | None]:
        """Build one item a step (True); wait for the far picture's image a turn (None); the last step
        (False) leaves the scene's end to a turn of its own."""
        scene, workflow, old = self.scene, self.workflow, self.old
        while old:  # deleted now, as `QGraphicsScene.clear` would (a follower may still hold the wrapper)
            item = old.pop()
            scene.removeItem(item)
            shiboken6.delete(item)
            self.built += 1
            yield True
        scene.make_room()
        yield True
        for node_id in list(workflow.nodes):
            scene.build_node(node_id)
            self.built += 1
            yield True
        for edge_id in list(workflow.edges):  # listed now: edges added while the nodes were built count
            scene.build_edge(edge_id)
            item = scene.edge_items.get(edge_id)
            if item is not None:
                item.line()  # made now, in its slice, rather than by the first far-zoom paint
            self.built += 1
            yield True
        if self._sliced:
            yield from self._far_picture()
        yield False

    def _far_picture(self) -> Iterator[bool | None]:
        """A graph the view will show far out with its edges as a density image: have that image built on
        the worker before the build ends (None: wait a turn), so the first fitted paint blits it instead
        of building it on the GUI thread (~0.1–0.15 s the first time in a process)."""
        scene = self.scene
        views = [view for view in scene.views() if hasattr(view, "fit_zoom")]
        if len(scene.edge_items) <= MAX_FAR_EDGES or not views:
            return
        scale = views[0].fit_zoom()
        if scale >= FAR_ZOOM:
            return
        for _ in scene.overview.measure_boxes():  # the boxes in the build's slices
            yield True
        ready = scene.overview.prepare_far(scale)
        yield True  # the lines and the boxes' colours were a slice's work: the loop gets a turn
        waited_until = time.perf_counter() + FAR_PICTURE_WAIT_S
        while self._sliced and not ready() and time.perf_counter() < waited_until:  # `finish_now`: no wait
            yield None

    def _slice(self) -> None:
        if self.ended:
            return
        if not shiboken6.isValid(self.scene):  # the window was closed during the build
            self.abandon()
            return
        deadline = time.perf_counter() + SLICE_MS / 1000
        for more in self._steps:  # `more` False: every item is built, the scene's end in the next turn
            if more is None:  # waiting for the worker: look again shortly, without spinning
                self._next_turn(WAIT_MS)
                return
            if not more or time.perf_counter() >= deadline:
                self.scene.build_progressed.emit(self.built, self.total)
                self._next_turn()
                return
        self._done()

    def _next_turn(self, delay_ms: int = 0) -> None:
        if self._timer is None:
            self._timer = QTimer()
            self._timer.setSingleShot(True)
            self._timer.timeout.connect(self._slice)
        self._timer.start(delay_ms)

    def _done(self) -> None:
        self.ended = True
        self._stop_timer()
        try:
            self.scene.end_build()  # its followers may set aside what was built (`gc.freeze`) before any pass
            callbacks, self._then = self._then, []
            for callback in callbacks:
                callback()
        finally:
            self._pause.close()

    def _stop_timer(self) -> None:
        timer, self._timer = self._timer, None
        if timer is not None:
            timer.stop()
            timer.deleteLater()
