"""Events dock: one row per stored event, batched live inserts without resets, kind / node / text filters
(scanned in chunks on a large run, never all at once), auto-scroll only at the bottom, copy as JSON lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelectionModel
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from engine.projection import RunProjection, project
from tests.widgets.trace_run_fixtures import EXAMPLES, recorded, synthetic_events
from widgets.events_view import EventsPanel
from widgets.events_view.event_text import event_node
from widgets.events_view.events_panel import SCAN_CHUNK


@pytest.fixture(scope="module")
def runs_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("event-runs")


@pytest.mark.parametrize("name", EXAMPLES)
def test_one_row_per_stored_event(qtbot: QtBot, runs_dir: Path, name: str) -> None:
    run = recorded(name, runs_dir)
    stored = list(run.store.iter_events(run.run_id))
    panel = EventsPanel()
    qtbot.addWidget(panel)
    panel.set_projection(run.projection)
    assert panel.model.rowCount() == len(stored)
    assert [panel.model.index(r, 0).data() for r in (0, len(stored) - 1)] == [str(stored[0].seq), str(stored[-1].seq)]
    assert panel.model.index(len(stored) - 1, 2).data() == "run_finished"
    assert all(panel.model.index(r, 5).data() is not None for r in range(len(stored)))


def test_filters_by_kind_node_and_text(qtbot: QtBot, runs_dir: Path) -> None:
    run = recorded("research", runs_dir)
    p = run.projection
    panel = EventsPanel()
    qtbot.addWidget(panel)
    panel.set_projection(p)
    panel.set_kinds({"verdict", "memory_write"})
    assert panel.model.rowCount() == sum(e.kind in ("verdict", "memory_write") for e in p.events)
    panel.set_kinds(None)
    panel.set_node_filter("review")
    assert panel.node_box.currentText() == "review"
    expected = [e for e in p.events if event_node(p, e) == "review"]
    assert panel.model.rowCount() == len(expected) and any(e.kind == "llm_delta" for e in expected)
    panel.set_node_filter(None)
    panel.search.setText("claude-3-5-haiku")
    qtbot.waitUntil(lambda: 0 < panel.model.rowCount() < len(p.events), timeout=2000)
    assert all("claude-3-5-haiku" in panel.model.index(r, 5).data() for r in range(panel.model.rowCount()))


def test_live_batches_insert_rows_without_resets(qtbot: QtBot, runs_dir: Path) -> None:
    run = recorded("hanoi", runs_dir)
    projection = RunProjection()
    panel = EventsPanel()
    qtbot.addWidget(panel)
    panel.set_projection(projection)
    inserts, resets = [], []
    panel.model.rowsInserted.connect(lambda parent, first, last: inserts.append(last - first + 1))
    panel.model.modelReset.connect(lambda: resets.append(1))
    for batch in run.batches:
        projection.apply_many(batch)
        panel.apply_changes(projection.take_changes())
    assert not resets and len(inserts) == len(run.batches)
    assert sum(inserts) == panel.model.rowCount() == len(projection.events)


def test_filtering_a_large_run_is_chunked(qtbot: QtBot) -> None:
    projection = project(synthetic_events(executions=3_000, nodes=50))
    assert len(projection.events) > 2 * SCAN_CHUNK
    panel = EventsPanel()
    qtbot.addWidget(panel)
    panel.set_projection(projection)
    panel.set_kinds({"verdict"})
    assert panel.scanning()  # the first chunk only: the rest follows on the timer
    qtbot.waitUntil(lambda: not panel.scanning(), timeout=10_000)
    assert panel.model.rowCount() == sum(e.kind == "verdict" for e in projection.events)


def test_auto_scroll_only_at_the_bottom(qtbot: QtBot) -> None:
    events = synthetic_events(executions=300, nodes=10, deltas=2)
    projection = RunProjection()
    panel = EventsPanel()
    qtbot.addWidget(panel)
    panel.resize(700, 300)
    panel.show()
    panel.set_projection(projection)
    bar = panel.view.verticalScrollBar()
    projection.apply_many(events[:1000])
    panel.apply_changes(projection.take_changes())
    assert bar.value() == bar.maximum() > 0  # was at the bottom (empty): follows
    bar.setValue(10)
    projection.apply_many(events[1000:2000])
    panel.apply_changes(projection.take_changes())
    assert bar.value() == 10  # scrolled up: stays


def test_copy_selected_rows_as_json_lines(qtbot: QtBot, runs_dir: Path) -> None:
    run = recorded("tools", runs_dir)
    panel = EventsPanel()
    qtbot.addWidget(panel)
    panel.set_projection(run.projection)
    selection = panel.view.selectionModel()
    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    for row in (0, 2, 5):
        selection.select(panel.model.index(row, 0), flags)
    panel.copy_selected()
    lines = QGuiApplication.clipboard().text().splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["seq"] for r in records] == [run.projection.events[i].seq for i in (0, 2, 5)]
    assert records[0] == json.loads(json.dumps(run.projection.events[0].to_record(), default=str))
