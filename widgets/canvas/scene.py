"""The canvas scene: one item per node, edge and comment of a `Workflow`, following the model.

Invariants:
- the scene never changes the model; it listens through one `WorkflowSignals` and updates only
  the items a change concerns (an edge path is recomputed only when one of its nodes moved or
  changed ports);
- `node_items` / `edge_items` / `comment_items` map model ids to items, one to one with the
  model (edges whose nodes are missing are not drawn: validation reports them);
- items read colours from `scene.theme` at paint time; `fast_mode` (set during drags) makes
  edges straight; `moving` (set by the view while it pans or zooms, cleared after a short idle)
  drops the edges' antialiasing; the BSP index stays on (hit tests and exposure on 5,000+ nodes)
  at a fixed depth (`BSP_DEPTH`);
- edges are painted by one `EdgeLayer` item (batched), never by their own items;
- in overview mode (zoomed out below `LOD_SIMPLE`) items keep their place in the index (hit
  tests, selection) but paint nothing: `OverviewPainter` draws all nodes and edges in a few
  batched calls instead of one Python `paint` per item, and the view has Qt paint items only where
  one of `drawn_items` lies (`far_frame`: comments, a gesture's items), so Qt never gathers them;
- while the view zooms (`zooming`), or moves in overview mode, the unselected node and edge
  items are paused (`ItemPause`: hidden, so Qt does not gather them each frame) and one cached
  picture draws them; they are back in the index when the view rests and before any click;
- a run's state is drawn by `run` (`RunOverlay`, one `RunLayer` item kept across `set_workflow`),
  given from outside (`run.show(projection)`, `run.apply(changes)`); the items only carry its tooltip
  line and overview colour;
- validation marks come from outside (`marks.show(problems)`, connected to the problems model's
  `problems_changed`): the scene never validates; only items whose mark changed repaint;
- followers of the picture (the minimap) hear `nodes_changed(ids)` when nodes move or change
  (a drag: every step), gain or lose an edge, or get or lose a validation mark, and
  `contents_changed` for anything else; never `QGraphicsScene.changed`,
  which also fires for every repaint of a pan or zoom;
- another workflow's items are built in slices between turns of the event loop (`SceneBuild`):
  meanwhile `building` is True, `build_progressed(built, total)` follows each slice left unfinished,
  the scene already follows the model's edits, and an item built in its turn gets the mark of the
  last problems shown (a result may come before the item); `workflow_replaced` says the whole
  workflow is built, and what must wait for it waits through `after_build` (the newest workflow
  wins: a build under way is abandoned, with what waited for it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QRectF, QTimer, Signal
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from engine.graph.model import Workflow
from engine.memory_trim import release_free_memory
from widgets.canvas.comment_item import CommentItem
from widgets.canvas.edge_item import EdgeItem
from widgets.canvas.edge_layer import EdgeLayer
from widgets.canvas.grid import paint_grid
from widgets.canvas.item_pause import ItemPause
from widgets.canvas.node_item import NodeItem
from widgets.canvas.overview import OverviewPainter
from widgets.canvas.problem_marks import ProblemMarks
from widgets.canvas.run_layer import RunLayer
from widgets.canvas.run_overlay import RunOverlay
from widgets.canvas.scene_build import SceneBuild, content_around, expected_content
from widgets.canvas.scene_motion import SceneMotionMixin
from widgets.canvas.snapshot_cache import SnapshotCache
from widgets.canvas.snapshot_prefetch import SnapshotPrefetch
from widgets.canvas.theme import CanvasTheme, theme_for
from widgets.workflow_signals import WorkflowSignals

_MARGIN = 1500.0
NodeBox = tuple[float, float, float, float, NodeItem]  # a node's scene bounds (left, top, right, bottom) and item
# The BSP index's depth, set deliberately: Qt's own guess for a scene filled before it is shown
# is ~15 (32,768 leaves), and a long edge spans thousands of them, so moving one node (re-indexing
# its edges) cost 2 ms an edge and a still frame at fit 75 ms; at depth 6 (64 leaves) re-indexing
# costs ~0.01 ms an edge, the fit frame 12 ms, and hit tests at zoom 1 stay under 3 ms a frame
# (measured at 5,000 nodes / 15,000 edges, depths 4–10: 4–8 alike, 10 and up slower).
BSP_DEPTH = 6
_DRAW_NOTHING_FAR = (NodeItem, EdgeItem, EdgeLayer, RunLayer)  # item types that paint nothing in overview mode
RELEASE_AFTER_MS = 500  # after a new document's scene is built: its validation, minimap and inspector are done


class CanvasScene(SceneMotionMixin, QGraphicsScene):
    theme_changed = Signal()
    workflow_replaced = Signal()  # another workflow's items are all built
    build_started = Signal()  # another workflow: the old items are gone, the new ones come
    build_progressed = Signal(int, int)  # items built, items in all: a slice ended, the loop gets a turn
    contents_changed = Signal()  # nodes added or removed, many recoloured (followers redraw all)
    nodes_changed = Signal(list)  # these nodes moved or changed, or gained or lost an edge (followers redraw them)

    def __init__(self, workflow: Workflow, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        self.setBspTreeDepth(BSP_DEPTH)
        self._drawn: set[QGraphicsItem] = set()  # drawn_items
        self.theme: CanvasTheme = theme_for(False)
        self.fast_mode = False
        self.moving = False
        self.zooming = False  # the view zooms (not only scrolls): nodes drawn by the edge layer
        self.paused = ItemPause(self)
        self.snapshots = SnapshotCache()  # nodes drawn from a snapshot while moving, kept between gestures
        self.prefetch = SnapshotPrefetch(self)  # snapshots the next zoom notch may need, painted between notches
        self.node_items: dict[str, NodeItem] = {}
        self.edge_items: dict[str, EdgeItem] = {}
        self.comment_items: dict[str, CommentItem] = {}
        self._edges_of: dict[str, set[EdgeItem]] = {}
        self._content: QRectF | None = None  # content_rect, measured lazily
        self._node_boxes: list[NodeBox] | None = None  # node_boxes, measured lazily
        self._box_at: dict[NodeItem, int] = {}  # where each node's box is in `_node_boxes`
        self.signals: WorkflowSignals | None = None
        self.building = False
        self._build: SceneBuild | None = None
        self.overview = OverviewPainter(self)
        self._release_later = QTimer(self)  # freed memory back to the system, a while after a document is replaced
        self._release_later.setSingleShot(True)
        self._release_later.setInterval(RELEASE_AFTER_MS)
        self._release_later.timeout.connect(release_free_memory)
        self.selectionChanged.connect(self._on_selection_changed)
        self._selected_edges: set[EdgeItem] = set()
        self._selected_nodes: set[NodeItem] = set()
        self.marks = ProblemMarks(self)  # validation marks on nodes and edges
        self.run = RunOverlay(self)  # a run's state drawn over the items (additive, see run_overlay)
        self.workflow = workflow
        self.set_workflow(workflow)
        self.finish_building()  # a scene made for a workflow shows it whole at once

    # -- document ----------------------------------------------------------------------------
    def set_workflow(self, workflow: Workflow) -> None:
        """Show another workflow (new/open): drop every item and build the new ones from the model, in
        slices between turns of the loop when it is large; `workflow_replaced` follows once it is built
        whole (before this returns for a small one). A build under way is abandoned."""
        old = self._build.abandon() if self._build is not None else []  # items it had not yet dropped
        self.paused.resume()
        if self.signals is not None:
            self.signals.detach()
            self.signals.deleteLater()
        self.clearSelection()
        self.snapshots.clear()
        self._selected_edges.clear()
        self._selected_nodes.clear()
        if self._build is not None:  # the items shown so far go, in slices too (the run layer stays)
            old += [self.edge_layer, *self.comment_items.values(), *self.node_items.values(), *self.edge_items.values()]
        self.node_items.clear()
        self.edge_items.clear()
        self.comment_items.clear()
        self._edges_of.clear()
        self.edge_layer = EdgeLayer()
        self.addItem(self.edge_layer)
        self.workflow = workflow
        self.building = True
        self._forget_geometry()
        signals = WorkflowSignals(workflow, self)  # edits made during the build are shown too
        signals.node_added.connect(self.build_node)
        signals.node_removed.connect(self._on_node_removed)
        signals.node_changed.connect(self._on_node_changed)
        signals.node_moved.connect(self._on_node_moved)
        signals.edge_added.connect(self.build_edge)
        signals.edge_removed.connect(self._on_edge_removed)
        signals.ui_changed.connect(self._on_ui_changed)
        self.signals = signals
        self._on_ui_changed("comments")
        self.build_started.emit()
        self._build = SceneBuild(self, workflow, old)
        self._build.start()

    def make_room(self) -> None:
        """The build's step before its first item (the old items gone): the scene rectangle the workflow will
        need, from the model, so the index takes each slice's items as they come."""
        comments = [item.sceneBoundingRect() for item in self.comment_items.values()]
        self._set_rect_around(expected_content(self.workflow, comments))

    def end_build(self) -> None:
        """The build's last step (`SceneBuild`): the scene shows the whole workflow."""
        self.building = False
        self._set_rect_around(self.content_rect())
        self.overview.built_whole()
        self._release_later.start()  # once the open's aftermath is done, what the old document held goes back
        self.workflow_replaced.emit()

    def after_build(self, callback: Callable[[], None]) -> None:
        """Run `callback` now, or once the build under way is done (dropped if another workflow comes first)."""
        if self._build is not None and not self._build.ended:
            self._build.after(callback)
        else:
            callback()

    def finish_building(self) -> None:
        """Build what is left of the workflow now, in one piece."""
        if self._build is not None:
            self._build.finish_now()

    def _set_rect_around(self, content: QRectF) -> None:
        rect = content.adjusted(-_MARGIN, -_MARGIN, _MARGIN, _MARGIN)
        if rect != self.sceneRect():  # a new rectangle rebuilds the index whole
            self.setSceneRect(rect)

    def set_dark(self, dark: bool) -> None:
        self.theme = theme_for(dark)
        self.setBackgroundBrush(self.theme.background)
        for item in self.items():
            item.update()
        self.run.refresh_colors()
        self.theme_changed.emit()

    # -- queries -----------------------------------------------------------------------------
    def content_rect(self) -> QRectF:
        """The bounding rectangle of everything drawn (nodes, edges, comments); measured once per
        change of the nodes or comments (~50 ms at 5,000 nodes: fit and the minimap ask often)."""
        if self._content is None:
            self._content = self._measure_content()
        return QRectF(self._content)

    def node_boxes(self) -> list[NodeBox]:
        """Every node's scene bounds as (left, top, right, bottom, item), measured once per change of the
        nodes: a zoom picture looks up the paused nodes it covers in these (~0.5 ms at 5,000 nodes,
        against ~6 ms asking each item for its bounds)."""
        if self._node_boxes is None:
            self._node_boxes = [(*item.sceneBoundingRect().getCoords(), item) for item in self.node_items.values()]
            self._box_at = {box[4]: at for at, box in enumerate(self._node_boxes)}
        return self._node_boxes

    def nodes_meeting(self, area: QRectF) -> Iterator[NodeItem]:
        """The node items whose scene bounds meet `area` (edges touching count), from `node_boxes`."""
        left, top, right, bottom = area.getCoords()
        return (item for x1, y1, x2, y2, item in self.node_boxes()
                if x1 <= right and x2 >= left and y1 <= bottom and y2 >= top)

    def _forget_geometry(self) -> None:
        """Nodes or comments moved, came, went or changed size: measure again when next asked."""
        self._content = None
        self._node_boxes = None

    def _measure_again(self, node_ids: list[str]) -> None:
        """These nodes moved or changed size: their boxes are measured again now (an edit's node, where
        measuring all 5,000 again would cost F ~5–10 ms after each edit), the content when next asked."""
        self._content = None
        boxes, items = self._node_boxes, self.node_items
        if boxes is None or len(node_ids) > len(boxes) // 8:
            self._node_boxes = None
            return
        for node_id in node_ids:
            item = items.get(node_id)
            at = self._box_at.get(item) if item is not None else None
            if at is None:  # not measured yet: all of them again
                self._node_boxes = None
                return
            boxes[at] = (*item.sceneBoundingRect().getCoords(), item)

    def _measure_content(self) -> QRectF:
        comments = [item.sceneBoundingRect() for item in self.comment_items.values()]
        boxes = self.node_boxes()
        if not boxes:
            return content_around(comments, None)
        left, top = min(box[0] for box in boxes), min(box[1] for box in boxes)
        right, bottom = max(box[2] for box in boxes), max(box[3] for box in boxes)
        return content_around(comments, QRectF(left, top, right - left, bottom - top))

    def edges_of(self, node_id: str) -> set[EdgeItem]:
        return self._edges_of.get(node_id, set())

    def update_edges(self, node_ids: Iterable[str]) -> None:
        """Recompute the paths of the edges attached to these nodes (each edge once)."""
        node_ids = list(node_ids)
        self._measure_again(node_ids)
        todo: set[EdgeItem] = set()
        for node_id in node_ids:
            todo |= self._edges_of.get(node_id, set())
        for edge in todo:
            edge.update_path()
        self.overview.nodes_moved(node_ids)
        self.nodes_changed.emit(node_ids)

    def sync_node_positions(self, node_ids: Iterable[str]) -> None:
        """Put these node items back where the model says they are (after a drag)."""
        ids = [i for i in node_ids if i in self.node_items and i in self.workflow.nodes]
        for node_id in ids:
            ui = self.workflow.nodes[node_id].ui
            self.node_items[node_id].setPos(ui.x, ui.y)
        self.update_edges(ids)

    def resync_comments(self) -> None:
        """Put every comment item back to what the model says (after a drag or resize)."""
        self._on_ui_changed("comments")

    def grow_to(self, rect: QRectF) -> None:
        if not self.building and not self.sceneRect().contains(rect):
            self.setSceneRect(self.sceneRect().united(rect.adjusted(-_MARGIN, -_MARGIN, _MARGIN, _MARGIN)))

    def repaint_edge_area(self, rect: QRectF) -> None:
        """An edge changed (path, selection, added, removed): redraw its area, forget the edge picture."""
        self.edge_layer.edges_changed()
        self.update(rect)

    def _on_selection_changed(self) -> None:
        """Repaint the edges whose selection changed (edge items do not repaint themselves); only the
        overview boxes of nodes whose selection changed are measured again (all 5,000 cost ~12 ms)."""
        chosen = self.selectedItems()
        selected = {item for item in chosen if type(item) is EdgeItem}
        for edge in selected ^ self._selected_edges:
            edge.repaint()
        self._selected_edges = selected
        nodes = {item for item in chosen if type(item) is NodeItem}
        self.overview.invalidate_boxes(nodes ^ self._selected_nodes)
        self._selected_nodes = nodes

    # -- model → items -----------------------------------------------------------------------
    def build_node(self, node_id: str) -> None:
        """Make the item of this node (added, or its turn in the build) unless it exists or the node is gone."""
        node = self.workflow.nodes.get(node_id)
        if node is None or node_id in self.node_items:
            return
        item = NodeItem(node)
        mark = self.marks.nodes.get(node_id) if self.building else None  # the new workflow's, shown before its turn
        if mark is not None:
            item.set_mark(mark)
        self._forget_geometry()
        self.overview.adopt(item)
        self.node_items[node_id] = item
        self.addItem(item)
        self.grow_to(item.sceneBoundingRect())

    def _on_node_removed(self, node_id: str) -> None:
        for edge in list(self._edges_of.pop(node_id, set())):
            self._on_edge_removed(edge.edge_id)
        item = self.node_items.pop(node_id, None)
        self._forget_geometry()
        if item is not None:
            self.snapshots.discard(item)
            self.removeItem(item)
            self.overview.invalidate()

    def _on_node_changed(self, node_id: str, field: str) -> None:
        item = self.node_items.get(node_id)
        if item is None:
            return
        before = item.geometry()
        item.refresh()
        if item.geometry() != before:
            self.update_edges([node_id])
            return
        # the same box, ports and place (a rename, a parameter, a colour): its edges and their overview
        # lines stay; only the node's overview box is redrawn (its colour may have changed)
        self.overview.invalidate_boxes([item])
        self.nodes_changed.emit([node_id])

    def _on_node_moved(self, node_id: str) -> None:
        item = self.node_items.get(node_id)
        node = self.workflow.nodes.get(node_id)
        if item is None or node is None:
            return
        item.setPos(node.ui.x, node.ui.y)
        self.update_edges([node_id])
        self.grow_to(item.sceneBoundingRect())

    def build_edge(self, edge_id: str) -> None:
        """Make the item of this edge unless it exists, the edge is gone or one of its nodes has no item yet."""
        edge = self.workflow.edges.get(edge_id)
        if edge is None or edge_id in self.edge_items:
            return
        source, target = self.node_items.get(edge.source), self.node_items.get(edge.target)
        if source is None or target is None:
            return
        item = EdgeItem(edge, source, target)
        mark = self.marks.edges.get(edge_id) if self.building else None
        if mark is not None:
            item.set_mark(mark)
        self.edge_items[edge_id] = item
        self._edges_of.setdefault(edge.source, set()).add(item)
        self._edges_of.setdefault(edge.target, set()).add(item)
        self.addItem(item)
        if not self.building:  # a new scene repaints whole (the EdgeLayer covers it all)
            item.repaint()
            self._edges_changed(edge.source, edge.target)

    def _on_edge_removed(self, edge_id: str) -> None:
        item = self.edge_items.pop(edge_id, None)
        if item is None:
            return
        for node_id in (item.edge.source, item.edge.target):
            self._edges_of.get(node_id, set()).discard(item)
        item.repaint()
        self.removeItem(item)
        self._edges_changed(item.edge.source, item.edge.target)

    def _edges_changed(self, *node_ids: str) -> None:
        """An edge between these nodes came or went: the overview's lines and the area around the two
        nodes (where the edge runs) are redrawn, not the whole picture."""
        self.overview.edges_changed()
        if self.overview.active:
            self.update()
        self.nodes_changed.emit([i for i in node_ids if i in self.node_items])

    def _on_ui_changed(self, key: str) -> None:
        if key != "comments":
            return
        self._forget_geometry()
        raw = self.workflow.ui.get("comments")
        comments: list[dict[str, Any]] = [c for c in raw if isinstance(c, dict)] if isinstance(raw, list) else []
        seen = set()
        for data in comments:
            comment_id = str(data.get("id", ""))
            seen.add(comment_id)
            item = self.comment_items.get(comment_id)
            if item is None:
                item = CommentItem(data)
                self.comment_items[comment_id] = item
                self.addItem(item)
            else:
                item.apply(data)
        for comment_id in set(self.comment_items) - seen:
            self.removeItem(self.comment_items.pop(comment_id))

    # -- items that draw in overview mode ------------------------------------------------------
    def addItem(self, item: QGraphicsItem) -> None:
        super().addItem(item)
        if type(item) not in _DRAW_NOTHING_FAR:
            self._drawn.add(item)

    def removeItem(self, item: QGraphicsItem) -> None:
        super().removeItem(item)
        self._drawn.discard(item)

    def drawn_items(self) -> list[QGraphicsItem]:
        """Every item of the scene that may draw in overview mode: all but nodes, edges and the two layers
        (comments, and what a gesture adds: a rubber band, a connection's line, a comment's editor)."""
        gone = {item for item in self._drawn if not shiboken6.isValid(item) or item.scene() is not self}
        self._drawn -= gone
        return list(self._drawn)

    # -- background --------------------------------------------------------------------------
    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        paint_grid(painter, rect, self.theme)

    def has_comments_in(self, rect: QRectF) -> bool:
        """A comment (drawn under the edges) meets scene `rect`."""
        return any(rect.intersects(item.sceneBoundingRect()) for item in self.comment_items.values())

    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:
        if self.overview.active:
            self.overview.paint(painter, rect)

