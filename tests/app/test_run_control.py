"""Run control from the window: breakpoints hold a run, step lets one node through, pause / resume, stop
records the run cancelled; an injected provider fault shows on its node; a store that cannot be opened
and missing API keys keep a run from starting."""

from __future__ import annotations

from pathlib import Path

import qasync
from pytestqt.qtbot import QtBot
from run_fixtures import drive, run_window, settle, until

from engine import events as ev
from engine.store.store import TraceStore


def _hold_node(window: object) -> str | None:
    live = window.runs.selected  # type: ignore[attr-defined]
    hold = live.projection.hold if live else None
    return hold.node_id if hold is not None else None


def test_breakpoint_holds_step_lets_one_node_through_and_resume_finishes(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    window.view.select_nodes(["critic"])
    window.actions_by_name["breakpoint"].trigger()  # F9
    assert window.runs.breakpoints == {"critic"}
    assert window.scene.run.breakpoints == {"critic"}

    async def scenario() -> None:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        live = window.runs.runs[run_id]
        await until(lambda: _hold_node(window) == "critic")
        await settle()
        assert live.held and live.status() == "paused"
        assert live.projection.nodes["critic"].state == "queued"
        assert window.scene.run.state_of("critic") == "queued"
        assert window.actions_by_name["pause"].text() == "&Resume"
        assert "paused" in window.run_toolbar.state.text()
        window.actions_by_name["step"].trigger()
        await until(lambda: live.projection.nodes["critic"].state != "queued")
        window.actions_by_name["pause"].trigger()  # resume
        await live.task
        await settle()
        assert live.projection.status == "succeeded"
        kinds = [type(e) for e in live.projection.events]
        assert ev.RunPaused in kinds and ev.RunResumed in kinds
        modes = [e.mode for e in live.projection.events if isinstance(e, ev.RunResumed)]
        assert "step" in modes and modes[-1] == "resume"

    drive(gui_loop, scenario())


def test_pause_holds_new_nodes_and_stop_records_the_run_cancelled(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "research")
    window.runs.toggle_breakpoints(["planner"])

    async def scenario() -> str:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        live = window.runs.runs[run_id]
        await until(lambda: _hold_node(window) == "planner")
        window.runs.toggle_breakpoints(["planner"])  # cleared on the live run too
        window.runs.toggle_pause()  # resume
        await until(lambda: live.projection.nodes["planner"].state in ("running", "done"))
        window.runs.toggle_pause()  # pause
        await until(lambda: live.held)
        assert window.actions_by_name["stop"].isEnabled()
        window.actions_by_name["stop"].trigger()
        await live.task
        await settle()
        return run_id

    run_id = drive(gui_loop, scenario())
    live = window.runs.runs[run_id]
    assert live.projection.status == "cancelled" and live.status() == "cancelled"
    assert any(window.scene.run.state_of(n) == "cancelled" for n in window.scene.node_items)
    with TraceStore(tmp_path / "trace.db") as store:
        stored = store.get_run(run_id)
        assert stored is not None and stored.status == "cancelled"
    assert not window.actions_by_name["stop"].isEnabled()


def test_an_injected_provider_fault_shows_on_its_node(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    window.editor.set_param("executor", "sim", {"fail_first": 1, "fail_kind": "rate_limit"})

    async def scenario() -> str:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await window.runs.runs[run_id].task
        await settle()
        return run_id

    run_id = drive(gui_loop, scenario())
    decor = window.scene.run.decor["executor"]
    assert "RateLimited" in decor.fault and "RateLimited" in decor.chip
    assert "Provider faults: RateLimited" in window.scene.node_items["executor"].toolTip()
    assert window.scene.run.decor["planner"].fault == ""
    assert window.runs.runs[run_id].projection.status == "succeeded"


def test_a_failed_node_shows_its_error_on_hover(qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    window.editor.set_param("planner", "sim", {"fail_first": 50, "fail_kind": "server_error"})
    window.editor.set_param("planner", "max_replans", 0)

    async def scenario() -> str:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        live = window.runs.runs[run_id]
        await until(lambda: live.projection.open_questions() or live.ended_at is not None, 60)
        if live.projection.open_questions():  # the recovery ladder asks a person last: give up
            window.runs.submit_human_decision("planner", "reject", None, "stop here")
        await live.task
        await settle()
        return run_id

    run_id = drive(gui_loop, scenario())
    p = window.runs.runs[run_id].projection
    assert p.nodes["planner"].state == "failed" and p.status == "failed"
    assert window.scene.run.state_of("planner") == "failed"
    tip = window.scene.node_items["planner"].toolTip()
    assert "Error: model call failed after retries" in tip and "server error" in tip


def test_a_store_that_cannot_be_opened_is_said_and_nothing_starts(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    window.runs.db_path = str(tmp_path)  # a directory
    reported: list[tuple[str, str]] = []
    window.runs.error_reported.connect(lambda title, text: reported.append((title, text)))
    assert drive(gui_loop, window.runs.start_run({}, {})) is None
    assert reported and "trace store" in reported[0][0] and str(tmp_path) in reported[0][1]
    assert window.runs.runs == {}


def test_missing_keys_stop_the_run_before_it_starts(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path, monkeypatch: object) -> None:
    import pytest

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    window = run_window(qtbot, tmp_path, "triad")
    from engine.llm.offline_first import OfflineFirstGateway

    window.runs.gateway_factory = OfflineFirstGateway
    asked: list[list[str]] = []
    window.runs.missing_keys_handler = lambda lines, _recheck, _again: asked.append(lines)
    assert drive(gui_loop, window.runs.start_run({}, {"executor": "openai/gpt-4o-mini"})) is None
    assert asked and "OPENAI_API_KEY" in asked[0][0] and "executor" in asked[0][0].lower()
    assert window.runs.runs == {}
    with TraceStore(tmp_path / "trace.db") as store:
        assert store.list_runs() == []
