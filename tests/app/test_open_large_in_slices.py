"""File ▸ Open of a large workflow: its canvas is built in slices while the window runs, and what a person
does meanwhile — select all and delete, undo, an edit from the palette, another open, closing the window —
gets the result it would get on the built canvas, and nothing is lost."""

from __future__ import annotations

from pathlib import Path

import pytest
from doc_fixtures import make_triad
from PySide6.QtCore import QTimer
from pytestqt.qtbot import QtBot

import widgets.canvas.scene_build as scene_build
from app.document import Document
from app.main_window import MainWindow
from engine.gc_pause import collection_paused
from engine.graph.format import dumps_workflow
from engine.graph.generate import generate_workflow


@pytest.fixture(autouse=True)
def thin_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scene_build, "SLICE_MS", 0.3)  # a few hundred nodes: dozens of turns of the loop


@pytest.fixture
def large_file(tmp_path: Path) -> Path:
    path = tmp_path / "large.triadic.json"
    path.write_text(dumps_workflow(generate_workflow(300, seed=21)), encoding="utf-8")
    return path


def _window(qtbot: QtBot) -> MainWindow:
    window = MainWindow(Document(make_triad()))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def _building(qtbot: QtBot, window: MainWindow, path: Path) -> None:
    """Open `path` and wait until its canvas is being built (some items there, not all)."""
    window.files.open_path(str(path))
    qtbot.waitUntil(lambda: window.scene.building and len(window.scene.node_items) > 10, timeout=10_000)


def test_the_window_runs_while_the_canvas_is_built_and_the_open_ends_with_the_picture(
        qtbot: QtBot, large_file: Path) -> None:
    window = _window(qtbot)
    opened: list[tuple[str, int, bool]] = []
    window.files.opened.connect(lambda path: opened.append((path, len(window.scene.node_items),
                                                            window.canvas_cover.covering)))
    sizes: list[int] = []
    timer = QTimer(window)
    timer.timeout.connect(lambda: sizes.append(len(window.scene.node_items)))
    timer.start(0)
    _building(qtbot, window, large_file)
    assert window.files.opening and window.canvas_cover.covering
    assert window.minimap.picture.image.isNull()  # the old workflow's minimap went
    qtbot.waitUntil(lambda: bool(opened), timeout=10_000)
    timer.stop()
    workflow = window.document.workflow
    assert opened == [(str(large_file), len(workflow.nodes), False)] and not window.files.opening
    assert set(window.scene.edge_items) == set(workflow.edges) and len(set(sizes)) > 5
    assert window.view.visible_scene_rect().contains(window.scene.content_rect().adjusted(1, 1, -1, -1))
    assert not collection_paused()
    qtbot.waitUntil(lambda: not window.minimap.picture.image.isNull(), timeout=5000)


def test_select_all_and_delete_during_the_build_wait_for_it_and_undo_brings_all_back(
        qtbot: QtBot, large_file: Path) -> None:
    window = _window(qtbot)
    _building(qtbot, window, large_file)
    workflow = window.document.workflow
    nodes, edges = set(workflow.nodes), set(workflow.edges)
    window.actions_by_name["select_all"].trigger()
    window.actions_by_name["delete"].trigger()
    assert window.scene.building and workflow.nodes  # nothing done yet: they wait for the whole canvas
    qtbot.waitUntil(lambda: not window.scene.building, timeout=10_000)
    assert not workflow.nodes and not window.scene.node_items and window.document.is_modified()
    window.actions_by_name["undo"].trigger()
    assert set(workflow.nodes) == nodes and set(workflow.edges) == edges
    assert set(window.scene.node_items) == nodes and set(window.scene.edge_items) == edges


def test_an_edit_and_its_undo_during_the_build_are_shown(qtbot: QtBot, large_file: Path) -> None:
    window = _window(qtbot)
    _building(qtbot, window, large_file)
    workflow = window.document.workflow
    before = set(workflow.nodes)
    window.palette_panel.role_activated.emit("executor")  # a double-click in the palette
    added = set(workflow.nodes) - before
    assert len(added) == 1 and added <= set(window.scene.node_items)
    window.actions_by_name["undo"].trigger()
    assert set(workflow.nodes) == before and not added & set(window.scene.node_items)
    window.actions_by_name["redo"].trigger()
    qtbot.waitUntil(lambda: not window.scene.building, timeout=10_000)
    assert set(window.scene.node_items) == set(workflow.nodes) == before | added


def test_another_file_opened_during_the_build_wins(qtbot: QtBot, large_file: Path, tmp_path: Path) -> None:
    window = _window(qtbot)
    second = tmp_path / "second.triadic.json"
    second.write_text(dumps_workflow(generate_workflow(250, seed=22)), encoding="utf-8")
    opened: list[str] = []
    window.files.opened.connect(opened.append)
    _building(qtbot, window, large_file)
    window.actions_by_name["select_all"].trigger()  # meant for the first file: dropped with its build
    window.files.open_path(str(second))
    qtbot.waitUntil(lambda: bool(opened) and not window.scene.building, timeout=10_000)
    qtbot.wait(50)
    workflow = window.document.workflow
    assert opened == [str(second)] and window.document.path == str(second)
    assert set(window.scene.node_items) == set(workflow.nodes) and not window.scene.selectedItems()
    items = len(workflow.nodes) + len(workflow.edges) + 2  # the edge layer and the run layer
    assert len(window.scene.items()) == items and not window.document.is_modified()


def test_closing_the_window_during_the_build_closes_it(qtbot: QtBot, large_file: Path) -> None:
    window = _window(qtbot)
    _building(qtbot, window, large_file)
    assert window.close()  # the document is the file as read: nothing to ask, nothing lost
    qtbot.waitUntil(lambda: not collection_paused(), timeout=10_000)
