"""`CostPanel`: the Cost & tokens dock — budget gauges, live cumulative cost and token plots with the
run's budget lines, and per-node / per-model breakdowns.

Gauges: tokens, cost, deadline (elapsed as the deadline counts it vs `deadline_s`) and model calls
(vs `max_model_calls`); amber from 75 %, red from 90 %, "no limit" when the run sets none. The node filter
restricts both breakdowns to that node (and the nodes inside it) and draws its own cumulative usage
on the plots. A cost the gateway could not price says "price unknown", never "$0".

Invariants: reads the projection only; the plots redraw at most once per flush and, while the run is
live, at most every `PLOT_INTERVAL_MS` (a timer draws the last state); gauges and tables follow every
flush that changed usage; tables grow by batched inserts, never a reset on a live batch.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtWidgets import QHBoxLayout, QHeaderView, QLabel, QSplitter, QTableView, QVBoxLayout, QWidget

from engine.projection import ProjectionChanges, RunProjection
from widgets.cost.budget_gauge import BudgetGauge
from widgets.cost.usage_models import ModelUsageModel, NodeUsageModel, cost_text, model_rows, node_rows
from widgets.cost.usage_plots import UsagePlot
from widgets.run_panel import RunPanel

ROW_HEIGHT = 22
PLOT_INTERVAL_MS = 200  # live plots redraw at most this often (the tables and gauges every flush)
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
        self.total = QLabel()
        self.total.setObjectName("costTotal")
        self.total.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.redraws = 0
        self._plotted_at = 0.0
        self.plot_timer = QTimer(self)
        self.plot_timer.setSingleShot(True)
        self.plot_timer.timeout.connect(self._on_plot_timer_timeout)
        gauges = QHBoxLayout()
        for gauge in self.gauges.values():
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
    def rebuild(self) -> None:
        self.node_model.beginResetModel()
        self.node_model.rows = []
        self.node_model.endResetModel()
        self.model_model.beginResetModel()
        self.model_model.rows = []
        self.model_model.endResetModel()
        self._show(tables=True, plots=True)

    def update_from(self, changes: ProjectionChanges) -> None:
        usage = changes.usage or changes.run or bool(changes.nodes)
        if not usage:
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
            for gauge in self.gauges.values():
                gauge.set_value(0, None, "—", "")
            self.cost_plot.show_series([], [], 0.0, None, "${:.4f}")
            self.tokens_plot.show_series([], [], 0.0, None, "{:,.0f}")
            self.cost_plot.show_node([], [], 0.0)
            self.tokens_plot.show_node([], [], 0.0)
            self.total.setText("No run")
            return
        self._show_gauges(p)
        if tables:
            self.node_model.bold = self.node_filter
            self.node_model.show(node_rows(p, self.node_filter), changed)
            self.model_model.show(model_rows(p, self.node_filter), None)
            self.total.setText(self._total_text(p))
        if plots:
            self.plot_timer.stop()
            self._show_plots(p)
            self._plotted_at = time.monotonic()

    def _show_gauges(self, p: RunProjection) -> None:
        limits = p.limits()
        budget = p.budget
        tokens = max(p.tokens_in + p.tokens_out, budget.tokens if budget else 0)
        cost = max(p.cost_usd, budget.cost_usd if budget else 0.0)
        elapsed = budget.elapsed_s if budget is not None and not p.finished else (p.duration_s or p.elapsed_s)
        if budget is not None:
            elapsed = max(elapsed, budget.elapsed_s)
        calls = sum(m.calls for m in p.usage.by_model.values())
        unpriced = sum(m.unpriced_calls for m in p.usage.by_model.values())
        lim = limits.get
        self.gauges["tokens"].set_value(tokens, lim("tokens"), f"{tokens:,}", f"{lim('tokens', 0):,.0f}")
        self.gauges["cost_usd"].set_value(cost, lim("cost_usd"), cost_text(cost, unpriced),
                                          f"${lim('cost_usd', 0):.2f}")
        self.gauges["deadline_s"].set_value(elapsed, lim("deadline_s"), _seconds(elapsed),
                                            f"{lim('deadline_s', 0):.0f} s")
        self.gauges["model_calls"].set_value(calls, lim("model_calls"), f"{calls:,}", f"{lim('model_calls', 0):.0f}")

    def _show_plots(self, p: RunProjection) -> None:
        limits = p.limits()
        now = p.duration_s if p.finished and p.duration_s else p.elapsed_s
        usage = p.usage
        self.cost_plot.show_series(usage.ts, usage.cost_usd, now, limits.get("cost_usd"), "${:.4f}")
        self.tokens_plot.show_series(usage.ts, [float(t) for t in usage.tokens], now, limits.get("tokens"), "{:,.0f}")
        ts: list[float] = []
        costs: list[float] = []
        tokens: list[float] = []
        if self.node_filter is not None:
            f = self.node_filter
            calls = sorted((c for c in p.calls.values() if c.kind == "llm" and c.finished and c.ended_ts is not None
                            and (c.node_id == f or c.node_id.startswith(f + "/"))), key=lambda c: c.seq)
            for c in calls:
                ts.append(c.ended_ts or 0.0)
                costs.append((costs[-1] if costs else 0.0) + c.cost_usd)
                tokens.append((tokens[-1] if tokens else 0.0) + c.tokens_in + c.tokens_out)
        self.cost_plot.show_node(ts, costs, now)
        self.tokens_plot.show_node(ts, tokens, now)
        self.redraws += 1

    def _total_text(self, p: RunProjection) -> str:
        rows = model_rows(p, self.node_filter)
        calls = sum(r.calls for r in rows)
        t_in, t_out = sum(r.tokens_in for r in rows), sum(r.tokens_out for r in rows)
        cost = cost_text(sum(r.cost_usd for r in rows), sum(r.unpriced_calls for r in rows)) if calls else "—"
        scope = f"Node {self.node_filter}" if self.node_filter else "Run"
        return f"{scope}: {calls:,} model calls · {t_in:,} tokens in · {t_out:,} out · {cost}"

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
            self._show_plots(self.projection)
            self._plotted_at = time.monotonic()

    def _on_node_table_activated(self, index: object) -> None:
        node_id = self.node_model.index(index.row(), 0).data(Qt.ItemDataRole.UserRole)  # type: ignore[attr-defined]
        if node_id:
            self.node_selected.emit(node_id)
