"""Human gate panel: a real run waits at a gate; approve, reject (reason required) and edit from the
panel answer it, the run resumes and the trace records the decision (and the edited artifact)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from qt_loop import qt_loop_fixture, until

from engine import events as ev
from engine.llm.sim import SimGateway
from engine.projection import HumanQuestion, RunProjection
from engine.runtime import compile_workflow
from engine.runtime.launch import follow, start_run
from engine.store import TraceStore
from tests.engine.runtime.fakes import build
from widgets.human_gate import HumanGatePanel
from widgets.human_gate.decision_form import DecisionForm

LEFT = Qt.MouseButton.LeftButton
_loop = pytest.fixture(name="qt_loop")(qt_loop_fixture)


def _gated_run(store: TraceStore) -> Any:
    wf = build([("goal", "input", {"name": "goal", "default": "make tea"}), ("executor", "executor", {}),
                ("gate", "human_gate", {"prompt": "Ship this result?"}), ("result", "output", {"name": "result"})],
               ["goal.value->executor.task", "executor.result->gate.subject", "gate.approved->result.value"])
    return start_run(compile_workflow(wf), store=store, gateway=SimGateway())


async def _answer_from_panel(qtbot: QtBot, tmp_path: Path, act: Any) -> tuple[Any, RunProjection, list[ev.Event],
                                                                                  HumanGatePanel, list[str]]:
    store = TraceStore(tmp_path / "trace.db")
    run = _gated_run(store)
    projection = RunProjection()
    panel = HumanGatePanel()
    qtbot.addWidget(panel)
    panel.resize(720, 560)
    panel.set_projection(projection)
    attention: list[str] = []
    panel.attention_requested.connect(attention.append)
    panel.decision_requested.connect(lambda node, decision, edited, reason:
                                     run.submit_human_decision(node, decision, edited, reason))
    task = asyncio.ensure_future(follow(run, projection, lambda _batch: panel.apply_changes(projection.take_changes())))
    await until(lambda: panel.open_model.rowCount() == 1, what="the gate's question in the panel")
    assert panel.form.question is not None and panel.form.question.prompt == "Ship this result?"
    assert "Result for: make tea" in panel.form.artifact.toPlainText()
    assert panel.form.approve_button.isEnabled() and not panel.form.reject_button.isEnabled()
    act(panel)
    result = await asyncio.wait_for(task, 20)
    panel.apply_changes(projection.take_changes())
    events = list(store.iter_events(projection.run_id, kinds=["human_decided"]))
    store.close()
    return result, projection, events, panel, attention


def test_approve_resumes_the_run_and_is_recorded(qtbot: QtBot, qt_loop: Any, tmp_path: Path) -> None:
    def approve(panel: HumanGatePanel) -> None:
        qtbot.mouseClick(panel.form.approve_button, LEFT)
        assert not panel.form.approve_button.isEnabled()  # sent: not offered twice

    result, projection, events, panel, attention = qt_loop.run_until_complete(
        _answer_from_panel(qtbot, tmp_path, approve))
    assert result.status == "succeeded"
    assert [(e.decision, e.by) for e in events] == [("approve", "user")]
    assert projection.outputs["result"].startswith("Result for: make tea")
    assert attention == ["Gate asks: Ship this result?"]
    assert panel.open_model.rowCount() == 0 and panel.answered_model.rowCount() == 1
    assert panel.answered_model.index(0, 1).data() == "approve"
    assert "ended (succeeded)" in panel.form.status.text() and not panel.form.approve_button.isEnabled()


def test_reject_needs_a_reason_and_the_reason_is_recorded(qtbot: QtBot, qt_loop: Any, tmp_path: Path) -> None:
    def reject(panel: HumanGatePanel) -> None:
        qtbot.mouseClick(panel.form.reject_button, LEFT)  # disabled without a reason: nothing sent
        assert panel.form.question is not None and "needs a reason" in panel.form.status.text()
        qtbot.keyClicks(panel.form.reason, "the numbers do not add up")
        assert panel.form.reject_button.isEnabled()
        qtbot.mouseClick(panel.form.reject_button, LEFT)

    result, projection, events, panel, _ = qt_loop.run_until_complete(_answer_from_panel(qtbot, tmp_path, reject))
    assert [(e.decision, e.reason) for e in events] == [("reject", "the numbers do not add up")]
    assert "result" not in projection.outputs or projection.outputs["result"] is None
    assert result.status in ("succeeded", "failed")
    assert panel.answered_model.index(0, 3).data() == "the numbers do not add up"


def test_edit_sends_the_edited_artifact(qtbot: QtBot, qt_loop: Any, tmp_path: Path) -> None:
    def edit(panel: HumanGatePanel) -> None:
        qtbot.mouseClick(panel.form.edit_button, LEFT)
        assert not panel.form.submit_button.isHidden() and not panel.form.artifact.isReadOnly()
        panel.form.artifact.setPlainText("A better result, by hand.")
        qtbot.keyClicks(panel.form.reason, "tightened the wording")
        qtbot.mouseClick(panel.form.submit_button, LEFT)

    result, projection, events, panel, _ = qt_loop.run_until_complete(_answer_from_panel(qtbot, tmp_path, edit))
    assert result.status == "succeeded"
    assert [(e.decision, e.edited, e.reason) for e in events] == [
        ("edit", "A better result, by hand.", "tightened the wording")]
    assert projection.outputs["result"] == "A better result, by hand."
    assert panel.answered_model.index(0, 4).data() == "A better result, by hand."


def test_json_artifact_edit_is_checked_before_it_is_sent(qtbot: QtBot) -> None:
    form = DecisionForm()
    qtbot.addWidget(form)
    sent: list[tuple[str, object, str]] = []
    form.decided.connect(lambda d, e, r: sent.append((d, e, r)))
    form.show_question(HumanQuestion("gate", 7, 1.0, "Check the plan", {"tasks": [{"id": "t1"}]}), "Gate")
    assert '"tasks"' in form.artifact.toPlainText() and form.as_json.isChecked()
    qtbot.mouseClick(form.edit_button, LEFT)
    form.artifact.setPlainText('{"tasks": [')
    assert not form.submit_button.isEnabled() and "not valid JSON" in form.status.text()
    form.artifact.setPlainText('{"tasks": []}')
    assert form.submit_button.isEnabled()
    qtbot.mouseClick(form.submit_button, LEFT)
    assert sent == [("edit", {"tasks": []}, "")]


def test_a_finished_stored_run_is_read_only_and_says_why(qtbot: QtBot) -> None:
    events = [ev.RunStarted(run_id="r1", seq=1, ts=0.0, span_id="r1/run", workflow_id="w", workflow_name="W",
                            workflow_hash="h"),
              ev.HumanDecisionRequested(run_id="r1", seq=2, ts=0.5, span_id="r1/g", node_id="gate",
                                        prompt="OK?", artifact="draft"),
              ev.RunFinished(run_id="r1", seq=3, ts=1.0, span_id="r1/run", status="cancelled")]
    projection = RunProjection()
    projection.apply_many(events)
    panel = HumanGatePanel()
    qtbot.addWidget(panel)
    attention: list[str] = []
    panel.attention_requested.connect(attention.append)
    panel.set_projection(projection)
    assert panel.open_model.rowCount() == 1 and panel.form.question is not None
    assert not panel.form.approve_button.isEnabled() and not panel.form.edit_button.isEnabled()
    assert "ended (cancelled)" in panel.form.status.text()
    assert attention == []  # nothing to answer: no notification
    panel.set_node_filter("other")
    assert panel.open_model.rowCount() == 0 and panel.form.question is None


@pytest.mark.parametrize("reason", ["Playback: answers go to live runs only."])
def test_the_controller_can_make_a_live_projection_read_only(qtbot: QtBot, reason: str) -> None:
    projection = RunProjection()
    projection.apply(ev.HumanDecisionRequested(run_id="r1", seq=2, ts=0.5, span_id="r1/g", node_id="gate",
                                               prompt="OK?", artifact="draft"))
    panel = HumanGatePanel()
    qtbot.addWidget(panel)
    panel.set_projection(projection)
    assert panel.form.approve_button.isEnabled()
    panel.set_read_only(reason)
    assert not panel.form.approve_button.isEnabled() and panel.form.status.text() == reason
    panel.set_read_only(None)
    assert panel.form.approve_button.isEnabled()


def test_a_question_without_an_artifact_is_answered_with_text(qtbot: QtBot) -> None:
    form = DecisionForm()
    qtbot.addWidget(form)
    sent: list[tuple[str, object, str]] = []
    form.decided.connect(lambda d, e, r: sent.append((d, e, r)))
    form.show_question(HumanQuestion("exec", 9, 2.0, "Exec failed: timeout. Approve to try once more.", None), "Exec")
    assert form.artifact.toPlainText() == "" and not form.as_json.isChecked()
    qtbot.mouseClick(form.edit_button, LEFT)
    form.artifact.setPlainText("the result, by hand")
    qtbot.mouseClick(form.submit_button, LEFT)
    assert sent == [("edit", "the result, by hand", "")]
