"""Trace dock: the tree holds exactly the store's spans with the same totals, grows live in batched
inserts without resets, pages a large stored run in lazily, filters, and says what was picked."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex
from pytestqt.qtbot import QtBot

from engine.projection import RunProjection, project
from tests.widgets.trace_run_fixtures import EXAMPLES, recorded, synthetic_events
from widgets.trace import TracePanel
from widgets.trace.trace_cells import COST, NAME, STATUS, TOKENS
from widgets.trace.trace_format import fmt_tokens
from widgets.trace.trace_model import CHUNK, TraceModel
from widgets.trace.trace_panel import CHEAP_LAYOUT_ROWS


@pytest.fixture(scope="module")
def runs_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("trace-runs")


def _walk(model: TraceModel, parent: QModelIndex = QModelIndex()) -> list[tuple[str, str | None]]:
    """(span id, parent span id) of every row, depth first."""
    out = []
    for row in range(model.rowCount(parent)):
        index = model.index(row, 0, parent)
        out.append((model.span_id(index), model.span_id(parent) if parent.isValid() else None))
        out.extend(_walk(model, index))
    return out


@pytest.mark.parametrize("name", EXAMPLES)
def test_tree_holds_the_stored_spans_and_totals(qtbot: QtBot, runs_dir: Path, name: str) -> None:
    run = recorded(name, runs_dir)
    panel = TracePanel()
    qtbot.addWidget(panel)
    panel.set_projection(run.projection)
    panel.model.fetch_all()
    rows = _walk(panel.model)
    stored = {s.span_id: s for s in run.store.spans(run.run_id)}
    assert len(rows) == len(stored) and {sid for sid, _ in rows} == set(stored)
    for sid, parent in rows:
        record = stored[sid]
        assert parent == record.parent_id
        index = panel.model.index_of(sid)
        assert panel.model.index(index.row(), TOKENS, index.parent()).data() == \
            fmt_tokens(record.tokens_in + record.tokens_out)
        assert panel.model.index(index.row(), STATUS, index.parent()).data() == record.status
    run_index = panel.model.index(0, 0)
    assert panel.model.span_at(run_index).kind == "run"  # type: ignore[union-attr]
    total = sum(s.tokens_in + s.tokens_out for s in stored.values() if s.kind == "llm")
    assert panel.model.index(0, TOKENS).data() == fmt_tokens(total)


def test_research_rounds_and_unknown_prices(qtbot: QtBot, runs_dir: Path) -> None:
    run = recorded("research", runs_dir)
    panel = TracePanel()
    qtbot.addWidget(panel)
    panel.set_projection(run.projection)
    panel.model.fetch_all()
    names = {panel.model.index_of(sid).data(): sid for sid, _ in _walk(panel.model)}
    assert any("round 1 · attempt 1" in n for n in names)
    critic = next(sid for sid, c in run.projection.calls.items() if "claude" in c.name)
    index = panel.model.index_of(critic)
    assert panel.model.index(index.row(), COST, index.parent()).data() == "price unknown"  # never $0


def test_live_batches_insert_rows_without_resets(qtbot: QtBot, runs_dir: Path) -> None:
    run = recorded("research", runs_dir)
    projection = RunProjection()
    panel = TracePanel()
    qtbot.addWidget(panel)
    panel.set_projection(projection)
    inserts, resets = [], []
    panel.model.rowsInserted.connect(lambda parent, first, last: inserts.append(last - first + 1))
    panel.model.modelReset.connect(lambda: resets.append(1))
    for batch in run.batches:
        projection.apply_many(batch)
        panel.apply_changes(projection.take_changes())
    assert not resets
    # batched: several spans per insert (a span new in a flush brings its own first rows with it)
    assert len(inserts) < sum(inserts) <= len(projection.span_table.spans)
    assert {sid for sid, _ in _walk(panel.model)} == set(projection.span_table.spans)
    assert panel.view.isExpanded(panel.model.index(0, 0))  # the running run opened by itself


def test_scroll_position_is_kept_while_rows_arrive(qtbot: QtBot) -> None:
    events = synthetic_events(executions=400, nodes=20, deltas=1)
    projection = RunProjection()
    panel = TracePanel()
    qtbot.addWidget(panel)
    panel.resize(800, 300)
    panel.show()
    panel.set_projection(projection)
    half = len(events) // 2
    projection.apply_many(events[:half])
    panel.apply_changes(projection.take_changes())
    bar = panel.view.verticalScrollBar()
    bar.setValue(bar.maximum() // 3)
    top = panel.model.span_id(panel.view.indexAt(panel.view.viewport().rect().topLeft()))
    for start in range(half, len(events), 97):
        projection.apply_many(events[start:start + 97])
        panel.apply_changes(projection.take_changes())
        assert panel.model.span_id(panel.view.indexAt(panel.view.viewport().rect().topLeft())) == top


def test_large_stored_run_is_read_lazily(qtbot: QtBot) -> None:
    projection = project(synthetic_events(executions=3_000, nodes=50, deltas=1))
    panel = TracePanel()
    qtbot.addWidget(panel)
    panel.set_projection(projection)
    run_index = panel.model.index(0, 0)
    assert panel.model.rowCount(run_index) == CHUNK
    assert panel.model.canFetchMore(run_index)
    panel.model.fetchMore(run_index)
    assert panel.model.rowCount(run_index) == 2 * CHUNK
    panel.model.fetch_all()
    assert panel.model.rowCount(run_index) == 3_000


def test_node_filter_shows_only_its_executions(qtbot: QtBot, runs_dir: Path) -> None:
    run = recorded("research", runs_dir)
    panel = TracePanel()
    qtbot.addWidget(panel)
    panel.set_projection(run.projection)
    panel.set_node_filter("answer")
    top = [panel.model.span_id(panel.model.index(r, 0)) for r in range(panel.model.rowCount())]
    assert top == run.projection.nodes["answer"].span_ids and len(top) == 2
    panel.set_node_filter(None)
    assert panel.model.span_at(panel.model.index(0, 0)).kind == "run"  # type: ignore[union-attr]


def test_picking_rows_says_span_or_node(qtbot: QtBot, runs_dir: Path) -> None:
    run = recorded("tools", runs_dir)
    panel = TracePanel()
    qtbot.addWidget(panel)
    panel.set_projection(run.projection)
    panel.model.fetch_all()
    tool = next(sid for sid, c in run.projection.calls.items() if c.kind == "tool")
    with qtbot.waitSignal(panel.span_selected) as picked:
        panel.select_span(tool)
    assert picked.args == [tool]
    node_span = run.projection.span_table.spans[tool].parent_id
    assert node_span is not None
    with qtbot.waitSignal(panel.node_selected) as picked_node:
        panel.select_span(node_span)
    assert picked_node.args == [run.projection.calls[tool].node_id]


def test_search_filters_by_name_and_status(qtbot: QtBot, runs_dir: Path) -> None:
    run = recorded("research", runs_dir)
    panel = TracePanel()
    qtbot.addWidget(panel)
    panel.set_projection(run.projection)
    panel.search.setText("claude")
    qtbot.waitUntil(lambda: panel.view.model() is panel.proxy, timeout=2000)
    proxy = panel.proxy

    def leaves(parent: QModelIndex = QModelIndex()) -> list[str]:
        out = []
        for r in range(proxy.rowCount(parent)):
            index = proxy.index(r, NAME, parent)
            out += leaves(index) if proxy.rowCount(index) else [index.data()]
        return out

    assert leaves() and all("claude" in name for name in leaves())
    panel.search.setText("")
    qtbot.waitUntil(lambda: panel.view.model() is panel.model, timeout=2000)


def test_big_live_tree_takes_rows_on_a_timer(qtbot: QtBot) -> None:
    events = synthetic_events(executions=3_200, nodes=40, deltas=1)
    projection = RunProjection()
    panel = TracePanel()
    qtbot.addWidget(panel)
    panel.set_projection(projection)
    resets: list[int] = []
    panel.model.modelReset.connect(lambda: resets.append(1))
    cut = next(i for i, e in enumerate(events) if e.seq > len(events) * 3 // 4)
    for start in range(0, cut, 300):
        projection.apply_many(events[start:min(cut, start + 300)])
        panel.apply_changes(projection.take_changes())
    assert panel.model.rows_known > CHEAP_LAYOUT_ROWS
    assert panel._pending_added  # a big tree does not lay out again on every flush
    qtbot.waitUntil(lambda: not panel._pending_added, timeout=3_000)
    run_index = panel.model.index(0, 0)
    assert panel.model.rowCount(run_index) == len(projection.span_table.spans[panel.model.span_id(run_index)].children)
    projection.apply_many(events[cut:])
    panel.apply_changes(projection.take_changes())  # the run finished: everything goes in at once
    assert not panel._pending_added and not resets
    assert {sid for sid, _ in _walk(panel.model)} == set(projection.span_table.spans)


def test_provider_fault_shows_in_trace_and_inspector(qtbot: QtBot, tmp_path: Path) -> None:
    from tests.widgets.trace_run_fixtures import record_example
    from widgets.call_inspector import CallInspectorPanel
    from widgets.trace.trace_cells import RETRIES

    run = record_example("tools", tmp_path / "fault.db", sim={"solver": {"fail_first": 1, "fail_kind": "server_error"}})
    retried = [c for c in run.projection.calls.values() if c.retries]
    assert retried
    panel = TracePanel()
    inspector = CallInspectorPanel()
    qtbot.addWidget(panel)
    qtbot.addWidget(inspector)
    panel.set_projection(run.projection)
    inspector.set_projection(run.projection)
    panel.span_selected.connect(inspector.show_call)
    panel.model.fetch_all()
    index = panel.model.index_of(retried[0].span_id)
    cell = panel.model.index(index.row(), RETRIES, index.parent())
    assert cell.data() == str(len(retried[0].retries))
    assert retried[0].retries[0]["error_type"] in panel.model.data(cell, 3)  # ToolTipRole
    panel.select_span(retried[0].span_id)
    assert inspector.span_id == retried[0].span_id
    assert "1 retry" in inspector.summary.text()
    assert retried[0].retries[0]["error"] in inspector.details.toPlainText()


def test_selecting_a_span_not_read_yet_reveals_it(qtbot: QtBot) -> None:
    projection = project(synthetic_events(executions=3_000, nodes=50, deltas=1))
    panel = TracePanel()
    qtbot.addWidget(panel)
    panel.set_projection(projection)
    deep = "synthetic:llm2500"  # under the 2,501st execution: beyond the rows read so far
    assert not panel.model.index_of(deep).isValid()
    with qtbot.waitSignal(panel.span_selected) as picked:
        panel.select_span(deep)
    assert picked.args == [deep]
    assert panel.model.span_id(panel.view.currentIndex()) == deep
    assert panel.view.isExpanded(panel.view.currentIndex().parent())


def test_search_keeps_taking_live_matches(qtbot: QtBot, runs_dir: Path) -> None:
    run = recorded("research", runs_dir)
    projection = RunProjection()
    panel = TracePanel()
    qtbot.addWidget(panel)
    panel.set_projection(projection)
    panel.search.setText("claude")
    qtbot.waitUntil(lambda: panel.view.model() is panel.proxy, timeout=2000)
    for batch in run.batches:
        projection.apply_many(batch)
        panel.apply_changes(projection.take_changes())
    claude = {sid for sid, c in projection.calls.items() if "claude" in c.name}
    shown = {panel.model.span_id(panel.proxy.mapToSource(panel.proxy.index(r, 0, parent)))
             for parent in _proxy_parents(panel) for r in range(panel.proxy.rowCount(parent))}
    assert claude and claude <= shown
    assert all(projection.span_table.spans[s].kind != "llm" or s in claude for s in shown)


def _proxy_parents(panel: TracePanel) -> list[QModelIndex]:
    out, todo = [QModelIndex()], [QModelIndex()]
    while todo:
        parent = todo.pop()
        for r in range(panel.proxy.rowCount(parent)):
            child = panel.proxy.index(r, 0, parent)
            out.append(child)
            todo.append(child)
    return out


def test_spans_left_open_by_an_interrupted_run_read_interrupted(qtbot: QtBot, runs_dir: Path) -> None:
    run = recorded("research", runs_dir)
    cut = len(run.projection.events) // 2
    projection = project(run.projection.events[:cut])  # the process died here: no RunFinished
    projection.status = "interrupted"  # what the store says of it (RunSummary.status)
    panel = TracePanel()
    qtbot.addWidget(panel)
    panel.set_projection(projection)
    panel.model.fetch_all()
    open_spans = [s for s in projection.span_table.spans.values() if s.end_ts is None]
    assert open_spans
    for span in open_spans:
        index = panel.model.index_of(span.span_id)
        assert panel.model.index(index.row(), STATUS, index.parent()).data() == "interrupted"
        assert panel.model.index(index.row(), 3, index.parent()).data() == ""  # no duration ticking
