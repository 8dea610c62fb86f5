"""What `triadic gui` leaves until after the window shows arrives once the loop runs: the store opens, the
Runs list fills with the runs the CLI recorded, and the file given on the command line replaces the
blank workflow. (A verifier's sandbox line, whose checks package is imported when the form is built:
tests/widgets/test_inspector_form.py.)"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

import qasync
from cli_fixtures import EXAMPLE
from pytestqt.qtbot import QtBot
from run_fixtures import drive

from app.cli.main import main
from app.gui import open_window


async def _until(condition: Callable[[], object], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


def test_the_store_runs_list_and_file_arrive_after_the_window_shows(qtbot: QtBot, gui_loop: qasync.QEventLoop,
                                                                    tmp_path: Path) -> None:
    db = tmp_path / "trace.db"
    assert main(["run", str(EXAMPLE), "--db", str(db), "--quiet"]) == 0  # the CLI records a run
    asyncio.set_event_loop(gui_loop)  # the CLI's own loop (asyncio.run) left none set
    window = open_window(str(EXAMPLE), db=str(db))
    qtbot.addWidget(window)
    listing = window.docks["runs"].widget()
    loaded: list[int] = []
    listing.runs_loaded.connect(loaded.append)
    assert window.isVisible() and not window.document.workflow.nodes  # shown before its file is in

    async def scenario() -> None:
        store = await window.runs.warm_up()  # what `launch` starts once the window is painted
        assert store is not None
        await _until(lambda: loaded and window.document.path == str(EXAMPLE))

    drive(gui_loop, scenario())
    assert loaded[-1] == 1 and listing.model.rowCount() == 1
    assert len(window.scene.node_items) == len(window.document.workflow.nodes) > 0
    window.document.undo_stack.setClean()
