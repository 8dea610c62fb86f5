"""A document replaced by File ▸ Open or New is freed at once: nothing the window keeps (panels, bridges,
the validation thread's follower, the canvas, a run left in the picker) still holds the old `Workflow`
once the loop has run — although the window sets what it built aside from the cycle collector
(`gc.freeze`), so a garbage cycle reaching the old workflow would keep a whole 5,000-node document
alive until the next idle sweep. A past run's workflow version lives as long as its run is listed."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
import qasync
from doc_fixtures import make_triad, open_in
from pytestqt.qtbot import QtBot
from run_fixtures import drive, run_to_end, run_window, until

from app.document import Document
from app.main_window import MainWindow
from app.resource_paths import bundled_examples
from engine.graph.model import Workflow

EXAMPLE = bundled_examples()[0]


@pytest.fixture(autouse=True)
def nothing_left_aside() -> Iterator[None]:
    yield
    gc.unfreeze()  # the session goes on with nothing set aside, as it started


@pytest.fixture
def window(qtbot: QtBot) -> MainWindow:
    shown = MainWindow(Document(make_triad()))
    shown.problems.background_above = 0  # validated on its thread, as a large file is
    qtbot.addWidget(shown)
    return shown


def _freed_after(qtbot: QtBot, old: weakref.ref[Workflow]) -> bool:
    qtbot.wait(50)  # the loop runs: queued results, deferred deletes
    gc.collect()
    return old() is None


def _open_and_validate(qtbot: QtBot, window: MainWindow) -> None:
    open_in(qtbot, window, EXAMPLE)
    qtbot.waitUntil(lambda: not window.problems.background.pending, timeout=5000)


def test_opening_a_file_over_an_open_document_frees_the_old_one(qtbot: QtBot, window: MainWindow) -> None:
    _open_and_validate(qtbot, window)
    old = weakref.ref(window.document.workflow)
    _open_and_validate(qtbot, window)
    assert old() is not window.document.workflow
    assert _freed_after(qtbot, old)


def test_new_frees_the_document_it_replaces(qtbot: QtBot, window: MainWindow) -> None:
    _open_and_validate(qtbot, window)
    old = weakref.ref(window.document.workflow)
    assert window.files.new()
    assert _freed_after(qtbot, old)


def test_a_run_left_in_the_picker_does_not_keep_the_document_it_ran_on(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    old = weakref.ref(window.document.workflow)

    async def run_then_open_a_file() -> str:
        run_id = await run_to_end(window)
        assert not window.runs.canvas_edited()
        await _open_on_the_loop(window)
        return run_id

    run_id = drive(gui_loop, run_then_open_a_file())
    assert window.runs.selected is window.runs.runs[run_id]
    assert window.runs.canvas_edited()  # the run still says the canvas is not what it ran
    assert _freed_after(qtbot, old)


def test_a_past_runs_workflow_is_kept_while_its_run_is_listed_and_freed_once_closed(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    versions: list[weakref.ref[Workflow]] = []

    async def open_a_past_run_then_a_file() -> str:
        run_id = await run_to_end(window)
        window.runs.close_run(run_id)
        assert await window.runs.open_stored_run(run_id) == run_id
        versions.append(weakref.ref(window.scene.workflow))
        assert versions[0]() is not window.document.workflow  # the canvas shows the version it ran with
        await _open_on_the_loop(window)
        return run_id

    run_id = drive(gui_loop, open_a_past_run_then_a_file())
    assert window.scene.workflow is window.document.workflow
    assert not _freed_after(qtbot, versions[0])  # its run is still listed: shown again when picked
    assert window.runs.close_run(run_id)
    assert _freed_after(qtbot, versions[0])


async def _open_on_the_loop(window: MainWindow) -> None:
    window.files.open_path(str(EXAMPLE))
    await until(lambda: window.document.path == str(EXAMPLE))
