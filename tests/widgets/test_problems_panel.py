"""Problems panel: rows are validate() results, re-validated after model changes, activation emits ids."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from engine.graph.model import Edge, Node, NodeUi, Workflow
from engine.graph.validate import validate
from widgets.problems import ProblemsPanel
from widgets.problems.problems_panel import DEBOUNCE_MS


def _valid() -> Workflow:
    wf = Workflow("ok")
    wf.add_node(Node("goal", "input", "Goal", {}, NodeUi()))
    wf.add_node(Node("result", "output", "Result", {}, NodeUi(200, 0)))
    wf.add_edge(Edge("e1", "goal", "value", "result", "value"))
    return wf


def test_rows_are_the_validation_result(qtbot: QtBot) -> None:
    wf = _valid()
    wf.add_node(Node("lonely", "executor", "Lonely", {}, NodeUi()))
    panel = ProblemsPanel(wf)
    qtbot.addWidget(panel)
    expected = validate(wf)
    assert expected and panel.model.rowCount() == len(expected)
    messages = {panel.model.index(r, 1).data() for r in range(panel.model.rowCount())}
    assert messages == {p.message for p in expected}
    severities = [panel.model.index(r, 0).data() for r in range(panel.model.rowCount())]
    assert severities == sorted(severities, key=lambda s: s != "error")  # errors first
    assert "lonely" in panel.model.index(0, 2).data()
    assert panel.model.index(0, 0).data(Qt.ItemDataRole.DecorationRole) is not None


def test_follows_model_changes_after_debounce(qtbot: QtBot) -> None:
    wf = _valid()
    panel = ProblemsPanel(wf)
    qtbot.addWidget(panel)
    assert panel.model.rowCount() == 0 and panel.summary.text() == "No problems"
    wf.remove_edge("e1")
    assert panel.model.rowCount() == 0  # debounced: not yet
    qtbot.waitUntil(lambda: panel.model.rowCount() > 0, timeout=DEBOUNCE_MS * 10)
    assert panel.counts()[0] >= 1 and "error" in panel.summary.text()
    wf.add_edge(Edge("e1", "goal", "value", "result", "value"))
    qtbot.waitUntil(lambda: panel.model.rowCount() == 0, timeout=DEBOUNCE_MS * 10)


def test_activation_emits_node_and_edge(qtbot: QtBot) -> None:
    wf = _valid()
    wf.add_edge(Edge("bad", "goal", "value", "ghost", "value"))
    panel = ProblemsPanel(wf)
    qtbot.addWidget(panel)
    row = next(r for r in range(panel.model.rowCount()) if panel.model.problem_at(r).edge_id == "bad")
    with qtbot.waitSignal(panel.problem_activated) as blocker:
        panel.table.activated.emit(panel.model.index(row, 1))
    assert blocker.args == [panel.model.problem_at(row).node_id, "bad"]


def test_switching_workflow_detaches_the_old_one(qtbot: QtBot) -> None:
    old, new = _valid(), _valid()
    panel = ProblemsPanel(old)
    qtbot.addWidget(panel)
    panel.set_workflow(new)
    old.remove_edge("e1")
    qtbot.wait(DEBOUNCE_MS * 2)
    assert panel.model.rowCount() == 0
