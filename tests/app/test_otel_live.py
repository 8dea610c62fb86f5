"""Live OpenTelemetry export of GUI runs: Settings ▸ Export stores the receiver; a run that ends is sent
to it off the GUI thread (the status bar says so); a receiver that refuses leaves the run as it was and
shows the failure in the status-bar line; the dialog refuses an address that is not a URL."""

from __future__ import annotations

from pathlib import Path

import qasync
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot
from run_fixtures import drive, run_window, settle, until

from app.otel_live import LiveOtelExport, open_export_settings
from app.settings_store import otel_export, set_otel_export
from tests.app.otlp_receiver import attributes, otlp_receiver


def _export_of(window: object) -> LiveOtelExport:
    found = window.findChild(LiveOtelExport)  # type: ignore[attr-defined]
    assert isinstance(found, LiveOtelExport)
    return found


def test_a_finished_run_is_sent_to_the_receiver_in_the_background(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    export = _export_of(window)
    with otlp_receiver() as receiver:
        set_otel_export(receiver.url, True)

        async def scenario() -> str:
            run_id = await window.runs.start_run({}, {})
            assert run_id is not None
            await window.runs.runs[run_id].task
            await until(lambda: "Export: sent" in export.line.text(), timeout=60)
            return run_id

        run_id = drive(gui_loop, scenario())
    spans = receiver.spans()
    root = next(s for s in spans if not s.parent_span_id)
    assert attributes(root)["triadic.run.id"] == run_id and attributes(root)["gen_ai.operation.name"] == "invoke_workflow"
    assert any("gen_ai.input.messages" in attributes(s) for s in spans)  # content was asked for
    assert run_id[:8] in export.line.toolTip()


def test_a_refusing_receiver_shows_a_failure_and_keeps_the_run(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    export = _export_of(window)
    with otlp_receiver() as receiver:
        receiver.answer = 400
        set_otel_export(receiver.url, False)

        async def scenario() -> str:
            run_id = await window.runs.start_run({}, {})
            assert run_id is not None
            await window.runs.runs[run_id].task
            await until(lambda: "Export failed" in export.line.text(), timeout=60)
            await settle()
            return run_id

        run_id = drive(gui_loop, scenario())
    assert window.runs.runs[run_id].projection.status == "succeeded"
    assert "HTTP 400" in export.line.toolTip() and receiver.url in export.line.toolTip()


def test_export_settings_dialog_checks_the_address_and_stores_it(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, None)
    dialog = open_export_settings(window)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert dialog.endpoint == "" and "off" in dialog.problem.text() and ok.isEnabled()
    dialog.endpoint_edit.setText("localhost:4318")
    assert not ok.isEnabled() and "http://" in dialog.problem.text()
    dialog.endpoint_edit.setText("http://127.0.0.1:6006")
    assert ok.isEnabled() and "http://127.0.0.1:6006/v1/traces" in dialog.problem.text()
    dialog.content_box.setChecked(True)
    ok.click()
    assert otel_export() == ("http://127.0.0.1:6006", True)
