"""Overview drawing: the whole graph in a few batched paint calls when zoomed far out.

Painting 15,000 items one Python `paint()` at a time costs ~25 µs each (≈400 ms a frame at
5,000 nodes); below `LOD_SIMPLE` the node items are flagged `ItemHasNoContents` (Qt skips their
paint but keeps them in the index for hit tests and selection), the `EdgeLayer` draws nothing,
and this draws every node as a filled box (in its validation mark's colour when it has one) and
every edge, grouped by colour.

Edges are always shown: as hairlines, or, when there are more than `MAX_FAR_EDGES` edges below
`FAR_ZOOM` (ten thousand hairlines cost ~100–190 ms a frame and only paint the screen grey), as
one `EdgeDensity` image of the whole graph (built on a worker) drawn every frame.

While the view pans or zooms in this mode (`scene.moving`) the drawing comes from a
`LayerCache` picture, and the scene pauses the items (`ItemPause`). With more than
`MAX_FAR_EDGES` edges that picture draws them coarsely from `FAR_ZOOM` up (`CoarseEdges`: short
edges as lines, long ones from a density image), so repainting it costs a blit, not ~15,000
long hairlines; at rest every edge is stroked again. That image is built ahead, when the view has
rested far out for `PREPARE_AT_REST_MS` (after an open or F), so the first notch in finds it.

At rest from `FAR_ZOOM` up, after a pan or zoom, the batch (every line stroked) is copied from a
`RestPicture` painted ahead on a worker once input went quiet, when it matches the view and the
batch's `generation` (every change of the batch counts one), else painted directly; the batch
is opaque and aliased, so the copy over what lies beneath is the same pixels.

At rest below `FAR_ZOOM` (the density image) the batch is drawn from a second picture, painted
once at device resolution for the view's transform (`far_picture`, no margin) and blitted 1:1,
the same pixels as painting it: F pressed again, or any repaint of the fitted view, costs a blit
instead of the density image scaled and ~5,000 boxes filled. It survives the mode switch (the
batch does not depend on it) and is dropped with the gesture picture on every change of the batch;
a change made zoomed in is followed, once the window is idle, by the batch, the density image and
that picture made again for the same view (`FitAhead`), so F right after an edit is a blit too.

While nodes are dragged (`scene.fast_mode`) the selected nodes and their edges are *live*: left
out of the batch (built once when the drag starts) and drawn directly on top each frame, so a
drag step repaints only the area the moved nodes and their edges cover (`nodes_moved`), never
rebuilding the overview; the edges' density image keeps the dragged edges where they were until
the drag ends (rebuilding it on the worker meanwhile slowed the drag's frames to 100 ms).

Invariants: the batch is rebuilt lazily after `invalidate()` (a model change, a selection change,
the start or end of a drag); switching the mode on or off is the only place item flags change.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import repeat
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QLineF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPen, QTransform
from PySide6.QtWidgets import QGraphicsItem

from widgets.canvas.coarse_edges import CoarseEdges
from widgets.canvas.edge_density import EdgeDensity
from widgets.canvas.fit_ahead import FitAhead
from widgets.canvas.layer_cache import LayerCache
from widgets.canvas.node_item import FAR_NODE_FLAGS, NODE_FLAGS, NodeItem
from widgets.canvas.rest_picture import RestPicture

if TYPE_CHECKING:
    from widgets.canvas.edge_item import EdgeItem
    from widgets.canvas.scene import CanvasScene

FAR_ZOOM = 0.2
MAX_FAR_EDGES = 3000
PREPARE_AT_REST_MS = 400  # resting this long below FAR_ZOOM: the band's image is built for the next gesture


class OverviewPainter:
    def __init__(self, scene: CanvasScene) -> None:
        self.scene = scene
        self.active = False
        self._boxes: dict[str, list[QRectF]] | None = None
        self._entries: dict[NodeItem, tuple[str, QRectF]] = {}  # each node's box: colour name, scene rect
        self._stale_nodes: set[NodeItem] | None = None  # entries to recompute (None: every one)
        self._lines: list[QLineF] = []
        self._live_nodes: list[NodeItem] = []  # dragged: drawn on top each frame, not in the batch
        self._live_edges: list[EdgeItem] = []
        self._live_area = QRectF()  # where the live nodes and edges were last drawn
        self._edges_stale = True
        self.cache = LayerCache()
        self.far_picture = LayerCache(margin=0.0)  # the batch at rest below FAR_ZOOM: F again is a blit
        self.rest = RestPicture()  # the batch of the view a gesture is about to rest at, painted ahead
        self.generation = 0  # counts the changes of the batch (a rest picture of an older one is stale)
        self.density = EdgeDensity(self._on_density_ready)
        self.coarse = CoarseEdges(self._on_coarse_ready)  # the edges of a moving picture in the band
        self._prepare_later = QTimer()  # the band's image, built while the view rests far out
        self._prepare_later.setSingleShot(True)
        self._prepare_later.setInterval(PREPARE_AT_REST_MS)
        self._prepare_later.timeout.connect(self._prepare_at_rest)
        self.builds = 0  # batches built (tests, benchmarks)
        self._prepared: tuple[int, int] | None = None  # the items `prepare_far` built the batch from
        self.fit_ahead = FitAhead(self, MAX_FAR_EDGES)  # the far picture painted again at idle after an edit

    def set_active(self, active: bool) -> None:
        if active == self.active:
            return
        self.active = active
        # edges never paint themselves (the EdgeLayer stops); one unbound C++ call per node with its whole
        # flags given (~0.3 µs, where `setFlag` with an enum and a bool costs ~0.5 µs: at 5,000 nodes 1.4 against 2.5 ms, 3-4 in the window)
        deque(map(QGraphicsItem.setFlags, self.scene.node_items.values(),
                  repeat(FAR_NODE_FLAGS if active else NODE_FLAGS)), maxlen=0)
        self.scene.follow_gesture()
        self.cache.invalidate()  # the batch itself (boxes, lines, density, far picture) does not depend on the mode
        self.scene.update()

    def adopt(self, item: QGraphicsItem) -> None:
        """Give a new node item the current mode's flag (edge items never have contents)."""
        if self.active:
            item.setFlags(FAR_NODE_FLAGS)
        if not self.scene.building:  # a whole new workflow: `set_workflow` invalidates once at the end
            self.invalidate()

    def invalidate(self, edges: bool = True) -> None:
        """Nodes or edges changed (`edges` False: only colours): rebuild at the next paint, and tell the
        scene's followers (`contents_changed`: the minimap)."""
        self._edges_stale = self._edges_stale or edges
        self.invalidate_boxes()
        self.scene.contents_changed.emit()

    def invalidate_boxes(self, nodes: Iterable[NodeItem] | None = None) -> None:
        """Boxes changed (selection, colours; `nodes`: only these nodes'): the edges' lines and density
        image stay; only the named boxes are measured again at the next paint."""
        if nodes is None:
            self._stale_nodes = None
        elif self._stale_nodes is not None:
            self._stale_nodes.update(nodes)
        self._boxes = None
        self._drop_pictures()

    def edges_changed(self) -> None:
        """Edges were added or removed: their lines (and density image) are rebuilt, the boxes stay."""
        self._edges_stale = True
        self._boxes = None
        self._drop_pictures()

    def _drop_pictures(self) -> None:
        self.cache.invalidate()
        self.far_picture.invalidate()
        self.generation += 1
        self.fit_ahead.schedule()

    def _on_density_ready(self) -> None:
        self._drop_pictures()
        if not shiboken6.isValid(self.scene):  # the scene may be gone by the time a build ends
            return
        if self.active:
            self.scene.update()
        else:
            self.fit_ahead.schedule(0)  # the far picture it waited for

    def ensure_batch(self) -> None:
        """Build the batch now if a change dropped it (at idle: the next paint finds it)."""
        if self._boxes is None:
            self._boxes = self._build()

    def density_ready(self, zoom: float) -> bool:
        """The edges' density image for `zoom` shows the lines as they are now; else it is built on the worker."""
        color = self.scene.theme.edge
        if self.density.has_current(zoom, color):
            return True
        self.density.prepare(self._lines, zoom, color)
        return False

    def far_key(self) -> tuple[bool]:
        """What the far picture depends on besides the batch and the view."""
        return (self.scene.theme.dark,)

    def paint_far(self, painter: QPainter, exposed: QRectF) -> None:
        """What the far picture shows: the batch, the edges from the density image."""
        self._paint_batch(painter, exposed)

    def _on_coarse_ready(self) -> None:
        """Only a picture of a gesture shows the coarse edges: at rest nothing changes on screen."""
        if self.scene.moving:
            self._on_density_ready()

    def _prepare_at_rest(self) -> None:
        scene = self.scene
        if shiboken6.isValid(scene) and not scene.moving and not self._edges_stale and not self._live_nodes:
            self.coarse.prepare(self._lines, scene.theme.edge)

    def nodes_moved(self, node_ids: Iterable[str]) -> None:
        """Nodes moved and their edges were updated: when they are the live (dragged) ones, repaint
        only where they were and where they are now; else rebuild the batch."""
        items = self.scene.node_items
        moved = [items[i] for i in node_ids if i in items]
        if self.scene.fast_mode and self._boxes is None and all(item.isSelected() for item in moved):
            return  # a drag's first step: the batch being rebuilt leaves them out (live), the edges' image stays
        live = {item.node_id for item in self._live_nodes}
        if self._boxes is None or not live or not live.issuperset(node_ids):
            self._edges_stale = True  # not a drag: the scene tells its followers (`nodes_changed`)
            self.invalidate_boxes(moved)
        elif self.active:
            self.scene.update(self._live_area.united(self._current_live_area()))

    def _current_live_area(self) -> QRectF:
        area = QRectF()
        for item in self._live_nodes:
            area = area.united(item.sceneBoundingRect())
        for edge in self._live_edges:
            area = area.united(edge.bounds)
        return area.adjusted(-2, -2, 2, 2)

    def measure_boxes(self, chunk: int | None = 250) -> Iterator[None]:
        """Measure the boxes a change left stale (every one after `invalidate`), `chunk` at a time with a
        pause (a yield) between (a large workflow's build measures its 5,000 boxes, 20–45 ms, in its slices);
        a box stays stale until it is measured, so a change made meanwhile, or a batch built meanwhile,
        measures what it needs."""
        while True:
            if self._stale_nodes is None:
                self._entries.clear()
                self._stale_nodes = set(self.scene.node_items.values())
            stale = self._stale_nodes
            if not stale:
                return
            todo = list(stale)
            step = chunk or len(todo)
            for start in range(0, len(todo), step):
                part = todo[start:start + step]
                self._measure(part)
                stale.difference_update(part)
                if start + step >= len(todo):
                    break
                yield
                if self._stale_nodes is not stale:  # every box changed meanwhile: start again
                    break

    def _measure(self, items: list[NodeItem]) -> None:
        scene = self.scene
        theme = scene.theme
        selection = theme.selection.name()
        entries = self._entries
        for item in items:
            if shiboken6.isValid(item) and item.scene() is scene:  # a removed item may be gone already
                key = selection if item.isSelected() else item.flat_color(theme).name()
                entries[item] = (key, item.body_rect().translated(item.pos()))

    def _build(self) -> dict[str, list[QRectF]]:
        scene = self.scene
        live_nodes = [i for i in scene.selectedItems() if isinstance(i, NodeItem)] if scene.fast_mode else []
        skip = set(live_nodes)
        live_edges = {edge for node in live_nodes for edge in scene.edges_of(node.node_id)}
        if self._edges_stale or live_edges != set(self._live_edges):
            lines = [edge.line() for edge in scene.edge_items.values() if edge not in live_edges]
            if lines != self._lines:  # the same lines (a build's far picture made ahead): the images stay
                self._lines = lines
                if self._edges_stale:  # not when a drag only takes its edges out: the image keeps them where
                    self.density.invalidate()  # they were (a build on the worker would slow the drag's frames)
                self.coarse.invalidate()
            self._edges_stale = False
        self._live_nodes, self._live_edges = live_nodes, list(live_edges)
        for _ in self.measure_boxes(chunk=None):
            pass
        boxes: dict[str, list[QRectF]] = {}
        for item, (key, rect) in self._entries.items():
            if item not in skip:
                boxes.setdefault(key, []).append(rect)
        self.builds += 1
        return boxes

    def prepare_far(self, scale: float) -> Callable[[], bool]:
        """Have the far picture's edge image for `scale` built on the worker now (a large workflow's build
        does this before it shows, so the first fitted paint blits it); returns whether it is built."""
        scene = self.scene
        self._boxes = self._build()
        self._prepared = (len(scene.node_items), len(scene.edge_items))
        color = scene.theme.edge
        self.density.prepare(self._lines, scale, color)
        return lambda: self.density.has_current(scale, color)

    def built_whole(self) -> None:
        """The scene shows a whole new workflow: the batch is rebuilt at the next paint — unless
        `prepare_far` built it from these very items and nothing changed since (an edit, a removal or
        a mark drops the batch; an item added during the build changes the counts)."""
        prepared, self._prepared = self._prepared, None
        scene = self.scene
        self.far_picture.forget()  # its view was the last workflow's: nothing to paint again ahead
        same = prepared == (len(scene.node_items), len(scene.edge_items))
        if same and self._boxes is not None and not self._edges_stale:
            self._drop_pictures()  # pictures of what was shown before
            scene.contents_changed.emit()
        else:
            self.invalidate()

    def paint(self, painter: QPainter, exposed: QRectF) -> None:
        self.ensure_batch()
        many = len(self._lines) > MAX_FAR_EDGES
        if many and not self._live_nodes:  # the band's image, before a picture in the band needs it
            if self.scene.moving or painter.worldTransform().m11() >= FAR_ZOOM:
                self.coarse.prepare(self._lines, self.scene.theme.edge)
            else:  # at rest far out: once the view has rested (a build during a gesture slows its frames)
                self._prepare_later.start()
        if self.scene.moving and not self._live_nodes:
            self.cache.draw(painter, exposed, (self.scene.theme.dark,), self._paint_picture, scaled=self.scene.zooming)
        elif many and not self._live_nodes and painter.worldTransform().m11() < FAR_ZOOM:
            self.far_picture.draw(painter, exposed, self.far_key(), self.paint_far, scaled=False)
        elif self._live_nodes or not self.rest.draw(painter, self.generation, self.scene.theme):
            self._paint_batch(painter, exposed)
        if self._live_nodes:
            self._paint_live(painter)

    def _paint_picture(self, painter: QPainter, exposed: QRectF) -> None:
        """What the picture of a pan or zoom shows: the batch, with the edges coarse in the band."""
        self._paint_batch(painter, exposed, coarse=True)

    def _paint_batch(self, painter: QPainter, exposed: QRectF, coarse: bool = False) -> None:
        boxes = self._boxes or {}
        theme = self.scene.theme
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        if len(self._lines) > MAX_FAR_EDGES and painter.worldTransform().m11() < FAR_ZOOM:
            self.density.draw(painter, self._lines, theme.edge)
        elif not (coarse and len(self._lines) > MAX_FAR_EDGES and self.coarse.draw(painter, self._lines, theme.edge)):
            painter.setPen(QPen(theme.edge, 0))
            painter.drawLines(self._lines)
        _fill_boxes(painter, boxes)
        painter.restore()

    def prepare_rest(self, transform: QTransform, size: tuple[int, int], hints: QPainter.RenderHint,
                     ratio: float) -> None:
        """The view is about to rest at `transform` in overview mode: paint the batch ahead, on the worker,
        as `_paint_batch` paints it at rest with every line stroked (the far picture serves below
        `FAR_ZOOM` on a large graph; a drag's live nodes are drawn directly)."""
        if not self.active or self.scene.fast_mode:
            self.rest.cancel()
            return
        self.ensure_batch()
        if len(self._lines) > MAX_FAR_EDGES and transform.m11() < FAR_ZOOM:
            self.rest.cancel()
            return
        lines, boxes, theme = self._lines, self._boxes, self.scene.theme

        def job(painter: QPainter, area: QRectF, stopped: Callable[[], bool]) -> bool:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            painter.setPen(QPen(theme.edge, 0))
            painter.drawLines(lines)
            _fill_boxes(painter, boxes)
            return True

        self.rest.prepare(transform, size, hints, ratio, self.generation, theme, job)

    def draw_long_edges(self, painter: QPainter) -> bool:
        """For the edge layer's zoom picture: the long edges (`LONG_EDGE`) from the coarse image, when
        the graph is large and the image shows the edges as they are now; else False."""
        if len(self.scene.edge_items) <= MAX_FAR_EDGES or self.scene.fast_mode:
            return False
        if self._boxes is None or self._edges_stale:
            self._boxes = self._build()
        return self.coarse.draw_long(painter, self._lines, self.scene.theme.edge)

    def _paint_live(self, painter: QPainter) -> None:
        """The dragged nodes and their edges, where they are now."""
        theme = self.scene.theme
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setPen(QPen(theme.selection, 0))
        painter.drawLines([edge.line() for edge in self._live_edges])
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(theme.selection)
        painter.drawRects([item.body_rect().translated(item.pos()) for item in self._live_nodes])
        painter.restore()
        self._live_area = self._current_live_area()


def _fill_boxes(painter: QPainter, boxes: dict[str, list[QRectF]]) -> None:
    """The nodes' flat boxes, one `drawRects` per colour."""
    painter.setPen(Qt.PenStyle.NoPen)
    for color, rects in boxes.items():
        painter.setBrush(QColor(color))
        painter.drawRects(rects)
