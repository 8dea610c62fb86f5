"""File ▸ Import run… and the Runs dock's "Export run…" in the window: a run exported from one window's
store, imported into another's, listed and opened read-only; a run the store has offered as a copy; a
damaged bundle refused in a message, the store unchanged."""

from __future__ import annotations

from pathlib import Path

import qasync
from PySide6.QtWidgets import QFileDialog, QMessageBox
from pytestqt.qtbot import QtBot
from run_fixtures import drive, run_window, until

from app import bundle_actions
from widgets.runs import RunsPanel


def _listing(window: object) -> RunsPanel:
    panel = window.docks["runs"].widget()  # type: ignore[attr-defined]
    assert isinstance(panel, RunsPanel)
    return panel


def test_export_from_the_runs_dock_and_import_from_the_file_menu(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    source = run_window(qtbot, tmp_path / "a", "triad")
    target = run_window(qtbot, tmp_path / "b", "triad")
    bundle = tmp_path / "run.triadic-run"
    file_menu = source.menuBar().actions()[0].menu()
    assert "action_import_run" in [a.objectName() for a in file_menu.actions()]  # type: ignore[union-attr]

    async def scenario() -> str:
        run_id = await source.runs.start_run({}, {})
        assert run_id is not None
        await source.runs.runs[run_id].task
        listing = _listing(source)
        listing.refresh()
        await until(lambda: listing.model.rowCount() == 1)
        listing.view.selectRow(0)
        assert listing.export_action.isEnabled()
        asked: list[str] = []
        listing.export_requested.connect(asked.append)
        listing.export_action.trigger()
        assert asked == [run_id]
        dialog = bundle_actions.ask_export(source, run_id)
        assert isinstance(dialog, QFileDialog) and dialog.isVisible()
        dialog.reject()
        assert await bundle_actions.export_run(source, run_id, bundle)
        imported = await bundle_actions.import_run(target, bundle)
        assert imported == run_id
        await until(lambda: _listing(target).model.rowCount() == 1)
        await until(lambda: target.runs.views.read_only)
        return run_id

    run_id = drive(gui_loop, scenario())
    assert run_id in target.runs.runs and target.runs.runs[run_id].projection.status == "succeeded"
    assert "Imported run" in target.statusBar().currentMessage() or target.runs.views.read_only


def test_a_second_import_offers_a_copy_and_a_damaged_one_is_refused(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    bundle = tmp_path / "run.triadic-run"
    damaged = tmp_path / "damaged.triadic-run"
    damaged.write_bytes(b"not a bundle")

    async def scenario() -> None:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await window.runs.runs[run_id].task
        assert await bundle_actions.export_run(window, run_id, bundle)
        assert await bundle_actions.import_run(window, bundle) is None  # the store has it
        offer = window.findChild(QMessageBox, "import_as_copy")
        assert offer is not None and "already has run" in offer.text()
        offer.reject()
        copy = await bundle_actions.import_run(window, bundle, as_new=True)
        assert copy is not None and copy != run_id
        assert await bundle_actions.import_run(window, damaged) is None
        refused = window.findChild(QMessageBox, "run_message")
        assert refused is not None and "not a run bundle" in refused.text()

    drive(gui_loop, scenario())
