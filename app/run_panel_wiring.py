"""Connects the run docks' own intents to the window, beyond the `RunPanel` contract the controller feeds.

- Human gate: `decision_requested` answers the run that asked (`RunController.submit_human_decision`);
  `attention_requested` is said in the status bar and raises the dock.
- Runs: `open_requested` opens that stored run read-only; `rerun_requested` re-runs it from its
  recording (a workflow or sub-graph file changed since asks first, naming the nodes); the list is told which runs are live (they
  cannot be deleted) and refreshed when a run finishes; a run deleted there leaves the run picker.
- Contracts: a broken contract's `event_requested(seq)` selects that event in the Events dock and its
  span in the Trace (`RunViews.show_event`).
- Memory: given the trace store once it is open, to compare a run's workflow / global memory with
  what the store holds now.
- Export: Settings ▸ Export… and the live OpenTelemetry export of finished runs (`app.otel_live`).
- Keys: Settings ▸ Models & Keys opens the keys dialog; a run whose models lack a key opens the
  missing-keys dialog (store them, then Start run starts the same run again).

Invariant: one function, no state; every dialog is opened with `open()` (the engine shares the loop).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QDialog, QMessageBox

from app.compare_actions import wire_compare
from app.dialogs import ask_to_go_on
from app.fork_actions import wire_fork
from app.keys_dialog_actions import open_keys_dialog
from app.otel_live import wire_live_export
from widgets.contracts import ContractsPanel
from widgets.human_gate import HumanGatePanel
from widgets.memory_view import MemoryPanel
from widgets.runs import RunsPanel

if TYPE_CHECKING:
    from app.main_window import MainWindow
    from engine.replay import RunChanges
    from widgets.keys import MissingKeysDialog


def wire_run_panels(window: MainWindow) -> None:
    runs = window.runs
    window.actions_by_name["keys"].triggered.connect(lambda _=False: open_keys_dialog(window))
    wire_live_export(window)
    runs.missing_keys_handler = lambda lines, recheck, again: ask_for_keys(window, lines, recheck, again)
    runs.replay_changes_handler = lambda run_id, changes, start: confirm_replay_changes(window, run_id, changes, start)
    human = _panel(window, "human", HumanGatePanel)
    if human is not None:
        human.decision_requested.connect(
            lambda node_id, decision, edited, reason: runs.submit_human_decision(node_id, decision, edited, reason))
        human.attention_requested.connect(lambda message: _attention(window, message))
    listing = _panel(window, "runs", RunsPanel)
    if listing is not None:
        listing.open_requested.connect(runs.open_stored_run)
        listing.rerun_requested.connect(runs.rerun_stored)
        wire_compare(window, listing)
        listing.run_deleted.connect(lambda run_id: runs.close_run(run_id) if run_id in runs.runs else None)
        runs.runs_changed.connect(lambda: listing.set_live_runs({r.run_id for r in runs.live_runs()}))
        runs.run_finished.connect(lambda _run_id, _status: listing.refresh())
        runs.run_started.connect(lambda _run_id: listing.refresh())
    contracts = _panel(window, "contracts", ContractsPanel)
    if contracts is not None:
        contracts.event_requested.connect(runs.views.show_event)
    wire_fork(window)
    memory = _panel(window, "memory", MemoryPanel)
    if memory is not None:
        runs.store_opened.connect(memory.set_store)


def _panel(window: MainWindow, name: str, kind: type) -> object | None:
    dock = window.docks.get(name)
    widget = dock.widget() if dock is not None else None
    return widget if isinstance(widget, kind) else None


def _attention(window: MainWindow, message: str) -> None:
    window.statusBar().showMessage(message, 10000)
    dock = window.docks.get("human")
    if dock is not None:
        dock.show()
        dock.raise_()


def ask_for_keys(window: MainWindow, lines: list[str], recheck: Callable[[], list[str]],
                 start_again: Callable[[], object]) -> MissingKeysDialog:
    """The missing-keys dialog, non-modal: Start run (enabled once every key is there) starts the run again."""
    from widgets.keys import MissingKeysDialog  # the keys modules: not at start-up

    dialog = MissingKeysDialog(lines, recheck, window)

    def done(result: int) -> None:
        if result == QDialog.DialogCode.Accepted and dialog.ready:
            start_again()
        dialog.deleteLater()

    dialog.finished.connect(done)
    dialog.open()
    return dialog



def confirm_replay_changes(window: MainWindow, run_id: str, changes: RunChanges,
                           start: Callable[[], object]) -> QMessageBox:
    """The workflow or its sub-graph files changed since the run, or its sub-graph files cannot be checked: say
    which nodes differ (by their path inside the sub-graph) or why (non-modal); Re-run runs the recorded versions."""
    text = (f"The canvas's workflow or its sub-graph files differ from the versions run {run_id[:8]} ran with:"
            f"\n\n{changes.bullets()}\n\n") if changes.lines else ""
    if changes.unchecked:
        text += changes.unchecked_note() + "\n\n"
    title = "The workflow changed since this run" if changes.lines else "Sub-graph files cannot be checked"
    how = ("The re-run uses the recorded workflow with today's sub-graph files; its model and tool calls are "
           "served from the recording." if changes.unchecked else
           "The re-run uses the recorded versions, served from the recording.")
    return ask_to_go_on(window, QMessageBox.Icon.Information, title, text + how,
                        "Re-run Recorded Version", "confirm_replay_changes", start)
