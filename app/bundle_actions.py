"""File ▸ Import run… and the Runs dock's "Export run…": run bundles (`engine.bundle`) from the window.

Invariants: file dialogs and questions are opened with `open()` (never `exec()`: the engine runs on
the same loop); the bundle is read, checked and written in the loop's executor, never on the GUI
thread; a refused bundle says why in a non-modal message and the store is unchanged; a run the store
already has is offered as a copy under a new id; an imported run is listed and opened read-only.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFileDialog, QMessageBox

from app.dialogs import ask_to_go_on
from app.run_actions import show_message

if TYPE_CHECKING:
    from app.main_window import MainWindow

FILTER = "Triadic run bundles (*.triadic-run);;All files (*)"


def wire_bundle_actions(window: MainWindow) -> None:
    window.actions_by_name["import_run"].triggered.connect(lambda _=False: ask_import(window))
    listing = _runs_panel(window)
    if listing is not None:
        listing.export_requested.connect(lambda run_id: ask_export(window, run_id))


def ask_import(window: MainWindow) -> QFileDialog:
    dialog = QFileDialog(window, "Import run", "", FILTER)
    dialog.setObjectName("import_run_dialog")
    dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    dialog.fileSelected.connect(lambda path: asyncio.ensure_future(import_run(window, Path(path))))
    dialog.finished.connect(dialog.deleteLater)
    dialog.open()
    return dialog


def ask_export(window: MainWindow, run_id: str) -> QFileDialog:
    dialog = QFileDialog(window, "Export run", f"run-{run_id[:8]}.triadic-run", FILTER)
    dialog.setObjectName("export_run_dialog")
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.setDefaultSuffix("triadic-run")
    dialog.fileSelected.connect(lambda path: asyncio.ensure_future(export_run(window, run_id, Path(path))))
    dialog.finished.connect(dialog.deleteLater)
    dialog.open()
    return dialog


async def import_run(window: MainWindow, path: Path, *, as_new: bool = False) -> str | None:
    """Import the bundle at `path` off the GUI thread; the imported run's id (None when refused)."""
    from engine.bundle import BundleError, import_bundle

    store = await window.runs.store()
    if store is None:
        return None
    try:
        bundle = await asyncio.get_running_loop().run_in_executor(
            None, lambda: import_bundle(store, path, as_new=as_new))
    except BundleError as exc:
        if "--as-new" in str(exc):
            _offer_copy(window, path, str(exc))
        else:
            show_message(window, "The run cannot be imported", f"{path.name}: {exc}")
        return None
    window.show_status(f"Imported run {bundle.run_id[:8]} ({len(bundle.events)} events) from {path.name}")
    listing = _runs_panel(window)
    if listing is not None:
        listing.refresh()
    window.runs.open_stored_run(bundle.run_id)
    return bundle.run_id


async def export_run(window: MainWindow, run_id: str, path: Path) -> bool:
    from engine.bundle import BundleError
    from engine.bundle import export_run as write_bundle

    store = await window.runs.store()
    if store is None:
        return False
    try:
        manifest = await asyncio.get_running_loop().run_in_executor(None, write_bundle, store, run_id, path)
    except BundleError as exc:
        show_message(window, "The run cannot be exported", str(exc))
        return False
    window.show_status(f"Exported run {run_id[:8]} ({manifest['events']} events) to {path}")
    return True


def _offer_copy(window: MainWindow, path: Path, text: str) -> QMessageBox:
    return ask_to_go_on(window, QMessageBox.Icon.Question, "Run already in the store",
                        text.replace("import it again with --as-new", "import it"), "Import as a Copy",
                        "import_as_copy", lambda: asyncio.ensure_future(import_run(window, path, as_new=True)))


def _runs_panel(window: MainWindow) -> object | None:
    from widgets.runs import RunsPanel

    dock = window.docks.get("runs")
    widget = dock.widget() if dock is not None else None
    return widget if isinstance(widget, RunsPanel) else None
