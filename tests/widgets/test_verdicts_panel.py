"""Verdicts dock: holds exactly the store's verdicts, filters by node and decision, diffs rounds, grows live."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from example_runs import ExampleRun, feed_live, run_example
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from engine import events as ev
from engine.projection import RunProjection, project
from engine.projection.judged import previous_artifact
from engine.store.store import TraceStore
from widgets.verdicts import VerdictsPanel
from widgets.verdicts.look import DARK, LIGHT
from widgets.verdicts.verdicts_model import DECISION, JUDGE, SUBJECT

EXAMPLES = ("research", "code_fix", "text_to_sql", "hanoi", "triad")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ExampleRun]:
    store = TraceStore(Path(tmp_path_factory.mktemp("verdicts")) / "trace.db")
    return {name: run_example(name, store) for name in EXAMPLES}


def _panel(qtbot: QtBot, projection: RunProjection | None = None) -> VerdictsPanel:
    panel = VerdictsPanel()
    qtbot.addWidget(panel)
    panel.resize(1000, 600)
    panel.set_projection(projection)
    return panel


def _shown(panel: VerdictsPanel) -> list[ev.VerdictIssued]:
    return [panel.model.verdict_at(row) for row in range(panel.model.rowCount())]


def _select(panel: VerdictsPanel, row: int, column: int = 0) -> None:
    panel.table.selectionModel().setCurrentIndex(
        panel.model.index(row, column),
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)


@pytest.mark.parametrize("name", EXAMPLES)
def test_rows_are_what_the_store_holds(qtbot: QtBot, runs: dict[str, ExampleRun], name: str) -> None:
    run = runs[name]
    panel = _panel(qtbot, run.projection)
    stored = run.store.verdicts(run.run_id)
    assert stored, f"{name} has verdicts"
    shown = _shown(panel)
    assert [(v.seq, v.node_id, v.subject_node_id, v.decision, v.score, v.round, v.artifact_seq) for v in shown] == [
        (v.seq, v.node_id, v.subject_node_id, v.decision, v.score, v.round, v.artifact_seq) for v in stored]
    model = panel.model
    for row, verdict in enumerate(stored):
        assert model.index(row, DECISION).data() == verdict.decision
        assert model.index(row, JUDGE).data() == run.projection.nodes[verdict.node_id].title
        assert model.index(row, SUBJECT).data() == run.projection.nodes[verdict.subject_node_id].title
        assert model.index(row, 4).data() == f"{verdict.score:.2f}"
        assert model.index(row, 5).data() == str(verdict.round)
    assert model.index(0, DECISION).data(Qt.ItemDataRole.ForegroundRole) is not None
    assert panel.summary.text() == f"{len(stored)} verdict{'s' if len(stored) != 1 else ''}"


def test_filters_by_decision_and_node(qtbot: QtBot, runs: dict[str, ExampleRun]) -> None:
    research = runs["research"].projection
    panel = _panel(qtbot, research)
    panel.set_decisions({"revise"})
    assert [v.decision for v in _shown(panel)] == ["revise"]
    assert panel.summary.text() == "1 of 2 verdicts"
    panel.set_decisions({"approve", "revise", "reject"})
    panel.set_node_filter("planner")  # neither judge nor subject of any verdict
    assert _shown(panel) == []
    assert panel.node_box.currentData() == "planner"
    panel.set_node_filter("report")  # the subject
    assert [v.subject_node_id for v in _shown(panel)] == ["report", "report"]
    panel.node_box.setCurrentIndex(0)  # "All nodes" from the box itself
    assert panel.node_filter is None and len(_shown(panel)) == 2


def test_a_sub_graph_filter_takes_its_inner_nodes(qtbot: QtBot) -> None:
    projection = RunProjection()
    projection.apply_many([
        ev.VerdictIssued(run_id="r", seq=1, ts=0.1, node_id="sub/critic", subject_node_id="sub/writer",
                         decision="approve"),
        ev.VerdictIssued(run_id="r", seq=2, ts=0.2, node_id="subway", subject_node_id="x", decision="approve"),
    ])
    panel = _panel(qtbot, projection)
    panel.set_node_filter("sub")
    assert [v.seq for v in _shown(panel)] == [1]


def test_diff_between_rounds_shows_the_changed_lines(qtbot: QtBot, runs: dict[str, ExampleRun]) -> None:
    research = runs["research"].projection
    panel = _panel(qtbot, research)
    second = research.verdicts[1]
    before, after = previous_artifact(research, second), research.artifacts[second.artifact_seq or 0]
    assert before is not None and before.round == 0 and after.round == 1
    with qtbot.waitSignal(panel.details.diff_shown) as shown:
        _select(panel, 1)
    diff = shown.args[0]
    removed = {line.text for line in diff.unified if line.tag == "-"}
    added = {line.text for line in diff.unified if line.tag == "+"}
    assert removed == set(str(before.value).splitlines()) - set(str(after.value).splitlines())
    assert added == set(str(after.value).splitlines()) - set(str(before.value).splitlines())
    assert "Report combining 4 answers:" in removed and "Report combining 2 answers:" in added
    assert panel.details.artifact_shown_text() == after.value
    panel.details.tabs.setCurrentWidget(panel.details.artifact)  # filled when opened
    assert panel.details.artifact.toPlainText() == after.value
    panel.details.tabs.setCurrentIndex(0)
    assert panel.details.diff.diff_model.rowCount() == len(diff.unified)
    panel.details.mode.setCurrentIndex(1)  # side by side
    model = panel.details.diff.diff_model
    assert model.columnCount() == 4 and model.rowCount() == len(diff.side_by_side)
    with qtbot.waitSignal(panel.details.diff_shown) as whole:
        panel.details.whole.setChecked(True)
    assert sum(1 for r in whole.args[0].side_by_side if r.tag == "equal") == len(
        set(str(after.value).splitlines()) & set(str(before.value).splitlines()))
    _select(panel, 0)
    assert panel.details.diff.diff_model.rowCount() == 0
    assert panel.details.diff_status.text().startswith("First round")


def test_large_artifacts_diff_off_the_gui_thread(qtbot: QtBot) -> None:
    old = "\n".join(f"line {i}" for i in range(20_000))
    new = "\n".join(f"line {i}" if i % 1000 else f"changed {i}" for i in range(20_000))
    events: list[ev.Event] = [
        ev.NodeOutput(run_id="r", seq=1, ts=0.1, node_id="writer", port="result", value=old, round=0),
        ev.VerdictIssued(run_id="r", seq=2, ts=0.2, node_id="critic", subject_node_id="writer", decision="revise",
                         artifact_seq=1),
        ev.NodeOutput(run_id="r", seq=3, ts=0.3, node_id="writer", port="result", value=new, round=1),
        ev.VerdictIssued(run_id="r", seq=4, ts=0.4, node_id="critic", subject_node_id="writer", decision="approve", score=1.0,
                         round=1, artifact_seq=3),
    ]
    projection = RunProjection()
    projection.apply_many(events)
    panel = _panel(qtbot, projection)
    with qtbot.waitSignal(panel.details.diff_shown, timeout=10_000) as shown:
        _select(panel, 1)
        assert panel.details.diff_status.text() == "Computing the diff…"  # not done on the spot
    assert shown.args[0].added == 20 and shown.args[0].removed == 20


def test_live_batches_insert_rows_without_resets(qtbot: QtBot, runs: dict[str, ExampleRun]) -> None:
    events = runs["triad"].projection.events
    panel = _panel(qtbot)
    resets: list[int] = []
    inserted: list[int] = []
    panel.model.modelReset.connect(lambda: resets.append(1))
    panel.model.rowsInserted.connect(lambda _parent, first, last: inserted.append(last - first + 1))
    projection = RunProjection()
    panel.set_projection(projection)
    resets.clear()
    for start in range(0, len(events), 7):
        projection.apply_many(events[start:start + 7])
        panel.apply_changes(projection.take_changes())
    assert resets == [] and sum(inserted) == 2
    assert [v.seq for v in _shown(panel)] == [v.seq for v in runs["triad"].projection.verdicts]
    live = feed_live(panel, events, 50)
    assert len(_shown(panel)) == len(live.verdicts) == 2


def test_selection_emits_the_judge_the_subject_and_the_span(qtbot: QtBot, runs: dict[str, ExampleRun]) -> None:
    research = runs["research"].projection
    panel = _panel(qtbot, research)
    nodes: list[str] = []
    spans: list[str] = []
    panel.node_selected.connect(nodes.append)
    panel.span_selected.connect(spans.append)
    _select(panel, 0)  # from the keyboard
    assert nodes == ["review"]
    panel.table.clicked.emit(panel.model.index(1, SUBJECT))
    assert nodes[-1] == "report"
    panel.table.activated.emit(panel.model.index(1, 0))
    assert spans == [research.verdicts[1].span_id]
    panel.details.header.linkActivated.emit("node:report")
    assert nodes[-1] == "report"
    count = len(nodes)
    panel.set_node_filter("review")  # the controller follows the selection: the row stays selected
    assert panel.details.verdict is research.verdicts[0] and len(nodes) == count
    assert panel.table.selectionModel().currentIndex().row() == 0
    copy, show_span = panel.table.actions()
    copy.trigger()
    assert json.loads(QApplication.clipboard().text())["seq"] == research.verdicts[0].seq
    show_span.trigger()
    assert spans[-1] == research.verdicts[0].span_id
    panel.set_projection(None)
    assert panel.model.rowCount() == 0 and panel.details.verdict is None


def test_playback_at_another_seq_keeps_the_selection(qtbot: QtBot, runs: dict[str, ExampleRun]) -> None:
    full = runs["code_fix"].projection
    panel = _panel(qtbot, full)
    _select(panel, 0)
    first = full.verdicts[0]
    panel.set_projection(project(full.events, until_seq=first.seq + 1))  # the same run, scrubbed back
    assert panel.details.verdict is not None and panel.details.verdict.seq == first.seq
    assert panel.model.rowCount() == 1
    panel.set_projection(project(full.events, until_seq=first.seq - 1))  # before the verdict: gone
    assert panel.model.rowCount() == 0 and panel.details.verdict is None
    panel.set_projection(full)
    _select(panel, 0)
    panel.set_projection(runs["text_to_sql"].projection)  # another run: nothing selected
    assert panel.details.verdict is None


def test_decision_colours_follow_the_theme(qtbot: QtBot, runs: dict[str, ExampleRun]) -> None:
    from PySide6.QtGui import QColor, QPalette

    panel = _panel(qtbot, runs["research"].projection)
    _select(panel, 0)
    light = panel.model.index(0, DECISION).data(Qt.ItemDataRole.ForegroundRole)
    assert LIGHT.revise.name() in panel.details.header.text()
    dark = QPalette(panel.palette())
    dark.setColor(QPalette.ColorRole.Base, QColor("#1e1e1e"))
    dark.setColor(QPalette.ColorRole.Window, QColor("#252526"))
    panel.setPalette(dark)
    assert panel.model.index(0, DECISION).data(Qt.ItemDataRole.ForegroundRole) == DARK.revise != light
    assert DARK.revise.name() in panel.details.header.text()
