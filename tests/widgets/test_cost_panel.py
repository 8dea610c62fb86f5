"""Cost & tokens panel: plotted totals equal the store's run totals, breakdowns sum to them, budget
gauges turn amber and red near their limits, an unpriced model says "price unknown", live batches
insert rows without a reset."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from pytestqt.qtbot import QtBot

from engine import events as ev
from engine.projection import RunProjection, project
from tests.widgets.stored_example_runs import NAMES, stored_run
from widgets.cost import CostPanel
from widgets.cost.budget_gauge import BudgetGauge, level_of
from widgets.cost.usage_models import cost_text


def _panel(qtbot: QtBot, projection: RunProjection | None) -> CostPanel:
    panel = CostPanel()
    qtbot.addWidget(panel)
    panel.resize(1000, 600)
    panel.set_projection(projection)
    return panel


def _column(model: object, col: int) -> list[str]:
    return [model.index(r, col).data() for r in range(model.rowCount())]  # type: ignore[attr-defined]


def _ints(texts: list[str]) -> int:
    return sum(int(t.replace(",", "")) for t in texts)


@pytest.mark.parametrize("name", NAMES)
def test_plots_and_breakdowns_match_the_stored_run(qtbot: QtBot, name: str) -> None:
    stored = stored_run(name)
    panel = _panel(qtbot, project(stored.events))
    run = stored.summary
    tokens = run.tokens_in + run.tokens_out
    _cost_x, cost_y = panel.cost_plot.curve.getData()
    _tok_x, tok_y = panel.tokens_plot.curve.getData()
    assert cost_y[-1] == pytest.approx(run.cost_usd)
    assert tok_y[-1] == pytest.approx(tokens)
    assert list(tok_y) == sorted(tok_y)  # cumulative: never goes down
    for model in (panel.node_model, panel.model_model):
        assert _ints(_column(model, 2)) == run.tokens_in
        assert _ints(_column(model, 3)) == run.tokens_out
        rows = model.rows
        assert sum(r.cost_usd for r in rows) == pytest.approx(run.cost_usd)
    calls = _ints(_column(panel.model_model, 1))
    assert calls == _ints(_column(panel.node_model, 1)) > 0
    assert f"{calls:,} model calls" in panel.total.text()
    gauges = panel.gauges
    assert gauges["tokens"].used == tokens and gauges["tokens"].limit  # the examples set limits
    assert gauges["model_calls"].used == calls
    assert gauges["cost_usd"].level == "ok"


def test_unpriced_model_says_price_unknown_never_zero(qtbot: QtBot) -> None:
    stored = stored_run("research")
    panel = _panel(qtbot, project(stored.events))
    unpriced = [r for r in panel.model_model.rows if r.unpriced_calls]
    assert unpriced, "research prices sim/claude-3-5-haiku as unknown"
    row = panel.model_model.rows.index(unpriced[0])
    text = panel.model_model.index(row, 4).data()
    assert "price unknown" in text or "unpriced" in text
    assert text != "$0" and not text.startswith("$0.0")
    assert "unpriced" in panel.gauges["cost_usd"].text


def _budget_run(tokens: int, cost: float, elapsed: float, calls: int, priced: bool = True,
                calls_field: str = "max_model_calls") -> RunProjection:
    r = "r"
    events: list[ev.Event] = [
        ev.RunStarted(run_id=r, seq=1, ts=0.0, workflow_id="w", workflow_name="W", workflow_hash="h",
                      settings={"budget": {"max_tokens": 1000, "max_cost_usd": 1.0, "deadline_s": 10.0,
                                           calls_field: 10}}),
        ev.RunPlanned(run_id=r, seq=2, ts=0.0, nodes=[["a", "Alpha", "executor"], ["b", "Beta", "critic"]]),
    ]
    seq = 3
    for i in range(calls):
        node = "a" if i % 2 == 0 else "b"
        events.append(ev.LLMCallFinished(run_id=r, seq=seq, ts=0.1 * (i + 1), span_id=f"c{i}", node_id=node,
                                         model="m/x" if priced else "m/unknown", tokens_in=tokens // calls // 2,
                                         tokens_out=tokens // calls // 2, cost_usd=cost / calls if priced else 0.0,
                                         response={"priced": priced}))
        seq += 1
    events.append(ev.BudgetUpdated(run_id=r, seq=seq, ts=elapsed, tokens=tokens, cost_usd=cost, elapsed_s=elapsed))
    return project(events)


def test_gauges_turn_amber_and_red_near_their_limits(qtbot: QtBot) -> None:
    panel = _panel(qtbot, _budget_run(tokens=800, cost=0.5, elapsed=9.5, calls=8))
    g = panel.gauges
    assert (g["tokens"].level, g["cost_usd"].level, g["deadline_s"].level, g["model_calls"].level) == \
        ("amber", "ok", "red", "amber")
    assert "800 / 1,000 · 80%" in g["tokens"].text
    panel.set_projection(_budget_run(tokens=960, cost=0.95, elapsed=1.0, calls=10))
    assert (g["tokens"].level, g["cost_usd"].level, g["deadline_s"].level, g["model_calls"].level) == \
        ("red", "red", "ok", "red")
    assert panel.cost_plot.limit_line.isVisible() and panel.cost_plot.limit_line.value() == 1.0
    assert panel.tokens_plot.limit_line.value() == 1000
    assert "of $1.0000 (95%)" in panel.cost_plot.title_shown


def test_a_run_stored_before_format_version_3_shows_its_model_call_limit(qtbot: QtBot) -> None:
    panel = _panel(qtbot, _budget_run(tokens=10, cost=0.0, elapsed=1.0, calls=8, calls_field="max_turns"))
    assert panel.gauges["model_calls"].limit == 10 and panel.gauges["model_calls"].level == "amber"


def test_no_limit_says_so(qtbot: QtBot) -> None:
    projection = project([
        ev.RunStarted(run_id="r", seq=1, ts=0.0, workflow_id="w", workflow_name="W", workflow_hash="h"),
        ev.LLMCallFinished(run_id="r", seq=2, ts=0.5, span_id="c", node_id="a", model="m", tokens_in=5,
                           tokens_out=5, cost_usd=0.01),
    ])
    panel = _panel(qtbot, projection)
    assert all(g.level == "none" and "no limit" in g.text for g in panel.gauges.values())
    assert not panel.cost_plot.limit_line.isVisible()
    assert level_of(0.74, 1) == "ok" and level_of(0.75, 1) == "amber" and level_of(0.9, 1) == "red"


def test_unpriced_calls_in_a_node_row(qtbot: QtBot) -> None:
    panel = _panel(qtbot, _budget_run(tokens=100, cost=0.0, elapsed=1.0, calls=2, priced=False))
    assert _column(panel.node_model, 4) == ["price unknown", "price unknown"]
    assert _column(panel.model_model, 4) == ["price unknown"]
    assert cost_text(0.5, 1).startswith("≥ $") and cost_text(0.0, 0) == "$0.000000"


def test_node_filter_restricts_the_breakdowns(qtbot: QtBot) -> None:
    projection = project(stored_run("hanoi").events)
    panel = _panel(qtbot, projection)
    node = next(r.node_id for r in projection.nodes.values() if r.llm_calls > 1)
    selected: list[str] = []
    panel.node_selected.connect(selected.append)
    panel.set_node_filter(node)
    assert [r.node_id for r in panel.node_model.rows] == [node]
    assert sum(r.calls for r in panel.model_model.rows) == projection.nodes[node].llm_calls
    _, y = panel.cost_plot.node_curve.getData()
    assert y[-1] == pytest.approx(projection.nodes[node].cost_usd)
    assert panel.node_model.index(0, 0).data(Qt.ItemDataRole.FontRole).bold()
    panel.node_table.activated.emit(panel.node_model.index(0, 0))
    assert selected == [node]
    panel.set_node_filter(None)
    assert len(panel.node_model.rows) > 1
    assert panel.cost_plot.node_curve.getData()[0] is None or len(panel.cost_plot.node_curve.getData()[0]) == 0


def test_live_batches_insert_rows_without_a_reset(qtbot: QtBot) -> None:
    events = stored_run("research").events
    projection = RunProjection()
    panel = _panel(qtbot, projection)
    resets: list[int] = []
    inserted: list[int] = []
    for model in (panel.node_model, panel.model_model):
        model.modelReset.connect(lambda: resets.append(1))
        model.rowsInserted.connect(lambda _p, first, last: inserted.append(last - first + 1))
    redraws = panel.redraws
    flushes = 0
    for start in range(0, len(events), 25):
        projection.apply_many(events[start:start + 25])
        panel.apply_changes(projection.take_changes())
        flushes += 1
    assert not resets
    assert sum(inserted) == len(panel.node_model.rows) + len(panel.model_model.rows)
    assert panel.redraws - redraws < flushes / 2  # live plots are rate-limited (the final state is drawn)
    assert panel.tokens_plot.curve.getData()[1][-1] == stored_run("research").summary.tokens_in + \
        stored_run("research").summary.tokens_out


def test_a_narrow_gauge_keeps_the_used_figure_and_share_before_the_limit(qtbot: QtBot) -> None:
    gauge = BudgetGauge("Tokens")
    qtbot.addWidget(gauge)
    gauge.set_value(6677, 200000, "6,677", "200,000")
    metrics = QFontMetrics(gauge.font())
    whole, without_limit = "6,677 / 200,000 · 3%", "6,677 · 3%"
    assert gauge.figures_within(metrics, metrics.horizontalAdvance(whole)) == whole
    assert gauge.figures_within(metrics, metrics.horizontalAdvance(whole) - 1) == without_limit
    assert gauge.figures_within(metrics, metrics.horizontalAdvance(without_limit) - 1) == "3%"
    assert "6,677 / 200,000 · 3%" in gauge.toolTip()  # the whole text stays reachable
    gauge.set_value(12, None, "12", "")
    assert gauge.figures_within(metrics, metrics.horizontalAdvance("12")) == "12"  # no limit: the used figure
