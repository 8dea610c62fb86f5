"""`TimelinePanel`: the Timeline dock — a Gantt of the run's spans on one time axis, a lane per node.

Node executions are bars coloured by status, model / tool calls thinner bars inside them; time a node
waited for a person and the run's holds are hatched, retries marked; open spans grow to "now" while
the run is live. Wheel zooms and drag pans the time axis (lanes too with "Zoom lanes"); hovering shows
a span, a click selects it (`span_selected`, and `node_selected` for its node), a right-click on a
finished run's span offers "Fork from here…" (`fork_requested`). "Follow" keeps the
whole run in view as it grows until the person zooms or pans; "Fit" brings it back.

Invariants: it reads the projection only through `SpanArrays` (fed once per flush from the changes,
never reset by a live batch; while live the picture is redrawn from them every `LIVE_TICK_MS`) and
the hover text; all drawing is `GanttItem`'s; the node filter
highlights that node's lane and dims the others without rebuilding anything.

Playback: given the same run at another moment, the panel keeps its frame — the person's zoom, or with
"Follow" the whole run seen so far — so a move only swaps the spans: the coverage picture is cut from
the whole run's (`moment_cut`), not recomputed, and the axes are not redrawn. The moment's span columns
are cut from the whole run's too (`rewind_cut`, `prepare_here`), so a move back needs no worker.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QGraphicsItem,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from engine.projection import ProjectionChanges, RunProjection
from widgets.run_panel import RunPanel
from widgets.timeline.colors import DARK, LIGHT, TimelineColors
from widgets.timeline.gantt_item import GanttItem
from widgets.timeline.hover import describe, span_at
from widgets.timeline.lane_axis import LaneAxis
from widgets.timeline.moment_cut import MomentCut, WholeRun
from widgets.timeline.rewind_cut import arrays_at
from widgets.timeline.span_arrays import SpanArrays

LIVE_TICK_MS = 100  # while the run is live, the picture follows it (and open spans grow) this often


class TimelinePanel(RunPanel):
    fork_requested = Signal(str)  # span id of a finished run: "Fork from here…" (right-click on a bar)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.arrays = SpanArrays()
        self.follow = True
        self._fork_menu: QMenu | None = None
        self._lanes_dirty = False
        self._run_id: str | None = None  # the run shown
        self._run_end = 0.0  # the furthest time shown of that run ("Follow" fits up to there)
        self._fitted: tuple[float, ...] | None = None  # the range "Follow" set last (setting it again repaints)
        self._whole: tuple[SpanArrays, float, int] | None = None  # the run as shown whole: arrays, now, events
        self._whole_cut: WholeRun | None = None  # its strips kept per frame (made on the first move back)
        self.axis = LaneAxis(self.arrays.lane_labels)
        self.plot = pg.PlotWidget(axisItems={"left": self.axis})
        self.plot.setObjectName("timelinePlot")
        self.view_box: pg.ViewBox = self.plot.getViewBox()
        self.view_box.invertY(True)
        self.view_box.setMouseEnabled(x=True, y=False)
        self.view_box.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.setLabel("bottom", "time since the run started", units="s")
        self.item = GanttItem(self.arrays)
        self.item.grid_axis = self.plot.getAxis("bottom")  # the item draws the time grid (cheaper than the axis)
        for name in ("left", "bottom"):  # their ticks reach into the picture: a new picture blits them, not redraws
            self.plot.getAxis(name).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.view_box.addItem(self.item)
        self.view_box.sigRangeChangedManually.connect(self._on_view_range_changed_manually)
        self.plot.scene().sigMouseMoved.connect(self._on_scene_mouse_moved)
        self.plot.scene().sigMouseClicked.connect(self._on_scene_mouse_clicked)
        self.fit_button = QPushButton("Fit")
        self.fit_button.setToolTip("Show the whole run (and follow it while it grows)")
        self.fit_button.clicked.connect(self._on_fit_clicked)
        self.lanes_check = QCheckBox("Zoom lanes")
        self.lanes_check.setToolTip("Let the wheel and drag zoom and scroll the lanes too")
        self.lanes_check.toggled.connect(self._on_lanes_toggled)
        self.summary = QLabel()
        self.summary.setObjectName("timelineSummary")
        self.summary.setAutoFillBackground(True)  # opaque: a new summary repaints the label, not the dock under it
        bar = QHBoxLayout()
        bar.setContentsMargins(4, 2, 4, 0)
        bar.addWidget(self.fit_button)
        bar.addWidget(self.lanes_check)
        bar.addStretch(1)
        bar.addWidget(self.summary)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(bar)
        layout.addWidget(self.plot, 1)
        self.live_timer = QTimer(self)
        self.live_timer.setInterval(LIVE_TICK_MS)
        self.live_timer.timeout.connect(self._on_live_timer_timeout)
        self._apply_theme()
        self.rebuild()

    # -- RunPanel ---------------------------------------------------------------------------------
    @staticmethod
    def prepare(projection: RunProjection) -> SpanArrays:
        """The run's span columns, built off the GUI thread for a stored run (Qt-free; ~90 ms at 10,000 spans)."""
        return SpanArrays.of(projection)

    def prepares_here(self) -> bool:
        return self._whole is not None

    def prepare_here(self, projection: RunProjection) -> SpanArrays | None:
        """The span columns of this run at an earlier moment, cut from the whole run's (`rewind_cut`, ~1–7 ms
        at 100,000 events instead of 3–40 ms; None: not this run, or no cut equals a build there)."""
        whole = self._whole
        if whole is None or projection.run_id != self._run_id or len(projection.events) >= whole[2]:
            return None
        return arrays_at(whole[0], projection)

    def rebuild(self) -> None:
        p = self.projection
        prepared = self.take_prepared()
        whole = self._whole
        if p is not None and whole is not None and p.run_id == self._run_id and p.finished and whole[0].fits(p):
            self.arrays = whole[0]  # the finished run whole again (playback back at its end): its kept arrays
        elif isinstance(prepared, SpanArrays) and p is not None and prepared.fits(p):
            self.arrays = prepared
        else:
            self.arrays = SpanArrays.of(p) if p is not None else SpanArrays()
        same_run = p is not None and p.run_id == self._run_id
        if not same_run:
            self.follow, self._run_end, self._fitted = True, 0.0, None
            self._run_id = p.run_id if p is not None else None
        self.item.show_arrays(self.arrays, self._strip_source(p, same_run))
        self.axis.set_labels(self.arrays.lane_labels)
        self._refresh(lanes_changed=True)
        self._apply_filter()

    def _strip_source(self, p: RunProjection | None, same_run: bool) -> WholeRun | MomentCut | None:
        """Where the picture's coverage strips come from: for the run at an earlier moment than the one
        shown whole, cut from the whole run's; else this run, now shown whole (kept while unchanged)."""
        events = len(p.events) if p is not None else 0
        whole = self._whole
        if same_run and whole is not None and events < whole[2]:
            if self._whole_cut is None or not self._whole_cut.current(whole[0], whole[1]):
                self._whole_cut = WholeRun(whole[0], whole[1])
            return MomentCut.of(self._whole_cut, self.arrays, self.run_time())
        if whole is None or whole[0] is not self.arrays:
            self._whole, self._whole_cut = (self.arrays, self.run_time(), events), None
        if self._whole_cut is not None and not self._whole_cut.current(self.arrays, self.run_time()):
            self._whole_cut = None
        if self._whole_cut is None and (p is None or not self.clock_running or p.finished):
            self._whole_cut = WholeRun(self.arrays, self.run_time())  # a run that no longer changes: strips kept
        return self._whole_cut

    def update_from(self, changes: ProjectionChanges) -> None:
        p = self.projection
        if p is None:
            return
        lanes = len(self.arrays.lane_ids)
        self.arrays.sync_lanes(p)
        if changes.spans_added:
            self.arrays.add(p, changes.spans_added)
        if changes.spans_changed:
            self.arrays.refresh(p, changes.spans_changed)
        self.arrays.scan_events(p)
        if self._whole is not None and self._whole[0] is self.arrays:  # the run shown whole grew
            self._whole, self._whole_cut = (self.arrays, self.run_time(), len(p.events)), None
            self.item.strip_source = None
        elif isinstance(self.item.strip_source, MomentCut) and self._whole_cut is not None:  # playback stepped on
            self.item.strip_source = MomentCut.of(self._whole_cut, self.arrays, self.run_time())
        self._lanes_dirty = self._lanes_dirty or len(self.arrays.lane_ids) != lanes
        if self.live_timer.isActive() and not p.finished:
            return  # live: the timer redraws what came in, at most every LIVE_TICK_MS
        self._refresh(lanes_changed=self._lanes_dirty)

    def set_node_filter(self, node_id: str | None) -> None:
        self.node_filter = node_id
        self._apply_filter()

    # -- reading ----------------------------------------------------------------------------------
    def span_row_at(self, scene_pos: QPointF) -> int | None:
        if not self.view_box.sceneBoundingRect().contains(scene_pos):
            return None
        point = self.view_box.mapSceneToView(scene_pos)
        tolerance = 3 * self.view_box.viewPixelSize()[0]
        return span_at(self.arrays, point.x(), point.y(), self.item.now, tolerance)

    # -- showing ----------------------------------------------------------------------------------
    def _refresh(self, *, lanes_changed: bool) -> None:
        self._lanes_dirty = False
        p = self.projection
        now = self.run_time()
        self.item.data_changed(now)
        if lanes_changed:
            self.axis.set_labels(self.arrays.lane_labels)
        if self.follow:
            lo, hi = self.arrays.extent(now)
            self._run_end = hi = max(hi, self._run_end)
            x_range = (lo, hi + (hi - lo) * 0.02)
        else:
            x_range = ()
        lanes = () if self.lanes_check.isChecked() else (0, max(len(self.arrays.lane_ids), 1))
        if (*x_range, *lanes) != self._fitted:  # only what moved: setting a range repaints the axes
            self._fitted = (*x_range, *lanes)
            if x_range:
                self.view_box.setXRange(*x_range, padding=0)
            if lanes:
                self.view_box.setYRange(*lanes, padding=0)
        live = p is not None and not p.finished and p.status != "pending" and self.clock_running
        if live and not self.live_timer.isActive():
            self.live_timer.start()
        elif not live:
            self.live_timer.stop()
        n = self.arrays.count
        self.summary.setText(f"{n:,} spans · {max(len(self.arrays.lane_ids) - 1, 0)} nodes · {now:.2f} s"
                             if p is not None else "No run")

    def _apply_filter(self) -> None:
        lane = self.arrays.lane_of.get(self.node_filter) if self.node_filter else None
        self.item.set_highlight(lane)

    def _apply_theme(self) -> None:
        colors: TimelineColors = DARK if self.palette().window().color().lightness() < 128 else LIGHT
        self.plot.setBackground(colors.background)
        for name in ("left", "bottom"):
            axis = self.plot.getAxis(name)
            axis.setPen(pg.mkPen(colors.text))
            axis.setTextPen(pg.mkPen(colors.text))
        self.item.set_colors(colors)

    # -- slots ------------------------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_theme()
        super().changeEvent(event)

    def _on_live_timer_timeout(self) -> None:
        if self.projection is None or self.projection.finished:
            self.live_timer.stop()
        if self.arrays.count or self._lanes_dirty:
            self._refresh(lanes_changed=self._lanes_dirty)

    def _on_view_range_changed_manually(self, _mask: object) -> None:
        self.follow, self._fitted = False, None

    def _on_fit_clicked(self) -> None:
        self.follow, self._fitted = True, None
        self.view_box.setYRange(0, max(len(self.arrays.lane_ids), 1), padding=0)
        self._refresh(lanes_changed=False)

    def _on_lanes_toggled(self, on: bool) -> None:
        self.view_box.setMouseEnabled(x=True, y=on)
        if not on:
            self.view_box.setYRange(0, max(len(self.arrays.lane_ids), 1), padding=0)

    def _on_scene_mouse_moved(self, scene_pos: QPointF) -> None:
        row = self.span_row_at(scene_pos)
        if row is None or self.projection is None:
            QToolTip.hideText()
            return
        QToolTip.showText(QCursor.pos(), describe(self.projection, self.arrays, row, self.item.now), self.plot)

    def _on_scene_mouse_clicked(self, event: object) -> None:
        button = event.button()  # type: ignore[attr-defined]
        if button == Qt.MouseButton.RightButton:
            self.fork_menu_at(event.scenePos())  # type: ignore[attr-defined]
            return
        if button != Qt.MouseButton.LeftButton:
            return
        row = self.span_row_at(event.scenePos())  # type: ignore[attr-defined]
        if row is None:
            return
        self.select_row(row)

    def fork_menu_at(self, scene_pos: QPointF) -> QMenu | None:
        """"Fork from here…" for the span under `scene_pos` of a finished run (None: nothing to fork there)."""
        row = self.span_row_at(scene_pos)
        p = self.projection
        if row is None or p is None or p.status in ("pending", "running"):
            return None
        span_id = self.arrays.span_ids[row]
        menu = QMenu(self)
        menu.addAction("Fork from here…", lambda: self.fork_requested.emit(span_id))
        self._fork_menu = menu
        menu.popup(QCursor.pos())
        return menu

    def select_row(self, row: int) -> None:
        span_id = self.arrays.span_ids[row]
        self.span_selected.emit(span_id)
        node_id = self.arrays.lane_ids[int(self.arrays.lane[row])]
        if node_id:
            self.node_selected.emit(node_id)

