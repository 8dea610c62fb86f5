"""`RunViews`: the views that follow the selected run — the canvas overlay and every mounted `RunPanel`.

The `RunController` hands it the selected run (`show`) and each flush's changes (`apply`); it gives
them to the canvas's run overlay and to each panel alike. It also carries the selection both ways:
one node selected on the canvas filters the panels (`set_node_filter`); a panel's `node_selected`
selects and centres that node (the panels keep their filter: the person picked it in one of them); a panel's `span_selected` selects the span's node and is handed to the
call inspector (the panel mounted as "call", through its `show_call` / `select_span`: a model or tool call), whose
dock is raised, and revealed in the Trace (the panel mounted as "trace") unless it came from there.
`show_event(seq)` (a broken contract's "go to event") selects that event in the Events dock, its span
in the Trace and its node on the canvas; a playback scrubber's `show_at(run_id, seq)` belongs here too.

Playback shows the run at an earlier event (`show_projection`, then `apply` of that projection's
changes) with `lazy=True`: a panel that is not visible then (its dock tabbed away or closed) is not
told and is given the shown projection when it is shown again — a drag pays only for what is seen.

A stored run is shown against the workflow version it ran with: the scene shows that version and
`canvas_mode_changed(read_only, text)` tells the window to stop editing until the person goes back.

Invariants: panels are told only through the `RunPanel` contract; the canvas is given back the
document's workflow whenever the shown run is not a stored one with its own version.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Signal

from engine.projection import ProjectionChanges, RunProjection
from widgets.run_panel import RunPanel

if TYPE_CHECKING:
    from app.controllers.live_run import LiveRun
    from app.controllers.run_controller import RunController

CALL_PANEL = "call"
TRACE_PANEL = "trace"
EVENTS_PANEL = "events"


class RunViews(QObject):
    canvas_mode_changed = Signal(bool, str)  # read-only?, what the canvas shows (for the banner)
    panel_raise_requested = Signal(str)  # a panel's dock should come to the front (its registry name)

    def __init__(self, controller: RunController) -> None:
        super().__init__(controller)
        self.controller = controller
        self.scene: Any = controller.scene
        self.view: Any = controller.view
        self.panels: dict[str, RunPanel] = {}
        self.node_filter: str | None = None
        self.read_only = False
        self._selecting = False  # a panel selects a node: the panels keep their filter
        self._routing_span = False  # a span picked in a panel is being revealed in the Trace
        self.shown: RunProjection | None = None  # what the views show (a playback projection, or the run's own)
        self._stale: set[str] = set()  # panels hidden while playback moved: given `shown` when shown again
        self.scene.selectionChanged.connect(self._on_scene_selection_changed)

    def mount(self, name: str, panel: RunPanel) -> None:
        """Feed `panel` the selected run from now on (the run docks registry mounts each panel here). A dock
        built late, during playback, is given the run as a whole first (what a panel built at start-up saw,
        such as the Contracts verdicts at the run's end), then the moment the other views show."""
        self.panels[name] = panel
        panel.node_selected.connect(self._on_panel_node_selected)
        panel.span_selected.connect(self._on_panel_span_selected)
        live = self.controller.selected
        _set_clock(panel, live)
        panel.set_projection(live.projection if live else None)
        if live is not None and self.shown is not None and self.shown is not live.projection:
            panel.clock_running = False  # a playback moment stands still, as in the other views
            panel.set_projection(self.shown)
        panel.set_node_filter(self.node_filter)

    def unmount(self, name: str) -> None:
        panel = self.panels.pop(name, None)
        self._fresh(name)
        if panel is not None:
            panel.node_selected.disconnect(self._on_panel_node_selected)
            panel.span_selected.disconnect(self._on_panel_span_selected)

    def show(self, live: LiveRun | None) -> None:
        self._show_canvas(live)
        projection = live.projection if live else None
        self.scene.run.animated = live is not None and live.live  # a past run's "running" nodes stand still
        self.scene.run.show(projection)
        self.shown = projection
        for name in list(self._stale):
            self._fresh(name)
        for name, panel in self.panels.items():
            panel.use_prepared(live.prepared.pop(name, None) if live is not None else None)
            _set_clock(panel, live)
            panel.set_projection(projection)

    def show_projection(self, projection: RunProjection, *, lazy: bool = False,
                        prepared: dict[str, object] | None = None) -> None:
        """Show `projection` (playback: the run at an earlier event) on the canvas and in the panels (`prepared`:
        what their `prepare` built from it, by panel name)."""
        self.scene.run.animated = False
        self.scene.run.show(projection)
        self.shown = projection
        for name, panel in self.panels.items():
            if lazy and not panel.isVisible():
                self._mark_stale(name)
                continue
            self._fresh(name)
            panel.use_prepared((prepared or {}).get(name))
            panel.clock_running = False
            panel.set_projection(projection)

    def apply(self, changes: ProjectionChanges, *, lazy: bool = False) -> None:
        self.scene.run.apply(changes)
        for name, panel in self.panels.items():
            if name in self._stale:
                continue
            if lazy and not panel.isVisible():
                self._mark_stale(name)
                continue
            panel.apply_changes(changes)

    def _mark_stale(self, name: str) -> None:
        """`name` missed a playback move while hidden: it is given `shown` when shown (watched till then only)."""
        if name not in self._stale:
            self._stale.add(name)
            self.panels[name].installEventFilter(self)

    def _fresh(self, name: str) -> None:
        if name in self._stale:
            self._stale.discard(name)
            panel = self.panels.get(name)
            if panel is not None:
                panel.removeEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Show and self._stale:
            for name, panel in self.panels.items():
                if panel is watched and name in self._stale:
                    self._fresh(name)
                    panel.clock_running = False  # only playback leaves panels stale
                    panel.set_projection(self.shown)
        return False

    # -- the canvas ------------------------------------------------------------------------------
    def _show_canvas(self, live: LiveRun | None) -> None:
        document = self.controller.document.workflow
        version = live.workflow if live is not None else None  # a stored run's version, a re-run's recorded one
        wanted = version if version is not None else document
        if self.scene.workflow is not wanted:
            self.scene.set_workflow(wanted)
            self.scene.after_build(self.view.fit_to_view)  # a large one is built in slices
        read_only = version is not None
        if read_only != self.read_only or read_only:
            self.read_only = read_only
            text = ""
            if live is not None and read_only:
                text = (f"Past run {live.run_id[:8]} of {live.name or 'a workflow'} — read-only, the workflow as it ran"
                        if live.read_only else f"Run {live.run_id[:8]}: {live.name} — the recorded workflow, read-only")
            self.canvas_mode_changed.emit(read_only, text)

    def _on_scene_selection_changed(self) -> None:
        if self._selecting:
            return
        try:
            ids = self.view.selected_node_ids()
        except RuntimeError:  # the view is being deleted
            return
        node = ids[0] if len(ids) == 1 else None
        if node != self.node_filter:
            self.node_filter = node
            for panel in self.panels.values():
                panel.set_node_filter(node)

    def _on_panel_node_selected(self, node_id: str) -> None:
        self.select_node(node_id)

    def _on_panel_span_selected(self, span_id: str) -> None:
        live = self.controller.selected
        if live is not None:
            span = live.projection.span_table.spans.get(span_id)
            if span is not None and span.node_id:
                self.select_node(span.node_id)
        if self._routing_span:  # the Trace selecting the row it was asked to reveal says so again
            return
        source = self.sender()
        trace = self.panels.get(TRACE_PANEL)
        reveal = getattr(trace, "select_span", None)
        if trace is not source and callable(reveal):
            self._routing_span = True
            try:
                reveal(span_id)  # the Trace reveals it (reading in the rows it needs)
            finally:
                self._routing_span = False
        call = self.panels.get(CALL_PANEL)
        show = getattr(call, "show_call", None) or getattr(call, "select_span", None)
        span = live.projection.span_table.spans.get(span_id) if live is not None else None
        if callable(show) and (span is None or span.kind in ("llm", "tool")):  # an execution has no call to show
            show(span_id)
            self.panel_raise_requested.emit(CALL_PANEL)

    def select_node(self, node_id: str) -> None:
        """Select and centre a node of the run on the canvas (a sub-graph's inner node: its sub-graph)."""
        node = node_id if node_id in self.scene.node_items else node_id.split("/", 1)[0]
        if node in self.scene.node_items:
            self._selecting = True
            try:
                self.view.select_nodes([node])
            finally:
                self._selecting = False
            self.view.center_on_node(node)

    def show_event(self, seq: int) -> bool:
        """Select event `seq` of the shown run: in the Events dock (raised), its span in the Trace, its
        node on the canvas. False when the run holds no such event."""
        from bisect import bisect_left

        live = self.controller.selected
        events = live.projection.events if live is not None else []
        at = bisect_left(events, seq, key=lambda e: e.seq)
        if live is None or at == len(events) or events[at].seq != seq:
            return False
        event = events[at]
        span = live.projection.span_table.spans.get(event.span_id or "")
        node_id = getattr(event, "node_id", None) or (span.node_id if span is not None else None)
        if node_id:
            self.select_node(node_id)
        trace = self.panels.get(TRACE_PANEL)
        reveal = getattr(trace, "select_span", None)
        if span is not None and event.span_id and callable(reveal):
            self._routing_span = True
            try:
                reveal(event.span_id)
            finally:
                self._routing_span = False
        select = getattr(self.panels.get(EVENTS_PANEL), "select_seq", None)
        if callable(select):
            select(seq)
            self.panel_raise_requested.emit(EVENTS_PANEL)
        return True


def _set_clock(panel: RunPanel, live: LiveRun | None) -> None:
    """Whether the run `panel` shows goes on now, and then its time on the app's clock (the toolbar's): a
    dock mounted or shown long after the run's last event still reads the run's time now."""
    panel.clock_running = live is not None and live.live
    panel.run_clock = live.elapsed_s if live is not None and live.live else None
