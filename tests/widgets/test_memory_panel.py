"""Memory dock: holds exactly the store's memory writes, the current contents per scope, who gated a
write, reads on demand, filters, the store's current value of lasting memory, and grows live."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from example_runs import ExampleRun, feed_live, run_example
from PySide6.QtCore import QModelIndex
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from engine import events as ev
from engine.projection import RunProjection, project
from engine.store.store import TraceStore
from widgets.memory_view import MemoryPanel


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> TraceStore:
    return TraceStore(Path(tmp_path_factory.mktemp("memory")) / "trace.db")


@pytest.fixture(scope="module")
def research(store: TraceStore) -> ExampleRun:
    return run_example("research", store)


def _panel(qtbot: QtBot, projection: RunProjection | None = None, **kw: object) -> MemoryPanel:
    panel = MemoryPanel(**kw)
    qtbot.addWidget(panel)
    panel.resize(1000, 700)
    panel.set_projection(projection)
    return panel


def _history(panel: MemoryPanel) -> list[tuple[str, str, str, str]]:
    m = panel.history_model
    return [tuple(m.index(r, c).data() for c in (1, 2, 5, 7)) for r in range(m.rowCount())]  # type: ignore[misc]


def _contents(panel: MemoryPanel) -> dict[str, list[tuple[str, str]]]:
    m = panel.contents_model
    out: dict[str, list[tuple[str, str]]] = {}
    for g in range(m.rowCount()):
        group = m.index(g, 0)
        out[group.data()] = [(m.index(k, 0, group).data(), m.index(k, 2, group).data()) for k in range(m.rowCount(group))]
    return out


W = ev.MemoryWritten
R = ev.MemoryRead


def _synthetic() -> list[ev.Event]:
    def w(seq: int, node: str, key: str, value: object, admitted: bool = True, reason: str = "",
          memory: str = "notes", scope: str = "run") -> ev.Event:
        return W(run_id="r", seq=seq, ts=seq / 10, node_id=node, memory=memory, scope=scope, key=key, value=value,
                 admitted=admitted, reason=reason)
    return [
        ev.RunStarted(run_id="r", seq=0, ts=0.0, workflow_id="wf", workflow_name="memory", workflow_hash="h"),
        ev.RunPlanned(run_id="r", seq=1, ts=0.0, nodes=[["a", "Writer A", "memory"], ["b", "Writer B", "memory"],
                                                       ["judge", "Judge", "critic"]]),
        w(2, "a", "topic", "heat pumps"),
        R(run_id="r", seq=3, ts=0.3, node_id="b", memory="notes", scope="run", key="topic", value="heat pumps"),
        ev.VerdictIssued(run_id="r", seq=4, ts=0.4, node_id="judge", subject_node_id="a", decision="reject",
                         score=0.2, reasons=["off topic"]),
        w(5, "a", "summary", {"text": "draft"}, admitted=False,
          reason="gate verdict was reject (score 0.20): off topic"),
        w(6, "b", "topic", "gas boilers"),
        w(7, "b", "style", ["short", "plain"], memory="prefs", scope="global"),
        R(run_id="r", seq=8, ts=0.8, node_id="a", memory="prefs", scope="workflow", key="tone", value="calm"),
    ]


def test_history_and_contents_are_what_the_store_holds(qtbot: QtBot, research: ExampleRun) -> None:
    panel = _panel(qtbot, research.projection)
    stored = research.store.memory_writes(research.run_id)
    assert len(stored) == 1 and stored[0].admitted
    m = panel.history_model
    assert [(e.seq, e.node_id, e.memory, e.scope, e.key, e.value, e.admitted, e.reason) for e in m.rows] == [
        (s.seq, s.node_id, s.memory, s.scope, s.key, s.value, s.admitted, s.reason) for s in stored]
    approve = next(v for v in research.projection.verdicts if v.decision == "approve")
    gate = m.index(0, 7).data()
    assert gate.startswith(stored[0].reason) and f"(seq {approve.seq})" in gate and "Check claims" in gate
    assert m.index(0, 2).data() == "written"
    title = research.projection.nodes[stored[0].node_id].title
    assert _contents(panel) == {"reports · workflow scope — 1 key": [("latest_report", title)]}
    entry = panel.contents_model.entries[("reports", "workflow", "latest_report")]
    assert entry.value == research.store.memory_value("reports", "workflow", research.projection.workflow_id,
                                                       "latest_report")
    assert panel.summary.text() == "1 key · 1 write · 0 reads"


def test_selecting_shows_the_whole_value_and_the_writer(qtbot: QtBot, research: ExampleRun) -> None:
    panel = _panel(qtbot, research.projection)
    nodes: list[str] = []
    panel.node_selected.connect(nodes.append)
    group = panel.contents_model.index(0, 0)
    panel.contents.setCurrentIndex(panel.contents_model.index(0, 0, group))
    write = research.projection.memory_writes[0]
    assert panel.value.value.toPlainText() == write.value
    assert nodes == [write.node_id]
    assert "gate approved" in panel.value.header.text() and "Check claims" in panel.value.header.text()
    panel.history.selectRow(0)
    assert panel.value.shown is write


def test_reads_refusals_and_filters(qtbot: QtBot) -> None:
    projection = RunProjection()
    projection.apply_many(_synthetic())
    panel = _panel(qtbot, projection)
    assert [(n, what, key) for n, what, key, _ in _history(panel)] == [
        ("Writer A", "written", "topic"), ("Writer B", "read", "topic"), ("Writer A", "refused", "summary"),
        ("Writer B", "written", "topic"), ("Writer B", "written", "style"), ("Writer A", "read", "tone")]
    refused = _history(panel)[2][3]
    assert "gate verdict was reject" in refused and "Judge" in refused and "(seq 4)" in refused
    assert _contents(panel) == {
        "notes · run scope — 1 key": [("topic", "Writer B")],  # the refused summary never got in
        "prefs · global scope — 1 key": [("style", "Writer B")],
        "prefs · workflow scope — 1 key": [("tone", "(read by Writer A)")],  # known only from a read
    }
    panel.reads.setChecked(False)
    assert [what for _, what, _, _ in _history(panel)] == ["written", "refused", "written", "written"]
    panel.reads.setChecked(True)
    panel.set_node_filter("a")
    assert [(n, key) for n, _, key, _ in _history(panel)] == [("Writer A", "topic"), ("Writer A", "summary"),
                                                              ("Writer A", "tone")]
    assert _contents(panel) == {"notes · run scope — 1 key": [("topic", "Writer B")],  # a's key, b's value
                                "prefs · workflow scope — 1 key": [("tone", "(read by Writer A)")]}
    assert panel.node_chip.isVisibleTo(panel) and panel.node_chip.text() == "only Writer A ✕"
    panel.node_chip.click()
    assert panel.node_filter is None and not panel.node_chip.isVisibleTo(panel) and len(_history(panel)) == 6
    panel.history.selectRow(4)  # prefs · global · style
    copy_value, copy_json = panel.history.actions()
    copy_value.trigger()
    assert QApplication.clipboard().text() == '[\n  "short",\n  "plain"\n]'
    copy_json.trigger()
    assert json.loads(QApplication.clipboard().text())["kind"] == "memory_write"
    panel.search.setText("prefs")
    assert [key for _, _, key, _ in _history(panel)] == ["style", "tone"]
    panel.search.clear()
    panel.only_key.setChecked(True)
    group = panel.contents_model.index(0, 0)
    panel.contents.setCurrentIndex(panel.contents_model.index(0, 0, group))  # notes · run · topic
    assert [what for _, what, _, _ in _history(panel)] == ["written", "read", "written"]


def test_a_sub_graph_filter_takes_its_inner_nodes(qtbot: QtBot) -> None:
    inner = W(run_id="r", seq=1, ts=0.1, node_id="sub/store", memory="m", scope="run", key="k", value=1)
    other = W(run_id="r", seq=2, ts=0.2, node_id="subway", memory="m", scope="run", key="j", value=2)
    projection = RunProjection()
    projection.apply_many([inner, other])
    panel = _panel(qtbot, projection)
    panel.set_node_filter("sub")
    assert panel.history_model.rows == [inner] and panel.contents_model.key_count() == 1


def test_live_batches_insert_rows_without_resets(qtbot: QtBot) -> None:
    events = _synthetic()
    panel = _panel(qtbot)
    resets: list[str] = []
    inserted: list[int] = []
    panel.history_model.modelReset.connect(lambda: resets.append("history"))
    panel.contents_model.modelReset.connect(lambda: resets.append("contents"))
    panel.history_model.rowsInserted.connect(lambda _p, first, last: inserted.append(last - first + 1))
    projection = RunProjection()
    panel.set_projection(projection)
    resets.clear()
    changed: list[QModelIndex] = []
    panel.contents_model.dataChanged.connect(lambda top, _bottom: changed.append(top))
    for start in range(0, len(events), 2):
        projection.apply_many(events[start:start + 2])
        panel.apply_changes(projection.take_changes())
    assert resets == [] and sum(inserted) == 6 and len(inserted) == 4
    assert changed and changed[0].data() == "topic"  # b overwrote a's topic in place
    assert panel.contents_model.key_count() == 3
    assert panel.summary.text() == "3 keys · 4 writes (1 refused) · 2 reads"
    fresh = _panel(qtbot)
    live = feed_live(fresh, events, 3)  # writes and reads in one batch come out merged in seq order
    assert [e.seq for e in fresh.history_model.rows] == sorted(e.seq for e in (*live.memory_writes,
                                                                                *live.memory_reads))


def test_lasting_memory_is_compared_with_the_store(qtbot: QtBot, store: TraceStore, research: ExampleRun) -> None:
    later = run_example("research", store)  # a later run writes the same key again
    for run, says in ((research, "same value"), (later, "still holds the value this run left")):
        panel = _panel(qtbot, run.projection, store=store)
        group = panel.contents_model.index(0, 0)
        panel.contents.setCurrentIndex(panel.contents_model.index(0, 0, group))
        qtbot.waitUntil(lambda p=panel, s=says: s in p.value.store_note.text(), timeout=5000)
        if run is research:
            assert later.run_id[:8] in panel.value.store_note.text()


def test_a_changed_value_in_the_store_is_shown(qtbot: QtBot, tmp_path: Path) -> None:
    store = TraceStore(tmp_path / "trace.db")
    first = run_example("research", store)
    later = run_example("research", store, inputs={"question": "Is a green roof worth it?"})
    newer = later.projection.memory_writes[0]
    assert newer.admitted and newer.value != first.projection.memory_writes[0].value
    panel = _panel(qtbot, first.projection, store=store)
    panel.history.selectRow(0)
    qtbot.waitUntil(lambda: "another value" in panel.value.store_note.text(), timeout=5000)
    assert later.run_id[:8] in panel.value.store_note.text()
    assert panel.value.store_value.toPlainText() == newer.value and panel.value.store_value.isVisibleTo(panel)
    panel.set_store(None)
    panel.history.selectRow(0)
    assert panel.value.store_note.isHidden()


def test_playback_at_another_seq_keeps_the_selection(qtbot: QtBot) -> None:
    events = _synthetic()
    full = RunProjection()
    full.apply_many(events)
    panel = _panel(qtbot, full)
    panel.history.selectRow(1)  # the read at seq 3
    panel.set_projection(project(events, until_seq=5))
    assert panel.value.shown is not None and panel.value.shown.seq == 3
    assert panel.history.selectionModel().currentIndex().row() == 1
    panel.set_projection(project(events, until_seq=2))
    assert panel.value.shown is None and panel.history_model.rowCount() == 1


def test_a_write_shows_its_change_from_the_previous_write(qtbot: QtBot) -> None:
    projection = RunProjection()
    projection.apply_many(_synthetic())
    panel = _panel(qtbot, projection)
    change = panel.value.change
    with qtbot.waitSignal(change.diff_shown) as shown:
        panel.history.selectRow(3)  # b's topic "gas boilers" replaced a's "heat pumps"
    diff = shown.args[0]
    assert [(line.tag, line.text) for line in diff.unified if line.tag in "+-"] == [
        ("-", "heat pumps"), ("+", "gas boilers")]
    assert "Writer A" in change.status.text() and "(seq 2)" in change.status.text()
    panel.history.selectRow(2)  # the refused summary: nothing written before it
    assert change.view.diff_model.rowCount() == 0 and change.status.text().startswith("The first write")
    panel.history.selectRow(1)
    assert change.status.text().startswith("A read")
