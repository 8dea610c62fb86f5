"""Call inspector: a call shows the exact messages sent and its reply; live, the reply grows by appended
text (re-set only on a stream restart); retries, errors, unknown prices, tool calls; Copy as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from engine import events as ev
from engine.projection import RunProjection
from tests.widgets.trace_run_fixtures import EXAMPLES, recorded
from widgets.call_inspector import CallInspectorPanel
from widgets.call_inspector.call_text import _content_text


@pytest.fixture(scope="module")
def runs_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("call-runs")


@pytest.mark.parametrize("name", EXAMPLES)
def test_calls_show_their_messages_and_reply(qtbot: QtBot, runs_dir: Path, name: str) -> None:
    run = recorded(name, runs_dir)
    panel = CallInspectorPanel()
    qtbot.addWidget(panel)
    panel.set_projection(run.projection)
    calls = list(run.projection.calls.values())
    assert calls
    for call in calls:
        panel.show_call(call.span_id)
        assert panel.span_id == call.span_id
        if call.kind == "llm":
            sent = panel.messages.toPlainText()
            for message in call.request["messages"]:
                for line in _content_text(message["content"]).splitlines():
                    assert line.strip() in sent
            assert panel.reply.toPlainText() == call.content
        else:
            assert json.dumps(call.request, indent=2, ensure_ascii=False) in panel.messages.toPlainText() \
                or not call.request
            shown = panel.reply.toPlainText()
            assert (call.error or str(call.result)) in shown or json.loads(shown) == call.result


def test_reply_streams_by_appending(qtbot: QtBot, runs_dir: Path) -> None:
    run = recorded("research", runs_dir)
    projection = RunProjection()
    panel = CallInspectorPanel()
    qtbot.addWidget(panel)
    panel.set_projection(projection)
    resets = []
    original = panel.reply.setPlainText
    panel.reply.setPlainText = lambda text: (resets.append(text), original(text))  # type: ignore[method-assign]
    followed: set[str] = set()
    for batch in run.batches:
        projection.apply_many(batch)
        panel.apply_changes(projection.take_changes())
        call = panel.call()
        if call is not None:
            followed.add(call.span_id)
            assert panel.reply.toPlainText() == call.text
    assert len(followed) > 3  # it followed the streaming call until one was picked
    assert len(resets) <= len(followed)  # a new call sets the text once; deltas are appended
    panel.show_call(next(iter(projection.calls)))
    assert panel.pinned


def _call_events(run_id: str = "r") -> list[ev.Event]:
    kw = {"run_id": run_id, "span_id": "c1", "parent_id": "n1"}
    return [
        ev.RunStarted(run_id=run_id, seq=1, ts=0.0, workflow_id="w", workflow_name="W", workflow_hash="h"),
        ev.NodeStateChanged(run_id=run_id, seq=2, ts=0.1, span_id="n1", node_id="judge", state="running"),
        ev.LLMCallStarted(**kw, seq=3, ts=0.2, node_id="judge", model="sim/claude-3-5-haiku",
                          request={"model": "sim/claude-3-5-haiku", "temperature": 0.2, "seed": 7,
                                   "messages": [{"role": "system", "content": "Be strict."},
                                                {"role": "user", "content": "Judge this."}]}),
        ev.LLMCallRetrying(**kw, seq=4, ts=0.3, attempt=2, error_type="RateLimitError", error="429 slow down",
                           delay_s=1.5),
        ev.LLMTokenDelta(**kw, seq=5, ts=0.4, text="broken "),
        ev.LLMStreamRestarted(**kw, seq=6, ts=0.5, attempt=2),
        ev.LLMTokenDelta(**kw, seq=7, ts=0.6, text="fresh "),
        ev.LLMTokenDelta(**kw, seq=8, ts=0.7, text="start"),
        ev.LLMCallFinished(**kw, seq=9, ts=0.8, node_id="judge", model="sim/claude-3-5-haiku",
                           content="fresh start", tokens_in=12, tokens_out=2, latency_s=0.6,
                           response={"priced": False, "tool_calls": [{"function": {"name": "lookup"}}]}),
    ]


def test_restart_retry_price_unknown_and_tool_calls(qtbot: QtBot) -> None:
    events = _call_events()
    projection = RunProjection()
    panel = CallInspectorPanel()
    qtbot.addWidget(panel)
    panel.set_projection(projection)
    for e in events[:5]:
        projection.apply(e)
        panel.apply_changes(projection.take_changes())
    assert panel.reply.toPlainText() == "broken "
    projection.apply_many(events[5:8])
    panel.apply_changes(projection.take_changes())
    assert panel.reply.toPlainText() == "fresh start"
    assert "stream restarted: attempt 2" in panel.reply_label.text()
    projection.apply(events[8])
    panel.apply_changes(projection.take_changes())
    assert "price unknown" in panel.summary.text() and "$0" not in panel.summary.text()
    assert "1 retry" in panel.summary.text()
    details = panel.details.toPlainText()
    assert "RateLimitError: 429 slow down" in details and "1.5 s" in details
    assert "temperature" in details and "seed" in details and "lookup" in details
    sent = panel.messages.toPlainText()
    assert "SYSTEM" in sent and "Be strict." in sent and "USER" in sent


def test_copy_as_json_holds_request_and_response(qtbot: QtBot, runs_dir: Path) -> None:
    run = recorded("tools", runs_dir)
    panel = CallInspectorPanel()
    qtbot.addWidget(panel)
    panel.set_projection(run.projection)
    llm = next(c for c in run.projection.calls.values() if c.kind == "llm")
    panel.show_call(llm.span_id)
    panel.copy_button.click()
    copied = json.loads(QGuiApplication.clipboard().text())
    assert copied["request"] == json.loads(json.dumps(llm.request))
    assert copied["response"]["tool_calls"] == llm.response["tool_calls"]
    assert "api_key" not in QGuiApplication.clipboard().text()
    panel.tabs.setCurrentWidget(panel.json_view)
    assert panel.json_model.rowCount() == len(copied)  # the JSON tree is built when its tab opens


def test_huge_message_is_capped_in_view_but_whole_in_json(qtbot: QtBot) -> None:
    from widgets.call_inspector.call_text import MAX_SHOWN_CHARS

    big = "x" * (MAX_SHOWN_CHARS + 5_000)
    projection = RunProjection()
    projection.apply(ev.LLMCallStarted(run_id="r", seq=1, ts=0.0, span_id="c", node_id="n", model="m",
                                       request={"messages": [{"role": "user", "content": big}]}))
    panel = CallInspectorPanel()
    qtbot.addWidget(panel)
    panel.set_projection(projection)
    panel.show_call("c")
    assert "5,000 more characters" in panel.messages.toPlainText()
    panel.copy_button.click()
    assert json.loads(QGuiApplication.clipboard().text())["request"]["messages"][0]["content"] == big
