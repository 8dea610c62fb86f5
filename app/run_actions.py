"""Wiring of the run actions (Run F5, Stop, Pause, Step, breakpoints F9, past runs) to the `RunController`,
and of the controller's news to the window: toolbar, status bar, dialogs, read-only canvas.

The Run action hovered, the Run menu opened and the inputs dialog start loading what a run needs
(`RunWarmup`, app.preload), so a run pressed a moment later does not wait for it.

Invariants: every dialog here is opened with `open()` (never `exec()`: the engine runs on the same
loop); the actions' enabled state follows the selected run after every controller change
(`refresh_run_actions`); while a stored run is shown read-only, the edit actions are disabled and the
canvas's edit intents are not delivered (the view's signals are blocked) until "Back to editing".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QInputDialog, QMessageBox, QWidget

from app.dialogs import ask_to_go_on
from app.inputs_dialog import InputsDialog, needs_asking

if TYPE_CHECKING:
    from app.main_window import MainWindow

EDIT_ACTIONS = ("cut", "paste", "duplicate", "delete", "group", "ungroup", "auto_layout", "add_comment",
                "align_left", "align_right", "align_top", "align_bottom", "align_hcenter", "align_vcenter",
                "align_hdistribute", "align_vdistribute", "new", "open")


def wire_run_actions(window: MainWindow) -> None:
    a, runs = window.actions_by_name, window.runs
    a["run"].triggered.connect(lambda _=False: request_run(window))
    # a person reaching for Run: what a run needs starts loading off the GUI loop (app.preload)
    def warm_up() -> None:
        runs.warmup.start(window.document.workflow)

    a["run"].hovered.connect(warm_up)
    window.menus["run"].aboutToShow.connect(warm_up)
    a["stop"].triggered.connect(lambda _=False: runs.stop())
    a["pause"].triggered.connect(lambda _=False: runs.toggle_pause())
    a["step"].triggered.connect(lambda _=False: runs.step())
    a["breakpoint"].triggered.connect(lambda _=False: runs.toggle_breakpoints(window.view.selected_node_ids()))
    a["open_run"].triggered.connect(lambda _=False: ask_run_id(window))
    a["rerun"].triggered.connect(lambda _=False: runs.rerun_stored(runs.selected.run_id) if runs.selected else None)
    a["back_to_editing"].triggered.connect(lambda _=False: runs.back_to_editing())
    a["close_run"].triggered.connect(lambda _=False: runs.close_run(runs.selected.run_id if runs.selected else ""))
    window.view.breakpoint_toggle_requested.connect(runs.toggle_breakpoints)
    window.run_toolbar.run_pick_requested.connect(runs.select_run)
    runs.runs_changed.connect(lambda: refresh_run_actions(window))
    runs.summary_changed.connect(lambda: refresh_run_actions(window))
    runs.run_selected.connect(lambda _id: refresh_run_actions(window))
    runs.status_message.connect(window.show_status)
    runs.error_reported.connect(lambda title, text: show_message(window, title, text))
    runs.human_requested.connect(lambda run_id, node_id, prompt: ask_person(window, run_id, node_id, prompt))
    runs.views.canvas_mode_changed.connect(lambda read_only, text: set_read_only(window, read_only, text))
    window.document.undo_stack.indexChanged.connect(lambda _i: refresh_run_actions(window))
    window.document.workflow_replaced.connect(lambda _wf: _on_document_replaced(window))
    refresh_run_actions(window)


def request_run(window: MainWindow) -> None:
    """F5: ask for inputs and models (non-modal), then start; start at once when there is nothing to ask."""
    runs = window.runs
    if runs.views.read_only:
        runs.back_to_editing()
    workflow = window.document.workflow
    if not workflow.nodes:
        window.show_status("Nothing to run: the workflow is empty")
        return
    if not needs_asking(workflow):
        runs.start({}, {})
        return
    runs.warmup.start(workflow)  # loads while the person answers
    key = window.document.path or workflow.name or ""
    dialog = InputsDialog(workflow, window.remembered_inputs.get(key), window)
    dialog.run_requested.connect(lambda inputs, overrides: runs.start(inputs, overrides))
    dialog.accepted.connect(lambda: window.remembered_inputs.__setitem__(key, dialog.remember()))
    dialog.finished.connect(dialog.deleteLater)
    window.inputs_dialog = dialog
    dialog.open()


def ask_run_id(window: MainWindow) -> None:
    dialog = QInputDialog(window)
    dialog.setWindowTitle("Open past run")
    dialog.setLabelText("Run id (a unique prefix is enough; `triadic runs` lists them):")
    dialog.textValueSelected.connect(lambda text: window.runs.open_stored_run(text.strip()) if text.strip() else None)
    dialog.finished.connect(dialog.deleteLater)
    dialog.open()


def show_message(parent: QWidget, title: str, text: str) -> None:
    """A non-modal warning (the loop keeps running the engine meanwhile)."""
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, parent)
    box.setObjectName("run_message")
    box.finished.connect(box.deleteLater)
    box.open()
    window = parent
    if hasattr(window, "show_status"):
        window.show_status(f"{title}: {text.splitlines()[0] if text else ''}")


def confirm_stop_runs(window: MainWindow, count: int, on_yes: Callable[[], object]) -> None:
    """Closing with live runs: ask (non-modal); on Stop, `on_yes` (the runs end recorded as cancelled)."""
    ask_to_go_on(window, QMessageBox.Icon.Question, "Runs are still going",
                 f"{count} run{'s are' if count != 1 else ' is'} still going. Stop {'them' if count != 1 else 'it'} "
                 "and close? A stopped run is kept in the store as cancelled.",
                 "Stop and Close", "confirm_stop_runs", on_yes)


def refresh_run_actions(window: MainWindow) -> None:
    try:
        _refresh(window)
    except RuntimeError:  # the window's widgets are being deleted (its undo stack says so as it goes)
        return


def _refresh(window: MainWindow) -> None:
    runs, a = window.runs, window.actions_by_name
    live = runs.selected if runs.selected is not None and runs.selected.live else None
    a["stop"].setEnabled(live is not None)
    a["pause"].setEnabled(live is not None)
    a["step"].setEnabled(live is not None)
    a["pause"].setText("&Resume" if live is not None and live.held else "&Pause")
    a["close_run"].setEnabled(runs.selected is not None and not runs.selected.live)
    a["rerun"].setEnabled(runs.selected is not None and not runs.selected.live)
    window.run_toolbar.refresh(runs)
    window.run_status.setText(runs.selected.summary() if runs.selected else "")


def set_read_only(window: MainWindow, read_only: bool, text: str) -> None:
    window.run_toolbar.show_read_only(read_only, text)
    for name in EDIT_ACTIONS:
        action = window.actions_by_name.get(name)
        if action is not None:
            action.setEnabled(not read_only)
    window.view.blockSignals(read_only)
    _follow_scrolling(window, read_only)
    if not read_only:
        window.scene.marks.show(window.problems.model.problems)
    else:
        window.scene.marks.show([])
    if read_only:
        window.show_status(text)


def ask_person(window: MainWindow, run_id: str, node_id: str, prompt: str) -> None:
    """A human gate waits: the Human gate panel answers it when one is mounted (its dock comes to the
    front); without one, a non-modal question with Approve / Reject answers that run."""
    if "human" in window.runs.views.panels:
        _raise_dock(window, "human")
        return
    live = window.runs.runs.get(run_id)
    title = live.projection.nodes[node_id].title if live and node_id in live.projection.nodes else node_id
    box = QMessageBox(QMessageBox.Icon.Question, f"{title} asks", prompt, QMessageBox.StandardButton.NoButton, window)
    box.setObjectName("human_gate_question")
    approve = box.addButton("Approve", QMessageBox.ButtonRole.AcceptRole)
    reject = box.addButton("Reject", QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(approve)

    def answer(button: object) -> None:
        decision = "approve" if button is approve else "reject" if button is reject else None
        if decision is not None:
            window.runs.submit_human_decision(node_id, decision, None, "answered in the window", run_id=run_id)

    def answered_elsewhere() -> None:  # a panel, a script or the run's end answered it: the question goes
        if live is None or live.ended_at is not None or not any(
                q.open and q.node_id == node_id for q in live.projection.questions):
            box.done(0)

    def gone(_result: int) -> None:
        window.runs.summary_changed.disconnect(answered_elsewhere)
        if box in window.human_questions:
            window.human_questions.remove(box)
        box.deleteLater()

    box.buttonClicked.connect(answer)
    box.finished.connect(gone)
    window.runs.summary_changed.connect(answered_elsewhere)
    window.human_questions.append(box)
    box.open()


def _follow_scrolling(window: MainWindow, read_only: bool) -> None:
    """While the view's signals are blocked (read-only), the minimap follows its scroll bars instead."""
    view, minimap = window.view, window.minimap
    bars = (view.horizontalScrollBar(), view.verticalScrollBar())
    following = window.minimap_follows_scroll
    if read_only and not following:
        for bar in bars:
            bar.valueChanged.connect(minimap.update)
    elif not read_only and following:
        for bar in bars:
            bar.valueChanged.disconnect(minimap.update)
    window.minimap_follows_scroll = read_only


def _on_document_replaced(window: MainWindow) -> None:
    """Another file was opened (Recent, an example) while a past run was shown: the canvas is the
    document's again, so the window leaves the read-only view."""
    if window.runs.views.read_only:
        window.runs.back_to_editing()
    refresh_run_actions(window)


def _raise_dock(window: MainWindow, name: str) -> None:
    dock = window.docks.get(name)
    if dock is not None:
        dock.show()
        dock.raise_()
