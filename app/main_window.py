"""The main window: canvas in the centre, palette / inspector / problems / minimap docks, menus.

Composition only: the Document owns the workflow and undo stack, `EditorController` turns intents
into commands, `FileController` does file commands, `app.window_wiring` connects the actions.
Runs: `RunController` (`self.runs`) starts and follows runs, the run toolbar and `app.run_actions`
drive it, the run docks (`app.run_docks` registry) follow the selected run, the playback bar under the
canvas (`app.playback_wiring`) moves them through it.
Invariants: the title shows the document name with a modified mark; closing asks about unsaved
changes (Cancel keeps the window open) and, first, about live runs (stopping them records them
cancelled before the window closes); geometry, dock layout and theme are remembered; the objects
of an opened document (model, canvas items) are set aside from the cycle collector (`gc.freeze`,
O(1)), as a loaded run's are: a full collection over a 5,000-node document's objects stalled edits
80–320 ms at random (measured by tests/perf/bench_open_file.py); replacing a document asks for one
sweep of what was set aside once the window is idle (`app.gui_collector`), so the replaced
document's cycles are collected.
"""

from __future__ import annotations

import asyncio
import gc

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QDialog, QMainWindow, QWidget

from app.about import install_help_menu
from app.actions import build_actions, configure
from app.bundle_actions import wire_bundle_actions
from app.controllers.editor_controller import EditorController
from app.controllers.file_controller import FileController
from app.controllers.run_controller import RunController
from app.docks import build_docks, toggle_actions
from app.document import Document
from app.gui_collector import request_sweep
from app.menus import build_menus
from app.playback_wiring import install_playback
from app.run_actions import confirm_stop_runs, wire_run_actions
from app.run_docks import mount_run_docks
from app.run_panel_wiring import wire_run_panels
from app.run_toolbar import RunToolbar
from app.settings_store import save_window_state, window_state
from app.window_wiring import wire_window
from engine.graph.model import Workflow
from widgets.canvas import CanvasScene, CanvasView, Minimap
from widgets.canvas.build_cover import BuildCover
from widgets.elided_label import ElidedLabel
from widgets.inspector import InspectorWidget
from widgets.palette import PaletteWidget
from widgets.problems import ProblemsPanel
from widgets.workflow_signals import WorkflowSignals

APP_NAME = "Triadic"


class MainWindow(QMainWindow):
    document_shown = Signal(object)  # Workflow: the canvas shows this document whole (after new / open)

    def __init__(self, document: Document | None = None, *, db: str | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("main_window")
        self.db_path = db
        self.document = document if document is not None else Document(Workflow())
        self.document.setParent(self)
        workflow = self.document.workflow
        self.scene = CanvasScene(workflow)
        self.view = CanvasView(self.scene)
        self.scene.setParent(self.view)  # deleted with the view, after the view's connections are cut
        self.setCentralWidget(self.view)
        self.canvas_cover = BuildCover(self.view)  # while a large workflow's items are built
        self.palette_panel = PaletteWidget()
        self.inspector = InspectorWidget(workflow)
        self.problems = ProblemsPanel(workflow)
        self.minimap = Minimap(self.view)
        self.docks = build_docks(self, {"palette": self.palette_panel, "inspector": self.inspector,
                                        "problems": self.problems, "minimap": self.minimap})
        self.runs = RunController(self.document, self.scene, self.view, db, self)
        self.remembered_inputs: dict[str, dict[str, str]] = {}  # the inputs last run, per workflow
        self.inputs_dialog: QDialog | None = None
        self.fork_dialog: QDialog | None = None  # the open "Fork from here…" dialog (non-modal)
        self.minimap_follows_scroll = False  # a past run is shown read-only (app.run_actions)
        self.human_questions: list[QDialog] = []  # open gate questions (when no Human gate panel is mounted)
        run_docks, run_toggles = mount_run_docks(self, self.runs)
        self.docks.update(run_docks)
        self.actions_by_name = build_actions(self)
        self.actions_by_name.update(toggle_actions(self.docks))
        self.actions_by_name.update(run_toggles)
        stack = self.document.undo_stack
        self.actions_by_name["undo"] = stack.createUndoAction(self, "&Undo")
        self.actions_by_name["redo"] = stack.createRedoAction(self, "&Redo")
        for action in self.actions_by_name.values():
            self.addAction(action)
        self.menus = build_menus(self, self.actions_by_name)
        install_help_menu(self)
        self.editor = EditorController(self.document, self.view, self)
        self.files = FileController(self.document, self, self)
        self.run_toolbar = RunToolbar(self, self.actions_by_name)
        self.addToolBar(self.run_toolbar)
        self.counts_label = ElidedLabel(parent=self)  # the status bar's labels elide: they never widen the window
        self.run_status = ElidedLabel(parent=self)
        self.run_status.setObjectName("run_status")
        self.statusBar().addPermanentWidget(self.run_status)
        self.statusBar().addPermanentWidget(self.counts_label)
        self._runs_stopped = False
        self._signals = WorkflowSignals(workflow, self)
        wire_window(self)
        wire_run_actions(self)
        wire_run_panels(self)
        wire_bundle_actions(self)
        self.playback_bar = install_playback(self)  # under the canvas: a run shown as it was at one event
        self.document.modified_changed.connect(self.update_title)
        self.document.path_changed.connect(self.update_title)
        self.document.workflow_replaced.connect(self._on_workflow_replaced)
        self._unshown: tuple[Workflow, bool] | None = None  # the document's workflow until the canvas shows it
        self.scene.workflow_replaced.connect(self._on_canvas_built)
        self.update_title()
        self.update_counts()
        self.resize(1400, 880)
        geometry, state = window_state()
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self.restoreState(state)

    # -- title and status ------------------------------------------------------------------------
    def update_title(self, *_args: object) -> None:
        self.setWindowTitle(f"{self.document.display_name()}[*] — {APP_NAME}")
        self.setWindowModified(self.document.is_modified())

    def update_counts(self, *_args: object) -> None:
        workflow = self.document.workflow
        errors, warnings = self.problems.counts()
        self.counts_label.setText(f"{len(workflow.nodes)} nodes · {len(workflow.edges)} edges · "
                                  f"{errors} errors · {warnings} warnings")

    def show_status(self, message: str) -> None:
        self.statusBar().showMessage(message, 6000)

    # -- documents ---------------------------------------------------------------------------------
    def _on_workflow_replaced(self, workflow: Workflow) -> None:
        self._signals.detach()
        self._signals.deleteLater()
        self._signals = WorkflowSignals(workflow, self)
        self._signals.changed.connect(self.update_counts)
        replaced_content = bool(self.scene.workflow.nodes)
        self.problems.set_workflow(workflow)  # first: a large one validates on its thread meanwhile
        self.update_title()
        self.update_counts()
        self._unshown = (workflow, replaced_content)
        # a large workflow's items are built in slices (the window paints and answers meanwhile); each
        # item takes the marks of the problems found so far, and later results mark the items built
        self.scene.set_workflow(workflow)
        if self.scene.building:  # the inspector's page (~10-30 ms) in a turn of its own, disabled till then
            self.inspector.setEnabled(False)
            QTimer.singleShot(1, lambda: self._inspect_workflow(workflow))  # a timer: input and paints go first
        else:
            self.inspector.set_workflow(workflow)

    def _inspect_workflow(self, workflow: Workflow) -> None:
        if workflow is self.document.workflow:  # else a newer document took over, and the inspector with it
            self.inspector.set_workflow(workflow)
            self.inspector.setEnabled(True)

    def _on_canvas_built(self) -> None:
        """The scene built a workflow whole: when it is the document's new one, fit it and say so."""
        workflow, replaced_content = self._unshown or (None, False)
        if workflow is None or self.scene.workflow is not workflow or workflow is not self.document.workflow:
            return  # a past run's workflow (the run views fit it), or a document already shown
        self._unshown = None
        self.view.fit_to_view()
        gc.freeze()  # set aside what was built (see the invariants)
        if replaced_content:
            request_sweep()  # the replaced document's cycles were set aside too: collect them once idle
        self.document_shown.emit(workflow)

    def closeEvent(self, event: QCloseEvent) -> None:
        live = self.runs.live_runs()
        if live and not self._runs_stopped:
            event.ignore()
            confirm_stop_runs(self, len(live), lambda: asyncio.ensure_future(self._stop_runs_and_close()))
            return
        if not self.files.confirm_discard():
            event.ignore()
            return
        save_window_state(self.saveGeometry(), self.saveState())
        event.accept()

    async def _stop_runs_and_close(self) -> None:
        """Cancel every live run, wait until each is recorded cancelled, then close for real."""
        await self.runs.shutdown()
        self._runs_stopped = True
        self.close()


__all__ = ["APP_NAME", "MainWindow", "configure"]
