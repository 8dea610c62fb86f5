"""Live OpenTelemetry export of GUI runs (Settings ▸ Export): each run, when it ends, is sent to the
receiver the settings name, from the run's own projection of its event stream.

- `wire_live_export(window)`: Settings ▸ Export… opens `ExportSettingsDialog` (non-modal, `open()`);
  every `RunController.run_finished` submits the run to one background worker thread;
- the worker imports the OpenTelemetry SDK (only then: never on the window's start-up path), maps
  the projection to spans and sends them; the outcome comes back to the GUI thread through a queued
  signal and is shown in the status bar and in a permanent status-bar line ("Export: …"), which keeps
  a failure visible until the next export.

Invariants: an export never blocks the GUI thread and never changes or fails a run; keys never leave
(the exporter's `Scrubber` knows this machine's keys); with no endpoint set, nothing is imported or sent.
"""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDialog, QLabel

from app.settings_store import otel_export, set_otel_export
from widgets.export_settings import ExportSettingsDialog

if TYPE_CHECKING:
    from app.main_window import MainWindow
    from engine.projection import RunProjection


def _export(projection: RunProjection, started_at: float, endpoint: str, include_content: bool) -> int:
    from engine.export.otel import Scrubber, known_secrets, run_spans, send_spans

    spans = run_spans(projection, started_at=started_at, include_content=include_content,
                      scrubber=Scrubber(known_secrets()))
    send_spans(spans, endpoint)
    return len(spans)


class LiveOtelExport(QObject):
    """Sends each finished run of a window's `RunController` to the configured receiver."""

    done = Signal(str, bool)  # message, ok — emitted by the worker, delivered on the GUI thread

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="otel-export")
        self.line = QLabel(window)
        self.line.setObjectName("otel_export_status")
        window.statusBar().addPermanentWidget(self.line)
        self._window = window
        self.pending: list[Future[int]] = []
        window.runs.run_finished.connect(self._on_run_finished)
        self.done.connect(self._on_done)
        window.destroyed.connect(lambda *_: self._pool.shutdown(wait=False, cancel_futures=True))

    def _on_run_finished(self, run_id: str, _status: str) -> None:
        endpoint, include_content = otel_export()
        live = self._window.runs.runs.get(run_id)
        if not endpoint or live is None:
            return
        projection = live.projection
        ended_ago = time.monotonic() - (live.ended_at or time.monotonic())
        started_at = time.time() - ended_ago - projection.elapsed_s
        future = self._pool.submit(_export, projection, started_at, endpoint, include_content)
        future.add_done_callback(lambda f: self._report(run_id, endpoint, f))
        self.pending.append(future)

    def _report(self, run_id: str, endpoint: str, future: Future[int]) -> None:  # on the worker thread
        error = future.exception() if not future.cancelled() else None
        if future.cancelled():
            return
        if error is not None:
            self.done.emit(f"Export of run {run_id[:8]} failed: {error}", False)
        else:
            self.done.emit(f"Exported run {run_id[:8]} ({future.result()} spans) to {endpoint}", True)

    def _on_done(self, message: str, ok: bool) -> None:
        self.pending = [f for f in self.pending if not f.done()]
        self.line.setText("Export: sent" if ok else "Export failed")
        self.line.setToolTip(message)
        self.line.setStyleSheet("" if ok else "color: #c0392b;")
        self._window.statusBar().showMessage(message, 8000 if ok else 20000)


def open_export_settings(window: MainWindow) -> ExportSettingsDialog:
    endpoint, include_content = otel_export()
    dialog = ExportSettingsDialog(endpoint, include_content, window)

    def finished(result: int) -> None:
        if result == QDialog.DialogCode.Accepted:
            set_otel_export(dialog.endpoint, dialog.include_content)
            window.show_status(f"Runs are exported to {dialog.endpoint}" if dialog.endpoint
                               else "OpenTelemetry export is off")
        dialog.deleteLater()

    dialog.finished.connect(finished)
    dialog.open()
    return dialog


def wire_live_export(window: MainWindow) -> LiveOtelExport:
    window.actions_by_name["export_settings"].triggered.connect(lambda _=False: open_export_settings(window))
    return LiveOtelExport(window)
