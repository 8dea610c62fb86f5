"""`CostPanel`: the Cost & tokens dock — budget gauges, live cumulative cost and token plots with the
run's budget lines, and per-node / per-model breakdowns.

Gauges: tokens, cost, deadline and model calls (vs `max_model_calls`); amber from 75 %, red from 90 %,
"no limit" when the run sets none. The deadline reads the run's time now — the Timeline's,
`RunPanel.run_time` — as the deadline counts it (`RunProjection.deadline_elapsed`: holds left out, and said
under its bar with the run's time), at every moment: live it follows the clock every `CLOCK_TICK_MS`, at a
playback moment it is the moment's, never the last `BudgetUpdated`'s (said only after a model call). The
node filter restricts both breakdowns to that node (and the nodes inside it) and draws its own cumulative usage
on the plots. A cost the gateway could not price says "price unknown", never "$0".

What it shows is a `CostView` (`usage_series`): built here for a live run, and off the GUI thread by
`prepare` for a stored run or a playback moment, so a re-show swaps data into the existing curves and
tables; the plots' axes keep the run's frame (`UsagePlot.fit`), so a move back does not rescale them.

Invariants: reads the projection only; the plots redraw at most once per flush and, while the run is
live, at most every `PLOT_INTERVAL_MS` (a timer draws the last state); gauges and tables follow every
flush that changed usage; tables grow by batched inserts, never a reset on a live batch.
"""

from __future__ import annotations

import time

import numpy as np
from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtWidgets import QHBoxLayout, QHeaderView, QSplitter, QTableView, QVBoxLayout, QWidget

from engine.projection import ProjectionChanges, RunProjection
from widgets.cost.budget_gauge import NOTE_HEIGHT, BudgetGauge
from widgets.cost.usage_models import ModelUsageModel, NodeUsageModel, cost_text
from widgets.cost.usage_plots import UsagePlot
from widgets.cost.usage_series import CostView, cost_view, node_series
from widgets.elided_label import ElidedLabel
from widgets.run_panel import RunPanel

ROW_HEIGHT = 22
PLOT_INTERVAL_MS = 200  # live plots redraw at most this often (the tables and gauges every flush)
CLOCK_TICK_MS = 100  # while the run is live the Deadline gauge follows the clock this often (as the Timeline)


def _seconds(value: float) -> str:
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.1f} s"


def _table(model: NodeUsageModel | ModelUsageModel) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.verticalHeader().hide()
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    view.verticalHeader().setDefaultSectionSize(ROW_HEIGHT)
    header = view.horizontalHeader()
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    digits = view.fontMetrics().horizontalAdvance("0")
    for col, chars in ((1, 6), (2, 9), (3, 9), (4, 13)):  # fixed widths: sizing to contents reads every row
        header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(col, digits * chars + 12)
    view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)
    return view


class CostPanel(RunPanel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.gauges = {name: BudgetGauge(title) for name, title in
                       (("tokens", "Tokens"), ("cost_usd", "Cost"), ("deadline_s", "Deadline"),
                        ("model_calls", "Model calls"))}
        self.cost_plot = UsagePlot("Cost", "$")
        self.tokens_plot = UsagePlot("Tokens", "")
        self.node_model, self.model_model = NodeUsageModel(), ModelUsageModel()
        self.node_table, self.model_table = _table(self.node_model), _table(self.model_model)
        self.node_table.activated.connect(self._on_node_table_activated)
        self.total = ElidedLabel()  # a long total elides (full text in its tooltip) instead of widening the window
        self.total.setObjectName("costTotal")
        self.total.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.total.setAutoFillBackground(True)  # opaque: new totals repaint the label, not the dock and window under it
        self.redraws = 0
        self._plotted_at = 0.0
        self.plot_timer = QTimer(self)
        self.plot_timer.setSingleShot(True)
        self.plot_timer.timeout.connect(self._on_plot_timer_timeout)
        self.clock_timer = QTimer(self)
        self.clock_timer.setInterval(CLOCK_TICK_MS)
        self.clock_timer.timeout.connect(self._on_clock_timer_timeout)
        gauges = QHBoxLayout()
        for gauge in self.gauges.values():
            gauge.setMinimumHeight(gauge.minimumHeight() + NOTE_HEIGHT)  # room for the Deadline's held time
            gauges.addWidget(gauge)
        plots = QSplitter(Qt.Orientation.Horizontal)
        plots.addWidget(self.cost_plot)
        plots.addWidget(self.tokens_plot)
        tables = QSplitter(Qt.Orientation.Horizontal)
        tables.addWidget(self.node_table)
        tables.addWidget(self.model_table)
        tables.setStretchFactor(0, 1)
        tables.setStretchFactor(1, 1)
        body = QSplitter(Qt.Orientation.Vertical)
        body.addWidget(plots)
        body.addWidget(tables)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(gauges)
        layout.addWidget(body, 1)
        layout.addWidget(self.total)
        self._apply_theme()
        self.rebuild()

    # -- RunPanel ---------------------------------------------------------------------------------
    @staticmethod
    def prepare(projection: RunProjection) -> CostView:
        """What the dock shows of `projection` without the node filter, built off the GUI thread (Qt-free)."""
        return cost_view(projection)

    def prepares_here(self) -> bool:
        return True

    def prepare_here(self, projection: RunProjection) -> CostView:
        """`prepare` made here for a playback move: under half a millisecond at 85,000 events."""
        return cost_view(projection)

    def rebuild(self) -> None:
        """Show the projection from scratch: rows of the same names as shown are swapped in (`_UsageModel.show`)."""
        self._show(tables=True, plots=True)

    def update_from(self, changes: ProjectionChanges) -> None:
        usage = changes.usage or changes.run or bool(changes.nodes)
        if not usage:
            if self.projection is not None:
                self._show_deadline(self.projection)  # the run's time moved with its events
            return
        wait_ms = PLOT_INTERVAL_MS - (time.monotonic() - self._plotted_at) * 1000
        later = wait_ms > 0 and self.projection is not None and not self.projection.finished
        if later and not self.plot_timer.isActive():
            self.plot_timer.start(int(wait_ms) + 1)
        self._show(tables=True, plots=not later, changed=changes.nodes)

    def set_node_filter(self, node_id: str | None) -> None:
        if node_id != self.node_filter:
            self.node_filter = node_id
            self.rebuild()

    # -- showing ----------------------------------------------------------------------------------
    def _show(self, *, tables: bool, plots: bool, changed: set[str] | None = None) -> None:
        p = self.projection
        if p is None:
            self.clock_timer.stop()
            for gauge in self.gauges.values():
                gauge.set_value(0, None, "—", "")
            empty = (np.empty(0), np.empty(0))
            for plot, fmt in ((self.cost_plot, "${:.4f}"), (self.tokens_plot, "{:,.0f}")):
                plot.show_series(empty, None, fmt)
                plot.show_node(empty)
                plot.fit(None, empty)
            self.node_model.show([])
            self.model_model.show([])
            self.total.setText("No run")
            return
        self._show_gauges(p)
        prepared = self.take_prepared()
        view = prepared if isinstance(prepared, CostView) and self.node_filter is None and prepared.fits(p) \
            else cost_view(p, self.node_filter, lines=plots)
        if tables:
            self.node_model.bold = self.node_filter
            self.node_model.show(view.node_rows, changed)
            self.model_model.show(view.model_rows, None)
            self.total.setText(view.total)
        if plots:
            self.plot_timer.stop()
            self._show_plots(p, view)
            self._plotted_at = time.monotonic()

    def _show_gauges(self, p: RunProjection) -> None:
        limits = p.limits()
        budget = p.budget
        tokens = max(p.tokens_in + p.tokens_out, budget.tokens if budget else 0)
        cost = max(p.cost_usd, budget.cost_usd if budget else 0.0)
        calls = sum(m.calls for m in p.usage.by_model.values())
        unpriced = sum(m.unpriced_calls for m in p.usage.by_model.values())
        lim = limits.get
        self.gauges["tokens"].set_value(tokens, lim("tokens"), f"{tokens:,}", f"{lim('tokens', 0):,.0f}")
        self.gauges["cost_usd"].set_value(cost, lim("cost_usd"), cost_text(cost, unpriced),
                                          f"${lim('cost_usd', 0):.2f}")
        self.gauges["model_calls"].set_value(calls, lim("model_calls"), f"{calls:,}", f"{lim('model_calls', 0):.0f}")
        self._show_deadline(p, lim("deadline_s"))

    def _show_deadline(self, p: RunProjection, limit: float | None = None) -> None:
        """The Deadline gauge at the run's time now (the Timeline's), holds left out and said."""
        limit = p.limits().get("deadline_s") if limit is None else limit
        now = self.run_time()
        counted = p.deadline_elapsed(now)
        held = now - counted
        note = f"+ {_seconds(held)} held = {_seconds(now)}" if held >= 0.05 else ""  # the Timeline's time
        self.gauges["deadline_s"].set_value(counted, limit, _seconds(counted), f"{limit or 0:.0f} s", note)
        live = not p.finished and p.status != "pending" and self.clock_running
        if live and not self.clock_timer.isActive():
            self.clock_timer.start()
        elif not live:
            self.clock_timer.stop()

    def _show_plots(self, p: RunProjection, view: CostView) -> None:
        assert view.cost is not None and view.tokens is not None  # built with its lines (`_show`'s `plots`)
        limits = p.limits()
        self.cost_plot.show_series(view.cost, limits.get("cost_usd"), "${:.4f}")
        self.tokens_plot.show_series(view.tokens, limits.get("tokens"), "{:,.0f}")
        empty = (np.empty(0), np.empty(0))
        cost, tokens = node_series(p, self.node_filter, view.now) if self.node_filter is not None else (empty, empty)
        for plot, steps, node in ((self.cost_plot, view.cost, cost), (self.tokens_plot, view.tokens, tokens)):
            plot.show_node(node)
            plot.fit(p.run_id, steps)
        self.redraws += 1

    def _apply_theme(self) -> None:
        pal = self.palette()
        dark = pal.window().color().lightness() < 128
        for plot in (self.cost_plot, self.tokens_plot):
            plot.set_colors(pal.base().color(), pal.text().color(), dark)

    # -- slots ------------------------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_theme()
        super().changeEvent(event)

    def _on_plot_timer_timeout(self) -> None:
        if self.projection is not None:
            self._show_plots(self.projection, cost_view(self.projection, self.node_filter))
            self._plotted_at = time.monotonic()

    def _on_clock_timer_timeout(self) -> None:
        if self.projection is not None:
            self._show_deadline(self.projection)

    def _on_node_table_activated(self, index: object) -> None:
        node_id = self.node_model.index(index.row(), 0).data(Qt.ItemDataRole.UserRole)  # type: ignore[attr-defined]
        if node_id:
            self.node_selected.emit(node_id)
