"""`RunOverlay`: a run drawn over the canvas — node states, usage badges, rounds, data flows, breakpoints.

The overlay is additive state beside the scene's items: it keeps one `NodeDecor` per node of the run
shown (`show(projection)`, then `apply(changes)` once per coalesced flush), the breakpoints, and the
edges to flash; one `RunLayer` item paints all of it. Node items only get an extra tooltip line
(`NodeItem.set_run_note`) and the state colour for the far-zoom overview (`NodeItem.run_color`).

A provider fault met by a node's calls (a retried rate limit, a timeout, a malformed reply) is
counted per node and shown in its chip and tooltip, whether the call then succeeded or not.

Invariants:
- only the nodes a flush names are re-read and repainted (`changes.nodes`); nothing is done per event;
  `show` of the same run at another moment repaints only the nodes whose decor differs;
- one `QTimer` drives every animation (the running nodes' marching outline, the edge flashes) and
  runs only while something animates; it repaints only the running nodes' and flashing edges' areas;
- node ids the canvas does not show (a sub-graph's inner nodes, a node deleted since) are kept but
  not drawn; `clear()` forgets the run (breakpoints stay: they belong to the document).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QRectF, QTimer

from engine.projection import ProjectionChanges, RunProjection
from widgets.canvas.edge_item import EdgeItem
from widgets.canvas.node_item import NodeItem
from widgets.canvas.run_layer import RunLayer, decor_rect
from widgets.canvas.run_style import NodeDecor, fault_text, state_color

if TYPE_CHECKING:
    from widgets.canvas.scene import CanvasScene

FRAME_MS = 80  # the animation's pace: ~12 frames a second is enough for a marching outline
FLASH_S = 0.9  # how long an edge stays lit after data flowed along it


class RunOverlay(QObject):
    def __init__(self, scene: CanvasScene) -> None:
        super().__init__(scene)
        self.scene = scene
        self.projection: RunProjection | None = None
        self.decor: dict[str, NodeDecor] = {}
        self.breakpoints: set[str] = set()
        self.phase = 0.0
        self.animated = True  # False for a run that is over: its nodes' outlines stand still
        self._flashes: dict[str, float] = {}  # edge id → when its flash ends (monotonic)
        self._running: set[str] = set()
        self._faults: dict[str, dict[str, int]] = {}  # node id → fault kind → count (its calls' retries, errors)
        self._fault_seen: dict[str, int] = {}  # call span id → faults of it already counted
        self.layer = RunLayer(self)
        scene.addItem(self.layer)
        self._timer = QTimer(self)
        self._timer.setInterval(FRAME_MS)
        self._timer.timeout.connect(self._on_timer_tick)
        scene.workflow_replaced.connect(self._on_scene_workflow_replaced)
        self._on_scene_workflow_replaced()

    # -- what is shown ---------------------------------------------------------------------------
    def has_content(self) -> bool:
        return bool(self.decor or self.breakpoints or self._flashes)

    def show(self, projection: RunProjection | None) -> None:
        """Show `projection` as it is now (None: no run on the canvas). Only the nodes whose decor differs
        from what was shown are repainted (a playback move shows the same run a few events on or back)."""
        self.projection = projection
        old = dict(self.decor)
        self.decor.clear()
        self._running.clear()
        self._clear_flashes()
        self._faults.clear()
        self._fault_seen.clear()
        if projection is not None:
            self._count_faults(projection, projection.calls)
            for node_id, row in projection.nodes.items():
                self._set(node_id, NodeDecor.of(row, self._fault(node_id)))
        for node_id in old.keys() - self.decor.keys():
            self._forget_item(node_id)
        self._changed(node_id for node_id in old.keys() | self.decor.keys()
                      if old.get(node_id) != self.decor.get(node_id))

    def clear(self) -> None:
        self.show(None)

    def apply(self, changes: ProjectionChanges) -> None:
        """What one flush changed: re-read the named nodes, light the edges data flowed along."""
        projection = self.projection
        if projection is None:
            return
        if changes.reset:
            self.show(projection)
            return
        nodes = changes.nodes | self._count_faults(projection, [*changes.calls_added, *changes.calls_changed])
        for node_id in nodes:
            row = projection.nodes.get(node_id)
            if row is not None:
                self._set(node_id, NodeDecor.of(row, self._fault(node_id)))
        self._changed(nodes)
        if changes.flows:
            self.flash(changes.flows)

    def flash(self, flows: Iterable[tuple[str, str]]) -> None:
        """Light the edges leaving these (node, output port) pairs for `FLASH_S`."""
        until = time.monotonic() + FLASH_S
        for node_id, port in set(flows):
            for edge in self.scene.edges_of(node_id):
                if edge.edge.source == node_id and edge.edge.source_port == port:
                    self._flashes[edge.edge_id] = until
                    self.layer.update(edge.bounds.adjusted(-4, -4, 4, 4))
        self._animate()

    def set_breakpoints(self, node_ids: Iterable[str]) -> None:
        new = set(node_ids)
        changed = new ^ self.breakpoints
        self.breakpoints = new
        self._changed(changed)

    def _clear_flashes(self) -> None:
        """Put out every lit edge (their areas repainted unlit)."""
        for edge_id in self._flashes:
            edge = self.scene.edge_items.get(edge_id)
            if edge is not None:
                self.layer.update(edge.bounds.adjusted(-4, -4, 4, 4))
        self._flashes.clear()

    def flashing_edges(self) -> Iterator[tuple[EdgeItem, float]]:
        """(edge, strength 1 → 0) of every edge still lit."""
        now = time.monotonic()
        for edge_id, until in self._flashes.items():
            edge = self.scene.edge_items.get(edge_id)
            if edge is not None and until > now:
                yield edge, (until - now) / FLASH_S

    def state_of(self, node_id: str) -> str | None:
        decor = self.decor.get(node_id)
        return decor.state if decor else None

    # -- internals -------------------------------------------------------------------------------
    def _count_faults(self, projection: RunProjection, span_ids: Iterable[str]) -> set[str]:
        """Count the provider faults (retries, a final error) of these calls; the nodes whose count grew."""
        grown: set[str] = set()
        for span_id in span_ids:
            call = projection.calls.get(span_id)
            if call is None or (not call.retries and not call.error):
                continue
            kinds = [str(r.get("error_type") or "error") for r in call.retries]
            if call.error:
                kinds.append(call.error_type or "error")
            seen = self._fault_seen.get(span_id, 0)
            if len(kinds) > seen:
                counts = self._faults.setdefault(call.node_id, {})
                for kind in kinds[seen:]:
                    counts[kind] = counts.get(kind, 0) + 1
                self._fault_seen[span_id] = len(kinds)
                grown.add(call.node_id)
        return grown

    def _fault(self, node_id: str) -> str:
        kinds = self._faults.get(node_id)
        return fault_text(kinds) if kinds else ""

    def _set(self, node_id: str, decor: NodeDecor) -> None:
        self.decor[node_id] = decor
        if decor.state == "running":
            self._running.add(node_id)
        else:
            self._running.discard(node_id)
        item = self.scene.node_items.get(node_id)
        if item is not None:
            item.run_color = state_color(decor.state, self.scene.theme.dark)
            item.set_run_note(decor.tooltip())

    def _forget_item(self, node_id: str) -> None:
        item = self.scene.node_items.get(node_id)
        if item is not None:
            item.run_color = None
            item.set_run_note("")

    def _changed(self, node_ids: Iterable[str]) -> None:
        node_ids = list(node_ids)
        if not node_ids:
            self._animate()
            return
        items = self.scene.node_items
        for node_id in node_ids:
            item = items.get(node_id)
            if item is not None:
                self.layer.update(decor_rect(item))
        self.scene.overview.invalidate_boxes([items[i] for i in node_ids if i in items])  # they take the state colours
        # (zoomed out, the overview draws those boxes: the layer's areas just marked cover them)
        self.scene.nodes_changed.emit(node_ids)  # the minimap redraws these boxes
        self._animate()

    def _animate(self) -> None:
        if ((self._running and self.animated) or self._flashes) and not self._timer.isActive():
            self._timer.start()

    def _on_timer_tick(self) -> None:
        self.phase = (self.phase + 2.0) % 48.0
        visible = self._visible_area()
        area = QRectF()
        for item in self._running_items(visible):
            area = area.united(decor_rect(item))
        now = time.monotonic()
        for edge_id, until in list(self._flashes.items()):
            edge = self.scene.edge_items.get(edge_id)
            if edge is not None:
                area = area.united(edge.bounds.adjusted(-4, -4, 4, 4))
            if until <= now:
                del self._flashes[edge_id]
        area = area.intersected(visible)
        if not area.isEmpty() and not self.scene.overview.active:
            self.layer.update(area)
        if not (self._running and self.animated) and not self._flashes:
            self._timer.stop()

    def _visible_area(self) -> QRectF:
        """What the scene's views show (the animation repaints nothing outside it)."""
        area = QRectF()
        for view in self.scene.views():
            area = area.united(view.mapToScene(view.viewport().rect()).boundingRect())
        return area

    def _running_items(self, visible: QRectF) -> list[NodeItem]:
        """The running nodes' items in `visible` (through the scene's index when many nodes run)."""
        if not self.animated or not self._running:
            return []
        if len(self._running) <= 300:
            items = self.scene.node_items
            found = [items.get(node_id) for node_id in self._running]
            return [i for i in found if i is not None and visible.intersects(i.sceneBoundingRect())]
        running = self._running
        return [i for i in self.scene.items(visible) if type(i) is NodeItem and i.node_id in running]

    def _on_scene_workflow_replaced(self) -> None:
        """The scene rebuilt its items (the layer kept): re-mark the new node items."""
        dark = self.scene.theme.dark
        for node_id, decor in self.decor.items():
            item = self.scene.node_items.get(node_id)
            if item is not None:
                item.run_color = state_color(decor.state, dark)
                item.set_run_note(decor.tooltip())
        self.layer.update()

    def refresh_colors(self) -> None:
        """The theme changed: the overview's flat boxes take the state colours of the new theme."""
        self._on_scene_workflow_replaced()
        self.scene.overview.invalidate(edges=False)
